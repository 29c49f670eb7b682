"""Italian Hombre: properties over random hands, in both recording modes: legal ones, and ones with what
happens at real tables (revokes, talon cards drawn in any order where the talon's order was not
recorded)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import get_game, ombre, replay
from scoring.rules.core import Verdict
from scoring.rules.hombre_it import HombreIt, HombreState, hand_stake
from scoring.rules.moves import Call, Exchange, Move, PlayCard

from .ombre_playout import irregular_hand, recorded_alike
from .playout import examples, play_random

game = get_game("hombre_it")
assert isinstance(game, HombreIt)


seeds = st.integers(min_value=0, max_value=2**32 - 1)
option_sets = st.fixed_dictionaries(
    {
        "n_matadors": st.sampled_from([4, 3]),
        "plain_order": st.sampled_from(["ombre", "natural"]),
        "auction": st.sampled_from(["single_round", "open"]),
        "win_rule": st.sampled_from(["five_tricks", "majority"]),
        "stake": st.integers(1, 5),
        "solo_stake": st.integers(0, 5),
        "volo_stake": st.integers(0, 20),
        "volo_stake_mode": st.sampled_from(["replace", "add"]),
    }
)


def accounted(state: HombreState) -> list[str]:
    """Every card the state places: hands, discards, the talon left, the cards played."""
    h = state.hands
    cards = [c for s in range(3) for c in h.hand(s)] + list(state.discards) + list(state.talon)
    if state.play is not None:
        cards += [c for t in (*state.play.done, state.play.current) for c in t.cards]
    return cards


@pytest.mark.parametrize("trump", ["S", "C", "H", "D"])
@pytest.mark.parametrize("natural", [False, True])
def test_every_layout_is_a_permutation_of_the_deck(trump: str, natural: bool) -> None:
    lay = ombre.layout(trump, natural=natural)
    every = [c for order in lay.values() for c in order]
    assert len(every) == 40 and set(every) == set(game.deck.cards)
    for card in game.deck.cards:
        suit = ombre.effective_suit(card, trump)
        assert card in lay[suit]


@settings(max_examples=examples(200))
@given(seed=seeds, options=option_sets)
def test_every_card_is_accounted_for_and_every_hand_is_zero_sum(seed: int, options: dict[str, Any]) -> None:
    p = play_random(game, random.Random(seed), options=options)
    for state in p.states[1:]:
        assert isinstance(state, HombreState)
        cards = accounted(state)
        assert sorted(cards) == sorted(game.deck.cards), "a card is missing or twice placed"
        assert [len(state.hands.hand(s)) for s in range(3)] == list(state.hands.counts)
        assert len(state.talon) == state.talon_left
    final = p.final
    assert isinstance(final, HombreState)
    result = game.result(final)
    assert sum(result.scores) == 0
    if result.outcome == "passed":
        assert result.scores == (0, 0, 0) and final.play is None
        return
    hombre, contract = final.best  # type: ignore[misc]
    assert len(final.tricks.done) == 9 and sum(result.details["tricks"]) == 9
    stake = hand_stake(final.options, contract)
    assert result.scores[hombre] == (2 * stake if result.outcome == "won" else -2 * stake)
    if contract != "gioco":
        assert final.exchanges == () and final.talon_left == 13
    else:
        assert [s for s, _ in final.exchanges] == [hombre, (hombre + 1) % 3, (hombre + 2) % 3]


def _blind_equivalent(move: Move) -> Move:
    return game.moves_only([move])[0]


@settings(max_examples=examples(200))
@given(seed=seeds, options=option_sets)
def test_legal_moves_agree_with_apply_in_both_modes(seed: int, options: dict[str, Any]) -> None:
    p = play_random(game, random.Random(seed), options=options)
    blind = replay(game, game.moves_only(p.moves), options=p.options, seats=3, dealer=p.dealer)
    assert blind.verdicts == ()
    assert game.result(blind.final).scores == game.result(p.final).scores
    n = p.options["n_matadors"]
    for i, (state, move) in enumerate(zip(p.states[1:-1], p.moves[1:], strict=True)):
        assert isinstance(state, HombreState)
        # the known-deal check: every held card is offered or draws the verdict revoke_rule names
        if isinstance(move, PlayCard):
            seat = move.seat
            assert seat is not None
            offered = {m.card for m in game.legal_moves(state) if isinstance(m, PlayCard)}
            trick = state.tricks.current.cards
            for card in state.hands.hand(seat):
                kind = ombre.revoke_rule(state.hands.hand(seat), card, trick, state.trump_suit(), n)
                if card in offered:
                    assert kind is None
                    continue
                step = game.apply(state, PlayCard(seat=seat, card=card))
                assert [v.rule for v in step.verdicts] == [f"hombre.{kind}"]
        # moves only: the same move is offered, and every offered move applies with no verdict
        blind_state = blind.states[i + 1]
        blind_legal = game.legal_moves(blind_state)
        assert _blind_equivalent(move) in blind_legal
        for offered_move in blind_legal[:12]:
            assert game.apply(blind_state, offered_move).verdicts == ()


def _play_with_one_revoke(seed: int, options: dict[str, Any]) -> tuple[int, list[Move], int | None]:
    """A random hand in which one seat, once, plays a card that is not offered (if it ever can)."""
    rng = random.Random(seed)
    dealer = rng.randrange(3)
    state: HombreState = game.initial_state(options, seats=3, dealer=dealer)
    moves: list[Move] = [game.random_deal(state, rng)]
    state = game.apply(state, moves[0]).state
    injected: int | None = None
    while not state.over:
        legal = game.legal_moves(state)
        move = rng.choice(legal)
        if injected is None and isinstance(move, PlayCard) and state.tricks.current.plays:
            seat = move.seat
            assert seat is not None
            wrong = sorted(state.hands.hand(seat) - {m.card for m in legal if isinstance(m, PlayCard)})
            if wrong and rng.random() < 0.5:
                move, injected = PlayCard(seat=seat, card=rng.choice(wrong)), state.move_index
        moves.append(move)
        state = game.apply(state, move).state
    return dealer, moves, injected


def _found(verdicts: tuple[Verdict, ...]) -> list[tuple[int, int | None]]:
    return [(v.move_index, v.seat) for v in verdicts]


@settings(max_examples=examples(300))
@given(seed=seeds, options=option_sets)
def test_an_injected_revoke_is_found_at_the_same_move_in_both_modes(
    seed: int, options: dict[str, Any]
) -> None:
    dealer, moves, injected = _play_with_one_revoke(seed, options)
    known = replay(game, moves, options=options, seats=3, dealer=dealer)
    blind = replay(game, game.moves_only(moves), options=options, seats=3, dealer=dealer)
    if injected is None:
        assert known.verdicts == () and blind.verdicts == ()
        return
    assert len(known.verdicts) == 1 and known.verdicts[0].move_index == injected
    assert _found(blind.verdicts) == _found(known.verdicts)
    assert blind.verdicts[0].proved_at is not None and blind.verdicts[0].proved_at > injected
    # Deal unknown, a seat that held both an ordinary trump and a forced lower matador is first proved to
    # have kept the matador, then refined to follow_suit by its ordinary trump: the same rule in the end.
    assert blind.verdicts[0].rule == known.verdicts[0].rule
    assert game.result(known.final).scores == game.result(blind.final).scores


def _gioco_mostly(rng: random.Random) -> Any:
    """Random legal moves, with an auction that mostly passes or calls gioco, so that the talon is used."""
    weights = {"passo": 10, "gioco": 6, "solo": 1, "volo": 1}

    def choose(state: HombreState, legal: list[Move]) -> Move:
        calls = [m for m in legal if isinstance(m, Call)]
        if calls:
            return rng.choices(calls, [weights[m.call] for m in calls])[0]
        return rng.choice(legal)

    return choose


@settings(max_examples=examples(200))
@given(seed=seeds, options=option_sets)
def test_hands_with_table_irregularities_are_recorded_alike_in_both_modes(
    seed: int, options: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    moves, dealer = irregular_hand(game, rng, options=options, choose=_gioco_mostly(rng))
    judged = recorded_alike(game, moves, options=options, dealer=dealer)
    assert {rule for _, rule, _ in judged} <= {"hombre.follow_suit", "hombre.matador"}


@settings(max_examples=examples(100))
@given(seeds=st.lists(seeds, min_size=1, max_size=8), deals=st.integers(1, 6))
def test_the_session_sheet_adds_up(seeds: list[int], deals: int) -> None:
    results = []
    dealer = 0
    opts = game.ruleset.validate({"deals": deals})
    for seed in seeds:
        p = play_random(game, random.Random(seed), dealer=dealer, options=opts)
        result = game.result(p.final)
        results.append(result)
        dealer = game.next_dealer(opts, 3, dealer, result)
    sheet = game.match_result(opts, 3, results)
    played = sum(r.outcome != "passed" for r in results)
    assert sum(sheet.totals) == 0
    assert sheet.finished == (played >= deals)
    assert list(sheet.rows[-1]["totals"]) == list(sheet.totals)
    assert [sum(r.scores[s] for r in results) for s in range(3)] == list(sheet.totals)


def test_an_exchange_by_count_is_the_blind_form_of_a_named_one() -> None:
    assert _blind_equivalent(Exchange(seat=1, discard=("KS", "QS"), take=("2D", "3D"))) == Exchange(
        seat=1, count=2
    )
