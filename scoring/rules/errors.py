"""Errors raised by the rule engine, and how the engine words every text it shows a user.

An :class:`ImpossibleMove` is a keying error: the move cannot stand at a physical table (a card that is
not in the deck, already played or held by another seat, a move out of turn or out of phase). It is
raised before anything changes. A rule irregularity that can physically happen is *not* an error: it is
applied and reported as a :class:`~scoring.rules.core.Verdict`, unless the ruleset is strict, in which
case :class:`IrregularMoveRefused` is raised instead.

Texts are templates with parameters
-----------------------------------
The engine never translates. Every text meant for a user (an error's message, a verdict, a hand's
outcome) is an English *template* in ``str.format`` style with named placeholders, and its *params*, a
dict of plain JSON values: ``_("{card} has already been played or put aside")`` with
``{"card": "KS"}``. Templates are written as ``_("...")`` literals (:func:`_`) so that ``makemessages``
(xgettext) collects them into the catalogues; the Django side translates the template with gettext and
fills in each param in the reader's language, choosing how by the param's *name*:

* ``seat``, ``target``, ``dealer``, ``hombre``, ``holder``, ``winner`` and any name ending in ``_seat``:
  a seat index, 0-based (shown counted from 1, "seat 1", or as the player's name);
* ``seats``: a list of seat indices (a side, the seats a move is waited for);
* ``card`` and any name ending in ``_card``: one card code (``KS``, ``T20``, ``FU``);
* ``cards``: a list of card codes;
* ``suit``, ``lead``, ``trump`` and any name ending in ``_suit``: a suit letter (``S H D C``; ``T`` for
  the Tarocchi trumps);
* ``call``: a call code of the game (``vado``, ``offro``, ``gioco``, ``je_joue``, ``fuori`` …);
* ``combination``: a declaration code (``three_twos``, ``napoletana``, ``matadors``);
* ``contract``: a Barbù contract code (``NPR``);
* ``option``: an option name;
* ``verdict`` and ``outcome``: a nested text, ``{"template": ..., "params": {...}}``, rendered the same
  way and put in place;
* any other name: a number, or a plain literal value shown as it is (an option's value, a value the user
  sent, a move type or phase code: ``kind``, ``phase``), or a list of such (``choices``, ``names``,
  ``penalties``). Never an English word or phrase: any wording belongs in the template, where a
  translation can move it. Where the wording changes with the situation (a trump lead or a suit lead,
  the standing call an overcall failed to beat), there are separate templates.

Params are plain values shared by reference (an assertion's params become its verdict's): never change
them in place. The sheets' rows that have an ``outcome`` also give ``outcome_text``, and Tressette's rows
a ``note_text``, each ``{"template": ..., "params": {...}}``.

:func:`render` is the engine's own English rendering of a template (``RulesError.message``,
``Verdict.message``): seats counted from 1, cards and suits by their codes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

NO_PARAMS: Mapping[str, Any] = MappingProxyType({})

SEAT_PARAMS = frozenset({"seat", "target", "dealer", "hombre", "holder", "winner"})
SUIT_PARAMS = frozenset({"suit", "lead", "trump"})
CODE_PARAMS = frozenset({"call", "combination", "contract", "option"})
TEXT_PARAMS = frozenset({"verdict", "outcome"})


def _(text: str) -> str:
    """Mark a message template for the catalogues and return it unchanged.

    ``xgettext`` (Django's ``makemessages``) extracts the literal of every ``_("...")`` call; the engine
    never translates, the Django side does when it shows the text.
    """
    return text


def param_kind(name: str) -> str:
    """What a param holds, by its name (the convention above): ``seat``, ``seats``, ``card``, ``cards``,
    ``suit``, ``call``, ``combination``, ``contract``, ``option``, ``text`` or ``value``."""
    if name in SEAT_PARAMS or name.endswith("_seat"):
        return "seat"
    if name == "seats":
        return "seats"
    if name == "card" or name.endswith("_card"):
        return "card"
    if name == "cards":
        return "cards"
    if name in SUIT_PARAMS or name.endswith("_suit"):
        return "suit"
    if name in CODE_PARAMS:
        return name
    if name in TEXT_PARAMS:
        return "text"
    return "value"


def _seat_words(seat: Any) -> str:
    return f"seat {seat + 1}" if type(seat) is int else str(seat)


def _seats_words(seats: Any) -> str:
    numbers = [str(s + 1) if type(s) is int else str(s) for s in seats]
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    if len(numbers) > 1:
        return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"
    return "no seat"


def _literal_words(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return ", ".join(_literal_words(v) for v in value)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return str(value)


def render_param(name: str, value: Any) -> str:
    """One param in the engine's English: seats counted from 1, cards and suits by their codes."""
    kind = param_kind(name)
    if kind == "seat":
        return _seat_words(value)
    if kind == "seats":
        return _seats_words(value)
    if kind == "cards":
        return " ".join(str(c) for c in value)
    if kind == "text":
        return render(value["template"], value.get("params", NO_PARAMS))
    if kind == "value":
        return _literal_words(value)
    return str(value)


def render(template: str, params: Mapping[str, Any]) -> str:
    """The template in English with its params filled in. Without params the template is the text
    itself (a text already worded elsewhere may hold any character, braces included)."""
    if not params:
        return template
    return template.format_map({name: render_param(name, value) for name, value in params.items()})


def literal(value: Any) -> Any:
    """A value the user sent, as a param: kept when it is plain JSON, else its ``repr``."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple) and all(
        v is None or isinstance(v, str | int | float | bool) for v in value
    ):
        return list(value)
    return repr(value)


def plain_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Params as JSON values: tuples and sets become lists (sets sorted)."""
    return {name: _plain(value) for name, value in params.items()}


_SCALARS = frozenset({str, int, bool, float, type(None)})


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:  # nearly every param: as it is, without the checks below
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Text:
    """A text for a user: its template (an ``_("...")`` literal) and its params."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def message(self) -> str:
        """The text in the engine's English."""
        return render(self.template, self.params)

    def as_dict(self) -> dict[str, Any]:
        return {"template": self.template, "params": plain_params(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Text:
        return cls(str(data["template"]), dict(data.get("params") or {}))


class RulesError(Exception):
    """Base class: a stable ``code``, a message ``template`` and its ``params``, and optionally the
    ``field`` concerned. ``message`` is the template in the engine's English (:func:`render`)."""

    code: str = "rules.error"

    def __init__(self, code: str, message: str, /, *, field: str | None = None, **params: Any) -> None:
        super().__init__(code, message)
        self.code = code
        self.template = message
        self.params: dict[str, Any] = params
        self.field = field

    @property
    def message(self) -> str:
        return render(self.template, self.params)

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "field": self.field,
            "params": plain_params(self.params),
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class MalformedMove(RulesError):
    """The move is not well formed (missing field, wrong type, unknown move type): HTTP 400."""


class ImpossibleMove(RulesError):
    """The move is well formed but cannot have happened at the table: HTTP 422."""


class IrregularMoveRefused(ImpossibleMove):
    """A strict ruleset refuses a rule irregularity instead of recording it."""


class InvalidOptions(RulesError):
    """A ruleset option is unknown or has a value outside its range."""
