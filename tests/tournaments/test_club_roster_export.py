import pytest

from clubs.models import Club, Player
from tournaments.tasks import club_roster_export


def make_club() -> Club:
    club = Club.objects.create(name="Circolo Scopa", city="Bari")
    for name in ["Zeno", "Ada", "Mara"]:
        Player.objects.create(club=club, name=name)
    return club


# `apply` runs the task here and now, broker or not; the worker test below covers the trip through one.


@pytest.mark.django_db
def test_the_roster_lists_the_players_by_name() -> None:
    club = make_club()

    assert club_roster_export.apply(args=[club.pk]).get() == ["Ada", "Mara", "Zeno"]


@pytest.mark.django_db
def test_an_unknown_club_is_an_error() -> None:
    with pytest.raises(Club.DoesNotExist):
        club_roster_export.apply(args=[999_999]).get()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_builds_the_roster_from_the_same_database() -> None:
    # The club is committed (transactional test) so that the worker, on its own connection, sees it.
    club = make_club()

    result = club_roster_export.delay(club.pk)

    assert result.get(timeout=30) == ["Ada", "Mara", "Zeno"]
    assert result.successful()
