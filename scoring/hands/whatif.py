"""What if the same hands had been scored under other options of their game: a read, never a write.

A match (or hand) record is folded twice, once under its recorded options and once under the recorded
options with the asked ones put over them, and the two are compared hand by hand: each hand's result and
scores, the running totals, who won. Nothing is stored: the answer is labelled ``what_if`` and never
stands for the official sheet.

Under other options a recorded move may not stand (another deck, a card no longer in play, a call the
other options do not have): the comparison then stops at that hand, and ``refused`` says at which hand
and move, with the engine's code and its text (a template and params, worded by the faces in the
reader's language). The hands before it are still compared.

Errors: the record itself malformed or impossible as recorded raises :class:`RecordError` as
:func:`~scoring.hands.records.check` does; options that are not options of the game raise it too
(``malformed``, field ``options.<name>``), since there is nothing to compare then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.hands.fold import Entry, HandView, Setup
from scoring.hands.fold import fold as fold_hand
from scoring.hands.match import adjusted, own_results
from scoring.hands.records import (
    HAND_FORMAT,
    MATCH_FORMAT,
    RecordError,
    _need,
    check_entries,
    check_header,
    parse_common,
    parse_hand_body,
)
from scoring.rules import HandResult, RulesError, get_game
from scoring.rules.core import score_str
from scoring.rules.errors import plain_params


@dataclass(frozen=True)
class Folded:
    """One fold of the record's hands under one option set: each hand's view (None once refused), the
    match's totals and winners, and the refusal if a move could not stand."""

    views: tuple[HandView | None, ...]
    totals: tuple[int | str, ...]
    winners: tuple[int, ...]
    finished: bool
    refused: dict[str, Any] | None


def _hands(
    data: Mapping[str, Any],
) -> tuple[str, dict[str, Any], tuple[str, ...], list[tuple[int, list[Entry], str]]]:
    """The record's game, options, seats and hands (dealer, entries, the path of the hand in the record)."""
    if isinstance(data, Mapping) and data.get("format") == MATCH_FORMAT:
        check_header(data, MATCH_FORMAT)
        game, options, seats, _ = parse_common(data)
        hands = []
        for i, hand in enumerate(_need(data, "hands", list)):
            if not isinstance(hand, Mapping):
                raise RecordError("record.malformed", "a hand is an object", field=f"hands[{i}]")
            dealer, entries = parse_hand_body(hand, f"hands[{i}].")
            hands.append((dealer, entries, f"hands[{i}]."))
        return game, options, seats, hands
    check_header(data, HAND_FORMAT)
    game, options, seats, _ = parse_common(data)
    dealer, entries = parse_hand_body(data, "")
    return game, options, seats, [(dealer, entries, "")]


def fold(
    game_name: str,
    options: Mapping[str, Any],
    seats: Sequence[str],
    hands: Sequence[tuple[int, list[Entry], str]],
) -> Folded:
    """Fold every hand in order under `options`, each with its match context; a move that cannot stand
    stops the fold there (``refused``) instead of raising."""
    game = get_game(game_name)
    try:
        values = game.ruleset.validate(dict(options))
    except RulesError as exc:
        raise RecordError.wrap(exc, "options.") from exc
    results: list[HandResult] = []
    views: list[HandView | None] = []
    refused: dict[str, Any] | None = None
    for i, (dealer, entries, where) in enumerate(hands):
        if refused is not None:
            views.append(None)
            continue
        previous = views[-1] if views else None
        if previous is not None and not previous.over:
            refused = _refusal(
                i,
                where,
                RecordError(
                    "record.hand_not_over",
                    "hands[{hand}] starts before hands[{previous}] is over",
                    field=where.rstrip(".") or None,
                    malformed=False,
                    hand=i,
                    previous=i - 1,
                ),
            )
            views.append(None)
            continue
        context = game.match_context(values, len(seats), own_results(results))
        try:
            view = _fold_fast(Setup(game_name, dict(options), tuple(seats), dealer, context), entries, where)
        except RecordError as exc:
            refused = _refusal(i, where, exc)
            views.append(None)
            continue
        views.append(view)
        if view.result is not None:
            results.append(view.result)
    match = adjusted(game, values, len(seats), results)
    return Folded(
        views=tuple(views),
        totals=tuple(score_str(s) for s in match.totals),
        winners=tuple(match.winners),
        finished=bool(match.finished) and refused is None,
        refused=refused,
    )


def _fold_fast(setup: Setup, entries: list[Entry], where: str) -> HandView:
    """The hand folded once, as a rebuild does (one view at the end, not one per move); when something
    cannot stand, folded again entry by entry, as a record is checked, for the error naming the entry."""
    try:
        return fold_hand(setup, entries)
    except RulesError:
        return check_entries(setup, entries, where)[0]  # raises the RecordError that names the entry


def _refusal(hand: int, where: str, exc: RecordError) -> dict[str, Any]:
    # The engine's own text (template and params, for the reader's language) is the first error's:
    # the fold and the record checker put the position before its message as they pass it on.
    first: BaseException = exc
    while isinstance(first.__cause__, RulesError):
        first = first.__cause__
    engine = first if isinstance(first, RulesError) else exc
    return {
        "hand": hand,
        "move": _move_index(exc.field, where),
        "field": exc.field,
        "code": exc.code,
        "message": exc.message,
        "template": engine.template,
        "params": plain_params(engine.params),
    }


def _move_index(field: str | None, where: str) -> int | None:
    """The index in the hand's ``moves`` that a record error names (None for the deal or the hand)."""
    if not field or not field.startswith(f"{where}moves["):
        return None
    return int(field[len(where) + len("moves[") :].split("]", 1)[0])


def _hand(view: HandView | None) -> dict[str, Any] | None:
    if view is None:
        return None
    result = view.result
    return {
        "finished": view.over,
        "result": result.outcome if result else None,
        "result_text": result.outcome_text.as_dict() if result and result.outcome_text else None,
        "scores": [score_str(s) for s in result.scores] if result else None,
    }


def rescore(data: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The record compared with itself under other options: `options` are put over the recorded ones.
    Raises RecordError when the record does not stand as recorded or `options` are not the game's."""
    if not isinstance(options, Mapping):
        raise RecordError(
            "whatif.options", "options is an object of option names and values", field="options"
        )
    game_name, recorded_options, seats, hands = _hands(data)
    other_options = {**recorded_options, **options}
    recorded = fold(game_name, recorded_options, seats, hands)
    if recorded.refused is not None:
        raise RecordError(
            recorded.refused["code"],
            recorded.refused["template"],
            field=recorded.refused["field"],
            malformed=False,
            **recorded.refused["params"],
        )
    other = fold(game_name, other_options, seats, hands)
    game = get_game(game_name)
    before, after = game.ruleset.validate(dict(recorded_options)), game.ruleset.validate(other_options)
    rows = []
    for i, (was, now) in enumerate(zip(recorded.views, other.views, strict=True)):
        a, b = _hand(was), _hand(now)
        rows.append({"hand": i, "recorded": a, "what_if": b, "differs": b is None or a != b})
    return {
        "what_if": True,
        "official": False,
        "game": game_name,
        "seats": list(seats),
        "recorded_options": recorded_options,
        "options": other_options,
        "changed": {k: [before.get(k), after[k]] for k in after if before.get(k) != after[k]},
        "hands": rows,
        "totals": {
            "recorded": list(recorded.totals),
            "what_if": list(other.totals),
            "differs": [a != b for a, b in zip(recorded.totals, other.totals, strict=True)],
        },
        "winners": {"recorded": list(recorded.winners), "what_if": list(other.winners)},
        "finished": {"recorded": recorded.finished, "what_if": other.finished},
        "refused": other.refused,
    }
