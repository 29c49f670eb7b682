"""Demo data: a few recorded matches of every game, played by seeded random legal moves through the same
services the table uses, so that the pages, the sheets and the replay viewer have something to show."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from clubs.models import Club, Membership
from scoring.models import Hand, Match
from scoring.rules import get_game
from scoring.rules.moves import Call, Move, PlayCard, move_to_dict
from scoring.selectors import hand_view
from scoring.services import hand_start, match_create, move_record

# (game, players, hands to play, options)
DEMO_MATCHES: tuple[tuple[str, int, int, dict[str, Any]], ...] = (
    ("tressette", 4, 3, {}),
    ("tressette", 3, 2, {}),
    ("barbu", 4, 4, {}),
    ("tarocchi", 3, 3, {}),
    ("hombre_it", 3, 3, {}),
    ("lhombre", 3, 3, {}),
)
# How often a demo player makes each call, against 1 for any other: real tables pass and play plain games
# far more often than they announce a vole, and Tarocchi tables mostly play the deal out.
CALL_WEIGHTS = {"pass": 6, "passo": 6, "je_joue": 4, "gioco": 4, "tengo": 12, "vado": 2}
DEMO_USERS = (
    ("direttore", Membership.Role.DIRECTOR),
    ("segnapunti", Membership.Role.SCORER),
    ("socio", Membership.Role.MEMBER),
)


def demo_users_load(*, club: Club) -> list[Any]:
    """Three demo accounts, one per role; each one's password is its user name."""
    users = []
    model = get_user_model()
    for name, role in DEMO_USERS:
        user, made = model.objects.get_or_create(username=name)
        if made:
            user.set_password(name)
            user.save()
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
        users.append(user)
    return users


def demo_matches_load(*, club: Club, seed: int = 2026) -> int:
    """Record the demo matches once; returns how many were added."""
    director, scorer, _ = demo_users_load(club=club)
    players = list(club.players.order_by("name"))
    added = 0
    rng = random.Random(seed)
    for number, (game, seats, hands, options) in enumerate(DEMO_MATCHES, start=1):
        title = f"Demo {number}"  # the pages name the game beside it, in the reader's language
        if Match.objects.filter(club=club, title=title).exists():
            continue
        with transaction.atomic():
            table = (
                rng.sample(players, seats) if len(players) >= seats else [f"Seat {i}" for i in range(seats)]
            )
            match = match_create(
                club=club,
                game=game,
                seats=table,
                options=options,
                title=title,
                published=True,
                scorers=[scorer],
                actor=director,
            )
            hand = match.hands.get(number=1)
            for n in range(hands):
                if n:
                    if Match.objects.get(pk=match.pk).status == Match.Status.FINISHED:
                        break
                    hand = hand_start(match=match, actor=scorer)
                # The second hand of each match is kept by the moves alone; one card in the first hand of
                # the first match is played off suit, for the director to rule on.
                _play_hand(hand, rng, known=n != 1, revoke=number == 1 and n == 0, actor=scorer)
        added += 1
    return added


def match_play_out(match: Match, rng: random.Random, *, actor: Any) -> Match:
    """Play the match's hands at random on the engine until the match is over, recording every move."""
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        hand = match.hands.order_by("-number").first()
        if hand is None or hand.status == Hand.Status.OVER:
            hand = hand_start(match=match, actor=actor)
        _play_hand(hand, rng, known=True, revoke=False, actor=actor)


def _play_hand(hand: Hand, rng: random.Random, *, known: bool, revoke: bool, actor: Any) -> None:
    """Play a hand at random on the engine, then record it move by move through the service."""
    game = get_game(hand.match.game)
    state = hand_view(hand).state
    deal = game.random_deal(state, rng)
    moves: list[Move] = [deal]
    state = game.apply(state, deal).state
    revoked = not revoke
    while not state.over:
        move = _choose(rng, game.legal_moves(state))
        if not revoked and isinstance(move, PlayCard):
            wrong = _off_suit(game, state, move)
            if wrong is not None:
                move, revoked = wrong, True
        moves.append(move)
        state = game.apply(state, move).state
    version = hand.version
    for move in moves if known else game.moves_only(moves):
        version = move_record(
            hand=hand, move=move_to_dict(move), expected_version=version, actor=actor
        ).version


def _choose(rng: random.Random, legal: list[Move]) -> Move:
    weights = [CALL_WEIGHTS.get(m.call, 1) if isinstance(m, Call) else 1 for m in legal]
    return rng.choices(legal, weights)[0]


def _off_suit(game: Any, state: Any, move: PlayCard) -> PlayCard | None:
    """A card the seat holds that the engine would flag (a revoke), if there is one."""
    offered = {m.card for m in game.legal_moves(state) if isinstance(m, PlayCard)}
    assert move.seat is not None
    for card in sorted(state.hands.hand(move.seat) - offered):
        candidate = PlayCard(seat=move.seat, card=card)
        if game.apply(state, candidate).verdicts:
            return candidate
    return None
