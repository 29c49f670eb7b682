from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connections


@pytest.fixture
def spawn() -> Iterator[Callable[..., Future[Any]]]:
    """Run a function in a thread of its own, hence on a database connection of its own.

    The thread closes its connections when the function returns, so that the test database can be
    flushed and dropped afterwards.
    """
    pool = ThreadPoolExecutor(max_workers=16)

    def submit(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        def run() -> Any:
            try:
                return fn(*args, **kwargs)
            finally:
                connections.close_all()

        return pool.submit(run)

    yield submit
    pool.shutdown(wait=True)
