"""The scoring API: matches, hands, moves, undo, state and replay, rulings, the sheet, audit, records.

One view per operation (a path that lists and creates holds the two operations, each with its own
serializers). A view validates its input with its nested input serializer, checks the permission
(:mod:`scoring.api.permissions`), calls one service or selector and serializes the output; errors are
mapped to HTTP in one place (:mod:`scoring.api.errors`). Every write passes ``actor=request.user``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404, QueryDict
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from clubs.models import Club, Player
from common.api import (
    NOT_BLANK,
    PARAMS_HELP,
    VERSIONED_ERRORS,
    WRITE_ERRORS,
    ErrorSerializer,
)
from common.converters import ID_MAX
from common.errors import Refused
from scoring import selectors, services
from scoring.api.auth import match_read
from scoring.api.errors import exception_handler as error_answer
from scoring.api.login import refuse_unknown_keys
from scoring.api.permissions import MatchAccess
from scoring.hands import records
from scoring.models import Hand, Match, StoredEvent
from scoring.rules import game_names
from scoring.rules.moves import move_json_schema

IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_META = "HTTP_IDEMPOTENCY_KEY"  # the header's name in the WSGI environ
IDEMPOTENCY_KEY_MAX = services.max_length(StoredEvent, "idempotency_key")


# ---- shared serializers -----------------------------------------------------------------------------
class HandSummarySerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    flagged = serializers.BooleanField()
    result = serializers.JSONField(allow_null=True)
    updated_at = serializers.DateTimeField()


_DATETIME = serializers.DateTimeField()


def hand_summary(hand: Hand) -> dict[str, Any]:
    """A hand as HandSummarySerializer shows it, as plain values."""
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "version": hand.version,
        "status": hand.status,
        "flagged": hand.flagged,
        "result": hand.result,
        "updated_at": _DATETIME.to_representation(hand.updated_at),
    }


class SeatOutputSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)


class MatchOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    title = serializers.CharField()
    game = serializers.CharField()
    options = serializers.JSONField()
    direction = serializers.CharField()
    status = serializers.CharField()
    published = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    seats = SeatOutputSerializer(many=True, source="seats.all")
    scorers = serializers.SerializerMethodField()
    hands = HandSummarySerializer(many=True, source="hands.all")

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_scorers(self, match: Match) -> list[str]:
        return [user.get_username() for user in match.scorers.all()]


class MatchDetailOutputSerializer(MatchOutputSerializer):
    sheet = serializers.JSONField(help_text="the game's running sheet (see the sheet operation)")


_TEMPLATE_HELP = (
    "what the message says, as an English template with {named} placeholders (a verdict stored before "
    "templates existed: its message); translated by the pages, filled in with params"
)


class VerdictSerializer(serializers.Serializer[Any]):
    """A rule irregularity the engine found in a move (recorded, not refused)."""

    rule = serializers.CharField(help_text="the rule's stable code")
    seat = serializers.IntegerField(allow_null=True)
    trick = serializers.IntegerField(allow_null=True)
    message = serializers.CharField(help_text="the verdict in English, seats counted from 1")
    template = serializers.CharField(help_text=_TEMPLATE_HELP)
    params = serializers.DictField(help_text=PARAMS_HELP)
    move_index = serializers.IntegerField(help_text="the move that broke the rule (0 is the deal)")
    proved_at = serializers.IntegerField(
        allow_null=True, help_text="the later move that proved it (deal not recorded), else null"
    )


class StandingVerdictSerializer(serializers.Serializer[Any]):
    """A verdict tied to the log position of its move, and how the rulings left it."""

    position = serializers.IntegerField()
    move_index = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    trick = serializers.IntegerField(allow_null=True)
    rule = serializers.CharField()
    message = serializers.CharField(help_text="the verdict in English, seats counted from 1")
    template = serializers.CharField(help_text=_TEMPLATE_HELP)
    params = serializers.DictField(help_text=PARAMS_HELP)
    proved_at = serializers.IntegerField(allow_null=True, help_text="the log position that proved it")
    ruled_by = serializers.ListField(child=serializers.IntegerField())
    stands = serializers.BooleanField()


# Verdicts pass through as the engine gives them; these fields only give the schema their shape.
@extend_schema_field(VerdictSerializer(many=True))
class VerdictsField(serializers.JSONField):
    pass


@extend_schema_field(StandingVerdictSerializer(many=True))
class StandingVerdictsField(serializers.JSONField):
    pass


class HandStateOutputSerializer(serializers.Serializer[Any]):
    """A hand at one step: the moves so far, the engine state (holdings where known, the trick on the
    table, tricks taken, whose turn, the legal moves, the game's own fields), verdicts, rulings, result."""

    hand = serializers.IntegerField()
    number = serializers.IntegerField()
    step = serializers.IntegerField()
    steps = serializers.IntegerField()
    version = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.CharField())
    moves = serializers.JSONField()
    state = serializers.JSONField()
    verdicts = StandingVerdictsField()
    rulings = serializers.JSONField()
    result = serializers.JSONField(allow_null=True)
    flagged = serializers.BooleanField()
    legal = serializers.BooleanField()


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "pattern": NOT_BLANK, "maxLength": 120},
            {
                "type": "object",
                "properties": {"player": {"type": "integer", "minimum": 0, "maximum": ID_MAX}},
                "required": ["player"],
                "additionalProperties": False,
            },
        ]
    }
)
class SeatField(serializers.Field):  # type: ignore[type-arg]
    """A seat: a name, or ``{"player": id}`` for a club player (his name is used)."""

    def to_internal_value(self, data: Any) -> str | Player:
        if isinstance(data, str) and data.strip():
            return data
        if isinstance(data, dict) and set(data) == {"player"} and isinstance(data["player"], int):
            player = Player.objects.filter(pk=data["player"]).first()
            if player is None:
                raise serializers.ValidationError(
                    gettext("no player {id}").format(id=data["player"]), code="does_not_exist"
                )
            return player
        raise serializers.ValidationError(gettext('a seat is a name or {{"player": id}}').format())

    def to_representation(self, value: Any) -> Any:
        return value


class StrictIntegerField(serializers.IntegerField):
    """A whole number as the schema says one is: in JSON a number without a fraction (not ``true``, not
    ``"5"``, not ``5.0``); in a query string, digits only (DRF's own also takes ``0.0`` and ``""``)."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and self.context.get("query"):
            if not data.lstrip("-").isdigit() or not data.isascii():
                self.fail("invalid")
        elif isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    """A boolean as the schema says one is: JSON ``true`` or ``false`` (DRF's own also takes 0, 1, "yes",
    "on" and the like, so that ``"published": 0`` was read as false)."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


def id_field(**kwargs: Any) -> serializers.IntegerField:
    """An id, number or version in a request: what the database holds (common/converters.py), so
    that the schema's bounds are the service's own."""
    return StrictIntegerField(min_value=0, max_value=ID_MAX, **kwargs)


@extend_schema_field(move_json_schema())
class MoveField(serializers.DictField):
    """A move in its dict form (its shape is checked by the rule engine's ``move_from_dict``)."""


GAME_NAMES = tuple(game_names())  # the schema's GameName enum (SPECTACULAR_SETTINGS)


@extend_schema_field({"type": "string", "enum": list(GAME_NAMES)})
class GameNameField(serializers.CharField):
    """A game's name (an unknown one is refused by the service, naming the games it knows)."""


@extend_schema_field({"type": "object", "additionalProperties": True})
class JSONObjectField(serializers.JSONField):
    """A JSON object whose content a service checks (a record, a ruling's rectification)."""


class VersionedInput(serializers.Serializer[Any]):
    """What every write to a hand carries: the version the client saw, and optionally a key that makes
    a retry harmless (or the ``Idempotency-Key`` header)."""

    expected_version = id_field()
    idempotency_key = serializers.CharField(max_length=IDEMPOTENCY_KEY_MAX, required=False)


def validated(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """The input as ``serializer_class`` validates it; invalid input raises (a 400 naming the field).
    A query string is read as one value per name (the last), its numbers as digits only."""
    context = {}
    if isinstance(data, QueryDict):
        data, context = {name: data[name] for name in data}, {"query": True}
    serializer = serializer_class(data=data, context=context)
    if isinstance(data, dict) and not context:
        refuse_unknown_keys(data, serializer.fields)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def versioned(request: Request, serializer_class: type[VersionedInput]) -> tuple[dict[str, Any], str | None]:
    """A write to a hand: its validated body without the idempotency key, and the key (header or body)."""
    values = validated(serializer_class, request.data)
    key = idempotency_key(request, values)
    values.pop("idempotency_key", None)
    return values, key


_MOVE_INPUT_KEYS = frozenset({"expected_version", "idempotency_key", "move"})


def move_input_values(data: Any) -> dict[str, Any] | None:
    """A move's body as ``MoveAppendApi.InputSerializer`` validates it, for a body that is plainly valid:
    an object with a version in range, a move object and perhaps a key that needs no trimming. ``None``
    for anything else, which goes through the serializer and meets its errors. A move is the busiest
    request, and the serializer copied its fields and ran them one by one for what a few type checks
    settle (issue 29); tests/scoring/api/test_move_input.py holds the two to the same answers."""
    if type(data) is not dict or not data.keys() <= _MOVE_INPUT_KEYS:
        return None
    version, move = data.get("expected_version"), data.get("move")
    if type(version) is not int or not 0 <= version <= ID_MAX or type(move) is not dict:
        return None
    values: dict[str, Any] = {"expected_version": version}
    if "idempotency_key" in data:
        key = data["idempotency_key"]
        if not (
            type(key) is str
            and 0 < len(key) <= IDEMPOTENCY_KEY_MAX
            and key.isascii()
            and key.isprintable()
            and key.strip() == key
        ):
            return None
        values["idempotency_key"] = key
    values["move"] = {str(name): value for name, value in move.items()}
    return values


def idempotency_key(request: Request, data: dict[str, Any]) -> str | None:
    """The key from the header or the body; both given and different is a malformed request."""
    # Read from the WSGI environ as Django's request.headers would find it; building request.headers
    # goes through every variable of the environ, on the busiest request (issue 29).
    header = request.META.get(IDEMPOTENCY_META) or None
    if header is not None and len(header) > IDEMPOTENCY_KEY_MAX:
        raise serializers.ValidationError(
            {
                "idempotency_key": [
                    gettext("the {header} header has more than {n} characters").format(
                        header=IDEMPOTENCY_HEADER, n=IDEMPOTENCY_KEY_MAX
                    )
                ]
            }
        )
    body = data.get("idempotency_key") or None
    if header and body and header != body:
        # Each well formed, together contradictory: refused (422), as no schema can say it.
        raise Refused(
            "idempotency.mismatch",
            gettext("differs from the {header} header").format(header=IDEMPOTENCY_HEADER),
            field="idempotency_key",
        )
    return header or body


class MatchApi(APIView):
    """Base of the operations on one match: looks the match up and checks ``access``."""

    permission_classes = [MatchAccess]
    access: dict[str, str] = {"GET": "read"}

    # Whether the token's authentication reads the match with its user, in one message (scoring.api.auth):
    # for the views whose every request reads it first thing, a scorer's writes.
    match_with_token = False

    def get_match(self, match_id: int) -> Match:
        user = self.request.user
        read, kept = match_read(self.request, match_id, user)
        if not read:
            match = selectors.match_get(match_id, user)
        elif kept is None:
            raise Http404("no such match")  # as match_get answers
        else:
            match = kept
        self.check_object_permissions(self.request, match)
        return match

    def get_hand(self, match_id: int, number: int) -> Hand:
        return selectors.hand_get(self.get_match(match_id), number)

    def hand_to_write(self, match_id: int, number: int) -> Hand:
        """The hand a write names, not read yet: the service reads it under its lock (one query, not two);
        a hand that is not there answers 404 from there."""
        return Hand(match=self.get_match(match_id), number=number)

    def club_input(self, serializer_class: type[serializers.Serializer[Any]]) -> tuple[Club, dict[str, Any]]:
        """The validated body of a write in a club, with the club's permission checked: (club, the rest)."""
        values = validated(serializer_class, self.request.data)
        club = values.pop("club")
        self.check_object_permissions(self.request, club)
        return club, values


def match_detail(match: Match) -> dict[str, Any]:
    return {**MatchOutputSerializer(match).data, "sheet": selectors.match_sheet_current(match)}


# ---- games ------------------------------------------------------------------------------------------
class GameListApi(APIView):
    permission_classes: list[Any] = []

    class OutputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "Game"

        name = serializers.CharField()
        title = serializers.CharField()
        seat_counts = serializers.ListField(child=serializers.IntegerField())
        score_unit = serializers.CharField()
        options = serializers.JSONField()

    @extend_schema(operation_id="game_list", responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(selectors.game_list(), many=True).data)


# ---- matches ----------------------------------------------------------------------------------------
class MatchListCreateApi(MatchApi):
    access = {"GET": "read", "POST": "create"}

    class ListFilterSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MatchListFilter"

        club = id_field(required=False)

    class CreateInputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MatchCreateInput"

        club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all(), pk_field=id_field())
        game = GameNameField(max_length=30)
        seats = serializers.ListField(child=SeatField(), min_length=1)
        dealer = serializers.IntegerField(default=0, min_value=0, max_value=9)
        options = serializers.DictField(default=dict)
        direction = serializers.ChoiceField(
            choices=Match.Direction.choices, default=Match.Direction.ANTICLOCKWISE
        )
        title = serializers.CharField(default="", allow_blank=True, max_length=120)
        published = StrictBooleanField(default=False)
        scorers = serializers.ListField(
            child=serializers.SlugRelatedField(
                slug_field="username", queryset=get_user_model().objects.all()
            ),
            required=False,
            help_text="usernames of the club's scorers assigned to this table",
        )

    @extend_schema(
        operation_id="match_list",
        parameters=[ListFilterSerializer],
        responses=MatchOutputSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        filters = validated(self.ListFilterSerializer, request.query_params)
        matches = selectors.match_list(user=request.user, club_id=filters.get("club"))
        return Response(MatchOutputSerializer(matches, many=True).data)

    @extend_schema(
        operation_id="match_create",
        request=CreateInputSerializer,
        responses={201: MatchDetailOutputSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        club, values = self.club_input(self.CreateInputSerializer)
        match = services.match_create(club=club, actor=request.user, **values)
        return Response(match_detail(match), status=status.HTTP_201_CREATED)


class MatchDetailUpdateApi(MatchApi):
    access = {"GET": "read", "PATCH": "manage"}

    class UpdateInputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MatchUpdateInput"

        title = serializers.CharField(required=False, allow_blank=True, max_length=120)
        published = StrictBooleanField(required=False)
        scorers = serializers.ListField(
            child=serializers.SlugRelatedField(
                slug_field="username", queryset=get_user_model().objects.all()
            ),
            required=False,
        )

    @extend_schema(operation_id="match_detail", responses=MatchDetailOutputSerializer)
    def get(self, request: Request, match_id: int) -> Response:
        return Response(match_detail(self.get_match(match_id)))

    @extend_schema(
        operation_id="match_update",
        request=UpdateInputSerializer,
        responses={200: MatchDetailOutputSerializer, **WRITE_ERRORS},
    )
    def patch(self, request: Request, match_id: int) -> Response:
        """A director publishes the match (anyone may then read it), renames it or assigns its scorers."""
        match = self.get_match(match_id)
        values = validated(self.UpdateInputSerializer, request.data)
        match = services.match_update(match=match, actor=request.user, **values)
        return Response(match_detail(match))


class MatchSheetApi(MatchApi):
    @extend_schema(operation_id="match_sheet", responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, match_id: int) -> Response:
        """The game's running sheet: totals, one row per finished hand in the game's own columns."""
        return Response(selectors.match_sheet_current(self.get_match(match_id)))


# ---- hands ------------------------------------------------------------------------------------------
class HandListStartApi(MatchApi):
    access = {"GET": "read", "POST": "record"}

    class StartInputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "HandStartInput"

        dealer = serializers.IntegerField(required=False, min_value=0, max_value=9)

    @extend_schema(operation_id="hand_list", responses=HandSummarySerializer(many=True))
    def get(self, request: Request, match_id: int) -> Response:
        hands = selectors.hand_list(self.get_match(match_id))
        return Response(HandSummarySerializer(hands, many=True).data)

    @extend_schema(
        operation_id="hand_start",
        request=StartInputSerializer,
        responses={201: HandSummarySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Start the next hand (the previous one must be over); the dealer defaults to the game's rule."""
        match = self.get_match(match_id)
        values = validated(self.StartInputSerializer, request.data)
        hand = services.hand_start(match=match, dealer=values.get("dealer"), actor=request.user)
        return Response(HandSummarySerializer(hand).data, status=status.HTTP_201_CREATED)


class HandStateApi(MatchApi):
    @extend_schema(operation_id="hand_state", responses=HandStateOutputSerializer)
    def get(self, request: Request, match_id: int, number: int) -> Response:
        """The hand now: moves, state, legal moves, verdicts, rulings, result."""
        hand = self.get_hand(match_id, number)
        return Response(HandStateOutputSerializer(selectors.hand_state(hand)).data)


class HandReplayApi(MatchApi):
    @extend_schema(
        operation_id="hand_replay", responses={200: HandStateOutputSerializer, 422: ErrorSerializer}
    )
    def get(self, request: Request, match_id: int, number: int, step: int) -> Response:
        """The hand after its first ``step`` standing moves (0: before the deal), rulings applied."""
        hand = self.get_hand(match_id, number)
        return Response(HandStateOutputSerializer(selectors.hand_replay(hand, step)).data)


class HandClaimApi(MatchApi):
    class FilterSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "HandClaimFilter"

        position = serializers.IntegerField(
            required=False, min_value=1, help_text="the log position of the claim (default: the last claim)"
        )

    class OutputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "ClaimAnswer"

        verdict = serializers.ChoiceField(
            choices=["holds", "holds_with_best_play", "fails", "undecided"],
            help_text="holds even playing any card; holds only with best play; fails; or the budget ran out",
        )
        claimed = serializers.IntegerField(help_text="what the claim gives the claimer's side, in unit")
        best = serializers.IntegerField(allow_null=True, help_text="the side's result with best play")
        careless = serializers.IntegerField(
            allow_null=True, help_text="the side's least result playing any card against the best defence"
        )
        unit = serializers.CharField(help_text="tricks or points")
        line = serializers.ListField(
            child=serializers.JSONField(),
            required=False,
            help_text="the plays from the claim to the end that beat the claim (fails) or that lose it "
            "playing carelessly (holds_with_best_play); absent when it holds",
        )
        line_result = serializers.IntegerField(required=False, help_text="what the line gives the side")
        tricks_left = serializers.IntegerField()
        nodes = serializers.IntegerField(help_text="positions searched")
        elapsed_ms = serializers.FloatField()
        claimer = serializers.IntegerField()
        side = serializers.ListField(child=serializers.IntegerField())
        bounds = serializers.JSONField(
            required=False, help_text="best and careless as [low, high], when a value was not found in time"
        )
        position = serializers.IntegerField(help_text="the log position of the claim")
        step = serializers.IntegerField(help_text="the replay step just before the claim")
        claim = serializers.JSONField(help_text="the claim as recorded")

    @extend_schema(
        operation_id="hand_claim",
        parameters=[FilterSerializer],
        responses={200: OutputSerializer, 400: ErrorSerializer, 422: ErrorSerializer},
    )
    def get(self, request: Request, match_id: int, number: int) -> Response:
        """A claim of the hand decided by search: does it hold against every defence, and however the
        claimer's side plays? With the line of play that shows it (docs/rules/claims.md)."""
        filters = validated(self.FilterSerializer, request.query_params)
        hand = self.get_hand(match_id, number)
        return Response(
            self.OutputSerializer(selectors.hand_claim(hand, position=filters.get("position"))).data
        )


class HandAuditApi(MatchApi):
    class OutputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "AuditEvent"

        version = serializers.IntegerField()
        type = serializers.CharField()
        by = serializers.CharField()
        at = serializers.DateTimeField()
        payload = serializers.JSONField()

    @extend_schema(operation_id="hand_audit", responses=OutputSerializer(many=True))
    def get(self, request: Request, match_id: int, number: int) -> Response:
        """Every event of the hand, undone moves and rulings included: what, who, when."""
        hand = self.get_hand(match_id, number)
        return Response(self.OutputSerializer(selectors.hand_audit(hand), many=True).data)


# ---- moves and undo ---------------------------------------------------------------------------------
class MoveAppendApi(MatchApi):
    access = {"POST": "record"}
    match_with_token = True

    class InputSerializer(VersionedInput):
        class Meta:
            ref_name = "MoveAppendInput"

        move = MoveField(help_text='the move in its dict form: {"type": "play", "seat": 0, "card": "3S"}')

    class OutputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MoveAppendOutput"

        version = serializers.IntegerField(help_text="the stream version (position) of the move")
        replayed = serializers.BooleanField(help_text="an idempotent retry: nothing new was written")
        verdicts = VerdictsField(help_text="the irregularities the move drew (recorded, not refused)")
        hand = HandSummarySerializer()
        state = HandStateOutputSerializer()

    @extend_schema(
        operation_id="move_append",
        request=InputSerializer,
        parameters=[OpenApiParameter(IDEMPOTENCY_HEADER, str, OpenApiParameter.HEADER)],
        responses={201: OutputSerializer, 200: OutputSerializer, **VERSIONED_ERRORS},
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        """Append a move at ``expected_version``. A keying error is refused (400/422) with nothing
        written; a rule irregularity is recorded with its verdicts and flags the hand (refused with 422
        at a strict table); a stale version answers 409 with the current one."""
        hand = self.hand_to_write(match_id, number)
        values = move_input_values(request.data)
        if values is None:  # anything unusual: the serializer says what is wrong, or what it reads
            values = validated(self.InputSerializer, request.data)
        key = idempotency_key(request, values)
        outcome = services.move_record(
            hand=hand,
            move=values["move"],
            expected_version=values["expected_version"],
            idempotency_key=key,
            actor=request.user,
        )
        # Built as plain values (the OutputSerializer gives the schema): a move is the busiest request,
        # and the serializer machinery would cost more than the move.
        body = {
            "version": outcome.version,
            "replayed": outcome.replayed,
            "verdicts": [v.as_dict() for v in outcome.verdicts],
            "hand": hand_summary(outcome.hand),
            "state": selectors.hand_state(outcome.hand, outcome.view),
        }
        code = status.HTTP_200_OK if outcome.replayed else status.HTTP_201_CREATED
        return Response(body, status=code)


class QueuedMoveSerializer(serializers.Serializer[Any]):
    class Meta:
        ref_name = "QueuedMove"

    move = MoveField(help_text='the move in its dict form: {"type": "play", "seat": 0, "card": "3S"}')
    idempotency_key = serializers.CharField(max_length=IDEMPOTENCY_KEY_MAX, allow_blank=False)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            refuse_unknown_keys(data, self.fields)
        return super().to_internal_value(data)


class QueuedMoveRecordedSerializer(serializers.Serializer[Any]):
    class Meta:
        ref_name = "QueuedMoveRecorded"

    version = serializers.IntegerField(help_text="the stream version (position) of the move")
    replayed = serializers.BooleanField(help_text="sent before: nothing new was written")
    verdicts = VerdictsField(help_text="the irregularities the move drew (recorded, not refused)")


class QueuedMoveRefusedSerializer(ErrorSerializer):
    class Meta:
        ref_name = "QueuedMoveRefused"

    index = serializers.IntegerField(help_text="the refused move's position in the queue (from 0)")
    status = serializers.IntegerField(help_text="what the move alone would have answered: 400, 409, 422")
    expected_version = serializers.IntegerField(required=False)
    current_version = serializers.IntegerField(required=False)


QUEUE_MAX = 500  # moves in one queue sent at once (a whole hand of any game is far fewer)


class MoveQueueApi(MatchApi):
    """A device's queue of moves, recorded in one request (issue 27, docs/offline.md)."""

    access = {"POST": "record"}
    match_with_token = True

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MoveQueueInput"

        expected_version = id_field(help_text="the hand's version the first move expects")
        moves = serializers.ListField(
            child=QueuedMoveSerializer(),
            min_length=1,
            max_length=QUEUE_MAX,
            help_text="the moves in the order they were tapped, each with its own idempotency key",
        )

    class OutputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MoveQueueOutput"

        version = serializers.IntegerField(help_text="the version to send next as expected_version")
        recorded = QueuedMoveRecordedSerializer(
            many=True, help_text="the moves recorded, in the queue's order"
        )
        refused = QueuedMoveRefusedSerializer(
            allow_null=True, help_text="the first move refused; null: all recorded"
        )
        hand = HandSummarySerializer()
        state = HandStateOutputSerializer(help_text="the hand after the moves recorded")

    @extend_schema(
        operation_id="move_queue",
        request=InputSerializer,
        responses={200: OutputSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        """Record a queue of moves kept on a device while the network was away, in order: the move at
        position i is expected at the version the one before it left (``expected_version`` for the
        first), each checked by the engine and committed on its own. The first move refused stops the
        queue (``refused``: its position and the error it alone would have answered, 400, 409 or 422);
        the moves before it stay recorded, the ones after it are not tried. A queue sent again after its
        answer was lost is recognised by its keys: the moves already recorded answer ``replayed``."""
        hand = self.hand_to_write(match_id, number)
        values = validated(self.InputSerializer, request.data)
        outcome = services.moves_record(
            hand=hand,
            moves=[(m["move"], m["idempotency_key"]) for m in values["moves"]],
            expected_version=values["expected_version"],
            actor=request.user,
        )
        refused = None
        if outcome.refused is not None:
            index, exc = outcome.refused
            answer = error_answer(exc, {"request": request, "view": self})
            assert answer is not None  # every queue refusal has its error body
            refused = {"index": index, "status": answer.status_code, **answer.data}
        if outcome.outcomes:
            last, view = outcome.outcomes[-1].hand, outcome.outcomes[-1].view
        else:
            last, view = selectors.hand_get(hand.match, number), None
        body = {
            "version": outcome.version,
            "recorded": [
                {"version": o.version, "replayed": o.replayed, "verdicts": [v.as_dict() for v in o.verdicts]}
                for o in outcome.outcomes
            ],
            "refused": refused,
            "hand": hand_summary(last),
            "state": selectors.hand_state(last, view),
        }
        return Response(body, status=status.HTTP_200_OK)


class MoveUndoApi(MatchApi):
    access = {"POST": "record"}

    class InputSerializer(VersionedInput):
        class Meta:
            ref_name = "MoveUndoInput"

        reason = serializers.CharField(default="", allow_blank=True, max_length=500)

    @extend_schema(
        operation_id="move_undo",
        request=InputSerializer,
        parameters=[OpenApiParameter(IDEMPOTENCY_HEADER, str, OpenApiParameter.HEADER)],
        responses={201: HandSummarySerializer, **VERSIONED_ERRORS},
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        """Take back the last move that stands (a scorer his own; a director any), while no ruling came
        after it and the next hand has not started. The move stays in the audit trail."""
        hand = self.get_hand(match_id, number)
        values, key = versioned(request, self.InputSerializer)
        hand = services.move_undo(
            hand=hand,
            expected_version=values["expected_version"],
            reason=values["reason"],
            idempotency_key=key,
            actor=request.user,
        )
        return Response(HandSummarySerializer(hand).data, status=status.HTTP_201_CREATED)


# ---- rulings ----------------------------------------------------------------------------------------
class RulingOutputSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    refs = serializers.ListField(child=serializers.IntegerField())
    rule = serializers.CharField()
    reason = serializers.CharField()
    rectification = serializers.JSONField()
    by = serializers.CharField()


class RulingInput(serializers.Serializer[Any]):
    refs = serializers.ListField(
        child=id_field(), min_length=1, help_text="positions (stream versions) of the moves"
    )
    rule = serializers.CharField(max_length=services.RULE_MAX)
    reason = serializers.CharField(max_length=services.REASON_MAX)
    rectification = serializers.DictField(
        help_text="stands | dismiss | replace_move {move} | transfer_tricks {from_seat, to_seat, count} | "
        "penalty {scores} | assign_score {scores} | settle_claim {line}, as {'kind': ..., ...}"
    )


class RulingListRecordApi(MatchApi):
    access = {"GET": "read", "POST": "rule"}

    class RecordInputSerializer(RulingInput, VersionedInput):
        class Meta:
            ref_name = "RulingRecordInput"

    @extend_schema(operation_id="ruling_list", responses=RulingOutputSerializer(many=True))
    def get(self, request: Request, match_id: int, number: int) -> Response:
        hand = self.get_hand(match_id, number)
        return Response(RulingOutputSerializer(selectors.hand_state(hand)["rulings"], many=True).data)

    @extend_schema(
        operation_id="ruling_record",
        request=RecordInputSerializer,
        parameters=[OpenApiParameter(IDEMPOTENCY_HEADER, str, OpenApiParameter.HEADER)],
        responses={201: HandStateOutputSerializer, **VERSIONED_ERRORS},
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        """A director's ruling on the referenced moves; the original moves stay in the log."""
        hand = self.get_hand(match_id, number)
        values, key = versioned(request, self.RecordInputSerializer)
        hand = services.ruling_record(hand=hand, idempotency_key=key, actor=request.user, **values)
        return Response(
            HandStateOutputSerializer(selectors.hand_state(hand)).data, status=status.HTTP_201_CREATED
        )


class RulingPreviewApi(MatchApi):
    access = {"POST": "rule"}

    class InputSerializer(RulingInput):
        """The ruling's own body may be previewed as it will be sent: its version and key are read
        (and must be well formed) but nothing is written, so they are not used."""

        class Meta:
            ref_name = "RulingPreviewInput"

        expected_version = id_field(required=False)
        idempotency_key = serializers.CharField(max_length=IDEMPOTENCY_KEY_MAX, required=False)

    @extend_schema(
        operation_id="ruling_preview",
        request=InputSerializer,
        responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        """The hand's score and the match sheet before and after the ruling; nothing is written."""
        hand = self.get_hand(match_id, number)
        values = validated(self.InputSerializer, request.data)
        values.pop("expected_version", None)
        values.pop("idempotency_key", None)
        return Response(services.ruling_preview(hand=hand, actor=request.user, **values))


# ---- records ----------------------------------------------------------------------------------------
class HandExportApi(MatchApi):
    @extend_schema(operation_id="hand_export", responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, match_id: int, number: int) -> Response:
        """The hand as a record (``segnapunti.hand``, docs/record-format.md)."""
        return Response(selectors.hand_export(self.get_hand(match_id, number)))


class MatchExportApi(MatchApi):
    @extend_schema(operation_id="match_export", responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, match_id: int) -> Response:
        """The match as a record (``segnapunti.match``, docs/record-format.md)."""
        return Response(selectors.match_export(self.get_match(match_id)))


class MatchRescoreApi(MatchApi):
    access = {"POST": "read"}
    # Folding a whole match again: a reader may not keep a worker busy with it.
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "record_check"

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MatchRescoreInput"

        options = JSONObjectField(help_text="the options to change, put over the match's recorded ones")

    @extend_schema(
        operation_id="match_rescore",
        request=InputSerializer,
        responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 422: ErrorSerializer},
    )
    def post(self, request: Request, match_id: int) -> Response:
        """What if: the match's recorded moves scored again under other options of its game, hand by hand
        beside the sheet (``what_if: true``, ``official: false``). Nothing is written: the match and its log
        stay as they are. A move that cannot stand under those options is named in ``refused``."""
        match = self.get_match(match_id)
        values = validated(self.InputSerializer, request.data)
        return Response(selectors.match_rescore(match, values["options"]))


class RecordImportApi(MatchApi):
    access = {"POST": "import"}

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "RecordImportInput"

        club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all(), pk_field=id_field())
        record = JSONObjectField(help_text="a hand or match record")
        title = serializers.CharField(default="", allow_blank=True, max_length=120)
        published = StrictBooleanField(default=False)

    @extend_schema(
        operation_id="record_import",
        request=InputSerializer,
        responses={201: MatchDetailOutputSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        """Create a match from a record: every move and ruling is checked as if recorded live."""
        club, values = self.club_input(self.InputSerializer)
        match = services.match_import(club=club, actor=request.user, **values)
        return Response(match_detail(match), status=status.HTTP_201_CREATED)


class RecordCheckApi(APIView):
    permission_classes = [IsAuthenticated]
    # Checking folds a whole record through the engine: a user may not keep a worker busy with it.
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "record_check"

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "RecordCheckInput"

        record = JSONObjectField(help_text="a hand or match record")

    @extend_schema(
        operation_id="record_check",
        request=InputSerializer,
        responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        """Check a record without storing it: what ``manage.py replay`` prints."""
        values = validated(self.InputSerializer, request.data)
        return Response(records.check(values["record"]))
