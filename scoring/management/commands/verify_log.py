"""``manage.py verify_log``: check every stored event against the log's two hash chains."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.log import chain, store
from scoring.models import Match
from scoring.selectors import match_hashes

BROKEN = 1


class Command(BaseCommand):
    help = (
        "Check the whole event log, in global order, against its hash chains (docs/event-store.md): each "
        "event's stream hash against its content and its stream's previous event, each log hash against "
        "the event before it. Prints the number of events and the log's head hash; exit status 1 naming "
        "the first event that does not match. With --match, also prints the hashes the match's printed "
        "score sheet shows, to check a paper copy against; with --stream and --at, one stream's hash "
        "at that version."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--match", type=int, help="print this match's hand and match hashes")
        parser.add_argument("--stream", help="a stream id (with --at): print its hash at that version")
        parser.add_argument("--at", type=int, dest="at_version", help="the stream version for --stream")

    def handle(self, *args: Any, **options: Any) -> None:
        if (options["stream"] is None) != (options["at_version"] is None):
            raise CommandError("--stream and --at go together")
        match = None
        if options["match"] is not None:
            match = Match.objects.filter(pk=options["match"]).first()
            if match is None:
                raise CommandError(f"there is no match {options['match']}")

        found = chain.verify(store.chained_rows())
        if found.broken is not None:
            raise CommandError(
                f"the log is broken at event number {found.events + 1} of the log's order: {found.broken}",
                returncode=BROKEN,
            )
        self.stdout.write(
            f"ok: {found.events} events in {found.streams} streams match their hashes; "
            f"log head {found.head.hex()}"
        )
        if match is not None:
            hashes = match_hashes(match)
            self.stdout.write(f"match {match.pk} ({match}): {hashes.short}  [{hashes.match.hex()}]")
            for hand in hashes.hands:
                full = hand.hash.hex() if hand.hash else "none"
                self.stdout.write(f"  hand {hand.number} v{hand.version}: {hand.short}  [{full}]")
        if options["stream"] is not None:
            at = store.stream_hash_at(options["stream"], options["at_version"])
            if at is None:
                raise CommandError(f"{options['stream']} has no event at version {options['at_version']}")
            self.stdout.write(
                f"{options['stream']} v{options['at_version']}: {chain.short(at)}  [{at.hex()}]"
            )
