from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from scoring.models import StoredEvent


@admin.register(StoredEvent)
class StoredEventAdmin(admin.ModelAdmin[StoredEvent]):
    """Events can be looked at, never added, changed or deleted."""

    list_display = ["position", "stream_id", "version", "event_type", "schema_version", "recorded_at"]
    list_filter = ["event_type"]
    search_fields = ["stream_id"]
    ordering = ["-position"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
