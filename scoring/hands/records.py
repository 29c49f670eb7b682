"""Hand and match records: the versioned JSON files a club keeps, checks and exchanges.

The format is documented in ``docs/record-format.md`` with a JSON Schema beside it. A record names the
game, its options, the seats, the direction of play, the dealer, the deal where known and the moves in
the order they happened, rulings included. Checking a record folds it through the rule engine exactly as
a stored hand is folded (:mod:`scoring.hands.fold`), so a file and the service always agree.

Positions: in a record the deal is position 0 and ``moves[i]`` is position ``i + 1``. Irregularities and
rulings name moves by their index in ``moves`` (``"move": 3`` is ``moves[3]``); index ``-1`` names the
deal (a ruling that corrects a mistyped deal).

Every error is a :class:`RecordError` with the engine's code and the field (a path into the record such
as ``hands[1].moves[7].card``); ``malformed`` tells a file that cannot be read as a record (HTTP 400,
``replay`` exit status 2) from a well-formed record of a hand that cannot have happened (HTTP 422, exit
status 3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from scoring.hands.fold import Entry, HandView, MoveEntry, RulingEntry, Setup, UndoEntry, check_log
from scoring.hands.match import adjusted, own_results
from scoring.rules import HandResult, InvalidOptions, MalformedMove, RulesError, Verdict, get_game
from scoring.rules.core import jsonable, score_str
from scoring.rules.errors import plain_params
from scoring.rules.moves import Deal, move_from_dict, move_to_dict

HAND_FORMAT = "segnapunti.hand"
MATCH_FORMAT = "segnapunti.match"
FORMAT_VERSION = 1
DIRECTIONS = ("clockwise", "anticlockwise")


class RecordError(RulesError):
    """A record that is malformed (``malformed``: not a record, a field missing or of the wrong type, an
    unknown option) or that describes a hand that cannot have happened (an impossible move or ruling)."""

    def __init__(
        self, code: str, message: str, /, *, field: str | None = None, malformed: bool = True, **params: Any
    ) -> None:
        super().__init__(code, message, field=field, **params)
        self.malformed = malformed

    @classmethod
    def wrap(cls, exc: RulesError, where: str = "") -> RecordError:
        """The engine's error as a record error, its field placed in the record (``where``)."""
        if isinstance(exc, RecordError):
            return exc
        field = f"{where}{exc.field}" if exc.field else where.rstrip(".") or None
        malformed = isinstance(exc, MalformedMove | InvalidOptions)
        return cls(exc.code, exc.template, field=field, malformed=malformed, **exc.params)


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    if key not in data:
        raise RecordError("record.malformed", f"{where}{key} is missing", field=f"{where}{key}")
    value = data[key]
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        raise RecordError("record.malformed", f"{where}{key} has the wrong type", field=f"{where}{key}")
    return value


def check_header(data: Any, expected: str) -> None:
    if not isinstance(data, Mapping):
        raise RecordError("record.malformed", "a record is a JSON object", field="record")
    fmt = _need(data, "format", str)
    if fmt != expected:
        raise RecordError("record.malformed", f"format must be {expected!r}, not {fmt!r}", field="format")
    version = _need(data, "format_version", int)
    if version != FORMAT_VERSION:
        raise RecordError(
            "record.version",
            f"format_version {version} is not supported (this is {FORMAT_VERSION})",
            field="format_version",
        )


def parse_common(data: Mapping[str, Any]) -> tuple[str, dict[str, Any], tuple[str, ...], str]:
    game = _need(data, "game", str)
    try:
        get_game(game)
    except RulesError as exc:
        raise RecordError.wrap(exc) from exc
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise RecordError("record.malformed", "options must be an object", field="options")
    seats = _need(data, "seats", list)
    if not all(isinstance(s, str) and s for s in seats):
        raise RecordError("record.malformed", "seats must be a list of names", field="seats")
    direction = data.get("direction", "anticlockwise")
    if direction not in DIRECTIONS:
        raise RecordError("record.malformed", f"direction must be one of {DIRECTIONS}", field="direction")
    return game, dict(options), tuple(seats), direction


def parse_hand_body(hand: Mapping[str, Any], where: str) -> tuple[int, list[Entry]]:
    dealer = _need(hand, "dealer", int, where)
    moves = _need(hand, "moves", list, where)
    entries: list[Entry] = []
    if "deal" not in hand:
        # A hand whose cards have not been dealt yet: nothing else can have happened.
        if moves:
            raise RecordError("record.malformed", "deal is missing", field=f"{where}deal")
        return dealer, entries
    deal = hand["deal"]
    if deal is None:
        entries.append(MoveEntry(0, Deal(hands=None)))
    else:
        if not isinstance(deal, Mapping):
            raise RecordError("record.malformed", "deal must be an object or null", field=f"{where}deal")
        entries.append(MoveEntry(0, _move({**deal, "type": "deal"}, f"{where}deal")))
    for i, item in enumerate(moves):
        at = f"{where}moves[{i}]"
        if not isinstance(item, Mapping):
            raise RecordError("record.malformed", "a move is an object", field=at)
        if item.get("type") == "ruling":
            refs = _need(item, "refs", list, f"{at}.")
            if not refs or not all(
                isinstance(r, int) and not isinstance(r, bool) and -1 <= r < i for r in refs
            ):
                raise RecordError(
                    "record.malformed",
                    "refs name earlier moves by index (-1 for the deal)",
                    field=f"{at}.refs",
                )
            rect = _need(item, "rectification", dict, f"{at}.")
            if rect.get("kind") == "replace_move":
                _move(rect.get("move"), f"{at}.rectification.move")
            entries.append(
                RulingEntry(
                    i + 1,
                    tuple(r + 1 for r in refs),
                    _need(item, "rule", str, f"{at}."),
                    _optional_str(item, "reason", at),
                    rect,
                    _optional_str(item, "by", at),
                )
            )
        else:
            entries.append(MoveEntry(i + 1, _move(item, at)))
    return dealer, entries


def _optional_str(item: Mapping[str, Any], key: str, at: str) -> str:
    value = item.get(key, "")
    if not isinstance(value, str):
        raise RecordError("record.malformed", f"{key} must be a string", field=f"{at}.{key}")
    return value


def _move(item: Any, at: str) -> Any:
    try:
        return move_from_dict(item)
    except MalformedMove as exc:
        raise RecordError("record.malformed", f"{at}: {exc.message}", field=f"{at}.{exc.field}") from exc


def load_hand(data: Any, context: Mapping[str, Any] | None = None) -> tuple[Setup, list[Entry], str]:
    """Parse a hand record into what the fold takes; RecordError naming the field when malformed."""
    check_header(data, HAND_FORMAT)
    game, options, seats, direction = parse_common(data)
    dealer, entries = parse_hand_body(data, "")
    return Setup(game, options, seats, dealer, dict(context or {})), entries, direction


def record_position(where: str = "") -> Callable[[int], str]:
    """Names a log position as a path in the record: 0 is the deal, ``i + 1`` is ``moves[i]``."""
    return lambda p: f"{where}deal" if p == 0 else f"{where}moves[{p - 1}]"


def check_entries(
    setup: Setup, entries: Sequence[Entry], where: str = ""
) -> tuple[HandView, dict[int, tuple[Verdict, ...]]]:
    """Fold a record's hand as the service would record it, move by move and ruling by ruling: the fold
    and each move's verdicts by record position."""
    try:
        return check_log(setup, entries, record_position(where))
    except RulesError as exc:
        raise RecordError.wrap(exc) from exc


def hand_report(view: HandView) -> dict[str, Any]:
    """What ``manage.py replay`` prints for one hand."""
    result = view.result
    return {
        "game": view.setup.game,
        "finished": view.over,
        "legal": view.legal,
        "irregularities": [
            {
                "move": v.position - 1,
                "seat": v.verdict.seat,
                "trick": v.verdict.trick,
                "rule": v.verdict.rule,
                "message": v.verdict.message,
                "template": v.verdict.template,
                "params": plain_params(v.verdict.params),
                "proved_at": None if v.proved_at_position is None else v.proved_at_position - 1,
                "stands": v.stands,
                "ruled": bool(v.ruled_by),
            }
            for v in view.verdicts
        ],
        "result": result.outcome if result else None,
        "result_text": result.outcome_text.as_dict() if result and result.outcome_text else None,
        "scores": [score_str(s) for s in result.scores] if result else None,
        "unit": result.unit if result else view.game.score_unit,
        "team_scores": [score_str(s) for s in result.team_scores] if result else None,
        "details": jsonable(result.details) if result else None,
    }


def check_hand(data: Any) -> dict[str, Any]:
    setup, entries, _ = load_hand(data)
    return hand_report(check_entries(setup, entries)[0])


def check_match(data: Any) -> dict[str, Any]:
    """Fold every hand of a match record in order, each with the match context the game asks for."""
    check_header(data, MATCH_FORMAT)
    game_name, options, seats, _ = parse_common(data)
    game = get_game(game_name)
    hands = _need(data, "hands", list)
    results: list[HandResult] = []
    reports: list[dict[str, Any]] = []
    try:
        values = game.ruleset.validate(options)
    except RulesError as exc:
        raise RecordError.wrap(exc, "options.") from exc
    for i, hand in enumerate(hands):
        if not isinstance(hand, Mapping):
            raise RecordError("record.malformed", "a hand is an object", field=f"hands[{i}]")
        if i and reports[-1]["finished"] is False:
            raise RecordError(
                "record.hand_not_over",
                f"hands[{i}] starts before hands[{i - 1}] is over",
                field=f"hands[{i}]",
                malformed=False,
            )
        context = game.match_context(values, len(seats), own_results(results))
        dealer, entries = parse_hand_body(hand, f"hands[{i}].")
        view, _ = check_entries(Setup(game_name, options, seats, dealer, context), entries, f"hands[{i}].")
        reports.append(hand_report(view))
        if view.result is not None:
            results.append(view.result)
    match = adjusted(game, values, len(seats), results)
    return {
        "game": game_name,
        "legal": all(r["legal"] for r in reports),
        "irregularities": [dict(irr, hand=i) for i, r in enumerate(reports) for irr in r["irregularities"]],
        "result": "finished" if match.finished else "in progress",
        "scores": [score_str(s) for s in match.totals],
        "winners": list(match.winners),
        "hands": reports,
        "match": match.as_dict(),
    }


def check(data: Any) -> dict[str, Any]:
    """Check a hand or a match record, whichever it is. Every error is a RecordError."""
    try:
        if isinstance(data, Mapping) and data.get("format") == MATCH_FORMAT:
            return check_match(data)
        return check_hand(data)
    except RulesError as exc:
        raise RecordError.wrap(exc) from exc


def hand_body(dealer: int, entries: Sequence[Entry]) -> dict[str, Any]:
    """The per-hand part of a record from a hand's log: undone moves left out, rulings renumbered."""
    undone = {e.of_position for e in entries if isinstance(e, UndoEntry)}
    kept = [e for e in entries if not isinstance(e, UndoEntry) and e.position not in undone]
    index: dict[int, int] = {}
    body: dict[str, Any] = {"dealer": dealer}
    moves: list[dict[str, Any]] = []
    for e in kept:
        if isinstance(e, MoveEntry) and isinstance(e.move, Deal):
            index[e.position] = -1
            body["deal"] = (
                None
                if e.move.hands is None
                else {"hands": [list(h) for h in e.move.hands], "stock": list(e.move.stock)}
            )
            continue
        index[e.position] = len(moves)
        if isinstance(e, MoveEntry):
            moves.append(move_to_dict(e.move))
        else:
            ruling: dict[str, Any] = {
                "type": "ruling",
                "refs": [index[r] for r in e.refs],
                "rule": e.rule,
                "reason": e.reason,
                "rectification": dict(e.rectification),
            }
            moves.append(ruling)
    body["moves"] = moves
    return body


def record_entries(entries: Sequence[Entry]) -> list[Entry]:
    """A hand's log entries numbered as its record numbers them (what reading :func:`hand_body` back
    gives): undone moves and the undos left out, the deal at position 0, ``moves[i]`` at ``i + 1``,
    rulings' refs renumbered alike. Entries already so numbered come back equal."""
    undone = {e.of_position for e in entries if isinstance(e, UndoEntry)}
    kept = [e for e in entries if not isinstance(e, UndoEntry) and e.position not in undone]
    index: dict[int, int] = {}
    out: list[Entry] = []
    moves = 0
    for e in kept:
        if isinstance(e, MoveEntry) and isinstance(e.move, Deal):
            index[e.position] = 0
            out.append(replace(e, position=0, actor=""))
            continue
        moves += 1
        index[e.position] = moves
        if isinstance(e, MoveEntry):
            out.append(replace(e, position=moves, actor=""))
        else:
            assert isinstance(e, RulingEntry)
            out.append(replace(e, position=moves, refs=tuple(index[r] for r in e.refs), actor=""))
    return out


def export_hand(setup: Setup, entries: Sequence[Entry], direction: str) -> dict[str, Any]:
    return {
        "format": HAND_FORMAT,
        "format_version": FORMAT_VERSION,
        "game": setup.game,
        "options": dict(setup.options),
        "seats": list(setup.seats),
        "direction": direction,
        **hand_body(setup.dealer, entries),
    }


def export_match(
    game: str,
    options: Mapping[str, Any],
    seats: Sequence[str],
    direction: str,
    hands: Sequence[tuple[int, Sequence[Entry]]],
) -> dict[str, Any]:
    return {
        "format": MATCH_FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game,
        "options": dict(options),
        "seats": list(seats),
        "direction": direction,
        "hands": [hand_body(d, e) for d, e in hands],
    }
