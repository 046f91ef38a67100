"""SQLite through aiosqlite: one writer connection, one reader, writes behind one lock.

Why this shape, and the invariants the repositories rely on:

* **One writer, serialised.** Every write transaction runs on the writer connection
  (``BEGIN IMMEDIATE`` ... ``COMMIT``) while holding an :class:`asyncio.Lock`, so the
  statements of one transaction never interleave with another's: SQLite has one
  connection-wide transaction, and two tasks sharing it would commit each other's work.
  ``IMMEDIATE`` takes the file's write lock up front, so a transaction cannot fail
  half-way on a lock upgrade. A task that asks for a second transaction while it holds
  one gets a ``RuntimeError`` at once instead of waiting on itself forever (pass ``tx=``).
* **Reads beside it.** A second connection (``query_only``) serves reads; in WAL mode it
  sees the last committed state and never waits for the writer. A private
  ``":memory:"`` database cannot be opened twice, so there reads use the writer under the
  lock (and, from inside the lock-holding task's own transaction, without waiting).
* **Cancellation.** A cancelled transaction body is rolled back; the COMMIT and the
  ROLLBACK run to their end even if the awaiting task is cancelled again
  (:func:`~bot.storage.conn.finish`), and only then is the lock released. aiosqlite runs a
  connection's calls in order on its thread, so a statement whose awaiting task was
  cancelled still completes before the ROLLBACK queued after it.
* **Durability.** WAL journal with ``synchronous=FULL`` by default: once a transaction's
  ``async with`` has ended, it survives a crash or power loss. ``foreign_keys=ON``.
* **One translation point.** Every ``sqlite3.Error`` raised by a statement, by opening or
  closing passes :func:`translate_error` in :class:`_Translated` and reaches the caller
  as a :class:`~bot.storage.errors.StorageError`; parameters pass
  :func:`~bot.storage.conn.check_values` first.

aiosqlite's thread is the library's own (one per connection): this module has no thread,
queue or event loop of its own. Each call to it is one hop to that thread and one wake-up of
the event loop when it is done (a write to the loop's self-pipe, and under load the loop's
busiest callback after the requests): :meth:`SqliteDatabase.atomically` runs a whole
transaction in ONE call, for the write made on every game action (``commit_action``: BEGIN,
UPDATE, INSERT, COMMIT were four).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal, TypeVar

import aiosqlite

from bot.storage.conn import Dialect, Tx, check_values, finish, joined
from bot.storage.errors import StorageError, StorageIntegrityError, StorageUnavailable

__all__ = ["SqliteConn", "SqliteDatabase", "Synchronous", "ThreadConn", "translate_error"]

Synchronous = Literal["FULL", "NORMAL"]
T = TypeVar("T")

# Primary SQLite result codes meaning "the database cannot do this now" (as opposed
# to SQLITE_ERROR, a wrong statement, or SQLITE_CONSTRAINT, a refused write).
_UNAVAILABLE_CODES: Final = frozenset(
    {
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_ABORT,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_INTERRUPT,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PROTOCOL,
        sqlite3.SQLITE_NOTADB,
    }
)


def translate_error(exc: sqlite3.Error) -> StorageError:
    """The StorageError a driver error surfaces as (raise it ``from exc``).

    Constraint violations become :class:`StorageIntegrityError`; locked/busy, disk
    full, read-only, I/O, corruption and the like (by SQLite result code) become
    :class:`StorageUnavailable`; anything else (a wrong statement, a misuse) is a
    plain :class:`StorageError`. The SQLite error name is kept in the message.
    """
    code: int | None = getattr(exc, "sqlite_errorcode", None)
    name: str | None = getattr(exc, "sqlite_errorname", None)
    message = f"{name}: {exc}" if name else str(exc) or type(exc).__name__
    err: StorageError
    if isinstance(exc, sqlite3.IntegrityError):
        err = StorageIntegrityError(message)
    elif code is not None and code & 0xFF in _UNAVAILABLE_CODES:
        err = StorageUnavailable(message)
    else:
        err = StorageError(message)
    err.code = _primary_name(name)
    return err


def _primary_name(name: str | None) -> str | None:
    """``SQLITE_READONLY_DBMOVED`` -> ``SQLITE_READONLY``: the primary result code's name,
    which is what a person can act on."""
    if not name:
        return None
    return "_".join(name.split("_")[:2])


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
        if isinstance(exc, sqlite3.Error):
            raise translate_error(exc) from exc
        if isinstance(exc, ValueError) and str(exc) == "no active connection":
            raise StorageUnavailable("storage is closed") from exc


_TRANSLATED: Final = _Translated()


class SqliteConn:
    """:class:`~bot.storage.conn.Conn` over one aiosqlite connection."""

    dialect: Dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        #: Set when this transaction's COMMIT has completed (see conn.Tx).
        self.committed = False

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        check_values(args)
        with _TRANSLATED:
            cursor = await self._conn.execute(sql, args)
        return int(cursor.rowcount)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        for row in batch:
            check_values(row)
        if batch:
            with _TRANSLATED:
                await self._conn.executemany(sql, batch)

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        check_values(args)
        with _TRANSLATED:
            rows = await self._conn.execute_fetchall(sql, args)
        return list(rows)  # type: ignore[arg-type]

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = await self.fetchall(sql, args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, args: Sequence[Any] = ()) -> Any:
        row = await self.fetchone(sql, args)
        return None if row is None else row[0]


class ThreadConn:
    """The writer connection as a body run by :meth:`SqliteDatabase.atomically` sees it, on
    aiosqlite's thread: plain blocking calls, inside the open transaction. Parameters pass
    :func:`~bot.storage.conn.check_values`, as they do on :class:`SqliteConn`; driver errors
    reach the awaiting task, where they are translated."""

    dialect: Dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        check_values(args)
        return int(self._conn.execute(sql, args).rowcount)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        for row in batch:
            check_values(row)
        if batch:
            self._conn.executemany(sql, batch)

    def fetchone(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        check_values(args)
        row: tuple[Any, ...] | None = self._conn.execute(sql, args).fetchone()
        return row


class SqliteDatabase:
    """The SQLite backend (see the module docstring). Create with :meth:`open`."""

    dialect: Dialect = "sqlite"

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection | None) -> None:
        """Use :meth:`open`; this wires connections already configured."""
        self._writer_raw = writer
        self._writer = SqliteConn(writer)
        self._reader = None if reader is None else SqliteConn(reader)
        self._raw = [c for c in (writer, reader) if c is not None]
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._closed = False

    @classmethod
    async def open(cls, target: str, *, synchronous: Synchronous = "FULL") -> SqliteDatabase:
        """Connect and set the pragmas every query relies on. ``":memory:"`` is a private
        in-memory database (one connection); otherwise parent directories are created
        and a second, read-only connection serves reads."""
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError("synchronous must be FULL or NORMAL")
        memory = target == ":memory:"
        if not memory and not target.startswith("file:"):
            try:
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageUnavailable(f"cannot create the database directory: {exc}") from exc
        opened: list[aiosqlite.Connection] = []
        try:
            with _TRANSLATED:
                writer = await _connect(target)
                opened.append(writer)
                for pragma in _COMMON_PRAGMAS:
                    await writer.execute(pragma)
                if not memory:
                    await _enter_wal(writer)
                for pragma in (
                    f"PRAGMA synchronous={synchronous}",  # whitelisted above
                    "PRAGMA foreign_keys=ON",
                ):
                    await writer.execute(pragma)
                reader: aiosqlite.Connection | None = None
                if not memory:
                    reader = await _connect(target)
                    opened.append(reader)
                    for pragma in (*_COMMON_PRAGMAS, "PRAGMA query_only=ON"):
                        await reader.execute(pragma)
        except BaseException:
            for conn in opened:
                await conn.close()
            raise
        return cls(writer, reader)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called."""
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise StorageUnavailable("storage is closed")

    @asynccontextmanager
    async def _locked(self) -> AsyncIterator[None]:
        """Hold the write lock (the writer connection is this task's meanwhile)."""
        self._check_open()
        me = asyncio.current_task()
        if self._owner is not None and self._owner is me:
            raise RuntimeError("this task already holds a transaction: pass it as tx=")
        async with self._lock:
            self._check_open()
            self._owner = me
            try:
                yield
            finally:
                self._owner = None

    def transaction(self, tx: Tx | None = None, *, bulk: bool = False) -> Any:
        """``async with db.transaction() as tx``: a write transaction; ``tx`` given: that
        transaction itself (nothing is committed here). ``bulk`` changes nothing here
        (SQLite statements have no timeout)."""
        if tx is not None:
            return joined(tx)
        return self._transaction()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Tx]:
        async with self._locked():
            conn = SqliteConn(self._writer_raw)  # per transaction: its own `committed`
            try:
                await finish(conn.execute("BEGIN IMMEDIATE"))
                yield conn
            except BaseException:
                await finish(self._rollback())
                raise
            try:
                await finish(_commit(conn))
            except BaseException:
                if not conn.committed:
                    await finish(self._rollback())
                raise

    async def atomically(self, body: Callable[[ThreadConn], T]) -> T:
        """Run ``body`` as one write transaction in a single call on the writer's thread:
        ``BEGIN IMMEDIATE``, ``body``, ``COMMIT`` (``ROLLBACK`` if ``body`` raises, and its
        exception goes on). The same promises as :meth:`transaction` (the write lock held
        throughout; a cancelled caller's transaction still runs to its end first), with one
        hop to the thread and one wake-up of the event loop instead of one per statement.
        ``body`` runs on the thread: it must only make statements (no awaits, no loop).

        aiosqlite has no public call for "run this function on the connection's thread";
        its ``_execute`` is that call (the one every public method goes through), within
        the version range pyproject.toml allows, and a test checks it is one call."""
        raw = self._writer_raw

        def run() -> T:
            conn = raw._conn  # the sqlite3 connection, on its own thread
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = body(ThreadConn(conn))
            except BaseException:
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            try:
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise
            return result

        in_thread: Callable[[Callable[[], T]], Awaitable[T]] = raw._execute
        async with self._locked():
            with _TRANSLATED:
                result = await finish(in_thread(run))
        return result

    async def _rollback(self) -> None:
        """Roll back whatever is open. SQLite already rolls back by itself on some errors
        (disk full, I/O) and BEGIN may not have run: a failing ROLLBACK must not hide the
        error that caused it, so its own failure is ignored (the connection stays usable)."""
        with suppress(StorageError):
            await self._writer.execute("ROLLBACK")

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[SqliteConn]:
        """The reader connection (no lock); for ``":memory:"`` the writer under the lock,
        or directly when this task holds the lock already."""
        self._check_open()
        if self._reader is not None:
            yield self._reader
        elif self._owner is not None and self._owner is asyncio.current_task():
            yield self._writer
        else:
            async with self._locked():
                yield self._writer

    @asynccontextmanager
    async def session(self, *, bulk: bool = False) -> AsyncIterator[SqliteConn]:
        """The writer connection under the lock, in autocommit mode."""
        async with self._locked():
            yield self._writer

    async def close(self) -> None:
        """Wait for the transaction in progress, then close both connections. Idempotent."""
        if self._closed:
            return
        async with self._lock:
            self._closed = True
            for conn in self._raw:
                with _TRANSLATED:
                    await conn.close()


async def _commit(conn: SqliteConn) -> None:
    """COMMIT, and mark the transaction committed as soon as it is (even if the task that
    waits for it was cancelled meanwhile)."""
    await conn.execute("COMMIT")
    conn.committed = True


async def _connect(target: str) -> aiosqlite.Connection:
    """An aiosqlite connection in autocommit mode (transactions are our explicit BEGINs).

    Its thread is made a daemon before it starts: aiosqlite's is not, and a Storage left
    unclosed (a crash path, a forgotten test) would then keep the process from exiting;
    a statement cut off at exit is a crash to SQLite, which the WAL journal survives.

    When the file cannot be opened, aiosqlite stops its thread without waiting for it, and
    the thread's last act is to answer on this event loop. A bot that cannot open its
    database exits at once, so the loop may be closed by then and the thread dies with a
    traceback; waiting for the thread here keeps a failed start quiet."""
    conn = aiosqlite.connect(target, isolation_level=None)
    thread = getattr(conn, "_thread", None)
    if thread is not None and not thread.is_alive():
        thread.daemon = True
    try:
        return await conn
    except Exception:
        if thread is not None and thread.is_alive():
            await asyncio.to_thread(thread.join, 5.0)
        raise


async def _enter_wal(conn: aiosqlite.Connection, patience: float = 10.0) -> None:
    """Switch the file to the WAL journal, waiting for the lock it needs.

    Shard processes start together and open one fresh file at the same moment. Turning a
    file to WAL takes an exclusive lock, and SQLite answers "locked" at once, without
    its busy handler, while another connection holds it for its own switch; so wait here,
    briefly and a bounded number of times, as busy_timeout would have."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    pause = 0.005
    while True:
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if loop.time() + pause > deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.1)


# 64 MiB page cache: leaderboard/index pages of a big guild stay hot.
_COMMON_PRAGMAS: Final = (
    "PRAGMA busy_timeout=5000",
    "PRAGMA cache_size=-65536",
    "PRAGMA temp_store=MEMORY",
)
