"""Barbù trick contracts: worked examples on one fixed deal, the Misère pass, the lead and trump
obligations, early end and claims, in both recording modes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from scoring.rules import get_game, replay
from scoring.rules.barbu import Barbu, BarbuState
from scoring.rules.core import Verdict
from scoring.rules.errors import ImpossibleMove, IrregularMoveRefused
from scoring.rules.moves import Choose, Claim, ClaimResponse, Deal, Move, PassCards, PlayCard

GAME = get_game("barbu")
assert isinstance(GAME, Barbu)

# One deal, written out (seat 0 deals and leads the first trick), and one play of it that is legal in
# every trick contract: everybody follows suit in tricks 1-9; seat 0, who wins trick 9, holds only hearts
# and may lead them; seat 3 wins trick 10 holding JC and two hearts, so leads JC; the others are void in
# clubs. Seat 2 is void in hearts on trick 13 and throws JD.
HANDS = (
    "4S 5S QS 2D 7D 9D 3C 7C KC 2H 3H 9H KH",
    "3S 8S JS KS 4D TD AD 4C 8C QC 5H TH AH",
    "2S 9S TS 5D 8D JD KD 5C 9C AC 4H 7H QH",
    "6S 7S AS 3D 6D QD 2C 6C TC JC 6H 8H JH",
)
# (leader, cards in order of play, winner) for each trick, no trump.
TRICKS = (
    (0, "5S KS 2S 7S", 1),
    (1, "3S 9S AS 4S", 3),
    (3, "6S QS 8S TS", 0),
    (0, "2D AD 5D 3D", 1),
    (1, "4D KD 6D 7D", 2),
    (2, "8D QD 9D TD", 3),
    (3, "2C 3C 4C 5C", 2),
    (2, "AC 6C 7C 8C", 2),
    (2, "9C TC KC QC", 0),
    (0, "2H 5H 4H 6H", 3),
    (3, "JC 3H JS 7H", 3),
    (3, "8H KH TH QH", 0),
    (0, "9H AH JD JH", 1),
)


def deal() -> Deal:
    return Deal(hands=tuple(tuple(h.split()) for h in HANDS))


def plays(tricks: Iterable[tuple[int, str, int]] = TRICKS) -> list[Move]:
    out: list[Move] = []
    for leader, cards, _ in tricks:
        out += [PlayCard(seat=(leader + i) % 4, card=c) for i, c in enumerate(cards.split())]
    return out


def choose(contract: str, *extra: tuple[str, str]) -> list[Move]:
    moves: list[Move] = [Choose(seat=0, choice="contract", value=contract)]
    return moves + [Choose(seat=0, choice=c, value=v) for c, v in extra]


def play(moves: list[Move], options: Mapping[str, Any] | None = None, dealer: int = 0) -> BarbuState:
    final = replay(GAME, moves, options=options, seats=4, dealer=dealer).final
    assert isinstance(final, BarbuState)
    return final


def both_modes(moves: list[Move], options: Mapping[str, Any] | None = None) -> tuple[BarbuState, BarbuState]:
    return play(moves, options), play(GAME.moves_only(moves), options)


def breaches(state: BarbuState) -> set[tuple[str, int | None, int]]:
    return {(v.rule, v.seat, v.move_index) for v in state.verdicts}


def test_the_record_deals_each_seat_the_cards_it_plays() -> None:
    held: list[set[str]] = [set(), set(), set(), set()]
    for leader, cards, _ in TRICKS:
        for i, card in enumerate(cards.split()):
            held[(leader + i) % 4].add(card)
    assert held == [set(h.split()) for h in HANDS]


def test_the_tricks_are_won_as_written() -> None:
    final = play([deal(), *choose("NPD"), *plays()])
    assert [t.winner for t in final.trick_play.done] == [w for _, _, w in TRICKS]


@pytest.mark.parametrize(
    ("contract", "extra", "scores"),
    [
        # Tricks won: seat 0 tricks 3, 9, 12; seat 1 tricks 1, 4, 13; seat 2 tricks 5, 7, 8; seat 3 tricks
        # 2, 6, 10, 11. MP without trump: 3×5, 3×5, 3×5, 4×5 = 15 15 15 20 (65).
        ("MP", [("trump", "none")], (15, 15, 15, 20)),
        # NPR: seat 0 takes KH on trick 12: −20.
        ("NPR", [], (-20, 0, 0, 0)),
        # NPD: QS (trick 3), QC (trick 9), QH (trick 12) to seat 0: −18; QD (trick 6) to seat 3: −6 (−24).
        ("NPD", [], (-18, 0, 0, -6)),
        # NPC: seat 3 takes 2H 5H 4H 6H (trick 10: 4×−2) and 3H 7H (trick 11: 2×−2) = −12; seat 0 takes
        # 8H KH TH QH (trick 12: −2 −4 −4 −4) = −14; seat 1 takes 9H AH JH (trick 13: −2 −4 −4) = −10.
        ("NPC", [], (-14, -10, 0, -12)),
        # NPUD: trick 12 to seat 0, trick 13 to seat 1: −12 each.
        ("NPUD", [], (-12, -12, 0, 0)),
    ],
)
def test_worked_examples_score_by_hand(
    contract: str, extra: list[tuple[str, str]], scores: tuple[int, ...]
) -> None:
    known, blind = both_modes([deal(), *choose(contract, *extra), *plays()])
    assert known.verdicts == () and blind.verdicts == ()
    assert GAME.result(known).scores == scores
    assert GAME.result(blind).scores == scores
    assert GAME.result(known).details["contract"] == contract


def test_mp_with_diamonds_trump_changes_only_the_last_trick() -> None:
    # Trick 13: 9H AH JD JH, and JD is now a trump: seat 2 wins it instead of seat 1.
    # Tricks: seat 0: 3, seat 1: 2, seat 2: 4, seat 3: 4 → 15 10 20 20 (65).
    tricks = (*TRICKS[:12], (0, "9H AH JD JH", 2))
    final = play([deal(), *choose("MP", ("trump", "D")), *plays(tricks)])
    result = GAME.result(final)
    assert result.scores == (15, 10, 20, 20)
    assert result.details["trump"] == "D"
    assert final.verdicts == ()


MISERE_HANDS = (
    # Each seat's hand before the pass: the hand above, less the 3 cards received, plus the 3 passed.
    "4S 5S KS 2D 7D 9D AD 3C 7C 2H 3H 9H AH",
    "3S 8S JS 4D TD KD 4C 8C QC AC 5H TH QH",
    "2S 9S TS AS 5D 8D JD QD 5C 9C 4H 7H JH",
    "6S 7S QS 3D 6D 2C 6C TC JC KC 6H 8H KH",
)
PASSES = ("KS AD AH", "KD AC QH", "AS QD JH", "QS KC KH")  # seat s passes to seat s + 1


def misere_moves(order: Iterable[int] = (0, 1, 2, 3)) -> list[Move]:
    passes: list[Move] = [PassCards(seat=s, cards=tuple(PASSES[s].split())) for s in order]
    return [Deal(hands=tuple(tuple(h.split()) for h in MISERE_HANDS)), *choose("MIS"), *passes, *plays()]


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 1, 0, 2)])
def test_misere_passes_three_cards_left_then_scores_minus_two_a_trick(order: tuple[int, ...]) -> None:
    # After the pass the hands are HANDS; tricks 3 3 3 4 → −6 −6 −6 −8 (−26).
    known, blind = both_modes(misere_moves(order))
    assert [set(h) for h in known.hands.hands or ()] == [set()] * 4
    assert GAME.result(known).scores == (-6, -6, -6, -8)
    assert GAME.result(blind).scores == (-6, -6, -6, -8)
    assert GAME.result(known).details["passes"][0] == {"seat": order[0], "cards": PASSES[order[0]].split()}
    assert known.verdicts == () and blind.verdicts == ()


def test_the_pass_is_simultaneous_and_the_cards_arrive_together() -> None:
    state = play(misere_moves()[:4])  # deal, MIS, seat 0 and seat 1 have passed
    assert state.phase == "pass"
    assert GAME.to_act(state) == frozenset({2, 3})
    assert "KS" not in state.hands.hand(1)  # seat 0's cards are not there until everyone has passed
    with pytest.raises(ImpossibleMove) as again:
        GAME.apply(state, PassCards(seat=0, cards=("4S", "5S", "2D")))
    assert again.value.code == "turn.wrong"
    with pytest.raises(ImpossibleMove) as three:
        GAME.apply(state, PassCards(seat=2, cards=("2S", "9S")))
    assert three.value.code == "barbu.pass_count"
    with pytest.raises(ImpossibleMove) as not_his:
        GAME.apply(state, PassCards(seat=2, cards=("2S", "9S", "KS")))
    assert not_his.value.code == "card.not_held"
    with pytest.raises(ImpossibleMove) as early:
        GAME.apply(state, PlayCard(seat=0, card="4S"))
    assert early.value.code == "phase.wrong"
    done = play(misere_moves()[:6])
    assert done.phase == "play" and set(done.hands.hand(1)) == set(HANDS[1].split())


def test_legal_passes_are_every_three_cards_of_each_seat_still_to_pass() -> None:
    state = play(misere_moves()[:3])
    moves = GAME.legal_moves(state)
    assert {m.seat for m in moves} == {1, 2, 3}
    assert len(moves) == 3 * 286  # C(13, 3) for each of the three seats


def test_without_the_pass_option_misere_starts_at_once() -> None:
    state = play([deal(), *choose("MIS")], {"misere_pass": "none"})
    assert state.phase == "play" and GAME.to_act(state) == frozenset({0})


def test_a_pass_entered_without_cards_on_a_known_deal_goes_on_with_counts_only() -> None:
    moves = misere_moves()
    moves[2] = PassCards(seat=0, count=3)
    final = play(moves)
    assert final.hands.hands is None
    assert GAME.result(final).scores == (-6, -6, -6, -8)


def test_the_dealer_leads_the_first_trick() -> None:
    state = play([deal(), *choose("NPD")], dealer=0)
    assert GAME.to_act(state) == frozenset({0})
    with pytest.raises(ImpossibleMove) as wrong:
        GAME.apply(state, PlayCard(seat=1, card="3S"))
    assert wrong.value.code == "turn.wrong"


def test_a_heart_lead_holding_another_suit_is_an_irregularity_in_npr_and_npc() -> None:
    before_11 = [deal(), *choose("NPR"), *plays(TRICKS[:10])]
    state = play(before_11)
    assert [m.card for m in GAME.legal_moves(state) if isinstance(m, PlayCard)] == ["JC"]
    step = GAME.apply(state, PlayCard(seat=3, card="8H"))
    assert [v.rule for v in step.verdicts] == ["barbu.heart_lead"]
    with pytest.raises(IrregularMoveRefused):
        GAME.apply(play(before_11, {"strict": True}), PlayCard(seat=3, card="8H"))
    # In NPD the same lead is free.
    free = play([deal(), *choose("NPD"), *plays(TRICKS[:10])])
    assert GAME.apply(free, PlayCard(seat=3, card="8H")).verdicts == ()


def test_the_heart_lead_is_found_in_both_modes_at_the_same_move() -> None:
    # Trick 11 led with 8H while seat 3 holds JC: seat 1 wins it with TH and leads JS (he may not lead AH
    # while holding a spade); seat 3 throws JC on it and so proves, without the deal, that he held a club
    # when he led the heart.
    tricks = (*TRICKS[:10], (3, "8H 3H TH 7H", 1), (1, "JS QH JC 9H", 1), (1, "AH JD JH KH", 1))
    moves = [deal(), *choose("NPC"), *plays(tricks)]
    known, blind = both_modes(moves)
    index = 2 + 40  # deal, contract, then ten tricks: the lead of trick 11
    assert breaches(known) == breaches(blind) == {("barbu.heart_lead", 3, index)}
    (late,) = blind.verdicts
    assert late.proved_at == index + 6  # seat 3 throws JC on trick 12, the third card
    assert GAME.result(known).scores == GAME.result(blind).scores


def test_a_revoke_is_found_in_both_modes() -> None:
    # Trick 1: seat 2 throws 5D on the spade lead while holding 2S 9S TS; 9S on trick 2 proves it without
    # the deal. He keeps 2S for trick 13, where he is void in hearts.
    tricks = (
        (0, "5S KS 5D 7S", 1),
        (1, "3S 9S AS 4S", 3),
        (3, "6S QS 8S TS", 0),
        (0, "2D AD 8D 3D", 1),
        (1, "4D KD 6D 7D", 2),
        (2, "JD QD 9D TD", 3),
        *TRICKS[6:12],
        (0, "9H AH 2S JH", 1),
    )
    moves = [deal(), *choose("NPD"), *plays(tricks)]
    known, blind = both_modes(moves)
    assert breaches(known) == breaches(blind) == {("follow_suit", 2, 4)}
    assert [v.proved_at for v in blind.verdicts] == [7]


def test_must_trump_is_an_option_and_waits_for_the_void_without_the_deal() -> None:
    # MP, diamonds trump: on trick 11 (JC led) seat 2 is void in clubs, holds JD and throws 7H.
    tricks = (*TRICKS[:12], (0, "9H AH JD JH", 2))
    moves = [deal(), *choose("MP", ("trump", "D")), *plays(tricks)]
    assert both_modes(moves)[0].verdicts == ()
    options = {"mp_trump_obligation": "must_trump"}
    known, blind = both_modes(moves, options)
    trick_11_seat_2 = 3 + 40 + 3
    assert breaches(known) == breaches(blind) == {("barbu.must_trump", 2, trick_11_seat_2)}
    # Without the deal, JD on trick 13 proves the trump was held; the void in clubs is certain only when
    # the last card is down.
    (late,) = blind.verdicts
    assert late.proved_at == 3 + 48 + 2


def test_overtrump_on_a_trump_lead_is_an_option() -> None:
    # MP, spades trump: trick 1 is a trump lead (5S); seat 1 plays KS, seat 2 2S (nothing higher), then
    # seat 3 plays 7S while holding AS, which would have beaten KS. Seat 3 leads AS to trick 2, which
    # proves it without the deal. (Later, JS would trump trick 11: the record stops after trick 3.)
    moves = [deal(), *choose("MP", ("trump", "S")), *plays(TRICKS[:3])]
    options = {"mp_trump_obligation": "overtrump_on_trump_lead"}
    assert both_modes(moves)[0].verdicts == ()
    known, blind = both_modes(moves, options)
    trick_1_seat_3 = 3 + 3
    assert breaches(known) == breaches(blind) == {("barbu.overtrump", 3, trick_1_seat_3)}
    assert [v.proved_at for v in blind.verdicts] == [3 + 4 + 2]
    state = play(moves[:trick_1_seat_3], options)
    assert [m.card for m in GAME.legal_moves(state) if isinstance(m, PlayCard)] == ["AS"]


def test_must_discard_kh_is_an_option_in_npr() -> None:
    # Trick 11: JC led, seat 0 (void in clubs) throws 3H while holding KH.
    moves = [deal(), *choose("NPR"), *plays()]
    assert both_modes(moves)[0].verdicts == ()
    known, blind = both_modes(moves, {"must_discard_kh": True})
    assert breaches(known) == breaches(blind) == {("barbu.must_discard_kh", 0, 2 + 40 + 1)}
    state = play(moves[: 2 + 40 + 1], {"must_discard_kh": True})
    assert [m.card for m in GAME.legal_moves(state) if isinstance(m, PlayCard)] == ["KH"]


def test_a_held_back_proof_is_dropped_when_the_revoke_is_proved_instead() -> None:
    # Deal unknown: seat 0 throws 3H on JC (trick 11). If he had held a club, the off-suit play was a
    # revoke and the KH obligation never arose. Here he really was void: only the KH breach stands.
    verdicts = play(GAME.moves_only([deal(), *choose("NPR"), *plays()]), {"must_discard_kh": True}).verdicts
    assert [(v.rule, v.proved_at) for v in verdicts] == [("barbu.must_discard_kh", 2 + 44 + 1)]


def test_early_end_npr_closes_once_kh_is_taken() -> None:
    after_12 = [deal(), *choose("NPR"), *plays(TRICKS[:12])]
    state = play(after_12)
    assert Choose(seat=None, choice="close") in GAME.legal_moves(state)
    closed = GAME.apply(state, Choose(seat=None, choice="close")).state
    assert closed.over
    result = GAME.result(closed)
    assert result.scores == (-20, 0, 0, 0) and result.details["ended"] == "table"
    too_soon = play(after_12[:-4])
    with pytest.raises(ImpossibleMove) as early:
        GAME.apply(too_soon, Choose(seat=None, choice="close"))
    assert early.value.code == "barbu.close_early"
    with pytest.raises(ImpossibleMove) as never:
        GAME.apply(play(after_12, {"early_end": "never"}), Choose(seat=None, choice="close"))
    assert never.value.code == "phase.wrong"


def test_early_end_automatic_stops_npd_after_the_last_queen() -> None:
    # QH, the last queen, falls in trick 12: the hand ends there, −18 and −6 as in the full hand.
    state = play([deal(), *choose("NPD"), *plays(TRICKS[:12])], {"early_end": "automatic"})
    assert state.over and state.ended == "automatic"
    assert GAME.result(state).scores == (-18, 0, 0, -6)


def test_mp_misere_and_npud_never_close_early() -> None:
    for contract, extra in (("MP", [("trump", "none")]), ("NPUD", [])):
        state = play([deal(), *choose(contract, *extra), *plays(TRICKS[:12])])
        with pytest.raises(ImpossibleMove) as err:
            GAME.apply(state, Choose(seat=None, choice="close"))
        assert err.value.code == "barbu.close_early"


def accept_all(state: BarbuState, claim: Claim) -> BarbuState:
    state = GAME.apply(state, claim).state
    for seat in range(4):
        if seat != claim.seat:
            state = GAME.apply(state, ClaimResponse(seat=seat, accept=True)).state
    return state


def test_a_claim_of_all_the_rest_in_mp() -> None:
    # After 9 tricks (seat 0 won 3 and 9): 2 2 3 2 tricks; seat 0 claims the last 4: 6 2 3 2 → 30 10 15 10.
    state = play([deal(), *choose("MP", ("trump", "none")), *plays(TRICKS[:9])])
    with pytest.raises(ImpossibleMove) as not_leader:
        GAME.apply(state, Claim(seat=1))
    assert not_leader.value.code == "claim.not_allowed"
    final = accept_all(state, Claim(seat=0))
    assert GAME.result(final).scores == (30, 10, 15, 10)


def test_a_claim_split_by_tricks_in_misere() -> None:
    # Four tricks left, split 1 1 0 2: totals 3 3 3 4 tricks, as played: −6 −6 −6 −8.
    state = play(misere_moves()[:6] + plays(TRICKS[:9]))
    final = accept_all(state, Claim(seat=0, split=(1, 1, 0, 2)))
    assert GAME.result(final).scores == (-6, -6, -6, -8)
    with pytest.raises(ImpossibleMove) as bad:
        GAME.apply(state, Claim(seat=0, split=(1, 1, 1, 2)))
    assert bad.value.code == "barbu.claim_split"


def test_a_claim_split_in_points_in_npc_must_be_a_real_share_of_the_hearts() -> None:
    # Before trick 10 all 13 hearts are out: A K Q J T at −4, nine to two at −2 (−36). −14 −10 0 −12 is
    # 3 honours + 1 pip, 2 honours + 1 pip, 6 pips: as played.
    state = play([deal(), *choose("NPC"), *plays(TRICKS[:9])])
    final = accept_all(state, Claim(seat=0, split=(-14, -10, 0, -12)))
    assert GAME.result(final).scores == (-14, -10, 0, -12)
    with pytest.raises(ImpossibleMove) as odd:
        GAME.apply(state, Claim(seat=0, split=(-35, -1, 0, 0)))
    assert odd.value.code == "barbu.claim_split"


def test_a_claim_in_npr_gives_the_king_to_one_seat() -> None:
    state = play([deal(), *choose("NPR"), *plays(TRICKS[:9])])
    assert GAME.result(accept_all(state, Claim(seat=0, split=(0, 0, -20, 0)))).scores == (0, 0, -20, 0)
    with pytest.raises(ImpossibleMove):
        GAME.apply(state, Claim(seat=0, split=(-10, -10, 0, 0)))


def test_a_claim_in_npud_counts_the_last_two_tricks() -> None:
    state = play([deal(), *choose("NPUD"), *plays(TRICKS[:9])])
    final = accept_all(state, Claim(seat=0, split=(-12, 0, 0, -12)))
    assert GAME.result(final).scores == (-12, 0, 0, -12)
    with pytest.raises(ImpossibleMove):
        GAME.apply(state, Claim(seat=0, split=(-6, -6, -6, -6)))


def test_a_disputed_claim_lets_play_go_on() -> None:
    state = play([deal(), *choose("NPD"), *plays(TRICKS[:9])])
    state = GAME.apply(state, Claim(seat=0)).state
    step = GAME.apply(state, ClaimResponse(seat=2, accept=False))
    assert [v.rule for v in step.verdicts] == ["claim.disputed"]
    assert not step.state.over and GAME.to_act(step.state) == frozenset({0})


def test_the_choices_are_checked() -> None:
    state = play([deal()])
    assert state.phase == "contract"
    for move, code in (
        (Choose(seat=0, choice="contract", value="KING"), "barbu.contract_unknown"),
        (Choose(seat=0, choice="trump", value="S"), "barbu.choice_wrong"),
    ):
        with pytest.raises(ImpossibleMove) as err:
            GAME.apply(state, move)
        assert err.value.code == code
    with pytest.raises(ImpossibleMove) as not_dealer:
        GAME.apply(state, Choose(seat=1, choice="contract", value="MP"))
    assert not_dealer.value.code == "turn.wrong"
    mp = play([deal(), *choose("MP")])
    assert [m.value for m in GAME.legal_moves(mp) if isinstance(m, Choose)] == ["S", "H", "D", "C", "none"]
    with pytest.raises(ImpossibleMove) as trump:
        GAME.apply(mp, Choose(seat=0, choice="trump", value="X"))
    assert trump.value.code == "barbu.trump_unknown"


def test_verdicts_point_at_the_move_and_the_trick() -> None:
    tricks = ((0, "5S KS 5D 7S", 1),)
    known = play([deal(), *choose("NPD"), *plays(tricks)])
    template = "{seat} did not follow {lead} to trick {trick} while holding it"
    params = {"seat": 2, "lead": "S", "trick": 1}
    assert known.verdicts == (Verdict("follow_suit", 2, 1, template, 4, params=params),)
    assert known.verdicts[0].message == "seat 3 did not follow S to trick 1 while holding it"
