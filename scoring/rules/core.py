"""The shape every game follows, and what they all share.

A game is a :class:`Game` subclass. Its public surface is the same for all of them:

* ``initial_state(options, seats=, dealer=, context=)``: a new hand, before the deal;
* ``legal_moves(state)``: the moves that would be accepted with no irregularity;
* ``apply(state, move)``: a :class:`Step` (the next state and the verdicts the move produced), or an
  :class:`~scoring.rules.errors.ImpossibleMove` with a stable code, leaving ``state`` untouched;
* ``result(state)`` for a finished hand and ``match_result(...)`` over a sequence of hand results.

The base class handles, once for every game: options, the deal (known or not), a finished hand, seats
that are not at the table, moves out of turn or out of phase, claims, the strict option and the
deferred revoke proofs of the moves-only recording mode. Each game writes only its own rules in the
``_``-prefixed hooks.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from .cards import Deck
from .errors import (
    NO_PARAMS,
    ImpossibleMove,
    IrregularMoveRefused,
    MalformedMove,
    Text,
    _,
    literal,
    plain_params,
    render,
)
from .moves import Claim, ClaimResponse, Deal, Move, PlayCard
from .options import Ruleset

Score = int | Fraction


_T = TypeVar("_T")
_PLAIN: dict[type, frozenset[str]] = {}
_new = object.__new__
_set = object.__setattr__


def evolve(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace`` made cheap for the engine's frozen values: a copy with some fields changed.

    Every move builds a new state this way, and ``replace`` (which calls ``__init__`` field by field)
    was most of the cost of a move. A class with its own ``__post_init__`` or a field outside
    ``__init__`` still goes through ``replace``; an unknown field name is refused as ``replace`` does.
    """
    cls = obj.__class__
    names = _PLAIN.get(cls)
    if names is None:
        plain = not hasattr(cls, "__post_init__") and all(f.init for f in fields(cls))  # type: ignore[arg-type]
        names = frozenset(f.name for f in fields(cls)) if plain else frozenset()  # type: ignore[arg-type]
        _PLAIN[cls] = names
    if not names:
        return replace(obj, **changes)  # type: ignore[type-var]
    own = obj.__dict__
    # A dict of its own (not a copy sharing the class's keys, as own.copy() makes): some bytes more per
    # state, but the interpreter's fast field reads work on it, and every hook reads the state's fields.
    state = {**own, **changes}
    # Every field is already in the copy: only a name that is not one can make it grow.
    if len(state) != len(own) and not names.issuperset(changes):
        unknown = ", ".join(sorted(set(changes) - names))
        raise TypeError(f"{cls.__name__} has no field {unknown}")
    new = _new(cls)
    _set(new, "__dict__", state)
    return new


@dataclass(frozen=True)
class Verdict:
    """A rule irregularity that happened at the table: recorded, not refused.

    ``move_index`` is the move that broke the rule; ``proved_at`` is the later move that proved it, when
    the deal was not recorded and the proof came afterwards. What it says is ``template`` (an ``_()``
    literal) with ``params`` (see :mod:`scoring.rules.errors`); ``message`` is that in English.
    """

    rule: str
    seat: int | None
    trick: int | None
    template: str
    move_index: int
    proved_at: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def message(self) -> str:
        return render(self.template, self.params)

    @property
    def text(self) -> Text:
        return Text(self.template, self.params)

    def as_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "seat": self.seat,
            "trick": self.trick,
            "message": self.message,
            "move_index": self.move_index,
            "proved_at": self.proved_at,
            "template": self.template,
            "params": plain_params(self.params),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Verdict:
        """A verdict from its dict form (:meth:`as_dict`). One stored before verdicts had templates has
        only its English ``message``: that text stands as its template, with no params."""
        template = data.get("template")
        return cls(
            rule=data["rule"],
            seat=data["seat"],
            trick=data["trick"],
            template=data["message"] if template is None else template,
            move_index=data["move_index"],
            proved_at=data.get("proved_at"),
            params=dict(data.get("params") or {}) if template is not None else NO_PARAMS,
        )


class Pending(NamedTuple):
    """What a play asserted when the deal is unknown: ``seat`` held no card with ``key`` (a suit, the
    trumps, one card). A later play of such a card by the same seat proves an irregularity, whose verdict
    says ``template`` with ``params``. (Made at many plays: a plain named tuple.)"""

    seat: int
    key: str
    rule: str
    template: str
    move_index: int
    trick: int | None
    params: Mapping[str, Any] = NO_PARAMS


@dataclass(frozen=True)
class Holdings:
    """Who holds what. ``hands`` is ``None`` when the deal was not entered: then only counts are known."""

    deck: frozenset[str]
    counts: tuple[int, ...]
    hands: tuple[frozenset[str], ...] | None = None
    gone: frozenset[str] = frozenset()  # played, discarded or otherwise out of every hand
    stock: frozenset[str] = frozenset()  # cards set aside by the deal, where known

    @property
    def known(self) -> bool:
        return self.hands is not None

    def hand(self, seat: int) -> frozenset[str]:
        if self.hands is None:
            raise AssertionError("hand() asked in moves-only mode")
        return self.hands[seat]

    def check_available(self, card: str, *, field: str = "card") -> None:
        """Refuse a card that is not in this hand's deck or that is already out of play."""
        if card not in self.deck:
            raise ImpossibleMove(
                "card.unknown", _("{card} is not in the deck of this hand"), field=field, card=card
            )
        if card in self.gone:
            raise ImpossibleMove(
                "card.gone", _("{card} has already been played or put aside"), field=field, card=card
            )

    def check_holds(self, seat: int, card: str, *, field: str = "card") -> None:
        """Refuse a card the seat cannot hold: gone, or (deal known) held by another seat or in the stock."""
        self.check_available(card, field=field)
        if self.hands is None:
            if self.counts[seat] <= 0:
                raise ImpossibleMove("hand.empty", _("{seat} has no card left"), field="seat", seat=seat)
            return
        if card in self.hands[seat]:
            return
        for other, hand in enumerate(self.hands):
            if card in hand:
                raise ImpossibleMove(
                    "card.not_held",
                    _("the recorded deal gives {card} to {holder}, not {seat}"),
                    field=field,
                    card=card,
                    holder=other,
                    seat=seat,
                )
        raise ImpossibleMove(
            "card.not_held", _("{card} is not in {seat}'s hand"), field=field, card=card, seat=seat
        )

    def remove(
        self, seat: int, cards: Iterable[str], *, field: str = "card", to_gone: bool = True
    ) -> Holdings:
        """Take cards out of a seat's hand (played or discarded), checking each one."""
        cards = tuple(cards)
        if len(cards) == 1 and to_gone:
            return self.remove_card(seat, cards[0], field)
        if len(set(cards)) != len(cards):
            raise ImpossibleMove("card.repeated", _("the same card is named twice"), field=field)
        for card in cards:
            self.check_holds(seat, card, field=field)
        if self.hands is None and self.counts[seat] < len(cards):
            raise ImpossibleMove(
                "hand.count",
                _("{seat} holds only {count} cards"),
                field=field,
                seat=seat,
                count=self.counts[seat],
            )
        counts = list(self.counts)
        counts[seat] -= len(cards)
        hands = self.hands
        if hands is not None:
            hands = tuple(h - set(cards) if i == seat else h for i, h in enumerate(hands))
        gone = self.gone | set(cards) if to_gone else self.gone
        return evolve(self, counts=tuple(counts), hands=hands, gone=gone)

    def remove_card(self, seat: int, card: str, field: str = "card") -> Holdings:
        """``remove(seat, (card,))``: one card played, the path every trick takes (the same checks and
        result as the general case)."""
        hands = self.hands
        counts = self.counts
        gone = self.gone
        if hands is None:
            if card not in self.deck or card in gone or counts[seat] <= 0:
                self.check_holds(seat, card, field=field)  # names the fault
            if counts[seat] < 1:
                raise ImpossibleMove(
                    "hand.count",
                    _("{seat} holds only {count} cards"),
                    field=field,
                    seat=seat,
                    count=counts[seat],
                )
        else:
            hand = hands[seat]
            if card not in hand or card in gone:
                self.check_holds(seat, card, field=field)
            changed = list(hands)
            changed[seat] = hand - {card}
            hands = tuple(changed)
        less = list(counts)
        less[seat] -= 1
        # A copy filled in place, field by field (the frozen class refuses attributes; its __dict__ does
        # not): every field of the class is named here.
        made = _new(Holdings)
        new = made.__dict__
        new["deck"] = self.deck
        new["counts"] = tuple(less)
        new["hands"] = hands
        new["gone"] = gone | {card}
        new["stock"] = self.stock
        return made

    def add(self, seat: int, cards: Iterable[str], *, count: int | None = None) -> Holdings:
        """Give cards to a seat (an exchange, a pass). With unknown cards, ``count`` says how many."""
        cards = tuple(cards)
        n = len(cards) if count is None else count
        counts = list(self.counts)
        counts[seat] += n
        hands = self.hands
        if hands is not None:
            hands = tuple(h | set(cards) if i == seat else h for i, h in enumerate(hands))
        return evolve(
            self,
            counts=tuple(counts),
            hands=hands,
            gone=self.gone - set(cards),
            stock=self.stock - set(cards),
        )


@dataclass(frozen=True, kw_only=True)
class HandState:
    """What every game's state holds. Games subclass it (frozen, keyword-only) and add their own fields."""

    options: Mapping[str, Any]
    seats: int
    dealer: int
    context: Mapping[str, Any] = field(default_factory=dict)
    phase: str = "deal"
    move_index: int = 0
    holdings: Holdings | None = None
    verdicts: tuple[Verdict, ...] = ()
    pending: tuple[Pending, ...] = ()
    claim: Claim | None = None
    claim_index: int | None = None
    claim_accepted: frozenset[int] = frozenset()
    disputed_claims: tuple[Claim, ...] = ()
    settled_claim: Claim | None = None
    over: bool = False

    @property
    def hands(self) -> Holdings:
        if self.holdings is None:
            raise AssertionError("no deal yet")
        return self.holdings

    @property
    def deal_known(self) -> bool:
        holdings = self.holdings
        return holdings is not None and holdings.hands is not None

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """Seats are numbered in the order of play: the next player is the next number."""
        return (seat + steps) % self.seats


S = TypeVar("S", bound=HandState)

# ``actors`` answers a card play with the one seat to play: each such set made once, not at every card.
ONLY: tuple[frozenset[int | None], ...] = tuple(frozenset({seat}) for seat in range(8))


class Step(NamedTuple, Generic[S]):
    """What ``apply`` returns: the next state and the verdicts this move produced (made once per move,
    so a plain named tuple)."""

    state: S
    verdicts: tuple[Verdict, ...] = ()


# A named tuple made from a plain tuple of all its fields: without the generated __new__ (a Python call)
# that fills in defaults, for the ones made at every move (Step) or every card (Spot, Pending).
_tuple_new = tuple.__new__


@dataclass(frozen=True)
class HandResult:
    """The outcome of a finished hand: the game's own words and the scores by seat (and by team).

    ``outcome`` is what the game has always said (a code such as ``played`` or ``codille``, or, for some
    games, a sentence): stored and compared as it is. ``outcome_text`` says it for a user, as a template
    with params (:mod:`scoring.rules.errors`); every game gives one (``None`` only in a result stored
    before there were such texts).

    ``adjustments`` is the part of ``scores`` that a director's ruling gave outside the game (a penalty,
    an assigned score): by seat, empty when there is none. The game's own columns are ``scores`` less
    the adjustments, and only they must keep the game's invariants (a Barbù match sums to 0).
    """

    outcome: str
    scores: tuple[Score, ...]
    unit: str = "points"
    teams: tuple[tuple[int, ...], ...] = ()
    team_scores: tuple[Score, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    outcome_text: Text | None = None
    adjustments: tuple[Score, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        out = {
            "outcome": self.outcome,
            "outcome_text": self.outcome_text.as_dict() if self.outcome_text is not None else None,
            "scores": [score_str(s) for s in self.scores],
            "unit": self.unit,
            "teams": [list(t) for t in self.teams],
            "team_scores": [score_str(s) for s in self.team_scores],
            "details": jsonable(self.details),
        }
        if self.adjustments:  # only a ruled hand has any: every other result keeps its stored bytes
            out["adjustments"] = [score_str(s) for s in self.adjustments]
        return out


@dataclass(frozen=True)
class MatchResult:
    """Running totals over a sequence of hands, whether the match is over, who won, and one sheet row per
    hand with the game's own columns."""

    totals: tuple[Score, ...]
    finished: bool
    winners: tuple[int, ...] = ()
    team_totals: tuple[Score, ...] = ()
    rows: tuple[Mapping[str, Any], ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "totals": [score_str(s) for s in self.totals],
            "finished": self.finished,
            "winners": list(self.winners),
            "team_totals": [score_str(s) for s in self.team_totals],
            "rows": jsonable(list(self.rows)),
            "details": jsonable(self.details),
        }


def score_str(score: Score) -> int | str:
    """Whole numbers stay numbers; fractions become exact strings (``"22/3"``)."""
    if isinstance(score, Fraction):
        return int(score) if score.denominator == 1 else str(score)
    return score


def jsonable(value: Any) -> Any:
    """Turn tuples, frozensets and fractions into JSON-friendly values (sets sorted)."""
    if isinstance(value, Fraction):
        return score_str(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def _deal_fits(
    hands: Sequence[Sequence[str]],
    stock: Sequence[str],
    sizes: Sequence[int],
    stock_size: int,
    deck: frozenset[str],
) -> bool:
    """Whether a recorded deal is sound, checked all at once: each hand of its size, the stock empty or
    whole, every card of this hand's deck and none twice. A deal that does not fit is gone through card
    by card to name its first fault."""
    if any(len(hand) != size for hand, size in zip(hands, sizes, strict=True)):
        return False
    if stock and len(stock) != stock_size:
        return False
    cards = [card for hand in hands for card in hand]
    cards += stock
    try:
        distinct = set(cards)
    except TypeError:  # something that is not a card code at all
        return False
    return len(distinct) == len(cards) and distinct <= deck


def prove(
    state: HandState, seat: int, keys: Iterable[str], move_index: int
) -> tuple[tuple[Pending, ...], list[Verdict]]:
    """Check a play by ``seat`` of a card with ``keys`` against what the seat's earlier plays asserted.

    Returns the assertions still open and a verdict for each one the play proves false, pointing back at
    the move that made it.
    """
    return prove_keys(state.pending, seat, keys, move_index)


def prove_keys(
    pending: tuple[Pending, ...], seat: int, keys: Iterable[str], move_index: int
) -> tuple[tuple[Pending, ...], list[Verdict]]:
    """:func:`prove` against the assertions ``pending`` (the same tuple back when nothing is proved)."""
    if not pending:
        return (), []
    keys = keys if isinstance(keys, tuple | set | frozenset) else set(keys)
    proved = [p for p in pending if p.seat == seat and p.key in keys]
    if not proved:
        return pending, []
    found = [Verdict(p.rule, p.seat, p.trick, p.template, p.move_index, move_index, p.params) for p in proved]
    return tuple(p for p in pending if not (p.seat == seat and p.key in keys)), found


def _not_your_turn(seat: int | None, allowed: frozenset[int | None]) -> ImpossibleMove:
    """The refusal of a move by a seat (``None``: the table) that is not among those ``allowed`` to act."""
    seats = sorted(s for s in allowed if s is not None)
    if seat is None:
        return ImpossibleMove(
            "turn.wrong", _("it is not the table's move: {seats} to act"), field="seat", seats=seats
        )
    if None not in allowed:
        return ImpossibleMove(
            "turn.wrong", _("it is not {seat}'s turn: {seats} to act"), field="seat", seat=seat, seats=seats
        )
    if seats:
        return ImpossibleMove(
            "turn.wrong",
            _("it is not {seat}'s turn: the table or {seats} to act"),
            field="seat",
            seat=seat,
            seats=seats,
        )
    return ImpossibleMove("turn.wrong", _("it is not {seat}'s turn: the table acts"), field="seat", seat=seat)


_ABSENT = object()


def options_differ(before: Mapping[str, Any], after: Mapping[str, Any], free: frozenset[str]) -> bool:
    """Whether two option sets differ in an option outside `free` (one set lacking an option the other
    has differs in it)."""
    return any(before.get(k, _ABSENT) != after.get(k, _ABSENT) for k in {*before, *after} - free)


class Game(ABC, Generic[S]):
    """Base class of every game module. Subclasses set the class attributes and write the hooks."""

    name: ClassVar[str]
    title: ClassVar[str]  # the game's name for users: an _() literal, translated where it is shown
    deck: ClassVar[Deck]
    seat_counts: ClassVar[tuple[int, ...]]
    ruleset: ClassVar[Ruleset]
    score_unit: ClassVar[str] = "points"
    # The options that change only how finished hands and the match are scored (or who deals next, which
    # a recorded hand already says): no move's legality or verdict, no claim's check, not when a hand
    # ends, nothing of the state before the hand is over. A what-if that changes only these re-scores the
    # hands' finished states instead of playing them again (scoring.hands.whatif). Declared by each game,
    # conservatively: an option read anywhere in play, a claim or an early end is not one.
    score_only_options: ClassVar[frozenset[str]] = frozenset()

    # ---- public surface -------------------------------------------------------------------------
    def initial_state(
        self,
        options: Mapping[str, Any] | None = None,
        *,
        seats: int,
        dealer: int,
        context: Mapping[str, Any] | None = None,
    ) -> S:
        """A new hand before the deal, from options (validated, defaults filled in), seats and dealer."""
        values = self.ruleset.validate(options)
        if seats not in self.seat_counts:
            counts = self.seat_counts
            if len(counts) == 1:
                raise ImpossibleMove(
                    "seats.count", _("this game is played by {count} players"), field="seats", count=counts[0]
                )
            raise ImpossibleMove(
                "seats.count",
                _("this game is played by {count} or {other_count} players"),
                field="seats",
                count=counts[0],
                other_count=counts[1],
            )
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats:
            raise ImpossibleMove(
                "seat.unknown", _("the dealer must be a seat from 1 to {count}"), field="dealer", count=seats
            )
        return self._initial(values, seats, dealer, dict(context or {}))

    def legal_moves(self, state: S) -> list[Move]:
        """Every move that ``apply`` accepts with no irregularity. Empty once the hand is over.

        Before the deal the only move is a ``Deal`` (not enumerated); while a claim is pending, the answers.
        Claims themselves are offered through :meth:`can_claim`, not listed here.
        """
        if state.over or state.phase == "deal":
            return []
        if state.claim is not None:
            return [
                ClaimResponse(seat=s, accept=a)
                for s in range(state.seats)
                if s != state.claim.seat and s not in state.claim_accepted
                for a in (True, False)
            ]
        return self._legal(state)

    def apply(self, state: S, move: Move) -> Step[S]:
        """Apply a move: the next state and its verdicts, or an ImpossibleMove with nothing changed."""
        if type(move) is PlayCard and not state.over and state.claim is None and state.phase != "deal":
            # Nearly every move: a card played in turn. The same checks as below, in the order they pass.
            seat = move.seat
            if type(seat) is int and 0 <= seat < state.seats and seat in self.actors(state, move):
                index = state.move_index
                new, verdicts = self._apply(state, move)
                if verdicts:
                    return self._irregular(state, new, verdicts, index)
                if new is state:
                    return _tuple_new(Step, (evolve(new, move_index=index + 1), ()))
                _set(new, "move_index", index + 1)  # what _counted does
                return _tuple_new(Step, (new, ()))
        if not isinstance(move, Move):
            raise MalformedMove("move.malformed", _("not a move"), field="move")
        if state.over:
            raise ImpossibleMove("hand.over", _("the hand is already over"), field="type")
        seat = move.seat
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.seats):
            raise ImpossibleMove(
                "seat.unknown",
                _("seat {number} is not at this table"),
                field="seat",
                number=seat + 1 if type(seat) is int else literal(seat),
            )
        index = state.move_index
        if isinstance(move, Deal):
            if state.phase != "deal":
                raise ImpossibleMove("phase.wrong", _("the cards have already been dealt"), field="type")
            new, verdicts = self._deal(state, move), []
        elif state.phase == "deal":
            raise ImpossibleMove("phase.wrong", _("the deal must be recorded first"), field="type")
        elif isinstance(move, Claim):
            new, verdicts = self._claim(state, move), []
        elif isinstance(move, ClaimResponse):
            new, verdicts = self._claim_response(state, move)
        elif state.claim is not None:
            raise ImpossibleMove(
                "claim.pending", _("a claim is waiting for the other players' answers"), field="type"
            )
        else:
            allowed = self.actors(state, move)
            if not allowed:
                raise ImpossibleMove(
                    "phase.wrong",
                    _("a {kind} move is not possible now (phase: {phase})"),
                    field="type",
                    kind=move.kind,
                    phase=state.phase,
                )
            if move.seat not in allowed:
                raise _not_your_turn(move.seat, allowed)
            new, verdicts = self._apply(state, move)
        if not verdicts:
            return _tuple_new(Step, (self._counted(state, new, index + 1), ()))
        return self._irregular(state, new, verdicts, index)

    def _irregular(self, state: S, new: S, verdicts: Sequence[Verdict], index: int) -> Step[S]:
        """A move that drew verdicts: refused at a strict table (for a rule it broke itself), else recorded
        with them."""
        now = [v for v in verdicts if v.move_index == index]
        if now and state.options.get("strict"):
            # Refused with what the verdict would have said (its code tells that a strict table refused it).
            first = now[0]
            raise IrregularMoveRefused(
                f"irregular.{first.rule}", first.template, field="card", **first.params
            )
        found = tuple(verdicts)
        new = evolve(new, move_index=index + 1, verdicts=new.verdicts + found)
        return Step(new, found)

    @staticmethod
    def _counted(state: S, new: S, index: int) -> S:
        """The next state with its move count: a hook's result is a fresh copy that nothing else holds
        yet (every hook builds it with ``evolve``), so its count is set in place; an unchanged state is
        copied first."""
        if new is state:
            return evolve(new, move_index=index)
        _set(new, "move_index", index)
        return new

    def is_over(self, state: S) -> bool:
        return state.over

    def result(self, state: S) -> HandResult:
        """The result of a finished hand (a claim settled or the last card played)."""
        if not state.over:
            raise ImpossibleMove("hand.not_over", _("the hand is not finished"), field="type")
        return self._result(state)

    def random_deal(self, state: S, rng: random.Random) -> Deal:
        """A shuffled deal for this hand (randomness comes from the caller's generator)."""
        cards = list(self.deck_cards(state.options, state.seats))
        rng.shuffle(cards)
        sizes, stock = self.deal_shape(state)
        hands, start = [], 0
        for size in sizes:
            hands.append(tuple(cards[start : start + size]))
            start += size
        return Deal(hands=tuple(hands), stock=tuple(cards[start : start + stock]))

    # ---- hooks every game writes -----------------------------------------------------------------
    @abstractmethod
    def _initial(self, options: dict[str, Any], seats: int, dealer: int, context: dict[str, Any]) -> S:
        """The state before the deal."""

    @abstractmethod
    def deal_shape(self, state: S) -> tuple[tuple[int, ...], int]:
        """The number of cards dealt to each seat, and the size of the stock (talon, extras)."""

    @abstractmethod
    def _after_deal(self, state: S, deal: Deal) -> S:
        """Set the phase and whose turn it is once the holdings are in place."""

    @abstractmethod
    def actors(self, state: S, move: Move) -> frozenset[int | None]:
        """The seats that may make this kind of move now (``None`` for a table move); empty: wrong phase."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """The seats whose move the table is waiting for (for display)."""

    @abstractmethod
    def _legal(self, state: S) -> list[Move]:
        """The legal moves once the deal is in and no claim is pending."""

    @abstractmethod
    def _apply(self, state: S, move: Move) -> tuple[S, list[Verdict]]:
        """The game's own rules for a move the core has let through."""

    @abstractmethod
    def _result(self, state: S) -> HandResult:
        """Score a finished hand."""

    @abstractmethod
    def match_result(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> MatchResult:
        """Totals and the sheet over the hands played so far."""

    def deck_cards(self, options: Mapping[str, Any], seats: int) -> tuple[str, ...]:
        """The cards in play for these options and seats (Tressette for three drops a four)."""
        return self.deck.cards

    def next_dealer(
        self, options: Mapping[str, Any], seats: int, dealer: int, result: HandResult | None
    ) -> int:
        """Who deals the next hand. ``result`` is None for a hand thrown in."""
        return (dealer + 1) % seats

    def match_context(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> dict[str, Any]:
        """What a new hand needs to know of the match so far (Barbù: contracts already played)."""
        return {}

    def play_context(self, options: Mapping[str, Any], context: Mapping[str, Any]) -> Mapping[str, Any]:
        """The part of a hand's match context that its play can read under `options` (the rest is read only
        when the finished hand is scored). Default: all of it."""
        return context

    def score_only(self, options: Mapping[str, Any]) -> frozenset[str]:
        """The score-only options under these (validated) `options`; what it depends on is never itself
        score-only. Default: :attr:`score_only_options`."""
        return self.score_only_options

    def unread_options(self, state: S) -> frozenset[str]:
        """Options that play never read on its way to `state`, a hand's last state, given what the hand
        became (Barbù: its contract and trump): the same moves make the same states under any of their
        values. Default: none beyond the score-only ones."""
        return frozenset()

    def play_changes(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
        """Whether play can go otherwise under the options `after` than under `before` (both validated):
        they differ in an option that is not score-only."""
        return options_differ(before, after, self.score_only(before))

    def rescored(self, state: S, options: Mapping[str, Any], context: Mapping[str, Any]) -> S:
        """A finished state as the same moves make it under `options` and `context`, which differ from the
        state's own only in score-only options (:meth:`play_changes` is False) and in the part of the
        context play does not read (:meth:`play_context` is the same): what scoring it then reads."""
        return evolve(state, options=dict(options), context=dict(context))

    def can_claim(self, state: S, seat: int) -> bool:
        """Whether ``seat`` may claim now. Default: no claims."""
        return False

    def check_claim(self, state: S, claim: Claim) -> None:
        """Refuse a claim whose terms cannot be (a split that does not share what is left), before the
        others are asked to answer it. Default: any terms."""

    def _settle_claim(self, state: S, claim: Claim) -> S:
        """The finished state once every other player accepted the claim."""
        raise ImpossibleMove("claim.not_allowed", _("claims are not used in this game"), field="type")

    def settle_claim(self, state: S, claim: Claim) -> S:
        """The finished state of ``claim`` scored as stated, as if every other player had accepted it: what
        a director rules when a disputed claim holds (``docs/rules/claims.md``)."""
        settled = self._settle_claim(evolve(state, claim=None, claim_accepted=frozenset()), claim)
        return evolve(settled, settled_claim=claim, over=True)

    def moves_only(self, moves: Sequence[Move]) -> list[Move]:
        """The same hand as it is recorded when the deal is not entered (for the recording-mode tests)."""
        return [Deal(hands=None) if isinstance(m, Deal) else m for m in moves]

    # ---- shared machinery -----------------------------------------------------------------------
    def _deal(self, state: S, deal: Deal) -> S:
        sizes, stock_size = self.deal_shape(state)
        deck = frozenset(self.deck_cards(state.options, state.seats))
        if deal.hands is None:
            holdings = Holdings(deck=deck, counts=sizes)
        else:
            if len(deal.hands) != state.seats:
                raise ImpossibleMove(
                    "deal.invalid", _("the deal needs {count} hands"), field="hands", count=state.seats
                )
            if not _deal_fits(deal.hands, deal.stock, sizes, stock_size, deck):
                self._check_deal(deal.hands, deal.stock, sizes, stock_size, deck)
            holdings = Holdings(
                deck=deck,
                counts=sizes,
                hands=tuple(frozenset(h) for h in deal.hands),
                stock=frozenset(deal.stock),
            )
        return self._after_deal(evolve(state, holdings=holdings), deal)

    def _check_deal(
        self,
        hands: Sequence[Sequence[str]],
        stock: Sequence[str],
        sizes: Sequence[int],
        stock_size: int,
        deck: frozenset[str],
    ) -> None:
        """Card by card, the first fault of a deal that does not fit (a keying error naming it)."""
        seen: set[str] = set()
        for seat, (hand, size) in enumerate(zip(hands, sizes, strict=True)):
            if len(hand) != size:
                raise ImpossibleMove(
                    "deal.invalid",
                    _("{seat} must be dealt {count} cards, not {given}"),
                    field="hands",
                    seat=seat,
                    count=size,
                    given=len(hand),
                )
            for card in (*hand,):
                self._check_dealt(card, deck, seen, "hands")
        if stock and len(stock) != stock_size:
            raise ImpossibleMove(
                "deal.invalid", _("the stock holds {count} cards"), field="stock", count=stock_size
            )
        for card in stock:
            self._check_dealt(card, deck, seen, "stock")

    def _check_dealt(self, card: str, deck: frozenset[str], seen: set[str], field: str) -> None:
        self.deck.check(card, field=field)
        if card not in deck:
            raise ImpossibleMove(
                "card.unknown", _("{card} is not in the deck of this hand"), field=field, card=card
            )
        if card in seen:
            raise ImpossibleMove("deal.invalid", _("{card} is dealt twice"), field=field, card=card)
        seen.add(card)

    def _claim(self, state: S, claim: Claim) -> S:
        if claim.seat is None or not self.can_claim(state, claim.seat):
            raise ImpossibleMove(
                "claim.not_allowed", _("only the player on lead may claim, between tricks"), field="seat"
            )
        self.check_claim(state, claim)
        return evolve(state, claim=claim, claim_index=state.move_index, claim_accepted=frozenset())

    def _claim_response(self, state: S, answer: ClaimResponse) -> tuple[S, list[Verdict]]:
        claim = state.claim
        if claim is None:
            raise ImpossibleMove("claim.none", _("there is no claim to answer"), field="type")
        if answer.seat is None or answer.seat == claim.seat or answer.seat in state.claim_accepted:
            raise ImpossibleMove(
                "turn.wrong", _("the claim is answered once by each other player"), field="seat"
            )
        if not answer.accept:
            verdict = Verdict(
                "claim.disputed",
                claim.seat,
                None,
                _("{disputer_seat} disputes {claimer_seat}'s claim: play goes on"),
                state.claim_index if state.claim_index is not None else state.move_index,
                params={"disputer_seat": answer.seat, "claimer_seat": claim.seat},
            )
            cleared = evolve(
                state,
                claim=None,
                claim_index=None,
                claim_accepted=frozenset(),
                disputed_claims=state.disputed_claims + (claim,),
            )
            return cleared, [verdict]
        accepted = state.claim_accepted | {answer.seat}
        if len(accepted) < state.seats - 1:
            return evolve(state, claim_accepted=accepted), []
        settled = self._settle_claim(evolve(state, claim=None, claim_accepted=accepted), claim)
        return evolve(settled, settled_claim=claim, over=True), []


@dataclass(frozen=True)
class Replay(Generic[S]):
    """A hand folded move by move: ``states[i]`` is the state after ``i`` moves."""

    states: tuple[S, ...]
    verdicts: tuple[Verdict, ...]

    @property
    def final(self) -> S:
        return self.states[-1]


def replay(
    game: Game[S],
    moves: Iterable[Move],
    *,
    options: Mapping[str, Any] | None = None,
    seats: int,
    dealer: int,
    context: Mapping[str, Any] | None = None,
) -> Replay[S]:
    """Fold ``apply`` over the moves, keeping every intermediate state."""
    state = game.initial_state(options, seats=seats, dealer=dealer, context=context)
    states = [state]
    for move in moves:
        state = game.apply(state, move).state
        states.append(state)
    return Replay(tuple(states), state.verdicts)
