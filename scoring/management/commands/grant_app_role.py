"""``manage.py grant_app_role ROLE``: give the application's database role what it needs and no more."""

from __future__ import annotations

from typing import Any

import dj_database_url
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from scoring.models import StoredEvent

# Tables the service reads but never writes.
READ_ONLY = ("django_migrations",)


def grants(role: str, tables: list[str]) -> list[str]:
    """The statements that leave ``role`` able to run the service and unable to rewrite the log: on the
    event table only SELECT and INSERT (no UPDATE, DELETE or TRUNCATE; and as it does not own the table
    it cannot disable or drop the append-only trigger)."""
    quote = connection.ops.quote_name
    events = StoredEvent._meta.db_table
    out = [f"GRANT USAGE ON SCHEMA public TO {quote(role)}"]
    for table in sorted(tables):
        out.append(f"REVOKE ALL ON {quote(table)} FROM {quote(role)}")
        if table == events or table in READ_ONLY:
            rights = "SELECT, INSERT" if table == events else "SELECT"
        else:
            rights = "SELECT, INSERT, UPDATE, DELETE"
        out.append(f"GRANT {rights} ON {quote(table)} TO {quote(role)}")
    out.append(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {quote(role)}")
    # Tables that later migrations add: the same rights as the others (run this command again anyway).
    default = "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT"
    out.append(f"{default} SELECT, INSERT, UPDATE, DELETE ON TABLES TO {quote(role)}")
    out.append(f"{default} USAGE, SELECT ON SEQUENCES TO {quote(role)}")
    return out


class Command(BaseCommand):
    help = (
        "PostgreSQL only. Run as the database owner, after every migrate: grant ROLE (the role the "
        "service connects as) what the service needs, and on the event table only SELECT and INSERT, so "
        "that the service's own credentials cannot change, delete or truncate the log, nor touch its "
        "trigger. See docs/event-store.md and the README's production section."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "role", nargs="?", help="the application's role (create it first: CREATE ROLE … LOGIN)"
        )
        parser.add_argument("--user-of", metavar="URL", help="the role is the user of this database URL")
        parser.add_argument(
            "--print", action="store_true", help="print the statements instead of running them"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("two database roles need PostgreSQL; SQLite has no roles")
        role = options["role"]
        if options["user_of"]:
            role = dj_database_url.parse(options["user_of"]).get("USER") or None
        if not role:
            raise CommandError("name the role, or give --user-of a database URL with a user in it")
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
            if cursor.fetchone() is None:
                raise CommandError(f"there is no role {role!r}: create it first (CREATE ROLE {role} LOGIN)")
        statements = grants(role, connection.introspection.table_names())
        if options["print"]:
            self.stdout.write(";\n".join(statements) + ";")
            return
        with transaction.atomic(), connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
        self.stdout.write(
            f"{role}: {len(statements)} grants; on {StoredEvent._meta.db_table} SELECT and INSERT only"
        )
