"""The tamper-evident log (issue 13, item 5): every event is chained to its stream's previous event and
to the event before it in the global order; `verify_log` recomputes both chains from the rows and names
the first event that does not match; the printed sheet shows the hashes a paper copy is checked with."""

from __future__ import annotations

import hashlib
import json
import re
from importlib import import_module
from io import StringIO
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.log import chain, store
from scoring.log.events import HandStarted, MoveRecorded
from scoring.models import Hand, StoredEvent
from scoring.selectors import match_export, match_hashes
from tests.scoring.api_support import People, open_match, play, service_record

pytestmark = pytest.mark.django_db

START = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)


def move(n: int) -> MoveRecorded:
    return MoveRecorded(move={"type": "play", "seat": n % 4, "card": f"{n % 10 + 1}C"}, verdicts=())


def verify_log(*args: str) -> str:
    out = StringIO()
    call_command("verify_log", *args, stdout=out)
    return out.getvalue()


def broken_at() -> int:
    """The position verify_log names as the first broken event (it must find one)."""
    with pytest.raises(CommandError) as failed:
        verify_log()
    assert failed.value.returncode == 1
    found = re.search(r"position (\d+)", str(failed.value))
    assert found, str(failed.value)
    assert not re.search(r"\d(st|nd|rd|th)\b", str(failed.value))  # no "21th": numbers, not ordinals
    return int(found.group(1))


def tamper(sql: str, params: list[Any]) -> None:
    """What the table's owner can do behind the service's back: set the append-only trigger aside."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE scoring_storedevent DISABLE TRIGGER scoring_storedevent_append_only")
        cursor.execute(sql, params)
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE scoring_storedevent ENABLE TRIGGER scoring_storedevent_append_only")


def a_few_streams() -> list[int]:
    """Three streams interleaved, single appends and a batch, and two streams started at once."""
    store.append("s-1", [START], expected_version=0, actor="ada")
    store.append("s-2", [START, move(1), move(2)], expected_version=0, idempotency_key="k", actor="bea")
    store.append("s-1", [move(3)], expected_version=1)
    store.append_streams([("s-3", [START, move(4)]), ("s-4", [START])], actor="carla")
    store.append("s-2", [move(5)], expected_version=3)
    return list(StoredEvent.objects.order_by("position").values_list("position", flat=True))


# ---- the chains as written ------------------------------------------------------------------------
def test_every_append_path_writes_hashes_that_verify() -> None:
    positions = a_few_streams()

    rows = list(store.chained_rows())
    found = chain.verify(rows)

    assert found.broken is None
    assert (found.events, found.streams) == (len(positions), 4)
    assert found.head == StoredEvent.objects.order_by("-position").first().log_hash
    # Each stream hash links to its stream's previous event: two streams' first events differ by content.
    firsts = {r.stream_id: r.stream_hash for r in rows if r.version == 1}
    assert len(set(firsts.values())) == 4


def test_the_stored_hashes_are_the_chain_recomputed_by_hand() -> None:
    store.append("s-1", [START, move(1)], expected_version=0, actor="ada")
    first, second = store.chained_rows()

    own = chain.digest(
        "s-1", 1, "HandStarted", START.version, first.recorded_at_us, "ada", None, 2, first.payload
    )
    assert first.stream_hash == chain.link(chain.GENESIS, own)
    assert first.log_hash == chain.link(chain.GENESIS, first.stream_hash)
    assert second.log_hash == chain.link(first.log_hash, second.stream_hash)


def test_verify_log_reports_the_events_and_the_head(people: People) -> None:
    a_few_streams()
    head = StoredEvent.objects.order_by("-position").first()

    out = verify_log()

    assert f"ok: {StoredEvent.objects.count()} events in 4 streams" in out
    assert bytes(head.log_hash).hex() in out


def test_a_match_recorded_live_and_one_imported_both_verify(people: People) -> None:
    match, hand = open_match(people, "tressette", seats=4)
    hand = service_record(hand, play(hand, seed=5).moves, people.scorer)
    copy = services.match_import(club=people.club, record=match_export(hand.match), actor=people.director)

    assert chain.verify(store.chained_rows()).broken is None
    assert copy.hands.count() == 1
    # The same moves, recorded at another time by another scorer: other hashes.
    original, imported = match_hashes(hand.match), match_hashes(copy)
    assert original.hands[0].version == imported.hands[0].version
    assert original.match != imported.match


# ---- what tampering looks like ---------------------------------------------------------------------
def test_a_changed_payload_is_named() -> None:
    positions = a_few_streams()
    target = positions[3]
    payload = '{"move": {"type": "play", "seat": 0, "card": "1D"}, "verdicts": []}'

    tamper("UPDATE scoring_storedevent SET payload = %s WHERE position = %s", [payload, target])

    assert broken_at() == target


def test_a_changed_time_or_author_is_named() -> None:
    positions = a_few_streams()
    tamper("UPDATE scoring_storedevent SET recorded_by = %s WHERE position = %s", ["mallory", positions[1]])
    assert broken_at() == positions[1]


def test_a_deleted_event_breaks_the_chain_at_the_next_one() -> None:
    positions = a_few_streams()
    tamper("DELETE FROM scoring_storedevent WHERE position = %s", [positions[2]])
    assert broken_at() == positions[3]


def test_a_rewritten_stream_hash_still_breaks_the_log_chain() -> None:
    """Who rewrites an event and its stream hash must also rewrite every log hash after it."""
    positions = a_few_streams()
    row = next(r for r in store.chained_rows() if r.position == positions[4])
    payload = {"move": {"type": "play", "seat": 1, "card": "7S"}, "verdicts": []}
    own = chain.digest(
        row.stream_id, row.version, row.event_type, row.schema_version, row.recorded_at_us,
        row.recorded_by, row.idempotency_key, row.batch_size, payload,
    )  # fmt: skip
    previous = next(
        r for r in store.chained_rows() if r.stream_id == row.stream_id and r.version == row.version - 1
    )
    forged = chain.link(previous.stream_hash or b"", own)
    tamper(
        "UPDATE scoring_storedevent SET payload = %s, stream_hash = %s WHERE position = %s",
        [json.dumps(payload), forged, positions[4]],
    )

    assert broken_at() == positions[4]
    assert "log hash" in str(_failure())


def _failure() -> CommandError:
    with pytest.raises(CommandError) as failed:
        verify_log()
    return failed.value


def test_a_row_inserted_around_the_store_is_named() -> None:
    a_few_streams()
    StoredEvent.objects.create(
        stream_id="s-9", version=1, event_type="HandStarted", schema_version=2, payload={}
    )
    last = StoredEvent.objects.order_by("-position").first()

    assert broken_at() == last.position
    assert "not written by the event store" in str(_failure())


# ---- the printed sheet ------------------------------------------------------------------------------
def test_the_sheet_prints_the_hashes_verify_log_prints(people: People) -> None:
    match, hand = open_match(people, "tressette", seats=4)
    hand = service_record(hand, play(hand, seed=6).moves, people.scorer)
    client = Client()
    client.force_login(people.scorer)
    page = client.get(reverse("pages:match-sheet", args=[match["id"]])).content.decode()
    hashes = match_hashes(hand.match)

    out = verify_log("--match", str(match["id"]))

    assert hashes.short in page and hashes.short in out
    assert f'data-hand-hash="1">{hashes.hands[0].short}<' in page
    assert f"hand 1 v{hand.version}: {hashes.hands[0].short}" in out
    # The hand's hash is the stream hash of its last event.
    assert hashes.hands[0].hash == store.stream_hash_at(hand.stream_id, hand.version)


def test_a_correction_changes_the_printed_hash_and_the_old_one_stays_checkable(people: People) -> None:
    match, hand = open_match(people, "tressette", seats=4)
    moves = play(hand, seed=7).moves
    hand = service_record(hand, moves[:5], people.scorer)
    printed = match_hashes(hand.match)
    services.move_undo(hand=hand, expected_version=hand.version, actor=people.scorer)
    hand = Hand.objects.get(pk=hand.pk)

    now = match_hashes(hand.match)

    assert now.match != printed.match
    old = printed.hands[0]
    out = verify_log("--stream", hand.stream_id, "--at", str(old.version))
    assert old.short in out


def test_verify_log_refuses_half_its_options() -> None:
    with pytest.raises(CommandError, match="go together"):
        verify_log("--stream", "s-1")
    with pytest.raises(CommandError, match="no match 404"):
        verify_log("--match", "404")


# ---- rows from before the chains --------------------------------------------------------------------
def test_the_migration_hashes_rows_written_before_it() -> None:
    for n, stream in enumerate(["old-1", "old-2", "old-1", "old-1"]):
        version = StoredEvent.objects.filter(stream_id=stream).count() + 1
        StoredEvent.objects.create(
            stream_id=stream,
            version=version,
            event_type="MoveRecorded",
            schema_version=1,
            payload={"n": n / 2},
        )
    assert chain.verify(store.chained_rows()).broken is not None

    import_module("scoring.migrations.0007_hash_chain").backfill(None, SimpleNamespace(connection=connection))
    store.append("old-2", [move(1)], expected_version=1)

    found = chain.verify(store.chained_rows())
    assert found.broken is None and found.events == 5


# ---- the digest -------------------------------------------------------------------------------------
def test_the_digest_does_not_depend_on_how_a_database_gives_json_back() -> None:
    def of(payload: Any) -> bytes:
        return chain.digest("s", 1, "T", 1, 0, "", None, 1, payload)

    assert of({"a": 1, "bb": [1, 2]}) == of({"bb": (1, 2), "a": 1})
    assert of({"x": 1e16}) == of({"x": 10**16})
    assert of({"x": 2.0}) == of({"x": 2})
    assert of({"x": 2.5}) != of({"x": 2})
    assert of({"x": "è"}) != of({"x": "e"})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    appends=st.lists(
        st.tuples(st.integers(0, 3), st.integers(1, 4), st.booleans()),
        min_size=1,
        max_size=12,
    ),
    victim=st.integers(0, 10**6),
    field=st.sampled_from(["payload", "version", "event_type"]),
)
def test_random_logs_verify_and_any_single_change_is_found(
    appends: list[tuple[int, int, bool]], victim: int, field: str
) -> None:
    tamper("DELETE FROM scoring_storedevent", [])
    versions: dict[str, int] = {}
    for stream_no, count, together in appends:
        stream = f"r-{stream_no}"
        at = versions.get(stream, 0)
        events = [START] + [move(i) for i in range(count - 1)] if at == 0 else [move(i) for i in range(count)]
        if together and at == 0:
            store.append_streams([(stream, events)])
        else:
            store.append(stream, events, expected_version=at)
        versions[stream] = at + len(events)
    assert chain.verify(store.chained_rows()).broken is None

    positions = list(StoredEvent.objects.order_by("position").values_list("position", flat=True))
    target = positions[victim % len(positions)]
    change = {
        "payload": ("payload = %s", '{"forged": true}'),
        "version": ("version = version + 1000", None),
        "event_type": ("event_type = %s", "Forged"),
    }[field]
    tamper(
        f"UPDATE scoring_storedevent SET {change[0]} WHERE position = %s",
        ([change[1]] if change[1] is not None else []) + [target],
    )

    found = chain.verify(store.chained_rows())
    assert found.broken is not None and found.broken.position == target


def _plain_digest(*fields: Any) -> bytes:
    """The digest's definition written out once more, plainly (the reference for the fast path)."""
    text = json.dumps(
        [chain.FORMAT, *fields[:-1], chain._normal(fields[-1])],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )
    return hashlib.sha256(text.encode()).digest()


_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([2.0, -0.0, 1e16, 1.5e16, 1e22, 0.5, "v1.0", "e+", "1e+16"])
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=400, deadline=None)
@given(payload=st.dictionaries(st.text(max_size=5), _values, max_size=4), key=st.none() | st.text(max_size=4))
def test_the_digest_is_its_definition_and_an_exact_text_is_the_payload(payload: Any, key: str | None) -> None:
    fields = ("s-1", 3, "MoveRecorded", 2, 1764152000123456, "anna", key, 5, payload)
    assert chain.digest(*fields) == _plain_digest(*fields)

    text, exact = chain.canonical(payload)
    assert text == json.dumps(
        chain._normal(payload), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    if exact:  # stored as it is: the same values, floats still floats
        assert repr(json.loads(text)) == repr(json.loads(json.dumps(payload, sort_keys=True)))
