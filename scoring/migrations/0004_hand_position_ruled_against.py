from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def backfill_positions(apps, schema_editor):
    # Hands recorded before this migration: their last event's position and time, read from the log.
    # (ruled_against starts empty for them; the next write to the hand recomputes it.)
    Hand = apps.get_model("scoring", "Hand")
    StoredEvent = apps.get_model("scoring", "StoredEvent")
    last = StoredEvent.objects.filter(stream_id=OuterRef("stream_id")).order_by("-version")
    for hand in Hand.objects.annotate(
        last_position=Subquery(last.values("position")[:1]),
        last_at=Subquery(last.values("recorded_at")[:1]),
    ).filter(last_position__isnull=False):
        Hand.objects.filter(pk=hand.pk).update(position=hand.last_position, updated_at=hand.last_at)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0003_match_hand_matchseat"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="position",
            field=models.BigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="hand",
            name="ruled_against",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(backfill_positions, migrations.RunPython.noop),
    ]
