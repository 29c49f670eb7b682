"""gunicorn settings for ``make serve``; override any on the command line or with GUNICORN_CMD_ARGS."""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
# A worker per core; each serves a few requests at once on threads, so that while one waits on the
# database another uses the processor (a move is mostly round trips to the database). Chosen by
# measurement (docs/performance.md, issue 29): sync workers (one request per process) recorded fewer moves
# at 4 and 32 tables at 2 or 4 processes, and the reason to fear threads is gone: the store's ordering
# lock is released by the server with the commit sent in the append's own message, so no thread holds it
# while waiting for the interpreter lock. Slow clients are nginx's to hold (deploy/nginx.conf), not these
# threads'.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "4"))
keepalive = 5  # deploy/nginx.conf lets its idle upstream connections go sooner (4 s)
timeout = 30
graceful_timeout = 20
# No recycling (max_requests): a gthread worker that retires drops the connections it has accepted and
# not yet served, and nginx answers those requests 502. Measured (issue 29, bench/bench_http.py at 32
# tables): with max_requests 5000 the load met 502s as the first worker retired; without, none. A
# worker's memory stays flat over a long load (bench/bench_memory.py), so there is no leak to bound.
max_requests = 0
# The access log, on standard output; deploy/serve turns it off (GUNICORN_ACCESS_LOG empty) when nginx is
# in front, which keeps it instead (deploy/nginx.conf says why).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None


def post_worker_init(worker: object) -> None:
    """Once a worker has loaded the application: do what its first request would do once (import every
    view and each game's rules, load the translations), freeze what is then on the heap out of the cycle
    collector's walks and collect the young generation less often (segnapunti/warmup.py says why: each
    paused all of a worker's requests at once, issue 29)."""
    from segnapunti.warmup import ready

    ready()
