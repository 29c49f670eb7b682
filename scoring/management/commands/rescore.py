"""``manage.py rescore FILE --options JSON``: a hand or match record scored again under other options of
its game, compared hand by hand with the record as it stands. A read: nothing is stored."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.hands.records import RecordError
from scoring.hands.whatif import rescore
from scoring.management.commands.replay import MALFORMED, read_json, record_failure


class Command(BaseCommand):
    help = (
        "Score a hand or match record (docs/record-format.md) again under other options of its game (put "
        "over the recorded ones) and print, as JSON labelled what_if, each hand's result and scores before "
        "and after, the totals and who wins, and where a move could not stand under the other options. "
        "Exit status as replay: 0 answered, 2 a malformed record or options, 3 an impossible record."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record file, or - for standard input")
        parser.add_argument(
            "--options",
            required=True,
            help='the options to change, as a JSON object: \'{"rounding": "traditional"}\'',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            other = json.loads(options["options"])
        except json.JSONDecodeError as exc:
            raise CommandError(f"--options is not JSON: {exc}", returncode=MALFORMED) from exc
        if not isinstance(other, dict):
            raise CommandError("--options is a JSON object of option names and values", returncode=MALFORMED)
        data = read_json(path)
        try:
            report = rescore(data, other)
        except RecordError as exc:
            raise record_failure(path, exc) from exc
        self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
