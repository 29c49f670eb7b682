"""Demo data of the tournament half: a small published league of two games with a few finished rounds,
played through the same services as a real night (seated by the planner, every move recorded)."""

from __future__ import annotations

import random
from typing import Any

from clubs.models import Club
from scoring.demo import match_play_out
from tournaments import projections, services
from tournaments.models import Tournament

DEMO_LEAGUE = "Lega del martedì"
# One game a round, in turn: a league night of Tarocchi, then one of Italian Hombre, and so on.
DEMO_ROUNDS = ("tarocchi", "hombre_it", "tarocchi")
DEMO_OPTIONS = {"tarocchi": {"deals": 1}, "hombre_it": {"deals": 2}}


def demo_league_load(*, club: Club, director: Any, scorer: Any, seed: int = 2026) -> bool:
    """Load the demo league once (False when it is there already)."""
    if Tournament.objects.filter(club=club, name=DEMO_LEAGUE).exists():
        return False
    rng = random.Random(seed)
    league = services.tournament_create(
        club=club,
        name=DEMO_LEAGUE,
        kind=Tournament.Kind.LEAGUE,
        games=["tarocchi", "hombre_it"],
        game_options=DEMO_OPTIONS,
        scoring=Tournament.Scoring.RANK_POINTS,
        sit_out_score=6,
        seed=seed,
        rounds_planned=len(DEMO_ROUNDS),
        published=True,
        scorers=[scorer],
        actor=director,
    )
    for player in club.players.order_by("name"):
        league.refresh_from_db()
        services.player_register(
            tournament=league, player=player, expected_version=league.version, actor=director
        )
    for game in DEMO_ROUNDS:
        league.refresh_from_db()
        rnd = services.round_open(
            tournament=league, expected_version=league.version, actor=director, game=game
        )
        for table in rnd.tables.select_related("match").order_by("number"):
            match_play_out(table.match, rng, actor=scorer)
        league.refresh_from_db()
        services.round_close(
            tournament=league, round_number=rnd.number, expected_version=league.version, actor=director
        )
    # The standings and ratings are built here and now, whether or not a worker is running.
    projections.standings_rebuild(tournament_id=league.pk)
    for game in league.games:
        projections.ratings_rebuild(game=game)
    return True
