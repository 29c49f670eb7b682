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


def test_streams_read_undecoded_are_the_decoded_streams_as_stored() -> None:
    # Several streams in one read, each in version order, every event as it is stored: decoding each
    # row gives exactly what read_streams gives; a stream with nothing is an empty list.
    move = MoveRecorded(move={"type": "play", "seat": 1, "card": "AS"}, verdicts=({"rule": "r", "seat": 1},))
    ruling = RulingRecorded(refs=(2,), rule="74C", reason="shown", rectification={"kind": "stands"})
    store.append("hand-1", [START, move], expected_version=0, actor="anna")
    store.append("hand-2", [START], expected_version=0)
    store.append("hand-1", [MoveUndone(of_version=2, reason="misplay"), move, ruling], expected_version=2)
    StoredEvent.objects.create(  # a row as the first prototype wrote it: schema 1, never rewritten
        stream_id="hand-3",
        version=1,
        event_type="MoveRecorded",
        schema_version=1,
        payload={"seat": 2, "card": "7C"},
    )
    names = ["hand-1", "hand-2", "hand-3", "nobody"]

    rows = store.read_streams_undecoded(names)
    decoded = store.read_streams(names)

    assert list(rows) == names and rows["nobody"] == []
    for name in names:
        assert [
            (r.version, decode(r.event_type, r.schema_version, r.payload), r.recorded_by) for r in rows[name]
        ] == [(e.version, e.event, e.recorded_by) for e in decoded[name]]
    assert rows["hand-3"][0].schema_version == 1 and rows["hand-3"][0].payload == {"seat": 2, "card": "7C"}


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
