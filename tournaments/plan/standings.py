"""Standings: pure functions from table results to ranked rows, each row saying why the row above it is
above it. No ORM here: plain values in, plain values out (``docs/standings.md`` gives the formulas).

The pieces:

* :func:`table_result` turns one finished table (a match's sheet: totals, winners, sides) into a
  :class:`TableResult`, one :class:`Placing` per player: the game's natural result, its points, whether
  the player's side won, its shared rank at the table and the rank points that make tables of different
  games and sizes comparable;
* a :class:`Ledger` holds the running sums per player (and head-to-head per pair). Adding or removing one
  table's result touches only that table's players, so an update after one more match does not depend
  on how many matches the league holds; sums are exact fractions, so the order of updates never shows;
* :func:`rank` sorts the players by the tournament's precedence, a list of metric keys (Tabbycat's
  shape: each metric has a key, a name, an abbreviation and a direction), and for every two neighbouring
  rows names the first metric whose values differ.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

# Marks the metrics' names for the translators, and nothing else: the stored standings, the API and the
# exports keep these English names; the pages translate them when they show them.
from scoring.rules.errors import _ as gettext_noop  # marks a text for the catalogues (no Django here)
from scoring.rules.errors import render

# Rank points at a table of n sides: first 12, last 0, evenly spaced, so 12 / 6 / 0 at three and
# 12 / 8 / 4 / 0 at four. Ties share the average of the places they hold (always whole at 2, 3, 4 sides).
RANK_POINTS_SCALE = 12

# Games whose natural total is the number of games (matches) won, their points a tie-break.
GAMES_WON_GAMES = frozenset({"tressette"})

SCORING_METHODS = ("natural", "rank_points")

Value = Fraction | int | None


class StandingsError(ValueError):
    """A standings setting that cannot be used (an unknown metric, a repeated key). ``template`` and
    ``params`` word it for a reader (``scoring.rules.errors``); ``message`` is its English."""

    def __init__(self, code: str, template: str, field: str, **params: Any) -> None:
        message = render(template, params)
        super().__init__(message)
        self.code = code
        self.template = template
        self.params = params
        self.message = message
        self.field = field


# ---- one table ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Placing:
    """One player's result at one table."""

    player: int
    side: int
    natural: Fraction  # what the natural total adds up (Tressette: 1 for a game won)
    points: Fraction  # the game's own points (chips, stakes, match points, card points)
    won: bool
    rank: Fraction  # place among the table's sides, ties sharing the average (1 is first)
    rank_points: Fraction
    ruled_against: int


@dataclass(frozen=True)
class TableResult:
    """A finished table: its placings, and the log position and time of the latest event it includes."""

    key: str
    game: str
    placings: tuple[Placing, ...]
    position: int
    recorded_at: str


@dataclass(frozen=True)
class SitOut:
    """A player sitting a round out, with the score the tournament gives a sit-out."""

    key: str
    player: int
    score: Fraction
    position: int
    recorded_at: str


Contribution = TableResult | SitOut


def rank_points(rank: Fraction, sides: int) -> Fraction:
    """The rank points of a (possibly shared) place among ``sides`` sides."""
    if sides < 2:
        return Fraction(RANK_POINTS_SCALE)
    return Fraction(RANK_POINTS_SCALE) * (sides - rank) / (sides - 1)


def table_result(
    *,
    key: str,
    game: str,
    players: Sequence[int],
    totals: Sequence[int | str | Fraction],
    winners: Sequence[int],
    sides: Sequence[Sequence[int]],
    ruled_against: Sequence[int],
    position: int,
    recorded_at: str,
) -> TableResult:
    """One table's placings from its match sheet (seat-indexed totals, winning seats, sides of seats).

    Sides are ranked by (won the match, points), best first; sides equal on both share their places.
    Partners carry their side's points (Tressette), so a side's points are those of its first seat.
    """
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    if sorted(side_of) != list(range(len(players))):
        raise ValueError(f"sides {sides!r} do not cover the {len(players)} seats exactly once")
    scores = [Fraction(str(totals[side[0]])) for side in sides]
    won_sides = {side_of[s] for s in winners}
    if not won_sides:
        best = max(scores)
        won_sides = {i for i, sc in enumerate(scores) if sc == best}
    keys = [(i in won_sides, scores[i]) for i in range(len(sides))]
    ranks = shared_ranks(keys)
    placings = []
    for seat, player in enumerate(players):
        i = side_of[seat]
        won = i in won_sides
        natural = Fraction(int(won)) if game in GAMES_WON_GAMES else scores[i]
        placings.append(
            Placing(
                player=player,
                side=i,
                natural=natural,
                points=scores[i],
                won=won,
                rank=ranks[i],
                rank_points=rank_points(ranks[i], len(sides)),
                ruled_against=int(ruled_against[seat]) if seat < len(ruled_against) else 0,
            )
        )
    return TableResult(key, game, tuple(placings), position, recorded_at)


def shared_ranks(keys: Sequence[Any]) -> list[Fraction]:
    """Places (1 = best) for items with sort keys, higher key better; equal keys share the average."""
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks: list[Fraction] = [Fraction(0)] * len(keys)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and keys[order[end + 1]] == keys[order[start]]:
            end += 1
        shared = Fraction(start + 1 + end + 1, 2)
        for i in order[start : end + 1]:
            ranks[i] = shared
        start = end + 1
    return ranks


# ---- running sums ------------------------------------------------------------------------------------
@dataclass
class Tally:
    """One player's running sums over the tables and sit-outs counted so far."""

    natural: Fraction = Fraction(0)
    rank_points: Fraction = Fraction(0)
    points: Fraction = Fraction(0)
    sit_out_score: Fraction = Fraction(0)
    tables: int = 0
    won: int = 0
    rank_sum: Fraction = Fraction(0)
    ruled_against: int = 0
    sit_outs: int = 0
    # Every single result, counted, so that "best result" survives a result being taken out again.
    naturals: Counter[Fraction] = field(default_factory=Counter)
    rank_points_seen: Counter[Fraction] = field(default_factory=Counter)

    @property
    def empty(self) -> bool:
        return self.tables == 0 and self.sit_outs == 0


@dataclass
class Ledger:
    """The sums the standings are ranked from: a tally per player and head-to-head per pair of players.

    ``h2h[(a, b)]`` with ``a < b`` is how many times ``a`` finished ahead of ``b`` at a table they shared,
    minus how many times behind.
    """

    tallies: dict[int, Tally] = field(default_factory=dict)
    h2h: dict[tuple[int, int], int] = field(default_factory=dict)

    def add(self, contribution: Contribution, sign: int = 1) -> None:
        """Count a table or a sit-out (``sign=-1`` takes it back out)."""
        if isinstance(contribution, SitOut):
            t = self.tallies.setdefault(contribution.player, Tally())
            t.sit_outs += sign
            t.sit_out_score += sign * contribution.score
            return
        for p in contribution.placings:
            t = self.tallies.setdefault(p.player, Tally())
            t.natural += sign * p.natural
            t.rank_points += sign * p.rank_points
            t.points += sign * p.points
            t.tables += sign
            t.won += sign * int(p.won)
            t.rank_sum += sign * p.rank
            t.ruled_against += sign * p.ruled_against
            _count(t.naturals, p.natural, sign)
            _count(t.rank_points_seen, p.rank_points, sign)
        for a in contribution.placings:
            for b in contribution.placings:
                if a.player < b.player and a.side != b.side:
                    net = (a.rank < b.rank) - (a.rank > b.rank)
                    pair = (a.player, b.player)
                    self.h2h[pair] = self.h2h.get(pair, 0) + sign * net
                    if self.h2h[pair] == 0:
                        del self.h2h[pair]

    def remove(self, contribution: Contribution) -> None:
        self.add(contribution, sign=-1)

    def head_to_head(self, player: int, others: Iterable[int]) -> int:
        """``player``'s net results against ``others`` at the tables they shared."""
        total = 0
        for other in others:
            if other < player:
                total -= self.h2h.get((other, player), 0)
            elif other > player:
                total += self.h2h.get((player, other), 0)
        return total

    def tally(self, player: int) -> Tally:
        return self.tallies.get(player) or Tally()

    # JSON, with exact fractions as strings and keys in a fixed order, so that two ledgers holding the
    # same sums serialise to the same bytes whatever order the results came in.
    def as_json(self) -> dict[str, Any]:
        players = {}
        for pid in sorted(self.tallies):
            t = self.tallies[pid]
            if t.empty:
                continue
            players[str(pid)] = {
                "natural": str(t.natural),
                "rank_points": str(t.rank_points),
                "points": str(t.points),
                "sit_out_score": str(t.sit_out_score),
                "tables": t.tables,
                "won": t.won,
                "rank_sum": str(t.rank_sum),
                "ruled_against": t.ruled_against,
                "sit_outs": t.sit_outs,
                "naturals": _counter_json(t.naturals),
                "rank_points_seen": _counter_json(t.rank_points_seen),
            }
        h2h = {f"{a}:{b}": n for (a, b), n in sorted(self.h2h.items())}
        return {"players": players, "h2h": h2h}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Ledger:
        ledger = cls()
        if not data:
            return ledger
        for pid, t in data.get("players", {}).items():
            ledger.tallies[int(pid)] = Tally(
                natural=number(t["natural"]),
                rank_points=number(t["rank_points"]),
                points=number(t["points"]),
                sit_out_score=number(t["sit_out_score"]),
                tables=int(t["tables"]),
                won=int(t["won"]),
                rank_sum=number(t["rank_sum"]),
                ruled_against=int(t["ruled_against"]),
                sit_outs=int(t["sit_outs"]),
                naturals=Counter({number(k): int(v) for k, v in t["naturals"].items()}),
                rank_points_seen=Counter({number(k): int(v) for k, v in t["rank_points_seen"].items()}),
            )
        for pair, n in data.get("h2h", {}).items():
            a, b = pair.split(":")
            ledger.h2h[(int(a), int(b))] = int(n)
        return ledger


def _count(counter: Counter[Fraction], value: Fraction, sign: int) -> None:
    counter[value] += sign
    if counter[value] == 0:
        del counter[value]


def number(text: str) -> Fraction:
    """An exact number from its string ("42", "-7", "22/3"), without Fraction's slower general parser.

    Always a Fraction, whole numbers included: an int read back from the stored sums would turn a later
    division (the average rank) into a float, rounded and no longer equal to the exact rebuild."""
    if "/" in text:
        numerator, denominator = text.split("/")
        return Fraction(int(numerator), int(denominator))
    return Fraction(int(text))


def _counter_json(counter: Counter[Fraction]) -> dict[str, int]:
    return {str(k): counter[k] for k in sorted(counter)}


def ledger_of(contributions: Iterable[Contribution]) -> Ledger:
    ledger = Ledger()
    for c in contributions:
        ledger.add(c)
    return ledger


# ---- metrics -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Context:
    """What a metric reads: the ledger, the scoring method, the seed of the lot, and the group of players
    still tied when the metric is reached (head-to-head counts only the tables shared inside it)."""

    ledger: Ledger
    scoring: str
    seed: int
    group: tuple[int, ...]


@dataclass(frozen=True)
class Metric:
    key: str
    name: str
    abbr: str
    ascending: bool  # True: lower is better
    value: Callable[[int, Context], Value]
    doc: str


def _total(player: int, ctx: Context) -> Value:
    t = ctx.ledger.tally(player)
    base = t.rank_points if ctx.scoring == "rank_points" else t.natural
    return base + t.sit_out_score


def _best(player: int, ctx: Context) -> Value:
    t = ctx.ledger.tally(player)
    seen = t.rank_points_seen if ctx.scoring == "rank_points" else t.naturals
    return max(seen) if seen else None


def _average_rank(player: int, ctx: Context) -> Value:
    t = ctx.ledger.tally(player)
    return Fraction(t.rank_sum) / t.tables if t.tables else None


def lot(seed: int, player: int) -> int:
    """The player's draw in the tournament's seeded lot: stable whoever else is registered."""
    digest = hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()
    return int(digest[:12], 16)


METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        Metric(
            "total",
            gettext_noop("total"),
            gettext_noop("Tot"),
            False,
            _total,
            "natural: the game's own total (Tressette: games won); rank_points: the sum of rank points; "
            "both plus the score given for each sit-out",
        ),
        Metric(
            "points",
            gettext_noop("points"),
            gettext_noop("Pts"),
            False,
            lambda p, c: c.ledger.tally(p).points,
            "the game's points",
        ),
        Metric(
            "tables_won",
            gettext_noop("tables won"),
            gettext_noop("Won"),
            False,
            lambda p, c: c.ledger.tally(p).won,
            "tables won",
        ),
        Metric(
            "average_rank",
            gettext_noop("average rank"),
            gettext_noop("AvR"),
            True,
            _average_rank,
            "the average place at the tables played (lower is better)",
        ),
        Metric(
            "head_to_head",
            gettext_noop("head-to-head"),
            gettext_noop("H2H"),
            False,
            lambda p, c: c.ledger.head_to_head(p, (q for q in c.group if q != p)),
            "among the players still tied: tables finished ahead of another of them, minus behind",
        ),
        Metric(
            "best_result",
            gettext_noop("best result"),
            gettext_noop("Best"),
            False,
            _best,
            "the best single table result",
        ),
        Metric(
            "irregularities",
            gettext_noop("irregularities ruled against"),
            gettext_noop("Irr"),
            True,
            lambda p, c: c.ledger.tally(p).ruled_against,
            "irregularities a director ruled on and did not dismiss (fewer is better)",
        ),
        Metric(
            "lot",
            gettext_noop("lot"),
            gettext_noop("Lot"),
            False,
            lambda p, c: lot(c.seed, p),
            "a draw seeded by the tournament",
        ),
    )
}
GROUP_METRICS = frozenset({"head_to_head"})
DEFAULT_PRECEDENCE = ("total", "tables_won", "average_rank", "head_to_head", "best_result", "irregularities")


def default_precedence(games: Sequence[str]) -> tuple[str, ...]:
    """The tie-breaks a new tournament starts with (Tressette's points come right after games won)."""
    if games and all(g in GAMES_WON_GAMES for g in games):
        return ("total", "points", *DEFAULT_PRECEDENCE[1:])
    return DEFAULT_PRECEDENCE


def check_precedence(keys: Sequence[str]) -> tuple[str, ...]:
    """The precedence as given, checked: known metrics, each once. The lot always ends it."""
    if not keys:
        raise StandingsError(
            "tiebreaks.empty", gettext_noop("name at least one ranking criterion"), "tiebreaks"
        )
    for key in keys:
        if key not in METRICS:
            raise StandingsError(
                "tiebreaks.unknown",
                gettext_noop("unknown criterion '{name}' (one of {names})"),
                "tiebreaks",
                name=key,
                names=list(METRICS),
            )
    if len(set(keys)) != len(keys):
        raise StandingsError(
            "tiebreaks.repeated", gettext_noop("each criterion may appear once"), "tiebreaks"
        )
    if "lot" in keys and keys[-1] != "lot":
        raise StandingsError(
            "tiebreaks.lot", gettext_noop("the lot can only be the last criterion"), "tiebreaks"
        )
    return tuple(keys) if "lot" in keys else (*keys, "lot")


# ---- ranking -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Why:
    """Why one row is above the next: the first criterion whose values differ, with both values, and
    the criteria they are equal on before it."""

    key: str
    above: Value
    below: Value
    equal_on: tuple[tuple[str, Value], ...]
    text: str


@dataclass(frozen=True)
class Row:
    rank: int
    player: int
    name: str
    values: Mapping[str, Value]
    tables: int
    sit_outs: int
    why_above: Why | None  # why the row above this one is above it (None on the first row)


def rank(
    ledger: Ledger,
    players: Mapping[int, str],
    *,
    scoring: str,
    precedence: Sequence[str],
    seed: int,
) -> list[Row]:
    """Every player in ``players`` (id -> name) ranked by ``precedence``, best first.

    Players are split by the first criterion, each group of equal values by the next one, and so on; a
    group metric (head-to-head) is computed inside the group that is still tied when it is reached. The
    lot ends every precedence, so the order is total and every row but the first has a reason.
    """
    keys = check_precedence(precedence)
    if scoring not in SCORING_METHODS:
        raise StandingsError(
            "scoring.unknown",
            gettext_noop("scoring must be one of {names}"),
            "scoring",
            names=list(SCORING_METHODS),
        )
    values: dict[int, dict[str, Value]] = {p: {} for p in players}
    ids = sorted(players)
    for key in keys:
        if key not in GROUP_METRICS:
            ctx = Context(ledger, scoring, seed, tuple(ids))
            for p in ids:
                values[p][key] = METRICS[key].value(p, ctx)

    def order(group: list[int], depth: int) -> list[int]:
        if len(group) <= 1 or depth == len(keys):
            return group
        key = keys[depth]
        metric = METRICS[key]
        if key in GROUP_METRICS:
            ctx = Context(ledger, scoring, seed, tuple(group))
            for p in group:
                values[p][key] = metric.value(p, ctx)
        buckets: dict[Any, list[int]] = {}
        for p in group:
            buckets.setdefault(_goodness(values[p][key], metric.ascending), []).append(p)
        out: list[int] = []
        for good in sorted(buckets, reverse=True):
            out.extend(order(buckets[good], depth + 1))
        return out

    ordered = order(ids, 0)
    rows: list[Row] = []
    for i, p in enumerate(ordered):
        t = ledger.tally(p)
        why = _why(keys, players, ordered[i - 1], p, values) if i else None
        shown = {k: values[p].get(k) for k in keys}
        rows.append(Row(i + 1, p, players[p], shown, t.tables, t.sit_outs, why))
    return rows


def _goodness(value: Value, ascending: bool) -> tuple[int, Fraction | int]:
    """A sort key where bigger is better; a missing value (no table played) is worst."""
    if value is None:
        return (0, 0)
    return (1, -value if ascending else value)


def _why(
    keys: Sequence[str],
    names: Mapping[int, str],
    above: int,
    below: int,
    values: Mapping[int, Mapping[str, Value]],
) -> Why:
    equal: list[tuple[str, Value]] = []
    for key in keys:
        a, b = values[above].get(key), values[below].get(key)
        if a != b:
            return Why(key, a, b, tuple(equal), why_text(names[above], names[below], key, a, b, equal))
        equal.append((key, a))
    raise AssertionError("the lot separates every two players")


def why_text(above: str, below: str, key: str, a: Value, b: Value, equal: Sequence[tuple[str, Value]]) -> str:
    """The sentence for a neighbour: "Bianchi above Rossi: equal on total 42; tables won 3 against 2".

    The deciding values are shown so that they differ ("average rank 1.056 against 1.063", not 1.06
    against 1.06), and a line decided by lot gives both draws."""
    parts = []
    if equal:
        parts.append("equal on " + ", ".join(f"{METRICS[k].name} {show(v)}" for k, v in equal))
    shown_a, shown_b = show_apart(a, b)
    if key == "lot":
        parts.append(f"drawn by lot, {shown_a} against {shown_b}")
    else:
        parts.append(f"{METRICS[key].name} {shown_a} against {shown_b}")
    return f"{above} above {below}: " + "; ".join(parts)


SHOWN_DECIMALS = 2  # decimals shown for a value that is not whole
MOST_DECIMALS = 6  # beyond this, two values too close to tell apart are shown as fractions


def _checked(value: Value) -> Value:
    if not isinstance(value, Fraction | int | None) or isinstance(value, bool):
        raise TypeError(f"a standings value is exact (a Fraction or an int), not {value!r}")
    return value


def _rounded(value: Fraction, places: int) -> int:
    """``value`` times 10**places, rounded half away from zero (1.0625 reads 1.063, as people round)."""
    scaled = abs(value) * 10**places
    digits = int(scaled + Fraction(1, 2))
    return -digits if value < 0 else digits


def decimals_apart(a: Value, b: Value) -> int | None:
    """The fewest decimals (at least :data:`SHOWN_DECIMALS`) at which two different values, rounded,
    still differ; None when even :data:`MOST_DECIMALS` cannot tell them apart (show them as fractions)."""
    if a is None or b is None or a == b:
        return SHOWN_DECIMALS
    for places in range(SHOWN_DECIMALS, MOST_DECIMALS + 1):
        if _rounded(Fraction(a), places) != _rounded(Fraction(b), places):
            return places
    return None


def show(value: Value, places: int | None = SHOWN_DECIMALS) -> str:
    """A value for people: whole numbers as they are, others with up to ``places`` decimals (None: as
    an exact fraction, "19/18"), none as a dash."""
    value = _checked(value)
    if value is None:
        return "–"
    exact_value = Fraction(value)
    if exact_value.denominator == 1:
        return str(exact_value.numerator)
    if places is None:
        return str(exact_value)
    digits = _rounded(exact_value, places)
    sign = "-" if digits < 0 else ""
    whole, part = divmod(abs(digits), 10**places)
    decimals = str(part).rjust(places, "0").rstrip("0")
    return f"{sign}{whole}.{decimals}" if decimals else f"{sign}{whole}"


def show_apart(a: Value, b: Value) -> tuple[str, str]:
    """Two deciding values shown so that, when they differ, their texts differ too."""
    places = decimals_apart(a, b)
    return show(a, places), show(b, places)


def exact(value: Value) -> int | str | None:
    """A value for machines: whole numbers as numbers, fractions as exact strings (``"22/3"``)."""
    value = _checked(value)
    if value is None:
        return None
    if isinstance(value, Fraction) and value.denominator != 1:
        return str(value)
    return int(value)


def rows_json(rows: Sequence[Row]) -> list[dict[str, Any]]:
    return [
        {
            "rank": r.rank,
            "player": r.player,
            "name": r.name,
            "values": {k: exact(v) for k, v in r.values.items()},
            "tables": r.tables,
            "sit_outs": r.sit_outs,
            "why_above": None
            if r.why_above is None
            else {
                "key": r.why_above.key,
                "above": exact(r.why_above.above),
                "below": exact(r.why_above.below),
                "equal_on": [[k, exact(v)] for k, v in r.why_above.equal_on],
                "text": r.why_above.text,
            },
        }
        for r in rows
    ]


def metrics_json(precedence: Sequence[str]) -> list[dict[str, Any]]:
    return [
        {
            "key": METRICS[k].key,
            "name": METRICS[k].name,
            "abbr": METRICS[k].abbr,
            "direction": "ascending" if METRICS[k].ascending else "descending",
        }
        for k in check_precedence(precedence)
    ]


def contribution_json(c: Contribution) -> dict[str, Any]:
    """A contribution as stored beside the standings (to take it back out when its match changes)."""
    if isinstance(c, SitOut):
        return {
            "kind": "sit_out",
            "key": c.key,
            "player": c.player,
            "score": str(c.score),
            "position": c.position,
            "recorded_at": c.recorded_at,
        }
    return {
        "kind": "table",
        "key": c.key,
        "game": c.game,
        "position": c.position,
        "recorded_at": c.recorded_at,
        "placings": [
            {
                "player": p.player,
                "side": p.side,
                "natural": str(p.natural),
                "points": str(p.points),
                "won": p.won,
                "rank": str(p.rank),
                "rank_points": str(p.rank_points),
                "ruled_against": p.ruled_against,
            }
            for p in c.placings
        ],
    }


def contribution_from_json(data: Mapping[str, Any]) -> Contribution:
    if data["kind"] == "sit_out":
        return SitOut(
            data["key"],
            int(data["player"]),
            Fraction(data["score"]),
            int(data["position"]),
            data["recorded_at"],
        )
    return TableResult(
        key=data["key"],
        game=data["game"],
        position=int(data["position"]),
        recorded_at=data["recorded_at"],
        placings=tuple(
            Placing(
                player=int(p["player"]),
                side=int(p["side"]),
                natural=Fraction(p["natural"]),
                points=Fraction(p["points"]),
                won=bool(p["won"]),
                rank=Fraction(p["rank"]),
                rank_points=Fraction(p["rank_points"]),
                ruled_against=int(p["ruled_against"]),
            )
            for p in data["placings"]
        ),
    )
