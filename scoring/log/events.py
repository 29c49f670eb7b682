"""Event types: frozen dataclasses, each with a stable `type` name and an integer schema `version`.

A payload is stored with the version of its class at the time of writing and is never rewritten. When
a class changes shape, its `version` goes up and an upcaster turning the previous payload into the new
one is registered; reading chains upcasters v1 -> v2 -> ... up to the current version.

The events are generic on purpose: a move is the engine's move serialised to a dict, so that the store
does not depend on any one game.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]


class UnknownEventType(LookupError):
    """A stored event names a type no class is registered for."""


class UnreadableSchemaVersion(LookupError):
    """A stored payload's schema version has no upcaster path to the current class version."""


@dataclass(frozen=True)
class Event:
    """Base class of every stored event. Subclasses set `type` and, when they change shape, `version`."""

    type: ClassVar[str]
    version: ClassVar[int] = 1

    def __post_init__(self) -> None:
        # JSON has no tuples: lists coming back from a payload become tuples, so that a decoded event
        # equals the one that was written (only the fields declared as tuples can hold one).
        for name in _tuple_fields(type(self)):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_TUPLE_FIELDS: dict[type, tuple[str, ...]] = {}


def _tuple_fields(cls: type[Event]) -> tuple[str, ...]:
    """The fields declared as tuples (annotations are strings here: ``from __future__ import
    annotations``), looked up once per class."""
    names = _TUPLE_FIELDS.get(cls)
    if names is None:
        names = _TUPLE_FIELDS[cls] = tuple(
            f.name for f in dataclasses.fields(cls) if str(f.type).startswith(("tuple", "Tuple"))
        )
    return names


def _field_names(cls: type[Event]) -> tuple[str, ...]:
    """An event class's field names, looked up once (every event read or written asks)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_REGISTRY: dict[str, type[Event]] = {}
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}

E = TypeVar("E", bound=type[Event])


def register(cls: E) -> E:
    """Class decorator: make an event class readable from the store by its `type` name."""
    name = cls.type
    if name in _REGISTRY and _REGISTRY[name] is not cls:
        raise ValueError(f"event type {name!r} is already registered to {_REGISTRY[name].__name__}")
    _REGISTRY[name] = cls
    return cls


def upcaster(event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Decorator: register the function turning a `from_version` payload into a `from_version + 1` one."""

    def decorate(fn: Upcaster) -> Upcaster:
        key = (event_type, from_version)
        if key in _UPCASTERS:
            raise ValueError(f"an upcaster for {event_type} v{from_version} is already registered")
        _UPCASTERS[key] = fn
        return fn

    return decorate


def event_class(event_type: str) -> type[Event]:
    """The class registered under `event_type`."""
    try:
        return _REGISTRY[event_type]
    except KeyError:
        raise UnknownEventType(event_type) from None


def to_payload(event: Event) -> Payload:
    """The event's fields as plain JSON values (tuples become lists); a value JSON cannot hold is an error."""
    payload: Payload = json.loads(payload_json(event))
    return payload


def payload_fields(event: Event) -> dict[str, Any]:
    """The event's fields by name, as they are (tuples stay tuples)."""
    return {name: getattr(event, name) for name in _field_names(type(event))}


def payload_json(event: Event) -> str:
    """The event's fields as JSON text, as the store writes it (an event's fields are JSON values,
    tuples and dicts of them: no nested dataclass to convert)."""
    return json.dumps(payload_fields(event))


def upcast(event_type: str, schema_version: int, payload: Mapping[str, Any]) -> Payload:
    """Bring a stored payload up to the current version of its class, one upcaster at a time."""
    current = event_class(event_type).version
    if schema_version > current:
        raise UnreadableSchemaVersion(f"{event_type} v{schema_version} is newer than this code's v{current}")
    data = dict(payload)
    for version in range(schema_version, current):
        try:
            step = _UPCASTERS[(event_type, version)]
        except KeyError:
            raise UnreadableSchemaVersion(f"no upcaster for {event_type} v{version}") from None
        data = step(data)
    return data


def decode(event_type: str, schema_version: int, payload: Mapping[str, Any]) -> Event:
    """The typed event for a stored (type, schema version, payload) triple, upcast as needed."""
    cls = event_class(event_type)
    if schema_version == cls.version:  # nearly every event read: nothing to upcast
        return cls(**payload)
    return cls(**upcast(event_type, schema_version, payload))


class StoredLike(Protocol):
    event_type: str
    schema_version: int
    payload: Any


def from_stored(stored: StoredLike) -> Event:
    """The typed event for a stored row (anything with event_type, schema_version and payload)."""
    return decode(stored.event_type, stored.schema_version, stored.payload)


# The match's own stream, ``match-<id>``: what decides whose result is whose.


def match_stream_id(match_id: int) -> str:
    return f"match-{match_id}"


def hand_stream_id(match_id: int, number: int) -> str:
    return f"match-{match_id}-hand-{number}"


@register
@dataclass(frozen=True)
class MatchOpened(Event):
    """A match was set up: its club, its game with the options chosen (the ruleset's defaults fill the
    rest), the direction of play and who sits where, in seat order: each seat a dict with its ``name``
    and its club ``player`` (an id, or None for a name only). A rebuild reads the match from here, never
    from the match and seat rows that show it (issue 25)."""

    type = "MatchOpened"

    club: int
    game: str
    options: dict[str, Any]
    direction: str
    seats: tuple[dict[str, Any], ...]


@register
@dataclass(frozen=True)
class MatchAbandoned(Event):
    """The director stopped the match unfinished (its table abandoned), with his reason: nothing more is
    recorded in it. Kept in the match's own stream, so that its status comes from the log too."""

    type = "MatchAbandoned"

    reason: str


# The events a hand's stream is made of.


@register
@dataclass(frozen=True)
class HandStarted(Event):
    """A hand began: which game, with which options, who sits where, who deals (a seat index)."""

    type = "HandStarted"
    version = 2

    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    dealer: int
    # What the hand needs to know of the match so far (Barbù: the contracts each dealer has played),
    # fixed when the hand starts so that a hand folds without reading the hands before it.
    context: dict[str, Any] = dataclasses.field(default_factory=dict)


@upcaster("HandStarted", 1)
def _hand_started_v1_v2(payload: Payload) -> Payload:
    # v1 had no match context: hands recorded then started with none.
    return {**payload, "context": {}}


@register
@dataclass(frozen=True)
class MoveRecorded(Event):
    """A move was made. `move` is the engine move serialised to a dict; `verdicts` are the
    irregularities the engine found in it (each a dict, ``Verdict.as_dict``), empty when the move was
    regular. A verdict recorded before issue 14 has no `template` and `params`, only its English
    `message`: ``Verdict.from_dict`` reads both (a new optional key, so no new version)."""

    type = "MoveRecorded"
    version = 2

    move: dict[str, Any]
    verdicts: tuple[dict[str, Any], ...] = ()


@upcaster("MoveRecorded", 1)
def _move_recorded_v1_v2(payload: Payload) -> Payload:
    # v1, the first prototype, only knew card play: {"seat": 2, "card": "7C"} at the top level.
    # v2 wraps any engine move in `move` and adds the engine's verdicts (none were checked in v1).
    return {
        "move": {"type": "play", "seat": payload["seat"], "card": payload["card"]},
        "verdicts": [],
    }


@register
@dataclass(frozen=True)
class MoveUndone(Event):
    """The move recorded at stream version `of_version` is taken back."""

    type = "MoveUndone"

    of_version: int
    reason: str


@register
@dataclass(frozen=True)
class RulingRecorded(Event):
    """An arbiter's ruling on the moves at versions `refs`: the rule applied, why, and the fix to the
    score or the play (`rectification`, shaped by the game)."""

    type = "RulingRecorded"

    refs: tuple[int, ...]
    rule: str
    reason: str
    rectification: dict[str, Any]


@register
@dataclass(frozen=True)
class HandClosed(Event):
    """The hand is over; its score follows from replaying the stream."""

    type = "HandClosed"
