"""The bounds the claim solver takes before searching (quick tricks, a partnership's among them, and the whole
of what is left when the side on lead cashes every trick), against a plain minimax over the compact position:
every bound must hold, for best play and for careless play, whoever leads. Small made-up deals of four
players in two partnerships, with and without trumps, cards worth points or not, a last-trick bonus, so
that partners who must overtake, ruffers and cashing every trick all come up."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.claims import (
    Position,
    Rules,
    Search,
    _below,
    _careless_down,
    _ducks_all,
    _duel,
    _duel_floor,
    _exact,
    _follow_legal,
)
from tests.scoring.rules.playout import examples

SEATS = 4
SIDE = frozenset({0, 2})


def winner(rules: Rules, trick: list[tuple[int, int]]) -> int:
    """Who wins ``trick``: the highest trump, else the highest card of the suit led."""

    def strength(card: int) -> int:
        if rules.suit[card] == rules.trump:
            return 100 + rules.rank[card]
        return rules.rank[card] if rules.suit[card] == rules.suit[trick[0][1]] else -1

    return max(trick, key=lambda play: strength(play[1]))[0]


def exact(
    rules: Rules, hands: list[int], leader: int, trick_no: int, side: frozenset[int], careless: bool
) -> int:
    """The side's value of the rest by a plain minimax (a memo of whole positions between tricks, no
    pruning): the side maximises (careless: minimises with everyone), the others minimise."""
    memo: dict[tuple[int, ...], int] = {}

    def between(hands: tuple[int, ...], leader: int, number: int) -> int:
        if not any(hands):
            return 0
        key = (leader, number, *hands)
        if key not in memo:
            memo[key] = play(list(hands), [], leader, number)
        return memo[key]

    def play(hands: list[int], trick: list[tuple[int, int]], seat: int, number: int) -> int:
        if len(trick) == SEATS:
            won = winner(rules, trick)
            gain = 0
            if won in side:
                gain = rules.per_trick + rules.trick_bonus.get(number, 0)
                gain += sum(rules.weight[c] for _s, c in trick)
                if not any(hands):
                    gain += rules.last_bonus
            return gain + between(tuple(hands), won, number + 1)
        assert rules.legal is not None
        legal = rules.legal(None, seat, hands[seat], trick)
        values = []
        for card in range(len(rules.cards)):
            if legal >> card & 1:
                rest = list(hands)
                rest[seat] &= ~(1 << card)
                values.append(play(rest, [*trick, (seat, card)], (seat + 1) % SEATS, number))
        return max(values) if seat in side and not careless else min(values)

    return between(tuple(hands), leader, trick_no)


def minimax(rules: Rules, hands: list[int], leader: int, careless: bool, side: frozenset[int] = SIDE) -> int:
    """The side's value of the rest by the plain minimax :func:`exact`, from the first trick."""
    return exact(rules, hands, leader, 1, side, careless)


def draw_deck(draw: Any, tricks: int, suits: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A deck of ``tricks`` x 4 cards in ``suits`` suits, each suit at least one card: each card's suit and
    rank, numbered by suit, then rank low to high (what Rules asks)."""
    counts = [1] * suits
    for _k in range(tricks * SEATS - suits):
        counts[draw(st.integers(0, suits - 1))] += 1
    suit = tuple(s for s in range(suits) for _k in range(counts[s]))
    rank = tuple(r for s in range(suits) for r in range(counts[s]))
    return suit, rank


def draw_deal(
    draw: Any,
    *,
    tricks: tuple[int, int],
    suits: tuple[int, int],
    trumps: bool,
    last_bonus: list[int],
    follow_suit: bool = False,
) -> tuple[Rules, list[int], int]:
    """A deck drawn by :func:`draw_deck`, its weights, a deal and a leader. ``trumps``: the first suit may
    be trumps; ``follow_suit``: the rules say the suit led must be followed (Tressette)."""
    tricks_n = draw(st.integers(*tricks))
    suits_n = draw(st.integers(*suits))
    trump = draw(st.sampled_from([None, 0])) if trumps and suits_n > 1 else None
    n = tricks_n * SEATS
    suit, rank = draw_deck(draw, tricks_n, suits_n)
    weight = tuple(draw(st.lists(st.sampled_from([0, 0, 1, 3]), min_size=n, max_size=n)))
    per_trick = draw(st.sampled_from([0, 1]))
    bonus = draw(st.sampled_from(last_bonus))
    order = draw(st.permutations(range(n)))
    hands = [sum(1 << c for c in order[k * tricks_n : (k + 1) * tricks_n]) for k in range(SEATS)]
    ref: list[Rules] = []
    rules = Rules(
        tuple(f"c{i}" for i in range(n)),
        suit,
        rank,
        weight,
        trump,
        per_trick=per_trick,
        last_bonus=bonus,
        legal=_follow_legal(ref),
        follow_suit=follow_suit,
    )
    ref.append(rules)
    return rules, hands, draw(st.integers(0, SEATS - 1))


@st.composite
def deals(draw: Any) -> tuple[Rules, list[int], int]:
    return draw_deal(draw, tricks=(1, 3), suits=(1, 3), trumps=True, last_bonus=[0, 1, 3])


def before_search(
    rules: Rules, hands: list[int], leader: int, side: frozenset[int], careless: bool
) -> tuple[Search, int, int, int]:
    """A search of the deal from its first trick, the cards live, and the bounds the search finds before
    searching: ``(search, live, lo, hi)``."""
    left = hands[0].bit_count()
    search = Search(
        Position(rules, SEATS, hands, leader, side, 1, left),
        careless=careless,
        deadline=float("inf"),
        counter=[0],
    )
    live = 0
    for h in hands:
        live |= h
    lo, hi = search._bounds(list(hands), leader, live, 1, left)
    return search, live, lo, hi


@settings(max_examples=examples(400))
@given(deal=deals(), careless=st.booleans())
def test_the_bounds_before_search_hold_against_a_plain_minimax(
    deal: tuple[Rules, list[int], int], careless: bool
) -> None:
    assert_bounds_then_value(*deal, careless)


def assert_bounds_then_value(rules: Rules, hands: list[int], leader: int, careless: bool) -> None:
    """The bounds found before any search hold the plain minimax's value, and the search itself, which
    starts from them, finds that value."""
    search, _, lo, hi = before_search(rules, hands, leader, SIDE, careless)
    value = minimax(rules, hands, leader, careless)
    assert lo <= value <= hi
    if careless:
        assert search.minimum(10**6) == value
    else:
        assert search.window(-(10**6), 10**6) == value


def test_a_partner_who_must_overtake_ends_the_cashing_of_the_leader_s_masters() -> None:
    # Two suits, no trumps, one trick each. B: cards 0-4 (ranks 0-4); A: cards 5-11 (ranks 0-6).
    b = list(range(5))
    a = list(range(5, 12))
    ref: list[Rules] = []
    rules = Rules(
        tuple(f"B{r}" for r in range(5)) + tuple(f"A{r}" for r in range(7)),
        (0,) * 5 + (1,) * 7,
        tuple(range(5)) + tuple(range(7)),
        (0,) * 12,
        None,
        per_trick=1,
        legal=_follow_legal(ref),
    )
    ref.append(rules)
    # Seat 0 leads A5 and A4, above the opponents' As, but partner 2 holds only A6 there: it must
    # overtake, then lead B, and the opponents keep the lead; A4 is never cashed.
    hands = [
        1 << a[5] | 1 << a[4] | 1 << b[0],
        1 << a[0] | 1 << b[4] | 1 << b[3],
        1 << a[6] | 1 << b[1] | 1 << b[2],
        1 << a[1] | 1 << a[2] | 1 << a[3],
    ]
    pos = Position(rules, SEATS, hands, 0, SIDE, 1, 3)
    search = Search(pos, careless=False, deadline=float("inf"), counter=[0])
    live = sum(hands)

    assert minimax(rules, hands, 0, careless=False) == 1
    assert search._sure(hands, 0, 3) == (1, 1)
    lo, hi = search._bounds(list(hands), 0, live, 1, 3)
    assert lo <= 1 <= hi
    assert search.window(-10, 10) == 1


@settings(max_examples=examples(300))
@given(
    deal=deals(),
    below=st.integers(0, 8),
    above=st.integers(-3, 8),
    width=st.integers(1, 3),
    probes=st.lists(st.integers(-4, 8), max_size=3),
)
def test_the_careless_value_probed_from_the_top_down_against_a_plain_minimax(
    deal: tuple[Rules, list[int], int], below: int, above: int, width: int, probes: list[int]
) -> None:
    """A probe of the careless search (``minimum(cap, probe=True)``) is a bound on the right side of its
    cap: at least the cap, a lower bound; below it, an upper bound (a line's value). The descent
    (``_careless_down``) from any bounds, after any probes have filled the table, ends in the value's unit
    (units of ``width`` internal values: Tressette's points are thirds; 1, the value itself)."""
    rules, hands, leader = deal
    left = hands[0].bit_count()
    value = minimax(rules, hands, leader, careless=True)
    search = Search(
        Position(rules, SEATS, hands, leader, SIDE, 1, left),
        careless=True,
        deadline=float("inf"),
        counter=[0],
    )
    for offset in probes:
        cap = value + offset
        g = search.minimum(cap, probe=True)
        if g >= cap:
            assert cap <= g <= value
        else:
            assert value <= g < cap

    def unit(v: int) -> int:
        return v // width

    bounds = [value - below, value + above if above >= 0 else value]
    _careless_down(search, bounds, unit)
    assert bounds[0] <= value <= bounds[1]
    assert unit(bounds[0]) == unit(bounds[1]) == unit(value)
    # The branch and bound without probing, on the same table: exact below its cap.
    cap = value + above
    least = search.minimum(cap)
    if value < cap:
        assert least == value
    else:
        assert cap <= least <= value


@st.composite
def penalty_deals(draw: Any) -> tuple[Rules, list[int], int, frozenset[int]]:
    """Deals as :func:`deals` makes them, also with penalties (cards worth less than nothing, a trick
    worth -1: Barbù's contracts), a side of one player or of two, and hands that often let one team
    win every trick (each suit's cards dealt high to one team, low to the other)."""
    tricks = draw(st.integers(1, 3))
    suits = draw(st.integers(1, 3))
    trump = draw(st.sampled_from([None, 0])) if suits > 1 else None
    side = draw(st.sampled_from([SIDE, frozenset({0}), frozenset({1})]))
    n = tricks * SEATS
    suit, rank = draw_deck(draw, tricks, suits)
    if draw(st.booleans()):
        # Only penalties: every trick the side wins costs it or is worth nothing.
        weight = tuple(draw(st.lists(st.sampled_from([0, 0, -2, -6]), min_size=n, max_size=n)))
        per_trick = draw(st.sampled_from([0, -1]))
        last_bonus = draw(st.sampled_from([0, -12]))
    else:
        weight = tuple(draw(st.lists(st.sampled_from([0, 0, 1, 3, -2, -6]), min_size=n, max_size=n)))
        per_trick = draw(st.sampled_from([0, 1, -1]))
        last_bonus = draw(st.sampled_from([0, 3, -12]))
    if draw(st.booleans()):
        # Stacked: the cards, high to low, go first to one team's seats, then to the other's.
        high = draw(st.sampled_from([0, 1]))
        team = [s for s in range(SEATS) if (s in side) == (high == 0)]
        rest = [s for s in range(SEATS) if s not in team]
        seats_order = team + rest
        order = sorted(range(n), key=lambda c: (-rank[c], suit[c]))
        slots = [s for s in seats_order for _k in range(tricks)]
        hands = [0] * SEATS
        for card, seat in zip(order, slots, strict=True):
            hands[seat] |= 1 << card
    else:
        perm = draw(st.permutations(range(n)))
        hands = [sum(1 << c for c in perm[k * tricks : (k + 1) * tricks]) for k in range(SEATS)]
    ref: list[Rules] = []
    rules = Rules(
        tuple(f"c{i}" for i in range(n)),
        suit,
        rank,
        weight,
        trump,
        per_trick=per_trick,
        last_bonus=last_bonus,
        legal=_follow_legal(ref),
    )
    ref.append(rules)
    return rules, hands, draw(st.integers(0, SEATS - 1)), side


@settings(max_examples=examples(400))
@given(deal=penalty_deals(), careless=st.booleans())
def test_a_team_that_wins_every_trick_whatever_is_played_against_a_plain_minimax(
    deal: tuple[Rules, list[int], int, frozenset[int]], careless: bool
) -> None:
    """Where the team on lead wins every trick left however anyone plays (``_sweeps``), the bounds are the
    exact value; so where, only penalties counting, a team that would sweep is led into; every other
    bound holds too, with penalties and a side of one."""
    rules, hands, leader, side = deal
    search, _, lo, hi = before_search(rules, hands, leader, side, careless)
    value = minimax(rules, hands, leader, careless, side)
    assert lo <= value <= hi
    if search._sweeps(hands, leader):
        assert lo == hi == value
    if careless:
        assert search.minimum(10**6) == value
    else:
        assert search.window(-(10**6), 10**6) == value


def test_a_sweep_needs_every_card_of_the_team_on_lead_above_the_others_and_no_trump_against_it() -> None:
    # One suit and trumps (suit 0: trumps, cards 0-3; suit 1: cards 4-7), one trick each.
    ref: list[Rules] = []
    rules = Rules(
        tuple(f"c{i}" for i in range(8)),
        (0, 0, 0, 0, 1, 1, 1, 1),
        (0, 1, 2, 3, 0, 1, 2, 3),
        (0,) * 8,
        0,
        per_trick=-1,
        legal=_follow_legal(ref),
    )
    ref.append(rules)
    side = frozenset({0})
    search = Search(
        Position(rules, SEATS, [0, 0, 0, 0], 0, side, 1, 1), careless=False, deadline=0, counter=[0]
    )
    # Seat 0 holds the top of suit 1, the others lower cards of it: it wins whatever.
    assert search._sweeps([1 << 7, 1 << 4, 1 << 5, 1 << 6], 0)
    # A trump among the others could ruff: no sweep.
    assert not search._sweeps([1 << 7, 1 << 0, 1 << 5, 1 << 6], 0)
    # One of theirs above: no sweep; but led by them, they sweep (seat 0's only card is below theirs).
    assert not search._sweeps([1 << 5, 1 << 4, 1 << 7, 1 << 6], 0)
    assert search._sweeps([1 << 4, 1 << 5, 1 << 7, 1 << 6], 1)


def test_a_side_that_could_give_every_trick_away_need_not_when_it_plays_carelessly() -> None:
    # Misère-like: each trick the side (seat 0) wins costs 1. Suit 0: cards 0-6; suit 1: card 7 alone.
    ref: list[Rules] = []
    rules = Rules(
        tuple(f"c{i}" for i in range(8)),
        (0,) * 7 + (1,),
        (*range(7), 0),
        (0,) * 8,
        None,
        per_trick=-1,
        legal=_follow_legal(ref),
    )
    ref.append(rules)
    side = frozenset({0})
    # Seat 0 holds the lowest card of suit 0 and the only one of suit 1; the others all the rest.
    hands = [1 << 0 | 1 << 7, 1 << 1 | 1 << 2, 1 << 3 | 1 << 4, 1 << 5 | 1 << 6]
    live = sum(hands)
    best = Search(Position(rules, SEATS, hands, 0, side, 1, 2), careless=False, deadline=0, counter=[0])
    careless = Search(Position(rules, SEATS, hands, 0, side, 1, 2), careless=True, deadline=0, counter=[0])
    # Led into suit 0 the others win every trick: with its best play the side gets nothing, exactly.
    assert minimax(rules, hands, 0, False, side) == 0
    assert best._bounds(list(hands), 0, live, 1, 2) == (0, 0)
    # Carelessly it may lead its lone card and win that trick.
    assert minimax(rules, hands, 0, True, side) == -1
    lo, hi = careless._bounds(list(hands), 0, live, 1, 2)
    assert lo <= -1 <= hi


@settings(max_examples=examples(300))
@given(
    deal=penalty_deals(),
    careless=st.booleans(),
    offsets=st.lists(st.integers(-4, 4), min_size=1, max_size=3),
    follow=st.booleans(),
)
def test_the_zero_window_and_the_capped_searches_give_sound_bounds_against_a_plain_minimax(
    deal: tuple[Rules, list[int], int, frozenset[int]], careless: bool, offsets: list[int], follow: bool
) -> None:
    """A search around ``need`` (fail-soft) gives a lower bound at least ``need`` when the value reaches it,
    an upper bound below it otherwise; a careless search under a cap gives the value when it is below the
    cap, a bound at least the cap otherwise. Several searches in turn share one table (what each leaves
    there, bounds from a trick that decided alone among them, must hold for the next), and the rules
    sometimes follow suit inline (``follow_suit``) rather than through ``legal``."""
    rules, hands, leader, side = deal
    if follow:
        rules = dataclasses.replace(rules, follow_suit=True)
    left = hands[0].bit_count()
    value = minimax(rules, hands, leader, careless, side)
    search = Search(
        Position(rules, SEATS, hands, leader, side, 1, left),
        careless=careless,
        deadline=float("inf"),
        counter=[0],
    )
    for offset in offsets:
        need = value + offset
        bound = search.value(need)
        if value >= need:
            assert need <= bound <= value
        else:
            assert value <= bound < need
        if careless:
            least = search.minimum(need)
            if value < need:
                assert least == value
            else:
                assert need <= least <= value


@settings(max_examples=examples(200))
@given(
    deal=penalty_deals(),
    bonus=st.dictionaries(st.integers(1, 4), st.integers(-5, 5), max_size=3),
    subsets=st.lists(st.integers(0, 2**12 - 1), min_size=1, max_size=6),
    start=st.integers(1, 3),
)
def test_the_range_summed_suit_by_suit_is_the_range_worked_out_in_full(
    deal: tuple[Rules, list[int], int, frozenset[int]], bonus: dict[int, int], subsets: list[int], start: int
) -> None:
    rules, hands, leader, side = deal
    rules = dataclasses.replace(rules, trick_bonus=bonus)
    everything = (1 << len(rules.cards)) - 1
    search = Search(
        Position(rules, SEATS, hands, leader, side, 1, 1), careless=False, deadline=0, counter=[0]
    )
    for subset in subsets:
        live = subset & everything
        left = -(-live.bit_count() // SEATS)
        assert search._range(live, start, left) == search._range_of(live, start, left)


@settings(max_examples=examples(200))
@given(
    deal=deals(),
    drops=st.lists(st.tuples(st.integers(0, 2**12 - 1), st.integers(0, SEATS - 1)), min_size=1, max_size=8),
)
def test_the_best_and_the_careless_search_of_a_position_number_its_keys_alike(
    deal: tuple[Rules, list[int], int], drops: list[tuple[int, int]]
) -> None:
    """Each search of a solve reads the other's table with its own keys, as numbers: one number per key
    (equal exactly when the keys are), the same in both searches, whichever asks first."""
    rules, hands, leader = deal
    pos = Position(rules, SEATS, hands, leader, SIDE, 1, hands[0].bit_count())
    best = Search(pos, careless=False, deadline=float("inf"), counter=[0])
    loose = Search(pos, careless=True, deadline=float("inf"), counter=[0])
    numbers: dict[tuple[object, ...], int] = {}
    for k, (drop, lead) in enumerate(drops):
        sub = [h & ~drop for h in hands]
        first, second = (best, loose) if k % 2 else (loose, best)
        number = first.key(sub, lead, None, None)
        assert second.key(list(sub), lead, None, None) == number
        assert numbers.setdefault(best._key(sub, lead, None, None), number) == number
    assert len(set(numbers.values())) == len(numbers)


# ---- Barbù's penalties bounded trick by trick (the duels) -----------------------------------------------
def penalty_rules(
    suit: tuple[int, ...],
    rank: tuple[int, ...],
    weight: tuple[int, ...],
    *,
    per_trick: int,
    trick_bonus: dict[int, int],
    last_bonus: int,
    no_lead: int | None,
    forced: int | None,
) -> Rules:
    """Barbù-like rules without trumps: follow suit; ``no_lead``: a suit that may not be led while the
    leader holds another (hearts); ``forced``: a card a player void in the suit led must play (the King of
    hearts)."""
    ref: list[Rules] = []

    def legal(memory: Any, seat: int, hand: int, trick: list[tuple[int, int]]) -> int:
        r = ref[0]
        if not trick:
            if no_lead is not None:
                other = hand & ~r.suit_mask.get(no_lead, 0)
                if other:
                    return other
            return hand
        same = hand & r.suit_mask[r.suit[trick[0][1]]]
        if same:
            return same
        if forced is not None and hand >> forced & 1:
            return 1 << forced
        return hand

    rules = Rules(
        tuple(f"c{i}" for i in range(len(suit))),
        suit,
        rank,
        weight,
        None,
        per_trick=per_trick,
        trick_bonus=trick_bonus,
        last_bonus=last_bonus,
        legal=legal,
        special=frozenset({forced}) if forced is not None else frozenset(),
    )
    ref.append(rules)
    return rules


def draw_penalty_rules(draw: Any, tricks: int, *, forced_card: bool) -> tuple[Rules, int]:
    """Penalty-only rules without trumps for a deck of ``tricks`` x 4 cards (:func:`draw_deck`, up to four
    suits): cards that cost (hearts, queens, the King of hearts), tricks that cost (the Misère), tricks
    that cost by their number (the last two), a suit that may not be led, and with ``forced_card`` maybe
    a card a void player must play; and the number of the first trick left (1 to 3)."""
    suits = draw(st.integers(1, 4))
    n = tricks * SEATS
    suit, rank = draw_deck(draw, tricks, suits)
    weight = tuple(draw(st.lists(st.sampled_from([0, 0, 0, -2, -4, -6, -20]), min_size=n, max_size=n)))
    first = draw(st.integers(1, 3))
    numbers = range(first, first + tricks)
    trick_bonus = {t: -12 for t in numbers if draw(st.booleans()) and draw(st.booleans())}
    no_lead = draw(st.sampled_from([None, 0])) if suits > 1 else None
    forced = draw(st.sampled_from([None, n - 1])) if forced_card else None
    rules = penalty_rules(
        suit,
        rank,
        weight,
        per_trick=draw(st.sampled_from([0, 0, -1, -2])),
        trick_bonus=trick_bonus,
        last_bonus=draw(st.sampled_from([0, 0, -3])),
        no_lead=no_lead,
        forced=forced,
    )
    return rules, first


@st.composite
def barbu_deals(draw: Any) -> tuple[Rules, list[int], int, int, frozenset[int]]:
    """Penalty-only deals without trumps, a side of one: cards that cost (hearts, queens, the King of
    hearts), tricks that cost (the Misère), tricks that cost by their number (the last two), a suit that
    may not be led, a card a void player must play; up to four tricks, from a trick number above 1."""
    tricks = draw(st.integers(1, 4))
    n = tricks * SEATS
    rules, first = draw_penalty_rules(draw, tricks, forced_card=True)
    perm = draw(st.permutations(range(n)))
    hands = [sum(1 << c for c in perm[k * tricks : (k + 1) * tricks]) for k in range(SEATS)]
    return rules, hands, draw(st.integers(0, SEATS - 1)), first, frozenset({draw(st.integers(0, SEATS - 1))})


@settings(max_examples=examples(150))
@given(deal=barbu_deals())
def test_the_duels_never_bound_the_careless_value_above_what_a_plain_minimax_finds(
    deal: tuple[Rules, list[int], int, int, frozenset[int]],
) -> None:
    """The duels' bound is at most the least the side can be made to get, every player helping (so at most
    the best value too), whoever leads, from any trick number."""
    rules, hands, leader, first, side = deal
    left = hands[0].bit_count()
    search = Search(
        Position(rules, SEATS, hands, leader, side, first, left),
        careless=True,
        deadline=float("inf"),
        counter=[0],
    )
    value = exact(rules, hands, leader, first, side, careless=True)
    if search.duels is None:
        # No card and no trick as such costs anything (only, maybe, the tricks' numbers): no duel.
        assert not any(rules.weight) and not rules.per_trick
        return
    floor = _duel_floor(search, hands, first)
    assert floor <= value <= exact(rules, hands, leader, first, side, careless=False)
    live = 0
    for h in hands:
        live |= h
    lo, hi = search._bounds(list(hands), leader, live, first, left)
    assert lo <= value <= hi


def paired_searches(
    rules: Rules, hands: list[int], leader: int, first: int, side: frozenset[int]
) -> tuple[Search, Search]:
    """The best and the careless search of a deal from trick ``first``, as a solve pairs them: each reads
    the other's table, and the duels' memo is one."""
    pos = Position(rules, SEATS, hands, leader, side, first, hands[0].bit_count())
    best = Search(pos, careless=False, deadline=float("inf"), counter=[0])
    loose = Search(pos, careless=True, deadline=float("inf"), counter=[0])
    best.below, loose.above = loose.table, best.table
    loose.duels = best.duels
    return best, loose


@settings(max_examples=examples(100))
@given(deal=barbu_deals(), careless=st.booleans())
def test_the_searches_bounded_by_the_duels_find_the_plain_minimax_value(
    deal: tuple[Rules, list[int], int, int, frozenset[int]], careless: bool
) -> None:
    rules, hands, leader, first, side = deal
    best, loose = paired_searches(rules, hands, leader, first, side)
    value = exact(rules, hands, leader, first, side, careless)
    if careless:
        assert loose.minimum(10**6) == value
        assert best.window(-(10**6), 10**6) == exact(rules, hands, leader, first, side, careless=False)
    else:
        assert best.window(-(10**6), 10**6) == value
        assert loose.minimum(10**6) == exact(rules, hands, leader, first, side, careless=True)


@settings(max_examples=examples(150))
@given(deal=barbu_deals(), start=st.integers(0, 30), by_tricks=st.booleans())
def test_the_best_value_found_from_the_top_down_is_the_plain_minimax_value(
    deal: tuple[Rules, list[int], int, int, frozenset[int]], start: int, by_tricks: bool
) -> None:
    """Barbù's penalties: the best search (its leads in their own order) and the value found from any upper
    bound down, zero-window searches from the same lower and upper bounds a solve would start from, in a
    unit that may run either way (the Misère's tricks), give the plain minimax's value."""
    rules, hands, leader, first, side = deal
    left = hands[0].bit_count()
    best, loose = paired_searches(rules, hands, leader, first, side)
    assert best.lead_order is not None
    assert loose.lead_order is None
    value = exact(rules, hands, leader, first, side, careless=False)
    least = exact(rules, hands, leader, first, side, careless=True)
    live = 0
    for h in hands:
        live |= h
    lo, hi = best._range(live, first, left)
    hi = max(value, hi - start)  # an upper bound proved earlier, or the range's

    def unit(v: int) -> int:
        return -v if by_tricks else v

    assert _exact(best, max(lo, least), hi, unit, down=True) == (value, value)
    assert best.window(-(10**6), 10**6) == value


@settings(max_examples=examples(200))
@given(deal=barbu_deals(), offsets=st.lists(st.integers(-8, 8), min_size=1, max_size=4), probe=st.booleans())
def test_the_careless_search_cut_by_the_duels_before_its_key_finds_the_plain_minimax_value(
    deal: tuple[Rules, list[int], int, int, frozenset[int]], offsets: list[int], probe: bool
) -> None:
    """The careless search under caps around the least value (probes or branches and bounds, one after
    the other on one table, as a solve asks them): where its positions met for the first time are cut by
    the duels' floor before their key is worked out, every answer is on the right side of the cap and the
    value below the cap is the plain minimax's."""
    rules, hands, leader, first, side = deal
    _best_search, loose = paired_searches(rules, hands, leader, first, side)
    least = exact(rules, hands, leader, first, side, careless=True)
    for offset in offsets:
        cap = least + offset
        g = loose.minimum(cap, probe=probe)
        if least < cap:
            # A probe stops at the first line below the cap, a branch and bound at the least.
            assert (least <= g < cap) if probe else g == least
        else:
            assert cap <= g <= least  # a lower bound, at least the cap
    assert loose.minimum(10**6) == least


def duel_by_brute_force(rules: Rules, mine: int, theirs: int, number: int, own: bool) -> int:
    """The duel of the comment in claims.py, every sequence of rounds tried: each round any card of C's
    against any card of P's, a win (scored) when P's card is of the suit of C's and below it or P holds
    none of that suit."""
    if not mine:
        return 0
    best = 0
    for a in range(len(rules.cards)):
        if not mine >> a & 1:
            continue
        for b in range(len(rules.cards)):
            if not theirs >> b & 1:
                continue
            same = rules.suit[a] == rules.suit[b]
            void = not theirs & rules.suit_mask[rules.suit[a]]
            rest = duel_by_brute_force(rules, mine & ~(1 << a), theirs & ~(1 << b), number + 1, own)
            if void or (same and rules.rank[b] < rules.rank[a]):
                rest -= rules.weight[b]
                if own:
                    rest -= rules.weight[a] + rules.per_trick + rules.trick_bonus.get(number, 0)
                    if mine.bit_count() == 1:
                        rest -= rules.last_bonus
            best = max(best, rest)
    return best


@settings(max_examples=examples(200))
@given(deal=barbu_deals(), own=st.booleans())
def test_a_duel_s_most_is_what_trying_every_sequence_of_rounds_gives(
    deal: tuple[Rules, list[int], int, int, frozenset[int]], own: bool
) -> None:
    """The duel's search (suits sorted into a key, equal cards tried once, stopped at the most there is) is
    exact for the game it defines."""
    rules, hands, leader, first, side = deal
    (me,) = side
    search = Search(
        Position(rules, SEATS, hands, leader, side, first, hands[0].bit_count()),
        careless=True,
        deadline=float("inf"),
        counter=[0],
    )
    if search.duels is None:
        return
    for p in range(SEATS):
        if p != me:
            expected = duel_by_brute_force(rules, hands[me], hands[p], first, own)
            assert _duel(search, hands[me], hands[p], first, own) == expected


def test_a_misere_player_with_everyone_s_help_takes_only_what_the_duels_allow() -> None:
    # The Misère: each trick the side (seat 0) wins costs 1. Suit 0: cards 0-7 (ranks 0-7); suit 1: 8-11.
    rules = penalty_rules(
        (0,) * 8 + (1,) * 4,
        (*range(8), *range(4)),
        (0,) * 12,
        per_trick=-1,
        trick_bonus={},
        last_bonus=0,
        no_lead=None,
        forced=None,
    )
    side = frozenset({0})
    # Seat 0: the two lowest of suit 0 and the top of suit 1. Seat 1 holds only higher cards of suit 0:
    # whatever anyone plays, seat 1 follows suit 0 above seat 0, so seat 0 can win at most its card of
    # suit 1 (and, once seat 1 is void, nothing: seat 1 holds suit 0 to the end).
    hands = [
        1 << 0 | 1 << 1 | 1 << 11,
        1 << 5 | 1 << 6 | 1 << 7,
        1 << 2 | 1 << 8 | 1 << 9,
        1 << 3 | 1 << 4 | 1 << 10,
    ]
    search = Search(Position(rules, SEATS, hands, 0, side, 1, 3), careless=True, deadline=0, counter=[0])
    assert exact(rules, hands, 0, 1, side, careless=True) == -1
    assert _duel_floor(search, hands, 1) == -1


# ---- a leader alone above every other card, his partner's too ----------------------------------------------
@settings(max_examples=examples(300))
@given(deal=penalty_deals(), careless=st.booleans(), top=st.booleans())
def test_a_leader_whose_every_card_is_above_all_the_others_wins_every_trick_against_a_plain_minimax(
    deal: tuple[Rules, list[int], int, frozenset[int]], careless: bool, top: bool
) -> None:
    """Where the leader alone holds in each suit only cards above every other player's there (his
    partners' too: he keeps the lead), no trump against him, the bounds are the exact value. ``top``: the
    leader's hand made the top cards of the suits (the nearest to the top of their suit first), the other
    cards dealt round the others as they were."""
    rules, hands, leader, side = deal
    left = hands[0].bit_count()
    if top:
        n = len(rules.cards)
        height = {s: max(rules.rank[c] for c in range(n) if rules.suit[c] == s) for s in set(rules.suit)}
        order = sorted(range(n), key=lambda c: (height[rules.suit[c]] - rules.rank[c], c))
        mine = order[:left]
        rest = iter(order[left:])
        hands = [
            sum(1 << c for c in mine) if seat == leader else sum(1 << next(rest) for _k in range(left))
            for seat in range(SEATS)
        ]
    search, live, lo, hi = before_search(rules, hands, leader, side, careless)
    value = minimax(rules, hands, leader, careless, side)
    assert lo <= value <= hi
    if search._over(hands[leader], live & ~hands[leader]):
        assert lo == hi == value


@st.composite
def follow_deals(draw: Any) -> tuple[Rules, list[int], int]:
    """Deals as Tressette plays them: no trumps, the suit led followed, up to four suits, so that a leader
    can lead to his partner's masters (see :meth:`Search._cross`)."""
    return draw_deal(draw, tricks=(2, 3), suits=(2, 4), trumps=False, last_bonus=[0, 3], follow_suit=True)


@settings(max_examples=examples(400))
@given(deal=follow_deals(), careless=st.booleans())
def test_the_masters_cashed_after_a_lead_to_the_partner_bound_the_value_against_a_plain_minimax(
    deal: tuple[Rules, list[int], int], careless: bool
) -> None:
    assert_bounds_then_value(*deal, careless)


def test_a_leader_without_masters_leads_to_his_partner_who_cashes_his() -> None:
    # One suit, cards 0..7 low to high. The leader (0) holds 0 and 1; his partner (2) holds 7 and 6, above
    # every card of the others (3, 2, 5, 4): led to, the partner wins, then cashes his other master.
    ref: list[Rules] = []
    rules = Rules(
        tuple(f"c{i}" for i in range(8)),
        (0,) * 8,
        tuple(range(8)),
        (0, 0, 0, 0, 0, 0, 1, 3),
        None,
        legal=_follow_legal(ref),
        follow_suit=True,
    )
    ref.append(rules)
    hands = [0b11, 0b1100, 0b11000000, 0b110000]
    search, _, lo, hi = before_search(rules, hands, 0, SIDE, False)
    assert search._sure(hands, 0, 2) == (2, -1)  # every trick left
    assert lo == hi == 4 == minimax(rules, hands, 0, False)
    # The same cards with the other side on lead (seats turned by one): the side's bound falls to none.
    search, _, lo, hi = before_search(rules, [hands[1], hands[2], hands[3], hands[0]], 3, SIDE, False)
    assert hi == 0


# ---- Barbù's penalties: a claimer who can lose every trick left -------------------------------------------
@st.composite
def low_claimer_deals(draw: Any) -> tuple[Rules, list[int], int, int, frozenset[int]]:
    """Penalty-only deals without trumps where cards only follow suit (a suit that may not be led aside),
    a side of one, whose cards are drawn mostly from the lowest left so that he can often lose every
    trick; up to four tricks, from a trick number above 1."""
    tricks = draw(st.integers(1, 4))
    n = tricks * SEATS
    base, first = draw_penalty_rules(draw, tricks, forced_card=False)
    rules = dataclasses.replace(base, follow_suit=True)
    rank = rules.rank
    claimer = draw(st.integers(0, SEATS - 1))
    left = sorted(range(n), key=lambda c: (rank[c], c))
    mine = 0
    for _k in range(tricks):
        c = left.pop(draw(st.integers(0, min(len(left) - 1, draw(st.sampled_from([0, 1, 2, n]))))))
        mine |= 1 << c
    perm = draw(st.permutations(left))
    others = [p for p in range(SEATS) if p != claimer]
    hands = [0] * SEATS
    hands[claimer] = mine
    for k, p in enumerate(others):
        hands[p] = sum(1 << c for c in perm[k * tricks : (k + 1) * tricks])
    return rules, hands, draw(st.integers(0, SEATS - 1)), first, frozenset({claimer})


@settings(max_examples=examples(400))
@given(deal=low_claimer_deals())
def test_a_claimer_who_can_lose_every_trick_gets_nothing_more_against_a_plain_minimax(
    deal: tuple[Rules, list[int], int, int, frozenset[int]],
) -> None:
    """Where :func:`_ducks_all` says the claimer can lose every trick left, his best value is nothing (the
    most there is); the bounds before the best search hold either way, and the search finds the value."""
    rules, hands, leader, first, side = deal
    left = hands[0].bit_count()
    best, loose = paired_searches(rules, hands, leader, first, side)
    value = exact(rules, hands, leader, first, side, careless=False)
    ducks = _ducks_all(best, hands, leader, None)
    if ducks:
        assert value == 0
    live = 0
    for h in hands:
        live |= h
    lo, hi = best._bounds(list(hands), leader, live, first, left)
    assert lo <= value <= hi
    assert (lo, hi) == (0, 0) or not ducks or left <= 2  # (not looked for at two tricks left or fewer)
    assert best.window(-(10**6), 10**6) == value


@settings(max_examples=examples(300))
@given(a=st.integers(0, 255), b=st.integers(0, 255))
def test_each_of_the_claimer_s_lowest_cards_below_the_defence_s_is_the_sorted_comparison(
    a: int, b: int
) -> None:
    b &= ~a
    mine = [k for k in range(8) if a >> k & 1]
    theirs = [k for k in range(8) if b >> k & 1]
    assert _below(a, b) == all(x < y for x, y in zip(mine, theirs, strict=False))


def test_a_claimer_on_lead_sheds_the_lead_where_a_defender_must_overtake_then_loses_every_trick() -> None:
    # Suit 0: cards 0-3 (ranks 0-3); suit 1: cards 4-7. Claimer seat 0 holds 1 (suit 0) and 4 (the lowest
    # of suit 1). Seat 1 holds 2 and 3: the 1 led, he must overtake. Then the claimer's 4 is below every
    # card of suit 1 the defence holds, and he holds no more of suit 0: he loses every trick.
    rules = dataclasses.replace(
        penalty_rules(
            (0,) * 4 + (1,) * 4,
            (*range(4), *range(4)),
            (-2,) * 8,
            per_trick=0,
            trick_bonus={},
            last_bonus=0,
            no_lead=None,
            forced=None,
        ),
        follow_suit=True,
    )
    side = frozenset({0})
    hands = [1 << 1 | 1 << 4, 1 << 2 | 1 << 3, 1 << 0 | 1 << 7, 1 << 5 | 1 << 6]
    search = Search(Position(rules, SEATS, hands, 0, side, 1, 2), careless=False, deadline=0, counter=[0])
    assert _ducks_all(search, hands, 0, None)
    assert exact(rules, hands, 0, 1, side, careless=False) == 0
    # Seat 1 holding the 0 under the 1 and seat 2 no card of suit 0 (seat 3 the 2 and the 3 with the 4):
    # nobody must overtake the 1; leading the 5 instead, his 1 stays above the defence's 0.
    hands = [1 << 1 | 1 << 5, 1 << 0 | 1 << 6, 1 << 4 | 1 << 7, 1 << 2 | 1 << 3]
    assert not _ducks_all(search, hands, 0, None)
    # Not on lead and holding the two highest cards of suit 1 against the defence's suit-1 cards, the
    # claimer cannot lose every trick.
    hands = [1 << 6 | 1 << 7, 1 << 0 | 1 << 1, 1 << 2 | 1 << 4, 1 << 3 | 1 << 5]
    assert not _ducks_all(search, hands, 1, None)
    assert exact(rules, hands, 1, 1, side, careless=False) < 0
