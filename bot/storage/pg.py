"""PostgreSQL through an asyncpg pool, behind the same :class:`~bot.storage.conn.Conn` as SQLite.

Why it looks like this:

* **A pool, on the bot's own loop.** ``asyncpg.create_pool`` with ``pool_size``
  connections (the bot's ``DATABASE_POOL_SIZE``): the queries of different tables run at
  the same time on different connections, and concurrent commits share the server's WAL
  flush. A transaction holds one connection from ``BEGIN`` to ``COMMIT``; a read borrows
  one for the read.
* **Restarts heal by themselves.** A connection the server dropped is noticed by the pool
  and replaced on the next acquire, so after a restart the next call reconnects; while
  the server is down every call fails fast with
  :class:`~bot.storage.errors.StorageUnavailable` (connect, acquire and command timeouts
  below: nothing waits forever). Storage is never reopened.
* **Cancellation.** A cancelled body is rolled back; COMMIT and ROLLBACK run to their end
  (:func:`~bot.storage.conn.finish`) before the connection returns to the pool. A
  connection whose ROLLBACK fails (its query was cut off mid-flight) is terminated, so
  the server rolls the transaction back and the pool opens a fresh one.
* **One translation point.** :func:`translate_error` turns asyncpg and socket errors into
  :class:`~bot.storage.errors.StorageError` subclasses in :class:`_Translated`, *at the
  statement*, so a repository may catch :class:`~bot.storage.errors.StorageIntegrityError`
  exactly as on SQLite.
* **The dialect, explicitly.** The repositories write ``?``/``?N`` placeholders;
  :func:`to_postgres` rewrites them to ``$N`` with a small scanner that skips string
  literals, quoted identifiers, dollar quotes and comments (tested on each), leaves
  ``$N`` alone, and turns ``BEGIN IMMEDIATE`` into ``BEGIN``. Rows come back as plain
  tuples, and ``numeric`` results (``SUM`` of a bigint, ``* 1.0``) as ``int`` when whole
  and ``float`` otherwise: what SQLite returns for the same query, so the Fraction maths
  above is unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from types import TracebackType
from typing import Any, Final

import asyncpg

from bot.storage.conn import Dialect, Tx, check_values, finish, joined
from bot.storage.errors import StorageError, StorageIntegrityError, StorageUnavailable

__all__ = [
    "ACQUIRE_TIMEOUT",
    "BULK_COMMAND_TIMEOUT",
    "COMMAND_TIMEOUT",
    "CONNECT_TIMEOUT",
    "PgConn",
    "PgDatabase",
    "is_postgres_url",
    "to_postgres",
    "translate_error",
]

_URL_PREFIXES: Final = ("postgres://", "postgresql://")

#: Seconds to open one connection (the server is down or unreachable: fail, do not hang).
CONNECT_TIMEOUT: Final = 5.0
#: Seconds one statement may run before it is cancelled.
COMMAND_TIMEOUT: Final = 30.0
#: The same for bulk work (an import's 20,000-row statements, a guild's summary rebuild,
#: ``VACUUM``), which an operator starts and waits for.
BULK_COMMAND_TIMEOUT: Final = 3600.0
#: Seconds to wait for a free pool connection (including opening a new one).
ACQUIRE_TIMEOUT: Final = 30.0


def is_postgres_url(target: str) -> bool:
    """Whether ``target`` names a PostgreSQL server (anything else is a SQLite path)."""
    return target.startswith(_URL_PREFIXES)


# ------------------------------------------------------------------- dialect

_BEGIN_IMMEDIATE = re.compile(r"^\s*BEGIN\s+IMMEDIATE\s*;?\s*$", re.IGNORECASE)
_DOLLAR_TAG = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$")


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """``?`` → ``$1, $2, …`` and ``?N`` → ``$N``, outside ``'…'`` literals (``''``
    escapes included), ``"…"`` identifiers, ``$tag$…$tag$`` bodies, ``--`` line comments
    and ``/* */`` comments (nested, as PostgreSQL allows); ``$N`` is already
    PostgreSQL's and stays. ``BEGIN IMMEDIATE`` (SQLite's take-the-write-lock-now) →
    ``BEGIN`` (PostgreSQL locks rows as it writes them). Cached: statements repeat."""
    if _BEGIN_IMMEDIATE.match(sql):
        return "BEGIN"
    out: list[str] = []
    counter = 0
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c == "?":
            j = i + 1
            while j < n and sql[j].isdigit():
                j += 1
            if j > i + 1:
                out.append("$" + sql[i + 1 : j])
            else:
                counter += 1
                out.append(f"${counter}")
            i = j
            continue
        if c in "'\"":
            j = i + 1
            while j < n:
                if sql[j] == c:
                    if j + 1 < n and sql[j + 1] == c:  # '' / "" escape
                        j += 2
                        continue
                    break
                j += 1
            out.append(sql[i : j + 1])
            i = j + 1
            continue
        if c == "-" and sql.startswith("--", i):
            j = sql.find("\n", i)
            j = n if j < 0 else j
            out.append(sql[i:j])
            i = j
            continue
        if c == "/" and sql.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if sql.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif sql.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(sql[i:j])
            i = j
            continue
        if c == "$":
            tag = _DOLLAR_TAG.match(sql, i)
            if tag is not None:  # $$ or $name$: a dollar-quoted body up to the same tag
                end = sql.find(tag.group(0), tag.end())
                j = n if end < 0 else end + len(tag.group(0))
                out.append(sql[i:j])
                i = j
                continue
        out.append(c)
        i += 1
    return "".join(out)


# ------------------------------------------------------------------- errors

# SQLSTATE classes meaning "the database cannot do this now": connection (08),
# resources (53), operator intervention (57: the server shutting down), system (58),
# transaction rollback (40: serialization failure, deadlock), lock not available
# (55P03), read-only (25006).
_UNAVAILABLE_CLASSES: Final = frozenset({"08", "53", "57", "58", "40"})
_UNAVAILABLE_STATES: Final = frozenset({"55P03", "25006"})


def translate_error(exc: BaseException) -> StorageError:
    """The StorageError an asyncpg or socket error surfaces as (raise it ``from exc``).

    Integrity violations (SQLSTATE class 23) become :class:`StorageIntegrityError`; a
    lost or refused connection, a timeout and the SQLSTATEs listed above become
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
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)


class _Translated:
    """The one place driver errors become StorageErrors (``with _TRANSLATED:``)."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if isinstance(exc, _DRIVER_ERRORS):
            raise translate_error(exc) from exc


_TRANSLATED: Final = _Translated()


# ------------------------------------------------------------------- connection


def _value(v: Any) -> Any:
    """A numeric as SQLite would return it: int when whole, float otherwise."""
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    return v


def _rows(records: list[Any]) -> list[tuple[Any, ...]]:
    return [tuple(_value(v) for v in r) for r in records]


def _rowcount(status: str | None) -> int:
    """``INSERT 0 3`` / ``UPDATE 2`` / ``DELETE 0`` → the count; -1 for a SELECT, as
    sqlite3 reports it."""
    if not status:
        return -1
    verb, _, rest = status.partition(" ")
    if verb.upper() in ("INSERT", "UPDATE", "DELETE") and rest:
        return int(rest.rsplit(" ", 1)[-1])
    return -1


class PgConn:
    """:class:`~bot.storage.conn.Conn` over one asyncpg connection borrowed from the pool."""

    dialect: Dialect = "postgres"

    def __init__(self, con: Any, timeout: float | None = None) -> None:
        """``timeout``: seconds per statement (None: the pool's :data:`COMMAND_TIMEOUT`)."""
        self._con = con
        self._timeout = timeout
        #: Set when this transaction's COMMIT has completed (see conn.Tx).
        self.committed = False

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        check_values(args)
        with _TRANSLATED:
            status = await self._con.execute(to_postgres(sql), *args, timeout=self._timeout)
        return _rowcount(status)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        for row in batch:
            check_values(row)
        if batch:
            with _TRANSLATED:
                await self._con.executemany(to_postgres(sql), batch, timeout=self._timeout)

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        check_values(args)
        with _TRANSLATED:
            records = await self._con.fetch(to_postgres(sql), *args, timeout=self._timeout)
        return _rows(records)

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = await self.fetchall(sql, args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, args: Sequence[Any] = ()) -> Any:
        row = await self.fetchone(sql, args)
        return None if row is None else row[0]


class PgDatabase:
    """The PostgreSQL backend (see the module docstring). Create with :meth:`open`."""

    dialect: Dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool) -> None:
        """Use :meth:`open`; this wraps a pool already created."""
        self.pool = pool
        self._closed = False

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10) -> PgDatabase:
        """A pool of up to ``pool_size`` connections to ``url`` (``postgresql://…``;
        unknown query parameters such as ``search_path`` are server settings). One
        connection is opened now (a wrong URL fails here), the others when needed."""
        if pool_size < 1:
            raise ValueError("pool_size must be at least 1")
        with _TRANSLATED:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=CONNECT_TIMEOUT,
                command_timeout=COMMAND_TIMEOUT,
                max_inactive_connection_lifetime=300.0,
                reset=_keep_session,
            )
        return cls(pool)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called."""
        return self._closed

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """Borrow a connection; it goes back to the pool (or is dropped) however the
        borrower ends."""
        if self._closed:
            raise StorageUnavailable("storage is closed")
        with _TRANSLATED:
            con = await self.pool.acquire(timeout=ACQUIRE_TIMEOUT)
        try:
            yield con
        finally:
            try:
                await finish(self.pool.release(con, timeout=CONNECT_TIMEOUT))
            except _DRIVER_ERRORS:
                _terminate(con)  # the pool replaces it on the next acquire

    def transaction(self, tx: Tx | None = None, *, bulk: bool = False) -> Any:
        """``async with db.transaction() as tx``: one pool connection from BEGIN to
        COMMIT; ``tx`` given: that transaction itself (nothing is committed here).
        ``bulk``: statements may run up to :data:`BULK_COMMAND_TIMEOUT`."""
        if tx is not None:
            return joined(tx)
        return self._transaction(bulk)

    @asynccontextmanager
    async def _transaction(self, bulk: bool = False) -> AsyncIterator[Tx]:
        async with self._connection() as con:
            conn = PgConn(con, BULK_COMMAND_TIMEOUT if bulk else None)
            try:
                await finish(conn.execute("BEGIN"))
                yield conn
            except BaseException:
                await finish(_rollback(con))
                raise
            try:
                await finish(_commit(conn))
            except BaseException:
                if not conn.committed:
                    await finish(_rollback(con))
                raise

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[PgConn]:
        """A pool connection for reads (autocommit)."""
        async with self._connection() as con:
            yield PgConn(con)

    @asynccontextmanager
    async def session(self, *, bulk: bool = False) -> AsyncIterator[PgConn]:
        """A pool connection held for a while, in autocommit mode (migrations; ``bulk``:
        statements may run up to :data:`BULK_COMMAND_TIMEOUT`)."""
        async with self._connection() as con:
            yield PgConn(con, BULK_COMMAND_TIMEOUT if bulk else None)

    async def close(self) -> None:
        """Close the pool (waiting for borrowed connections up to a timeout). Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            with _TRANSLATED:
                await asyncio.wait_for(self.pool.close(), CONNECT_TIMEOUT * 2)
        except StorageError:
            self.pool.terminate()


async def _commit(conn: PgConn) -> None:
    """COMMIT, and mark the transaction committed as soon as it is (even if the task that
    waits for it was cancelled meanwhile)."""
    await conn.execute("COMMIT")
    conn.committed = True


async def _keep_session(con: Any) -> None:
    """The pool's reset of a returned connection, beyond rolling back an open transaction
    (asyncpg does that first): nothing. Storage never changes session state (the
    migrations' advisory lock is released by :func:`~bot.storage.migrate.migrate`), and
    asyncpg's default reset query would cost every borrow a round trip."""


async def _rollback(con: Any) -> None:
    """Roll back, or when that fails (the connection is lost, or busy with a query cut off
    by a cancellation) terminate the connection: the server then rolls back by itself."""
    try:
        if con.is_in_transaction():
            await con.execute("ROLLBACK")
    except (*_DRIVER_ERRORS, asyncio.CancelledError):
        _terminate(con)


def _terminate(con: Any) -> None:
    """Drop a connection at once; one the pool has already let go of (the server closed
    it) needs nothing more."""
    with contextlib.suppress(*_DRIVER_ERRORS):
        con.terminate()
