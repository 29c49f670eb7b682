"""The engine's cheap copies (one card out of a hand, a card added to a trick, a state with some fields
changed, params made plain) against the plain way of making the same values: the dataclasses' own
constructors and ``dataclasses.replace``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import game_names, get_game
from scoring.rules.cards import FRENCH_52, suit_of
from scoring.rules.core import Holdings, evolve
from scoring.rules.errors import ImpossibleMove, plain_params
from scoring.rules.tricks import Trick, TrickPlay, winner_of, with_trumps

from .playout import play_random

seeds = st.integers(min_value=0, max_value=2**32 - 1)
NOT_A_CARD = "1Z"


def random_holdings(rng: random.Random) -> Holdings:
    """Four seats of a French deck part way through a hand, the deal known or not."""
    cards = list(FRENCH_52.cards)
    rng.shuffle(cards)
    hands = [frozenset(cards[i * 13 : (i + 1) * 13]) for i in range(4)]
    gone: set[str] = set()
    for seat in range(4):
        out = set(rng.sample(sorted(hands[seat]), rng.randrange(14)))
        hands[seat] -= out
        gone |= out
    counts = tuple(len(h) for h in hands)
    deck = frozenset(FRENCH_52.cards)
    if rng.random() < 0.5:
        return Holdings(deck=deck, counts=counts, gone=frozenset(gone))
    return Holdings(deck=deck, counts=counts, hands=tuple(hands), gone=frozenset(gone))


def plain_remove(holdings: Holdings, seat: int, card: str) -> Holdings:
    """One card out of a seat's hand, every check made and the value built by the constructor."""
    holdings.check_holds(seat, card)
    counts = list(holdings.counts)
    counts[seat] -= 1
    hands = holdings.hands
    if hands is not None:
        hands = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
    return Holdings(
        deck=holdings.deck,
        counts=tuple(counts),
        hands=hands,
        gone=holdings.gone | {card},
        stock=holdings.stock,
    )


def outcome(make: Any) -> Any:
    try:
        return make()
    except ImpossibleMove as exc:
        return (exc.code, exc.message, exc.field)


@settings(max_examples=200, deadline=None)
@given(seed=seeds)
def test_one_card_out_of_a_hand_is_the_plain_removal(seed: int) -> None:
    rng = random.Random(seed)
    holdings = random_holdings(rng)
    for _ in range(20):
        seat = rng.randrange(4)
        card = rng.choice([*FRENCH_52.cards, NOT_A_CARD])  # held, another's, gone or not a card at all
        fast = outcome(lambda: holdings.remove_card(seat, card))  # noqa: B023
        plain = outcome(lambda: plain_remove(holdings, seat, card))  # noqa: B023
        assert fast == plain
        if isinstance(fast, Holdings):
            assert vars(fast) == vars(plain)  # every field, and nothing else
            assert holdings.remove(seat, [card]) == plain


def test_a_card_refused_is_refused_with_what_the_checks_say() -> None:
    known = Holdings(
        deck=frozenset({"AS", "2S", "3S"}),
        counts=(1, 1),
        hands=(frozenset({"AS"}), frozenset({"2S"})),
        gone=frozenset({"3S"}),
    )
    blind = Holdings(deck=known.deck, counts=(0, 2), gone=known.gone)
    cases = [
        (known, 0, "2S", "card.not_held"),
        (known, 0, "3S", "card.gone"),
        (known, 0, "KS", "card.unknown"),
        (blind, 0, "AS", "hand.empty"),
        (blind, 1, "3S", "card.gone"),
    ]
    for holdings, seat, card, code in cases:
        with pytest.raises(ImpossibleMove) as err:
            holdings.remove_card(seat, card)
        assert err.value.code == code


def plain_play(play: TrickPlay, seat: int, card: str, strength: Any, players: int | None) -> TrickPlay:
    current = play.current
    plays = (*current.plays, (seat, card))
    if len(plays) < (players or play.seats):
        return TrickPlay(play.seats, Trick(current.number, current.leader, plays), play.done)
    winner = winner_of(plays, strength)
    done = (*play.done, Trick(current.number, current.leader, plays, winner))
    return TrickPlay(play.seats, Trick(current.number + 1, winner), done)


def same_trick_play(a: TrickPlay, b: TrickPlay) -> bool:
    return (
        a == b
        and vars(a).keys() == vars(b).keys()
        and all(vars(x) == vars(y) for x, y in zip((a.current, *a.done), (b.current, *b.done), strict=True))
    )


@settings(max_examples=100, deadline=None)
@given(seed=seeds)
def test_a_card_added_to_a_trick_is_the_plain_trick(seed: int) -> None:
    rng = random.Random(seed)
    seats = rng.choice((3, 4))
    players = rng.choice((None, seats, seats - 1))
    strength = with_trumps(FRENCH_52.ranks, rng.choice(("S", "H", None)))
    cards = list(FRENCH_52.cards)
    rng.shuffle(cards)
    play = TrickPlay.start(seats, rng.randrange(seats))
    for card in cards[:30]:
        seat = play.to_play()
        fast, plain = (
            play.play(seat, card, strength, players=players),
            plain_play(play, seat, card, strength, players),
        )
        assert same_trick_play(fast, plain)
        if players is not None and len(fast.current.plays) == 0 and fast.done:
            assert len(fast.done[-1].plays) == players
        play = fast


@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_a_state_with_some_fields_changed_is_what_replace_makes(seed: int) -> None:
    rng = random.Random(seed)
    game = get_game(rng.choice(game_names()))
    states = play_random(game, rng).states
    for _ in range(10):
        state, other = rng.choice(states), rng.choice(states)
        names = [f.name for f in fields(state)]
        changes = {n: getattr(other, n) for n in rng.sample(names, rng.randrange(len(names) + 1))}
        made = evolve(state, **changes)
        assert made == replace(state, **changes)
        assert vars(made) == vars(replace(state, **changes))
        assert vars(state) == vars(replace(state))  # the original is untouched
    with pytest.raises(TypeError, match="no field nonsense"):
        evolve(states[-1], over=True, nonsense=1)


def old_plain(value: Any) -> Any:
    """Params as JSON values the long way: every value through every check."""
    if isinstance(value, Mapping):
        return {str(k): old_plain(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(old_plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [old_plain(v) for v in value]
    return value


scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.floats(allow_nan=False)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.frozensets(st.integers(), max_size=3)
        | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=200, deadline=None)
@given(params=st.dictionaries(st.text(max_size=3), values, max_size=4))
def test_plain_params_are_what_every_check_gives(params: dict[str, Any]) -> None:
    made = plain_params(params)
    assert made == {k: old_plain(v) for k, v in params.items()}
    assert repr(made) == repr({k: old_plain(v) for k, v in params.items()})  # the same types too


def test_suit_of_french_cards_is_the_deck_table() -> None:
    # Barbù hands its follow-suit check the deck's table of suits: the same answers as suit_of.
    from scoring.rules.barbu import _SUIT_OF_CARD

    assert all(_SUIT_OF_CARD(c) == suit_of(c) for c in FRENCH_52.cards)
