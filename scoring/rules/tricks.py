"""The trick-taking core every trick game builds on.

It knows tricks, leaders, winners and captured cards, and the follow-suit check in both recording
modes. What beats what is given by each game as a *strength* function: ``strength(card, led)`` returns a
comparable value for a card that can win the trick led by ``led``, or ``None`` for one that cannot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .cards import suit_of
from .core import HandState, Pending, Verdict, prove
from .errors import _

Strength = Callable[[str, str], "tuple[int, ...] | int | None"]

FOLLOW_SUIT = _("{seat} did not follow {lead} to trick {trick} while holding it")


@dataclass(frozen=True)
class Trick:
    """One trick: who led, the cards in order of play, and (once complete) who won it."""

    number: int  # 1-based
    leader: int
    plays: tuple[tuple[int, str], ...] = ()
    winner: int | None = None

    @property
    def led(self) -> str | None:
        return self.plays[0][1] if self.plays else None

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple([card for _seat, card in self.plays])

    def as_dict(self) -> dict[str, object]:
        return {
            "number": self.number,
            "leader": self.leader,
            "plays": [{"seat": s, "card": c} for s, c in self.plays],
            "winner": self.winner,
        }


def new_trick(
    number: int, leader: int, plays: tuple[tuple[int, str], ...], winner: int | None = None
) -> Trick:
    """``Trick(number, leader, plays, winner)`` without the frozen dataclass's ``__init__``, which sets
    its fields one ``object.__setattr__`` at a time: a trick is made at every card."""
    trick = _new(Trick)
    fields = trick.__dict__
    fields["number"] = number
    fields["leader"] = leader
    fields["plays"] = plays
    fields["winner"] = winner
    return trick


_new = object.__new__


def winner_of(plays: Sequence[tuple[int, str]], strength: Strength, led: str | None = None) -> int:
    """The seat whose card is strongest against the card led (the first card, unless ``led`` is given)."""
    led_card = led if led is not None else plays[0][1]
    best_seat, best = None, None
    for seat, card in plays:
        value = strength(card, led_card)
        if value is not None and (best is None or value > best):  # type: ignore[operator]
            best_seat, best = seat, value
    if best_seat is None:
        raise AssertionError(f"no card can win the trick {plays!r}")
    return best_seat


def ranked(order: Sequence[str], *, suit: Callable[[str], str] = suit_of) -> Callable[[str, str], int | None]:
    """A strength with no trumps: only cards of the suit led can win, ranked by ``order`` (low to high)."""
    index = {rank: i for i, rank in enumerate(order)}

    def strength(card: str, led: str) -> int | None:
        return index[card[:-1]] if suit(card) == suit(led) else None

    return strength


def with_trumps(order: Sequence[str], trump: str | None, *, suit: Callable[[str], str] = suit_of) -> Strength:
    """A strength where cards of suit ``trump`` beat every card of the suit led."""
    plain = ranked(order, suit=suit)

    def strength(card: str, led: str) -> tuple[int, int] | None:
        if trump is not None and suit(card) == trump:
            return (1, order.index(card[:-1]))
        value = plain(card, led)
        return None if value is None else (0, value)

    return strength


@dataclass(frozen=True)
class TrickPlay:
    """The trick part of a hand: the trick on the table and the finished ones."""

    seats: int
    current: Trick
    done: tuple[Trick, ...] = ()

    @classmethod
    def start(cls, seats: int, leader: int) -> TrickPlay:
        return cls(seats=seats, current=Trick(number=1, leader=leader))

    @property
    def number(self) -> int:
        """The number of the trick being played (1-based)."""
        return self.current.number

    @property
    def leading(self) -> bool:
        return not self.current.plays

    def to_play(self) -> int:
        return (self.current.leader + len(self.current.plays)) % self.seats

    def play(self, seat: int, card: str, strength: Strength, *, players: int | None = None) -> TrickPlay:
        """Add a card; once every player has played, the trick is closed and its winner leads the next."""
        current = self.current
        plays = current.plays
        if seat != (current.leader + len(plays)) % self.seats:
            raise AssertionError("the game must check the turn before calling play()")
        plays = (*plays, (seat, card))
        number, leader = current.number, current.leader
        if len(plays) < (players or self.seats):
            # new_trick and new_trick_play, without the calls (made at every card)
            trick = _new(Trick)
            fields = trick.__dict__
            fields["number"] = number
            fields["leader"] = leader
            fields["plays"] = plays
            fields["winner"] = None
            done = self.done
        else:
            winner = winner_of(plays, strength)
            trick = new_trick(number + 1, winner, ())
            done = (*self.done, new_trick(number, leader, plays, winner))
        made = _new(TrickPlay)
        fields = made.__dict__
        fields["seats"] = self.seats
        fields["current"] = trick
        fields["done"] = done
        return made

    def close(self, trick: Trick, winner: int) -> TrickPlay:
        finished = new_trick(trick.number, trick.leader, trick.plays, winner)
        return new_trick_play(self.seats, new_trick(trick.number + 1, winner, ()), (*self.done, finished))

    @property
    def last(self) -> Trick | None:
        return self.done[-1] if self.done else None

    def tricks_won(self, seat: int) -> int:
        return sum(1 for t in self.done if t.winner == seat)

    def captured(self, seat: int) -> tuple[str, ...]:
        return tuple([card for t in self.done if t.winner == seat for _seat, card in t.plays])

    def led_suits(self, suit: Callable[[str], str] = suit_of) -> frozenset[str]:
        """The suits led so far, the current trick included."""
        return frozenset(suit(t.led) for t in (*self.done, self.current) if t.led is not None)


def new_trick_play(seats: int, current: Trick, done: tuple[Trick, ...]) -> TrickPlay:
    """``TrickPlay(seats, current, done)`` without the frozen dataclass's ``__init__`` (see
    :func:`new_trick`)."""
    play = _new(TrickPlay)
    fields = play.__dict__
    fields["seats"] = seats
    fields["current"] = current
    fields["done"] = done
    return play


def follow_suit(
    state: HandState,
    seat: int,
    card: str,
    *,
    led: str | None,
    trick: int,
    suit: Callable[[str], str] = suit_of,
    rule: str = "follow_suit",
) -> tuple[tuple[Pending, ...], list[Verdict]]:
    """The follow-suit check in both recording modes, and the proof of earlier revokes.

    Deal known: a card off the suit led while holding that suit is a verdict now. Deal unknown: the same
    play only asserts a void (a :class:`Pending`); a later card of that suit from the same seat proves the
    revoke and the verdict points back at this move.
    """
    index = state.move_index
    played = suit(card)
    if state.pending:
        pending, verdicts = prove(state, seat, (f"suit:{played}",), index)
    else:
        pending, verdicts = (), []
    if led is None or played == suit(led):
        return pending, verdicts
    wanted = suit(led)
    if state.deal_known:
        if wanted in map(suit, state.hands.hand(seat)):  # holds a card of the suit led
            params = {"seat": seat, "lead": wanted, "trick": trick}
            verdicts.append(Verdict(rule, seat, trick, FOLLOW_SUIT, index, params=params))
    else:
        params = {"seat": seat, "lead": wanted, "trick": trick}
        pending = pending + (Pending(seat, f"suit:{wanted}", rule, FOLLOW_SUIT, index, trick, params),)
    return pending, verdicts


def cards_of_suit(hand: Iterable[str], wanted: str, suit: Callable[[str], str] = suit_of) -> list[str]:
    return [c for c in hand if suit(c) == wanted]
