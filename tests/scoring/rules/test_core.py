"""The engine core on its own: cards and their names, moves and their dict form, options, holdings,
trick winners, and the claim flow (run on Tressette, the first game built on the core)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from scoring.rules import get_game
from scoring.rules.cards import FRENCH_52, LATIN_40, SICILIAN_63, rank_of, suit_of
from scoring.rules.core import Holdings, jsonable, replay, score_str
from scoring.rules.errors import ImpossibleMove, InvalidOptions, MalformedMove
from scoring.rules.moves import (
    Call,
    Choose,
    Claim,
    ClaimResponse,
    Deal,
    Declare,
    Exchange,
    Move,
    PassCards,
    PlayCard,
    move_from_dict,
    move_to_dict,
)
from scoring.rules.options import Option, Ruleset
from scoring.rules.tricks import Trick, TrickPlay, ranked, winner_of, with_trumps

# ---- cards ------------------------------------------------------------------------------------------


def test_deck_sizes() -> None:
    assert len(FRENCH_52) == 52 and len(set(FRENCH_52.cards)) == 52
    assert len(LATIN_40) == 40 and len(set(LATIN_40.cards)) == 40
    assert len(SICILIAN_63) == 63 and len(set(SICILIAN_63.cards)) == 63


def test_card_codes_are_rank_then_suit() -> None:
    assert {"QS", "TH", "2C", "AD"} <= set(FRENCH_52.cards)
    assert "1S" not in FRENCH_52 and "TS" not in LATIN_40 and "8S" not in LATIN_40
    assert {"AS", "7H", "JD", "QC", "KS"} <= set(LATIN_40.cards)
    # Sicilian: 5-K with a Cavallo N, the 4 only in denari/ori, 21 numbered trumps and the Fuggitivo.
    assert "4D" in SICILIAN_63 and "4S" not in SICILIAN_63 and "AS" not in SICILIAN_63
    assert {"NS", "T0", "T20", "FU"} <= set(SICILIAN_63.cards) and "T21" not in SICILIAN_63
    assert rank_of("QS") == "Q" and suit_of("QS") == "S" and rank_of("TH") == "T"
    assert suit_of("T12") == "T" and suit_of("FU") == "T" and suit_of("T0") == "T"


def test_an_unknown_code_is_a_keying_error_naming_the_field() -> None:
    with pytest.raises(ImpossibleMove) as unknown:
        LATIN_40.check("8S", field="cards")
    assert unknown.value.code == "card.unknown" and unknown.value.field == "cards"
    with pytest.raises(MalformedMove) as not_a_code:
        LATIN_40.check(7)
    assert not_a_code.value.code == "move.malformed" and not_a_code.value.field == "card"


@pytest.mark.parametrize(
    ("deck", "card", "lang", "name"),
    [
        (LATIN_40, "KH", "it", "Re di coppe"),
        (LATIN_40, "KH", "fr", "Roi de cœur"),
        (LATIN_40, "KH", "en", "King of cups"),
        (LATIN_40, "AD", "it", "Asso di denari"),
        (LATIN_40, "QS", "it", "Cavallo di spade"),
        (LATIN_40, "QS", "fr", "Cavalier de pique"),
        (LATIN_40, "QC", "en", "Knight of batons"),
        (LATIN_40, "JC", "fr", "Valet de trèfle"),
        (FRENCH_52, "QS", "it", "Donna di picche"),
        (FRENCH_52, "QS", "fr", "Dame de pique"),
        (FRENCH_52, "TH", "en", "Ten of hearts"),
        (SICILIAN_63, "NS", "it", "Cavallo di spade"),
        (SICILIAN_63, "JD", "it", "Donna di ori"),
        (SICILIAN_63, "QS", "fr", "Dame d'épées"),
        (SICILIAN_63, "T0", "it", "Miseria"),
        (SICILIAN_63, "T20", "fr", "Atout 20"),
        (SICILIAN_63, "FU", "en", "Fool"),
    ],
)
def test_display_names_in_three_languages(deck: Any, card: str, lang: str, name: str) -> None:
    assert deck.name_of(card, lang) == name


def test_display_names_refuse_an_unknown_language_or_card() -> None:
    with pytest.raises(ValueError):
        LATIN_40.name_of("KH", "de")
    with pytest.raises(ImpossibleMove):
        LATIN_40.name_of("TH")


def test_decks_sort_in_their_canonical_order() -> None:
    assert LATIN_40.sort(["KS", "AS", "3H", "2S"]) == ("AS", "2S", "KS", "3H")


# ---- moves ------------------------------------------------------------------------------------------
MOVES: list[Move] = [
    Deal(hands=(("AS", "2S"), ("3S", "4S")), stock=("5S",)),
    Deal(hands=None),
    PlayCard(seat=0, card="3S"),
    Call(seat=1, call="offro", value=3, target=2, suit="H"),
    Call(seat=2, call="pass"),
    Exchange(seat=0, discard=("4S", "5S"), take=("6S", "7S")),
    Exchange(seat=0, discard=("4S",), count=1),
    PassCards(seat=3, cards=("2H", "3H", "4H")),
    Declare(seat=0, combination="napoletana", cards=("AD", "2D", "3D")),
    Choose(seat=1, choice="contract", value="barbu"),
    Claim(seat=2),
    Claim(seat=2, tricks=3),
    Claim(seat=2, split=(6, 5)),
    ClaimResponse(seat=1, accept=False),
]


@pytest.mark.parametrize("move", MOVES, ids=lambda m: m.kind)
def test_moves_survive_their_dict_form(move: Move) -> None:
    data = move_to_dict(move)
    assert data["type"] == move.kind
    assert move_from_dict(data) == move


def test_the_dict_form_leaves_defaults_out() -> None:
    assert move_to_dict(PlayCard(seat=0, card="3S")) == {"type": "play", "seat": 0, "card": "3S"}
    assert move_to_dict(Claim(seat=1)) == {"type": "claim", "seat": 1}
    assert move_to_dict(Deal(hands=(("AS",),))) == {"type": "deal", "seat": None, "hands": [["AS"]]}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([1, 2], "move"),
        ({"type": "jump", "seat": 0}, "type"),
        ({"seat": 0, "card": "3S"}, "type"),
        ({"type": "play", "seat": "zero", "card": "3S"}, "seat"),
        ({"type": "play", "seat": True, "card": "3S"}, "seat"),
        ({"type": "play", "seat": 0}, "card"),
        ({"type": "play", "seat": 0, "card": 3}, "card"),
        ({"type": "play", "seat": 0, "card": "3S", "colour": "red"}, "colour"),
        ({"type": "declare", "seat": 0, "combination": "napoletana", "cards": "AD 2D 3D"}, "cards"),
        ({"type": "declare", "seat": 0, "cards": ["AD", "2D", "3D"]}, "combination"),
        ({"type": "deal", "hands": "AS"}, "hands"),
        ({"type": "deal", "hands": [["AS", 2]]}, "hands"),
        ({"type": "claim", "seat": 0, "split": [6, "5"]}, "split"),
        ({"type": "claim", "seat": 0, "split": 6}, "split"),
        ({"type": "claim", "seat": 0, "tricks": 2.5}, "tricks"),
        ({"type": "claim_response", "seat": 1, "accept": "yes"}, "accept"),
        ({"type": "call", "seat": 1, "call": "offro", "value": "3"}, "value"),
    ],
)
def test_a_malformed_move_names_the_field(data: Any, field: str) -> None:
    with pytest.raises(MalformedMove) as err:
        move_from_dict(data)
    assert err.value.code == "move.malformed"
    assert err.value.field == field
    assert err.value.as_dict()["field"] == field


def test_choose_keeps_a_string_value() -> None:
    assert move_from_dict({"type": "choose", "seat": 0, "choice": "trump", "value": "H"}) == Choose(
        seat=0, choice="trump", value="H"
    )


# ---- options ----------------------------------------------------------------------------------------
RULESET = Ruleset(
    (
        Option("target", 31, "points to win", kind=int, minimum=1),
        Option("rounding", "seed", "how to round", choices=("seed", "traditional")),
        Option("fast", False, "a flag", kind=bool),
        Option("doubling", False, "held for another ruleset", choices=(False,)),
    )
)


def test_options_fill_in_defaults_and_gain_strict() -> None:
    assert RULESET.validate(None) == {
        "target": 31,
        "rounding": "seed",
        "fast": False,
        "doubling": False,
        "strict": False,
    }
    assert RULESET.validate({"target": 21, "strict": True})["target"] == 21
    assert [o["name"] for o in RULESET.describe()] == ["target", "rounding", "fast", "doubling", "strict"]


@pytest.mark.parametrize(
    ("given", "code", "field"),
    [
        ({"colour": "red"}, "options.unknown", "colour"),
        ({"rounding": "up"}, "options.invalid", "rounding"),
        ({"target": True}, "options.invalid", "target"),
        ({"target": "31"}, "options.invalid", "target"),
        ({"target": 0}, "options.invalid", "target"),
        ({"fast": 1}, "options.invalid", "fast"),
        ({"strict": "yes"}, "options.invalid", "strict"),
        ({"doubling": 0}, "options.invalid", "doubling"),
    ],
)
def test_options_are_validated_naming_the_option(given: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        RULESET.validate(given)
    assert (err.value.code, err.value.field) == (code, field)


def test_a_nullable_option_takes_null_and_still_checks_a_number() -> None:
    cap = Ruleset((Option("cap", None, "a limit, or null for none", kind=int, minimum=1, nullable=True),))
    assert cap.validate({"cap": None})["cap"] is None
    assert cap.validate({"cap": 8})["cap"] == 8
    for bad in (0, True, "8"):
        with pytest.raises(InvalidOptions) as err:
            cap.validate({"cap": bad})
        assert (err.value.code, err.value.field) == ("options.invalid", "cap")
    with pytest.raises(InvalidOptions):
        RULESET.validate({"target": None})  # not nullable: null is refused


def test_a_game_refuses_bad_options_seats_and_dealer() -> None:
    game = get_game("tressette")
    with pytest.raises(InvalidOptions) as opt:
        game.initial_state({"rounding": "up"}, seats=4, dealer=0)
    assert opt.value.field == "rounding"
    with pytest.raises(ImpossibleMove) as seats:
        game.initial_state(None, seats=5, dealer=0)
    assert seats.value.code == "seats.count"
    with pytest.raises(ImpossibleMove) as dealer:
        game.initial_state(None, seats=4, dealer=4)
    assert (dealer.value.code, dealer.value.field) == ("seat.unknown", "dealer")


# ---- holdings ---------------------------------------------------------------------------------------
DECK = frozenset({"AS", "2S", "3S", "4S", "5S", "6S"})
KNOWN = Holdings(
    deck=DECK,
    counts=(2, 2),
    hands=(frozenset({"AS", "2S"}), frozenset({"3S", "4S"})),
    gone=frozenset({"5S"}),
    stock=frozenset({"6S"}),
)
BLIND = Holdings(deck=DECK, counts=(2, 0), gone=frozenset({"5S"}))


@pytest.mark.parametrize(
    ("holdings", "seat", "card", "code"),
    [
        (KNOWN, 0, "7S", "card.unknown"),
        (KNOWN, 0, "5S", "card.gone"),
        (KNOWN, 0, "3S", "card.not_held"),
        (KNOWN, 0, "6S", "card.not_held"),
        (BLIND, 0, "5S", "card.gone"),
        (BLIND, 1, "AS", "hand.empty"),
    ],
)
def test_holdings_refuse_cards_a_seat_cannot_hold(
    holdings: Holdings, seat: int, card: str, code: str
) -> None:
    with pytest.raises(ImpossibleMove) as err:
        holdings.check_holds(seat, card)
    assert err.value.code == code


def test_the_recorded_deal_names_the_seat_that_holds_the_card() -> None:
    with pytest.raises(ImpossibleMove) as err:
        KNOWN.check_holds(0, "4S")
    assert "seat 1" in err.value.message


def test_holdings_remove_and_add() -> None:
    after = KNOWN.remove(0, ["AS"])
    assert after.hands is not None and after.hands[0] == {"2S"} and after.counts == (1, 2)
    assert "AS" in after.gone
    with pytest.raises(ImpossibleMove) as twice:
        KNOWN.remove(0, ["AS", "AS"])
    assert twice.value.code == "card.repeated"
    with pytest.raises(ImpossibleMove) as too_many:
        BLIND.remove(0, ["AS", "2S", "3S"])
    assert too_many.value.code == "hand.count"
    blind_after = BLIND.remove(0, ["AS"])
    assert blind_after.counts == (1, 0) and blind_after.hands is None
    given = KNOWN.add(1, ["6S"])
    assert given.hands is not None and "6S" in given.hands[1] and "6S" not in given.stock
    assert BLIND.add(1, [], count=3).counts == (2, 3)
    with pytest.raises(AssertionError):
        BLIND.hand(0)


# ---- tricks -----------------------------------------------------------------------------------------
TRESSETTE_ORDER = ("4", "5", "6", "7", "J", "Q", "K", "A", "2", "3")
FRENCH_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


def test_winner_without_trumps_is_the_highest_of_the_suit_led() -> None:
    strength = ranked(TRESSETTE_ORDER)
    assert winner_of([(0, "KD"), (1, "3H"), (2, "AD"), (3, "2S")], strength) == 2  # 3H and 2S are off suit
    assert winner_of([(1, "4C"), (2, "5C"), (3, "3D"), (0, "7C")], strength) == 0
    assert winner_of([(0, "2S"), (1, "3S")], strength) == 1  # 3 beats 2 beats Ace in Tressette
    # ``led`` names the card that sets the suit when it is not the first one played.
    assert winner_of([(0, "KD"), (1, "4H")], strength, led="4H") == 1


def test_winner_with_trumps() -> None:
    strength = with_trumps(FRENCH_ORDER, "H")
    assert winner_of([(0, "AS"), (1, "2H"), (2, "KS")], strength) == 1
    assert winner_of([(0, "AS"), (1, "2H"), (2, "3H")], strength) == 2
    assert winner_of([(0, "5S"), (1, "AD"), (2, "9S")], strength) == 2
    no_trump = with_trumps(FRENCH_ORDER, None)
    assert winner_of([(0, "5S"), (1, "2H"), (2, "9S")], no_trump) == 2


def test_trick_play_closes_tricks_and_hands_the_lead_to_the_winner() -> None:
    strength = ranked(TRESSETTE_ORDER)
    play = TrickPlay.start(3, leader=1)
    for seat, card in ((1, "KD"), (2, "AD"), (0, "4S")):
        assert play.to_play() == seat
        play = play.play(seat, card, strength)
    assert play.number == 2 and play.leading and play.to_play() == 2
    assert play.last == Trick(number=1, leader=1, plays=((1, "KD"), (2, "AD"), (0, "4S")), winner=2)
    assert play.captured(2) == ("KD", "AD", "4S") and play.tricks_won(2) == 1 and play.tricks_won(0) == 0
    play = play.play(2, "3C", strength)
    assert play.led_suits() == {"D", "C"}
    with pytest.raises(AssertionError):
        play.play(2, "2C", strength)


# ---- small helpers ----------------------------------------------------------------------------------
def test_scores_and_details_become_json_friendly() -> None:
    assert score_str(Fraction(22, 3)) == "22/3" and score_str(Fraction(6, 3)) == 2 and score_str(5) == 5
    details = {"a": (1, Fraction(1, 3)), "b": frozenset({"y", "x"})}
    assert jsonable(details) == {"a": [1, "1/3"], "b": ["x", "y"]}


# ---- the claim flow, on Tressette -------------------------------------------------------------------
# Seat 0 (after dealer 3) holds every denari: leading them, he takes every trick he leads.
HANDS = (
    ("AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD", "QD", "KD"),
    ("AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH", "KH"),
    ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KS"),
    ("AC", "2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC", "KC"),
)
TRESSETTE = get_game("tressette")


def _first_trick() -> list[Move]:
    return [
        Deal(hands=HANDS),
        PlayCard(seat=0, card="3D"),
        PlayCard(seat=1, card="4H"),
        PlayCard(seat=2, card="4S"),
        PlayCard(seat=3, card="4C"),
    ]


def test_only_the_player_on_lead_between_tricks_may_claim() -> None:
    state = replay(TRESSETTE, _first_trick(), seats=4, dealer=3).final
    assert TRESSETTE.can_claim(state, 0) and not TRESSETTE.can_claim(state, 1)
    with pytest.raises(ImpossibleMove) as not_lead:
        TRESSETTE.apply(state, Claim(seat=1))
    assert not_lead.value.code == "claim.not_allowed"
    mid = TRESSETTE.apply(state, PlayCard(seat=0, card="2D")).state
    with pytest.raises(ImpossibleMove) as mid_trick:
        TRESSETTE.apply(mid, Claim(seat=1))
    assert mid_trick.value.code == "claim.not_allowed"
    with pytest.raises(ImpossibleMove) as no_claim:
        TRESSETTE.apply(state, ClaimResponse(seat=1, accept=True))
    assert no_claim.value.code == "claim.none"


def test_an_accepted_claim_ends_the_hand_with_the_split_claimed() -> None:
    state = replay(TRESSETTE, [*_first_trick(), Claim(seat=0)], seats=4, dealer=3).final
    assert state.claim == Claim(seat=0)
    assert set(TRESSETTE.legal_moves(state)) == {
        ClaimResponse(seat=s, accept=a) for s in (1, 2, 3) for a in (True, False)
    }
    assert TRESSETTE.to_act(state) == {1, 2, 3}
    with pytest.raises(ImpossibleMove) as blocked:
        TRESSETTE.apply(state, PlayCard(seat=0, card="2D"))
    assert blocked.value.code == "claim.pending"
    with pytest.raises(ImpossibleMove) as own:
        TRESSETTE.apply(state, ClaimResponse(seat=0, accept=True))
    assert own.value.code == "turn.wrong"
    state = TRESSETTE.apply(state, ClaimResponse(seat=1, accept=True)).state
    with pytest.raises(ImpossibleMove) as twice:
        TRESSETTE.apply(state, ClaimResponse(seat=1, accept=True))
    assert twice.value.code == "turn.wrong"
    assert not state.over and TRESSETTE.to_act(state) == {2, 3}
    for seat in (2, 3):
        state = TRESSETTE.apply(state, ClaimResponse(seat=seat, accept=True)).state
    assert state.over and state.settled_claim == Claim(seat=0) and state.verdicts == ()
    result = TRESSETTE.result(state)
    # Seats 0+2 take all 32 thirds and the last trick: 33 thirds, 11 points; 1+3 nothing.
    assert result.details["side_thirds"] == [33, 0]
    assert result.team_scores == (11, 0)


def test_a_disputed_claim_is_recorded_and_play_goes_on() -> None:
    moves = [
        *_first_trick(),
        Claim(seat=0),
        ClaimResponse(seat=1, accept=True),
        ClaimResponse(seat=3, accept=False),
    ]
    game = replay(TRESSETTE, moves, seats=4, dealer=3)
    state = game.final
    claim_index = len(_first_trick())
    assert [(v.rule, v.seat, v.move_index) for v in game.verdicts] == [("claim.disputed", 0, claim_index)]
    assert state.claim is None and state.disputed_claims == (Claim(seat=0),) and not state.over
    assert TRESSETTE.apply(state, PlayCard(seat=0, card="2D")).verdicts == ()
