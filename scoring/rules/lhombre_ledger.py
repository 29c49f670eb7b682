"""The chip ledger of French L'Hombre: the poule, the bêtes, the bonuses and the end of the evening.

Pure functions over a sequence of hand outcomes (``docs/rules/lhombre.md`` §10–§11). The hand module
(:mod:`scoring.rules.lhombre`) says what happened at the table as an :class:`Outcome`; :func:`settle`
moves the chips for one hand, :func:`evening` folds a whole sequence and says when the evening ends, and
:func:`final_settlement` hands the pot back.

The model (LH-WHO-PAYS): a bête is an IOU ``(value, maker)``. It is no chip until the poule holding it is
drawn; then its maker pays its value into the pot and the pot is handed out. So the players' chips plus the
pot never change (``3 × start_chips``); bêtes are debts beside them. Bonuses (sans prendre, matadors) move
chips directly between the hombre and each defender and never enter a bête.

Seats are numbered in the order of play (counter-clockwise): the hombre's first defender D1 (his
right-hand neighbour, the first to exchange after him) is ``hombre + 1``, the other D2 ``hombre + 2``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

Chips = int | Fraction

PLAYERS = 3
STAKE = 3  # each player's stake at the start and after a poule is drawn
SMALL_STAKE = 2  # the stake when a bête goes into play, and the all-pass / remise addition
SANS_PRENDRE_BONUS = 6  # per defender
MATADOR_UNIT = 2  # per card of the run, per defender
MIN_MATADORS = 3

# Outcome kinds, in the game's own words.
ALL_PASS = "all_pass"
CONCEALED = "espadille_concealed"
WIN = "win"
REMISE = "remise"
REMISE_PAR_TROIS = "remise_par_trois"
CODILLE = "codille"
VOLE_WON = "vole_won"
VOLE_FAILED = "vole_failed"
PENALTY = "penalty_bete"
PLAYED = (WIN, REMISE, REMISE_PAR_TROIS, CODILLE, VOLE_WON, VOLE_FAILED)
KINDS = (ALL_PASS, CONCEALED, PENALTY, *PLAYED)
REMISES = (REMISE, REMISE_PAR_TROIS)

ODD_CHIPS = ("exact", "integer")
EXTENSIONS = ("none", "nine_more_deals", "until_bete_made", "until_bete_drawn")
EXTRA_DEALS = 9  # "the coups": three deals per player


def _norm(value: Chips) -> Chips:
    """Whole numbers as ints, halves as Fractions."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def exact(value: Fraction | int) -> Chips:
    """A chip amount in its plain form: an int when whole, else the Fraction (halves)."""
    return _norm(Fraction(value))


def chips_str(value: Chips) -> int | str:
    value = _norm(value)
    return value if isinstance(value, int) else str(value)


def _chips_from(value: Any) -> Chips:
    if isinstance(value, bool) or not isinstance(value, int | str | Fraction):
        raise ValueError(f"not a chip amount: {value!r}")
    return _norm(Fraction(value))


@dataclass(frozen=True)
class Bete:
    """A bête: a debt of ``value`` jetons owed by ``maker``, made at hand number ``made`` (1-based)."""

    value: int
    maker: int
    made: int

    def as_dict(self) -> dict[str, int]:
        return {"value": self.value, "maker": self.maker, "made": self.made}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Bete:
        return cls(value=int(data["value"]), maker=int(data["maker"]), made=int(data["made"]))


@dataclass(frozen=True)
class Ledger:
    """The table between two hands: chips in front of each player, the pot (the stakes on the table),
    the bête in play, the waiting bêtes (oldest first) and the poules drawn by an hombre so far."""

    chips: tuple[Chips, ...]
    pot: int
    live: Bete | None = None
    queue: tuple[Bete, ...] = ()
    drawn: int = 0
    hands: int = 0

    def __post_init__(self) -> None:
        assert len(self.chips) == PLAYERS, "L'Hombre is played by three"
        assert self.live is not None or not self.queue, "a bête waits only behind a bête in play"

    @property
    def poule(self) -> int:
        """What an hombre plays for: the stakes on the table plus the bête in play."""
        return self.pot + (self.live.value if self.live else 0)

    @property
    def betes(self) -> tuple[Bete, ...]:
        """Every outstanding bête: the one in play first, then the waiting ones."""
        return ((self.live,) if self.live else ()) + self.queue

    @property
    def total(self) -> Chips:
        """Chips plus pot: constant over the evening."""
        return _norm(sum(self.chips, Fraction(0)) + self.pot)

    def as_dict(self) -> dict[str, Any]:
        return {
            "chips": [chips_str(c) for c in self.chips],
            "pot": self.pot,
            "live": self.live.as_dict() if self.live else None,
            "queue": [b.as_dict() for b in self.queue],
            "drawn": self.drawn,
            "hands": self.hands,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ledger:
        live = data.get("live")
        return cls(
            chips=tuple(_chips_from(c) for c in data["chips"]),
            pot=int(data["pot"]),
            live=Bete.from_dict(live) if live else None,
            queue=tuple(Bete.from_dict(b) for b in data.get("queue", ())),
            drawn=int(data.get("drawn", 0)),
            hands=int(data.get("hands", 0)),
        )


def opening(start_chips: int = 400) -> Ledger:
    """The table before the first hand: each player has staked 3, the pot is 9."""
    return Ledger(chips=(start_chips - STAKE,) * PLAYERS, pot=STAKE * PLAYERS)


@dataclass(frozen=True)
class Outcome:
    """What a hand tells the ledger.

    ``tricks`` by seat; ``codille`` the defender who won codille; ``matadors`` the length of the hombre's
    unbroken run of top trumps from the espadille at the first lead; ``maker`` the player who made a bête
    without play (the concealed espadille, a director's penalty).
    """

    kind: str
    hombre: int | None = None
    tricks: tuple[int, ...] = (0, 0, 0)
    codille: int | None = None
    matadors: int = 0
    sans_prendre: bool = False
    maker: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown outcome {self.kind!r}")
        if self.kind in PLAYED:
            if self.hombre is None or not 0 <= self.hombre < PLAYERS:
                raise ValueError("a played hand needs its hombre")
            if len(self.tricks) != PLAYERS or sum(self.tricks) > 9 or min(self.tricks) < 0:
                raise ValueError(f"bad trick counts {self.tricks!r}")
        if self.kind == CODILLE and (self.codille is None or self.codille == self.hombre):
            raise ValueError("a codille needs the defender who won it")
        if self.kind in (CONCEALED, PENALTY) and (self.maker is None or not 0 <= self.maker < PLAYERS):
            raise ValueError(f"{self.kind} needs the player who makes the bête")

    @property
    def defenders(self) -> tuple[int, int]:
        """D1 (the hombre's right-hand neighbour) and D2."""
        assert self.hombre is not None
        return ((self.hombre + 1) % PLAYERS, (self.hombre + 2) % PLAYERS)

    @property
    def most(self) -> bool:
        """The hombre took more tricks than each defender."""
        assert self.hombre is not None
        h = self.tricks[self.hombre]
        return all(h > self.tricks[d] for d in self.defenders)

    @property
    def sign(self) -> int:
        """+1 when the bonuses are paid to the hombre, -1 when he pays them (§10.4)."""
        if self.kind in (WIN, VOLE_WON):
            return 1
        if self.kind == VOLE_FAILED:
            return 1 if self.most else -1
        return -1

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "hombre": self.hombre,
            "tricks": list(self.tricks),
            "codille": self.codille,
            "matadors": self.matadors,
            "sans_prendre": self.sans_prendre,
            "maker": self.maker,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            kind=str(data["kind"]),
            hombre=data.get("hombre"),
            tricks=tuple(int(t) for t in data.get("tricks", (0, 0, 0))),
            codille=data.get("codille"),
            matadors=int(data.get("matadors", 0)),
            sans_prendre=bool(data.get("sans_prendre", False)),
            maker=data.get("maker"),
        )


def classify(hombre: int, tricks: Sequence[int], *, vole: bool) -> tuple[str, int | None]:
    """The outcome of a played hand from the tricks by seat (§8) and, for a codille, who won it.

    Vole undertaken: all nine tricks or a failed vole. Otherwise: more than each defender wins; 4-4-1 and
    1-4-4 are remises, 3-3-3 a remise par trois; a single defender above both others wins codille.
    """
    h = tricks[hombre]
    d1, d2 = (hombre + 1) % PLAYERS, (hombre + 2) % PLAYERS
    a, b = tricks[d1], tricks[d2]
    if vole:
        return (VOLE_WON, None) if h == sum(tricks) == 9 else (VOLE_FAILED, None)
    if h > a and h > b:
        return WIN, None
    if a > h and a > b:
        return CODILLE, d1
    if b > h and b > a:
        return CODILLE, d2
    if h == a == b:
        return REMISE_PAR_TROIS, None
    return REMISE, None  # 4-4-1 (tied with one defender) or 1-4-4 (defenders tied above him)


def matador_bonus(run: int) -> int:
    """What each defender pays (or is paid) for a run of ``run`` top trumps: 2 per card, from three."""
    return MATADOR_UNIT * run if run >= MIN_MATADORS else 0


@dataclass(frozen=True)
class Settlement:
    """One hand through the ledger: the table before and after, and every movement in between."""

    number: int  # the hand's number in the evening, 1-based
    outcome: Outcome
    before: Ledger
    after: Ledger
    poule: int  # the poule the hand was played for
    deltas: tuple[Chips, ...]  # each player's change in chips this hand, the next stakes included
    collected: tuple[Bete, ...] = ()  # bêtes paid this hand (their makers paid them into the pot)
    made: Bete | None = None  # the bête made this hand
    pot_to: tuple[tuple[int, Chips], ...] = ()  # who took the pot, and how much
    doubling: tuple[tuple[int, Chips], ...] = ()  # a won vole's extra, by defender
    sans_prendre: int = 0  # paid by each defender to the hombre (negative: the hombre paid each)
    matadors: int = 0  # the same, for the matador run
    stake: int = 0  # what each player staked for the next hand
    drew_poule: bool = False  # an hombre drew the poule (win, won vole): counts towards the end

    def as_row(self) -> dict[str, Any]:
        return {
            "hand": self.number,
            "outcome": self.outcome.kind,
            "hombre": self.outcome.hombre,
            "codille": self.outcome.codille,
            "tricks": list(self.outcome.tricks) if self.outcome.kind in PLAYED else None,
            "poule": self.poule,
            "deltas": [chips_str(d) for d in self.deltas],
            "chips": [chips_str(c) for c in self.after.chips],
            "pot": self.after.pot,
            "bete_in_play": self.after.live.as_dict() if self.after.live else None,
            "waiting_betes": [b.as_dict() for b in self.after.queue],
            "collected": [b.as_dict() for b in self.collected],
            "made": self.made.as_dict() if self.made else None,
            "pot_to": [[seat, chips_str(amount)] for seat, amount in self.pot_to],
            "doubling": [[seat, chips_str(amount)] for seat, amount in self.doubling],
            "sans_prendre": self.sans_prendre,
            "matadors": self.matadors,
            "stake": self.stake,
            "drawn": self.after.drawn,
        }


class _Table:
    """The mutable scratch pad of one settlement (never escapes :func:`settle`)."""

    def __init__(self, ledger: Ledger) -> None:
        self.chips: list[Fraction] = [Fraction(c) for c in ledger.chips]
        self.pot = Fraction(ledger.pot)
        self.collected: list[Bete] = []
        self.pot_to: list[tuple[int, Chips]] = []

    def pay(self, payer: int, payee: int, amount: Fraction) -> None:
        self.chips[payer] -= amount
        self.chips[payee] += amount

    def collect(self, bete: Bete | None) -> None:
        """The maker of a bête pays its value into the pot (it is being drawn)."""
        if bete is None:
            return
        self.chips[bete.maker] -= bete.value
        self.pot += bete.value
        self.collected.append(bete)

    def take_pot(self, seat: int, amount: Fraction | None = None) -> None:
        amount = self.pot if amount is None else amount
        self.chips[seat] += amount
        self.pot -= amount
        self.pot_to.append((seat, _norm(amount)))

    def stake(self, each: int) -> None:
        for seat in range(PLAYERS):
            self.chips[seat] -= each
        self.pot += each * PLAYERS


def _largest(queue: Iterable[Bete]) -> Bete:
    """The bête to put in play next: the largest, ties to the earliest made (LH-NEXT-BETE)."""
    return max(queue, key=lambda b: (b.value, -b.made))


def settle(ledger: Ledger, outcome: Outcome, *, odd_chips: str = "exact") -> Settlement:
    """Settle one hand (§10.3): draw or carry the poule, make or collect bêtes, pay the bonuses, stake."""
    if odd_chips not in ODD_CHIPS:
        raise ValueError(f"odd_chips is one of {ODD_CHIPS}, not {odd_chips!r}")
    number = ledger.hands + 1
    poule = ledger.poule
    table = _Table(ledger)
    live, queue, drawn = ledger.live, ledger.queue, ledger.drawn
    made: Bete | None = None
    doubling: list[tuple[int, Chips]] = []
    drew = False
    kind = outcome.kind

    if kind == ALL_PASS:
        stake = SMALL_STAKE
    elif kind in (CONCEALED, PENALTY) or kind in REMISES:
        maker = outcome.maker if kind in (CONCEALED, PENALTY) else outcome.hombre
        assert maker is not None
        made = Bete(poule, maker, number)
        if live is None:
            live = made
        else:
            queue = queue + (made,)
        stake = SMALL_STAKE
    elif kind == WIN:
        assert outcome.hombre is not None
        table.collect(live)
        table.take_pot(outcome.hombre)
        drawn, drew = drawn + 1, True
        if queue:
            live = _largest(queue)
            queue = tuple(b for b in queue if b is not live)
            stake = SMALL_STAKE
        else:
            live, stake = None, STAKE
    elif kind == CODILLE:
        assert outcome.hombre is not None and outcome.codille is not None
        table.collect(live)
        table.take_pot(outcome.codille)
        made = Bete(poule, outcome.hombre, number)
        waiting = queue + (made,)
        live = _largest(waiting)
        queue = tuple(b for b in waiting if b is not live)
        stake = STAKE  # the codille exception: 3 even with a bête in play
    elif kind == VOLE_WON:
        assert outcome.hombre is not None
        count = len(ledger.betes)
        table.collect(live)
        if count >= 2:
            for bete in queue:
                table.collect(bete)
        table.take_pot(outcome.hombre)
        if count <= 1:
            # Double what he would have won without the vole: the extra poule, half from each defender.
            d1, d2 = outcome.defenders
            if odd_chips == "exact":
                shares = (Fraction(poule, 2), Fraction(poule, 2))
            else:
                shares = (Fraction((poule + 1) // 2), Fraction(poule // 2))
            for defender, share in zip((d1, d2), shares, strict=True):
                table.pay(defender, outcome.hombre, share)
                doubling.append((defender, _norm(share)))
        live, queue = None, ()
        drawn, drew = drawn + 1, True
        stake = STAKE
    elif kind == VOLE_FAILED:
        table.collect(live)
        for bete in queue:
            table.collect(bete)
        d1, d2 = outcome.defenders
        if odd_chips == "exact":
            half = table.pot / 2
            table.take_pot(d1, half)
            table.take_pot(d2)
        else:
            whole = int(table.pot)
            odd_to = d2 if outcome.tricks[d2] > outcome.tricks[d1] else d1
            other = d2 if odd_to == d1 else d1
            table.take_pot(odd_to, Fraction(whole - whole // 2))
            table.take_pot(other)
        live, queue = None, ()
        stake = STAKE
    else:  # pragma: no cover - Outcome checks the kind
        raise AssertionError(kind)

    sans, mats = 0, 0
    if kind in PLAYED:
        assert outcome.hombre is not None
        sign = outcome.sign
        sans = sign * SANS_PRENDRE_BONUS if outcome.sans_prendre else 0
        mats = sign * matador_bonus(outcome.matadors)
        for defender in outcome.defenders:
            table.pay(defender, outcome.hombre, Fraction(sans + mats))

    table.stake(stake)
    assert table.pot.denominator == 1 and table.pot % PLAYERS == 0, "the pot is staked equally"
    after = Ledger(
        chips=tuple(_norm(c) for c in table.chips),
        pot=int(table.pot),
        live=live,
        queue=queue,
        drawn=drawn,
        hands=number,
    )
    assert after.total == ledger.total, "chips are conserved"
    deltas = tuple(_norm(Fraction(a) - Fraction(b)) for a, b in zip(after.chips, ledger.chips, strict=True))
    return Settlement(
        number=number,
        outcome=outcome,
        before=ledger,
        after=after,
        poule=poule,
        deltas=deltas,
        collected=tuple(table.collected),
        made=made,
        pot_to=tuple(table.pot_to),
        doubling=tuple(doubling),
        sans_prendre=sans,
        matadors=mats,
        stake=stake,
        drew_poule=drew,
    )


def adjust(ledger: Ledger, deltas: Sequence[Chips]) -> Ledger:
    """Move chips directly between players (a director's ruling on a hand's scores)."""
    chips = tuple(_norm(Fraction(c) + Fraction(d)) for c, d in zip(ledger.chips, deltas, strict=True))
    return replace(ledger, chips=chips)


def final_settlement(ledger: Ledger) -> Ledger:
    """The end of the evening (§11): the stakes on the table go back, a third to each; bêtes lapse."""
    assert ledger.pot % PLAYERS == 0
    back = ledger.pot // PLAYERS
    return replace(ledger, chips=tuple(_norm(c + back) for c in ledger.chips), pot=0, live=None, queue=())


@dataclass(frozen=True)
class Evening:
    """A sequence of hands folded through the ledger, and where the evening ends."""

    opening: Ledger
    settlements: tuple[Settlement, ...]
    finished: bool
    reached_at: int | None  # the hand after which the agreed number of poules had been drawn
    ended_at: int | None  # the last hand of the evening, once it is over
    final: Ledger | None  # after the final settlement, once the evening is over
    ignored: int = 0  # hands recorded after the end (not folded)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def running(self) -> Ledger:
        """The table after the last hand folded, before any final settlement."""
        return self.settlements[-1].after if self.settlements else self.opening

    @property
    def ledger(self) -> Ledger:
        """The table now: after the final settlement if the evening is over."""
        return self.final if self.final is not None else self.running


def _ends_here(s: Settlement, reached_at: int, extension: str) -> bool:
    if extension == "none":
        return True
    if s.number == reached_at:
        return False  # the extension is played after the hand that reached the agreed number
    if extension == "nine_more_deals":
        return s.number - reached_at >= EXTRA_DEALS
    if extension == "until_bete_made":
        return s.made is not None
    return bool(s.collected)  # until_bete_drawn


def evening(
    outcomes: Iterable[Outcome],
    *,
    start_chips: int = 400,
    odd_chips: str = "exact",
    poules: int = 20,
    extension: str = "none",
    adjustments: Sequence[Sequence[Chips] | None] = (),
) -> Evening:
    """Fold hand outcomes through the ledger (§10) and stop at the end of the evening (§11).

    The evening ends once ``poules`` poules have been drawn by an hombre (codille does not count), then
    after the ``extension``: nine more deals, or up to the first hand that makes a bête or draws one.
    ``adjustments[i]``, when given, moves chips directly after hand ``i`` (a director's ruling).
    """
    if extension not in EXTENSIONS:
        raise ValueError(f"extension is one of {EXTENSIONS}, not {extension!r}")
    ledger = start = opening(start_chips)
    done: list[Settlement] = []
    if poules < 1:
        raise ValueError("an evening lasts at least one poule")
    reached_at: int | None = None
    ended_at: int | None = None
    ignored = 0
    for i, outcome in enumerate(outcomes):
        if ended_at is not None:
            ignored += 1
            continue
        s = settle(ledger, outcome, odd_chips=odd_chips)
        after = s.after
        extra = adjustments[i] if i < len(adjustments) else None
        if extra is not None and any(extra):
            after = adjust(after, extra)
            deltas = tuple(_norm(Fraction(d) + Fraction(e)) for d, e in zip(s.deltas, extra, strict=True))
            s = replace(s, after=after, deltas=deltas)
        done.append(s)
        ledger = after
        if reached_at is None and ledger.drawn >= poules:
            reached_at = s.number
        if reached_at is not None and _ends_here(s, reached_at, extension):
            ended_at = s.number
    finished = ended_at is not None
    return Evening(
        opening=start,
        settlements=tuple(done),
        finished=finished,
        reached_at=reached_at,
        ended_at=ended_at,
        final=final_settlement(ledger) if finished else None,
        ignored=ignored,
    )
