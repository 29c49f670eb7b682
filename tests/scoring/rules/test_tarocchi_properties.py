"""Sicilian Tarocchi: properties over random legal deals, in both recording modes.

The play rules are checked against ``broken_rules`` below, a second, plain reading of the rules file
(docs/rules/tarocchi.md) written apart from the engine: it lists every rule a card would break.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import get_game, replay
from scoring.rules.core import HandResult, Verdict
from scoring.rules.errors import ImpossibleMove, IrregularMoveRefused
from scoring.rules.moves import Call, Move, PlayCard
from scoring.rules.tarocchi import Tarocchi, TarocchiState, card_points

from .playout import Playout, examples, play_random

GAME = get_game("tarocchi")
assert isinstance(GAME, Tarocchi)
DECK = frozenset(GAME.deck.cards)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
play_options = st.fixed_dictionaries(
    {
        "must_trump_when_void": st.booleans(),
        "must_overtrump": st.booleans(),
        "fanta_rule_scope": st.sampled_from(["same_trick", "rest_of_deal"]),
        "fuggitivo_overrides_obligations": st.booleans(),
        "fuggitivo_unpaid": st.sampled_from(["keep", "surrender"]),
        "fuggitivo_last_trick": st.sampled_from(["keep", "lost"]),
        "abandon_rule": st.sampled_from(["unanimous", "silence_consents", "offers_only"]),
    }
)


# ---- the rules, read a second time -------------------------------------------------------------------
RANKS = "456789TJNQK"
PLAIN = "SHDC"


def suit(card: str) -> str:
    if card == "FU":
        return "F"
    if card[0] == "T" and card[1:].isdigit():
        return "T"
    return card[-1]


def trump(card: str) -> bool:
    return suit(card) == "T"


def strength_in(card: str) -> int:
    return int(card[1:]) if trump(card) else RANKS.index(card[:-1])


def pip(card: str) -> bool:
    return suit(card) in PLAIN and card[:-1] in "456789T"


def first_real(cards: Sequence[str]) -> str | None:
    return next((c for c in cards if c != "FU"), None)


def broken_rules(
    hand: frozenset[str],
    trick: Sequence[str],
    earlier: Sequence[Sequence[str]],
    card: str,
    options: Mapping[str, Any],
) -> set[str]:
    """Every rule of the rules file that playing ``card`` from ``hand`` to ``trick`` (cards so far, in order)
    breaks, after the earlier tricks (their cards in order)."""
    broken: set[str] = set()
    opened = {suit(c) for t in earlier if (c := first_real(t)) is not None and suit(c) in PLAIN}
    led = first_real(trick)
    if led is None:  # he leads (or follows a Fuggitivo led as a last card)
        if card == "FU":
            if len(hand) > 1 and not trick:
                broken.add("fuggitivo_lead")
            return broken
        x = suit(card)
        if x in PLAIN and x not in opened:
            mine = {c for c in hand if suit(c) == x}
            if "K" + x in mine and card != "K" + x:
                broken.add("king")
            pips = [c for c in mine if pip(c)]
            if mine == {"N" + x, *pips} and len(pips) == 1 and card != "N" + x:
                broken.add("cavallo")
        return broken
    x = suit(led)
    mine = {c for c in hand if suit(c) == x}
    trumps = {c for c in hand if trump(c)}
    owed = None
    if x in PLAIN:
        pips = [c for c in mine if pip(c)]
        if x not in opened and "K" + x in mine:
            owed = ("K" + x, "king")
        elif x not in opened and mine == {"N" + x, *pips} and len(pips) == 1:
            owed = ("N" + x, "cavallo")
        shown = [trick]
        if options["fanta_rule_scope"] == "rest_of_deal":
            shown += [t for t in earlier if (c := first_real(t)) is not None and suit(c) == x]
        if any("K" + x in t for t in shown) and "J" + x in hand:
            owed = ("J" + x, "fanta")
        if owed and card != owed[0] and not (card == "FU" and options["fuggitivo_overrides_obligations"]):
            broken.add(owed[1])
    if card == "FU":
        return broken
    if suit(card) != x:
        if mine:
            broken.add("follow_suit")
        elif x != "T" and trumps and not trump(card) and options["must_trump_when_void"]:
            broken.add("must_trump")
    if options["must_overtrump"] and owed is None:
        in_trick = [c for c in trick if trump(c)]
        if trump(card) and (x == "T" or not mine) and in_trick:
            top = max(in_trick, key=strength_in)
            if strength_in(card) < strength_in(top) and any(
                strength_in(t) > strength_in(top) for t in trumps
            ):
                broken.add("must_overtrump")
        if suit(card) == x and x in PLAIN and not in_trick:
            top = max((c for c in trick if suit(c) == x), key=strength_in)
            if strength_in(card) < strength_in(top) and any(strength_in(c) > strength_in(top) for c in mine):
                broken.add("must_overtrump")
    return broken


def situation(state: TarocchiState) -> tuple[frozenset[str], list[str], list[list[str]]]:
    play = state.trickplay
    seat = play.to_play()
    return state.hands.hand(seat), list(play.current.cards), [list(t.cards) for t in play.done]


# ---- playouts ----------------------------------------------------------------------------------------
def towards_play(state: Any, legal: list[Move], rng: random.Random) -> Move:
    """Random legal moves, but in the auction no piglio and no third pessimistic call."""
    calls = [m for m in legal if isinstance(m, Call)]
    if not calls:
        return rng.choice(legal)
    ok = [
        m for m in calls if m.call != "piglio" and not (len(state.calls) == 2 and m.call in ("vado", "offro"))
    ]
    return rng.choice(ok)


def played_deal(seed: int, options: Mapping[str, Any] | None = None) -> Playout:
    rng = random.Random(seed)
    for _ in range(50):
        p = play_random(GAME, rng, options=options, choose=lambda s, legal: towards_play(s, legal, rng))
        if p.final.auction == "played":
            return p
    raise AssertionError("no played deal in 50 tries")


def check_invariants(result: HandResult, dealer: int) -> None:
    piles = result.details["piles"]
    cards = [c for pile in piles for c in pile]
    assert len(cards) == 63 and set(cards) == DECK
    assert result.details["card_points"] == [card_points(p) for p in piles]
    assert sum(result.details["card_points"]) == 104
    bonus = [p - c for p, c in zip(result.details["points"], result.details["card_points"], strict=True)]
    assert sorted(bonus) == [0, 0, 5] and bonus[result.details["last_trick"]] == 5
    assert sum(result.details["points"]) == 109
    assert result.details["offsets"] == [-37 if s == dealer else -36 for s in range(3)]
    points, offsets = result.details["points"], result.details["offsets"]
    assert list(result.scores) == [p + o for p, o in zip(points, offsets, strict=True)]
    assert sum(result.scores) == 0
    # The discard counts for the dealer (one of its blanks may have paid for his Fuggitivo).
    discard = result.details["discard"]
    fugg = result.details["fuggitivo"] or {}
    paid = {fugg.get("paid")} if fugg.get("owner") == dealer else set()
    assert len(discard) == 3 and set(discard) - paid <= set(piles[dealer])


@settings(max_examples=examples(300))
@given(seed=seeds, options=play_options)
def test_played_deals_hold_63_cards_104_points_and_sum_to_zero(seed: int, options: dict[str, Any]) -> None:
    p = played_deal(seed, options)
    result = GAME.result(p.final)
    check_invariants(result, p.dealer)
    fugg = result.details["fuggitivo"]
    if fugg is None:
        assert "FU" in result.details["discard"]
    elif fugg.get("lost") or fugg.get("surrendered"):
        assert "FU" in result.details["piles"][fugg["winner"]]
    else:
        assert "FU" in result.details["piles"][fugg["owner"]]
    # The same deal recorded move by move without the cards: same piles, same scores, nothing flagged.
    blind = replay(GAME, GAME.moves_only(p.moves), options=p.options, seats=3, dealer=p.dealer)
    assert blind.verdicts == ()
    again = GAME.result(blind.final)
    assert again.scores == result.scores
    assert again.details["piles"] == result.details["piles"]


@settings(max_examples=examples(60))
@given(seed=seeds, options=play_options)
def test_legal_plays_are_exactly_the_cards_that_break_no_rule(seed: int, options: dict[str, Any]) -> None:
    p = played_deal(seed, options)
    strict = {**p.options, "strict": True}
    for state in p.states:
        if not isinstance(state, TarocchiState) or state.phase != "play" or state.over:
            continue
        hand, trick, earlier = situation(state)
        seat = state.trickplay.to_play()
        legal = {m.card for m in GAME.legal_moves(state) if isinstance(m, PlayCard)}
        for card in hand:
            broken = broken_rules(hand, trick, earlier, card, p.options)
            assert (card in legal) == (not broken), (card, broken)
            if broken:
                verdicts = GAME.apply(state, PlayCard(seat=seat, card=card)).verdicts
                assert len(verdicts) == 1 and verdicts[0].rule.removeprefix("tarocchi.") in broken
                with pytest.raises(IrregularMoveRefused):
                    GAME.apply(replace(state, options=strict), PlayCard(seat=seat, card=card))


def keyed(verdicts: Sequence[Verdict]) -> list[tuple[str, int, int | None]]:
    return sorted((v.rule, v.move_index, v.seat) for v in verdicts)


@settings(max_examples=examples(200))
@given(seed=seeds, options=play_options, rate=st.sampled_from([0.02, 0.05, 0.15]))
def test_injected_irregularities_are_found_at_the_same_move_in_both_modes(
    seed: int, options: dict[str, Any], rate: float
) -> None:
    """Play a random deal, now and then a card the rules forbid; the recording without the deal finds the
    same irregularities, under the same rules, at the same moves (at the end of the deal at the latest)."""
    rng = random.Random(seed)
    p = played_deal(seed, options)
    cut = next(i for i, m in enumerate(p.moves) if isinstance(m, PlayCard))
    moves = list(p.moves[:cut])
    state = p.states[cut]
    assert isinstance(state, TarocchiState)
    injected: list[tuple[int, set[str]]] = []
    while not state.over:
        legal = GAME.legal_moves(state)
        move = rng.choice(legal)
        seat = state.trickplay.to_play()
        others = sorted(state.hands.hand(seat) - {m.card for m in legal if isinstance(m, PlayCard)})
        if others and rng.random() < rate:
            move = PlayCard(seat=seat, card=rng.choice(others))
            hand, trick, earlier = situation(state)
            injected.append((state.move_index, broken_rules(hand, trick, earlier, move.card, state.options)))
        step = GAME.apply(state, move)
        moves.append(move)
        state = step.state
    known = state.verdicts
    assert [v.move_index for v in known] == [i for i, _ in injected]
    for v, (_, broken) in zip(known, injected, strict=True):
        assert v.rule.removeprefix("tarocchi.") in broken
        assert v.proved_at is None
    blind = replay(GAME, GAME.moves_only(moves), options=p.options, seats=3, dealer=p.dealer)
    assert keyed(blind.verdicts) == keyed(known)
    assert all(v.proved_at is None or v.proved_at > v.move_index for v in blind.verdicts)
    assert GAME.result(blind.final).scores == GAME.result(state).scores
    check_invariants(GAME.result(state), p.dealer)


@settings(max_examples=examples(30))
@given(seed=seeds, options=play_options)
def test_without_the_deal_every_card_is_refused_or_accepted_as_in_the_deal(
    seed: int, options: dict[str, Any]
) -> None:
    """Moves-only legal moves include every card the deal offers, and a card already gone is refused."""
    p = played_deal(seed, options)
    blind = replay(GAME, GAME.moves_only(p.moves), options=p.options, seats=3, dealer=p.dealer)
    for known, unknown in list(zip(p.states, blind.states, strict=True))[-61:-1:7]:
        assert isinstance(known, TarocchiState) and isinstance(unknown, TarocchiState)
        offered = {m.card for m in GAME.legal_moves(unknown) if isinstance(m, PlayCard)}
        assert {m.card for m in GAME.legal_moves(known) if isinstance(m, PlayCard)} <= offered
        seat = unknown.trickplay.to_play()
        if unknown.hands.gone:
            with pytest.raises(ImpossibleMove) as gone:
                GAME.apply(unknown, PlayCard(seat=seat, card=sorted(unknown.hands.gone)[0]))
            assert gone.value.code == "card.gone"


# ---- the auction and the match -----------------------------------------------------------------------
@settings(max_examples=examples(500))
@given(seed=seeds, rule=st.sampled_from(["unanimous", "silence_consents", "offers_only"]))
def test_random_auctions(seed: int, rule: str) -> None:
    rng = random.Random(seed)
    state = GAME.initial_state({"abandon_rule": rule}, seats=3, dealer=rng.randrange(3))
    state = GAME.apply(state, GAME.random_deal(state, rng)).state
    while state.phase == "auction":
        legal = GAME.legal_moves(state)
        assert all(m.seat is None or m.seat not in state.spoken for m in legal)
        move = rng.choice(legal)
        step = GAME.apply(state, move)
        assert step.verdicts == ()
        state = step.state
    assert len(state.calls) <= 3 and len({c.seat for c in state.calls}) == len(state.calls)
    calls = [c.call for c in state.calls]
    if state.over:
        result = GAME.result(state)
        assert result.outcome == "abandoned" and sum(result.scores) == 0
        if "piglio" in calls:
            assert calls[-1] == "piglio" and state.accepted is not None
            offerer, accepter, value = state.accepted
            assert result.scores[offerer] == -value and result.scores[accepter] == value and 1 <= value <= 10
        else:
            assert result.scores == (0, 0, 0) and rule != "offers_only"
            assert set(calls) <= {"vado", "offro"}
    else:
        assert state.phase == "discard" and "piglio" not in calls
        assert len(state.hands.hand(state.dealer)) == 23
        if rule == "unanimous":
            assert "tengo" in calls or len(calls) < 3


@settings(max_examples=examples(100))
@given(seeds=st.lists(seeds, min_size=1, max_size=15), deals=st.integers(1, 12), count=st.booleans())
def test_match_totals_sum_to_zero(seeds: list[int], deals: int, count: bool) -> None:
    results = []
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.initial_state(None, seats=3, dealer=rng.randrange(3))
        state = GAME.apply(state, GAME.random_deal(state, rng)).state
        while state.phase == "auction":
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state))).state
        if state.over:
            results.append(GAME.result(state))
    options = {"deals": deals, "abandoned_deals_count": count}
    match = GAME.match_result(options, 3, results)
    assert sum(match.totals) == 0
    assert list(match.totals) == [sum(r.scores[s] for r in results) for s in range(3)]
    assert len(match.rows) == len(results)
    counted = len(results) if count else 0
    assert match.finished == (counted >= deals)
    if match.finished:
        assert match.winners and all(match.totals[w] == max(match.totals) for w in match.winners)
