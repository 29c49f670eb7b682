# Club, Player and Membership move here from the tournaments app. Their rows stay where they are: this
# migration only tells Django's state that the models now belong to `clubs` (still on the tournaments_*
# tables); tournaments 0004 and scoring 0009 point their foreign keys here and drop the old state, and
# 0002 renames the tables.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("tournaments", "0003_tournaments_rounds_standings_ratings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Club",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=120, unique=True)),
                        ("city", models.CharField(blank=True, max_length=80)),
                    ],
                    options={"ordering": ["name"], "db_table": "tournaments_club"},
                ),
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=120)),
                        ("club", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="players", to="clubs.club")),
                        ("user", models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="player", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "ordering": ["name"],
                        "db_table": "tournaments_player",
                        "constraints": [models.UniqueConstraint(fields=("club", "name"), name="player_unique_name_in_club")],
                    },
                ),
                migrations.CreateModel(
                    name="Membership",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("role", models.CharField(choices=[("director", "director"), ("scorer", "scorer"), ("member", "member")], default="member", max_length=10)),
                        ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to="clubs.club")),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "ordering": ["club", "user"],
                        "db_table": "tournaments_membership",
                        "constraints": [models.UniqueConstraint(fields=("club", "user"), name="membership_unique_user_in_club")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
