"""``manage.py replay FILE``: check a hand or match record and print what it amounts to, as JSON."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.hands.records import RecordError, check

MALFORMED = 2  # not a record: unreadable JSON, a field missing or of the wrong type, an unknown option
IMPOSSIBLE = 3  # a well-formed record of a hand that cannot have happened


def read_json(path: str) -> Any:
    """The JSON in ``path`` (``-``: standard input); CommandError with exit status 2 when unreadable."""
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}", returncode=MALFORMED) from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CommandError(f"{path} is not JSON: {exc}", returncode=MALFORMED) from exc


def record_failure(path: str, exc: RecordError) -> CommandError:
    kind = "malformed" if exc.malformed else "impossible"
    where = f" at {exc.field}" if exc.field else ""
    return CommandError(
        f"{path}: {kind} record{where}: {exc.message} [{exc.code}]",
        returncode=MALFORMED if exc.malformed else IMPOSSIBLE,
    )


class Command(BaseCommand):
    help = (
        "Check a hand or match record (docs/record-format.md) through the rule engine and print JSON: "
        "legal, irregularities, result, scores. Exit status 0 when the record is well formed, whether or "
        "not it has irregularities; 2 when it is malformed; 3 when it describes an impossible hand."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        data = read_json(path)
        try:
            report = check(data)
        except RecordError as exc:
            raise record_failure(path, exc) from exc
        self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
