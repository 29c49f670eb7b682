"""``manage.py export_record --match ID [--hand N]``: print a match or one hand as a record."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import Hand, Match
from scoring.selectors import hand_export, match_export


class Command(BaseCommand):
    help = "Print a match (or, with --hand, one of its hands) as a record (docs/record-format.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--match", type=int, required=True, help="the match id")
        parser.add_argument("--hand", type=int, help="the hand number (1 for the first hand)")
        parser.add_argument("-o", "--output", help="write to this file instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        match = Match.objects.filter(pk=options["match"]).first()
        if match is None:
            raise CommandError(f"no match {options['match']}")
        if options["hand"] is None:
            record = match_export(match)
        else:
            hand = Hand.objects.filter(match=match, number=options["hand"]).first()
            if hand is None:
                raise CommandError(f"match {match.pk} has no hand {options['hand']}")
            record = hand_export(hand)
        text = json.dumps(record, indent=2, ensure_ascii=False)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text + "\n")
        else:
            self.stdout.write(text)
