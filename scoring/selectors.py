"""Reads: a hand folded from its stream, its state at any step, the match sheet, the audit trail."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from scoring import store
from scoring.events import HandStarted, MoveRecorded, MoveUndone, RulingRecorded, to_payload
from scoring.handlog import Entry, HandView, MoveEntry, RulingEntry, Setup, UndoEntry, fold
from scoring.models import Hand, Match
from scoring.records import export_hand, export_match
from scoring.rules import HandResult, ImpossibleMove, game_names, get_game
from scoring.rules.core import jsonable
from scoring.rules.moves import move_from_dict, move_to_dict
from scoring.snapshot import snapshot


def _started(events: Sequence[store.RecordedEvent]) -> HandStarted:
    first = events[0].event if events else None
    if not isinstance(first, HandStarted):
        raise AssertionError("a hand stream starts with HandStarted")
    return first


def hand_setup(hand: Hand, events: Sequence[store.RecordedEvent] | None = None) -> Setup:
    started = _started(events if events is not None else store.read_stream(hand.stream_id))
    return Setup(
        started.game, dict(started.options), tuple(started.seats), started.dealer, dict(started.context)
    )


def hand_entries(hand: Hand, events: Sequence[store.RecordedEvent] | None = None) -> list[Entry]:
    """The hand's log as the fold takes it; positions are stream versions."""
    entries: list[Entry] = []
    for e in events if events is not None else store.read_stream(hand.stream_id):
        ev = e.event
        if isinstance(ev, MoveRecorded):
            entries.append(MoveEntry(e.version, move_from_dict(ev.move), e.recorded_by))
        elif isinstance(ev, MoveUndone):
            entries.append(UndoEntry(e.version, ev.of_version, ev.reason, e.recorded_by))
        elif isinstance(ev, RulingRecorded):
            entries.append(
                RulingEntry(
                    e.version, tuple(ev.refs), ev.rule, ev.reason, dict(ev.rectification), e.recorded_by
                )
            )
    return entries


def hand_view(hand: Hand) -> HandView:
    events = store.read_stream(hand.stream_id)
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


def _step(hand: Hand, view: HandView, step: int) -> dict[str, Any]:
    state = view.states[step]
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
    """The results of the match's finished hands, in order, rulings applied."""
    out = []
    for hand in hands if hands is not None else match.hands.order_by("number"):
        if hand.status == Hand.Status.OVER:
            view = hand_view(hand)
            if view.result is not None:
                out.append(view.result)
    return out


def match_sheet(
    match: Match, *, replace_hand: tuple[int, HandView] | None = None, hands: Sequence[Hand] | None = None
) -> dict[str, Any]:
    """The game's running sheet: totals, per-hand rows with the game's own columns, who won.

    ``replace_hand`` gives one hand's fold instead of reading it (the projection has it already; a ruling
    preview passes the fold with the ruling): it counts when it is finished, and not otherwise.
    """
    game = get_game(match.game)
    options = game.ruleset.validate(match.options)
    seats = list(match.seats.values_list("name", flat=True))
    hand_list = list(hands if hands is not None else match.hands.order_by("number"))
    replaced = replace_hand[0] if replace_hand is not None else None
    results: list[tuple[int, HandResult]] = []
    for hand in hand_list:
        if hand.number != replaced and hand.status == Hand.Status.OVER:
            view = hand_view(hand)
            if view.result is not None:
                results.append((hand.number, view.result))
    if replace_hand is not None and replace_hand[1].result is not None:
        results.append((replace_hand[0], replace_hand[1].result))
        results.sort(key=lambda r: r[0])
    result = game.match_result(options, len(seats), [r for _, r in results])
    return {"game": match.game, "seats": seats, "hands": [n for n, _ in results], **result.as_dict()}


def match_sheet_current(match: Match) -> dict[str, Any]:
    """The sheet the projection keeps with the match (written with every finished hand)."""
    return match.sheet or match_sheet(match)


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


def match_get(match_id: int) -> Match:
    """The match, or 404."""
    return get_object_or_404(Match.objects.select_related("club"), pk=match_id)


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
    return [
        {
            "version": e.version,
            "type": e.event.type,
            "by": e.recorded_by,
            "at": e.recorded_at.isoformat(),
            "payload": to_payload(e.event),
        }
        for e in store.read_stream(hand.stream_id)
    ]


def hand_export(hand: Hand) -> dict[str, Any]:
    events = store.read_stream(hand.stream_id)
    return export_hand(hand_setup(hand, events), hand_entries(hand, events), hand.match.direction)


def match_export(match: Match) -> dict[str, Any]:
    seats = list(match.seats.values_list("name", flat=True))
    hands = [(h.dealer, hand_entries(h)) for h in match.hands.order_by("number")]
    return export_match(match.game, match.options, seats, match.direction, hands)
