"""What the tournament tests share: a club with its personas and players, a tournament set up through the
services, and tables' matches played to their end by the engine (random legal play)."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from clubs.models import Player
from scoring import services as scoring_services
from scoring.models import Match
from scoring.rules import get_game
from scoring.selectors import hand_view
from tests.scoring.api_support import People, Role, make_people, play, service_record
from tests.scoring.factories import ClubFactory, PlayerFactory, UserFactory, member
from tournaments import services
from tournaments.models import Round, Tournament

PLAYER_NAMES = (
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Franco",
    "Giulia",
    "Luca",
    "Marta",
    "Nicola",
    "Paola",
    "Sergio",
    "Teresa",
    "Ugo",
    "Vera",
    "Zeno",
)
# Short matches: one deal of Tarocchi or of Italian Hombre is a whole match.
SHORT = {"tarocchi": {"deals": 1}, "hombre_it": {"deals": 1}, "tressette": {"target": 11}}


@dataclass
class Club:
    people: People
    players: list[Player]

    @property
    def director(self) -> User:
        return self.people.director


def club_with_players(n: int = 9, tag: str = "") -> Club:
    """A club with its personas (user names end in ``tag``, so that a test may make two) and n players."""
    if tag:
        club = ClubFactory()
        people = People(
            club=club,
            director=member(club, Role.DIRECTOR, username=f"diana{tag}"),
            scorer=member(club, Role.SCORER, username=f"sandro{tag}"),
            other_scorer=member(club, Role.SCORER, username=f"otto{tag}"),
            member=member(club, Role.MEMBER, username=f"mario{tag}"),
            outsider=UserFactory(username=f"olga{tag}"),
        )
    else:
        people = make_people()
    players = [PlayerFactory(club=people.club, name=name) for name in PLAYER_NAMES[:n]]
    return Club(people, players)


def tournament(club: Club, games: tuple[str, ...] = ("tarocchi",), **kwargs: Any) -> Tournament:
    """A tournament of the club's director with every player registered."""
    options = {g: SHORT[g] for g in games if g in SHORT}
    t = services.tournament_create(
        club=club.people.club,
        name=kwargs.pop("name", "Torneo"),
        games=list(games),
        game_options=kwargs.pop("game_options", options),
        scorers=kwargs.pop("scorers", [club.people.scorer]),
        actor=club.director,
        **kwargs,
    )
    for player in club.players:
        services.player_register(tournament=t, player=player, expected_version=t.version, actor=club.director)
        t.refresh_from_db()
    return t


def open_round(t: Tournament, actor: User, **kwargs: Any) -> Round:
    t.refresh_from_db()
    return services.round_open(tournament=t, expected_version=t.version, actor=actor, **kwargs)


def finish_match(
    match: Match,
    seed: int,
    actor: User | None = None,
    *,
    each_move: Callable[[], AbstractContextManager[object]] = nullcontext,
) -> Match:
    """Play the match's hands at random until it is finished, recording every move through the service
    (each inside ``each_move()``: a test that runs the after-commit work per move, as each request would)."""
    rng = random.Random(seed)
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        hand = match.hands.order_by("-number").first()
        assert hand is not None
        if hand.status == hand.Status.OVER:
            hand = scoring_services.hand_start(match=match, actor=actor)
        state = hand_view(hand).state
        if state.phase == "deal":
            for move in play(hand, rng.randrange(10**6)).moves:
                with each_move():
                    hand = service_record(hand, [move], actor)
            continue
        game = get_game(match.game)  # a hand reopened half-way (an undo): play on from where it stands
        while not state.over:
            move = rng.choice(game.legal_moves(state))
            with each_move():
                hand = service_record(hand, [move], actor)
            state = game.apply(state, move).state


def finish_round(rnd: Round, seed: int, actor: User | None = None) -> None:
    for table in rnd.tables.select_related("match").order_by("number"):
        finish_match(table.match, seed * 100 + table.number, actor)


def close_round(t: Tournament, rnd: Round, actor: User) -> Round:
    t.refresh_from_db()
    return services.round_close(
        tournament=t, round_number=rnd.number, expected_version=t.version, actor=actor
    )
