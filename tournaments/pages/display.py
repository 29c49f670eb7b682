"""What the tournament pages show, in the reader's language, arranged from what the selectors return: the
criteria by name, why a row is above the next, notes on tables, a table's progress, and the services'
refusals. No rule lives here: the standings, the services and the selectors decide, this only words it.

The stored standings and the API keep their English text (``why_above.text``, a note's ``text``); the
pages build their sentences again from the same facts, so that they read in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils import formats
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.errors import ConcurrencyConflict, ServiceError
from scoring.pages import display as scoring_display
from tournaments.models import Tournament
from tournaments.plan.standings import METRICS, SHOWN_DECIMALS, decimals_apart, show


# ---- numbers and names -------------------------------------------------------------------------------
def number(value: Any, places: int | None = SHOWN_DECIMALS) -> str:
    """A value of the standings for people: whole numbers as they are, others with up to ``places``
    decimals in the reader's notation (None: as an exact fraction, "19/18"), none as a dash."""
    if value is None or value == "":
        return "–"
    exact = Fraction(str(value))
    if exact.denominator == 1:
        return str(exact.numerator)
    if places is None:
        return str(exact)
    text = show(exact, places)  # rounded exactly, then written in the reader's notation
    return str(formats.number_format(Decimal(text), use_l10n=True))


def numbers_apart(a: Any, b: Any) -> tuple[str, str]:
    """Two deciding values shown so that, when they differ, their texts differ too."""
    fa = None if a is None or a == "" else Fraction(str(a))
    fb = None if b is None or b == "" else Fraction(str(b))
    places = decimals_apart(fa, fb)
    return number(a, places), number(b, places)


def metric_name(key: str) -> str:
    return gettext(METRICS[key].name) if key in METRICS else key


def metric_abbr(key: str) -> str:
    return gettext(METRICS[key].abbr) if key in METRICS else key


def metric_columns(precedence: Iterable[str]) -> list[dict[str, str]]:
    """The criteria shown as columns (all but the lot), with their names, abbreviations and direction."""
    return [
        {
            "key": key,
            "name": metric_name(key),
            "abbr": metric_abbr(key),
            "better": gettext("lower is better") if METRICS[key].ascending else gettext("higher is better"),
        }
        for key in precedence
        if key in METRICS and key != "lot"
    ]


def game_titles(games: Iterable[str]) -> str:
    return ", ".join(scoring_display.game_title(g) for g in games)


def scoring_name(value: str) -> str:
    try:
        return str(Tournament.Scoring(value).label)
    except ValueError:
        return value


# ---- standings ---------------------------------------------------------------------------------------
def why_above(above: str, below: str, why: Mapping[str, Any]) -> str:
    """The sentence for two neighbouring rows, e.g. "Bianchi above Rossi: equal on total 42; tables won
    3 against 2", from the facts the standings keep (the first criterion that differs, both values, and
    the criteria equal before it)."""
    reasons = []
    equal = why.get("equal_on") or []
    if equal:
        criteria = ", ".join(f"{metric_name(k)} {number(v)}" for k, v in equal)
        reasons.append(gettext("equal on %(criteria)s") % {"criteria": criteria})
    shown_above, shown_below = numbers_apart(why["above"], why["below"])
    if why["key"] == "lot":
        reasons.append(
            gettext("drawn by lot, %(above)s against %(below)s")
            % {"above": shown_above, "below": shown_below}
        )
    else:
        reasons.append(
            gettext("%(criterion)s %(above)s against %(below)s")
            % {"criterion": metric_name(why["key"]), "above": shown_above, "below": shown_below}
        )
    return gettext("%(above)s above %(below)s: %(reasons)s") % {
        "above": above,
        "below": below,
        "reasons": "; ".join(reasons),
    }


def standings_rows(
    rows: Sequence[Mapping[str, Any]], keys: Sequence[str], games: Sequence[str]
) -> list[dict[str, Any]]:
    """The rows as the page shows them: values per column, ratings per game, and the sentence saying why
    the row above is above this one."""
    shown = []
    for i, r in enumerate(rows):
        why = r.get("why_above")
        shown.append(
            {
                **r,
                "cells": [number(r["values"].get(k)) for k in keys],
                "ratings_shown": [rating(r.get("ratings", {}).get(g)) for g in games],
                "why_text": why_above(rows[i - 1]["name"], r["name"], why) if why and i else "",
            }
        )
    return shown


def rating(value: Mapping[str, Any] | None) -> str:
    """A rating's ordinal (mu − 3 sigma), one decimal."""
    if value is None:
        return "–"
    return str(formats.number_format(value["ordinal"], decimal_pos=1, use_l10n=True))


def note_text(note: Mapping[str, Any], reasons: Mapping[int, str]) -> str:
    """A note on a table (``tournaments.projections.table_notes``) in the reader's language."""
    where = {"round": note["round"], "table": note["table"]}
    if note["kind"] == "abandoned":
        return gettext("Round %(round)s, table %(table)s was abandoned (%(reason)s): it counts nothing.") % {
            **where,
            "reason": reasons.get(note["match"], ""),
        }
    if note["kind"] == "reopened":
        return (
            gettext(
                "Round %(round)s, table %(table)s was reopened by a ruling after the round closed: "
                "it is not counted until it finishes again."
            )
            % where
        )
    if note["kind"] == "changed":
        return (
            gettext(
                "Round %(round)s, table %(table)s was changed by a ruling after the round closed: "
                "it is counted as it stands now."
            )
            % where
        )
    return str(note.get("text", ""))


# ---- rounds and tables -------------------------------------------------------------------------------
PROGRESS: dict[str, Promise] = {
    "in_play": _("in play"),
    "finished": _("finished"),
    "abandoned": _("abandoned"),
}


def progress(value: str) -> str:
    return str(PROGRESS.get(value, value))


# ---- refusals ----------------------------------------------------------------------------------------
# The services' refusals by code, in the reader's language. The placeholders are filled from what the
# view knows (the player, the round, the table); a refusal not listed here shows the service's own text.
REFUSALS: dict[str, Promise] = {
    "tournament.name": _("A tournament needs a name of at most 120 characters."),
    "tournament.kind": _("Choose a tournament or a league."),
    "tournament.games": _("Choose at least one game."),
    "tournament.scoring": _(
        "The games' own totals cannot be added up across different games: choose rank points for a "
        "tournament of several games."
    ),
    "tiebreaks.empty": _("Name at least one criterion."),
    "tiebreaks.unknown": _("Choose the criteria from the list."),
    "tiebreaks.repeated": _("Each criterion may appear once."),
    "tiebreaks.lot": _("The lot can only come last."),
    "tiebreaks.malformed": _("Choose the criteria from the list."),
    "tournament.score": _("The score of a sit-out is a whole number or a fraction, such as 6 or 13/2."),
    "tournament.rounds_planned": _("The rounds planned are from 1 to 99."),
    "tournament.scorers": _("Every scorer must be a scorer or a director of the club."),
    "tournament.reason": _("Give a reason."),
    "tournament.unchanged": _("Nothing to change."),
    "registration.other_club": _("%(player)s plays for another club: register them as a guest."),
    "registration.twice": _("%(player)s is already registered."),
    "registration.none": _("%(player)s is not playing in this tournament."),
    "round.open": _("A round is still open: close it before opening the next one."),
    "round.game": _("Choose the game of this round."),
    "round.too_few": _("Too few players are registered to seat a table of this game."),
    "round.unknown": _("There is no such round."),
    "round.closed": _("Round %(round)s is closed."),
    "round.unfinished": _(
        "A table has not finished: finish its match, or record it as abandoned with a reason, then close "
        "the round."
    ),
    "table.unknown": _("This round has no table %(table)s."),
    "table.abandoned": _("Table %(table)s is already abandoned."),
    "table.finished": _("Table %(table)s has finished its match: it cannot be abandoned."),
}


def refusal(exc: ServiceError, overrides: Mapping[str, Any] | None = None, **params: Any) -> str:
    """A service's refusal for people: in the reader's language where the code is known (``overrides``
    words one differently for this page), the service's own text otherwise."""
    template = (overrides or {}).get(exc.code) or REFUSALS.get(exc.code)
    if template is None:
        return exc.message
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return exc.message


def stale(exc: ConcurrencyConflict) -> str:
    """A form posted against a version of the tournament that is no longer the latest."""
    return gettext(
        "Someone else changed this tournament meanwhile (another director, or this page in another "
        "window): nothing was written. This is the tournament as it is now (version %(actual)s; the page "
        "you sent showed version %(expected)s): check it, then try again."
    ) % {"actual": exc.actual, "expected": exc.expected}
