"""``manage.py verify_projections``: every read model built again from the event log, in memory, and
compared with the stored rows."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.batch import gc_paused
from scoring.models import Match
from scoring.rules import game_names
from scoring.selectors import Difference, match_differences
from tournaments import projections
from tournaments.models import Tournament

DIFFERS = 1
SHOWN = 300  # characters of a value printed (a whole standings document is long)


def shown(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def differing_keys(stored: Any, logged: Any, path: str = "") -> list[str]:
    """Where two JSON values part (the first few paths), so that a long document's difference is found."""
    if isinstance(stored, dict) and isinstance(logged, dict):
        out = []
        for key in sorted(set(stored) | set(logged), key=str):
            if stored.get(key) != logged.get(key):
                out += differing_keys(stored.get(key), logged.get(key), f"{path}.{key}")
        return out
    if isinstance(stored, list) and isinstance(logged, list) and len(stored) == len(logged):
        out = []
        for i, (a, b) in enumerate(zip(stored, logged, strict=True)):
            if a != b:
                out += differing_keys(a, b, f"{path}[{i}]")
        return out
    return [path or "."]


class Command(BaseCommand):
    help = (
        "Build every projection again from the event log, in memory, and compare it with the stored rows: "
        "each match, its seats and its hands (from its MatchOpened and its hands' streams), each "
        "tournament's settings, rounds, tables, sit-outs, standings and contributions (from its stream and "
        "its tables' matches), each game's ratings. Prints each stored row that differs (table, key, "
        "column, stored value, value from the log); exit status 1 when any does. Writes nothing: "
        "`standings_rebuild --ratings` writes the standings and ratings the log makes (docs/security.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=projections.REBUILD_BATCH, help="matches per read")

    def handle(self, *args: Any, **options: Any) -> None:
        found: list[Difference] = []
        checked = {"matches": 0, "tournaments": 0, "games": 0}
        with gc_paused():
            ids = list(Match.objects.order_by("pk").values_list("pk", flat=True))
            for start in range(0, len(ids), options["batch"]):
                found += match_differences(ids[start : start + options["batch"]])
            checked["matches"] = len(ids)
            for tournament in Tournament.objects.order_by("pk"):
                found += projections.tournament_differences(tournament)
                checked["tournaments"] += 1
            for game in game_names():
                found += projections.ratings_differences(game)
                checked["games"] += 1
        for d in found:
            where = ""
            if d.column != "(row)" and isinstance(d.stored, dict | list):
                where = f" at {', '.join(differing_keys(d.stored, d.logged)[:5])}"
            self.stdout.write(
                f"{d.table} {d.key} {d.column}{where}: "
                f"stored {shown(d.stored)}, from the log {shown(d.logged)}"
            )
        summary = (
            f"{checked['matches']} matches, {checked['tournaments']} tournaments and the ratings of "
            f"{checked['games']} games built from the log"
        )
        if found:
            raise CommandError(
                f"{len(found)} stored values differ from the log ({summary})", returncode=DIFFERS
            )
        self.stdout.write(f"ok: {summary}; every stored row says what the log says")
