"""Standings as pure functions: the worked example of docs/standings.md checked by hand, table results,
tie-breaks, and properties over random leagues (hypothesis)."""

from __future__ import annotations

import json
import os
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.plan.standings import (
    METRICS,
    Ledger,
    Row,
    SitOut,
    StandingsError,
    TableResult,
    check_precedence,
    contribution_from_json,
    contribution_json,
    default_precedence,
    exact,
    ledger_of,
    lot,
    rank,
    rank_points,
    rows_json,
    shared_ranks,
    show,
    show_apart,
    table_result,
    why_text,
)

NAMES = {1: "A", 2: "B", 3: "C", 4: "D", 5: "E", 6: "F", 7: "G", 8: "H"}
F = Fraction


def table(key: str, game: str, players: list[int], totals: list[int], **kw: object) -> TableResult:
    winners = kw.get("winners")
    if winners is None:
        best = max(totals)
        winners = [s for s, t in enumerate(totals) if t == best]
    return table_result(
        key=key,
        game=game,
        players=players,
        totals=totals,
        winners=winners,  # type: ignore[arg-type]
        sides=kw.get("sides") or [[s] for s in range(len(players))],  # type: ignore[arg-type]
        ruled_against=kw.get("ruled_against") or [0] * len(players),  # type: ignore[arg-type]
        position=int(kw.get("position", 1)),  # type: ignore[call-overload]
        recorded_at="2026-11-24T20:00:00+00:00",
    )


def worked_example() -> list[TableResult | SitOut]:
    """docs/standings.md, "A worked example": a league of rank points over two rounds."""
    return [
        table("match:1", "tarocchi", [1, 2, 3], [20, -5, -15], position=10),
        table("match:2", "barbu", [4, 5, 6, 7], [40, 10, -20, -30], ruled_against=[1, 0, 0, 0], position=11),
        SitOut("sitout:1:8", 8, F(6), 5, "2026-11-24T19:00:00+00:00"),
        # Tressette at four: seats 0+2 (A, D) against 1+3 (B, E); partners carry their side's points.
        table(
            "match:3",
            "tressette",
            [1, 2, 4, 5],
            [31, 20, 31, 20],
            winners=[0, 2],
            sides=[[0, 2], [1, 3]],
            position=20,
        ),
        table("match:4", "tarocchi", [3, 6, 8], [10, 10, -20], position=21),
        SitOut("sitout:2:7", 7, F(6), 12, "2026-11-24T21:00:00+00:00"),
    ]


def example_rows() -> list[Row]:
    return rank(
        ledger_of(worked_example()),
        NAMES,
        scoring="rank_points",
        precedence=default_precedence(["barbu", "tarocchi"]),
        seed=1,
    )


def test_the_worked_example_ranks_as_checked_by_hand() -> None:
    rows = example_rows()

    assert [r.name for r in rows] == ["A", "D", "F", "C", "E", "B", "H", "G"]
    assert [r.values["total"] for r in rows] == [24, 24, 13, 9, 8, 6, 6, 6]
    assert [r.values["tables_won"] for r in rows] == [2, 2, 1, 1, 0, 0, 0, 0]
    assert [r.values["average_rank"] for r in rows] == [1, 1, F(9, 4), F(9, 4), 2, 2, 3, 4]
    assert [r.values["best_result"] for r in rows] == [12, 12, 9, 9, 8, 6, 0, 0]
    assert [(r.tables, r.sit_outs) for r in rows] == [
        (2, 0),
        (2, 0),
        (2, 0),
        (2, 0),
        (2, 0),
        (2, 0),
        (1, 1),
        (1, 1),
    ]


def test_the_worked_example_says_why_each_row_is_above_the_next() -> None:
    rows = example_rows()

    assert rows[0].why_above is None
    assert [r.why_above.text for r in rows[1:] if r.why_above] == [
        "A above D: equal on total 24, tables won 2, average rank 1, head-to-head 0, best result 12; "
        "irregularities ruled against 0 against 1",
        "D above F: total 24 against 13",
        "F above C: total 13 against 9",
        "C above E: total 9 against 8",
        "E above B: total 8 against 6",
        "B above H: equal on total 6, tables won 0; average rank 2 against 3",
        "H above G: equal on total 6, tables won 0; average rank 3 against 4",
    ]


def test_rank_points_are_evenly_spaced_and_ties_share_their_places() -> None:
    assert [rank_points(F(r), 3) for r in (1, 2, 3)] == [12, 6, 0]
    assert [rank_points(F(r), 4) for r in (1, 2, 3, 4)] == [12, 8, 4, 0]
    assert [rank_points(F(r), 2) for r in (1, 2)] == [12, 0]
    assert shared_ranks([10, 10, -20]) == [F(3, 2), F(3, 2), 3]
    assert rank_points(F(3, 2), 3) == 9


def test_a_tressette_match_won_by_calling_out_ranks_the_caller_first_despite_fewer_points() -> None:
    # The side that calls itself out rightly wins the match: its place comes from the win, not the points.
    result = table(
        "match:9", "tressette", [1, 2, 3, 4], [31, 33, 31, 33], winners=[0, 2], sides=[[0, 2], [1, 3]]
    )

    by_player = {p.player: p for p in result.placings}
    assert by_player[1].won and by_player[1].rank == 1 and by_player[1].natural == 1
    assert not by_player[2].won and by_player[2].rank == 2 and by_player[2].natural == 0
    assert by_player[2].points == 33


def test_natural_totals_of_tressette_count_games_won_and_keep_the_points_as_a_tiebreak() -> None:
    results = [
        table("match:1", "tressette", [1, 2, 3, 4], [31, 12, 31, 12], winners=[0, 2], sides=[[0, 2], [1, 3]]),
        table("match:2", "tressette", [1, 2, 3, 4], [20, 31, 20, 31], winners=[1, 3], sides=[[0, 2], [1, 3]]),
    ]
    names = {1: "A", 2: "B", 3: "C", 4: "D"}

    rows = rank(
        ledger_of(results), names, scoring="natural", precedence=default_precedence(["tressette"]), seed=3
    )

    assert {r.name: r.values["total"] for r in rows} == {"A": 1, "B": 1, "C": 1, "D": 1}
    assert [r.name for r in rows[:2]] == ["A", "C"] or [r.name for r in rows[:2]] == ["C", "A"]
    assert rows[2].why_above is not None and rows[2].why_above.key == "points"
    assert rows[2].why_above.text.endswith("points 51 against 43")


def test_head_to_head_counts_only_the_tables_shared_inside_the_tied_group() -> None:
    # A beats B once; both beat C elsewhere so that A, B and C stay tied on total.
    results = [
        table("match:1", "tarocchi", [1, 2, 9], [5, 0, -5]),
        table("match:2", "tarocchi", [2, 3, 9], [5, 0, -5]),
        table("match:3", "tarocchi", [3, 1, 9], [5, 0, -5]),
    ]
    names = {1: "A", 2: "B", 3: "C", 9: "Z"}

    rows = rank(ledger_of(results), names, scoring="natural", precedence=["total", "head_to_head"], seed=0)

    # Totals: A 5, B 5, C 5, Z -15. Inside {A, B, C}: A beat B, B beat C, C beat A: all 0 -> the lot.
    assert rows[-1].name == "Z"
    assert {r.values["head_to_head"] for r in rows[:3]} == {0}
    assert rows[1].why_above is not None and rows[1].why_above.key == "lot"
    assert "drawn by lot, " in rows[1].why_above.text


def test_head_to_head_decides_between_two_players_tied_on_total() -> None:
    results = [
        table("match:1", "barbu", [1, 2, 3, 4], [10, 5, -5, -10]),
        table("match:2", "barbu", [1, 2, 3, 4], [-10, 5, 10, -5]),
    ]
    names = {1: "A", 2: "B", 3: "C", 4: "D"}

    rows = rank(ledger_of(results), names, scoring="natural", precedence=["total", "head_to_head"], seed=0)

    # A 0, B 10, C 5, D -15. No tie on total: head-to-head is never reached.
    assert [r.name for r in rows] == ["B", "C", "A", "D"]
    assert rows[1].values["head_to_head"] is None


def test_precedence_is_checked_and_always_ends_with_the_lot() -> None:
    assert check_precedence(["total"]) == ("total", "lot")
    assert check_precedence(["total", "lot"]) == ("total", "lot")
    for bad, code in (
        (["total", "total"], "tiebreaks.repeated"),
        (["nonsense"], "tiebreaks.unknown"),
        ([], "tiebreaks.empty"),
        (["lot", "total"], "tiebreaks.lot"),
    ):
        with pytest.raises(StandingsError) as err:
            check_precedence(bad)
        assert err.value.code == code and err.value.field == "tiebreaks"


def test_a_player_who_never_played_is_ranked_below_those_who_did_on_average_rank() -> None:
    results = [table("match:1", "tarocchi", [1, 2, 3], [0, 0, 0])]
    names = {1: "A", 2: "B", 3: "C", 4: "D"}

    rows = rank(ledger_of(results), names, scoring="natural", precedence=["total", "average_rank"], seed=0)

    assert rows[-1].name == "D" and rows[-1].values["average_rank"] is None
    assert rows[-1].why_above is not None and rows[-1].why_above.text.endswith("average rank 2 against –")


# ---- properties over random leagues ------------------------------------------------------------------
GAMES = {"tarocchi": 3, "barbu": 4, "hombre_it": 3, "tressette": 4}


@st.composite
def leagues(draw: st.DrawFn) -> tuple[list[TableResult | SitOut], dict[int, str]]:
    n_players = draw(st.integers(4, 12))
    players = list(range(1, n_players + 1))
    out: list[TableResult | SitOut] = []
    for k in range(draw(st.integers(0, 14))):
        game = draw(st.sampled_from(sorted(GAMES)))
        size = GAMES[game]
        seated = draw(st.permutations(players))[:size]
        if len(seated) < size:
            continue
        if game == "tressette":
            a, b = draw(st.integers(0, 40) | st.integers(0, 1)), draw(st.integers(0, 40) | st.integers(0, 1))
            totals = [a, b, a, b]
            sides = [[0, 2], [1, 3]]
            winners = [0, 2] if a > b else [1, 3] if b > a else []
        else:
            # Often tight (-1 to 1): ties shared at a table, equal sums and averages across the league.
            totals = draw(st.lists(st.integers(-50, 50) | st.integers(-1, 1), min_size=size, max_size=size))
            sides = [[s] for s in range(size)]
            best = max(totals)
            winners = [s for s, t in enumerate(totals) if t == best]
        ruled = draw(st.lists(st.integers(0, 2), min_size=size, max_size=size))
        out.append(
            table_result(
                key=f"match:{k}",
                game=game,
                players=seated,
                totals=totals,
                winners=winners,
                sides=sides,
                ruled_against=ruled,
                position=k + 1,
                recorded_at="t",
            )
        )
    for k, p in enumerate(draw(st.lists(st.sampled_from(players), max_size=3))):
        out.append(SitOut(f"sitout:{k}:{p}", p, F(draw(st.integers(0, 12))), 100 + k, "t"))
    return out, {p: f"P{p}" for p in players}


PRECEDENCES = st.lists(st.sampled_from([k for k in METRICS if k != "lot"]), unique=True, min_size=1)


@settings(max_examples=300, deadline=None)
@given(leagues(), PRECEDENCES, st.sampled_from(["natural", "rank_points"]), st.integers(0, 2**31))
def test_standings_are_a_permutation_of_the_players(
    league: tuple[list[TableResult | SitOut], dict[int, str]], precedence: list[str], scoring: str, seed: int
) -> None:
    results, names = league

    rows = rank(ledger_of(results), names, scoring=scoring, precedence=precedence, seed=seed)

    assert sorted(r.player for r in rows) == sorted(names)
    assert [r.rank for r in rows] == list(range(1, len(names) + 1))


@settings(max_examples=300, deadline=None)
@given(leagues(), st.sampled_from(["natural", "rank_points"]))
def test_totals_equal_the_sum_of_the_table_results_and_sit_out_scores(
    league: tuple[list[TableResult | SitOut], dict[int, str]], scoring: str
) -> None:
    results, names = league
    expected = {p: F(0) for p in names}
    for c in results:
        if isinstance(c, SitOut):
            expected[c.player] += c.score
        else:
            for p in c.placings:
                expected[p.player] += p.rank_points if scoring == "rank_points" else p.natural

    rows = rank(ledger_of(results), names, scoring=scoring, precedence=["total"], seed=0)

    assert {r.player: r.values["total"] for r in rows} == expected


@settings(max_examples=300, deadline=None)
@given(leagues(), PRECEDENCES, st.sampled_from(["natural", "rank_points"]), st.integers(0, 2**31))
def test_the_reason_a_row_is_above_the_next_really_differs_and_favours_the_upper_row(
    league: tuple[list[TableResult | SitOut], dict[int, str]], precedence: list[str], scoring: str, seed: int
) -> None:
    results, names = league

    rows = rank(ledger_of(results), names, scoring=scoring, precedence=precedence, seed=seed)

    keys = check_precedence(precedence)
    for above, below in zip(rows, rows[1:], strict=False):
        why = below.why_above
        assert why is not None
        assert why.above != why.below
        assert keys.index(why.key) == len(why.equal_on)
        for key, value in why.equal_on:
            assert above.values[key] == below.values[key] == value
        metric = METRICS[why.key]
        if why.above is not None and why.below is not None:
            assert (why.above < why.below) if metric.ascending else (why.above > why.below)
        else:
            assert why.below is None  # a missing value (no table played) is never above


@settings(max_examples=200, deadline=None)
@given(leagues(), st.randoms(use_true_random=False))
def test_the_ledger_does_not_depend_on_the_order_of_updates_nor_on_taking_results_back(
    league: tuple[list[TableResult | SitOut], dict[int, str]], rnd: random.Random
) -> None:
    results, _ = league
    shuffled = results[:]
    rnd.shuffle(shuffled)
    churned = Ledger()
    for c in shuffled:
        churned.add(c)
    for c in shuffled[: len(shuffled) // 2]:  # a ruling takes some back out, then they come back in
        churned.remove(c)
    for c in shuffled[: len(shuffled) // 2]:
        churned.add(c)

    assert json.dumps(churned.as_json(), sort_keys=True) == json.dumps(
        ledger_of(results).as_json(), sort_keys=True
    )
    assert Ledger.from_json(churned.as_json()).as_json() == churned.as_json()


@settings(max_examples=100, deadline=None)
@given(leagues())
def test_a_contribution_survives_its_json_round_trip(
    league: tuple[list[TableResult | SitOut], dict[int, str]],
) -> None:
    for c in league[0]:
        assert contribution_from_json(json.loads(json.dumps(contribution_json(c)))) == c


def stored_and_read_back(ledger: Ledger) -> Ledger:
    """The running sums as the worker keeps them between two updates: through JSON and back."""
    return Ledger.from_json(json.loads(json.dumps(ledger.as_json())))


def places(key: str, player: int, place: Fraction) -> TableResult:
    """A three-sided table where ``player`` finishes at ``place`` (1, 1.5, 2 or 3) against two others."""
    totals = {F(1): [9, 5, 0], F(3, 2): [9, 9, 0], F(2): [5, 9, 0], F(3): [0, 5, 9]}[place]
    return table(key, "tarocchi", [player, 91, 92], totals)


def test_an_average_rank_read_back_from_the_stored_sums_stays_exact() -> None:
    """Issue 24's minimal case: A's places 1, 1, 1, 2, 3, 3 and B's 1.5, 1, 3 both average 11/6; the
    lot (seed 3) puts B above A. Read back from JSON, whole sums came back as ints and the average rank
    as a float, truncated when stored: the live standings put A first, "average rank 1 against 1.83"."""
    a_places = [F(1), F(1), F(1), F(2), F(3), F(3)]
    b_places = [F(3, 2), F(1), F(3)]
    results = [places(f"match:a{i}", 1, p) for i, p in enumerate(a_places)]
    results += [places(f"match:b{i}", 2, p) for i, p in enumerate(b_places)]
    names = {1: "A", 2: "B"}
    live = Ledger()
    for c in results:  # one update per finished match, the sums stored in between
        live = stored_and_read_back(live)
        live.add(c)
    live = stored_and_read_back(live)

    live_rows = rank(live, names, scoring="rank_points", precedence=["average_rank", "lot"], seed=3)
    rebuilt = rank(
        ledger_of(results), names, scoring="rank_points", precedence=["average_rank", "lot"], seed=3
    )

    assert json.dumps(rows_json(live_rows)) == json.dumps(rows_json(rebuilt))
    assert [r.name for r in live_rows] == ["B", "A"]
    assert live_rows[0].values["average_rank"] == F(11, 6) == live_rows[1].values["average_rank"]
    why = live_rows[1].why_above
    assert why is not None and why.key == "lot"
    assert why.text == f"B above A: equal on average rank 1.83; drawn by lot, {lot(3, 2)} against {lot(3, 1)}"
    assert rows_json(live_rows)[1]["values"]["average_rank"] == "11/6"


def test_a_value_that_is_not_exact_is_refused_rather_than_shown_truncated() -> None:
    with pytest.raises(TypeError):
        exact(11 / 6)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        show(1.5)  # type: ignore[arg-type]


def test_the_deciding_values_are_shown_with_enough_decimals_to_differ() -> None:
    assert show_apart(F(19, 18), F(17, 16)) == ("1.056", "1.063")
    assert show_apart(F(3, 2), F(2)) == ("1.5", "2")
    assert show_apart(F(1, 10**7), F(1, 10**7 + 1)) == ("1/10000000", "1/10000001")
    assert show_apart(F(-7, 3), F(-7, 3)) == ("-2.33", "-2.33")


@settings(max_examples=300, deadline=None)
@given(
    st.fractions(min_value=-100, max_value=100, max_denominator=10**5),
    st.fractions(min_value=-100, max_value=100, max_denominator=10**5),
)
def test_two_different_deciding_values_never_read_the_same(a: Fraction, b: Fraction) -> None:
    shown_a, shown_b = show_apart(a, b)
    assert (shown_a == shown_b) == (a == b)


def test_a_why_above_line_on_close_averages_tells_them_apart() -> None:
    # 19/18 against 17/16, as in issue 24: "1.06 against 1.06" explained nothing.
    text = why_text("B", "A", "average_rank", F(19, 18), F(17, 16), [("total", F(12))])
    assert text == "B above A: equal on total 12; average rank 1.056 against 1.063"


DIFFERENTIAL_EXAMPLES = 5 * int(os.environ.get("SEGNAPUNTI_DIFFERENTIAL_EXAMPLES", "60"))


@settings(max_examples=DIFFERENTIAL_EXAMPLES, deadline=None)
@given(
    leagues(),
    leagues(),
    PRECEDENCES,
    st.sampled_from(["natural", "rank_points"]),
    st.integers(0, 2**31),
    st.randoms(use_true_random=False),
)
def test_sums_kept_update_by_update_rank_as_a_rebuild_from_the_final_results(
    league: tuple[list[TableResult | SitOut], dict[int, str]],
    rulings: tuple[list[TableResult | SitOut], dict[int, str]],
    precedence: list[str],
    scoring: str,
    seed: int,
    rnd: random.Random,
) -> None:
    """The worker's way, without a database: every update reads the sums and the counted results back
    from JSON, takes a result's old version out and puts its new one in. Results finish in random
    order, rulings change (another result under the same key: tables of two, three and four sides) or
    reopen them, and updates come twice. The ranked rows and the sums must be the same bytes as those
    ranked from the final results at once."""
    results, names = league
    variants = {c.key: c for c in rulings[0] if isinstance(c, TableResult)}
    current: dict[str, TableResult | SitOut | None] = {}
    stored: dict[str, dict[str, object]] = {}  # the counted results, as stored beside the standings
    ledger_json = Ledger().as_json()

    def update(key: str) -> None:  # standings_apply_match, in memory
        nonlocal ledger_json
        ledger = Ledger.from_json(json.loads(json.dumps(ledger_json)))
        now = current.get(key)
        if key in stored:
            old = contribution_from_json(json.loads(json.dumps(stored[key])))
            if now is not None and old == now:
                return  # a repeated update changes nothing
            ledger.remove(old)
            del stored[key]
        if now is not None:
            ledger.add(now)
            stored[key] = contribution_json(now)
        ledger_json = ledger.as_json()

    steps: list[tuple[str, TableResult | SitOut | None]] = [(c.key, c) for c in results]
    for c in results:
        if isinstance(c, TableResult) and rnd.random() < 0.4:
            steps.append((c.key, None))  # reopened by a ruling
            steps.append((c.key, variants.get(c.key, c)))  # and finished again, maybe changed
    rnd.shuffle(steps)
    for key, value in steps:
        current[key] = value
        update(key)
        if rnd.random() < 0.3:
            update(rnd.choice(list(current)))  # delivered twice, or late
    final = [c for c in current.values() if c is not None]
    live = Ledger.from_json(json.loads(json.dumps(ledger_json)))

    def ranked(ledger: Ledger) -> str:
        rows = rank(ledger, names, scoring=scoring, precedence=precedence, seed=seed)
        return json.dumps({"rows": rows_json(rows), "sums": ledger.as_json()}, sort_keys=True)

    assert ranked(live) == ranked(ledger_of(final))
