"""Reads of the tournament half: clubs, tournaments, rounds and their tables' progress, standings (with
ratings), exports, a player's ratings, and a tournament's audit trail."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404

from scoring.models import Hand, Match
from scoring.selectors import stream_audit
from tournaments import ratings
from tournaments.models import (
    Club,
    Player,
    PlayerRating,
    RatingHistory,
    Registration,
    Round,
    Standings,
    Table,
    Tournament,
)
from tournaments.standings import METRICS, show


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
def standings(tournament: Tournament) -> dict[str, Any]:
    """The standings as last computed (rows, the metrics in precedence order, why each row is below the
    one above, notes on tables), how fresh they are, and each player's rating in the tournament's games."""
    row = Standings.objects.get(tournament=tournament)
    data = dict(row.data)
    found = PlayerRating.objects.filter(
        game__in=tournament.games, player_id__in=[r["player"] for r in data.get("rows", [])]
    )
    by_player: dict[int, dict[str, Any]] = {}
    for r in found:
        by_player.setdefault(r.player_id, {})[r.game] = _rating_json(r.mu, r.sigma, r.matches)
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


def standings_csv(data: dict[str, Any]) -> str:
    """Standings (as :func:`standings` gives them) as CSV: one row per player, the criteria as columns,
    and why the player is above the next one."""
    keys = [k for k in data["precedence"] if k != "lot"]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["rank", "player", *[METRICS[k].name for k in keys], "tables", "sit-outs", "why above the next"]
    )
    rows = data["rows"]
    for i, r in enumerate(rows):
        below = rows[i + 1]["why_above"]["text"] if i + 1 < len(rows) else ""
        values = [_csv_value(r["values"].get(k)) for k in keys]
        writer.writerow([r["rank"], r["name"], *values, r["tables"], r["sit_outs"], below])
    return out.getvalue()


def error_csv(data: Any) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["code", "message"])
    if isinstance(data, dict):
        writer.writerow([data.get("code", ""), data.get("message", data.get("detail", ""))])
    return out.getvalue()


def _csv_value(value: Any) -> str:
    return "" if value is None else show(Fraction(str(value)))


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


def player_ratings(player: Player) -> dict[str, Any]:
    """A player's rating in each game he played, with its history (value and uncertainty after each
    match, in match order)."""
    games: dict[str, Any] = {}
    for r in PlayerRating.objects.filter(player=player).order_by("game"):
        games[r.game] = {**_rating_json(r.mu, r.sigma, r.matches), "history": []}
    for h in RatingHistory.objects.filter(player=player).order_by("game", "match_id"):
        if h.game in games:
            games[h.game]["history"].append({"match": h.match_id, **_rating_json(h.mu, h.sigma, 0)})
    for g in games.values():
        for item in g["history"]:
            item.pop("matches")
    return {"player": player.pk, "name": player.name, "club": player.club_id, "games": games}


def tournament_audit(tournament: Tournament) -> list[dict[str, Any]]:
    """Every event of the tournament's stream: what, who, when (settings changes carry their reason)."""
    return stream_audit(tournament.stream_id)
