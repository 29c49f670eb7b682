"""``common.rows.instances``: the same instances as ``Model.objects.raw`` for a statement written out."""

from typing import Any

import pytest
from django.db.models import Model

from common.rows import instances
from scoring.models import Hand, Match
from scoring.services import match_create
from tests.scoring.factories import ClubFactory, member

pytestmark = pytest.mark.django_db


def fields(instance: Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def match() -> Match:
    club = ClubFactory()
    member(club, "director")
    made = match_create(club=club, game="tressette", seats=["a", "b", "c", "d"], options={"target": 21})
    Match.objects.filter(pk=made.pk).update(sheet={"totals": [3, 1], "finished": False}, title="Finale")
    return made


def test_the_instances_hold_what_raw_gives_json_and_times_included(match: Match) -> None:
    # Columns in another order than the model's fields, and one that is no field (kept as is).
    sql = f"SELECT 7 AS seven, h.* FROM {Hand._meta.db_table} h WHERE h.match_id = %s"
    mine = instances(Hand, sql, [match.pk])
    theirs = list(Hand.objects.raw(sql, [match.pk]))

    assert len(mine) == 1
    assert fields(mine[0]) == fields(theirs[0])
    assert mine[0].seven == 7
    assert mine[0]._state.adding is False and mine[0]._state.db == "default"

    sql = f"SELECT m.*, 'director' AS viewer_role FROM {Match._meta.db_table} m WHERE m.id = %s"
    got = instances(Match, sql, [match.pk])[0]
    assert fields(got) == fields(next(iter(Match.objects.raw(sql, [match.pk]))))
    assert got.sheet == {"totals": [3, 1], "finished": False}  # JSON decoded, as the ORM does
    assert got.options == {"target": 21}
    assert got.created_at.tzinfo is not None
    assert got.viewer_role == "director"


def test_no_row_is_an_empty_list_and_a_field_left_out_is_refused(match: Match) -> None:
    table = Match._meta.db_table
    assert instances(Match, f"SELECT * FROM {table} WHERE id = %s", [match.pk + 1000]) == []
    with pytest.raises(ValueError, match="does not select title"):
        instances(Match, f"SELECT id, club_id FROM {table} WHERE id = %s", [match.pk])
