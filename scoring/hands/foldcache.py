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

from scoring.hands.fold import HandView

SIZE = 128

_lock = threading.Lock()
_views: OrderedDict[str, tuple[int, HandView]] = OrderedDict()


def get(stream_id: str) -> tuple[int, HandView] | None:
    """The kept fold of the stream and its version, if any."""
    with _lock:
        found = _views.get(stream_id)
        if found is not None:
            _views.move_to_end(stream_id)
        return found


def put(stream_id: str, version: int, view: HandView) -> None:
    """Keep the fold of the stream at ``version`` (call it once that version is committed)."""
    with _lock:
        kept = _views.get(stream_id)
        if kept is not None and kept[0] > version:
            return  # a later fold was kept meanwhile
        _views[stream_id] = (version, view)
        _views.move_to_end(stream_id)
        while len(_views) > SIZE:
            _views.popitem(last=False)


def clear() -> None:
    with _lock:
        _views.clear()


def size() -> int:
    with _lock:
        return len(_views)
