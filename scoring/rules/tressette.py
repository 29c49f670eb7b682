"""Tressette: 40 Italian cards, 4 players in two pairs or 3 each alone, points counted in thirds.

The rules are those of ``docs/rules/tressette.md`` (spec: the shared rules file, seed 004). Card points are
kept exact in *thirds* ("units") and rounded only when a side's score is made: by default the seed's way
(partners' thirds added, last trick one third, rounded to the nearest point), or the traditional way
(fractions dropped, last trick one whole point). Buongioco declarations are ``Declare`` moves with the exact
cards; a match goes to a target (31) or to a number of deals won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any, ClassVar

from . import tricks
from .cards import LATIN_40, rank_of, suit_of
from .core import ONLY, Game, HandResult, HandState, MatchResult, Step, Verdict, evolve
from .errors import ImpossibleMove, Text, _, literal
from .moves import Call, Claim, ClaimResponse, Deal, Declare, Move, PlayCard
from .options import Option, Ruleset

# Trick order, low to high: 4 5 6 7 J Q K A 2 3 (the seed's 3, 2, 1, 10, 9, 8, 7, 6, 5, 4 read upwards).
ORDER = ("4", "5", "6", "7", "J", "Q", "K", "A", "2", "3")
STRENGTH = tricks.ranked(ORDER)

# Card values in thirds of a point: Ace 3, the 3, 2 and face cards 1, the rest nothing (32 in the pack).
UNITS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1}
LAST_TRICK_UNITS = 1  # seed mode; the traditional mode gives one whole point instead

# Buongioco: name -> (rank, number of cards, points); the napoletana is A-2-3 of one suit, 3 points.
OF_A_KIND = {
    "three_aces": ("A", 3, 3),
    "four_aces": ("A", 4, 4),
    "three_twos": ("2", 3, 3),
    "four_twos": ("2", 4, 4),
    "three_threes": ("3", 3, 3),
    "four_threes": ("3", 4, 4),
}
NAPOLETANA = "napoletana"
NAPOLETANA_POINTS = 3
COMBINATIONS = (*OF_A_KIND, NAPOLETANA)
_KIND_NAMES = {
    "A": ("three_aces", "four_aces"),
    "2": ("three_twos", "four_twos"),
    "3": ("three_threes", "four_threes"),
}

WINDOW_LIMIT = {"seed": 2, "first_three_tricks": 3}  # declare before one's own card to this trick

# How a declaration stands: it scores, or the rule of the verdict it drew (said at the table, so recorded).
VALID = "valid"
WINDOW = "tressette.window"
ALREADY = "tressette.already_declared"
FALSE = "tressette.false_declaration"


def card_units(cards: Sequence[str]) -> int:
    """The value of some cards in thirds of a point."""
    return sum(UNITS.get(rank_of(c), 0) for c in cards)


def sides_of(seats: int) -> tuple[tuple[int, ...], ...]:
    """The scoring sides: partners opposite with four players (0+2 against 1+3), each alone with three."""
    return ((0, 2), (1, 3)) if seats == 4 else tuple((s,) for s in range(seats))


def side_of(seats: int, seat: int) -> int:
    return seat % 2 if seats == 4 else seat


def side_label(side: Sequence[int]) -> str:
    return ("seats " if len(side) > 1 else "seat ") + "+".join(str(s) for s in side)


@dataclass(frozen=True)
class Refutation:
    """Why a declared card was not in the declarer's hand: ``played_by`` another seat (``seat``),
    ``gone`` before the declaration, or ``dealt_to`` another seat by the recorded deal."""

    reason: str
    card: str
    seat: int | None = None


@dataclass(frozen=True)
class Declaration:
    """A buongioco as declared. Whether it scores is its ``ruling``: ``VALID``, the rule of the verdict it
    drew, or ``None`` while it hangs on cards not yet seen (deal not recorded). ``late``: made outside the
    declarer's window; ``unseen``: (deal not recorded) the cards the declarer has not yet been seen to play;
    ``refuted``: why the cards were not all in his hand, once that is shown (a :class:`Refutation`)."""

    seat: int
    combination: str
    cards: tuple[str, ...]
    points: int
    key: str  # one per rank set or per napoletana suit in a deal
    move_index: int
    trick: int
    late: bool = False
    unseen: frozenset[str] = frozenset()
    refuted: Refutation | None = None
    ruling: str | None = None

    def as_dict(self) -> dict[str, Any]:
        valid = self.ruling == VALID
        return {
            "seat": self.seat,
            "combination": self.combination,
            "cards": list(self.cards),
            "points": self.points if valid else 0,
            "valid": valid,
            "move_index": self.move_index,
            "trick": self.trick,
        }


def rulings(declarations: Sequence[Declaration], *, final: bool) -> tuple[str | None, ...]:
    """How each declaration stands, in the order they were made: ``VALID``, or the verdict's rule
    (``WINDOW`` made outside the window; ``ALREADY`` its rank set or napoletana was already declared by a
    valid declaration; ``FALSE`` its cards were not all in the declarer's hand), or ``None`` while that
    depends on cards not yet seen. ``final``: the hand is over, cards never seen (after a claim) are taken
    as held."""
    out: list[str | None] = []
    for i, d in enumerate(declarations):
        earlier = [out[j] for j in range(i) if declarations[j].key == d.key]
        if d.late:
            ruling: str | None = WINDOW
        elif VALID in earlier:
            ruling = ALREADY
        elif None in earlier:
            ruling = None  # an earlier one may still prove valid
        elif d.refuted is not None:
            ruling = FALSE
        elif d.unseen and not final:
            ruling = None
        else:
            ruling = VALID
        out.append(ruling)
    return tuple(out)


@dataclass(frozen=True)
class CallOut:
    """A "chiamarsi fuori" call: the side's sure points at that moment, and (with the match known) whether
    its match total reaches the target."""

    seat: int
    side: int
    sure_points: int
    total_before: int | None
    target: int
    move_index: int

    @property
    def correct(self) -> bool | None:
        return None if self.total_before is None else self.total_before + self.sure_points >= self.target


@dataclass(frozen=True, kw_only=True)
class TressetteState(HandState):
    play: tricks.TrickPlay | None = None
    declarations: tuple[Declaration, ...] = ()
    claimed_cards: tuple[str, ...] = ()  # the cards still in hand when a claim of the rest was accepted
    call_out: CallOut | None = None

    @property
    def trickplay(self) -> tricks.TrickPlay:
        if self.play is None:
            raise AssertionError("no play yet")
        return self.play

    @property
    def hand_size(self) -> int:
        return 10 if self.seats == 4 else 13


class Tressette(Game[TressetteState]):
    """Tressette for four in pairs or three each alone (seed 004)."""

    name: ClassVar[str] = "tressette"
    title: ClassVar[str] = _("Tressette")
    deck = LATIN_40
    seat_counts: ClassVar[tuple[int, ...]] = (4, 3)
    score_unit: ClassVar[str] = "points"
    ruleset: ClassVar[Ruleset] = Ruleset(
        (
            Option(
                "removed_four",
                "4C",
                _("With three players, the 4 taken out of the pack."),
                choices=("4C", "4S", "4H", "4D"),
            ),
            Option(
                "rounding",
                "seed",
                _(
                    "seed: last trick 1/3, a side's thirds rounded to the nearest point (11 per deal); "
                    "traditional: fractions dropped, last trick 1 whole point."
                ),
                choices=("seed", "traditional"),
            ),
            Option(
                "team_rounding",
                "sum_then_round",
                _(
                    "sum_then_round: partners' thirds added, then rounded; per_player: each partner rounded, "
                    "then added (breaks the 11 points per deal)."
                ),
                choices=("sum_then_round", "per_player"),
            ),
            Option(
                "declaration_window",
                "seed",
                _(
                    "seed: until one's own card to trick 2; end_of_first_trick: after trick 1, "
                    "before trick 2 is led, trick-1 cards still counting; first_three_tricks: "
                    "until one's own card to trick 3."
                ),
                choices=("seed", "end_of_first_trick", "first_three_tricks"),
            ),
            Option(
                "match_format",
                "points",
                _("points: first side to the target; deals_won: first to win N deals."),
                choices=("points", "deals_won"),
            ),
            Option("target", 31, _("Points that win the match (match_format points)."), kind=int, minimum=1),
            Option(
                "deals_to_win",
                3,
                _("Deals that win the match (match_format deals_won)."),
                kind=int,
                minimum=1,
            ),
            Option(
                "chiamarsi_fuori",
                False,
                _(
                    "A side may call itself out during a deal (Call 'fuori'): right, it wins the match "
                    "at once; wrong, it loses it. Points format only."
                ),
                kind=bool,
            ),
        )
    )

    # ---- setting up ------------------------------------------------------------------------------
    def _initial(
        self, options: dict[str, Any], seats: int, dealer: int, context: dict[str, Any]
    ) -> TressetteState:
        return TressetteState(options=options, seats=seats, dealer=dealer, context=context)

    def deck_cards(self, options: Mapping[str, Any], seats: int) -> tuple[str, ...]:
        if seats == 3:
            removed = options.get("removed_four", "4C")
            return tuple(c for c in self.deck.cards if c != removed)
        return self.deck.cards

    def deal_shape(self, state: TressetteState) -> tuple[tuple[int, ...], int]:
        return (state.hand_size,) * state.seats, 0

    def _after_deal(self, state: TressetteState, deal: Deal) -> TressetteState:
        # The player after the dealer (on his right) receives the first card and leads the first trick.
        leader = state.next_seat(state.dealer)
        return evolve(state, phase="play", play=tricks.TrickPlay.start(state.seats, leader))

    def next_dealer(
        self, options: Mapping[str, Any], seats: int, dealer: int, result: HandResult | None
    ) -> int:
        return (dealer + 1) % seats

    # ---- who acts --------------------------------------------------------------------------------
    def actors(self, state: TressetteState, move: Move) -> frozenset[int | None]:
        if state.phase != "play":
            return frozenset()
        if isinstance(move, PlayCard):
            return ONLY[state.trickplay.to_play()]
        if isinstance(move, Declare):
            # Anyone may speak at any time; a declaration outside the window draws a verdict.
            return frozenset(range(state.seats))
        if isinstance(move, Call) and self._fuori_allowed(state.options):
            return frozenset(range(state.seats))
        return frozenset()

    def to_act(self, state: TressetteState) -> frozenset[int]:
        if state.over or state.phase != "play":
            return frozenset()
        if state.claim is not None:
            return frozenset(
                s for s in range(state.seats) if s != state.claim.seat and s not in state.claim_accepted
            )
        return frozenset({state.trickplay.to_play()})

    def in_window(self, state: TressetteState, seat: int) -> bool:
        """Whether ``seat`` may still declare a buongioco (option ``declaration_window``)."""
        if state.phase != "play" or state.over:
            return False
        play = state.trickplay
        window = state.options["declaration_window"]
        if window == "end_of_first_trick":
            return len(play.done) == 1 and play.leading
        played = len(play.done) + (1 if any(s == seat for s, _ in play.current.plays) else 0)
        return played < WINDOW_LIMIT[window]

    # ---- legal moves -----------------------------------------------------------------------------
    def _legal(self, state: TressetteState) -> list[Move]:
        if state.phase != "play":
            return []
        play = state.trickplay
        seat = play.to_play()
        holdings = state.hands
        if holdings.hands is None:
            # Deal not recorded: any card still out could be in this hand; no declaration can be offered.
            if holdings.counts[seat] <= 0:
                return []
            return [PlayCard(seat=seat, card=c) for c in self.deck.sort(holdings.deck - holdings.gone)]
        hand = holdings.hand(seat)
        led = play.current.led
        follow = [c for c in hand if led is not None and suit_of(c) == suit_of(led)]
        moves: list[Move] = [PlayCard(seat=seat, card=c) for c in self.deck.sort(follow or hand)]
        return moves + self._declarable(state)

    def _declarable(self, state: TressetteState) -> list[Move]:
        """Every declaration a seat inside its window could make now with the cards it holds."""
        used = {d.key for d in state.declarations if d.ruling == VALID}
        out: list[Move] = []
        for seat in range(state.seats):
            if not self.in_window(state, seat):
                continue
            held = state.hands.hand(seat) | self._trick_one_card(state, seat)
            for rank, (three, four) in _KIND_NAMES.items():
                if f"rank:{rank}" in used:
                    continue
                same = self.deck.sort(c for c in held if rank_of(c) == rank)
                out += [Declare(seat=seat, combination=three, cards=trio) for trio in combinations(same, 3)]
                if len(same) == 4:
                    out.append(Declare(seat=seat, combination=four, cards=same))
            for suit in "DHSC":
                cards = (f"A{suit}", f"2{suit}", f"3{suit}")
                if f"napoletana:{suit}" not in used and all(c in held for c in cards):
                    out.append(Declare(seat=seat, combination=NAPOLETANA, cards=cards))
        return out

    def _trick_one_card(self, state: TressetteState, seat: int) -> frozenset[str]:
        """Under the end_of_first_trick window, the card a seat played to trick 1 still counts."""
        play = state.trickplay
        if state.options["declaration_window"] != "end_of_first_trick" or not play.done:
            return frozenset()
        return frozenset(c for s, c in play.done[0].plays if s == seat)

    # ---- checks made before the core's turn check ------------------------------------------------
    def apply(self, state: TressetteState, move: Move) -> Step[TressetteState]:
        """As the core, with Tressette's own code for a call that is not used at this table."""
        if isinstance(move, Call):
            seat = move.seat
            if (
                not state.over
                and state.phase == "play"
                and state.claim is None
                and isinstance(seat, int)
                and not isinstance(seat, bool)
                and 0 <= seat < state.seats
            ):
                self._check_call(state, move)
        return super().apply(state, move)

    # ---- applying moves --------------------------------------------------------------------------
    def _apply(self, state: TressetteState, move: Move) -> tuple[TressetteState, list[Verdict]]:
        if isinstance(move, PlayCard):
            new, verdicts = self._play(state, move)
        elif isinstance(move, Declare):
            new, verdicts = self._declare(state, move), []
        elif isinstance(move, Call):
            new, verdicts = self._call_out(state, move), []
        else:
            raise AssertionError(f"unexpected move {move!r}")  # actors() lets nothing else through
        new, settled = self._settle_declarations(new)
        return new, verdicts + settled

    def _claim_response(
        self, state: TressetteState, answer: ClaimResponse
    ) -> tuple[TressetteState, list[Verdict]]:
        """As the core; a claim accepted ends the deal, which settles the declarations still open."""
        new, verdicts = super()._claim_response(state, answer)
        new, settled = self._settle_declarations(new)
        return new, verdicts + settled

    def _play(self, state: TressetteState, move: PlayCard) -> tuple[TressetteState, list[Verdict]]:
        assert move.seat is not None
        seat, card = move.seat, move.card
        self.deck.check(card)
        holdings = state.hands.remove_card(seat, card)
        play = state.trickplay
        led = play.current.led
        if state.pending or (led is not None and suit_of(card) != suit_of(led)):
            pending, verdicts = tricks.follow_suit(state, seat, card, led=led, trick=play.number)
        else:
            pending, verdicts = state.pending, []  # what follow_suit says of a lead or a card of the suit led
        new_play = play.play(seat, card, STRENGTH)
        over = len(new_play.done) == state.hand_size
        new = evolve(
            state,
            holdings=holdings,
            pending=pending,
            play=new_play,
            declarations=self._watch_declarations(state, seat, card),
            over=over,
            phase="done" if over else "play",
        )
        return new, verdicts

    def _watch_declarations(self, state: TressetteState, seat: int, card: str) -> tuple[Declaration, ...]:
        """Deal not recorded: a declared card played by its declarer confirms it; played by anyone else, it
        shows the declarer did not hold it."""
        if not state.declarations:
            return ()
        out: list[Declaration] = []
        for d in state.declarations:
            if card in d.unseen and d.refuted is None:
                if seat == d.seat:
                    d = evolve(d, unseen=d.unseen - {card})
                else:
                    d = evolve(d, refuted=Refutation("played_by", card, seat))
            out.append(d)
        return tuple(out)

    def _declare(self, state: TressetteState, move: Declare) -> TressetteState:
        """Record what was said: only a combination that cannot be named is refused. Whether it scores is
        settled by :func:`rulings`, at once with the deal recorded, as its cards are played without."""
        assert move.seat is not None
        seat = move.seat
        cards, points, key = self.parse_combination(move.combination, move.cards)
        holdings = state.hands
        extra = self._trick_one_card(state, seat)
        refuted: Refutation | None = None
        for card in cards:
            if card not in holdings.deck:
                raise ImpossibleMove(
                    "card.unknown", _("{card} is not in the deck of this hand"), field="cards", card=card
                )
            if refuted is not None or card in extra:
                continue
            if card in holdings.gone:
                refuted = Refutation("gone", card)
            elif holdings.hands is not None and card not in holdings.hand(seat):
                owner = next(s for s, h in enumerate(holdings.hands) if card in h)
                refuted = Refutation("dealt_to", card, owner)
        unseen = frozenset() if holdings.known else frozenset(cards) - extra
        declaration = Declaration(
            seat=seat,
            combination=move.combination,
            cards=cards,
            points=points,
            key=key,
            move_index=state.move_index,
            trick=state.trickplay.number,
            late=not self.in_window(state, seat),
            unseen=unseen,
            refuted=refuted,
        )
        return evolve(state, declarations=state.declarations + (declaration,))

    def _settle_declarations(self, state: TressetteState) -> tuple[TressetteState, list[Verdict]]:
        """Give each declaration whose standing is now known its ruling, and a verdict if it does not score:
        on the declaration itself when known there, else pointing back at it from the move that settled it
        (deal not recorded; the end of the deal settles every one)."""
        before = state.declarations
        if not before or all(d.ruling is not None for d in before):
            return state, []  # none declared, or every one settled for good
        now = rulings(before, final=state.over)
        if all(d.ruling == r for d, r in zip(before, now, strict=True)):
            return state, []
        # A ruling once given never changes: the facts it rests on are settled for good.
        state = evolve(
            state,
            declarations=tuple(
                evolve(d, ruling=r) if d.ruling is None else d for d, r in zip(before, now, strict=True)
            ),
        )
        verdicts: list[Verdict] = []
        for old, d in zip(before, state.declarations, strict=True):
            if old.ruling is None and d.ruling not in (None, VALID):
                assert d.ruling is not None
                template, params = self._declaration_message(state, d)
                proved_at = None if d.move_index == state.move_index else state.move_index
                verdicts.append(Verdict(d.ruling, d.seat, d.trick, template, d.move_index, proved_at, params))
        return state, verdicts

    def _declaration_message(self, state: TressetteState, d: Declaration) -> tuple[str, dict[str, Any]]:
        """The template and params of the verdict on a declaration that does not score."""
        params: dict[str, Any] = {"seat": d.seat, "combination": d.combination, "cards": list(d.cards)}
        if d.ruling == WINDOW:
            window = state.options["declaration_window"]
            if window == "end_of_first_trick":
                return _(
                    "{seat} declared {combination} ({cards}) outside his buongioco window (open only "
                    "after trick 1, before trick 2 is led): it does not score"
                ), params
            params["window_trick"] = WINDOW_LIMIT[window]
            return _(
                "{seat} declared {combination} ({cards}) outside his buongioco window (open until "
                "one's own card to trick {window_trick}): it does not score"
            ), params
        if d.ruling == ALREADY:
            first = next(e for e in state.declarations if e.key == d.key and e.ruling == VALID)
            params["declarer_seat"] = first.seat
            kind, value = d.key.split(":")
            if kind == "napoletana":
                params["suit"] = value
                return _(
                    "{seat} declared {combination} ({cards}), but the napoletana of {suit} had already "
                    "been declared by {declarer_seat} in this deal: it does not score"
                ), params
            if value == "A":
                return _(
                    "{seat} declared {combination} ({cards}), but the Aces had already been declared by "
                    "{declarer_seat} in this deal: it does not score"
                ), params
            if value == "2":
                return _(
                    "{seat} declared {combination} ({cards}), but the 2s had already been declared by "
                    "{declarer_seat} in this deal: it does not score"
                ), params
            return _(
                "{seat} declared {combination} ({cards}), but the 3s had already been declared by "
                "{declarer_seat} in this deal: it does not score"
            ), params
        refuted = d.refuted
        assert refuted is not None
        params["card"] = refuted.card
        if refuted.reason == "played_by":
            params["player_seat"] = refuted.seat
            return _(
                "{seat} declared {combination} ({cards}), but {player_seat} played {card}: it does not score"
            ), params
        if refuted.reason == "dealt_to":
            params["holder"] = refuted.seat
            return _(
                "{seat} declared {combination} ({cards}), but the recorded deal gives {card} to "
                "{holder}: it does not score"
            ), params
        return _(
            "{seat} declared {combination} ({cards}), but {card} had already been played: it does not score"
        ), params

    def parse_combination(self, combination: str, cards: Sequence[str]) -> tuple[tuple[str, ...], int, str]:
        """Check that ``cards`` form ``combination``; return the cards in deck order, points and key."""
        if combination not in COMBINATIONS:
            raise ImpossibleMove(
                "tressette.combination",
                _("unknown combination '{name}' (one of {names})"),
                field="combination",
                name=literal(combination),
                names=list(COMBINATIONS),
            )
        checked = tuple(self.deck.check(c, field="cards") for c in cards)
        if len(set(checked)) != len(checked):
            raise ImpossibleMove("tressette.combination", _("the same card is named twice"), field="cards")
        ordered = self.deck.sort(checked)
        if combination == NAPOLETANA:
            suits = {suit_of(c) for c in ordered}
            if len(ordered) != 3 or len(suits) != 1 or {rank_of(c) for c in ordered} != {"A", "2", "3"}:
                raise ImpossibleMove(
                    "tressette.combination", _("a napoletana is the Ace, 2 and 3 of one suit"), field="cards"
                )
            return ordered, NAPOLETANA_POINTS, f"napoletana:{suits.pop()}"
        rank, size, points = OF_A_KIND[combination]
        if len(ordered) != size or any(rank_of(c) != rank for c in ordered):
            raise ImpossibleMove(
                "tressette.combination",
                _("{combination} needs {count} cards of rank {rank}"),
                field="cards",
                combination=combination,
                count=size,
                rank=rank,
            )
        return ordered, points, f"rank:{rank}"

    # ---- what a what-if may re-score without playing again ----------------------------------------
    def score_only(self, options: Mapping[str, Any]) -> frozenset[str]:
        """The rounding (unless a side may call itself out: the call counts its sure points with it, and
        a claim's points are checked with it, so hands with claims are played again anyway) and the
        deals a match needs."""
        if self._fuori_allowed(options):
            return frozenset({"deals_to_win"})
        return frozenset({"rounding", "team_rounding", "deals_to_win"})

    def unread_options(self, state: TressetteState) -> frozenset[str]:
        """The buongioco window, in a hand where nobody declared: it decides only which declarations
        are offered and whether one counts, and a card is played the same under any window."""
        return frozenset() if state.declarations else frozenset({"declaration_window"})

    def play_context(self, options: Mapping[str, Any], context: Mapping[str, Any]) -> Mapping[str, Any]:
        """The sides' totals, read by a call of "fuori" only."""
        return context if self._fuori_allowed(options) else {}

    # ---- chiamarsi fuori -------------------------------------------------------------------------
    @staticmethod
    def _fuori_allowed(options: Mapping[str, Any]) -> bool:
        return bool(options["chiamarsi_fuori"]) and options["match_format"] == "points"

    def _check_call(self, state: TressetteState, move: Call) -> None:
        if move.call != "fuori":
            raise ImpossibleMove(
                "tressette.call",
                _("unknown call '{name}': the only call is 'fuori'"),
                field="call",
                name=literal(move.call),
            )
        if not self._fuori_allowed(state.options):
            raise ImpossibleMove(
                "tressette.call",
                _("calling oneself out is not used at this table (option chiamarsi_fuori, points format)"),
                field="call",
            )

    def _call_out(self, state: TressetteState, move: Call) -> TressetteState:
        assert move.seat is not None
        side = side_of(state.seats, move.seat)
        sure = self.sure_points(state)[side]
        totals = state.context.get("totals")
        before = int(totals[side]) if isinstance(totals, Sequence) and len(totals) > side else None
        call = CallOut(
            seat=move.seat,
            side=side,
            sure_points=sure,
            total_before=before,
            target=int(state.options["target"]),
            move_index=state.move_index,
        )
        return evolve(state, call_out=call, over=True, phase="done")

    def sure_points(self, state: TressetteState) -> tuple[int, ...]:
        """Per side, what it is already sure of in this deal: card points on the tricks taken so far (no
        last trick) plus its declarations that score (a declaration not yet shown false counts)."""
        units = self._units_by_seat(state)
        card = self._card_points(state, units, last=None)
        decl = self._declaration_points(state)
        return tuple(c + d for c, d in zip(card, decl, strict=True))

    # ---- claims ----------------------------------------------------------------------------------
    def can_claim(self, state: TressetteState, seat: int) -> bool:
        """The player on lead, between tricks, while tricks remain."""
        if state.phase != "play" or state.over or state.play is None:
            return False
        play = state.play
        return play.leading and seat == play.to_play() and len(play.done) < state.hand_size

    def check_claim(self, state: TressetteState, claim: Claim) -> None:
        remaining = state.hand_size - len(state.trickplay.done)
        if claim.tricks is not None and claim.split is not None:
            raise ImpossibleMove(
                "tressette.claim", _("a claim states either the tricks or the split, not both"), field="split"
            )
        if claim.tricks is not None and claim.tricks != remaining:
            raise ImpossibleMove(
                "tressette.claim",
                _("a Tressette claim takes all {count} remaining tricks, or states the card points split"),
                field="tricks",
                count=remaining,
            )
        if claim.split is None:
            return
        split = claim.split
        n = len(sides_of(state.seats))
        if len(split) != n or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in split):
            raise ImpossibleMove(
                "tressette.claim",
                _("the split gives the final card points of the {count} sides"),
                field="split",
                count=n,
            )
        low, high = self._points_range(state)
        if not low <= sum(split) <= high:
            if low == high:
                raise ImpossibleMove(
                    "tressette.claim",
                    _("the card points of a deal add up to {points}, not {given}"),
                    field="split",
                    points=low,
                    given=sum(split),
                )
            raise ImpossibleMove(
                "tressette.claim",
                _("the card points of a deal add up to {low} to {high}, not {given}"),
                field="split",
                low=low,
                high=high,
                given=sum(split),
            )
        sure = self._card_points(state, self._units_by_seat(state), last=None)
        for side, (value, floor) in enumerate(zip(split, sure, strict=True)):
            if value < floor:
                raise ImpossibleMove(
                    "tressette.claim",
                    _("{seats} already hold {points} points, not {given}"),
                    field="split",
                    seats=list(sides_of(state.seats)[side]),
                    points=floor,
                    given=value,
                )

    def _points_range(self, state: TressetteState) -> tuple[int, int]:
        """What the card points of all sides can add up to in a deal (see the invariants in the docs)."""
        seed = state.options["rounding"] == "seed"
        if state.seats == 4 and state.options["team_rounding"] == "sum_then_round":
            return 11, 11
        if state.seats == 4:
            return (10, 12) if seed else (9, 11)
        return (10, 12) if seed else (10, 11)

    def _settle_claim(self, state: TressetteState, claim: Claim) -> TressetteState:
        if claim.split is not None:
            return evolve(state, phase="done")
        holdings = state.hands
        rest = self.deck.sort(holdings.deck - holdings.gone)
        return evolve(state, phase="done", claimed_cards=rest)

    # ---- scoring ---------------------------------------------------------------------------------
    def _units_by_seat(self, state: TressetteState) -> list[int]:
        play = state.trickplay
        units = [card_units(play.captured(s)) for s in range(state.seats)]
        claim = state.settled_claim
        if claim is not None and claim.seat is not None and state.claimed_cards:
            units[claim.seat] += card_units(state.claimed_cards)
        return units

    def _last_trick(self, state: TressetteState) -> int | None:
        claim = state.settled_claim
        if claim is not None:
            return claim.seat if claim.split is None else None
        if state.call_out is not None:
            return None
        last = state.trickplay.last
        return last.winner if last is not None and len(state.trickplay.done) == state.hand_size else None

    def _card_points(self, state: TressetteState, units: Sequence[int], last: int | None) -> list[int]:
        """Card points per side from thirds per seat and the winner of the last trick (None: not yet)."""
        seed = state.options["rounding"] == "seed"
        per_player = state.options["team_rounding"] == "per_player"
        out = []
        for side in sides_of(state.seats):
            if per_player:
                if seed:
                    pts = sum((units[s] + (LAST_TRICK_UNITS if s == last else 0) + 1) // 3 for s in side)
                else:
                    pts = sum(units[s] // 3 for s in side) + (1 if last in side else 0)
            else:
                u = sum(units[s] for s in side)
                pts = (
                    (u + (LAST_TRICK_UNITS if last in side else 0) + 1) // 3
                    if seed
                    else u // 3 + (1 if last in side else 0)
                )
            out.append(pts)
        return out

    def _declaration_points(self, state: TressetteState) -> list[int]:
        """Per side, its declarations that score (those still open counted as held, as at the deal's end)."""
        out = [0] * len(sides_of(state.seats))
        for d, ruling in zip(state.declarations, rulings(state.declarations, final=True), strict=True):
            if ruling == VALID:
                out[side_of(state.seats, d.seat)] += d.points
        return out

    def _result(self, state: TressetteState) -> HandResult:
        seats = state.seats
        sides = sides_of(seats)
        play = state.trickplay
        units = self._units_by_seat(state)
        last = self._last_trick(state)
        claim = state.settled_claim
        if claim is not None and claim.split is not None:
            card_points = list(claim.split)
        else:
            card_points = self._card_points(state, units, last)
        decl = self._declaration_points(state)
        deal = [c + d for c, d in zip(card_points, decl, strict=True)]
        seed = state.options["rounding"] == "seed"
        side_units = [
            sum(units[s] for s in side) + (LAST_TRICK_UNITS if seed and last in side else 0) for side in sides
        ]
        best = max(deal)
        winner = deal.index(best) if deal.count(best) == 1 else None
        end = "fuori" if state.call_out is not None else ("claim" if claim is not None else "played")
        captured = [list(play.captured(s)) for s in range(seats)]
        if claim is not None and claim.seat is not None and state.claimed_cards:
            captured[claim.seat] += list(state.claimed_cards)
        details: dict[str, Any] = {
            "players": seats,
            "dealer": state.dealer,
            "rounding": state.options["rounding"],
            "team_rounding": state.options["team_rounding"],
            "sides": [list(s) for s in sides],
            "end": end,
            "thirds": units,
            "last_trick": last,
            "side_thirds": side_units,
            "exact_points": [Fraction(u, 3) for u in side_units],
            "card_points": card_points,
            "declarations": [d.as_dict() for d in state.declarations],
            "declaration_points": decl,
            "deal_scores": deal,
            "deal_winner": winner,
            "tricks_won": [play.tricks_won(s) for s in range(seats)],
            "captured": captured,
            "tricks": [t.as_dict() for t in play.done],
            "claim": None
            if claim is None
            else {
                "seat": claim.seat,
                "tricks": claim.tricks,
                "split": None if claim.split is None else list(claim.split),
            },
            "fuori": None,
        }
        if state.call_out is not None:
            c = state.call_out
            details["fuori"] = {
                "seat": c.seat,
                "side": c.side,
                "sure_points": c.sure_points,
                "total_before": c.total_before,
                "target": c.target,
                "correct": c.correct,
            }
        scores = tuple(deal[side_of(seats, s)] for s in range(seats))
        return HandResult(
            outcome=_outcome(sides, deal, winner, state.call_out),
            scores=scores,
            unit=self.score_unit,
            outcome_text=_outcome_text(sides, deal, winner, state.call_out),
            teams=sides if seats == 4 else (),
            team_scores=tuple(deal) if seats == 4 else (),
            details=details,
        )

    # ---- match -----------------------------------------------------------------------------------
    def match_result(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> MatchResult:
        """Points format: first side to the target; two or more over it after the same deal, the strictly
        highest wins, equal highest play on. Deals-won format: first to ``deals_to_win`` deals."""
        opts = self.ruleset.validate(options)
        sides = sides_of(seats)
        n = len(sides)
        points, deals = [0] * n, [0] * n
        rows: list[dict[str, Any]] = []
        finished, after_end = False, 0
        winning: tuple[int, ...] = ()
        by_points = opts["match_format"] == "points"
        target, needed = opts["target"], opts["deals_to_win"]
        for number, result in enumerate(results, start=1):
            if finished:
                after_end += 1
                continue
            # The scores as they stand (a director's ruling may have changed them), one per side.
            scores = [int(result.scores[side[0]]) for side in sides]
            before = list(points)
            points = [p + s for p, s in zip(points, scores, strict=True)]
            best = max(scores)
            deal_winner = scores.index(best) if scores.count(best) == 1 else None
            if deal_winner is not None:
                deals[deal_winner] += 1
            note = ""
            note_text: Text | None = None
            fuori = result.details.get("fuori")
            if fuori is not None and by_points:
                side = int(fuori["side"])
                correct = before[side] + int(fuori["sure_points"]) >= target
                finished = True
                if correct:
                    winning, note = (side,), f"{side_label(sides[side])} called out rightly"
                    note_text = Text(_("{seats} called out rightly"), {"seats": list(sides[side])})
                else:
                    others = [k for k in range(n) if k != side]
                    top = max(points[k] for k in others)
                    winning = tuple(k for k in others if points[k] == top)
                    note = f"{side_label(sides[side])} called out wrongly and lose the match"
                    note_text = Text(
                        _("{seats} called out wrongly and lose the match"), {"seats": list(sides[side])}
                    )
            elif by_points:
                top = max(points)
                leaders = tuple(k for k in range(n) if points[k] == top)
                if top >= target and len(leaders) == 1:
                    finished, winning = True, leaders
                elif top >= target:
                    note = "equal highest at or over the target: play on"
                    note_text = Text(_("equal highest at or over the target: play on"))
            elif max(deals) >= needed:
                finished, winning = True, tuple(k for k in range(n) if deals[k] >= needed)
            rows.append(
                {
                    "hand": number,
                    "dealer": result.details.get("dealer"),
                    "outcome": result.outcome,
                    "outcome_text": None if result.outcome_text is None else result.outcome_text.as_dict(),
                    "note_text": None if note_text is None else note_text.as_dict(),
                    "card_points": list(result.details.get("card_points", [])),
                    "declaration_points": list(result.details.get("declaration_points", [])),
                    "deal_scores": scores,
                    "deal_winner": deal_winner,
                    "points": list(points),
                    "deals_won": list(deals),
                    "note": note,
                }
            )
        measure = points if by_points else deals
        return MatchResult(
            totals=tuple(measure[side_of(seats, s)] for s in range(seats)),
            finished=finished,
            winners=tuple(sorted(s for k in winning for s in sides[k])),
            team_totals=tuple(measure) if seats == 4 else (),
            rows=tuple(rows),
            details={
                "format": opts["match_format"],
                "target": target,
                "deals_to_win": needed,
                "sides": [list(s) for s in sides],
                "points": points,
                "deals_won": deals,
                "hands_after_end": after_end,
            },
        )

    def match_context(
        self, options: Mapping[str, Any], seats: int, results: Sequence[HandResult]
    ) -> dict[str, Any]:
        """The sides' point totals before the new deal (for a "fuori" call)."""
        return {"totals": list(self.match_result(options, seats, results).details["points"])}


def _outcome(
    sides: Sequence[Sequence[int]], deal: Sequence[int], winner: int | None, call: CallOut | None
) -> str:
    score = ", ".join(f"{side_label(side)} {pts}" for side, pts in zip(sides, deal, strict=True))
    if call is not None:
        verdict = {True: "rightly", False: "wrongly", None: "(checked on the match sheet)"}[call.correct]
        return f"{side_label(sides[call.side])} call themselves out {verdict}: {score}"
    if winner is None:
        return f"{score}: deal tied"
    return f"{score}: {side_label(sides[winner])} win the deal"


def _outcome_text(
    sides: Sequence[Sequence[int]], deal: Sequence[int], winner: int | None, call: CallOut | None
) -> Text:
    """What :func:`_outcome` says, for translation: with pairs the side that won (or called out) and the
    points of both sides; with three players each one's points."""
    if len(sides) == 2:
        side = call.side if call is not None else winner if winner is not None else 0
        params: dict[str, Any] = {
            "seats": list(sides[side]),
            "points": deal[side],
            "other_points": deal[1 - side],
        }
        if call is not None and call.correct is None:
            return Text(
                _("{seats} call themselves out (checked on the match sheet), {points} to {other_points}"),
                params,
            )
        if call is not None and call.correct:
            return Text(_("{seats} call themselves out rightly, {points} to {other_points}"), params)
        if call is not None:
            return Text(_("{seats} call themselves out wrongly, {points} to {other_points}"), params)
        if winner is None:
            return Text(_("deal tied at {points}"), {"points": deal[0]})
        return Text(_("{seats} win the deal, {points} to {other_points}"), params)
    params = {
        "first_seat": 0,
        "first_points": deal[0],
        "second_seat": 1,
        "second_points": deal[1],
        "third_seat": 2,
        "third_points": deal[2],
    }
    if call is not None:
        params["seat"] = call.seat
        if call.correct is None:
            return Text(
                _(
                    "{seat} calls himself out (checked on the match sheet): {first_seat} "
                    "{first_points}, {second_seat} {second_points}, {third_seat} {third_points}"
                ),
                params,
            )
        if call.correct:
            return Text(
                _(
                    "{seat} calls himself out rightly: {first_seat} {first_points}, "
                    "{second_seat} {second_points}, {third_seat} {third_points}"
                ),
                params,
            )
        return Text(
            _(
                "{seat} calls himself out wrongly: {first_seat} {first_points}, "
                "{second_seat} {second_points}, {third_seat} {third_points}"
            ),
            params,
        )
    if winner is None:
        return Text(
            _(
                "{first_seat} {first_points}, {second_seat} {second_points}, {third_seat} "
                "{third_points}: deal tied"
            ),
            params,
        )
    params["winner"] = winner
    return Text(
        _(
            "{first_seat} {first_points}, {second_seat} {second_points}, {third_seat} "
            "{third_points}: {winner} wins the deal"
        ),
        params,
    )
