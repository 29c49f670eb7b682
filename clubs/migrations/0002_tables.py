# The moved models' tables take this app's names (tournaments_club -> clubs_club, ...). A rename keeps
# every row, id and foreign key that points at them (PostgreSQL follows the table, SQLite rewrites the
# references).

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0001_initial"),
        ("tournaments", "0004_club_player_membership_to_clubs"),
    ]

    operations = [
        migrations.AlterModelTable(name="club", table=None),
        migrations.AlterModelTable(name="player", table=None),
        migrations.AlterModelTable(name="membership", table=None),
    ]
