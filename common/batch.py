"""Helpers for the long batch jobs (a standings rebuild folds every hand of a league again)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cycle collector for the duration of a batch job.

    A rebuild keeps hundreds of thousands of events in memory while it folds them, and the rule engine
    makes a new immutable state at every move: the collector would walk that whole heap again and
    again (a third of a rebuild's time, measured in ``bench/bench_standings.py``), for objects that hold
    no reference cycles. Reference counting still frees everything as usual; cycles made meanwhile are
    collected after the job. A collector that was already off stays off.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
