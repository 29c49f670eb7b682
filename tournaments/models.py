"""Leagues and tournaments: read models of each tournament's event stream (tournaments/events.py), written
in the same transaction as the append. Standings and ratings are projections of the finished matches."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player


class Tournament(models.Model):
    """A league (a season of club evenings) or a tournament (rounds on a day or a weekend)."""

    class Kind(models.TextChoices):
        LEAGUE = "league", _("league")
        TOURNAMENT = "tournament", _("tournament")

    class Scoring(models.TextChoices):
        NATURAL = "natural", _("the game's own total")
        RANK_POINTS = "rank_points", _("rank points at each table")

    class TressetteTables(models.TextChoices):
        MIXED = "mixed", _("4 in pairs or 3 alone, as the count of players needs")
        PAIRS = "pairs", _("4 in pairs only (the others sit out)")
        SOLO = "solo", _("3 alone only (the others sit out)")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.TOURNAMENT)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    games = models.JSONField(default=list)
    game_options = models.JSONField(default=dict, blank=True)
    scoring = models.CharField(max_length=12, choices=Scoring.choices, default=Scoring.NATURAL)
    tiebreaks = models.JSONField(default=list)
    sit_out_score = models.CharField(max_length=30, default="0")
    seed = models.BigIntegerField(default=0)
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    forbidden_pairs = models.JSONField(default=list, blank=True)
    tressette_tables = models.CharField(
        max_length=6, choices=TressetteTables.choices, default=TressetteTables.MIXED
    )
    published = models.BooleanField(default=False)
    scorers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="scored_tournaments")
    version = models.PositiveIntegerField(default=0)  # of its event stream
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def stream_id(self) -> str:
        """The tournament's event stream (``tournaments.events``)."""
        return f"tournament-{self.pk}"


class Registration(models.Model):
    """A player entered in a tournament: a member of its club, or a guest from another club."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    guest = models.BooleanField(default=False)
    active = models.BooleanField(default=True)
    registered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="registration_unique_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Round(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=30)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    repeats = models.PositiveIntegerField(default=0)  # repeated meetings this round adds, not avoidable
    opened_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_position = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class KeptSeating(models.Model):
    """The seating planned ahead for a tournament's next rounds, kept while its players, the game and
    the forbidden pairs stay the same: a round opened from it needs no planning (``docs/seating.md``).

    ``rounds`` holds, from round ``first_round`` on, each round's tables (players in seat order, first
    dealer, pairs), sit-outs and the repeats that round adds; ``key`` digests what the plan was made
    for. While a worker plans, ``status`` is planning and ``opening`` the round it will open."""

    class Status(models.TextChoices):
        PLANNING = "planning", _("planning")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="kept_seating")
    key = models.CharField(max_length=64, blank=True)
    first_round = models.PositiveSmallIntegerField(default=1)
    seed = models.BigIntegerField(default=0)
    rounds = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READY)
    opening = models.PositiveSmallIntegerField(null=True, blank=True)
    message = models.CharField(max_length=500, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"seating kept for {self.tournament} from round {self.first_round}"


class Table(models.Model):
    """A table of a round and the match recorded there (created with the round)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField("scoring.Match", on_delete=models.PROTECT, related_name="tournament_table")
    players = models.JSONField(default=list)  # player ids in seat order
    dealer = models.PositiveSmallIntegerField(default=0)
    pairs = models.JSONField(null=True, blank=True)
    abandoned = models.BooleanField(default=False)
    abandon_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class SitOut(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sit_outs")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="sit_outs")
    score = models.CharField(max_length=30, default="0")

    class Meta:
        ordering = ["round", "player__name"]
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="sitout_unique_player")]

    def __str__(self) -> str:
        return f"{self.player} sits out {self.round}"


class Standings(models.Model):
    """The standings of a tournament as last computed, with the global log position they include."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="standings")
    position = models.BigIntegerField(default=0)
    as_of = models.DateTimeField(null=True, blank=True)  # time of the latest event included
    ledger = models.JSONField(default=dict)  # the running sums (tournaments.plan.standings.Ledger)
    data = models.JSONField(default=dict)  # rows, metrics, notes: what the API and the page show
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"standings of {self.tournament}"


class StandingsContribution(models.Model):
    """One finished table or one sit-out as counted in the standings, kept so that a change to its match
    (a ruling) can take it back out exactly."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="contributions")
    key = models.CharField(max_length=60)
    match = models.ForeignKey(
        "scoring.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    position = models.BigIntegerField()
    data = models.JSONField()

    class Meta:
        ordering = ["tournament", "key"]
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="contribution_unique_key")]
        indexes = [models.Index(fields=["tournament", "position"])]

    def __str__(self) -> str:
        return f"{self.key} in {self.tournament}"


# ---- ratings -----------------------------------------------------------------------------------------
class RatingBook(models.Model):
    """One row per game: the lock that serialises rating updates of that game."""

    game = models.CharField(max_length=30, unique=True)

    def __str__(self) -> str:
        return self.game


class PlayerRating(models.Model):
    """A player's current rating in one game (openskill's Plackett-Luce: mu and sigma)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=30)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "-mu"]
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="rating_unique_player_game")]

    def __str__(self) -> str:
        return f"{self.player} {self.game} {self.mu:.1f}±{self.sigma:.1f}"


class RatedMatch(models.Model):
    """A match counted in the ratings of its game, at the log position it was read at."""

    match = models.OneToOneField("scoring.Match", on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=30)
    position = models.BigIntegerField()

    class Meta:
        ordering = ["game", "match"]

    def __str__(self) -> str:
        return f"{self.match_id} rated"


class RatingHistory(models.Model):
    """A player's rating after one match, in match order."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.CharField(max_length=30)
    match = models.ForeignKey("scoring.Match", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["game", "match", "player"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="ratinghistory_unique_player_match")
        ]
        indexes = [models.Index(fields=["game", "match"])]

    def __str__(self) -> str:
        return f"{self.player} after match {self.match_id}: {self.mu:.1f}"
