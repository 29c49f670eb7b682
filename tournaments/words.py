"""The standings in the reader's language: numbers in the reader's notation, the criteria by name, why
a row is above the next, notes on tables, and the headers of the exports. Shared by the pages and the
exports (the API's CSV and JSON downloads), which both build their sentences from the facts the stored
standings keep (the stored text and the API's ``text`` stay in English, the stable machine form).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils import formats
from django.utils.translation import gettext

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


# ---- sentences ---------------------------------------------------------------------------------------
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
