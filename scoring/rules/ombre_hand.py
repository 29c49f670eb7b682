"""The hand machinery shared by the Ombre family: Italian Hombre (``hombre_it``) and French L'Hombre.

Once an auction has made an hombre, both games play a hand the same way: nine cards each and a talon of
thirteen, E (the dealer's right) speaks first and leads the first trick, the hombre names the trump, the
players exchange through the talon, nine tricks are played under the matador privilege
(:mod:`scoring.rules.ombre`), and the player on lead may claim between tricks by stating how the tricks
left are shared. :class:`OmbreGame` holds that machinery once. Each game keeps its own rules in its own
module: the auction, who exchanges and how many, the hombre's win and the scoring, and the codes it
emits under its own prefix (``hombre.`` / ``lhombre.``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, TypeVar

from . import ombre
from .cards import LATIN_40
from .core import Game, HandState, Verdict, evolve
from .errors import ImpossibleMove, _, literal
from .moves import Call, Choose, Claim, Deal, Exchange, Move, PlayCard
from .tricks import Strength, TrickPlay

HAND_SIZE = 9
TALON = 13
TRICKS = 9


class OmbreState(HandState):
    """What the shared machinery reads of a game's state.

    Not a dataclass: each game's frozen dataclass declares these fields itself, in its own order (the
    order the replay viewer lists a state's fields in).
    """

    speaker: int | None
    trump: str | None
    exchanges: tuple[tuple[int, int], ...]  # (seat, cards exchanged)
    talon: tuple[str, ...]  # deal known: the talon cards not yet taken, top first
    talon_left: int
    play: TrickPlay | None
    claimed: tuple[int, ...] | None  # final tricks by seat, after an accepted claim

    @property
    def tricks(self) -> TrickPlay:
        if self.play is None:
            raise AssertionError("no trick play yet")
        return self.play

    def trump_suit(self) -> str:
        if self.trump is None:
            raise AssertionError("no trump named yet")
        return self.trump

    def position(self, seat: int) -> int:
        """Speaking position: 0 for E (the dealer's right), 1 for M, 2 for the dealer."""
        return (seat - self.dealer - 1) % self.seats


S = TypeVar("S", bound=OmbreState)


_STRENGTHS: dict[tuple[str, bool], Strength] = {}  # by trump and plain order: asked at every card


def _replace(state: S, **changes: Any) -> S:
    """``dataclasses.replace`` on the fields of :class:`OmbreState`, which mypy does not see as fields."""
    return evolve(state, **changes)


class OmbreGame(Game[S]):
    """A three-handed Ombre game on the 40-card Latin deck. Subclasses write the auction and the choices
    (``_call``, ``_choose``, ``allowed_calls``), whose turn it is (``_waiting``), the exchange
    (``_exchange``, built on :meth:`_take_from_talon`), results, and the hooks below."""

    deck = LATIN_40
    seat_counts = (3,)
    prefix: ClassVar[str]  # of the game's own codes: "hombre" for "hombre.talon_short"
    calls: ClassVar[tuple[str, ...]]  # the words of the auction, low to high
    # Whether a claim may state ``tricks`` equal to all the tricks left (the same as no numbers).
    claim_rest_by_tricks: ClassVar[bool] = False

    # ---- hooks ----------------------------------------------------------------------------------
    @abstractmethod
    def matador_count(self, state: S) -> int:
        """The number of matadors with the privilege (:func:`ombre.matadors`)."""

    def natural(self, state: S) -> bool:
        """Whether the red plain suits run in the natural order (:func:`ombre.plain_order`)."""
        return False

    @abstractmethod
    def _waiting(self, state: S) -> int | None:
        """The seat the table waits for, None when no single seat is."""

    @abstractmethod
    def allowed_calls(self, state: S, seat: int) -> tuple[str, ...]:
        """The calls this seat may make now."""

    @abstractmethod
    def _exchange_limit(self, state: S, seat: int) -> int:
        """How many cards this seat may exchange with no irregularity."""

    @abstractmethod
    def _check_exchange_count(self, n: int) -> None:
        """Deal unknown: refuse an exchange count the game never allows."""

    def _known_holder(self, state: S, card: str) -> int | None:
        """Deal unknown: the seat a card is known to be with, if any. Default: none is ever known."""
        return None

    def _check_play(self, state: S, seat: int, card: str) -> None:
        """The game's own refusals of a card the seat may hold, before the revoke check. Default: none."""

    @abstractmethod
    def _call(self, state: S, move: Call) -> tuple[S, list[Verdict]]: ...

    @abstractmethod
    def _choose(self, state: S, move: Choose) -> S: ...

    @abstractmethod
    def _exchange(self, state: S, move: Exchange) -> tuple[S, list[Verdict]]: ...

    # ---- setup ----------------------------------------------------------------------------------
    def deal_shape(self, state: S) -> tuple[tuple[int, ...], int]:
        return (HAND_SIZE,) * state.seats, TALON

    def _after_deal(self, state: S, deal: Deal) -> S:
        talon: tuple[str, ...] = ()
        if deal.hands is not None:
            dealt = {c for hand in deal.hands for c in hand}
            talon = deal.stock or tuple(c for c in self.deck.cards if c not in dealt)
        return _replace(state, phase="auction", speaker=state.next_seat(state.dealer), talon=talon)

    def moves_only(self, moves: Sequence[Move]) -> list[Move]:
        """Without the deal the exchanged cards are unknown: an exchange is recorded by its count."""
        out: list[Move] = []
        for m in moves:
            if isinstance(m, Deal):
                out.append(Deal(hands=None))
            elif isinstance(m, Exchange):
                n = m.count if m.count is not None else len(m.discard)
                out.append(Exchange(seat=m.seat, count=n))
            else:
                out.append(m)
        return out

    # ---- legal moves ----------------------------------------------------------------------------
    def _legal(self, state: S) -> list[Move]:
        seat = self._waiting(state)
        if seat is None:
            return []
        if state.phase == "auction":
            return [Call(seat=seat, call=c) for c in self.allowed_calls(state, seat)]
        if state.phase == "trump":
            return [Choose(seat=seat, choice="trump", value=s) for s in ombre.SUITS]
        if state.phase == "exchange":
            return self._legal_exchanges(state, seat)
        return [PlayCard(seat=seat, card=c) for c in self.playable(state, seat)]

    def _legal_exchanges(self, state: S, seat: int) -> list[Move]:
        """One exchange per count (every set of the right sizes is accepted; listing them all is not
        practical): deal known, the weakest cards go and the next talon cards come in."""
        limit = self._exchange_limit(state, seat)
        if not state.deal_known:
            return [Exchange(seat=seat, count=n) for n in range(limit + 1)]
        trump = state.trump_suit()
        weak = sorted(
            state.hands.hand(seat),
            key=lambda c: (ombre.is_trump(c, trump), -self._rank(state, c), c),
        )
        return [Exchange(seat=seat, discard=tuple(weak[:n]), take=state.talon[:n]) for n in range(limit + 1)]

    def _rank(self, state: S, card: str) -> int:
        """Position of a card in its suit's order under the trump (0 = highest)."""
        trump = state.trump_suit()
        order = ombre.layout(trump, natural=self.natural(state))
        return order[ombre.effective_suit(card, trump)].index(card)

    def playable(self, state: S, seat: int) -> list[str]:
        """The cards the seat may play with no irregularity. Deal unknown: every card not yet out of play
        and not known to be elsewhere, except those the seat's earlier plays showed it did not hold."""
        trump = state.trump_suit()
        n = self.matador_count(state)
        if state.deal_known:
            options = ombre.follow_options(state.hands.hand(seat), state.tricks.current.cards, trump, n)
            return list(self.deck.sort(options))
        void = ombre.open_keys(state, seat)
        return [
            c
            for c in self.deck.cards
            if c not in state.hands.gone
            and self._known_holder(state, c) in (None, seat)
            and not void & set(ombre.play_keys(c, trump, n))
        ]

    # ---- apply ----------------------------------------------------------------------------------
    def _apply(self, state: S, move: Move) -> tuple[S, list[Verdict]]:
        if isinstance(move, Call):
            return self._call(state, move)
        if isinstance(move, Choose):
            return self._choose(state, move), []
        if isinstance(move, Exchange):
            return self._exchange(state, move)
        if isinstance(move, PlayCard):
            return self._play(state, move)
        raise AssertionError(f"actors() let through {move!r}")

    def _check_call_word(self, move: Call) -> None:
        if move.call not in self.calls:
            raise ImpossibleMove(
                f"{self.prefix}.call",
                _("unknown call '{name}' (one of {names})"),
                field="call",
                name=literal(move.call),
                names=list(self.calls),
            )

    def _check_trump_suit(self, move: Choose) -> None:
        if move.value not in ombre.SUITS:
            raise ImpossibleMove(
                f"{self.prefix}.trump",
                _("the trump suit is one of S, C, H, D, not '{value}'"),
                field="value",
                value=literal(move.value),
            )

    def _start_play(self, state: S) -> S:
        """E, the dealer's right, leads the first trick."""
        return _replace(state, phase="play", play=TrickPlay.start(state.seats, state.next_seat(state.dealer)))

    # -- exchanges
    def _take_from_talon(self, state: S, move: Exchange) -> tuple[S, int]:
        """Check one exchange and move its cards: the state with the seat's hand, the talon and the
        exchanges updated, and the number of cards exchanged. The game's limit and order are its own."""
        seat = move.seat
        assert seat is not None
        p = self.prefix
        n = self._exchange_size(state, move)
        if n > state.talon_left:
            raise ImpossibleMove(
                f"{p}.talon_short",
                _("only {count} cards are left in the talon"),
                field="discard",
                count=state.talon_left,
            )
        holdings = state.hands
        talon = state.talon
        if state.deal_known:
            if len(set(move.take)) != len(move.take):
                raise ImpossibleMove("card.repeated", _("the same card is taken twice"), field="take")
            for card in move.take:
                self.deck.check(card, field="take")
                if card not in talon:
                    raise ImpossibleMove(
                        f"{p}.not_in_talon", _("{card} is not in the talon"), field="take", card=card
                    )
            if self._talon_ordered(state) and set(move.take) != set(talon[:n]):
                raise ImpossibleMove(
                    f"{p}.talon_top",
                    _("the exchanger takes the top {count} cards of the talon as dealt: {cards}"),
                    field="take",
                    count=n,
                    cards=list(talon[:n]),
                )
            holdings = holdings.remove(seat, move.discard, field="discard").add(seat, move.take)
            talon = tuple(c for c in talon if c not in move.take)
        else:
            for card in move.take:
                self.deck.check(card, field="take")
                holdings.check_available(card, field="take")
                if card in move.discard:
                    raise ImpossibleMove(
                        f"{p}.not_in_talon", _("{card} was just discarded"), field="take", card=card
                    )
                if self._known_holder(state, card) is not None:
                    raise ImpossibleMove(
                        f"{p}.not_in_talon", _("{card} is not in the talon"), field="take", card=card
                    )
            if move.discard:
                for card in move.discard:
                    if self._known_holder(state, card) not in (None, seat):
                        raise ImpossibleMove(
                            "card.not_held", _("{card} is known to be elsewhere"), field="discard", card=card
                        )
                holdings = holdings.remove(seat, move.discard, field="discard")
            else:
                if holdings.counts[seat] < n:
                    raise ImpossibleMove(
                        "hand.count",
                        _("{seat} holds fewer than {count} cards"),
                        field="count",
                        seat=seat,
                        count=n,
                    )
                counts = tuple(c - n if i == seat else c for i, c in enumerate(holdings.counts))
                holdings = evolve(holdings, counts=counts)
            holdings = holdings.add(seat, move.take, count=n)
        new = _replace(
            state,
            holdings=holdings,
            talon=talon,
            talon_left=state.talon_left - n,
            exchanges=state.exchanges + ((seat, n),),
        )
        return new, n

    @staticmethod
    def _talon_ordered(state: S) -> bool:
        """Whether the deal recorded the talon (``Deal.stock``, top first), so that the cards an exchange
        takes are known: its top ones. The holdings' stock is that talon less the cards taken; without it
        the talon is the undealt cards in deck order, an order nobody saw, and any of them may be named."""
        return bool(state.hands.stock)

    def _exchange_size(self, state: S, move: Exchange) -> int:
        p = self.prefix
        if state.deal_known:
            if move.count is not None and move.count != len(move.discard):
                raise ImpossibleMove(
                    f"{p}.exchange_count", _("the count does not match the cards discarded"), field="count"
                )
            if len(move.take) != len(move.discard):
                raise ImpossibleMove(
                    f"{p}.exchange_count",
                    _("{discarded} cards discarded but {taken} taken: name the cards taken"),
                    field="take",
                    discarded=len(move.discard),
                    taken=len(move.take),
                )
            return len(move.discard)
        sizes = {len(move.discard)} if move.discard else set()
        sizes |= {len(move.take)} if move.take else set()
        sizes |= {move.count} if move.count is not None else set()
        if len(sizes) > 1:
            raise ImpossibleMove(
                f"{p}.exchange_count", _("the cards discarded, taken and the count disagree"), field="count"
            )
        n = sizes.pop() if sizes else 0
        self._check_exchange_count(n)
        return n

    # -- play
    def _play(self, state: S, move: PlayCard) -> tuple[S, list[Verdict]]:
        seat, card = move.seat, move.card
        assert seat is not None
        if type(card) is not str or card not in self.deck.index:  # not a card of the deck: as check says
            self.deck.check(card)
        taken = state.hands.remove_card(seat, card)  # refuses a card the seat cannot hold
        self._check_play(state, seat, card)
        trump = state.trump_suit()
        tp = state.tricks
        plays = tp.current.plays
        suits = ombre.effective_suits(trump)
        # A lead or a card of the suit led breaks nothing; with the deal unknown it may prove an assertion.
        if state.pending or (plays and suits[card] != suits[plays[0][1]]):
            pending, verdicts = ombre.revoke_check(
                state,
                seat,
                card,
                trick_cards=tuple(c for _seat, c in plays),
                trump=trump,
                matador_count=self.matador_count(state),
                trick=tp.number,
                prefix=self.prefix,
            )
        else:
            pending, verdicts = state.pending, []
        natural = self.natural(state)
        strength = _STRENGTHS.get((trump, natural)) or _STRENGTHS.setdefault(
            (trump, natural), ombre.strength(trump, natural=natural)
        )
        tp = tp.play(seat, card, strength)
        over = len(tp.done) == TRICKS
        # A refined verdict replaces the one it refines (the core adds this move's verdicts after).
        kept = ombre.unrefined(state.verdicts, verdicts) if verdicts else state.verdicts
        new = evolve(
            state,
            holdings=taken,
            pending=pending,
            play=tp,
            over=over,
            verdicts=kept,
            **self._played(state, tp, over),
        )
        return new, verdicts

    def _played(self, state: S, play: TrickPlay, over: bool) -> dict[str, Any]:
        """More of the state to change once a card is played (checks that may refuse it first).
        Default: nothing."""
        return {}

    # ---- claims (§9) ----------------------------------------------------------------------------
    def can_claim(self, state: S, seat: int) -> bool:
        return (
            state.phase == "play"
            and not state.over
            and state.play is not None
            and state.play.leading
            and state.play.current.leader == seat
        )

    def check_claim(self, state: S, claim: Claim) -> None:
        self.claim_split(state, claim)

    def claim_split(self, state: S, claim: Claim) -> tuple[int, ...]:
        """The remaining tricks by seat a claim states: ``split`` (one number per seat), or no numbers
        (or, with ``claim_rest_by_tricks``, ``tricks`` equal to all that is left) for all the rest to the
        claimer."""
        remaining = TRICKS - len(state.tricks.done)
        assert claim.seat is not None
        if claim.tricks is not None and not (self.claim_rest_by_tricks and claim.tricks == remaining):
            raise ImpossibleMove(
                "claim.invalid", _("state the remaining tricks of every player as a split"), field="tricks"
            )
        if claim.split is None:
            return tuple(remaining if s == claim.seat else 0 for s in range(state.seats))
        if (
            len(claim.split) != state.seats
            or any(t < 0 for t in claim.split)
            or sum(claim.split) != remaining
        ):
            raise ImpossibleMove(
                "claim.invalid",
                _("the split must give {count} numbers adding up to the {tricks} tricks left"),
                field="split",
                count=state.seats,
                tricks=remaining,
            )
        return tuple(claim.split)

    def _claimed_tricks(self, state: S, claim: Claim) -> tuple[int, ...]:
        """The tricks by seat at the end of the hand once the claim is accepted."""
        split = self.claim_split(state, claim)
        return tuple(state.tricks.tricks_won(s) + split[s] for s in range(state.seats))

    def _settle_claim(self, state: S, claim: Claim) -> S:
        return _replace(state, claimed=self._claimed_tricks(state, claim))

    # ---- results --------------------------------------------------------------------------------
    def tricks_by_seat(self, state: S) -> tuple[int, ...]:
        if state.claimed is not None:
            return state.claimed
        if state.play is None:
            return (0,) * state.seats
        return tuple(state.play.tricks_won(s) for s in range(state.seats))
