"""A match's sheet with the director's adjustments kept outside the game.

A ruling that changes a hand's scores by hand (a penalty, an assigned score) is not a move of the game:
the game never sees it. Each game scores the match on its own columns (the hands as played, or as
corrected by rulings that replay them: a replaced move, transferred tricks), and keeps its own
invariants there (a Barbù match sums to 0). The adjustments are added after, as a column of their own:
the match's totals are the game's totals plus the adjustments, and where the game gave a finished match
to its highest totals, the highest adjusted totals win. The game alone decides when the match is over.
See docs/rules/rulings.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from scoring.rules import Game, HandResult
from scoring.rules.core import MatchResult, Score


def own_result(result: HandResult) -> HandResult:
    """A hand's result as the game scored it: the director's adjustments taken out of its scores."""
    if not result.adjustments:
        return result
    scores = tuple(_whole(Fraction(s) - a) for s, a in zip(result.scores, result.adjustments, strict=True))
    return replace(result, scores=scores, adjustments=())


def own_results(results: Sequence[HandResult]) -> list[HandResult]:
    """The game's own results of a match's hands (what the game's match scoring and context read)."""
    return [own_result(r) for r in results]


def adjusted(
    game: Game[Any], options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
) -> MatchResult:
    """The match's result: the game's own over its own columns, then the director's adjustments."""
    result = game.match_result(options, seats, own_results(results))
    if not any(any(r.adjustments) for r in results):
        return result
    by_seat = [
        _whole(sum((Fraction(r.adjustments[s]) for r in results if r.adjustments), Fraction(0)))
        for s in range(seats)
    ]
    totals = tuple(_whole(Fraction(t) + a) for t, a in zip(result.totals, by_seat, strict=True))
    team_totals = result.team_totals
    sides = result.details.get("sides")
    if team_totals and isinstance(sides, list) and len(sides) == len(team_totals):
        # Partners share their side's score (a ruling must give them one number), so one seat says it.
        team_totals = tuple(
            _whole(Fraction(t) + by_seat[side[0]]) for t, side in zip(team_totals, sides, strict=True)
        )
    winners = result.winners
    if result.finished and set(winners) == _highest(result.totals):
        # The game gave the match to the highest totals: so do the adjusted ones. A game that decided
        # otherwise (a Tressette side that called itself out wrongly loses whatever its points) keeps
        # its winners.
        winners = tuple(sorted(_highest(totals)))
    rows = tuple(
        {**row, "adjustment": list(r.adjustments) if any(r.adjustments) else None}
        for row, r in zip(result.rows, results, strict=False)
    )
    details = {**result.details, "game_totals": list(result.totals), "adjustments": by_seat}
    return replace(
        result, totals=totals, team_totals=team_totals, winners=winners, rows=rows, details=details
    )


def _highest(totals: Sequence[Score]) -> set[int]:
    best = max(totals)
    return {s for s, t in enumerate(totals) if t == best}


def _whole(value: Fraction) -> Score:
    return int(value) if value.denominator == 1 else value
