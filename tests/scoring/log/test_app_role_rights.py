"""The rights `manage.py grant_app_role` gives the service's role are the ones docs/security.md shows, and
none of them lets it change a seat or what a match is (issue 25)."""

from __future__ import annotations

import re
from pathlib import Path

from scoring.management.commands.grant_app_role import app_role_rights, grants

DOC = Path(__file__).resolve().parents[3] / "docs" / "security.md"


def documented() -> dict[str, tuple[str, tuple[str, ...]]]:
    """The table of section 3: each restricted table's rights and its UPDATE columns."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| `(\w+)` \| ([A-Z, ]+) \| (.*) \|$", line)
        if found and found[1] != "django_migrations":
            columns = () if found[3].startswith("(none") else found[3].split(" (")[0].split(", ")
            out[found[1]] = (found[2], tuple(columns))
    return out


def test_the_documented_rights_are_the_granted_ones() -> None:
    assert documented() == app_role_rights()


def test_no_grant_lets_the_service_change_a_seat_or_what_a_match_is() -> None:
    statements = grants("app", ["scoring_matchseat", "scoring_match", "scoring_hand", "tournaments_table"])

    assert 'GRANT SELECT, INSERT ON "scoring_matchseat" TO "app"' in statements
    updates = " ".join(s for s in statements if s.startswith("GRANT UPDATE"))
    for column in ('"options"', '"game"', '"club_id"', '"player_id"', '"stream_id"', '"dealer"', '"players"'):
        assert column not in updates
