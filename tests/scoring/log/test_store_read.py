import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.log import store
from scoring.log.events import HandClosed, HandStarted, MoveRecorded, MoveUndone, RulingRecorded, decode
from scoring.models import StoredEvent

pytestmark = pytest.mark.django_db

START = HandStarted(game="briscola", options={}, seats=("anna", "bruno"), dealer=0)


def test_read_stream_returns_typed_events_in_version_order() -> None:
    move = MoveRecorded(move={"kind": "PlayCard", "seat": 1, "card": "AS"})
    store.append("hand-1", [START, move], expected_version=0, actor="anna")
    store.append("hand-2", [START], expected_version=0)
    store.append("hand-1", [MoveUndone(of_version=2, reason="misplay"), HandClosed()], expected_version=2)

    read = store.read_stream("hand-1")

    assert [r.version for r in read] == [1, 2, 3, 4]
    assert [r.event for r in read] == [START, move, MoveUndone(of_version=2, reason="misplay"), HandClosed()]
    assert {r.stream_id for r in read} == {"hand-1"}
    assert [r.recorded_by for r in read] == ["anna", "anna", "", ""]


def test_read_stream_of_an_unknown_stream_is_empty() -> None:
    assert store.read_stream("nobody") == []


def test_read_all_after_returns_every_stream_in_position_order() -> None:
    a = store.append("hand-1", [START], expected_version=0)
    b = store.append("hand-2", [START, HandClosed()], expected_version=0)
    c = store.append("hand-1", [HandClosed()], expected_version=1)

    read = store.read_all_after(0)

    assert [r.position for r in read] == [*a.positions, *b.positions, *c.positions]
    assert [(r.stream_id, r.version) for r in read] == [
        ("hand-1", 1),
        ("hand-2", 1),
        ("hand-2", 2),
        ("hand-1", 2),
    ]


def test_read_all_after_starts_after_the_given_position_and_respects_the_limit() -> None:
    result = store.append("hand-1", [START, *[HandClosed()] * 5], expected_version=0)
    p = result.positions

    assert [r.position for r in store.read_all_after(p[1], limit=2)] == [p[2], p[3]]
    assert store.read_all_after(p[-1]) == []


def test_a_projection_can_catch_up_page_by_page() -> None:
    for n in range(7):
        store.append(f"hand-{n}", [START], expected_version=0)

    seen: list[str] = []
    last = 0
    while page := store.read_all_after(last, limit=3):
        seen += [r.stream_id for r in page]
        last = page[-1].position

    assert seen == [f"hand-{n}" for n in range(7)]


def test_streams_read_compact_are_the_decoded_streams_as_stored() -> None:
    # Several streams in one read, each in version order: a move at the current schema is its version,
    # its move as stored and who recorded it; anything else the row as stored (an old schema, an event
    # that is not a move, a move payload without a move), whose decoding is what read_streams gives.
    # A stream with nothing is an empty list.
    move = MoveRecorded(move={"type": "play", "seat": 1, "card": "AS"}, verdicts=({"rule": "r", "seat": 1},))
    deal = MoveRecorded(move={"type": "deal", "hands": [["AS"], ["7C"]]})
    ruling = RulingRecorded(refs=(2,), rule="74C", reason="shown", rectification={"kind": "stands"})
    store.append("hand-1", [START, move], expected_version=0, actor="anna")
    store.append("hand-2", [START, deal], expected_version=0)
    store.append("hand-1", [MoveUndone(of_version=2, reason="misplay"), move, ruling], expected_version=2)
    StoredEvent.objects.create(  # a row as the first prototype wrote it: schema 1, never rewritten
        stream_id="hand-3",
        version=1,
        event_type="MoveRecorded",
        schema_version=1,
        payload={"seat": 2, "card": "7C"},
    )
    StoredEvent.objects.create(  # no move in it: sent whole, for the decoder to refuse as it would
        stream_id="hand-3", version=2, event_type="MoveRecorded", schema_version=2, payload={"verdicts": []}
    )
    names = ["hand-1", "hand-2", "hand-3", "nobody"]

    rows = store.read_streams_compact(names)
    decoded = store.read_streams(["hand-1", "hand-2"])

    assert list(rows) == names and rows["nobody"] == []
    for name in ("hand-1", "hand-2"):
        assert len(rows[name]) == len(decoded[name])
        for row, read in zip(rows[name], decoded[name], strict=True):
            if len(row) == store.MOVE_ROW:
                assert isinstance(read.event, MoveRecorded)
                assert (row[0], row[1], row[2]) == (read.version, read.event.move, read.recorded_by)
            else:
                version, event_type, schema, payload, by = row
                assert (version, decode(event_type, schema, payload), by) == (
                    read.version,
                    read.event,
                    read.recorded_by,
                )
    assert rows["hand-1"][1] == [2, {"type": "play", "seat": 1, "card": "AS"}, "anna"]
    assert rows["hand-2"][1] == [2, {"type": "deal", "hands": [["AS"], ["7C"]]}, ""]
    assert rows["hand-3"] == [
        [1, "MoveRecorded", 1, {"seat": 2, "card": "7C"}, ""],
        [2, "MoveRecorded", 2, {"verdicts": []}, ""],
    ]


# ---- a page's payloads parsed together (issue 29) ---------------------------------------------------
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(values=st.lists(_json, max_size=8), spaced=st.booleans())
def test_a_page_of_payloads_parses_as_each_one_alone(values: list[object], spaced: bool) -> None:
    texts = [json.dumps(v, indent=1 if spaced else None, ensure_ascii=spaced) for v in values]

    assert store._parsed(texts) == [json.loads(t) for t in texts]


@pytest.mark.parametrize(
    "texts",
    [["1,2"], ["1,2", ""], ["[1", "2]"], ['"a', 'b"'], ["1]", "[2"], ["{}", "nope"], ["{}", ""]],
)
def test_texts_that_are_not_one_json_value_each_fail_as_they_would_alone(texts: list[str]) -> None:
    with pytest.raises(ValueError):
        [json.loads(t) for t in texts]
    with pytest.raises(ValueError):
        store._parsed(texts)


def test_payloads_already_parsed_are_left_as_they_are() -> None:
    assert store._parsed([{"a": 1}, '{"b": 2}']) == [{"a": 1}, {"b": 2}]
    assert store._parsed([]) == []
