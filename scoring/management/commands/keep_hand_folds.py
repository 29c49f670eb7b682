"""``manage.py keep_hand_folds``: keep each finished hand's fold with it where it is missing or stale."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError

from scoring.services import hand_folds_keep


class Command(BaseCommand):
    help = (
        "Fold from the log every finished hand whose kept fold is missing or no longer serves (after an "
        "upgrade that changed the rule engine, every one; docs/whatif.md) and keep it with the hand, so "
        "that a first what-if of its match need not fold it. Prints how many were written."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            written = hand_folds_keep()
        except ImproperlyConfigured as e:  # no SECRET_KEY of the service's: nothing written
            raise CommandError(str(e)) from None
        self.stdout.write(f"{written} hand folds kept")
