"""The event store: append to a stream and read it back, nothing else.

Ordering guarantee. A reader polling "position > last seen" must never skip an event that commits late.
Positions come from a sequence, handed out at insert, not at commit; so on PostgreSQL an append's INSERT
first takes a transaction-level advisory lock (one constant key for all streams), held to the commit:
appends commit in the order of their positions. Everything a write does before (the rule
engine's fold, its checks, the read models it computes) happens before the lock; only the insert and the
commit are serialised. Rolled-back appends leave holes in the positions, which readers step over. On
SQLite every transaction begins with BEGIN IMMEDIATE (see settings), which takes the database's one
write lock. ``docs/event-store.md`` says more.

An append is one statement that writes all its events or none: it inserts only while the stream is at
the expected version and the idempotency key is unused (on PostgreSQL by the function of migrations
0005 to 0008 and 0013, which checks, takes the lock and inserts in one round trip; a single event's
unique indexes make its checks after the lock), so a conflict leaves nothing to undo and needs no savepoint;
the unique constraints on (stream, version) and (stream, key) stay as the last line of defence. A single
event goes by a function of its own (migration 0012) that takes its fields as plain values.

What a write keeps beside the log (a hand's row, a match sheet) can be written with the append
(``Alongside``: an UPDATE kept only if the append inserted), and the caller's transaction committed in
the same round trip (``commit=True``, PostgreSQL, outermost transaction only: the statement and the
COMMIT go in one message). An update that needs the append's position runs in the append's statement,
after the insert; one that does not (``first``) goes ahead of it in the message. The ordering lock is
then held for the function's work after it takes it, the updates that need the position, and the
commit, and never while Python runs: no round trip, no wait for the interpreter lock.

Every event also carries its stream hash and log hash (``scoring/log/chain.py``): the store computes each
event's digest (and a new stream's stream hashes, whose start it knows); PostgreSQL's function chains the
rest under the ordering lock; on SQLite the store reads the two heads and chains them itself, in the
transaction that holds the write lock.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, DataError, connection, connections, transaction
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import Max, Q
from django.utils import timezone

from common.errors import ConcurrencyConflict
from common.rows import execute_message, kept_cursor
from scoring.log import chain
from scoring.log.events import Event, MoveRecorded, decode, payload_fields, payload_json
from scoring.models import StoredEvent

# pg_advisory_xact_lock key serialising appends: any constant will do, as long as nothing else uses it.
APPEND_LOCK_KEY = 0x5E67A9


@dataclass(frozen=True)
class AppendResult:
    """What one append wrote: the stream versions `from_version`..`to_version` at `positions`, and when."""

    stream_id: str
    from_version: int
    to_version: int
    positions: tuple[int, ...]
    recorded_at: datetime


class RecordedEvent(NamedTuple):
    """A typed event as read back from the store, with where and when it was written (a named tuple: a
    rebuild reads hundreds of thousands)."""

    position: int
    stream_id: str
    version: int
    event: Event
    recorded_at: datetime
    recorded_by: str


@dataclass(frozen=True)
class Alongside:
    """An UPDATE of a read model written with the append and kept only if it inserted. ``sql`` is the
    UPDATE with ``%s`` placeholders, its text ending with its WHERE condition; ``{position}`` in it stands
    for the position of the last event appended.

    Written in the append's own statement, after the insert; or, ``first``, ahead of the insert, when the
    update does not read ``{position}`` and the append is committed in its own message (``commit=True``,
    PostgreSQL, the outermost transaction): it is then sent before the append's statement in that message,
    so that the ordering lock, which the append's function takes, is not held while it runs. That
    statement then fails when it inserts nothing, and the transaction is rolled back, the update with it.
    Without the commit, a ``first`` update runs after the insert as the others do."""

    sql: str
    params: Sequence[Any]
    first: bool = False


def append(
    stream_id: str,
    events: Sequence[Event],
    *,
    expected_version: int,
    idempotency_key: str | None = None,
    actor: str | None = None,
    at: datetime | None = None,
    alongside: Sequence[Alongside] = (),
    commit: bool = False,
) -> AppendResult:
    """Append `events` to the stream at `expected_version` (0 for a new stream), all or nothing.

    Raises ConcurrencyConflict when the stream is at another version. When `idempotency_key` was already
    used on this stream, appends nothing and returns the result of the append that used it.

    ``at``: the time recorded (now by default). ``alongside``: updates written with the events (see the
    module's docstring). ``commit``: the append is the last statement of the caller's transaction, which
    is committed with it when it is the outermost one on PostgreSQL; on a conflict nothing was written,
    not even ``alongside``, and the empty transaction is committed all the same.
    """
    if not events:
        raise ValueError("nothing to append")
    if idempotency_key == "":
        raise ValueError("an idempotency key cannot be empty")
    now = at or timezone.now()
    # One statement: inside the caller's transaction it is part of it; outside any, it is a transaction of
    # its own, committed by the server as it ends, so the ordering lock is never held across a round trip.
    inserted = _insert(
        _db(), stream_id, events, expected_version, idempotency_key, actor or "", now, alongside, commit
    )
    if inserted:
        return AppendResult(
            stream_id=stream_id,
            from_version=expected_version + 1,
            to_version=expected_version + len(events),
            positions=tuple(inserted),
            recorded_at=now,
        )
    if idempotency_key is not None and (done := _result_for_key(stream_id, idempotency_key)):
        return done
    raise ConcurrencyConflict(stream_id, expected_version, stream_version(stream_id))


# The columns an append writes, in order, with their PostgreSQL types (VALUES rows need explicit casts).
_COLUMNS = (
    ("stream_id", "varchar"),
    ("version", "integer"),
    ("event_type", "varchar"),
    ("schema_version", "smallint"),
    ("payload", "jsonb"),
    ("recorded_at", "timestamptz"),
    ("recorded_by", "varchar"),
    ("idempotency_key", "varchar"),
    ("batch_size", "smallint"),
)
# What _chained adds to each row (SQLite: on PostgreSQL the server computes them).
_HASH_COLUMNS = ("stream_hash", "log_hash")


def _insert(
    db: Any,
    stream_id: str,
    events: Sequence[Event],
    expected: int,
    key: str | None,
    actor: str,
    now: datetime,
    alongside: Sequence[Alongside] = (),
    commit: bool = False,
) -> list[int]:
    """Insert the events if the stream is at ``expected`` and ``key`` is unused; their positions, or [].
    ``db``: the connection's wrapper, looked up once by the caller."""
    if db.vendor == "postgresql":
        # One call (migrations 0012 and 0013): the checks, the lock, the hashes and the insert.
        digests, payloads = _digests_and_payloads(stream_id, events, expected, key, actor, now)
        params: list[Any]
        if len(events) == 1:  # a move: its fields as plain values, no array to build, send and read
            (event,) = events
            call = (
                "scoring_append_event(%s::varchar, %s::integer, %s::varchar, %s::varchar, %s::smallint,"
                " %s::jsonb, %s::timestamptz, %s::varchar, %b::bytea, {lock})"
            )
            params = [stream_id, expected, key, event.type, event.version, payloads[0], now, actor]
            params.append(digests[0])
        else:
            # A new stream's stream hashes are chained here from its known start (the server then chains
            # only the log hash); a stream that has begun is chained by the server from its last event.
            hashes: tuple[list[bytes] | None, list[bytes] | None] = (
                (None, chain.stream_links(chain.GENESIS, digests)) if expected == 0 else (digests, None)
            )
            call = (
                "scoring_append_events(%s::varchar, %s::integer, %s::varchar, %b::varchar[], %b::smallint[],"
                " %b::jsonb[], %s::timestamptz, %s::varchar, %b::bytea[], %b::bytea[], {lock})"
            )
            params = [
                stream_id,
                expected,
                key,
                [e.type for e in events],
                [e.version for e in events],
                payloads,
                now,
                actor,
                *hashes,
            ]
        committed = commit and _outermost(db)
        timed = committed and lock_holds is not None
        if timed:
            sql, params = _TIMED.format(call=call.format(lock="locked.k")), [_lock_appends(), *params]
        else:
            sql, params = "SELECT * FROM " + call.format(lock="%s::bigint"), [*params, _lock_appends()]
        early = [update for update in alongside if update.first] if committed else []
        later = [update for update in alongside if not update.first]
        if later or early:
            sql, params = _with_alongside(sql, params, later, refuse_nothing=bool(early))
        if committed:
            try:
                return [int(row[0]) for row in _execute_and_commit(db, sql, params, early, timed)]
            except DataError as e:
                if _NOTHING_APPENDED not in str(e):
                    raise
                # Nothing appended: the updates sent first are undone with the transaction, which is over
                # (Django's block then finds nothing to commit, as after the COMMIT).
                db.connection.rollback()
                return []
        with _cursor(db, kept=True) as cursor:
            cursor.execute(sql, params)
            positions = [int(row[0]) for row in cursor.fetchall()]
            for update in (u for u in alongside if u.first) if positions else ():
                cursor.execute(update.sql, list(update.params))  # after the statement: one row, one update
            return positions
    table = StoredEvent._meta.db_table
    guard = f"NOT EXISTS (SELECT 1 FROM {table} WHERE stream_id = %s AND version > %s)"
    params = [stream_id, expected]
    if expected:  # and not behind it either: the event at the expected version is there
        guard += f" AND EXISTS (SELECT 1 FROM {table} WHERE stream_id = %s AND version = %s)"
        params += [stream_id, expected]
    if key is not None:
        guard += f" AND NOT EXISTS (SELECT 1 FROM {table} WHERE stream_id = %s AND idempotency_key = %s)"
        params += [stream_id, key]
    # BEGIN IMMEDIATE holds the database's write lock from here to the commit: the heads read below are
    # still the heads when the rows go in.
    with transaction.atomic(savepoint=False):
        rows = _chained(
            _rows(stream_id, events, expected, key, actor, now),
            _digests(stream_id, events, expected, key, actor, now),
            (stream_id, expected),
        )
        inserted = _insert_rows(rows, guard, params)
        if inserted:
            last = str(int(inserted[-1][0]))
            with db.cursor() as cursor:
                for update in alongside:
                    cursor.execute(update.sql.replace("{position}", last), list(update.params))
    return [position for position, _, _ in inserted]


# What the append's statement fails with when it appended nothing and updates were written before it.
_NOTHING_APPENDED = "the append wrote nothing"


def _with_alongside(
    sql: str, params: list[Any], alongside: Sequence[Alongside], refuse_nothing: bool = False
) -> tuple[str, list[Any]]:
    """The append's statement with the updates as data-modifying CTEs after it (PostgreSQL): each runs
    once the function has inserted (it reads its positions), and only if it did. ``refuse_nothing``: the
    statement fails when the function inserted nothing (a text that is no number, cast to one: plain SQL
    has no RAISE), so that what the transaction wrote before it is rolled back."""
    last = "(SELECT max(position) FROM appended)"
    parts = [f"WITH appended(position) AS ({sql})"]
    out = list(params)
    for i, update in enumerate(alongside):
        text = update.sql.replace("{position}", last)
        parts.append(f"alongside{i} AS ({text} AND EXISTS (SELECT 1 FROM appended) RETURNING 1)")
        out += list(update.params)
    select = " SELECT position FROM appended"
    if refuse_nothing:
        select += (
            f" UNION ALL SELECT ('{_NOTHING_APPENDED}: ' || count(*))::bigint FROM appended"
            " HAVING count(*) = 0"
        )
    return ", ".join(parts) + select + " ORDER BY position", out


def sends_first() -> bool:
    """Whether an append made now with ``commit=True`` would send its ``first`` updates ahead of it
    (PostgreSQL, in the outermost transaction): elsewhere they run after the insert, where a caller may
    as well write them in one statement with the updates that need the position."""
    db = _db()
    return db.vendor == "postgresql" and _outermost(db)


def _outermost(db: Any) -> bool:
    """Whether the caller's transaction is Django's outermost atomic block (nothing to commit after it
    but itself; a test's transaction or an enclosing service's is left alone)."""
    return bool(
        db.in_atomic_block and db.commit_on_exit and len(db.atomic_blocks) == 1 and not db.savepoint_ids
    )


# The hold times of the ordering lock, in seconds, one per append committed with its statement, when a
# benchmark asks for them by setting a list here (bench/bench_lock.py); None, the default, times nothing.
# Timed, the statement takes the lock itself just before the function does (it is taken again there,
# which only counts it twice), notes the server's clock once it has it, and after the COMMIT reads the
# clock again: the lock is released by then. The span covers what runs under the lock, the commit included
# (its flush to disk is no longer under it, see _execute_and_commit), and not the wait for the lock.
lock_holds: list[float] | None = None

_TIMED = (
    "SELECT f.* FROM (SELECT %s::bigint AS k) a CROSS JOIN LATERAL (SELECT a.k,"
    " set_config('segnapunti.locked', clock_timestamp()::text, false) FROM pg_advisory_xact_lock(a.k))"
    " locked CROSS JOIN LATERAL {call} f"
)
_HELD = "SELECT extract(epoch FROM clock_timestamp() - current_setting('segnapunti.locked')::timestamptz)"


# The statement that makes an append durable once its commit has released the ordering lock: a message in
# the WAL, written in a transaction of its own (an xid, so that its commit is a record), committed
# synchronously: its flush reaches past the append's commit record, which the WAL holds before it. It
# returns the message's WAL position.
_FLUSH = "SELECT pg_logical_emit_message(true, 'segnapunti.flush', '')::text"

# The WAL positions the last statement of each committed append returned, when a test asks for them by
# setting a list here; None, the default, keeps nothing.
flushed_to: list[str] | None = None


def _execute_and_commit(
    db: Any, sql: str, params: list[Any], early: Sequence[Alongside] = (), timed: bool = False
) -> list[Any]:
    """Run the statement and COMMIT in one message, one round trip: the ordering lock the statement takes
    is released by the server as soon as the commit is done, whatever this process does next (with
    threads, it might wait for the interpreter lock between two sends). The ``early`` updates go first in
    the same message, before the lock is taken. A message of several statements binds its parameters in
    the client. The enclosing atomic block then finds nothing left to commit and runs its on-commit
    callbacks as usual; an error skips the rest of the message and rolls back as any other. The
    statements are prepared on the connection the first time (``common.rows.execute_message``).

    The lock is released before the commit's flush to disk, and the caller still hears back only once
    the commit is durable (early lock release): the transaction commits with ``synchronous_commit`` off,
    which makes it visible and frees its locks in the order of the positions, as before, without waiting
    for the disk; the last statement of the message then writes and synchronously commits a WAL message
    of its own, whose flush covers the append's commit (the WAL is written in order). So the next append
    does not wait for this one's flush, and the flushes of appends that overlap are made as one. Commit
    order, and what a caller is told is committed, are as before; only a reader that happens to read the
    rows between the commit and the flush could see an append that a crash at that moment would undo,
    whose writer was never told it was made, and any later commit that depends on it (a later append, a
    projection's cursor) is flushed after it."""
    statements = [
        *(update.sql for update in early),
        "SET LOCAL synchronous_commit TO off",
        sql.replace("%b", "%s"),
        "COMMIT",
        *((_HELD,) if timed else ()),
        _FLUSH,
    ]
    sent = [value for update in early for value in update.params] + params
    with _cursor(db, kept=True, client=True) as cursor:
        execute_message(cursor, statements, sent, prepare=True)
        for _ in early:
            cursor.nextset()
        cursor.nextset()  # the SET's
        rows = list(cursor.fetchall())
        cursor.nextset()  # the COMMIT's
        if timed and lock_holds is not None:
            cursor.nextset()
            lock_holds.append(float(cursor.fetchone()[0]))
        if flushed_to is not None:
            cursor.nextset()
            flushed_to.append(cursor.fetchone()[0])
        return rows


def append_streams(streams: Sequence[tuple[str, Sequence[Event]]], *, actor: str = "") -> list[AppendResult]:
    """Start several new streams at once (a match record's hands), all or nothing: one insert under the
    ordering lock. Raises ConcurrencyConflict if any of them has an event already."""
    if not streams or any(not events for _, events in streams):
        raise ValueError("nothing to append")
    now = timezone.now()
    ids = [stream_id for stream_id, _ in streams]
    rows = [row for stream_id, events in streams for row in _rows(stream_id, events, 0, None, actor, now)]
    digests = [d for stream_id, events in streams for d in _digests(stream_id, events, 0, None, actor, now)]
    with transaction.atomic(savepoint=False):
        if connection.vendor == "postgresql":
            inserted = _start_streams_postgres(rows, digests, now, actor)
            if not inserted:
                taken = next(i for i in ids if stream_version(i))
                raise ConcurrencyConflict(taken, 0, stream_version(taken))
        else:
            inserted = _start_streams_sqlite(rows, digests, ids)
        if len(inserted) != len(rows):
            raise AssertionError("a multi-stream append was half written")
    out = []
    for stream_id, events in streams:
        positions = tuple(p for p, s, _ in inserted if s == stream_id)
        out.append(AppendResult(stream_id, 1, len(events), positions, now))
    return out


def _start_streams_postgres(
    rows: Sequence[Sequence[Any]], digests: Sequence[bytes], now: datetime, actor: str
) -> list[tuple[int, str, int]]:
    """One call (migration 0007): the ordering lock, the check that no stream has begun, the hashes, and
    the insert; nothing when a stream has begun."""
    names = [c for c, _ in _COLUMNS]
    column = {name: [r[names.index(name)] for r in rows] for name in names}
    sql = (
        "SELECT * FROM scoring_insert_chained(%b::varchar[], %b::integer[], %b::varchar[], %b::smallint[],"
        " %b::jsonb[], %s::timestamptz, %s::varchar, %b::varchar[], %b::smallint[], %b::bytea[], %s::bigint,"
        " true)"
    )
    params = [
        column["stream_id"],
        column["version"],
        column["event_type"],
        column["schema_version"],
        column["payload"],
        now,
        actor,
        column["idempotency_key"],
        column["batch_size"],
        list(digests),
        _lock_appends(),
    ]
    with _cursor(kept=True) as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    return [(int(p), str(s), int(v)) for p, s, v in found]


def _start_streams_sqlite(
    rows: Sequence[Sequence[Any]], digests: Sequence[bytes], ids: Sequence[str]
) -> list[tuple[int, str, int]]:
    table = StoredEvent._meta.db_table
    marks = ", ".join(["%s"] * len(ids))
    inserted: list[tuple[int, str, int]] = []
    with transaction.atomic(savepoint=False):
        rows = _chained(rows, digests, None)
        for start in range(0, len(rows), _ROWS_PER_INSERT):
            # The guard holds for the first chunk; the later ones go in under the same lock and transaction.
            guard, params = (f"NOT EXISTS (SELECT 1 FROM {table} WHERE stream_id IN ({marks}))", list(ids))
            chunk = rows[start : start + _ROWS_PER_INSERT]
            got = _insert_rows(chunk, guard if start == 0 else "1 = 1", params if start == 0 else [])
            if start == 0 and not got:
                taken = next(i for i in ids if stream_version(i))
                raise ConcurrencyConflict(taken, 0, stream_version(taken))
            inserted += got
    return inserted


# Rows per INSERT statement: eleven parameters a row stays well under SQLite's limit.
_ROWS_PER_INSERT = 2000


def _micros(at: datetime) -> int:
    """A time as whole microseconds since 1970 (what the hashes cover)."""
    return (at - _EPOCH) // timedelta(microseconds=1)


def _digests(
    stream_id: str, events: Sequence[Event], expected: int, key: str | None, actor: str, now: datetime
) -> list[bytes]:
    """Each event's digest (scoring/log/chain.py), as it will be stored."""
    return _digests_and_payloads(stream_id, events, expected, key, actor, now)[0]


def _digests_and_payloads(
    stream_id: str, events: Sequence[Event], expected: int, key: str | None, actor: str, now: datetime
) -> tuple[list[bytes], list[str]]:
    """Each event's digest, and its payload as JSON text to send: the digest's canonical text itself
    when that is the payload exactly (nearly always: a payload with an integral float is sent as
    ``payload_json`` writes it), so that each payload is written as JSON once."""
    at = _micros(now)
    size = len(events)
    digests, texts = [], []
    for i, e in enumerate(events, start=1):
        text, exact = chain.canonical(payload_fields(e))
        digests.append(
            chain.digest_of_text(
                stream_id, expected + i, e.type, e.version, at, actor, key if i == 1 else None, size, text
            )
        )
        texts.append(text if exact else payload_json(e))
    return digests, texts


def _chained(
    rows: Sequence[Sequence[Any]], digests: Sequence[bytes], after: tuple[str, int] | None
) -> list[list[Any]]:
    """The rows with their stream and log hashes, chained here from their digests (SQLite: the caller
    holds the write lock). ``after``: the stream and version the first row follows, when its stream has
    begun."""
    table = StoredEvent._meta.db_table
    with _cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT log_hash FROM {table} ORDER BY position DESC LIMIT 1),"
            f" (SELECT stream_hash FROM {table} WHERE stream_id = %s AND version = %s)",
            list(after) if after else ["", 0],
        )
        log_head, stream_head = cursor.fetchone()
    heads = {after[0]: bytes(stream_head)} if after and stream_head else {}
    links = chain.chain_rows(
        ((r[0], r[1], d) for r, d in zip(rows, digests, strict=True)),
        bytes(log_head) if log_head else chain.GENESIS,
        heads,
    )
    return [[*r, stream_hash, log_hash] for r, (stream_hash, log_hash) in zip(rows, links, strict=True)]


def _rows(
    stream_id: str, events: Sequence[Event], expected: int, key: str | None, actor: str, now: datetime
) -> list[list[Any]]:
    at = connection.ops.adapt_datetimefield_value(now)
    return [
        [
            stream_id,
            expected + i,
            event.type,
            event.version,
            payload_json(event),
            at,
            actor,
            key if i == 1 else None,
            len(events),
        ]
        for i, event in enumerate(events, start=1)
    ]


def _insert_rows(
    rows: Sequence[Sequence[Any]], guard: str, guard_params: Sequence[Any]
) -> list[tuple[int, str, int]]:
    """INSERT the rows (SQLite: PostgreSQL appends through its functions) if ``guard`` holds, skipping
    none on conflict: (position, stream, version) of each row written, in stream and version order."""
    table = StoredEvent._meta.db_table
    names = [c for c, _ in _COLUMNS] + list(_HASH_COLUMNS)
    row = "(" + ", ".join(["%s"] * len(names)) + ")"
    source = f"(VALUES {', '.join([row] * len(rows))})"
    picked = ", ".join(f"column{i}" for i in range(1, len(names) + 1))
    sql = (
        f"INSERT INTO {table} ({', '.join(names)}) SELECT {picked} FROM {source} WHERE {guard} "
        f"ON CONFLICT DO NOTHING RETURNING position, stream_id, version"
    )
    params = [value for r in rows for value in r] + list(guard_params)
    with _cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    return sorted(((int(p), str(s), int(v)) for p, s, v in found), key=lambda r: (r[1], r[2]))


def stream_version(stream_id: str) -> int:
    """The version of the stream's last event; 0 for a stream with no events."""
    found = StoredEvent.objects.filter(stream_id=stream_id).aggregate(v=Max("version"))["v"]
    return int(found or 0)


def read_stream(stream_id: str) -> list[RecordedEvent]:
    """The stream's events in version order, upcast to their current classes."""
    return read_stream_after(stream_id, 0)


def read_stream_after(stream_id: str, version: int) -> list[RecordedEvent]:
    """The stream's events after `version`, in version order (what a cached fold needs to catch up)."""
    return _select("stream_id = %s AND version > %s", [stream_id, version], "version")


READ_FIELDS = (
    "position",
    "stream_id",
    "version",
    "event_type",
    "schema_version",
    "payload",
    "recorded_at",
    "recorded_by",
)


def read_streams(stream_ids: Sequence[str]) -> dict[str, list[RecordedEvent]]:
    """Several streams at once (one query): each stream's events in version order, by stream id."""
    out: dict[str, list[RecordedEvent]] = {stream_id: [] for stream_id in stream_ids}
    if not stream_ids:
        return out
    params: list[Any]
    if connection.vendor == "postgresql":  # one array, sent in binary: nothing to quote
        where, params = "stream_id = ANY(%b::varchar[])", [list(stream_ids)]
    else:
        where, params = f"stream_id IN ({', '.join(['%s'] * len(stream_ids))})", list(stream_ids)
    for event in _select(where, params, "stream_id, version"):
        out[event.stream_id].append(event)
    return out


# A stored event as :func:`read_streams_compact` gives it: [version, event_type, schema_version, payload,
# recorded_by], or [version, move, recorded_by] for a move at MoveRecorded's current schema (MOVE_ROW).
CompactRow = list[Any]

# The length of a compact row that is a move.
MOVE_ROW = 3


def read_streams_compact(stream_ids: Sequence[str]) -> dict[str, list[CompactRow]]:
    """Several streams at once (one query), each in version order, their events left undecoded and cut to
    what a fold reads: for a reader that folds every move of a great many events (a what-if folds every
    card of a match), where building each event's class and time, or parsing what it does not read,
    costs more than the fold.

    Each event is a list ``[version, event_type, schema_version, payload, recorded_by]`` (the payload as
    stored: :func:`~scoring.log.events.decode` upcasts an old schema), except a ``MoveRecorded`` at its
    current schema whose payload has a ``move``: ``[version, move, recorded_by]`` (:data:`MOVE_ROW`
    long: the move's dict form as stored, the verdicts left out). On PostgreSQL each stream comes as one
    JSON array, cut by the server and parsed in one call; on SQLite the rows are cut here."""
    out: dict[str, list[CompactRow]] = {stream_id: [] for stream_id in stream_ids}
    if not stream_ids:
        return out
    table = StoredEvent._meta.db_table
    if connection.vendor == "postgresql":
        sql = (
            "SELECT stream_id, json_agg(CASE WHEN event_type = %s AND schema_version = %s"
            " AND payload->'move' IS NOT NULL THEN json_build_array(version, payload->'move', recorded_by)"
            " ELSE json_build_array(version, event_type, schema_version, payload, recorded_by) END"
            f" ORDER BY version)::text FROM {table} WHERE stream_id = ANY(%b::varchar[]) GROUP BY stream_id"
        )
        with _cursor() as cursor:
            cursor.execute(sql, [MoveRecorded.type, MoveRecorded.version, list(stream_ids)])
            found = cursor.fetchall()
        for stream_id, rows in found:
            out[stream_id] = json.loads(rows)
        return out
    sql = (
        f"SELECT stream_id, version, event_type, schema_version, payload, recorded_by FROM {table}"
        f" WHERE stream_id IN ({', '.join(['%s'] * len(stream_ids))}) ORDER BY stream_id, version"
    )
    with _cursor() as cursor:
        cursor.execute(sql, list(stream_ids))
        for stream_id, version, event_type, schema, payload, by in cursor.fetchall():
            data = json.loads(payload) if isinstance(payload, str) else payload
            if (
                event_type == MoveRecorded.type
                and schema == MoveRecorded.version
                and isinstance(data, dict)
                and "move" in data
            ):
                out[stream_id].append([version, data["move"], by])
            else:
                out[stream_id].append([version, event_type, schema, data, by])
    return out


def read_all_after(position: int, limit: int = 1000) -> list[RecordedEvent]:
    """Up to `limit` events of every stream with a global position above `position`, in position order."""
    return _select("position > %s", [position], "position", limit)


def _select(where: str, params: list[Any], order: str, limit: int | None = None) -> list[RecordedEvent]:
    """Events read as plain rows and decoded here (every read of the store comes this way, and a tailing
    reader or a rebuild reads a great many): the payload arrives as JSON text and is parsed once."""
    columns = list(READ_FIELDS)
    if connection.vendor == "postgresql":
        # The time as whole microseconds since 1970: exact, and far cheaper to turn into a datetime
        # than the timestamp's text (a rebuild reads hundreds of thousands).
        columns[READ_FIELDS.index("recorded_at")] = "(extract(epoch FROM recorded_at) * 1000000)::bigint"
        when: Any = _from_micros
    else:
        when = _datetime
    sql = f"SELECT {', '.join(columns)} FROM {StoredEvent._meta.db_table} WHERE {where} ORDER BY {order}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    with _cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    payloads = _parsed([row[5] for row in found])
    return [
        RecordedEvent(position, stream_id, version, decode(event_type, schema, payload), when(at), by)
        for (position, stream_id, version, event_type, schema, _, at, by), payload in zip(
            found, payloads, strict=True
        )
    ]


def _parsed(payloads: list[Any]) -> list[Any]:
    """The rows' payloads parsed from their JSON text, by one call of the parser for the whole page: each
    text is one JSON value (as the database gives it back), so the texts joined by commas in brackets
    are an array of exactly those values. A call per row cost about as much again as the parse itself.
    Anything else (a payload already parsed, or texts that do not make as many values) is parsed one
    by one, which raises on a text that is not JSON."""
    if payloads and all(type(p) is str for p in payloads):
        try:
            together = json.loads("[" + ",".join(payloads) + "]")
        except ValueError:
            together = None
        if isinstance(together, list) and len(together) == len(payloads):
            return together
    return [json.loads(p) if isinstance(p, str) else p for p in payloads]


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _from_micros(value: int) -> datetime:
    return _EPOCH + timedelta(microseconds=value)


def _datetime(value: Any) -> datetime:
    """SQLite keeps a datetime as text in UTC, without its zone (Django's way)."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.fromisoformat(str(value)).replace(tzinfo=UTC)


def chained_rows(after: int = 0, chunk: int = 5000) -> Iterator[chain.StoredRow]:
    """Every stored row after position ``after``, in position order, as the hash chains cover it (read
    ``chunk`` rows at a time: the whole log never sits in memory)."""
    table = StoredEvent._meta.db_table
    postgres = connection.vendor == "postgresql"
    when = "(extract(epoch FROM recorded_at) * 1000000)::bigint" if postgres else "recorded_at"
    text = "payload::text" if postgres else "payload"
    sql = (
        f"SELECT position, stream_id, version, event_type, schema_version, {when}, recorded_by,"
        f" idempotency_key, batch_size, {text}, stream_hash, log_hash FROM {table}"
        f" WHERE position > %s ORDER BY position LIMIT {int(chunk)}"
    )
    while True:
        with _cursor() as cursor:
            cursor.execute(sql, [after])
            found = cursor.fetchall()
        for position, stream, version, kind, schema, at, by, key, size, payload, sh, lh in found:
            yield chain.StoredRow(
                position=int(position),
                stream_id=stream,
                version=int(version),
                event_type=kind,
                schema_version=int(schema),
                recorded_at_us=int(at) if postgres else _micros(_datetime(at)),
                recorded_by=by,
                idempotency_key=key,
                batch_size=int(size),
                payload=json.loads(payload),
                stream_hash=bytes(sh) if sh is not None else None,
                log_hash=bytes(lh) if lh is not None else None,
            )
        if len(found) < chunk:
            return
        after = int(found[-1][0])


def stream_hashes(at: Sequence[tuple[str, int]]) -> dict[tuple[str, int], bytes | None]:
    """The stream hash of each (stream, version) asked for that has an event (one query)."""
    if not at:
        return {}
    wanted = Q()
    for stream_id, version in at:
        wanted |= Q(stream_id=stream_id, version=version)
    rows = StoredEvent.objects.filter(wanted).values_list("stream_id", "version", "stream_hash")
    return {(s, v): bytes(h) if h is not None else None for s, v, h in rows}


def stream_hash_at(stream_id: str, version: int) -> bytes | None:
    """The stream hash of the stream's event at ``version`` (None: no such event, or no hash)."""
    found = (
        StoredEvent.objects.filter(stream_id=stream_id, version=version)
        .values_list("stream_hash", flat=True)
        .first()
    )
    return bytes(found) if found is not None else None


def log_hash_at(position: int) -> bytes | None:
    """The log hash of the event at this global position (None: no event there, or no hash)."""
    found = StoredEvent.objects.filter(position=position).values_list("log_hash", flat=True).first()
    return bytes(found) if found is not None else None


def result_for_key(stream_id: str, idempotency_key: str) -> AppendResult | None:
    """The result of the append that used this idempotency key on this stream, if one did."""
    return _result_for_key(stream_id, idempotency_key)


def _db() -> Any:
    """The default connection's wrapper (Django's own, or whatever backend subclass wraps the driver's
    connection). Each attribute read through ``django.db.connection`` looks the wrapper up again in a
    thread-local store: an append looks it up once here and passes it on."""
    return connections[DEFAULT_DB_ALIAS]


def _cursor(db: Any = None, *, kept: bool = False, client: bool = False) -> Any:
    """A cursor for the store's statements, to use in a ``with`` block. On PostgreSQL one that binds its
    parameters on the server (Django's default cursor quotes every array element into the SQL text, which
    costs more than the statement itself), or with ``client`` one that binds them here (a message of
    several statements). It is wrapped like Django's own, so that the statement is counted and logged as
    any other.

    ``kept`` (the appends): the connection's own cursor of that kind, made once per driver connection
    and used again by every append on it (making a cursor and its wrapper cost about as much client time
    as the rest of an append), kept and guarded with the reads' (:func:`common.rows.kept_cursor`): where
    Django must see each statement or the connection is shared between threads, a new wrapped cursor is
    made as without ``kept``."""
    if db is None:
        db = _db()
    if db.vendor != "postgresql":
        return db.cursor()
    import psycopg

    kind = psycopg.ClientCursor if client else psycopg.Cursor
    if kept:
        guarded = kept_cursor(db, "client" if client else "server", kind)
        if guarded is not None:
            return guarded
    db.ensure_connection()
    wrapper = CursorDebugWrapper if db.queries_logged else CursorWrapper
    return wrapper(kind(db.connection), db)


def _lock_appends() -> int | None:
    """The key of the ordering lock an append takes (called on PostgreSQL only: on SQLite, BEGIN
    IMMEDIATE already holds the database's one write lock). A test replaces it by None to show what
    the lock prevents."""
    return APPEND_LOCK_KEY


def _result_for_key(stream_id: str, key: str) -> AppendResult | None:
    first = StoredEvent.objects.filter(stream_id=stream_id, idempotency_key=key).first()
    if first is None:
        return None
    last_version = first.version + first.batch_size - 1
    positions = (
        StoredEvent.objects.filter(stream_id=stream_id, version__gte=first.version, version__lte=last_version)
        .order_by("version")
        .values_list("position", flat=True)
    )
    return AppendResult(
        stream_id=stream_id,
        from_version=first.version,
        to_version=last_version,
        positions=tuple(positions),
        recorded_at=first.recorded_at,
    )
