"""The shared Ombre card logic: layouts card by card, the matador privilege, the revoke check."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import ombre
from scoring.rules.cards import LATIN_40
from scoring.rules.core import HandState, Holdings, Verdict
from scoring.rules.tricks import winner_of

from .playout import examples

# ---- the layouts, written out by hand from the rules file's tables (§3) -----------------------------

TRUMPS = {
    "S": "AS 2S AC KS QS JS 7S 6S 5S 4S 3S",
    "C": "AS 2C AC KC QC JC 7C 6C 5C 4C 3C",
    "H": "AS 7H AC AH KH QH JH 2H 3H 4H 5H 6H",
    "D": "AS 7D AC AD KD QD JD 2D 3D 4D 5D 6D",
}
PLAIN = {
    "S": "KS QS JS 7S 6S 5S 4S 3S 2S",
    "C": "KC QC JC 7C 6C 5C 4C 3C 2C",
    "H": "KH QH JH AH 2H 3H 4H 5H 6H 7H",
    "D": "KD QD JD AD 2D 3D 4D 5D 6D 7D",
}


@pytest.mark.parametrize("trump", ["S", "C", "H", "D"])
def test_the_trump_order_is_the_rules_files_card_by_card(trump: str) -> None:
    assert ombre.trump_order(trump) == tuple(TRUMPS[trump].split())


def test_black_suits_have_eleven_trumps_and_red_twelve() -> None:
    assert [len(ombre.trump_order(s)) for s in "SCHD"] == [11, 11, 12, 12]


def test_the_coppe_list_has_the_re_di_coppe_the_seed_forgot() -> None:
    # HI-KH: the seed skips KH; it sits between the punto AH and the Cavallo QH.
    order = ombre.trump_order("H")
    assert order[3:6] == ("AH", "KH", "QH")


@pytest.mark.parametrize("trump", ["S", "C", "H", "D"])
def test_the_layout_places_every_card_exactly_once(trump: str) -> None:
    lay = ombre.layout(trump)
    assert set(lay) == {"T"} | set("SCHD") - {trump}
    assert lay["T"] == tuple(TRUMPS[trump].split())
    for suit in set("SCHD") - {trump}:
        assert lay[suit] == tuple(PLAIN[suit].split())
    every = [c for order in lay.values() for c in order]
    assert sorted(every) == sorted(LATIN_40.cards)
    # 11 + 9 + 10 + 10 for a black trump, 12 + 9 + 9 + 10 for a red one
    sizes = sorted(len(o) for o in lay.values())
    assert sizes == ([9, 10, 10, 11] if trump in "SC" else [9, 9, 10, 12])


def test_the_black_aces_are_never_in_their_printed_suit() -> None:
    for trump in "SCHD":
        for ace in ("AS", "AC"):
            assert ombre.is_trump(ace, trump)
            assert ombre.effective_suit(ace, trump) == "T"
        for suit in set("SCHD") - {trump}:
            assert "AS" not in ombre.plain_order(suit, trump)
            assert "AC" not in ombre.plain_order(suit, trump)
    assert ombre.effective_suit("KS", "H") == "S"
    assert ombre.effective_suit("KH", "H") == "T"


def test_the_natural_plain_order_puts_the_red_ace_last() -> None:
    assert ombre.plain_order("H", "S", natural=True) == (
        "KH",
        "QH",
        "JH",
        "7H",
        "6H",
        "5H",
        "4H",
        "3H",
        "2H",
        "AH",
    )
    assert ombre.plain_order("S", "H", natural=True) == tuple(PLAIN["S"].split())


def test_plain_order_of_the_trump_suit_is_refused() -> None:
    with pytest.raises(ValueError):
        ombre.plain_order("H", "H")
    with pytest.raises(ValueError):
        ombre.trump_order("X")


def test_named_cards() -> None:
    assert [ombre.manille(s) for s in "SCHD"] == ["2S", "2C", "7H", "7D"]
    assert [ombre.punto(s) for s in "SCHD"] == [None, None, "AH", "AD"]


def test_matadors_three_and_four() -> None:
    assert ombre.matadors("S", 3) == ("AS", "2S", "AC")
    assert ombre.matadors("S", 4) == ("AS", "2S", "AC", "KS")
    assert ombre.matadors("C", 4) == ("AS", "2C", "AC", "KC")
    assert ombre.matadors("H", 4) == ("AS", "7H", "AC", "AH")
    assert ombre.matadors("D", 3) == ("AS", "7D", "AC")
    with pytest.raises(ValueError):
        ombre.matadors("D", 5)


# ---- trick winner ---------------------------------------------------------------------------------


def test_a_low_trump_beats_the_king_led_and_black_aces_are_trumps() -> None:
    s = ombre.strength("H")
    assert winner_of([(0, "KS"), (1, "6H"), (2, "QS")], s) == 1  # 6H is the lowest heart trump
    assert winner_of([(0, "KS"), (1, "AC"), (2, "6H")], s) == 1  # basto, a trump, beats 6H
    assert winner_of([(0, "KS"), (1, "AS"), (2, "7H")], s) == 1  # spadille over the manille


def test_red_plain_pips_run_upwards() -> None:
    s = ombre.strength("S")
    assert winner_of([(0, "7H"), (1, "2H"), (2, "AH")], s) == 2  # AH > 2H > 7H in a plain red suit
    assert winner_of([(0, "5D"), (1, "KH"), (2, "6D")], s) == 0  # off-suit king cannot win
    assert winner_of([(0, "2C"), (1, "7C"), (2, "KD")], s) == 1  # black plain: 7 > 2


# ---- the matador privilege (§7) -------------------------------------------------------------------
# Trump coppe (H): order AS 7H AC AH KH … ; matadors AS 7H AC (+ AH with 4).


def opts(hand: str, led: str, n: int, trump: str = "H") -> set[str]:
    return set(ombre.follow_options(hand.split(), [led], trump, n))


@pytest.mark.parametrize("n", [3, 4])
def test_plain_trump_led_frees_a_hand_of_only_matadors(n: int) -> None:
    # 3H led (not a matador): AS and AC are privileged; no forceable trump: any card.
    assert opts("AS AC KS 5D", "3H", n) == {"AS", "AC", "KS", "5D"}


@pytest.mark.parametrize("n", [3, 4])
def test_plain_trump_led_with_an_ordinary_trump_forces_a_trump_any_trump(n: int) -> None:
    # 2H is forceable: must play a trump, but may choose the matador AS.
    assert opts("AS 2H KS", "3H", n) == {"AS", "2H"}


def test_the_punto_is_privileged_only_with_four_matadors() -> None:
    # AH alone against a 3H lead: with 4 matadors a privileged matador, with 3 an ordinary trump.
    assert opts("AH KS", "3H", 4) == {"AH", "KS"}
    assert opts("AH KS", "3H", 3) == {"AH"}


@pytest.mark.parametrize("n", [3, 4])
def test_a_lower_matador_led_forces_nothing_from_a_higher_one(n: int) -> None:
    # AC (basto) led; AS and 7H rank above it: privileged, any card.
    assert opts("AS 7H KS", "AC", n) == {"AS", "7H", "KS"}


@pytest.mark.parametrize("n", [3, 4])
def test_a_higher_matador_led_forces_a_lower_one(n: int) -> None:
    # AS led: the manille 7H is below it and must be played (it is the only trump).
    assert opts("7H KS 4D", "AS", n) == {"7H"}
    # 7H led: AC is below it, AS above; holding both, a trump is due and either may go.
    assert opts("AS AC KS", "7H", n) == {"AS", "AC"}


def test_the_fourth_matador_is_forced_by_a_higher_one_led() -> None:
    # AC led, holding the punto AH: forceable under both counts (a lower matador, or an ordinary trump).
    assert opts("AH KS", "AC", 4) == {"AH"}
    assert opts("AH KS", "AC", 3) == {"AH"}
    # AH led with 4 matadors: only AS, 7H, AC are above it; KH is ordinary.
    assert opts("AS KS", "AH", 4) == {"AS", "KS"}
    assert opts("AS KH KS", "AH", 4) == {"AS", "KH"}


def test_a_black_trump_king_is_a_matador_only_with_four() -> None:
    # Trump spade, 3S led: KS privileged with 4, forceable with 3.
    assert set(ombre.follow_options(["KS", "5D"], ["3S"], "S", 4)) == {"KS", "5D"}
    assert set(ombre.follow_options(["KS", "5D"], ["3S"], "S", 3)) == {"KS"}


def test_only_the_card_led_counts() -> None:
    # 3H led, AS played second: the third player's lone AC is still privileged against 3H.
    assert set(ombre.follow_options(["AC", "KS"], ["3H", "AS"], "H", 3)) == {"AC", "KS"}


def test_plain_suit_led_excludes_the_black_ace() -> None:
    # KS led (spade plain under coppe trump): AS is not a spade; void in spades means any card.
    assert set(ombre.follow_options(["AS", "4D"], ["KS"], "H", 4)) == {"AS", "4D"}
    assert set(ombre.follow_options(["AS", "2S", "4D"], ["KS"], "H", 4)) == {"2S"}
    # leading: anything
    assert set(ombre.follow_options(["AS", "2S"], [], "H", 4)) == {"AS", "2S"}


def test_revoke_rule_names_the_broken_rule() -> None:
    assert ombre.revoke_rule(["2S", "4D"], "4D", ["KS"], "H", 4) == "follow_suit"
    assert ombre.revoke_rule(["2H", "4D"], "4D", ["3H"], "H", 4) == "follow_suit"
    assert ombre.revoke_rule(["7H", "4D"], "4D", ["AS"], "H", 4) == "matador"
    assert ombre.revoke_rule(["AS", "4D"], "4D", ["3H"], "H", 4) is None


# ---- the revoke check in both recording modes -----------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class _State(HandState):
    pass


def _state(hands: tuple[frozenset[str], ...] | None) -> _State:
    holdings = Holdings(deck=frozenset(LATIN_40.cards), counts=(9, 9, 9), hands=hands)
    return _State(options={}, seats=3, dealer=0, phase="play", holdings=holdings)


def _check(state: _State, seat: int, card: str, trick: list[str]) -> tuple[_State, list[str]]:
    new, verdicts = _play(state, seat, card, trick, "H", 4, "hombre")
    return new, [f"{v.rule}@{v.move_index}" for v in verdicts]


def _play(
    state: _State, seat: int, card: str, trick: list[str], trump: str, n: int, prefix: str
) -> tuple[_State, list[Verdict]]:
    """One play checked and kept as a game keeps it: the verdicts it refines replaced by the new ones."""
    pending, verdicts = ombre.revoke_check(
        state, seat, card, trick_cards=trick, trump=trump, matador_count=n, trick=1, prefix=prefix
    )
    kept = ombre.unrefined(state.verdicts, verdicts) + tuple(verdicts)
    return replace(state, pending=pending, move_index=state.move_index + 1, verdicts=kept), verdicts


def test_a_matador_kept_against_a_plain_trump_is_not_proof_of_a_revoke() -> None:
    # Moves only: seat 1 throws 4D on a 3H lead; later plays AS. AS was privileged: no verdict, ever.
    state = _state(None)
    state, found = _check(state, 1, "4D", ["3H"])
    assert found == [] and ombre.open_keys(state, 1) == {"trump"}
    state, found = _check(state, 1, "AS", [])
    assert found == []


def test_an_ordinary_trump_played_later_proves_the_revoke_back_at_the_move() -> None:
    state = _state(None)
    state, _ = _check(state, 1, "4D", ["3H"])  # move 0
    state, _ = _check(state, 2, "5C", ["KC"])  # move 1, another seat
    state, found = _check(state, 1, "2H", [])  # move 2
    assert found == ["hombre.follow_suit@0"]
    assert ombre.open_keys(state, 1) == frozenset()


def test_a_lower_matador_played_later_proves_the_matador_revoke_once() -> None:
    # AS led; seat 2 throws KS; later 7H (forced by AS) proves a matador revoke at move 0, and then AC
    # (another forced matador) proves nothing more.
    state = _state(None)
    state, _ = _check(state, 2, "KS", ["AS"])
    assert ombre.open_keys(state, 2) == {"trump", "card:7H", "card:AC", "card:AH"}
    state, found = _check(state, 2, "7H", [])
    assert found == ["hombre.matador@0"]
    assert ombre.open_keys(state, 2) == {"trump"}
    state, found = _check(state, 2, "AC", [])
    assert found == []
    assert [(v.rule, v.move_index, v.proved_at) for v in state.verdicts] == [("hombre.matador", 0, 1)]


def test_an_ordinary_trump_after_the_matador_proof_refines_the_rule_to_follow_suit() -> None:
    # As above, and then 3H, an ordinary trump: seat 2 also held one when AS was led, so the deal-known
    # rule applies (the privilege only excuses the matador). The verdict is refined, not doubled: same
    # move, still proved at move 1 by the 7H.
    state = _state(None)
    state, _ = _check(state, 2, "KS", ["AS"])
    state, _ = _check(state, 2, "7H", [])
    state, found = _check(state, 2, "3H", [])
    assert found == ["hombre.follow_suit@0"]
    assert [(v.rule, v.move_index, v.proved_at) for v in state.verdicts] == [("hombre.follow_suit", 0, 1)]
    assert ombre.open_keys(state, 2) == frozenset()
    # The known deal names the same rule at once.
    known = _state((frozenset(), frozenset(), frozenset({"KS", "7H", "3H"})))
    assert _check(known, 2, "KS", ["AS"])[1] == ["hombre.follow_suit@0"]


def test_deal_known_gives_the_verdict_at_once() -> None:
    hands = (frozenset({"3H"}), frozenset({"4D", "2H"}), frozenset({"KS", "7H"}))
    state = _state(hands)
    _, found = _check(state, 1, "4D", ["3H"])
    assert found == ["hombre.follow_suit@0"]
    _, found = _check(state, 2, "KS", ["AS"])
    assert found == ["hombre.matador@0"]
    _, found = _check(state, 2, "KS", ["3H"])
    assert found == []


# ---- properties -----------------------------------------------------------------------------------


@settings(max_examples=examples(500))
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([3, 4]), trump=st.sampled_from("SCHD"))
def test_follow_options_and_both_modes_agree_on_random_hands(seed: int, n: int, trump: str) -> None:
    """For a random hand and trick: the options are non-empty, a subset of the hand, and every card
    outside them draws a deal-known verdict whose moves-only assertion a later play of a forceable held
    card proves (and a privileged one never does), ending with the deal-known rule once every card of the
    hand is down."""
    rng = random.Random(seed)
    cards = list(LATIN_40.cards)
    rng.shuffle(cards)
    hand = frozenset(cards[:9])
    trick = cards[9 : 9 + rng.randrange(3)]
    options = ombre.follow_options(hand, trick, trump, n)
    assert options and options <= hand
    for card in hand:
        rule = ombre.revoke_rule(hand, card, trick, trump, n)
        assert (rule is None) == (card in options)
        if rule is None or not trick:
            continue
        # moves only: play the card, then every other card of the hand one by one, in a random order;
        # once they are all down, the one verdict standing is the deal-known one
        state, _ = _play(_state(None), 0, card, trick, trump, n, "x")
        for later in rng.sample(sorted(hand - {card}), len(hand) - 1):
            state, _ = _play(state, 0, later, [], trump, n, "x")
        assert [(v.rule, v.move_index) for v in state.verdicts] == [(f"x.{rule}", 0)]
        assert state.verdicts[0].proved_at is not None
