"""Ratings per game with openskill's Plackett-Luce model: which contests a finished match holds, and how
one contest moves its players' ratings. No ORM here (the services keep the ratings in the database).

The contests, by game (``docs/standings.md``):

* Tressette: one contest per match, side against side (two against two, or three alone);
* Barbù and Sicilian Tarocchi: one contest per match, each for himself (Tarocchi is played each for
  himself in every deal: ``shared/rules/tarocchi.md`` §1);
* Italian Hombre and L'Hombre: one contest per played hand, the hombre against the two defenders, ranked
  by the hand's scores (a hand thrown in is no contest).

Places come from the match sheet as the standings count them: the winners first, then by points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

from tournaments.plan.standings import shared_ranks

PER_HAND_GAMES = frozenset({"hombre_it", "lhombre"})

MODEL = PlackettLuce()
DEFAULT = (MODEL.mu, MODEL.sigma)

Rating = tuple[float, float]  # (mu, sigma)


@dataclass(frozen=True)
class Contest:
    """Teams of player ids and their places (1 is first; equal places tie)."""

    teams: tuple[tuple[int, ...], ...]
    places: tuple[Fraction, ...]


def contests(
    *,
    game: str,
    players: Sequence[int | None],
    totals: Sequence[int | str],
    winners: Sequence[int],
    sides: Sequence[Sequence[int]],
    hand_results: Sequence[Mapping[str, Any]],
) -> list[Contest]:
    """The contests a finished match holds; none when a seat is not a registered player."""
    if any(p is None for p in players):
        return []
    ids = [int(p) for p in players if p is not None]
    if game in PER_HAND_GAMES:
        out = []
        for result in hand_results:
            teams = result.get("teams") or []
            scores = result.get("team_scores") or []
            if len(teams) < 2 or len(scores) != len(teams):
                continue
            places = shared_ranks([Fraction(str(s)) for s in scores])
            out.append(Contest(tuple(tuple(ids[s] for s in team) for team in teams), tuple(places)))
        return out
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    won = {side_of[s] for s in winners}
    keys = [(i in won, Fraction(str(totals[side[0]]))) for i, side in enumerate(sides)]
    return [Contest(tuple(tuple(ids[s] for s in side) for side in sides), tuple(shared_ranks(keys)))]


def rate(ratings: Mapping[int, Rating], contest: Contest) -> dict[int, Rating]:
    """The new ratings of the contest's players (a player with no rating yet starts at the default)."""
    teams = [[MODEL.rating(*ratings.get(p, DEFAULT)) for p in team] for team in contest.teams]
    rated = MODEL.rate(teams, ranks=[float(p) for p in contest.places])
    return {
        p: (r.mu, r.sigma)
        for team, new in zip(contest.teams, rated, strict=True)
        for p, r in zip(team, new, strict=True)
    }


def ordinal(rating: Rating) -> float:
    """The cautious figure a rating list sorts by: mu minus three sigma."""
    mu, sigma = rating
    return mu - 3 * sigma
