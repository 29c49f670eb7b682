"""What the API, record and permission tests share: personas, token clients, a match driven through the
API, and hands played by the engine (random legal play, with or without one injected irregularity)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.response import Response
from rest_framework.test import APIClient

from clubs.models import Club, Membership
from scoring import services
from scoring.models import Hand, Match
from scoring.rules import Game, ImpossibleMove, get_game, move_to_dict
from scoring.rules.core import HandResult, HandState, Score
from scoring.rules.moves import Deal, Move, PlayCard
from scoring.rules.tricks import TrickPlay
from scoring.selectors import hand_setup
from tests.scoring.factories import ClubFactory, UserFactory, member
from tests.scoring.rules.playout import Playout, card_turn, play_random

Role = Membership.Role
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena")


@dataclass
class People:
    """The personas: a director, a scorer (assigned to the matches the tests create), a scorer of the club
    who is not assigned, a member, an outsider (signed in, no role at the club)."""

    club: Club
    director: User
    scorer: User
    other_scorer: User
    member: User
    outsider: User


def make_people() -> People:
    club = ClubFactory()
    return People(
        club=club,
        director=member(club, Role.DIRECTOR, username="diana"),
        scorer=member(club, Role.SCORER, username="sandro"),
        other_scorer=member(club, Role.SCORER, username="otto"),
        member=member(club, Role.MEMBER, username="mario"),
        outsider=UserFactory(username="olga"),
    )


def client_for(user: User | None) -> APIClient:
    """An API client authenticated with the user's token (anonymous for None)."""
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def hand_url(match_id: int, number: int, suffix: str = "") -> str:
    return f"/api/matches/{match_id}/hands/{number}/{suffix}"


def create_match(
    client: APIClient,
    club: Club,
    game: str,
    *,
    seats: int | None = None,
    options: Mapping[str, Any] | None = None,
    dealer: int = 0,
    scorers: Sequence[str] = (),
    published: bool = False,
) -> dict[str, Any]:
    """Create a match through the API; returns the response body (fails the test unless 201)."""
    n = seats if seats is not None else get_game(game).seat_counts[0]
    body = {
        "club": club.pk,
        "game": game,
        "seats": list(NAMES[:n]),
        "dealer": dealer,
        "options": dict(options or {}),
        "scorers": list(scorers),
        "published": published,
    }
    response = client.post("/api/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    data: dict[str, Any] = response.json()
    return data


def post_move(
    client: APIClient,
    match_id: int,
    number: int,
    move: Move | Mapping[str, Any],
    version: int,
    *,
    key: str | None = None,
    header: str | None = None,
) -> Response:
    body: dict[str, Any] = {
        "move": move_to_dict(move) if isinstance(move, Move) else dict(move),
        "expected_version": version,
    }
    if key is not None:
        body["idempotency_key"] = key
    extra = {"HTTP_IDEMPOTENCY_KEY": header} if header is not None else {}
    response: Response = client.post(hand_url(match_id, number, "moves/"), body, format="json", **extra)
    return response


def record_each(
    client: APIClient, match_id: int, number: int, moves: Iterable[Move], version: int
) -> list[dict[str, Any]]:
    """Post every move in turn (each must be accepted); returns the body of each answer."""
    bodies: list[dict[str, Any]] = []
    for move in moves:
        response = post_move(client, match_id, number, move, version)
        assert response.status_code == 201, (move, response.json())
        bodies.append(response.json())
        version = bodies[-1]["version"]
    return bodies


def record(client: APIClient, match_id: int, number: int, moves: Iterable[Move], version: int) -> int:
    """Post every move in turn (each must be accepted); returns the hand's version after the last."""
    bodies = record_each(client, match_id, number, moves, version)
    return int(bodies[-1]["version"]) if bodies else version


def open_match(
    people: People, game: str, *, scorers: Sequence[str] = ("sandro",), **kwargs: Any
) -> tuple[dict[str, Any], Hand]:
    """A match the director opens through the API with the scorer assigned, and its first hand."""
    match = create_match(client_for(people.director), people.club, game, scorers=scorers, **kwargs)
    return match, hand_of(match)


def post_undo(
    client: APIClient, match_id: int, number: int, version: int, *, reason: str | None = None
) -> Response:
    body: dict[str, Any] = {"expected_version": version}
    if reason is not None:
        body["reason"] = reason
    response: Response = client.post(hand_url(match_id, number, "undo/"), body, format="json")
    return response


def ruling_body(version: int, refs: list[int], rectification: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A ruling on the moves at ``refs`` (stream versions); ``extra`` overrides any field."""
    return {
        "expected_version": version,
        "refs": refs,
        "rule": "revoke",
        "reason": "seen by both sides",
        "rectification": rectification,
        **extra,
    }


def post_ruling(
    client: APIClient, match_id: int, number: int, body: Mapping[str, Any], *, preview: bool = False
) -> Response:
    """Record a ruling, or with ``preview`` ask what it would do (nothing written)."""
    path = "rulings/preview/" if preview else "rulings/"
    response: Response = client.post(hand_url(match_id, number, path), body, format="json")
    return response


# ---- hands played by the engine ---------------------------------------------------------------------
@dataclass
class Played:
    """A hand played by the engine for a stored hand: its moves, and where an irregularity was put."""

    game: Game[Any]
    moves: list[Move]
    states: list[HandState]
    irregular_at: int | None = None  # the move index (the deal is 0) of the injected irregularity

    @property
    def final(self) -> HandState:
        return self.states[-1]


def setup_of(hand: Hand) -> dict[str, Any]:
    setup = hand_setup(hand)
    return {
        "options": setup.options,
        "seats": len(setup.seats),
        "dealer": setup.dealer,
        "context": setup.context,
    }


def play(hand: Hand, seed: int) -> Played:
    """Random legal play of the stored hand (its options, seats, dealer and match context)."""
    game = get_game(hand.match.game)
    p = play_random(game, random.Random(seed), **setup_of(hand))
    return Played(game, p.moves, p.states)


def first_irregular(game: Game[Any], states: Sequence[HandState]) -> tuple[int, Move, Any] | None:
    """The first step where the player to act holds a card that the rules forbid him now: (index, the
    irregular play, the step it makes)."""
    for index, state in enumerate(states):
        turn = card_turn(game, state)
        if turn is None:
            continue
        seat, offered = turn
        for card in sorted(state.hands.hand(seat) - offered):
            move = PlayCard(seat=seat, card=card)
            try:
                step = game.apply(state, move)
            except ImpossibleMove:
                continue
            if step.verdicts:
                return index, move, step
    return None


def inject_irregular(
    game: Game[Any], p: Playout, rng: random.Random
) -> tuple[int, list[Move], list[HandState]] | None:
    """The playout with its first irregular card put in, then legal play at random to the end: (the
    card's move index, the moves, the states); None when no step offers one."""
    found = first_irregular(game, p.states)
    if found is None:
        return None
    index, move, step = found
    moves, states = [*p.moves[:index], move], [*p.states[: index + 1], step.state]
    state = step.state
    while not state.over:
        move = rng.choice(game.legal_moves(state))
        state = game.apply(state, move).state
        moves.append(move)
        states.append(state)
    return index, moves, states


def play_irregular(hand: Hand, seed: int, tries: int = 60) -> Played:
    """Random play of the stored hand with one irregular card injected, then legal play to the end."""
    game = get_game(hand.match.game)
    setup = setup_of(hand)
    # A strict table refuses the card: find it as a table that records irregularities would.
    setup["options"] = {**setup["options"], "strict": False}
    for attempt in range(tries):
        rng = random.Random(seed * 1000 + attempt)
        found = inject_irregular(game, play_random(game, rng, **setup), rng)
        if found is not None:
            index, moves, states = found
            return Played(game, moves, states, irregular_at=index)
    raise AssertionError(f"{game.name}: no irregular card found in {tries} random hands")


def tricks_of(state: HandState) -> TrickPlay | None:
    """The state's trick play, whatever the game calls it (None before play or for Domino)."""
    return next((v for f in fields(state) if isinstance(v := getattr(state, f.name), TrickPlay)), None)


def side_of(result: HandResult, seat: int) -> tuple[int, ...]:
    """The seats that share ``seat``'s score in this hand (its team, or itself)."""
    return next((team for team in result.teams if seat in team), (seat,))


def side_scores(result: HandResult, seat: int, inside: Score, outside: Score = 0) -> list[Score]:
    """One number for ``seat``'s side and another for everyone else: a ruling that partners share."""
    side = side_of(result, seat)
    return [inside if s in side else outside for s in range(len(result.scores))]


def strict(options: Mapping[str, Any]) -> dict[str, Any]:
    return {**options, "strict": True}


def hand_of(match: Mapping[str, Any] | Match, number: int = 1) -> Hand:
    match_id = match["id"] if isinstance(match, Mapping) else match.pk
    return Hand.objects.get(match_id=match_id, number=number)


def service_record(hand: Hand, moves: Iterable[Move], actor: User | None = None) -> Hand:
    """Record moves through the service directly (where the API is not what the test is about)."""
    for move in moves:
        hand = services.move_record(
            hand=hand, move=move_to_dict(move), expected_version=hand.version, actor=actor
        ).hand
    return hand


def engine_record(name: str, *, irregular: bool = False, seed: int = 3) -> tuple[dict[str, Any], int]:
    """A hand record written straight from an engine playout (no database)."""
    game = get_game(name)
    seats = game.seat_counts[0]
    for attempt in range(60):
        rng = random.Random(seed * 100 + attempt)
        p = play_random(game, rng, seats=seats, dealer=0)
        moves, at = list(p.moves), 0
        if irregular:
            found = inject_irregular(game, p, rng)
            if found is None:
                continue
            at, moves, _ = found
        deal = moves[0]
        assert isinstance(deal, Deal) and deal.hands is not None
        record = {
            "format": "segnapunti.hand",
            "format_version": 1,
            "game": name,
            "seats": list(NAMES[:seats]),
            "dealer": 0,
            "deal": {"hands": [list(h) for h in deal.hands], "stock": list(deal.stock)},
            "moves": [move_to_dict(m) for m in moves[1:]],
        }
        return record, at
    raise AssertionError("no irregular hand found")
