"""Claims decided by search: does a claim hold against every defence, and does it hold however carelessly
the claimer's side plays?

A claim is a yes/no question: can the claimer's side reach what it claimed (in the claim's own terms, see
``docs/rules/``) against the best defence? The position at the claim, every remaining card known, goes to a
compact form (cards as bits, one hand an int) and an exact search answers it:

* zero-window alpha-beta: each search asks "does the side reach at least ``need``?" and returns a bound
  (fail-soft: at least ``need``, a lower bound; below it, an upper bound); the best value is found by a
  few such searches, bisecting at the boundaries of the claim's unit only (Tressette's points, not thirds);
* a transposition table at the start of each trick, keyed on the hands with ranks made relative to the
  live cards of each suit, the leader and what the rules of the rest depend on (each key numbered once for
  both searches of a position), keeping proved lower and upper bounds of what the rest of the hand is worth;
* one move per run of equivalent cards (adjacent in the order of the cards still live, same suit, same
  hand, same value, no special role), the moves of a position memoised;
* bounds before any search: masters the side on lead can cash one after the other (a partner following
  low, one who must overtake ending the cashing; without trumps, then a low card led to the partner's
  master and his own masters cashed the same way), and, where only tricks count and there are trumps, the
  tricks each side's trumps win however anyone plays; a team on lead that wins every trick however anyone
  plays (and, where only penalties count, such a team led into), or a leader whose every card is above all
  the others' (his partners' too), gives the exact value; the best and the careless searches bound each
  other;
* move ordering: a card that wins the trick first when the player wants the trick, a low one otherwise
  (the heaviest that loses, when nobody wants it); the lead that decided a position first when it comes
  again, and in a position met for the first time, the lead that last decided one with the same leader at
  the same trick (a killer; inside a trick too, except where only penalties count); in the best search of
  Tressette's claims in points and of Barbù's penalty contracts, the leads (and Tressette for four's second
  and third cards) ordered by what the others hold above them; Barbù's penalties found from the upper
  bound down rather than by bisection;
* a time budget (default 2 s): when it runs out the answer is ``undecided``, with the bounds proved.

"Careless" play is the claimer's side playing any legal card: the least value over every line of play,
which every player minimising gives. It is found by zero-window probes of a search where everyone
minimises (each stops at the first line below its cap, and a position whose lower bound reaches the cap is
cut): the first at ``need`` decides the verdict, the others go from the top down, each asking for a line
below the least internal value of the unit of the best line found so far, so that the last one proves only
that unit's boundary (where every value is its own unit, one branch and bound, each line found lowering
its cap, takes their place); they share the same kind of table.

Standard library only, like the rest of the engine.
"""

from __future__ import annotations

import functools
import gc
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import ombre
from .cards import rank_of, suit_of
from .core import Game, HandState
from .errors import ImpossibleMove, _
from .moves import Call, Choose, Claim, Deal, Exchange, Move, PlayCard

DEFAULT_BUDGET = 2.0  # seconds

HOLDS = "holds"
HOLDS_WITH_BEST_PLAY = "holds_with_best_play"
FAILS = "fails"
UNDECIDED = "undecided"


class OutOfTime(Exception):
    """The budget ran out inside a search."""


# ---- the compact position ---------------------------------------------------------------------------
@dataclass
class Rules:
    """What the search needs to know of a game, over the live cards numbered ``0 .. n-1``.

    ``suit[i]`` is the card's suit for following (trumps one suit), ``rank[i]`` its strength within that
    suit (higher wins), ``weight[i]`` what it is worth to the side that captures it, in the claim's
    internal unit. ``per_trick`` is what winning any trick is worth, ``trick_bonus`` what winning trick
    ``n`` (1-based) is worth beyond that, ``last_bonus`` the last trick's extra. ``special`` cards are
    never merged with their neighbours (matadors, the Fuggitivo). ``legal`` answers the cards a seat may
    play; ``after_trick`` updates the rules' own memory (Tarocchi: the suits opened). ``follow_suit``: in a
    trick, the legal cards are those of the suit led, or any card when the seat has none (the search checks
    that itself, not asking ``legal``, which still answers for the lead).
    """

    cards: tuple[str, ...]
    suit: tuple[int, ...]
    rank: tuple[int, ...]
    weight: tuple[int, ...]
    trump: int | None  # the suit id of trumps, if any
    per_trick: int = 0
    trick_bonus: Mapping[int, int] = field(default_factory=dict)
    last_bonus: int = 0
    special: frozenset[int] = frozenset()
    never_wins: frozenset[int] = frozenset()  # the Fuggitivo
    legal: Callable[[Any, int, int, list[tuple[int, int]]], int] | None = None
    after_trick: Callable[[Any, list[tuple[int, int]]], Any] | None = None
    # per_player rounding (Tressette): the gain of a trick depends on residues kept in ``extra``
    gain: Callable[[list[tuple[int, int]], int, int, Any], tuple[int, Any]] | None = None
    follow_suit: bool = False
    # Leads ordered by the position (Tressette): see :meth:`Search._lead_order`.
    lead_order: bool = False

    def __post_init__(self) -> None:
        n = len(self.cards)
        for i in range(1, n):
            if (self.suit[i - 1], self.rank[i - 1]) >= (self.suit[i], self.rank[i]):
                raise AssertionError("the live cards are numbered by suit, then rank from low to high")
        suits = sorted(set(self.suit))
        self.suit_mask = {s: sum(1 << i for i in range(n) if self.suit[i] == s) for s in suits}
        # Each suit's cards are a run of bits: its offset, width and full mask.
        self.spans = tuple(
            (s, (m & -m).bit_length() - 1, (m >> ((m & -m).bit_length() - 1)))
            for s, m in self.suit_mask.items()
        )
        # A card's class: cards of one class and suit, next to each other among the live cards, are
        # equivalent. Special cards are in a class of their own.
        self.cls = tuple(
            -1 - i if i in self.special or i in self.never_wins else self.weight[i] for i in range(n)
        )
        self.weighted = sum(1 << i for i in range(n) if self.weight[i])
        self.greedy = (
            self.per_trick >= 0
            and all(w >= 0 for w in self.weight)
            and all(v >= 0 for v in self.trick_bonus.values())
            and self.last_bonus >= 0
            and self.gain is None
        )
        # Strength against a lead: trumps above everything, the suit led next, the rest nothing.
        self.fu = next(iter(self.never_wins), -1)
        if self.follow_suit and self.never_wins:
            raise AssertionError("the suit led is the first card's: no card that never wins")


@dataclass
class Position:
    """A position between tricks: who holds what, who leads, the claimer's side, what is known."""

    rules: Rules
    seats: int
    hands: list[int]
    leader: int
    side: frozenset[int]
    trick_no: int  # the number of the next trick (1-based)
    tricks_left: int
    memory: Any = None  # the rules' own state (Tarocchi: opened suits, Kings shown)
    extra: Any = None  # per_player rounding residues
    # The searches' table keys, shared by every search of the position (see :meth:`Search.key`): each key
    # as a number, by the key itself and by the position it was found for.
    keys: dict[Any, int] = field(default_factory=dict, repr=False, compare=False)


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ---- the search ---------------------------------------------------------------------------------------
class Search:
    """Zero-window searches over one position, sharing their transposition table.

    ``careless``: every player minimises the side's result (the claimer's side may play any card).
    """

    # Slots: the search reads its attributes at every node, and slots are read faster than a dict's.
    __slots__ = (
        "_cashes",
        "_hint",
        "_keys",
        "_killers",
        "_lasts",
        "_lead",
        "_leads",
        "_min_seen",
        "_moves",
        "_orders",
        "_ranges",
        "_suits",
        "_worths",
        "above",
        "after",
        "below",
        "by_tricks",
        "care_leads",
        "careless",
        "counter",
        "deadline",
        "duels",
        "lead_order",
        "gains_only",
        "inner_killers",
        "mine",
        "on_side",
        "others",
        "penal",
        "pos",
        "probe",
        "rules",
        "seats",
        "side",
        "table",
        "teams",
    )

    def __init__(self, pos: Position, *, careless: bool, deadline: float, counter: list[int]) -> None:
        self.pos = pos
        self.rules = pos.rules
        self.careless = careless
        self.deadline = deadline
        self.counter = counter
        self.table: dict[Any, tuple[int, int]] = {}
        self.side = pos.side
        self.seats = pos.seats
        r = self.rules
        # Where the rest is worth ``per_trick`` a trick and nothing else, with trumps: the tricks each side
        # cannot help winning bound it (see :meth:`_forced`).
        self.by_tricks = (
            r.trump is not None
            and r.trump in r.suit_mask
            and not r.weighted
            and not r.trick_bonus
            and not r.last_bonus
            and r.gain is None
        )
        # Every trick the side wins costs it, or is worth nothing (Barbù's penalties, the Misère).
        self.penal = (
            r.gain is None
            and r.per_trick <= 0
            and all(w <= 0 for w in r.weight)
            and all(v <= 0 for v in r.trick_bonus.values())
            and r.last_bonus <= 0
        )
        # Per seat: whether it is on the claimer's side, and who plays after it.
        self.on_side = tuple(s in pos.side for s in range(pos.seats))
        self.after = tuple((s + 1) % pos.seats for s in range(pos.seats))
        # Per leader: the partners and the other team's seats, in seat order (see :meth:`_sure`).
        self.teams = tuple(
            (
                tuple(p for p in range(pos.seats) if p != s and self.on_side[p] == self.on_side[s]),
                tuple(p for p in range(pos.seats) if self.on_side[p] != self.on_side[s]),
            )
            for s in range(pos.seats)
        )
        # Where nothing can cost the side (every trick and card worth nothing or more), a trick that alone
        # reaches a bound decides without the rest being searched.
        self.gains_only = r.greedy
        self.others = tuple(s for s in range(pos.seats) if s not in pos.side)
        self.mine = tuple(s for s in range(pos.seats) if s in pos.side)
        self._suits: dict[tuple[int, ...], tuple[Any, ...]] = {}
        self._keys = pos.keys
        self._ranges: dict[tuple[int, int], tuple[int, int]] = {}
        # Per suit holding cards of some worth: its offset, the mask of those cards, and the memo of their
        # sums (see :meth:`_range`).
        self._worths: tuple[tuple[int, int, dict[int, tuple[int, int]]], ...] = tuple(
            (off, (r.weighted >> off) & full, {}) for _s, off, full in r.spans if (r.weighted >> off) & full
        )
        self._moves: dict[tuple[Any, ...], list[int]] = {}
        # The second and third cards' orders of Tressette for four (see :meth:`_second_order`), memoised by
        # the moves (a list kept in ``_moves`` for the whole search: its id names it) and what the order
        # reads of the position.
        self._orders: dict[tuple[int, ...], list[int]] = {}
        # The careless search's bounds by the position's own cards (see :meth:`_min_trick`).
        self._min_seen: dict[tuple[Any, ...], tuple[int, int]] = {}
        # The lead that decided each position searched (its table key), tried first when it is met again.
        self._leads: dict[int, int] = {}
        self._cashes: dict[tuple[Any, ...], tuple[int, int, bool]] = {}
        # The last trick's worth, by who leads and the cards left (the trick's number is the hand's last).
        self._lasts: dict[tuple[Any, ...], int] = {}
        # The other search's table over the same position (same keys): careless play's lower bounds are
        # lower bounds of best play (``below``, for a best search), best play's upper bounds are upper
        # bounds of careless play (``above``, for a careless one).
        self.below: dict[Any, tuple[int, int]] | None = None
        self.above: dict[Any, tuple[int, int]] | None = None
        self._hint = self._lead = -1
        # Killers: the lead that last decided (cut off) a position with the same leader and trick number,
        # tried first where the position itself has no lead of its own yet; inside a trick, the card that
        # last decided a node with the same player, trick, suit led and strength winning so far, tried
        # first, but not where only penalties count (there the first card tried nearly always decides
        # already: Barbù at 7 tricks, 4% fewer nodes for 4% more time).
        self._killers: dict[tuple[int, ...], int] = {}
        self.inner_killers = not self.penal
        self.probe = False  # see :meth:`minimum`
        # Penalties alone, no trumps, a side of one: the duels' memo (see :func:`_duel_floor`), or None.
        self.duels: dict[tuple[Any, ...], Any] | None = {} if _duels_apply(self) else None
        # Penalties alone, no trumps, a side of one, best play: the leads in their own order (see
        # :func:`_penalty_leads`), or None.
        self.lead_order: Callable[[Search, list[int], int, list[int]], list[int]] | None = (
            _penalty_leads if _penalty_leads_apply(self) else None
        )
        # Penalties alone where cards cost, no trumps, a side of one, careless play: the careless search's
        # leads in their own order, a few tricks from the end (see :func:`_care_leads`).
        self.care_leads = _care_leads_apply(self)

    # -- the table's key: hands with ranks made relative to the live cards of each suit
    def key(
        self, hands: Sequence[int], leader: int, memory: Any, extra: Any, raw: tuple[Any, ...] | None = None
    ) -> int:
        """The key as a number (the tables hash a number faster than the nested key at every node): one per
        key, the same in every search of the position, memoised by the position it is found for (``raw``,
        built here unless given)."""
        keys = self._keys
        if raw is None:
            raw = (leader, memory, extra, *hands)
        found = keys.get(raw)
        if found is not None:
            return found
        whole = self._key(hands, leader, memory, extra)
        found = keys.get(whole)
        if found is None:
            found = keys[whole] = len(keys)
        keys[raw] = found
        return found

    def _key(self, hands: Sequence[int], leader: int, memory: Any, extra: Any) -> tuple[Any, ...]:
        parts: list[Any] = [leader, memory, extra]
        memo = self._suits
        spans = self.rules.spans
        if len(hands) == 4:  # each suit's cards in each hand, spelled out for three and four players
            h0, h1, h2, h3 = hands
            locals_: Any = [(s, h0 >> o & f, h1 >> o & f, h2 >> o & f, h3 >> o & f) for s, o, f in spans]
        elif len(hands) == 3:
            h0, h1, h2 = hands
            locals_ = [(s, h0 >> o & f, h1 >> o & f, h2 >> o & f) for s, o, f in spans]
        else:
            locals_ = [(s, *[(h >> o) & f for h in hands]) for s, o, f in spans]
        for local in locals_:
            part = memo.get(local)
            if part is None:
                part = memo[local] = self._relative(local[0], local[1:])
            if part:
                parts.append(part)
        return tuple(parts)

    def _relative(self, suit: int, local: Sequence[int]) -> tuple[Any, ...]:
        """One suit of the key: the classes of its live cards low to high, and each hand's cards among them
        (bit k: the k-th live card)."""
        live = 0
        for h in local:
            live |= h
        if not live:
            return ()
        r = self.rules
        off = 0
        for s, o, _f in r.spans:
            if s == suit:
                off = o
                break
        packed = []
        for h in local:
            # Each card's place among the live cards is the number of live cards below it.
            p = 0
            while h:
                low = h & -h
                p |= 1 << (live & (low - 1)).bit_count()
                h ^= low
            packed.append(p)
        cls = r.cls
        return (suit, tuple([cls[off + b] for b in bits(live)]), *packed)

    # -- bounds of the rest, whatever is played
    def _range(self, live: int, trick_no: int, left: int) -> tuple[int, int]:
        """The least and the most the rest can be worth: what the tricks can give (memoised by the trick's
        number and the tricks left) and the worth of the cards left, summed suit by suit (each suit's sums
        memoised by its cards left, which repeat far more often than the whole)."""
        r = self.rules
        if r.gain is not None:
            return -(10**6), 10**6
        found = self._ranges.get((trick_no, left))
        if found is None:
            found = self._ranges[(trick_no, left)] = self._range_of(0, trick_no, left)
        lo, hi = found
        for off, mask, memo in self._worths:
            part = (live >> off) & mask
            sums = memo.get(part)
            if sums is None:
                sums = memo[part] = self._range_of(part << off, 0, 0, tricks=False)
            lo += sums[0]
            hi += sums[1]
        return lo, hi

    def _range_of(self, live: int, trick_no: int, left: int, *, tricks: bool = True) -> tuple[int, int]:
        """:meth:`_range` worked out in full: the worth of the cards ``live`` and, with ``tricks``, of the
        ``left`` tricks from ``trick_no``."""
        r = self.rules
        lo = hi = 0
        weight = r.weight
        for i in bits(live & r.weighted):
            w = weight[i]
            if w > 0:
                hi += w
            else:
                lo += w
        if not tricks:
            return lo, hi
        t = r.per_trick * left
        lo, hi = lo + min(t, 0), hi + max(t, 0)
        for n in range(trick_no, trick_no + left):
            b = r.trick_bonus.get(n, 0)
            lo, hi = lo + min(b, 0), hi + max(b, 0)
        lo, hi = lo + min(r.last_bonus, 0), hi + max(r.last_bonus, 0)
        return lo, hi

    def _sure(self, hands: Sequence[int], leader: int, left: int) -> tuple[int, int]:
        """Tricks, and their worth (a lower bound), that the leader's side can cash one after the other with
        masters: the leader's cards above every card of their suit held by the other side, led from the top,
        a partner following with its lowest card. A partner forced to overtake wins the trick for the side
        but takes the lead: the cashing stops there. Where the leader's side then wins every trick left, the
        worth is all that is left."""
        r = self.rules
        partner_seats, their_seats = self.teams[leader]
        mine = hands[leader]
        theirs = 0
        for s in their_seats:
            theirs |= hands[s]
        partners = [hands[s] for s in partner_seats]
        trump = r.trump
        trump_mask = r.suit_mask.get(trump, 0) if trump is not None else 0
        ruffers = [hands[s] for s in their_seats if hands[s] & trump_mask] if trump_mask else []
        # A partner void in a suit who holds trumps may have to ruff (and so take the lead).
        partner_may_ruff = bool(trump_mask) and any(h & trump_mask for h in partners)
        memo = self._cashes
        free: list[tuple[int, int]] = []  # suits cashed keeping the lead
        stopping: list[tuple[int, int]] = []  # suits whose cashing ends with the partner on lead
        cashed: list[tuple[int, int, int]] = []  # the free suits: offset, full mask, tricks
        for s, off, full in r.spans:
            held = (mine >> off) & full
            if not held or s == _FU_SUIT:
                continue
            top = ((theirs >> off) & full).bit_length()  # their highest card's place + 1, or 0
            masters = held >> top
            if not masters:
                continue
            limit = masters.bit_count()
            if ruffers and s != trump:
                for h in ruffers:
                    limit = min(limit, ((h >> off) & full).bit_count())
                if not limit:
                    continue
            follow = tuple((h >> off) & full for h in partners)
            ruff = partner_may_ruff and s != trump
            memo_key = (off, masters << top, limit, ruff, *follow)
            plan = memo.get(memo_key)
            if plan is None:
                plan = memo[memo_key] = self._cash(off, masters << top, limit, ruff, follow)
            (stopping if plan[2] else free).append(plan[:2])
            if not plan[2]:
                cashed.append((off, full, plan[0]))
        count = worth = 0
        if ruffers:
            if free or stopping:
                count, worth = max(free + stopping)
        else:
            count, worth = sum(c for c, _w in free), sum(w for _c, w in free)
            if stopping:
                c, w = max(stopping)
                count, worth = count + c, worth + w
            if count < left and len(partners) == 1 and not trump_mask and r.follow_suit:
                # Or the free suits, then a trick led to the partner, who cashes his own masters.
                c, w = self._cross(mine, theirs, partners[0], cashed)
                if c:
                    c += sum(k for k, _w in free)
                    w += sum(v for _k, v in free)
                if c and (c >= left or w + c * r.per_trick > worth + count * r.per_trick):
                    count, worth = c, w
        if not count:
            return 0, 0
        if count >= left:
            return left, -1  # every trick left: all that is left (see _bounds)
        return count, worth + count * r.per_trick

    def _cross(
        self, mine: int, theirs: int, partner: int, cashed: list[tuple[int, int, int]]
    ) -> tuple[int, int]:
        """After the leader's free suits of :meth:`_sure` (``cashed``: each suit's offset, mask and tricks),
        with no trumps and the suit followed: a trick led to the partner (the leader's lowest card of a suit
        where he holds no master and the partner holds a card above every card of the other side, which the
        partner plays), then the partner's own masters of the suits the leader did not cash, cashed as the
        leader's are (the leader following with his lowest card, one suit at most ending with him on lead).
        The partner, void in a suit the leader cashes, must discard: the plan needs as many of his other
        cards to spare. The tricks after the free suits and their worth (the side's cards only), or (0, 0)."""
        r = self.rules
        weight = r.weight
        memo = self._cashes
        done = {off for off, _full, _c in cashed}
        # The suits to lead to the partner in: the leader holds cards there but no master, the partner one.
        crossings = []
        for s, off, full in r.spans:
            if off in done or s == _FU_SUIT:
                continue
            held = (mine >> off) & full
            ph = (partner >> off) & full
            if held and ph:
                top = ((theirs >> off) & full).bit_length()
                if ph >> top and not held >> top:
                    crossings.append((off, held, ph))
        if not crossings:
            return 0, 0
        discards = 0  # the partner's, while the leader cashes
        keep = partner  # the partner's cards of the suits the leader does not cash
        for off, full, c in cashed:
            discards += max(0, c - ((partner >> off) & full).bit_count())
            keep &= ~(full << off)
        found = (0, 0)
        for off, held, ph in crossings:
            x = (held & -held).bit_length() - 1
            pt = ph.bit_length() - 1
            count, worth = 1, weight[off + x] + weight[off + pt]
            free_c = free_w = 0
            stop = (0, 0)
            for s2, off2, full2 in r.spans:
                if off2 in done or s2 == _FU_SUIT:
                    continue
                ph2 = (partner >> off2) & full2
                lead2 = (mine >> off2) & full2
                if off2 == off:
                    ph2 &= ~(1 << pt)
                    lead2 &= ~(1 << x)
                top2 = ((theirs >> off2) & full2).bit_length()
                masters = ph2 >> top2 << top2
                if not masters:
                    continue
                memo_key = (off2, masters, masters.bit_count(), False, lead2)
                plan = memo.get(memo_key)
                if plan is None:
                    plan = memo[memo_key] = self._cash(off2, masters, masters.bit_count(), False, (lead2,))
                if plan[2]:
                    stop = max(stop, plan[:2])
                else:
                    free_c += plan[0]
                    free_w += plan[1]
            count += free_c + stop[0]
            worth += free_w + stop[1]
            # The partner keeps the ``count`` cards he needs: his discards come from the rest.
            if discards <= keep.bit_count() - count and (worth, count) > (found[1], found[0]):
                found = (count, worth)
        return found

    def _cash(
        self, off: int, masters: int, limit: int, partner_may_ruff: bool, follow: Sequence[int]
    ) -> tuple[int, int, bool]:
        """One suit of :meth:`_sure`: the leader's ``masters`` (local to the suit at ``off``) led from the
        top, at most ``limit`` of them, each partner following with its lowest card of ``follow``. The
        tricks, their worth, and whether a partner took the lead."""
        weight = self.rules.weight
        held = list(follow)
        count = worth = 0
        m = masters
        while m and count < limit:
            card = m.bit_length() - 1  # the leader's highest left
            m &= ~(1 << card)
            count += 1
            worth += weight[off + card]
            stop = False
            for k, f in enumerate(held):
                if f:
                    low = f & -f
                    held[k] = f ^ low
                    worth += weight[off + low.bit_length() - 1]
                    if low.bit_length() - 1 > card:
                        stop = True
                elif partner_may_ruff:
                    stop = True
            if stop:
                return count, worth, True
        return count, worth, False

    # -- the zero-window test
    def test(self, need: int) -> bool:
        """Whether the rest is worth at least ``need``."""
        return self.value(need) >= need

    def value(self, need: int) -> int:
        """A bound of what the rest is worth, from a search around ``need`` (fail-soft): at least ``need``,
        a lower bound; below it, an upper bound."""
        return self.window(need - 1, need)

    def window(self, alpha: int, beta: int) -> int:
        """What the rest is worth, from an alpha-beta search in the window (``alpha``, ``beta``), fail-soft:
        at most ``alpha``, an upper bound; at least ``beta``, a lower bound; between them, exact."""
        pos = self.pos
        return self._trick_v(
            list(pos.hands), pos.leader, pos.trick_no, pos.tricks_left, pos.memory, pos.extra, alpha, beta
        )

    def _trick(
        self, hands: list[int], leader: int, trick_no: int, left: int, memory: Any, extra: Any, need: int
    ) -> bool:
        return self._trick_v(hands, leader, trick_no, left, memory, extra, need - 1, need) >= need

    def _trick_v(
        self,
        hands: list[int],
        leader: int,
        trick_no: int,
        left: int,
        memory: Any,
        extra: Any,
        alpha: int,
        beta: int,
    ) -> int:
        if left == 0:
            return 0
        if left == 1:
            return self._last(hands, leader, trick_no, extra)
        key = self.key(hands, leader, memory, extra)
        found = self.table.get(key)
        live = hands[0]
        for h in hands:
            live |= h
        if found is None:
            lo, hi = self.table[key] = self._bounds(hands, leader, live, trick_no, left, memory)
        else:
            lo, hi = found
        if self.below is not None:
            # What careless play is proved to get there, the least best play gets.
            floor = self.below.get(key)
            if floor is not None and floor[0] > lo:
                lo = floor[0]
                if lo > hi:
                    raise AssertionError("bounds of the careless and the best value cross")
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a = alpha if alpha >= lo else lo - 1
        b = beta if beta <= hi else hi + 1
        self._hint = self._leads.get(key, -1)
        value = self._play_v(hands, [], leader, trick_no, left, memory, extra, a, b, live, _NO_TOP)
        self._leads[key] = self._lead
        if value <= a:
            hi = value
        elif value >= b:
            lo = value
        else:
            lo = hi = value
        self.table[key] = (lo, hi)
        return value

    def _last(self, hands: list[int], leader: int, trick_no: int, extra: Any) -> int:
        """The last trick: every hand holds one card, which it must play."""
        self.counter[0] += 1
        raw = (leader, extra, *hands)
        found = self._lasts.get(raw)
        if found is not None:
            return found
        seats = self.seats
        trick = [
            (seat, hands[seat].bit_length() - 1) for seat in ((leader + k) % seats for k in range(seats))
        ]
        found = self._lasts[raw] = self.trick_gain(
            trick, trick_winner(self.rules, trick), trick_no, 1, extra
        )[0]
        return found

    def _bounds(
        self, hands: list[int], leader: int, live: int, trick_no: int, left: int, memory: Any = None
    ) -> tuple[int, int]:
        """Bounds of what the rest is worth, before any search: the range of the cards left, narrowed by
        the tricks each side cannot help winning and by the masters the side (or the defence) on lead can
        cash; exact where a team wins every trick left."""
        r = self.rules
        # A claimer who can lose every trick left gets nothing more (at two tricks left the check cost
        # more than the search it saved).
        ducks = self.lead_order is not None and left > 2 and r.follow_suit
        if ducks and _ducks_all(self, hands, leader, memory):
            return 0, 0
        if r.gain is None:
            mine = theirs = 0
            for seat in self.mine:
                mine |= hands[seat]
            for seat in self.others:
                theirs |= hands[seat]
            on_side = leader in self.side
            leading, other = (mine, theirs) if on_side else (theirs, mine)
            if self._over(leading, other):
                # The team on lead wins every trick left.
                return (self._every(live, trick_no, left),) * 2 if on_side else (0, 0)
            alone = hands[leader]
            if alone != leading and self._over(alone, live & ~alone):
                # So does the leader alone, above his partners' cards too: he keeps the lead.
                return (self._every(live, trick_no, left),) * 2 if on_side else (0, 0)
            if other and self._over(other, leading):
                # The other team would win every trick once on lead. Where every card the leader may lead
                # is of a suit it holds (not the card that never wins, after which a partner's card could
                # set the suit), it wins this trick, and then every one. Where only penalties count
                # (every trick costs the side, or is worth nothing), a team that can be led into is: the
                # defence on lead gives the side every trick (the least it can get); the side on lead
                # playing its best gives every trick away (the most).
                suits = 0
                for _s, off, full in r.spans:
                    if (other >> off) & full:
                        suits |= full << off
                legal = r.legal(memory, leader, hands[leader], []) if r.legal is not None else hands[leader]
                only = not legal & ~suits and not (r.fu >= 0 and legal >> r.fu & 1)
                if only or (self.penal and legal & suits and not (on_side and self.careless)):
                    return (0, 0) if on_side else (self._every(live, trick_no, left),) * 2
        lo, hi = whole_lo, whole_hi = self._range(live, trick_no, left)
        if self.rules.greedy and not (self.careless and leader in self.side):
            # (The side playing carelessly cashes nothing for sure.)
            count, worth = self._sure(hands, leader, left)
            if count:
                if leader in self.side:
                    if not self.careless:
                        lo = max(lo, whole_hi if worth < 0 else worth)
                else:
                    hi = whole_lo if worth < 0 else whole_hi - worth
        if self.by_tricks:
            # Each bound of the whole, never one already narrowed: the tricks may be the same ones.
            # (``mine``, ``theirs``: the side's cards and the others', found above: only tricks count.)
            least = self._forced_of(mine, theirs, len(self.mine))
            most = left - self._forced_of(theirs, mine, len(self.others))
            per = self.rules.per_trick
            if per >= 0:
                lo, hi = max(lo, whole_lo, per * least), min(hi, per * most)
            else:
                lo, hi = max(lo, per * most), min(hi, per * least)
        if self.duels is not None and left <= _DUEL_TRICKS:
            lo = max(lo, _duel_floor(self, hands, trick_no))
        return lo, hi

    def _sweeps(self, hands: Sequence[int], leader: int) -> bool:
        """Whether the leader's team wins every trick left however anyone plays (see :meth:`_over`)."""
        mine = theirs = 0
        for seat in range(self.seats):
            if (seat in self.side) == (leader in self.side):
                mine |= hands[seat]
            else:
                theirs |= hands[seat]
        return self._over(mine, theirs)

    def _over(self, mine: int, theirs: int) -> bool:
        """Whether a team holding ``mine``, once on lead, wins every trick left against ``theirs`` however
        anyone plays: in each suit, each of its cards is above every one of theirs there, they hold no trump,
        and it does not hold the card that never wins. Whatever it leads then wins, and the cards left keep
        that order, so it leads again."""
        r = self.rules
        if r.fu >= 0 and mine >> r.fu & 1:
            return False
        if r.trump is not None and theirs & r.suit_mask.get(r.trump, 0):
            return False
        for _s, off, full in r.spans:
            a = (mine >> off) & full
            if a and a & -a < (theirs >> off) & full:
                return False  # its lowest card there is below one of theirs
        return True

    def _every(self, live: int, trick_no: int, left: int) -> int:
        """What the rest is worth to a side that wins every trick left."""
        r = self.rules
        weight = r.weight
        every = sum(weight[i] for i in bits(live & r.weighted)) + r.per_trick * left + r.last_bonus
        return every + sum(r.trick_bonus.get(n, 0) for n in range(trick_no, trick_no + left))

    def _forced(self, hands: Sequence[int], group: tuple[int, ...]) -> int:
        """Tricks that ``group`` wins however anyone plays, from its trumps. Every card is played, and a
        trump wins its trick unless a higher trump falls on it. One player's trumps lie in different tricks,
        and each trump of the others can beat at most one of them: the trumps beaten are at most a matching
        of higher trumps to lower ones. Of several players, the trumps above all the others' win; at most
        one per player a trick."""
        mine = theirs = 0
        for s in range(self.seats):
            if s in group:
                mine |= hands[s]
            else:
                theirs |= hands[s]
        return self._forced_of(mine, theirs, len(group))

    def _forced_of(self, mine: int, theirs: int, players: int) -> int:
        """:meth:`_forced` from the cards of the group (``players`` of them) and of the others."""
        trumps = self.rules.suit_mask[self.rules.trump]  # type: ignore[index]
        mine &= trumps
        if not mine:
            return 0
        theirs &= trumps
        if players > 1:
            masters = (mine >> theirs.bit_length()).bit_count()
            return -(-masters // players)
        if not theirs:
            return mine.bit_count()
        # Both ascending (higher bit, higher trump): the greatest matching of theirs above mine.
        low, high = bits(mine), bits(theirs)
        i = beaten = 0
        for t in high:
            if i < len(low) and t > low[i]:
                beaten += 1
                i += 1
        return len(low) - beaten

    def _play(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        seat: int,
        trick_no: int,
        left: int,
        memory: Any,
        extra: Any,
        need: int,
        live: int,
    ) -> bool:
        return (
            self._play_v(
                hands,
                trick,
                seat,
                trick_no,
                left,
                memory,
                extra,
                need - 1,
                need,
                live,
                _top(self.rules, trick),
            )
            >= need
        )

    def _play_v(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        seat: int,
        trick_no: int,
        left: int,
        memory: Any,
        extra: Any,
        alpha: int,
        beta: int,
        live: int,
        top: tuple[int, int, int],
    ) -> int:
        """What the rest is worth from inside a trick, searched in the window (``alpha``, ``beta``) as
        :meth:`window` does. ``top``: the suit led, the strength of the card winning so far and its seat
        (-1 before any)."""
        counter = self.counter
        counter[0] += 1
        if counter[0] & 255 == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        r = self.rules
        maximise = not self.careless and self.on_side[seat]
        hand = hands[seat]
        last = len(trick) == self.seats - 1
        best: int | None = None
        fu, suit, rank, trump = r.fu, r.suit, r.rank, r.trump
        lead_suit, top_v, _top_seat = top
        moves = self.moves(hands, trick, seat, memory, live, top)
        leading = not trick
        if leading:
            if self.lead_order is not None and len(moves) > 1:
                moves = self.lead_order(self, hands, seat, moves)
            if r.lead_order and len(moves) > 1 and not self.careless:
                moves = self._lead_order(hands, seat, moves)
            # The lead that decided this position in an earlier search first.
            hint = self._hint
            if hint not in moves:
                hint = self._killers.get((trick_no, seat), -1)
            if hint in moves and moves[0] != hint:
                moves = [hint, *(c for c in moves if c != hint)]
            chosen = moves[0]
        elif r.lead_order and len(trick) == 2 and self.seats == 4 and len(moves) > 1 and not self.careless:
            moves = self._third_order(hands, seat, moves, top)
        elif r.lead_order and len(trick) == 1 and self.seats == 4 and len(moves) > 1 and not self.careless:
            moves = self._second_order(hands, seat, moves, top)
        elif self.lead_order is not None and not (r.weighted or r.per_trick):
            moves = _penalty_follows(self, moves)
        if not leading and self.inner_killers and len(moves) > 1:
            k = self._killers.get((trick_no, seat, top[0], top[1]), -1)
            if k in moves and moves[0] != k:
                moves = [k, *(c for c in moves if c != k)]
        for card in moves:
            hands[seat] = hand & ~(1 << card)
            trick.append((seat, card))
            if card == fu:
                now = top
            else:
                cs = suit[card]
                led = cs if lead_suit < 0 else lead_suit
                v = 1000 + rank[card] if cs == trump else rank[card] if cs == led else -1
                now = (led, v, seat) if v > top_v else (led, top_v, top[2])
            if last:
                winner = now[2] if now[2] >= 0 else trick[0][0]
                gain, new_extra = self.trick_gain(trick, winner, trick_no, left, extra)
                if gain >= beta and self.gains_only:
                    value = gain  # the rest cannot take the side below it: a bound that decides
                else:
                    new_memory = r.after_trick(memory, trick) if r.after_trick is not None else memory
                    value = gain + self._trick_v(
                        hands,
                        winner,
                        trick_no + 1,
                        left - 1,
                        new_memory,
                        new_extra,
                        alpha - gain,
                        beta - gain,
                    )
            else:
                value = self._play_v(
                    hands,
                    trick,
                    self.after[seat],
                    trick_no,
                    left,
                    memory,
                    extra,
                    alpha,
                    beta,
                    live,
                    now,
                )
            trick.pop()
            hands[seat] = hand
            if maximise:
                if best is None or value > best:
                    best = value
                    if leading:
                        chosen = card
                    if value >= beta:
                        break
                    if value > alpha:
                        alpha = value
            elif best is None or value < best:
                best = value
                if leading:
                    chosen = card
                if value <= alpha:
                    break
                if value < beta:
                    beta = value
        assert best is not None
        if leading:
            self._lead = chosen
            if best >= beta if maximise else best <= alpha:
                self._killers[(trick_no, seat)] = chosen
        elif self.inner_killers and len(moves) > 1 and (best >= beta if maximise else best <= alpha):
            self._killers[(trick_no, seat, top[0], top[1])] = card
        return best

    def _lead_order(self, hands: list[int], seat: int, moves: list[int]) -> list[int]:
        """The leads of a player who wants the tricks, in an order fitted to the position (the memoised order
        knows only the leader's cards): first the cards above every card of the other team in their suit,
        highest first (cashed); then low cards of a suit whose highest card is the partner's (led to him);
        then the rest, lowest first. (Tressette for four at 7 tricks: 13 to 15% fewer nodes.)"""
        r = self.rules
        partners, opponents = self.teams[seat]
        theirs = 0
        for s in opponents:
            theirs |= hands[s]
        ours = 0
        for s in partners:
            ours |= hands[s]
        mine = hands[seat]
        rank = r.rank
        keyed = []
        for _s, off, full in r.spans:
            held = (mine >> off) & full
            if not held:
                continue
            top = ((theirs >> off) & full).bit_length()  # their highest card's place + 1, or 0
            to_partner = ((ours >> off) & full).bit_length() > top
            for c in moves:
                place = c - off
                if place >= 0 and held >> place & 1:
                    if place >= top:
                        keyed.append((0, -rank[c], c))
                    else:
                        keyed.append((1 if to_partner else 2, rank[c], c))
        keyed.sort()
        return [c for _k, _r, c in keyed]

    def _third_order(
        self, hands: list[int], seat: int, moves: list[int], top: tuple[int, int, int]
    ) -> list[int]:
        """The third card of a trick of four (Tressette), for a player who wants the trick, where the last
        player could take it over (holding a higher card of the suit led) or an opponent wins it so far: first
        the cards that beat both (lowest first), then those that lose (lightest first), then those that win
        only until the last player overtakes. Where the partner's card wins and the last player cannot beat
        it, the memoised order stands (the heaviest card that loses first)."""
        r = self.rules
        rank, weight, suit = r.rank, r.weight, r.suit
        led, top_v, top_seat = top
        fourth = hands[self.after[seat]] & r.suit_mask[led]
        t4 = rank[fourth.bit_length() - 1] if fourth else -1
        if self.on_side[top_seat] == self.on_side[seat] and top_v > t4:
            return moves
        memo_key = (id(moves), 3, led, top_v, t4)  # (see :attr:`_orders`)
        found = self._orders.get(memo_key)
        if found is not None:
            return found
        keyed = []
        for c in moves:
            v = rank[c] if suit[c] == led else -1
            if v > top_v and v > t4:
                keyed.append((0, v, c))
            elif v <= top_v:
                keyed.append((1, weight[c] * 100 + v, c))
            else:
                keyed.append((2, v, c))
        keyed.sort()
        found = self._orders[memo_key] = [c for _k, _v, c in keyed]
        return found

    def _second_order(
        self, hands: list[int], seat: int, moves: list[int], top: tuple[int, int, int]
    ) -> list[int]:
        """The second card of a trick of four (Tressette), for a player who wants the trick, ordered against
        the highest cards of the suit led of the two players after him. Where his partner (the last) holds
        a card above the lead and above every card of the third player there, the heaviest card that loses
        first (the partner can take the trick); otherwise a card that beats the lead and the third player
        first (lowest first), then the lightest that loses, then those the third player could overtake."""
        r = self.rules
        rank, weight, suit = r.rank, r.weight, r.suit
        led, top_v, _top_seat = top
        third = self.after[seat]
        held = hands[third] & r.suit_mask[led]
        t3 = rank[held.bit_length() - 1] if held else -1
        held = hands[self.after[third]] & r.suit_mask[led]
        t4 = rank[held.bit_length() - 1] if held else -1
        partner_wins = t4 > top_v and t4 > t3
        memo_key = (id(moves), 2, led, top_v, t3, partner_wins)  # (see :attr:`_orders`)
        found = self._orders.get(memo_key)
        if found is not None:
            return found
        keyed = []
        for c in moves:
            v = rank[c] if suit[c] == led else -1
            if v > top_v and v > t3:
                keyed.append((2 if partner_wins else 0, v, c))
            elif v <= top_v:
                keyed.append((1, (-weight[c] if partner_wins else weight[c]) * 100 + v, c))
            else:
                keyed.append((3, v, c))
        keyed.sort()
        found = self._orders[memo_key] = [c for _k, _v, c in keyed]
        return found

    # -- the careless value: every player minimises, so it is the least value over every line of play
    def minimum(self, cap: int, *, probe: bool = False) -> int:
        """The least value of the rest over every line when it is below ``cap``; otherwise a lower bound
        of it, at least ``cap`` (branch and bound). With ``probe``, the search stops at the first line
        below ``cap`` and returns what it gives, an upper bound (a zero-window test). Careless searches
        only."""
        pos = self.pos
        self.probe = probe
        return self._min_trick(
            list(pos.hands), pos.leader, pos.trick_no, pos.tricks_left, pos.memory, pos.extra, cap
        )

    def _min_trick(
        self, hands: list[int], leader: int, trick_no: int, left: int, memory: Any, extra: Any, cap: int
    ) -> int:
        if left == 0:
            return 0
        if left == 1:
            return self._last(hands, leader, trick_no, extra)
        probe = self.probe
        # The bounds last seen of this very position (its cards, not its key): most positions met are cut
        # by them, without the key (and its hash, and the other table's) being worked out.
        raw = (leader, memory, extra, *hands)
        seen = self._min_seen.get(raw)
        if seen is not None:
            lo, hi = seen
            if lo >= cap or lo == hi:
                return lo
            if probe and hi < cap:
                return hi
        elif self.duels is not None and left <= _DUEL_TRICKS:
            # A position met for the first time: the duels' floor, from the cards alone, often reaches
            # the cap already, and then the key, the table and the other bounds are not needed.
            lo = _duel_floor(self, hands, trick_no)
            if lo >= cap:
                self._min_seen[raw] = (lo, _ABOVE)
                return lo
        key = self.key(hands, leader, memory, extra, raw)
        found = self.table.get(key)
        live = hands[0]
        for h in hands:
            live |= h
        if found is None:
            lo, hi = self.table[key] = self._bounds(hands, leader, live, trick_no, left, memory)
        else:
            lo, hi = found
        if self.above is not None:
            # What best play is proved to get at most there, careless play gets at most.
            ceiling = self.above.get(key)
            if ceiling is not None and ceiling[1] < hi:
                hi = ceiling[1]
                if lo > hi:
                    raise AssertionError("bounds of the careless and the best value cross")
        self._min_seen[raw] = (lo, hi)
        if lo >= cap or lo == hi:
            return lo
        if hi < cap:
            if probe:
                return hi
            cap = hi + 1
        # A probe stops at the first line below the cap: a floor just below it.
        value = self._min_play(
            hands, [], leader, trick_no, left, memory, extra, cap, cap - 1 if probe else lo, live, _NO_TOP
        )
        if value < cap:
            self.table[key] = self._min_seen[raw] = (lo, value) if probe else (value, value)
        elif value > lo:
            self.table[key] = self._min_seen[raw] = (value, hi)
        return value

    def _min_play(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        seat: int,
        trick_no: int,
        left: int,
        memory: Any,
        extra: Any,
        cap: int,
        floor: int,
        live: int,
        top: tuple[int, int, int],
    ) -> int:
        """The least value of the rest from inside a trick (see :meth:`minimum`); ``floor``: a lower bound
        of it, reached by a line that stops the search; ``top`` as for :meth:`_play_v`."""
        counter = self.counter
        counter[0] += 1
        if counter[0] & 255 == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        r = self.rules
        hand = hands[seat]
        last = len(trick) == self.seats - 1
        best = None
        fu, suit, rank, trump = r.fu, r.suit, r.rank, r.trump
        lead_suit, top_v, _top_seat = top
        moves = self.moves(hands, trick, seat, memory, live, top)
        if not trick and self.care_leads and len(moves) > 1 and _CARE_LEADS[0] <= left <= _CARE_LEADS[1]:
            moves = _care_leads(self, hands, seat, moves)
        plain, on_side = r.gain is None, self.on_side
        for card in moves:
            hands[seat] = hand & ~(1 << card)
            trick.append((seat, card))
            if card == fu:
                now = top
            else:
                cs = suit[card]
                led = cs if lead_suit < 0 else lead_suit
                v = 1000 + rank[card] if cs == trump else rank[card] if cs == led else -1
                now = (led, v, seat) if v > top_v else (led, top_v, top[2])
            if last:
                winner = now[2] if now[2] >= 0 else trick[0][0]
                if plain and not on_side[winner]:
                    gain, new_extra = 0, extra  # (see :meth:`trick_gain`)
                else:
                    gain, new_extra = self.trick_gain(trick, winner, trick_no, left, extra)
                if gain >= cap and self.gains_only:
                    value = gain  # the rest adds nothing below it: at or above the cap
                elif left == 2:
                    value = gain + self._last(hands, winner, trick_no + 1, new_extra)  # (see _min_trick)
                else:
                    new_memory = r.after_trick(memory, trick) if r.after_trick is not None else memory
                    value = gain + self._min_trick(
                        hands, winner, trick_no + 1, left - 1, new_memory, new_extra, cap - gain
                    )
            else:
                value = self._min_play(
                    hands,
                    trick,
                    self.after[seat],
                    trick_no,
                    left,
                    memory,
                    extra,
                    cap,
                    floor,
                    live,
                    now,
                )
            trick.pop()
            hands[seat] = hand
            if best is None or value < best:
                best = value
                if value < cap:
                    cap = value
                    if value <= floor:
                        break
        assert best is not None
        return best

    def trick_gain(
        self, trick: list[tuple[int, int]], winner: int, trick_no: int, left: int, extra: Any
    ) -> tuple[int, Any]:
        r = self.rules
        if r.gain is not None:
            return r.gain(trick, winner, left, extra)
        if not self.on_side[winner]:
            return 0, extra
        gain = r.per_trick + (r.last_bonus if left == 1 else 0)
        if r.trick_bonus:
            gain += r.trick_bonus.get(trick_no, 0)
        weight = r.weight
        for _s, c in trick:
            gain += weight[c]
        return gain, extra

    # -- moves: one per run of equivalent cards, in a promising order
    def moves(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        seat: int,
        memory: Any,
        live: int | None = None,
        top: tuple[int, int, int] | None = None,
    ) -> list[int]:
        """``live``: the cards in the hands at the start of the trick; ``top``: the suit led, the strength
        of the card winning so far and its seat (both found when not given)."""
        r = self.rules
        hand = hands[seat]
        if trick and r.follow_suit:
            legal = hand & r.suit_mask[r.suit[trick[0][1]] if top is None else top[0]] or hand
        else:
            legal = r.legal(memory, seat, hand, trick) if r.legal is not None else hand
        if not legal & (legal - 1):  # one card
            return [legal.bit_length() - 1]
        if live is None:
            live = 0
            for h in hands:
                live |= h
            for _s, c in trick:
                live |= 1 << c
        # The cards kept and their order depend only on these: a memo.
        on_side = self.on_side[seat]
        gaps = live & ((1 << legal.bit_length()) - (legal & -legal))
        if trick:
            if top is None:
                top = _top(r, trick)
            if top[0] < 0:
                memo_key: tuple[Any, ...] = (legal, gaps, on_side, -1)
            else:
                memo_key = (legal, gaps, on_side, top[0], top[1], self.on_side[top[2]])
        else:
            memo_key = (legal, gaps, on_side)
        found = self._moves.get(memo_key)
        if found is not None:
            return found
        return self._new_moves(legal, live, trick, seat, memo_key)

    def _new_moves(
        self, legal: int, live: int, trick: list[tuple[int, int]], seat: int, memo_key: tuple[Any, ...]
    ) -> list[int]:
        """The moves of :meth:`moves` not yet in its memo, found and kept there under ``memo_key``."""
        r = self.rules
        cls, suit = r.cls, r.suit
        kept: list[int] = []
        prev = -1
        m = legal
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            if (
                prev >= 0
                and suit[prev] == suit[i]
                and cls[prev] == cls[i]
                and cls[i] >= 0
                and not live & ((1 << i) - (1 << (prev + 1)))
            ):
                prev = i  # the same run as the card kept before it
                continue
            kept.append(i)
            prev = i
        if len(kept) >= 2:
            kept = self.order(kept, trick, seat)
        self._moves[memo_key] = kept
        return kept

    def order(self, cards: list[int], trick: list[tuple[int, int]], seat: int) -> list[int]:
        r = self.rules
        on_side = seat in self.side
        # Whether this player wants the trick: the side and the defence of a claim of tricks or card
        # points both do (the side does not, playing carelessly); of a penalty claim, nobody does.
        want = not (self.careless and on_side) if r.greedy else self.careless and not on_side
        rank, weight = r.rank, r.weight
        if not trick:
            # Leading: the strongest first when the trick is wanted, the weakest otherwise.
            if want:
                return sorted(cards, key=lambda c: -rank[c])
            return sorted(cards, key=lambda c: rank[c])
        lead = led_card(r, trick)
        if lead is None:
            return cards
        lead_suit, trump = r.suit[lead], r.trump
        best_v, best_seat = _best(r, trick, lead)
        partner = (best_seat in self.side) == on_side
        wins: list[int] = []
        loses: list[int] = []
        for c in cards:
            v = (
                -1
                if c == r.fu
                else 1000 + rank[c]
                if r.suit[c] == trump
                else (rank[c] if r.suit[c] == lead_suit else -1)
            )
            (wins if v > best_v else loses).append(c)
        if want and not partner:
            wins.sort(key=lambda c: rank[c])
            loses.sort(key=lambda c: (weight[c], rank[c]))
            return wins + loses
        if want:
            loses.sort(key=lambda c: (-weight[c], rank[c]))
            wins.sort(key=lambda c: rank[c])
            return loses + wins
        # Nobody here wants the trick: the heaviest card that loses it first (shed where it costs least),
        # then the strongest.
        loses.sort(key=lambda c: (-abs(weight[c]), -rank[c]))
        wins.sort(key=lambda c: rank[c])
        return loses + wins


_FU_SUIT = 5
_NO_TOP = (-1, -1, -1)  # no card led yet
_ABOVE = 1 << 62  # above any value of the rest


def led_card(r: Rules, trick: Sequence[tuple[int, int]]) -> int | None:
    fu = r.fu
    for _s, c in trick:
        if c != fu:
            return c
    return None


def _best(r: Rules, trick: Sequence[tuple[int, int]], lead: int) -> tuple[int, int]:
    """The strength of the card winning ``trick`` so far (``lead``: its first card that may win), and its
    seat."""
    lead_suit, trump, fu, suit, rank = r.suit[lead], r.trump, r.fu, r.suit, r.rank
    best_v, best_seat = -1, -1
    for s, c in trick:
        if c == fu:
            continue
        cs = suit[c]
        v = 1000 + rank[c] if cs == trump else rank[c] if cs == lead_suit else -1
        if v > best_v:
            best_v, best_seat = v, s
    return best_v, best_seat


def _top(r: Rules, trick: Sequence[tuple[int, int]]) -> tuple[int, int, int]:
    """The suit led, the strength of the card winning so far and its seat (-1 before any)."""
    lead = led_card(r, trick)
    return _NO_TOP if lead is None else (r.suit[lead], *_best(r, trick, lead))


def trick_winner(r: Rules, trick: Sequence[tuple[int, int]]) -> int:
    led = led_card(r, trick)
    if led is None:
        return trick[0][0]
    lead_suit, trump, fu = r.suit[led], r.trump, r.fu
    suit, rank = r.suit, r.rank
    best_seat, best = trick[0][0], -1
    for s, c in trick:
        if c == fu:
            continue
        cs = suit[c]
        if cs == trump:
            v = 1000 + rank[c]
        elif cs == lead_suit:
            v = rank[c]
        else:
            continue
        if v > best:
            best_seat, best = s, v
    return best_seat


# ---- Barbù's penalties bounded trick by trick: the claimer against one opponent ------------------------
#
# Where only penalties count (every trick the side wins costs it, or is worth nothing), there are no
# trumps and the side is one player C, the most C can be made to take, every player helping, bounds the
# value from below (the careless value, so the best value too). It is bounded by "duels": C against one
# opponent P, the other two taken out, in a game looser than the real one:
#
# * each round C gives one of its cards a and P one of its cards b, any two at all;
# * the round is a *win* for C, scoring what it would cost C, when b is of a's suit and below a, or when
#   P holds no card of a's suit; any other round scores nothing.
#
# Soundness. Take any line of the real game from here: trick i has C's card a_i and P's card b_i, and the
# same number of tricks as rounds. Where C wins trick i, a_i is of the suit led and above every card of
# that suit in the trick; P, who must follow suit, either held that suit and played b_i of it below a_i,
# or held none of it: a win of the duel either way. So the rounds (a_i, b_i) are a line of the duel that
# wins every trick C wins in the real line (maybe more), and every win scores at least nothing (all
# costs have one sign). Hence what C takes in the real line from its own cards, P's cards and the tricks
# themselves (per trick, by trick number, the last trick's bonus: round i is trick i) is at most the
# duel's most, "full"; what it takes from P's cards alone at most the duel's most counting only P's
# cards, "part". What C takes in a line is the sum of what it takes from its own cards and the tricks,
# and from each opponent's cards; each term is at most its duel's most, so the sum is at most
# part(Q) + part(R) + full(P), for any choice of P among the opponents Q, R (the least over the choices
# is kept), and so is the most over every line, the careless value's cost. Nothing else is
# assumed of the rules than following suit: a lead forbidden, a card forced on a void player (the King
# of hearts) only take lines away from the real game. The suits play the same part in the duel (the
# win needs only "same suit" and "void"), so a duel's position is its suits' patterns (C's and P's
# cards of each suit from low to high, each with what it costs) in any order: sorted, they are the key
# of a memo shared by every position of a solve.


# Duels from this many tricks left or fewer: their cost grows fast beyond (a tenth of a second and more at
# 11 tricks, where no budget check stops them), and 7 tricks costs a few milliseconds.
_DUEL_TRICKS = 7


def _penalties_alone(search: Search) -> bool:
    """Where only penalties count, no trump is in play and the claimer is alone (Barbù's contracts): what
    the duels, the best search's and the careless search's own lead orders all ask first."""
    r = search.rules
    return (
        search.penal
        and len(search.mine) == 1
        and (r.trump is None or r.trump not in r.suit_mask)
        and r.fu < 0
    )


def _duels_apply(search: Search) -> bool:
    r = search.rules
    return (
        _penalties_alone(search)
        # Where only the tricks' numbers cost (the last two tricks), the duels, keyed on the number too,
        # saved fewer nodes than they cost (NPUD at 7 tricks: 9% fewer nodes, 10% more CPU).
        and bool(r.weighted or r.per_trick)
    )


def _duel_floor(search: Search, hands: Sequence[int], trick_no: int) -> int:
    """A lower bound of what the rest is worth to a side of one, every player helping it take the most
    it can (see the comment above): minus part(Q) + part(R) + full(P), the least over P."""
    memo = search.duels
    assert memo is not None
    r = search.rules
    mine = hands[search.mine[0]]
    # Where neither C's cards nor the tricks themselves cost anything, "full" scores what "part" does.
    alike = not (mine & r.weighted or r.per_trick or r.trick_bonus or r.last_bonus)
    parts = 0
    extra: int | None = None
    for p in search.others:
        theirs = hands[p]
        # Both duels of C and P, by their cards (two numbers: no other key of the memo has that shape;
        # C's cards tell the trick's number).
        pair = memo.get((mine, theirs))
        if pair is None:
            part = _duel(search, mine, theirs, trick_no, False) if theirs & r.weighted else 0
            whole = part if alike else _duel(search, mine, theirs, trick_no, True)
            memo[(mine, theirs)] = (part, whole)
        else:
            part, whole = pair
        parts += part
        if extra is None or whole - part < extra:
            extra = whole - part
    return -(parts + (extra or 0))


def _duel(search: Search, mine: int, theirs: int, trick_no: int, own: bool) -> int:
    """The most the duel of ``mine`` (C's cards) against ``theirs`` (P's) scores: ``own``, counting C's
    cards and the tricks' own costs too ("full"), else P's cards only ("part"); a cost as a positive
    number."""
    r = search.rules
    memo = search.duels
    assert memo is not None
    number = trick_no if own and r.trick_bonus else 0
    raw = (own, number, mine, theirs, None)  # the cards themselves (the patterns' keys have three parts)
    found: int | None = memo.get(raw)
    if found is not None:
        return found
    weight = r.weight
    patterns = []
    for _s, off, full in r.spans:
        a, b = (mine >> off) & full, (theirs >> off) & full
        both = a | b
        if not both:
            continue
        pattern = []
        while both:
            low = both & -both
            both ^= low
            i = low.bit_length() - 1
            if a & low:
                pattern.append(-2 * weight[off + i] + 1 if own else 1)  # odd: C's
            else:
                pattern.append(-2 * weight[off + i])  # even: P's
        patterns.append(tuple(pattern))
    costs = (-r.per_trick, {n: -v for n, v in r.trick_bonus.items()}, -r.last_bonus) if own else None
    found = memo[raw] = _duel_most(tuple(sorted(patterns)), number, costs, memo)
    return found


def _duel_most(
    state: tuple[tuple[int, ...], ...],
    trick_no: int,
    costs: tuple[int, dict[int, int], int] | None,
    memo: dict[tuple[Any, ...], int],
) -> int:
    """The duel's most from ``state`` (sorted suit patterns: odd codes C's cards, even P's, a card's
    cost its code // 2), the next round being trick ``trick_no`` (0 where the number costs nothing);
    ``costs``: per trick, by number, the last trick's (the tricks' own costs, None for a "part")."""
    key = (costs is not None, trick_no, state)
    found = memo.get(key)
    if found is not None:
        return found
    rounds = 0
    most = 0  # nothing can score more: every card's cost and every round's own cost
    for pattern in state:
        for code in pattern:
            rounds += code & 1
            most += code >> 1
    if not rounds:
        memo[key] = 0
        return 0
    if costs is not None:
        per, by_number, last = costs
        most += per * rounds + last
        if by_number:
            most += sum(by_number.get(n, 0) for n in range(trick_no, trick_no + rounds))
        trick_cost = per + by_number.get(trick_no, 0) + (last if rounds == 1 else 0)
    else:
        trick_cost = 0
    next_no = trick_no + 1 if trick_no else 0
    best = 0
    n = len(state)
    for i in range(n):
        pattern = state[i]
        void = all(code & 1 for code in pattern)  # P holds none of this suit
        before = -1
        for ai, a in enumerate(pattern):
            if not a & 1:
                before = -1
                continue
            if a == before:
                continue  # the same card as the one just tried: same patterns left
            before = a
            without_a = pattern[:ai] + pattern[ai + 1 :]
            for j in range(n):
                other = without_a if j == i else state[j]
                before_b = -1
                for bi, b in enumerate(other):
                    if b & 1:
                        before_b = -1
                        continue
                    if b == before_b:
                        continue
                    before_b = b
                    win = void or (j == i and bi < ai)
                    rest = list(state)
                    rest[i] = without_a
                    rest[j] = other[:bi] + other[bi + 1 :]
                    value = _duel_most(tuple(sorted(p for p in rest if p)), next_no, costs, memo)
                    if win:
                        value += trick_cost + (a >> 1) + (b >> 1)
                    if value > best:
                        best = value
                        if best >= most:
                            memo[key] = best
                            return best
    memo[key] = best
    return best


# ---- Barbù's penalties: a claimer who can lose every trick left --------------------------------------
#
# Where only penalties count, there are no trumps, cards only follow suit and the claimer C is alone,
# playing his best: C loses every trick left, so gets the most there is (nothing), when he is not on lead
# and, in every suit, his k-th lowest card is below the defence's k-th lowest there (k up to the fewer of
# the two). He never wins, so never leads: each round of a suit is led by a defender, with a card of
# theirs not yet played; before the k-th round at least k - 1 of their cards of the suit are gone, so the
# card led is at least their k-th lowest, above C's k-th lowest, which he plays (his lowest left: he
# follows with his lowest, and discards, void, the highest card of a suit, which keeps the order). Cards
# of the defence leaving only raise their k-th lowest, so the same holds from any later position. On lead,
# C gets there by a lead that a defender must overtake (all his cards of the suit above it), the order
# then holding for C's other cards against all of the defence's.


def _ducks_all(search: Search, hands: Sequence[int], leader: int, memory: Any) -> bool:
    """Whether the claimer can lose every trick left (see the comment above)."""
    r = search.rules
    me = search.mine[0]
    mine = hands[me]
    theirs = 0
    for p in search.others:
        theirs |= hands[p]
    if leader != me:
        return _below_all(r, mine, theirs)
    legal = r.legal(memory, me, mine, []) if r.legal is not None else mine
    for x in bits(legal):
        held = r.suit_mask[r.suit[x]]
        under = held & ((1 << x) - 1)
        if any(hands[p] & held and not hands[p] & under for p in search.others) and _below_all(
            r, mine & ~(1 << x), theirs
        ):
            return True
    return False


def _below_all(r: Rules, mine: int, theirs: int) -> bool:
    """Whether, in every suit, the k-th lowest card of ``mine`` is below the k-th lowest of ``theirs``."""
    for _s, off, full in r.spans:  # noqa: SIM110  (a plain loop: no generator made at every new position)
        a = mine >> off & full
        if a and not _below(a, theirs >> off & full):
            return False
    return True


@functools.lru_cache(maxsize=1 << 16)
def _below(a: int, b: int) -> bool:
    """:func:`_below_all` for one suit's cards (``a`` and ``b``, bit k the k-th card low to high)."""
    if not a or not b:
        return True
    seen_a = seen_b = 0
    both = a | b
    while both:
        low = both & -both
        both ^= low
        if a & low:
            seen_a += 1
            if not both & b:
                return True
        else:
            seen_b += 1
            if seen_a < seen_b:
                return False
            if seen_a == a.bit_count():
                return True
    return True


def _penalty_follows(search: Search, moves: list[int]) -> list[int]:
    """The cards ``moves`` of a player inside a trick, in the best search of :func:`_penalty_leads` where
    only the tricks' numbers cost (the last two tricks): the highest first, whether or not it wins (the
    tricks before the costly ones are free; the low cards kept decide the last ones: the claimer's to duck
    under, the defence's to lead and follow under him). Memoised by the moves (a list kept for the whole
    search, see :attr:`Search._orders`). (For the defence where cards or every trick cost too, this order
    cost more nodes than it saved: Barbù at 7 tricks, 150 positions, 2.06 M nodes against 1.97 M.)"""
    if len(moves) < 2:
        return moves
    memo_key = (id(moves), 4)
    found = search._orders.get(memo_key)
    if found is None:
        r = search.rules
        weight, rank = r.weight, r.rank
        found = search._orders[memo_key] = sorted(moves, key=lambda c: (weight[c], -rank[c]))
    return found


# ---- Barbù's penalties: the leads of the best search in their own order ------------------------------
#
# Where only penalties count, there are no trumps and the claimer C is alone, the best search proves
# mostly that C can keep its penalties down: every defence is tried, C's own move must be found. Its leads
# are tried first where they cost nothing whoever wins (no trick cost, no penalty card led or able to fall
# on it: the defenders holding the suit hold none of it that costs, the others none at all), the highest
# first (shed while it is free); then where the defence can overtake them most surely: a card of a suit in
# which more defenders hold a card above it, then more cards above it, the lowest first. Where only the
# last two tricks cost, the highest first. A defender leads first a
# suit where C holds more cards above its card (the defence wants C to win the trick), the lowest first.
# Only the order of the search's moves changes, not which moves (nor the line, which
# :meth:`Search.moves` orders as before).


def _penalty_leads_apply(search: Search) -> bool:
    return not search.careless and _penalties_alone(search)


def _penalty_leads(search: Search, hands: list[int], seat: int, moves: list[int]) -> list[int]:
    """The leads ``moves`` of ``seat`` in the order above."""
    r = search.rules
    suit, rank, suit_mask = r.suit, r.rank, r.suit_mask
    if search.on_side[seat] and not (r.weighted or r.per_trick):
        # Only the last two tricks cost: the claimer's highest cards first, while the tricks are free (the
        # NPUD positions among the 40 slowest at 7 tricks: 42% fewer nodes).
        return sorted(moves, key=lambda c: -rank[c])
    if search.on_side[seat]:
        others = [hands[s] for s in search.others]
        theirs = 0
        for h in others:
            theirs |= h

        weighted = r.weighted
        own = r.per_trick

        def claimer_key(c: int) -> tuple[bool, int, int, int]:
            held = suit_mask[suit[c]]
            higher = held & ~((2 << c) - 1)
            free = not own and not weighted >> c & 1
            if free:
                for h in others:
                    if (h & held or h) & weighted:
                        free = False
                        break
            if free:
                return False, -rank[c], 0, 0
            holders = sum(1 for h in others if h & higher)
            return True, -holders, -(theirs & higher).bit_count(), rank[c]

        return sorted(moves, key=claimer_key)
    mine = hands[search.mine[0]]

    def defence_key(c: int) -> tuple[int, int]:
        return -(mine & suit_mask[suit[c]] & ~((2 << c) - 1)).bit_count(), rank[c]

    return sorted(moves, key=defence_key)


# ---- Barbù's penalties: the careless search's leads in their own order --------------------------------
#
# In the careless search of a penalty claim where cards cost, everyone works to give the claimer C the
# heaviest tricks, and the branch and bound stops as soon as a line reaches a position's lower bound, so
# the lines where C wins tricks are worth finding first. C leads first the cards that no defender must
# overtake (every defender holding the suit has a card below it), and among them those of suits fewer
# defenders lack; a defender leads first a suit where C holds a card above his. Only the order of the
# careless search's own leads changes, not which moves, nor the line (which :meth:`Search.moves` orders
# as before). Only four and five tricks from the end (``_CARE_LEADS``): there it found the least value
# far sooner on the slowest positions of five tricks (careless nodes 99,947 -> 81,790 on the 40 slowest
# of 1,000), and changed little elsewhere; with more tricks left it cost more nodes than it saved
# (150 positions of seven tricks, leads ordered from four to seven tricks left: +10 % nodes).
_CARE_LEADS = (4, 5)


def _care_leads_apply(search: Search) -> bool:
    return search.careless and bool(search.rules.weighted) and _penalties_alone(search)


def _care_leads(search: Search, hands: list[int], seat: int, moves: list[int]) -> list[int]:
    """The careless search's leads ``moves`` of ``seat`` in the order above (stable: ties keep the order of
    :meth:`Search.moves`)."""
    r = search.rules
    suit, suit_mask = r.suit, r.suit_mask
    me = search.mine[0]
    if seat == me:
        others = [hands[s] for s in search.others]

        def lead_key(c: int) -> tuple[int, int]:
            m = suit_mask[suit[c]]
            below = (1 << c) - 1
            # Defenders who must overtake it (cards of the suit, none below it), and those void in it.
            over = void = 0
            for h in others:
                held = h & m
                if not held:
                    void += 1
                elif not held & below:
                    over += 1
            return over, void

        return sorted(moves, key=lead_key)
    mine = hands[me]

    def defence_key(c: int) -> int:
        return 0 if mine & suit_mask[suit[c]] & ~((2 << c) - 1) else 1

    return sorted(moves, key=defence_key)


# ---- the games ------------------------------------------------------------------------------------------
@dataclass
class Question:
    """A claim in its own terms: the position, the claimer's side, what it claims and how to say it."""

    position: Position
    claimed: int  # in ``unit``
    need: int  # the least internal value of the rest that makes the claim good
    unit: str
    to_unit: Callable[[int], int]  # the internal value of the rest, in the claim's unit
    claimer: int
    side: tuple[int, ...]
    better: int = 1  # +1: more of the unit is better for the claimer; -1: less is (Barbù's Misère)


def _live_cards(
    deck_cards: Sequence[str], hands: Sequence[frozenset[str]], order: Callable[[str], tuple[int, int]]
) -> tuple[str, ...]:
    """The cards still in the hands, numbered by suit then rank (low to high)."""
    held = set().union(*hands)
    return tuple(sorted((c for c in deck_cards if c in held), key=order))


def _masks(cards: Sequence[str], hands: Sequence[frozenset[str]]) -> list[int]:
    index = {c: i for i, c in enumerate(cards)}
    return [sum(1 << index[c] for c in h) for h in hands]


def _follow_legal(rules_ref: list[Rules]) -> Callable[[Any, int, int, list[tuple[int, int]]], int]:
    def legal(memory: Any, seat: int, hand: int, trick: list[tuple[int, int]]) -> int:
        if not trick:
            return hand
        r = rules_ref[0]
        same = hand & r.suit_mask[r.suit[trick[0][1]]]
        return same or hand

    return legal


_SUIT_ID = {"S": 0, "H": 1, "D": 2, "C": 3, "T": 4, "F": 5}


def _seat(claim: Claim) -> int:
    if claim.seat is None:
        raise AssertionError("a claim is a seat's move")
    return claim.seat


def _tressette(game: Any, state: Any, claim: Claim, hands: Sequence[frozenset[str]]) -> Question:
    from . import tressette as t

    seats = state.seats
    play = state.trickplay
    cards = _live_cards(game.deck.cards, hands, lambda c: (_SUIT_ID[suit_of(c)], t.ORDER.index(rank_of(c))))
    side = t.sides_of(seats)[t.side_of(seats, _seat(claim))]
    left = state.hand_size - len(play.done)
    ref: list[Rules] = []
    suit = tuple(_SUIT_ID[suit_of(c)] for c in cards)
    rank = tuple(t.ORDER.index(rank_of(c)) for c in cards)
    seed = state.options["rounding"] == "seed"
    if claim.split is None:
        rules = Rules(
            cards,
            suit,
            rank,
            (0,) * len(cards),
            None,
            per_trick=1,
            legal=_follow_legal(ref),
            follow_suit=True,
        )
        ref.append(rules)
        pos = Position(
            rules, seats, _masks(cards, hands), play.current.leader, frozenset(side), len(play.done) + 1, left
        )
        return Question(pos, left, left, "tricks", lambda v: v, _seat(claim), side)
    claimed = claim.split[t.side_of(seats, _seat(claim))]
    units = game._units_by_seat(state)
    weight = tuple(t.UNITS.get(rank_of(c), 0) for c in cards)
    last = t.LAST_TRICK_UNITS if seed else 3
    if state.options["team_rounding"] == "per_player" and len(side) > 1:

        def points(u: int, last_won: bool) -> int:
            return (u + (t.LAST_TRICK_UNITS if last_won else 0) + 1) // 3 if seed else u // 3 + last_won

        def gain(trick: list[tuple[int, int]], winner: int, left_now: int, extra: Any) -> tuple[int, Any]:
            if winner not in side:
                return 0, extra
            k = side.index(winner)
            u = extra[k]
            add = sum(weight[c] for _s, c in trick)
            delta = points(u + add, left_now == 1) - points(u, False)
            return delta, (*extra[:k], (u + add) % 3, *extra[k + 1 :])

        rules = Rules(
            cards,
            suit,
            rank,
            weight,
            None,
            legal=_follow_legal(ref),
            gain=gain,
            follow_suit=True,
            lead_order=True,
        )
        ref.append(rules)
        base = sum(points(units[s], False) for s in side)
        pos = Position(
            rules,
            seats,
            _masks(cards, hands),
            play.current.leader,
            frozenset(side),
            len(play.done) + 1,
            left,
            extra=tuple(units[s] % 3 for s in side),
        )
        return Question(pos, claimed, claimed - base, "points", lambda v: base + v, _seat(claim), side)
    acc = sum(units[s] for s in side)
    rules = Rules(
        cards,
        suit,
        rank,
        weight,
        None,
        last_bonus=last,
        legal=_follow_legal(ref),
        follow_suit=True,
        lead_order=True,
    )
    ref.append(rules)
    pos = Position(
        rules, seats, _masks(cards, hands), play.current.leader, frozenset(side), len(play.done) + 1, left
    )
    if seed:
        return Question(
            pos, claimed, 3 * claimed - 1 - acc, "points", lambda v: (acc + v + 1) // 3, _seat(claim), side
        )
    return Question(pos, claimed, 3 * claimed - acc, "points", lambda v: (acc + v) // 3, _seat(claim), side)


def _barbu(game: Any, state: Any, claim: Claim, hands: Sequence[frozenset[str]]) -> Question:
    from . import barbu as b

    spec = game.spec(state)
    play = state.trick_play
    cards = _live_cards(game.deck.cards, hands, lambda c: (_SUIT_ID[suit_of(c)], b.RANK_INDEX[rank_of(c)]))
    left = b.HAND_SIZE - len(play.done)
    seat = _seat(claim)
    trump = state.trump
    suit = tuple(_SUIT_ID[suit_of(c)] for c in cards)
    rank = tuple(b.RANK_INDEX[rank_of(c)] for c in cards)
    hearts = _SUIT_ID["H"]
    options = state.options
    index = {c: i for i, c in enumerate(cards)}
    forced = spec.forced_discard if options["must_discard_kh"] and trump is None else None
    forced_bit = 1 << index[forced] if forced in index else 0
    trump_id = _SUIT_ID[trump] if trump is not None else None
    overtrump = options["mp_trump_obligation"] == "overtrump_on_trump_lead" and trump is not None
    must_trump = options["mp_trump_obligation"] == "must_trump" and trump is not None
    ref: list[Rules] = []

    def legal(memory: Any, s: int, hand: int, trick: list[tuple[int, int]]) -> int:
        r = ref[0]
        if not trick:
            if spec.no_heart_lead:
                other = hand & ~r.suit_mask.get(hearts, 0)
                if other:
                    return other
            return hand
        led = r.suit[trick[0][1]]
        same = hand & r.suit_mask[led]
        if same:
            if overtrump and led == trump_id:
                floor = max(r.rank[c] for _s, c in trick if r.suit[c] == trump_id)
                higher = 0
                for i in bits(same):
                    if r.rank[i] > floor:
                        higher |= 1 << i
                if higher:
                    return higher
            return same
        if must_trump and led != trump_id:
            trumps = hand & r.suit_mask.get(trump_id, 0)  # type: ignore[arg-type]
            if trumps:
                return trumps
        if forced_bit and hand & forced_bit:
            return forced_bit
        return hand

    # Without these obligations a card in a trick only follows suit (see Rules.follow_suit).
    follow = not (overtrump or must_trump or forced_bit)
    by_tricks = spec.claim_split == "tricks"
    if by_tricks:
        sign = 1 if spec.per_trick > 0 else -1
        rules = Rules(
            cards, suit, rank, (0,) * len(cards), trump_id, per_trick=sign, legal=legal, follow_suit=follow
        )
        claimed = left if claim.split is None else claim.split[seat]
        unit, need, to_unit = "tricks", sign * claimed, (lambda v: sign * v)
    else:
        weight = tuple(spec.card_penalties.get(c, 0) for c in cards)
        bonus = {n: v for n, v in spec.trick_penalties.items() if n > len(play.done)}
        rules = Rules(
            cards,
            suit,
            rank,
            weight,
            trump_id,
            trick_bonus=bonus,
            legal=legal,
            special=frozenset({index[forced]}) if forced in index else frozenset(),
            follow_suit=follow,
        )
        taken = {c for tr in play.done for c in tr.cards}
        rest = sum(v for c, v in spec.card_penalties.items() if c not in taken) + sum(bonus.values())
        claimed = rest if claim.split is None else claim.split[seat]
        unit, need, to_unit = "points", claimed, (lambda v: v)
    ref.append(rules)
    pos = Position(
        rules, 4, _masks(cards, hands), play.current.leader, frozenset({seat}), len(play.done) + 1, left
    )
    return Question(
        pos, claimed, need, unit, to_unit, seat, (seat,), better=-1 if by_tricks and spec.per_trick < 0 else 1
    )


def _ombre(game: Any, state: Any, claim: Claim, hands: Sequence[frozenset[str]]) -> Question:
    trump = state.trump_suit()
    natural = game.natural(state)
    count = game.matador_count(state)
    order = ombre.layout(trump, natural=natural)
    play = state.tricks
    suits = ombre.effective_suits(trump)
    cards = _live_cards(
        game.deck.cards,
        hands,
        lambda c: (_SUIT_ID[suits[c]], len(order[suits[c]]) - order[suits[c]].index(c)),
    )
    index = {c: i for i, c in enumerate(cards)}
    suit = tuple(_SUIT_ID[suits[c]] for c in cards)
    rank = tuple(len(order[suits[c]]) - order[suits[c]].index(c) for c in cards)
    tid = _SUIT_ID["T"]
    mats = frozenset(index[m] for m in ombre.matadors(trump, count) if m in index)
    forceable = {
        i: sum(1 << index[f] for f in ombre.forceable(c, trump, count) if f in index)
        for c, i in index.items()
        if suits[c] == "T"
    }
    ref: list[Rules] = []

    def legal(memory: Any, s: int, hand: int, trick: list[tuple[int, int]]) -> int:
        if not trick:
            return hand
        r = ref[0]
        led = trick[0][1]
        if r.suit[led] == tid:
            trumps = hand & r.suit_mask.get(tid, 0)
            return trumps if trumps & forceable[led] else hand
        same = hand & r.suit_mask[r.suit[led]]
        return same or hand

    rules = Rules(cards, suit, rank, (0,) * len(cards), tid, per_trick=1, legal=legal, special=mats)
    ref.append(rules)
    hombre = state.hombre
    side = (hombre,) if _seat(claim) == hombre else tuple(s for s in range(3) if s != hombre)
    split = game.claim_split(state, claim)
    claimed = sum(split[s] for s in side)
    left = len(hands[play.current.leader])
    pos = Position(
        rules, 3, _masks(cards, hands), play.current.leader, frozenset(side), len(play.done) + 1, left
    )
    return Question(pos, claimed, claimed, "tricks", lambda v: v, _seat(claim), side)


def _tarocchi(game: Any, state: Any, claim: Claim, hands: Sequence[frozenset[str]]) -> Question:
    from . import tarocchi as tr

    play = state.trickplay
    cards = _live_cards(
        game.deck.cards, hands, lambda c: (_SUIT_ID[tr.card_suit(c)], -1 if c == tr.FU else tr._IN_SUIT[c])
    )
    index = {c: i for i, c in enumerate(cards)}
    suit = tuple(_SUIT_ID[tr.card_suit(c)] for c in cards)
    rank = tuple(-1 if c == tr.FU else tr._IN_SUIT[c] for c in cards)
    options = state.options
    tid = _SUIT_ID["T"]
    plain = {_SUIT_ID[s]: s for s in tr.PLAIN}
    fu = index.get(tr.FU, -1)
    pip = frozenset(i for c, i in index.items() if tr.is_pip(c))
    named = {(kind, _SUIT_ID[s]): index.get(kind + s, -1) for kind in "KNJ" for s in tr.PLAIN}
    scope_rest = options["fanta_rule_scope"] == "rest_of_deal"
    overrides = options["fuggitivo_overrides_obligations"]
    must_trump = options["must_trump_when_void"]
    overtrump = options["must_overtrump"]
    ref: list[Rules] = []

    def obligation(memory: Any, hand: int, s: int, leading: bool, king_shown: bool) -> int:
        """The card a special rule requires (its index), or -1."""
        if s not in plain:
            return -1
        opened, _kings = memory
        r = ref[0]
        if s not in opened:
            king = named[("K", s)]
            if king >= 0 and hand >> king & 1:
                return king
            cav = named[("N", s)]
            if cav >= 0 and hand >> cav & 1:
                mine = hand & r.suit_mask[s]
                if mine.bit_count() == 2 and all(i in pip for i in bits(mine & ~(1 << cav))):
                    return cav
        if not leading and king_shown:
            fanta = named[("J", s)]
            if fanta >= 0 and hand >> fanta & 1:
                return fanta
        return -1

    def legal(memory: Any, s: int, hand: int, trick: list[tuple[int, int]]) -> int:
        r = ref[0]
        led = next((c for _s, c in trick if c != fu), None)
        out = 0
        if led is None:
            if hand == 1 << fu if fu >= 0 else False:
                return hand
            for c in bits(hand):
                if c == fu:
                    continue
                ob = obligation(memory, hand, r.suit[c], True, False)
                if ob < 0 or ob == c:
                    out |= 1 << c
            return out
        lead = r.suit[led]
        king_shown = False
        if lead in plain:
            king = named[("K", lead)]
            king_shown = (king >= 0 and any(c == king for _s, c in trick)) or (
                scope_rest and lead in memory[1]
            )
        mine = hand & r.suit_mask.get(lead, 0)
        trumps = hand & r.suit_mask.get(tid, 0)
        best_trump = -1
        best_plain = -1
        for _s, c in trick:
            if r.suit[c] == tid:
                if best_trump < 0 or r.rank[c] > r.rank[best_trump]:
                    best_trump = c
            elif r.suit[c] == lead and c != fu and (best_plain < 0 or r.rank[c] > r.rank[best_plain]):
                best_plain = c
        ob = obligation(memory, hand, lead, False, king_shown)
        for c in bits(hand):
            if c == fu:
                if overrides or ob < 0:
                    out |= 1 << c
                continue
            if r.suit[c] != lead:
                if mine:
                    continue
                if lead != tid and must_trump and r.suit[c] != tid and trumps:
                    continue
                if (
                    r.suit[c] == tid
                    and overtrump
                    and best_trump >= 0
                    and r.rank[c] <= r.rank[best_trump]
                    and any(r.rank[x] > r.rank[best_trump] for x in bits(trumps))
                ):
                    continue
                out |= 1 << c
                continue
            if ob >= 0:
                if c == ob:
                    out |= 1 << c
                continue
            if overtrump:
                beat = best_trump if lead == tid else (best_plain if best_trump < 0 else -1)
                if (
                    beat >= 0
                    and r.rank[c] <= r.rank[beat]
                    and any(r.rank[x] > r.rank[beat] for x in bits(mine))
                ):
                    continue
            out |= 1 << c
        return out

    def after(memory: Any, trick: list[tuple[int, int]]) -> Any:
        r = ref[0]
        opened, kings = memory
        led = next((c for _s, c in trick if c != fu), None)
        if led is None or r.suit[led] not in plain:
            return memory
        s = r.suit[led]
        if s not in opened:
            opened = opened | {s}
        king = named[("K", s)]
        if s not in kings and king >= 0 and any(c == king for _s, c in trick):
            kings = kings | {s}
        return opened, kings

    special = frozenset({fu} if fu >= 0 else set()) | frozenset(i for i in named.values() if i >= 0)
    rules = Rules(
        cards,
        suit,
        rank,
        (0,) * len(cards),
        tid,
        per_trick=1,
        legal=legal,
        after_trick=after,
        special=special,
        never_wins=frozenset({fu} if fu >= 0 else set()),
    )
    ref.append(rules)
    opened, kings = tr._opened(play)
    memory = (frozenset(_SUIT_ID[s] for s in opened), frozenset(_SUIT_ID[s] for s in kings))
    left = tr.HAND_SIZE - len(play.done)
    pos = Position(
        rules,
        3,
        _masks(cards, hands),
        play.current.leader,
        frozenset({_seat(claim)}),
        len(play.done) + 1,
        left,
        memory=memory,
    )
    return Question(pos, left, left, "tricks", lambda v: v, _seat(claim), (_seat(claim),))


_BUILDERS = {
    "tressette": _tressette,
    "barbu": _barbu,
    "hombre_it": _ombre,
    "lhombre": _ombre,
    "tarocchi": _tarocchi,
}


def question(
    game: Game[Any], state: HandState, claim: Claim, hands: Sequence[Sequence[str]] | None = None
) -> Question:
    """The claim at ``state`` (the hand just before it) as a search question. ``hands``: the remaining
    hands keyed by the director when the deal was not recorded (checked against what is known)."""
    builder = _BUILDERS.get(game.name)
    if builder is None or claim.seat is None or not game.can_claim(state, claim.seat):
        raise ImpossibleMove(
            "claim.not_allowed", _("only the player on lead may claim, between tricks"), field="seat"
        )
    game.check_claim(state, claim)
    holdings = state.hands
    if hands is None:
        if holdings.hands is None:
            raise ImpossibleMove(
                "claim.hands_unknown",
                _("the deal is not recorded: key the remaining hands to decide the claim"),
                field="hands",
            )
        held = tuple(frozenset(h) for h in holdings.hands)
    else:
        held = check_keyed_hands(game, state, hands)
    if game.name == "barbu" and game.spec(state).is_domino:  # type: ignore[attr-defined]
        raise ImpossibleMove("claim.not_allowed", _("claims are not used in this game"), field="type")
    return builder(game, state, claim, held)


def check_keyed_hands(
    game: Game[Any], state: HandState, hands: Sequence[Sequence[str]]
) -> tuple[frozenset[str], ...]:
    """The hands a director keyed at a claim, checked against the cards already played and the counts."""
    holdings = state.hands
    if len(hands) != state.seats:
        raise ImpossibleMove(
            "claim.hands",
            _("give the remaining cards of each of the {count} seats"),
            field="hands",
            count=state.seats,
        )
    seen: set[str] = set()
    out = []
    for seat, hand in enumerate(hands):
        cards = frozenset(hand)
        if len(cards) != len(hand):
            raise ImpossibleMove("card.repeated", _("the same card is named twice"), field="hands")
        for card in cards:
            game.deck.check(card, field="hands")
            holdings.check_available(card, field="hands")
            if card in seen:
                raise ImpossibleMove("card.repeated", _("the same card is named twice"), field="hands")
            seen.add(card)
        if holdings.hands is not None and cards != holdings.hands[seat]:
            raise ImpossibleMove(
                "claim.hands",
                _("the keyed cards of {seat} are not the ones the deal gives"),
                field="hands",
                seat=seat,
            )
        if len(cards) != holdings.counts[seat]:
            raise ImpossibleMove(
                "claim.hands",
                _("{seat} holds {count} cards"),
                field="hands",
                seat=seat,
                count=holdings.counts[seat],
            )
        out.append(cards)
    return tuple(out)


# ---- answering a claim ----------------------------------------------------------------------------------
def _exact(
    search: Search, lo: int, hi: int, unit: Callable[[int], int], *, down: bool = False
) -> tuple[int, int]:
    """Narrow the bounds [lo, hi] of a value down to one value in the claim's unit (``unit`` maps the
    internal value to it, monotonic: Tressette's points are thirds) with zero-window searches, each asked
    at a boundary of the unit and narrowing by the bound it returns (fail-soft): by bisection, or with
    ``down`` from the top down (Barbù's penalties, see :func:`_penalty_leads`): each search then asks
    whether the value reaches the upper bound proved so far, and a failure lowers that bound to what the
    search returns. The searches that fail are cheap there (one good defence each time the claimer
    moves), and the one that succeeds is asked at the value itself, not below it, where its proof is no
    cheaper and a bisection would need another."""
    while unit(lo) != unit(hi):
        need = _probe_down(lo, hi, unit) if down else _probe_middle(lo, hi, unit)
        g = search.value(need)
        if g >= need:
            lo = max(lo, g)
        else:
            hi = min(hi, g)
    return lo, hi


def _probe_middle(lo: int, hi: int, unit: Callable[[int], int]) -> int:
    """Where a bisection of [lo, hi] asks: the least internal value of a unit (a search there decides
    between whole units) at or above the middle, or below it when none is."""
    need = (lo + hi + 1) // 2
    up = need
    while up <= hi and unit(up) == unit(up - 1):
        up += 1
    if up <= hi:
        return up
    while unit(need) == unit(need - 1):
        need -= 1
    return need


def _probe_down(lo: int, hi: int, unit: Callable[[int], int]) -> int:
    """Where the search from the top down asks: the least internal value of ``hi``'s unit (above ``lo``)."""
    need = hi
    while need > lo + 1 and unit(need - 1) == unit(hi):
        need -= 1
    return need


def _careless_down(search: Search, bounds: list[int], unit: Callable[[int], int]) -> None:
    """Narrow the bounds ``[lo, hi]`` of the careless value (in place: what is proved stays when the time
    runs out) down to one value in the claim's unit, from the top down: each probe (see
    :meth:`Search.minimum`) asks for a line below the least internal value of ``hi``'s unit; the line
    found lowers ``hi`` to what it gives, and where there is none, ``lo`` reaches that unit. The last
    probe proves only the unit's boundary, not the least value itself (Tressette's points are thirds),
    and a value at the lower bound proved is found without a proof at all. Where every value is its own
    unit (Barbù's points), there is no boundary to stop at: one branch and bound under ``hi`` finds the
    least value at once (a little cheaper there than probes one line at a time)."""
    while unit(bounds[0]) != unit(bounds[1]):
        hi = bounds[1]
        if unit(hi - 1) != unit(hi) and unit(hi - 2) != unit(hi - 1):
            # Every value its own unit (Barbù's points): one branch and bound finds the least at once.
            g = search.minimum(hi)
            if g < hi:
                bounds[0] = bounds[1] = g
            else:
                bounds[0] = max(bounds[0], g)
            continue
        cap = _probe_down(bounds[0], bounds[1], unit)
        g = search.minimum(cap, probe=True)
        if g >= cap:
            bounds[0] = max(bounds[0], g)
        else:
            bounds[1] = min(bounds[1], g)


def _line(q: Question, search: Search, need: int) -> tuple[list[tuple[int, int]], int]:
    """A line of play from the claim to the end where the side gets less than ``need``: the defence's
    answers (and in a careless search the claimer's own cards) that keep it below, the side's best try
    otherwise. Returns the plays (seat, card index) and the internal value the line gives."""
    pos = q.position
    r = pos.rules
    hands = list(pos.hands)
    leader, trick_no, left, memory, extra = pos.leader, pos.trick_no, pos.tricks_left, pos.memory, pos.extra
    total = 0
    line: list[tuple[int, int]] = []
    while left:
        trick: list[tuple[int, int]] = []
        seat = leader
        for _k in range(pos.seats):
            moves = search.moves(hands, trick, seat, memory)
            chosen = moves[0]
            for card in moves:
                if _fails_after(
                    search, hands, trick, seat, card, trick_no, left, memory, extra, need - total
                ):
                    chosen = card
                    break
            hands[seat] &= ~(1 << chosen)
            trick.append((seat, chosen))
            line.append((seat, chosen))
            seat = (seat + 1) % pos.seats
        winner = trick_winner(r, trick)
        gain, extra = search.trick_gain(trick, winner, trick_no, left, extra)
        total += gain
        memory = r.after_trick(memory, trick) if r.after_trick is not None else memory
        leader, trick_no, left = winner, trick_no + 1, left - 1
    return line, total


def _fails_after(
    search: Search,
    hands: list[int],
    trick: list[tuple[int, int]],
    seat: int,
    card: int,
    trick_no: int,
    left: int,
    memory: Any,
    extra: Any,
    need: int,
) -> bool:
    """Whether, ``card`` played by ``seat``, the side still falls short of ``need`` against best play."""
    r = search.rules
    hands = list(hands)
    hands[seat] &= ~(1 << card)
    trick = [*trick, (seat, card)]
    if len(trick) == search.pos.seats:
        winner = trick_winner(r, trick)
        gain, new_extra = search.trick_gain(trick, winner, trick_no, left, extra)
        new_memory = r.after_trick(memory, trick) if r.after_trick is not None else memory
        return not search._trick(hands, winner, trick_no + 1, left - 1, new_memory, new_extra, need - gain)
    live = 0
    for h in hands:
        live |= h
    for _s, c in trick:
        live |= 1 << c
    return not search._play(
        hands, trick, (seat + 1) % search.pos.seats, trick_no, left, memory, extra, need, live
    )


def solve(q: Question, *, budget: float = DEFAULT_BUDGET) -> dict[str, Any]:
    """Answer a claim question: the verdict, the values, the line that shows it, the effort."""
    # The search makes no reference cycles, only many small tuples that its tables keep: the cyclic
    # garbage collector, which would walk those tables again and again, is paused while it runs.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _solve(q, budget=budget)
    finally:
        if paused:
            gc.enable()


def _solve(q: Question, *, budget: float) -> dict[str, Any]:
    start = time.perf_counter()
    deadline = start + budget
    counter = [0]
    pos = q.position
    best = Search(pos, careless=False, deadline=deadline, counter=counter)
    careless = Search(pos, careless=True, deadline=deadline, counter=counter)
    best.below, careless.above = careless.table, best.table
    careless.duels = best.duels  # the duels are the same for both searches
    careless._suits = best._suits  # and so are the keys' parts
    live = 0
    for h in pos.hands:
        live |= h
    lo, hi = best._range(live, pos.trick_no, pos.tricks_left)
    best_b = [lo, hi]
    care_b = [lo, hi]
    verdict = UNDECIDED
    line: list[tuple[int, int]] | None = None
    line_value: int | None = None
    need = q.need
    try:
        first = best.value(need)
        if first >= need:
            best_b[0] = max(best_b[0], first)
            # A probe at ``need``: at or above it, a lower bound that decides; below it, a line's value.
            least = careless.minimum(need, probe=True)
            if least >= need:
                care_b[0] = max(care_b[0], least)
                verdict = HOLDS
            else:
                care_b[1] = min(care_b[1], least)
                verdict = HOLDS_WITH_BEST_PLAY
                line, line_value = _line(q, careless, need)
        else:
            best_b[1] = min(best_b[1], first)
            care_b[1] = min(care_b[1], best_b[1])
            verdict = FAILS
            line, line_value = _line(q, best, need)
        _careless_down(careless, care_b, q.to_unit)
        down = best.lead_order is not None
        best_b = list(_exact(best, max(best_b[0], care_b[0]), best_b[1], q.to_unit, down=down))
    except OutOfTime:
        pass  # the verdict stands if it was reached; the values not found are given as bounds
    elapsed = (time.perf_counter() - start) * 1000
    answer: dict[str, Any] = {
        "verdict": verdict,
        "claimed": q.claimed,
        "best": q.to_unit(best_b[0]) if q.to_unit(best_b[0]) == q.to_unit(best_b[1]) else None,
        "careless": q.to_unit(care_b[0]) if q.to_unit(care_b[0]) == q.to_unit(care_b[1]) else None,
        "unit": q.unit,
        "tricks_left": pos.tricks_left,
        "nodes": counter[0],
        "elapsed_ms": round(elapsed, 2),
        "claimer": q.claimer,
        "side": list(q.side),
    }
    if answer["best"] is None or answer["careless"] is None:
        answer["bounds"] = {
            "best": sorted((q.to_unit(best_b[0]), q.to_unit(best_b[1]))),
            "careless": sorted((q.to_unit(care_b[0]), q.to_unit(care_b[1]))),
        }
    if line is not None and verdict in (FAILS, HOLDS_WITH_BEST_PLAY):
        cards = pos.rules.cards
        answer["line"] = [{"type": "play", "seat": s, "card": cards[c]} for s, c in line]
        assert line_value is not None
        answer["line_result"] = q.to_unit(line_value)
    return answer


def adjudicate(
    game: Game[Any],
    state: HandState,
    claim: Claim,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    budget: float = DEFAULT_BUDGET,
) -> dict[str, Any]:
    """The answer to ``claim`` made at ``state`` (see :func:`solve`)."""
    return solve(question(game, state, claim, hands), budget=budget)


# ---- what a played-out line gives, read from the engine's own result -----------------------------------
def result_value(game: Any, before: Any, after: Any, q: Question) -> int:
    """The side's result in the claim's unit, from the state at the claim (``before``) and the state once
    the hand is played out (``after``), as the engine scores them."""
    side = q.side
    name = game.name
    if name in ("hombre_it", "lhombre"):
        start, end = game.tricks_by_seat(before), game.tricks_by_seat(after)
        return sum(end[s] - start[s] for s in side)
    if name == "tarocchi":
        play0, play1 = before.trickplay, after.trickplay
        return sum(play1.tricks_won(s) - play0.tricks_won(s) for s in side)
    if name == "tressette":
        play0, play1 = before.trickplay, after.trickplay
        if q.unit == "tricks":
            return sum(play1.tricks_won(s) - play0.tricks_won(s) for s in side)
        details = game.result(after).details
        return int(details["card_points"][side[0] % len(details["sides"]) if before.seats == 4 else side[0]])
    if name == "barbu":
        spec = game.spec(before)
        seat = side[0]
        play0, play1 = before.trick_play, after.trick_play
        if q.unit == "tricks":
            return int(play1.tricks_won(seat) - play0.tricks_won(seat))
        final = int(game.result(after).scores[seat])
        earlier = sum(spec.card_penalties.get(c, 0) for c in play0.captured(seat)) + sum(
            spec.trick_penalties.get(t.number, 0) for t in play0.done if t.winner == seat
        )
        return final - int(earlier)
    raise AssertionError(name)


def play_line(game: Game[Any], state: HandState, line: Sequence[Mapping[str, Any]]) -> HandState:
    """The state once the line's cards are played from ``state`` (a hand that ends early stops there)."""
    for move in line:
        if state.over:
            break
        state = game.apply(state, PlayCard(seat=move["seat"], card=move["card"])).state
    return state


# ---- random positions, for the tests and the benchmark --------------------------------------------------
def random_position(
    game: Game[Any],
    rng: random.Random,
    *,
    tricks_left: int,
    options: Mapping[str, Any] | None = None,
    seats: int | None = None,
    contract: str | None = None,
    dealer: int | None = None,
    context: Mapping[str, Any] | None = None,
) -> tuple[HandState, list[Move]] | None:
    """A random hand played at random up to a point where the player on lead may claim with
    ``tricks_left`` tricks to go (None when the deal did not come to play: try another)."""
    seats = seats if seats is not None else rng.choice(game.seat_counts)
    dealer = dealer if dealer is not None else rng.randrange(seats)
    state = game.initial_state(options, seats=seats, dealer=dealer, context=context)
    deal = game.random_deal(state, rng)
    state = game.apply(state, deal).state
    moves: list[Move] = [deal]
    for _k in range(2000):
        if state.over:
            return None
        seat = _leader(state)
        if seat is not None and game.can_claim(state, seat) and len(state.hands.hand(seat)) == tricks_left:
            return state, moves
        legal = game.legal_moves(state)
        if not legal:
            return None
        move = _pick(game, state, legal, rng, contract)
        if move is None:
            return None
        state = game.apply(state, move).state
        moves.append(move)
    return None


def _leader(state: HandState) -> int | None:
    if state.phase != "play":
        return None
    play = state.__dict__.get("play") or state.__dict__.get("tricks")
    if play is None or not play.leading:
        return None
    return int(play.current.leader)


def _pick(
    game: Game[Any], state: HandState, legal: list[Move], rng: random.Random, contract: str | None
) -> Move | None:
    plays = [m for m in legal if isinstance(m, PlayCard)]
    if plays:
        return rng.choice(plays)
    calls = [m for m in legal if isinstance(m, Call)]
    if game.name == "tarocchi" and calls:
        keep = [m for m in calls if m.call == "tengo"]
        return keep[0] if keep else rng.choice(calls)
    chooses = [m for m in legal if isinstance(m, Choose)]
    if game.name == "barbu" and chooses and chooses[0].choice == "contract":
        trick_contracts = [
            m for m in chooses if m.value != "DOM" and (contract is None or m.value == contract)
        ]
        return rng.choice(trick_contracts) if trick_contracts else None
    if game.name in ("hombre_it", "lhombre") and calls:
        # Someone must play: the first to speak takes the lowest game, the others pass.
        bids = [m for m in calls if m.call not in ("pass", "passo", "passe")]
        passes = [m for m in calls if m.call in ("pass", "passo", "passe")]
        if bids and (not passes or rng.random() < 0.7):
            return bids[0]
        return passes[0] if passes else rng.choice(calls)
    exchanges = [m for m in legal if isinstance(m, Exchange)]
    if exchanges:
        return rng.choice(exchanges)
    others = [m for m in legal if not isinstance(m, Deal)]
    return rng.choice(others) if others else None


def random_claim(game: Any, state: Any, rng: random.Random) -> Claim:
    """A claim the engine accepts at ``state``: all the rest, or a split in the game's own terms (half the
    time, where the game has one), not always true."""
    seat = _leader(state)
    assert seat is not None
    name = game.name
    if name == "tarocchi" or rng.random() < 0.4:
        return Claim(seat=seat)
    if name == "tressette":
        low, high = game._points_range(state)
        from .tressette import sides_of

        n = len(sides_of(state.seats))
        sure = game._card_points(state, game._units_by_seat(state), last=None)
        for _k in range(50):
            total = rng.randint(low, high)
            split = [sure[i] for i in range(n)]
            extra = total - sum(split)
            if extra < 0:
                continue
            for _e in range(extra):
                split[rng.randrange(n)] += 1
            claim = Claim(seat=seat, split=tuple(split))
            try:
                game.check_claim(state, claim)
            except ImpossibleMove:
                continue
            return claim
        return Claim(seat=seat)
    left = len(state.hands.hand(seat))
    if name == "barbu" and game.spec(state).claim_split == "points":
        spec = game.spec(state)
        play = state.trick_play
        taken = {c for t in play.done for c in t.cards}
        items = [v for c, v in spec.card_penalties.items() if c not in taken]
        items += [v for n, v in spec.trick_penalties.items() if n > len(play.done)]
        split = [0] * state.seats
        for v in items:
            split[rng.randrange(state.seats)] += v
        return Claim(seat=seat, split=tuple(split))
    split = [0] * state.seats
    for _t in range(left):
        split[rng.randrange(state.seats)] += 1
    return Claim(seat=seat, split=tuple(split))


__all__ = [
    "DEFAULT_BUDGET",
    "FAILS",
    "HOLDS",
    "HOLDS_WITH_BEST_PLAY",
    "UNDECIDED",
    "Question",
    "adjudicate",
    "check_keyed_hands",
    "play_line",
    "question",
    "random_claim",
    "random_position",
    "result_value",
    "solve",
]
