"""gunicorn settings for ``make serve``; override any on the command line or with GUNICORN_CMD_ARGS."""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
# Sync workers: each request is short (a move is a few milliseconds); one worker per core, plus one.
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "sync"
timeout = 30
graceful_timeout = 20
max_requests = 5000  # recycled now and then, so a slow leak never grows unbounded
max_requests_jitter = 500
accesslog = "-"
