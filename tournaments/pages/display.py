"""What the tournament pages show, in the reader's language, arranged from what the selectors return: the
criteria by name, why a row is above the next, notes on tables, a table's progress, and the services'
refusals. No rule lives here: the standings, the services and the selectors decide, this only words it.

The stored standings and the API keep their English text (``why_above.text``, a note's ``text``); the
pages build their sentences again from the same facts, so that they read in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils import formats
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.errors import ConcurrencyConflict, ServiceError
from scoring.pages import display as scoring_display
from tournaments.models import Tournament
from tournaments.plan.standings import METRICS
from tournaments.words import metric_abbr, metric_name, note_text, number, numbers_apart, why_above

__all__ = ["metric_abbr", "metric_name", "note_text", "number", "numbers_apart", "why_above"]


# ---- numbers and names -------------------------------------------------------------------------------
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
                # Each value with its column's abbreviation: the label of a row stacked on a phone.
                "labelled": [(metric_abbr(k), number(r["values"].get(k))) for k in keys],
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
    "tournament.tressette_tables": _("Choose the Tressette tables from the list."),
    "tournament.scorers": _("Every scorer must be a scorer or a director of the club."),
    "tournament.reason": _("Give a reason."),
    "tournament.unchanged": _("Nothing to change."),
    "registration.other_club": _("%(player)s plays for another club: register them as a guest."),
    "registration.twice": _("%(player)s is already registered."),
    "registration.none_ticked": _("Tick at least one player."),
    "guest.own_club": _("That is this tournament's own club: register %(player)s as a member."),
    "guest.name": _("Give the guest's name (at most 120 characters)."),
    "guest.club": _("Give the name of the guest's club (at most 120 characters)."),
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


# ---- the tournament's log ----------------------------------------------------------------------------
def _changed_fields(changes: Mapping[str, Any]) -> str:
    names = {
        "name": _("name"),
        "tiebreaks": _("tie-breaks"),
        "scoring": _("scoring"),
        "sit_out_score": _("score for a sit-out"),
        "rounds_planned": _("rounds planned"),
        "game_options": _("game options"),
        "scorers": _("scorers"),
        "forbidden_pairs": _("pairs kept apart"),
    }
    return ", ".join(str(names.get(key, key)) for key in changes)


def audit_line(entry: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """One decision of the tournament's log in words: what was done (the reason is shown beside it)."""
    kind, p = entry["type"], entry["payload"]
    if kind == "TournamentCreated":
        return gettext("Set up: {games}, scored by {scoring}").format(
            games=game_titles(p.get("games", ())), scoring=scoring_name(p.get("scoring", ""))
        )
    if kind == "TournamentChanged":
        return gettext("Settings changed: {fields}").format(fields=_changed_fields(p.get("changes", {})))
    if kind == "PlayerRegistered":
        if p.get("guest"):
            return gettext("{name} registered as a guest").format(name=p.get("name", ""))
        return gettext("{name} registered").format(name=p.get("name", ""))
    if kind == "PlayerWithdrawn":
        player = names.get(p.get("player", 0), f"#{p.get('player')}")
        return gettext("{name} withdrawn").format(name=player)
    if kind == "RoundOpened":
        tables, out = len(p.get("tables", ())), len(p.get("sit_outs", ()))
        return gettext("Round {n} opened: {tables} tables, {out} sitting out").format(
            n=p.get("number"), tables=tables, out=out
        )
    if kind == "TableAbandoned":
        return gettext("Table {table} of round {round} abandoned").format(
            table=p.get("table"), round=p.get("round")
        )
    if kind == "RoundClosed":
        return gettext("Round {n} closed").format(n=p.get("number"))
    if kind == "StandingsPublished":
        if p.get("published"):
            return gettext("Standings published")
        return gettext("Standings made members-only")
    return str(kind)
