"""A served process made ready before its first request, then its heap frozen out of the cycle collector's
sight. gunicorn calls :func:`ready` in each worker once the application is loaded
(``post_worker_init`` in segnapunti/gunicorn.conf.py).

Measured (issue 29, ``bench/bench_http.py --rate``, a move's time in the worker logged with the collector's
own callbacks): these paused every request of a worker at once, for tens to hundreds of ms.

- **The first request.** Django imports the URLconf, and with it every view, DRF's serializers and
  renderers and drf-spectacular, at the first request a worker serves, each language's translations at
  the first request in it, and each game's rules at its first move: 260 ms of a first move's 330 ms in
  one process, 500-1,200 ms in a worker under load, met by the moves that reached that worker meanwhile
  (in one run the second worker took its first request 5.8 s into the load: 600 ms for each of its four
  threads' first moves). What is left of a thread's first request is its own database connection's.
- **The collector's full collections.** A worker's heap is 110,000-160,000 objects once the application
  is loaded and warm, nearly all of them (modules, classes, URL patterns, catalogues) there for the life
  of the process; a full (generation 2) collection walks all of them again, every 10-15 s under load, and
  holds the interpreter lock throughout: 66-70 ms of processor for 120,000 objects, 120-280 ms of a
  worker's wall clock on the shared machine. Frozen (:func:`gc.freeze`), they are never walked again: a
  full collection sees only what was made since (9 ms of processor, 8-70 ms of wall clock).
- **What is left for it to walk**: the folds the last moves' hands keep (:mod:`scoring.hands.foldcache`,
  128 hands' states), 40,000-75,000 objects once the tables have played a while. A fold lives until its
  table's next move, longer than the young and middle generations' turns at Python's default threshold
  (700 allocations, a few requests), so nearly every one reaches the oldest generation: a full collection
  every 10-15 s per worker, 16-52 ms of processor. With the young
  generation collected every :data:`YOUNG_THRESHOLD` allocations, most folds are replaced (and freed)
  before the collector sees them: in 30 s at 100 moves/s, no full collection instead of two per worker,
  the longest collection 3 ms (young) and 10 ms (middle) of processor, and less of it in all (0.08 ms a
  request against 0.12-0.13).
"""

from __future__ import annotations

import gc

from django.conf import settings
from django.urls import get_resolver
from django.utils import translation

from scoring.rules import game_names, get_game

# Python's default is 700 (the middle and oldest generations keep theirs, 10 and 10).
YOUNG_THRESHOLD = 7_000


def warm() -> None:
    """Do what a first request would do once for the whole process: import the URLconf (every view and
    what they import), load each language's translations and URL reversal table, and each game's rules
    (imported by the first move of that game otherwise: 15-54 ms of a worker's first move, profiled)."""
    for name in game_names():
        get_game(name)
    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 (imports segnapunti/urls.py and every view module it names)
    for code, _ in settings.LANGUAGES:
        with translation.override(code):  # loads the language's catalogues (Django's, DRF's, ours)
            resolver.reverse_dict  # noqa: B018 (built per language, at the first reverse() in it)


def freeze() -> None:
    """Collect once, then move every object left to the permanent generation, which the cycle collector
    no longer walks. Objects freed later are still freed (reference counting); only the walking stops.
    From then on the young generation is collected every :data:`YOUNG_THRESHOLD` allocations."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)


def ready() -> None:
    """:func:`warm`, then :func:`freeze`: what a worker runs once the application is loaded."""
    warm()
    freeze()
