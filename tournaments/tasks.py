from celery import shared_task

from tournaments.selectors import club_roster


@shared_task
def club_roster_export(club_id: int) -> list[str]:
    """The club's roster, built by a worker (or in-process when tasks run eagerly)."""
    return club_roster(club_id=club_id)
