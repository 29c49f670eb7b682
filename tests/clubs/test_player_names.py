"""A player's name is unique in his club whatever its case (issue 25, item 7), and the migration that
says so first tells apart the names that already clash."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from clubs.models import Player
from tests.scoring.factories import ClubFactory


@pytest.mark.django_db
def test_two_players_of_one_club_cannot_differ_only_in_case() -> None:
    club, other = ClubFactory(), ClubFactory()
    Player.objects.create(club=club, name="Rossi")

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="ROSSI")
    Player.objects.create(club=other, name="ROSSI")  # another club's Rossi is another person

    assert Player.objects.filter(name__iexact="rossi").count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_migration_tells_apart_the_names_that_clash() -> None:
    before, after = [("clubs", "0003_cache_table")], [("clubs", "0004_player_name_unique_any_case")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps
        club = old.get_model("clubs", "Club").objects.create(name="Circolo")
        made = [
            old.get_model("clubs", "Player").objects.create(club=club, name=n)
            for n in ("Rossi", "ROSSI", "rossi", "Bianchi")
        ]

        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)

        names = dict(Player.objects.filter(pk__in=[p.pk for p in made]).values_list("pk", "name"))
        assert [names[p.pk] for p in made] == ["Rossi", "ROSSI (2)", "rossi (3)", "Bianchi"]
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
