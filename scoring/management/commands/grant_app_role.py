"""``manage.py grant_app_role ROLE``: give the application's database role what it needs and no more."""

from __future__ import annotations

from typing import Any

import dj_database_url
from django.apps import apps
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from scoring.models import StoredEvent

# Tables the service reads but never writes.
READ_ONLY = ("django_migrations",)
FULL = "SELECT, INSERT, UPDATE, DELETE"


def app_role_rights() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each restricted table -> (the rights on the table, the columns the role may UPDATE), from the
    ``app_role_rights`` each app declares on its AppConfig (docs/security.md). Tables no app restricts
    (users, sessions, clubs) keep every right on their rows."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for config in apps.get_app_configs():
        for name, (rights, columns) in getattr(config, "app_role_rights", {}).items():
            model_name, _, m2m = name.partition(".")
            meta = config.get_model(model_name)._meta
            if m2m:
                through = meta.get_field(m2m).remote_field.through  # type: ignore[union-attr]
                out[through._meta.db_table] = (rights, ())
            else:
                out[meta.db_table] = (rights, tuple(_column(meta, c) for c in columns))
    return out


def _column(meta: Any, name: str) -> str:
    column = meta.get_field(name).column
    if not isinstance(column, str):
        raise AssertionError(f"{meta.label}.{name} is not a column")
    return column


def grants(role: str, tables: list[str]) -> list[str]:
    """The statements that leave ``role`` able to run the service and unable to rewrite the log: on the
    event table only SELECT and INSERT (no UPDATE, DELETE or TRUNCATE; and as it does not own the table
    it cannot disable or drop the append-only trigger). On the tables that decide a result, only the rights
    their app declares: UPDATE on the columns the service updates, none on the seats (issue 25)."""
    quote = connection.ops.quote_name
    restricted = app_role_rights()
    if restricted.get(StoredEvent._meta.db_table, ("", ()))[0] != "SELECT, INSERT":
        raise AssertionError("the event table must stay SELECT and INSERT only")
    out = [f"GRANT USAGE ON SCHEMA public TO {quote(role)}"]
    for table in sorted(tables):
        # REVOKE ALL on a table takes its column rights with it: running this again starts afresh.
        out.append(f"REVOKE ALL ON {quote(table)} FROM {quote(role)}")
        columns: tuple[str, ...] = ()
        if table in restricted:
            rights, columns = restricted[table]
        else:
            rights = "SELECT" if table in READ_ONLY else FULL
        out.append(f"GRANT {rights} ON {quote(table)} TO {quote(role)}")
        if columns:
            names = ", ".join(quote(c) for c in columns)
            out.append(f"GRANT UPDATE ({names}) ON {quote(table)} TO {quote(role)}")
    out.append(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {quote(role)}")
    # Tables that later migrations add: the same rights as the others (run this command again anyway).
    default = "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT"
    out.append(f"{default} {FULL} ON TABLES TO {quote(role)}")
    out.append(f"{default} USAGE, SELECT ON SEQUENCES TO {quote(role)}")
    return out


class Command(BaseCommand):
    help = (
        "PostgreSQL only. Run as the database owner, after every migrate: grant ROLE (the role the "
        "service connects as) what the service needs, and on the event table only SELECT and INSERT, so "
        "that the service's own credentials cannot change, delete or truncate the log, nor touch its "
        "trigger; on the tables that decide a result, UPDATE only on the columns the service updates "
        "and none on the seats. See docs/security.md and the README's production section."
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
            f"{role}: {len(statements)} grants; on {StoredEvent._meta.db_table} SELECT and INSERT only; "
            f"{len(app_role_rights())} tables restricted (docs/security.md)"
        )
