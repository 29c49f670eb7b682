"""The rule engine: pure Python, no Django. One module per game on a shared core.

``get_game(name)`` returns the game object for a name used in matches and records; ``GAMES`` lists
them. See :mod:`scoring.rules.core` for the shape every game follows.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .core import Game, HandResult, HandState, MatchResult, Replay, Step, Verdict, replay
from .errors import (
    ImpossibleMove,
    InvalidOptions,
    IrregularMoveRefused,
    MalformedMove,
    RulesError,
    Text,
    _,
    literal,
)
from .moves import Move, move_from_dict, move_to_dict

# name -> "module:class"; each game module adds its own line.
_REGISTRY: dict[str, str] = {
    "barbu": "barbu:Barbu",
    "tressette": "tressette:Tressette",
    # "name": "module:ClassName",
    "tarocchi": "tarocchi:Tarocchi",
    "hombre_it": "hombre_it:HombreIt",
    "lhombre": "lhombre:LHombre",
}

__all__ = [
    "GAMES",
    "Game",
    "HandResult",
    "HandState",
    "ImpossibleMove",
    "InvalidOptions",
    "IrregularMoveRefused",
    "MalformedMove",
    "MatchResult",
    "Move",
    "Replay",
    "RulesError",
    "Step",
    "Text",
    "Verdict",
    "game_names",
    "get_game",
    "move_from_dict",
    "move_to_dict",
    "replay",
]

_loaded: dict[str, Game[Any]] = {}


def game_names() -> list[str]:
    return sorted(_REGISTRY)


def get_game(name: str) -> Game[Any]:
    """The game object for ``name``; ImpossibleMove ``game.unknown`` for a name that is not registered."""
    if name not in _REGISTRY:
        raise ImpossibleMove(
            "game.unknown",
            _("unknown game '{name}' (one of {names})"),
            field="game",
            name=literal(name),
            names=game_names(),
        )
    if name not in _loaded:
        module, cls = _REGISTRY[name].split(":")
        _loaded[name] = getattr(import_module(f"{__name__}.{module}"), cls)()
    return _loaded[name]


class _Games:
    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(game_names())

    def __getitem__(self, name: str) -> Game[Any]:
        return get_game(name)


GAMES = _Games()
