# Club and Player now belong to the clubs app (clubs 0001): the foreign keys of matches and seats point
# there. The database is unchanged (the same tables, the same constraints).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0008_append_in_one_function"),
        ("clubs", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="match",
                    name="club",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="matches", to="clubs.club"),
                ),
                migrations.AlterField(
                    model_name="matchseat",
                    name="player",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="seats", to="clubs.player"),
                ),
            ],
            database_operations=[],
        ),
    ]
