"""A tournament's (or league's) event stream: every decision of its director, with who and why.

The stream ``tournament-<id>`` lives in the same append-only store as the hands. The rows of
:mod:`tournaments.models` are read models of it, written in the same transaction as each append, and
:func:`fold` rebuilds what the standings need from the stream alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scoring.log.events import Event, register
from scoring.log.store import RecordedEvent


@register
@dataclass(frozen=True)
class TournamentCreated(Event):
    """A league or tournament was set up: its club, games, options, scoring, tie-breaks and seed."""

    type = "TournamentCreated"

    club: int
    name: str
    kind: str
    games: tuple[str, ...]
    game_options: dict[str, Any]
    scoring: str
    tiebreaks: tuple[str, ...]
    sit_out_score: str
    seed: int
    rounds_planned: int | None
    forbidden_pairs: tuple[tuple[int, int], ...] = ()
    tressette_tables: str = "mixed"  # Tressette's tables: "mixed" (4 in pairs or 3 alone), "pairs", "solo"

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "forbidden_pairs", tuple(tuple(p) for p in self.forbidden_pairs))


@register
@dataclass(frozen=True)
class TournamentChanged(Event):
    """Settings changed (``changes`` holds the new values); after round 1 a reason is required."""

    type = "TournamentChanged"

    changes: dict[str, Any]
    reason: str


@register
@dataclass(frozen=True)
class PlayerRegistered(Event):
    type = "PlayerRegistered"

    player: int
    name: str
    guest: bool


@register
@dataclass(frozen=True)
class PlayerWithdrawn(Event):
    """The player is seated no more; his results so far stay in the standings."""

    type = "PlayerWithdrawn"

    player: int
    reason: str


@register
@dataclass(frozen=True)
class RoundOpened(Event):
    """A round was seated: each table's match (created with the round), players in seat order, first
    dealer and Tressette pairs; who sits out, and the score a sit-out gets."""

    type = "RoundOpened"

    number: int
    game: str
    seed: int
    tables: tuple[dict[str, Any], ...]
    sit_outs: tuple[int, ...]
    sit_out_score: str
    repeats: int = 0  # the repeated meetings this round adds (earlier rounds included)
    planned_from: int = 0  # the round whose opening made the plan this seating comes from (its seed)


@register
@dataclass(frozen=True)
class TableAbandoned(Event):
    """The director stopped a table's match unfinished: it counts nothing."""

    type = "TableAbandoned"

    round: int
    table: int
    reason: str


@register
@dataclass(frozen=True)
class RoundClosed(Event):
    type = "RoundClosed"

    number: int


@register
@dataclass(frozen=True)
class StandingsPublished(Event):
    """Anyone may read the standings (``published``), or members only again."""

    type = "StandingsPublished"

    published: bool


# ---- the stream folded -------------------------------------------------------------------------------
@dataclass
class TableLog:
    number: int
    match: int
    players: tuple[int, ...]
    abandoned: bool = False
    reason: str = ""
    dealer: int = 0
    pairs: list[list[int]] | None = None


@dataclass
class RoundLog:
    number: int
    game: str
    tables: list[TableLog]
    sit_outs: tuple[int, ...]
    sit_out_score: str
    position: int
    recorded_at: str
    closed_position: int | None = None
    seed: int = 0
    repeats: int = 0
    # The sit-outs' score as it stands, and the log position and time it was last set at: the round's
    # opening, or a later change of the sit-out score (it applies to every sit-out, retroactively).
    sit_out_position: int = 0
    sit_out_recorded_at: str = ""


@dataclass
class TournamentLog:
    """What the stream says, folded: settings, registrations and rounds."""

    settings: dict[str, Any] = field(default_factory=dict)
    players: dict[int, str] = field(default_factory=dict)
    rounds: list[RoundLog] = field(default_factory=list)
    published: bool = False


def fold(events: Iterable[RecordedEvent]) -> TournamentLog:
    """The tournament as its stream tells it."""
    log = TournamentLog()
    for recorded in events:
        e = recorded.event
        if isinstance(e, TournamentCreated):
            log.settings = {f.name: getattr(e, f.name) for f in dataclasses.fields(e)}
        elif isinstance(e, TournamentChanged):
            log.settings.update(e.changes)
            if "sit_out_score" in e.changes:
                for rnd in log.rounds:
                    rnd.sit_out_score = e.changes["sit_out_score"]
                    rnd.sit_out_position = recorded.position
                    rnd.sit_out_recorded_at = recorded.recorded_at.isoformat()
        elif isinstance(e, PlayerRegistered):
            log.players[e.player] = e.name
        elif isinstance(e, RoundOpened):
            log.rounds.append(
                RoundLog(
                    number=e.number,
                    game=e.game,
                    tables=[
                        TableLog(
                            int(t["table"]),
                            int(t["match"]),
                            tuple(int(p) for p in t["players"]),
                            dealer=int(t.get("dealer", 0)),
                            pairs=t.get("pairs"),
                        )
                        for t in e.tables
                    ],
                    sit_outs=tuple(e.sit_outs),
                    sit_out_score=e.sit_out_score,
                    position=recorded.position,
                    recorded_at=recorded.recorded_at.isoformat(),
                    seed=e.seed,
                    repeats=e.repeats,
                    sit_out_position=recorded.position,
                    sit_out_recorded_at=recorded.recorded_at.isoformat(),
                )
            )
        elif isinstance(e, TableAbandoned):
            table = _table(log, e.round, e.table)
            table.abandoned, table.reason = True, e.reason
        elif isinstance(e, RoundClosed):
            _round(log, e.number).closed_position = recorded.position
        elif isinstance(e, StandingsPublished):
            log.published = e.published
    return log


def _round(log: TournamentLog, number: int) -> RoundLog:
    return next(r for r in log.rounds if r.number == number)


def _table(log: TournamentLog, round_number: int, table: int) -> TableLog:
    return next(t for t in _round(log, round_number).tables if t.number == table)
