"""The hash chains that make the event log tamper-evident (``docs/event-store.md``, "A log nobody can
rewrite unseen").

Every stored event carries two SHA-256 hashes:

- its **stream hash**, ``link(stream hash of the stream's previous event, digest of this event)``, the
  first event of a stream linking to 32 zero bytes: the hand's hash printed on a score sheet is the stream
  hash of the hand's last event;
- its **log hash**, ``link(log hash of the event before it in the global order, its stream hash)``: one
  running hash over the whole log, in position order.

The digest covers every stored field but the position and the hashes themselves, in a canonical JSON
form that does not depend on the database (PostgreSQL's ``jsonb`` reorders keys and SQLite keeps the
text as sent), so that ``verify_log`` recomputes it from the rows alone. Pure Python: no Django here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

GENESIS = bytes(32)
FORMAT = "segnapunti-event-1"  # changes if the digest's fields ever change


def _normal(value: Any) -> Any:
    """JSON values as a round trip through any database gives them back: an integral float is the
    integer (``jsonb`` keeps 1e16 as 10000000000000000), tuples are lists."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normal(v) for v in value]
    return value


# The canonical JSON text: keys sorted, no spaces, UTF-8 as it is (one encoder, built once).
_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def canonical(payload: Any) -> tuple[str, bool]:
    """The payload's text as the digest covers it, and whether that text is also the payload exactly (no
    integral float was written as an integer), so that it can be stored as it is."""
    text = _encode(payload)
    # Python writes an integral float as "2.0", or "1e+16" from 1e16 up: without either, nothing in the
    # payload is one, and normalising would change nothing.
    if ".0" not in text and "e+" not in text:
        return text, True
    normal = _encode(_normal(payload))
    return normal, normal == text


def digest(
    stream_id: str,
    version: int,
    event_type: str,
    schema_version: int,
    recorded_at_us: int,
    recorded_by: str,
    idempotency_key: str | None,
    batch_size: int,
    payload: Any,
) -> bytes:
    """The SHA-256 of one event's stored fields (``recorded_at_us``: microseconds since 1970, UTC): of the
    canonical JSON of the list [FORMAT, stream_id, version, event_type, schema_version, recorded_at_us,
    recorded_by, idempotency_key, batch_size, payload], the payload normalised (``_normal``)."""
    text, _ = canonical(payload)
    return digest_of_text(
        stream_id, version, event_type, schema_version, recorded_at_us, recorded_by, idempotency_key,
        batch_size, text,
    )  # fmt: skip


def digest_of_text(
    stream_id: str,
    version: int,
    event_type: str,
    schema_version: int,
    recorded_at_us: int,
    recorded_by: str,
    idempotency_key: str | None,
    batch_size: int,
    payload_text: str,
) -> bytes:
    """:func:`digest`, the payload given as its text from :func:`canonical` (a list's canonical text is its
    items' texts joined by commas in brackets)."""
    head = _encode(
        [FORMAT, stream_id, version, event_type, schema_version, recorded_at_us, recorded_by,
         idempotency_key, batch_size]
    )  # fmt: skip
    return hashlib.sha256(f"{head[:-1]},{payload_text}]".encode()).digest()


def link(previous: bytes, item: bytes) -> bytes:
    """The next hash of a chain: SHA-256 of the previous hash followed by the new item (32 + 32 bytes)."""
    return hashlib.sha256(previous + item).digest()


def stream_links(head: bytes, digests: Iterable[bytes]) -> list[bytes]:
    """The stream hashes of events with these digests, one after the other, following ``head`` (the
    stream hash of the stream's event before them, or GENESIS for a new stream)."""
    out = []
    for own in digests:
        head = link(head, own)
        out.append(head)
    return out


def short(value: bytes | None) -> str:
    """A hash as printed on paper: its first 16 hexadecimal digits in groups of four (64 bits: enough
    to check a copy against the service, short enough to read aloud)."""
    if not value:
        return "—"
    text = bytes(value).hex()[:16]
    return " ".join(text[i : i + 4] for i in range(0, 16, 4))


def match_hash(heads: Iterable[tuple[int, int, bytes]]) -> bytes:
    """The hash of a match as printed on its sheet: its hands' (number, version, stream hash) chained
    in hand order, so that changing any hand's history, or a hand's place, changes it."""
    value = GENESIS
    for number, version, head in heads:
        value = link(value, hashlib.sha256(f"{number}:{version}:".encode() + bytes(head)).digest())
    return value


@dataclass(frozen=True)
class StoredRow:
    """One row as ``verify`` reads it (the payload already parsed from the database's JSON)."""

    position: int
    stream_id: str
    version: int
    event_type: str
    schema_version: int
    recorded_at_us: int
    recorded_by: str
    idempotency_key: str | None
    batch_size: int
    payload: Any
    stream_hash: bytes | None
    log_hash: bytes | None


@dataclass(frozen=True)
class Break:
    """The first event where the log stops matching its hashes, and why."""

    position: int
    stream_id: str
    version: int
    reason: str

    def __str__(self) -> str:
        return f"event at position {self.position} ({self.stream_id} version {self.version}): {self.reason}"


@dataclass
class Verified:
    """What ``verify`` found: the events checked, the streams, the last log hash, the first break."""

    events: int = 0
    streams: int = 0
    head: bytes = GENESIS
    broken: Break | None = None


def verify(rows: Iterable[StoredRow]) -> Verified:
    """Check the rows, in position order, against both chains; stops at the first break."""
    heads: dict[str, tuple[int, bytes]] = {}
    found = Verified()
    for row in rows:
        reason = _check(row, heads.get(row.stream_id), found.head)
        if reason:
            found.broken = Break(row.position, row.stream_id, row.version, reason)
            break
        assert row.stream_hash is not None and row.log_hash is not None
        heads[row.stream_id] = (row.version, bytes(row.stream_hash))
        found.head = bytes(row.log_hash)
        found.events += 1
    found.streams = len(heads)
    return found


def _check(row: StoredRow, previous: tuple[int, bytes] | None, log_head: bytes) -> str:
    if row.stream_hash is None or row.log_hash is None:
        return "it carries no hash: it was not written by the event store"
    last_version, stream_head = previous if previous else (0, GENESIS)
    if row.version != last_version + 1:
        return f"the stream's previous event is version {last_version}: an event is missing or moved"
    own = digest(
        row.stream_id,
        row.version,
        row.event_type,
        row.schema_version,
        row.recorded_at_us,
        row.recorded_by,
        row.idempotency_key,
        row.batch_size,
        row.payload,
    )
    if bytes(row.stream_hash) != link(stream_head, own):
        return "its stream hash does not match its content and the stream's previous event (changed)"
    if bytes(row.log_hash) != link(log_head, bytes(row.stream_hash)):
        return "its log hash does not follow the previous event's (an event before it is missing or moved)"
    return ""


def chain_rows(
    rows: Iterable[tuple[str, int, bytes]], log_head: bytes, stream_heads: dict[str, bytes]
) -> Iterator[tuple[bytes, bytes]]:
    """(stream hash, log hash) for each new (stream, version, digest), in the order they will be
    stored; ``stream_heads`` gives the stream hash before the first new event of each stream that
    already has events, and is kept up to date."""
    for stream_id, version, own in rows:
        previous = stream_heads.get(stream_id, GENESIS) if version > 1 else GENESIS
        stream_hash = link(previous, own)
        stream_heads[stream_id] = stream_hash
        log_head = link(log_head, stream_hash)
        yield stream_hash, log_head
