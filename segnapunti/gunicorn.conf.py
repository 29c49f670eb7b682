"""gunicorn settings for ``make serve``; override any on the command line or with GUNICORN_CMD_ARGS."""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
# A worker per core; each serves a few requests at once on threads, so that while one waits on the
# database another uses the processor (a move is mostly round trips to the database).
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "4"))
keepalive = 5
timeout = 30
graceful_timeout = 20
max_requests = 5000  # recycled now and then, so a slow leak never grows unbounded
max_requests_jitter = 500
accesslog = "-"
