"""The card logic shared by the Ombre family: Italian Hombre (``hombre_it``) and French L'Hombre.

Both play the 40-card Latin deck with the same orders (``docs/rules/hombre-it.md`` §3): the two black aces
are trumps whatever the trump suit and never members of their printed suit; the trump suit runs
spadille, manille, basto, then the rest (red: the punto, then K Q J 2 3 4 5 6; black: K Q J 7 6 5 4 3);
plain suits run K Q J 7 … 2 (black) or K Q J A 2 … 7 (red, pips reversed).

The matador privilege (§7): when a trump is led, a player must play a trump if he holds a *forceable* one,
any of his trumps then; a matador is forceable only by a higher matador led (the first card of the trick).

The revoke check works in both recording modes (:func:`revoke_check`). Deal unknown, an off-suit play only
asserts what the seat did not hold; the proof keys are chosen so that a later play proves a revoke only
when the card really was forceable then: a later matador that was privileged against the card led proves
nothing, since the seat may lawfully have kept it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from .cards import LATIN_40, suit_of
from .core import HandState, Pending, Verdict, evolve, prove
from .errors import _
from .tricks import Strength

SPADILLE = "AS"
BASTO = "AC"
BLACK_ACES = (SPADILLE, BASTO)
TRUMP = "T"  # the effective suit of every trump
SUITS = ("S", "C", "H", "D")
RED = ("H", "D")
BLACK = ("S", "C")

# Plain suits, highest first, without the ace for black suits (it is a permanent trump).
_BLACK_PLAIN = ("K", "Q", "J", "7", "6", "5", "4", "3", "2")
_RED_PLAIN = ("K", "Q", "J", "A", "2", "3", "4", "5", "6", "7")
_NATURAL_RED_PLAIN = ("K", "Q", "J", "7", "6", "5", "4", "3", "2", "A")
# The trump suit below spadille, manille and basto.
_BLACK_TRUMP_REST = ("K", "Q", "J", "7", "6", "5", "4", "3")
_RED_TRUMP_REST = ("A", "K", "Q", "J", "2", "3", "4", "5", "6")


def _check_suit(suit: str) -> None:
    if suit not in SUITS:
        raise ValueError(f"not a suit of the Latin deck: {suit!r}")


def manille(trump: str) -> str:
    """The manille (maniglia): the 2 of a black trump suit, the 7 of a red one."""
    _check_suit(trump)
    return ("2" if trump in BLACK else "7") + trump


def punto(trump: str) -> str | None:
    """The punto (ponte): the ace of a red trump suit; a black suit has none."""
    _check_suit(trump)
    return "A" + trump if trump in RED else None


@cache
def trump_order(trump: str) -> tuple[str, ...]:
    """The trumps, highest first: 11 for a black trump suit, 12 for a red one."""
    _check_suit(trump)
    rest = _BLACK_TRUMP_REST if trump in BLACK else _RED_TRUMP_REST
    return (SPADILLE, manille(trump), BASTO) + tuple(r + trump for r in rest)


@cache
def plain_order(suit: str, trump: str, *, natural: bool = False) -> tuple[str, ...]:
    """A non-trump suit, highest first; never the black aces. ``natural``: red K Q J 7 … 2 A."""
    _check_suit(suit)
    _check_suit(trump)
    if suit == trump:
        raise ValueError(f"{suit} is the trump suit, not a plain suit")
    ranks: tuple[str, ...] = _BLACK_PLAIN if suit in BLACK else _NATURAL_RED_PLAIN if natural else _RED_PLAIN
    return tuple(r + suit for r in ranks)


def is_trump(card: str, trump: str) -> bool:
    """Whether a card is a trump: the black aces always, and every card of the trump suit."""
    return card in BLACK_ACES or suit_of(card) == trump


def effective_suit(card: str, trump: str) -> str:
    """``"T"`` for a trump, else the printed suit (the black aces never count as spade or bastoni)."""
    return TRUMP if is_trump(card, trump) else suit_of(card)


@cache
def effective_suits(trump: str) -> dict[str, str]:
    """:func:`effective_suit` of every card of the deck under ``trump``, looked up at every card played."""
    return {card: effective_suit(card, trump) for card in LATIN_40.cards}


@cache
def layout(trump: str, *, natural: bool = False) -> dict[str, tuple[str, ...]]:
    """Every suit's ranking under this trump, highest first: ``"T"`` then the three plain suits.

    Every card of the 40 appears exactly once (11 + 9 + 10 + 10 or 12 + 9 + 9 + 10).
    """
    out = {TRUMP: trump_order(trump)}
    for suit in SUITS:
        if suit != trump:
            out[suit] = plain_order(suit, trump, natural=natural)
    return out


@cache
def strength(trump: str, *, natural: bool = False) -> Strength:
    """The trick-winner strength for :func:`tricks.winner_of`: any trump beats every plain card; among
    plain cards only the suit led (its effective suit) can win."""
    ranks = layout(trump, natural=natural)
    value = {card: (len(order) - i) for order in ranks.values() for i, card in enumerate(order)}
    suits = effective_suits(trump)

    def card_strength(card: str, led: str) -> tuple[int, int] | None:
        suit = suits[card]
        if suit == TRUMP:
            return (1, value[card])
        if suit == suits[led]:
            return (0, value[card])
        return None

    return card_strength


@cache
def matadors(trump: str, count: int) -> tuple[str, ...]:
    """The privileged top trumps, highest first: spadille, manille, basto, and with ``count`` 4 the fourth
    trump (the king of a black suit, the punto of a red one: the seed's "first four trumps")."""
    if count not in (3, 4):
        raise ValueError(f"the number of matadors is 3 or 4, not {count!r}")
    return trump_order(trump)[:count]


def is_matador(card: str, trump: str, count: int) -> bool:
    return card in matadors(trump, count)


def beats_in_trumps(a: str, b: str, trump: str) -> bool:
    """Whether trump ``a`` ranks above trump ``b``."""
    order = trump_order(trump)
    return order.index(a) < order.index(b)


@cache
def forceable(led: str, trump: str, matador_count: int) -> frozenset[str]:
    """The trumps a trump lead of ``led`` can force out: every non-matador, and the matadors below
    ``led`` when ``led`` is itself a matador. The others are privileged against this lead."""
    order = trump_order(trump)
    mats = matadors(trump, matador_count)
    if led not in order:
        raise ValueError(f"{led} is not a trump when {trump} is trump")
    return frozenset(
        c for c in order if c != led and (c not in mats or (led in mats and beats_in_trumps(led, c, trump)))
    )


def follow_options(
    hand: Iterable[str], trick_cards: Sequence[str], trump: str, matador_count: int
) -> frozenset[str]:
    """The cards of ``hand`` a player may play to a trick holding ``trick_cards`` with no irregularity.

    Leading: any card. Plain suit led: that suit if held (black aces excluded), else any card. Trump led:
    if the player holds a forceable trump, any of his trumps; otherwise (no trump, or only privileged
    matadors) any card. No duty to trump or to beat.
    """
    hand = frozenset(hand)
    if not trick_cards:
        return hand
    led = trick_cards[0]
    wanted = effective_suit(led, trump)
    if wanted == TRUMP:
        trumps = frozenset(c for c in hand if is_trump(c, trump))
        return trumps if trumps & forceable(led, trump, matador_count) else hand
    same = frozenset(c for c in hand if effective_suit(c, trump) == wanted)
    return same or hand


# ---- the revoke check in both recording modes ------------------------------------------------------
#
# Proof keys. A card played has exactly one key:
#   a plain card            "suit:<printed suit>"   (never the black aces)
#   a non-matador trump     "trump"
#   a matador               "card:<code>"
# An off-suit play asserts the seat held none of the cards it was bound to play:
#   plain suit X led        "suit:X"                               rule <prefix>.follow_suit
#   trump L led             "trump" (every non-matador trump)      rule <prefix>.follow_suit
#                           "card:M" for each matador M below L,   rule <prefix>.matador
#                           when L is itself a matador
# Matadors above L get no key: the seat may have been keeping them by privilege, so a later play of one
# proves nothing. Hands only shrink during play, so a later play of a keyed card proves the seat held it
# at the earlier trick. One earlier move yields one verdict at most: once one of its keys is proved, its
# other keys are dropped, except that a "matador" proof keeps the move's "trump" key: a later ordinary
# trump shows the seat also held one, and the verdict's rule is refined to follow_suit, the rule the
# known deal names (the privilege only excuses the matador). The refined verdict replaces the first one:
# same move, same proof move; :func:`unrefined` gives the caller the earlier verdicts that still stand.


@cache
def play_keys(card: str, trump: str, matador_count: int) -> tuple[str, ...]:
    """The proof key of a card played (see the table above)."""
    if not is_trump(card, trump):
        return (f"suit:{suit_of(card)}",)
    if card in matadors(trump, matador_count):
        return (f"card:{card}",)
    return ("trump",)


@cache
def void_keys(led: str, trump: str, matador_count: int) -> tuple[tuple[str, str], ...]:
    """What an off-suit play to a trick led by ``led`` asserts: (key, rule kind) pairs, the rule kind
    being ``follow_suit`` or ``matador``."""
    if not is_trump(led, trump):
        return ((f"suit:{suit_of(led)}", "follow_suit"),)
    mats = matadors(trump, matador_count)
    keys: list[tuple[str, str]] = [("trump", "follow_suit")]
    if led in mats:
        keys += [(f"card:{m}", "matador") for m in mats if beats_in_trumps(led, m, trump)]
    return tuple(keys)


def revoke_rule(
    hand: Iterable[str], card: str, trick_cards: Sequence[str], trump: str, matador_count: int
) -> str | None:
    """Deal known: ``None`` if playing ``card`` from ``hand`` is regular, else the rule kind broken:
    ``follow_suit`` (held the plain suit led, or an ordinary trump to a trump lead) or ``matador`` (kept a
    matador that a higher matador led forced out, holding no other forceable trump)."""
    if not trick_cards or effective_suit(card, trump) == effective_suit(trick_cards[0], trump):
        return None  # a lead, or the suit led followed (a trump to a trump lead): always regular
    hand = frozenset(hand)
    if card in follow_options(hand, trick_cards, trump, matador_count):
        return None
    led = trick_cards[0]
    if not is_trump(led, trump):
        return "follow_suit"
    mats = matadors(trump, matador_count)
    if any(is_trump(c, trump) and c not in mats for c in hand):
        return "follow_suit"
    return "matador"


def _message(kind: str, seat: int, led: str, trick: int) -> tuple[str, dict[str, Any]]:
    """The template and params of a revoke verdict of ``kind`` (``matador`` or ``follow_suit``)."""
    params = {"seat": seat, "led_card": led, "trick": trick}
    if kind == "matador":
        return _("{seat} kept a matador that the {led_card} led to trick {trick} forced out"), params
    return _("{seat} did not follow the {led_card} led to trick {trick} while able to"), params


def revoke_check(
    state: HandState,
    seat: int,
    card: str,
    *,
    trick_cards: Sequence[str],
    trump: str,
    matador_count: int,
    trick: int,
    prefix: str,
) -> tuple[tuple[Pending, ...], list[Verdict]]:
    """The follow-suit and matador check of one play, in both recording modes.

    Call it before the card leaves the seat's holdings. Returns the new ``pending`` tuple and the
    verdicts (rule codes ``<prefix>.follow_suit`` and ``<prefix>.matador``). Deal known: a verdict now.
    Deal unknown: proves earlier assertions by this card's key, and records what this play asserts.
    """
    index = state.move_index
    if state.deal_known:
        kind = revoke_rule(state.hands.hand(seat), card, trick_cards, trump, matador_count)
        if kind is None:
            return state.pending, []
        template, params = _message(kind, seat, trick_cards[0], trick)
        return state.pending, [Verdict(f"{prefix}.{kind}", seat, trick, template, index, params=params)]
    pending, found = prove(state, seat, play_keys(card, trump, matador_count), index)
    verdicts: list[Verdict] = []
    settled: set[int] = set()  # moves whose rule is now final: every other key of theirs goes
    for v in found:  # one card has one key, so one proof at most per earlier move
        first = refines(state.verdicts, v)
        if first is not None:
            v = evolve(v, proved_at=first.proved_at)  # proved then; this card only names the rule
        verdicts.append(v)
        if v.rule.endswith(".matador"):
            pending = tuple(p for p in pending if not (p.move_index == v.move_index and p.key != "trump"))
        else:
            settled.add(v.move_index)
    if settled:
        pending = tuple(p for p in pending if not (p.seat == seat and p.move_index in settled))
    suits = effective_suits(trump)
    if trick_cards and suits[card] != suits[trick_cards[0]]:
        led = trick_cards[0]
        for key, kind in void_keys(led, trump, matador_count):
            template, params = _message(kind, seat, led, trick)
            pending += (Pending(seat, key, f"{prefix}.{kind}", template, index, trick, params),)
    return pending, verdicts


def refines(verdicts: Iterable[Verdict], new: Verdict) -> Verdict | None:
    """The earlier verdict ``new`` refines, if any: a deal-unknown proof of the same move by the same seat
    (a ``matador`` verdict that a later ordinary trump turns into ``follow_suit``)."""
    return next((v for v in verdicts if v.move_index == new.move_index and v.seat == new.seat), None)


def unrefined(verdicts: Sequence[Verdict], found: Sequence[Verdict]) -> tuple[Verdict, ...]:
    """The earlier ``verdicts`` that still stand beside ``found`` (a play's verdicts from
    :func:`revoke_check`): each one a new verdict refines is replaced by it."""
    if not found:
        return tuple(verdicts)
    return tuple(v for v in verdicts if not any(refines((v,), n) for n in found))


def open_keys(state: HandState, seat: int) -> frozenset[str]:
    """The proof keys ``seat`` has asserted it does not hold (deal unknown): a card with one of these keys
    would prove an earlier revoke."""
    return frozenset(p.key for p in state.pending if p.seat == seat)


DECK = LATIN_40
