"""Errors raised by the rule engine.

An :class:`ImpossibleMove` is a keying error: the move cannot stand at a physical table (a card that is
not in the deck, already played or held by another seat, a move out of turn or out of phase). It is
raised before anything changes. A rule irregularity that can physically happen is *not* an error: it is
applied and reported as a :class:`~scoring.rules.core.Verdict`, unless the ruleset is strict, in which
case :class:`IrregularMoveRefused` is raised instead.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base class: a stable ``code``, a plain ``message`` and optionally the ``field`` concerned."""

    code: str = "rules.error"

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "message": self.message, "field": self.field}

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
