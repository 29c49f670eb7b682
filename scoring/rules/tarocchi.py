"""Sicilian Tarocchi for three (Calatafimi), 63 cards.

The rules are those of ``docs/rules/tarocchi.md`` (spec: the shared rules file, seed 001). One deal: the
auction on the first fifteen cards (vado, offro x, piglio, tengo, each seat at most once, closed by the
table), then either an abandoned deal (free, or an accepted offer paid) or the dealer's discard of three and
twenty tricks with follow suit, trump when void, the Fuggitivo (excuse) and the three special obligations:
the King, the Cavallo and the Fanta. Piles are counted in threes (104 card points) plus 5 for the last
trick: the dealer scores P - 37, the others P - 36.

Seats are numbered in the order of play (anticlockwise at the table): the dealer's right is ``dealer + 1``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from .cards import SICILIAN_63, Deck, rank_of, suit_of
from .core import (
    ONLY,
    Game,
    HandResult,
    HandState,
    Holdings,
    MatchResult,
    Pending,
    Score,
    Verdict,
    evolve,
)
from .errors import ImpossibleMove, InvalidOptions, Text, _, literal
from .moves import Call, Claim, Deal, Exchange, Move, PlayCard
from .options import Option, Ruleset
from .tricks import Trick, TrickPlay, new_trick, new_trick_play

FU = "FU"
PLAIN = ("S", "H", "D", "C")
TRUMP = "T"
HAND_SIZE = 20
STOCK_SIZE = 3
DEALER_PAR = 37
OTHER_PAR = 36
LAST_TRICK = 5
CARD_POINTS_TOTAL = 104
USUAL_OFFER_LIMIT = 10
CALLS = ("vado", "offro", "piglio", "tengo", "close")
PESSIMISTIC = ("vado", "offro")

RANK_ORDER = ("4", "5", "6", "7", "8", "9", "T", "J", "N", "Q", "K")  # low to high, every plain suit
PIP_RANKS = frozenset({"4", "5", "6", "7", "8", "9", "T"})
_RANK_INDEX = {r: i for i, r in enumerate(RANK_ORDER)}

# The 23 counting cards ([ACGTS-VAL]); every other card is a blank worth 0.
VALUES: dict[str, int] = {
    "T20": 10,
    "T1": 10,
    FU: 10,
    "T19": 5,
    "T18": 5,
    "T17": 5,
    "T16": 5,
    **{f"K{s}": 5 for s in PLAIN},
    **{f"Q{s}": 4 for s in PLAIN},
    **{f"N{s}": 3 for s in PLAIN},
    **{f"J{s}": 2 for s in PLAIN},
}

# Rules of play, from the most to the least fundamental: where one play breaks several, the table (and the
# recorded deal) names the first; the moves-only mode waits for its proofs in the same order.
FOLLOW_SUIT = "tarocchi.follow_suit"
MUST_TRUMP = "tarocchi.must_trump"
KING = "tarocchi.king"
CAVALLO = "tarocchi.cavallo"
FANTA = "tarocchi.fanta"
MUST_OVERTRUMP = "tarocchi.must_overtrump"
FUGGITIVO_LEAD = "tarocchi.fuggitivo_lead"
DISCARD_FORBIDDEN = "tarocchi.discard_forbidden"
OFFER_HIGH = "tarocchi.offer_high"
PRIORITY = {FOLLOW_SUIT: 4, MUST_TRUMP: 3, KING: 2, CAVALLO: 2, FANTA: 2, MUST_OVERTRUMP: 1}

# What the verdicts of play say (templates and params: scoring.rules.errors).
LED_FUGGITIVO = _("{seat} led the Fuggitivo to trick {trick} holding other cards")
NOT_FOLLOWED = _("{seat} did not follow {lead} to trick {trick} while holding it")
NOT_FOLLOWED_TRUMPS = _("{seat} did not follow trumps to trick {trick} while holding a trump")
NOT_TRUMPED = _("{seat}, void in {lead}, did not trump trick {trick} while holding trumps")
NOT_OVERTRUMPED = _("{seat} did not overtrump {best_card} in trick {trick} though able")
NOT_BEATEN = _("{seat} did not beat {best_card} in trick {trick} though able")
OWED = {
    KING: _(
        "{seat} played {card} to trick {trick} but owed {owed_card} (the King in the first trick of its suit)"
    ),
    CAVALLO: _(
        "{seat} played {card} to trick {trick} but owed {owed_card} (the Cavallo, held with a single pip, "
        "in the first trick of its suit)"
    ),
    FANTA: _("{seat} played {card} to trick {trick} but owed {owed_card} (the Fanta after its King)"),
}


# ---- cards ----------------------------------------------------------------------------------------------
def card_suit(card: str) -> str:
    """The suit for following: S H D C, ``T`` for the trumps (Miseria included), ``F`` for the Fuggitivo."""
    found = _SUIT.get(card)
    if found is None:
        return "F" if card == FU else suit_of(card)
    return found


def is_trump(card: str) -> bool:
    return card_suit(card) == TRUMP


_SUIT: dict[str, str] = {}
_SUIT.update((c, card_suit(c)) for c in SICILIAN_63.cards)  # asked on every card of every legal move


def trump_number(card: str) -> int:
    return int(card[1:])


def is_pip(card: str) -> bool:
    return not is_trump(card) and card != FU and rank_of(card) in PIP_RANKS


def value(card: str) -> int:
    return VALUES.get(card, 0)


def card_points(pile: Iterable[str]) -> int:
    """Counting in threes, closed form: each counting card scores value - 1, every three cards 1 more.

    ``floor((N + 1) / 3)`` rounds a pile of 3k + 1 down and 3k + 2 up (the unpaid Fuggitivo, CHOICE).
    """
    cards = list(pile)
    return sum(value(c) - 1 for c in cards if value(c)) + (len(cards) + 1) // 3


def strength(card: str, led: str) -> tuple[int, int] | None:
    """Any trump beats every plain card; the Fuggitivo never wins; plain cards only in the suit led."""
    if card == FU:
        return None
    if is_trump(card):
        return (1, trump_number(card))
    if not is_trump(led) and led != FU and suit_of(card) == suit_of(led):
        return (0, _RANK_INDEX[rank_of(card)])
    return None


SUIT_CARDS: dict[str, frozenset[str]] = {
    s: frozenset(c for c in SICILIAN_63.cards if card_suit(c) == s) for s in (*PLAIN, TRUMP)
}
BLANK_ORDER = {c: i for i, c in enumerate(SICILIAN_63.cards)}


def effective_led(trick: Trick) -> str | None:
    """The card that sets what is led: the first card, or the one after a Fuggitivo led as a last card."""
    for _seat, card in trick.plays:
        if card != FU:
            return card
    return None


def _opened(play: TrickPlay) -> tuple[frozenset[str], frozenset[str]]:
    """Over the finished tricks: the plain suits led, and the plain suits whose King fell in a trick of
    its suit. Asked at every card, worked out once per trick and from the trick before's answer: each
    answer is kept on the (immutable) trick play beside the tuple of tricks it was computed from."""
    memo = play.__dict__.get("_opened")
    if memo is not None and memo[0] is play.done:
        return memo[1], memo[2]
    return _remember_opened(play, frozenset(), frozenset(), play.done)


def _remember_opened(
    play: TrickPlay, opened: frozenset[str], kings: frozenset[str], tricks: Iterable[Trick]
) -> tuple[frozenset[str], frozenset[str]]:
    """Add ``tricks`` (finished) to what :func:`_opened` found before them, and keep it on ``play``."""
    for trick in tricks:
        led = effective_led(trick)
        if led is None or is_trump(led):
            continue
        suit = _SUIT[led]
        if suit not in opened:
            opened = opened | {suit}
        if suit not in kings and any(card == "K" + suit for _seat, card in trick.plays):
            kings = kings | {suit}
    play.__dict__["_opened"] = (play.done, opened, kings)
    return opened, kings


def _trick_winner(plays: Sequence[tuple[int, str]], led: str) -> int:
    """Who takes a trick led by ``led``: the highest trump, else the highest card of the suit led (what
    :func:`winner_of` finds with :func:`strength`, in one pass)."""
    lead_suit = _SUIT[led]
    winner, best = plays[0][0], -1
    for seat, card in plays:
        suit = _SUIT[card]
        if suit == TRUMP:
            value = 100 + _IN_SUIT[card]
        elif suit == lead_suit:
            value = _IN_SUIT[card]
        else:
            continue  # the Fuggitivo, or another plain suit
        if value > best:
            winner, best = seat, value
    return winner


def _prove_and_prune(
    pending: tuple[Pending, ...], seat: int, card: str, suit: str, index: int, gone: frozenset[str]
) -> tuple[tuple[Pending, ...], list[Verdict]]:
    """Deal unknown, ``seat`` played ``card`` (of ``suit``; ``gone`` now holds it): the verdicts it proves
    (:func:`~scoring.rules.core.prove`) and the assertions still open. Every assertion open before could
    still be proved then; now none on this card can, nor, once it was the last of its suit out of the
    hands, any on its suit."""
    if not pending:
        return (), []
    suit_key, card_key = "suit:" + suit, "card:" + card
    exhausted = suit in SUIT_CARDS and SUIT_CARDS[suit] <= gone
    keep: list[Pending] = []
    found: list[Verdict] = []
    for p in pending:
        key = p.key
        if key in (card_key, suit_key):
            if p.seat == seat:
                found.append(Verdict(p.rule, p.seat, p.trick, p.template, p.move_index, index, p.params))
                continue
            if key == card_key or exhausted:
                continue
        keep.append(p)
    return tuple(keep), found


def _not_followed(seat: int, lead: str, trick: int) -> tuple[str, dict[str, Any]]:
    """The template and params of a failure to follow ``lead`` (a plain suit, or the trumps)."""
    if lead == TRUMP:
        return NOT_FOLLOWED_TRUMPS, {"seat": seat, "trick": trick}
    return NOT_FOLLOWED, {"seat": seat, "lead": lead, "trick": trick}


def _owed_params(seat: int, card: str, trick: int, owed: str) -> dict[str, Any]:
    return {"seat": seat, "card": card, "trick": trick, "owed_card": owed}


_new = object.__new__
_tuple_new = tuple.__new__
_IN_SUIT: dict[str, int] = {}  # a card's place within its suit (trumps by number), to find a trick's best


def _higher(card: str, best: str) -> bool:
    """Whether ``card`` beats ``best`` within one suit (both trumps, or both of one plain suit)."""
    return _IN_SUIT[card] > _IN_SUIT[best]


_IN_SUIT.update(
    (c, trump_number(c) if is_trump(c) else _RANK_INDEX[rank_of(c)]) for c in SICILIAN_63.cards if c != FU
)


def _obligations(
    spot: Spot, seat: int, card: str, suit: str, leading: bool, index: int, trick: int, gone: frozenset[str]
) -> tuple[list[Pending], tuple[CavalloWatch, ...]]:
    """Deal unknown: what playing ``card`` to a trick of the plain ``suit`` says of the special
    obligations: the King and the Fanta it did not hold (unless gone), and a watch on the Cavallo."""
    out: list[Pending] = []
    watches: tuple[CavalloWatch, ...] = ()
    if suit not in spot.opened:
        king = "K" + suit
        if card != king and king not in gone:
            params = _owed_params(seat, card, trick, king)
            out.append(_tuple_new(Pending, (seat, "card:" + king, KING, OWED[KING], index, trick, params)))
        if (card == FU or (is_pip(card) and _SUIT[card] == suit)) and "N" + suit not in gone:
            # A CavalloWatch(seat, suit, card, index, trick), without the frozen dataclass's __init__.
            watch = _new(CavalloWatch)
            watch.__dict__.update(seat=seat, suit=suit, start=card, move_index=index, trick=trick, later=())
            watches = (watch,)
    if not leading and spot.king_shown:
        fanta = "J" + suit
        if card != fanta and fanta not in gone:
            params = _owed_params(seat, card, trick, fanta)
            out.append(_tuple_new(Pending, (seat, "card:" + fanta, FANTA, OWED[FANTA], index, trick, params)))
    return out, watches


def _owe_higher(
    out: list[Pending], seat: int, best: str, index: int, trick: int, gone: frozenset[str]
) -> None:
    """Deal unknown: a card that did not beat ``best`` says the seat held none of the cards that do."""
    params = {"seat": seat, "best_card": best, "trick": trick}
    for higher in sorted(SUIT_CARDS[card_suit(best)] - gone):
        if _IN_SUIT[higher] > _IN_SUIT[best]:
            out.append(
                _tuple_new(
                    Pending, (seat, "card:" + higher, MUST_OVERTRUMP, NOT_BEATEN, index, trick, params)
                )
            )


# ---- options ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _CardList(Option):
    """A list of card codes of the 63-card deck, kept as a tuple in deck order."""

    def check(self, value: Any) -> Any:
        if not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value):
            raise InvalidOptions(
                "options.invalid",
                _("option '{option}' must be a list of card codes"),
                field=self.name,
                option=self.name,
            )
        unknown = [c for c in value if c not in SICILIAN_63]
        if unknown:
            raise InvalidOptions(
                "options.invalid",
                _("option '{option}': '{code}' is not a card"),
                field=self.name,
                option=self.name,
                code=unknown[0],
            )
        return SICILIAN_63.sort(set(value))


RULESET = Ruleset(
    (
        Option(
            "abandon_rule",
            "unanimous",
            _(
                "unanimous: three pessimistic calls (vado/offro) throw the deal in free, the first tengo "
                "plays it, the first piglio pays the offer it names, closing otherwise plays; "
                "silence_consents: closing with a vado/offro standing also throws it in free; offers_only: "
                "only a piglio throws it in."
            ),
            choices=("unanimous", "silence_consents", "offers_only"),
        ),
        Option(
            "max_offer",
            None,
            _(
                "Highest offro accepted (refused above it); null: no cap, an offer above 10 is recorded "
                "with a warning verdict."
            ),
            kind=int,
            minimum=1,
            nullable=True,
        ),
        _CardList(
            "discard_forbidden", (), _("Cards the dealer may not discard (an irregularity if he does).")
        ),
        Option(
            "must_trump_when_void",
            True,
            _("A player void in the plain suit led must play a trump if he has one."),
            kind=bool,
        ),
        Option(
            "must_overtrump",
            False,
            _(
                "A player must beat the best card of the suit led (or the best trump, when trumping or on a "
                "trump lead) if he can; a plain card need not beat once a trump is in the trick."
            ),
            kind=bool,
        ),
        Option(
            "fanta_rule_scope",
            "same_trick",
            _(
                "same_trick: the Fanta is due from a player after its King in the same trick; rest_of_deal: "
                "in every trick of that suit (followers) once its King has been played to a trick of its "
                "suit."
            ),
            choices=("same_trick", "rest_of_deal"),
        ),
        Option(
            "fuggitivo_overrides_obligations",
            False,
            _("The Fuggitivo may be played even where the King, Cavallo or Fanta rule binds the player."),
            kind=bool,
        ),
        Option(
            "fuggitivo_unpaid",
            "keep",
            _(
                "keep: an owner with no blank to give keeps the Fuggitivo (piles rounded); surrender: he "
                "gives the Fuggitivo itself to that trick's winner."
            ),
            choices=("keep", "surrender"),
        ),
        Option(
            "fuggitivo_last_trick",
            "keep",
            _(
                "keep: the owner keeps the Fuggitivo on the last trick too; lost: played to the last trick "
                "it goes to that trick's winner."
            ),
            choices=("keep", "lost"),
        ),
        Option("deals", 12, _("Deals in the match, agreed before the start."), kind=int, minimum=1),
        Option(
            "abandoned_deals_count",
            True,
            _("An abandoned deal counts toward the agreed number of deals."),
            kind=bool,
        ),
        Option(
            "stake_per_point",
            None,
            _("Stake units per point for the final settlement (total x stake); null: totals only."),
            kind=int,
            minimum=1,
            nullable=True,
        ),
    )
)


# ---- state --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CallRecord:
    """One auction call as spoken: who, what, the offer's value, the offerer a piglio accepts."""

    seat: int
    call: str
    value: int | None = None
    target: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "call": self.call, "value": self.value, "target": self.target}


@dataclass(frozen=True)
class CavalloWatch:
    """Deal unknown: ``seat`` played ``start`` (a pip of ``suit``, or the Fuggitivo) to the first trick of
    ``suit``. It broke the Cavallo rule if his cards of the suit were then exactly the Cavallo and one pip,
    which his later plays of the suit (``later``) tell once no card of the suit can still be in his hand."""

    seat: int
    suit: str
    start: str
    move_index: int
    trick: int
    later: tuple[str, ...] = ()

    def broken(self) -> bool | None:
        """True: rule broken; False: it was not; None: not known yet."""
        cavallo = "N" + self.suit
        others = [c for c in self.later if c != cavallo]
        if self.start == FU:
            if any(not is_pip(c) for c in others) or len(others) > 1:
                return False
            return None if cavallo not in self.later or not others else True
        if others:
            return False
        return None if cavallo not in self.later else True

    def status(self, gone: frozenset[str]) -> str:
        """``broken`` (proved), ``clear`` (cannot be proved any more) or ``open``, given the cards gone."""
        broken = self.broken()
        cavallo = "N" + self.suit
        if broken is False or (cavallo in gone and cavallo not in self.later):
            return "clear"
        if broken and SUIT_CARDS[self.suit] <= gone:
            return "broken"
        return "open"

    def verdict(self, proved_at: int) -> Verdict:
        params: dict[str, Any] = {"seat": self.seat, "suit": self.suit, "trick": self.trick}
        if self.start == FU:
            template = _(
                "{seat} held only the Cavallo and one pip of {suit} in the first {suit} trick "
                "(trick {trick}) and played the Fuggitivo instead of the Cavallo"
            )
        else:
            template = _(
                "{seat} held only the Cavallo and one pip of {suit} in the first {suit} trick "
                "(trick {trick}) and played {card} instead of the Cavallo"
            )
            params["card"] = self.start
        return Verdict(CAVALLO, self.seat, self.trick, template, self.move_index, proved_at, params)


@dataclass(frozen=True, kw_only=True)
class TarocchiState(HandState):
    calls: tuple[CallRecord, ...] = ()
    auction: str | None = None  # played, abandoned_free, abandoned_offer (None while open)
    accepted: tuple[int, int, int] | None = None  # offerer, accepter, value of the offer taken
    monte: tuple[str, ...] | None = None  # the three cards the dealer takes, where known
    discard: tuple[str, ...] | None = None  # None: not recorded (moves-only), known from the play at the end
    discard_index: int | None = None
    play: TrickPlay | None = None
    watches: tuple[CavalloWatch, ...] = ()
    deferred: tuple[Verdict, ...] = ()
    claimed: tuple[tuple[str, ...], ...] | None = None  # remaining cards by seat at an accepted claim

    @property
    def trickplay(self) -> TrickPlay:
        if self.play is None:
            raise AssertionError("no play yet")
        return self.play

    @property
    def spoken(self) -> frozenset[int]:
        return frozenset(c.seat for c in self.calls)


class Spot(NamedTuple):
    """What the player to act faces in the current trick (made at every card: a plain named tuple)."""

    led: str | None  # the card that sets what is led (None: he leads)
    lead_suit: str | None
    opened: frozenset[str]  # plain suits led in earlier tricks
    best: str | None  # the best card so far of the suit led, while no trump beats it (plain lead)
    best_trump: str | None  # the highest trump in the trick
    king_shown: bool  # the Fanta rule applies to the suit led


@dataclass(frozen=True)
class Obligation:
    card: str
    rule: str


# ---- the game -----------------------------------------------------------------------------------------
class Tarocchi(Game[TarocchiState]):
    """Sicilian Tarocchi for three: auction, discard, twenty tricks, 109 points."""

    name: ClassVar[str] = "tarocchi"
    title: ClassVar[str] = _("Sicilian Tarocchi (3 players)")
    deck: ClassVar[Deck] = SICILIAN_63
    seat_counts: ClassVar[tuple[int, ...]] = (3,)
    ruleset: ClassVar[Ruleset] = RULESET
    score_unit: ClassVar[str] = "points"
    # Where the Fuggitivo's card goes once the hand is over (read only when the piles are counted), and
    # the match's length and settlement.
    score_only_options: ClassVar[frozenset[str]] = frozenset(
        {"fuggitivo_last_trick", "fuggitivo_unpaid", "deals", "abandoned_deals_count", "stake_per_point"}
    )

    # ---- set-up ---------------------------------------------------------------------------------------
    def _initial(
        self, options: dict[str, Any], seats: int, dealer: int, context: dict[str, Any]
    ) -> TarocchiState:
        return TarocchiState(options=options, seats=seats, dealer=dealer, context=context)

    def deal_shape(self, state: TarocchiState) -> tuple[tuple[int, ...], int]:
        """Twenty cards each (fifteen before the auction, five after) and the dealer's three."""
        return (HAND_SIZE,) * state.seats, STOCK_SIZE

    def _after_deal(self, state: TarocchiState, deal: Deal) -> TarocchiState:
        holdings = state.hands
        if holdings.hands is not None and not holdings.stock:
            # The three cards the hands do not hold are the dealer's: the stock need not be keyed.
            held = frozenset().union(*holdings.hands)
            holdings = evolve(holdings, stock=holdings.deck - held)
        return evolve(state, holdings=holdings, phase="auction")

    def moves_only(self, moves: Sequence[Move]) -> list[Move]:
        """Without the deal the dealer's discard is recorded as a count: its cards are seen at the end."""
        out: list[Move] = []
        for m in moves:
            if isinstance(m, Deal):
                out.append(Deal(hands=None))
            elif isinstance(m, Exchange) and m.discard:
                out.append(Exchange(seat=m.seat, count=len(m.discard)))
            else:
                out.append(m)
        return out

    # ---- whose move -----------------------------------------------------------------------------------
    def actors(self, state: TarocchiState, move: Move) -> frozenset[int | None]:
        play = state.play
        if state.phase == "play" and isinstance(move, PlayCard) and play is not None:
            current = play.current  # the seat to play: TrickPlay.to_play(), asked at every card
            return ONLY[(current.leader + len(current.plays)) % play.seats]
        if isinstance(move, Call) and state.phase == "auction":
            return frozenset[int | None](s for s in range(state.seats) if s not in state.spoken) | {None}
        if isinstance(move, Exchange) and state.phase == "discard":
            return frozenset({state.dealer})
        if isinstance(move, PlayCard) and state.phase == "play":
            return frozenset({state.trickplay.to_play()})
        return frozenset()

    def to_act(self, state: TarocchiState) -> frozenset[int]:
        if state.over:
            return frozenset()
        if state.phase == "auction":
            return frozenset(s for s in range(state.seats) if s not in state.spoken)
        if state.phase == "discard":
            return frozenset({state.dealer})
        if state.phase == "play":
            return frozenset({state.trickplay.to_play()})
        return frozenset()

    def _legal(self, state: TarocchiState) -> list[Move]:
        if state.phase == "auction":
            return self._legal_calls(state)
        if state.phase == "discard":
            if not state.deal_known:
                return [Exchange(seat=state.dealer, count=STOCK_SIZE)]
            forbidden = set(state.options["discard_forbidden"])
            hand = self.deck.sort(state.hands.hand(state.dealer) - forbidden)
            return [Exchange(seat=state.dealer, discard=d) for d in itertools.combinations(hand, STOCK_SIZE)]
        if state.phase == "play":
            return self._legal_plays(state)
        return []

    def _legal_calls(self, state: TarocchiState) -> list[Move]:
        cap = state.options["max_offer"]
        top = USUAL_OFFER_LIMIT if cap is None else min(cap, USUAL_OFFER_LIMIT)
        offers = self._standing_offers(state)
        moves: list[Move] = []
        for seat in range(state.seats):
            if seat in state.spoken:
                continue
            moves.append(Call(seat=seat, call="vado"))
            moves.extend(Call(seat=seat, call="offro", value=x) for x in range(1, top + 1))
            moves.extend(Call(seat=seat, call="piglio", target=o) for o in sorted(offers) if o != seat)
            moves.append(Call(seat=seat, call="tengo"))
        moves.append(Call(seat=None, call="close"))
        return moves

    def _legal_plays(self, state: TarocchiState) -> list[Move]:
        seat = state.trickplay.to_play()
        if state.deal_known:
            hand = self.deck.sort(state.hands.hand(seat))
            spot = self.spot(state)
            return [PlayCard(seat=seat, card=c) for c in hand if self.violation(state, seat, c, spot) is None]
        # Deal unknown: any card still out that the recorded plays do not already rule out.
        out: list[Move] = []
        for card in self.deck.sort(state.hands.deck - state.hands.gone):
            move = PlayCard(seat=seat, card=card)
            try:
                _state, verdicts = self._play(state, move)
            except ImpossibleMove:
                continue
            if not verdicts:
                out.append(move)
        return out

    # ---- moves ----------------------------------------------------------------------------------------
    def _apply(self, state: TarocchiState, move: Move) -> tuple[TarocchiState, list[Verdict]]:
        if isinstance(move, PlayCard):  # the card play first: nearly every move
            return self._play(state, move)
        if isinstance(move, Call):
            return self._call(state, move)
        if isinstance(move, Exchange):
            return self._exchange(state, move)
        raise AssertionError(f"unexpected move {move!r}")  # actors() lets nothing else through

    # ---- the auction ----------------------------------------------------------------------------------
    @staticmethod
    def _standing_offers(state: TarocchiState) -> dict[int, int]:
        return {c.seat: c.value for c in state.calls if c.call == "offro" and c.value is not None}

    def _call(self, state: TarocchiState, move: Call) -> tuple[TarocchiState, list[Verdict]]:
        call = move.call
        if call not in CALLS:
            raise ImpossibleMove(
                "tarocchi.call_unknown",
                _("unknown call '{name}' (one of {names})"),
                field="call",
                name=literal(call),
                names=list(CALLS),
            )
        if move.suit is not None:
            raise ImpossibleMove("tarocchi.call_field", _("no Tarocchi call names a suit"), field="suit")
        if (call == "close") != (move.seat is None):
            raise ImpossibleMove(
                "tarocchi.call_seat",
                _("the table closes the auction (no seat); every other call is a seat's"),
                field="seat",
            )
        if call != "offro" and move.value is not None:
            raise ImpossibleMove("tarocchi.call_field", _("{call} takes no value"), field="value", call=call)
        if call != "piglio" and move.target is not None:
            raise ImpossibleMove("tarocchi.call_field", _("{call} names no offer"), field="target", call=call)
        if call == "close":
            return self._resolve(state, self._closing_outcome(state)), []
        assert move.seat is not None
        seat = move.seat
        verdicts: list[Verdict] = []
        if call == "offro":
            verdicts = self._check_offer(state, seat, move.value)
        if call == "piglio":
            self._check_piglio(state, seat, move.target)
        record = CallRecord(seat, call, move.value, move.target)
        state = evolve(state, calls=state.calls + (record,))
        if call == "tengo":
            return self._resolve(state, "played"), verdicts
        if call == "piglio":
            assert move.target is not None
            offer = self._standing_offers(state)[move.target]
            state = evolve(state, accepted=(move.target, seat, offer))
            return self._resolve(state, "abandoned_offer"), verdicts
        if len(state.spoken) == state.seats:
            # Three pessimistic calls and nobody left to accept: the rule decides.
            free = state.options["abandon_rule"] != "offers_only"
            return self._resolve(state, "abandoned_free" if free else "played"), verdicts
        return state, verdicts

    def _check_offer(self, state: TarocchiState, seat: int, offer: int | None) -> list[Verdict]:
        if offer is None or offer < 1:
            raise ImpossibleMove(
                "tarocchi.offer_value", _("offro needs a whole number of points, 1 or more"), field="value"
            )
        cap = state.options["max_offer"]
        if cap is not None and offer > cap:
            raise ImpossibleMove(
                "tarocchi.offer_cap",
                _("this table caps offers at {points} points"),
                field="value",
                points=cap,
            )
        if cap is None and offer > USUAL_OFFER_LIMIT:
            return [
                Verdict(
                    OFFER_HIGH,
                    seat,
                    None,
                    _("{seat} offers {points} points, above the usual limit of {limit}"),
                    state.move_index,
                    params={"seat": seat, "points": offer, "limit": USUAL_OFFER_LIMIT},
                )
            ]
        return []

    def _check_piglio(self, state: TarocchiState, seat: int, target: int | None) -> None:
        offers = self._standing_offers(state)
        if not any(o != seat for o in offers):
            raise ImpossibleMove(
                "tarocchi.no_offer", _("piglio accepts an offer, and no other player offered"), field="call"
            )
        if target is None:
            raise ImpossibleMove(
                "tarocchi.piglio_target", _("piglio names the offer it takes (the offerer)"), field="target"
            )
        if target == seat:
            raise ImpossibleMove(
                "tarocchi.own_offer", _("a player cannot take his own offer"), field="target"
            )
        if target not in offers:
            raise ImpossibleMove(
                "tarocchi.no_offer", _("{target} made no offer"), field="target", target=target
            )

    def _closing_outcome(self, state: TarocchiState) -> str:
        pessimist = any(c.call in PESSIMISTIC for c in state.calls)
        if state.options["abandon_rule"] == "silence_consents" and pessimist:
            return "abandoned_free"
        return "played"

    def _resolve(self, state: TarocchiState, outcome: str) -> TarocchiState:
        if outcome != "played":
            return evolve(state, auction=outcome, phase="over", over=True)
        # The five more cards are dealt and the dealer takes the three left (already in the recorded deal).
        holdings = state.hands
        monte = self.deck.sort(holdings.stock) if holdings.known else None
        holdings = holdings.add(state.dealer, monte or (), count=STOCK_SIZE)
        return evolve(state, auction=outcome, phase="discard", holdings=holdings, monte=monte)

    # ---- the discard ----------------------------------------------------------------------------------
    def _exchange(self, state: TarocchiState, move: Exchange) -> tuple[TarocchiState, list[Verdict]]:
        dealer = state.dealer
        holdings = state.hands
        verdicts: list[Verdict] = []
        discard: tuple[str, ...] | None = None
        if move.take:
            self._check_take(state, move.take)
        if move.discard:
            if len(move.discard) != STOCK_SIZE or move.count not in (None, STOCK_SIZE):
                raise ImpossibleMove(
                    "tarocchi.discard_count", _("the dealer discards exactly 3 cards"), field="discard"
                )
            for card in move.discard:
                self.deck.check(card, field="discard")
            holdings = holdings.remove(dealer, move.discard, field="discard")
            discard = self.deck.sort(move.discard)
            verdicts = self._check_discard(state, discard, state.move_index, None)
        else:
            if state.deal_known:
                raise ImpossibleMove(
                    "tarocchi.discard_unknown",
                    _("with the deal recorded, name the 3 cards discarded"),
                    field="discard",
                )
            if move.count != STOCK_SIZE:
                raise ImpossibleMove(
                    "tarocchi.discard_count", _("the dealer discards exactly 3 cards"), field="count"
                )
            counts = list(holdings.counts)
            counts[dealer] -= STOCK_SIZE
            holdings = evolve(holdings, counts=tuple(counts))
        play = TrickPlay.start(state.seats, state.next_seat(dealer))
        new = evolve(
            state,
            holdings=holdings,
            discard=discard,
            discard_index=state.move_index,
            play=play,
            phase="play",
        )
        return new, verdicts

    def _check_take(self, state: TarocchiState, take: tuple[str, ...]) -> None:
        for card in take:
            self.deck.check(card, field="take")
        if len(take) != STOCK_SIZE or len(set(take)) != STOCK_SIZE:
            raise ImpossibleMove("tarocchi.take", _("the dealer takes the 3 cards left"), field="take")
        if state.monte is not None:
            if set(take) != set(state.monte):
                raise ImpossibleMove(
                    "tarocchi.take", _("the recorded deal leaves other cards to the dealer"), field="take"
                )
        else:
            for card in take:
                state.hands.check_available(card, field="take")

    def _check_discard(
        self, state: TarocchiState, discard: Sequence[str], index: int, proved_at: int | None
    ) -> list[Verdict]:
        bad = [c for c in discard if c in state.options["discard_forbidden"]]
        if not bad:
            return []
        template = _("the dealer ({dealer}) discarded {cards}, which may not be discarded")
        params = {"dealer": state.dealer, "cards": bad}
        return [Verdict(DISCARD_FORBIDDEN, state.dealer, None, template, index, proved_at, params)]

    # ---- play -----------------------------------------------------------------------------------------
    def spot(self, state: TarocchiState) -> Spot:
        """The situation of the player to act in the current trick."""
        return self._spot(state, state.trickplay)

    @staticmethod
    def _spot(state: TarocchiState, play: TrickPlay) -> Spot:
        memo = play.__dict__.get("_opened")  # what _opened(play) answers, looked up here: asked at every card
        if memo is not None and memo[0] is play.done:
            opened, kings = memo[1], memo[2]
        else:
            opened, kings = _opened(play)
        led: str | None = None
        lead_suit: str | None = None
        best: str | None = None
        best_trump: str | None = None
        cards: list[str] = []
        # One pass over the (at most two) cards down: what was led, the best trump, the best of the suit.
        for _seat, card in play.current.plays:
            cards.append(card)
            suit = _SUIT[card]
            if suit == TRUMP:
                if best_trump is None or _IN_SUIT[card] > _IN_SUIT[best_trump]:
                    best_trump = card
            elif suit == lead_suit and best is not None and _IN_SUIT[card] > _IN_SUIT[best]:
                best = card
            if led is None and card != FU:
                led, lead_suit = card, suit
                if suit != TRUMP:
                    best = card
        if led is None:
            return _tuple_new(Spot, (None, None, opened, None, None, False))
        king_shown = False
        if lead_suit in PLAIN:
            # The Fanta rule applies once the King of the suit has fallen in a trick of its suit: this
            # one, or (scope rest_of_deal) any earlier one (``kings``, from :func:`_opened`).
            king_shown = ("K" + lead_suit) in cards or (
                lead_suit in kings and state.options["fanta_rule_scope"] == "rest_of_deal"
            )
        return _tuple_new(
            Spot, (led, lead_suit, opened, best if best_trump is None else None, best_trump, king_shown)
        )

    def _obligation(self, spot: Spot, hand: frozenset[str], suit: str, leading: bool) -> Obligation | None:
        """The card the special rules require of this player in a trick of ``suit``, if any: in the first
        trick of the suit the King (i), or the Cavallo held with a single pip (ii); then the Fanta."""
        if suit not in PLAIN:
            return None
        if suit not in spot.opened:
            king = "K" + suit
            if king in hand:
                return Obligation(king, KING)
            cavallo = "N" + suit
            if cavallo in hand:
                mine = hand & SUIT_CARDS[suit]
                if len(mine) == 2 and all(is_pip(c) for c in mine - {cavallo}):
                    return Obligation(cavallo, CAVALLO)
        if not leading and spot.king_shown and "J" + suit in hand:
            return Obligation("J" + suit, FANTA)
        return None

    def violation(
        self, state: TarocchiState, seat: int, card: str, spot: Spot | None = None
    ) -> tuple[str, str, dict[str, Any]] | None:
        """Deal known: the rule ``seat`` would break by playing ``card`` now (the first one that applies),
        with the template and params of its verdict."""
        hand = state.hands.hand(seat)
        spot = spot or self.spot(state)
        n = state.trickplay.number
        options = state.options
        if spot.led is None:
            if card == FU:
                if len(hand) > 1:
                    return FUGGITIVO_LEAD, LED_FUGGITIVO, {"seat": seat, "trick": n}
                return None
            found = self._obligation(spot, hand, _SUIT[card], leading=True)
            if found is not None and card != found.card:
                return found.rule, OWED[found.rule], _owed_params(seat, card, n, found.card)
            return None
        lead = spot.lead_suit
        assert lead is not None
        if card == FU:
            if not options["fuggitivo_overrides_obligations"]:
                found = self._obligation(spot, hand, lead, leading=False)
                if found is not None:
                    return found.rule, OWED[found.rule], _owed_params(seat, card, n, found.card)
            return None
        mine = hand & SUIT_CARDS[lead]
        if _SUIT[card] != lead:
            if mine:
                return (FOLLOW_SUIT, *_not_followed(seat, lead, n))
            trumps = hand & SUIT_CARDS[TRUMP]
            if lead != TRUMP and options["must_trump_when_void"] and not is_trump(card) and trumps:
                return MUST_TRUMP, NOT_TRUMPED, {"seat": seat, "lead": lead, "trick": n}
            if is_trump(card) and options["must_overtrump"] and spot.best_trump is not None:
                best = spot.best_trump
                if not _higher(card, best) and any(_higher(t, best) for t in trumps):
                    return MUST_OVERTRUMP, NOT_OVERTRUMPED, {"seat": seat, "best_card": best, "trick": n}
            return None
        found = self._obligation(spot, hand, lead, leading=False)
        if found is not None:
            if card != found.card:
                return found.rule, OWED[found.rule], _owed_params(seat, card, n, found.card)
            return None
        if options["must_overtrump"]:
            beat = spot.best_trump if lead == TRUMP else spot.best
            if beat is not None and not _higher(card, beat) and any(_higher(c, beat) for c in mine):
                return MUST_OVERTRUMP, NOT_BEATEN, {"seat": seat, "best_card": beat, "trick": n}
        return None

    def _play(self, state: TarocchiState, move: PlayCard) -> tuple[TarocchiState, list[Verdict]]:
        assert move.seat is not None
        seat, card = move.seat, move.card
        if type(card) is not str or card not in _SUIT:  # anything but a card of the deck: as Deck.check says
            self.deck.check(card)
        before = state.holdings
        assert before is not None  # (the core lets no card through before the deal)
        holdings = before.remove_card(seat, card)
        index = state.move_index
        verdicts: list[Verdict] = []
        if holdings.hands is not None:  # the deal is known
            found = self.violation(state, seat, card)
            if found is not None:
                rule, template, params = found
                verdicts.append(Verdict(rule, seat, state.trickplay.number, template, index, params=params))
            new = evolve(state, holdings=holdings, play=self._advance(state.trickplay, seat, card))
        else:
            new, verdicts = self._play_unknown(state, seat, card, holdings)
        if not holdings.counts[seat] and not any(holdings.counts):
            new = evolve(new, over=True, phase="over")
            if not new.deal_known:
                new, more = self._flush(new, index)
                verdicts += more
        return new, verdicts

    @staticmethod
    def _advance(play: TrickPlay, seat: int, card: str) -> TrickPlay:
        """Add the card; a full trick goes to its best card (the Fuggitivo never wins)."""
        current = play.current
        plays = (*current.plays, (seat, card))
        if len(plays) < play.seats:
            # The same trick play with one more card: its fields (and its memo of the finished tricks,
            # which are the same) copied, the trick on the table replaced.
            same = _new(TrickPlay)
            fields = same.__dict__
            fields.update(play.__dict__)
            fields["current"] = new_trick(current.number, current.leader, plays)
            return same
        # The trick is full: closed (what TrickPlay.close does), its winner leading the next.
        led = plays[0][1] if plays[0][1] != FU else plays[1][1]
        winner = _trick_winner(plays, led)
        finished = new_trick(current.number, current.leader, plays, winner)
        closed = new_trick_play(play.seats, new_trick(current.number + 1, winner, ()), (*play.done, finished))
        memo = play.__dict__.get("_opened")
        if memo is not None and memo[0] is play.done:
            _remember_opened(closed, memo[1], memo[2], (finished,))
        return closed

    # ---- moves-only: what each play asserts and what later plays prove ---------------------------------
    def _play_unknown(
        self, state: TarocchiState, seat: int, card: str, holdings: Holdings
    ) -> tuple[TarocchiState, list[Verdict]]:
        index = state.move_index
        play = state.play
        assert play is not None
        n = play.current.number
        spot = self._spot(state, play)
        verdicts: list[Verdict] = []
        if spot.led is None and card == FU and state.hands.counts[seat] > 1:
            params = {"seat": seat, "trick": n}
            verdicts.append(Verdict(FUGGITIVO_LEAD, seat, n, LED_FUGGITIVO, index, params=params))
        suit = _SUIT[card]
        gone = holdings.gone
        pending, found = _prove_and_prune(state.pending, seat, card, suit, index, gone)
        watches = state.watches
        new_pending, new_watches = self._assertions(state, spot, seat, card, holdings, n)
        if new_watches or (watches and any(w.suit == suit for w in watches)):
            # A watch kept was open; only one on this card's suit can change (its later cards, the suit's
            # cards gone, its Cavallo gone), and each new one is looked at for the first time.
            open_watches: list[CavalloWatch] = []
            for w in watches:
                if w.suit == suit:
                    if w.seat == seat:
                        w = evolve(w, later=w.later + (card,))
                    status = w.status(gone)
                    if status != "open":
                        if status == "broken":
                            found.append(w.verdict(index))
                        continue
                open_watches.append(w)
            for w in new_watches:
                status = w.status(gone)
                if status == "broken":
                    found.append(w.verdict(index))
                elif status == "open":
                    open_watches.append(w)
            watches = tuple(open_watches)
        if new_pending:
            pending += tuple(
                p for p in new_pending if self._provable(p.key, gone)
            )  # a suit all gone: no proof
        new = evolve(
            state,
            holdings=holdings,
            play=self._advance(play, seat, card),
            pending=pending,
            watches=watches,
        )
        if not found and not new.deferred:
            return new, verdicts
        new, settled = self._settle(new, found, final=False)
        return new, verdicts + settled

    def _assertions(
        self, state: TarocchiState, spot: Spot, seat: int, card: str, holdings: Holdings, n: int
    ) -> tuple[tuple[Pending, ...], tuple[CavalloWatch, ...]]:
        """What the play of ``card`` (to trick ``n``) says about the hand it came from, to be proved false
        later."""
        index = state.move_index
        options = state.options
        gone = holdings.gone
        watches: tuple[CavalloWatch, ...] = ()
        if spot.led is None:
            if card == FU or _SUIT[card] not in PLAIN:
                return (), ()
            owed, watches = _obligations(spot, seat, card, _SUIT[card], True, index, n, gone)
            return tuple(owed), watches
        lead = spot.lead_suit
        assert lead is not None
        if card == FU:
            if lead in PLAIN and not options["fuggitivo_overrides_obligations"]:
                owed, watches = _obligations(spot, seat, card, lead, False, index, n, gone)
                return tuple(owed), watches
            return (), ()
        out: list[Pending] = []
        if _SUIT[card] != lead:
            template, params = _not_followed(seat, lead, n)
            out.append(_tuple_new(Pending, (seat, "suit:" + lead, FOLLOW_SUIT, template, index, n, params)))
            trump = _SUIT[card] == TRUMP
            if lead != TRUMP and options["must_trump_when_void"] and not trump:
                params = {"seat": seat, "lead": lead, "trick": n}
                out.append(
                    _tuple_new(Pending, (seat, "suit:" + TRUMP, MUST_TRUMP, NOT_TRUMPED, index, n, params))
                )
            best_trump = spot.best_trump
            if trump and options["must_overtrump"] and best_trump and not _higher(card, best_trump):
                _owe_higher(out, seat, best_trump, index, n, gone)
            return tuple(out), ()
        if lead in PLAIN:
            out, watches = _obligations(spot, seat, card, lead, False, index, n, gone)
        # The card the rules force on whoever holds it: then no duty to beat applies (see violation()).
        forced = card == "K" + lead or (card == "J" + lead and spot.king_shown)
        if options["must_overtrump"] and not forced:
            best = spot.best_trump if lead == TRUMP else spot.best
            if best is not None and not _higher(card, best):
                _owe_higher(out, seat, best, index, n, gone)
        return tuple(out), watches

    @staticmethod
    def _provable(key: str, gone: frozenset[str]) -> bool:
        kind, _colon, what = key.partition(":")
        if kind == "card":
            return what not in gone
        return not SUIT_CARDS[what] <= gone

    def _settle(
        self, state: TarocchiState, found: list[Verdict], *, final: bool
    ) -> tuple[TarocchiState, list[Verdict]]:
        """Report each proved move once, under the most fundamental rule it broke.

        A move whose proof names a lesser rule while a greater one may still be proved (a void in the suit
        led shown false after a void in trumps) waits; at the end of the hand everything left is reported.
        """
        pending, watches = state.pending, state.watches
        deferred = list(state.deferred)
        by_move: dict[int, list[Verdict]] = {}
        for v in [*deferred, *found]:
            by_move.setdefault(v.move_index, []).append(v)
        out: list[Verdict] = []
        keep: list[Verdict] = []
        for index in sorted(by_move):
            best = max(by_move[index], key=lambda v: PRIORITY.get(v.rule, 0))
            rank = PRIORITY.get(best.rule, 0)
            blocking = not final and (
                any(p.move_index == index and PRIORITY[p.rule] > rank for p in pending)
                or any(w.move_index == index and PRIORITY[CAVALLO] > rank for w in watches)
            )
            if blocking:
                keep.append(best)
                pending = tuple(p for p in pending if p.move_index != index or PRIORITY[p.rule] > rank)
                continue
            out.append(best)
            pending = tuple(p for p in pending if p.move_index != index)
            watches = tuple(w for w in watches if w.move_index != index)
        return evolve(state, pending=pending, watches=watches, deferred=tuple(keep)), out

    def _flush(self, state: TarocchiState, index: int) -> tuple[TarocchiState, list[Verdict]]:
        """The last card is down (deal unknown): every open question has its answer."""
        found = [w.verdict(index) for w in state.watches if w.broken()]
        state = evolve(state, watches=(), pending=())
        state, out = self._settle(state, found, final=True)
        if state.discard is None and state.discard_index is not None:
            out += self._check_discard(state, self._discard_of(state), state.discard_index, index)
        return state, out

    # ---- claims ---------------------------------------------------------------------------------------
    def can_claim(self, state: TarocchiState, seat: int) -> bool:
        """The player on lead, between tricks; without the deal only once the discard is recorded and the
        Fuggitivo is out of the hands (otherwise the cards claimed are not known)."""
        if state.over or state.phase != "play" or not state.trickplay.leading:
            return False
        if state.trickplay.current.leader != seat:
            return False
        if state.deal_known:
            return True
        return state.discard is not None and FU in state.hands.gone

    def check_claim(self, state: TarocchiState, claim: Claim) -> None:
        remaining = HAND_SIZE - len(state.trickplay.done) if state.play is not None else 0
        if claim.split is not None or claim.tricks not in (None, remaining):
            raise ImpossibleMove(
                "tarocchi.claim_all_only",
                _("only a claim of all {count} remaining tricks is possible; any other is played out"),
                field="tricks",
                count=remaining,
            )

    def _settle_claim(self, state: TarocchiState, claim: Claim) -> TarocchiState:
        assert claim.seat is not None
        holdings = state.hands
        if holdings.hands is not None:
            claimed = tuple(self.deck.sort(h) for h in holdings.hands)
        else:
            rest = self.deck.sort(holdings.deck - holdings.gone)
            claimed = tuple(rest if s == claim.seat else () for s in range(state.seats))
            # Open proofs cannot be completed without the cards: report what was proved, drop the rest.
            state = evolve(state, watches=(), pending=())
            state, out = self._settle(state, [], final=True)
            state = evolve(state, verdicts=state.verdicts + tuple(out))
        return evolve(state, claimed=claimed, phase="over")

    # ---- scoring --------------------------------------------------------------------------------------
    def _discard_of(self, state: TarocchiState) -> tuple[str, ...]:
        if state.discard is not None:
            return state.discard
        # Deal unknown: the three cards nobody played are the discard.
        played = {c for t in state.trickplay.done for c in t.cards}
        for hand in state.claimed or ():
            played |= set(hand)
        return self.deck.sort(state.hands.deck - played)

    def piles(self, state: TarocchiState) -> tuple[list[list[str]], int, dict[str, Any] | None]:
        """Each seat's captured cards (the discard with the dealer's), the last trick's winner, and what
        became of the Fuggitivo."""
        options = state.options
        play = state.trickplay
        piles: list[list[str]] = [[] for _seat in range(state.seats)]
        fugg: dict[str, Any] | None = None
        for t in play.done:
            assert t.winner is not None
            for seat, card in t.plays:
                last = t.number == HAND_SIZE
                if card == FU and not (last and options["fuggitivo_last_trick"] == "lost"):
                    piles[seat].append(card)
                    fugg = {"owner": seat, "trick": t.number, "winner": t.winner}
                else:
                    piles[t.winner].append(card)
                    if card == FU:
                        fugg = {"owner": seat, "trick": t.number, "winner": t.winner, "lost": True}
        last_winner = play.done[-1].winner if play.done else None
        if state.claimed is not None:
            claimer = state.settled_claim.seat if state.settled_claim is not None else None
            assert claimer is not None
            for seat, cards in enumerate(state.claimed):
                for card in cards:
                    if card == FU and seat != claimer:
                        piles[seat].append(card)
                        fugg = {"owner": seat, "trick": None, "winner": claimer}
                    else:
                        piles[claimer].append(card)
            last_winner = claimer
        assert last_winner is not None
        piles[state.dealer].extend(self._discard_of(state))
        if fugg is not None and not fugg.get("lost"):
            owner, winner = fugg["owner"], fugg["winner"]
            blanks = sorted((c for c in piles[owner] if value(c) == 0), key=BLANK_ORDER.__getitem__)
            if blanks:
                piles[owner].remove(blanks[0])
                piles[winner].append(blanks[0])
                fugg["paid"] = blanks[0]
            elif options["fuggitivo_unpaid"] == "surrender":
                piles[owner].remove(FU)
                piles[winner].append(FU)
                fugg["surrendered"] = True
            else:
                fugg["paid"] = None
        return [list(self.deck.sort(p)) for p in piles], last_winner, fugg

    def _result(self, state: TarocchiState) -> HandResult:
        details: dict[str, Any] = {
            "dealer": state.dealer,
            "calls": [c.as_dict() for c in state.calls],
            "auction": state.auction,
        }
        if state.auction != "played":
            paid = [0] * state.seats
            if state.accepted is not None:
                offerer, accepter, offer = state.accepted
                paid[offerer], paid[accepter] = -offer, offer
                details["offer"] = {"offerer": offerer, "accepter": accepter, "value": offer}
            details["abandon"] = "offer" if state.accepted is not None else "free"
            if state.accepted is None:
                text = Text(_("deal thrown in free"))
            else:
                offerer, accepter, offer = state.accepted
                text = Text(
                    _("deal thrown in: {seat} took the offer of {points} points made by {offer_seat}"),
                    {"seat": accepter, "points": offer, "offer_seat": offerer},
                )
            return HandResult(
                outcome="abandoned", scores=tuple(paid), unit="points", details=details, outcome_text=text
            )
        piles, last, fugg = self.piles(state)
        counted = [card_points(p) for p in piles]
        assert sum(len(p) for p in piles) == len(self.deck), "the piles must hold the whole deck"
        assert sum(counted) == CARD_POINTS_TOTAL, f"card points {counted} must add up to 104"
        bonus = [LAST_TRICK if s == last else 0 for s in range(state.seats)]
        points = [c + b for c, b in zip(counted, bonus, strict=True)]
        offsets = [-(DEALER_PAR if s == state.dealer else OTHER_PAR) for s in range(state.seats)]
        scores: tuple[Score, ...] = tuple(p + o for p, o in zip(points, offsets, strict=True))
        assert sum(scores) == 0
        details.update(
            {
                "discard": list(self._discard_of(state)),
                "piles": piles,
                "card_points": counted,
                "last_trick": last,
                "points": points,
                "offsets": offsets,
                "fuggitivo": fugg,
                "tricks_won": [state.trickplay.tricks_won(s) for s in range(state.seats)],
                "tricks": [t.as_dict() for t in state.trickplay.done],
                "claim": None if state.settled_claim is None else {"seat": state.settled_claim.seat},
            }
        )
        text = Text(
            _(
                "deal played, points taken: {first_seat} {first_points}, "
                "{second_seat} {second_points}, {third_seat} {third_points}"
            ),
            {
                "first_seat": 0,
                "first_points": points[0],
                "second_seat": 1,
                "second_points": points[1],
                "third_seat": 2,
                "third_points": points[2],
            },
        )
        return HandResult(outcome="played", scores=scores, unit="points", details=details, outcome_text=text)

    # ---- the match ------------------------------------------------------------------------------------
    def match_result(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> MatchResult:
        """A fixed number of deals with running totals; the highest total wins, equal totals share."""
        opts = self.ruleset.validate(options)
        totals: list[int] = [0] * seats
        rows: list[dict[str, Any]] = []
        counted = 0
        for number, result in enumerate(results, start=1):
            counts = result.outcome == "played" or opts["abandoned_deals_count"]
            counted += 1 if counts else 0
            scores = [int(s) for s in result.scores]
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
            rows.append(
                {
                    "deal": number,
                    "counted": counts,
                    "dealer": result.details.get("dealer"),
                    "outcome": result.outcome,
                    "outcome_text": None if result.outcome_text is None else result.outcome_text.as_dict(),
                    "abandon": result.details.get("abandon"),
                    "offer": result.details.get("offer"),
                    "card_points": result.details.get("card_points"),
                    "last_trick": result.details.get("last_trick"),
                    "points": result.details.get("points"),
                    "offsets": result.details.get("offsets"),
                    "scores": scores,
                    "totals": list(totals),
                }
            )
        finished = counted >= opts["deals"]
        winners: tuple[int, ...] = ()
        if finished:
            top = max(totals)
            winners = tuple(s for s in range(seats) if totals[s] == top)
        details: dict[str, Any] = {"deals": opts["deals"], "deals_counted": counted}
        stake = opts["stake_per_point"]
        if stake is not None:
            details["settlement"] = [t * stake for t in totals]
        final: tuple[Score, ...] = tuple(totals)
        return MatchResult(
            totals=final, finished=finished, winners=winners, rows=tuple(rows), details=details
        )
