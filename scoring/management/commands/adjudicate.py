"""``manage.py adjudicate FILE [--at N]``: decide a claim in a hand record by search, and print the answer as
JSON (``docs/rules/claims.md``)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.hands.records import RecordError, check_entries, load_hand
from scoring.management.commands.replay import IMPOSSIBLE, MALFORMED, read_json, record_failure
from scoring.rules import RulesError
from scoring.rules.claims import DEFAULT_BUDGET, adjudicate
from scoring.rules.moves import Claim


class Command(BaseCommand):
    help = (
        "Decide a claim in a hand record (docs/record-format.md) by searching every line of play: prints "
        "JSON with the verdict (holds, holds_with_best_play, fails or undecided), what was claimed, what "
        "best and careless play give, and the line that shows it. The claim is the move at index N "
        "(--at), or the last claim of the record. Exit status 0 when answered, 2 for a malformed file, "
        "3 for an impossible record or a move N that is not a claim that could be made."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the hand record file, or - for standard input")
        parser.add_argument("--at", type=int, default=None, help="the index in moves of the claim")
        parser.add_argument(
            "--hands",
            default=None,
            help="the hands at the claim as JSON (card lists by seat), when the deal is not recorded",
        )
        parser.add_argument(
            "--budget", type=float, default=DEFAULT_BUDGET, help="seconds the search may take (default 2)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        data = read_json(path)
        hands = None
        if options["hands"] is not None:
            try:
                hands = json.loads(options["hands"])
            except json.JSONDecodeError as exc:
                raise CommandError(f"--hands is not JSON: {exc}", returncode=MALFORMED) from exc
            if not isinstance(hands, list) or not all(
                isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands
            ):
                raise CommandError("--hands is a list of card lists", returncode=MALFORMED)
        try:
            setup, entries, _direction = load_hand(data)
        except RecordError as exc:
            raise record_failure(path, exc) from exc
        except RulesError as exc:
            raise record_failure(path, RecordError.wrap(exc)) from exc
        moves = data.get("moves", [])
        at = options["at"]
        if at is None:
            claims = [i for i, m in enumerate(moves) if isinstance(m, dict) and m.get("type") == "claim"]
            if not claims:
                raise CommandError(f"{path}: the record has no claim", returncode=IMPOSSIBLE)
            at = claims[-1]
        if not 0 <= at < len(moves) or not isinstance(moves[at], dict) or moves[at].get("type") != "claim":
            raise CommandError(f"{path}: moves[{at}] is not a claim", returncode=IMPOSSIBLE)
        # The hand as it stood just before the claim: the deal and every entry before moves[at].
        before = [e for e in entries if e.position <= at]
        try:
            view, _verdicts = check_entries(setup, before)
        except RecordError as exc:
            raise record_failure(path, exc) from exc
        claim = next(e.move for e in entries if e.position == at + 1)  # type: ignore[union-attr]
        assert isinstance(claim, Claim)
        try:
            answer = adjudicate(view.game, view.state, claim, hands=hands, budget=options["budget"])
        except RulesError as exc:
            raise record_failure(path, RecordError.wrap(exc, f"moves[{at}].")) from exc
        answer["at"] = at
        self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False))
