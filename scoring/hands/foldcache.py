"""The latest fold of each hand recently written, kept in this process.

Recording a move needs the hand as the rule engine sees it after every move so far. Folding the whole
log again at each move costs a read of the stream and a fold from the deal; instead the last fold of
each hand is kept here with the stream version it stands at, and used only when it is exactly the
version the database holds (the hand's row, read under its lock). A fold a few versions behind (the hand
was written by another process) catches up by folding just the events after it; anything else is
folded from the start. Folds are put here once their transaction has committed, so a version number
here always means the same events as in the database (committed versions never change).

Bounded (least recently used first out), so a worker's memory stays flat however many moves it records.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from scoring.hands.fold import HandView

SIZE = 128

V = TypeVar("V")


class ByStream(Generic[V]):
    """Something kept of each stream at a committed version, in this process: bounded (least recently
    used out), and never replaced by what stands at an earlier version. The recording's folds are kept
    in one (below), the what-ifs' last states in another (:mod:`scoring.hands.whatif`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, tuple[int, V]] = OrderedDict()

    def get(self, stream_id: str) -> tuple[int, V] | None:
        """What is kept of the stream and its version, if anything."""
        with self._lock:
            found = self._kept.get(stream_id)
            if found is not None:
                self._kept.move_to_end(stream_id)
            return found

    def put(self, stream_id: str, version: int, value: V) -> None:
        """Keep ``value`` for the stream at ``version`` (call it once that version is committed)."""
        with self._lock:
            kept = self._kept.get(stream_id)
            if kept is not None and kept[0] > version:
                return  # a later one was kept meanwhile
            self._kept[stream_id] = (version, value)
            self._kept.move_to_end(stream_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)


_views: ByStream[HandView] = ByStream(SIZE)


def get(stream_id: str) -> tuple[int, HandView] | None:
    """The kept fold of the stream and its version, if any."""
    return _views.get(stream_id)


def put(stream_id: str, version: int, view: HandView) -> None:
    """Keep the fold of the stream at ``version`` (call it once that version is committed)."""
    _views.put(stream_id, version, view)


def clear() -> None:
    _views.clear()


def size() -> int:
    return len(_views)
