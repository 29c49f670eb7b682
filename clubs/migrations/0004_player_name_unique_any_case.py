"""A player's name is unique in his club whatever its case (issue 25): "Rossi" and "ROSSI" were two.

Names that already clash are told apart first, the later player's name getting " (2)", " (3)"... so
that the constraint can be added; nothing else of those players changes.
"""

import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


def tell_apart(apps, schema_editor):
    Player = apps.get_model("clubs", "Player")
    seen: dict[tuple[int, str], int] = {}
    taken = {(p.club_id, p.name.lower()) for p in Player.objects.all()}
    for player in Player.objects.order_by("club_id", "pk"):
        key = (player.club_id, player.name.lower())
        seen[key] = seen.get(key, 0) + 1
        if seen[key] == 1:
            continue
        n = seen[key]
        base = player.name[:112]  # the name has at most 120 characters
        while (player.club_id, f"{base} ({n})".lower()) in taken:
            n += 1
        player.name = f"{base} ({n})"
        taken.add((player.club_id, player.name.lower()))
        player.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0003_cache_table"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(tell_apart, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_unique_name_in_club",
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                models.F("club"),
                django.db.models.functions.text.Lower("name"),
                name="player_unique_name_in_club_any_case",
            ),
        ),
    ]
