"""Barbù Domino: the layout's legal cards, forced play and passes, skipping players who are out, the
finishing order and its scores, in both recording modes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from scoring.rules import get_game, replay
from scoring.rules.barbu import Barbu, BarbuState
from scoring.rules.errors import ImpossibleMove, IrregularMoveRefused
from scoring.rules.moves import Call, Choose, Claim, Deal, Move, PlayCard

GAME = get_game("barbu")
assert isinstance(GAME, Barbu)

# Seat 0 deals and opens on the Aces, so every row only runs down. Seat 0 holds the Aces, Kings and
# Queens but also 2C, which fits only once clubs have come down to 3C; seat 1 holds the Jacks to Nines
# (JS excepted) and 8S 8H; seat 2 the Eights to Fives; seat 3 the Fives to Twos and JS.
HANDS = (
    "AS AH AD AC KS KH KD KC QS QH QD QC 2C",
    "JH JD JC TS TH TD TC 9S 9H 9D 9C 8S 8H",
    "8D 8C 7S 7H 7D 7C 6S 6H 6D 6C 5S 5H 5D",
    "5C 4S 4H 4D 4C 3S 3H 3D 3C 2S 2H 2D JS",
)
# Every turn from seat 1 (the dealer's left), "--" for a pass. Each seat plays when it can (here always
# the only fitting card, or the first in deck order) and passes otherwise.
SCRIPT = """
1:-- 2:-- 3:-- 0:AS 1:-- 2:-- 3:-- 0:KS 1:-- 2:-- 3:-- 0:QS
1:-- 2:-- 3:JS 0:AH 1:TS 2:-- 3:-- 0:KH 1:9S 2:-- 3:-- 0:QH
1:8S 2:7S 3:-- 0:AD 1:JH 2:6S 3:-- 0:KD 1:TH 2:5S 3:4S 0:QD
1:9H 2:-- 3:3S 0:AC 1:8H 2:7H 3:2S 0:KC 1:JD 2:6H 3:-- 0:QC
1:TD 2:5H 3:4H 0:-- 1:9D 2:8D 3:3H 0:-- 1:JC 2:7D 3:2H 0:--
1:TC 2:6D 3:-- 0:-- 1:9C 2:5D 3:4D 0:-- 2:8C 3:3D 0:-- 2:7C
3:2D 0:-- 2:6C 3:5C 0:-- 3:4C 0:-- 3:3C 0:2C
"""


def turns(script: str = SCRIPT) -> list[Move]:
    out: list[Move] = []
    for token in script.split():
        seat, card = token.split(":")
        out.append(Call(seat=int(seat), call="pass") if card == "--" else PlayCard(seat=int(seat), card=card))
    return out


def opening(rank: str = "A", hands: tuple[str, ...] = HANDS) -> list[Move]:
    return [
        Deal(hands=tuple(tuple(h.split()) for h in hands)),
        Choose(seat=0, choice="contract", value="DOM"),
        Choose(seat=0, choice="opening_rank", value=rank),
    ]


def play(moves: list[Move], options: Mapping[str, Any] | None = None) -> BarbuState:
    final = replay(GAME, moves, options=options, seats=4, dealer=0).final
    assert isinstance(final, BarbuState)
    return final


def legal_cards(state: BarbuState) -> list[str]:
    return [m.card if isinstance(m, PlayCard) else "--" for m in GAME.legal_moves(state)]


def test_the_worked_example_finishes_1_2_3_0() -> None:
    # Seat 1 plays his last card (9C) on turn 65, seat 2 (6C) on turn 75, seat 3 (3C) on turn 80, and
    # seat 0 waits for 3C to lay 2C: places 1 2 3 4 → +45 +20 +10 −10 (65).
    moves = opening() + turns()
    for state in (play(moves), play(GAME.moves_only(moves))):
        assert state.over and state.verdicts == ()
        assert state.finished == (1, 2, 3, 0)
        result = GAME.result(state)
        assert result.scores == (-10, 45, 20, 10)
        assert result.details["finishing_order"] == [1, 2, 3, 0]
        assert result.details["layout"]["C"][0] == "2C"


def test_the_player_on_the_dealers_left_starts() -> None:
    state = play(opening())
    assert state.phase == "domino" and GAME.to_act(state) == frozenset({1})
    assert legal_cards(state) == ["--"]  # seat 1 holds no Ace


def test_legal_cards_are_the_openers_and_the_next_card_at_each_end() -> None:
    moves = opening() + turns()
    # After 0:AS 1:-- 2:-- 3:-- seat 0 may lay KS (below AS) or any other Ace.
    assert legal_cards(play(moves[: 3 + 7])) == ["KS", "AH", "AD", "AC"]
    # After 3:JS 0:AH seat 1 holds TS (below JS) but not KH, AD or AC.
    assert legal_cards(play(moves[: 3 + 16])) == ["TS"]


def test_a_card_that_does_not_fit_is_refused() -> None:
    state = play(opening() + turns()[:3])  # seat 0 to play, no row open yet
    for card, code in (("KS", "barbu.domino_card"), ("2S", "card.not_held"), ("2C", "barbu.domino_card")):
        with pytest.raises(ImpossibleMove) as err:
            GAME.apply(state, PlayCard(seat=0, card=card))
        assert err.value.code == code
    with pytest.raises(ImpossibleMove) as call:
        GAME.apply(state, Call(seat=0, call="double"))
    assert call.value.code == "barbu.call_unknown"
    with pytest.raises(ImpossibleMove) as claim:
        GAME.apply(state, Claim(seat=0))
    assert claim.value.code == "claim.not_allowed"


def test_a_pass_while_able_is_an_irregularity() -> None:
    state = play(opening() + turns()[:3])
    step = GAME.apply(state, Call(seat=0, call="pass"))
    assert [(v.rule, v.seat) for v in step.verdicts] == [("barbu.domino_pass", 0)]
    assert GAME.to_act(step.state) == frozenset({1})
    with pytest.raises(IrregularMoveRefused):
        GAME.apply(play(opening() + turns()[:3], {"strict": True}), Call(seat=0, call="pass"))


@pytest.mark.parametrize("stop", ["all_cards", "three_out"])
def test_a_wrong_pass_is_proved_later_without_the_deal(stop: str) -> None:
    # Seat 3 passes instead of laying JS (turn 15); seat 0 lays AH, seats 1 and 2 cannot play, and seat
    # 3 lays JS: without the deal, that play of a card which fitted at the pass proves the pass wrong.
    moves = opening() + turns()[:14] + turns("3:-- 0:AH 1:-- 2:-- 3:JS")
    options = {"domino_stop": stop}
    known, blind = play(moves, options), play(GAME.moves_only(moves), options)
    pass_index = 3 + 14
    assert {(v.rule, v.seat, v.move_index) for v in known.verdicts} == {("barbu.domino_pass", 3, pass_index)}
    assert {(v.rule, v.seat, v.move_index) for v in blind.verdicts} == {("barbu.domino_pass", 3, pass_index)}
    assert [v.proved_at for v in blind.verdicts] == [pass_index + 4]


OWN_SUITS = (
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)


@pytest.mark.parametrize("stop", ["all_cards", "three_out"])
def test_a_wrong_pass_by_the_last_player_is_proved_by_the_cards_he_is_left_with(stop: str) -> None:
    # Each seat holds one suit and lays a card every turn (opening 7). On the 13th round seat 1 passes
    # holding his last heart, which fits; seats 2, 3 and 0 go out. Under three_out the hand stops there:
    # without the deal, seat 1 must hold the one card not yet down, so the pass is proved at the last move.
    options = {"domino_stop": stop}
    moves = opening("7", OWN_SUITS)
    state = play(moves, options)
    for _ in range(48):
        move = GAME.legal_moves(state)[0]
        moves.append(move)
        state = GAME.apply(state, move).state
    assert GAME.to_act(state) == frozenset({1}) and len(state.hands.hand(1)) == 1
    moves.append(Call(seat=1, call="pass"))
    state = GAME.apply(state, moves[-1]).state
    while not state.over:
        move = GAME.legal_moves(state)[0]
        moves.append(move)
        state = GAME.apply(state, move).state
    blind = play(GAME.moves_only(moves), options)
    pass_index = 3 + 48
    for final in (state, blind):
        assert {(v.rule, v.seat, v.move_index) for v in final.verdicts} == {
            ("barbu.domino_pass", 1, pass_index)
        }
        assert final.finished == (2, 3, 0, 1)
        assert GAME.result(final).scores == (10, -10, 45, 20)
    assert [v.proved_at for v in blind.verdicts] == [len(moves) - 1]
    assert len(moves) == 3 + 52 + (1 if stop == "all_cards" else 0)


def test_players_who_are_out_are_skipped() -> None:
    moves = opening() + turns()
    after_1_out = play(moves[: 3 + 65])
    assert after_1_out.finished == (1,)
    assert GAME.to_act(after_1_out) == frozenset({2})
    after_2_out = play(moves[: 3 + 75])
    assert after_2_out.finished == (1, 2) and GAME.to_act(after_2_out) == frozenset({3})
    with pytest.raises(ImpossibleMove) as out:
        GAME.apply(after_2_out, Call(seat=1, call="pass"))
    assert out.value.code == "turn.wrong"


def test_three_out_stops_the_hand_with_the_same_order() -> None:
    moves = opening() + turns()
    state = play(moves[:-1], {"domino_stop": "three_out"})
    assert state.over and state.ended == "three_out"
    assert GAME.result(state).scores == (-10, 45, 20, 10)
    with pytest.raises(ImpossibleMove) as over:
        GAME.apply(state, moves[-1])
    assert over.value.code == "hand.over"


def test_the_opening_rank_is_checked() -> None:
    state = play(opening()[:2])
    assert [m.value for m in GAME.legal_moves(state) if isinstance(m, Choose)] == list("23456789TJQKA")
    pips = play(opening()[:2], {"domino_opening_ranks": "pips_only"})
    assert [m.value for m in GAME.legal_moves(pips) if isinstance(m, Choose)] == list("23456789T")
    with pytest.raises(ImpossibleMove) as err:
        GAME.apply(pips, Choose(seat=0, choice="opening_rank", value="A"))
    assert err.value.code == "barbu.opening_rank"


def test_the_linear_row_stops_at_the_ace_and_the_circular_one_goes_round() -> None:
    # Seat 1 holds every heart: after AH the linear row offers only KH, the circular one KH and 2H.
    moves = opening("A", OWN_SUITS) + [
        PlayCard(seat=1, card="AH"),
        PlayCard(seat=2, card="AD"),
        PlayCard(seat=3, card="AC"),
        PlayCard(seat=0, card="AS"),
    ]
    assert legal_cards(play(moves)) == ["KH"]
    assert legal_cards(play(moves, {"domino_sequence": "circular"})) == ["2H", "KH"]
    # Each seat lays its own suit one card a turn: they go out in turn order, seat 1 first.
    state = play(moves)
    while not state.over:
        state = GAME.apply(state, GAME.legal_moves(state)[0]).state
    assert state.finished == (1, 2, 3, 0)
    assert GAME.result(state).scores == (-10, 45, 20, 10)
