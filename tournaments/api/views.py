"""The tournament API: tournaments and leagues, registrations, rounds and their tables, standings (JSON
and CSV), the audit trail, and players' ratings.

One view per operation, as in :mod:`scoring.api.views` (whose input helpers it shares, and the error
bodies of :mod:`common.api`): a view validates its input, checks the permission
(:mod:`tournaments.permissions`), calls one service, selector or task, and serializes. Every write
carries the ``expected_version`` of the tournament's stream: a stale one answers 409 with the current
version, so two directors cannot open the same round twice.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Club, Player
from common.api import VERSIONED_ERRORS, WRITE_ERRORS, ErrorSerializer
from scoring.api.views import GameNameField, StrictBooleanField, id_field, validated
from tournaments import permissions, selectors, services
from tournaments.models import Tournament
from tournaments.plan.standings import METRICS, SCORING_METHODS

# ---- permissions -------------------------------------------------------------------------------------


class TournamentAccess(BasePermission):
    """Reads are open (the tournament's own visibility is checked on the object: an unreadable one is a
    404); writes need a signed-in director of the club (403 otherwise, 401 without credentials)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return _need(request, view) == "read" or bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        need = _need(request, view)
        if isinstance(obj, Club):
            return permissions.can_create(request.user, obj)
        assert isinstance(obj, Tournament)
        if not permissions.can_read(request.user, obj):
            raise NotFound(gettext("no such tournament"))
        return need == "read" or permissions.can_direct(request.user, obj)


def _need(request: Request, view: Any) -> str:
    access: dict[str, str] = getattr(view, "access", {})
    return access.get(request.method or "", "read")


class TournamentApi(APIView):
    permission_classes = [TournamentAccess]
    access: dict[str, str] = {"GET": "read"}

    def get_tournament(self, tournament_id: int) -> Tournament:
        tournament = selectors.tournament_get(tournament_id)
        self.check_object_permissions(self.request, tournament)
        return tournament


# ---- serializers -------------------------------------------------------------------------------------
class Versioned(serializers.Serializer[Any]):
    expected_version = id_field(help_text="the tournament's version as the client last read it")


class RegistrationSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.IntegerField()
    guest = serializers.BooleanField()
    active = serializers.BooleanField()


class RoundSummarySerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField()
    tables = serializers.IntegerField()
    seed = serializers.IntegerField()


class TournamentSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    club = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    director = serializers.CharField(allow_null=True)
    games = serializers.ListField(child=serializers.CharField())
    game_options = serializers.JSONField()
    scoring = serializers.CharField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    sit_out_score = serializers.CharField()
    seed = serializers.IntegerField()
    rounds_planned = serializers.IntegerField(allow_null=True)
    forbidden_pairs = serializers.JSONField()
    tressette_tables = serializers.CharField()
    published = serializers.BooleanField()
    scorers = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    registrations = RegistrationSerializer(many=True)
    rounds = RoundSummarySerializer(many=True)


class TableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    match = serializers.IntegerField()
    players = serializers.JSONField(help_text="in seat order: [{player, name}]")
    dealer = serializers.IntegerField(help_text="the seat (0-based) that deals first")
    pairs = serializers.JSONField(allow_null=True, help_text="Tressette at four: the partnerships")
    progress = serializers.ChoiceField(choices=["in_play", "finished", "abandoned"])
    hands_finished = serializers.IntegerField()
    flagged = serializers.IntegerField(help_text="hands with an irregularity waiting for a ruling")
    abandon_reason = serializers.CharField()


class RoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    game = serializers.CharField()
    seed = serializers.IntegerField(
        help_text="the seed of the plan the seating comes from: the same seed and history give the same plan"
    )
    status = serializers.CharField()
    repeats = serializers.IntegerField(
        help_text="repeated meetings this round adds (pairs that met before), which could not be avoided"
    )
    opened_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    tables = TableSerializer(many=True)
    sit_outs = serializers.JSONField()


class StandingsSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    published = serializers.BooleanField()
    games = serializers.ListField(child=serializers.CharField())
    scoring = serializers.CharField()
    precedence = serializers.ListField(child=serializers.CharField())
    metrics = serializers.JSONField(help_text="each criterion: key, name, abbr, direction")
    rows = serializers.JSONField(
        help_text="rank, player, name, values by criterion, tables, sit_outs, withdrawn, ratings by game, "
        "and why_above: why the row above is above this one (key, above, below, equal_on, text)"
    )
    notes = serializers.JSONField(help_text="abandoned tables, tables a ruling reopened or changed")
    position = serializers.IntegerField(help_text="the global log position of the latest event included")
    as_of = serializers.DateTimeField(allow_null=True, help_text="when that event was recorded")
    updated_at = serializers.DateTimeField()


class StandingsExportSerializer(StandingsSerializer):
    language = serializers.CharField(help_text="the language of the labels")
    labels = serializers.JSONField(
        help_text="the column headers by key: rank, player, tables, sit_outs, why_above_next"
    )
    metrics = serializers.JSONField(
        help_text="each criterion: key, name, abbr, direction, and label, abbr_label in the reader's language"
    )
    rows = serializers.JSONField(
        help_text="as in the standings; each why_above also has label, its sentence in the reader's language"
    )
    notes = serializers.JSONField(help_text="as in the standings, each with label in the reader's language")


STANDINGS_EXAMPLE = OpenApiExample(
    "Two players separated on the second criterion",
    value={
        "tournament": 1,
        "name": "Torneo d'autunno",
        "published": True,
        "games": ["barbu"],
        "scoring": "natural",
        "precedence": ["total", "tables_won", "lot"],
        "metrics": [
            {"key": "total", "name": "total", "abbr": "Tot", "direction": "descending"},
            {"key": "tables_won", "name": "tables won", "abbr": "Won", "direction": "descending"},
            {"key": "lot", "name": "lot", "abbr": "Lot", "direction": "descending"},
        ],
        "rows": [
            {
                "rank": 1,
                "player": 7,
                "name": "Bianchi",
                "values": {"total": 42, "tables_won": 3},
                "why_above": None,
            },
            {
                "rank": 2,
                "player": 3,
                "name": "Rossi",
                "values": {"total": 42, "tables_won": 2},
                "why_above": {
                    "key": "tables_won",
                    "above": 3,
                    "below": 2,
                    "equal_on": [["total", 42]],
                    "text": "Bianchi above Rossi: equal on total 42; tables won 3 against 2",
                },
            },
        ],
        "notes": [],
        "position": 5120,
        "as_of": "2026-11-24T21:42:00+01:00",
        "updated_at": "2026-11-24T21:42:01+01:00",
    },
    response_only=True,
)


SEED_MAX = 2**63 - 1  # what the seed's column holds


def _user_field() -> serializers.SlugRelatedField[Any]:
    return serializers.SlugRelatedField(slug_field="username", queryset=get_user_model().objects.all())


# ---- tournaments -------------------------------------------------------------------------------------
class TournamentListCreateApi(TournamentApi):
    access = {"GET": "read", "POST": "create"}

    class ListFilterSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "TournamentListFilter"

        club = id_field(required=False)
        kind = serializers.ChoiceField(choices=Tournament.Kind.choices, required=False)

    class CreateInputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "TournamentCreateInput"

        club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all(), pk_field=id_field())
        name = serializers.CharField(max_length=120)
        kind = serializers.ChoiceField(choices=Tournament.Kind.choices, default=Tournament.Kind.TOURNAMENT)
        games = serializers.ListField(child=GameNameField(max_length=30), min_length=1, max_length=10)
        game_options = serializers.DictField(
            child=serializers.DictField(),
            default=dict,
            help_text="options per game: {game: {option: value}}",
        )
        scoring = serializers.ChoiceField(choices=list(SCORING_METHODS), default="natural")
        tiebreaks = serializers.ListField(
            child=serializers.ChoiceField(choices=list(METRICS)),
            required=False,
            help_text="criteria in order (the lot always ends the list); default: the game's usual order",
        )
        sit_out_score = serializers.CharField(default="0", max_length=30, help_text="e.g. 6 or 13/2")
        seed = serializers.IntegerField(
            required=False, min_value=0, max_value=SEED_MAX, help_text="seats and the lot (default: random)"
        )
        rounds_planned = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=99)
        forbidden_pairs = serializers.ListField(
            child=serializers.ListField(child=id_field(), min_length=2, max_length=2),
            default=list,
            help_text="pairs of player ids never seated at one table (family)",
        )
        tressette_tables = serializers.ChoiceField(
            choices=Tournament.TressetteTables.values,
            default=Tournament.TressetteTables.MIXED,
            help_text="Tressette's tables: 4 in pairs or 3 alone as the count needs (mixed), pairs or solo",
        )
        published = StrictBooleanField(default=False)
        scorers = serializers.ListField(child=_user_field(), default=list)

    @extend_schema(
        operation_id="tournament_list",
        parameters=[ListFilterSerializer],
        responses=TournamentSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        filters = validated(self.ListFilterSerializer, request.query_params)
        found = permissions.readable(request.user)
        if "club" in filters:
            found = found.filter(club_id=filters["club"])
        if "kind" in filters:
            found = found.filter(kind=filters["kind"])
        return Response([selectors.tournament_detail(t) for t in found.order_by("-created_at")])

    @extend_schema(
        operation_id="tournament_create",
        request=CreateInputSerializer,
        responses={201: TournamentSerializer, **WRITE_ERRORS},
        examples=[
            OpenApiExample(
                "A Barbù evening of four rounds",
                value={
                    "club": 1,
                    "name": "Barbù del martedì",
                    "games": ["barbu"],
                    "rounds_planned": 4,
                    "tiebreaks": ["total", "tables_won", "head_to_head"],
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        """A director sets up a tournament or a league at his club."""
        values = validated(self.CreateInputSerializer, request.data)
        club = values.pop("club")
        self.check_object_permissions(request, club)
        tournament = services.tournament_create(club=club, actor=request.user, **values)
        return Response(selectors.tournament_detail(tournament), status=status.HTTP_201_CREATED)


class TournamentDetailUpdateApi(TournamentApi):
    access = {"GET": "read", "PATCH": "direct"}

    class UpdateInputSerializer(Versioned):
        class Meta:
            ref_name = "TournamentUpdateInput"

        reason = serializers.CharField(
            default="", allow_blank=True, max_length=2000, help_text="required once round 1 is open"
        )
        name = serializers.CharField(required=False, max_length=120)
        game_options = serializers.DictField(
            child=serializers.DictField(),
            required=False,
            help_text="options per game: {game: {option: value}}",
        )
        scoring = serializers.ChoiceField(choices=list(SCORING_METHODS), required=False)
        tiebreaks = serializers.ListField(
            child=serializers.ChoiceField(choices=list(METRICS)), required=False
        )
        sit_out_score = serializers.CharField(required=False, max_length=30)
        rounds_planned = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=99)
        forbidden_pairs = serializers.ListField(
            child=serializers.ListField(child=id_field(), min_length=2, max_length=2),
            required=False,
        )
        tressette_tables = serializers.ChoiceField(choices=Tournament.TressetteTables.values, required=False)
        scorers = serializers.ListField(
            child=_user_field(),
            required=False,
            help_text="usernames: the scorers of the evening (the tables still in play follow)",
        )

    @extend_schema(operation_id="tournament_detail", responses=TournamentSerializer)
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(selectors.tournament_detail(self.get_tournament(tournament_id)))

    @extend_schema(
        operation_id="tournament_update",
        request=UpdateInputSerializer,
        responses={200: TournamentSerializer, **VERSIONED_ERRORS},
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        """Change the settings. After round 1, changing the scoring, the tie-breaks or the sit-out score
        needs a reason: the change, who made it and why stay in the tournament's log."""
        tournament = self.get_tournament(tournament_id)
        values = validated(self.UpdateInputSerializer, request.data)
        tournament = services.tournament_update(tournament=tournament, actor=request.user, **values)
        return Response(selectors.tournament_detail(tournament))


class TournamentAuditApi(TournamentApi):
    class OutputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "TournamentEvent"

        version = serializers.IntegerField()
        type = serializers.CharField()
        by = serializers.CharField()
        at = serializers.DateTimeField()
        payload = serializers.JSONField()

    @extend_schema(operation_id="tournament_audit", responses=OutputSerializer(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        """Every decision on the tournament, in order: what, who, when, and why."""
        tournament = self.get_tournament(tournament_id)
        return Response(self.OutputSerializer(selectors.tournament_audit(tournament), many=True).data)


class TournamentPublishApi(TournamentApi):
    access = {"POST": "direct"}

    class InputSerializer(Versioned):
        class Meta:
            ref_name = "TournamentPublishInput"

        published = StrictBooleanField(default=True)

    @extend_schema(
        operation_id="tournament_publish",
        request=InputSerializer,
        responses={200: TournamentSerializer, **VERSIONED_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """Publish the standings (anyone may read them), or take them back to members only."""
        tournament = self.get_tournament(tournament_id)
        values = validated(self.InputSerializer, request.data)
        tournament = services.standings_publish(tournament=tournament, actor=request.user, **values)
        return Response(selectors.tournament_detail(tournament))


# ---- registrations -----------------------------------------------------------------------------------
class RegistrationListCreateApi(TournamentApi):
    access = {"GET": "read", "POST": "direct"}

    class InputSerializer(Versioned):
        class Meta:
            ref_name = "RegistrationInput"

        player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), pk_field=id_field())
        guest = StrictBooleanField(default=False, help_text="a player of another club")

    @extend_schema(operation_id="registration_list", responses=RegistrationSerializer(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(selectors.registration_list(self.get_tournament(tournament_id)))

    @extend_schema(
        operation_id="registration_create",
        request=InputSerializer,
        responses={201: TournamentSerializer, **VERSIONED_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """Register a club member, or a player of another club as a guest. Twice is refused."""
        tournament = self.get_tournament(tournament_id)
        values = validated(self.InputSerializer, request.data)
        services.player_register(tournament=tournament, actor=request.user, **values)
        tournament.refresh_from_db()
        return Response(selectors.tournament_detail(tournament), status=status.HTTP_201_CREATED)


class RegistrationWithdrawApi(TournamentApi):
    access = {"POST": "direct"}

    class InputSerializer(Versioned):
        class Meta:
            ref_name = "WithdrawInput"

        reason = serializers.CharField(max_length=2000)

    @extend_schema(
        operation_id="registration_withdraw",
        request=InputSerializer,
        responses={200: TournamentSerializer, **VERSIONED_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, player_id: int) -> Response:
        """The player is seated no more from the next round on; his results so far keep counting."""
        tournament = self.get_tournament(tournament_id)
        values = validated(self.InputSerializer, request.data)
        player = selectors.player_get(player_id)
        services.player_withdraw(tournament=tournament, player=player, actor=request.user, **values)
        tournament.refresh_from_db()
        return Response(selectors.tournament_detail(tournament))


# ---- rounds ------------------------------------------------------------------------------------------
class RoundListOpenApi(TournamentApi):
    access = {"GET": "read", "POST": "direct"}

    class InputSerializer(Versioned):
        class Meta:
            ref_name = "RoundOpenInput"

        game = GameNameField(required=False, max_length=30, help_text="needed when there are several")
        seed = serializers.IntegerField(
            required=False,
            min_value=0,
            max_value=SEED_MAX,
            help_text="the seating's seed (default: from the tournament's)",
        )

    @extend_schema(operation_id="round_list", responses=RoundSerializer(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(selectors.round_list(self.get_tournament(tournament_id)))

    @extend_schema(
        operation_id="round_open",
        request=InputSerializer,
        responses={201: RoundSerializer, **VERSIONED_ERRORS},
        examples=[OpenApiExample("Open the next round", value={"expected_version": 14}, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """Seat the next round: the tables, their first dealers and (Tressette) pairs, the sit-outs, and a
        match per table, created for the scorers to open. Refused while a round is open or with fewer
        players than one table."""
        tournament = self.get_tournament(tournament_id)
        values = validated(self.InputSerializer, request.data)
        rnd = services.round_open(tournament=tournament, actor=request.user, **values)
        return Response(selectors.round_detail(rnd), status=status.HTTP_201_CREATED)


class RoundDetailApi(TournamentApi):
    @extend_schema(operation_id="round_detail", responses={200: RoundSerializer, 404: ErrorSerializer})
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        """The round's tables and how far each has got."""
        rnd = selectors.round_get(self.get_tournament(tournament_id), number)
        return Response(selectors.round_detail(rnd))


class RoundCloseApi(TournamentApi):
    access = {"POST": "direct"}

    class InputSerializer(Versioned):
        class Meta:
            ref_name = "RoundCloseInput"

    @extend_schema(
        operation_id="round_close",
        request=InputSerializer,
        responses={200: RoundSerializer, **VERSIONED_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        """Close the round: every table has finished its match or was recorded as abandoned."""
        tournament = self.get_tournament(tournament_id)
        values = validated(self.InputSerializer, request.data)
        rnd = services.round_close(tournament=tournament, round_number=number, actor=request.user, **values)
        return Response(selectors.round_detail(rnd))


class TableAbandonApi(TournamentApi):
    access = {"POST": "direct"}

    class InputSerializer(Versioned):
        class Meta:
            ref_name = "TableAbandonInput"

        reason = serializers.CharField(max_length=2000)

    @extend_schema(
        operation_id="table_abandon",
        request=InputSerializer,
        responses={200: RoundSerializer, **VERSIONED_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int, table: int) -> Response:
        """Record a table's match as abandoned (it counts nothing), so that the round can close."""
        tournament = self.get_tournament(tournament_id)
        values = validated(self.InputSerializer, request.data)
        services.table_abandon(
            tournament=tournament, round_number=number, table_number=table, actor=request.user, **values
        )
        return Response(selectors.round_detail(selectors.round_get(tournament, number)))


# ---- standings ---------------------------------------------------------------------------------------
class StandingsApi(TournamentApi):
    @extend_schema(
        operation_id="standings_detail",
        responses={200: StandingsSerializer, 404: ErrorSerializer},
        examples=[STANDINGS_EXAMPLE],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """The standings, with why each row is below the one above, notes on tables and ratings."""
        return Response(selectors.standings(self.get_tournament(tournament_id), user=request.user))


class StandingsWhatifApi(TournamentApi):
    access = {"POST": "read"}

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "StandingsWhatifInput"

        scoring = serializers.CharField(required=False)
        tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)
        sit_out_score = serializers.CharField(required=False, max_length=30)
        game_options = serializers.DictField(required=False)

    @extend_schema(
        operation_id="standings_whatif",
        request=InputSerializer,
        responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """What if: the standings computed again from the log under another scoring, precedence, sit-out
        score or game options, each row with its place as it stands (``rank_before``) and ``moved``. A
        read: nothing is written, and the answer says ``what_if: true``, ``official: false``."""
        tournament = self.get_tournament(tournament_id)
        values = validated(self.InputSerializer, request.data)
        changes = services.whatif_changes(tournament, values)
        return Response(selectors.standings_whatif(tournament, changes))


class StandingsCsvRenderer(BaseRenderer):
    """Standings as CSV for a spreadsheet. The byte-order mark tells spreadsheets the file is UTF-8, so
    that "Niccolò" opens as "Niccolò"; an error body becomes a two-column CSV of its code and message."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        if isinstance(data, dict) and "rows" in data:
            text = selectors.standings_csv(data)
        else:
            text = selectors.error_csv(data)
        return ("\ufeff" + text).encode("utf-8")


class StandingsExportApi(TournamentApi):
    renderer_classes = [StandingsCsvRenderer, JSONRenderer]

    @extend_schema(
        operation_id="standings_export",
        parameters=[OpenApiParameter("format", str, enum=["csv", "json"], description="default csv")],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="UTF-8 with a byte-order mark"),
            (200, "application/json"): StandingsExportSerializer,
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """The standings as a file to download: CSV (the default) or JSON, in the reader's language
        (Accept-Language): the CSV's headers, criteria and sentences; in the JSON, labels beside the
        stable machine keys."""
        tournament = self.get_tournament(tournament_id)
        fmt = request.accepted_renderer.format
        response = Response(selectors.standings_export(tournament, user=request.user))
        response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.{fmt}"'
        return response


class StandingsRebuildApi(TournamentApi):
    access = {"POST": "direct"}

    @extend_schema(operation_id="standings_rebuild", request=None, responses={202: OpenApiTypes.OBJECT})
    def post(self, request: Request, tournament_id: int) -> Response:
        """Compute the standings again from the event log (a worker does it)."""
        tournament = self.get_tournament(tournament_id)
        queued = services.standings_rebuild_queue(tournament=tournament)
        return Response({"queued": queued}, status=status.HTTP_202_ACCEPTED)


class StandingsLineSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    club = serializers.IntegerField()
    games = serializers.ListField(child=serializers.CharField())
    published = serializers.BooleanField()
    players = serializers.IntegerField()
    leader = serializers.CharField(allow_null=True)
    as_of = serializers.DateTimeField(allow_null=True)


class StandingsListApi(APIView):
    permission_classes: list[Any] = []

    @extend_schema(operation_id="standings_list", responses=StandingsLineSerializer(many=True))
    def get(self, request: Request) -> Response:
        """Every tournament the caller may read, with its leader and how fresh its standings are."""
        return Response(selectors.standings_list(permissions.readable(request.user)))


# ---- players -----------------------------------------------------------------------------------------
class PlayerRatingsApi(APIView):
    permission_classes: list[Any] = []

    @extend_schema(operation_id="player_ratings", responses={200: OpenApiTypes.OBJECT, 404: ErrorSerializer})
    def get(self, request: Request, player_id: int) -> Response:
        """The player's rating in each game (openskill: mu, sigma, ordinal = mu - 3 sigma) and its history
        after each match."""
        return Response(selectors.player_ratings(selectors.player_get(player_id), user=request.user))
