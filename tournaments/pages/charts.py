"""A line chart as the server draws it in SVG: pure geometry, no Django and no plotting library.

:func:`line_chart` takes a series of values (a player's rating after each rated match) and gives what a
template needs to draw it: the plot box inside the picture, each point scaled into that box, the path
through them, and the ticks of both axes at round values with their labels. SVG's y axis points down, so
a higher value is drawn nearer the top. The labels (axis titles, numbers) come from the caller, already
in the reader's language.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Tick:
    """A tick on an axis: where it is drawn (pixels along that axis), its value and its label."""

    at: float
    value: float
    label: str


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    # The plot box, in pixels from the picture's top left corner.
    left: float
    top: float
    right: float
    bottom: float
    points: tuple[Point, ...]
    path: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    x_label: str
    y_label: str
    title: str

    @property
    def x_label_at(self) -> tuple[float, float]:
        """Where the x axis's title goes: centred under the tick labels."""
        return ((self.left + self.right) / 2, self.height - 4)

    @property
    def y_label_at(self) -> tuple[float, float]:
        """Where the y axis's title goes (drawn turned a quarter left): centred beside the box."""
        return (12, (self.top + self.bottom) / 2)


def nice_ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """Round values from at or below ``low`` to at or above ``high``, about ``count`` of them, a step of
    1, 2 or 5 times a power of ten apart (``whole``: a step of at least 1, for counts)."""
    if high < low:
        low, high = high, low
    if high - low < 1e-6:  # a flat series (or one that only float noise tells apart): a range around it
        middle = (low + high) / 2
        low, high = middle - 1, middle + 1
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    if whole:
        step = max(1.0, float(math.ceil(step)))
    start = math.floor(low / step) * step
    stop = math.ceil(high / step) * step
    n = round((stop - start) / step)
    return [_clean(start + i * step) for i in range(n + 1)]


def _clean(value: float) -> float:
    """A tick value without the float noise of repeated steps (0.30000000000000004), and no -0."""
    return round(value, 10) + 0.0


def line_chart(
    values: Sequence[float],
    *,
    xs: Sequence[float] | None = None,
    width: int = 560,
    height: int = 260,
    margin: tuple[float, float, float, float] = (16, 16, 44, 56),  # top, right, bottom, left
    title: str = "",
    x_label: str = "",
    y_label: str = "",
    number: Callable[[float], str] = lambda v: f"{v:g}",
    point_label: Callable[[float, float], str] | None = None,
) -> LineChart:
    """The chart of ``values`` at ``xs`` (by default 0, 1, 2 …), in a picture of ``width`` × ``height``
    pixels with the plot box inside ``margin``. ``number`` writes a tick's value; ``point_label(x, y)``
    the text shown over a point."""
    if not values:
        raise ValueError("a chart needs at least one value")
    x_values = list(xs) if xs is not None else list(range(len(values)))
    if len(x_values) != len(values):
        raise ValueError(f"{len(x_values)} x values for {len(values)} values")
    if any(b < a for a, b in zip(x_values, x_values[1:], strict=False)):
        raise ValueError("the x values must not go back")
    top, right, bottom, left = margin
    box_left, box_top, box_right, box_bottom = left, top, width - right, height - bottom
    x_ticks = nice_ticks(min(x_values), max(x_values), count=min(len(x_values), 8), whole=True)
    y_ticks = nice_ticks(min(values), max(values))
    x0, x1 = x_ticks[0], x_ticks[-1]
    y0, y1 = y_ticks[0], y_ticks[-1]

    def to_x(v: float) -> float:
        return box_left + (v - x0) / (x1 - x0) * (box_right - box_left)

    def to_y(v: float) -> float:
        return box_bottom - (v - y0) / (y1 - y0) * (box_bottom - box_top)

    label = point_label or (lambda x, y: f"{number(x)}: {number(y)}")
    points = tuple(
        Point(_px(to_x(x)), _px(to_y(y)), label(x, y)) for x, y in zip(x_values, values, strict=True)
    )
    path = " ".join(f"{'M' if i == 0 else 'L'}{p.x:g},{p.y:g}" for i, p in enumerate(points))
    return LineChart(
        width=width,
        height=height,
        left=box_left,
        top=box_top,
        right=box_right,
        bottom=box_bottom,
        points=points,
        path=path,
        x_ticks=tuple(Tick(_px(to_x(v)), v, number(v)) for v in x_ticks),
        y_ticks=tuple(Tick(_px(to_y(v)), v, number(v)) for v in y_ticks),
        x_label=x_label,
        y_label=y_label,
        title=title,
    )


def _px(value: float) -> float:
    """Pixels to a tenth: enough for a screen, and short in the page."""
    return round(value, 1) + 0.0
