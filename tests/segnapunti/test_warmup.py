"""A gunicorn worker is made ready, and its heap frozen out of the cycle collector's walks, once the
application is loaded and before its first request (segnapunti/warmup.py, issue 29)."""

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

from gunicorn.config import Config

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "segnapunti" / "gunicorn.conf.py"

# What a worker does: load the application (segnapunti/wsgi.py), then run the config's post_worker_init,
# as gunicorn's Worker.init_process does; then report what it finds.
WORKER = """
import gc, json, runpy, sys
import segnapunti.wsgi
from django.utils.translation import trans_real
before = {
    "urls": "segnapunti.urls" in sys.modules,
    "game": "scoring.rules.tressette" in sys.modules,
    "frozen": gc.get_freeze_count(),
}
runpy.run_path(sys.argv[1])["post_worker_init"](None)
views = ("scoring.api.views", "tournaments.api.views", "drf_spectacular.views", "scoring.rules.tressette")
views = [m for m in views if m in sys.modules]
print(json.dumps({
    "before": before,
    "urls": "segnapunti.urls" in sys.modules,
    "views": views,
    "languages": sorted(trans_real._translations),
    "frozen": gc.get_freeze_count(),
    "tracked": len(gc.get_objects()),
    "threshold": gc.get_threshold(),
}))
"""


def run_worker() -> dict[str, Any]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "segnapunti.settings",
        "SECRET_KEY": "test-only",
        "DEBUG": "false",
    }
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(CONFIG)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_gunicorn_takes_the_hook_that_runs_after_the_application_is_loaded() -> None:
    hook = runpy.run_path(str(CONFIG))["post_worker_init"]
    config = Config()
    config.set("post_worker_init", hook)  # gunicorn checks it is a callable of one argument (the worker)

    assert config.post_worker_init is hook


def test_a_worker_imports_every_view_each_game_and_each_language_before_its_first_request() -> None:
    found = run_worker()

    # A first request would have done it all.
    assert found["before"] == {"urls": False, "game": False, "frozen": 0}
    assert found["urls"] is True
    assert found["views"] == [
        "scoring.api.views",
        "tournaments.api.views",
        "drf_spectacular.views",
        "scoring.rules.tressette",
    ]
    assert {"en", "fr", "it"} <= set(found["languages"])


def test_a_worker_heap_is_frozen_so_a_full_collection_walks_only_what_is_made_later() -> None:
    found = run_worker()

    # The loaded and warmed application is 100,000 objects and more; none is left for the collector.
    assert found["frozen"] > 50_000
    assert found["tracked"] < 1_000


def test_a_worker_collects_its_young_generation_ten_times_less_often_than_python_does() -> None:
    found = run_worker()

    # Each move's fold is then mostly replaced and freed before the collector moves it to the oldest
    # generation, whose full collections walk every fold the workers keep.
    assert found["threshold"] == [7_000, 10, 10]
