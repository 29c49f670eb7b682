"""Writes: creating matches and hands, recording moves, undoing, ruling. Views and tasks call these.

Each write folds the hand's log through the rule engine *before* anything is appended: a keying error
raises (``MalformedMove`` → 400, ``ImpossibleMove`` → 422) and nothing is written; a rule irregularity
is appended with the engine's verdict and flags the hand. The hand's read model (``Hand``) and the match
sheet are written in the same transaction as the events, so a reader never sees one without the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from scoring import store
from scoring.events import HandStarted, MoveRecorded, MoveUndone, RulingRecorded
from scoring.handlog import HandView, MoveEntry, RulingEntry, check_ruling, fold
from scoring.models import Hand, Match, MatchSeat
from scoring.records import (
    HAND_FORMAT,
    MATCH_FORMAT,
    RecordError,
    check_header,
    load_hand,
    parse_common,
    parse_hand_body,
)
from scoring.rules import HandResult, ImpossibleMove, MalformedMove, get_game
from scoring.rules.core import Verdict
from scoring.rules.moves import move_from_dict, move_to_dict
from scoring.selectors import hand_entries, hand_setup, hand_view, match_results, match_sheet
from tournaments.models import Club, Player

User = AbstractBaseUser | AnonymousUser


def actor_name(user: User | None) -> str:
    if user is None or not user.is_authenticated:
        return ""
    return str(user.get_username())


@dataclass(frozen=True)
class MoveOutcome:
    hand: Hand
    version: int
    verdicts: tuple[Verdict, ...]
    replayed: bool  # an idempotent retry: nothing was appended


def match_create(
    *,
    club: Club,
    game: str,
    seats: Sequence[str | Player],
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
    direction: str = Match.Direction.ANTICLOCKWISE,
    title: str = "",
    published: bool = False,
    actor: User | None = None,
) -> Match:
    """Create a match and start its first hand. Options are validated against the game's ruleset."""
    rules = get_game(game)
    values = rules.ruleset.validate(options)
    chosen = {k: v for k, v in values.items() if options and k in options}
    rules.initial_state(values, seats=len(seats), dealer=dealer)  # checks seat count and dealer
    if direction not in Match.Direction.values:
        raise MalformedMove(
            "match.direction", f"direction must be one of {Match.Direction.values}", field="direction"
        )
    with transaction.atomic():
        match = Match.objects.create(
            club=club,
            game=game,
            options=chosen,
            direction=direction,
            title=title,
            published=published,
            created_by=user_or_none(actor),
        )
        for i, seat in enumerate(seats):
            if isinstance(seat, Player):
                if seat.club_id != club.pk:
                    raise ImpossibleMove("match.player", f"{seat} is not a member of {club}", field="seats")
                MatchSeat.objects.create(match=match, seat=i, name=seat.name, player=seat)
            else:
                if not isinstance(seat, str) or not seat.strip():
                    raise MalformedMove("match.seats", "each seat needs a name", field="seats")
                MatchSeat.objects.create(match=match, seat=i, name=seat.strip())
        hand_start(match=match, dealer=dealer, actor=actor)
    return match


def user_or_none(user: User | None) -> Any:
    return user if user is not None and user.is_authenticated else None


def hand_start(*, match: Match, dealer: int | None = None, actor: User | None = None) -> Hand:
    """Start the next hand of a match; the dealer defaults to the game's next dealer."""
    game = get_game(match.game)
    seats = tuple(match.seats.values_list("name", flat=True))
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        last = match.hands.order_by("-number").first()
        if last is not None and last.status != Hand.Status.OVER:
            raise ImpossibleMove("hand.in_play", f"hand {last.number} is not finished yet", field="match")
        if match.status == Match.Status.FINISHED:
            raise ImpossibleMove("match.finished", "the match is over", field="match")
        results = match_results(match)
        if dealer is None:
            dealer = (
                0
                if last is None
                else game.next_dealer(
                    game.ruleset.validate(match.options), len(seats), last.dealer, _result_or_none(last)
                )
            )
        context = game.match_context(game.ruleset.validate(match.options), len(seats), results)
        game.initial_state(match.options, seats=len(seats), dealer=dealer, context=context)
        number = 1 if last is None else last.number + 1
        hand = Hand.objects.create(
            match=match, number=number, stream_id=f"match-{match.pk}-hand-{number}", dealer=dealer
        )
        appended = store.append(
            hand.stream_id,
            [HandStarted(game=match.game, options=dict(match.options), seats=seats, dealer=dealer)],
            expected_version=0,
            actor=actor_name(actor),
        )
        hand.version = appended.to_version
        hand.save(update_fields=["version"])
    return hand


def _result_or_none(hand: Hand) -> HandResult | None:
    view = hand_view(hand)
    return view.result


def move_record(
    *,
    hand: Hand,
    move: Mapping[str, Any],
    expected_version: int,
    idempotency_key: str | None = None,
    actor: User | None = None,
) -> MoveOutcome:
    """Record one move: refused with nothing written if it cannot stand, recorded with its verdicts if it
    is a rule irregularity (refused too when the match is strict)."""
    parsed = move_from_dict(move)
    if idempotency_key:
        done = store.result_for_key(hand.stream_id, idempotency_key)
        if done is not None:
            return MoveOutcome(Hand.objects.get(pk=hand.pk), done.to_version, (), replayed=True)
    view = hand_view(hand)
    step = view.game.apply(view.state, parsed)
    event = MoveRecorded(move=move_to_dict(parsed), verdicts=tuple(v.as_dict() for v in step.verdicts))
    with transaction.atomic():
        appended = store.append(
            hand.stream_id,
            [event],
            expected_version=expected_version,
            idempotency_key=idempotency_key,
            actor=actor_name(actor),
        )
        hand = _project(hand)
    return MoveOutcome(hand, appended.to_version, step.verdicts, replayed=False)


def move_undo(*, hand: Hand, expected_version: int, actor: User | None, reason: str = "") -> Hand:
    """Take back the last move, by the scorer who recorded it, while no later event exists."""
    events = store.read_stream(hand.stream_id)
    last = events[-1]
    if not isinstance(last.event, MoveRecorded):
        raise ImpossibleMove("undo.nothing", "the last entry of this hand is not a move", field="type")
    if last.recorded_by != actor_name(actor):
        raise ImpossibleMove(
            "undo.not_yours", "only the scorer who recorded a move can undo it", field="type"
        )
    with transaction.atomic():
        store.append(
            hand.stream_id,
            [MoveUndone(of_version=last.version, reason=reason)],
            expected_version=expected_version,
            actor=actor_name(actor),
        )
        return _project(hand)


def _ruling_view(
    hand: Hand,
    refs: Sequence[int],
    rule: str,
    reason: str,
    rectification: Mapping[str, Any],
    actor: User | None,
) -> tuple[HandView, HandView]:
    if not isinstance(rule, str) or not rule.strip():
        raise MalformedMove("ruling.malformed", "a ruling names the rule it applies", field="rule")
    if not isinstance(reason, str) or not reason.strip():
        raise MalformedMove("ruling.malformed", "a ruling gives its reason", field="reason")
    if not isinstance(refs, list | tuple) or not all(
        isinstance(r, int) and not isinstance(r, bool) for r in refs
    ):
        raise MalformedMove(
            "ruling.malformed", "refs lists the stream versions of the moves concerned", field="refs"
        )
    setup, entries = hand_setup(hand), hand_entries(hand)
    before = fold(setup, entries)
    check_ruling(before, refs, rectification)
    proposed = RulingEntry(
        position=hand.version + 1,
        refs=tuple(refs),
        rule=rule,
        reason=reason,
        rectification=dict(rectification),
        actor=actor_name(actor),
    )
    after = fold(setup, [*entries, proposed])
    return before, after


def ruling_preview(
    *,
    hand: Hand,
    refs: Sequence[int],
    rule: str,
    reason: str,
    rectification: Mapping[str, Any],
    actor: User | None = None,
) -> dict[str, Any]:
    """The hand score and the match sheet before and after a ruling; nothing is written."""
    before, after = _ruling_view(hand, refs, rule, reason, rectification, actor)
    match = hand.match
    others = [h for h in match.hands.order_by("number") if h.pk != hand.pk]
    return {
        "before": {"hand": before.result.as_dict() if before.result else None, "sheet": match_sheet(match)},
        "after": {
            "hand": after.result.as_dict() if after.result else None,
            "sheet": match_sheet(match, replace_hand=(hand.number, after), hands=others),
        },
        "flagged_after": after.flagged,
    }


def ruling_record(
    *,
    hand: Hand,
    refs: Sequence[int],
    rule: str,
    reason: str,
    rectification: Mapping[str, Any],
    expected_version: int,
    actor: User | None,
) -> Hand:
    """Append a director's ruling; the projection applies it, the original moves stay in the log."""
    _ruling_view(hand, refs, rule, reason, rectification, actor)
    with transaction.atomic():
        store.append(
            hand.stream_id,
            [RulingRecorded(refs=tuple(refs), rule=rule, reason=reason, rectification=dict(rectification))],
            expected_version=expected_version,
            actor=actor_name(actor),
        )
        return _project(hand)


def _project(hand: Hand) -> Hand:
    """Bring the hand's read model and its match's sheet up to date (inside the append's transaction)."""
    hand = Hand.objects.select_for_update().get(pk=hand.pk)
    view = hand_view(hand)
    hand.version = store.stream_version(hand.stream_id)
    hand.status = Hand.Status.OVER if view.over else Hand.Status.IN_PLAY
    hand.flagged = view.flagged
    hand.result = view.result.as_dict() if view.result else None
    hand.updated_at = timezone.now()
    hand.save(update_fields=["version", "status", "flagged", "result", "updated_at"])
    match = hand.match
    sheet = match_sheet(match)
    match.sheet = sheet
    match.status = Match.Status.FINISHED if sheet["finished"] else Match.Status.OPEN
    match.save(update_fields=["sheet", "status"])
    return hand


def match_import(
    *,
    club: Club,
    record: Mapping[str, Any],
    actor: User | None = None,
    title: str = "",
    published: bool = False,
) -> Match:
    """Create a match from a hand or match record: every move goes through ``move_record``."""
    fmt = record.get("format") if isinstance(record, Mapping) else None
    if fmt == HAND_FORMAT:
        setup, _, direction = load_hand(record)
        hands = [record]
        game, options, seats = setup.game, dict(setup.options), setup.seats
    else:
        check_header(record, MATCH_FORMAT)
        game, options, seats, direction = parse_common(record)
        hands = record.get("hands") or []
        if not isinstance(hands, list) or not hands:
            raise RecordError("record.malformed", "a match record holds at least one hand", field="hands")
    with transaction.atomic():
        first_dealer, _ = parse_hand_body(hands[0], "hands[0].")
        match = match_create(
            club=club,
            game=game,
            seats=list(seats),
            dealer=first_dealer,
            options=options,
            direction=direction,
            title=title,
            published=published,
            actor=actor,
        )
        for i, body in enumerate(hands):
            dealer, entries = parse_hand_body(body, f"hands[{i}].")
            hand = (
                match.hands.get(number=1) if i == 0 else hand_start(match=match, dealer=dealer, actor=actor)
            )
            _replay_entries(hand, entries, actor)
    return match


def _replay_entries(hand: Hand, entries: Sequence[Any], actor: User | None) -> None:
    version_of: dict[int, int] = {}
    for entry in entries:
        if isinstance(entry, MoveEntry):
            outcome = move_record(
                hand=hand, move=move_to_dict(entry.move), expected_version=hand.version, actor=actor
            )
            hand = outcome.hand
            version_of[entry.position] = outcome.version
        else:
            hand = ruling_record(
                hand=hand,
                refs=[version_of[r] for r in entry.refs],
                rule=entry.rule,
                reason=entry.reason or "imported",
                rectification=entry.rectification,
                expected_version=hand.version,
                actor=actor,
            )
