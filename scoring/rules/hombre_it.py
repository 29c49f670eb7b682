"""Hombre, Italian form: three players, 40 Italian cards, passo/gioco/solo/volo, a fixed stake.

Spec: ``docs/rules/hombre-it.md`` (from the shared rules file, seed 000). The card orders and the matador
privilege live in :mod:`scoring.rules.ombre`, shared with the French L'Hombre.

Seats are numbered in the order of play (counter-clockwise at the table): E, the dealer's right, is
``dealer + 1``; he speaks first and leads the first trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core import ONLY, HandResult, MatchResult, Score, Verdict, evolve
from .errors import ImpossibleMove, Text, _
from .moves import Call, Choose, Exchange, Move, PlayCard
from .ombre_hand import HAND_SIZE, TALON, TRICKS, OmbreGame, OmbreState
from .options import Option, Ruleset
from .tricks import TrickPlay

CALLS = ("passo", "gioco", "solo", "volo")  # low to high
RANK = {c: i for i, c in enumerate(CALLS)}
HOMBRE_EXCHANGE_LIMIT = 8

RULESET = Ruleset(
    (
        Option(
            "n_matadors", 4, _("Matadors with the privilege: 4 (the seed's first four trumps) or 3."), (4, 3)
        ),
        Option(
            "plain_order",
            "ombre",
            _("Plain-suit order: ombre (red pips reversed) or natural."),
            ("ombre", "natural"),
        ),
        Option(
            "auction",
            "single_round",
            _(
                "single_round: one call each, ties to the earlier speaker; open: rounds until all but one "
                "pass."
            ),
            ("single_round", "open"),
        ),
        Option(
            "win_rule",
            "five_tricks",
            _("five_tricks: the hombre needs 5 tricks; majority: more than each defender (volo: always 9)."),
            ("five_tricks", "majority"),
        ),
        Option("stake", 1, _("The stake paid from or to each defender."), kind=int, minimum=1),
        Option("solo_stake", 0, _("Stake for a solo; 0 = the ordinary stake."), kind=int, minimum=0),
        Option(
            "volo_stake",
            0,
            _("The volo prize V; 0 = none agreed (volo pays the stake)."),
            kind=int,
            minimum=0,
        ),
        Option(
            "volo_stake_mode",
            "replace",
            _("replace: V replaces the stake on volo hands; add: V on top of it."),
            ("replace", "add"),
        ),
        Option(
            "redeal_dealer",
            "same",
            _("After an all-pass hand: the same dealer deals again, or the deal passes on."),
            ("same", "next"),
        ),
        Option(
            "deals", 12, _("Played deals in a session (thrown-in deals do not count)."), kind=int, minimum=1
        ),
    )
)


@dataclass(frozen=True, kw_only=True)
class HombreState(OmbreState):
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


# The kind of move each phase waits for.
_MOVE_OF_PHASE: dict[str, type[Move]] = {
    "auction": Call,
    "trump": Choose,
    "exchange": Exchange,
    "play": PlayCard,
}


class HombreIt(OmbreGame[HombreState]):
    name = "hombre_it"
    title = _("Hombre (Italian)")
    ruleset = RULESET
    score_unit = "stakes"
    # What a hand pays and whether the hombre won it (read only when the hand is scored), who deals after
    # a thrown-in hand, and the session's length.
    score_only_options = frozenset(
        {"win_rule", "stake", "solo_stake", "volo_stake", "volo_stake_mode", "redeal_dealer", "deals"}
    )
    prefix = "hombre"
    calls = CALLS

    # ---- setup ----------------------------------------------------------------------------------
    def _initial(
        self, options: dict[str, Any], seats: int, dealer: int, context: dict[str, Any]
    ) -> HombreState:
        return HombreState(options=options, seats=seats, dealer=dealer, context=context)

    def next_dealer(
        self, options: Mapping[str, Any], seats: int, dealer: int, result: HandResult | None
    ) -> int:
        thrown_in = result is None or result.outcome == "passed"
        if thrown_in and options.get("redeal_dealer", "same") == "same":
            return dealer
        return (dealer + 1) % seats

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
        seat = self._waiting(state)
        if seat is None or not isinstance(move, _MOVE_OF_PHASE.get(state.phase, type(None))):
            return frozenset()
        return ONLY[seat]

    def to_act(self, state: HombreState) -> frozenset[int]:
        seat = self._waiting(state)
        return frozenset() if seat is None else frozenset({seat})

    # ---- legal moves ----------------------------------------------------------------------------
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

    def _exchange_limit(self, state: HombreState, seat: int) -> int:
        return exchange_limit(state, seat)

    def matador_count(self, state: HombreState) -> int:
        return int(state.options["n_matadors"])

    def natural(self, state: HombreState) -> bool:
        return bool(state.options["plain_order"] == "natural")

    # ---- apply ----------------------------------------------------------------------------------
    def _call(self, state: HombreState, move: Call) -> tuple[HombreState, list[Verdict]]:
        seat = move.seat
        assert seat is not None
        self._check_call_word(move)
        if move.call not in self.allowed_calls(state, seat):
            standing = state.best[1] if state.best is not None else None  # never None: every call beats none
            if standing == "gioco":
                template = _("{call} does not beat the gioco already called")
            elif standing == "solo":
                template = _("{call} does not beat the solo already called")
            else:
                template = _("{call} does not beat the volo already called")
            raise ImpossibleMove("hombre.call_low", template, field="call", call=move.call)
        calls = state.calls + ((seat, move.call),)
        passed = state.passed | {seat} if move.call == "passo" else state.passed
        best = state.best
        if move.call != "passo" and (
            best is None
            or RANK[move.call] > RANK[best[1]]
            or (RANK[move.call] == RANK[best[1]] and state.position(seat) < state.position(best[0]))
        ):
            best = (seat, move.call)
        new = evolve(state, calls=calls, passed=passed, best=best)
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
            return evolve(new, speaker=speaker), []
        if best is None:
            return evolve(new, speaker=None, phase="passed", over=True), []
        return evolve(new, speaker=None, phase="trump", hombre=best[0], contract=best[1]), []

    def _choose(self, state: HombreState, move: Choose) -> HombreState:
        if move.choice != "trump":
            raise ImpossibleMove(
                "hombre.choice", _("the hombre's only choice is the trump suit"), field="choice"
            )
        self._check_trump_suit(move)
        if state.contract == "gioco":
            return evolve(state, trump=move.value, phase="exchange", exchanger=state.hombre)
        return self._start_play(evolve(state, trump=move.value))

    def _start_play(self, state: HombreState) -> HombreState:
        return super()._start_play(evolve(state, exchanger=None))

    def _exchange(self, state: HombreState, move: Exchange) -> tuple[HombreState, list[Verdict]]:
        """Deal known, the cards put aside are kept; after three exchanges play starts."""
        seat = move.seat
        assert seat is not None
        new, n = self._take_from_talon(state, move)
        verdicts: list[Verdict] = []
        if seat == state.hombre and n > HOMBRE_EXCHANGE_LIMIT:
            verdicts.append(
                Verdict(
                    "hombre.exchange_limit",
                    seat,
                    None,
                    _("the hombre exchanged {count} cards; at most {limit} are allowed"),
                    state.move_index,
                    params={"count": n, "limit": HOMBRE_EXCHANGE_LIMIT},
                )
            )
        if state.deal_known:
            new = evolve(new, discards=state.discards + move.discard)
        if len(new.exchanges) == state.seats:
            return self._start_play(new), verdicts
        return evolve(new, exchanger=state.next_seat(seat)), verdicts

    def _check_exchange_count(self, n: int) -> None:
        if n < 0:
            raise ImpossibleMove("hombre.exchange_count", _("the count cannot be negative"), field="count")

    # ---- results --------------------------------------------------------------------------------
    def _result(self, state: HombreState) -> HandResult:
        details: dict[str, Any] = {
            "dealer": state.dealer,
            "calls": [[s, c] for s, c in state.calls],
            "deal_counts": state.best is not None,
        }
        if state.best is None:
            text = Text(_("all passed: the deal is thrown in"))
            return HandResult(
                "passed", (0,) * state.seats, unit=self.score_unit, details=details, outcome_text=text
            )
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
        params = {"hombre": hombre, "call": contract, "tricks": tricks[hombre]}
        if won:
            text = Text(_("{hombre} wins his {call} with {tricks} tricks"), params)
        else:
            text = Text(_("{hombre} loses his {call} with {tricks} tricks"), params)
        return HandResult(
            "won" if won else "lost",
            scores,
            unit=self.score_unit,
            teams=((hombre,), tuple(s for s in range(state.seats) if s != hombre)),
            team_scores=(scores[hombre], sum((scores[s] for s in range(state.seats) if s != hombre), 0)),
            details=details,
            outcome_text=text,
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
                    "outcome_text": None if result.outcome_text is None else result.outcome_text.as_dict(),
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
