"""Named ruleset options with defaults, validated in one place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidOptions, _, literal

# The largest whole number any option takes unless it names its own ``maximum``: far above any target,
# stake, chip count or number of deals a club agrees on, and small enough that no score built on it
# leaves the numbers the database and the clients hold exactly.
WHOLE_MAX = 10_000


@dataclass(frozen=True)
class Option:
    """One named option: its default, the allowed values (``choices``) or a type, and what it means
    (``doc``, a text for users: an ``_()`` literal, translated by the Django side)."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    kind: type | None = None  # when no choices: the value's type (bool, int, str)
    minimum: int | None = None
    maximum: int | None = None  # None: WHOLE_MAX for a whole number
    nullable: bool = False  # None is allowed too ("no limit", "not used")

    def check(self, value: Any) -> Any:
        if value is None and self.nullable:
            return None
        if self.choices is not None:
            # Same value and same type: 0 is not False, "1" is not 1.
            if not any(value == c and type(value) is type(c) for c in self.choices):
                raise InvalidOptions(
                    "options.invalid",
                    _("option '{option}' must be one of {choices}, not {value}"),
                    field=self.name,
                    option=self.name,
                    choices=list(self.choices),
                    value=literal(value),
                )
            return value
        kind = self.kind or type(self.default)
        # bool is a subclass of int: keep them apart so that True is not a target of 1 point.
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            if self.nullable:
                template = _("option '{option}' must be a whole number or null")
            else:
                template = _("option '{option}' must be a whole number")
            raise InvalidOptions("options.invalid", template, field=self.name, option=self.name)
        if kind is bool and not isinstance(value, bool):
            raise InvalidOptions(
                "options.invalid",
                _("option '{option}' must be true or false"),
                field=self.name,
                option=self.name,
            )
        if kind is not int and not isinstance(value, kind):
            raise InvalidOptions(
                "options.invalid",
                _("option '{option}' must be of type {kind}"),
                field=self.name,
                option=self.name,
                kind=kind.__name__,
            )
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(
                "options.invalid",
                _("option '{option}' must be at least {minimum}"),
                field=self.name,
                option=self.name,
                minimum=self.minimum,
            )
        maximum = self.maximum if self.maximum is not None else WHOLE_MAX
        if kind is int and value > maximum:
            raise InvalidOptions(
                "options.invalid",
                _("option '{option}' must be at most {maximum}"),
                field=self.name,
                option=self.name,
                maximum=maximum,
            )
        return value


STRICT = Option(
    "strict",
    False,
    _("Refuse rule irregularities (not following suit, special obligations) instead of recording them."),
    kind=bool,
)


@dataclass(frozen=True)
class Ruleset:
    """The options a game accepts. ``strict`` is added to every ruleset."""

    options: tuple[Option, ...]
    by_name: Mapping[str, Option] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        opts = self.options if any(o.name == "strict" for o in self.options) else (*self.options, STRICT)
        object.__setattr__(self, "options", opts)
        object.__setattr__(self, "by_name", {o.name: o for o in opts})

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def validate(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Return the complete options (defaults filled in); raise InvalidOptions naming the option."""
        values = self.defaults()
        for name, value in (given or {}).items():
            option = self.by_name.get(name)
            if option is None:
                raise InvalidOptions(
                    "options.unknown", _("unknown option '{name}'"), field=name, name=literal(name)
                )
            values[name] = option.check(value)
        return values

    def describe(self) -> list[dict[str, Any]]:
        return [
            {
                "name": o.name,
                "default": o.default,
                "choices": list(o.choices) if o.choices else None,
                "doc": o.doc,
            }
            for o in self.options
        ]
