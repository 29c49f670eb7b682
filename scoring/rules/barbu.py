"""Barbù, the Italian club version: 4 players, 52 cards, seven contracts per dealer, 28 hands.

The rules are ``docs/rules/barbu.md``. What each contract scores and which special rules it has is data
(:mod:`scoring.rules.barbu_contracts`); this module plays a hand of any of them:

* after the deal the dealer chooses a contract not yet crossed off his Quadro (``Choose``, choice
  ``contract``), with a trump suit or ``none`` for MP (choice ``trump``) or the opening rank for Domino
  (choice ``opening_rank``);
* the Misère pass: every seat passes 3 cards to its left, simultaneously (``PassCards``);
* trick play, the dealer leading the first trick: follow suit, no heart lead while holding another suit
  in NPR and NPC, the MP trump obligations and the KH discard where the options ask for them;
* Domino: rows built up and down from the opening rank, a forced play or a ``Call`` ``pass``, a finishing
  order;
* early end (a table ``Choose`` ``close`` once the score cannot change) and claims in the contract's terms.

Deal unknown (moves-only recording), every obligation a play or a pass breaks is kept as an assertion of
what the seat did not hold (:class:`~scoring.rules.core.Pending`) and proved by a later card; obligations
that only exist when the seat was void in the suit led (must trump, must discard KH) are held back until
the void itself is beyond doubt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from .barbu_contracts import CONTRACT_SETS, ContractSpec, contracts
from .cards import FRENCH_52, FRENCH_RANKS, SUITS, rank_of, suit_of
from .core import (
    ONLY,
    Game,
    HandResult,
    HandState,
    MatchResult,
    Pending,
    Score,
    Verdict,
    evolve,
    prove,
    prove_keys,
)
from .errors import ImpossibleMove, Text, _, literal
from .moves import Call, Choose, Claim, Deal, Move, PassCards, PlayCard
from .options import Option, Ruleset
from .tricks import Strength, TrickPlay, follow_suit

SEATS = 4
HAND_SIZE = 13
HEARTS = "H"
RANK_INDEX = {rank: i for i, rank in enumerate(FRENCH_RANKS)}
PIP_RANKS = FRENCH_RANKS[: FRENCH_RANKS.index("T") + 1]
NO_TRUMP = "none"
TRUMP_VALUES = (*SUITS, NO_TRUMP)

_SUIT_OF = {card: suit_of(card) for card in FRENCH_52.cards}
_SUIT_OF_CARD = _SUIT_OF.__getitem__  # suit_of for the cards of this deck (all a play can name)
_SUIT_CARDS = {suit: frozenset(c for c in FRENCH_52.cards if _SUIT_OF[c] == suit) for suit in SUITS}

# Verdict rule codes.
RULE_FOLLOW = "follow_suit"
RULE_HEART_LEAD = "barbu.heart_lead"
RULE_MUST_TRUMP = "barbu.must_trump"
RULE_OVERTRUMP = "barbu.overtrump"
RULE_DISCARD = "barbu.must_discard_kh"
RULE_DOMINO_PASS = "barbu.domino_pass"
# Obligations that exist only when the seat was void in the suit led: deal unknown, their proof waits for
# the void to be certain (a later card of the suit led would show a revoke instead).
_VOID_RULES = frozenset({RULE_MUST_TRUMP, RULE_DISCARD})

# Phases in which the dealer makes a choice, and the choice each expects.
_CHOICES = {"contract": "contract", "trump": "trump", "opening": "opening_rank"}

RULESET = Ruleset(
    (
        Option(
            "contract_set",
            "seed",
            _("The contracts of the Quadro and their scores (only the seed's set so far)."),
            choices=tuple(CONTRACT_SETS),
        ),
        Option(
            "dealer_rotation",
            "every_hand",
            _("The deal passes to the left after every hand, or after a dealer's seven hands in a row."),
            choices=("every_hand", "seven_in_a_row"),
        ),
        Option(
            "mp_trump_obligation",
            "none",
            _(
                "MP with trump: trumping is optional; or a void player must trump; or on a trump lead each "
                "player must beat the highest trump so far if he can."
            ),
            choices=("none", "must_trump", "overtrump_on_trump_lead"),
        ),
        Option(
            "misere_pass",
            "left_simultaneous",
            _("Misère: every player passes 3 cards face down to his left before play, or no pass."),
            choices=("left_simultaneous", "none"),
        ),
        Option(
            "must_discard_kh",
            False,
            _("NPR: a player void in the suit led must discard the K of hearts."),
            kind=bool,
        ),
        Option(
            "early_end",
            "allowed",
            _(
                "NPR, NPD, NPC once every penalty card is taken: the table may close the hand, play goes "
                "on, or the hand ends at once."
            ),
            choices=("allowed", "never", "automatic"),
        ),
        Option(
            "domino_opening_ranks",
            "any",
            _("Domino: any rank 2…A may open, or only 2…10."),
            choices=("any", "pips_only"),
        ),
        Option(
            "domino_sequence",
            "linear",
            _("Domino: the rows run 2…A, or round the corner (A next to 2)."),
            choices=("linear", "circular"),
        ),
        Option(
            "domino_stop",
            "all_cards",
            _("Domino: play on until every card is down, or stop once three players are out."),
            choices=("all_cards", "three_out"),
        ),
        Option(
            "doubling",
            False,
            _("Reserved for a future pagat ruleset; the seed has no doubling."),
            choices=(False,),
        ),
    )
)


@dataclass(frozen=True, kw_only=True)
class BarbuState(HandState):
    crossed: tuple[tuple[str, ...], ...] = ()  # by seat: contracts played as dealer before this hand
    contract: str | None = None
    trump: str | None = None  # MP with trump only
    passes: tuple[tuple[int, tuple[str, ...] | None], ...] = ()  # (seat, cards or None if not entered)
    tricks: TrickPlay | None = None
    opening_rank: str | None = None
    layout: tuple[tuple[int, int] | None, ...] = (None,) * len(SUITS)  # by suit: (down, up) from the rank
    turn: int | None = None  # Domino
    finished: tuple[int, ...] = ()  # Domino finishing order
    provisional: tuple[Verdict, ...] = ()  # proved obligations waiting for their void to be certain
    ended: str | None = None  # how a hand ended before its last card: table, automatic, claim, three_out
    claimed: tuple[int, ...] | None = None  # the scores a settled claim gives for the rest of the hand

    @property
    def trick_play(self) -> TrickPlay:
        if self.tricks is None:
            raise AssertionError("no trick play in this phase")
        return self.tricks


@cache
def _strength(trump: str | None) -> Strength:
    """:func:`~scoring.rules.tricks.with_trumps` for the French ranks, on tables made once: a trump above
    every card of the suit led, the rest nothing (numbers, compared the same way as its pairs)."""
    rank = {card: RANK_INDEX[rank_of(card)] for card in FRENCH_52.cards}

    def strength(card: str, led: str) -> int | None:
        suit = _SUIT_OF[card]
        if suit == trump:
            return 100 + rank[card]
        return rank[card] if suit == _SUIT_OF[led] else None

    return strength


def _seat(move: Move) -> int:
    if move.seat is None:
        raise AssertionError("the core lets through only seated moves here")
    return move.seat


class Barbu(Game[BarbuState]):
    """Barbù: the seven contracts of the seed, the Quadro and the 28-hand match."""

    name = "barbu"
    title = _("Barbù")
    deck = FRENCH_52
    seat_counts = (SEATS,)
    ruleset = RULESET
    score_unit = "points"
    # Who deals next (a recorded hand says who dealt it) and the doubling that has one value. Every other
    # option changes the contracts, what may be played or when a hand ends.
    score_only_options = frozenset({"dealer_rotation", "doubling"})

    def unread_options(self, state: BarbuState) -> frozenset[str]:
        """The options of the contracts other than this hand's, and of a trump it did not have: the
        trump obligations without a trump, the K of hearts without its contract (or with a trump), the
        Misère pass, the early end and the Domino's options outside their contracts."""
        if state.contract is None:
            return frozenset()
        spec = self.spec(state)
        unread = set()
        if state.trump is None:
            unread.add("mp_trump_obligation")
        if spec.forced_discard is None or state.trump is not None:
            unread.add("must_discard_kh")
        if not spec.pass_cards:
            unread.add("misere_pass")
        if not spec.early_end:
            unread.add("early_end")
        if not spec.is_domino:
            unread |= {"domino_opening_ranks", "domino_sequence", "domino_stop"}
        return frozenset(unread)

    # ---- the hand's set-up ----------------------------------------------------------------------
    def spec(self, state: BarbuState) -> ContractSpec:
        if state.contract is None:
            raise AssertionError("no contract chosen yet")
        return contracts(state.options["contract_set"])[state.contract]

    def _initial(
        self, options: dict[str, Any], seats: int, dealer: int, context: dict[str, Any]
    ) -> BarbuState:
        codes = contracts(options["contract_set"])
        crossed = _crossed(context, seats, codes)
        if len(crossed[dealer]) >= len(codes):
            raise ImpossibleMove(
                "barbu.quadro_full",
                _("{dealer} has played every contract as dealer"),
                field="dealer",
                dealer=dealer,
            )
        return BarbuState(options=options, seats=seats, dealer=dealer, context=context, crossed=crossed)

    def deal_shape(self, state: BarbuState) -> tuple[tuple[int, ...], int]:
        return (HAND_SIZE,) * state.seats, 0

    def _after_deal(self, state: BarbuState, deal: Deal) -> BarbuState:
        return evolve(state, phase="contract")

    def moves_only(self, moves: Sequence[Move]) -> list[Move]:
        """Without the deal, a Misère pass is recorded as a count: the cards passed are not known."""
        out: list[Move] = []
        for m in moves:
            if isinstance(m, Deal):
                out.append(Deal(hands=None))
            elif isinstance(m, PassCards):
                out.append(PassCards(seat=m.seat, count=len(m.cards) if m.cards else m.count))
            else:
                out.append(m)
        return out

    # ---- who acts -------------------------------------------------------------------------------
    def actors(self, state: BarbuState, move: Move) -> frozenset[int | None]:
        phase = state.phase
        if phase == "play" and isinstance(move, PlayCard):  # nearly every move
            # Whose turn, as TrickPlay.to_play says, without the calls.
            tricks = state.tricks
            current = (tricks if tricks is not None else state.trick_play).current
            return ONLY[(current.leader + len(current.plays)) % state.seats]
        if isinstance(move, Choose):
            if move.choice == "close":
                return (
                    frozenset({None})
                    if phase == "play" and state.options["early_end"] == "allowed"
                    else frozenset()
                )
            return frozenset({state.dealer}) if phase in _CHOICES else frozenset()
        if isinstance(move, PassCards) and phase == "pass":
            return frozenset(self._not_passed(state))
        if isinstance(move, (PlayCard, Call)) and phase == "domino":
            return frozenset({state.turn})
        return frozenset()

    def to_act(self, state: BarbuState) -> frozenset[int]:
        if state.over:
            return frozenset()
        if state.phase in _CHOICES:
            return frozenset({state.dealer})
        if state.phase == "pass":
            return frozenset(self._not_passed(state))
        if state.phase == "play":
            return frozenset({state.trick_play.to_play()})
        if state.phase == "domino" and state.turn is not None:
            return frozenset({state.turn})
        return frozenset()

    def _not_passed(self, state: BarbuState) -> list[int]:
        done = {seat for seat, _ in state.passes}
        return [s for s in range(state.seats) if s not in done]

    # ---- legal moves ----------------------------------------------------------------------------
    def _legal(self, state: BarbuState) -> list[Move]:
        dealer = state.dealer
        if state.phase == "contract":
            return [
                Choose(seat=dealer, choice="contract", value=code)
                for code in contracts(state.options["contract_set"])
                if code not in state.crossed[dealer]
            ]
        if state.phase == "trump":
            return [Choose(seat=dealer, choice="trump", value=v) for v in TRUMP_VALUES]
        if state.phase == "opening":
            return [Choose(seat=dealer, choice="opening_rank", value=r) for r in self._opening_ranks(state)]
        if state.phase == "pass":
            return self._legal_passes(state)
        if state.phase == "play":
            seat = state.trick_play.to_play()
            if state.hands.known:
                cards = sorted(c for c in state.hands.hand(seat) if self._breach(state, seat, c) is None)
            else:
                cards = sorted(state.hands.deck - state.hands.gone)
            moves: list[Move] = [PlayCard(seat=seat, card=c) for c in FRENCH_52.sort(cards)]
            if state.options["early_end"] == "allowed" and self._decided(state):
                moves.append(Choose(seat=None, choice="close"))
            return moves
        if state.phase == "domino":
            turn = state.turn
            if turn is None:
                raise AssertionError("a Domino hand in play has a seat to act")
            playable = self._playable(state)
            if state.hands.known:
                playable &= state.hands.hand(turn)
            plays: list[Move] = [PlayCard(seat=turn, card=c) for c in FRENCH_52.sort(playable)]
            if not state.hands.known or not plays:
                plays.append(Call(seat=turn, call="pass"))
            return plays
        return []

    def _legal_passes(self, state: BarbuState) -> list[Move]:
        n = self.spec(state).pass_cards
        out: list[Move] = []
        for seat in self._not_passed(state):
            if state.hands.known:
                hand = FRENCH_52.sort(state.hands.hand(seat))
                out.extend(PassCards(seat=seat, cards=combo) for combo in combinations(hand, n))
            else:
                out.append(PassCards(seat=seat, count=n))
        return out

    def _opening_ranks(self, state: BarbuState) -> tuple[str, ...]:
        return PIP_RANKS if state.options["domino_opening_ranks"] == "pips_only" else FRENCH_RANKS

    # ---- moves ----------------------------------------------------------------------------------
    def _apply(self, state: BarbuState, move: Move) -> tuple[BarbuState, list[Verdict]]:
        if type(move) is PlayCard and state.phase == "play" and move.seat is not None:  # nearly every move
            return self._play_trick(state, move.seat, move.card)
        if isinstance(move, Choose):
            return self._choose(state, move), []
        if isinstance(move, PassCards):
            return self._pass(state, _seat(move), move), []
        if isinstance(move, PlayCard) and state.phase == "play":
            return self._play_trick(state, _seat(move), move.card)
        if isinstance(move, PlayCard):
            return self._play_domino(state, _seat(move), move.card)
        if isinstance(move, Call):
            return self._domino_pass(state, _seat(move), move)
        raise AssertionError(f"actors() let through {move!r}")

    def _choose(self, state: BarbuState, move: Choose) -> BarbuState:
        if move.choice == "close":
            return self._close(state)
        expected = _CHOICES[state.phase]
        if move.choice != expected:
            if expected == "contract":
                template = _("the dealer now chooses the contract, not '{choice}'")
            elif expected == "trump":
                template = _("the dealer now chooses the trump, not '{choice}'")
            else:
                template = _("the dealer now chooses the opening rank, not '{choice}'")
            raise ImpossibleMove("barbu.choice_wrong", template, field="choice", choice=literal(move.choice))
        value = move.value
        if state.phase == "contract":
            return self._choose_contract(state, value)
        if state.phase == "trump":
            if value not in TRUMP_VALUES:
                raise ImpossibleMove(
                    "barbu.trump_unknown",
                    _("the trump is one of {choices}"),
                    field="value",
                    choices=list(TRUMP_VALUES),
                )
            return self._start_tricks(evolve(state, trump=None if value == NO_TRUMP else value))
        ranks = self._opening_ranks(state)
        if value not in ranks:
            raise ImpossibleMove(
                "barbu.opening_rank",
                _("the opening rank is one of {ranks}"),
                field="value",
                ranks=list(ranks),
            )
        return evolve(state, phase="domino", opening_rank=value, turn=state.next_seat(state.dealer))

    def _choose_contract(self, state: BarbuState, value: str | None) -> BarbuState:
        codes = contracts(state.options["contract_set"])
        if value is None or value not in codes:
            raise ImpossibleMove(
                "barbu.contract_unknown",
                _("the contract is one of {codes}"),
                field="value",
                codes=list(codes),
            )
        if value in state.crossed[state.dealer]:
            raise ImpossibleMove(
                "barbu.contract_played",
                _("{dealer} has already played {contract} as dealer: it is crossed off his Quadro"),
                field="value",
                dealer=state.dealer,
                contract=value,
            )
        spec = codes[value]
        chosen = evolve(state, contract=value)
        if spec.trump_choice:
            return evolve(chosen, phase="trump")
        if spec.is_domino:
            return evolve(chosen, phase="opening")
        if spec.pass_cards and state.options["misere_pass"] != "none":
            return evolve(chosen, phase="pass")
        return self._start_tricks(chosen)

    def _start_tricks(self, state: BarbuState) -> BarbuState:
        # The dealer leads the first trick (rules §6.2).
        return evolve(state, phase="play", tricks=TrickPlay.start(state.seats, state.dealer))

    # ---- the Misère pass ------------------------------------------------------------------------
    def _pass(self, state: BarbuState, seat: int, move: PassCards) -> BarbuState:
        n = self.spec(state).pass_cards
        holdings = state.hands
        record: tuple[str, ...] | None = None
        if move.cards:
            if len(move.cards) != n or move.count not in (None, n):
                raise ImpossibleMove(
                    "barbu.pass_count", _("each player passes {count} cards"), field="cards", count=n
                )
            if len(set(move.cards)) != n:
                raise ImpossibleMove("card.repeated", _("the same card is named twice"), field="cards")
            for card in move.cards:
                FRENCH_52.check(card, field="cards")
                holdings.check_holds(seat, card, field="cards")
                for other, cards in state.passes:
                    if cards and card in cards:
                        raise ImpossibleMove(
                            "card.not_held",
                            _("{card} was passed by {passer_seat}"),
                            field="cards",
                            card=card,
                            passer_seat=other,
                        )
            record = tuple(move.cards)
        elif move.count != n:
            raise ImpossibleMove(
                "barbu.pass_count", _("each player passes {count} cards"), field="count", count=n
            )
        passes = state.passes + ((seat, record),)
        if len(passes) < state.seats:
            return evolve(state, passes=passes)
        # Everyone has chosen: the cards reach the left-hand neighbour together (rules §6.1).
        if holdings.known and all(cards is not None for _seat, cards in passes):
            for s, cards in passes:
                holdings = holdings.remove(s, cards or (), field="cards", to_gone=False)
            for s, cards in passes:
                holdings = holdings.add(state.next_seat(s), cards or ())
        elif holdings.known:
            # A pass entered without its cards: from here on only the counts are known.
            holdings = evolve(holdings, hands=None)
        return self._start_tricks(evolve(state, passes=passes, holdings=holdings))

    # ---- trick play -----------------------------------------------------------------------------
    def _play_trick(self, state: BarbuState, seat: int, card: str) -> tuple[BarbuState, list[Verdict]]:
        holdings = state.holdings or state.hands  # the property (which names what is missing) if need be
        taken = holdings.remove_card(seat, card)  # refuses a card the seat cannot hold
        play = state.tricks or state.trick_play
        index = state.move_index
        current = play.current
        plays = current.plays
        led = plays[0][1] if plays else None  # Trick.led, without the call
        if state.pending or (led is not None and _SUIT_OF[card] != _SUIT_OF[led]):
            pending, found = follow_suit(state, seat, card, led=led, trick=current.number, suit=_SUIT_OF_CARD)
        else:
            pending, found = state.pending, []  # what follow_suit says of a lead or a card of the suit led
        if pending:
            pending, by_card = prove_keys(pending, seat, ("card:" + card,), index)
            found += by_card
        if found:
            pending, provisional, verdicts = _sort_proofs(pending, state.provisional, found)
        else:
            provisional, verdicts = state.provisional, []
        hands = holdings.hands
        if hands is not None:
            rule = self._breach(state, seat, card, hands[seat], plays)
            if rule is not None and rule != RULE_FOLLOW:  # a revoke is already reported by follow_suit
                template, params = self._message(state, rule, seat, card)
                verdicts.append(Verdict(rule, seat, current.number, template, index, params=params))
        else:
            pending += self._assertions(state, seat, card)
        after = play.play(seat, card, _strength(state.trump))
        new = evolve(state, holdings=taken, tricks=after, pending=pending, provisional=provisional)
        if len(after.done) == len(play.done):  # the trick goes on
            return new, verdicts
        if len(after.done) == HAND_SIZE:
            # Every card is down: a void that nothing contradicted was real, so held-back proofs stand.
            return evolve(new, phase="over", over=True, provisional=()), verdicts + list(new.provisional)
        if state.options["early_end"] == "automatic" and self._decided(new):
            return evolve(new, phase="over", over=True, ended="automatic", provisional=()), verdicts
        return new, verdicts

    def _breach(
        self,
        state: BarbuState,
        seat: int,
        card: str,
        hand: frozenset[str] | None = None,
        plays: tuple[tuple[int, str], ...] | None = None,
    ) -> str | None:
        """Deal known: the rule a play of ``card`` by ``seat`` breaks now, or None (rules §6). ``hand``
        and ``plays`` are the seat's hand and the trick's plays so far, where the caller has them."""
        if hand is None:
            hand = state.hands.hand(seat)
        if plays is None:
            plays = state.trick_play.current.plays
        suit = _SUIT_OF[card]
        if not plays:
            if suit == HEARTS and self.spec(state).no_heart_lead and not hand <= _SUIT_CARDS[HEARTS]:
                return RULE_HEART_LEAD
            return None
        led = _SUIT_OF[plays[0][1]]
        if not hand.isdisjoint(_SUIT_CARDS[led]):
            if suit != led:
                return RULE_FOLLOW
            if state.options["mp_trump_obligation"] != "overtrump_on_trump_lead":
                return None  # what _overtrump_floor answers then, without the call at every card
            floor = self._overtrump_floor(state)
            if (
                floor is not None
                and RANK_INDEX[rank_of(card)] <= floor
                and any(suit_of(c) == led and RANK_INDEX[rank_of(c)] > floor for c in hand)
            ):
                return RULE_OVERTRUMP
            return None
        trump = self._must_trump(state, led)
        if trump is not None and suit != trump and any(suit_of(c) == trump for c in hand):
            return RULE_MUST_TRUMP
        forced = self._forced_discard(state)
        if forced is not None and card != forced and forced in hand:
            return RULE_DISCARD
        return None

    def _assertions(self, state: BarbuState, seat: int, card: str) -> tuple[Pending, ...]:
        """Deal unknown: what the play asserts the seat did not hold, beyond the suit led (which
        :func:`~scoring.rules.tricks.follow_suit` records); each later proof is the breach that
        :meth:`_breach` finds at once when the deal is known."""
        led = state.trick_play.current.led
        suit = _SUIT_OF[card]
        if led is None:
            if suit == HEARTS and self.spec(state).no_heart_lead:
                return self._pending(
                    state, RULE_HEART_LEAD, seat, card, (f"suit:{s}" for s in SUITS if s != HEARTS)
                )
            return ()
        led_suit = _SUIT_OF[led]
        if suit == led_suit:
            floor = self._overtrump_floor(state)
            if floor is None or RANK_INDEX[rank_of(card)] > floor:
                return ()
            higher = (r + led_suit for r in FRENCH_RANKS[floor + 1 :])
            gone = state.hands.gone
            return self._pending(
                state, RULE_OVERTRUMP, seat, card, (f"card:{c}" for c in higher if c not in gone)
            )
        # Off the suit led: these hold only if the seat really was void (a later card of the suit led
        # would prove a revoke instead and withdraw them, see _sort_proofs).
        trump = self._must_trump(state, led_suit)
        if trump is not None and suit != trump:
            return self._pending(state, RULE_MUST_TRUMP, seat, card, (f"suit:{trump}",))
        forced = self._forced_discard(state)
        if forced is not None and card != forced and forced not in state.hands.gone:
            return self._pending(state, RULE_DISCARD, seat, card, (f"card:{forced}",))
        return ()

    def _pending(
        self, state: BarbuState, rule: str, seat: int, card: str, keys: Iterable[str]
    ) -> tuple[Pending, ...]:
        """What ``seat`` playing ``card`` asserts against ``rule``: an assertion per key, one text for all."""
        template, params = self._message(state, rule, seat, card)
        trick = state.trick_play.current.number
        return tuple(Pending(seat, key, rule, template, state.move_index, trick, params) for key in keys)

    def _overtrump_floor(self, state: BarbuState) -> int | None:
        """On a trump lead under ``overtrump_on_trump_lead``: the rank index of the highest trump so far."""
        current = state.trick_play.current
        trump = state.trump
        if (
            state.options["mp_trump_obligation"] != "overtrump_on_trump_lead"
            or trump is None
            or current.led is None
            or suit_of(current.led) != trump
        ):
            return None
        return max(RANK_INDEX[rank_of(c)] for c in current.cards if suit_of(c) == trump)

    def _must_trump(self, state: BarbuState, led: str) -> str | None:
        trump = state.trump
        if state.options["mp_trump_obligation"] == "must_trump" and trump is not None and led != trump:
            return trump
        return None

    def _forced_discard(self, state: BarbuState) -> str | None:
        # Only in a contract without trumps, so that it never competes with a trump obligation.
        forced = self.spec(state).forced_discard
        return forced if state.options["must_discard_kh"] and state.trump is None else None

    def _message(self, state: BarbuState, rule: str, seat: int, card: str) -> tuple[str, dict[str, Any]]:
        """The template and params of the verdict on ``seat`` playing ``card`` against ``rule``."""
        params: dict[str, Any] = {"seat": seat, "trick": state.trick_play.number}
        if rule == RULE_HEART_LEAD:
            params["card"] = card
            return _("{seat} led {card} to trick {trick} while holding a suit other than hearts"), params
        if rule == RULE_OVERTRUMP:
            params["card"] = card
            return _("{seat} played {card} to trick {trick} while holding a higher trump"), params
        led = state.trick_play.current.led
        if rule == RULE_MUST_TRUMP and led is not None:
            params["lead"] = suit_of(led)
            return _("{seat} did not trump trick {trick} (void in {lead}) while holding a trump"), params
        if rule == RULE_DISCARD:
            params["forced_card"] = self.spec(state).forced_discard
            return _("{seat} did not discard {forced_card} on trick {trick} while void"), params
        raise AssertionError(rule)

    # ---- early end and claims -------------------------------------------------------------------
    def _decided(self, state: BarbuState) -> bool:
        """Whether the score can no longer change: every penalty card taken, in a contract that allows an
        early end (rules §8)."""
        spec = self.spec(state)
        if not spec.early_end or state.tricks is None:
            return False
        taken = {c for t in state.tricks.done for c in t.cards}
        return all(c in taken for c in spec.card_penalties)

    def _close(self, state: BarbuState) -> BarbuState:
        if not self._decided(state):
            raise ImpossibleMove(
                "barbu.close_early",
                _("the hand can be closed only in NPR, NPD or NPC once every penalty card is taken"),
                field="choice",
            )
        return evolve(state, phase="over", over=True, ended="table", provisional=())

    def can_claim(self, state: BarbuState, seat: int) -> bool:
        return (
            state.phase == "play"
            and not state.over
            and state.tricks is not None
            and state.tricks.leading
            and state.tricks.current.leader == seat
        )

    def check_claim(self, state: BarbuState, claim: Claim) -> None:
        self._claim_scores(state, claim)

    def _settle_claim(self, state: BarbuState, claim: Claim) -> BarbuState:
        return evolve(
            state, phase="over", ended="claim", claimed=self._claim_scores(state, claim), provisional=()
        )

    def _claim_scores(self, state: BarbuState, claim: Claim) -> tuple[int, ...]:
        """The scores of the rest of the hand as the claim states them (rules §8).

        No split: the claimer takes every remaining trick. A split gives, by seat, the remaining tricks
        (MP, MIS) or the points (NPR, NPD, NPC, NPUD: how the remaining penalties fall).
        """
        spec = self.spec(state)
        play = state.trick_play
        remaining = HAND_SIZE - len(play.done)
        taken = {c for t in play.done for c in t.cards}
        items = [v for c, v in spec.card_penalties.items() if c not in taken]
        items += [v for n, v in spec.trick_penalties.items() if n > len(play.done)]
        seat = _seat(claim)
        if claim.split is None:
            if claim.tricks is not None and claim.tricks != remaining:
                raise ImpossibleMove(
                    "barbu.claim_split",
                    _("{count} tricks remain: claim them all or give a split by seat"),
                    field="tricks",
                    count=remaining,
                )
            scores = [0] * state.seats
            scores[seat] = spec.per_trick * remaining + sum(items)
            return tuple(scores)
        split = claim.split
        if claim.tricks is not None or len(split) != state.seats:
            raise ImpossibleMove(
                "barbu.claim_split",
                _("a split gives one number for each of the {count} seats, and no tricks"),
                field="split",
                count=state.seats,
            )
        if spec.claim_split == "tricks":
            if any(n < 0 for n in split) or sum(split) != remaining:
                raise ImpossibleMove(
                    "barbu.claim_split",
                    _("the split must share the {count} remaining tricks"),
                    field="split",
                    count=remaining,
                )
            return tuple(spec.per_trick * n for n in split)
        if not _can_split(items, split):
            raise ImpossibleMove(
                "barbu.claim_split",
                _("the split must share the remaining penalties ({penalties}) in points"),
                field="split",
                penalties=sorted(items),
            )
        return tuple(split)

    # ---- Domino ---------------------------------------------------------------------------------
    def _playable(self, state: BarbuState) -> frozenset[str]:
        """The cards that fit the layout now, whoever holds them (rules §7.4)."""
        opening = state.opening_rank
        if opening is None:
            raise AssertionError("no opening rank")
        circular = state.options["domino_sequence"] == "circular"
        key = (opening, circular, state.layout)
        found = _FITTING.get(key)
        if found is None:
            if len(_FITTING) > 50_000:
                _FITTING.clear()  # the layouts of many hands: start again rather than grow
            found = _FITTING[key] = _fitting(opening, circular, state.layout)
        return found

    def _place(self, state: BarbuState, card: str) -> tuple[tuple[int, int] | None, ...]:
        assert state.opening_rank is not None
        n = len(FRENCH_RANKS)
        base, at = RANK_INDEX[state.opening_rank], SUITS.index(suit_of(card))
        row = state.layout[at]
        if row is None:
            new = (0, 0)
        else:
            down, up = row
            new = (down + 1, up) if RANK_INDEX[rank_of(card)] == (base - down - 1) % n else (down, up + 1)
        layout = list(state.layout)
        layout[at] = new
        return tuple(layout)

    def _play_domino(self, state: BarbuState, seat: int, card: str) -> tuple[BarbuState, list[Verdict]]:
        taken = state.hands.remove_card(seat, card)  # refuses a card the seat cannot hold
        playable = self._playable(state)
        if card not in playable:
            raise ImpossibleMove(
                "barbu.domino_card",
                _("{card} does not fit the layout (cards that fit: {cards})"),
                field="card",
                card=card,
                cards=list(FRENCH_52.sort(playable)),
            )
        pending = state.pending
        verdicts: list[Verdict] = []
        if pending:
            pending, found = prove(state, seat, (f"card:{card}",), state.move_index)
            pending, _held, verdicts = _sort_proofs(pending, (), found)
        changes = {"holdings": taken, "layout": self._place(state, card)}
        return self._domino_next(state, seat, verdicts, {**changes, "pending": pending})

    def _domino_pass(self, state: BarbuState, seat: int, move: Call) -> tuple[BarbuState, list[Verdict]]:
        if move.call != "pass":
            raise ImpossibleMove("barbu.call_unknown", _("in Domino the only call is 'pass'"), field="call")
        playable = self._playable(state)
        index = state.move_index
        verdicts: list[Verdict] = []
        pending = state.pending
        if state.hands.known:
            held = FRENCH_52.sort(playable & state.hands.hand(seat))
            if held:
                template = _("{seat} passed in Domino while holding a card that fit the layout ({cards})")
                params = {"seat": seat, "cards": list(held)}
                verdicts.append(Verdict(RULE_DOMINO_PASS, seat, None, template, index, params=params))
        else:
            # The pass asserts that the seat held none of the cards that fit: a later play of one proves it.
            template = _("{seat} passed in Domino while holding a card that fit the layout")
            params = {"seat": seat}
            pending += tuple(
                Pending(seat, f"card:{c}", RULE_DOMINO_PASS, template, index, None, params)
                for c in FRENCH_52.sort(playable)
            )
        return self._domino_next(state, seat, verdicts, {"pending": pending})

    def _domino_next(
        self, state: BarbuState, seat: int, verdicts: list[Verdict], changes: dict[str, Any]
    ) -> tuple[BarbuState, list[Verdict]]:
        """The state after ``seat``'s turn (``changes`` made to ``state``, in one copy): who is out, whose
        turn it is, or the end of the hand."""
        holdings = changes.get("holdings", state.holdings)
        assert holdings is not None
        counts = holdings.counts
        finished = state.finished
        if counts[seat] == 0 and seat not in finished:
            finished += (seat,)
        left = [s for s in range(state.seats) if counts[s] > 0]
        if not left:
            return evolve(state, **changes, finished=finished, turn=None, phase="over", over=True), verdicts
        if len(left) == 1 and state.options["domino_stop"] == "three_out":
            state = evolve(state, **changes)
            last = left[0]
            if not state.hands.known:
                # The last player holds every card not yet down: his earlier passes can be checked now.
                rest = {f"card:{c}" for c in state.hands.deck - state.hands.gone}
                pending, found = prove(state, last, rest, state.move_index)
                pending, _held, proved = _sort_proofs(pending, (), found)
                state, verdicts = evolve(state, pending=pending), verdicts + proved
            return evolve(
                state, finished=finished + (last,), turn=None, phase="over", over=True, ended="three_out"
            ), verdicts
        turn = next(
            state.next_seat(seat, k) for k in range(1, state.seats + 1) if counts[state.next_seat(seat, k)]
        )
        return evolve(state, **changes, finished=finished, turn=turn), verdicts

    # ---- results --------------------------------------------------------------------------------
    def _result(self, state: BarbuState) -> HandResult:
        spec = self.spec(state)
        details: dict[str, Any] = {
            "contract": spec.code,
            "contract_name": spec.name,
            "dealer": state.dealer,
            "dealer_contracts_before": list(state.crossed[state.dealer]),
            "ended": state.ended,
            "irregularities": [v.as_dict() for v in state.verdicts],
        }
        scores: list[int] = [0] * state.seats
        if spec.is_domino:
            order = state.finished
            for place, seat in enumerate(order):
                scores[seat] = spec.places[place]
            details.update(
                opening_rank=state.opening_rank, finishing_order=list(order), layout=self._layout_rows(state)
            )
            outcome = f"{spec.code} ({state.opening_rank}): " + ", ".join(
                f"{place + 1}. seat {seat}" for place, seat in enumerate(order)
            )
            text = Text(
                _(
                    "{contract} ({rank}): 1. {first_seat}, 2. {second_seat}, 3. {third_seat}, "
                    "4. {fourth_seat}"
                ),
                {"contract": spec.code, "rank": state.opening_rank, **dict(zip(_PLACES, order, strict=True))},
            )
        else:
            play = state.trick_play
            penalties, by_number = spec.card_penalties, spec.trick_penalties
            # One pass over the tricks: by seat, the tricks won, the penalty cards in them and what the
            # tricks' numbers cost.
            won = [0] * state.seats
            caught: list[list[str]] = [[] for _seat in range(state.seats)]
            numbered = [0] * state.seats
            for trick in play.done:
                winner = trick.winner
                if winner is None:
                    continue
                won[winner] += 1
                caught[winner] += [c for _seat, c in trick.plays if c in penalties]
                numbered[winner] += by_number.get(trick.number, 0)
            taken = [list(FRENCH_52.sort(cards)) for cards in caught]
            scores = [
                spec.per_trick * won[s] + sum(penalties[c] for c in taken[s]) + numbered[s]
                for s in range(state.seats)
            ]
            if state.claimed is not None:
                scores = [a + b for a, b in zip(scores, state.claimed, strict=True)]
            details.update(
                tricks=won,
                taken=taken,
                tricks_played=len(play.done),
                passes=[{"seat": s, "cards": list(c) if c else None} for s, c in state.passes],
            )
            if spec.trump_choice:
                details["trump"] = state.trump or NO_TRUMP
            if state.settled_claim is not None:
                claim = state.settled_claim
                details["claim"] = {
                    "seat": claim.seat,
                    "split": list(claim.split) if claim.split else None,
                    "scores": list(state.claimed or ()),
                }
            outcome = (
                f"{spec.code}"
                + (f" ({details['trump']})" if spec.trump_choice else "")
                + ": "
                + " ".join(f"{s:+d}" for s in scores)
            )
            text = _trick_outcome(spec, state.trump, scores)
        # Rules §9: every hand adds up to its contract's total, whatever the way it ended.
        if sum(scores) != spec.total():
            raise AssertionError(f"{spec.code} scores {scores} do not add up to {spec.total()}")
        return HandResult(
            outcome=outcome, scores=tuple(scores), unit=self.score_unit, details=details, outcome_text=text
        )

    def _layout_rows(self, state: BarbuState) -> dict[str, list[str]]:
        assert state.opening_rank is not None
        n, base = len(FRENCH_RANKS), RANK_INDEX[state.opening_rank]
        rows: dict[str, list[str]] = {}
        for suit, row in zip(SUITS, state.layout, strict=True):
            if row is not None:
                rows[suit] = [FRENCH_RANKS[(base + i) % n] + suit for i in range(-row[0], row[1] + 1)]
        return rows

    # ---- the match ------------------------------------------------------------------------------
    def match_context(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> dict[str, Any]:
        """The contracts each seat has played as dealer so far: ``{"played": [[codes] by seat]}``."""
        played: list[list[str]] = [[] for _seat in range(seats)]
        for r in results:
            dealer, contract = r.details.get("dealer"), r.details.get("contract")
            if isinstance(dealer, int) and isinstance(contract, str):
                played[dealer].append(contract)
        return {"played": played}

    def next_dealer(
        self, options: Mapping[str, Any], seats: int, dealer: int, result: HandResult | None
    ) -> int:
        """Left after every hand, or after the dealer's seventh hand under ``seven_in_a_row``. A hand thrown
        in before its contract leaves the deal where it is: the dealer's turn of the Quadro is not used."""
        if result is None:
            return dealer
        values = self.ruleset.validate(options)
        if values["dealer_rotation"] == "seven_in_a_row":
            before = result.details.get("dealer_contracts_before", [])
            if len(before) + 1 < len(contracts(values["contract_set"])):
                return dealer
        return (dealer + 1) % seats

    def match_result(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> MatchResult:
        """Running totals, one row per hand, each player's Quadro; 28 hands make a match (rules §10)."""
        codes = list(contracts(self.ruleset.validate(options)["contract_set"]))
        totals: list[Score] = [0] * seats
        rows: list[dict[str, Any]] = []
        quadri: list[list[dict[str, Any]]] = [[] for _seat in range(seats)]
        for number, r in enumerate(results, start=1):
            totals = [t + s for t, s in zip(totals, r.scores, strict=True)]
            dealer, contract = r.details.get("dealer"), r.details.get("contract")
            row: dict[str, Any] = {
                "hand": number,
                "dealer": dealer,
                "contract": contract,
                "scores": list(r.scores),
                "totals": list(totals),
            }
            for extra in ("trump", "opening_rank"):
                if extra in r.details:
                    row[extra] = r.details[extra]
            rows.append(row)
            if isinstance(dealer, int) and 0 <= dealer < seats:
                quadri[dealer].append({"hand": number, "contract": contract, "scores": list(r.scores)})
        hands = seats * len(codes)
        finished = len(results) >= hands
        complete = finished and all(sorted(e["contract"] for e in q) == sorted(codes) for q in quadri)
        if complete and sum(totals) != 0:
            raise AssertionError(f"a complete Barbù match must sum to 0, not {sum(totals)}")
        best = max(totals)
        details = {
            "hands": hands,
            "sum": sum(totals),
            "complete": complete,
            "quadro": [
                {
                    "seat": s,
                    "played": q,
                    "remaining": [c for c in codes if c not in {e["contract"] for e in q}],
                    "net": sum(sum(e["scores"]) for e in q),
                }
                for s, q in enumerate(quadri)
            ],
        }
        return MatchResult(
            totals=tuple(totals),
            finished=finished,
            winners=tuple(s for s in range(seats) if totals[s] == best) if finished else (),
            rows=tuple(rows),
            details=details,
        )


_FITTING: dict[tuple[str, bool, tuple[tuple[int, int] | None, ...]], frozenset[str]] = {}


def _fitting(opening: str, circular: bool, layout: tuple[tuple[int, int] | None, ...]) -> frozenset[str]:
    """The cards that fit a Domino layout opened at ``opening`` (its rows by suit: how far down and up
    from the opening rank each has come, None before it opens)."""
    base = RANK_INDEX[opening]
    out: set[str] = set()
    for suit, row in zip(SUITS, layout, strict=True):
        if row is None:
            out.add(opening + suit)
            continue
        down, up = row
        if down + up + 1 >= len(FRENCH_RANKS):
            continue
        for i in (base - down - 1, base + up + 1):
            if circular:
                out.add(FRENCH_RANKS[i % len(FRENCH_RANKS)] + suit)
            elif 0 <= i < len(FRENCH_RANKS):
                out.add(FRENCH_RANKS[i] + suit)
    return frozenset(out)


def _crossed(
    context: Mapping[str, Any], seats: int, codes: Mapping[str, ContractSpec]
) -> tuple[tuple[str, ...], ...]:
    """The contracts each seat has already played as dealer, from the hand's context (none without one).

    Accepted shapes: ``{"played": [[codes] by seat]}`` or ``{"played": {seat: [codes]}}`` (seat as an int
    or, after a JSON round trip, a string).
    """
    played = context.get("played")
    if played is None:
        return ((),) * seats

    def bad() -> ImpossibleMove:  # made only when it is raised
        return ImpossibleMove(
            "barbu.context",
            _("context 'played' must give each seat's list of contract codes"),
            field="context",
        )

    by_seat: list[Any]
    if isinstance(played, Mapping):
        by_seat = [[] for _seat in range(seats)]
        for key, codes_played in played.items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else key
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
                raise bad()
            by_seat[seat] = codes_played
    elif isinstance(played, list | tuple) and len(played) == seats:
        by_seat = list(played)
    else:
        raise bad()
    out: list[tuple[str, ...]] = []
    for entry in by_seat:
        if (
            not isinstance(entry, list | tuple)
            or any(c not in codes for c in entry)
            or len(set(entry)) != len(entry)
        ):
            raise bad()
        out.append(tuple(entry))
    return tuple(out)


def _sort_proofs(
    pending: tuple[Pending, ...],
    provisional: tuple[Verdict, ...],
    found: Sequence[Verdict],
) -> tuple[tuple[Pending, ...], tuple[Verdict, ...], list[Verdict]]:
    """Turn the proofs a play produced into verdicts, once per breach.

    An assertion may have several keys (a heart lead asserts no spade, no diamond, no club): the first proof
    withdraws the others. A proved revoke withdraws the void-dependent obligations of the same move; a
    void-dependent proof whose revoke is still open waits in ``provisional`` until the hand's end.
    """
    if not found:
        return pending, provisional, []
    verdicts: list[Verdict] = []
    held = list(provisional)
    groups: set[tuple[int | None, int, str]] = set()
    not_void: set[tuple[int | None, int]] = set()
    for v in sorted(found, key=lambda v: v.rule != RULE_FOLLOW):
        if v.proved_at is None:
            verdicts.append(v)  # this move's own breach, deal known
            continue
        group = (v.seat, v.move_index, v.rule)
        if group in groups or (v.rule in _VOID_RULES and (v.seat, v.move_index) in not_void):
            continue
        groups.add(group)
        pending = tuple(p for p in pending if (p.seat, p.move_index, p.rule) != group)
        if v.rule == RULE_FOLLOW:
            not_void.add((v.seat, v.move_index))
            pending = tuple(
                p
                for p in pending
                if not (p.seat == v.seat and p.move_index == v.move_index and p.rule in _VOID_RULES)
            )
            held = [h for h in held if (h.seat, h.move_index) != (v.seat, v.move_index)]
            verdicts.append(v)
        elif v.rule in _VOID_RULES and any(
            p.seat == v.seat and p.move_index == v.move_index and p.rule == RULE_FOLLOW for p in pending
        ):
            held.append(v)
        else:
            verdicts.append(v)
    return pending, tuple(held), verdicts


_PLACES = ("first_seat", "second_seat", "third_seat", "fourth_seat")
_SCORES = ("first_points", "second_points", "third_points", "fourth_points")


def _trick_outcome(spec: ContractSpec, trump: str | None, scores: Sequence[int]) -> Text:
    """What a trick contract's hand came to: the contract (and its trump) and every seat's score."""
    params: dict[str, Any] = {"contract": spec.code}
    for n, score in enumerate(scores):
        params[_PLACES[n]] = n
        params[_SCORES[n]] = score
    if not spec.trump_choice:
        return Text(
            _(
                "{contract}: {first_seat} {first_points}, {second_seat} {second_points}, "
                "{third_seat} {third_points}, {fourth_seat} {fourth_points}"
            ),
            params,
        )
    if trump is None:
        return Text(
            _(
                "{contract}, no trumps: {first_seat} {first_points}, {second_seat} {second_points}, "
                "{third_seat} {third_points}, {fourth_seat} {fourth_points}"
            ),
            params,
        )
    params["trump"] = trump
    return Text(
        _(
            "{contract}, trumps {trump}: {first_seat} {first_points}, {second_seat} {second_points}, "
            "{third_seat} {third_points}, {fourth_seat} {fourth_points}"
        ),
        params,
    )


def _can_split(items: Sequence[int], targets: Sequence[int]) -> bool:
    """Whether the penalty ``items`` can be shared among the seats so that each gets exactly its target."""
    if sum(items) != sum(targets) or any(t * s < 0 for t in targets for s in items):
        return False
    values = sorted(items, key=abs, reverse=True)

    def fill(i: int, rest: tuple[int, ...]) -> bool:
        if i == len(values):
            return all(r == 0 for r in rest)
        tried: set[int] = set()
        for s, r in enumerate(rest):
            if r in tried or abs(r) < abs(values[i]):
                continue
            tried.add(r)
            if fill(i + 1, rest[:s] + (r - values[i],) + rest[s + 1 :]):
                return True
        return False

    return fill(0, tuple(targets))
