"""Issue 25: every match's stream ``match-<id>`` opens with a MatchOpened event (club, game, options,
direction, each seat's name and player), so that a rebuild reads who sat where from the hash-chained log.

Matches made before this migration get theirs now, appended in match order from their rows as they stand
(recorded by "migration"): the log cannot know who sat where before it was told, so this is the moment
those rows become the log's word. A match that already has one is left alone, so running it twice adds
nothing. The events go through the store's own append, which keeps both hash chains.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations


def open_matches_in_the_log(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("scoring", "Match")
    MatchSeat = apps.get_model("scoring", "MatchSeat")
    StoredEvent = apps.get_model("scoring", "StoredEvent")
    ids = list(Match.objects.order_by("pk").values_list("pk", flat=True))
    if not ids:
        return
    # The live store and event class (this code runs with the tables as this migration leaves them).
    from scoring.log import store
    from scoring.log.events import MatchOpened, match_stream_id

    done = set(
        StoredEvent.objects.filter(event_type="MatchOpened").values_list("stream_id", flat=True)
    )
    seats: dict[int, list[dict[str, Any]]] = {pk: [] for pk in ids}
    for match_id, name, player in MatchSeat.objects.order_by("match_id", "seat").values_list(
        "match_id", "name", "player_id"
    ):
        seats[match_id].append({"name": name, "player": player})
    streams = []
    for match in Match.objects.order_by("pk"):
        stream = match_stream_id(match.pk)
        if stream in done:
            continue
        opened = MatchOpened(
            club=match.club_id,
            game=match.game,
            options=dict(match.options),
            direction=match.direction,
            seats=tuple(seats[match.pk]),
        )
        streams.append((stream, [opened]))
    if streams:
        store.append_streams(streams, actor="migration")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0009_club_player_from_clubs")]

    operations = [migrations.RunPython(open_matches_in_the_log, migrations.RunPython.noop)]
