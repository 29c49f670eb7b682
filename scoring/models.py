from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring import words


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a stored event."""


class StoredEventQuerySet(models.QuerySet["StoredEvent"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("stored events cannot be updated")

    def delete(self) -> NoReturn:
        raise AppendOnlyError("stored events cannot be deleted")


# The longest each text column of the event log may hold (characters).
TEXT_LENGTHS = {"stream_id": 100, "event_type": 100, "recorded_by": 150, "idempotency_key": 200}


class CheckedCharField(models.CharField[Any, Any]):
    """A CharField whose column is a varchar without a length: the length is held by a check constraint
    of the model (and by ``max_length``, for validation)."""

    def db_type(self, connection: Any) -> str:
        return "varchar"


class StoredEvent(models.Model):
    """One event as written: append-only, keyed by (stream, version), ordered globally by position.

    Write through `scoring.log.store.append`, read through `scoring.log.store`. On PostgreSQL a trigger
    (migration 0002) rejects UPDATE and DELETE as well, whatever the client.
    """

    # The text columns have no length in their type, only a check (the constraints below, as long as
    # the types' were): PostgreSQL's planner guesses a row's width from the types' lengths while the
    # table has no statistics yet, and with varchar(100) to varchar(200) it guessed rows six times wider
    # than they are and read a tailing reader's page by a scan of the whole table (issue 29).
    position = models.BigAutoField(primary_key=True)
    stream_id = CheckedCharField(max_length=TEXT_LENGTHS["stream_id"])
    version = models.PositiveIntegerField()
    event_type = CheckedCharField(max_length=TEXT_LENGTHS["event_type"])
    schema_version = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = CheckedCharField(max_length=TEXT_LENGTHS["recorded_by"], blank=True, default="")
    # Only the first event of an append carries the key; NULL (not "") elsewhere, so that the unique
    # constraint below ignores them.
    idempotency_key = CheckedCharField(max_length=TEXT_LENGTHS["idempotency_key"], null=True, blank=True)  # noqa: DJ001
    # How many events the append that wrote this one held: lets a retry rebuild the original result.
    batch_size = models.PositiveSmallIntegerField(default=1)
    # The two hash chains of scoring/log/chain.py (SHA-256), set by the store as it appends; NULL only on a
    # row that did not come through the store, which `manage.py verify_log` reports.
    stream_hash = models.BinaryField(null=True, editable=False)
    log_hash = models.BinaryField(null=True, editable=False)

    objects = StoredEventQuerySet.as_manager()

    class Meta:
        ordering = ["position"]
        constraints = [
            *(
                models.CheckConstraint(
                    condition=LessThanOrEqual(Length(name), longest), name=f"storedevent_{name}_length"
                )
                for name, longest in TEXT_LENGTHS.items()
            ),
            models.UniqueConstraint(fields=["stream_id", "version"], name="storedevent_stream_version"),
            # Only rows with a key are in its index (most events carry none: an append's later events).
            models.UniqueConstraint(
                fields=["stream_id", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="storedevent_stream_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stream_id}@{self.version} {self.event_type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("stored events cannot be updated")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("stored events cannot be deleted")


class Match(models.Model):
    """One sitting at one table: a game with its options, the players in seat order, the direction of
    play. Each hand of the match is one event stream; the rows below are read models of those streams."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("match status", "in play")
        FINISHED = "finished", pgettext_lazy("match status", "finished")
        # Closed to every write by the director (a tournament's table abandoned): it counts nothing.
        ABANDONED = "abandoned", pgettext_lazy("match status", "abandoned")

    class Direction(models.TextChoices):
        CLOCKWISE = "clockwise", _("clockwise")
        ANTICLOCKWISE = "anticlockwise", _("anticlockwise")

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="matches")
    title = models.CharField(max_length=120, blank=True)
    game = models.CharField(max_length=30)
    options = models.JSONField(default=dict)
    direction = models.CharField(max_length=15, choices=Direction.choices, default=Direction.ANTICLOCKWISE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    published = models.BooleanField(default=False)
    scorers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="scored_matches")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    sheet = models.JSONField(default=dict, blank=True)  # the game's running sheet, kept by the projection
    abandon_reason = models.TextField(blank=True, default="")  # the director's, once ABANDONED

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title or f"{words.game(self.game)} #{self.pk}"


class MatchSeat(models.Model):
    """A seat at the match's table, in the order of play."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="matchseat_unique_seat")]

    def __str__(self) -> str:
        return f"{self.match} seat {self.seat}: {self.name}"


class Hand(models.Model):
    """Read model of one hand's event stream, written in the same transaction as each append."""

    class Status(models.TextChoices):
        IN_PLAY = "in_play", pgettext_lazy("hand status", "in play")
        OVER = "over", pgettext_lazy("hand status", "over")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    stream_id = models.CharField(max_length=100, unique=True)
    dealer = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.IN_PLAY)
    flagged = models.BooleanField(default=False)
    result = models.JSONField(null=True, blank=True)
    # Irregularities a director ruled on and did not dismiss, counted per seat (tournament tie-breaks).
    ruled_against = models.JSONField(default=list, blank=True)
    # The global position and the time of the stream's last event: what a projection built on this hand
    # includes, so that it can tell a repeated update from a new one.
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="hand_unique_number")]

    def __str__(self) -> str:
        return f"{self.match} hand {self.number}"


class HandFinal(models.Model):
    """A finished hand's last fold, sealed (:func:`scoring.hands.whatif.seal`): what scoring it again under
    other options needs, kept so that any worker's first what-if of the match need not fold the hand from
    the log. A cache, never a record: it names the stream version and the engine it was folded at, and a
    blob that does not match the hand's row, this engine or this service's key is ignored (the hand is
    folded from the log). Written with the append that ends the hand, and at an import."""

    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, primary_key=True, related_name="final")
    blob = models.BinaryField()

    def __str__(self) -> str:
        return f"{self.hand} (its fold, kept)"
