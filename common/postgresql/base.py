"""Django's PostgreSQL backend, with a health check that asks the socket instead of the server.

With ``CONN_HEALTH_CHECKS`` on, Django checks a kept connection before its first use in each request by
sending ``SELECT 1``: a round trip on every request, and on a scorer's move one of six (issue 29,
docs/performance.md). Here the check looks at the connection's socket instead, without waiting: when
the server has closed the connection (a restart, ``pg_terminate_backend``, an idle timeout), it has sent
its goodbye and its end of the stream, and the socket reads as readable or hung up. An idle connection
with nothing to read is taken as healthy. Anything to read on an idle connection (a closing notice, a
reset, or a message it was not expecting) sends the check back to Django's ``SELECT 1``, which either
passes or has the connection replaced, as before.

What this gives up: a connection the server can no longer reach without having said so (the network
cut with no reset) reads as healthy. Django's own check would have waited on it for the socket's
timeout; here the request's first statement meets the error instead, Django marks the connection
unusable and replaces it at the request's end (``close_if_unusable_or_obsolete``), so one request fails
where Django's check would have hung first. Connections closed by the server, the common case, are
still caught before use. ``tests/common/test_postgresql_health.py`` holds it to that on a real server.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLDatabaseWrapper

# Anything but "nothing to read": data or the end of the stream, an error, the peer gone.
_NOT_IDLE = select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP | select.POLLNVAL


class DatabaseWrapper(PostgreSQLDatabaseWrapper):
    def close_if_health_check_failed(self) -> None:
        # Django's own conditions for checking at all (the stubs do not declare these attributes).
        enabled, done = getattr(self, "health_check_enabled", False), getattr(self, "health_check_done", True)
        if self.connection is None or not enabled or done or self.pool:
            super().close_if_health_check_failed()
            return
        if not self.socket_is_quiet():
            # Something arrived, or the socket is gone: Django's own check decides (and reads it).
            super().close_if_health_check_failed()
            return
        self.health_check_done: bool = True

    def socket_is_quiet(self) -> bool:
        """The connection is open on our side and its socket has nothing to read and no error, now."""
        raw = self.connection
        if raw is None or raw.closed or raw.broken:
            return False
        try:
            fd = raw.pgconn.socket
        except Exception:  # psycopg raises when libpq has no socket (a connection it considers bad)
            return False
        poller = select.poll()
        poller.register(fd, _NOT_IDLE)
        return not poller.poll(0)
