"""Moves: frozen dataclasses, one per kind, with a single dict form for events, records and the API.

Every game uses the same small vocabulary; what a ``Call`` or a ``Choose`` means is up to the game.
``seat`` is ``None`` for table moves that belong to nobody (a deal, closing an auction).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, Field, dataclass, fields
from typing import Any, ClassVar

from .errors import MalformedMove, _, literal


@dataclass(frozen=True, kw_only=True)
class Move:
    """Base class. ``kind`` is the stable type name used in the dict form."""

    kind: ClassVar[str] = "move"
    seat: int | None = None


@dataclass(frozen=True, kw_only=True)
class Deal(Move):
    """The deal. ``hands=None`` records that the cards were dealt without entering them (moves-only mode).

    ``stock`` holds the cards left aside by the deal (talon, the dealer's extra cards), where known.
    """

    kind: ClassVar[str] = "deal"
    hands: tuple[tuple[str, ...], ...] | None = None
    stock: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PlayCard(Move):
    kind: ClassVar[str] = "play"
    card: str


@dataclass(frozen=True, kw_only=True)
class Call(Move):
    """An auction call or declaration of intent: ``pass``, ``gioco``, ``offro`` with ``value`` 3 …

    ``target`` names another seat where the call refers to one (``piglio`` names the offer it takes).
    """

    kind: ClassVar[str] = "call"
    call: str
    value: int | None = None
    target: int | None = None
    suit: str | None = None


@dataclass(frozen=True, kw_only=True)
class Exchange(Move):
    """Cards put aside (``discard``) and cards taken in return (``take``, where known)."""

    kind: ClassVar[str] = "exchange"
    discard: tuple[str, ...] = ()
    take: tuple[str, ...] = ()
    count: int | None = None  # how many were exchanged, when the cards themselves are not recorded


@dataclass(frozen=True, kw_only=True)
class PassCards(Move):
    """Cards passed to another seat (Barbù's Misère pass)."""

    kind: ClassVar[str] = "pass_cards"
    cards: tuple[str, ...] = ()
    count: int | None = None


@dataclass(frozen=True, kw_only=True)
class Declare(Move):
    """A declaration of a combination held (Tressette's buongioco), with its exact cards."""

    kind: ClassVar[str] = "declare"
    combination: str
    cards: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Choose(Move):
    """A named choice: a contract, a trump suit, an opening rank, going on for the vole …"""

    kind: ClassVar[str] = "choose"
    choice: str
    value: str | None = None


@dataclass(frozen=True, kw_only=True)
class Claim(Move):
    """The player on lead claims: the rest (no numbers), ``tricks`` of the remaining tricks for his side,
    or a ``split`` by seat of the remaining tricks or points, in the game's own terms."""

    kind: ClassVar[str] = "claim"
    tricks: int | None = None
    split: tuple[int, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class ClaimResponse(Move):
    kind: ClassVar[str] = "claim_response"
    accept: bool


MOVE_TYPES: dict[str, type[Move]] = {
    cls.kind: cls
    for cls in (Deal, PlayCard, Call, Exchange, PassCards, Declare, Choose, Claim, ClaimResponse)
}


_INT_FIELDS = ("seat", "value", "target", "tricks", "count")
_CARD_LIST_FIELDS = ("discard", "take", "cards", "stock")


def move_json_schema() -> dict[str, Any]:
    """The JSON Schema (OpenAPI 3.0) of a move's dict form: exactly what ``move_from_dict`` reads as well
    formed, so that a move the schema allows is never refused as malformed (only, by the rules, as
    impossible)."""

    def field_schema(kind: str, f: Field[Any]) -> dict[str, Any]:
        if f.name in _INT_FIELDS and not (kind == "choose" and f.name == "value"):
            out: dict[str, Any] = {"type": "integer"}
        elif f.name in _CARD_LIST_FIELDS:
            out = {"type": "array", "items": {"type": "string"}}
        elif f.name == "hands":
            out = {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}
        elif f.name == "split":
            out = {"type": "array", "items": {"type": "integer"}}
        elif f.name == "accept":
            out = {"type": "boolean"}
        else:
            out = {"type": "string"}
        if f.default is None:
            out["nullable"] = True
        return out

    variants = []
    for kind, cls in MOVE_TYPES.items():
        own = _fields_of(cls)
        variants.append(
            {
                "type": "object",
                "title": kind,
                "properties": {"type": {"type": "string", "enum": [kind]}}
                | {name: field_schema(kind, f) for name, f in own.items()},
                "required": ["type"]
                + [n for n, f in own.items() if f.default is MISSING and f.default_factory is MISSING],
                "additionalProperties": False,
            }
        )
    return {"oneOf": variants}


def move_to_dict(move: Move) -> dict[str, Any]:
    """The dict form: ``{"type": "play", "seat": 0, "card": "3S"}``; defaults are left out."""
    # A card played is most moves of every hand, and a hand's state shows them all after every move:
    # its form written out, as the loop below makes it (tests/scoring/hands/test_snapshot_plain.py).
    if type(move) is PlayCard and type(move.card) is str:
        return {"type": "play", "seat": move.seat, "card": move.card}
    return move_to_dict_by_fields(move)


def move_to_dict_by_fields(move: Move) -> dict[str, Any]:
    """``move_to_dict`` for any move, field by field."""
    out: dict[str, Any] = {"type": move.kind}
    for name, f in _fields_of(type(move)).items():  # its class's fields, looked up once
        value = getattr(move, name)
        if name != "seat" and value == f.default:
            continue
        if isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        out[name] = value
    return out


def _card_tuple(value: Any, name: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value):
        raise MalformedMove("move.malformed", _("{name} must be a list of card codes"), field=name, name=name)
    return tuple(value)


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove("move.malformed", _("{name} must be a whole number"), field=name, name=name)
    return value


_FIELDS: dict[type[Move], dict[str, Field[Any]]] = {}


def _fields_of(cls: type[Move]) -> dict[str, Field[Any]]:
    """A move class's fields by name, looked up once (every move read from the log asks)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = {f.name: f for f in fields(cls)}
    return found


def move_from_dict(data: Mapping[str, Any], plays: dict[tuple[int, str], PlayCard] | None = None) -> Move:
    """Parse the dict form; raise MalformedMove naming the field that is wrong. ``plays``, when given,
    keeps the cards played already made, by seat and card, and a card played is taken from it (a move is
    immutable, and a match's log plays each card of each seat many times)."""
    # type() first: a dict is what every caller passes, and an ABC check costs far more than this one.
    if type(data) is not dict and not isinstance(data, Mapping):
        raise MalformedMove("move.malformed", _("a move must be an object"), field="move")
    if len(data) == 3 and data.get("type") == "play":  # most moves of every log: a card played
        seat, card = data.get("seat"), data.get("card")
        if type(seat) is int and type(card) is str:
            if plays is None:
                return PlayCard(seat=seat, card=card)
            made = plays.get((seat, card))
            if made is None:
                made = plays[seat, card] = PlayCard(seat=seat, card=card)
            return made
    kind = data.get("type")
    cls = MOVE_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedMove(
            "move.malformed",
            _("unknown move type '{kind}' (one of {kinds})"),
            field="type",
            kind=literal(kind),
            kinds=sorted(MOVE_TYPES),
        )
    allowed = _fields_of(cls)
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key == "type":
            continue
        if key not in allowed:
            raise MalformedMove(
                "move.malformed",
                _("unknown field '{name}' for a {kind} move"),
                field=key,
                name=literal(key),
                kind=kind,
            )
        if value is None:
            if allowed[key].default is not None:  # only what may be absent may be null
                raise MalformedMove(
                    "move.malformed",
                    _("{name} cannot be null in a {kind} move"),
                    field=key,
                    name=key,
                    kind=kind,
                )
            kwargs[key] = None
        elif key in ("seat", "value", "target", "tricks", "count") and not (
            kind == "choose" and key == "value"
        ):
            kwargs[key] = _int(value, key)
        elif key in ("discard", "take", "cards", "stock"):
            kwargs[key] = _card_tuple(value, key)
        elif key == "hands":
            if not isinstance(value, list | tuple):
                raise MalformedMove("move.malformed", _("hands must be a list of card lists"), field="hands")
            kwargs[key] = tuple(_card_tuple(h, "hands") for h in value)
        elif key == "split":
            if not isinstance(value, list | tuple):
                raise MalformedMove("move.malformed", _("split must be a list of numbers"), field="split")
            kwargs[key] = tuple(_int(v, "split") for v in value)
        elif key == "accept":
            if not isinstance(value, bool):
                raise MalformedMove("move.malformed", _("accept must be true or false"), field="accept")
            kwargs[key] = value
        else:
            if not isinstance(value, str):
                raise MalformedMove("move.malformed", _("{name} must be a string"), field=key, name=key)
            kwargs[key] = value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        missing = [
            n
            for n, f in allowed.items()
            if n not in kwargs and f.default is MISSING and f.default_factory is MISSING
        ]
        name = missing[0] if missing else "move"
        raise MalformedMove(
            "move.malformed", _("a {kind} move needs '{name}'"), field=name, kind=kind, name=name
        ) from exc
