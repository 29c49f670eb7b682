"""What if the same hands had been scored under other options of their game: a read, never a write.

The hands' moves are folded under the recorded options with the asked ones put over them, and compared
hand by hand with the hands as recorded: each hand's result and scores, the running totals, who won.
Nothing is stored: the answer is labelled ``what_if`` and never stands for the official sheet.

Where the recorded side comes from:

* a match kept by the service (:func:`rescore_logged`): its hands' log entries, each of which the engine
  accepted when it was appended, and the results the projection stored with each hand. Only the other
  options are folded; the recorded side is what is stored (``tests/scoring/test_whatif_stored.py``
  holds it to what folding the log under the recorded options gives).
* a record file (:func:`rescore`): nothing says it was ever checked, so it is folded under its own
  options first, and refused as :func:`~scoring.hands.records.check` refuses it if it cannot stand;
  those folds then serve the other side where only the scoring changes (below).

Under other options a recorded move may not stand (another deck, a card no longer in play, a call the
other options do not have): the comparison then stops at that hand, and ``refused`` says at which hand
and move, with the engine's code and its text (a template and params, worded by the faces in the
reader's language). The hands before it are still compared.

Options that change only the scoring
------------------------------------
Each game declares which of its options are score-only (:meth:`~scoring.rules.core.Game.score_only`:
read only once a hand is over, never by play, a claim or an early end) and which part of a hand's match
context its play reads (:meth:`~scoring.rules.core.Game.play_context`); a game may also say which
options a hand's play never read, given what the hand became (Barbù's options of the other contracts:
:meth:`~scoring.rules.core.Game.unread_options`). A hand already folded once (:class:`Final`:
its last state and rulings) need not be played again card by card under options that differ from those
it was folded with only in score-only ones and ones it never read, when the part of its new context
that play reads is the one it was played with: its finished state is scored again under the new options
(:meth:`~scoring.rules.core.Game.rescored`, then its rulings). A hand whose end a claim shaped is always
played again (a claim is checked with the options: Tressette counts its points with the rounding).
Anything else is folded in full, which stays the reference: ``tests/scoring/hands/test_whatif_finals.py``
holds the two to the same answer on random matches of every game under random score-only option sets
and random other options, and holds each game's declarations to the states the full fold makes.

The folds are kept in this process (:func:`kept`, :func:`keep`: the last state of each hand, by stream
and version, least recently used out), so a second what-if of the same match under score-only options is
quick. A finished hand's fold is also kept with the hand by the service, sealed (:func:`seal`,
:func:`unseal`: the service's key, this engine's fingerprint and the stream version it is of), so that
the first what-if in any process need not fold it either; a sealed fold that does not match is ignored
and the hand folded from the log.

Errors: options that are not options of the game raise :class:`RecordError` (``malformed``, field
``options.<name>``), since there is nothing to compare then; so does a record that is malformed or
impossible as recorded.
"""

from __future__ import annotations

import hashlib
import hmac
import pickle
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.hands.fold import Entry, HandView, RulingEntry, Setup, result_of
from scoring.hands.fold import fold as fold_hand
from scoring.hands.foldcache import ByStream
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
    record_entries,
)
from scoring.rules import Game, HandResult, HandState, RulesError, get_game
from scoring.rules.core import options_differ, score_str
from scoring.rules.errors import _, plain_params
from scoring.rules.moves import Claim, ClaimResponse

_CLAIMS = (Claim, ClaimResponse)

# A hand to fold: its dealer, its log entries and where it is in a record (``hands[3].``; the record
# fields a refusal names start with it).
LoggedHand = tuple[int, Sequence[Entry], str]


@dataclass(frozen=True)
class Final:
    """What scoring a folded hand again needs: its last state (with the options and context it was
    folded with) before the rulings' score changes, its rulings, and whether a claim shaped its end."""

    state: HandState
    rulings: tuple[RulingEntry, ...]
    claimed: bool

    @classmethod
    def of(cls, view: HandView) -> Final:
        claimed = view.settled is not None or any(isinstance(m.move, _CLAIMS) for m in view.moves)
        return cls(view.state, view.rulings, claimed)

    def serves(self, game: Game[Any], values: Mapping[str, Any], context: Mapping[str, Any]) -> bool:
        """Whether the hand, folded under `values` and `context`, is this one scored again: no claim, no
        option changed that play reads (score-only ones aside, and those this hand's play never read:
        Barbù's options of other contracts), the same context for play."""
        state = self.state
        before = state.options
        free = game.score_only(before) | game.unread_options(state)
        return (
            not self.claimed
            and not options_differ(before, values, free)
            and game.play_context(values, context) == game.play_context(before, state.context)
        )

    def result(
        self, game: Game[Any], values: Mapping[str, Any], context: Mapping[str, Any]
    ) -> HandResult | None:
        """The hand's result under `values` and `context` (for which :meth:`serves` is true); None if it
        is not over."""
        if not self.state.over:
            return None
        return result_of(game, game.rescored(self.state, values, context), self.rulings)


# The last fold of hands a what-if read, by stream: a match is some tens of hands.
KEPT = 1024
_kept: ByStream[Final] = ByStream(KEPT)


def kept(stream_id: str, version: int) -> Final | None:
    """The hand's kept fold at exactly that stream version, if any."""
    found = _kept.get(stream_id)
    return found[1] if found is not None and found[0] == version else None


def keep(stream_id: str, version: int, final: Final) -> None:
    """Keep a hand's fold at a committed stream version."""
    _kept.put(stream_id, version, final)


def forget() -> None:
    _kept.clear()


# ---- a hand's fold, sealed to be kept with the hand -------------------------------------------------
# A sealed fold: an HMAC-SHA256 of the rest under the service's key, then the engine's fingerprint (16
# bytes), the stream version it is of (8 bytes), and the pickled Final. Unpickled only when all three
# match: a blob this service did not write is never unpickled, and a deploy that changes the engine, the
# fold or this module (whose classes the pickle names) folds the hands again.
_MAC = 32
_HEAD = _MAC + 16 + 8
_FINGERPRINT: bytes | None = None


def engine_fingerprint() -> bytes:
    """16 bytes that change whenever the code a sealed fold depends on changes: the engine's modules, the
    fold's and this one's source, and the interpreter's version (pickle's classes and protocol)."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        digest = hashlib.sha256(repr(sys.version_info[:2]).encode())
        hands = Path(__file__).resolve().parent
        for path in [*sorted((hands.parent / "rules").rglob("*.py")), *sorted(hands.glob("*.py"))]:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        _FINGERPRINT = digest.digest()[:16]
    return _FINGERPRINT


def seal(final: Final, version: int, key: bytes) -> bytes:
    """The hand's fold at stream `version`, to be kept with the hand (:func:`unseal` reads it)."""
    body = engine_fingerprint() + version.to_bytes(8, "big") + pickle.dumps(final, pickle.HIGHEST_PROTOCOL)
    return hmac.new(key, body, hashlib.sha256).digest() + body


def unseal(blob: bytes | memoryview | None, version: int, key: bytes) -> Final | None:
    """The fold :func:`seal` kept, if `blob` is one, of stream `version`, by this engine, under `key`;
    None otherwise (the hand is then folded from the log)."""
    if blob is None or len(blob) <= _HEAD:
        return None
    blob = bytes(blob)
    body = blob[_MAC:]
    if body[:16] != engine_fingerprint() or int.from_bytes(body[16:24], "big") != version:
        return None
    if not hmac.compare_digest(blob[:_MAC], hmac.new(key, body, hashlib.sha256).digest()):
        return None
    final = pickle.loads(body[24:])  # written by this service under its key (checked above)
    return final if isinstance(final, Final) else None


@dataclass(frozen=True)
class Side:
    """One side of the comparison: each hand as the answer shows it (:func:`hand_row`; None for a hand
    not reached once a move was refused), the match's totals and winners, and the refusal if a move could
    not stand."""

    hands: tuple[dict[str, Any] | None, ...]
    totals: tuple[int | str, ...]
    winners: tuple[int, ...]
    finished: bool
    refused: dict[str, Any] | None


def hand_row(result: HandResult | None) -> dict[str, Any]:
    """A hand as the answer shows it: finished or not, its result and result text, its scores (the
    forms the service stores a hand's result in, ``HandResult.as_dict``)."""
    return {
        "finished": result is not None,
        "result": result.outcome if result else None,
        "result_text": result.outcome_text.as_dict() if result and result.outcome_text else None,
        "scores": [score_str(s) for s in result.scores] if result else None,
    }


def _hands(data: Mapping[str, Any]) -> tuple[str, dict[str, Any], tuple[str, ...], list[LoggedHand]]:
    """The record's game, options, seats and hands (dealer, entries, the path of the hand in the record)."""
    if isinstance(data, Mapping) and data.get("format") == MATCH_FORMAT:
        check_header(data, MATCH_FORMAT)
        game, options, seats, _ = parse_common(data)
        hands: list[LoggedHand] = []
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


def _values(game_name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return get_game(game_name).ruleset.validate(dict(options))
    except RulesError as exc:
        raise RecordError.wrap(exc, "options.") from exc


def fold(
    game_name: str, options: Mapping[str, Any], seats: Sequence[str], hands: Sequence[LoggedHand]
) -> Side:
    """Fold every hand in order under `options`, each with its match context; a move that cannot stand
    stops the fold there (``refused``) instead of raising."""
    return fold_reusing(game_name, options, seats, hands, ())[0]


def fold_reusing(
    game_name: str,
    options: Mapping[str, Any],
    seats: Sequence[str],
    hands: Sequence[LoggedHand],
    finals: Sequence[Final | None],
) -> tuple[Side, list[Final | None]]:
    """:func:`fold`, scoring again each hand's earlier fold in `finals` (by hand; None or missing: none)
    where it serves (:meth:`Final.serves`), and folding the others; a hand's entries are not looked at
    when its earlier fold serves. Returns the side and each hand's fold (None where none was reached)."""
    game = get_game(game_name)
    values = _values(game_name, options)
    plain = dict(options)
    results: list[HandResult] = []
    scored: list[dict[str, Any] | None] = []
    refused: dict[str, Any] | None = None
    folds: list[Final | None] = []
    for i, (dealer, entries, where) in enumerate(hands):
        if scored and scored[-1] is not None and not scored[-1]["finished"]:
            # A hand starts only once the one before it is over: under these options it is not.
            refused = _refusal(
                i,
                where,
                RecordError(
                    "record.hand_not_over",
                    _("hand {number} is not over under these options, so hand {next_number} cannot start"),
                    field=where.rstrip(".") or None,
                    malformed=False,
                    number=i,
                    next_number=i + 1,
                ),
            )
            break
        context = game.match_context(values, len(seats), own_results(results))
        final = finals[i] if i < len(finals) else None
        if final is not None and final.serves(game, values, context):
            result = final.result(game, values, context)
        else:
            try:
                view = _fold_fast(Setup(game_name, plain, tuple(seats), dealer, context), entries, where)
            except RecordError as exc:
                refused = _refusal(i, where, exc)
                break
            result, final = view.result, Final.of(view)
        folds.append(final)
        scored.append(hand_row(result))
        if result is not None:
            results.append(result)
    match = adjusted(game, values, len(seats), results)
    side = Side(
        hands=(*scored, *([None] * (len(hands) - len(scored)))),
        totals=tuple(score_str(s) for s in match.totals),
        winners=tuple(match.winners),
        finished=bool(match.finished) and refused is None,
        refused=refused,
    )
    return side, [*folds, *([None] * (len(hands) - len(folds)))]


def stored(hands: Sequence[Mapping[str, Any]], sheet: Mapping[str, Any]) -> Side:
    """The recorded side as the service stored it: each hand as :func:`hand_row` shows it (from the
    result stored with the hand) and the match's sheet (its totals, winners and whether it is over)."""
    return Side(
        hands=tuple(dict(h) for h in hands),
        totals=tuple(sheet["totals"]),
        winners=tuple(sheet["winners"]),
        finished=bool(sheet["finished"]),
        refused=None,
    )


def _fold_fast(setup: Setup, entries: Sequence[Entry], where: str) -> HandView:
    """The hand folded once, as a rebuild does (one view at the end, not one per move); when something
    cannot stand, folded again entry by entry, as a record is checked, for the error naming the entry
    (numbered as in the match's record: a log's undone moves left out)."""
    try:
        return fold_hand(setup, entries)
    except RulesError:
        # Raises the RecordError naming the entry.
        return check_entries(setup, record_entries(entries), where)[0]


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


def compare(
    game_name: str,
    seats: Sequence[str],
    recorded_options: Mapping[str, Any],
    other_options: Mapping[str, Any],
    recorded: Side,
    other: Side,
) -> dict[str, Any]:
    """The two sides hand by hand: the what-if answer (``what_if: true``, ``official: false``)."""
    before, after = _values(game_name, recorded_options), _values(game_name, other_options)
    rows = []
    for i, (a, b) in enumerate(zip(recorded.hands, other.hands, strict=True)):
        rows.append({"hand": i, "recorded": a, "what_if": b, "differs": b is None or a != b})
    return {
        "what_if": True,
        "official": False,
        "game": game_name,
        "seats": list(seats),
        "recorded_options": dict(recorded_options),
        "options": dict(other_options),
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


def _check_options(options: Any) -> None:
    if not isinstance(options, Mapping):
        raise RecordError(
            "whatif.options", "options is an object of option names and values", field="options"
        )


def rescore(data: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """A record compared with itself under other options: `options` are put over the recorded ones.
    Raises RecordError when the record does not stand as recorded or `options` are not the game's."""
    _check_options(options)
    game_name, recorded_options, seats, hands = _hands(data)
    other_options = {**recorded_options, **options}
    # Options that are not the game's are refused before any fold (the recorded ones first).
    _values(game_name, recorded_options)
    _values(game_name, other_options)
    recorded, finals = fold_reusing(game_name, recorded_options, seats, hands, ())
    if recorded.refused is not None:
        raise RecordError(
            recorded.refused["code"],
            recorded.refused["template"],
            field=recorded.refused["field"],
            malformed=False,
            **recorded.refused["params"],
        )
    # Each hand just folded serves the other side where only scoring changes (Final.serves).
    other, _ = fold_reusing(game_name, other_options, seats, hands, finals)
    return compare(game_name, seats, recorded_options, other_options, recorded, other)


def rescore_logged(
    game_name: str,
    recorded_options: Mapping[str, Any],
    seats: Sequence[str],
    hands: Sequence[tuple[int, Sequence[Entry]]],
    recorded: Side,
    options: Mapping[str, Any],
    finals: Sequence[Final | None] = (),
) -> tuple[dict[str, Any], list[Final | None]]:
    """A match kept by the service compared with itself under other options: its hands' log entries
    (dealer and entries, in order: every entry was accepted by the engine when it was appended) folded
    once, under the recorded options with `options` put over them, beside the `recorded` side
    (:func:`stored`: what the service stored with each hand and the match). The fields a refusal names
    are those of the match's record (``hands[i].moves[j]``), as :func:`rescore` names them. The hands'
    earlier folds in `finals` are scored again where they serve (:func:`fold_reusing`: a hand's entries
    are then not read). Returns the answer and each hand's fold, to keep. Raises RecordError for options
    that are not the game's."""
    _check_options(options)
    if len(recorded.hands) != len(hands):
        raise ValueError("the recorded side has one row for each hand")
    other_options = {**recorded_options, **options}
    _values(game_name, recorded_options)
    _values(game_name, other_options)
    logged = [(dealer, entries, f"hands[{i}].") for i, (dealer, entries) in enumerate(hands)]
    other, folds = fold_reusing(game_name, other_options, seats, logged, finals)
    return compare(game_name, seats, recorded_options, other_options, recorded, other), folds
