from typing import Any, NoReturn

from django.db import models
from django.utils import timezone


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a stored event."""


class StoredEventQuerySet(models.QuerySet["StoredEvent"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("stored events cannot be updated")

    def delete(self) -> NoReturn:
        raise AppendOnlyError("stored events cannot be deleted")


class StoredEvent(models.Model):
    """One event as written: append-only, keyed by (stream, version), ordered globally by position.

    Write through `scoring.store.append`, read through `scoring.store`. On PostgreSQL a trigger
    (migration 0002) rejects UPDATE and DELETE as well, whatever the client.
    """

    position = models.BigAutoField(primary_key=True)
    stream_id = models.CharField(max_length=100)
    version = models.PositiveIntegerField()
    event_type = models.CharField(max_length=100)
    schema_version = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.CharField(max_length=150, blank=True, default="")
    # Only the first event of an append carries the key; NULL (not "") elsewhere, so that the unique
    # constraint below ignores them.
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    # How many events the append that wrote this one held: lets a retry rebuild the original result.
    batch_size = models.PositiveSmallIntegerField(default=1)

    objects = StoredEventQuerySet.as_manager()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["stream_id", "version"], name="storedevent_stream_version"),
            models.UniqueConstraint(
                fields=["stream_id", "idempotency_key"], name="storedevent_stream_idempotency_key"
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
