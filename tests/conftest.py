"""Shared fixtures and the markers that pick which database or services a test needs.

`postgres` tests run only when DATABASE_URL points at PostgreSQL; `worker` tests only when a real broker
is configured (CELERY_BROKER_URL set), with a worker consuming from it.
"""

import pytest
from django.conf import settings
from django.db import connection


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL to a PostgreSQL database")
    if item.get_closest_marker("worker") and settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("needs a Celery worker: set CELERY_BROKER_URL and start one")
