"""Seating for a club evening: who sits at which table in each round, so that players meet as many
different opponents as they can (the social golfer problem). Pure Python, standard library only.

:func:`plan_seating` takes the players, the table sizes the game allows, the number of rounds, the rounds
already played (their meetings count), forbidden pairs, players tied to a table and a seed, and returns
each round's tables in seat order with the first dealer (and Tressette's pairs), and who sits out.

The method (``docs/seating.md``):

1. *Layout.* The most players seated (the game's allowed mix of table sizes, larger tables first), the
   rest sitting out; sit-outs go to those who sat out least so far (history included), ties drawn by the
   seed, so that nobody sits out twice before everyone has once.
2. *Start.* Where the counts allow it and nothing was played yet, an algebraic construction with no
   repeated meeting: a resolvable transversal design over the finite field GF(q) (players as k groups of
   q, one round per slope) plus, when k divides q, a round that splits each group into tables. It gives
   9 at 3 for 4 rounds, 16 at 4 for 5 and 32 at 4 for 9 outright. Otherwise each round is seated
   greedily, each player going where he has met the fewest.
3. *Search.* A tabu search over swaps of two players of one round (in the manner of Dotú and Van
   Hentenryck's for the social golfer problem): each step takes a round where some pair meets again and
   makes the best swap of one of its conflicting players (the cost change is computed from the two tables
   only), a swap stays forbidden for a few steps, and after a long stall a few random swaps shake the plan.
   It stops at the lower bound, after many steps with no better plan, or when the time budget is spent,
   returning the best plan found.
4. *Seats.* At each table, the order that changes Tressette partners most, then the first dealer: the
   player who dealt first least often so far.

Objective, in order: no forbidden pair at a table; the fewest repeated meetings (a pair meeting k times
counts k - 1, history included); then no pair meeting a third time while others never met; partners that
change; first deals shared out. The search is driven by its step count and the seed: the same input gives
the same plan, unless the budget cuts it off first, in which case a faster machine may go further.
"""

from __future__ import annotations

import random
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from scoring.rules.errors import _ as gettext_noop  # marks a text for the catalogues (no Django here)

# Cost weights: a forbidden pair outweighs any number of repeats; a repeat outweighs any spread.
FORBIDDEN = 1_000_000
REPEAT = 1_000
THIRD = 1  # each meeting beyond the second, on top of the repeat it is
STALL = 200  # steps without a better plan before a shake
PATIENCE = 20_000  # steps without a better plan before the search gives up (the bound may be out of reach)
TENURE = (10, 30)  # how many steps a swap may not be undone (drawn in this range)
FINISH_SECONDS_PER_SEAT = 4e-5  # time kept back from the search for the seats and first dealers


class SeatingError(ValueError):
    """The seating asked for cannot be made; the message names the argument. Where a director can meet
    it (forbidden pairs that no seating keeps apart), ``template`` and ``params`` word it for a reader
    (``scoring.rules.errors``): the players by their ids."""

    def __init__(self, message: str, template: str = "", **params: Any) -> None:
        super().__init__(message)
        self.template = template
        self.params = params


@dataclass(frozen=True)
class TablePlan:
    players: tuple[int, ...]  # in seat order, seat 0 first
    dealer: int  # the seat (0-based) that deals first
    pairs: tuple[tuple[int, int], ...] | None  # Tressette at four: seats 0+2 and 1+3


@dataclass(frozen=True)
class RoundPlan:
    tables: tuple[TablePlan, ...]
    sit_outs: tuple[int, ...]


@dataclass(frozen=True)
class SeatingPlan:
    rounds: tuple[RoundPlan, ...]
    repeats: int  # repeated meetings the plan adds (meetings in the history counted)
    lower_bound: int  # no plan of this layout can add fewer
    seed: int
    steps: int  # search steps taken
    seconds: float
    optimal: bool  # the lower bound was reached
    # The repeats each round adds, in order (a meeting of a pair that met before, history included):
    # what a round shown to the players can say of itself. They add up to ``repeats``.
    round_repeats: tuple[int, ...] = ()


# ---- the layout --------------------------------------------------------------------------------------
def table_layout(players: int, sizes: Sequence[int]) -> tuple[int, ...]:
    """The table sizes that seat the most players (larger tables first, then the fewest tables)."""
    best: tuple[int, ...] = ()
    allowed = sorted(set(sizes), reverse=True)
    # Few table sizes and few tables: try every count of the largest size, fill the rest greedily.
    for seated in range(players, min(allowed) - 1, -1):
        found = _compose(seated, allowed)
        if found is not None:
            return found
    return best


def _compose(total: int, sizes: Sequence[int]) -> tuple[int, ...] | None:
    if total == 0:
        return ()
    for i, size in enumerate(sizes):
        for count in range(total // size, 0, -1):
            rest = _compose(total - count * size, sizes[i + 1 :])
            if rest is not None:
                return (size,) * count + rest
    return None


# ---- a finite field, for the constructions -----------------------------------------------------------
# Irreducible polynomials for the prime powers used (coefficients, lowest degree first, monic).
_IRREDUCIBLE = {
    4: (2, (1, 1)),
    8: (2, (1, 1, 0)),
    16: (2, (1, 1, 0, 0)),
    32: (2, (1, 0, 1, 0, 0)),
    9: (3, (1, 0)),
    27: (3, (1, 2, 0)),
    25: (5, (3, 0)),
}


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def field(q: int) -> tuple[Callable[[int, int], int], Callable[[int, int], int]] | None:
    """Addition and multiplication of GF(q) on the numbers 0..q-1, or None if not supported."""
    if _is_prime(q):
        return (lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q)
    if q not in _IRREDUCIBLE:
        return None
    p, low = _IRREDUCIBLE[q]
    n = len(low)

    def digits(a: int) -> list[int]:
        return [(a // p**i) % p for i in range(n)]

    def number(d: Sequence[int]) -> int:
        return sum(c * p**i for i, c in enumerate(d))

    def add(a: int, b: int) -> int:
        return number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)])

    def mul(a: int, b: int) -> int:
        prod = [0] * (2 * n - 1)
        for i, x in enumerate(digits(a)):
            for j, y in enumerate(digits(b)):
                prod[i + j] = (prod[i + j] + x * y) % p
        for k in range(2 * n - 2, n - 1, -1):  # x^n = -(low) reduces the high terms
            c = prod[k]
            if c:
                prod[k] = 0
                for i, coeff in enumerate(low):
                    prod[k - n + i] = (prod[k - n + i] - c * coeff) % p
        return number(prod[:n])

    add_table = [[add(a, b) for b in range(q)] for a in range(q)]
    mul_table = [[mul(a, b) for b in range(q)] for a in range(q)]
    return (lambda a, b: add_table[a][b]), (lambda a, b: mul_table[a][b])


def transversal_rounds(k: int, q: int) -> list[list[list[int]]] | None:
    """Rounds of k*q players (numbered group * q + x) at tables of k where no two meet twice: the q
    parallel classes of a resolvable transversal design over GF(q), then, when k divides q, a round
    splitting each group into tables. None when GF(q) is not at hand or q < k."""
    ops = field(q)
    if ops is None or q < k:
        return None
    add, mul = ops
    rounds = []
    for a in range(q):  # the slope: one round
        tables = []
        for b in range(q):  # the intercept: one table
            tables.append([g * q + add(mul(a, g), b) for g in range(k)])
        rounds.append(tables)
    if q % k == 0:
        rounds.append([[g * q + x for x in range(i, i + k)] for g in range(k) for i in range(0, q, k)])
    return rounds


def kirkman_rounds(q: int) -> list[list[list[int]]] | None:
    """The (3q - 1) / 2 rounds of a Kirkman triple system on 3q players (numbered level * q + x), for a
    prime power q = 6t + 1 (21, 39, 57 ... players): every two players meet exactly once.

    Ray-Chaudhuri and Wilson's construction over GF(q): with a primitive element w and the cube root of
    unity e = w^(2t), the first round holds {0, 0, 0} across the levels, at each level the cube-root
    cosets {x, xe, xe^2} for the first t cosets, and {x, xe, xe^2} across the levels for the other t; the
    round shifted by every element of GF(q) gives q rounds. The other 3t rounds pair level differences
    left over: for each s in the first t cosets, {x, x + (e - 1)s, x - (e - 1)es} across the levels.
    """
    ops = field(q)
    if ops is None or q % 6 != 1:
        return None
    add, mul = ops

    def neg(a: int) -> int:
        return next(b for b in range(q) if add(a, b) == 0)

    def power(a: int, k: int) -> int:
        out = 1
        for _ in range(k):
            out = mul(out, a)
        return out

    t = (q - 1) // 6
    w = next(g for g in range(2, q) if all(power(g, k) != 1 for k in range(1, q - 1)))
    e = power(w, 2 * t)
    e_minus_1 = add(e, neg(1))
    first = [[power(w, i), mul(power(w, i), e), mul(power(w, i), mul(e, e))] for i in range(t)]
    second = [[power(w, i), mul(power(w, i), e), mul(power(w, i), mul(e, e))] for i in range(t, 2 * t)]
    base: list[list[tuple[int, int]]] = [[(0, 0), (1, 0), (2, 0)]]
    for level in range(3):
        base += [[(level, x) for x in coset] for coset in first]
    for a, b, c in second:
        base += [[(0, a), (1, b), (2, c)], [(0, b), (1, c), (2, a)], [(0, c), (1, a), (2, b)]]
    rounds = [[[level * q + add(x, shift) for level, x in triple] for triple in base] for shift in range(q)]
    for coset in first:
        for s in coset:
            d, d2 = mul(e_minus_1, s), mul(e_minus_1, neg(mul(e, s)))
            rounds.append([[x, q + add(x, d), 2 * q + add(x, d2)] for x in range(q)])
    return rounds


# ---- the search --------------------------------------------------------------------------------------
class _Deadline(Exception):
    """The time budget ran out inside a loop: the caller keeps the best plan it has."""


class _Clock:
    """The budget as a hard deadline, read by the loops that could outlast it (checked every few
    iterations: reading the clock is cheap, but not free)."""

    def __init__(self, started: float, budget: float) -> None:
        self.started = started
        self.ends = started + budget
        self.ticks = 0

    def over(self) -> bool:
        return time.perf_counter() > self.ends

    def tick(self, every: int = 256) -> None:
        """Raise :class:`_Deadline` once the budget is spent (the clock read every ``every`` calls)."""
        self.ticks += 1
        if self.ticks % every == 0 and time.perf_counter() > self.ends:
            raise _Deadline


def _meetings(n: int, tables: Iterable[Sequence[int]]) -> list[dict[int, int]]:
    """Who met whom how often, one sparse row per player (a dense n x n matrix does not fit 10,000)."""
    meet: list[dict[int, int]] = [{} for _ in range(n)]
    for t in tables:
        for a, b in combinations(t, 2):
            meet[a][b] = meet[a].get(b, 0) + 1
            meet[b][a] = meet[b].get(a, 0) + 1
    return meet


class _Search:
    """Rounds as lists of tables of player indices, the meeting counts, and the cost kept up to date."""

    def __init__(
        self,
        n: int,
        rounds: list[list[list[int]]],
        history: list[list[int]],
        forbidden: set[tuple[int, int]],
        fixed: dict[int, int],
    ) -> None:
        self.n = n
        self.rounds = rounds
        self.fixed = fixed
        self.meet = _meetings(n, history)
        self.base_repeats = self.repeats()  # the history's own repeats, not the plan's doing
        self.pen: list[set[int]] = [set() for _ in range(n)]
        for a, b in forbidden:
            self.pen[a].add(b)
            self.pen[b].add(a)
        for tables in rounds:
            for t in tables:
                for a, b in combinations(t, 2):
                    self.meet[a][b] = self.meet[a].get(b, 0) + 1
                    self.meet[b][a] = self.meet[b].get(a, 0) + 1
        self.where = [[0] * n for _ in rounds]
        for r, tables in enumerate(rounds):
            for i, t in enumerate(tables):
                for p in t:
                    self.where[r][p] = i
        self.cost = self._cost()

    @staticmethod
    def _f(m: int) -> int:
        return REPEAT * max(0, m - 1) + THIRD * max(0, m - 2)

    def _cost(self) -> int:
        total = 0
        for a in range(self.n):
            pen = self.pen[a]
            for b, m in self.meet[a].items():
                if b > a and m:
                    total += self._f(m) + FORBIDDEN * (b in pen) * m
        return total

    def done(self, target_repeats: int) -> bool:
        return self.repeats() <= target_repeats and not self.forbidden_left()

    def repeats(self) -> int:
        return sum(m - 1 for a, row in enumerate(self.meet) for b, m in row.items() if b > a and m > 1)

    def forbidden_left(self) -> list[tuple[int, int]]:
        return [
            (a, b)
            for tables in self.rounds
            for t in tables
            for a, b in combinations(t, 2)
            if b in self.pen[a]
        ]

    @staticmethod
    def _gain(m: int) -> int:
        """Cost added by one more meeting of a pair that has met m times."""
        return REPEAT * (m >= 1) + THIRD * (m >= 2)

    def delta(self, r: int, x: int, y: int) -> int:
        """The cost change of swapping x and y (at different tables of round r)."""
        gain = self._gain
        a, b = self.rounds[r][self.where[r][x]], self.rounds[r][self.where[r][y]]
        d = 0
        mx, my, px, py = self.meet[x], self.meet[y], self.pen[x], self.pen[y]
        for z in a:
            if z != x:
                d += gain(my.get(z, 0)) - gain(mx.get(z, 0) - 1) + FORBIDDEN * ((z in py) - (z in px))
        for z in b:
            if z != y:
                d += gain(mx.get(z, 0)) - gain(my.get(z, 0) - 1) + FORBIDDEN * ((z in px) - (z in py))
        return d

    def swap(self, r: int, x: int, y: int) -> None:
        d = self.delta(r, x, y)
        ia, ib = self.where[r][x], self.where[r][y]
        a, b = self.rounds[r][ia], self.rounds[r][ib]
        meet = self.meet
        for z in a:
            if z != x:
                _bump(meet, x, z, -1)
                _bump(meet, y, z, 1)
        for z in b:
            if z != y:
                _bump(meet, y, z, -1)
                _bump(meet, x, z, 1)
        a[a.index(x)] = y
        b[b.index(y)] = x
        self.where[r][x], self.where[r][y] = ib, ia
        self.cost += d

    def conflicted(self, r: int) -> list[int]:
        """The movable players of round r who sit with someone they meet more than once (or must not)."""
        out = []
        for t in self.rounds[r]:
            for x in t:
                if x in self.fixed:
                    continue
                row, pen = self.meet[x], self.pen[x]
                if any(z != x and (row.get(z, 0) > 1 or z in pen) for z in t):
                    out.append(x)
        return out


def _round_repeats(n: int, history: list[list[int]], rounds: list[list[list[int]]]) -> list[int]:
    """The repeated meetings each round adds, in round order: a meeting of a pair that had met before
    (in the history or an earlier round of the plan). They add up to the plan's repeats."""
    met = _meetings(n, history)
    out = []
    for tables in rounds:
        count = 0
        for t in tables:
            for a, b in combinations(t, 2):
                count += b in met[a]
        for t in tables:
            for a, b in combinations(t, 2):
                met[a][b] = met[a].get(b, 0) + 1
                met[b][a] = met[b].get(a, 0) + 1
        out.append(count)
    return out


def _bump(meet: list[dict[int, int]], a: int, b: int, by: int) -> None:
    m = meet[a].get(b, 0) + by
    if m:
        meet[a][b] = meet[b][a] = m
    else:
        del meet[a][b], meet[b][a]


# Open tables a player is weighed against in the greedy start: all of them up to this many, otherwise
# this many drawn, so that the start costs players x GREEDY_TABLES, not players x tables.
GREEDY_TABLES = 12


def _greedy(
    rng: random.Random,
    n: int,
    layouts: list[tuple[int, ...]],
    seated: list[list[int]],
    history: list[list[int]],
    fixed: dict[int, int],
    forbidden: set[tuple[int, int]],
    clock: _Clock,
) -> list[list[list[int]]]:
    """Each round in turn, each player (in a seeded order) at the open table where he has met the fewest
    (of a few open tables drawn, when there are many)."""
    meet = _meetings(n, history)
    pen: list[set[int]] = [set() for _ in range(n)]
    for a, b in forbidden:
        pen[a].add(b)
        pen[b].add(a)
    rounds = []
    for layout, players in zip(layouts, seated, strict=True):
        tables: list[list[int]] = [[] for _ in layout]
        for p in players:
            if p in fixed:
                tables[fixed[p]].append(p)
        open_ = [i for i, t in enumerate(tables) if len(t) < layout[i]]
        free = [p for p in players if p not in fixed]
        rng.shuffle(free)
        for p in free:
            if not open_:
                break
            if clock.over():  # out of time: the rest go to the first open tables, the search is over
                i = open_[0]
                tables[i].append(p)
                if len(tables[i]) >= layout[i]:
                    open_.pop(0)
                continue
            row, forbid = meet[p], pen[p]
            # A window of open tables from a drawn place (all of them when there are few).
            first = rng.randrange(len(open_)) if len(open_) > GREEDY_TABLES else 0
            best, best_j = None, 0
            for k in range(min(GREEDY_TABLES, len(open_))):
                j = (first + k) % len(open_)
                i = open_[j]
                t = tables[i]
                score = 0
                for z in t:
                    if z in row:
                        score += row[z] * REPEAT
                    if z in forbid:
                        score += FORBIDDEN
                key = (score, len(t) - layout[i], i)
                if best is None or key < best:
                    best, best_j = key, j
            i = open_[best_j]
            tables[i].append(p)
            if len(tables[i]) >= layout[i]:
                open_.pop(best_j)
        for t in tables:
            for a, b in combinations(t, 2):
                meet[a][b] = meet[a].get(b, 0) + 1
                meet[b][a] = meet[b].get(a, 0) + 1
        rounds.append(tables)
    return rounds


def lower_bound(
    n_pairs_fresh: int, layouts: Sequence[Sequence[int]], slots: Sequence[int], fresh_others: Sequence[int]
) -> int:
    """No plan can add fewer repeats: every meeting beyond the pairs still fresh is a repeat, and each
    player's table-mate slots beyond the players he can still meet fresh are repeats (each counted by
    both players of the pair)."""
    meetings = sum(size * (size - 1) // 2 for layout in layouts for size in layout)
    by_pairs = max(0, meetings - n_pairs_fresh)
    by_players = (sum(max(0, s - f) for s, f in zip(slots, fresh_others, strict=True)) + 1) // 2
    return max(by_pairs, by_players)


def plan_seating(
    *,
    players: Sequence[int],
    table_sizes: Sequence[int],
    rounds: int,
    seed: int,
    history: Sequence[Sequence[Sequence[int]]] = (),
    history_sit_outs: Sequence[Sequence[int]] = (),
    history_dealers: Sequence[int] = (),
    forbidden: Iterable[tuple[int, int]] = (),
    fixed: Mapping[int, int] | None = None,
    partnerships: bool = False,
    budget_seconds: float = 8.0,
    progress: Callable[[str], None] | None = None,
) -> SeatingPlan:
    """Seat ``rounds`` rounds of ``players`` at tables of the allowed sizes (see the module's text).

    ``history``: earlier rounds, each a list of tables (player ids in seat order; seats 0+2 and 1+3 are
    Tressette's partners); ``history_sit_outs``: who sat out in each; ``history_dealers``: who dealt
    first at each earlier table; ``fixed``: player id -> table index (0 is table 1) in every round.
    """
    started = time.perf_counter()
    ids = list(players)
    fixed = dict(fixed or {})
    _check(ids, table_sizes, rounds, fixed, budget_seconds)
    index = {p: i for i, p in enumerate(ids)}
    n = len(ids)
    rng = random.Random(seed)
    forbid = set()
    for a, b in forbidden:
        if a == b:
            raise SeatingError(f"a forbidden pair needs two different players, not {a} twice")
        if a in index and b in index:
            forbid.add((min(index[a], index[b]), max(index[a], index[b])))
    layout = table_layout(n, table_sizes)
    if not layout:
        raise SeatingError(f"{n} players cannot fill one table of {min(table_sizes)}")
    for p, t in fixed.items():
        if p not in index:
            raise SeatingError(f"fixed player {p} is not among the players")
        if not 0 <= t < len(layout):
            raise SeatingError(f"fixed player {p}: there is no table {t + 1} (tables 1 to {len(layout)})")
    per_table = [0] * len(layout)
    for t in fixed.values():
        per_table[t] += 1
        if per_table[t] > layout[t]:
            raise SeatingError(f"more players are fixed to table {t + 1} than it seats")

    old = [[index[p] for p in t if p in index] for rnd in history for t in rnd]
    sit_counts = [0] * n
    for outs in history_sit_outs:
        for p in outs:
            if p in index:
                sit_counts[index[p]] += 1
    seated, sit_outs = _sit_outs(rng, n, rounds, sum(layout), sit_counts, {index[p] for p in fixed})
    layouts = [layout] * rounds
    fixed_i = {index[p]: t for p, t in fixed.items()}

    # The search stops early enough for the seats, partners and first dealers to be chosen within the
    # budget (their cost grows with the seats to fill).
    reserve = min(budget_seconds * 0.6, FINISH_SECONDS_PER_SEAT * n * rounds)
    search_clock = _Clock(started, budget_seconds - reserve)
    start = None
    if not old and not fixed_i and not forbid and n == sum(layout) and len(set(layout)) == 1:
        start = _constructed(n, layout[0], rounds, rng)
    if start is None:
        start = _greedy(rng, n, layouts, seated, old, fixed_i, forbid, search_clock)
    search = _Search(n, start, old, forbid, fixed_i)
    bound = _bound(n, layouts, seated, old, forbid)
    steps, best = _tabu(search, rng, search.base_repeats + bound, search_clock, progress)
    left = [(a, b) for rnd in best for t in rnd for a, b in combinations(sorted(t), 2) if (a, b) in forbid]
    if left:
        a, b = left[0]
        raise SeatingError(
            f"players {ids[a]} and {ids[b]} cannot be kept apart at these tables",
            gettext_noop("{first} and {second} cannot be kept apart at these tables"),
            first=ids[a],
            second=ids[b],
        )
    per_round = tuple(_round_repeats(n, old, best))
    repeats = sum(per_round)
    plans = _seat(
        best,
        [[ids[p] for p in outs] for outs in sit_outs],
        ids,
        [list(t) for rnd in history for t in rnd],
        history_dealers,
        partnerships,
        rng,
    )
    elapsed = time.perf_counter() - started
    if progress:
        progress(f"done: {repeats} repeats (lower bound {bound}) in {steps} steps, {elapsed:.1f} s")
    return SeatingPlan(tuple(plans), repeats, bound, seed, steps, elapsed, repeats <= bound, per_round)


def _bound(
    n: int,
    layouts: list[tuple[int, ...]],
    seated: list[list[int]],
    old: list[list[int]],
    forbid: set[tuple[int, int]],
) -> int:
    """The lower bound on the repeats a plan of this layout adds (see :func:`lower_bound`)."""
    met: list[set[int]] = [set() for _ in range(n)]
    for t in old:
        for a, b in combinations(t, 2):
            met[a].add(b)
            met[b].add(a)
    for a, b in forbid:  # never to meet: not a fresh pair
        met[a].add(b)
        met[b].add(a)
    fresh_pairs = n * (n - 1) // 2 - sum(len(m) for m in met) // 2
    smallest = min(min(layout) for layout in layouts)
    slots = [0] * n
    for rnd in seated:
        for p in rnd:
            slots[p] += smallest - 1
    fresh_others = [n - 1 - len(met[p]) for p in range(n)]
    return lower_bound(fresh_pairs, layouts, slots, fresh_others)


def _check(
    ids: list[int], sizes: Sequence[int], rounds: int, fixed: Mapping[int, int], budget: float
) -> None:
    if len(set(ids)) != len(ids):
        raise SeatingError("each player is listed once")
    if not sizes or any(not isinstance(s, int) or s < 2 for s in sizes):
        raise SeatingError("table sizes are whole numbers of 2 or more")
    if not isinstance(rounds, int) or rounds < 1:
        raise SeatingError("plan at least one round")
    if len(ids) < min(sizes):
        raise SeatingError(f"{len(ids)} players cannot fill one table of {min(sizes)}")
    if budget <= 0:
        raise SeatingError("the time budget must be positive")


def _sit_outs(
    rng: random.Random, n: int, rounds: int, seated_count: int, counts: list[int], fixed: set[int]
) -> tuple[list[list[int]], list[list[int]]]:
    """Who plays and who sits out in each round: the fewest sit-outs so far sit out first (ties drawn),
    players tied to a table never (while others can)."""
    counts = list(counts)
    seated, outs = [], []
    k = n - seated_count
    if k == 0:  # everyone plays every round (the draws still taken: the same seed, the same plan)
        for _ in range(rounds * n):
            rng.random()
        return [list(range(n)) for _ in range(rounds)], [[] for _ in range(rounds)]
    for _ in range(rounds):
        draw = {p: rng.random() for p in range(n)}
        order = sorted(range(n), key=lambda p: (p in fixed, counts[p], draw[p]))
        out = sorted(order[:k])
        for p in out:
            counts[p] += 1
        outs.append(out)
        left = set(out)
        seated.append([p for p in range(n) if p not in left])
    return seated, outs


# The designs are built for groups of up to this many players (their cost grows with the square of it; a
# larger evening has more players than its few rounds can repeat, and the greedy start does as well).
LARGEST_DESIGN = 64


def _constructed(n: int, k: int, rounds: int, rng: random.Random) -> list[list[list[int]]] | None:
    """The transversal-design rounds, players shuffled by the seed, when there are enough of them."""
    if n % k or n // k > LARGEST_DESIGN:
        return None
    options = [transversal_rounds(k, n // k), kirkman_rounds(n // 3) if k == 3 else None]
    built = max((o for o in options if o is not None), key=len, default=None)
    if built is None:
        return None
    perm = list(range(n))
    rng.shuffle(perm)
    chosen = [[[perm[p] for p in t] for t in rnd] for rnd in built[:rounds]]
    # Rounds beyond the construction start from a shuffle; the search takes it from there.
    while len(chosen) < rounds:
        order = list(range(n))
        rng.shuffle(order)
        chosen.append([order[i : i + k] for i in range(0, n, k)])
    return chosen


# Players a conflicting player is weighed against per step: everyone up to this many, otherwise this many
# drawn, so that a step at 10,000 players costs what it costs at a few hundred.
SWAP_CANDIDATES = 400


def _tabu(
    s: _Search,
    rng: random.Random,
    target_repeats: int,
    clock: _Clock,
    progress: Callable[[str], None] | None,
) -> tuple[int, list[list[list[int]]]]:
    """Search from the plan in ``s`` until it reaches ``target_repeats`` (the history's and the bound's)
    with no forbidden pair, or the budget ends: the steps taken and the best rounds found. The deadline
    is checked inside the step, so that one step of a large plan cannot overrun it."""
    best_cost = s.cost
    best = [[list(t) for t in rnd] for rnd in s.rounds]
    if s.done(target_repeats):
        return 0, best
    tabu: dict[tuple[int, int, int], int] = {}
    step = stall = best_step = 0
    n_rounds = len(s.rounds)
    last_report = clock.started
    try:
        while True:
            step += 1
            now = time.perf_counter()
            if now > clock.ends:
                break
            if progress and now - last_report > 0.5:
                last_report = now
                progress(f"step {step}: {_repeats_of(best_cost)} repeats at best so far")
            # The best swap of a conflicting player with a player of another table, in any round.
            chosen: tuple[int, int, int] | None = None
            chosen_d = 0
            any_conflict = False
            for r in range(n_rounds):
                movers = s.conflicted(r)
                clock.tick(1)
                if not movers:
                    continue
                any_conflict = True
                candidates = [p for t in s.rounds[r] for p in t if p not in s.fixed]
                if len(candidates) > SWAP_CANDIDATES:
                    candidates = rng.sample(candidates, SWAP_CANDIDATES)
                for x in movers:
                    clock.tick(4)
                    wx = s.where[r][x]
                    for y in candidates:
                        if s.where[r][y] == wx:
                            continue
                        d = s.delta(r, x, y)
                        if tabu.get((r, x, y), 0) > step and s.cost + d >= best_cost:
                            continue  # a tabu swap only when it beats the best plan
                        if chosen is None or d < chosen_d or (d == chosen_d and rng.random() < 0.5):
                            chosen, chosen_d = (r, x, y), d
            if chosen is None and not any_conflict:
                break  # no pair meets twice and none is forbidden: nothing a swap can improve
            if chosen is not None:
                r, x, y = chosen
                s.swap(r, x, y)
                tabu[(r, x, y)] = tabu[(r, y, x)] = step + rng.randint(*TENURE)
            if s.cost < best_cost:
                best_cost, stall, best_step = s.cost, 0, step
                best = [[list(t) for t in rnd] for rnd in s.rounds]
                if s.done(target_repeats):
                    break
            else:
                stall += 1
                if step - best_step > PATIENCE:
                    break
            if stall > STALL:  # a shake: a few random swaps in random rounds
                stall = 0
                for _ in range(3):
                    r = rng.randrange(n_rounds)
                    movable = [p for t in s.rounds[r] for p in t if p not in s.fixed]
                    x, y = rng.sample(movable, 2) if len(movable) >= 2 else (0, 0)
                    if x != y and s.where[r][x] != s.where[r][y]:
                        s.swap(r, x, y)
    except _Deadline:
        pass
    return step, best


def _repeats_of(cost: int) -> int:
    return cost // REPEAT


# ---- seats, partners, first dealers ------------------------------------------------------------------
def _seat(
    rounds: list[list[list[int]]],
    sit_outs: list[list[int]],
    ids: list[int],
    history: list[list[int]],
    history_dealers: Sequence[int],
    partnerships: bool,
    rng: random.Random,
) -> list[RoundPlan]:
    partners: dict[tuple[int, int], int] = {}
    for t in history:
        if partnerships and len(t) == 4:
            for a, b in ((t[0], t[2]), (t[1], t[3])):
                key = (min(a, b), max(a, b))
                partners[key] = partners.get(key, 0) + 1
    seated: list[list[list[int]]] = []
    for tables in rounds:
        orders = []
        for t in tables:
            order = [ids[p] for p in t]
            rng.shuffle(order)
            if partnerships and len(order) == 4:
                order = _best_partners(order, partners, rng)
                for a, b in ((order[0], order[2]), (order[1], order[3])):
                    key = (min(a, b), max(a, b))
                    partners[key] = partners.get(key, 0) + 1
            orders.append(order)
        seated.append(orders)
    dealers = _first_dealers(seated, ids, history_dealers, rng)
    plans = []
    for r, (orders, outs) in enumerate(zip(seated, sit_outs, strict=True)):
        placed = []
        for i, order in enumerate(orders):
            pairs = ((order[0], order[2]), (order[1], order[3])) if partnerships and len(order) == 4 else None
            placed.append(TablePlan(tuple(order), order.index(dealers[(r, i)]), pairs))
        plans.append(RoundPlan(tuple(placed), tuple(sorted(outs))))
    return plans


def _first_dealers(
    seated: list[list[list[int]]], ids: list[int], history_dealers: Sequence[int], rng: random.Random
) -> dict[tuple[int, int], int]:
    """Who deals first at each table: as evenly shared as the tables allow, history included.

    Each table needs one of its players; each player may deal first up to a cap, the even share rounded
    up. A matching of tables to players within the caps (augmenting paths) gives the most even sharing;
    when the seating leaves no such matching, the caps go up by one until there is one.
    """
    known = set(ids)
    before = Counter(p for p in history_dealers if p in known)
    slots = [(r, i) for r, orders in enumerate(seated) for i in range(len(orders))]
    share = -(-(sum(before.values()) + len(slots)) // len(ids))  # the even share, rounded up
    order = {p: rng.random() for p in ids}
    for extra in range(len(slots) + 1):
        cap = {p: max(0, share + extra - before[p]) for p in ids}
        found = _matching(slots, seated, cap, before, order)
        if found is not None:
            return found
    raise AssertionError("every table has a player, so uncapped there is always a first dealer")


def _matching(
    slots: list[tuple[int, int]],
    seated: list[list[list[int]]],
    cap: dict[int, int],
    before: Counter[int],
    order: dict[int, float],
) -> dict[tuple[int, int], int] | None:
    """A dealer for every table within the players' caps, or None (augmenting paths, found breadth
    first and without recursion: a round of 2,500 tables would overflow Python's stack)."""
    taken: dict[int, list[tuple[int, int]]] = {p: [] for p in cap}
    owner: dict[tuple[int, int], int] = {}
    for slot in slots:
        r, i = slot
        free = [p for p in seated[r][i] if len(taken[p]) < cap[p]]
        if free:  # the usual case: a player of the table may still deal first, no path needed
            p = min(free, key=lambda p: (len(taken[p]) + before[p], order[p]))
            owner[slot] = p
            taken[p].append(slot)
            continue
        came: dict[int, tuple[int, int]] = {}  # a player, and the table that would take him
        queue, queued = deque([slot]), {slot}
        found = None
        while queue and found is None:
            r, i = queue.popleft()
            for p in sorted(seated[r][i], key=lambda p: (len(taken[p]) + before[p], order[p])):
                if p in came:
                    continue
                came[p] = (r, i)
                if len(taken[p]) < cap[p]:
                    found = p
                    break
                for other in taken[p]:  # one of p's tables could go to another of its players
                    if other not in queued:
                        queued.add(other)
                        queue.append(other)
        if found is None:
            return None
        p = found
        while True:  # along the path back: each table to the player who wanted it
            at = came[p]
            before_owner = owner.get(at)
            owner[at] = p
            taken[p].append(at)
            if before_owner is None:
                break
            taken[before_owner].remove(at)
            p = before_owner
    return owner


def _best_partners(order: list[int], partners: dict[tuple[int, int], int], rng: random.Random) -> list[int]:
    """Of the three ways to pair four players, the one whose partners played together least."""
    a, b, c, d = order
    options = [[a, b, c, d], [a, c, b, d], [a, b, d, c]]  # partners: a+c / b+d, a+b / c+d, a+d / b+c

    def repeats(o: list[int]) -> int:
        return sum(partners.get((min(x, y), max(x, y)), 0) for x, y in ((o[0], o[2]), (o[1], o[3])))

    draw = [rng.random() for _ in options]
    return min(options, key=lambda o: (repeats(o), draw[options.index(o)]))
