"""Tressette worked by hand: fixed deals written out, the thirds and the rounding in every mode,
buongioco declarations and their window, claims, calling oneself out, and the match sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from scoring.rules import get_game
from scoring.rules.core import HandResult, replay
from scoring.rules.errors import ImpossibleMove, IrregularMoveRefused, MalformedMove
from scoring.rules.moves import Call, Claim, ClaimResponse, Deal, Declare, Move, PlayCard
from scoring.rules.tressette import Tressette, TressetteState

_registered = get_game("tressette")
assert isinstance(_registered, Tressette)
GAME: Tressette = _registered

# ---- the four-player hand ------------------------------------------------------------------------
# Dealer 3, so seat 0 (the player after the dealer) leads trick 1. Each trick is written in the order
# of play, leader first; the comment gives the winner and the thirds it takes (A = 3; 3 2 K Q J = 1).
TRICKS_4: list[tuple[int, tuple[str, ...]]] = [
    (0, ("3D", "4D", "KD", "5D")),  # 1: 3D wins, seat 0; 3D + KD = 2
    (0, ("2D", "6D", "7D", "JD")),  # 2: 2D wins, seat 0; 2D + JD = 2
    (0, ("AD", "QD", "4H", "4S")),  # 3: AD wins, seat 0 (2 and 3 void in D); AD 3 + QD 1 = 4
    (0, ("AS", "3S", "5S", "6S")),  # 4: 3S wins, seat 1; AS 3 + 3S 1 = 4
    (1, ("KH", "3H", "5H", "AH")),  # 5: 3H wins, seat 2; KH 1 + 3H 1 + AH 3 = 5
    (2, ("2S", "7S", "KS", "JS")),  # 6: 2S wins, seat 2; 2S + KS + JS = 3
    (2, ("QS", "7C", "6H", "5C")),  # 7: QS the only spade, seat 2; QS = 1
    (2, ("JH", "2H", "7H", "QH")),  # 8: 2H wins, seat 3; JH + 2H + QH = 3
    (3, ("3C", "4C", "AC", "JC")),  # 9: 3C wins, seat 3; 3C 1 + AC 3 + JC 1 = 5
    (3, ("2C", "KC", "6C", "QC")),  # 10: 2C wins, seat 3; 2C + KC + QC = 3, and the last trick
]
# Thirds on the cards: seat 0 2+2+4 = 8, seat 1 4, seat 2 5+3+1 = 9, seat 3 3+5+3 = 11 (32 in all).
# Seats 0+2: 17; seats 1+3: 15, plus the last trick.


def hands_from(tricks: Sequence[tuple[int, tuple[str, ...]]], seats: int) -> tuple[tuple[str, ...], ...]:
    hands: list[list[str]] = [[] for _ in range(seats)]
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            hands[(leader + i) % seats].append(card)
    return tuple(tuple(h) for h in hands)


def plays(tricks: Sequence[tuple[int, tuple[str, ...]]], seats: int) -> list[Move]:
    return [
        PlayCard(seat=(leader + i) % seats, card=card)
        for leader, cards in tricks
        for i, card in enumerate(cards)
    ]


HANDS_4 = hands_from(TRICKS_4, 4)
NAPOLETANA_D = Declare(seat=0, combination="napoletana", cards=("AD", "2D", "3D"))
THREE_ACES = Declare(seat=0, combination="three_aces", cards=("AS", "AH", "AD"))


def run(
    moves: Sequence[Move], *, seats: int = 4, dealer: int = 3, options: Mapping[str, Any] | None = None
) -> TressetteState:
    final = replay(GAME, moves, options=options, seats=seats, dealer=dealer).final
    assert isinstance(final, TressetteState)
    return final


def result_of(moves: Sequence[Move], **kw: Any) -> HandResult:
    state = run(moves, **kw)
    assert state.over
    return GAME.result(state)


def found(moves: Sequence[Move], **kw: Any) -> list[tuple[str, int | None, int, int | None]]:
    """The verdicts of a hand: (rule, seat, move index, proved at)."""
    kw.setdefault("seats", 4)
    kw.setdefault("dealer", 3)
    return [(v.rule, v.seat, v.move_index, v.proved_at) for v in replay(GAME, moves, **kw).verdicts]


def both_modes(moves: Sequence[Move], **kw: Any) -> tuple[list[tuple[str, int | None, int, int | None]], ...]:
    """The verdicts with the deal recorded and without it; both end with the same result."""
    assert result_of(moves, **kw) == result_of(GAME.moves_only(moves), **kw)
    return found(moves, **kw), found(GAME.moves_only(moves), **kw)


def strict_code(moves: Sequence[Move], move: Move, **kw: Any) -> str:
    """The code a strict table refuses ``move`` with, after ``moves``."""
    state = run(moves, options={**kw.pop("options", {}), "strict": True}, **kw)
    with pytest.raises(IrregularMoveRefused) as refused:
        GAME.apply(state, move)
    return refused.value.code


def test_the_hand_is_a_legal_deal_of_ten_cards_each() -> None:
    assert all(len(h) == 10 for h in HANDS_4)
    assert sorted(c for h in HANDS_4 for c in h) == sorted(GAME.deck.cards)


def test_the_player_after_the_dealer_leads_and_each_winner_leads_next() -> None:
    state = run([Deal(hands=HANDS_4)])
    assert GAME.to_act(state) == {0}
    final = run([Deal(hands=HANDS_4), *plays(TRICKS_4, 4)])
    assert [t.winner for t in final.trickplay.done] == [0, 0, 0, 1, 2, 2, 2, 3, 3, 3]
    assert [t.leader for t in final.trickplay.done] == [leader for leader, _ in TRICKS_4]
    assert final.verdicts == ()


def test_seed_rounding_adds_partners_thirds_then_rounds_to_nearest() -> None:
    result = result_of([Deal(hands=HANDS_4), *plays(TRICKS_4, 4)])
    d = result.details
    assert d["thirds"] == [8, 4, 9, 11]
    assert d["last_trick"] == 3
    # 0+2: 8 + 9 = 17 thirds = 5 2/3 -> 6; 1+3: 4 + 11 + 1 (last trick) = 16 thirds = 5 1/3 -> 5.
    assert d["side_thirds"] == [17, 16]
    assert d["exact_points"] == [Fraction(17, 3), Fraction(16, 3)]
    assert d["card_points"] == [6, 5]
    assert result.team_scores == (6, 5)
    assert result.scores == (6, 5, 6, 5)
    assert result.teams == ((0, 2), (1, 3))
    assert d["deal_winner"] == 0
    assert result.as_dict()["details"]["exact_points"] == ["17/3", "16/3"]


def test_traditional_rounding_drops_fractions_and_can_change_the_winner() -> None:
    result = result_of([Deal(hands=HANDS_4), *plays(TRICKS_4, 4)], options={"rounding": "traditional"})
    # 0+2: 17 thirds -> 5 (2/3 dropped); 1+3: 15 thirds -> 5, plus 1 whole point for the last trick = 6.
    assert result.details["card_points"] == [5, 6]
    assert result.details["deal_winner"] == 1


def test_per_player_rounding_rounds_each_partner_first() -> None:
    moves = [Deal(hands=HANDS_4), *plays(TRICKS_4, 4)]
    seed = result_of(moves, options={"team_rounding": "per_player"})
    # seat 0: 8 -> 3, seat 2: 9 -> 3: 6; seat 1: 4 -> 1, seat 3: 11 + 1 = 12 -> 4: 5.
    assert seed.details["card_points"] == [6, 5]
    trad = result_of(moves, options={"team_rounding": "per_player", "rounding": "traditional"})
    # seat 0: 8 -> 2, seat 2: 9 -> 3: 5; seat 1: 4 -> 1, seat 3: 11 -> 3, + 1 last trick: 5. Only 10 of 11.
    assert trad.details["card_points"] == [5, 5]
    assert trad.details["deal_winner"] is None
    assert "tied" in trad.outcome


def test_napoletana_and_three_aces_share_the_ace_and_both_score() -> None:
    moves = [Deal(hands=HANDS_4), NAPOLETANA_D, THREE_ACES, *plays(TRICKS_4, 4)]
    result = result_of(moves)
    # 6 card points + napoletana 3 + three Aces 3 = 12 for 0+2; 5 for 1+3.
    assert result.details["declaration_points"] == [6, 0]
    assert result.details["deal_scores"] == [12, 5]
    assert [d["combination"] for d in result.details["declarations"]] == ["napoletana", "three_aces"]
    assert result.details["declarations"][1]["cards"] == ["AS", "AH", "AD"]  # in deck order
    trad = result_of(moves, options={"rounding": "traditional"})
    # Traditional: 5 + 6 = 11 against 6: the declarations are added after the rounding.
    assert trad.details["deal_scores"] == [11, 6]


def test_the_same_combination_declared_twice_is_recorded_and_scores_once() -> None:
    # Declared twice aloud at the table: the second draws a verdict and scores nothing (a strict table
    # refuses it). The other trio of Aces counts as the same rank set, whoever holds its cards.
    state = run([Deal(hands=HANDS_4), THREE_ACES])
    again = GAME.apply(state, THREE_ACES)
    assert [(v.rule, v.seat, v.move_index, v.proved_at) for v in again.verdicts] == [
        ("tressette.already_declared", 0, 2, None)
    ]
    assert "already been declared by seat 1" in again.verdicts[0].message
    other_trio = Declare(seat=0, combination="three_aces", cards=("AS", "AH", "AC"))
    assert [v.rule for v in GAME.apply(state, other_trio).verdicts] == ["tressette.already_declared"]
    moves = [Deal(hands=HANDS_4), THREE_ACES, THREE_ACES, *plays(TRICKS_4, 4)]
    # Deal unknown, the second waits until the first stands: seat 0's AH, the last of the trio, at move 3 +
    # 16 + 3 = 22 (the fourth card of trick 5).
    assert both_modes(moves) == (
        [("tressette.already_declared", 0, 2, None)],
        [("tressette.already_declared", 0, 2, 22)],
    )
    result = result_of(moves)
    assert result.details["declaration_points"] == [3, 0]
    assert [d["valid"] for d in result.details["declarations"]] == [True, False]
    twice = strict_code([Deal(hands=HANDS_4), THREE_ACES], THREE_ACES)
    assert twice == "irregular.tressette.already_declared"


def test_a_card_already_played_no_longer_counts_for_a_declaration() -> None:
    # Seat 0 has played 3D to trick 1: the napoletana is gone, the three Aces are still in his hand. Both
    # modes know it at once: the verdict is on the declaration itself.
    start = [Deal(hands=HANDS_4), PlayCard(seat=0, card="3D")]
    step = GAME.apply(run(start), NAPOLETANA_D)
    assert [(v.rule, v.seat, v.move_index, v.proved_at) for v in step.verdicts] == [
        ("tressette.false_declaration", 0, 2, None)
    ]
    assert "3D had already been played" in step.verdicts[0].message
    assert GAME.apply(run(start), THREE_ACES).verdicts == ()
    moves = [*start, NAPOLETANA_D, *plays(TRICKS_4, 4)[1:]]
    assert both_modes(moves) == (
        [("tressette.false_declaration", 0, 2, None)],
        [("tressette.false_declaration", 0, 2, None)],
    )
    assert result_of(moves).details["declaration_points"] == [0, 0]
    assert strict_code(start, NAPOLETANA_D) == "irregular.tressette.false_declaration"
    assert strict_code(GAME.moves_only(start), NAPOLETANA_D) == "irregular.tressette.false_declaration"


def test_a_combination_not_in_the_recorded_hand_is_recorded_as_false() -> None:
    # Seat 1 declares the three Aces that the recorded deal gives to seat 0: he said it, so it is recorded,
    # with a verdict naming where the deal puts the card; it scores nothing.
    state = run([Deal(hands=HANDS_4)])
    lie = Declare(seat=1, combination="three_aces", cards=("AS", "AH", "AD"))
    step = GAME.apply(state, lie)
    assert [(v.rule, v.seat, v.trick, v.move_index) for v in step.verdicts] == [
        ("tressette.false_declaration", 1, 1, 1)
    ]
    assert "the recorded deal gives AS to seat 1" in step.verdicts[0].message
    assert strict_code([Deal(hands=HANDS_4)], lie) == "irregular.tressette.false_declaration"


@pytest.mark.parametrize(
    ("combination", "cards"),
    [
        ("three_kings", ("KS", "KH", "KD")),
        ("three_aces", ("AS", "AH")),
        ("three_aces", ("AS", "AH", "2D")),
        ("four_aces", ("AS", "AH", "AD")),
        ("napoletana", ("AD", "2D", "3S")),
        ("napoletana", ("AD", "2D", "2D")),
    ],
)
def test_cards_that_do_not_form_the_combination_are_refused(combination: str, cards: tuple[str, ...]) -> None:
    state = run([Deal(hands=HANDS_4)])
    with pytest.raises(ImpossibleMove) as err:
        GAME.apply(state, Declare(seat=0, combination=combination, cards=cards))
    assert err.value.code == "tressette.combination"


def test_something_that_is_not_a_move_is_malformed() -> None:
    state = run([Deal(hands=HANDS_4)])
    with pytest.raises(MalformedMove) as err:
        GAME.apply(state, "3D")  # type: ignore[arg-type]
    assert err.value.code == "move.malformed"


def test_a_card_that_is_not_a_code_is_refused() -> None:
    state = run([Deal(hands=HANDS_4)])
    with pytest.raises(ImpossibleMove) as err:
        GAME.apply(state, Declare(seat=0, combination="three_aces", cards=("AS", "AH", "ZZ")))
    assert err.value.code == "card.unknown"


def test_seed_window_closes_with_ones_own_card_to_trick_two() -> None:
    trick_one = plays(TRICKS_4[:1], 4)
    after_one = run([Deal(hands=HANDS_4), *trick_one])
    assert GAME.in_window(after_one, 0)
    # Seat 0 leads trick 2: before his card he may still declare the Aces; after it, no longer.
    led = run([Deal(hands=HANDS_4), *trick_one, PlayCard(seat=0, card="2D")])
    assert not GAME.in_window(led, 0) and GAME.in_window(led, 1)
    # The window is open for every seat, not only the one to play.
    assert [GAME.in_window(led, s) for s in range(4)] == [False, True, True, True]
    # Declared after it, the Aces (still in his hand) are recorded with a verdict and score nothing, in
    # both modes at once; a strict table refuses them.
    late = GAME.apply(led, THREE_ACES)
    assert [(v.rule, v.seat, v.trick, v.move_index, v.proved_at) for v in late.verdicts] == [
        ("tressette.window", 0, 2, 6, None)
    ]
    moves = [
        Deal(hands=HANDS_4),
        *trick_one,
        PlayCard(seat=0, card="2D"),
        THREE_ACES,
        *plays(TRICKS_4, 4)[5:],
    ]
    assert both_modes(moves) == ([("tressette.window", 0, 6, None)], [("tressette.window", 0, 6, None)])
    assert result_of(moves).details["declaration_points"] == [0, 0]
    assert strict_code(moves[:6], THREE_ACES) == "irregular.tressette.window"
    # Anyone may speak at any time during the play.
    assert GAME.actors(led, THREE_ACES) == {0, 1, 2, 3}


def test_first_three_tricks_window() -> None:
    opts = {"declaration_window": "first_three_tricks"}
    led = run([Deal(hands=HANDS_4), *plays(TRICKS_4[:1], 4), PlayCard(seat=0, card="2D")], options=opts)
    assert GAME.apply(led, THREE_ACES).verdicts == ()
    third = run([Deal(hands=HANDS_4), *plays(TRICKS_4[:2], 4), PlayCard(seat=0, card="AD")], options=opts)
    assert [v.rule for v in GAME.apply(third, THREE_ACES).verdicts] == ["tressette.window"]


def test_end_of_first_trick_window_counts_the_card_played_to_trick_one() -> None:
    opts = {"declaration_window": "end_of_first_trick"}
    start = run([Deal(hands=HANDS_4)], options=opts)
    early = GAME.apply(start, NAPOLETANA_D)
    assert [v.rule for v in early.verdicts] == ["tressette.window"]
    assert "open only after trick 1" in early.verdicts[0].message
    # After trick 1 and before trick 2 is led, 3D (played to trick 1) still counts.
    moves = [Deal(hands=HANDS_4), *plays(TRICKS_4[:1], 4), NAPOLETANA_D, *plays(TRICKS_4[1:], 4)]
    assert result_of(moves, options=opts).details["declaration_points"] == [3, 0]
    blind = result_of(GAME.moves_only(moves), options=opts)
    assert blind.details["declaration_points"] == [3, 0]
    # Seat 1 may not count seat 0's trick-1 card.
    after = run([Deal(hands=HANDS_4), *plays(TRICKS_4[:1], 4)], options=opts)
    other = GAME.apply(after, Declare(seat=1, combination="napoletana", cards=("AD", "2D", "3D")))
    assert [v.rule for v in other.verdicts] == ["tressette.false_declaration"]


def test_four_of_a_kind_is_one_combination_worth_four() -> None:
    # Seat 1 holds all four 3s and three Aces; dealer 0, seat 1 leads.
    hands = (
        ("4D", "5D", "6D", "7D", "JD", "QD", "KD", "2D", "4H", "5H"),
        ("3D", "3H", "3S", "3C", "AD", "AH", "AS", "4S", "5S", "6S"),
        ("6H", "7H", "JH", "QH", "KH", "2H", "7S", "JS", "QS", "KS"),
        ("AC", "2C", "4C", "5C", "6C", "7C", "JC", "QC", "KC", "2S"),
    )
    state = run([Deal(hands=hands)], dealer=0)
    # Offered with the cards in deck order (spade, coppe, denari, bastoni); any order is accepted.
    four = Declare(seat=1, combination="four_threes", cards=("3S", "3H", "3D", "3C"))
    offered = GAME.legal_moves(state)
    assert four in offered
    assert Declare(seat=1, combination="three_threes", cards=("3S", "3H", "3D")) in offered
    shuffled = Declare(seat=1, combination="four_threes", cards=("3C", "3D", "3H", "3S"))
    assert GAME.apply(state, shuffled).verdicts == ()
    state = GAME.apply(state, four).state
    again = GAME.apply(state, Declare(seat=1, combination="three_threes", cards=("3D", "3H", "3S")))
    assert [v.rule for v in again.verdicts] == ["tressette.already_declared"]
    state = GAME.apply(state, Declare(seat=1, combination="three_aces", cards=("AD", "AH", "AS"))).state
    while not state.over:
        state = GAME.apply(state, next(m for m in GAME.legal_moves(state) if isinstance(m, PlayCard))).state
    result = GAME.result(state)
    # Four 3s = 4 (not 4 + 3), three Aces = 3: 7 for seats 1+3, added to their card points.
    assert result.details["declaration_points"] == [0, 7]
    assert result.details["deal_scores"][1] == result.details["card_points"][1] + 7
    assert sum(result.details["card_points"]) == 11


def test_revoke_is_a_verdict_found_at_the_same_move_in_both_modes() -> None:
    # Trick 5: seat 1 leads KH; seat 0 holds 6H, 7H and AH. Here he throws 4C on it (a revoke), then plays
    # KC to trick 9 and AH, void in clubs by then, to trick 10; everything else as in the hand above.
    tricks = list(TRICKS_4)
    tricks[4] = (1, ("KH", "3H", "5H", "4C"))
    tricks[8] = (3, ("3C", "KC", "AC", "JC"))
    tricks[9] = (3, ("2C", "AH", "6C", "QC"))
    moves = [Deal(hands=HANDS_4), *plays(tricks, 4)]
    revoke_index = 1 + 4 * 4 + 3  # the deal, 4 tricks of 4 cards, then the fourth card of trick 5
    known = replay(GAME, moves, seats=4, dealer=3)
    assert [(v.rule, v.seat, v.trick, v.move_index, v.proved_at) for v in known.verdicts] == [
        ("follow_suit", 0, 5, revoke_index, None)
    ]
    blind = replay(GAME, GAME.moves_only(moves), seats=4, dealer=3)
    # Deal unknown: proved when seat 0 plays a heart again (6H at trick 7, move 1 + 6*4 + 2 = 27).
    assert [(v.rule, v.seat, v.trick, v.move_index, v.proved_at) for v in blind.verdicts] == [
        ("follow_suit", 0, 5, revoke_index, 1 + 6 * 4 + 2)
    ]
    assert GAME.result(known.final).scores == GAME.result(blind.final).scores
    strict = run(moves[:revoke_index], options={"strict": True})
    with pytest.raises(IrregularMoveRefused) as refused:
        GAME.apply(strict, moves[revoke_index])
    assert refused.value.code == "irregular.follow_suit"


def test_moves_only_false_declaration_is_found_when_another_seat_plays_the_card() -> None:
    false = Declare(seat=1, combination="three_aces", cards=("AS", "AH", "AD"))
    moves = [Deal(hands=None), false, *plays(TRICKS_4, 4)]
    full = replay(GAME, moves, seats=4, dealer=3)
    # AD is played by seat 0 at trick 3 (move index 2 + 2*4 = 10): the declaration (move 1) is false.
    assert [(v.rule, v.seat, v.move_index, v.proved_at) for v in full.verdicts] == [
        ("tressette.false_declaration", 1, 1, 10)
    ]
    result = GAME.result(full.final)
    assert result.details["declaration_points"] == [0, 0]
    assert result.details["declarations"][0]["valid"] is False
    # With the deal recorded, the same record draws the same verdict on the declaration itself.
    assert both_modes([Deal(hands=HANDS_4), false, *plays(TRICKS_4, 4)]) == (
        [("tressette.false_declaration", 1, 1, None)],
        [("tressette.false_declaration", 1, 1, 10)],
    )


def test_moves_only_declaration_confirmed_by_the_declarers_own_plays() -> None:
    moves = [Deal(hands=HANDS_4), NAPOLETANA_D, THREE_ACES, *plays(TRICKS_4, 4)]
    known, blind = result_of(moves), result_of(GAME.moves_only(moves))
    assert blind.details["deal_scores"] == known.details["deal_scores"] == [12, 5]
    # Deal unknown, a card another seat has declared is no reason to refuse: either may be the one lying,
    # and the cards played will tell.
    state = run([Deal(hands=None), THREE_ACES])
    taken = GAME.apply(state, Declare(seat=2, combination="napoletana", cards=("AD", "2D", "3D")))
    assert taken.verdicts == ()
    assert taken.state.declarations[-1].ruling is None


# The issue's case: a false declaration, then the true one by another seat. Move 1 is seat 1's lie (seat 0
# holds the Aces), move 2 seat 0's truth; the cards start at move 3, so seat 0 plays AD at move 3 + 8 = 11
# (trick 3), AS at 3 + 12 = 15 (trick 4) and AH at 3 + 16 + 3 = 22 (the fourth card of trick 5).
SEAT_1_LIES = Declare(seat=1, combination="three_aces", cards=("AS", "AH", "AD"))


def test_a_false_declaration_then_the_true_one_by_another_seat_in_both_modes() -> None:
    moves = [Deal(hands=HANDS_4), SEAT_1_LIES, THREE_ACES, *plays(TRICKS_4, 4)]
    known, blind = both_modes(moves)
    # Deal recorded: the lie is known at once, and the truth scores. Deal unknown: both are taken down,
    # the lie is shown by seat 0's AD, and the truth stands on seat 0's own plays.
    assert known == [("tressette.false_declaration", 1, 1, None)]
    assert blind == [("tressette.false_declaration", 1, 1, 11)]
    result = result_of(moves)
    assert result.details["declaration_points"] == [3, 0]
    assert result.details["deal_scores"] == [9, 5]
    assert [d["valid"] for d in result.details["declarations"]] == [False, True]


def test_the_true_declaration_then_a_false_one_by_another_seat_in_both_modes() -> None:
    moves = [Deal(hands=HANDS_4), THREE_ACES, SEAT_1_LIES, *plays(TRICKS_4, 4)]
    known, blind = both_modes(moves)
    # The Aces were already declared (validly) when seat 1 spoke: that is the verdict, in both modes.
    # Deal unknown it waits until seat 0's trio stands: his AH, the last of the three, at move 22.
    assert known == [("tressette.already_declared", 1, 2, None)]
    assert blind == [("tressette.already_declared", 1, 2, 22)]
    assert result_of(moves).details["declaration_points"] == [3, 0]


def test_a_claim_settles_the_declarations_still_open() -> None:
    # Deal unknown, seats 0 and 2 both declare three Aces, then seat 0 claims the rest after trick 1. The
    # cards never played cannot be checked: an open declaration stands, so seat 2's is one too many. With
    # the deal recorded seat 0's is true at once and seat 2's draws the same verdict on the spot.
    seat_2 = Declare(seat=2, combination="three_aces", cards=("AS", "AH", "AC"))
    moves = [
        Deal(hands=HANDS_4),
        THREE_ACES,
        seat_2,
        *plays(TRICKS_4[:1], 4),
        Claim(seat=0),
        ClaimResponse(seat=1, accept=True),
        ClaimResponse(seat=2, accept=True),
        ClaimResponse(seat=3, accept=True),
    ]
    known, blind = both_modes(moves)
    assert known == [("tressette.already_declared", 2, 2, None)]
    assert blind == [("tressette.already_declared", 2, 2, 10)]
    assert result_of(moves).details["declaration_points"] == [3, 0]


# ---- three players ---------------------------------------------------------------------------------
# Dealer 2, seat 0 leads. The 4 of bastoni is out of the pack: 39 cards, 13 each.
TRICKS_3: list[tuple[int, tuple[str, ...]]] = [
    (0, ("3D", "4D", "5D")),  # 1: seat 0, 1 third
    (0, ("2D", "AD", "6D")),  # 2: seat 0, 4
    (0, ("KD", "QD", "JD")),  # 3: seat 0, 3 -> seat 0 has 8
    (0, ("4H", "3H", "5H")),  # 4: seat 1, 1
    (1, ("2H", "AH", "6H")),  # 5: seat 1, 4
    (1, ("KH", "QH", "JH")),  # 6: seat 1, 3 -> seat 1 has 8
    (1, ("4S", "3S", "5S")),  # 7: seat 2, 1
    (2, ("2S", "AS", "6S")),  # 8: seat 2, 4
    (2, ("KS", "QS", "JS")),  # 9: seat 2, 3 -> seat 2 has 8
    (2, ("QC", "3C", "KC")),  # 10: 3C, seat 0, 3 -> 11
    (0, ("7C", "AC", "6C")),  # 11: AC, seat 1, 3 -> 11
    (1, ("5C", "2C", "JC")),  # 12: 2C, seat 2, 2 -> 10
    (2, ("7S", "7D", "7H")),  # 13: the only spade, seat 2, 0 thirds and the last trick
]
HANDS_3 = hands_from(TRICKS_3, 3)


def test_three_players_use_thirty_nine_cards_without_the_four_of_bastoni() -> None:
    assert GAME.deck_cards(GAME.ruleset.defaults(), 3) == tuple(c for c in GAME.deck.cards if c != "4C")
    assert len(GAME.deck_cards({"removed_four": "4D"}, 3)) == 39
    assert "4C" in GAME.deck_cards({"removed_four": "4D"}, 3)
    assert all(len(h) == 13 for h in HANDS_3)
    state = run([Deal(hands=HANDS_3)], seats=3, dealer=2)
    with pytest.raises(ImpossibleMove) as four:
        GAME.apply(state, PlayCard(seat=0, card="4C"))
    assert four.value.code == "card.unknown"


def test_three_players_seed_rounding_can_give_twelve() -> None:
    result = result_of([Deal(hands=HANDS_3), *plays(TRICKS_3, 3)], seats=3, dealer=2)
    assert result.details["thirds"] == [11, 11, 10]
    # 11/3 -> 4, 11/3 -> 4, (10 + 1)/3 -> 4: 12 points, one more than with four players.
    assert result.details["card_points"] == [4, 4, 4]
    assert result.scores == (4, 4, 4)
    assert result.teams == () and result.team_scores == ()


def test_three_players_traditional_rounding_can_give_ten() -> None:
    result = result_of(
        [Deal(hands=HANDS_3), *plays(TRICKS_3, 3)], seats=3, dealer=2, options={"rounding": "traditional"}
    )
    # 11 -> 3, 11 -> 3, 10 -> 3 plus 1 for the last trick: 10 points.
    assert result.details["card_points"] == [3, 3, 4]
    assert result.details["deal_winner"] == 2


# ---- claims -----------------------------------------------------------------------------------------
def _accept_all(state: TressetteState, claimer: int) -> TressetteState:
    for seat in range(state.seats):
        if seat != claimer:
            state = GAME.apply(state, ClaimResponse(seat=seat, accept=True)).state
    return state


def test_a_claim_of_the_rest_takes_every_card_left_and_the_last_trick() -> None:
    # After 8 tricks seat 3 (on lead) claims the last two: 3C AC JC 2C KC QC = 8 thirds + the last trick.
    moves = [Deal(hands=HANDS_4), *plays(TRICKS_4[:8], 4), Claim(seat=3)]
    for blind in (False, True):
        state = run(GAME.moves_only(moves) if blind else moves)
        state = _accept_all(state, 3)
        result = GAME.result(state)
        assert result.details["end"] == "claim"
        assert result.details["thirds"] == [8, 4, 9, 11]
        assert result.details["card_points"] == [6, 5]


def test_a_claim_states_all_the_tricks_or_a_valid_split() -> None:
    state = run([Deal(hands=HANDS_4), *plays(TRICKS_4[:8], 4)])
    with pytest.raises(ImpossibleMove) as some:
        GAME.apply(state, Claim(seat=3, tricks=1))
    assert some.value.code == "tressette.claim"
    assert GAME.apply(state, Claim(seat=3, tricks=2)).state.claim is not None
    with pytest.raises(ImpossibleMove) as total:
        GAME.apply(state, Claim(seat=3, split=(6, 6)))
    assert total.value.code == "tressette.claim"
    # Seats 0+2 already hold 17 thirds = 6 points for sure: a split giving them 5 is refused.
    with pytest.raises(ImpossibleMove) as below:
        GAME.apply(state, Claim(seat=3, split=(5, 6)))
    assert below.value.code == "tressette.claim"
    split = _accept_all(GAME.apply(state, Claim(seat=3, split=(6, 5))).state, 3)
    assert GAME.result(split).details["card_points"] == [6, 5]
    with pytest.raises(ImpossibleMove) as off_lead:
        GAME.apply(state, Claim(seat=0))
    assert off_lead.value.code == "claim.not_allowed"


# ---- chiamarsi fuori ----------------------------------------------------------------------------------
FUORI = {"chiamarsi_fuori": True}


def test_calling_out_is_refused_unless_the_option_is_on() -> None:
    state = run([Deal(hands=HANDS_4)])
    with pytest.raises(ImpossibleMove) as off:
        GAME.apply(state, Call(seat=0, call="fuori"))
    assert off.value.code == "tressette.call"
    on = run([Deal(hands=HANDS_4)], options=FUORI)
    with pytest.raises(ImpossibleMove) as unknown:
        GAME.apply(on, Call(seat=0, call="busso"))
    assert unknown.value.code == "tressette.call"


def _call_after_three_tricks(totals: list[int]) -> HandResult:
    state = GAME.initial_state(FUORI, seats=4, dealer=3, context={"totals": totals})
    for move in [Deal(hands=HANDS_4), NAPOLETANA_D, *plays(TRICKS_4[:3], 4), Call(seat=2, call="fuori")]:
        state = GAME.apply(state, move).state
    assert state.over
    return GAME.result(state)


def test_a_right_call_wins_the_match_at_once() -> None:
    # Seats 0+2 have taken 8 thirds (-> 3 sure points) and declared the napoletana (3): 6 sure points.
    result = _call_after_three_tricks([25, 10])
    assert result.details["fuori"]["sure_points"] == 6
    assert result.details["fuori"]["correct"] is True  # 25 + 6 = 31
    earlier = [_deal(25, 10)]
    match = GAME.match_result(FUORI, 4, [*earlier, result])
    assert match.finished and match.winners == (0, 2)


def test_a_wrong_call_loses_the_match() -> None:
    result = _call_after_three_tricks([24, 30])
    assert result.details["fuori"]["correct"] is False  # 24 + 6 = 30 < 31
    match = GAME.match_result(FUORI, 4, [_deal(24, 30), result])
    assert match.finished and match.winners == (1, 3)


# ---- the match ----------------------------------------------------------------------------------------
def _deal(*scores: int) -> HandResult:
    best = max(scores)
    winner = scores.index(best) if scores.count(best) == 1 else None
    # Two sides: four seats in pairs (0+2, 1+3), each seat carrying its side's score; three: one seat each.
    by_seat = (scores[0], scores[1], scores[0], scores[1]) if len(scores) == 2 else tuple(scores)
    teams = ((0, 2), (1, 3)) if len(scores) == 2 else ()
    return HandResult(
        outcome="",
        scores=by_seat,
        teams=teams,
        team_scores=tuple(scores) if teams else (),
        details={"deal_scores": list(scores), "deal_winner": winner},
    )


def test_the_first_side_to_thirty_one_wins() -> None:
    hands = [_deal(11, 0), _deal(8, 3), _deal(7, 4), _deal(4, 7)]
    # 0+2: 11, 19, 26, 30; 1+3: 0, 3, 7, 14: nobody at 31 yet.
    assert not GAME.match_result({}, 4, hands).finished
    match = GAME.match_result({}, 4, [*hands, _deal(2, 9)])
    # 0+2 reach 32: they win.
    assert match.finished and match.winners == (0, 2)
    assert match.team_totals == (32, 23) and match.totals == (32, 23, 32, 23)
    assert [row["points"] for row in match.rows] == [[11, 0], [19, 3], [26, 7], [30, 14], [32, 23]]


def test_both_over_the_target_the_higher_total_wins() -> None:
    match = GAME.match_result({}, 4, [_deal(20, 29), _deal(13, 3)])
    # 20 + 13 = 33 against 29 + 3 = 32: both over 31, 0+2 higher (1+3 were nearer before the deal).
    assert match.finished and match.winners == (0, 2)


def test_equal_highest_over_the_target_plays_on_until_one_side_is_ahead() -> None:
    hands = [_deal(27, 28), _deal(6, 5)]  # 33 and 33: equal, play on
    match = GAME.match_result({}, 4, hands)
    assert not match.finished and "play on" in match.rows[-1]["note"]
    match = GAME.match_result({}, 4, [*hands, _deal(5, 5)])  # 38 and 38: still equal
    assert not match.finished
    match = GAME.match_result({}, 4, [*hands, _deal(5, 5), _deal(6, 5)])  # 44 and 43
    assert match.finished and match.winners == (0, 2)
    # A hand recorded after the end does not change the result.
    later = GAME.match_result({}, 4, [*hands, _deal(5, 5), _deal(6, 5), _deal(0, 11)])
    assert later.winners == (0, 2) and later.details["hands_after_end"] == 1


def test_other_targets_and_three_players() -> None:
    match = GAME.match_result({"target": 21}, 3, [_deal(4, 4, 4), _deal(9, 1, 1), _deal(8, 2, 1)])
    assert match.finished and match.winners == (0,) and match.totals == (21, 7, 6)
    assert match.team_totals == ()


def test_deals_won_format_counts_strict_deal_wins() -> None:
    opts = {"match_format": "deals_won"}
    hands = [_deal(6, 5), _deal(5, 6), _deal(7, 7), _deal(8, 3), _deal(11, 3)]
    match = GAME.match_result(opts, 4, hands)
    # Deals won: 0+2 win 1, 4, 5; 1+3 win 2; deal 3 is tied and counts for nobody.
    assert match.finished and match.winners == (0, 2)
    assert match.team_totals == (3, 1)
    assert match.details["points"] == [37, 24]
    assert not GAME.match_result(opts, 4, hands[:4]).finished


def test_the_match_context_gives_the_totals_before_the_deal() -> None:
    assert GAME.match_context({}, 4, [_deal(6, 5), _deal(3, 8)]) == {"totals": [9, 13]}
    assert GAME.next_dealer({}, 4, 3, None) == 0


def test_the_match_counts_the_scores_as_they_stand_after_a_ruling() -> None:
    # The deal was played 6-5, then a director's ruling moved 3 points: the result's scores say 3-8 while
    # the details still tell the deal as played. The match counts 3-8, and the deal goes to 1+3.
    ruled = replace(_deal(6, 5), scores=(3, 8, 3, 8), team_scores=(3, 8))
    match = GAME.match_result({}, 4, [ruled])
    assert match.team_totals == (3, 8)
    assert match.rows[0]["deal_winner"] == 1
