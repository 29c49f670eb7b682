"""The match read on every request leaves its running sheet out (``selectors.MATCH_DEFER``, issue 29): a
JSON that grows with every finished hand, which no move reads. The sheet is deferred, as the ORM's
``defer()`` leaves a field (read on first use, the stored value), and whether it was ever written, which
a move asks, comes with the row instead."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.rows import instances
from scoring.models import Match
from scoring.selectors import MATCH_DEFER, match_get, match_with_viewer_sql, sheet_written
from tests.scoring.api_support import People, open_match, play, service_record

pytestmark = pytest.mark.django_db


def test_a_statement_may_leave_out_only_the_fields_it_defers(people: People) -> None:
    match, _ = open_match(people, "tressette", seats=4)
    table = Match._meta.db_table
    columns = ", ".join(f.column for f in Match._meta.concrete_fields if f.name != "sheet")
    sql = f"SELECT {columns} FROM {table} WHERE id = %s"
    (read,) = instances(Match, sql, [match["id"]], defer=("sheet",))
    assert read.get_deferred_fields() == {"sheet"}
    stored = Match.objects.get(pk=match["id"])
    assert read.title == stored.title and read.options == stored.options
    with CaptureQueriesContext(connection) as seen:
        assert read.sheet == stored.sheet  # read on first use
    assert len(seen.captured_queries) == 1
    with pytest.raises(ValueError, match="does not select sheet"):
        instances(Match, sql, [match["id"]])
    with pytest.raises(ValueError, match="does not select title"):
        instances(Match, sql.replace(", title", ""), [match["id"]], defer=("sheet",))


def test_the_match_read_for_a_request_leaves_the_sheet_and_says_whether_it_was_written(
    people: People,
) -> None:
    match, hand = open_match(people, "tressette", seats=4)
    fresh = match_get(match["id"], people.director)
    assert fresh.get_deferred_fields() == set(MATCH_DEFER)
    sql = match_with_viewer_sql()
    assert "m.*" not in sql and "m.sheet," not in sql and "AS sheet_written" in sql
    assert sheet_written(fresh) is bool(Match.objects.get(pk=match["id"]).sheet)

    service_record(hand, play(hand, seed=2).moves, people.scorer)  # a hand finished: the sheet written
    stored = Match.objects.get(pk=match["id"])
    assert stored.sheet and stored.sheet["hands"] == [1]
    later = match_get(match["id"], people.director)
    with CaptureQueriesContext(connection) as seen:
        assert sheet_written(later) is True
    assert seen.captured_queries == []  # answered from the row read, not by reading the sheet
    assert later.sheet == stored.sheet
    assert later.viewer_role == "director"


def test_a_match_whose_sheet_was_never_written_gets_it_with_its_next_move(people: People) -> None:
    match, hand = open_match(people, "tressette", seats=4)
    Match.objects.filter(pk=match["id"]).update(sheet={})  # as a match stored before sheets were kept
    read = match_get(match["id"], people.director)
    assert sheet_written(read) is False
    hand.match = read
    service_record(hand, play(hand, seed=2).moves[:1], people.scorer)
    assert Match.objects.get(pk=match["id"]).sheet["hands"] == []


def test_a_sheet_set_in_the_request_is_what_counts(people: People) -> None:
    match, _ = open_match(people, "tressette", seats=4)
    read: Any = match_get(match["id"], people.director)
    read.sheet = {}
    assert sheet_written(read) is False
    read.sheet = {"hands": [1]}
    assert sheet_written(read) is True
