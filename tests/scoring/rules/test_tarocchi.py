"""Sicilian Tarocchi for three: worked deals computed by hand, the auction, the obligations, claims, the
match sheet. Property tests over random deals are in ``test_tarocchi_properties.py``.

Seats are numbered in the order of play; the dealer is seat 0 in every deal here, so seat 1 (the dealer's
right) leads the first trick and the order in a trick led by seat 1 is 1, 2, 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from scoring.rules import get_game, replay
from scoring.rules.core import HandResult, Replay
from scoring.rules.errors import ImpossibleMove, InvalidOptions, IrregularMoveRefused
from scoring.rules.moves import Call, Claim, ClaimResponse, Deal, Exchange, Move, PlayCard
from scoring.rules.tarocchi import Tarocchi, TarocchiState, card_points

GAME = get_game("tarocchi")
assert isinstance(GAME, Tarocchi)


def play(tricks: Sequence[Sequence[tuple[int, str]]]) -> list[Move]:
    return [PlayCard(seat=s, card=c) for trick in tricks for s, c in trick]


def run(moves: Sequence[Move], options: Mapping[str, Any] | None = None) -> Replay[TarocchiState]:
    return replay(GAME, moves, options=options, seats=3, dealer=0)


def result_of(moves: Sequence[Move], options: Mapping[str, Any] | None = None) -> HandResult:
    return GAME.result(run(moves, options).final)


def first_legal_to_end(state: TarocchiState, moves: list[Move]) -> TarocchiState:
    """Play on with the first legal card until the deal is over (deal known)."""
    while not state.over:
        move = GAME.legal_moves(state)[0]
        step = GAME.apply(state, move)
        assert step.verdicts == ()
        moves.append(move)
        state = step.state
    return state


def cards(state: TarocchiState) -> list[str]:
    """The cards the engine offers to the player to act."""
    return [m.card for m in GAME.legal_moves(state) if isinstance(m, PlayCard)]


def keyed(verdicts: Sequence[Any]) -> set[tuple[str, int, int | None]]:
    return {(v.rule, v.move_index, v.seat) for v in verdicts}


# ---- deal R: the obligations at work, a Fuggitivo paid with a blank, the last trick ---------------------
R_HANDS = (
    # seat 0, the dealer: 20 dealt (the stock below is his too)
    ("5S", "QS", "NS", "TS", "JH", "5H", "6H", "TH", "9H", "8H",
     "KC", "QC", "NC", "JC", "JD", "QD", "ND", "TD", "9D", "T0"),
    # seat 1, first hand
    ("KS", "NH", "4D", "T2", "T3", "T6", "T7", "T8", "T9", "T10",
     "T11", "T12", "T13", "T14", "T15", "T16", "T17", "T18", "T19", "T20"),
    # seat 2
    ("JS", "9S", "8S", "7S", "6S", "KH", "7H", "5C", "6C", "9C",
     "8C", "7C", "KD", "8D", "7D", "6D", "5D", "FU", "T1", "T4"),
)  # fmt: skip
R_STOCK = ("QH", "TC", "T5")
R_DISCARD = ("QH", "5H", "6H")
R_TRICKS = [
    [(1, "KS"), (2, "JS"), (0, "5S")],  # 1: King opens spade; seat 2 owes the Fanta after it. Seat 1 wins.
    [(1, "NH"), (2, "KH"), (0, "JH")],  # 2: seat 2 owes his King, seat 0 then the Fanta. Seat 2 wins.
    [(2, "5C"), (0, "KC"), (1, "T2")],  # 3: seat 0 owes the King; seat 1, void, must trump. Seat 1 wins.
    [(1, "T20"), (2, "FU"), (0, "T0")],  # 4: Fuggitivo instead of a trump; seat 0 must trump. Seat 1.
    [(1, "4D"), (2, "KD"), (0, "JD")],  # 5: King then Fanta again. Seat 2 wins (4D is his first blank).
    [(2, "6C"), (0, "QC"), (1, "T3")],  # 6: clubs no longer first: no duty. Seat 1 trumps and wins.
    [(1, "T19"), (2, "T1"), (0, "T5")],  # 7..20: seat 1 leads trumps and wins every trick.
    [(1, "T18"), (2, "T4"), (0, "QS")],
    [(1, "T17"), (2, "9S"), (0, "NS")],
    [(1, "T16"), (2, "8S"), (0, "TS")],
    [(1, "T15"), (2, "7S"), (0, "TH")],
    [(1, "T14"), (2, "6S"), (0, "9H")],
    [(1, "T13"), (2, "7H"), (0, "8H")],
    [(1, "T12"), (2, "9C"), (0, "NC")],
    [(1, "T11"), (2, "8C"), (0, "JC")],
    [(1, "T10"), (2, "7C"), (0, "TC")],
    [(1, "T9"), (2, "8D"), (0, "QD")],
    [(1, "T8"), (2, "7D"), (0, "ND")],
    [(1, "T7"), (2, "6D"), (0, "TD")],
    [(1, "T6"), (2, "5D"), (0, "9D")],
]


def r_moves(discard: Sequence[str] = R_DISCARD) -> list[Move]:
    return [
        Deal(hands=R_HANDS, stock=R_STOCK),
        Call(seat=1, call="tengo"),
        Exchange(seat=0, discard=tuple(discard)),
        *play(R_TRICKS),
    ]


def r_index(trick: int, nth: int) -> int:
    """The move index of the nth card (0-based) of trick ``trick`` in deal R (deal, tengo, discard first)."""
    return 3 + 3 * (trick - 1) + nth


def test_deal_r_is_scored_by_hand() -> None:
    # Seat 2 wins tricks 2 and 5: NH KH JH, 4D KD JD, and keeps his Fuggitivo (trick 4, won by seat 1);
    # he owes seat 1 a blank and pays with 4D. His pile: NH KH JH KD JD FU, 6 cards:
    #   (3-1)+(5-1)+(2-1)+(5-1)+(2-1)+(10-1) = 21, plus 6/3 = 2 -> 23 card points.
    # Seat 0 (dealer) won nothing; his discard QH 5H 6H counts for him: (4-1) + 3/3 = 4.
    # Seat 1 takes the other 54 cards, the remaining 16 counting cards:
    #   KS 4, JS 1, KC 4, T20 9, QC 3, T19 4, T18 4, T17 4, T16 4, T1 9, QS 3, NS 2, NC 2, JC 1, QD 3, ND 2
    #   = 59, plus 54/3 = 18 -> 77.  77 + 23 + 4 = 104.
    # Last trick to seat 1: +5 -> 82.  Scores: dealer 4 - 37 = -33, seat 1 82 - 36 = 46, seat 2 23 - 36 = -13.
    replayed = run(r_moves())
    assert replayed.verdicts == ()
    result = GAME.result(replayed.final)
    assert result.outcome == "played"
    assert result.details["card_points"] == [4, 77, 23]
    assert result.details["points"] == [4, 82, 23]
    assert result.details["offsets"] == [-37, -36, -36]
    assert result.scores == (-33, 46, -13)
    assert result.details["last_trick"] == 1
    assert result.details["fuggitivo"] == {"owner": 2, "trick": 4, "winner": 1, "paid": "4D"}
    assert sorted(result.details["piles"][2]) == sorted(["KH", "NH", "JH", "KD", "JD", "FU"])
    assert sorted(result.details["piles"][0]) == sorted(R_DISCARD)
    assert len(result.details["piles"][1]) == 54
    assert result.details["tricks_won"] == [0, 18, 2]


def test_deal_r_without_the_deal_scores_the_same() -> None:
    blind = run(GAME.moves_only(r_moves()))
    assert blind.verdicts == ()
    assert blind.final.hands.hands is None
    result = GAME.result(blind.final)
    assert result.scores == (-33, 46, -13)
    # The discard was not keyed: it is what nobody played.
    assert sorted(result.details["discard"]) == sorted(R_DISCARD)


def test_deal_r_legal_moves_offer_exactly_the_obligated_cards() -> None:
    states = run(r_moves()).states
    # Before trick 1: seat 1 may lead any card, but spades only with the King.
    lead = set(cards(states[r_index(1, 0)]))
    assert "KS" in lead and "NH" in lead and "T20" in lead
    # Seat 2 after the King of spades: the Fanta only.
    assert cards(states[r_index(1, 1)]) == ["JS"]
    # Seat 0 after KS JS: any spade (Queen with him: the Cavallo rule does not bind), no Fuggitivo to play.
    assert set(cards(states[r_index(1, 2)])) == {"QS", "NS", "TS", "5S"}
    # Trick 3, seat 1 void in clubs: trumps only.
    third = set(cards(states[r_index(3, 2)]))
    assert third == {f"T{n}" for n in (2, 3, *range(6, 21))}
    # Trick 4, seat 2 on a trump lead: his two trumps or the Fuggitivo.
    assert set(cards(states[r_index(4, 1)])) == {"T1", "T4", "FU"}


def r_with(trick: int, nth: int, card: str) -> tuple[list[Move], TarocchiState, list[Any]]:
    """Deal R up to the given card, that card replaced by ``card``, then the first legal card to the end."""
    moves = r_moves()[: r_index(trick, nth)]
    state = run(moves).final
    step = GAME.apply(state, PlayCard(seat=R_TRICKS[trick - 1][nth][0], card=card))
    moves.append(PlayCard(seat=R_TRICKS[trick - 1][nth][0], card=card))
    final = first_legal_to_end(step.state, moves)
    return moves, final, list(step.verdicts)


@pytest.mark.parametrize(
    ("trick", "nth", "card", "rule"),
    [
        (2, 1, "7H", "tarocchi.king"),  # seat 2 keeps back KH in the first heart trick
        (1, 1, "9S", "tarocchi.fanta"),  # seat 2 keeps back JS after KS
        (1, 2, "TH", "tarocchi.follow_suit"),  # seat 0 holds spades
        (3, 2, "4D", "tarocchi.must_trump"),  # seat 1, void in clubs, holds trumps
        (3, 0, "FU", "tarocchi.fuggitivo_lead"),  # seat 2 leads the Fuggitivo with 17 other cards
    ],
)
def test_an_irregular_card_in_deal_r_is_flagged_at_its_move_in_both_modes(
    trick: int, nth: int, card: str, rule: str
) -> None:
    moves, final, verdicts = r_with(trick, nth, card)
    index = r_index(trick, nth)
    assert [(v.rule, v.move_index) for v in verdicts] == [(rule, index)]
    assert keyed(final.verdicts) == {(rule, index, R_TRICKS[trick - 1][nth][0])}
    blind = run(GAME.moves_only(moves))
    assert keyed(blind.verdicts) == {(rule, index, R_TRICKS[trick - 1][nth][0])}
    (found,) = blind.verdicts
    if rule == "tarocchi.fuggitivo_lead":
        assert found.proved_at is None  # the counts alone prove it
    else:
        assert found.proved_at is not None and found.proved_at > index
    assert GAME.result(blind.final).scores == GAME.result(final).scores


def test_a_king_kept_back_is_proved_when_it_is_played() -> None:
    moves, _, _ = r_with(2, 1, "7H")
    blind = run(GAME.moves_only(moves))
    (found,) = blind.verdicts
    kh = next(i for i, m in enumerate(moves) if isinstance(m, PlayCard) and m.card == "KH")
    assert found.proved_at == kh
    # Nothing is known before KH shows up.
    assert all(v.move_index != r_index(2, 1) for v in blind.states[kh].verdicts)


def test_a_void_in_trumps_shown_false_waits_for_the_suit_led() -> None:
    # Seat 1 plays 4D to a club lead holding trumps. Without the deal, his next trump proves a broken rule,
    # but which one (follow suit, if he also held a club; must trump otherwise) is known only once no club
    # can still be in his hand.
    moves, _, _ = r_with(3, 2, "4D")
    blind = run(GAME.moves_only(moves))
    next_trump = next(
        i for i, m in enumerate(moves) if i > r_index(3, 2) and isinstance(m, PlayCard) and m.seat == 1
    )
    assert blind.states[next_trump + 1].deferred  # proved, not yet reported
    assert blind.states[next_trump + 1].verdicts == ()
    (found,) = blind.verdicts
    assert (found.rule, found.move_index, found.proved_at) == (
        "tarocchi.must_trump",
        r_index(3, 2),
        next_trump,
    )
    reported = next(i for i, st in enumerate(blind.states) if st.verdicts)
    assert reported > next_trump + 1


def test_strict_refuses_an_obligation_broken() -> None:
    state = run(r_moves()[: r_index(2, 1)], {"strict": True}).final
    with pytest.raises(IrregularMoveRefused) as refused:
        GAME.apply(state, PlayCard(seat=2, card="7H"))
    assert refused.value.code == "irregular.tarocchi.king"


def test_the_discard_forbidden_is_flagged_in_both_modes() -> None:
    options = {"discard_forbidden": ["QH", "KS"]}
    known = run(r_moves(), options)
    assert keyed(known.verdicts) == {("tarocchi.discard_forbidden", 2, 0)}
    blind = run(GAME.moves_only(r_moves()), options)
    assert keyed(blind.verdicts) == {("tarocchi.discard_forbidden", 2, 0)}
    assert blind.verdicts[0].proved_at == len(r_moves()) - 1  # seen once nobody played QH
    # The legal discards leave the forbidden cards out.
    before = known.states[2]
    assert all("QH" not in m.discard for m in GAME.legal_moves(before))
    assert len(GAME.legal_moves(before)) == 22 * 21 * 20 // 6  # 23 cards, QH out


def test_the_discard_is_checked() -> None:
    state = run(r_moves()[:2]).final
    assert state.phase == "discard" and len(state.hands.hand(0)) == 23
    for bad, code in [
        (Exchange(seat=0, discard=("QH", "5H")), "tarocchi.discard_count"),
        (Exchange(seat=0, discard=("QH", "5H", "KS")), "card.not_held"),
        (Exchange(seat=0, count=3), "tarocchi.discard_unknown"),
        (Exchange(seat=0, discard=R_DISCARD, take=("QH", "5H", "6H")), "tarocchi.take"),
    ]:
        with pytest.raises(ImpossibleMove) as err:
            GAME.apply(state, bad)
        assert err.value.code == code
    ok = GAME.apply(state, Exchange(seat=0, discard=R_DISCARD, take=R_STOCK))
    assert ok.state.phase == "play"
    with pytest.raises(ImpossibleMove) as turn:
        GAME.apply(state, Exchange(seat=1, discard=("KS", "NH", "4D")))
    assert turn.value.code == "turn.wrong"


def test_a_claim_of_all_the_rest_scores_like_playing_it_out() -> None:
    # After trick 6 seat 1 leads with 14 trumps, all higher than the others' four: he claims the rest.
    moves = r_moves()[: r_index(7, 0)]
    state = run(moves).final
    assert GAME.can_claim(state, 1) and not GAME.can_claim(state, 2)
    with pytest.raises(ImpossibleMove) as partial:
        GAME.apply(state, Claim(seat=1, tricks=10))
    assert partial.value.code == "tarocchi.claim_all_only"
    moves += [Claim(seat=1, tricks=14), ClaimResponse(seat=2, accept=True)]
    moves += [ClaimResponse(seat=0, accept=True)]
    result = result_of(moves)
    assert result.scores == (-33, 46, -13)
    assert result.details["claim"] == {"seat": 1}


def test_a_claim_needs_the_discard_when_the_deal_is_not_recorded() -> None:
    blind = GAME.moves_only(r_moves()[: r_index(7, 0)])
    with pytest.raises(ImpossibleMove) as refused:
        GAME.apply(run(blind).final, Claim(seat=1))
    assert refused.value.code == "claim.not_allowed"
    # With the discard recorded (and the Fuggitivo already played) the claim is settled from the cards out.
    keyed_discard = [Exchange(seat=0, discard=R_DISCARD) if isinstance(m, Exchange) else m for m in blind]
    done = [*keyed_discard, Claim(seat=1), ClaimResponse(seat=0, accept=True)]
    done += [ClaimResponse(seat=2, accept=True)]
    assert result_of(done).scores == (-33, 46, -13)


def test_the_deal_and_calls_are_checked() -> None:
    state = GAME.initial_state(None, seats=3, dealer=0)
    with pytest.raises(ImpossibleMove) as short:
        GAME.apply(state, Deal(hands=(R_HANDS[0][:-1], R_HANDS[1], R_HANDS[2])))
    assert short.value.code == "deal.invalid"
    with pytest.raises(ImpossibleMove) as stamp:  # the tax-stamp Ace of coins is no card of this game
        GAME.apply(state, Deal(hands=(R_HANDS[0][:-1] + ("AD",), R_HANDS[1], R_HANDS[2])))
    assert stamp.value.code == "card.unknown"
    dealt = GAME.apply(state, Deal(hands=R_HANDS)).state  # stock not keyed: it is what is left
    assert dealt.hands.stock == frozenset(R_STOCK)
    with pytest.raises(ImpossibleMove) as early:
        GAME.apply(dealt, PlayCard(seat=1, card="KS"))
    assert early.value.code == "phase.wrong"


# ---- deal E: one seat holds trumps 1-20; the discard decides; a Fuggitivo that never takes a trick --------
E_HANDS = (
    # seat 0, the dealer (20 dealt; the stock 4D 5D 6D is his too)
    ("T0", "KH", "KC", "QC", "NC", "JC", "TC", "9C", "8C", "7C",
     "6C", "5C", "KD", "QD", "ND", "JD", "TD", "9D", "8D", "7D"),
    tuple(f"T{n}" for n in range(1, 21)),
    ("FU", "KS", "QS", "NS", "JS", "TS", "9S", "8S", "7S", "6S",
     "5S", "QH", "NH", "JH", "TH", "9H", "8H", "7H", "6H", "5H"),
)  # fmt: skip
E_STOCK = ("4D", "5D", "6D")


def e_moves(discard: Sequence[str], fu_trick: int = 5) -> list[Move]:
    """Seat 1 leads T20 down to T1 and wins all 20 tricks; seat 2 plays the Fuggitivo to ``fu_trick``."""
    kept = [c for c in (*E_HANDS[0], *E_STOCK) if c not in discard]
    zero = ["T0"] + [c for c in kept if c != "T0"]  # the Miseria must go on the first trump lead
    two = [c for c in E_HANDS[2] if c != "FU"]
    two.insert(fu_trick - 1, "FU")
    tricks = [[(1, f"T{21 - k}"), (2, two[k - 1]), (0, zero[k - 1])] for k in range(1, 21)]
    return [
        Deal(hands=E_HANDS, stock=E_STOCK),
        Call(seat=2, call="vado"),
        Call(seat=None, call="close"),
        Exchange(seat=0, discard=tuple(discard)),
        *play(tricks),
    ]


def test_a_fuggitivo_whose_owner_never_takes_a_trick() -> None:
    # Seat 1 wins every trick: 59 cards (all but FU), counting cards all but FU: 83 - 9 = 74, + 59+1 // 3 =
    # 20 -> 94, + 5 last trick = 99 -> 99 - 36 = 63. Seat 2 keeps FU with no blank to pay: pile of 1 card,
    # (10 - 1) + (1+1)//3 = 9 -> 9 - 36 = -27. Dealer: discard 5C 6C 7C, 3 blanks = 1 -> 1 - 37 = -36.
    # 94 + 9 + 1 = 104; -36 + 63 - 27 = 0.
    moves = e_moves(("5C", "6C", "7C"))
    replayed = run(moves)
    assert replayed.verdicts == ()
    result = GAME.result(replayed.final)
    assert result.details["card_points"] == [1, 94, 9]
    assert result.scores == (-36, 63, -27)
    assert result.details["fuggitivo"] == {"owner": 2, "trick": 5, "winner": 1, "paid": None}
    assert result.details["piles"][2] == ["FU"]
    assert result.details["tricks_won"] == [0, 20, 0]
    assert GAME.result(run(GAME.moves_only(moves)).final).scores == (-36, 63, -27)


def test_the_fuggitivo_surrendered_when_it_cannot_be_paid() -> None:
    # Option surrender: FU goes to seat 1 too: 60 cards, 83 + 20 = 103, + 5 = 108 -> 72; seat 2 has 0 -> -36.
    result = result_of(e_moves(("5C", "6C", "7C")), {"fuggitivo_unpaid": "surrender"})
    assert result.details["card_points"] == [1, 103, 0]
    assert result.scores == (-36, 72, -36)
    assert result.details["fuggitivo"]["surrendered"] is True


def test_the_fuggitivo_on_the_last_trick() -> None:
    moves = e_moves(("5C", "6C", "7C"), fu_trick=20)
    # Default: kept by its owner on the last trick too, as in the deal above.
    assert result_of(moves).scores == (-36, 63, -27)
    # Option lost: it goes to the last trick's winner with no debt: the same numbers as a surrender.
    lost = result_of(moves, {"fuggitivo_last_trick": "lost"})
    assert lost.scores == (-36, 72, -36)
    assert lost.details["fuggitivo"]["lost"] is True


def test_the_dealers_discard_changes_the_result() -> None:
    # Discarding KH instead of 5C keeps the King (5) in the dealer's pile instead of losing it to seat 1.
    # Dealer: KH 6C 7C -> (5-1) + 1 = 5 -> 5 - 37 = -32. Seat 1: 74 - 4 = 70 + 60 // 3 = 20 -> 90, + 5 = 95
    # -> 59. Seat 2 unchanged: -27.  -32 + 59 - 27 = 0.
    blanks = result_of(e_moves(("5C", "6C", "7C")))
    king = result_of(e_moves(("KH", "6C", "7C")))
    assert blanks.scores == (-36, 63, -27)
    assert king.details["card_points"] == [5, 90, 9]
    assert king.scores == (-32, 59, -27)
    # The same two deals recorded without the cards: the discard is seen at the end and scored alike.
    assert GAME.result(run(GAME.moves_only(e_moves(("KH", "6C", "7C")))).final).scores == (-32, 59, -27)


def test_a_claim_leaves_the_fuggitivo_with_its_owner() -> None:
    moves = e_moves(("5C", "6C", "7C"))[: 4 + 3]  # after trick 1
    moves += [Claim(seat=1), ClaimResponse(seat=0, accept=True), ClaimResponse(seat=2, accept=True)]
    result = result_of(moves)
    assert result.scores == (-36, 63, -27)
    assert result.details["fuggitivo"] == {"owner": 2, "trick": None, "winner": 1, "paid": None}


# ---- the Cavallo (deal C) and the Fuggitivo against an obligation ------------------------------------
C_HANDS = (
    # seat 0, the dealer: clubs, coins, the Miseria and the Fuggitivo (stock 4D 5D 6D)
    ("KC", "QC", "NC", "JC", "TC", "9C", "8C", "7C", "6C", "5C",
     "KD", "QD", "ND", "JD", "TD", "9D", "8D", "7D", "T0", "FU"),
    ("NS", "7S", *(f"T{n}" for n in range(1, 19))),  # seat 1: the Cavallo of spades with one pip
    ("KS", "QS", "JS", "TS", "9S", "8S", "6S", "5S",
     "KH", "QH", "NH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "T19", "T20"),
)  # fmt: skip
C_START = [Deal(hands=C_HANDS, stock=("4D", "5D", "6D")), Call(seat=0, call="tengo")]


def test_the_cavallo_held_with_one_pip_must_be_played() -> None:
    state = run([*C_START, Exchange(seat=0, discard=("5C", "6C", "7C"))]).final
    lead = set(cards(state))
    assert "NS" in lead and "7S" not in lead
    step = GAME.apply(state, PlayCard(seat=1, card="7S"))
    assert [(v.rule, v.move_index) for v in step.verdicts] == [("tarocchi.cavallo", 3)]
    moves = [*C_START, Exchange(seat=0, discard=("5C", "6C", "7C")), PlayCard(seat=1, card="7S")]
    # Seat 2 must then play his King; seat 0, void in spades, must trump (or play the Fuggitivo).
    assert cards(step.state) == ["KS"]
    after = GAME.apply(step.state, PlayCard(seat=2, card="KS")).state
    assert set(cards(after)) == {"T0", "FU"}
    final = first_legal_to_end(step.state, moves)
    blind = run(GAME.moves_only(moves))
    assert keyed(blind.verdicts) == keyed(final.verdicts) == {("tarocchi.cavallo", 3, 1)}
    # Proved without the cards once seat 1 has played the Cavallo and no spade is left in any hand.
    ns = next(i for i, m in enumerate(moves) if isinstance(m, PlayCard) and m.card == "NS")
    assert blind.verdicts[0].proved_at is not None and blind.verdicts[0].proved_at >= ns


def test_the_fuggitivo_cannot_dodge_an_obligation() -> None:
    # Deal C with the Fuggitivo moved to seat 2: seat 1 opens spades with NS; seat 2 holds KS, so the King
    # rule binds him and the Fuggitivo may not replace it.
    hands = (
        tuple(c for c in C_HANDS[0] if c != "FU") + ("5H",),
        C_HANDS[1],
        tuple(c for c in C_HANDS[2] if c != "5H") + ("FU",),
    )
    start = [Deal(hands=hands, stock=("4D", "5D", "6D")), Call(seat=0, call="tengo")]
    start += [Exchange(seat=0, discard=("5C", "6C", "7C")), PlayCard(seat=1, card="NS")]
    state = run(start).final
    assert cards(state) == ["KS"]
    step = GAME.apply(state, PlayCard(seat=2, card="FU"))
    assert [v.rule for v in step.verdicts] == ["tarocchi.king"]
    moves = [*start, PlayCard(seat=2, card="FU")]
    final = first_legal_to_end(step.state, moves)
    assert keyed(run(GAME.moves_only(moves)).verdicts) == keyed(final.verdicts)
    # With the option on, the Fuggitivo may be played instead.
    free = run(start, {"fuggitivo_overrides_obligations": True}).final
    assert set(cards(free)) == {"KS", "FU"}


def test_fanta_scope_rest_of_deal() -> None:
    # Deal R, trick 6 (clubs, second time): the King of clubs fell in trick 3. Seat 0 holds JC: with the
    # default scope he may play any club; with rest_of_deal he owes the Fanta.
    before = r_moves()[: r_index(6, 1)]
    default = set(cards(run(before).final))
    assert default == {"QC", "NC", "JC", "TC"}
    scoped = run(before, {"fanta_rule_scope": "rest_of_deal"})
    assert cards(scoped.final) == ["JC"]
    # Deal R as played (QC in trick 6) breaks it then.
    assert keyed(run(r_moves(), {"fanta_rule_scope": "rest_of_deal"}).verdicts) == {
        ("tarocchi.fanta", r_index(6, 1), 0)
    }


def test_must_trump_when_void_can_be_switched_off() -> None:
    # Deal R, trick 3: seat 1 void in clubs. Without must_trump_when_void he may play 4D.
    before = r_moves()[: r_index(3, 2)]
    assert "4D" not in cards(run(before).final)
    assert "4D" in cards(run(before, {"must_trump_when_void": False}).final)


# Deal C2: deal C with T10 and T19 swapped, so that seat 1 can overtrump seat 2's T10.
C2_HANDS = (
    C_HANDS[0],
    ("NS", "7S", *(f"T{n}" for n in range(1, 20) if n != 10)),
    tuple("T10" if c == "T19" else c for c in C_HANDS[2]),
)
C2_START: list[Move] = [
    Deal(hands=C2_HANDS, stock=("4D", "5D", "6D")),
    Call(seat=0, call="tengo"),
    Exchange(seat=0, discard=("5C", "6C", "7C")),
    *play([[(1, "NS"), (2, "KS"), (0, "FU")], [(2, "T10"), (0, "T0")]]),  # seat 2 wins trick 1, leads T10
]


def test_must_overtrump() -> None:
    # Trick 2: T10 led, T0 on it; seat 1 holds T1..T9 and T11..T19. Off by default: any trump.
    trumps = {f"T{n}" for n in range(1, 20) if n != 10}
    assert set(cards(run(C2_START).final)) == trumps
    on = {"must_overtrump": True}
    state = run(C2_START, on).final
    assert set(cards(state)) == {f"T{n}" for n in range(11, 20)}
    step = GAME.apply(state, PlayCard(seat=1, card="T5"))
    assert [(v.rule, v.move_index) for v in step.verdicts] == [("tarocchi.must_overtrump", 8)]
    moves = [*C2_START, PlayCard(seat=1, card="T5")]
    final = first_legal_to_end(step.state, moves)
    blind = run(GAME.moves_only(moves), on)
    assert keyed(blind.verdicts) == keyed(final.verdicts) == {("tarocchi.must_overtrump", 8, 1)}
    # Proved by the first of T11..T19 that seat 1 plays afterwards.
    first_higher = next(
        i
        for i, m in enumerate(moves)
        if isinstance(m, PlayCard) and m.seat == 1 and m.card in trumps - {f"T{n}" for n in range(1, 10)}
    )
    assert blind.verdicts[0].proved_at == first_higher


def test_must_overtrump_on_a_trump_lead() -> None:
    # Deal R, trick 4: T20 led, seat 2 holds T1 and T4 (neither beats T20): no duty; seat 0 holds T0, T5.
    before = r_moves()[: r_index(4, 2)]
    state = run(before, {"must_overtrump": True}).final
    assert set(cards(state)) == {"T0", "T5"}
    # Deal C: seat 2 leads T19 after winning; seat 1 holds T1..T18: cannot beat, any trump.
    # Deal R, trick 7: T19 led; seat 2 plays T1; seat 0 with T5 need not beat T19 (cannot).
    state = run(r_moves()[: r_index(7, 2)], {"must_overtrump": True}).final
    assert cards(state) == ["T5"]


# ---- the auction --------------------------------------------------------------------------------------
def auction(calls: Sequence[Move], options: Mapping[str, Any] | None = None) -> TarocchiState:
    return run([Deal(hands=R_HANDS, stock=R_STOCK), *calls], options).final


def test_an_accepted_offer_is_paid() -> None:
    # Seat 1 offers 3, seat 2 takes it: seat 1 -3, seat 2 +3, the dealer 0.
    state = auction([Call(seat=1, call="offro", value=3), Call(seat=2, call="piglio", target=1)])
    assert state.over
    result = GAME.result(state)
    assert result.outcome == "abandoned"
    assert result.scores == (0, -3, 3)
    assert result.details["offer"] == {"offerer": 1, "accepter": 2, "value": 3}
    blind = replay(GAME, [Deal(hands=None), *state_calls(state)], seats=3, dealer=0)
    assert GAME.result(blind.final).scores == (0, -3, 3)


def state_calls(state: TarocchiState) -> list[Move]:
    return [Call(seat=c.seat, call=c.call, value=c.value, target=c.target) for c in state.calls]


def test_two_offers_only_the_one_taken_is_paid() -> None:
    # Seat 1 offers 2, the dealer offers 5; seat 2 takes the dealer's: 0 -5, 1 0, 2 +5.
    calls = [
        Call(seat=1, call="offro", value=2),
        Call(seat=0, call="offro", value=5),
        Call(seat=2, call="piglio", target=0),
    ]
    assert GAME.result(auction(calls)).scores == (-5, 0, 5)
    # Two offers and a tengo: the deal is played and both offers lapse.
    played = auction([*calls[:2], Call(seat=2, call="tengo")])
    assert played.phase == "discard" and not played.over
    assert len(played.hands.hand(0)) == 23


def test_three_pessimists_throw_the_deal_in_free() -> None:
    calls = [Call(seat=1, call="vado"), Call(seat=0, call="offro", value=4), Call(seat=2, call="vado")]
    state = auction(calls)
    assert state.over and GAME.result(state).scores == (0, 0, 0)
    assert GAME.result(state).details["abandon"] == "free"
    # offers_only: vado carries no weight; nobody took the offer, so the deal is played.
    assert auction(calls, {"abandon_rule": "offers_only"}).phase == "discard"


def test_closing_the_auction() -> None:
    # Unanimous (default): a vado and then silence: played.
    assert auction([Call(seat=1, call="vado"), Call(seat=None, call="close")]).phase == "discard"
    # silence_consents: the same is a free abandonment.
    vado_close = [Call(seat=1, call="vado"), Call(seat=None, call="close")]
    silent = auction(vado_close, {"abandon_rule": "silence_consents"})
    assert silent.over and GAME.result(silent).scores == (0, 0, 0)
    # Nobody speaking at all: played under every rule.
    for rule in ("unanimous", "silence_consents", "offers_only"):
        assert auction([Call(seat=None, call="close")], {"abandon_rule": rule}).phase == "discard"


def test_calls_that_cannot_be_made() -> None:
    dealt = auction([])
    offered = GAME.apply(dealt, Call(seat=1, call="offro", value=3)).state
    cases: list[tuple[TarocchiState, Call, str]] = [
        (dealt, Call(seat=1, call="piglio", target=2), "tarocchi.no_offer"),
        (offered, Call(seat=1, call="tengo"), "turn.wrong"),  # each seat speaks once
        (offered, Call(seat=2, call="piglio"), "tarocchi.piglio_target"),
        (offered, Call(seat=2, call="piglio", target=0), "tarocchi.no_offer"),
        (GAME.apply(offered, Call(seat=2, call="vado")).state, Call(seat=0, call="piglio", target=0),
         "tarocchi.own_offer"),
        (dealt, Call(seat=1, call="offro"), "tarocchi.offer_value"),
        (dealt, Call(seat=1, call="offro", value=0), "tarocchi.offer_value"),
        (dealt, Call(seat=1, call="passo"), "tarocchi.call_unknown"),
        (dealt, Call(seat=1, call="close"), "tarocchi.call_seat"),
        (dealt, Call(seat=None, call="tengo"), "tarocchi.call_seat"),
        (dealt, Call(seat=1, call="vado", value=2), "tarocchi.call_field"),
        (dealt, Call(seat=1, call="tengo", target=2), "tarocchi.call_field"),
    ]  # fmt: skip
    for state, call, code in cases:
        with pytest.raises(ImpossibleMove) as err:
            GAME.apply(state, call)
        assert err.value.code == code, call
    # Everybody has spoken, all pessimistic: thrown in free at once.
    vado = GAME.apply(offered, Call(seat=2, call="vado")).state
    last = GAME.apply(vado, Call(seat=0, call="offro", value=1))
    assert last.state.over and last.state.auction == "abandoned_free"


def test_offers_above_ten_and_the_cap() -> None:
    dealt = auction([])
    step = GAME.apply(dealt, Call(seat=1, call="offro", value=12))
    assert [v.rule for v in step.verdicts] == ["tarocchi.offer_high"]
    assert not any(m.value and m.value > 10 for m in GAME.legal_moves(dealt))
    capped = auction([], {"max_offer": 8})
    with pytest.raises(ImpossibleMove) as err:
        GAME.apply(capped, Call(seat=1, call="offro", value=9))
    assert err.value.code == "tarocchi.offer_cap"
    assert max(m.value or 0 for m in GAME.legal_moves(capped)) == 8


def test_the_auction_offers_every_call_to_those_who_have_not_spoken() -> None:
    offered = auction([Call(seat=1, call="offro", value=3)])
    legal = GAME.legal_moves(offered)
    assert Call(seat=None, call="close") in legal
    assert Call(seat=2, call="piglio", target=1) in legal and Call(seat=0, call="piglio", target=1) in legal
    assert not any(isinstance(m, Call) and m.seat == 1 for m in legal)
    assert len(legal) == 2 * (1 + 10 + 1 + 1) + 1
    assert GAME.to_act(offered) == frozenset({0, 2})


# ---- counting ----------------------------------------------------------------------------------------
def test_counting_in_threes() -> None:
    assert card_points(["5S", "6S", "7S"]) == 1  # three blanks
    assert card_points(["KS", "6S", "7S"]) == 5  # one counting card: its value
    assert card_points(["KS", "QS", "7S"]) == 8  # two: 5 + 4 - 1
    assert card_points(["KS", "QS", "NS"]) == 10  # three: 5 + 4 + 3 - 2
    assert card_points(["FU"]) == 9  # a pile of one rounds down: 10 - 1
    assert card_points(["T20", "T1"]) == 19  # 3k + 2 rounds up: 9 + 9 + 1
    assert card_points(GAME.deck.cards) == 104


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOptions):
        GAME.initial_state({"discard_forbidden": ["ZZ"]}, seats=3, dealer=0)
    with pytest.raises(InvalidOptions):
        GAME.initial_state({"max_offer": "eight"}, seats=3, dealer=0)
    with pytest.raises(InvalidOptions):
        GAME.initial_state({"abandon_rule": "majority"}, seats=3, dealer=0)
    state = GAME.initial_state({"discard_forbidden": ["KS", "FU", "KS"]}, seats=3, dealer=0)
    assert state.options["discard_forbidden"] == ("KS", "FU")


def test_the_next_dealer_is_on_the_right() -> None:
    assert GAME.next_dealer({}, 3, 0, None) == 1
    assert GAME.next_dealer({}, 3, 2, None) == 0


# ---- the match ----------------------------------------------------------------------------------------
def test_the_match_sheet() -> None:
    r = result_of(r_moves())  # -33, 46, -13 (dealer 0)
    offer = GAME.result(auction([Call(seat=1, call="offro", value=3), Call(seat=2, call="piglio", target=1)]))
    free = GAME.result(auction([Call(seat=s, call="vado") for s in (1, 0, 2)]))
    match = GAME.match_result({"deals": 3}, 3, [r, offer, free])
    # Totals: -33 + 0 + 0 = -33; 46 - 3 + 0 = 43; -13 + 3 + 0 = -10.
    assert match.totals == (-33, 43, -10)
    assert match.finished and match.winners == (1,)
    assert [row["totals"] for row in match.rows] == [[-33, 46, -13], [-33, 43, -10], [-33, 43, -10]]
    assert match.rows[0]["points"] == [4, 82, 23] and match.rows[0]["offsets"] == [-37, -36, -36]
    assert match.rows[1]["points"] is None and match.rows[1]["offer"]["value"] == 3
    # Abandoned deals not counted: three results are only one deal of three.
    loose = GAME.match_result({"deals": 3, "abandoned_deals_count": False}, 3, [r, offer, free])
    assert not loose.finished and loose.winners == () and loose.details["deals_counted"] == 1
    assert loose.totals == match.totals
    # Default: 12 deals.
    assert not GAME.match_result({}, 3, [r, offer, free]).finished
    staked = GAME.match_result({"deals": 1, "stake_per_point": 2}, 3, [r])
    assert staked.details["settlement"] == [-66, 92, -26]


def test_equal_totals_share_the_win() -> None:
    offer = GAME.result(auction([Call(seat=1, call="offro", value=3), Call(seat=2, call="piglio", target=1)]))
    back = GAME.result(auction([Call(seat=2, call="offro", value=3), Call(seat=1, call="piglio", target=2)]))
    match = GAME.match_result({"deals": 2}, 3, [offer, back])
    assert match.totals == (0, 0, 0) and match.winners == (0, 1, 2)
