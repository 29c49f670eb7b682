"""Italian Hombre: worked examples computed by hand, on written-out deals.

Seats are numbered in the order of play. With dealer 0: E (first to speak and to lead) is seat 1, M is
seat 2, the dealer D is seat 0; exchanges go from the hombre to hombre + 1, hombre + 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from scoring.rules import get_game
from scoring.rules.core import HandResult, Verdict, replay
from scoring.rules.errors import ImpossibleMove, IrregularMoveRefused
from scoring.rules.hombre_it import HombreIt, HombreState, hand_stake
from scoring.rules.moves import Call, Choose, Claim, ClaimResponse, Deal, Exchange, Move, PlayCard

game = get_game("hombre_it")
assert isinstance(game, HombreIt)


def hands(*spec: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(h.split()) for h in spec)


def deal(*spec: str) -> Deal:
    """A deal of three written hands (seat 0, 1, 2); the talon is the other 13 cards in deck order."""
    h = hands(*spec)
    dealt = {c for hand in h for c in hand}
    return Deal(hands=h, stock=tuple(c for c in game.deck.cards if c not in dealt))


def calls(*spec: str) -> list[Move]:
    """``"1:passo"`` …"""
    out: list[Move] = []
    for item in spec:
        seat, call = item.split(":")
        out.append(Call(seat=int(seat), call=call))
    return out


def plays(*tricks: str) -> list[Move]:
    """One string per trick, ``"1:KS 2:5S 0:6S"`` in the order played."""
    out: list[Move] = []
    for trick in tricks:
        for item in trick.split():
            seat, card = item.split(":")
            out.append(PlayCard(seat=int(seat), card=card))
    return out


def run(moves: Iterable[Move], options: Mapping[str, Any] | None = None, dealer: int = 0) -> HombreState:
    r = replay(game, list(moves), options=options, seats=3, dealer=dealer)
    state = r.final
    assert isinstance(state, HombreState)
    return state


def at(state: HombreState, move: Move) -> HombreState:
    new = game.apply(state, move).state
    assert isinstance(new, HombreState)
    return new


def rules(verdicts: Iterable[Verdict]) -> list[tuple[str, int, int | None]]:
    return [(v.rule, v.move_index, v.proved_at) for v in verdicts]


# ---- the 4-3-2 hand ------------------------------------------------------------------------------
# Dealer 0. M (seat 2) calls solo and names bastoni (C): trumps AS 2C AC KC QC JC 7C 6C 5C 4C 3C.
# Every trick is played in one suit, so every play follows suit and the winner is the highest card.
SPLIT_DEAL = deal(
    "6S 3H 3D KC JC 6C 4S QH QD",  # seat 0, the dealer
    "KS KH KD 2C QC 5C 3S 5H 4D",  # seat 1, E
    "5S 2H 2D AS AC 7C QS 4H 5D",  # seat 2, M, the hombre
)
SPLIT_AUCTION = [*calls("1:passo", "2:solo", "0:passo"), Choose(seat=2, choice="trump", value="C")]
SPLIT_PLAY = plays(
    "1:KS 2:5S 0:6S",  # 1  seat 1 (KS)
    "1:KH 2:2H 0:3H",  # 2  seat 1 (KH)
    "1:KD 2:2D 0:3D",  # 3  seat 1 (KD)
    "1:2C 2:AS 0:KC",  # 4  seat 2 (spadille over the manille); 2C led forces AC/7C and KC: trumps due
    "2:AC 0:JC 1:QC",  # 5  seat 2 (basto)
    "2:7C 0:6C 1:5C",  # 6  seat 2 (7C > 6C > 5C in a black trump suit)
    "2:QS 0:4S 1:3S",  # 7  seat 2 (QS)
    "2:4H 0:QH 1:5H",  # 8  seat 0 (QH)
    "0:QD 1:4D 2:5D",  # 9  seat 0 (QD)
)
SPLIT_HAND = [SPLIT_DEAL, *SPLIT_AUCTION, *SPLIT_PLAY]


def test_a_4_3_2_split_loses_under_the_five_trick_rule() -> None:
    state = run(SPLIT_HAND)
    assert state.over and state.hombre == 2 and state.contract == "solo" and state.trump == "C"
    assert state.verdicts == ()
    result = game.result(state)
    assert result.details["tricks"] == [2, 3, 4]
    # 4 tricks < 5: lost. The hombre pays the stake 1 to each defender: -2, +1, +1.
    assert result.outcome == "lost"
    assert result.scores == (1, 1, -2)
    assert result.team_scores == (-2, 2)


def test_a_4_3_2_split_wins_under_the_majority_rule() -> None:
    # 4 > 3 and 4 > 2: the hombre wins; each defender pays 1: +2, -1, -1.
    result = game.result(run(SPLIT_HAND, {"win_rule": "majority"}))
    assert result.outcome == "won"
    assert result.scores == (-1, -1, 2)


def test_the_solo_stake_replaces_the_stake() -> None:
    # stake 2, solo_stake 5: lost solo, the hombre pays 5 to each: -10, +5, +5.
    result = game.result(run(SPLIT_HAND, {"stake": 2, "solo_stake": 5}))
    assert result.scores == (5, 5, -10)
    assert result.details["stake"] == 5


def test_the_same_hand_recorded_without_the_deal_scores_the_same() -> None:
    blind = run(game.moves_only(SPLIT_HAND))
    assert not blind.deal_known
    assert blind.verdicts == ()
    assert game.result(blind).scores == (1, 1, -2)


def test_e_leads_the_first_trick_whoever_the_hombre_is() -> None:
    state = run([SPLIT_DEAL, *SPLIT_AUCTION])
    assert state.phase == "play" and game.to_act(state) == {1}
    with pytest.raises(ImpossibleMove) as err:
        game.apply(state, PlayCard(seat=2, card="AS"))
    assert err.value.code == "turn.wrong"


def test_the_trump_led_forces_a_trump_any_trump_in_play() -> None:
    # Trick 4: seat 1 leads 2C (the manille). Seat 2 holds AS (privileged, above 2C) and AC, 7C
    # (forceable): a trump is due, any of the three. His QS is a revoke, refused at a strict table.
    state = run([SPLIT_DEAL, *SPLIT_AUCTION, *SPLIT_PLAY[:10]])
    assert state.move_index == 15
    assert {m.card for m in game.legal_moves(state) if isinstance(m, PlayCard)} == {"AS", "AC", "7C"}
    step = game.apply(state, PlayCard(seat=2, card="QS"))
    assert rules(step.verdicts) == [("hombre.follow_suit", 15, None)]
    strict = replace(state, options={**state.options, "strict": True})
    with pytest.raises(IrregularMoveRefused) as refused:
        game.apply(strict, PlayCard(seat=2, card="QS"))
    assert refused.value.code == "irregular.hombre.follow_suit"


# ---- volo ----------------------------------------------------------------------------------------
# Dealer 0, E = seat 1 calls volo with the nine top spade trumps... or eight of them and a low diamond.

VOLO_WON = [
    deal(
        "KD QD JD AD 2D 3D 4D 5D 6D",
        "AS 2S AC KS QS JS 7S 6S 5S",
        "4S 3S KH QH JH AH 2H 3H 4H",
    ),
    *calls("1:volo", "2:passo", "0:passo"),
    Choose(seat=1, choice="trump", value="S"),
    *plays(
        "1:AS 2:4S 0:KD",  # seat 2 must follow the trump lead with 4S or 3S
        "1:2S 2:3S 0:QD",
        "1:AC 2:KH 0:JD",
        "1:KS 2:QH 0:AD",
        "1:QS 2:JH 0:2D",
        "1:JS 2:AH 0:3D",
        "1:7S 2:2H 0:4D",
        "1:6S 2:3H 0:5D",
        "1:5S 2:4H 0:6D",
    ),
]

VOLO_LOST = [
    deal(
        "KD QD JD AD 3D 4D 5D 6D 7D",
        "AS 2S AC KS QS JS 7S 6S 2D",
        "5S 4S 3S KH QH JH AH 2H 3H",
    ),
    *calls("1:volo", "2:passo", "0:passo"),
    Choose(seat=1, choice="trump", value="S"),
    *plays(
        "1:AS 2:5S 0:QD",
        "1:2S 2:4S 0:JD",
        "1:AC 2:3S 0:AD",
        "1:KS 2:KH 0:3D",
        "1:QS 2:QH 0:4D",
        "1:JS 2:JH 0:5D",
        "1:7S 2:AH 0:6D",
        "1:6S 2:2H 0:7D",
        "1:2D 2:3H 0:KD",  # the king of ori takes the last trick: 8 tricks, volo lost
    ),
]


def test_volo_won_with_all_nine_tricks() -> None:
    state = run(VOLO_WON)
    assert state.verdicts == ()
    result = game.result(state)
    assert result.details["tricks"] == [0, 9, 0]
    # stake 1: +2 for the hombre, -1 each defender.
    assert (result.outcome, result.scores) == ("won", (-1, 2, -1))


def test_volo_lost_with_eight_tricks() -> None:
    result = game.result(run(VOLO_LOST))
    assert result.details["tricks"] == [1, 8, 0]
    assert (result.outcome, result.scores) == ("lost", (1, -2, 1))


def test_the_volo_prize_replaces_or_adds_to_the_stake() -> None:
    # V = 5 replacing the stake 2: lost volo, -10 / +5 / +5; added: 2 + 5 = 7 each, -14 / +7 / +7.
    assert game.result(run(VOLO_LOST, {"stake": 2, "volo_stake": 5})).scores == (5, -10, 5)
    assert game.result(run(VOLO_LOST, {"stake": 2, "volo_stake": 5, "volo_stake_mode": "add"})).scores == (
        7,
        -14,
        7,
    )
    # won: +2V
    assert game.result(run(VOLO_WON, {"volo_stake": 4})).scores == (-4, 8, -4)


def test_volo_is_unaffected_by_the_majority_rule() -> None:
    # 8 against 1-0 is a majority, but volo needs all nine.
    assert game.result(run(VOLO_LOST, {"win_rule": "majority"})).outcome == "lost"


def test_nine_tricks_without_volo_is_an_ordinary_win() -> None:
    moves = list(VOLO_WON)
    moves[1] = Call(seat=1, call="solo")
    result = game.result(run(moves, {"solo_stake": 3}))
    assert (result.outcome, result.scores) == ("won", (-3, 6, -3))


def test_hand_stake_by_contract() -> None:
    opts = game.ruleset.validate({"stake": 2, "solo_stake": 3, "volo_stake": 10, "volo_stake_mode": "add"})
    assert [hand_stake(opts, c) for c in ("gioco", "solo", "volo")] == [2, 3, 12]


# ---- the matador privilege in play, both recording modes ------------------------------------------
# Dealer 0; E = seat 1 calls solo in coppe (H), four matadors AS 7H AC AH.
PRIVILEGE_DEAL = deal(
    "AC KD QD JD AD 2D 3D 4D 5D",  # seat 0: one trump, the basto
    "AS 3H 4H 5H 6H KS QS JS 7S",  # seat 1: the hombre
    "7H KC QC JC 7C 6C 5C 4C 3C",  # seat 2: one trump, the manille
)
PRIVILEGE_START = [
    PRIVILEGE_DEAL,
    *calls("1:solo", "2:passo", "0:passo"),
    Choose(seat=1, choice="trump", value="H"),
]  # moves 0-4


@pytest.mark.parametrize("n", [3, 4])
def test_an_ordinary_trump_led_lets_lone_matadors_stay_home(n: int) -> None:
    # 3H led: seat 2's 7H and seat 0's AC are matadors above 3H: any card is regular.
    state = run([*PRIVILEGE_START, *plays("1:3H")], {"n_matadors": n})
    legal = {m.card for m in game.legal_moves(state) if isinstance(m, PlayCard)}
    assert legal == set(PRIVILEGE_DEAL.hands[2])  # type: ignore[index]


@pytest.mark.parametrize("n", [3, 4])
def test_a_lower_matador_led_lets_a_higher_one_stay_home(n: int) -> None:
    # The hombre leads the basto AC; seat 2's lone 7H and seat 0's lone AS both rank above it.
    moves = [
        deal("AS KD QD JD AD 2D 3D 4D 5D", "AC 3H 4H 5H 6H KS QS JS 7S", "7H KC QC JC 7C 6C 5C 4C 3C"),
        *calls("1:solo", "2:passo", "0:passo"),
        Choose(seat=1, choice="trump", value="H"),
        *plays("1:AC"),
    ]
    state = run(moves, {"n_matadors": n})
    # seat 2: 7H ranks above AC: privileged, any card.
    assert {m.card for m in game.legal_moves(state) if isinstance(m, PlayCard)} == set(moves[0].hands[2])  # type: ignore[attr-defined,index]
    state = at(state, PlayCard(seat=2, card="KC"))
    # seat 0: AS ranks above AC: privileged too.
    assert {m.card for m in game.legal_moves(state) if isinstance(m, PlayCard)} == set(moves[0].hands[0])  # type: ignore[attr-defined,index]


@pytest.mark.parametrize("n", [3, 4])
def test_a_higher_matador_led_forces_the_lower_one(n: int) -> None:
    state = run([*PRIVILEGE_START, *plays("1:3H 2:KC 0:KD", "1:AS")], {"n_matadors": n})
    assert [m.card for m in game.legal_moves(state)] == ["7H"]  # type: ignore[attr-defined]
    step = game.apply(state, PlayCard(seat=2, card="QC"))
    assert rules(step.verdicts) == [("hombre.matador", 9, None)]


PRIVILEGE_HAND = [
    *PRIVILEGE_START,
    *plays(
        "1:3H 2:KC 0:KD",  # moves 5-7: both keep their matador against an ordinary trump: regular
        "1:AS 2:QC 0:AC",  # moves 8-10: AS forces 7H out; seat 2 keeps it: irregular (move 9)
        "1:KS 2:7H 0:QD",  # moves 11-13: seat 2 plays the 7H it kept: proof in moves-only mode
    ),
]


def test_the_matador_revoke_is_found_at_the_same_move_in_both_modes() -> None:
    known = run(PRIVILEGE_HAND)
    assert rules(known.verdicts) == [("hombre.matador", 9, None)]
    blind = run(game.moves_only(PRIVILEGE_HAND))
    # Seat 0's AC at move 10 proves nothing (AC was privileged against the 3H at move 7); seat 2's 7H
    # at move 12 proves the revoke of move 9.
    assert rules(blind.verdicts) == [("hombre.matador", 9, 12)]


# Seat 2 holds the basto AC (a matador below the spadiglia) and the 2H, an ordinary trump; seat 0 no trump.
BOTH_DEAL = deal(
    "KC QC JC 7C 6C 5C 4C 3C 2C",
    "AS 7H AH KH QH JH 3H KD QD",
    "AC 2H KS QS JS 7S 6S 5S 4S",
)
BOTH_HAND = [
    BOTH_DEAL,
    *calls("1:solo", "2:passo", "0:passo"),
    Choose(seat=1, choice="trump", value="H"),
    *plays(
        "1:AS 2:KS 0:2C",  # moves 5-7: AS forces a trump; seat 2 throws KS holding AC and the 2H (move 6)
        "1:KD 2:AC 0:3C",  # moves 8-10: void in ori, seat 2 plays the basto: proof of a kept matador
        "2:QS 0:4C 1:QD",  # moves 11-13
        "2:2H 0:5C 1:3H",  # moves 14-16: the 2H led shows he also held an ordinary trump
    ),
]


@pytest.mark.parametrize("n", [3, 4])
def test_holding_an_ordinary_trump_too_the_moves_only_verdict_ends_as_follow_suit(n: int) -> None:
    # Deal known: follow_suit at once, the privilege only excuses a matador. Deal unknown: proved at move 9
    # as a kept matador, then refined to follow_suit by the 2H: one verdict, the deal-known one.
    opts = {"n_matadors": n}
    assert rules(run(BOTH_HAND, opts).verdicts) == [("hombre.follow_suit", 6, None)]
    blind_moves = game.moves_only(BOTH_HAND)
    assert rules(run(blind_moves[:10], opts).verdicts) == [("hombre.matador", 6, 9)]
    refined = game.apply(run(blind_moves[:14], opts), blind_moves[14])
    assert rules(refined.verdicts) == [("hombre.follow_suit", 6, 9)]
    assert rules(refined.state.verdicts) == [("hombre.follow_suit", 6, 9)]
    # To the end of the hand, both modes give the same verdict and the same score.
    state = run(BOTH_HAND, opts)
    rest: list[Move] = []
    while not state.over:
        rest.append(game.legal_moves(state)[0])
        state = at(state, rest[-1])
    known = replay(game, [*BOTH_HAND, *rest], options=opts, seats=3, dealer=0)
    blind = replay(game, game.moves_only([*BOTH_HAND, *rest]), options=opts, seats=3, dealer=0)
    assert [(v.rule, v.seat, v.move_index) for v in known.verdicts] == [("hombre.follow_suit", 2, 6)]
    assert [(v.rule, v.seat, v.move_index) for v in blind.verdicts] == [("hombre.follow_suit", 2, 6)]
    assert game.result(blind.final) == game.result(known.final)


def test_a_plain_suit_revoke_is_proved_by_the_later_card_of_that_suit() -> None:
    # 4-3-2 deal: seat 0 throws 3H on the KS led though holding 6S and 4S; 6S comes at trick 4.
    moves = [
        SPLIT_DEAL,
        *SPLIT_AUCTION,
        *plays("1:KS 2:5S 0:3H", "1:KH 2:2H 0:QH", "1:KD 2:2D 0:3D", "1:3S 2:QS 0:6S"),
    ]
    assert rules(run(moves).verdicts) == [("hombre.follow_suit", 7, None)]
    assert rules(run(game.moves_only(moves)).verdicts) == [("hombre.follow_suit", 7, 16)]


def test_moves_only_legal_moves_leave_out_the_cards_a_seat_showed_it_lacks() -> None:
    blind = run(game.moves_only(PRIVILEGE_HAND[:8]))  # after trick 1
    assert blind.pending and {p.key for p in blind.pending} == {"trump"}
    state = at(at(blind, PlayCard(seat=1, card="AS")), PlayCard(seat=2, card="QC"))
    offered = {m.card for m in game.legal_moves(state) if isinstance(m, PlayCard)}
    # seat 0 showed no ordinary trump on 3H: 2H..6H, KH, QH, JH are not offered; the matadors are.
    assert "2H" not in offered and "KH" not in offered
    assert {"AC", "7H", "AH"} <= offered and "KD" not in offered  # KD is gone (trick 1)


# ---- auction ------------------------------------------------------------------------------------


def test_the_hardest_call_wins_and_ties_go_to_the_earlier_speaker() -> None:
    state = run([SPLIT_DEAL, *calls("1:gioco", "2:solo", "0:solo")])
    assert (state.hombre, state.contract, state.phase) == (2, "solo", "trump")
    state = run([SPLIT_DEAL, *calls("1:gioco", "2:passo", "0:gioco")])
    assert (state.hombre, state.contract) == (1, "gioco")
    state = run([SPLIT_DEAL, *calls("1:passo", "2:gioco", "0:volo")])
    assert (state.hombre, state.contract) == (0, "volo")


def test_calls_go_in_order_from_the_dealers_right() -> None:
    state = run([SPLIT_DEAL], dealer=2)
    assert game.to_act(state) == {0}
    with pytest.raises(ImpossibleMove) as err:
        game.apply(state, Call(seat=1, call="passo"))
    assert err.value.code == "turn.wrong"
    with pytest.raises(ImpossibleMove) as bad:
        game.apply(state, Call(seat=0, call="pass"))
    assert bad.value.code == "hombre.call"


def test_all_pass_ends_the_hand_scoring_nothing_and_the_same_dealer_deals() -> None:
    state = run([SPLIT_DEAL, *calls("1:passo", "2:passo", "0:passo")])
    assert state.over
    result = game.result(state)
    assert (result.outcome, result.scores) == ("passed", (0, 0, 0))
    opts = game.ruleset.validate(None)
    assert game.next_dealer(opts, 3, 0, result) == 0
    assert game.next_dealer({**opts, "redeal_dealer": "next"}, 3, 0, result) == 1
    assert game.next_dealer(opts, 3, 0, game.result(run(SPLIT_HAND))) == 1


def test_the_open_auction_lets_an_earlier_speaker_take_over_an_equal_call() -> None:
    opts = {"auction": "open"}
    state = run([SPLIT_DEAL, *calls("1:gioco", "2:solo", "0:passo")], opts)
    assert game.to_act(state) == {1}
    assert [m.call for m in game.legal_moves(state)] == ["passo", "solo", "volo"]  # type: ignore[attr-defined]
    state = at(state, Call(seat=1, call="solo"))  # E equals M's solo and takes it
    assert state.best == (1, "solo")
    # M spoke after E: only a higher call
    assert [m.call for m in game.legal_moves(state)] == ["passo", "volo"]  # type: ignore[attr-defined]
    with pytest.raises(ImpossibleMove) as low:
        game.apply(state, Call(seat=2, call="solo"))
    assert low.value.code == "hombre.call_low"
    state = at(state, Call(seat=2, call="volo"))
    state = at(state, Call(seat=1, call="volo"))
    assert [m.call for m in game.legal_moves(state)] == ["passo"]  # type: ignore[attr-defined]
    state = at(state, Call(seat=2, call="passo"))
    assert (state.hombre, state.contract, state.phase) == (1, "volo", "trump")


def test_the_open_auction_ends_when_the_others_have_passed() -> None:
    state = run([SPLIT_DEAL, *calls("1:passo", "2:passo", "0:gioco")], {"auction": "open"})
    assert (state.hombre, state.contract) == (0, "gioco")
    state = run([SPLIT_DEAL, *calls("1:passo", "2:passo", "0:passo")], {"auction": "open"})
    assert state.over and game.result(state).outcome == "passed"


def test_the_trump_is_named_by_the_hombre() -> None:
    state = run([SPLIT_DEAL, *calls("1:passo", "2:solo", "0:passo")])
    assert [m.value for m in game.legal_moves(state)] == ["S", "C", "H", "D"]  # type: ignore[attr-defined]
    with pytest.raises(ImpossibleMove) as err:
        game.apply(state, Choose(seat=2, choice="trump", value="X"))
    assert err.value.code == "hombre.trump"
    with pytest.raises(ImpossibleMove) as who:
        game.apply(state, Choose(seat=1, choice="trump", value="S"))
    assert who.value.code == "turn.wrong"


# ---- exchanges after gioco -----------------------------------------------------------------------
GIOCO = [SPLIT_DEAL, *calls("1:passo", "2:gioco", "0:passo"), Choose(seat=2, choice="trump", value="C")]
TALON = SPLIT_DEAL.stock  # 13 cards in deck order


def test_the_talon_holds_the_thirteen_other_cards() -> None:
    assert len(TALON) == 13
    assert TALON[:4] == ("2S", "7S", "JS", "AH")  # deck order: spade first, then coppe
    assert run(GIOCO).talon == TALON


def test_exchanges_go_hombre_first_then_round_and_the_talon_shrinks() -> None:
    state = run(GIOCO)
    assert state.phase == "exchange" and game.to_act(state) == {2}
    with pytest.raises(ImpossibleMove) as early:
        game.apply(state, Exchange(seat=0, discard=(), take=()))
    assert early.value.code == "turn.wrong"
    state = at(state, Exchange(seat=2, discard=("5S", "2H", "2D"), take=TALON[:3]))
    assert state.hands.hand(2) >= set(TALON[:3]) and "5S" not in state.hands.hand(2)
    assert state.talon_left == 10 and game.to_act(state) == {0}
    state = at(state, Exchange(seat=0, discard=(), take=()))
    assert game.to_act(state) == {1}
    # seat 1 may take as many as remain, up to his nine cards: 0..9
    counts = sorted(len(m.discard) for m in game.legal_moves(state))  # type: ignore[attr-defined]
    assert counts == list(range(10))
    state = at(state, Exchange(seat=1, discard=("3S", "5H"), take=TALON[3:5]))
    assert state.phase == "play" and state.talon_left == 8 and game.to_act(state) == {1}
    assert state.exchanges == ((2, 3), (0, 0), (1, 2))
    # all 40 cards are in a hand, the discards or the talon
    every = [c for s in range(3) for c in state.hands.hand(s)] + list(state.discards) + list(state.talon)
    assert sorted(every) == sorted(game.deck.cards)


def test_the_hombre_may_exchange_at_most_eight() -> None:
    state = run(GIOCO)
    assert max(len(m.discard) for m in game.legal_moves(state)) == 8  # type: ignore[attr-defined]
    nine = Exchange(seat=2, discard=SPLIT_DEAL.hands[2], take=TALON[:9])  # type: ignore[index]
    step = game.apply(state, nine)
    assert rules(step.verdicts) == [("hombre.exchange_limit", 5, None)]


def test_an_exchange_takes_only_talon_cards_and_as_many_as_discarded() -> None:
    state = run(GIOCO)
    with pytest.raises(ImpossibleMove) as held:
        game.apply(state, Exchange(seat=2, discard=("5S",), take=("KS",)))
    assert held.value.code == "hombre.not_in_talon"
    with pytest.raises(ImpossibleMove) as uneven:
        game.apply(state, Exchange(seat=2, discard=("5S", "2H"), take=TALON[:1]))
    assert uneven.value.code == "hombre.exchange_count"
    with pytest.raises(ImpossibleMove) as not_held:
        game.apply(state, Exchange(seat=2, discard=("KS",), take=TALON[:1]))
    assert not_held.value.code == "card.not_held"


def test_with_the_talon_recorded_an_exchange_takes_its_top_cards() -> None:
    # The talon (deck order here, top first) starts 2S 7S JS AH: three cards exchanged are those three,
    # in any order; a draw from deeper in the talon is a keying error, refused with the cards expected.
    state = run(GIOCO)
    with pytest.raises(ImpossibleMove) as deeper:
        game.apply(state, Exchange(seat=2, discard=("5S", "2H", "2D"), take=("2S", "7S", "AH")))
    assert (deeper.value.code, deeper.value.field) == ("hombre.talon_top", "take")
    assert "2S 7S JS" in deeper.value.message
    top = Exchange(seat=2, discard=("5S", "2H", "2D"), take=("JS", "2S", "7S"))
    assert game.apply(state, top).verdicts == ()


def test_without_the_talon_recorded_any_talon_cards_may_be_named_in_both_modes() -> None:
    # The same deal entered without its talon: the order was never seen, so the cards named stand, and the
    # record is the same hand without the deal.
    moves = [
        Deal(hands=SPLIT_DEAL.hands),
        *GIOCO[1:],
        Exchange(seat=2, discard=("5S", "2H", "2D"), take=("2S", "7S", "AH")),
        Exchange(seat=0, discard=(), take=()),
        Exchange(seat=1, discard=("3S",), take=("7D",)),
    ]
    state = run(moves)
    assert {"2S", "7S", "AH"} <= state.hands.hand(2) and "7D" in state.hands.hand(1)
    while not state.over:
        moves.append(game.legal_moves(state)[0])
        state = at(state, moves[-1])
    known = replay(game, moves, seats=3, dealer=0)
    blind = replay(game, game.moves_only(moves), seats=3, dealer=0)
    assert known.verdicts == blind.verdicts == ()
    assert game.result(blind.final) == game.result(known.final)


def test_a_later_player_cannot_take_more_than_is_left() -> None:
    state = run(GIOCO)
    eight = tuple(SPLIT_DEAL.hands[2][:8])  # type: ignore[index]
    state = at(state, Exchange(seat=2, discard=eight, take=TALON[:8]))
    state = at(state, Exchange(seat=0, discard=tuple(SPLIT_DEAL.hands[0][:5]), take=TALON[8:]))  # type: ignore[index]
    assert state.talon_left == 0
    with pytest.raises(ImpossibleMove) as short:
        game.apply(state, Exchange(seat=1, discard=("KS",), take=("KS",)))
    assert short.value.code == "hombre.talon_short"
    assert [len(m.discard) for m in game.legal_moves(state)] == [0]  # type: ignore[attr-defined]


def test_exchanges_recorded_by_count_without_the_deal() -> None:
    moves = [
        *GIOCO,
        Exchange(seat=2, discard=("5S", "2H", "2D"), take=TALON[:3]),
        Exchange(seat=0, discard=(), take=()),
        Exchange(seat=1, discard=("3S",), take=TALON[3:4]),
    ]
    blind_moves = game.moves_only(moves)
    assert blind_moves[-3:] == [
        Exchange(seat=2, count=3),
        Exchange(seat=0, count=0),
        Exchange(seat=1, count=1),
    ]
    blind = run(blind_moves)
    assert blind.phase == "play" and blind.talon_left == 9 and blind.hands.counts == (9, 9, 9)
    with pytest.raises(ImpossibleMove) as bad:
        game.apply(run(game.moves_only(GIOCO)), Exchange(seat=2, discard=("5S",), count=2))
    assert bad.value.code == "hombre.exchange_count"


# ---- claims (§9) ---------------------------------------------------------------------------------


def test_the_player_on_lead_claims_a_split_accepted_by_both() -> None:
    # After trick 3 seat 1 (3 tricks) leads; he claims the other six for the hombre: 0, 3, 6 → won.
    state = run([*SPLIT_HAND[:14]])
    assert game.can_claim(state, 1) and not game.can_claim(state, 2)
    with pytest.raises(ImpossibleMove) as bad:
        game.apply(state, Claim(seat=1, split=(0, 0, 5)))
    assert bad.value.code == "claim.invalid"
    with pytest.raises(ImpossibleMove) as who:
        game.apply(state, Claim(seat=2, split=(0, 0, 6)))
    assert who.value.code == "claim.not_allowed"
    state = at(state, Claim(seat=1, split=(0, 0, 6)))
    state = at(state, ClaimResponse(seat=0, accept=True))
    state = at(state, ClaimResponse(seat=2, accept=True))
    result = game.result(state)
    assert result.details["tricks"] == [0, 3, 6] and result.details["claimed"]
    assert result.scores == (-1, -1, 2)


def test_a_disputed_claim_is_recorded_and_play_goes_on() -> None:
    state = run([*SPLIT_HAND[:14], Claim(seat=1), ClaimResponse(seat=0, accept=False)])
    assert not state.over and [v.rule for v in state.verdicts] == ["claim.disputed"]
    assert game.to_act(state) == {1}


# ---- the session ----------------------------------------------------------------------------------


def test_a_session_counts_played_deals_and_keeps_running_totals() -> None:
    passed = game.result(run([SPLIT_DEAL, *calls("1:passo", "2:passo", "0:passo")]))
    lost = game.result(run(SPLIT_HAND))  # (1, 1, -2)
    won = game.result(run(VOLO_WON))  # (-1, 2, -1)
    results: list[HandResult] = [passed, lost, won]
    sheet = game.match_result({"deals": 3}, 3, results)
    assert not sheet.finished and sheet.details["played"] == 2
    assert [r["totals"] for r in sheet.rows] == [[0, 0, 0], [1, 1, -2], [0, 3, -3]]
    assert [r["deal"] for r in sheet.rows] == [None, 1, 2]
    sheet = game.match_result({"deals": 3}, 3, [*results, lost])
    # totals (1, 4, -5): seat 1 is ahead after three played deals
    assert sheet.finished and sheet.totals == (1, 4, -5) and sheet.winners == (1,)
    assert sum(sheet.totals) == 0
