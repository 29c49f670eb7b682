"""Writes: creating matches and hands, recording moves, undoing, ruling, importing records.

Each write locks the hand's read model, checks the version the caller expected, and folds the hand's log
through the rule engine *before* anything is appended: a keying error raises (``MalformedMove`` → 400,
``ImpossibleMove`` → 422) and nothing is written; a rule irregularity is appended with the engine's verdict
and flags the hand. The hand's read model (``Hand``) and, when a finished hand is concerned, the match
sheet are written in the same transaction as the events, so a reader never sees one without the other.

Idempotency: a write may carry a key; a second write with the same key on the same hand appends nothing
and answers as the first one did (the same move again), or is refused (``idempotency.reused``) when the
key was used for something else.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club, Membership, Player
from clubs.permissions import club_role
from common.batch import gc_paused
from common.errors import ConcurrencyConflict, Conflict, Forbidden, ServiceError
from common.rows import instances
from scoring import permissions, signals
from scoring.hands import foldcache, whatif
from scoring.hands.fold import (
    Entry,
    HandView,
    MoveEntry,
    RulingEntry,
    Setup,
    UndoEntry,
    check_log,
    check_ruling,
    extend,
    fold,
    ruled_against,
)
from scoring.hands.match import adjusted, own_results
from scoring.hands.records import (
    HAND_FORMAT,
    MATCH_FORMAT,
    RecordError,
    check_header,
    parse_common,
    parse_hand_body,
    record_position,
)
from scoring.log import store
from scoring.log.events import (
    Event,
    HandStarted,
    MatchAbandoned,
    MatchOpened,
    MoveRecorded,
    MoveUndone,
    RulingRecorded,
    hand_stream_id,
    match_stream_id,
)
from scoring.models import Hand, HandFinal, Match, MatchSeat
from scoring.rules import HandResult, ImpossibleMove, MalformedMove, RulesError, get_game
from scoring.rules.core import Verdict
from scoring.rules.moves import move_from_dict, move_to_dict
from scoring.selectors import (
    hand_entries,
    hand_final_key,
    hand_setup,
    hand_view_at,
    match_results,
    match_sheet,
    sheet_written,
)
from scoring.selectors import sheet_of as _sheet

User = AbstractBaseUser | AnonymousUser
log = logging.getLogger(__name__)


def actor_name(user: User | None) -> str:
    if user is None or not user.is_authenticated:
        return ""
    return str(user.get_username())


def user_or_none(user: User | None) -> Any:
    return user if user is not None and user.is_authenticated else None


@dataclass(frozen=True)
class MoveOutcome:
    hand: Hand
    version: int  # the stream version of the recorded move
    verdicts: tuple[Verdict, ...]
    replayed: bool  # an idempotent retry: nothing was appended
    view: HandView | None = None  # the hand after the move (None for a retry)


# ---- matches and hands ------------------------------------------------------------------------------
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
    scorers: Sequence[Any] = (),
    guests: bool = False,
    actor: User | None = None,
) -> Match:
    """Create a match and start its first hand. Options are validated against the game's ruleset.

    ``scorers`` are the users assigned to record at the table (each a scorer or director of the club);
    a scorer who creates a match is assigned to it. Players of other clubs may sit only as ``guests``
    (a tournament's tables seat its registered guests).
    """
    rules = get_game(game)
    if options is not None and not isinstance(options, Mapping):
        raise MalformedMove("options.invalid", gettext("options must be an object"), field="options")
    values = rules.ruleset.validate(options)
    chosen = {k: v for k, v in values.items() if options and k in options}
    rules.initial_state(values, seats=len(seats), dealer=dealer)  # checks seat count and dealer
    with transaction.atomic():
        match, opened = _match_rows(
            club=club,
            game=game,
            options=chosen,
            seats=seats,
            direction=direction,
            title=title,
            published=published,
            scorers=scorers,
            guests=guests,
            actor=actor,
        )
        store.append(match_stream_id(match.pk), [opened], expected_version=0, actor=actor_name(actor))
        hand_start(match=match, dealer=dealer, actor=actor)
        match_project(match)
    return match


def _match_rows(
    *,
    club: Club,
    game: str,
    options: dict[str, Any],
    seats: Sequence[str | Player],
    direction: str,
    title: str,
    published: bool,
    scorers: Sequence[Any],
    guests: bool,
    actor: User | None,
) -> tuple[Match, MatchOpened]:
    """The match, its seats and its scorers (no hand yet), and the event that opens its stream in the log
    (the caller appends it: an import appends it with its hands)."""
    if direction not in Match.Direction.values:
        raise MalformedMove(
            "match.direction",
            gettext("direction must be one of {values}").format(values=", ".join(Match.Direction.values)),
            field="direction",
        )
    assigned = list(scorers)
    _check_scorers(club, assigned)
    if club_role(actor, club) == Membership.Role.SCORER:
        # Publishing a match and choosing its scorers are a director's (docs/api.md): a scorer's new
        # match is private and his own table.
        if published:
            raise Forbidden(
                "match.publish", gettext("only a director may publish a match"), field="published"
            )
        if assigned:
            raise Forbidden(
                "match.scorers", gettext("only a director may assign a match's scorers"), field="scorers"
            )
        assigned.append(actor)
    match = Match.objects.create(
        club=club,
        game=game,
        options=options,
        direction=direction,
        title=title,
        published=published,
        created_by=user_or_none(actor),
    )
    rows = [
        MatchSeat(match=match, seat=i, name=player.name if player else name, player=player)
        for i, (name, player) in enumerate(_seat_players(club, seats, guests))
    ]
    MatchSeat.objects.bulk_create(rows)
    # The log says who sits where with which options: a rebuild reads the match from here, so that a
    # changed seat or option row is a difference to report, never a new result (issue 25).
    opened = MatchOpened(
        club=club.pk,
        game=game,
        options=dict(options),
        direction=direction,
        seats=tuple({"name": r.name, "player": r.player_id} for r in rows),
    )
    if assigned:
        match.scorers.add(*assigned)
    return match, opened


def max_length(model: Any, name: str) -> int:
    """A text column's bound, so that a check in code never drifts from the table's."""
    bound = model._meta.get_field(name).max_length
    if not isinstance(bound, int):
        raise AssertionError(f"{model.__name__}.{name} has no max_length")
    return bound


SEAT_NAME_MAX = max_length(MatchSeat, "name")


def _seat_players(club: Club, seats: Sequence[str | Player], guests: bool) -> list[tuple[str, Player | None]]:
    """Each seat's name and player. A typed name that is exactly a club player's name (ignoring case and
    spaces around it) is that player, so that his results reach his history and ratings; a player (by
    id or by name) sits in one seat only."""
    by_name: dict[str, Player] = {}
    typed = [s.strip().casefold() for s in seats if isinstance(s, str)]
    if typed:
        for member in Player.objects.filter(club=club):
            by_name.setdefault(member.name.strip().casefold(), member)
    out: list[tuple[str, Player | None]] = []
    seen: set[int] = set()
    for i, seat in enumerate(seats):
        where = f"seats.{i}"
        if isinstance(seat, Player):
            if seat.club_id != club.pk and not guests:
                raise ImpossibleMove(
                    "match.player",
                    gettext("{player} is not a member of {club}").format(player=seat, club=club),
                    field=where,
                )
            player: Player | None = seat
            name = seat.name
        else:
            if not isinstance(seat, str) or not seat.strip():
                raise MalformedMove("match.seats", gettext("each seat needs a name"), field=where)
            name = seat.strip()
            if len(name) > SEAT_NAME_MAX:
                raise MalformedMove(
                    "match.seats",
                    gettext("a seat's name has at most {n} characters").format(n=SEAT_NAME_MAX),
                    field=where,
                )
            if "\x00" in name:
                raise MalformedMove(
                    "match.seats", gettext("a seat's name cannot hold the NUL character"), field=where
                )
            player = by_name.get(name.casefold())
        if player is not None:
            if player.pk in seen:
                raise ImpossibleMove(
                    "match.player_twice",
                    gettext("{player} already sits in another seat").format(player=player.name),
                    field=where,
                )
            seen.add(player.pk)
        out.append((name, player))
    return out


def match_update(
    *,
    match: Match,
    actor: User | None,
    title: str | None = None,
    published: bool | None = None,
    scorers: Sequence[Any] | None = None,
) -> Match:
    """Change what a director may change about a match: its title, whether anyone may read it, and the
    scorers assigned to its table (each a scorer or director of the club). The game, options and seats
    are fixed once hands are recorded."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if scorers is not None:
            _check_scorers(match.club, scorers)
            match.scorers.set(scorers)
        if title is not None:
            match.title = title
        if published is not None:
            match.published = published
        match.save(update_fields=["title", "published"])
    # The match row keeps no history: say who changed what in the log (the hands' events keep theirs).
    log.info(
        "match %s updated by %s: title=%r published=%r scorers=%r",
        match.pk,
        actor_name(actor) or "-",
        title,
        published,
        None if scorers is None else [actor_name(u) for u in scorers],
    )
    return match


def _check_scorers(club: Club, scorers: Sequence[Any]) -> None:
    for user in scorers:
        if club_role(user, club) not in (Membership.Role.DIRECTOR, Membership.Role.SCORER):
            raise ImpossibleMove(
                "match.scorer",
                gettext("{user} is not a scorer or director of {club}").format(user=user, club=club),
                field="scorers",
            )


def hand_start(*, match: Match, dealer: int | None = None, actor: User | None = None) -> Hand:
    """Start the next hand of a match; the dealer defaults to the game's next dealer."""
    game = get_game(match.game)
    seats = tuple(match.seats.values_list("name", flat=True))
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        last = match.hands.order_by("-number").first()
        if match.status == Match.Status.ABANDONED:
            raise _abandoned(match, last.version if last is not None else 0)
        if last is not None and last.status != Hand.Status.OVER:
            raise ImpossibleMove(
                "hand.in_play", gettext("hand {n} is not finished yet").format(n=last.number), field="match"
            )
        if match.status == Match.Status.FINISHED:
            raise ImpossibleMove("match.finished", gettext("the match is over"), field="match")
        options = game.ruleset.validate(match.options)
        results = match_results(match)
        if dealer is None:
            dealer = (
                0
                if last is None
                else game.next_dealer(options, len(seats), last.dealer, results[-1] if results else None)
            )
        context = game.match_context(options, len(seats), own_results(results))
        game.initial_state(match.options, seats=len(seats), dealer=dealer, context=context)
        number = 1 if last is None else last.number + 1
        hand = Hand.objects.create(
            match=match, number=number, stream_id=hand_stream_id(match.pk, number), dealer=dealer
        )
        started = HandStarted(
            game=match.game, options=dict(match.options), seats=seats, dealer=dealer, context=context
        )
        # The hand's row written in the append's statement, committed with it (see _write).
        hand.version, hand.updated_at = 1, timezone.now()
        sql = (
            f"UPDATE {Hand._meta.db_table} SET version = %s, updated_at = %s, position = {{position}}"
            " WHERE id = %s"
        )
        at = connection.ops.adapt_datetimefield_value(hand.updated_at)
        appended = store.append(
            hand.stream_id,
            [started],
            expected_version=0,
            actor=actor_name(actor),
            at=hand.updated_at,
            alongside=[store.Alongside(sql, [hand.version, at, hand.pk])],
            commit=True,
        )
        hand.position = appended.positions[-1]
    return hand


# ---- moves and undos --------------------------------------------------------------------------------
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
    wanted = move_to_dict(parsed)
    with transaction.atomic():
        hand = _lock(hand)
        done = _retried(
            hand,
            idempotency_key,
            expected_version,
            lambda e: isinstance(e, MoveRecorded) and e.move == wanted,
        )
        if done is not None:
            event = done.event
            assert isinstance(event, MoveRecorded)
            verdicts = tuple(Verdict.from_dict(v) for v in event.verdicts)
            return MoveOutcome(hand, done.version, verdicts, replayed=True)
        _check_open(hand, expected_version)
        _check_version(hand, expected_version)
        # The hand as folded at its version (kept from the last write, or caught up): no fold from zero.
        view = hand_view_at(hand)
        new, verdicts = extend(view, MoveEntry(expected_version + 1, parsed, actor_name(actor)))
        event = MoveRecorded(move=wanted, verdicts=tuple(v.as_dict() for v in verdicts))
        hand = _write(hand, event, new, expected_version, idempotency_key, actor)
    return MoveOutcome(hand, hand.version, verdicts, replayed=False, view=new)


@dataclass(frozen=True)
class MovesOutcome:
    """What a queue of moves came to: the moves recorded (new or retried), in order, and the first move
    refused (its position in the queue, and why), after which nothing more was tried."""

    outcomes: tuple[MoveOutcome, ...]
    version: int  # the version to send next: the last recorded move's (the expected one if none)
    refused: tuple[int, Exception] | None


# What stops a queue: the move at that position cannot be recorded; the ones before it are.
QUEUE_REFUSALS = (RulesError, ConcurrencyConflict, ServiceError)


def moves_record(
    *,
    hand: Hand,
    moves: Sequence[tuple[Mapping[str, Any], str]],
    expected_version: int,
    actor: User | None = None,
) -> MovesOutcome:
    """Record a device's queue of moves (issue 27, docs/offline.md): each ``(move, idempotency_key)`` in
    turn through :func:`move_record`, so each checked by the engine and committed on its own, the move at
    position ``i`` expected at the version the one before it left (``expected_version`` for the first).
    A queue sent again after its answer was lost is recognised move by move by its keys (retries, nothing
    appended twice). The first refusal stops the queue: the moves before it stay recorded."""
    outcomes: list[MoveOutcome] = []
    version = expected_version
    for index, (move, key) in enumerate(moves):
        try:
            outcome = move_record(
                hand=hand, move=move, expected_version=version, idempotency_key=key, actor=actor
            )
        except QUEUE_REFUSALS as exc:
            return MovesOutcome(tuple(outcomes), version, (index, exc))
        outcomes.append(outcome)
        hand, version = outcome.hand, outcome.version
    return MovesOutcome(tuple(outcomes), version, None)


def move_undo(
    *,
    hand: Hand,
    expected_version: int,
    actor: User | None,
    reason: str = "",
    idempotency_key: str | None = None,
) -> Hand:
    """Take back the last move that stands, while no ruling came after it and no later hand started.

    A scorer takes back only a move he recorded; a director any move.
    """
    if not isinstance(reason, str):
        raise MalformedMove("undo.malformed", gettext("reason must be a string"), field="reason")
    with transaction.atomic():
        hand = _lock(hand)
        if _retried(hand, idempotency_key, expected_version, lambda e: isinstance(e, MoveUndone)) is not None:
            return hand
        _check_open(hand, expected_version)
        events = _events_at(hand, expected_version)
        setup, entries = hand_setup(hand, events), hand_entries(hand, events)
        view = fold(setup, entries)
        if not view.moves:
            raise ImpossibleMove("undo.nothing", gettext("there is no move to take back"), field="type")
        last = view.moves[-1]
        if any(r.position > last.position for r in view.rulings):
            raise ImpossibleMove(
                "undo.ruled", gettext("a ruling came after the last move: ask the director"), field="type"
            )
        if last.actor != actor_name(actor) and not permissions.can_rule(actor, hand.match):
            raise ImpossibleMove(
                "undo.not_yours",
                gettext("only the scorer who recorded a move can take it back"),
                field="type",
            )
        _refuse_if_later_hand(
            hand, "undo.next_hand", gettext("the next hand has started: the move cannot be taken back")
        )
        undo = UndoEntry(expected_version + 1, last.position, reason, actor_name(actor))
        new = fold(setup, [*entries, undo])
        undone = MoveUndone(of_version=last.position, reason=reason)
        return _write(hand, undone, new, expected_version, idempotency_key, actor)


# ---- rulings ----------------------------------------------------------------------------------------
RULE_MAX, REASON_MAX = 200, 2000  # the API's serializer takes its bounds from here


def _check_ruling_input(refs: Any, rule: Any, reason: Any, rectification: Any) -> None:
    if not isinstance(rule, str) or not rule.strip():
        raise MalformedMove("ruling.malformed", gettext("a ruling names the rule it applies"), field="rule")
    if not isinstance(reason, str) or not reason.strip():
        raise MalformedMove("ruling.malformed", gettext("a ruling gives its reason"), field="reason")
    for name, text, most in (("rule", rule, RULE_MAX), ("reason", reason, REASON_MAX)):
        if len(text) > most:
            raise MalformedMove(
                "ruling.malformed",
                gettext("the {field} has at most {n} characters").format(field=name, n=most),
                field=name,
            )
        if "\x00" in text:
            raise MalformedMove(
                "ruling.malformed",
                gettext("the {field} cannot hold the NUL character").format(field=name),
                field=name,
            )
    if not isinstance(refs, list | tuple) or not all(
        isinstance(r, int) and not isinstance(r, bool) for r in refs
    ):
        raise MalformedMove(
            "ruling.malformed",
            gettext("refs lists the positions (stream versions) of the moves concerned"),
            field="refs",
        )
    if not isinstance(rectification, Mapping):
        raise MalformedMove(
            "ruling.malformed", gettext("rectification must be an object"), field="rectification"
        )


def _ruling_views(
    hand: Hand,
    events: Sequence[store.RecordedEvent],
    refs: Sequence[int],
    rule: str,
    reason: str,
    rectification: Mapping[str, Any],
    actor: User | None,
) -> tuple[HandView, HandView]:
    _check_ruling_input(refs, rule, reason, rectification)
    setup, entries = hand_setup(hand, events), hand_entries(hand, events)
    before = fold(setup, entries)
    check_ruling(before, refs, rectification)
    proposed = RulingEntry(
        position=events[-1].version + 1,
        refs=tuple(refs),
        rule=rule,
        reason=reason,
        rectification=dict(rectification),
        actor=actor_name(actor),
    )
    after = fold(setup, [*entries, proposed])
    if before.over and not after.over:
        _refuse_if_later_hand(
            hand, "ruling.reopens", "the next hand has started: this hand must stay finished"
        )
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
    events = store.read_stream(hand.stream_id)
    before, after = _ruling_views(hand, events, refs, rule, reason, rectification, actor)
    match = hand.match
    return {
        "version": events[-1].version,
        "before": {
            "hand": before.result.as_dict() if before.result else None,
            "flagged": before.flagged,
            "legal": before.legal,
            "sheet": match_sheet(match, replace_hand=(hand.number, before)),
        },
        "after": {
            "hand": after.result.as_dict() if after.result else None,
            "flagged": after.flagged,
            "legal": after.legal,
            "sheet": match_sheet(match, replace_hand=(hand.number, after)),
        },
        # Kept for the pages, which read it at the top level.
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
    idempotency_key: str | None = None,
) -> Hand:
    """Append a director's ruling; the projection applies it, the original moves stay in the log."""
    _check_ruling_input(refs, rule, reason, rectification)
    with transaction.atomic():
        hand = _lock(hand)
        same = RulingRecorded(refs=tuple(refs), rule=rule, reason=reason, rectification=dict(rectification))
        if _retried(hand, idempotency_key, expected_version, lambda e: e == same) is not None:
            return hand
        _check_open(hand, expected_version)
        events = _events_at(hand, expected_version)
        _, after = _ruling_views(hand, events, refs, rule, reason, rectification, actor)
        return _write(hand, same, after, expected_version, idempotency_key, actor)


# ---- shared steps -----------------------------------------------------------------------------------
def _lock(hand: Hand) -> Hand:
    """The hand's row, locked until the transaction ends: writes to one hand queue up (PostgreSQL; on
    SQLite every write transaction already holds the database's write lock). Found by its match and
    number, so that a caller may pass a hand it has not read (Hand.DoesNotExist if there is none)."""
    if "match" not in hand._state.fields_cache:
        return (
            Hand.objects.select_for_update()
            .select_related("match")
            .get(match_id=hand.match_id, number=hand.number)
        )
    # The caller read the match in this request: the hand alone, in one statement written out (on the
    # path of every move, where the ORM's compiling would cost more than the query). On PostgreSQL the
    # match's status for _check_open follows it in the same message: read once the hand's row is locked,
    # in a statement and snapshot of its own, as _check_open would read it, without a round trip more.
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    sql = f"SELECT * FROM {Hand._meta.db_table} WHERE match_id = %s AND number = %s{lock}"
    params = [hand.match_id, hand.number]
    statements: tuple[str, ...] = (sql,)
    then: list[list[Any]] | None = None
    if connection.vendor == "postgresql":
        statements, then = (sql, _OPEN_SQL), []
        params.append(hand.match_id)
    found = instances(Hand, statements, params, then=then, prepare=True)
    if not found:
        raise Hand.DoesNotExist(f"match {hand.match_id} has no hand {hand.number}")
    found[0].match = hand.match
    if then:
        found[0].__dict__[_OPEN_SEEN] = then[0][0] if then[0] else None
    return found[0]


# The match's status and the director's reason, which _check_open reads (and _lock with the hand's lock).
_OPEN_SQL = f"SELECT status, abandon_reason FROM {Match._meta.db_table} WHERE id = %s"
_OPEN_SEEN = "_match_open_seen"


def _check_open(hand: Hand, expected_version: Any) -> None:
    """Refuse any write to an abandoned match, with a conflict naming the director's reason.

    Read in a statement of its own once the hand's row is locked (on PostgreSQL sent by :func:`_lock` in
    the lock's own message, right after it): an abandon that was waiting for that lock, or that held it,
    has committed by then and is seen (PostgreSQL's READ COMMITTED takes a new snapshot per statement).
    This is how an abandon and the hand's last move make one decision: see :func:`match_abandon`.
    """
    # One statement written out: it is on the path of every move, where the ORM's compiling of it cost
    # more than running it (issue 29). Already read when _lock sent it with the hand's lock.
    if _OPEN_SEEN in hand.__dict__:
        found = hand.__dict__.pop(_OPEN_SEEN)
    else:
        with connection.cursor() as cursor:
            cursor.execute(_OPEN_SQL, [hand.match_id])
            found = cursor.fetchone()
    if found is None:
        raise Match.DoesNotExist(f"no match {hand.match_id}")
    status, reason = found
    if status == Match.Status.ABANDONED:
        hand.match.status, hand.match.abandon_reason = status, reason
        sent = expected_version if isinstance(expected_version, int) else hand.version
        raise _abandoned(hand.match, hand.version, sent)


def _abandoned(match: Match, current: int, expected: int | None = None) -> Conflict:
    return Conflict(
        "match.abandoned",
        gettext("the director abandoned this table ({reason}): nothing more can be recorded").format(
            reason=match.abandon_reason or "-"
        ),
        field="match",
        expected_version=current if expected is None else expected,
        current_version=current,
    )


def match_abandon(*, match: Match, reason: str) -> bool:
    """Close a match to every write, as abandoned with the director's reason: False, and nothing changed,
    when it has finished (or was abandoned) meanwhile.

    One decision with the hand's last move: every hand row of the match is locked first, the lock each
    write takes (:func:`_lock`), then the match row, read again. A move that finished the match and
    committed first is seen here (the match is finished: the caller answers the conflict); an abandon
    that commits first is seen by the move, which is refused (:func:`_check_open`). To be called inside
    the caller's transaction.
    """
    list(Hand.objects.select_for_update().filter(match_id=match.pk).order_by("number").values_list("pk"))
    fresh = Match.objects.select_for_update().get(pk=match.pk)
    if fresh.status != Match.Status.OPEN:
        match.status = fresh.status
        return False
    fresh.status, fresh.abandon_reason = Match.Status.ABANDONED, reason
    fresh.save(update_fields=["status", "abandon_reason"])
    stream = match_stream_id(match.pk)
    store.append(stream, [MatchAbandoned(reason=reason)], expected_version=len(store.read_stream(stream)))
    match.status, match.abandon_reason = fresh.status, fresh.abandon_reason
    return True


def _check_version(hand: Hand, expected_version: Any) -> None:
    """Refuse a malformed version, and a stale one with a conflict naming the hand's version."""
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise MalformedMove(
            "version.malformed", gettext("expected_version must be a whole number"), field="expected_version"
        )
    if hand.version != expected_version:
        raise ConcurrencyConflict(hand.stream_id, expected_version, hand.version)


def _events_at(hand: Hand, expected_version: int) -> list[store.RecordedEvent]:
    """The hand's events, refused with a conflict unless the stream is at ``expected_version``."""
    _check_version(hand, expected_version)
    return store.read_stream(hand.stream_id)


def _retried(hand: Hand, key: str | None, expected_version: Any, same: Any) -> store.RecordedEvent | None:
    """For a write whose hand has moved on since the version it expected: the event an earlier write with
    the same key appended, if it was this same write (a retry). A key used for another write is refused.

    When the hand is still at the expected version the key cannot have been used for this write (it
    would have moved the hand on); the append itself refuses a key used before (see :func:`_write`).
    """
    if not key or hand.version == expected_version:
        return None
    done = store.result_for_key(hand.stream_id, key)
    if done is None:
        return None
    event = store.read_stream_after(hand.stream_id, done.from_version - 1)[0]
    if not same(event.event):
        raise _key_reused()
    return event


def _key_reused() -> ImpossibleMove:
    return ImpossibleMove(
        "idempotency.reused",
        gettext("this idempotency key was already used for another change to this hand"),
        field="idempotency_key",
    )


# The hand row's projected fields, written with each append: one UPDATE written out rather than the
# ORM's, which would be compiled anew for every move (the busiest write there is).
_HAND_FIELDS = ("version", "status", "flagged", "result", "ruled_against", "updated_at")


def _hand_update(hand: Hand) -> list[store.Alongside]:
    """The hand row's UPDATEs, written with the append: its projected fields first, ahead of the append
    (the row is locked already), and its position, the append's, once that is known. Where the store
    writes them after the insert all the same (SQLite, an enclosing transaction), one UPDATE."""
    columns = ", ".join(f"{name} = %s" for name in _HAND_FIELDS)
    values: list[Any] = [
        hand.version,
        hand.status,
        hand.flagged,
        None if hand.result is None else json.dumps(hand.result),
        json.dumps(hand.ruled_against),
        connection.ops.adapt_datetimefield_value(hand.updated_at),
        hand.pk,
    ]
    table = Hand._meta.db_table
    if not store.sends_first():  # written after the insert anyway: one statement, position included
        sql = f"UPDATE {table} SET {columns}, position = {{position}} WHERE id = %s"
        return [store.Alongside(sql, values)]
    return [
        store.Alongside(f"UPDATE {table} SET {columns} WHERE id = %s", values, first=True),
        store.Alongside(f"UPDATE {table} SET position = {{position}} WHERE id = %s", [hand.pk]),
    ]


def _sheet_update(match: Match, sheet: dict[str, Any]) -> store.Alongside:
    """The match sheet's UPDATE, written with the append, ahead of it (its row locked before)."""
    list(Match.objects.select_for_update().filter(pk=match.pk).values_list("pk", flat=True))
    was_finished = match.status == Match.Status.FINISHED
    match.sheet = sheet
    match.status = Match.Status.FINISHED if sheet["finished"] else Match.Status.OPEN
    if was_finished or sheet["finished"]:
        match_id = match.pk
        transaction.on_commit(lambda: signals.match_changed.send(sender=Match, match_id=match_id))
    sql = f"UPDATE {Match._meta.db_table} SET sheet = %s, status = %s WHERE id = %s"
    return store.Alongside(sql, [json.dumps(sheet), match.status, match.pk], first=True)


def _final_update(hand_id: int, blob: bytes) -> store.Alongside:
    """A finished hand's sealed fold, kept with it (:class:`~scoring.models.HandFinal`), written with the
    append, ahead of it: a what-if in any process then scores the hand again without folding it."""
    table = HandFinal._meta.db_table
    sql = (
        f"INSERT INTO {table} (hand_id, blob) VALUES (%s, %s)"
        " ON CONFLICT (hand_id) DO UPDATE SET blob = EXCLUDED.blob"
    )
    return store.Alongside(sql, [hand_id, blob], first=True)


def hand_folds_keep() -> int:
    """Keep with each finished hand whose kept fold (:class:`HandFinal`) is missing or no longer serves
    (another stream version, engine or key: after an upgrade of the engine, every one) its fold from the
    log. Returns how many were written. Run by ``manage.py keep_hand_folds``; a what-if is right without
    it, only slower for the hands it would have kept."""
    key = hand_final_key()
    if key is None:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: kept hand folds are sealed under the service's key, and a fold sealed"
            " under this command's local key would never be opened by the service. Run it with the"
            " service's SECRET_KEY in the environment."
        )
    written = 0
    finished = Hand.objects.filter(status=Hand.Status.OVER).select_related("match", "final").order_by("pk")
    for hand in finished.iterator(chunk_size=500):
        kept = getattr(hand, "final", None)
        if kept is not None and whatif.unseal(kept.blob, hand.version, key) is not None:
            continue
        sealed = whatif.seal(whatif.Final.of(hand_view_at(hand)), hand.version, key)
        HandFinal.objects.update_or_create(hand=hand, defaults={"blob": sealed})
        written += 1
    return written


def _refuse_if_later_hand(hand: Hand, code: str, message: str) -> None:
    if Hand.objects.filter(match_id=hand.match_id, number__gt=hand.number).exists():
        raise ImpossibleMove(code, message, field="type")


def _write(
    hand: Hand, event: Event, view: HandView, expected_version: int, key: str | None, actor: User | None
) -> Hand:
    """Append the event and bring the read models up to date with the hand's new fold, in one transaction,
    and commit it: the caller's last step.

    Everything that takes time is done first: the hand's row and, when a finished hand is concerned, the
    match sheet (from the hands' stored results: the same cost at the last hand as at the first), whose
    row is locked now. Then one message writes both rows, appends the event with the hand's position in
    the same statement, and commits (``store.Alongside``): the store's global ordering lock, which the
    append takes, is held for the insert, the position's one-column update and the commit only, never
    while Python runs nor while the rows are written. An append that inserts nothing rolls the rows back
    with it. Once committed, the fold is kept for the next move (:mod:`scoring.hands.foldcache`).
    """
    was_over = hand.status == Hand.Status.OVER
    hand.status = Hand.Status.OVER if view.over else Hand.Status.IN_PLAY
    hand.flagged = view.flagged
    hand.result = view.result.as_dict() if view.result else None
    hand.ruled_against = ruled_against(view)
    match = hand.match
    sheet = (
        match_sheet(match, replace_hand=(hand.number, view))
        if was_over or view.over or not sheet_written(match)
        else None
    )
    hand.version = expected_version + 1
    hand.updated_at = timezone.now()
    alongside = _hand_update(hand)
    if sheet is not None:
        alongside.append(_sheet_update(match, sheet))
    seal_key = hand_final_key() if view.over else None
    if seal_key is not None:
        sealed = whatif.seal(whatif.Final.of(view), hand.version, seal_key)
        alongside.append(_final_update(hand.pk, sealed))
    stream_id, version = hand.stream_id, hand.version
    transaction.on_commit(lambda: foldcache.put(stream_id, version, view))
    appended = store.append(
        hand.stream_id,
        [event],
        expected_version=expected_version,
        idempotency_key=key or None,
        actor=actor_name(actor),
        at=hand.updated_at,
        alongside=alongside,
        commit=True,
    )
    if appended.from_version != expected_version + 1:
        raise _key_reused()  # the store answered with the earlier append that used this key
    hand.position = appended.positions[-1]
    return hand


def match_project(match: Match, *, replace_hand: tuple[int, HandView] | None = None) -> Match:
    """Write the match's running sheet and status from its finished hands.

    Once the match is finished, or when it was and a ruling changes or reopens it, ``match_changed`` is
    sent after the transaction commits, so that what is built on finished matches (tournament standings,
    ratings) is brought up to date from committed data only.
    """
    return _save_sheet(match, match_sheet(match, replace_hand=replace_hand))


def _save_sheet(match: Match, sheet: dict[str, Any]) -> Match:
    was_finished = match.status == Match.Status.FINISHED
    match.sheet = sheet
    match.status = Match.Status.FINISHED if sheet["finished"] else Match.Status.OPEN
    match.save(update_fields=["sheet", "status"])
    if was_finished or sheet["finished"]:
        match_id = match.pk
        transaction.on_commit(lambda: signals.match_changed.send(sender=Match, match_id=match_id))
    return match


# ---- records ----------------------------------------------------------------------------------------
# A record's hands are checked and folded in memory, a new immutable state at every move: the cycle
# collector would walk that growing heap again and again (a fifth of a 28-hand import), for objects
# without cycles (common/batch.py).
@gc_paused()
def match_import(
    *,
    club: Club,
    record: Mapping[str, Any],
    actor: User | None = None,
    title: str = "",
    published: bool = False,
    scorers: Sequence[Any] = (),
) -> Match:
    """Create a match from a hand or match record (``docs/record-format.md``).

    The whole record is checked first, in memory, hand after hand and entry by entry exactly as the
    service records it live (an impossible move or ruling, a hand started before the last one ended or
    after the match was over, refuses the whole import, naming the record field). Then the rows are
    written and, last, every event of every hand in one insert: the store's ordering lock is held for
    that insert and the commit only, so other tables never wait on a long import.
    """
    try:
        game, options, seats, direction, bodies = _parse_record(record)
    except RulesError as exc:
        raise RecordError.wrap(exc) from exc
    single = record.get("format") == HAND_FORMAT
    try:
        rules = get_game(game)
        if options is not None and not isinstance(options, Mapping):
            raise MalformedMove("options.invalid", gettext("options must be an object"), field="options")
        values = rules.ruleset.validate(options)
        chosen = {k: v for k, v in values.items() if options and k in options}
        rules.initial_state(values, seats=len(seats), dealer=bodies[0][0])
    except RulesError as exc:
        raise RecordError.wrap(exc) from exc
    hands = _check_hands(rules, values, chosen, seats, bodies, single)
    finished = [(n, view.result) for n, (_, _, view, _) in enumerate(hands, start=1) if view.result]
    sheet = _sheet(game, values, seats, finished)
    with transaction.atomic():
        try:
            match, opened = _match_rows(
                club=club,
                game=game,
                options=chosen,
                seats=list(seats),
                direction=direction,
                title=title,
                published=published,
                scorers=scorers,
                guests=False,
                actor=actor,
            )
        except RulesError as exc:
            raise RecordError.wrap(exc) from exc
        rows: list[Hand] = []
        streams: list[tuple[str, Sequence[Event]]] = [(match_stream_id(match.pk), [opened])]
        for number, (setup, entries, view, verdicts) in enumerate(hands, start=1):
            row = Hand(
                match=match,
                number=number,
                stream_id=hand_stream_id(match.pk, number),
                dealer=setup.dealer,
                status=Hand.Status.OVER if view.over else Hand.Status.IN_PLAY,
                flagged=view.flagged,
                result=view.result.as_dict() if view.result else None,
                ruled_against=ruled_against(view),
            )
            rows.append(row)
            streams.append((row.stream_id, _hand_events(setup, entries, verdicts)))
        Hand.objects.bulk_create(rows)
        match.sheet = sheet
        match.status = Match.Status.FINISHED if sheet["finished"] else Match.Status.OPEN
        match.save(update_fields=["sheet", "status"])
        appended = store.append_streams(streams, actor=actor_name(actor))  # the lock is taken here
        for row, done in zip(rows, appended[1:], strict=True):
            row.version, row.position, row.updated_at = done.to_version, done.positions[-1], done.recorded_at
        Hand.objects.bulk_update(rows, ["version", "position", "updated_at"])
        # Each finished hand's fold kept with it, as the log folds it: a hand with rulings is left to be
        # folded from the log (its rulings there carry the log's positions and the director's name).
        # Run by hand without the service's key (`hand_final_key` is None), none: the service could not
        # open them.
        key = hand_final_key()
        if key is not None:
            HandFinal.objects.bulk_create(
                HandFinal(hand=row, blob=whatif.seal(whatif.Final.of(view), row.version, key))
                for row, (_, _, view, _) in zip(rows, hands, strict=True)
                if view.over and not view.rulings
            )
        if sheet["finished"]:
            match_id = match.pk
            transaction.on_commit(lambda: signals.match_changed.send(sender=Match, match_id=match_id))
    return match


def _check_hands(
    rules: Any,
    values: dict[str, Any],
    chosen: dict[str, Any],
    seats: Sequence[str],
    bodies: Sequence[tuple[int, list[Entry]]],
    single: bool,
) -> list[tuple[Setup, list[Entry], HandView, dict[int, tuple[Verdict, ...]]]]:
    """Each hand of a record checked in order as the service would take it live: started only once the
    one before is over and while the match is not, with the match so far as its context."""
    out: list[tuple[Setup, list[Entry], HandView, dict[int, tuple[Verdict, ...]]]] = []
    results: list[HandResult] = []
    for i, (dealer, entries) in enumerate(bodies):
        where = "" if single else f"hands[{i}]."
        try:
            if out and not out[-1][2].over:
                raise ImpossibleMove(
                    "hand.in_play", gettext("hand {n} is not finished yet").format(n=i), field="match"
                )
            if results and adjusted(rules, values, len(seats), results).finished:
                raise ImpossibleMove("match.finished", gettext("the match is over"), field="match")
            context = rules.match_context(values, len(seats), own_results(results))
            rules.initial_state(values, seats=len(seats), dealer=dealer, context=context)
            setup = Setup(rules.name, dict(chosen), tuple(seats), dealer, context)
            view, verdicts = check_log(setup, entries, record_position(where))
        except RulesError as exc:
            raise RecordError.wrap(exc, where) from exc
        out.append((setup, list(entries), view, verdicts))
        if view.result is not None:
            results.append(view.result)
    return out


def _hand_events(
    setup: Setup, entries: Sequence[Entry], verdicts: dict[int, tuple[Verdict, ...]]
) -> list[Event]:
    """A checked hand's stream: its start, then its entries (record positions become stream versions:
    the deal, at record position 0, is version 2)."""
    events: list[Event] = [
        HandStarted(
            game=setup.game,
            options=dict(setup.options),
            seats=tuple(setup.seats),
            dealer=setup.dealer,
            context=dict(setup.context),
        )
    ]
    version_of = {e.position: 2 + k for k, e in enumerate(entries)}
    for e in entries:
        if isinstance(e, MoveEntry):
            found = verdicts[e.position]
            events.append(MoveRecorded(move=move_to_dict(e.move), verdicts=tuple(v.as_dict() for v in found)))
        elif isinstance(e, RulingEntry):
            refs = tuple(version_of[r] for r in e.refs)
            events.append(
                RulingRecorded(refs=refs, rule=e.rule, reason=e.reason, rectification=dict(e.rectification))
            )
    return events


def _parse_record(
    record: Any,
) -> tuple[str, dict[str, Any], tuple[str, ...], str, list[tuple[int, list[Entry]]]]:
    fmt = record.get("format") if isinstance(record, Mapping) else None
    if fmt == HAND_FORMAT:
        check_header(record, HAND_FORMAT)
        game, options, seats, direction = parse_common(record)
        return game, options, seats, direction, [parse_hand_body(record, "")]
    check_header(record, MATCH_FORMAT)
    game, options, seats, direction = parse_common(record)
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError(
            "record.malformed", gettext("a match record holds at least one hand"), field="hands"
        )
    bodies = []
    for i, body in enumerate(hands):
        if not isinstance(body, Mapping):
            raise RecordError("record.malformed", gettext("a hand is an object"), field=f"hands[{i}]")
        bodies.append(parse_hand_body(body, f"hands[{i}]."))
    return game, options, seats, direction, bodies
