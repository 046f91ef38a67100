"""PostgreSQL through asyncpg, behind the same job model as SQLite (:mod:`bot.storage.db`).

Why it looks like this:

* **Same jobs, both backends.** Every storage operation is a synchronous function given
  a connection and run as one transaction on the database's worker thread. asyncpg is
  async, so the worker thread owns a private event loop (never the bot's) and
  :class:`PgConnection` runs each statement to completion on it
  (``loop.run_until_complete``). Jobs stay strictly one after another, a job still runs
  to its end if its awaiting coroutine is cancelled, and no aggregate module knows
  which backend it talks to.
* **One translation point.** :func:`translate_error` turns asyncpg and socket errors into
  :class:`~bot.storage.errors.StorageError` subclasses *at the statement*, so a job may
  catch :class:`~bot.storage.errors.StorageIntegrityError` exactly as it would on SQLite.
* **The dialect, mechanically.** The aggregates write ``?``/``?N`` placeholders;
  :func:`to_postgres` rewrites them to ``$N`` (outside string literals) and turns
  ``BEGIN IMMEDIATE`` into ``BEGIN``. Rows come back as plain tuples, and
  ``numeric`` results (``SUM`` of a bigint, ``* 1.0``) come back as ``int`` when whole
  and ``float`` otherwise: what SQLite returns for the same query, so the Fraction
  maths above (exact money as numerator/denominator integers) is unchanged.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Coroutine, Iterable, Iterator
from decimal import Decimal
from typing import Any, Final, TypeVar

import asyncpg

from bot.storage.conn import Dialect
from bot.storage.db import Database
from bot.storage.errors import StorageError, StorageIntegrityError, StorageUnavailable

__all__ = ["PgConnection", "PgDatabase", "is_postgres_url", "to_postgres", "translate_error"]

T = TypeVar("T")

_URL_PREFIXES: Final = ("postgres://", "postgresql://")


def is_postgres_url(target: str) -> bool:
    """Whether ``target`` names a PostgreSQL server (anything else is a SQLite path)."""
    return target.startswith(_URL_PREFIXES)


# ------------------------------------------------------------------- dialect

_PLACEHOLDER = re.compile(r"\?(\d*)")
_BEGIN_IMMEDIATE = re.compile(r"^\s*BEGIN\s+IMMEDIATE\s*;?\s*$", re.IGNORECASE)


def to_postgres(sql: str) -> str:
    """``?`` → ``$1, $2, …`` and ``?N`` → ``$N`` outside quoted literals; ``BEGIN
    IMMEDIATE`` (SQLite's take-the-write-lock-now) → ``BEGIN`` (PostgreSQL locks rows
    as it writes them)."""
    if _BEGIN_IMMEDIATE.match(sql):
        return "BEGIN"
    counter = 0

    def number(m: re.Match[str]) -> str:
        nonlocal counter
        if m.group(1):
            return f"${m.group(1)}"
        counter += 1
        return f"${counter}"

    parts = sql.split("'")
    # Even-indexed parts are outside single-quoted literals ('' escapes split harmlessly).
    for i in range(0, len(parts), 2):
        parts[i] = _PLACEHOLDER.sub(number, parts[i])
    return "'".join(parts)


# ------------------------------------------------------------------- errors

# SQLSTATE classes meaning "the database cannot do this now": connection (08),
# resources (53), operator intervention (57), system (58), transaction rollback (40:
# serialization failure, deadlock), lock not available (55P03), read-only (25006).
_UNAVAILABLE_CLASSES: Final = frozenset({"08", "53", "57", "58", "40"})
_UNAVAILABLE_STATES: Final = frozenset({"55P03", "25006"})


def translate_error(exc: BaseException) -> StorageError:
    """The StorageError an asyncpg or socket error surfaces as (raise it ``from exc``).

    Integrity violations (SQLSTATE class 23) become :class:`StorageIntegrityError`; a
    lost or refused connection and the SQLSTATEs listed above become
    :class:`StorageUnavailable`; anything else is a plain :class:`StorageError`. The
    SQLSTATE is kept as ``code``."""
    state: str | None = getattr(exc, "sqlstate", None)
    message = f"{state}: {exc}" if state else str(exc) or type(exc).__name__
    err: StorageError
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        err = StorageIntegrityError(message)
    elif isinstance(exc, OSError | asyncpg.InterfaceError | asyncio.TimeoutError) or (
        state is not None and (state[:2] in _UNAVAILABLE_CLASSES or state in _UNAVAILABLE_STATES)
    ):
        err = StorageUnavailable(message)
    else:
        err = StorageError(message)
    err.code = state
    return err


_DRIVER_ERRORS: Final = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    OSError,
    asyncio.TimeoutError,
)


# ------------------------------------------------------------------- connection


def _value(v: Any) -> Any:
    """A numeric as SQLite would return it: int when whole, float otherwise."""
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    return v


class PgCursor:
    """The rows of one statement, already fetched, and its row count."""

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    def fetchone(self) -> Any:
        if self._next >= len(self._rows):
            return None
        row = self._rows[self._next]
        self._next += 1
        return row

    def fetchall(self) -> list[Any]:
        rest = self._rows[self._next :]
        self._next = len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


# Statements that return rows or a row count go through a (cached) prepared statement;
# anything else (BEGIN, COMMIT, DDL) through the simple protocol.
_PREPARED = re.compile(r"^\s*(SELECT|WITH|INSERT|UPDATE|DELETE|VALUES)\b", re.IGNORECASE)
_STATEMENT_CACHE_SIZE: Final = 256


class PgConnection:
    """A synchronous, ``sqlite3``-shaped facade over one asyncpg connection, used only
    on the worker thread that owns ``loop``."""

    paplu_dialect: Dialect = "postgres"

    def __init__(self, loop: asyncio.AbstractEventLoop, conn: asyncpg.Connection) -> None:
        self._loop = loop
        self._conn = conn
        self._statements: dict[str, Any] = {}

    def _wait(self, coro: Coroutine[Any, Any, T]) -> T:
        try:
            return self._loop.run_until_complete(coro)
        except _DRIVER_ERRORS as exc:
            raise translate_error(exc) from exc

    @property
    def in_transaction(self) -> bool:
        return bool(self._conn.is_in_transaction())

    def _statement(self, sql: str) -> Any:
        stmt = self._statements.get(sql)
        if stmt is None:
            stmt = self._wait(self._conn.prepare(sql))
            if len(self._statements) >= _STATEMENT_CACHE_SIZE:
                self._statements.clear()
            self._statements[sql] = stmt
        return stmt

    def execute(self, sql: str, parameters: Any = (), /) -> PgCursor:
        query = to_postgres(sql)
        if not _PREPARED.match(query):
            if parameters:
                raise StorageError("parameters are only supported on row statements")
            self._wait(self._conn.execute(query))
            if not query.upper().startswith(("BEGIN", "COMMIT", "ROLLBACK")):
                self._statements.clear()  # DDL may change what a cached plan returns
            return PgCursor([], -1)
        stmt = self._statement(query)
        records = self._wait(stmt.fetch(*parameters))
        rows = [tuple(_value(v) for v in r) for r in records]
        return PgCursor(rows, _rowcount(stmt.get_statusmsg()))

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> PgCursor:
        args = [tuple(p) for p in parameters]
        if args:
            self._wait(self._conn.executemany(to_postgres(sql), args))
        return PgCursor([], -1)

    def close(self) -> None:
        self._statements.clear()
        self._wait(self._conn.close())


def _rowcount(status: str | None) -> int:
    """``INSERT 0 3`` / ``UPDATE 2`` / ``DELETE 0`` → the count; -1 for a SELECT, as
    sqlite3 reports it."""
    if not status:
        return -1
    verb, _, rest = status.partition(" ")
    if verb.upper() in ("INSERT", "UPDATE", "DELETE") and rest:
        return int(rest.rsplit(" ", 1)[-1])
    return -1


class PgDatabase(Database):
    """One asyncpg connection driven by the worker thread (its own event loop).
    Create with :meth:`open_url`."""

    THREAD_NAME = "paplu-postgres"
    DIALECT: Dialect = "postgres"

    @classmethod
    async def open_url(cls, url: str) -> PgDatabase:
        """Connect to ``url`` (``postgresql://…``; unknown query parameters such as
        ``search_path`` are server settings) on the worker thread."""
        db = cls(url)
        db._thread.start()
        try:
            await db._submit(db._connect_pg)
        except BaseException:
            await db.close()
            raise
        return db

    def _connect_pg(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            conn = loop.run_until_complete(asyncpg.connect(self._target, timeout=10))
        except _DRIVER_ERRORS as exc:
            loop.close()
            raise translate_error(exc) from exc
        except BaseException:
            loop.close()
            raise
        self._loop = loop
        self._conn = PgConnection(loop, conn)

    def _disconnect(self) -> None:
        conn, self._conn = self._conn, None
        loop: asyncio.AbstractEventLoop | None = getattr(self, "_loop", None)
        try:
            if isinstance(conn, PgConnection):
                conn.close()
        finally:
            if loop is not None:
                loop.close()
