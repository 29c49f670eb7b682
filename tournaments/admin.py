from typing import Any

from django.contrib import admin

from tournaments.models import Round, Tournament


class RoundInline(admin.TabularInline[Round, Tournament]):
    model = Round
    extra = 0
    fields = readonly_fields = ("number", "game", "status", "seed", "repeats")
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    """A look at tournaments; changes go through the API and the services, which keep the event log."""

    list_display = ["name", "club", "kind", "scoring", "published", "version"]
    list_filter = ["club", "kind"]
    search_fields = ["name"]
    readonly_fields = tuple(f.name for f in Tournament._meta.fields)
    inlines = [RoundInline]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        # Read only: a save would write every column, and the service's role may update only some
        # (docs/security.md).
        return False
