"""What if a tournament were ranked under other settings: its standings computed again from the event
log with another scoring method, precedence, sit-out score or game options, side by side with the
standings as they stand. A read: nothing is written, and the answer is labelled ``what_if``.

The computation is the rebuild's (:func:`tournaments.projections.standings_rebuild`): the tournament's
stream folded for its rounds, tables and sit-outs, every table's match folded from its hands' events,
the same ledger and ranking; only the settings asked for differ. Under other game options a match one
of whose moves cannot stand is named and counts as unfinished.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from common.batch import gc_paused
from tournaments.models import Standings, Tournament
from tournaments.plan.standings import Ledger, check_precedence
from tournaments.projections import _document, _players, _settings, standings_from_log

# The settings a what-if may change, as the tournament's log names them.
SETTINGS = ("scoring", "tiebreaks", "sit_out_score", "game_options")


@gc_paused()
def standings_whatif(
    tournament: Tournament, changes: Mapping[str, Any], *, from_log: bool = False
) -> dict[str, Any]:
    """The standings under `changes` (some of :data:`SETTINGS`) beside the standings as stored.

    Each row gives the player's place as it stands and under the changes, whether it moved, the values
    of the other precedence and the new reason it is below the row above. Another ranking only (scoring,
    tie-breaks) ranks the stored sums again; other sit-out scores or game options fold the log again
    (``from_log`` always does). Raises ValueError naming a setting that cannot be changed here.
    """
    unknown = sorted(set(changes) - set(SETTINGS))
    if unknown:
        raise ValueError(f"what-if settings are {', '.join(SETTINGS)}; not {', '.join(unknown)}")
    settings = {k: v for k, v in changes.items() if k in ("scoring", "tiebreaks")}
    if "tiebreaks" in settings:
        settings["tiebreaks"] = list(check_precedence(settings["tiebreaks"]))
    stored = Standings.objects.filter(tournament=tournament).values_list("data", "ledger").first()
    if stored is not None and not from_log and set(changes) <= {"scoring", "tiebreaks"}:
        # Another ranking of the same sums: the stored ledger ranked again, no match folded (the rebuild's
        # ledger is the same, which tests/tournaments/test_whatif.py holds it to).
        data, _, _ = _document(
            ledger=Ledger.from_json(stored[1]),
            players=_players(tournament),
            settings={**_settings(tournament), **settings},
            contributions=[],
            notes=list(stored[0].get("notes", [])),
        )
        return compare(stored[0], data, changes, [])
    sit_out_score = changes.get("sit_out_score")
    rebuilt = standings_from_log(
        tournament,
        settings=settings,
        other_options=changes.get("game_options") or None,
        sit_out_score=None if sit_out_score is None else Fraction(str(sit_out_score)),
    )
    return compare(stored[0] if stored else {}, rebuilt.data, changes, rebuilt.refused)


def compare(
    stored: Mapping[str, Any],
    data: Mapping[str, Any],
    changes: Mapping[str, Any],
    refused: list[dict[str, Any]],
) -> dict[str, Any]:
    """The what-if standings row by row beside the stored ones: places before and after, moves marked."""
    before = {row["player"]: row["rank"] for row in stored.get("rows", [])}
    rows = []
    for row in data["rows"]:
        was = before.get(row["player"])
        rows.append({**row, "rank_before": was, "moved": was != row["rank"]})
    return {
        "what_if": True,
        "official": False,
        "changes": dict(changes),
        "scoring": data["scoring"],
        "precedence": data["precedence"],
        "metrics": data["metrics"],
        "rows": rows,
        "notes": data["notes"],
        "refused": refused,
        "moved": sum(1 for r in rows if r["moved"]),
    }
