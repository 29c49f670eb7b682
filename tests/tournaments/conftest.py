from typing import Any

import pytest


@pytest.fixture(autouse=True)
def quick_seating(settings: Any) -> None:
    """Rounds opened in tests are small: a short search budget is plenty (the planner's own tests and
    the benchmark give it the real one)."""
    settings.SEATING_BUDGET_SECONDS = 0.5
