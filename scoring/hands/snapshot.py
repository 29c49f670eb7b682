"""A hand state as JSON for the replay viewer and the API: holdings, the trick on the table, tricks
taken, whose turn, the legal moves and the game's own fields (contract, trump, auction ...)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from scoring.rules import Game, HandState
from scoring.rules.core import jsonable
from scoring.rules.moves import Move, move_to_dict
from scoring.rules.tricks import TrickPlay

_CORE_FIELDS = {f.name for f in fields(HandState)}
LEGAL_MOVES_SHOWN = 200  # an exchange can offer hundreds of subsets; the count is always given
# A dataclass's field names, looked up once per class: a state is shown after every move, and
# dataclasses.fields() builds its answer anew on each call.
_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    found = _NAMES.get(cls)
    if found is None:
        found = _NAMES[cls] = tuple(f.name for f in fields(cls))
    return found


_ATOMS = frozenset({str, int, bool, float, type(None)})  # shown as they are (``jsonable`` keeps them)
# The field names of the dataclasses met so far that are not moves: shown field by field.
_RECORDS: dict[type, tuple[str, ...]] = {}


def plain(value: Any) -> Any:
    """JSON-friendly form of engine values: dataclasses become dicts, moves their dict form."""
    # The kinds a state is made of, told apart by their exact type first: a state is shown after every
    # move, and the checks below cost more than the values they turn (issue 29). What they do is what
    # the checks below would do; tests/scoring/hands/test_snapshot_plain.py holds them to it.
    cls = type(value)
    if cls in _ATOMS:
        return value
    if cls is tuple or cls is list:
        return [plain(v) for v in value]
    names = _RECORDS.get(cls)
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, Move):
        return move_to_dict(value)
    if is_dataclass(value) and not isinstance(value, type):
        names = _RECORDS[cls] = _names(cls)
        return {name: plain(getattr(value, name)) for name in names}
    return _plain_other(value)


def _plain_other(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted((plain(v) for v in value), key=str)
    return jsonable(value)


def snapshot(game: Game[Any], state: HandState) -> dict[str, Any]:
    holdings = state.holdings
    names = _names(type(state))
    tricks = next((getattr(state, n) for n in names if isinstance(getattr(state, n), TrickPlay)), None)
    legal = game.legal_moves(state)
    out: dict[str, Any] = {
        "phase": state.phase,
        "over": state.over,
        "dealer": state.dealer,
        "to_act": sorted(game.to_act(state)) if not state.over and state.phase != "deal" else [],
        "deal_known": state.deal_known,
        "hands": (
            [game.deck.sort(h) for h in holdings.hands]
            if holdings is not None and holdings.hands is not None
            else None
        ),
        "hand_counts": list(holdings.counts) if holdings is not None else None,
        "trick": plain(tricks.current) if tricks is not None else None,
        "tricks_taken": [tricks.tricks_won(s) for s in range(state.seats)] if tricks is not None else None,
        "last_trick": plain(tricks.last) if tricks is not None and tricks.last is not None else None,
        "legal_moves": [move_to_dict(m) for m in legal[:LEGAL_MOVES_SHOWN]],
        "legal_move_count": len(legal),
        "claim": plain(state.claim) if state.claim is not None else None,
        "game_state": {
            n: plain(getattr(state, n))
            for n in names
            if n not in _CORE_FIELDS and not isinstance(getattr(state, n), TrickPlay)
        },
    }
    return out
