"""``manage.py import_record FILE --club ID``: create a match from a hand or match record."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from scoring.hands.records import RecordError
from scoring.management.commands.replay import read_json, record_failure
from scoring.services import match_import


class Command(BaseCommand):
    help = (
        "Import a hand or match record as a new match of a club; every move and ruling is checked as if "
        "it were recorded live. Prints the new match's id."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record file, or - for standard input")
        parser.add_argument("--club", required=True, help="the club's id or exact name")
        parser.add_argument("--user", help="the username recorded as the actor (default: none)")
        parser.add_argument("--title", default="")
        parser.add_argument("--published", action="store_true", help="anyone may read the match")

    def handle(self, *args: Any, **options: Any) -> None:
        club = _club(options["club"])
        actor = None
        if options["user"]:
            actor = get_user_model().objects.filter(username=options["user"]).first()
            if actor is None:
                raise CommandError(f"no user {options['user']!r}")
        data = read_json(options["file"])
        try:
            match = match_import(
                club=club, record=data, actor=actor, title=options["title"], published=options["published"]
            )
        except RecordError as exc:
            raise record_failure(options["file"], exc) from exc
        self.stdout.write(str(match.pk))


def _club(ref: str) -> Club:
    found = (
        Club.objects.filter(pk=int(ref)).first() if ref.isdigit() else Club.objects.filter(name=ref).first()
    )
    if found is None:
        raise CommandError(f"no club {ref!r}")
    return found
