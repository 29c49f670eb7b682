"""``manage.py seating_plan``: plan an evening's seating before the names are known (players 0..N-1)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.plan.seating import SeatingError, plan_seating


def sizes(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        # argparse reports it and exits 2, as for any malformed argument
        raise argparse.ArgumentTypeError(f"--table-size takes sizes like 4 or 4,3, not {text!r}") from None


class Command(BaseCommand):
    help = (
        "Plan the seating of an evening: players numbered 0..N-1, tables of the given size(s), so that "
        "players meet as many different opponents as they can. Prints a table per round and the number of "
        "repeated meetings, or JSON with --json."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="how many players")
        parser.add_argument("--table-size", type=sizes, required=True, help="e.g. 3, or 4,3 for a mix")
        parser.add_argument("--rounds", type=int, required=True, help="how many rounds")
        parser.add_argument("--seed", type=int, default=0, help="the same seed gives the same plan")
        parser.add_argument("--budget", type=float, default=8.0, help="seconds the search may take")
        parser.add_argument("--pairs", action="store_true", help="Tressette at four: partners change")
        parser.add_argument("--json", action="store_true", help="print the plan as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        n, rounds = options["players"], options["rounds"]
        if n < 1:
            raise CommandError("--players must be at least 1", returncode=2)
        progress = (
            None if options["verbosity"] == 0 else (lambda text: print(text, file=sys.stderr, flush=True))
        )
        try:
            plan = plan_seating(
                players=list(range(n)),
                table_sizes=options["table_size"],
                rounds=rounds,
                seed=options["seed"],
                partnerships=options["pairs"],
                budget_seconds=options["budget"],
                progress=progress,
            )
        except SeatingError as exc:
            raise CommandError(str(exc), returncode=2) from exc
        if options["json"]:
            body = {
                "rounds": [[list(t.players) for t in r.tables] for r in plan.rounds],
                "repeats": plan.repeats,
                "lower_bound": plan.lower_bound,
                "sit_outs": [list(r.sit_outs) for r in plan.rounds],
                "dealers": [[t.players[t.dealer] for t in r.tables] for r in plan.rounds],
                "seed": plan.seed,
            }
            self.stdout.write(json.dumps(body))
            return
        for number, rnd in enumerate(plan.rounds, start=1):
            self.stdout.write(f"Round {number}")
            for i, table in enumerate(rnd.tables, start=1):
                seats = "  ".join(f"{p:>3}" for p in table.players)
                self.stdout.write(f"  table {i:>2}: {seats}   (first dealer {table.players[table.dealer]})")
            if rnd.sit_outs:
                self.stdout.write(f"  sitting out: {', '.join(str(p) for p in rnd.sit_outs)}")
        verdict = "the least possible" if plan.optimal else f"lower bound {plan.lower_bound}"
        self.stdout.write(f"Repeated meetings: {plan.repeats} ({verdict}); seed {plan.seed}")
