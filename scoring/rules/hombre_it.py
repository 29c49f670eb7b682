"""Hombre, Italian form: three players, 40 Italian cards, passo/gioco/solo/volo, a fixed stake.

Spec: ``docs/rules/hombre-it.md`` (from the shared rules file, seed 000). The card orders and the matador
privilege live in :mod:`scoring.rules.ombre`, shared with the French L'Hombre.

Seats are numbered in the order of play (counter-clockwise at the table): E, the dealer's right, is
``dealer + 1``; he speaks first and leads the first trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import ombre
from .cards import LATIN_40
from .core import Game, HandResult, HandState, MatchResult, Score, Verdict
from .errors import ImpossibleMove
from .moves import Call, Choose, Claim, Deal, Exchange, Move, PlayCard
from .options import Option, Ruleset
from .tricks import TrickPlay

CALLS = ("passo", "gioco", "solo", "volo")  # low to high
RANK = {c: i for i, c in enumerate(CALLS)}
HAND_SIZE = 9
TALON = 13
TRICKS = 9
HOMBRE_EXCHANGE_LIMIT = 8

RULESET = Ruleset(
    (
        Option(
            "n_matadors", 4, "Matadors with the privilege: 4 (the seed's first four trumps) or 3.", (4, 3)
        ),
        Option(
            "plain_order",
            "ombre",
            "Plain-suit order: ombre (red pips reversed) or natural.",
            ("ombre", "natural"),
        ),
        Option(
            "auction",
            "single_round",
            "single_round: one call each, ties to the earlier speaker; open: rounds until all but one pass.",
            ("single_round", "open"),
        ),
        Option(
            "win_rule",
            "five_tricks",
            "five_tricks: the hombre needs 5 tricks; majority: more than each defender (volo: always 9).",
            ("five_tricks", "majority"),
        ),
        Option("stake", 1, "The stake paid from or to each defender.", kind=int, minimum=1),
        Option("solo_stake", 0, "Stake for a solo; 0 = the ordinary stake.", kind=int, minimum=0),
        Option(
            "volo_stake", 0, "The volo prize V; 0 = none agreed (volo pays the stake).", kind=int, minimum=0
        ),
        Option(
            "volo_stake_mode",
            "replace",
            "replace: V replaces the stake on volo hands; add: V on top of it.",
            ("replace", "add"),
        ),
        Option(
            "redeal_dealer",
            "same",
            "After an all-pass hand: the same dealer deals again, or the deal passes on.",
            ("same", "next"),
        ),
        Option("deals", 12, "Played deals in a session (thrown-in deals do not count).", kind=int, minimum=1),
    )
)


@dataclass(frozen=True, kw_only=True)
class HombreState(HandState):
    calls: tuple[tuple[int, str], ...] = ()  # every call in the order spoken
    passed: frozenset[int] = frozenset()
    best: tuple[int, str] | None = None  # the winning call so far: (seat, call)
    speaker: int | None = None
    hombre: int | None = None
    contract: str | None = None  # gioco, solo or volo
    trump: str | None = None
    exchanger: int | None = None
    exchanges: tuple[tuple[int, int], ...] = ()  # (seat, cards exchanged)
    discards: tuple[str, ...] = ()  # deal known: the cards put aside in exchanges
    talon: tuple[str, ...] = ()  # deal known: the talon cards not yet taken
    talon_left: int = TALON
    play: TrickPlay | None = None
    claimed: tuple[int, ...] | None = None  # final tricks by seat, after an accepted claim

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


def exchange_limit(state: HombreState, seat: int) -> int:
    """How many cards this seat may exchange: the hombre up to 8, the others up to what is left in the
    talon (and at most the nine cards they hold)."""
    if seat == state.hombre:
        return min(HOMBRE_EXCHANGE_LIMIT, state.talon_left)
    return min(HAND_SIZE, state.talon_left)


def hand_stake(options: Mapping[str, Any], contract: str) -> int:
    """The amount each defender pays or receives for this contract (§10)."""
    stake = int(options["stake"])
    if contract == "solo" and options["solo_stake"]:
        return int(options["solo_stake"])
    if contract == "volo" and options["volo_stake"]:
        prize = int(options["volo_stake"])
        return prize if options["volo_stake_mode"] == "replace" else stake + prize
    return stake


def hombre_wins(options: Mapping[str, Any], contract: str, tricks: Sequence[int], hombre: int) -> bool:
    """Five tricks (or more than each defender with ``win_rule = majority``); volo needs all nine."""
    own = tricks[hombre]
    if contract == "volo":
        return own == TRICKS
    if options["win_rule"] == "majority":
        return all(own > t for s, t in enumerate(tricks) if s != hombre)
    return own >= 5


class HombreIt(Game[HombreState]):
    name = "hombre_it"
    title = "Hombre (Italian)"
    deck = LATIN_40
    seat_counts = (3,)
    ruleset = RULESET
    score_unit = "stakes"

    # ---- setup ----------------------------------------------------------------------------------
    def _initial(
        self, options: dict[str, Any], seats: int, dealer: int, context: dict[str, Any]
    ) -> HombreState:
        return HombreState(options=options, seats=seats, dealer=dealer, context=context)

    def deal_shape(self, state: HombreState) -> tuple[tuple[int, ...], int]:
        return (HAND_SIZE,) * state.seats, TALON

    def _after_deal(self, state: HombreState, deal: Deal) -> HombreState:
        talon: tuple[str, ...] = ()
        if deal.hands is not None:
            dealt = {c for hand in deal.hands for c in hand}
            talon = deal.stock or tuple(c for c in self.deck.cards if c not in dealt)
        return replace(state, phase="auction", speaker=state.next_seat(state.dealer), talon=talon)

    def next_dealer(
        self, options: Mapping[str, Any], seats: int, dealer: int, result: HandResult | None
    ) -> int:
        thrown_in = result is None or result.outcome == "passed"
        if thrown_in and options.get("redeal_dealer", "same") == "same":
            return dealer
        return (dealer + 1) % seats

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

    # ---- whose turn -----------------------------------------------------------------------------
    def _waiting(self, state: HombreState) -> int | None:
        if state.over:
            return None
        if state.phase == "auction":
            return state.speaker
        if state.phase == "trump":
            return state.hombre
        if state.phase == "exchange":
            return state.exchanger
        if state.phase == "play":
            return state.tricks.to_play()
        return None

    def actors(self, state: HombreState, move: Move) -> frozenset[int | None]:
        kinds: dict[str, type[Move]] = {
            "auction": Call,
            "trump": Choose,
            "exchange": Exchange,
            "play": PlayCard,
        }
        seat = self._waiting(state)
        if seat is None or not isinstance(move, kinds.get(state.phase, type(None))):
            return frozenset()
        return frozenset({seat})

    def to_act(self, state: HombreState) -> frozenset[int]:
        seat = self._waiting(state)
        return frozenset() if seat is None else frozenset({seat})

    # ---- legal moves ----------------------------------------------------------------------------
    def _legal(self, state: HombreState) -> list[Move]:
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

    def allowed_calls(self, state: HombreState, seat: int) -> tuple[str, ...]:
        """The calls this seat may make now: all four in the single round; in the open auction, a pass
        or a call above the best (equal to it for a player who spoke before its maker)."""
        if state.options["auction"] == "single_round" or state.best is None:
            return CALLS
        maker, best = state.best
        earlier = state.position(seat) < state.position(maker)
        return ("passo",) + tuple(
            c for c in CALLS[1:] if RANK[c] > RANK[best] or (earlier and RANK[c] == RANK[best])
        )

    def _legal_exchanges(self, state: HombreState, seat: int) -> list[Move]:
        """One exchange per count (every set of the right sizes is accepted; listing them all is not
        practical): deal known, the weakest cards go and the first talon cards come in."""
        limit = exchange_limit(state, seat)
        if not state.deal_known:
            return [Exchange(seat=seat, count=n) for n in range(limit + 1)]
        trump = state.trump_suit()
        weak = sorted(
            state.hands.hand(seat),
            key=lambda c: (ombre.is_trump(c, trump), -self._rank(state, c), c),
        )
        return [Exchange(seat=seat, discard=tuple(weak[:n]), take=state.talon[:n]) for n in range(limit + 1)]

    def _rank(self, state: HombreState, card: str) -> int:
        """Position of a card in its suit's order under the trump (0 = highest)."""
        trump = state.trump_suit()
        order = ombre.layout(trump, natural=state.options["plain_order"] == "natural")
        return order[ombre.effective_suit(card, trump)].index(card)

    def playable(self, state: HombreState, seat: int) -> list[str]:
        """The cards the seat may play with no irregularity. Deal unknown: every card not yet out of play
        except those the seat's earlier plays showed it did not hold."""
        trump = state.trump_suit()
        n = int(state.options["n_matadors"])
        if state.deal_known:
            options = ombre.follow_options(state.hands.hand(seat), state.tricks.current.cards, trump, n)
            return list(self.deck.sort(options))
        void = ombre.open_keys(state, seat)
        holdings = state.hands
        return [
            c
            for c in self.deck.cards
            if c not in holdings.gone and not void & set(ombre.play_keys(c, trump, n))
        ]

    # ---- apply ----------------------------------------------------------------------------------
    def _apply(self, state: HombreState, move: Move) -> tuple[HombreState, list[Verdict]]:
        if isinstance(move, Call):
            return self._call(state, move), []
        if isinstance(move, Choose):
            return self._choose(state, move), []
        if isinstance(move, Exchange):
            return self._exchange(state, move)
        if isinstance(move, PlayCard):
            return self._play(state, move)
        raise AssertionError(f"actors() let through {move!r}")

    def _call(self, state: HombreState, move: Call) -> HombreState:
        seat = move.seat
        assert seat is not None
        if move.call not in CALLS:
            raise ImpossibleMove(
                "hombre.call", f"unknown call {move.call!r} (one of {', '.join(CALLS)})", field="call"
            )
        if move.call not in self.allowed_calls(state, seat):
            raise ImpossibleMove(
                "hombre.call_low",
                f"{move.call} does not beat the {state.best[1] if state.best else ''} already called",
                field="call",
            )
        calls = state.calls + ((seat, move.call),)
        passed = state.passed | {seat} if move.call == "passo" else state.passed
        best = state.best
        if move.call != "passo" and (
            best is None
            or RANK[move.call] > RANK[best[1]]
            or (RANK[move.call] == RANK[best[1]] and state.position(seat) < state.position(best[0]))
        ):
            best = (seat, move.call)
        new = replace(state, calls=calls, passed=passed, best=best)
        if state.options["auction"] == "single_round":
            done = len(calls) == state.seats
            speaker = state.next_seat(seat)
        else:
            active = [s for s in range(state.seats) if s not in passed]
            done = not active or (best is not None and active == [best[0]])
            speaker = next(
                (state.next_seat(seat, k) for k in range(1, 4) if state.next_seat(seat, k) in active), seat
            )
        if not done:
            return replace(new, speaker=speaker)
        if best is None:
            return replace(new, speaker=None, phase="passed", over=True)
        return replace(new, speaker=None, phase="trump", hombre=best[0], contract=best[1])

    def _choose(self, state: HombreState, move: Choose) -> HombreState:
        if move.choice != "trump":
            raise ImpossibleMove(
                "hombre.choice", "the hombre's only choice is the trump suit", field="choice"
            )
        if move.value not in ombre.SUITS:
            raise ImpossibleMove(
                "hombre.trump", f"the trump suit is one of S, C, H, D, not {move.value!r}", field="value"
            )
        if state.contract == "gioco":
            return replace(state, trump=move.value, phase="exchange", exchanger=state.hombre)
        return self._start_play(replace(state, trump=move.value))

    def _start_play(self, state: HombreState) -> HombreState:
        return replace(
            state,
            phase="play",
            exchanger=None,
            play=TrickPlay.start(state.seats, state.next_seat(state.dealer)),
        )

    def _exchange(self, state: HombreState, move: Exchange) -> tuple[HombreState, list[Verdict]]:
        seat = move.seat
        assert seat is not None
        n = self._exchange_size(state, move)
        if n > state.talon_left:
            raise ImpossibleMove(
                "hombre.talon_short", f"only {state.talon_left} cards are left in the talon", field="discard"
            )
        holdings = state.hands
        talon, discards = state.talon, state.discards
        if state.deal_known:
            if len(set(move.take)) != len(move.take):
                raise ImpossibleMove("card.repeated", "the same card is taken twice", field="take")
            for card in move.take:
                self.deck.check(card, field="take")
                if card not in talon:
                    raise ImpossibleMove("hombre.not_in_talon", f"{card} is not in the talon", field="take")
            holdings = holdings.remove(seat, move.discard, field="discard").add(seat, move.take)
            talon = tuple(c for c in talon if c not in move.take)
            discards = discards + move.discard
        else:
            for card in move.take:
                holdings.check_available(card, field="take")
                if card in move.discard:
                    raise ImpossibleMove("hombre.not_in_talon", f"{card} was just discarded", field="take")
            if move.discard:
                holdings = holdings.remove(seat, move.discard, field="discard")
            else:
                if holdings.counts[seat] < n:
                    raise ImpossibleMove(
                        "hand.count", f"seat {seat} holds fewer than {n} cards", field="count"
                    )
                counts = tuple(c - n if i == seat else c for i, c in enumerate(holdings.counts))
                holdings = replace(holdings, counts=counts)
            holdings = holdings.add(seat, move.take, count=n)
        verdicts: list[Verdict] = []
        if seat == state.hombre and n > HOMBRE_EXCHANGE_LIMIT:
            verdicts.append(
                Verdict(
                    "hombre.exchange_limit",
                    seat,
                    None,
                    f"the hombre exchanged {n} cards; at most {HOMBRE_EXCHANGE_LIMIT} are allowed",
                    state.move_index,
                )
            )
        new = replace(
            state,
            holdings=holdings,
            talon=talon,
            discards=discards,
            talon_left=state.talon_left - n,
            exchanges=state.exchanges + ((seat, n),),
        )
        if len(new.exchanges) == state.seats:
            return self._start_play(new), verdicts
        return replace(new, exchanger=state.next_seat(seat)), verdicts

    def _exchange_size(self, state: HombreState, move: Exchange) -> int:
        if state.deal_known:
            if move.count is not None and move.count != len(move.discard):
                raise ImpossibleMove(
                    "hombre.exchange_count", "the count does not match the cards discarded", field="count"
                )
            if len(move.take) != len(move.discard):
                raise ImpossibleMove(
                    "hombre.exchange_count",
                    f"{len(move.discard)} cards discarded but {len(move.take)} taken: name the cards taken",
                    field="take",
                )
            return len(move.discard)
        sizes = {len(move.discard)} if move.discard else set()
        sizes |= {len(move.take)} if move.take else set()
        sizes |= {move.count} if move.count is not None else set()
        if len(sizes) > 1:
            raise ImpossibleMove(
                "hombre.exchange_count", "the cards discarded, taken and the count disagree", field="count"
            )
        n = sizes.pop() if sizes else 0
        if n < 0:
            raise ImpossibleMove("hombre.exchange_count", "the count cannot be negative", field="count")
        return n

    def _play(self, state: HombreState, move: PlayCard) -> tuple[HombreState, list[Verdict]]:
        seat, card = move.seat, move.card
        assert seat is not None
        self.deck.check(card)
        state.hands.check_holds(seat, card)
        trump = state.trump_suit()
        tp = state.tricks
        pending, verdicts = ombre.revoke_check(
            state,
            seat,
            card,
            trick_cards=tp.current.cards,
            trump=trump,
            matador_count=int(state.options["n_matadors"]),
            trick=tp.number,
            prefix="hombre",
        )
        holdings = state.hands.remove(seat, (card,))
        natural = state.options["plain_order"] == "natural"
        tp = tp.play(seat, card, ombre.strength(trump, natural=natural))
        over = len(tp.done) == TRICKS
        new = replace(state, holdings=holdings, pending=pending, play=tp, over=over)
        return new, verdicts

    # ---- claims (§9) ----------------------------------------------------------------------------
    def can_claim(self, state: HombreState, seat: int) -> bool:
        return (
            state.phase == "play"
            and not state.over
            and state.play is not None
            and state.play.leading
            and state.play.current.leader == seat
        )

    def check_claim(self, state: HombreState, claim: Claim) -> None:
        self.claim_split(state, claim)

    def claim_split(self, state: HombreState, claim: Claim) -> tuple[int, ...]:
        """The remaining tricks by seat a claim states: ``split`` (one number per seat), or no numbers
        for all the rest to the claimer."""
        remaining = TRICKS - len(state.tricks.done)
        if claim.tricks is not None:
            raise ImpossibleMove(
                "claim.invalid", "state the remaining tricks of every player as a split", field="tricks"
            )
        if claim.split is None:
            assert claim.seat is not None
            return tuple(remaining if s == claim.seat else 0 for s in range(state.seats))
        if (
            len(claim.split) != state.seats
            or any(t < 0 for t in claim.split)
            or sum(claim.split) != remaining
        ):
            raise ImpossibleMove(
                "claim.invalid",
                f"the split must give {state.seats} numbers adding up to the {remaining} tricks left",
                field="split",
            )
        return tuple(claim.split)

    def _settle_claim(self, state: HombreState, claim: Claim) -> HombreState:
        split = self.claim_split(state, claim)
        won = tuple(state.tricks.tricks_won(s) + split[s] for s in range(state.seats))
        return replace(state, claimed=won)

    # ---- results --------------------------------------------------------------------------------
    def tricks_by_seat(self, state: HombreState) -> tuple[int, ...]:
        if state.claimed is not None:
            return state.claimed
        if state.play is None:
            return (0,) * state.seats
        return tuple(state.play.tricks_won(s) for s in range(state.seats))

    def _result(self, state: HombreState) -> HandResult:
        details: dict[str, Any] = {
            "dealer": state.dealer,
            "calls": [[s, c] for s, c in state.calls],
            "deal_counts": state.best is not None,
        }
        if state.best is None:
            return HandResult("passed", (0,) * state.seats, unit=self.score_unit, details=details)
        hombre, contract = state.best
        tricks = self.tricks_by_seat(state)
        won = hombre_wins(state.options, contract, tricks, hombre)
        stake = hand_stake(state.options, contract)
        sign = 1 if won else -1
        scores: tuple[Score, ...] = tuple(
            sign * stake * (state.seats - 1) if s == hombre else -sign * stake for s in range(state.seats)
        )
        details.update(
            hombre=hombre,
            contract=contract,
            trump=state.trump,
            tricks=list(tricks),
            won=won,
            stake=stake,
            exchanges=[[s, n] for s, n in state.exchanges],
            claimed=state.claimed is not None,
            n_matadors=state.options["n_matadors"],
        )
        return HandResult(
            "won" if won else "lost",
            scores,
            unit=self.score_unit,
            teams=((hombre,), tuple(s for s in range(state.seats) if s != hombre)),
            team_scores=(scores[hombre], sum((scores[s] for s in range(state.seats) if s != hombre), 0)),
            details=details,
        )

    def match_result(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> MatchResult:
        """The session sheet: every hand (thrown-in ones too) with running totals; over after ``deals``
        played deals."""
        values = self.ruleset.validate(options)
        totals: list[Score] = [0] * seats
        rows: list[dict[str, Any]] = []
        played = 0
        for number, result in enumerate(results, start=1):
            counts = result.outcome != "passed"
            played += counts
            totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
            d = result.details
            rows.append(
                {
                    "hand": number,
                    "deal": played if counts else None,
                    "dealer": d.get("dealer"),
                    "hombre": d.get("hombre"),
                    "contract": d.get("contract"),
                    "trump": d.get("trump"),
                    "tricks": d.get("tricks"),
                    "outcome": result.outcome,
                    "scores": list(result.scores),
                    "totals": list(totals),
                }
            )
        finished = played >= int(values["deals"])
        best = max(totals)
        winners = tuple(s for s in range(seats) if totals[s] == best) if finished else ()
        return MatchResult(
            totals=tuple(totals),
            finished=finished,
            winners=winners,
            rows=tuple(rows),
            details={"deals": values["deals"], "played": played, "unit": self.score_unit},
        )


__all__ = ["CALLS", "HombreIt", "HombreState", "exchange_limit", "hand_stake", "hombre_wins"]
