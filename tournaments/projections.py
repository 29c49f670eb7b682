"""Standings and ratings, projected from the finished matches.

Standings. Each counted table (a finished match) and each sit-out is a *contribution*, stored with the
global log position it was read at. Applying a match takes its old contribution out of the running sums
and puts the new one in, in one transaction with the standings row locked, and writes the log position
the standings now include beside them: a repeated or re-delivered update finds the contribution at the
match's current position and changes nothing. The cost of one update depends on the match, not on how
many matches the league holds. :func:`standings_rebuild` computes the same from the event log alone (the
tournament's stream and every hand folded again) and must give the same bytes.

Ratings. Per game, in match order (match id): a match finished after every rated one is rated at once;
a match rated before and changed since (a ruling), or finished out of order, has its game's ratings
computed again from that match on.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Max
from django.utils import timezone

from common.batch import gc_paused
from scoring.log import store
from scoring.models import Match
from scoring.selectors import (
    Difference,
    MatchOutcome,
    compare,
    compare_rows,
    match_outcome,
    match_outcomes_from_log,
)
from tournaments import events
from tournaments.models import (
    PlayerRating,
    RatedMatch,
    RatingBook,
    RatingHistory,
    Registration,
    Round,
    Standings,
    StandingsContribution,
    Table,
    Tournament,
)
from tournaments.models import SitOut as SitOutRow
from tournaments.plan import ratings
from tournaments.plan.standings import (
    Contribution,
    Ledger,
    SitOut,
    TableResult,
    contribution_from_json,
    contribution_json,
    ledger_of,
    metrics_json,
    rank,
    rows_json,
    table_result,
)

log = logging.getLogger(__name__)
REBUILD_BATCH = 200  # matches folded per query when rebuilding from the log
SAVE_BATCH = 500  # players whose current ratings are saved per statement


# ---- contributions -----------------------------------------------------------------------------------
def match_key(match_id: int) -> str:
    return f"match:{match_id}"


def sit_out_key(round_number: int, player: int) -> str:
    return f"sitout:{round_number}:{player}"


def table_contribution(outcome: MatchOutcome) -> TableResult:
    """What a finished match adds to the standings."""
    players = [p for p in outcome.players if p is not None]
    if len(players) != len(outcome.players):
        raise AssertionError(f"a tournament table seats registered players only (match {outcome.match})")
    return table_result(
        key=match_key(outcome.match),
        game=outcome.game,
        players=players,
        totals=outcome.totals,
        winners=outcome.winners,
        sides=outcome.sides,
        ruled_against=outcome.ruled_against,
        position=outcome.position,
        recorded_at=outcome.recorded_at.isoformat() if outcome.recorded_at else "",
    )


# ---- the standings document --------------------------------------------------------------------------
def _document(
    *,
    ledger: Ledger,
    players: dict[int, str],
    settings: dict[str, Any],
    contributions: Iterable[Contribution],
    notes: list[dict[str, Any]],
) -> tuple[dict[str, Any], int, str | None]:
    """What the API and the page show, with the position and time of the latest event it includes."""
    latest = max(contributions, key=lambda c: c.position, default=None)
    position = latest.position if latest else 0
    as_of = latest.recorded_at if latest else None
    rows = rank(
        ledger,
        players,
        scoring=settings["scoring"],
        precedence=settings["tiebreaks"],
        seed=int(settings["seed"]),
    )
    data = {
        "scoring": settings["scoring"],
        "precedence": [m["key"] for m in metrics_json(settings["tiebreaks"])],
        "metrics": metrics_json(settings["tiebreaks"]),
        "position": position,
        "as_of": as_of,
        "rows": rows_json(rows),
        "notes": notes,
    }
    return data, position, as_of


def table_notes(tables: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tables a reader should know about, in round and table order: abandoned ones, ones reopened by a
    ruling after their round closed (not counted until they finish again) and ones a ruling changed after
    their round closed (counted as changed).

    Each item: round, table, match, abandoned, reason, closed_position (None while the round is open),
    finished, position (of the match's latest event).
    """
    notes = []
    for t in sorted(tables, key=lambda t: (t["round"], t["table"])):
        where = f"Round {t['round']}, table {t['table']}"
        closed = t["closed_position"]
        if t["abandoned"]:
            kind, text = "abandoned", f"{where} was abandoned ({t['reason']}): it counts nothing."
        elif closed is not None and not t["finished"]:
            kind, text = (
                "reopened",
                f"{where} was reopened by a ruling after the round closed: "
                "not counted until it finishes again.",
            )
        elif closed is not None and t["position"] > closed:
            kind, text = (
                "changed",
                f"{where} was changed by a ruling after the round closed: counted as it stands now.",
            )
        else:
            continue
        notes.append(
            {"kind": kind, "round": t["round"], "table": t["table"], "match": t["match"], "text": text}
        )
    return notes


def _with_note(
    notes: Sequence[dict[str, Any]], table: Table, *, finished: bool, position: int
) -> list[dict[str, Any]]:
    """The notes with this table's own note as it stands now (or none)."""
    mine = table_notes(
        [
            {
                "round": table.round.number,
                "table": table.number,
                "match": table.match_id,
                "abandoned": table.abandoned,
                "reason": table.abandon_reason,
                "closed_position": table.round.closed_position,
                "finished": finished,
                "position": position,
            }
        ]
    )
    others = [n for n in notes if n["match"] != table.match_id]
    return sorted([*others, *mine], key=lambda n: (n["round"], n["table"]))


def _settings(tournament: Tournament) -> dict[str, Any]:
    return {"scoring": tournament.scoring, "tiebreaks": tournament.tiebreaks, "seed": tournament.seed}


def _players(tournament: Tournament) -> dict[int, str]:
    return dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "player__name"))


def _write(
    standings: Standings, ledger: Ledger, tournament: Tournament, notes: list[dict[str, Any]] | None = None
) -> None:
    """Rank again from the ledger and write the document, with the latest contribution's position
    (``notes``: the tables' notes when they changed; otherwise they stay as they are)."""
    latest = StandingsContribution.objects.filter(tournament=tournament).order_by("-position").first()
    data, position, as_of = _document(
        ledger=ledger,
        players=_players(tournament),
        settings=_settings(tournament),
        contributions=[contribution_from_json(latest.data)] if latest else [],
        notes=list(standings.data.get("notes", [])) if notes is None else notes,
    )
    standings.ledger = ledger.as_json()
    standings.data = data
    standings.position = position
    standings.as_of = _parse_time(as_of)
    standings.updated_at = timezone.now()
    standings.save(update_fields=STANDINGS_FIELDS)


# What a projection writes of the standings row (the app role may UPDATE these columns only).
STANDINGS_FIELDS = ["ledger", "data", "position", "as_of", "updated_at"]


def _parse_time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def standings_start(tournament: Tournament) -> Standings:
    """The (empty) standings of a new tournament."""
    standings = Standings.objects.create(tournament=tournament)
    _write(standings, Ledger(), tournament)
    return standings


def _locked(tournament: Tournament) -> Standings:
    """The tournament's standings row, locked until the transaction ends.

    On PostgreSQL the tournament's own row is share-locked first (``FOR KEY SHARE``, the lock the
    contributions' foreign keys take at the commit anyway): the order every tournament service takes its
    locks in, the tournament's row (``FOR UPDATE``) before a match's and the standings'. Without it, a
    projection that counts a finished match (a task, after the move's commit) held the match's row from
    its contribution's foreign key and then waited at its commit for the tournament's, while an abandon of
    that table held the tournament's and waited for the match's: a deadlock, one of the two undone."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {Tournament._meta.db_table} WHERE id = %s FOR KEY SHARE", [tournament.pk]
            )
    return Standings.objects.select_for_update().get(tournament=tournament)


def _locked_or_new(tournament: Tournament) -> Standings:
    """The standings row locked, made again (empty) if it was deleted: a rebuild recreates what it
    needs."""
    Standings.objects.get_or_create(tournament=tournament)
    return _locked(tournament)


def standings_refresh(tournament: Tournament, *, table: Table | None = None) -> None:
    """Rank again (settings or players changed; ``table``: that table's note changed, as when it is
    abandoned); the sums stay as they are."""
    standings = _locked(tournament)
    notes = None
    if table is not None:
        notes = _with_note(standings.data.get("notes", []), table, finished=False, position=0)
    _write(standings, Ledger.from_json(standings.ledger), tournament, notes)


def standings_registered(*, tournament_id: int, registration_id: int) -> bool:
    """The standings ranked again with the players registered so far, unless a later registration's
    turn will do it (its task is queued after this one); whether they were."""
    if Registration.objects.filter(tournament_id=tournament_id, pk__gt=registration_id).exists():
        return False
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return False
    with transaction.atomic():
        standings_refresh(tournament)
    return True


def standings_sit_outs(tournament: Tournament, rnd: Round, appended: store.AppendResult) -> None:
    """Count the sit-outs of a round just opened (in the round's transaction)."""
    standings = _locked(tournament)
    ledger = Ledger.from_json(standings.ledger)
    for sit in rnd.sit_outs.all():
        c = SitOut(
            key=sit_out_key(rnd.number, sit.player_id),
            player=sit.player_id,
            score=Fraction(sit.score),
            position=appended.positions[-1],
            recorded_at=appended.recorded_at.isoformat(),
        )
        ledger.add(c)
        StandingsContribution.objects.create(
            tournament=tournament, key=c.key, position=c.position, data=contribution_json(c)
        )
    _write(standings, ledger, tournament)


def standings_sit_out_score(tournament: Tournament, appended: store.AppendResult) -> None:
    """The sit-out score changed: every sit-out, of the rounds already played too, now counts the new
    score (taken out and put back in at the change's log position), in the change's transaction."""
    standings = _locked(tournament)
    ledger = Ledger.from_json(standings.ledger)
    score = Fraction(tournament.sit_out_score)
    for row in StandingsContribution.objects.filter(tournament=tournament, match__isnull=True):
        old = contribution_from_json(row.data)
        if not isinstance(old, SitOut):
            continue
        new = SitOut(
            key=old.key,
            player=old.player,
            score=score,
            position=appended.positions[-1],
            recorded_at=appended.recorded_at.isoformat(),
        )
        ledger.remove(old)
        ledger.add(new)
        row.position, row.data = new.position, contribution_json(new)
        row.save(update_fields=["position", "data"])
    _write(standings, ledger, tournament)


def standings_apply_match(*, match_id: int) -> bool:
    """Bring the standings of the tournament whose table holds this match up to date with it.

    Returns whether anything changed: False for a match at no tournament table, or one whose current
    state the standings already include (a repeated task).
    """
    table = Table.objects.select_related("round__tournament").filter(match_id=match_id).first()
    if table is None:
        return False
    tournament = table.round.tournament
    if not Standings.objects.filter(tournament=tournament).exists():
        standings_rebuild(tournament_id=tournament.pk)  # the sums are gone: count everything again
        return True
    with transaction.atomic():
        standings = _locked(tournament)
        table = Table.objects.select_related("match", "round").get(pk=table.pk)
        outcome = match_outcome(table.match)
        key = match_key(match_id)
        existing = StandingsContribution.objects.filter(tournament=tournament, key=key).first()
        counts = outcome.finished and not table.abandoned
        old_notes = standings.data.get("notes", [])
        notes = _with_note(old_notes, table, finished=outcome.finished, position=outcome.position)
        if (
            existing is None
            and not counts
            or existing is not None
            and counts
            and existing.position == outcome.position
        ):
            if notes == old_notes:
                return False
            _write(standings, Ledger.from_json(standings.ledger), tournament, notes)
            return True
        ledger = Ledger.from_json(standings.ledger)
        if existing is not None:
            ledger.remove(contribution_from_json(existing.data))
            existing.delete()
        if counts:
            c = table_contribution(outcome)
            ledger.add(c)
            StandingsContribution.objects.create(
                tournament=tournament,
                key=key,
                match_id=match_id,
                position=c.position,
                data=contribution_json(c),
            )
        _write(standings, ledger, tournament, notes)
    return True


@dataclass(frozen=True)
class Rebuilt:
    """The standings as the event log alone makes them: what :func:`standings_rebuild` writes, and what
    :func:`tournament_differences` compares with the stored rows."""

    ledger: Ledger
    data: dict[str, Any]
    position: int
    as_of: str | None
    contributions: list[Contribution]
    log: events.TournamentLog
    refused: list[dict[str, Any]] = field(default_factory=list)  # a what-if's tables that cannot stand


def contributions_from_log(
    tlog: events.TournamentLog,
    *,
    other_options: Mapping[str, Mapping[str, Any]] | None = None,
    sit_out_score: Fraction | None = None,
) -> tuple[list[Contribution], list[dict[str, Any]], list[dict[str, Any]]]:
    """What the standings are made of, from the log alone: each finished table's match read from its own
    streams (who sat where from its MatchOpened, every hand folded again), each sit-out with its round's
    score; with the tables a reader should know about.

    ``other_options`` and ``sit_out_score`` are for a what-if (:mod:`tournaments.whatif`): the matches
    folded under other options of their games, every sit-out given that score. The third value names
    the tables a move of which cannot stand under those options (they count as unfinished).
    """
    contributions: list[Contribution] = []
    notable: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    tables = [(r, t) for r in tlog.rounds for t in r.tables]
    matches = Match.objects.in_bulk([t.match for _, t in tables])
    for start in range(0, len(tables), REBUILD_BATCH):
        batch = tables[start : start + REBUILD_BATCH]
        outcomes = match_outcomes_from_log([matches[t.match] for _, t in batch], other_options)
        for (rnd, table), outcome in zip(batch, outcomes, strict=True):
            if outcome.refused:
                refused.append({"round": rnd.number, "table": table.number, "match": table.match})
            if outcome.finished and not table.abandoned:
                contributions.append(table_contribution(outcome))
            notable.append(
                {
                    "round": rnd.number,
                    "table": table.number,
                    "match": table.match,
                    "abandoned": table.abandoned,
                    "reason": table.reason,
                    "closed_position": rnd.closed_position,
                    "finished": outcome.finished,
                    "position": outcome.position,
                }
            )
    for rnd in tlog.rounds:
        score = sit_out_score if sit_out_score is not None else Fraction(rnd.sit_out_score)
        for player in rnd.sit_outs:
            contributions.append(
                SitOut(
                    key=sit_out_key(rnd.number, player),
                    player=player,
                    score=score,
                    position=rnd.sit_out_position,
                    recorded_at=rnd.sit_out_recorded_at,
                )
            )
    return contributions, notable, refused


def standings_from_log(
    tournament: Tournament,
    *,
    settings: Mapping[str, Any] | None = None,
    other_options: Mapping[str, Mapping[str, Any]] | None = None,
    sit_out_score: Fraction | None = None,
) -> Rebuilt:
    """The standings computed from the event log alone: the tournament's stream folded for its rounds,
    tables, sit-outs and settings, and every table's match read from its own streams. Writes nothing.

    ``settings`` (scoring, tiebreaks) put over the logged ones, ``other_options`` and ``sit_out_score``
    make it a what-if (:mod:`tournaments.whatif`); ``refused`` then names the tables that cannot stand."""
    tlog = events.fold(store.read_stream(tournament.stream_id))
    contributions, notable, refused = contributions_from_log(
        tlog, other_options=other_options, sit_out_score=sit_out_score
    )
    ledger = ledger_of(contributions)
    names = dict(
        Registration.objects.filter(tournament=tournament, player_id__in=list(tlog.players)).values_list(
            "player_id", "player__name"
        )
    )
    data, position, as_of = _document(
        ledger=ledger,
        players={p: names.get(p, name) for p, name in tlog.players.items()},
        settings={**tlog.settings, **(settings or {})},
        contributions=contributions,
        notes=table_notes(notable),
    )
    return Rebuilt(ledger, data, position, as_of, contributions, tlog, refused)


def _contribution_row(tournament: Tournament, c: Contribution) -> StandingsContribution:
    return StandingsContribution(
        tournament=tournament,
        key=c.key,
        match_id=int(c.key.split(":")[1]) if isinstance(c, TableResult) else None,
        position=c.position,
        data=contribution_json(c),
    )


def standings_rebuild(*, tournament_id: int) -> Standings:
    """The standings computed again from the event log alone (:func:`standings_from_log`) and written."""
    tournament = Tournament.objects.get(pk=tournament_id)
    with gc_paused(), transaction.atomic():
        standings = _locked_or_new(tournament)
        rebuilt = standings_from_log(tournament)
        StandingsContribution.objects.filter(tournament=tournament).delete()
        StandingsContribution.objects.bulk_create(
            _contribution_row(tournament, c) for c in rebuilt.contributions
        )
        standings.ledger = rebuilt.ledger.as_json()
        standings.data = rebuilt.data
        standings.position = rebuilt.position
        standings.as_of = _parse_time(rebuilt.as_of)
        standings.updated_at = timezone.now()
        standings.save(update_fields=STANDINGS_FIELDS)
    return standings


def standings_stale(limit: int = 500) -> list[int]:
    """Matches at tournament tables whose standings are behind them: finished and not counted at their
    latest position, or counted and changed since. What the catch-up brings up to date."""
    tables = (
        Table.objects.filter(abandoned=False)
        .annotate(last=Max("match__hands__position"))
        .values_list("match_id", "round__tournament_id", "match__status", "last")
    )
    counted = {
        (c.tournament_id, c.match_id): c.position
        for c in StandingsContribution.objects.filter(match__isnull=False).only(
            "tournament_id", "match_id", "position"
        )
    }
    stale = []
    for match_id, tournament_id, status, last in tables:
        seen = counted.get((tournament_id, match_id))
        finished = status == Match.Status.FINISHED
        if (finished and seen != last) or (not finished and seen is not None):
            stale.append(match_id)
        if len(stale) >= limit:
            break
    return stale


# ---- ratings -----------------------------------------------------------------------------------------
def _book(game: str) -> None:
    """Serialise the rating updates of one game (the row is the lock)."""
    RatingBook.objects.get_or_create(game=game)
    RatingBook.objects.select_for_update().get(game=game)


def ratings_apply_match(*, match_id: int) -> bool:
    """Bring the ratings of the match's game up to date with it; False when they already are."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return False
    with transaction.atomic():
        _book(match.game)
        outcome = match_outcome(match)
        rated = RatedMatch.objects.filter(match_id=match_id).first()
        if rated is None and not outcome.finished:
            return False
        if rated is not None and outcome.finished and rated.position == outcome.position:
            return False
        last = RatedMatch.objects.filter(game=match.game).aggregate(m=Max("match_id"))["m"]
        if rated is None and (last is None or match_id > last):
            state = _current(match.game, outcome.players)
            _save_current(match.game, _rate(match.game, [outcome], state), state)
        else:
            _rerate_from(match.game, match_id)
    return True


def ratings_rebuild(*, game: str) -> None:
    """Every rating of the game computed again from its finished matches as the event log tells them
    (players, options and hands folded from the log), in match order."""
    with gc_paused(), transaction.atomic():
        _book(game)
        _rerate_from(game, 0, from_log=True)


def rated_from_log(game: str) -> list[MatchOutcome]:
    """The game's finished matches, in match order, from the event log alone (the rows only say which
    matches exist)."""
    ids = list(Match.objects.filter(game=game).order_by("pk").values_list("pk", flat=True))
    out: list[MatchOutcome] = []
    for start in range(0, len(ids), REBUILD_BATCH):
        batch = Match.objects.in_bulk(ids[start : start + REBUILD_BATCH])
        outcomes = match_outcomes_from_log([batch[pk] for pk in ids[start : start + REBUILD_BATCH]])
        out += [o for o in outcomes if o.finished and o.game == game]
    return out


def _current(game: str, players: Iterable[int | None]) -> dict[int, ratings.Rating]:
    ids = [p for p in players if p is not None]
    return {r.player_id: (r.mu, r.sigma) for r in PlayerRating.objects.filter(game=game, player_id__in=ids)}


def _rate(game: str, outcomes: Sequence[MatchOutcome], state: dict[int, ratings.Rating]) -> set[int]:
    """Rate the outcomes in order from ``state`` (updated in place); write the history and the matches
    rated. The players whose rating changed are returned: the caller saves their current ratings."""
    history: list[RatingHistory] = []
    rated: list[RatedMatch] = []
    touched: set[int] = set()
    for outcome in outcomes:
        changed = _rate_one(outcome, state)
        history += [
            RatingHistory(player_id=p, game=game, match_id=outcome.match, mu=state[p][0], sigma=state[p][1])
            for p in sorted(changed)
        ]
        rated.append(RatedMatch(match_id=outcome.match, game=game, position=outcome.position))
        touched |= changed
    RatedMatch.objects.bulk_create(rated)
    RatingHistory.objects.bulk_create(history)
    return touched


def _rate_one(outcome: MatchOutcome, state: dict[int, ratings.Rating]) -> set[int]:
    """Rate one match from ``state`` (updated in place); the players whose rating changed."""
    contests = ratings.contests(
        game=outcome.game,
        players=outcome.players,
        totals=outcome.totals,
        winners=outcome.winners,
        sides=outcome.sides,
        hand_results=outcome.hand_results,
    )
    changed: set[int] = set()
    for contest in contests:
        new = ratings.rate(state, contest)
        state.update(new)
        changed |= set(new)
    return changed


@dataclass(frozen=True)
class RatingsRebuilt:
    """A game's ratings as the event log alone makes them (what :func:`ratings_rebuild` writes)."""

    rated: dict[int, int]  # match -> the log position it was rated at
    history: dict[tuple[int, int], ratings.Rating]  # (player, match) -> rating after it
    current: dict[int, tuple[float, float, int]]  # player -> mu, sigma, matches rated


def ratings_from_log(game: str) -> RatingsRebuilt:
    """Every rating of the game computed from the log in memory, in match order; writes nothing."""
    state: dict[int, ratings.Rating] = {}
    rated: dict[int, int] = {}
    history: dict[tuple[int, int], ratings.Rating] = {}
    counts: dict[int, int] = {}
    for outcome in rated_from_log(game):
        rated[outcome.match] = outcome.position
        for p in sorted(_rate_one(outcome, state)):
            history[(p, outcome.match)] = state[p]
            counts[p] = counts.get(p, 0) + 1
    current = {p: (state[p][0], state[p][1], n) for p, n in counts.items()}
    return RatingsRebuilt(rated, history, current)


def _save_current(game: str, players: Iterable[int], state: dict[int, ratings.Rating]) -> None:
    """The players' current ratings as ``state`` has them, with the number of matches their history
    holds; a player with no history left (or not in ``state``) has none. A few statements for all the
    players (their counts, their rows, then the rows created, changed and deleted), not a few each."""
    wanted = sorted(set(players))
    for start in range(0, len(wanted), SAVE_BATCH):
        batch = wanted[start : start + SAVE_BATCH]
        counts = dict(
            RatingHistory.objects.filter(game=game, player_id__in=batch)
            .values("player_id")
            .annotate(n=Count("pk"))
            .values_list("player_id", "n")
        )
        rows = {r.player_id: r for r in PlayerRating.objects.filter(game=game, player_id__in=batch)}
        created: list[PlayerRating] = []
        changed: list[PlayerRating] = []
        gone: list[int] = []
        for p in batch:
            row = rows.get(p)
            if p not in state or not counts.get(p):
                if row is not None:
                    gone.append(row.pk)
                continue
            mu, sigma = state[p]
            if row is None:
                created.append(PlayerRating(player_id=p, game=game, mu=mu, sigma=sigma, matches=counts[p]))
            elif (row.mu, row.sigma, row.matches) != (mu, sigma, counts[p]):
                row.mu, row.sigma, row.matches = mu, sigma, counts[p]
                changed.append(row)
        if gone:
            PlayerRating.objects.filter(pk__in=gone).delete()
        PlayerRating.objects.bulk_create(created)
        PlayerRating.objects.bulk_update(changed, ["mu", "sigma", "matches"])


def _rerate_from(game: str, first_match: int, *, from_log: bool = False) -> None:
    """Forget the game's ratings from ``first_match`` on and rate its finished matches from there again
    (``from_log``: every match, as the event log tells it)."""
    dropped = set(
        RatingHistory.objects.filter(game=game, match_id__gte=first_match).values_list("player_id", flat=True)
    )
    RatingHistory.objects.filter(game=game, match_id__gte=first_match).delete()
    RatedMatch.objects.filter(game=game, match_id__gte=first_match).delete()
    if from_log:
        assert first_match == 0, "the log is read from the game's first match"
        outcomes = rated_from_log(game)
    else:
        later = Match.objects.filter(game=game, status=Match.Status.FINISHED, pk__gte=first_match)
        outcomes = [match_outcome(m) for m in later.order_by("pk")]
    involved = dropped | {p for o in outcomes for p in o.players if p is not None}
    state: dict[int, ratings.Rating] = {}
    for row in RatingHistory.objects.filter(game=game, player_id__in=involved).order_by("match_id"):
        state[row.player_id] = (row.mu, row.sigma)
    _rate(game, outcomes, state)
    _save_current(game, involved, state)  # every player rated here was involved


def ratings_stale(limit: int = 500) -> list[int]:
    """Finished matches not rated at their latest position, and rated matches no longer finished."""
    rated = dict(RatedMatch.objects.values_list("match_id", "position"))
    stale = []
    for match_id, status, last in Match.objects.annotate(last=Max("hands__position")).values_list(
        "pk", "status", "last"
    ):
        seen = rated.get(match_id)
        finished = status == Match.Status.FINISHED
        if (finished and seen != last) or (not finished and seen is not None):
            stale.append(match_id)
        if len(stale) >= limit:
            break
    return stale


# ---- the stored rows against the log -----------------------------------------------------------------
SETTINGS_COLUMNS = (
    "club",
    "name",
    "kind",
    "games",
    "game_options",
    "scoring",
    "tiebreaks",
    "sit_out_score",
    "seed",
    "rounds_planned",
    "forbidden_pairs",
)


def tournament_differences(tournament: Tournament) -> list[Difference]:
    """What the tournament's rows hold that its stream and its tables' matches do not say: its settings,
    rounds, tables, sit-outs, standings and their contributions, each against the log folded in memory
    (:func:`standings_from_log`). The tables' matches are compared by :func:`match_differences`."""
    rebuilt = standings_from_log(tournament)
    tlog = rebuilt.log
    out: list[Difference] = []
    where = f"id={tournament.pk}"
    stored_t = {
        f"{c}_id" if c == "club" else c: getattr(tournament, f"{c}_id" if c == "club" else c)
        for c in SETTINGS_COLUMNS
    }
    logged_t = {f"{c}_id" if c == "club" else c: tlog.settings.get(c) for c in SETTINGS_COLUMNS}
    logged_t["published"], stored_t["published"] = tlog.published, tournament.published
    compare(out, Tournament._meta.db_table, where, stored_t, logged_t)

    pk = tournament.pk
    compare_rows(
        out,
        Round._meta.db_table,
        lambda number: f"tournament_id={pk} number={number}",
        {
            r.number: {
                "game": r.game,
                "seed": r.seed,
                "repeats": r.repeats,
                "closed_position": r.closed_position,
            }
            for r in Round.objects.filter(tournament=tournament)
        },
        {
            r.number: {
                "game": r.game,
                "seed": r.seed,
                "repeats": r.repeats,
                "closed_position": r.closed_position,
            }
            for r in tlog.rounds
        },
    )
    compare_rows(
        out,
        Table._meta.db_table,
        lambda key: f"tournament_id={pk} round={key[0]} number={key[1]}",
        {
            (t.round.number, t.number): {
                "match_id": t.match_id,
                "players": t.players,
                "dealer": t.dealer,
                "pairs": t.pairs,
                "abandoned": t.abandoned,
                "abandon_reason": t.abandon_reason,
            }
            for t in Table.objects.filter(round__tournament=tournament).select_related("round")
        },
        {
            (r.number, t.number): {
                "match_id": t.match,
                "players": list(t.players),
                "dealer": t.dealer,
                "pairs": t.pairs,
                "abandoned": t.abandoned,
                "abandon_reason": t.reason,
            }
            for r in tlog.rounds
            for t in r.tables
        },
    )
    compare_rows(
        out,
        SitOutRow._meta.db_table,
        lambda key: f"tournament_id={pk} round={key[0]} player_id={key[1]}",
        {
            (s.round.number, s.player_id): {"score": s.score}
            for s in SitOutRow.objects.filter(round__tournament=tournament).select_related("round")
        },
        {(r.number, p): {"score": r.sit_out_score} for r in tlog.rounds for p in r.sit_outs},
    )

    standings = Standings.objects.filter(tournament=tournament).first()
    compare(
        out,
        Standings._meta.db_table,
        f"tournament_id={tournament.pk}",
        None
        if standings is None
        else {
            "position": standings.position,
            "ledger": standings.ledger,
            "data": standings.data,
        },
        {"position": rebuilt.position, "ledger": rebuilt.ledger.as_json(), "data": rebuilt.data},
    )

    def contribution(c: StandingsContribution) -> dict[str, Any]:
        return {"match_id": c.match_id, "position": c.position, "data": c.data}

    compare_rows(
        out,
        StandingsContribution._meta.db_table,
        lambda key: f"tournament_id={pk} key={key}",
        {c.key: contribution(c) for c in StandingsContribution.objects.filter(tournament=tournament)},
        {c.key: contribution(_contribution_row(tournament, c)) for c in rebuilt.contributions},
    )
    return out


def ratings_differences(game: str) -> list[Difference]:
    """What the game's rating rows hold that its matches, as the log tells them, do not make."""
    rebuilt = ratings_from_log(game)
    out: list[Difference] = []
    compare_rows(
        out,
        RatedMatch._meta.db_table,
        lambda match: f"match_id={match}",
        {
            match: {"game": game, "position": position}
            for match, position in RatedMatch.objects.filter(game=game).values_list("match_id", "position")
        },
        {match: {"game": game, "position": position} for match, position in rebuilt.rated.items()},
    )
    compare_rows(
        out,
        RatingHistory._meta.db_table,
        lambda key: f"game={game} player_id={key[0]} match_id={key[1]}",
        {
            (h.player_id, h.match_id): {"mu": h.mu, "sigma": h.sigma}
            for h in RatingHistory.objects.filter(game=game)
        },
        {key: {"mu": mu, "sigma": sigma} for key, (mu, sigma) in rebuilt.history.items()},
    )
    compare_rows(
        out,
        PlayerRating._meta.db_table,
        lambda player: f"game={game} player_id={player}",
        {
            r.player_id: {"mu": r.mu, "sigma": r.sigma, "matches": r.matches}
            for r in PlayerRating.objects.filter(game=game)
        },
        {
            player: {"mu": mu, "sigma": sigma, "matches": matches}
            for player, (mu, sigma, matches) in rebuilt.current.items()
        },
    )
    return out
