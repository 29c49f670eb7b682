"""The fast paths of a state's JSON form give what the plain paths give: ``snapshot.plain`` against the
function it was before them, ``move_to_dict`` against ``move_to_dict_by_fields``, on random values and on
the states of random hands of every game."""

from __future__ import annotations

import random
from collections import namedtuple
from dataclasses import dataclass, fields, is_dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hands.snapshot import plain, snapshot
from scoring.rules import game_names, get_game
from scoring.rules.core import jsonable
from scoring.rules.moves import MOVE_TYPES, Move, PlayCard, move_to_dict, move_to_dict_by_fields
from tests.scoring.rules.playout import play_random


def plain_path(value: Any) -> Any:
    """``plain`` as it was before its fast path, the oracle."""
    if isinstance(value, Move):
        return move_to_dict_by_fields(value)
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain_path(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {str(k): plain_path(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_path(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted((plain_path(v) for v in value), key=str)
    return jsonable(value)


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (``1 == True == 1.0`` would hide a difference)."""
    return repr(a) == repr(b) and a == b


@dataclass(frozen=True)
class Record:
    a: Any
    b: Any = None


Pair = namedtuple("Pair", "x y")

atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=4),
    st.fractions(max_denominator=12),
)
cards = st.text(alphabet="23456789TJQKAS", min_size=1, max_size=3)
card_tuples = st.lists(cards, max_size=3).map(tuple)
move_values = {
    "seat": st.none() | st.integers(0, 5),
    "card": cards,
    "hands": st.none() | st.lists(card_tuples, max_size=3).map(tuple),
    "stock": card_tuples,
    "call": st.text(max_size=5),
    "value": st.none() | st.integers(0, 9) | st.text(max_size=3),
    "target": st.none() | st.integers(0, 5),
    "suit": st.none() | st.sampled_from("CDHS"),
    "discard": card_tuples,
    "take": card_tuples,
    "count": st.none() | st.integers(0, 9),
    "cards": card_tuples,
    "combination": st.text(max_size=5),
    "choice": st.text(max_size=5),
    "tricks": st.none() | st.integers(0, 9),
    "split": st.none() | st.lists(st.integers(0, 9), max_size=4).map(tuple),
    "accept": st.booleans(),
}


@st.composite
def moves(draw: st.DrawFn) -> Move:
    cls = draw(st.sampled_from(sorted(MOVE_TYPES.values(), key=lambda c: c.kind)))
    kwargs = {
        f.name: draw(move_values[f.name]) for f in fields(cls) if draw(st.booleans()) or f.name == "card"
    }
    for f in fields(cls):  # the fields with no default must be given
        if f.name not in kwargs and f.default is f.default_factory:
            kwargs[f.name] = draw(move_values[f.name])
    return cls(**kwargs)


values = st.recursive(
    st.one_of(atoms, moves()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers(0, 9)), inner, max_size=3),
        st.frozensets(st.one_of(st.integers(0, 9), cards), max_size=3),
        st.builds(Record, inner, inner),
        st.builds(Pair, inner, inner),
    ),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None)
@given(moves())
def test_a_move_written_out_is_the_move_field_by_field(move: Move) -> None:
    assert same(move_to_dict(move), move_to_dict_by_fields(move))


@settings(max_examples=200, deadline=None)
@given(st.integers(-3, 9), cards)
def test_a_card_played_is_written_out_field_by_field(seat: int, card: str) -> None:
    move = PlayCard(seat=seat, card=card)
    assert same(move_to_dict(move), move_to_dict_by_fields(move))
    assert move_to_dict(move) == {"type": "play", "seat": seat, "card": card}


@settings(max_examples=500, deadline=None)
@given(values)
def test_plain_gives_what_the_plain_path_gives(value: Any) -> None:
    # Twice: the first call may learn a dataclass's fields, the second uses them.
    assert same(plain(value), plain_path(value))
    assert same(plain(value), plain_path(value))


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_state_of_a_random_hand_reads_the_same(name: str, seed: int) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    hand = play_random(game, rng, seats=rng.choice(game.seat_counts))
    for state in hand.states:
        assert same(plain(state), plain_path(state))
        shown = snapshot(game, state)
        assert same(
            shown["game_state"], {n: v for n, v in plain_path(state).items() if n in shown["game_state"]}
        )
        assert same(
            shown["legal_moves"][:5], [move_to_dict_by_fields(m) for m in game.legal_moves(state)[:5]]
        )


def test_the_oracle_is_the_old_plain_on_a_known_value() -> None:
    value = (Record(PlayCard(seat=1, card="3S"), frozenset({"b", "a"})), {2: Fraction(7, 2)}, Pair(1, True))
    expected = [
        {"a": {"type": "play", "seat": 1, "card": "3S"}, "b": ["a", "b"]},
        {"2": "7/2"},
        [1, True],
    ]
    assert plain(value) == expected == plain_path(value)
