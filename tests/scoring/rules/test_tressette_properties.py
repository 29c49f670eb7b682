"""Tressette over thousands of random legal hands, 4 and 3 players, both recording modes: the thirds and
points invariants, every card played once, legal moves agreeing with apply, moves-only replay, an injected
revoke found at the right move, injected declarations (late, false, repeated) judged alike in both modes
and as the rules read from the deal, and matches to 31."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import get_game
from scoring.rules.core import HandResult, HandState, replay
from scoring.rules.errors import ImpossibleMove, IrregularMoveRefused
from scoring.rules.moves import Deal, Declare, Move, PlayCard
from scoring.rules.tressette import VALID, Tressette, TressetteState, card_units, sides_of

from .playout import Playout, examples, play_random

_registered = get_game("tressette")
assert isinstance(_registered, Tressette)
GAME: Tressette = _registered

seeds = st.integers(min_value=0, max_value=2**32 - 1)
seat_counts = st.sampled_from((4, 3))
option_sets = st.fixed_dictionaries(
    {
        "rounding": st.sampled_from(("seed", "traditional")),
        "team_rounding": st.sampled_from(("sum_then_round", "per_player")),
        "declaration_window": st.sampled_from(("seed", "end_of_first_trick", "first_three_tricks")),
        "removed_four": st.sampled_from(("4C", "4S", "4H", "4D")),
    }
)


def _final(p: Playout) -> TressetteState:
    assert isinstance(p.final, TressetteState)
    return p.final


def _played(state: HandState) -> list[str]:
    assert isinstance(state, TressetteState)
    return [card for trick in state.trickplay.done for card in trick.cards]


@settings(max_examples=examples(300))
@given(seed=seeds, seats=seat_counts, options=option_sets)
def test_every_card_is_played_once_and_captured_by_one_seat(
    seed: int, seats: int, options: dict[str, Any]
) -> None:
    p = play_random(GAME, random.Random(seed), seats=seats, options=options)
    deck = GAME.deck_cards(p.options, seats)
    played = _played(p.final)
    assert len(played) == len(deck) == (40 if seats == 4 else 39)
    assert Counter(played) == Counter(deck)
    result = GAME.result(_final(p))
    captured = [c for seat_cards in result.details["captured"] for c in seat_cards]
    assert Counter(captured) == Counter(deck)
    assert sum(result.details["tricks_won"]) == (10 if seats == 4 else 13)
    assert result.details["thirds"] == [card_units(cards) for cards in result.details["captured"]]
    assert sum(result.details["thirds"]) == 32


@settings(max_examples=examples(300))
@given(seed=seeds, seats=seat_counts, window=st.sampled_from(("seed", "end_of_first_trick")))
def test_thirty_three_thirds_are_distributed_in_every_hand(seed: int, seats: int, window: str) -> None:
    p = play_random(GAME, random.Random(seed), seats=seats, options={"declaration_window": window})
    result = GAME.result(_final(p))
    assert sum(result.details["side_thirds"]) == 33
    last = result.details["last_trick"]
    assert isinstance(p.final, TressetteState)
    assert last == p.final.trickplay.done[-1].winner
    # Seed mode, partners' thirds added: each side's points are its thirds rounded to the nearest.
    for thirds, points in zip(result.details["side_thirds"], result.details["card_points"], strict=True):
        assert abs(3 * points - thirds) <= 1


@settings(max_examples=examples(300))
@given(
    seed=seeds,
    seats=seat_counts,
    rounding=st.sampled_from(("seed", "traditional")),
    team_rounding=st.sampled_from(("sum_then_round", "per_player")),
)
def test_card_points_add_up_as_the_rules_say(
    seed: int, seats: int, rounding: str, team_rounding: str
) -> None:
    options = {"rounding": rounding, "team_rounding": team_rounding}
    p = play_random(GAME, random.Random(seed), seats=seats, options=options)
    result = GAME.result(_final(p))
    total = sum(result.details["card_points"])
    if seats == 4 and team_rounding == "sum_then_round":
        assert total == 11  # both rounding modes
    elif seats == 4:
        assert (10 <= total <= 12) if rounding == "seed" else (9 <= total <= 11)
    else:
        assert (10 <= total <= 12) if rounding == "seed" else (10 <= total <= 11)
    # Deal scores are card points plus declarations, and every partner shows the side's score.
    deal = result.details["deal_scores"]
    assert deal == [
        c + d
        for c, d in zip(result.details["card_points"], result.details["declaration_points"], strict=True)
    ]
    for side, members in enumerate(sides_of(seats)):
        assert all(result.scores[s] == deal[side] for s in members)
    declared = sum(d["points"] for d in result.details["declarations"])
    assert declared == sum(result.details["declaration_points"])


@settings(max_examples=examples(150))
@given(seed=seeds, seats=seat_counts, options=option_sets)
def test_apply_accepts_exactly_the_legal_moves_and_flags_the_others(
    seed: int, seats: int, options: dict[str, Any]
) -> None:
    p = play_random(GAME, random.Random(seed), seats=seats, options=options)
    strict = {**p.options, "strict": True}
    for state in p.states[1:-1]:
        assert isinstance(state, TressetteState)
        legal = GAME.legal_moves(state)
        for move in legal:
            assert GAME.apply(state, move).verdicts == ()
        seat = state.trickplay.to_play()
        offered = {m.card for m in legal if isinstance(m, PlayCard)}
        assert all(m.seat == seat for m in legal if isinstance(m, PlayCard))
        for card in state.hands.hand(seat):
            if card in offered:
                continue
            step = GAME.apply(state, PlayCard(seat=seat, card=card))
            assert [(v.rule, v.seat, v.move_index) for v in step.verdicts] == [
                ("follow_suit", seat, state.move_index)
            ]
            with pytest.raises(IrregularMoveRefused):
                GAME.apply(replace(state, options=strict), PlayCard(seat=seat, card=card))
        # Every declaration the rules allow now is offered; any other is recorded with the verdict the rules
        # name (said aloud at the table), and refused by a strict table. Every window has closed by the end
        # of trick 3: the lead to trick 4 shows the late declarations, and the rest of the hand adds nothing.
        done = len(state.trickplay.done)
        if done > 3 or (done == 3 and not state.trickplay.leading):
            continue
        declares = {(m.seat, m.combination, m.cards) for m in legal if isinstance(m, Declare)}
        valid = {_key(m) for m in p.moves[: state.move_index] if isinstance(m, Declare)}  # all legal here
        refused_once = False
        for other in range(seats):
            for move in _all_declarations(other):
                rule = _ruling(state, move, valid)
                if (move.seat, move.combination, move.cards) in declares:
                    assert rule == VALID
                    continue
                step = GAME.apply(state, move)
                assert [(v.rule, v.seat, v.move_index, v.proved_at) for v in step.verdicts] == [
                    (rule, other, state.move_index, None)
                ]
                if not refused_once:
                    with pytest.raises(IrregularMoveRefused) as refused:
                        GAME.apply(replace(state, options=strict), move)
                    assert refused.value.code == f"irregular.{rule}"
                    refused_once = True


def _key(move: Declare) -> str:
    return GAME.parse_combination(move.combination, move.cards)[2]


def _ruling(state: TressetteState, move: Declare, valid: set[str]) -> str:
    """The rules file's reading of a declaration, from the recorded deal: outside the declarer's window,
    the same rank set or napoletana already validly declared, cards not all in his hand, or valid."""
    assert move.seat is not None
    seat, play, window = move.seat, state.trickplay, state.options["declaration_window"]
    mine = [c for t in (*play.done, play.current) for s, c in t.plays if s == seat]
    if window == "end_of_first_trick":
        open_now = len(play.done) == 1 and not play.current.plays
        held = state.hands.hand(seat) | set(mine[:1])  # his card to trick 1 still counts
    else:
        open_now = len(mine) < {"seed": 2, "first_three_tricks": 3}[window]
        held = state.hands.hand(seat)
    if not open_now:
        return "tressette.window"
    if _key(move) in valid:
        return "tressette.already_declared"
    if not set(move.cards) <= held:
        return "tressette.false_declaration"
    return VALID


def _all_declarations(seat: int) -> list[Declare]:
    out = []
    for rank, names in (
        ("A", ("three_aces", "four_aces")),
        ("2", ("three_twos", "four_twos")),
        ("3", ("three_threes", "four_threes")),
    ):
        cards = GAME.deck.sort(f"{rank}{s}" for s in "SHDC")
        out += [Declare(seat=seat, combination=names[0], cards=trio) for trio in combinations(cards, 3)]
        out.append(Declare(seat=seat, combination=names[1], cards=cards))
    out += [Declare(seat=seat, combination="napoletana", cards=(f"A{s}", f"2{s}", f"3{s}")) for s in "SHDC"]
    return out


@settings(max_examples=examples(300))
@given(seed=seeds, seats=seat_counts, options=option_sets)
def test_moves_only_replay_gives_the_same_result(seed: int, seats: int, options: dict[str, Any]) -> None:
    p = play_random(GAME, random.Random(seed), seats=seats, options=options)
    known = GAME.result(_final(p))
    blind = replay(GAME, GAME.moves_only(p.moves), options=p.options, seats=seats, dealer=p.dealer)
    assert blind.verdicts == ()
    assert blind.final.holdings is not None and blind.final.holdings.hands is None
    assert GAME.result(blind.final) == known
    # Deal unknown, every move of the hand is still among the moves offered at its turn.
    for state, move in zip(blind.states[1:], p.moves[1:], strict=False):
        if isinstance(move, PlayCard):
            assert move in GAME.legal_moves(state)


def _play_with_one_revoke(
    rng: random.Random, seats: int, options: dict[str, Any]
) -> tuple[list[Move], int, int, int, int] | None:
    """A random legal hand in which, at one random point, the player to act throws a card off the suit led
    while holding that suit. Returns the moves, the dealer, and the revoke's move index, seat and trick."""
    dealer = rng.randrange(seats)
    state = GAME.initial_state(options, seats=seats, dealer=dealer)
    deal = GAME.random_deal(state, rng)
    state = GAME.apply(state, deal).state
    moves: list[Move] = [deal]
    aim = rng.randrange(1, 6 * seats)  # somewhere in the first six tricks
    revoke: tuple[int, int, int] | None = None
    while not state.over:
        move: Move = rng.choice(GAME.legal_moves(state))
        play = state.trickplay
        led = play.current.led
        if revoke is None and len(moves) >= aim and led is not None:
            seat = play.to_play()
            hand = state.hands.hand(seat)
            off = sorted(c for c in hand if c[-1] != led[-1])
            if off and any(c[-1] == led[-1] for c in hand):
                move = PlayCard(seat=seat, card=rng.choice(off))
                revoke = (state.move_index, seat, play.number)
        step = GAME.apply(state, move)
        moves.append(move)
        state = step.state
    if revoke is None:
        return None
    return moves, dealer, *revoke


@settings(max_examples=examples(300))
@given(seed=seeds, seats=seat_counts, options=option_sets)
def test_one_injected_revoke_is_found_at_the_right_move_in_both_modes(
    seed: int, seats: int, options: dict[str, Any]
) -> None:
    played = _play_with_one_revoke(random.Random(seed), seats, options)
    if played is None:
        return  # no chance to revoke after the chosen point (rare)
    moves, dealer, index, seat, trick = played
    known = replay(GAME, moves, options=options, seats=seats, dealer=dealer)
    assert [(v.rule, v.seat, v.trick, v.move_index, v.proved_at) for v in known.verdicts] == [
        ("follow_suit", seat, trick, index, None)
    ]
    blind = replay(GAME, GAME.moves_only(moves), options=options, seats=seats, dealer=dealer)
    assert [(v.rule, v.seat, v.trick, v.move_index) for v in blind.verdicts] == [
        ("follow_suit", seat, trick, index)
    ]
    proved = blind.verdicts[0].proved_at
    assert proved is not None and proved > index
    assert isinstance(moves[proved], PlayCard) and moves[proved].seat == seat
    assert GAME.result(blind.final).scores == GAME.result(known.final).scores


def _play_with_declarations(
    rng: random.Random, seats: int, options: dict[str, Any]
) -> tuple[list[Move], int, list[tuple[str, int, int]]]:
    """A random hand with declarations said at random moments, mostly in the first tricks: half of them
    ones the rules allow when there are any, the others any combination by any seat, or one already said.
    Returns the moves, the dealer and each declaration's ruling by the rules (rule, seat, move index); every
    irregular one is checked refused by a strict table as it is made."""
    dealer = rng.randrange(seats)
    state = GAME.initial_state(options, seats=seats, dealer=dealer)
    deal = GAME.random_deal(state, rng)
    state = GAME.apply(state, deal).state
    moves: list[Move] = [deal]
    judged: list[tuple[str, int, int]] = []
    valid: set[str] = set()
    while not state.over:
        legal = GAME.legal_moves(state)
        move: Move = rng.choice([m for m in legal if isinstance(m, PlayCard)])
        if rng.random() < (0.3 if len(state.trickplay.done) < 3 else 0.02):
            said = [m for m in moves if isinstance(m, Declare)]
            allowed = [m for m in legal if isinstance(m, Declare)]
            if allowed and rng.random() < 0.5:
                move = rng.choice(allowed)
            elif said and rng.random() < 0.3:
                move = rng.choice(said)
            else:
                move = rng.choice(_all_declarations(rng.randrange(seats)))
            assert isinstance(move, Declare) and move.seat is not None
            rule = _ruling(state, move, valid)
            if rule == VALID:
                valid.add(_key(move))
            else:
                with pytest.raises(IrregularMoveRefused):
                    GAME.apply(replace(state, options={**state.options, "strict": True}), move)
            judged.append((rule, move.seat, state.move_index))
        moves.append(move)
        state = GAME.apply(state, move).state
    return moves, dealer, judged


@settings(max_examples=examples(200))
@given(seed=seeds, seats=seat_counts, options=option_sets)
def test_injected_declarations_are_judged_alike_in_both_modes_and_as_the_rules_read(
    seed: int, seats: int, options: dict[str, Any]
) -> None:
    moves, dealer, judged = _play_with_declarations(random.Random(seed), seats, options)
    irregular = [j for j in judged if j[0] != VALID]
    known = replay(GAME, moves, options=options, seats=seats, dealer=dealer)
    assert [(v.rule, v.seat, v.move_index) for v in known.verdicts] == irregular
    assert all(v.proved_at is None for v in known.verdicts)
    # Deal unknown: the same records are accepted and end with the same verdicts, each proved at the
    # declaration itself or by a later card.
    blind = replay(GAME, GAME.moves_only(moves), options=options, seats=seats, dealer=dealer)
    assert sorted((v.move_index, v.rule, v.seat) for v in blind.verdicts) == sorted(
        (i, rule, seat) for rule, seat, i in irregular
    )
    assert all(v.proved_at is None or v.proved_at > v.move_index for v in blind.verdicts)
    result = GAME.result(known.final)
    assert GAME.result(blind.final) == result
    assert [d["valid"] for d in result.details["declarations"]] == [rule == VALID for rule, _, _ in judged]


@settings(max_examples=examples(100))
@given(seed=seeds, seats=seat_counts, target=st.sampled_from((31, 21, 41)))
def test_a_match_of_random_hands_ends_when_one_side_is_strictly_highest_at_the_target(
    seed: int, seats: int, target: int
) -> None:
    rng = random.Random(seed)
    options = {"target": target}
    dealer = rng.randrange(seats)
    results: list[HandResult] = []
    while True:
        context = GAME.match_context(options, seats, results)
        p = play_random(GAME, rng, seats=seats, dealer=dealer, options=options, context=context)
        results.append(GAME.result(_final(p)))
        match = GAME.match_result(options, seats, results)
        points = match.details["points"]
        top = max(points)
        leaders = [k for k, v in enumerate(points) if v == top]
        if match.finished:
            assert top >= target and len(leaders) == 1
            assert match.winners == sides_of(seats)[leaders[0]]
            break
        assert top < target or len(leaders) > 1
        assert len(results) < 40
        dealer = GAME.next_dealer(options, seats, dealer, results[-1])
    assert [row["points"] for row in match.rows][-1] == points
    assert sum(sum(r.details["deal_scores"]) for r in results) == sum(points)


@settings(max_examples=examples(100))
@given(seed=seeds, seats=seat_counts)
def test_deal_known_and_moves_only_refuse_the_same_keying_errors(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    p = play_random(GAME, rng, seats=seats)
    blind = replay(GAME, GAME.moves_only(p.moves), options=p.options, seats=seats, dealer=p.dealer)
    k = rng.randrange(1, len(p.moves) - 1)
    known_state, blind_state = p.states[k], blind.states[k]
    assert isinstance(known_state, TressetteState)
    gone = sorted(known_state.hands.gone)
    seat = known_state.trickplay.to_play()
    if gone:
        for state in (known_state, blind_state):
            with pytest.raises(ImpossibleMove) as err:
                GAME.apply(state, PlayCard(seat=seat, card=gone[0]))
            assert err.value.code == "card.gone"
    for state in (known_state, blind_state):
        with pytest.raises(ImpossibleMove) as wrong:
            GAME.apply(state, PlayCard(seat=(seat + 1) % seats, card=sorted(known_state.hands.hand(seat))[0]))
        assert wrong.value.code == "turn.wrong"
    assert isinstance(p.moves[0], Deal)
