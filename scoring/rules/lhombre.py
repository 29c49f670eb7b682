"""L'Hombre, French form: three players, 40 cards, je joue / sans prendre / vole, codille, the chip ledger.

Spec: ``docs/rules/lhombre.md`` (from the shared rules file, seed 002). The card orders and the matador
privilege (three matadors) live in :mod:`scoring.rules.ombre`, shared with the Italian Hombre: the French
layouts are the same. The chips across hands (poule, bêtes, bonuses, the end of the evening) live in
:mod:`scoring.rules.lhombre_ledger`; this module plays one hand and says what happened.

Seats are numbered in the order of play (counter-clockwise at the table): E, the dealer's right, is
``dealer + 1``; he speaks first and leads the first trick. The hombre's D1 (his right) is ``hombre + 1``.

A hand's score is what it moves in chips on the ledger it was played on (``context["ledger"]``, from
:meth:`LHombre.match_context`; a fresh table when absent), the stakes for the next hand included.
:meth:`LHombre.match_result` refolds every hand through the ledger from ``details["ledger"]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import lhombre_ledger as ledger
from . import ombre
from .core import ONLY, HandResult, MatchResult, Score, Verdict, evolve
from .errors import ImpossibleMove, Text, _, literal
from .moves import Call, Choose, Claim, Deal, Declare, Exchange, Move, PlayCard
from .ombre_hand import HAND_SIZE, TALON, TRICKS, OmbreGame, OmbreState
from .options import Option, Ruleset
from .tricks import TrickPlay

PASS, JE_JOUE, SANS_PRENDRE, VOLE = "pass", "je_joue", "sans_prendre", "vole"
CALLS = (PASS, JE_JOUE, SANS_PRENDRE, VOLE)  # low to high
RANK = {c: i for i, c in enumerate(CALLS)}
FIRST_EXCHANGE_LIMIT = 8
N_MATADORS = 3  # the privilege: espadille, manille, baste
STRAIGHT = 5  # tricks won in a row before the hombre may go on for the vole
ESPADILLE = ombre.SPADILLE
CHOICES = ("trump", "talon", "vole", "espadille")
TALON_VALUES = ("shown", "hidden")
VOLE_VALUES = ("go_on", "stop")
ESPADILLE_VALUES = ("declare", "concealed", "talon")

RULESET = Ruleset(
    (
        Option(
            "espadille_force",
            False,
            _("Espadille forcé: when all pass, the holder of the espadille must play en prenant."),
            kind=bool,
        ),
        Option(
            "upgrade",
            False,
            _("An earlier 'je joue' overcalled by 'sans prendre' may upgrade to it and keep priority."),
            kind=bool,
        ),
        Option(
            "start_chips", 400, _("Jetons each player starts with (0: net results)."), kind=int, minimum=0
        ),
        Option(
            "odd_chips",
            "exact",
            _(
                "exact: halves kept; integer: D1 pays the odd jeton of a doubling, the better defender takes "
                "the odd jeton of a share."
            ),
            ledger.ODD_CHIPS,
        ),
        Option("poules", 20, _("Poules drawn by an hombre before the evening ends."), kind=int, minimum=1),
        Option(
            "extension",
            "none",
            _("After the agreed poules: none, nine more deals, until a bête is made, until a bête is drawn."),
            ledger.EXTENSIONS,
        ),
    )
)


@dataclass(frozen=True, kw_only=True)
class LHombreState(OmbreState):
    table: ledger.Ledger  # the chips as this hand starts (from the match context)
    calls: tuple[tuple[int, str], ...] = ()  # every call in the order spoken
    speaker: int | None = None
    asked: int | None = None  # option upgrade: the 'je joue' bidder asked whether he upgrades
    best: tuple[int, str] | None = None  # the winning call so far: (seat, call)
    hombre: int | None = None
    contract: str | None = None  # je_joue, sans_prendre or vole
    forced: bool = False  # espadille forcé: the holder plays en prenant
    espadille: tuple[str, int | None] | None = None  # after an all-pass with espadille forcé
    trump: str | None = None
    exchangers: tuple[int, ...] = ()  # who exchanges, in order
    exchanges: tuple[tuple[int, int], ...] = ()  # (seat, cards exchanged)
    talon: tuple[str, ...] = ()  # deal known: the talon cards not yet taken, top first
    talon_left: int = TALON
    talon_shown: str | None = None  # shown / hidden, when cards were left
    play: TrickPlay | None = None
    first_hand: frozenset[str] | None = None  # deal known: the hombre's hand at the first lead
    declared: tuple[str, ...] | None = None  # the hombre's matador run as declared (needed deal unknown)
    vole: str | None = None  # announced (in the auction) or continuation (after five straight tricks)
    stopped: bool = False  # the hombre stopped after five straight tricks
    claimed: tuple[int, ...] | None = None  # final tricks by seat, after an accepted claim

    def the_hombre(self) -> int:
        if self.hombre is None:
            raise AssertionError("no hombre yet")
        return self.hombre

    @property
    def exchanger(self) -> int | None:
        if self.phase != "exchange":
            return None
        return self.exchangers[len(self.exchanges)]

    @property
    def deciding(self) -> bool:
        """The hombre has won the first five tricks and must stop or go on for the vole."""
        if self.phase != "play" or self.vole is not None or self.stopped or self.play is None:
            return False
        done = self.play.done
        return len(done) == STRAIGHT and all(t.winner == self.hombre for t in done)


def exchange_limit(state: LHombreState, seat: int) -> int:
    """The first to exchange takes up to 8; each later one up to what is left (§6)."""
    if not state.exchanges:
        return min(FIRST_EXCHANGE_LIMIT, state.talon_left)
    return min(HAND_SIZE, state.talon_left)


def matador_run(hand: frozenset[str], trump: str) -> tuple[str, ...]:
    """The unbroken run of top trumps from the espadille in ``hand`` (the bonus counts it from three)."""
    run: list[str] = []
    for card in ombre.trump_order(trump):
        if card not in hand:
            break
        run.append(card)
    return tuple(run)


def deduced_run(mine: frozenset[str], out: frozenset[str], trump: str, complete: bool) -> int | None:
    """Deal unknown: the hombre's run when what is known settles it, else ``None``.

    ``mine``: cards known to have been in his hand at the first lead (he played them); ``out``: cards
    known not to have been (played by others, discarded); ``complete``: ``mine`` is his whole hand.
    """
    run = 0
    for card in ombre.trump_order(trump):
        if card in mine:
            run += 1
        elif complete or card in out:
            return run
        else:
            return None
    return run


class LHombre(OmbreGame[LHombreState]):
    name = "lhombre"
    title = _("L'Hombre (French)")
    ruleset = RULESET
    score_unit = "jetons"
    # The ledger's options: the chips a hand moves are counted once it is over, on the ledger its context
    # gives (play never reads the ledger: see play_context), and the evening's length.
    score_only_options = frozenset({"start_chips", "odd_chips", "poules", "extension"})
    prefix = "lhombre"
    calls = CALLS
    claim_rest_by_tricks = True

    # ---- setup ----------------------------------------------------------------------------------
    def _initial(
        self, options: dict[str, Any], seats: int, dealer: int, context: dict[str, Any]
    ) -> LHombreState:
        table = self.table_from(options, context)
        return LHombreState(options=options, seats=seats, dealer=dealer, context=context, table=table)

    def play_context(self, options: Mapping[str, Any], context: Mapping[str, Any]) -> Mapping[str, Any]:
        """None of it: the ledger a hand starts from is read only when the hand is settled."""
        return {}

    def rescored(
        self, state: LHombreState, options: Mapping[str, Any], context: Mapping[str, Any]
    ) -> LHombreState:
        """The finished hand on the ledger `context` and `options` give (its table is theirs)."""
        return evolve(
            state, options=dict(options), context=dict(context), table=self.table_from(options, context)
        )

    def table_from(self, options: Mapping[str, Any], context: Mapping[str, Any]) -> ledger.Ledger:
        """The ledger a hand is played on: the context's, or a fresh table."""
        raw = context.get("ledger")
        if raw is None:
            return ledger.opening(int(options["start_chips"]))
        try:
            return ledger.Ledger.from_dict(raw)
        except (KeyError, TypeError, ValueError, AssertionError) as exc:
            # What is wrong is said by the chained exception: the message is only for the user.
            raise ImpossibleMove(
                "lhombre.context", _("the ledger in the context is malformed"), field="context"
            ) from exc

    def moves_only(self, moves: Sequence[Move]) -> list[Move]:
        """Without the deal: an exchange is recorded by its count, and before the hombre stops after five
        tricks or a claim ends the hand he declares his matador run (his last cards are never seen)."""
        return super().moves_only(self._with_declared_run(moves))

    def _with_declared_run(self, moves: Sequence[Move]) -> list[Move]:
        """The known-deal moves with the hombre's declaration of his run before the move that ends the
        hand early (a stop after five tricks, a claim), unless one is already recorded."""
        out: list[Move] = []
        hand: set[str] = set()
        hombre: int | None = None
        trump: str | None = None
        hands: tuple[tuple[str, ...], ...] = ()
        for m in moves:
            if isinstance(m, Deal):
                hands = m.hands or ()
            if isinstance(m, Choose) and m.choice == "trump" and m.seat is not None and m.value:
                hombre, trump = m.seat, m.value
                hand = set(hands[hombre]) if hands else set()
            if isinstance(m, Exchange) and m.seat == hombre:
                hand = (hand - set(m.discard)) | set(m.take)
            ends = (isinstance(m, Choose) and m.choice == "vole" and m.value == "stop") or isinstance(
                m, Claim
            )
            if ends and hombre is not None and trump is not None and hands:
                run = matador_run(frozenset(hand), trump)
                if not any(isinstance(x, Declare) for x in out):
                    out.append(Declare(seat=hombre, combination="matadors", cards=run))
            out.append(m)
        return out

    # ---- whose turn -----------------------------------------------------------------------------
    def _waiting(self, state: LHombreState) -> int | None:
        if state.over:
            return None
        if state.phase == "auction":
            return state.asked if state.asked is not None else state.speaker
        if state.phase == "trump":
            return state.hombre
        if state.phase == "exchange":
            return state.exchanger
        if state.phase == "talon":
            return state.exchangers[-1]
        if state.phase == "play":
            return state.tricks.to_play()
        return None

    def actors(self, state: LHombreState, move: Move) -> frozenset[int | None]:
        if state.phase == "play" and isinstance(move, PlayCard) and not state.over:  # nearly every move
            return ONLY[state.tricks.to_play()]
        if isinstance(move, Choose) and move.choice not in CHOICES:
            raise ImpossibleMove(
                "lhombre.choice",
                _("unknown choice '{name}' (one of {names})"),
                field="choice",
                name=literal(move.choice),
                names=list(CHOICES),
            )
        seat = self._waiting(state)
        phase = state.phase
        if phase == "espadille":
            if isinstance(move, Choose) and move.choice == "espadille":
                return frozenset({None, 0, 1, 2})
            return frozenset()
        if seat is None:
            return frozenset()
        if phase == "auction" and isinstance(move, Call):
            return frozenset({seat})
        if phase == "trump" and isinstance(move, Choose) and move.choice == "trump":
            return frozenset({seat})
        if phase == "exchange" and isinstance(move, Exchange):
            return frozenset({seat})
        if phase == "talon" and isinstance(move, Choose) and move.choice == "talon":
            return frozenset({None, seat})
        if phase == "play":
            if isinstance(move, PlayCard):
                return ONLY[seat]
            if isinstance(move, Choose) and move.choice == "vole" and state.deciding:
                return frozenset({state.hombre})
            if isinstance(move, Declare) and move.combination == "matadors":
                return frozenset({state.hombre})
        return frozenset()

    def to_act(self, state: LHombreState) -> frozenset[int]:
        if state.phase == "espadille" and not state.over:
            return frozenset(range(state.seats))
        seat = self._waiting(state)
        return frozenset() if seat is None else frozenset({seat})

    # ---- legal moves ----------------------------------------------------------------------------
    def _legal(self, state: LHombreState) -> list[Move]:
        if state.phase == "espadille":
            return self._legal_espadille(state)
        if state.phase == "talon":
            return [Choose(seat=None, choice="talon", value=v) for v in TALON_VALUES]
        moves = super()._legal(state)
        if state.deciding:
            moves += [Choose(seat=state.hombre, choice="vole", value=v) for v in VOLE_VALUES]
        return moves

    def allowed_calls(self, state: LHombreState, seat: int) -> tuple[str, ...]:
        """A pass or a call strictly above the best so far; asked to upgrade: sans prendre or pass."""
        if state.asked is not None:
            return (PASS, SANS_PRENDRE)
        floor = RANK[state.best[1]] if state.best else 0
        return (PASS,) + tuple(c for c in CALLS[1:] if RANK[c] > floor)

    def _legal_espadille(self, state: LHombreState) -> list[Move]:
        if not state.deal_known:
            moves: list[Move] = [
                Choose(seat=s, choice="espadille", value=v) for s in range(3) for v in ESPADILLE_VALUES[:2]
            ]
            return [*moves, Choose(seat=None, choice="espadille", value="talon")]
        holder = self._espadille_holder(state)
        if holder is None:
            return [Choose(seat=None, choice="espadille", value="talon")]
        return [Choose(seat=holder, choice="espadille", value=v) for v in ESPADILLE_VALUES[:2]]

    def _exchange_limit(self, state: LHombreState, seat: int) -> int:
        return exchange_limit(state, seat)

    def matador_count(self, state: LHombreState) -> int:
        return N_MATADORS

    # ---- apply ----------------------------------------------------------------------------------
    def _apply(self, state: LHombreState, move: Move) -> tuple[LHombreState, list[Verdict]]:
        if isinstance(move, Declare):
            return self._declare(state, move), []
        return super()._apply(state, move)

    # -- auction (§5)
    def _call(self, state: LHombreState, move: Call) -> tuple[LHombreState, list[Verdict]]:
        """A call in turn. One that may not be made now (not above the best so far, or an upgrade answer
        other than sans prendre or pass) was still said at the table: it is recorded as the pass it amounts
        to, with the verdict ``lhombre.call_low``."""
        seat = move.seat
        assert seat is not None
        self._check_call_word(move)
        call, verdicts = move.call, list[Verdict]()
        if call not in self.allowed_calls(state, seat):
            above = state.best[1] if state.best else None  # never None: every call ranks above none
            if state.asked is not None:
                template = _("asked whether he plays sans prendre, {seat} said {call}; it counts as a pass")
            elif above == JE_JOUE:
                template = _(
                    "{seat} called {call}, which does not rank above the je_joue already called; "
                    "it counts as a pass"
                )
            elif above == SANS_PRENDRE:
                template = _(
                    "{seat} called {call}, which does not rank above the sans_prendre already called; "
                    "it counts as a pass"
                )
            else:
                template = _(
                    "{seat} called {call}, which does not rank above the vole already called; "
                    "it counts as a pass"
                )
            params = {"seat": seat, "call": call}
            verdicts.append(
                Verdict("lhombre.call_low", seat, None, template, state.move_index, params=params)
            )
            call = PASS
        calls = state.calls + ((seat, call),)
        if state.asked is not None:
            # The upgrade answer: sans prendre takes the call back with priority; a pass leaves it.
            best = (seat, SANS_PRENDRE) if call == SANS_PRENDRE else state.best
            return self._next_speaker(evolve(state, calls=calls, asked=None, best=best)), verdicts
        best = state.best
        asked = None
        if call != PASS:
            if state.options["upgrade"] and call == SANS_PRENDRE and best is not None and best[1] == JE_JOUE:
                asked = best[0]
            best = (seat, call)
        new = evolve(state, calls=calls, best=best)
        if asked is not None:
            return evolve(new, asked=asked), verdicts
        return self._next_speaker(new), verdicts

    def _next_speaker(self, state: LHombreState) -> LHombreState:
        assert state.speaker is not None
        if state.speaker != state.dealer:
            return evolve(state, speaker=state.next_seat(state.speaker))
        state = evolve(state, speaker=None)
        if state.best is not None:
            hombre, contract = state.best
            return evolve(
                state,
                phase="trump",
                hombre=hombre,
                contract=contract,
                vole="announced" if contract == VOLE else None,
            )
        if state.options["espadille_force"]:
            return evolve(state, phase="espadille")
        return evolve(state, phase="done", over=True)

    # -- choices: trump, talon, vole, espadille
    def _choose(self, state: LHombreState, move: Choose) -> LHombreState:
        if move.choice == "trump":
            self._check_trump_suit(move)
            hombre = state.the_hombre()
            d1, d2 = state.next_seat(hombre), state.next_seat(hombre, 2)
            order = (hombre, d1, d2) if state.contract == JE_JOUE else (d1, d2)
            return evolve(state, trump=move.value, phase="exchange", exchangers=order)
        if move.choice == "talon":
            if move.value not in TALON_VALUES:
                raise ImpossibleMove("lhombre.talon", _("the talon is shown or hidden"), field="value")
            return self._start_play(evolve(state, talon_shown=move.value))
        if move.choice == "vole":
            if move.value not in VOLE_VALUES:
                raise ImpossibleMove("lhombre.vole", _("after five tricks: go_on or stop"), field="value")
            if move.value == "go_on":
                return evolve(state, vole="continuation")
            self._require_matadors(state, "stop")
            return evolve(state, stopped=True, phase="done", over=True)
        return self._espadille(state, move)

    def _espadille_holder(self, state: LHombreState) -> int | None:
        """Deal known: who was dealt the espadille (None: it is in the talon)."""
        return next((s for s in range(state.seats) if ESPADILLE in state.hands.hand(s)), None)

    def _espadille(self, state: LHombreState, move: Choose) -> LHombreState:
        """Espadille forcé (§5.2): the holder declares it and plays en prenant; or the talon is turned up
        and the espadille is there (an all-pass) or a player concealed it (he makes the bête)."""
        if move.value not in ESPADILLE_VALUES:
            raise ImpossibleMove(
                "lhombre.espadille",
                _("one of {names}, not '{name}'"),
                field="value",
                names=list(ESPADILLE_VALUES),
                name=literal(move.value),
            )
        seat = move.seat
        if (move.value == "talon") != (seat is None):
            raise ImpossibleMove(
                "lhombre.espadille",
                _("the talon is turned up by the table; a declaration or a concealment names its player"),
                field="seat",
            )
        if state.deal_known:
            holder = self._espadille_holder(state)
            if seat != holder:
                if holder is None:
                    raise ImpossibleMove(
                        "lhombre.espadille_holder", _("the espadille is in the talon"), field="seat"
                    )
                raise ImpossibleMove(
                    "lhombre.espadille_holder",
                    _("the espadille is in {holder}'s hand"),
                    field="seat",
                    holder=holder,
                )
        if move.value == "declare":
            assert seat is not None
            return evolve(
                state, espadille=("declare", seat), hombre=seat, contract=JE_JOUE, forced=True, phase="trump"
            )
        return evolve(state, espadille=(move.value, seat), phase="done", over=True)

    # -- exchanges (§6)
    def _exchange(self, state: LHombreState, move: Exchange) -> tuple[LHombreState, list[Verdict]]:
        """After the last exchanger, the talon's leftover cards are shown or hidden, or play starts."""
        seat = move.seat
        assert seat is not None
        new, n = self._take_from_talon(state, move)
        verdicts: list[Verdict] = []
        if not state.exchanges and n > FIRST_EXCHANGE_LIMIT:
            verdicts.append(
                Verdict(
                    "lhombre.exchange_limit",
                    seat,
                    None,
                    _("the first to exchange took {count} cards; at most {limit} are allowed"),
                    state.move_index,
                    params={"count": n, "limit": FIRST_EXCHANGE_LIMIT},
                )
            )
        if len(new.exchanges) < len(state.exchangers):
            return new, verdicts
        if new.talon_left > 0:
            return evolve(new, phase="talon"), verdicts
        return self._start_play(new), verdicts

    def _check_exchange_count(self, n: int) -> None:
        if not 0 <= n <= HAND_SIZE:
            raise ImpossibleMove(
                "lhombre.exchange_count", _("cannot exchange {count} cards"), field="count", count=n
            )

    def _start_play(self, state: LHombreState) -> LHombreState:
        hombre = state.the_hombre()
        first = state.hands.hand(hombre) if state.deal_known else None
        return super()._start_play(evolve(state, first_hand=first))

    # -- play (§7)
    def _known_holder(self, state: LHombreState, card: str) -> int | None:
        """Deal unknown: the seat a card is known to be with (the espadille declared under espadille
        forcé, the matadors the hombre declared)."""
        if state.deal_known:
            return None
        if state.espadille is not None and state.espadille[0] == "declare" and card == ESPADILLE:
            return state.espadille[1]
        if state.declared is not None and card in state.declared:
            return state.hombre
        return None

    def _check_play(self, state: LHombreState, seat: int, card: str) -> None:
        """Deal unknown: a card shown to be elsewhere, or the hombre's trump just below the run he
        declared, cannot be played."""
        if state.deal_known or (state.espadille is None and state.declared is None):
            return  # (nothing is known to be in a hand)
        holder = self._known_holder(state, card)
        if holder is not None and holder != seat:
            raise ImpossibleMove(
                "card.not_held", _("{card} was shown to be in {holder}'s hand"), card=card, holder=holder
            )
        if seat != state.hombre or state.declared is None:
            return
        order = ombre.trump_order(state.trump_suit())
        if len(state.declared) < len(order) and card == order[len(state.declared)]:
            raise ImpossibleMove(
                "lhombre.matadors_wrong",
                _("the hombre declared a run of {count} but also held {card}"),
                count=len(state.declared),
                card=card,
            )

    def _played(self, state: LHombreState, play: TrickPlay, over: bool) -> dict[str, Any]:
        vole = state.vole
        if state.deciding:
            vole = "continuation"  # leading to trick 6 after five straight tricks undertakes the vole
        if over and state.declared is not None and not state.deal_known:
            mine = frozenset(c for t in play.done for s, c in t.plays if s == state.hombre)
            if deduced_run(mine, frozenset(), state.trump_suit(), complete=True) != len(state.declared):
                raise ImpossibleMove(
                    "lhombre.matadors_wrong", _("the hombre's cards played contradict the run he declared")
                )
        return {"vole": vole, "phase": "done" if over else "play"}

    # -- the matador run (§10.4): counted on the hombre's hand at the first lead
    def _declare(self, state: LHombreState, move: Declare) -> LHombreState:
        trump = state.trump_suit()
        cards = tuple(move.cards)
        order = ombre.trump_order(trump)
        if cards != order[: len(cards)]:
            raise ImpossibleMove(
                "lhombre.matadors_run",
                _("declare the unbroken run of top trumps from the espadille, highest first"),
                field="cards",
            )
        known = self.run_length(state)
        if known is not None and known != len(cards):
            raise ImpossibleMove(
                "lhombre.matadors_wrong",
                _("the hombre's run is {count} cards, not {given}"),
                field="cards",
                count=known,
                given=len(cards),
            )
        if not state.deal_known:
            mine, out = self._seen(state)
            if any(c in out for c in cards) or (len(cards) < len(order) and order[len(cards)] in mine):
                raise ImpossibleMove(
                    "lhombre.matadors_wrong", _("the cards played contradict this run"), field="cards"
                )
        return evolve(state, declared=cards)

    def _seen(self, state: LHombreState) -> tuple[frozenset[str], frozenset[str]]:
        """Deal unknown: cards the hombre played, and cards known not to be in his hand at the first lead."""
        tp = state.tricks
        mine = frozenset(c for t in (*tp.done, tp.current) for s, c in t.plays if s == state.hombre)
        return mine, state.hands.gone - mine

    def run_length(self, state: LHombreState) -> int | None:
        """The hombre's matador run at the first lead, or None when the cards seen do not settle it."""
        trump = state.trump_suit()
        if state.first_hand is not None:
            return len(matador_run(state.first_hand, trump))
        if state.declared is not None:
            return len(state.declared)
        mine, out = self._seen(state)
        return deduced_run(mine, out, trump, complete=len(mine) == HAND_SIZE)

    def _require_matadors(self, state: LHombreState, what: str) -> None:
        """Refuse ``what`` (``claim`` or ``stop``) while the hombre's matador run is not known."""
        if self.run_length(state) is None:
            if what == "claim":
                template = _("the deal is not recorded: the hombre declares his matador run before a claim")
            else:
                template = _("the deal is not recorded: the hombre declares his matador run before stopping")
            raise ImpossibleMove("lhombre.matadors_unknown", template, field="type")

    # ---- claims (§9) ----------------------------------------------------------------------------
    def check_claim(self, state: LHombreState, claim: Claim) -> None:
        super().check_claim(state, claim)
        self._require_matadors(state, "claim")

    def _settle_claim(self, state: LHombreState, claim: Claim) -> LHombreState:
        won = self._claimed_tricks(state, claim)
        vole = state.vole
        if state.deciding and claim.seat == state.hombre and won[state.the_hombre()] == TRICKS:
            vole = "continuation"  # claiming all the rest after five straight tricks is going on (§9)
        return evolve(state, claimed=won, vole=vole, phase="done")

    # ---- results --------------------------------------------------------------------------------
    def outcome(self, state: LHombreState) -> ledger.Outcome:
        """What the finished hand tells the ledger."""
        if state.hombre is None or state.play is None:
            if state.espadille is not None and state.espadille[0] == "concealed":
                return ledger.Outcome(kind=ledger.CONCEALED, maker=state.espadille[1])
            return ledger.Outcome(kind=ledger.ALL_PASS)
        tricks = self.tricks_by_seat(state)
        kind, codille = ledger.classify(state.hombre, tricks, vole=state.vole is not None)
        run = self.run_length(state)
        assert run is not None, "the matador run is settled before the hand can end"
        return ledger.Outcome(
            kind=kind,
            hombre=state.hombre,
            tricks=tricks,
            codille=codille,
            matadors=run,
            sans_prendre=state.contract in (SANS_PRENDRE, VOLE),
        )

    def _result(self, state: LHombreState) -> HandResult:
        outcome = self.outcome(state)
        settlement = ledger.settle(state.table, outcome, odd_chips=str(state.options["odd_chips"]))
        scores: tuple[Score, ...] = settlement.deltas
        details: dict[str, Any] = {
            "dealer": state.dealer,
            "calls": [[s, c] for s, c in state.calls],
            "ledger": outcome.as_dict(),
            "ledger_scores": [ledger.chips_str(d) for d in scores],
            "poule": settlement.poule,
            "settlement": settlement.as_row(),
        }
        if state.espadille is not None:
            details["espadille"] = {"how": state.espadille[0], "seat": state.espadille[1]}
        teams: tuple[tuple[int, ...], ...] = ()
        team_scores: tuple[Score, ...] = ()
        if outcome.hombre is not None:
            hombre = outcome.hombre
            run = outcome.matadors
            details.update(
                hombre=hombre,
                defenders=list(outcome.defenders),
                contract=state.contract,
                forced=state.forced,
                trump=state.trump,
                tricks=list(outcome.tricks),
                codille=outcome.codille,
                most=outcome.most,
                vole=state.vole,
                stopped=state.stopped,
                claimed=state.claimed is not None,
                matadors=run,
                matador_cards=list(ombre.trump_order(state.trump_suit())[:run]),
                sans_prendre=outcome.sans_prendre,
                exchanges=[[s, n] for s, n in state.exchanges],
                talon=state.talon_shown,
            )
            teams = ((hombre,), outcome.defenders)
            defence = sum((Fraction(scores[s]) for s in outcome.defenders), Fraction(0))
            team_scores = (scores[hombre], ledger.exact(defence))
        return HandResult(
            outcome.kind,
            scores,
            unit=self.score_unit,
            teams=teams,
            team_scores=team_scores,
            details=details,
            outcome_text=_outcome_text(outcome, state.contract),
        )

    # ---- the evening ----------------------------------------------------------------------------
    def match_context(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> dict[str, Any]:
        """The ledger the next hand is played on (chips, pot, bêtes in play and waiting)."""
        return {"ledger": self.evening(options, results).running.as_dict()}

    def evening(self, options: Mapping[str, Any], results: Sequence[HandResult]) -> ledger.Evening:
        """Every hand folded through the ledger, with the director's score changes applied as direct
        payments (the difference between a hand's scores and what the ledger gave it)."""
        values = self.ruleset.validate(options)
        outcomes = [ledger.Outcome.from_dict(r.details["ledger"]) for r in results]
        adjustments: list[tuple[Score, ...] | None] = []
        for r in results:
            given = r.details.get("ledger_scores")
            if given is None:
                adjustments.append(None)
                continue
            base = [Fraction(str(g)) for g in given]
            adjustments.append(
                tuple(ledger.exact(Fraction(s) - b) for s, b in zip(r.scores, base, strict=True))
            )
        return ledger.evening(
            outcomes,
            start_chips=int(values["start_chips"]),
            odd_chips=str(values["odd_chips"]),
            poules=int(values["poules"]),
            extension=str(values["extension"]),
            adjustments=adjustments,
        )

    def match_result(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> MatchResult:
        """The evening's sheet: after every hand each player's chips, the pot, the bête in play and the
        waiting bêtes with their makers; totals are chips won or lost (after the final settlement once the
        agreed poules, and any extension, are played)."""
        values = self.ruleset.validate(options)
        start = int(values["start_chips"])
        evening = self.evening(values, results)
        rows: list[dict[str, Any]] = []
        for s, r in zip(evening.settlements, results, strict=False):
            row = s.as_row()
            row.update(
                outcome_text=None if r.outcome_text is None else r.outcome_text.as_dict(),
                dealer=r.details.get("dealer"),
                contract=r.details.get("contract"),
                trump=r.details.get("trump"),
                vole=r.details.get("vole"),
                ruled=r.details.get("ruled", []),
            )
            rows.append(row)
        table = evening.ledger
        totals: tuple[Score, ...] = tuple(ledger.exact(Fraction(c) - start) for c in table.chips)
        winners: tuple[int, ...] = ()
        if evening.finished:
            best = max(totals)
            winners = tuple(s for s in range(seats) if totals[s] == best)
        return MatchResult(
            totals=totals,
            finished=evening.finished,
            winners=winners,
            rows=tuple(rows),
            details={
                "unit": self.score_unit,
                "start_chips": start,
                "poules": values["poules"],
                "extension": values["extension"],
                "drawn": table.drawn,
                "reached_at": evening.reached_at,
                "ended_at": evening.ended_at,
                "ignored_hands": evening.ignored,
                "chips": [ledger.chips_str(c) for c in table.chips],
                "pot": table.pot,
                "bete_in_play": table.live.as_dict() if table.live else None,
                "waiting_betes": [b.as_dict() for b in table.queue],
                "final_settlement": evening.finished,
            },
        )


def _outcome_text(outcome: ledger.Outcome, contract: str | None) -> Text:
    """What a hand came to, for a user: the outcome's kind with the players it concerns."""
    kind = outcome.kind
    if kind == ledger.ALL_PASS:
        return Text(_("all passed: the deal is thrown in"))
    if kind == ledger.CONCEALED:
        return Text(_("{seat} concealed the espadille and makes the bête"), {"seat": outcome.maker})
    hombre = outcome.hombre
    assert hombre is not None
    tricks = outcome.tricks[hombre]
    if kind == ledger.WIN:
        return Text(
            _("{hombre} wins the {call} with {tricks} tricks"),
            {"hombre": hombre, "call": contract, "tricks": tricks},
        )
    if kind == ledger.REMISE:
        return Text(
            _("remise: {hombre} does not win the {call} ({tricks} tricks) and makes the bête"),
            {"hombre": hombre, "call": contract, "tricks": tricks},
        )
    if kind == ledger.REMISE_PAR_TROIS:
        return Text(_("remise par trois: three tricks each, {hombre} makes the bête"), {"hombre": hombre})
    if kind == ledger.CODILLE:
        return Text(
            _("codille: {winner} wins against the {call} of {hombre}"),
            {"winner": outcome.codille, "call": contract, "hombre": hombre},
        )
    if kind == ledger.VOLE_WON:
        return Text(_("{hombre} wins the vole"), {"hombre": hombre})
    return Text(_("{hombre} fails the vole with {tricks} tricks"), {"hombre": hombre, "tricks": tricks})


__all__ = ["CALLS", "LHombre", "LHombreState", "deduced_run", "exchange_limit", "matador_run"]
