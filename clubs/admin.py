from django.contrib import admin

from clubs.models import Club, Player


class PlayerInline(admin.TabularInline[Player, Club]):
    model = Player
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "club"]
    list_filter = ["club"]
    search_fields = ["name"]
