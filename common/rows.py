"""Model instances read by a statement written out, for the few reads on the path of every request of a
scorer's move (the token's user, the match, the hand's locked row).

``Model.objects.raw`` gives the same instances, but sets itself up again on every call (it maps the
columns to the fields, orders them, looks up each field's converters): on those paths that cost more
than the query (issue 29, docs/performance.md). Here the mapping is worked out once per model, columns
and connection, and each row becomes an instance the way the ORM builds one (``Model.from_db``).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.utils import CursorWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)

# (model, column names) -> how to turn a row into an instance; kept per connection (a converter is a
# method of the connection's operations, which read its time zone).
_Converters = tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]
_Plan = tuple[tuple[int, ...], _Converters, tuple[tuple[int, str], ...], tuple[str, ...]]
_plans: weakref.WeakKeyDictionary[Any, dict[tuple[type[Model], tuple[str, ...], tuple[str, ...]], _Plan]] = (
    weakref.WeakKeyDictionary()
)


def instances(
    model: type[M],
    sql: str | tuple[str, ...],
    params: Sequence[Any],
    *,
    then: list[list[Any]] | None = None,
    prepare: bool = False,
    defer: Collection[str] = (),
) -> list[M]:
    """The rows ``sql`` selects, as instances of ``model``: each column named after one of its fields'
    columns fills that field, converted as the ORM converts it; any other column becomes an attribute of
    its name, unconverted (as ``raw`` does). Every concrete field of the model must be selected.

    ``then``: ``sql`` is several SELECTs sent in one message (PostgreSQL, a tuple of them), the first
    one's rows the instances; the rows of each of the others, as the database gives them, are added to
    this list. ``prepare``: the statements are prepared on the connection (:func:`message`). ``defer``:
    fields the statement may leave out, deferred in the instances (read from the database on first use,
    as the ORM's ``defer()``)."""
    connection = connections[DEFAULT_DB_ALIAS]  # this thread's own, not the proxy all threads share
    statements = (sql,) if isinstance(sql, str) else sql
    with _cursor(connection) as cursor:
        _execute(cursor, statements, list(params), prepare=prepare)
        names = _names(cursor)
        rows = cursor.fetchall()
        while then is not None and cursor.nextset():
            then.append(cursor.fetchall())
    return _build(connection, model, names, rows, defer)


def instance_sets(
    queries: Sequence[
        tuple[type[Model], str, Sequence[Any]] | tuple[type[Model], str, Sequence[Any], Collection[str]]
    ],
    *,
    prepare: bool = False,
) -> list[list[Any]]:
    """Several reads at once: for each ``(model, sql, params)`` or ``(model, sql, params, defer)``, the
    rows its SELECT gives as instances of the model, as :func:`instances` makes them. On PostgreSQL the
    statements go in one message, one round trip (bound here: each runs in its own snapshot, in order),
    prepared on the connection with ``prepare`` (:func:`message`); elsewhere one after the other."""
    connection = connections[DEFAULT_DB_ALIAS]
    found: list[list[Any]] = []
    defers = [query[3] if len(query) > 3 else () for query in queries]
    with _cursor(connection) as cursor:
        if connection.vendor == "postgresql":
            statements = tuple(query[1] for query in queries)
            _execute(cursor, statements, [p for query in queries for p in query[2]], prepare=prepare)
            for i, query in enumerate(queries):
                if i:
                    cursor.nextset()
                found.append(_build(connection, query[0], _names(cursor), cursor.fetchall(), defers[i]))
            return found
        for query, defer in zip(queries, defers, strict=True):
            cursor.execute(query[1], list(query[2]))
            found.append(_build(connection, query[0], _names(cursor), cursor.fetchall(), defer))
    return found


def _build(
    connection: Any, model: type[M], names: tuple[str, ...], rows: Sequence[Any], defer: Collection[str] = ()
) -> list[M]:
    """The rows as instances of ``model``, their columns named ``names``; the fields named in ``defer``
    may be left out, and are then deferred as the ORM's ``defer()`` leaves them (read on first use)."""
    if not rows:
        return []
    plans = _plans.setdefault(connection, {})
    key = (model, names, tuple(defer))
    plan = plans.get(key)
    if plan is None:
        plan = plans[key] = _plan(model, names, connection, defer)
    order, converters, extras, attnames = plan
    db = connection.alias
    found = []
    for row in rows:
        values = [row[i] for i in order]
        for at, functions, expression in converters:
            value = values[at]
            for convert in functions:
                value = convert(value, expression, connection)
            values[at] = value
        instance = model.from_db(db, attnames, values)
        for i, name in extras:
            setattr(instance, name, row[i])
        found.append(instance)
    return found


_IDLE = 0  # psycopg.pq.TransactionStatus.IDLE: connected, no transaction open


class Kept:
    """The cursors kept on one driver connection (``raw``), one of each kind, each made on first use and
    used again by every statement of that kind on the connection: these reads (``"django"``, a cursor of
    the class Django makes) and the store's appends (``"server"``, binding on the server, and
    ``"client"``, binding here). They belong to that connection: once Django closes it or opens another
    (a health check, a test's reconnection, ``close_old_connections``), the wrapper's connection is no
    longer theirs and new ones are made; a closed one is never used again."""

    __slots__ = ("raw", "cursors")

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.cursors: dict[str, Any] = {}


# Where a connection's wrapper keeps them (an attribute of its own, set by this module only).
_KEPT = "_segnapunti_kept_cursors"


def kept(connection: Any) -> Kept:
    """The cursors kept on the wrapper's current driver connection (which must be open)."""
    raw = connection.connection
    found: Kept | None = connection.__dict__.get(_KEPT)
    if found is None or found.raw is not raw:
        found = connection.__dict__[_KEPT] = Kept(raw)
    return found


def kept_cursor(connection: Any, kind: str, make: Callable[[Any], Any]) -> Any | None:
    """The connection's kept cursor of ``kind`` (PostgreSQL), made by ``make`` from the driver's connection
    when there is none yet or it was closed, inside a ``with`` block guarded as Django's wrapper guards a
    statement (:class:`Guarded`); None where Django must see each statement (``DEBUG``,
    ``CaptureQueriesContext``, an execute wrapper) or the connection is shared between threads, or when
    ``make`` declines (None): the caller then takes a cursor of Django's. The connection is checked as
    Django checks it before a cursor: its health check before its first use in a request, opened if
    need be, and the thread."""
    if connection.queries_logged or connection.execute_wrappers or connection.allow_thread_sharing:
        return None
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    cursors = kept(connection).cursors
    cursor = cursors.get(kind)
    if cursor is None or cursor.closed:
        cursor = make(connection.connection)
        if cursor is None:
            return None
        cursors[kind] = cursor
    connection.validate_thread_sharing()
    return Guarded(connection, cursor)


def _cursor(connection: Any) -> Any:
    """A cursor for a ``with`` block. On PostgreSQL, the connection's own kept cursor (:func:`kept_cursor`)
    of the class Django makes (binding in the client): making a cursor and Django's wrapper around it cost
    about as much client time as one of these reads (issue 29). Where Django must see each statement, the
    connection is shared between threads, or the cursor would need a time zone of its own, Django's
    cursor as before."""
    if connection.vendor == "postgresql":
        guarded = kept_cursor(connection, "django", lambda raw: _django_cursor(connection, raw))
        if guarded is not None:
            return guarded
    return connection.cursor()


def _django_cursor(connection: Any, raw: Any) -> Any | None:
    """A cursor of the driver's connection, of Django's class, or None when Django would register a time
    zone on its cursor (the connection's differs from the one the driver's loader has)."""
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID
    from psycopg.pq import Format

    if connection.timezone != raw.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT).timezone:
        return None
    return raw.cursor()


class Guarded:
    """A cursor kept on a connection, inside a ``with`` block, as Django's wrapper runs a statement: a
    transaction that needs its rollback refuses more statements, and the driver's errors are raised as
    Django's (which also marks the connection as having failed, for its health check). Unlike the
    wrapper, the block's end leaves the cursor open, for the next statement (these reads, and the store's
    appends)."""

    __slots__ = ("cursor", "db")

    def __init__(self, db: Any, cursor: Any) -> None:
        self.db, self.cursor = db, cursor

    def __enter__(self) -> Any:
        self.db.validate_no_broken_transaction()
        return self.cursor

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        self.db.wrap_database_errors.__exit__(kind, error, trace)


def _execute(cursor: Any, statements: Sequence[str], params: list[Any], *, prepare: bool = False) -> None:
    """Run the statements, in one message (:func:`execute_message`). On the kept cursor, when the
    driver would first open the transaction with a ``BEGIN`` of its own (a transaction asked for, none
    open yet: the first read of a write, such as a move's locked hand), its ``BEGIN`` goes in the
    statements' message instead: one round trip, not two. The transaction that results is the driver's
    own, as if it had sent it (the same command, isolation level included); only the driver's
    manual-commit flag is set aside while that message is sent, so that it does not send its own
    first."""
    raw = getattr(cursor, "connection", None)
    if (
        not isinstance(cursor, CursorWrapper)  # the kept cursor itself, not Django's wrapper
        and raw is not None
        and getattr(raw, "_autocommit", True) is False
        and getattr(raw, "_pipeline", True) is None
        and hasattr(raw, "_get_tx_start_command")  # psycopg 3.3's; any other falls back to its own BEGIN
        and raw.pgconn.transaction_status == _IDLE
    ):
        start = raw._get_tx_start_command().decode()
        raw._autocommit = True
        try:
            execute_message(cursor, (start, *statements), params, prepare=prepare)
        finally:
            raw._autocommit = False
        cursor.nextset()  # past the BEGIN's own result
        return
    execute_message(cursor, statements, params, prepare=prepare)


# -- statements prepared once per connection ---------------------------------------------------------
# A statement sent as text is parsed and planned by the server every time; the reads and the append on
# the path of every move are several statements in one message, bound in the client, which the driver
# never prepares. Measured (issue 29, docs/performance.md): a move's statements cost its PostgreSQL
# backend about half the processor once prepared. So, on a kept cursor (PostgreSQL), each statement of
# such a message is prepared on the connection the first time it is sent there (``PREPARE``, in the same
# message: no round trip more) and afterwards sent as ``EXECUTE name(values)``, its values bound here as
# before. A prepared statement outlives the transaction it was made in, even a rolled-back one, and lasts
# as long as the server's session; the names are kept per driver connection, so a new connection
# prepares them again.


class Prepared:
    """The statements prepared on one driver connection: text -> (name, placeholders). ``generation`` is
    in every name: a message that prepared statements and then failed may have made some of them and not
    others, so the names are then forgotten and the next message prepares its statements again under new
    names (a few statements left unused in the server's session, never a name sent that does not exist,
    nor one made twice)."""

    __slots__ = ("names", "generation", "__weakref__")

    def __init__(self) -> None:
        self.names: dict[str, tuple[str, int]] = {}
        self.generation = 0

    def forget(self) -> None:
        self.names.clear()
        self.generation += 1


_prepared: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
_UNWATCHED = object()  # a connection not yet looked at (None: looked at, nothing prepared on it)
PREPARED_MAX = 100  # statements prepared on one connection; any more are sent as text
_PREPARABLE = ("SELECT ", "WITH ", "UPDATE ", "INSERT ", "DELETE ")  # what PREPARE takes (not SET, COMMIT)
_PLACEHOLDER = re.compile(r"%[sb%]")
# What the server answers when a prepared statement is gone (DEALLOCATE, DISCARD ALL) or no longer fits
# its tables (a migration ran under a live connection): the names are forgotten, as after a failure.
_STALE = frozenset({"26000", "0A000"})


def _numbered(sql: str) -> tuple[str, int]:
    """The statement with its placeholders numbered for PREPARE (``%s``, ``%b`` -> ``$1``, ``$2``...; a
    ``%%`` kept for the client's binding of the whole message), and how many there are."""
    count = 0

    def number(found: re.Match[str]) -> str:
        nonlocal count
        if found.group() == "%%":
            return "%%"
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql), count


def preparing(cursor: Any) -> Prepared | None:
    """The statements prepared on the cursor's connection, or None where nothing is prepared: a cursor
    of Django's (its wrapper: Django sees and logs each statement as written) or another driver's.

    The driver prepares statements of its own (``prepare_threshold``, settings.py), and when it drops
    them it drops every statement of the session (``DEALLOCATE ALL``: after any rollback, a savepoint's
    included). So its manager's ``clear``, which sends that, is wrapped once per connection to forget
    these names too; the next message prepares its statements again. A driver without that manager
    (another version than psycopg 3.3's) prepares nothing here."""
    if isinstance(cursor, CursorWrapper):
        return None
    raw = getattr(cursor, "connection", None)
    if raw is None or not hasattr(raw, "pgconn"):
        return None
    found = _prepared.get(raw, _UNWATCHED)  # one lookup: this runs for every message of every move
    if found is _UNWATCHED:
        found = _prepared[raw] = _watch(raw)
    return found if isinstance(found, Prepared) else None


def _watch(raw: Any) -> Prepared | None:
    manager: Any = getattr(raw, "_prepared", None)
    clear = getattr(manager, "clear", None)
    if manager is None or not callable(clear):
        return None
    prepared = Prepared()

    def cleared() -> bool:
        dropped = bool(clear())  # True: DEALLOCATE ALL is sent next, before anything else
        if dropped:
            prepared.forget()
        return dropped

    manager.clear = cleared
    return prepared


def message(prepared: Prepared | None, statements: Sequence[str]) -> tuple[str, int]:
    """The text of one message sending ``statements`` (placeholders as the client binds them), and how
    many statements it prepares. With ``prepared``, each statement that PREPARE takes is sent as its
    ``EXECUTE``; the ones not yet prepared on the connection are prepared first, at the head of the
    message (the statement itself, its placeholders numbered: the server works out their types from
    where they stand). The values are bound in each ``EXECUTE`` in the statement's own order, so the
    caller's parameters do not change."""
    if prepared is None:
        return "; ".join(statements), 0
    making: list[str] = []
    parts: list[str] = []
    names = prepared.names
    for sql in statements:
        found = names.get(sql)
        if found is None:
            if not sql.startswith(_PREPARABLE) or len(names) >= PREPARED_MAX:
                parts.append(sql)
                continue
            numbered, count = _numbered(sql)
            found = names[sql] = (f"segnapunti_{prepared.generation}_{len(names)}", count)
            making.append(f"PREPARE {found[0]} AS {numbered}")
        name, count = found
        parts.append(f"EXECUTE {name}({', '.join(['%s'] * count)})" if count else f"EXECUTE {name}")
    return "; ".join(making + parts), len(making)


def execute_message(
    cursor: Any, statements: Sequence[str], params: list[Any], *, prepare: bool = False
) -> None:
    """Send ``statements`` in one message with ``params`` (all of them, in order), prepared on the
    connection with ``prepare`` where the cursor allows it (:func:`message`), and leave the cursor at the
    first statement's result, as if they had been sent as they are. A failure of a message that prepared
    statements, or an answer that a prepared statement is gone, forgets the connection's names
    (:class:`Prepared`)."""
    prepared = preparing(cursor) if prepare else None
    text, making = message(prepared, statements)
    try:
        cursor.execute(text, params)
    except BaseException as e:
        if prepared is not None and (making or getattr(e, "sqlstate", None) in _STALE):
            prepared.forget()
        raise
    for _ in range(making):  # past the PREPAREs' own results
        cursor.nextset()


def _names(cursor: Any) -> tuple[str, ...]:
    """The columns' names. psycopg's ``description`` builds an object for every column of every
    statement (a wide ``SELECT *`` on the path of every move); its result has the bare names."""
    result = getattr(getattr(cursor, "cursor", cursor), "pgresult", None)
    if result is None:
        return tuple(column[0] for column in cursor.description)
    return tuple(bytes(result.fname(i) or b"").decode() for i in range(result.nfields))


def _plan(model: type[Model], names: tuple[str, ...], connection: Any, defer: Collection[str] = ()) -> _Plan:
    where = {name: i for i, name in enumerate(names)}
    fields = [f for f in model._meta.concrete_fields if f.column in where or f.name not in defer]
    columns = [str(f.column) for f in fields]
    missing = [column for column in columns if column not in where]
    if missing:
        raise ValueError(f"{model.__name__}: the statement does not select {', '.join(missing)}")
    order = tuple(where[column] for column in columns)
    converters = []
    for at, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        functions = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if functions:
            converters.append((at, tuple(functions), column))
    taken = set(columns)
    extras = tuple((i, name) for i, name in enumerate(names) if name not in taken)
    return order, tuple(converters), extras, tuple(f.attname for f in fields)
