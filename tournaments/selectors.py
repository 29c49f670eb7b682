"""Reads of the tournament half: clubs, tournaments, rounds and their tables' progress, standings (with
ratings), exports, a player's ratings, and a tournament's audit trail."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from django.db.models import Count, Max, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import get_language, gettext, ngettext

from clubs.models import Club, Membership, Player
from scoring.models import Hand, Match
from scoring.rules import get_game
from scoring.selectors import stream_audit
from tournaments import words
from tournaments.models import (
    KeptSeating,
    RatingHistory,
    Registration,
    Round,
    Standings,
    StandingsContribution,
    Table,
    Tournament,
)
from tournaments.plan import ratings
from tournaments.plan.seating import table_layout
from tournaments.plan.standings import show, table_result
from tournaments.whatif import SETTINGS as WHATIF_SETTINGS
from tournaments.whatif import standings_whatif


def club_list() -> QuerySet[Club]:
    """Every club with its players loaded, in name order."""
    return Club.objects.prefetch_related("players")


def club_roster(*, club_id: int) -> list[str]:
    """The names of a club's players, in order: the roster the club prints for its notice board."""
    club = Club.objects.get(pk=club_id)
    return [player.name for player in club.players.order_by("name")]


def tournament_get(tournament_id: int) -> Tournament:
    """The tournament, or 404."""
    return get_object_or_404(Tournament.objects.select_related("club", "director"), pk=tournament_id)


def tournament_detail(tournament: Tournament) -> dict[str, Any]:
    """The tournament's settings, its version (for writes), its players and its rounds."""
    rounds = list(tournament.rounds.annotate(n_tables=Count("tables")).order_by("number"))
    return {
        "id": tournament.pk,
        "club": tournament.club_id,
        "name": tournament.name,
        "kind": tournament.kind,
        "director": tournament.director.get_username() if tournament.director else None,
        "games": list(tournament.games),
        "game_options": dict(tournament.game_options),
        "scoring": tournament.scoring,
        "tiebreaks": list(tournament.tiebreaks),
        "sit_out_score": tournament.sit_out_score,
        "seed": tournament.seed,
        "rounds_planned": tournament.rounds_planned,
        "forbidden_pairs": [list(p) for p in tournament.forbidden_pairs],
        "tressette_tables": tournament.tressette_tables,
        "published": tournament.published,
        "scorers": [u.get_username() for u in tournament.scorers.all()],
        "version": tournament.version,
        "created_at": tournament.created_at,
        "registrations": registration_list(tournament),
        "rounds": [
            {"number": r.number, "game": r.game, "status": r.status, "tables": r.n_tables, "seed": r.seed}
            for r in rounds
        ],
    }


def registration_list(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "player": r.player_id,
            "name": r.player.name,
            "club": r.player.club_id,
            "guest": r.guest,
            "active": r.active,
        }
        for r in Registration.objects.filter(tournament=tournament).select_related("player")
    ]


__all__ = ["WHATIF_SETTINGS", "standings_whatif"]  # what-if standings: tournaments.whatif, read here


def registered_names(tournament: Tournament) -> dict[int, str]:
    """Each registered player's name by id (the log names players by id)."""
    found = Registration.objects.filter(tournament=tournament).values_list("player_id", "player__name")
    return dict(found)


def round_get(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def round_detail(rnd: Round) -> dict[str, Any]:
    """A round: its tables with their players, first dealer, pairs and progress; who sits out."""
    tables = list(rnd.tables.select_related("match").order_by("number"))
    names = dict(
        Player.objects.filter(pk__in={p for t in tables for p in t.players}).values_list("pk", "name")
    )
    hands = _hand_counts([t.match_id for t in tables])
    return {
        "number": rnd.number,
        "game": rnd.game,
        "seed": rnd.seed,
        "status": rnd.status,
        "repeats": rnd.repeats,
        "opened_at": rnd.opened_at,
        "closed_at": rnd.closed_at,
        "tables": [
            {
                "number": t.number,
                "match": t.match_id,
                "players": [{"player": p, "name": names.get(p, "?")} for p in t.players],
                "dealer": t.dealer,
                "pairs": t.pairs,
                "progress": _progress(t),
                "hands_finished": hands.get(t.match_id, (0, 0))[0],
                "flagged": hands.get(t.match_id, (0, 0))[1],
                "abandon_reason": t.abandon_reason,
            }
            for t in tables
        ],
        "sit_outs": [
            {"player": s.player_id, "name": s.player.name, "score": s.score}
            for s in rnd.sit_outs.select_related("player")
        ],
    }


def _progress(table: Table) -> str:
    if table.abandoned:
        return "abandoned"
    return "finished" if table.match.status == Match.Status.FINISHED else "in_play"


def _hand_counts(match_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
    out: dict[int, list[int]] = {m: [0, 0] for m in match_ids}
    for match_id, status, flagged in Hand.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "status", "flagged"
    ):
        out[match_id][0] += status == Hand.Status.OVER
        out[match_id][1] += flagged
    return {m: (a, b) for m, (a, b) in out.items()}


def round_list(tournament: Tournament) -> list[dict[str, Any]]:
    return [round_detail(r) for r in tournament.rounds.order_by("number")]


# ---- standings ---------------------------------------------------------------------------------------
def standings(tournament: Tournament, *, user: Any) -> dict[str, Any]:
    """The standings as last computed (rows, the metrics in precedence order, why each row is below the
    one above, notes on tables), how fresh they are, and each player's rating in the tournament's games
    as ``user`` may see it (:func:`visible_history`)."""
    row = Standings.objects.get(tournament=tournament)
    data = dict(row.data)
    by_player = _ratings_seen(
        [r["player"] for r in data.get("rows", [])], list(tournament.games), visible_history(user)
    )
    withdrawn = set(
        Registration.objects.filter(tournament=tournament, active=False).values_list("player_id", flat=True)
    )
    data["rows"] = [
        {**r, "withdrawn": r["player"] in withdrawn, "ratings": by_player.get(r["player"], {})}
        for r in data.get("rows", [])
    ]
    return {
        "tournament": tournament.pk,
        "name": tournament.name,
        "published": tournament.published,
        "games": list(tournament.games),
        **data,
        "position": row.position,
        "as_of": row.as_of,
        "updated_at": row.updated_at,
    }


def _rating_json(mu: float, sigma: float, matches: int) -> dict[str, Any]:
    return {
        "mu": round(mu, 4),
        "sigma": round(sigma, 4),
        "ordinal": round(ratings.ordinal((mu, sigma)), 4),
        "matches": matches,
    }


def standings_export(tournament: Tournament, *, user: Any) -> dict[str, Any]:
    """The standings as :func:`standings` gives them, with labels in the reader's language beside the
    stable machine keys: ``language``; ``labels`` (the export's column headers, by key); each metric's
    ``label`` and ``abbr_label``; each row's ``why_above.label`` (the sentence, its English ``text``
    kept); each note's ``label``."""
    data = standings(tournament, user=user)
    reasons = abandon_reasons(tournament)
    rows = data["rows"]
    return {
        **data,
        "language": get_language() or "en",
        "labels": export_labels(),
        "metrics": [
            {**m, "label": words.metric_name(m["key"]), "abbr_label": words.metric_abbr(m["key"])}
            for m in data["metrics"]
        ],
        "rows": [
            {
                **r,
                "why_above": None
                if r["why_above"] is None or i == 0
                else {
                    **r["why_above"],
                    "label": words.why_above(rows[i - 1]["name"], r["name"], r["why_above"]),
                },
            }
            for i, r in enumerate(rows)
        ],
        "notes": [{**n, "label": words.note_text(n, reasons)} for n in data["notes"]],
    }


def export_labels() -> dict[str, str]:
    """The export's column headers in the reader's language, by their stable key."""
    return {
        "rank": gettext("rank"),
        "player": gettext("player"),
        "tables": gettext("tables"),
        "sit_outs": gettext("sit-outs"),
        "why_above_next": gettext("why above the next"),
    }


# A spreadsheet runs a cell that starts with one of these as a formula (or a command): such a cell gets a
# leading quote, so that "=HYPERLINK(...)" as a player's name is shown as written, never run.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: Any) -> str:
    """A text cell as a spreadsheet may open it safely."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def standings_csv(data: dict[str, Any]) -> str:
    """Standings (as :func:`standings_export` gives them) as CSV: one row per player, the criteria as
    columns, and why the player is above the next one; headers, criteria and sentences in the reader's
    language (the labels), every text cell safe from formula injection. The numbers are ours: "-3" stays
    a number."""
    keys = [k for k in data["precedence"] if k != "lot"]
    labels = {**export_labels(), **data.get("labels", {})}
    names = {m["key"]: m.get("label", m["name"]) for m in data["metrics"]}
    out = io.StringIO()
    writer = csv.writer(out)
    header = [labels["rank"], labels["player"], *[names.get(k, k) for k in keys]]
    writer.writerow(
        [csv_text(h) for h in [*header, labels["tables"], labels["sit_outs"], labels["why_above_next"]]]
    )
    rows = data["rows"]
    for i, r in enumerate(rows):
        why = rows[i + 1]["why_above"] if i + 1 < len(rows) else None
        below = (why.get("label") or why["text"]) if why else ""
        values = [_csv_value(r["values"].get(k)) for k in keys]
        writer.writerow(
            [r["rank"], csv_text(r["name"]), *values, r["tables"], r["sit_outs"], csv_text(below)]
        )
    return out.getvalue()


def error_csv(data: Any) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["code", "message"])
    if isinstance(data, dict):
        writer.writerow(
            [csv_text(data.get("code", "")), csv_text(data.get("message", data.get("detail", "")))]
        )
    return out.getvalue()


def _csv_value(value: Any) -> str:
    return "" if value is None else show(Fraction(str(value)))  # the same notation in every language


def standings_list(tournaments: QuerySet[Tournament]) -> list[dict[str, Any]]:
    """A line per tournament: its leader and how fresh its standings are."""
    out = []
    for t in tournaments.select_related("standings").order_by("-created_at"):
        rows = t.standings.data.get("rows", []) if hasattr(t, "standings") else []
        out.append(
            {
                "tournament": t.pk,
                "name": t.name,
                "kind": t.kind,
                "club": t.club_id,
                "games": list(t.games),
                "published": t.published,
                "players": len(rows),
                "leader": rows[0]["name"] if rows else None,
                "as_of": t.standings.as_of if hasattr(t, "standings") else None,
            }
        )
    return out


# ---- ratings -----------------------------------------------------------------------------------------
def player_get(player_id: int) -> Player:
    return get_object_or_404(Player.objects.select_related("club"), pk=player_id)


def visible_history(user: Any) -> Q:
    """The ratings history ``user`` may see: the rating after a match he may read (a published match, or
    any match of a club he belongs to) or after a match of a tournament he may read (a published one).

    A rating is shown as it stood after the last such match, so a match still unpublished neither
    appears nor moves the number shown (issue 25). The value after a match that is shown includes what
    came before it, as a rating does.
    """
    if user is not None and user.is_authenticated and user.is_superuser:
        return Q()
    visible = Q(match__published=True) | Q(match__tournament_table__round__tournament__published=True)
    if user is not None and user.is_authenticated:
        visible |= Q(match__club_id__in=Membership.objects.filter(user=user).values("club_id"))
    return visible


def _ratings_seen(players: Sequence[int], games: Sequence[str], visible: Q) -> dict[int, dict[str, Any]]:
    """Each player's rating in each game, after the last match ``visible`` lets the reader see."""
    seen = RatingHistory.objects.filter(visible, player_id__in=players, game__in=games)
    last = {
        (r["player_id"], r["game"]): (r["last"], r["n"])
        for r in seen.values("player_id", "game").annotate(last=Max("match_id"), n=Count("id"))
    }
    rows = RatingHistory.objects.filter(
        player_id__in=players, match_id__in={match for match, _ in last.values()}
    )
    out: dict[int, dict[str, Any]] = {}
    for h in rows:
        found = last.get((h.player_id, h.game))
        if found is not None and found[0] == h.match_id:
            out.setdefault(h.player_id, {})[h.game] = _rating_json(h.mu, h.sigma, found[1])
    return out


def player_ratings(player: Player, *, user: Any) -> dict[str, Any]:
    """A player's rating in each game he played, with its history (value and uncertainty after each
    match, in match order): only the matches ``user`` may see (:func:`visible_history`), the rating as it
    stood after the last of them."""
    history: dict[str, list[RatingHistory]] = {}
    for h in RatingHistory.objects.filter(visible_history(user), player=player).order_by("game", "match_id"):
        history.setdefault(h.game, []).append(h)
    games: dict[str, Any] = {}
    for game, points in history.items():
        now = points[-1]
        games[game] = {
            **_rating_json(now.mu, now.sigma, len(points)),
            "history": [
                {
                    "match": h.match_id,
                    "mu": round(h.mu, 4),
                    "sigma": round(h.sigma, 4),
                    "ordinal": _ordinal(h),
                }
                for h in points
            ],
        }
    return {"player": player.pk, "name": player.name, "club": player.club_id, "games": games}


def _ordinal(h: RatingHistory) -> float:
    return round(ratings.ordinal((h.mu, h.sigma)), 4)


def tournament_audit(tournament: Tournament) -> list[dict[str, Any]]:
    """Every event of the tournament's stream: what, who, when (settings changes carry their reason)."""
    return stream_audit(tournament.stream_id)


# ---- pages -------------------------------------------------------------------------------------------
def registration_candidates(tournament: Tournament) -> dict[str, Any]:
    """Who may still be registered: the club's own players, and the players of other clubs (as guests),
    grouped by club."""
    taken = Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    free = Player.objects.exclude(pk__in=taken).select_related("club").order_by("club__name", "name")
    members: list[Player] = []
    guests: dict[str, list[Player]] = {}
    for player in free:
        if player.club_id == tournament.club_id:
            members.append(player)
        else:
            guests.setdefault(player.club.name, []).append(player)
    return {"members": members, "guests": sorted(guests.items())}


def registration_rows(tournament: Tournament) -> list[Registration]:
    """The registrations with their players and clubs, playing ones first, by name."""
    return list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by("-active", "player__name")
    )


def round_summaries(tournament: Tournament) -> list[dict[str, Any]]:
    """Each round with how many of its tables are finished, in play and abandoned."""
    counts: dict[int, dict[str, int]] = {}
    tables = Table.objects.filter(round__tournament=tournament).values_list(
        "round_id", "abandoned", "match__status"
    )
    for round_id, abandoned, status in tables:
        c = counts.setdefault(round_id, {"tables": 0, "finished": 0, "in_play": 0, "abandoned": 0})
        c["tables"] += 1
        c[_progress_of(abandoned, status)] += 1
    empty = {"tables": 0, "finished": 0, "in_play": 0, "abandoned": 0}
    return [
        {"round": r, **counts.get(r.pk, empty), "sit_outs": r.n_sit_outs}
        for r in tournament.rounds.annotate(n_sit_outs=Count("sit_outs")).order_by("number")
    ]


def _progress_of(abandoned: bool, status: str) -> str:
    if abandoned:
        return "abandoned"
    return "finished" if status == Match.Status.FINISHED else "in_play"


def round_open_now(tournament: Tournament) -> Round | None:
    """The round in play, if there is one."""
    return tournament.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()


def table_sizes(t: Tournament, game: str) -> tuple[int, ...]:
    """The table sizes a round of ``game`` may have, larger first (Tressette's as the director chose:
    4 in pairs, 3 alone, or both as the count of players needs)."""
    if game == "tressette" and t.tressette_tables == Tournament.TressetteTables.PAIRS:
        return (4,)
    if game == "tressette" and t.tressette_tables == Tournament.TressetteTables.SOLO:
        return (3,)
    return tuple(sorted(get_game(game).seat_counts, reverse=True))


def table_warning(t: Tournament, game: str, players: int) -> str:
    """What the director should know of the tables a round of ``game`` seats with this many players:
    a mix of Tressette in pairs and alone that cannot be avoided (one ranking mixing both), or players
    sitting out that a mix would seat. Empty when there is nothing to say."""
    if game != "tressette" or players < 3:
        return ""
    layout = table_layout(players, table_sizes(t, game))
    fours, threes = layout.count(4), layout.count(3)
    out = players - sum(layout)
    if fours and threes:
        return ngettext(
            "{players} players: {fours} table of 4 in pairs and {threes} of 3 alone. A mix cannot be "
            "avoided with everyone seated, so one ranking mixes pairs and solo tables; choose tables of "
            "4 only or of 3 only to keep them apart (some then sit out).",
            "{players} players: {fours} tables of 4 in pairs and {threes} of 3 alone. A mix cannot be "
            "avoided with everyone seated, so one ranking mixes pairs and solo tables; choose tables of "
            "4 only or of 3 only to keep them apart (some then sit out).",
            fours,
        ).format(players=players, fours=fours, threes=threes)
    if out:
        return ngettext(
            "{players} players at tables of {size}: {out} sits out each round; tables of 4 and 3 mixed "
            "would seat everyone.",
            "{players} players at tables of {size}: {out} sit out each round; tables of 4 and 3 mixed "
            "would seat everyone.",
            out,
        ).format(players=players, size=layout[0] if layout else min(table_sizes(t, game)), out=out)
    return ""


def round_opening(tournament: Tournament) -> dict[str, Any]:
    """The round a worker was asked to plan and open: its number, the round's number once it is open
    (else None), whether the planning goes on and for how many seconds so far, why it failed."""
    kept = KeptSeating.objects.filter(tournament=tournament).first()
    latest = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    number = kept.opening if kept is not None and kept.opening else latest + 1
    return {
        "number": number,
        "round": number if latest >= number else None,
        "planning": kept is not None and kept.status == KeptSeating.Status.PLANNING,
        "seconds": (timezone.now() - kept.updated_at).total_seconds() if kept is not None else 0.0,
        "message": kept.message if kept is not None and kept.status == KeptSeating.Status.FAILED else "",
        "players": tournament.registrations.filter(active=True).count(),
    }


def round_latest(tournament: Tournament) -> Round | None:
    """The round a room watches: the one in play, or else the last one."""
    return tournament.rounds.order_by("-number").first()


def round_progress(rnd: Round) -> dict[str, Any]:
    """A round as the director watches it: :func:`round_detail`, and for each table its seats with their
    running totals, the hand being played, the hands a match plans when its game fixes them (deals
    agreed, Barbù's 28), the hands waiting for a ruling by number, and who partners whom; with the tables
    counted by progress."""
    detail = round_detail(rnd)
    match_ids = [t["match"] for t in detail["tables"]]
    sheets = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "sheet"))
    current: dict[int, int] = {}
    flagged: dict[int, list[int]] = {}
    for match_id, number, is_flagged in Hand.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "number", "flagged"
    ):
        current[match_id] = max(current.get(match_id, 0), number)
        if is_flagged:
            flagged.setdefault(match_id, []).append(number)
    counts = {"finished": 0, "in_play": 0, "abandoned": 0}
    tables = []
    for t in detail["tables"]:
        names = {p["player"]: p["name"] for p in t["players"]}
        counts[t["progress"]] += 1
        totals = (sheets.get(t["match"]) or {}).get("totals") or []
        tables.append(
            {
                **t,
                "seats": [
                    {**p, "total": totals[i] if i < len(totals) else None} for i, p in enumerate(t["players"])
                ],
                "dealer_name": t["players"][t["dealer"]]["name"] if t["players"] else "",
                "pair_names": [[names.get(p, "?") for p in pair] for pair in t["pairs"] or []],
                "current_hand": current.get(t["match"], 1),
                "hands_planned": _hands_planned(sheets.get(t["match"]) or {}),
                "flagged_hands": sorted(flagged.get(t["match"], [])),
            }
        )
    return {**detail, "tables": tables, "counts": counts}


def _hands_planned(sheet: dict[str, Any]) -> int | None:
    """The hands a match plays, when its game fixes the number (the sheet's details say it: the deals
    agreed at Tarocchi and Italian Hombre, Barbù's hands); None for a match played to a target."""
    details = sheet.get("details") or {}
    for key in ("deals", "hands"):
        value = details.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def standings_tables(tournament: Tournament) -> list[dict[str, Any]]:
    """Which tables the standings include, round by round: counted (their finished match is in the
    standings as it stands now), pending (finished, or changed by a ruling, and waiting for the worker to
    count it: the worker is down or behind), in play (not finished), abandoned (never counted)."""
    counted = dict(
        StandingsContribution.objects.filter(tournament=tournament, match__isnull=False).values_list(
            "match_id", "position"
        )
    )
    rounds: dict[int, dict[str, Any]] = {}
    tables = (
        Table.objects.filter(round__tournament=tournament)
        .annotate(last=Max("match__hands__position"))
        .values_list(
            "round__number", "round__game", "number", "match_id", "abandoned", "match__status", "last"
        )
        .order_by("round__number", "number")
    )
    for number, game, table, match_id, abandoned, status, last in tables:
        r = rounds.setdefault(
            number,
            {"round": number, "game": game, "counted": [], "pending": [], "in_play": [], "abandoned": []},
        )
        if abandoned:
            r["abandoned"].append(table)
        elif status != Match.Status.FINISHED:
            r["in_play"].append(table)
        elif counted.get(match_id) == last:
            r["counted"].append(table)
        else:
            r["pending"].append(table)
    return list(rounds.values())


def abandon_reasons(tournament: Tournament) -> dict[int, str]:
    """The reason each abandoned table was given, by its match."""
    return dict(
        Table.objects.filter(round__tournament=tournament, abandoned=True).values_list(
            "match_id", "abandon_reason"
        )
    )


def tournament_changes(tournament: Tournament) -> list[dict[str, Any]]:
    """The settings changes in the tournament's log, newest first: when, by whom, what and why."""
    return [
        {
            "at": e["at"],
            "by": e["by"],
            "changes": e["payload"].get("changes", {}),
            "reason": e["payload"].get("reason", ""),
        }
        for e in reversed(tournament_audit(tournament))
        if e["type"] == "TournamentChanged"
    ]


# ---- a player's history ------------------------------------------------------------------------------
def player_tournaments(player: Player, tournaments: QuerySet[Tournament]) -> list[dict[str, Any]]:
    """The tournaments among ``tournaments`` (those the reader may read) the player is registered in,
    newest first, with his rank in their standings."""
    registrations = (
        Registration.objects.filter(player=player, tournament__in=tournaments)
        .select_related("tournament__club", "tournament__standings")
        .order_by("-tournament__created_at", "-tournament_id")
    )
    out = []
    for r in registrations:
        t = r.tournament
        rows = t.standings.data.get("rows", []) if hasattr(t, "standings") else []
        rank = next((row["rank"] for row in rows if row["player"] == player.pk), None)
        out.append(
            {"tournament": t, "guest": r.guest, "active": r.active, "rank": rank, "players": len(rows)}
        )
    return out


def player_matches(player: Player, matches: QuerySet[Match]) -> QuerySet[Match]:
    """The matches among ``matches`` (those the reader may read) where the player held a seat, newest
    first, with their seats and tournament table."""
    return (
        matches.filter(seats__player=player)
        .select_related("tournament_table__round__tournament")
        .prefetch_related("seats")
        .order_by("-created_at", "-id")
        .distinct()
    )


def player_match_rows(player: Player, matches: Iterable[Match]) -> list[dict[str, Any]]:
    """One row per match for the player's history: when, which game, his seat and table-mates, his total,
    and his place among the sides once the match is over (placed as the standings place a table)."""
    rows = []
    for match in matches:
        seats = sorted(match.seats.all(), key=lambda s: s.seat)
        mine = next((s.seat for s in seats if s.player_id == player.pk), None)
        if mine is None:
            continue
        sheet = match.sheet or {}
        totals = sheet.get("totals") or []
        table = getattr(match, "tournament_table", None)
        rows.append(
            {
                "match": match,
                "seat": mine,
                "mates": [s for s in seats if s.seat != mine],
                "total": totals[mine] if mine < len(totals) else None,
                "finished": match.status == Match.Status.FINISHED,
                "abandoned": match.status == Match.Status.ABANDONED or bool(table and table.abandoned),
                **_placing(match.game, sheet, len(seats), mine),
                "table": table,
            }
        )
    return rows


def _placing(game: str, sheet: dict[str, Any], n: int, seat: int) -> dict[str, Any]:
    if not sheet.get("finished") or len(sheet.get("totals") or []) != n:
        return {"place": None, "sides": None, "won": None}
    sides = (sheet.get("details") or {}).get("sides") or [[s] for s in range(n)]
    result = table_result(
        key="",
        game=game,
        players=list(range(n)),
        totals=sheet["totals"],
        winners=sheet.get("winners") or [],
        sides=sides,
        ruled_against=[],
        position=0,
        recorded_at="",
    )
    placing = result.placings[seat]
    return {"place": placing.rank, "sides": len(sides), "won": placing.won}
