"""Reads: a hand folded from its stream, its state at any step, the match sheet, the audit trail."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Max, Q, QuerySet, TextField
from django.db.models.functions import Cast
from django.http import Http404
from django.shortcuts import get_object_or_404

from clubs.models import Membership
from common.batch import gc_paused
from common.rows import instances
from scoring.hands import foldcache, whatif
from scoring.hands.fold import (
    Entry,
    HandView,
    MoveEntry,
    RulingEntry,
    Setup,
    UndoEntry,
    extend,
    fold,
    ruled_against,
)
from scoring.hands.match import adjusted, own_results
from scoring.hands.records import export_hand, export_match
from scoring.hands.snapshot import snapshot
from scoring.log import chain, store
from scoring.log.events import (
    HandStarted,
    MatchAbandoned,
    MatchOpened,
    MoveRecorded,
    MoveUndone,
    RulingRecorded,
    decode,
    hand_stream_id,
    match_stream_id,
    to_payload,
)
from scoring.models import Hand, Match, MatchSeat
from scoring.rules import HandResult, ImpossibleMove, RulesError, Text, game_names, get_game
from scoring.rules.claim_ruling import settlement
from scoring.rules.claims import DEFAULT_BUDGET, adjudicate, question, result_value
from scoring.rules.core import Score, jsonable, score_str
from scoring.rules.moves import Claim, ClaimResponse, PlayCard, move_from_dict, move_to_dict


def _started(events: Sequence[store.RecordedEvent]) -> HandStarted:
    first = events[0].event if events else None
    if not isinstance(first, HandStarted):
        raise AssertionError("a hand stream starts with HandStarted")
    return first


def hand_setup(hand: Hand, events: Sequence[store.RecordedEvent] | None = None) -> Setup:
    return setup_of(events if events is not None else store.read_stream(hand.stream_id))


def setup_of(events: Sequence[store.RecordedEvent]) -> Setup:
    """How a hand's stream starts: the fold's setup."""
    started = _started(events)
    return Setup(
        started.game, dict(started.options), tuple(started.seats), started.dealer, dict(started.context)
    )


def hand_entries(hand: Hand, events: Sequence[store.RecordedEvent] | None = None) -> list[Entry]:
    """The hand's log as the fold takes it; positions are stream versions."""
    return entries_of(events if events is not None else store.read_stream(hand.stream_id))


def entries_of(events: Sequence[store.RecordedEvent]) -> list[Entry]:
    """A hand's stream as the fold takes it; positions are stream versions."""
    return [entry for e in events if (entry := _entry(e.version, e.event, e.recorded_by)) is not None]


def _entry(version: int, ev: Any, by: str) -> Entry | None:
    """A hand stream's event as the fold takes it (None for one the fold does not read)."""
    if isinstance(ev, MoveRecorded):
        return MoveEntry(version, move_from_dict(ev.move), by)
    if isinstance(ev, MoveUndone):
        return UndoEntry(version, ev.of_version, ev.reason, by)
    if isinstance(ev, RulingRecorded):
        return RulingEntry(version, tuple(ev.refs), ev.rule, ev.reason, dict(ev.rectification), by)
    return None


_new = object.__new__


def entries_of_rows(
    rows: Sequence[store.CompactRow], plays: dict[tuple[int, str], PlayCard] | None = None
) -> list[Entry]:
    """:func:`entries_of` for a stream read compact (:func:`~scoring.log.store.read_streams_compact`): a
    move at the current schema is made from its dict form, anything else decoded as usual. `plays` keeps
    the cards played already made, by seat and card, to be shared by the entries of several streams (a
    move is immutable, and a match plays each card of each seat many times)."""
    entries: list[Entry] = []
    if plays is None:
        plays = {}
    for row in rows:
        if len(row) != store.MOVE_ROW:
            version, event_type, schema, payload, by = row
            entry = _entry(version, decode(event_type, schema, payload), by)
            if entry is not None:
                entries.append(entry)
            continue
        version, data, by = row
        move = move_from_dict(data, plays)
        # MoveEntry(version, move, by), its fields set directly: the frozen dataclass's __init__ sets
        # them one object.__setattr__ at a time, and a match has a move per card.
        made = _new(MoveEntry)
        fields = made.__dict__
        fields["position"] = version
        fields["move"] = move
        fields["actor"] = by
        entries.append(made)
    return entries


def hand_view(hand: Hand) -> HandView:
    """The hand's fold at the version its row holds (see :mod:`scoring.hands.foldcache`)."""
    view = hand_view_at(hand)
    if not connection.in_atomic_block:  # read outside a write: committed, safe to keep
        foldcache.put(hand.stream_id, hand.version, view)
    return view


def hand_view_at(hand: Hand) -> HandView:
    """The fold at ``hand.version``: the kept one if it is at that version; a kept one behind it caught
    up with the moves after it; otherwise the stream folded from the start."""
    kept = foldcache.get(hand.stream_id)
    if kept is not None and kept[0] == hand.version:
        return kept[1]
    if kept is not None and kept[0] < hand.version:
        later = [e for e in store.read_stream_after(hand.stream_id, kept[0]) if e.version <= hand.version]
        if all(isinstance(e.event, MoveRecorded) for e in later):
            view = kept[1]
            for e in later:
                assert isinstance(e.event, MoveRecorded)
                view, _ = extend(view, MoveEntry(e.version, move_from_dict(e.event.move), e.recorded_by))
            return view
    events = [e for e in store.read_stream(hand.stream_id) if e.version <= hand.version]
    return fold(hand_setup(hand, events), hand_entries(hand, events))


def hand_state(hand: Hand, view: HandView | None = None) -> dict[str, Any]:
    """The hand now: the replay at its last step (``view``: the fold, when the caller has it already)."""
    view = view if view is not None else hand_view(hand)
    return _step(hand, view, len(view.moves))


def hand_replay(hand: Hand, step: int) -> dict[str, Any]:
    """The hand after its first ``step`` standing moves (0: before the deal), rulings applied."""
    view = hand_view(hand)
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(view.moves):
        raise ImpossibleMove("replay.step", f"step must be between 0 and {len(view.moves)}", field="step")
    return _step(hand, view, step)


def hand_claim(hand: Hand, *, position: int | None = None) -> dict[str, Any]:
    """A claim of the hand decided by search (``docs/rules/claims.md``): the claim at log ``position``, or
    the last one. The answer says at which ``step`` of the replay the claim stands (the hand just before
    it), so that its line can be stepped through from there."""
    view = hand_view(hand)
    claims = [(i, m) for i, m in enumerate(view.moves) if isinstance(m.move, Claim)]
    if position is not None:
        claims = [(i, m) for i, m in claims if m.position == position]
    if not claims:
        if position is None:
            raise ImpossibleMove("claim.none", "this hand has no claim", field="position")
        raise ImpossibleMove(
            "claim.none", f"the move at position {position} is not a claim", field="position"
        )
    step, entry = claims[-1]
    assert isinstance(entry.move, Claim)
    answer = adjudicate(view.game, view.states[step], entry.move)
    return {**answer, "position": entry.position, "step": step, "claim": move_to_dict(entry.move)}


# Answers to claims, by what decides them (the game, its setup and the moves up to the claim): a page that
# shows a disputed claim after every move does not search it again. Kept per process, the latest few.
_ANSWERS: OrderedDict[str, dict[str, Any]] = OrderedDict()
_ANSWERS_KEPT = 64
_ANSWERS_LOCK = threading.Lock()


def _answer_key(view: HandView, step: int, what: str) -> str:
    setup = view.setup
    moves = [move_to_dict(m.move) for m in view.moves[: step + 1]]
    raw = [what, setup.game, dict(setup.options), len(setup.seats), setup.dealer, dict(setup.context), moves]
    return hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()


def _kept(key: str, compute: Callable[[], dict[str, Any] | None]) -> dict[str, Any] | None:
    with _ANSWERS_LOCK:
        if key in _ANSWERS:
            _ANSWERS.move_to_end(key)
            return _ANSWERS[key]
    found = compute()
    if found is not None:
        with _ANSWERS_LOCK:
            _ANSWERS[key] = found
            while len(_ANSWERS) > _ANSWERS_KEPT:
                _ANSWERS.popitem(last=False)
    return found


def hand_disputed_claim(hand: Hand) -> dict[str, Any] | None:
    """The hand's last claim, decided by search (as :func:`hand_claim`), once it is disputed; with
    ``settlement``, what a director's ruling gives for it (``scoring.rules.claim_ruling``: the
    ``rectification`` and its ``result``, or None when that was not found), and ``open``, whether it can
    still be given (the hand not over, no card played since the claim). None when the last claim is not
    disputed, or when its cards are not known (the deal not recorded)."""
    view = hand_view(hand)
    claims = [(i, m) for i, m in enumerate(view.moves) if isinstance(m.move, Claim)]
    if not claims:
        return None
    step, entry = claims[-1]
    disputed = any(v.verdict.rule == "claim.disputed" and v.position == entry.position for v in view.verdicts)
    if not disputed:
        return None
    claim = entry.move
    assert isinstance(claim, Claim)
    state = view.states[step]

    def answer() -> dict[str, Any] | None:
        try:
            found = adjudicate(view.game, state, claim)
        except RulesError:
            return None
        return {**found, "position": entry.position, "step": step, "claim": move_to_dict(claim)}

    found = _kept(_answer_key(view, step, "answer"), answer)
    if found is None:
        return None
    # The settlement shares the answer's budget: no page waits longer than one search may take.
    budget = max(0.05, DEFAULT_BUDGET - found["elapsed_ms"] / 1000)
    settled = _kept(
        _answer_key(view, step, "settlement"),
        lambda: settlement(view.game, state, claim, found, budget=budget) or {"none": True},
    )
    later = view.moves[step + 1 :]
    return {
        **found,
        "settlement": None if settled is None or "none" in settled else settled,
        "open": not view.over and all(isinstance(m.move, ClaimResponse) for m in later),
        "settled": any(
            r.rectification.get("kind") == "settle_claim" and entry.position in r.refs for r in view.rulings
        ),
    }


def hand_claim_line(hand: Hand, played: int) -> dict[str, Any] | None:
    """The hand at its last disputed claim with the first ``played`` cards of the solver's line played
    after it (the line that beats the claim, or the careless line that loses it), in the shape of
    :func:`hand_replay`, marked as the solver's: ``line`` holds the plays with the engine's verdicts on
    each, and at the end of the line ``result`` is the hand's result as the game scores it and
    ``line_result`` the side's, in the claim's unit (the fold of the line gives what the solver said).
    None when there is no such line; ImpossibleMove for a step outside it."""
    answer = hand_disputed_claim(hand)
    if answer is None or not answer.get("line"):
        return None
    line = answer["line"]
    if isinstance(played, bool) or not isinstance(played, int) or not 0 <= played <= len(line):
        raise ImpossibleMove("replay.step", f"step must be between 0 and {len(line)}", field="line")
    view = hand_view(hand)
    step = answer["step"]
    claim = view.moves[step].move
    state = view.states[step]
    plays = []
    for n, raw in enumerate(line[:played]):
        applied = view.game.apply(state, move_from_dict(raw))
        state = applied.state
        plays.append(
            {
                "n": n + 1,
                "move": raw,
                "verdicts": [v.as_dict() for v in applied.verdicts],
            }
        )
    end = played == len(line)
    out = _step(hand, view, step)
    out.update(
        state=snapshot(view.game, state),
        line=plays,
        line_steps=len(line),
        played=played,
        claim_answer=answer,
        result=view.game.result(state).as_dict() if end and state.over else None,
        line_result=(
            result_value(view.game, view.states[step], state, question(view.game, view.states[step], claim))
            if end and state.over and isinstance(claim, Claim)
            else None
        ),
    )
    return out


def _step(hand: Hand, view: HandView, step: int) -> dict[str, Any]:
    # At the end, the hand as it stands: a ruling that settled a disputed claim played its line out.
    state = view.state if step == len(view.moves) else view.states[step]
    shown_positions = {m.position for m in view.moves[:step]}
    last_position = view.moves[step - 1].position if step else 0
    verdicts = [
        v.as_dict()
        for v in view.verdicts
        if v.position in shown_positions
        and (v.proved_at_position is None or v.proved_at_position <= last_position)
    ]
    return {
        "hand": hand.pk,
        "number": hand.number,
        "step": step,
        "steps": len(view.moves),
        "version": hand.version,
        "seats": list(view.setup.seats),
        "moves": [
            {"position": m.position, "move": move_to_dict(m.move), "by": m.actor} for m in view.moves[:step]
        ],
        "state": snapshot(view.game, state),
        "verdicts": verdicts,
        "rulings": [
            {
                "position": r.position,
                "refs": list(r.refs),
                "rule": r.rule,
                "reason": r.reason,
                "rectification": dict(r.rectification),
                "by": r.actor,
            }
            for r in view.rulings
        ],
        "result": view.result.as_dict() if view.result and step == len(view.moves) else None,
        "flagged": view.flagged,
        "legal": view.legal,
    }


def match_results(match: Match, hands: Sequence[Hand] | None = None) -> list[HandResult]:
    """The results of the match's finished hands, in order, rulings applied: as the projection stored
    them with each hand (no hand is folded again)."""
    return [result for _, result in _finished(match, hands)]


def _finished(match: Match, hands: Sequence[Hand] | None) -> list[tuple[int, HandResult]]:
    """The match's finished hands' stored results, numbered, in order (from ``hands`` when given).

    Read at every hand's start and end, so at the last hand of a long match every earlier one is read
    again: only the number and the result's text are read, and each text is turned into its result once
    per process (:func:`_stored_result`), not once per read."""
    if hands is not None:
        return [
            (h.number, result_from_dict(h.result)) for h in hands if h.status == Hand.Status.OVER and h.result
        ]
    rows = (
        Hand.objects.filter(match_id=match.pk, status=Hand.Status.OVER)
        .order_by("number")
        .values_list("number", Cast("result", output_field=TextField()))
    )
    return [(number, found) for number, text in rows if text and (found := _stored_result(text)) is not None]


@functools.lru_cache(maxsize=512)
def _stored_result(text: str) -> HandResult | None:
    """A hand's result from its stored JSON text (None for an empty one). Kept by the text itself, so a
    result that a ruling changed is a new text, read anew. The result is shared by every read of that
    text: nothing may change it (it is frozen; its details are read, never written)."""
    data = json.loads(text)
    return result_from_dict(data) if data else None


def result_from_dict(data: Mapping[str, Any]) -> HandResult:
    """A hand's result from its stored form (``HandResult.as_dict``): scores back to exact numbers. One
    stored before results had an ``outcome_text`` has none."""
    text = data.get("outcome_text")
    return HandResult(
        outcome=data["outcome"],
        scores=tuple(_number(s) for s in data["scores"]),
        unit=data.get("unit", "points"),
        teams=tuple(tuple(t) for t in data.get("teams", [])),
        team_scores=tuple(_number(s) for s in data.get("team_scores", [])),
        details=data.get("details", {}),
        outcome_text=Text.from_dict(text) if text else None,
        adjustments=tuple(_number(s) for s in data.get("adjustments", [])),
    )


def _number(value: int | str) -> Score:
    return value if isinstance(value, int) else Fraction(value)


def match_sheet(
    match: Match, *, replace_hand: tuple[int, HandView] | None = None, hands: Sequence[Hand] | None = None
) -> dict[str, Any]:
    """The game's running sheet: totals, per-hand rows with the game's own columns, who won.

    The finished hands' results are the ones the projection stored with each hand, so the sheet costs
    the same at the last hand as at the first. ``replace_hand`` gives one hand's fold instead (the
    projection has it already; a ruling preview passes the fold with the ruling): it counts when it is
    finished, and not otherwise.
    """
    game = get_game(match.game)
    options = game.ruleset.validate(match.options)
    seats = list(match.seats.values_list("name", flat=True))
    replaced = replace_hand[0] if replace_hand is not None else None
    results = [(number, result) for number, result in _finished(match, hands) if number != replaced]
    if replace_hand is not None and replace_hand[1].result is not None:
        results.append((replace_hand[0], replace_hand[1].result))
        results.sort(key=lambda r: r[0])
    return sheet_of(match.game, options, seats, results)


def sheet_of(
    game: str, options: Mapping[str, Any], seats: Sequence[str], results: Sequence[tuple[int, HandResult]]
) -> dict[str, Any]:
    """The sheet of a match from its finished hands' results (numbered, in order)."""
    result = adjusted(get_game(game), options, len(seats), [r for _, r in results])
    return {"game": game, "seats": list(seats), "hands": [n for n, _ in results], **result.as_dict()}


def sheet_written(match: Match) -> bool:
    """Whether the match's running sheet was ever written: from the sheet when it is loaded (or was set
    in this request), else from ``sheet_written`` when the match was read without it (``MATCH_DEFER``),
    else by reading it."""
    if "sheet" not in match.__dict__ and "sheet_written" in match.__dict__:
        return bool(match.__dict__["sheet_written"])
    return bool(match.sheet)


def match_sheet_current(match: Match) -> dict[str, Any]:
    """The sheet the projection keeps with the match (written with every finished hand)."""
    return match.sheet or match_sheet(match)


@dataclass(frozen=True)
class HandHash:
    number: int
    version: int
    hash: bytes | None

    @property
    def short(self) -> str:
        return chain.short(self.hash)


@dataclass(frozen=True)
class MatchHashes:
    """What a printed sheet shows to be checked later against the log (``manage.py verify_log
    --match``): each hand's version and stream hash, and the match's hash over them."""

    hands: tuple[HandHash, ...]
    match: bytes

    @property
    def short(self) -> str:
        return chain.short(self.match)


def match_hashes(match: Match, hands: Sequence[Hand] | None = None) -> MatchHashes:
    hands = list(match.hands.order_by("number")) if hands is None else list(hands)
    found = store.stream_hashes([(h.stream_id, h.version) for h in hands if h.version])
    rows = tuple(
        HandHash(h.number, h.version, found.get((h.stream_id, h.version))) for h in hands if h.version
    )
    return MatchHashes(rows, chain.match_hash((r.number, r.version, r.hash or b"") for r in rows))


@dataclass(frozen=True)
class LogHash:
    """The running hash of the whole event log at one global position (``docs/event-store.md``): what a
    printed page built from the log up to that position shows, to be checked against the log later."""

    position: int
    hash: bytes | None

    @property
    def short(self) -> str:
        return chain.short(self.hash)


def log_hash(position: int) -> LogHash | None:
    """The log hash at ``position``; None for position 0 (nothing included yet)."""
    if position <= 0:
        return None
    return LogHash(position, store.log_hash_at(position))


def match_list(*, user: Any, club_id: int | None = None) -> QuerySet[Match]:
    """The matches ``user`` may read (see :mod:`scoring.permissions`), newest first."""
    matches = Match.objects.select_related("club").prefetch_related("seats", "hands", "scorers")
    if club_id is not None:
        matches = matches.filter(club_id=club_id)
    if user is not None and user.is_authenticated and user.is_superuser:
        return matches
    readable = Q(published=True)
    if user is not None and user.is_authenticated:
        readable |= Q(club__memberships__user=user)
    return matches.filter(readable).distinct()


# The match's fields its reads on every request leave out (deferred: read on first use): the running
# sheet, a JSON that grows with every finished hand (tens of kB in a long match), which no move reads.
# They read whether it was ever written instead (``sheet_written``, see :func:`sheet_written`).
MATCH_DEFER = ("sheet",)


@functools.lru_cache(maxsize=8)
def match_with_viewer_sql(viewer: str = "%s") -> str:
    """The statement :func:`match_get` reads a match with: the match's row but its sheet (``MATCH_DEFER``),
    with ``sheet_written``, and ``viewer_role`` and ``viewer_assigned`` for the user whose id is the SQL
    expression ``viewer`` (``%s`` by default); its parameters are those of ``viewer`` twice, then the
    match's id. Written once per ``viewer`` (every API call on a match asks for it)."""
    columns = ", ".join(f"m.{f.column}" for f in Match._meta.concrete_fields if f.name not in MATCH_DEFER)
    return (
        f"SELECT {columns}, (m.sheet IS NOT NULL AND m.sheet <> '{{}}') AS sheet_written,"
        f" (SELECT role FROM {Membership._meta.db_table} ms"
        f" WHERE ms.club_id = m.club_id AND ms.user_id = {viewer}) AS viewer_role,"
        f" EXISTS (SELECT 1 FROM {Match.scorers.through._meta.db_table} s"
        f" WHERE s.match_id = m.id AND s.user_id = {viewer}) AS viewer_assigned"
        f" FROM {Match._meta.db_table} m WHERE m.id = %s"
    )


def match_get(match_id: int, user: Any = None) -> Match:
    """The match, or 404; with ``user``, his role in its club and whether he scores it come in the same
    query (what the permissions ask). The club is not joined: the API needs its id only.

    Every API call on a match reads it this way, so it is one statement written out (the ORM's version
    of these subqueries costs more to compile than to run), prepared on the connection
    (``common.rows.execute_message``: the server's parse and plan once per connection).
    """
    if user is None or not user.is_authenticated:
        return get_object_or_404(Match, pk=match_id)
    found = instances(
        Match, match_with_viewer_sql(), [user.pk, user.pk, match_id], prepare=True, defer=MATCH_DEFER
    )
    if not found:
        raise Http404("no such match")
    return found[0]


def hand_get(match: Match, number: int) -> Hand:
    """The match's hand with that number, or 404."""
    return get_object_or_404(Hand.objects.select_related("match"), match=match, number=number)


def hand_list(match: Match) -> QuerySet[Hand]:
    return match.hands.order_by("number")


def game_list() -> list[dict[str, Any]]:
    """Every registered game: its name, title, table sizes, unit and options with their defaults."""
    out = []
    for name in game_names():
        game = get_game(name)
        out.append(
            {
                "name": name,
                "title": game.title,
                "seat_counts": list(game.seat_counts),
                "score_unit": game.score_unit,
                "options": jsonable(game.ruleset.describe()),
            }
        )
    return out


def hand_audit(hand: Hand) -> list[dict[str, Any]]:
    """Every event of the hand: what, who, when. Nothing is ever removed from this list."""
    return stream_audit(hand.stream_id)


def stream_audit(stream_id: str) -> list[dict[str, Any]]:
    """Every event of a stream (a hand's, a tournament's): what, who, when, in version order."""
    return [
        {
            "version": e.version,
            "type": e.event.type,
            "by": e.recorded_by,
            "at": e.recorded_at.isoformat(),
            "payload": to_payload(e.event),
        }
        for e in store.read_stream(stream_id)
    ]


def hand_export(hand: Hand) -> dict[str, Any]:
    events = store.read_stream(hand.stream_id)
    return export_hand(hand_setup(hand, events), hand_entries(hand, events), hand.match.direction)


def match_export(match: Match) -> dict[str, Any]:
    seats = list(match.seats.values_list("name", flat=True))
    hands = [(h.dealer, hand_entries(h)) for h in match.hands.order_by("number")]
    return export_match(match.game, match.options, seats, match.direction, hands)


@gc_paused()
def match_rescore(match: Match, options: Mapping[str, Any]) -> dict[str, Any]:
    """The match's hands scored again under other options of its game (put over the recorded ones),
    compared hand by hand with the sheet: a what-if, never written (:mod:`scoring.hands.whatif`).

    The recorded side is what the service stored with each hand (its result); the what-if side folds
    the hands' log entries under the other options: one fold, and no entry parsed or checked again
    beyond what the engine does with it (each was accepted when it was appended). A hand folded before
    (by a what-if, or kept by the recording: :mod:`scoring.hands.foldcache`) at the version its row
    holds is only scored again when the options differ from those it was folded with in score-only ones
    (:func:`whatif.fold_reusing`); the streams of the others are read in one query, when first needed.
    """
    hands = list(
        match.hands.order_by("number").values_list(
            "stream_id",
            "dealer",
            "version",
            "status",
            "result__outcome",
            "result__outcome_text",
            "result__scores",
            "final__blob",
        )
    )
    seats = list(match.seats.values_list("name", flat=True))
    key = hand_final_key()
    finals = [_kept_final(h[0], h[2], h[-1], key) for h in hands]
    streams = _LazyStreams([h[0] for h in hands])
    # The stored results' parts the answer shows (not their details, which can be long), as
    # whatif.hand_row shows a folded hand's.
    rows = []
    for _, _, _, status, outcome, text, scores, _ in hands:
        over = status == Hand.Status.OVER and scores is not None
        rows.append(
            {
                "finished": over,
                "result": outcome if over else None,
                "result_text": text if over else None,
                "scores": scores if over else None,
            }
        )
    report, folds = whatif.rescore_logged(
        match.game,
        match.options,
        seats,
        [(dealer, streams.entries(i)) for i, (_, dealer, *_) in enumerate(hands)],
        whatif.stored(rows, match_sheet_current(match)),
        options,
        finals,
    )
    if not connection.in_atomic_block:  # read outside a write: the versions are committed
        for (stream_id, _, version, *_), final in zip(hands, folds, strict=True):
            if final is not None:
                whatif.keep(stream_id, version, final)
    return report


def _kept_final(
    stream_id: str, version: int, sealed: bytes | memoryview | None, key: bytes | None
) -> whatif.Final | None:
    """A hand's fold at `version` kept by a what-if, or else by the recording (the match's own options)
    in this process, or else with the hand (`sealed`, :class:`~scoring.models.HandFinal`)."""
    final = whatif.kept(stream_id, version)
    if final is None:
        found = foldcache.get(stream_id)
        if found is not None and found[0] == version:
            final = whatif.Final.of(found[1])
        elif key is not None:
            final = whatif.unseal(sealed, version, key)
    return final


def hand_final_key() -> bytes | None:
    """The key a finished hand's kept fold is sealed under (:func:`whatif.seal`): derived from the
    service's SECRET_KEY, for this use only. None in a command run by hand without the service's key (it
    took a local one, ``settings.SECRET_KEY_IS_LOCAL``): a fold sealed under that key could never be
    opened by the service, so none is written, and none is read."""
    if getattr(settings, "SECRET_KEY_IS_LOCAL", False):
        return None
    return hashlib.sha256(b"segnapunti.hand-final:" + settings.SECRET_KEY.encode()).digest()


class _LazyStreams:
    """The entries of a match's hands, read from the log when a fold first needs them: the streams from
    that hand on not read yet, in one query (a what-if that only scores kept folds again reads none)."""

    def __init__(self, stream_ids: Sequence[str]) -> None:
        self.stream_ids = list(stream_ids)
        self.read: dict[int, list[Entry]] = {}
        self.plays: dict[tuple[int, str], PlayCard] = {}

    def entries(self, i: int) -> Sequence[Entry]:
        return _Entries(self, i)

    def of(self, i: int) -> list[Entry]:
        if i not in self.read:
            wanted = [j for j in range(i, len(self.stream_ids)) if j not in self.read]
            rows = store.read_streams_compact([self.stream_ids[j] for j in wanted])
            for j in wanted:
                self.read[j] = entries_of_rows(rows[self.stream_ids[j]], self.plays)
        return self.read[i]


class _Entries(Sequence[Entry]):
    """One hand's entries, read on first use (:class:`_LazyStreams`)."""

    def __init__(self, streams: _LazyStreams, i: int) -> None:
        self.streams, self.i = streams, i

    def __len__(self) -> int:
        return len(self.streams.of(self.i))

    def __getitem__(self, index: Any) -> Any:
        return self.streams.of(self.i)[index]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.streams.of(self.i))


# ---- finished matches, for what is built on them (tournament standings, ratings) ----------------------
@dataclass(frozen=True)
class MatchOutcome:
    """A match as standings and ratings read it: plain values, the same whether they come from the read
    models (:func:`match_outcome`) or from folding the event log (:func:`match_outcomes_from_log`).

    ``totals``, ``winners`` and ``sides`` are the sheet's (seat indices; Tressette's pairs are sides);
    ``hand_results`` are the finished hands' outcomes, teams and team scores, in order; ``position`` and
    ``recorded_at`` are those of the match's latest event, so that a projection can tell an update it has
    seen from a new one.
    """

    match: int
    game: str
    finished: bool
    players: tuple[int | None, ...]
    names: tuple[str, ...]
    totals: tuple[int | str, ...]
    winners: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    ruled_against: tuple[int, ...]
    hand_results: tuple[dict[str, Any], ...]
    position: int
    recorded_at: datetime | None
    refused: bool = False  # a what-if only: a move cannot stand under the other options


def match_outcome(match: Match) -> MatchOutcome:
    """The match from its read models (the sheet and the hand rows the projection keeps)."""
    seats = list(match.seats.order_by("seat"))
    hands = list(match.hands.order_by("number"))
    counted = [
        _teams(h.result["outcome"], h.result["teams"], h.result["team_scores"])
        for h in hands
        if h.status == Hand.Status.OVER and h.result is not None
    ]
    counts = [[int(n) for n in h.ruled_against] for h in hands if h.ruled_against]
    latest = max(hands, key=lambda h: h.position, default=None)
    return _outcome(
        match,
        seats=[(s.player_id, s.name) for s in seats],
        sheet=match_sheet_current(match),
        hand_results=counted,
        ruled=counts,
        position=latest.position if latest else 0,
        recorded_at=latest.updated_at if latest else None,
    )


class MissingFromLog(LookupError):
    """A match row whose stream holds no MatchOpened: the log cannot say what the match is."""


@dataclass(frozen=True)
class MatchLog:
    """A match as its log tells it: the MatchOpened event and each hand's stream, in hand order."""

    match: int
    opened: MatchOpened
    hands: tuple[tuple[store.RecordedEvent, ...], ...]
    abandoned: str | None = None  # the director's reason, once the match stream says it was abandoned

    @property
    def seats(self) -> list[tuple[int | None, str]]:
        return [(s["player"], s["name"]) for s in self.opened.seats]


def match_logs(match_ids: Sequence[int]) -> dict[int, MatchLog]:
    """The matches read from the event log alone: no match, seat or hand row is consulted. A match's
    hands are the streams ``match-<id>-hand-1``, ``-2``, ... up to the first that holds nothing (a hand
    starts only after the one before it): read a batch of numbers at a time, in a few queries."""
    ids = list(dict.fromkeys(match_ids))
    opened_events = store.read_streams([match_stream_id(pk) for pk in ids])
    opened: dict[int, MatchOpened] = {}
    for pk in ids:
        stream = opened_events[match_stream_id(pk)]
        first = stream[0].event if stream else None
        if not isinstance(first, MatchOpened):
            raise MissingFromLog(f"match {pk} has no MatchOpened event in the log")
        opened[pk] = first
    hands: dict[int, list[tuple[store.RecordedEvent, ...]]] = {pk: [] for pk in ids}
    # How many hand numbers to ask for at once: what the rows say, plus one to find the end.
    guess = dict(
        Hand.objects.filter(match_id__in=ids)
        .values("match_id")
        .annotate(n=Max("number"))
        .values_list("match_id", "n")
    )
    open_ids = set(ids)
    while open_ids:
        wanted = {
            pk: [
                hand_stream_id(pk, n)
                for n in range(len(hands[pk]) + 1, max(guess.get(pk, 0), len(hands[pk])) + 2)
            ]
            for pk in open_ids
        }
        found = store.read_streams([s for names in wanted.values() for s in names])
        for pk, names in wanted.items():
            for name in names:
                if not found[name]:
                    open_ids.discard(pk)
                    break
                hands[pk].append(tuple(found[name]))
            guess[pk] = len(hands[pk]) * 2
    abandoned = {
        pk: next(
            (
                e.event.reason
                for e in opened_events[match_stream_id(pk)]
                if isinstance(e.event, MatchAbandoned)
            ),
            None,
        )
        for pk in ids
    }
    return {pk: MatchLog(pk, opened[pk], tuple(hands[pk]), abandoned[pk]) for pk in ids}


def match_outcomes_from_log(
    matches: Sequence[Match], other_options: Mapping[str, Mapping[str, Any]] | None = None
) -> list[MatchOutcome]:
    """The matches rebuilt from the event log alone: the game, options and seats from each match's
    MatchOpened, every hand folded again, the sheet computed again (only the rows' ids are used).

    With ``other_options`` (game name -> the options to put over a match's own), a what-if: the hands
    of that game's matches are folded under those options, each with the match context they give; a
    match one of whose moves cannot stand under them is ``refused`` and counts as unfinished. Nothing is
    written either way.
    """
    logs = match_logs([m.pk for m in matches])
    out = []
    for match in matches:
        mlog = logs[match.pk]
        game = get_game(mlog.opened.game)
        seats = mlog.seats
        over = (other_options or {}).get(mlog.opened.game)
        options = game.ruleset.validate({**mlog.opened.options, **over} if over else mlog.opened.options)
        results: list[HandResult] = []
        counts: list[list[int]] = []
        last: store.RecordedEvent | None = None
        refused = False
        for stream in mlog.hands:
            setup = setup_of(stream)
            if over:
                context = game.match_context(options, len(setup.seats), own_results(results))
                setup = dataclasses.replace(setup, options=options, context=context)
            try:
                view = fold(setup, entries_of(stream))
            except RulesError:
                if not over:
                    raise
                refused = True
                break
            if view.over and view.result is not None:
                results.append(view.result)
            counts.append(ruled_against(view))
            if stream and (last is None or stream[-1].position > last.position):
                last = stream[-1]
        result = adjusted(game, options, len(seats), results)
        # The parts of the sheet an outcome reads (its rows are not needed: they cost more than the rest).
        sheet = {
            "totals": [score_str(t) for t in result.totals],
            "finished": result.finished,
            "winners": list(result.winners),
            "details": {"sides": jsonable(result.details["sides"])} if "sides" in result.details else {},
        }
        out.append(
            _outcome(
                match,
                seats=seats,
                game=mlog.opened.game,
                sheet=sheet,
                hand_results=[_teams(r.outcome, r.teams, r.team_scores) for r in results],
                ruled=[c for c in counts if c],
                position=last.position if last else 0,
                recorded_at=last.recorded_at if last else None,
                refused=refused,
            )
        )
    return out


def _teams(outcome: str, teams: Sequence[Sequence[int]], team_scores: Sequence[Any]) -> dict[str, Any]:
    """What an outcome keeps of a finished hand's result: who played together and how each side scored."""
    return {
        "outcome": outcome,
        "teams": [list(t) for t in teams],
        "team_scores": [score_str(s) if isinstance(s, int | Fraction) else s for s in team_scores],
    }


def _outcome(
    match: Match,
    *,
    seats: Sequence[tuple[int | None, str]],
    sheet: dict[str, Any],
    hand_results: Sequence[dict[str, Any]],
    ruled: Sequence[Sequence[int]],
    position: int,
    recorded_at: datetime | None,
    game: str | None = None,
    refused: bool = False,
) -> MatchOutcome:
    n = len(seats)
    sides = (sheet.get("details") or {}).get("sides") or [[s] for s in range(n)]
    return MatchOutcome(
        match=match.pk,
        game=game or match.game,
        finished=bool(sheet.get("finished")) and not refused,
        players=tuple(p for p, _ in seats),
        names=tuple(name for _, name in seats),
        totals=tuple(sheet.get("totals") or [0] * n),
        winners=tuple(sheet.get("winners") or ()),
        sides=tuple(tuple(int(s) for s in side) for side in sides),
        ruled_against=tuple(sum(c[s] for c in ruled) for s in range(n)),
        hand_results=tuple(hand_results),
        position=position,
        recorded_at=recorded_at,
        refused=refused,
    )


# ---- the read models against the log ------------------------------------------------------------------
@dataclass(frozen=True)
class Difference:
    """A stored row that is not what the event log says: its table, its key (the columns that name it),
    the column, the stored value and the value from the log (None where the row should not exist or is
    missing)."""

    table: str
    key: str
    column: str
    stored: Any
    logged: Any


def plain(value: Any) -> Any:
    """A value as JSON holds it (tuples become lists, numbers stay numbers), so that a stored JSON column
    and a value computed from the log compare equal when they say the same."""
    return json.loads(json.dumps(value, default=str))


def compare(
    out: list[Difference],
    table: str,
    key: str,
    stored: Mapping[str, Any] | None,
    logged: Mapping[str, Any] | None,
) -> None:
    if stored is None or logged is None:
        out.append(Difference(table, key, "(row)", plain(stored), plain(logged)))
        return
    for column, value in logged.items():
        if plain(stored[column]) != plain(value):
            out.append(Difference(table, key, column, plain(stored[column]), plain(value)))


def compare_rows(
    out: list[Difference],
    table: str,
    where: Callable[[Any], str],
    stored: Mapping[Any, Mapping[str, Any]],
    logged: Mapping[Any, Mapping[str, Any]],
) -> None:
    """:func:`compare` for every key either side holds (in key order): a row on one side only is one
    difference; ``where`` names a key's row."""
    for key in sorted(set(stored) | set(logged)):
        compare(out, table, where(key), stored.get(key), logged.get(key))


def _counts(counts: Sequence[int]) -> list[int]:
    """Ruled-against counts with none as [] (a hand row not written since its start holds [])."""
    return list(counts) if any(counts) else []


def match_differences(match_ids: Sequence[int]) -> list[Difference]:
    """What the match, seat and hand rows of these matches hold that the log does not say: each match's
    MatchOpened against its match and seat rows, each hand's fold against its hand row, the sheet the
    log's hands make against the match's sheet and status."""
    logs = match_logs(match_ids)
    matches = Match.objects.in_bulk(list(logs))
    seat_rows: dict[int, dict[int, dict[str, Any]]] = {pk: {} for pk in logs}
    for seat_row in MatchSeat.objects.filter(match_id__in=list(logs)).values(
        "match_id", "seat", "name", "player_id"
    ):
        seat_rows[seat_row["match_id"]][seat_row["seat"]] = dict(seat_row)
    hand_rows: dict[int, dict[int, dict[str, Any]]] = {pk: {} for pk in logs}
    for hand_row in Hand.objects.filter(match_id__in=list(logs)).values():
        hand_rows[hand_row["match_id"]][hand_row["number"]] = dict(hand_row)
    out: list[Difference] = []
    for pk, mlog in logs.items():
        match, opened = matches[pk], mlog.opened
        results: list[tuple[int, HandResult]] = []
        logged_hands: dict[int, dict[str, Any]] = {}
        for number, stream in enumerate(mlog.hands, start=1):
            view = fold(setup_of(stream), entries_of(stream))
            if view.over and view.result is not None:
                results.append((number, view.result))
            logged_hands[number] = {
                "stream_id": hand_stream_id(pk, number),
                "dealer": _started(stream).dealer,
                "version": stream[-1].version,
                "status": Hand.Status.OVER if view.over else Hand.Status.IN_PLAY,
                "flagged": view.flagged,
                "result": view.result.as_dict() if view.result else None,
                "ruled_against": _counts(ruled_against(view)),
                "position": stream[-1].position,
            }
        game = get_game(opened.game)
        sheet = sheet_of(
            opened.game, game.ruleset.validate(opened.options), [s["name"] for s in opened.seats], results
        )
        stored_match = {
            "club_id": match.club_id,
            "game": match.game,
            "options": match.options,
            "direction": match.direction,
            "status": match.status,
            "abandon_reason": match.abandon_reason,
            "sheet": match.sheet,
        }
        logged_match = {
            "club_id": opened.club,
            "game": opened.game,
            "options": opened.options,
            "direction": opened.direction,
            "status": Match.Status.ABANDONED
            if mlog.abandoned is not None
            else Match.Status.FINISHED
            if sheet["finished"]
            else Match.Status.OPEN,
            "abandon_reason": mlog.abandoned or "",
            "sheet": sheet,
        }
        compare(out, Match._meta.db_table, f"id={pk}", stored_match, logged_match)
        logged_seats = {i: {"name": s["name"], "player_id": s["player"]} for i, s in enumerate(opened.seats)}
        for seat in sorted(set(logged_seats) | set(seat_rows[pk])):
            compare(
                out,
                MatchSeat._meta.db_table,
                f"match_id={pk} seat={seat}",
                seat_rows[pk].get(seat),
                logged_seats.get(seat),
            )
        for number in sorted(set(logged_hands) | set(hand_rows[pk])):
            if number in hand_rows[pk]:
                stored_hand = hand_rows[pk][number]
                stored_hand["ruled_against"] = _counts(stored_hand["ruled_against"])
            compare(
                out,
                Hand._meta.db_table,
                f"match_id={pk} number={number}",
                hand_rows[pk].get(number),
                logged_hands.get(number),
            )
    return out
