"""Barbù over random legal hands: every contract's total, both recording modes alike, injected
irregularities found at the same move in both modes, claims that keep the total.

The default profile plays a few hundred hands; HYPOTHESIS_PROFILE=thorough plays 2000 of each contract.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import get_game, replay
from scoring.rules.barbu import Barbu, BarbuState
from scoring.rules.barbu_contracts import SEED
from scoring.rules.cards import FRENCH_52
from scoring.rules.core import HandState
from scoring.rules.moves import Call, Choose, Claim, ClaimResponse, Move, PlayCard

from .playout import play_random, thorough

GAME = get_game("barbu")
assert isinstance(GAME, Barbu)

THOROUGH = thorough()
TOTALS = {"MP": 65, "MIS": -26, "NPR": -20, "NPD": -24, "NPC": -36, "NPUD": -24, "DOM": 65}
seeds = st.integers(min_value=0, max_value=2**32 - 1)
options_st = st.fixed_dictionaries(
    {
        "mp_trump_obligation": st.sampled_from(["none", "must_trump", "overtrump_on_trump_lead"]),
        "misere_pass": st.sampled_from(["left_simultaneous", "none"]),
        "must_discard_kh": st.booleans(),
        "early_end": st.sampled_from(["allowed", "never", "automatic"]),
        "domino_opening_ranks": st.sampled_from(["any", "pips_only"]),
        "domino_sequence": st.sampled_from(["linear", "circular"]),
        "domino_stop": st.sampled_from(["all_cards", "three_out"]),
    }
)


def test_the_seed_totals_are_the_contract_data() -> None:
    assert {c.code: c.total() for c in SEED} == TOTALS
    assert sum(c.total() for c in SEED) == 0  # +130 and −130 per dealer


def forcing(contract: str, rng: random.Random, *, close: bool = True):  # type: ignore[no-untyped-def]
    """A chooser for play_random: the given contract, then random legal moves (closing early or not)."""

    def choose(state: HandState, legal: list[Move]) -> Move:
        if state.phase == "contract":
            return Choose(seat=state.dealer, choice="contract", value=contract)
        if not close:
            legal = [m for m in legal if not (isinstance(m, Choose) and m.choice == "close")]
        return rng.choice(legal)

    return choose


@pytest.mark.parametrize("contract", list(TOTALS))
@settings(max_examples=2000 if THOROUGH else 100)
@given(seed=seeds, options=options_st)
def test_every_hand_adds_up_to_its_contract_total_in_both_modes(
    contract: str, seed: int, options: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    p = play_random(GAME, rng, seats=4, options=options, choose=forcing(contract, rng))
    result = GAME.result(p.final)
    assert result.details["contract"] == contract
    assert sum(result.scores) == TOTALS[contract]
    if contract == "DOM":
        assert sorted(result.scores) == [-10, 10, 20, 45]
        assert len(result.details["finishing_order"]) == 4
    elif contract in ("MP", "MIS"):
        assert sum(result.details["tricks"]) == 13
    else:
        assert (result.details["tricks"], result.details["taken"], list(result.scores)) == plain_count(
            p.final
        )
    blind = replay(GAME, GAME.moves_only(p.moves), options=p.options, seats=4, dealer=p.dealer)
    assert blind.verdicts == ()
    assert GAME.result(blind.final).scores == result.scores


def plain_count(state: HandState) -> tuple[list[int], list[list[str]], list[int]]:
    """A trick contract's tricks, penalty cards taken and scores by seat, counted seat by seat."""
    assert isinstance(state, BarbuState)
    spec, play = GAME.spec(state), state.trick_play
    won = [play.tricks_won(s) for s in range(4)]
    taken = [[c for c in FRENCH_52.sort(play.captured(s)) if c in spec.card_penalties] for s in range(4)]
    scores = [
        spec.per_trick * won[s]
        + sum(spec.card_penalties[c] for c in taken[s])
        + sum(spec.trick_penalties.get(t.number, 0) for t in play.done if t.winner == s)
        + (state.claimed[s] if state.claimed is not None else 0)
        for s in range(4)
    ]
    return won, taken, scores


def irregular(state: BarbuState, legal: list[Move]) -> list[Move]:
    """Moves that can physically happen and break a rule: a held card not offered, a pass while able."""
    if state.phase == "play":
        seat = state.trick_play.to_play()
        offered = {m.card for m in legal if isinstance(m, PlayCard)}
        return [PlayCard(seat=seat, card=c) for c in sorted(state.hands.hand(seat) - offered)]
    if state.phase == "domino" and any(isinstance(m, PlayCard) for m in legal):
        return [Call(seat=state.turn, call="pass")]
    return []


def play_with_irregularities(
    contract: str, rng: random.Random, options: Mapping[str, Any], most: int, target: str | None = None
) -> tuple[list[Move], list[int], BarbuState, int]:
    """A random hand with up to ``most`` irregular moves (only breaches of ``target`` if given)."""
    dealer = rng.randrange(4)
    state = GAME.initial_state(options, seats=4, dealer=dealer)
    moves: list[Move] = [GAME.random_deal(state, rng)]
    state = GAME.apply(state, moves[0]).state
    injected: list[int] = []
    while not state.over:
        legal = [m for m in GAME.legal_moves(state) if not (isinstance(m, Choose) and m.choice == "close")]
        # Pick the rule to break first, so that the rarer obligations (must trump, overtrump, KH) are
        # broken about as often as a plain revoke when they can be.
        by_rule: dict[str, list[Move]] = {}
        if len(injected) < most:
            for m in irregular(state, legal):
                by_rule.setdefault(GAME.apply(state, m).verdicts[0].rule, []).append(m)
        if target is not None:
            by_rule = {r: m for r, m in by_rule.items() if r == target}
        rare = sorted(r for r in by_rule if r != "follow_suit")
        if state.phase == "contract":
            move: Move = Choose(seat=dealer, choice="contract", value=contract)
        elif by_rule and rng.random() < (0.8 if rare else 0.1):
            move = rng.choice(by_rule[rng.choice(rare or sorted(by_rule))])
            injected.append(state.move_index)
        else:
            move = rng.choice(legal)
        step = GAME.apply(state, move)
        assert {v.move_index for v in step.verdicts if v.proved_at is None} <= {state.move_index}
        moves.append(move)
        state = step.state
    return moves, injected, state, dealer


OBLIGATIONS = [
    ("MP", {"mp_trump_obligation": "must_trump"}, "barbu.must_trump"),
    ("MP", {"mp_trump_obligation": "overtrump_on_trump_lead"}, "barbu.overtrump"),
    ("NPR", {"must_discard_kh": True}, "barbu.must_discard_kh"),
    ("NPC", {}, "barbu.heart_lead"),
]


@pytest.mark.parametrize(("contract", "fixed", "target"), [(c, {}, None) for c in TOTALS] + OBLIGATIONS)
@settings(max_examples=2000 if THOROUGH else 30)
@given(seed=seeds, options=options_st, most=st.integers(min_value=1, max_value=3))
def test_injected_irregularities_are_found_at_the_same_move_in_both_modes(
    contract: str, fixed: dict[str, Any], target: str | None, seed: int, options: dict[str, Any], most: int
) -> None:
    # A hand played to its last card proves every breach.
    options = {**options, **fixed, "early_end": "never"}
    rng = random.Random(seed)
    moves, injected, known, dealer = play_with_irregularities(contract, rng, options, most, target)
    assert {v.move_index for v in known.verdicts} == set(injected)
    blind = replay(GAME, GAME.moves_only(moves), options=options, seats=4, dealer=dealer).final
    assert isinstance(blind, BarbuState)
    found = {(v.rule, v.seat, v.move_index) for v in blind.verdicts}
    assert found == {(v.rule, v.seat, v.move_index) for v in known.verdicts}
    assert len(blind.verdicts) == len(found)  # each breach once
    assert all(v.proved_at is not None and v.proved_at > v.move_index for v in blind.verdicts)
    assert GAME.result(blind).scores == GAME.result(known).scores


@pytest.mark.parametrize("contract", ["MP", "MIS", "NPR", "NPD", "NPC", "NPUD"])
@settings(max_examples=2000 if THOROUGH else 25)
@given(seed=seeds, stop=st.integers(min_value=0, max_value=12), shape=st.sampled_from(["all", "split"]))
def test_an_accepted_claim_keeps_the_contract_total(contract: str, seed: int, stop: int, shape: str) -> None:
    rng = random.Random(seed)
    p = play_random(GAME, rng, seats=4, options={"early_end": "never"}, choose=forcing(contract, rng))
    at = next(
        (
            s
            for s in p.states
            if isinstance(s, BarbuState)
            and s.tricks is not None
            and s.tricks.leading
            and len(s.tricks.done) == stop
        ),
        None,
    )
    assert isinstance(at, BarbuState)
    leader = at.trick_play.current.leader
    claim = Claim(seat=leader) if shape == "all" else Claim(seat=leader, split=random_split(at, rng))
    state = GAME.apply(at, claim).state
    for seat in range(4):
        if seat != leader:
            state = GAME.apply(state, ClaimResponse(seat=seat, accept=True)).state
    assert state.over
    result = GAME.result(state)
    assert sum(result.scores) == TOTALS[contract]
    if shape == "all":
        # The claimer's score is what he had, plus everything left; the others keep theirs.
        before = [0, 0, 0, 0]
        spec = GAME.spec(at)
        for t in at.trick_play.done:
            assert t.winner is not None
            before[t.winner] += spec.per_trick + sum(spec.card_penalties.get(c, 0) for c in t.cards)
            before[t.winner] += spec.trick_penalties.get(t.number, 0)
        assert [s for i, s in enumerate(result.scores) if i != leader] == [
            b for i, b in enumerate(before) if i != leader
        ]


def random_split(state: BarbuState, rng: random.Random) -> tuple[int, ...]:
    """A true split of the rest of the hand: the remaining tricks, or the remaining penalties, dealt out."""
    spec = GAME.spec(state)
    done = state.trick_play.done
    split = [0, 0, 0, 0]
    if spec.claim_split == "tricks":
        for _ in range(13 - len(done)):
            split[rng.randrange(4)] += 1
        return tuple(split)
    taken = {c for t in done for c in t.cards}
    for card, value in spec.card_penalties.items():
        if card not in taken:
            split[rng.randrange(4)] += value
    for number, value in spec.trick_penalties.items():
        if number > len(done):
            split[rng.randrange(4)] += value
    return tuple(split)
