"""The rating chart's geometry (``tournaments/pages/charts.py``): pure Python, no database."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pages.charts import line_chart, nice_ticks


def test_ticks_are_round_values_that_cover_the_range() -> None:
    assert nice_ticks(0, 14.3) == [0, 5, 10, 15]
    assert nice_ticks(-3.2, 4.1) == [-4, -2, 0, 2, 4, 6]
    assert nice_ticks(0.1, 0.35) == [0.1, 0.2, 0.3, 0.4]
    assert nice_ticks(0.1, 0.35, 6) == [0.1, 0.15, 0.2, 0.25, 0.3, 0.35]


def test_ticks_of_counts_are_whole_numbers() -> None:
    assert nice_ticks(0, 3, 4, whole=True) == [0, 1, 2, 3]
    assert all(t == int(t) for t in nice_ticks(0, 37, 8, whole=True))


def test_a_flat_series_still_gets_a_range() -> None:
    ticks = nice_ticks(5, 5)
    assert ticks[0] < 5 < ticks[-1]


def test_points_are_scaled_into_the_plot_box_higher_values_nearer_the_top() -> None:
    chart = line_chart([0, 2.5, 7.1, 6.0], width=400, height=200, margin=(10, 20, 30, 40))

    assert (chart.left, chart.top, chart.right, chart.bottom) == (40, 10, 380, 170)
    xs = [p.x for p in chart.points]
    ys = [p.y for p in chart.points]
    assert xs[0] == chart.left and xs[-1] == chart.right  # the x ticks run from 0 to 3: the ends of the box
    assert xs == sorted(xs) and len(set(xs)) == 4  # monotone x, evenly spaced
    assert xs[1] - xs[0] == pytest.approx(xs[2] - xs[1], abs=0.1)
    assert all(chart.top <= y <= chart.bottom for y in ys)
    assert ys[0] == chart.bottom  # 0 is the lowest tick: the bottom of the box
    assert ys[2] < ys[3] < ys[1] < ys[0]  # SVG's y points down: the highest value is nearest the top


def test_the_path_goes_through_every_point_in_order() -> None:
    chart = line_chart([1, 3, 2])

    moves = re.findall(r"([ML])([\d.]+),([\d.]+)", chart.path)
    assert [m[0] for m in moves] == ["M", "L", "L"]
    assert [(float(x), float(y)) for _, x, y in moves] == [(p.x, p.y) for p in chart.points]


def test_ticks_sit_on_the_axes_with_their_labels() -> None:
    chart = line_chart(
        [0, 4.25, 9.5],
        number=lambda v: f"<{v:g}>",
        title="Rating at Tressette",
        x_label="Rated matches",
        y_label="Rating",
    )

    assert [t.label for t in chart.x_ticks] == ["<0>", "<1>", "<2>"]
    assert [t.value for t in chart.y_ticks] == [0, 5, 10]
    assert chart.y_ticks[0].at == chart.bottom and chart.y_ticks[-1].at == chart.top
    assert chart.x_ticks[0].at == chart.left and chart.x_ticks[-1].at == chart.right
    assert [t.at for t in chart.y_ticks] == sorted((t.at for t in chart.y_ticks), reverse=True)
    assert (chart.title, chart.x_label, chart.y_label) == ("Rating at Tressette", "Rated matches", "Rating")
    assert chart.points[1].label == "<1>: <4.25>"


def test_a_point_label_can_be_given() -> None:
    chart = line_chart([0, 1], point_label=lambda x, y: f"after {x:g}: {y:g}")
    assert [p.label for p in chart.points] == ["after 0: 0", "after 1: 1"]


def test_x_values_that_go_back_or_do_not_match_are_refused() -> None:
    with pytest.raises(ValueError):
        line_chart([1, 2], xs=[1, 0])
    with pytest.raises(ValueError):
        line_chart([1, 2], xs=[0])
    with pytest.raises(ValueError):
        line_chart([])


@given(st.lists(st.floats(min_value=-60, max_value=60, allow_nan=False), min_size=1, max_size=60))
def test_any_series_fits_the_box_in_order(values: list[float]) -> None:
    chart = line_chart(values)
    xs = [p.x for p in chart.points]
    assert xs == sorted(xs)
    for p, v in zip(chart.points, values, strict=True):
        assert chart.left <= p.x <= chart.right and chart.top <= p.y <= chart.bottom
        assert chart.y_ticks[0].value - 1e-9 <= v <= chart.y_ticks[-1].value + 1e-9
    for a, b, pa, pb in zip(values, values[1:], chart.points, chart.points[1:], strict=False):
        if a < b:
            assert pa.y >= pb.y  # a higher value is never drawn lower
