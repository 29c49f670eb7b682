"""The seating planner: every plan checked by an independent counter, the design cases at no repeat, small
cases against a brute-force optimum, history, forbidden pairs, fixed players, sit-outs, partners, first
dealers, determinism, and the director's command."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.plan.seating import (
    SeatingError,
    SeatingPlan,
    kirkman_rounds,
    plan_seating,
    table_layout,
    transversal_rounds,
)

ROOT = Path(__file__).resolve().parents[3]


def meetings(rounds: Iterable[Iterable[Sequence[int]]]) -> Counter[tuple[int, int]]:
    """How often each pair sat at one table: counted here, not by the planner."""
    met: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                met[(a, b)] += 1
    return met


def repeats(rounds: Iterable[Iterable[Sequence[int]]]) -> int:
    return sum(m - 1 for m in meetings(rounds).values() if m > 1)


def tables_of(plan: SeatingPlan) -> list[list[tuple[int, ...]]]:
    return [[t.players for t in r.tables] for r in plan.rounds]


def check_structure(plan: SeatingPlan, players: Sequence[int], sizes: Sequence[int]) -> None:
    for rnd in plan.rounds:
        seated = [p for t in rnd.tables for p in t.players]
        assert sorted(seated + list(rnd.sit_outs)) == sorted(players), "everyone exactly once a round"
        assert all(len(t.players) in sizes for t in rnd.tables)
        assert all(0 <= t.dealer < len(t.players) for t in rnd.tables)
        assert len(rnd.sit_outs) == len(players) - sum(table_layout(len(players), sizes))


# ---- constructions -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("k", "q"), [(3, 3), (4, 4), (4, 8), (3, 5), (3, 7), (4, 9), (3, 16), (5, 5)])
def test_the_transversal_design_rounds_never_seat_a_pair_twice(k: int, q: int) -> None:
    rounds = transversal_rounds(k, q)

    assert rounds is not None
    assert len(rounds) == q + (q % k == 0)
    for rnd in rounds:
        assert sorted(p for t in rnd for p in t) == list(range(k * q))
    assert max(meetings(rounds).values()) == 1


@pytest.mark.parametrize("q", [7, 13, 19, 25])
def test_the_kirkman_rounds_seat_every_pair_exactly_once(q: int) -> None:
    rounds = kirkman_rounds(q)

    assert rounds is not None and len(rounds) == (3 * q - 1) // 2
    met = meetings(rounds)
    assert len(met) == (3 * q) * (3 * q - 1) // 2 and set(met.values()) == {1}


def test_no_construction_where_the_field_or_the_counts_do_not_allow_one() -> None:
    assert transversal_rounds(4, 3) is None  # fewer groups' worth of field elements than seats
    assert transversal_rounds(3, 6) is None  # no field of six elements
    assert kirkman_rounds(5) is None  # 5 is not 1 mod 6


# ---- the design cases ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "k", "r"), [(15, 3, 7), (16, 4, 5), (32, 4, 9), (9, 3, 4), (21, 3, 10)])
def test_the_design_cases_are_seated_with_no_repeated_meeting(n: int, k: int, r: int) -> None:
    plan = plan_seating(players=list(range(n)), table_sizes=(k,), rounds=r, seed=5, budget_seconds=9)

    check_structure(plan, list(range(n)), (k,))
    assert repeats(tables_of(plan)) == plan.repeats == 0
    assert plan.lower_bound == 0 and plan.optimal


# ---- small cases against brute force -------------------------------------------------------------------
def partitions(players: Sequence[int], layout: Sequence[int]) -> list[list[tuple[int, ...]]]:
    """Every way to seat the players at tables of the layout's sizes (each way once: the first player's
    table is chosen first, of each size the layout has)."""
    if not layout:
        return [[]]
    out = []
    head = players[0]
    for size in sorted(set(layout)):
        rest = list(layout)
        rest.remove(size)
        for others in combinations(players[1:], size - 1):
            table = (head, *others)
            left = [p for p in players if p not in table]
            out += [[table, *more] for more in partitions(left, rest)]
    return out


def brute_force(n: int, layout: Sequence[int], rounds: int) -> int:
    options = partitions(list(range(n)), layout)
    return min(repeats(plan) for plan in product(options, repeat=rounds))


@pytest.mark.parametrize(
    ("n", "sizes", "rounds"),
    [(6, (3,), 2), (6, (3,), 3), (6, (3,), 4), (8, (4,), 2), (8, (4,), 3), (7, (4, 3), 2), (9, (3,), 5)],
)
def test_small_plans_reach_the_brute_force_optimum(n: int, sizes: tuple[int, ...], rounds: int) -> None:
    # 9 at 3 for 5 rounds: 45 meetings among 36 pairs make 9 repeats at least, and a 4-round design
    # plus any round has 9; the other cases are small enough to try every plan.
    best = 9 if (n, rounds) == (9, 5) else brute_force(n, table_layout(n, sizes), rounds)

    plan = plan_seating(players=list(range(n)), table_sizes=sizes, rounds=rounds, seed=2, budget_seconds=3)

    assert plan.repeats == repeats(tables_of(plan)) == best
    assert plan.lower_bound <= best


# ---- constraints ---------------------------------------------------------------------------------------
@st.composite
def requests(draw: st.DrawFn) -> dict[str, object]:
    sizes = draw(st.sampled_from([(3,), (4,), (4, 3)]))
    n = draw(st.integers(min(sizes), 16))
    players = draw(st.lists(st.integers(1, 500), min_size=n, max_size=n, unique=True))
    layout = table_layout(n, sizes)
    fixed = {}
    if draw(st.booleans()):
        fixed[players[0]] = draw(st.integers(0, len(layout) - 1))
    pairs = draw(st.lists(st.tuples(st.sampled_from(players), st.sampled_from(players)), max_size=2))
    return {
        "players": players,
        "table_sizes": sizes,
        "rounds": draw(st.integers(1, 4)),
        "seed": draw(st.integers(0, 10**6)),
        "fixed": fixed,
        "forbidden": [(a, b) for a, b in pairs if a != b],
        "partnerships": draw(st.booleans()),
    }


@settings(max_examples=60, deadline=None)
@given(requests())
def test_every_plan_seats_everyone_once_honours_the_constraints_and_rotates_sit_outs(
    request: dict[str, object],
) -> None:
    players: list[int] = request["players"]  # type: ignore[assignment]
    sizes: tuple[int, ...] = request["table_sizes"]  # type: ignore[assignment]
    try:
        plan = plan_seating(**request, budget_seconds=0.05)  # type: ignore[arg-type]
    except SeatingError as exc:
        assert "cannot be kept apart" in str(exc)  # only a forbidden pair the tables cannot separate
        return

    check_structure(plan, players, sizes)
    forbidden = {tuple(sorted(p)) for p in request["forbidden"]}  # type: ignore[attr-defined]
    assert not forbidden & set(meetings(tables_of(plan)))
    for player, table in request["fixed"].items():  # type: ignore[attr-defined]
        assert all(player in rnd.tables[table].players for rnd in plan.rounds)
    sat: Counter[int] = Counter()
    for rnd in plan.rounds:
        sat.update(rnd.sit_outs)
        counts = [sat[p] for p in players if p not in request["fixed"]]  # type: ignore[operator]
        assert max(counts) - min(counts) <= 1, "nobody sits out twice before everyone has once"
    for rnd in plan.rounds:
        for t in rnd.tables:
            if request["partnerships"] and len(t.players) == 4:
                assert t.pairs == ((t.players[0], t.players[2]), (t.players[1], t.players[3]))
            else:
                assert t.pairs is None


def test_earlier_rounds_count_and_are_not_repeated_when_they_need_not_be() -> None:
    first = plan_seating(players=list(range(9)), table_sizes=(3,), rounds=1, seed=1)
    history = [list(t.players) for t in first.rounds[0].tables]

    later = plan_seating(
        players=list(range(9)), table_sizes=(3,), rounds=3, seed=4, history=[history], budget_seconds=5
    )

    assert later.repeats == 0
    assert max(meetings([history, *tables_of(later)]).values()) == 1


def test_the_planner_counts_meetings_in_the_history_as_repeats() -> None:
    history = [[[0, 1, 2], [3, 4, 5]]] * 3  # the same tables three times: 12 repeats already

    plan = plan_seating(players=list(range(6)), table_sizes=(3,), rounds=1, seed=0, history=history)

    assert repeats(history) == 12
    # Any table of three takes two players who met thrice: the least a round can add is one per table.
    assert plan.repeats == repeats([*history, *tables_of(plan)]) - 12 == 2


def test_sit_outs_go_first_to_those_who_sat_out_least_in_the_history() -> None:
    plan = plan_seating(
        players=list(range(7)), table_sizes=(3,), rounds=1, seed=0, history_sit_outs=[[0], [1], [2], [3], [4]]
    )

    assert plan.rounds[0].sit_outs in ((5,), (6,))


def test_a_forbidden_pair_never_sits_together() -> None:
    plan = plan_seating(
        players=list(range(8)),
        table_sizes=(4,),
        rounds=4,
        seed=3,
        forbidden=[(0, 1), (2, 3)],
        budget_seconds=1,
    )

    met = meetings(tables_of(plan))
    assert (0, 1) not in met and (2, 3) not in met


def test_a_forbidden_pair_that_cannot_be_kept_apart_is_refused_by_name() -> None:
    with pytest.raises(SeatingError, match="players 10 and 20 cannot be kept apart"):
        plan_seating(
            players=[10, 20, 30], table_sizes=(3,), rounds=1, seed=0, forbidden=[(10, 20)], budget_seconds=0.1
        )


def test_partners_change_over_the_rounds_of_a_tressette_evening() -> None:
    plan = plan_seating(
        players=list(range(8)), table_sizes=(4,), rounds=4, seed=6, partnerships=True, budget_seconds=2
    )

    partnered = Counter(tuple(sorted(pair)) for r in plan.rounds for t in r.tables for pair in t.pairs or ())
    assert len(partnered) == 16 and max(partnered.values()) == 1


def test_first_deals_are_shared_out() -> None:
    plan = plan_seating(players=list(range(12)), table_sizes=(3,), rounds=6, seed=8, budget_seconds=1)

    dealt = Counter(t.players[t.dealer] for r in plan.rounds for t in r.tables)
    assert sum(dealt.values()) == 24 and set(dealt.values()) == {2}


def test_the_same_seed_gives_the_same_plan_and_another_seed_another() -> None:
    def plan(seed: int) -> list[list[tuple[int, ...]]]:
        return tables_of(plan_seating(players=list(range(15)), table_sizes=(3,), rounds=7, seed=seed))

    assert plan(11) == plan(11)
    assert plan(11) != plan(12)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": [1, 2], "table_sizes": (3,), "rounds": 1}, "2 players cannot fill one table of 3"),
        ({"players": [1, 2, 3], "table_sizes": (3,), "rounds": 0}, "plan at least one round"),
        ({"players": [1, 1, 2], "table_sizes": (3,), "rounds": 1}, "each player is listed once"),
        ({"players": [1, 2, 3], "table_sizes": (3,), "rounds": 1, "fixed": {1: 2}}, "there is no table 3"),
        (
            {"players": [1, 2, 3], "table_sizes": (1,), "rounds": 1},
            "table sizes are whole numbers of 2 or more",
        ),
    ],
)
def test_bad_requests_are_refused_with_a_clear_message(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SeatingError, match=message):
        plan_seating(seed=0, **kwargs)  # type: ignore[arg-type]


def test_a_mixed_count_uses_the_games_allowed_mix_before_any_sit_out() -> None:
    assert table_layout(10, (4, 3)) == (4, 3, 3)
    assert table_layout(12, (4, 3)) == (4, 4, 4)
    assert table_layout(10, (3,)) == (3, 3, 3)
    assert table_layout(2, (3,)) == ()


# ---- the command ---------------------------------------------------------------------------------------
def run_command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "seating_plan", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "sqlite:///:memory:", "DEBUG": "true"},
    )


def test_the_command_prints_the_plan_as_json() -> None:
    done = run_command("--players", "9", "--table-size", "3", "--rounds", "4", "--seed", "1", "--json")

    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["repeats"] == 0 and len(body["rounds"]) == 4
    assert all(sorted(p for t in r for p in t) == list(range(9)) for r in body["rounds"])
    assert repeats(body["rounds"]) == 0


def test_the_command_prints_a_readable_plan_and_shows_progress() -> None:
    done = run_command("--players", "15", "--table-size", "3", "--rounds", "7", "--seed", "1")

    assert done.returncode == 0, done.stderr
    assert "Round 7" in done.stdout and "Repeated meetings: 0" in done.stdout
    assert "done:" in done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "2", "--table-size", "3", "--rounds", "2"], "2 players cannot fill one table of 3"),
        (["--players", "9", "--table-size", "3", "--rounds", "0"], "plan at least one round"),
        (["--players", "9", "--table-size", "x", "--rounds", "1"], "--table-size takes sizes like 4 or 4,3"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(args: list[str], message: str) -> None:
    done = run_command(*args)

    assert done.returncode == 2
    assert message in done.stderr


# ---- per-round repeats, history against brute force, large evenings ------------------------------------
def brute_force_after(history: list[list[int]], n: int, layout: Sequence[int], rounds: int) -> int:
    """The fewest repeats that ``rounds`` more rounds can add to ``history`` (every plan tried)."""
    before = repeats([history])
    options = partitions(list(range(n)), layout)
    return min(repeats([history, *plan]) - before for plan in product(options, repeat=rounds))


@pytest.mark.parametrize(
    ("n", "sizes", "history", "rounds"),
    [
        (6, (3,), [[0, 1, 2], [3, 4, 5]], 2),
        (6, (3,), [[0, 1, 2], [3, 4, 5]], 3),
        (8, (4,), [[0, 1, 2, 3], [4, 5, 6, 7]], 2),
        (7, (4, 3), [[0, 1, 2, 3], [4, 5, 6]], 2),
    ],
)
def test_plans_after_a_played_round_reach_the_brute_force_optimum(
    n: int, sizes: tuple[int, ...], history: list[list[int]], rounds: int
) -> None:
    best = brute_force_after(history, n, table_layout(n, sizes), rounds)

    plan = plan_seating(
        players=list(range(n)), table_sizes=sizes, rounds=rounds, seed=3, history=[history], budget_seconds=3
    )

    assert plan.repeats == repeats([history, *tables_of(plan)]) - repeats([history]) == best


@given(requests(), st.data())
@settings(max_examples=40, deadline=None)
def test_each_rounds_repeats_count_the_meetings_it_adds_and_add_up_to_the_plans(
    request: dict[str, object], data: st.DataObject
) -> None:
    players: list[int] = request["players"]  # type: ignore[assignment]
    order = data.draw(st.permutations(players))
    history: list[list[int]] = []
    at = 0
    for size in table_layout(len(players), request["table_sizes"]):  # type: ignore[arg-type]
        history.append(list(order[at : at + size]))
        at += size
    request = {**request, "forbidden": [], "history": [history]}
    plan = plan_seating(**request, budget_seconds=0.05)  # type: ignore[arg-type]

    assert len(plan.round_repeats) == len(plan.rounds)
    assert sum(plan.round_repeats) == plan.repeats
    seen = [history]
    for count, rnd in zip(plan.round_repeats, tables_of(plan), strict=True):
        met = meetings(seen)
        assert count == sum(1 for t in rnd for pair in combinations(sorted(t), 2) if met[pair])
        seen.append(rnd)


def test_a_round_of_ten_thousand_players_keeps_the_budget() -> None:
    players = list(range(10_000))

    plan = plan_seating(players=players, table_sizes=(4, 3), rounds=3, seed=1, budget_seconds=3)

    check_structure(plan, players, (4, 3))
    assert plan.seconds <= 3 + 1.0  # the deadline is checked inside the loops (a loaded machine's slack)
    assert plan.repeats == repeats(tables_of(plan))
