# Club, Player and Membership move to the clubs app (clubs 0001 takes them over on the same tables):
# the foreign keys of tournaments, registrations, sit-outs and ratings point there, the old state is
# dropped without touching the tables, and the content types follow (permissions and the admin's log keep
# pointing at the same rows).

import django.db.models.deletion
from django.db import migrations, models

MOVED = ["club", "player", "membership"]


def content_types_to(app_label, other):
    def move(apps, schema_editor):
        content_type = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in MOVED:
            if content_type.objects.using(db).filter(app_label=app_label, model=model).exists():
                continue  # already there (made by an earlier run): the old one goes with its permissions
            content_type.objects.using(db).filter(app_label=other, model=model).update(app_label=app_label)

    return move


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0003_tournaments_rounds_standings_ratings"),
        ("clubs", "0001_initial"),
        ("scoring", "0009_club_player_from_clubs"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="tournament",
                    name="club",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="tournaments", to="clubs.club"),
                ),
                migrations.AlterField(
                    model_name="registration",
                    name="player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="registrations", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="sitout",
                    name="player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="sit_outs", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="playerrating",
                    name="player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="ratinghistory",
                    name="player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_history", to="clubs.player"),
                ),
                migrations.DeleteModel(name="Membership"),
                migrations.DeleteModel(name="Player"),
                migrations.DeleteModel(name="Club"),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to("clubs", "tournaments"), content_types_to("tournaments", "clubs")),
    ]
