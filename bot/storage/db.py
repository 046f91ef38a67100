"""The SQLite connection, its migrations and its transactions: the storage's engine room.

Why this module exists and the invariants it keeps (the aggregate modules build on them):

* **One connection, one worker thread, one job per operation.** :class:`Database` owns
  a ``sqlite3`` connection that is created, used and closed only on its own worker
  thread. Every storage operation hands that thread ONE synchronous function that does
  the whole job (for writes: ``BEGIN IMMEDIATE`` ... ``COMMIT``/``ROLLBACK``, see
  :func:`write_transaction`). Jobs run strictly one after another in submission order,
  so operations never interleave and no ``asyncio.Lock`` is needed. A job always runs
  to its end even if the awaiting coroutine is cancelled, so a cancellation can never
  leave a half-finished transaction open. One thread hop per operation (instead of one
  per statement) is what keeps ``commit_action`` and ``record_deal_result`` within
  their latency targets. (This used to ride on aiosqlite's private ``_execute``/
  ``_conn``; owning the thread needs no private API of anyone and ~60 lines.)
* **Durability.** WAL journal with ``synchronous=FULL`` by default: once a write job
  returns, it survives a crash or power loss. ``foreign_keys=ON`` so events cannot
  outlive their table row.
* **One translation point for failures.** Every ``sqlite3.Error`` raised by a job, by
  opening or by closing is turned into a :class:`~bot.storage.errors.StorageError`
  (:func:`translate_error`) before it reaches a coroutine; upper layers roll their
  in-memory state back on that type only.
* **Numbered migrations** (``migrations/<dialect>/NNNN_name.sql``), each applied once in
  its own transaction and recorded in ``schema_version``; a database newer than the
  code is refused rather than misread. Numbers are unique but may have gaps: features
  developed side by side each claim a number and merge in any order, so every shipped
  migration the database has not recorded is applied, a lower number merged late
  included (migrations must therefore not depend on a higher-numbered sibling).

Everything SQLite-specific that is not a query of one aggregate (pragmas, ``BEGIN
IMMEDIATE``, statement splitting, result codes) lives here. PostgreSQL is the sibling
:mod:`bot.storage.pg`: it reuses this worker, queue and migration runner and replaces only
connecting, statements and error translation; jobs see either through the
:class:`~bot.storage.conn.Connection` protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import itertools
import logging
import queue
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, TypeVar

from bot.storage.conn import Connection, Dialect, dialect_of
from bot.storage.errors import StorageError, StorageIntegrityError, StorageUnavailable

__all__ = [
    "INTEGRITY_ERRORS",
    "Database",
    "Migration",
    "Synchronous",
    "load_migrations",
    "migrate",
    "migration_notes",
    "split_sql",
    "translate_error",
    "write_transaction",
]

log = logging.getLogger(__name__)

T = TypeVar("T")
Synchronous = Literal["FULL", "NORMAL"]

#: Package whose ``<DIALECT>/`` directory holds the numbered ``.sql`` files.
MIGRATIONS_PACKAGE: Final = "bot.storage.migrations"
DIALECT: Final = "sqlite"

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


#: What a refused write raises *inside* a job, on either backend: SQLite's driver error
#: (translated only when the job ends) or the already translated PostgreSQL one.
INTEGRITY_ERRORS: Final = (sqlite3.IntegrityError, StorageIntegrityError)


# ------------------------------------------------------------------ migrations


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered ``.sql`` file of :mod:`bot.storage.migrations`."""

    version: int
    name: str
    sql: str


_MIGRATION_RE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


def load_migrations(dialect: Dialect = DIALECT) -> list[Migration]:
    """All migrations shipped in :mod:`bot.storage.migrations` for this dialect,
    ordered by version. Versions must be unique (two files claiming one number would
    make "applied" ambiguous); gaps are allowed, see :func:`migrate`. Read through
    importlib.resources: works from a source checkout and from an installed package
    alike."""
    found: list[Migration] = []
    root = importlib.resources.files(MIGRATIONS_PACKAGE).joinpath(dialect)
    for entry in root.iterdir():
        m = _MIGRATION_RE.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text("utf-8")))
    found.sort(key=lambda mig: mig.version)
    for before, mig in itertools.pairwise(found):
        if mig.version == before.version:
            raise StorageError(f"duplicate migration number {mig.version:04d}")
    if found and found[0].version < 1:
        raise StorageError("migration numbers start at 0001")
    return found


def split_sql(script: str) -> list[str]:
    """Split a migration into statements (sqlite3.complete_statement understands
    strings, comments and trigger bodies), so each runs inside our transaction
    instead of through executescript, which would COMMIT on its own."""
    statements: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            stmt = buf.strip()
            if stmt.rstrip(";").strip():
                statements.append(stmt)
            buf = ""
    rest = "\n".join(
        ln for ln in buf.splitlines() if ln.strip() and not ln.strip().startswith("--")
    )
    if rest.strip():
        raise StorageError(f"incomplete SQL statement at end of migration: {rest[:80]!r}")
    return statements


# DOUBLE PRECISION is a float8 in PostgreSQL and REAL affinity in SQLite: one spelling.
_SCHEMA_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
)
_CURRENT_VERSION = "SELECT COALESCE(MAX(version), 0) FROM schema_version"
_RECORD_VERSION = "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)"


def current_version(conn: Connection) -> int:
    """Highest applied migration number (0 for an empty database)."""
    (version,) = conn.execute(_CURRENT_VERSION).fetchone()
    return int(version)


def applied_versions(conn: Connection) -> set[int]:
    """Every migration number recorded in ``schema_version``."""
    return {int(v) for (v,) in conn.execute("SELECT version FROM schema_version")}


_HAS_NOTES: Final[dict[Dialect, str]] = {
    "sqlite": "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migration_notes'",
    "postgres": "SELECT 1 FROM pg_catalog.pg_tables"
    " WHERE schemaname = current_schema() AND tablename = 'migration_notes'",
}
_NOTES = "SELECT note FROM migration_notes WHERE version = ? ORDER BY id"


def migration_notes(conn: Connection, version: int) -> list[str]:
    """What migration ``version`` did to existing data that an operator should know
    (e.g. 0003 cancelling duplicate open tables). A migration is plain SQL and cannot
    log, so it leaves rows in ``migration_notes``; :func:`migrate` logs them once, right
    after applying it. Empty before 0003 created the table."""
    if conn.execute(_HAS_NOTES[dialect_of(conn)]).fetchone() is None:
        return []
    return [str(r[0]) for r in conn.execute(_NOTES, (version,))]


# Several processes may open one fresh database at the same moment (`docker compose up`
# starts every shard process at once). On SQLite each migration's BEGIN IMMEDIATE takes the
# write lock, and the re-read under it sees what another process committed. PostgreSQL's
# BEGIN locks nothing up front, so two processes would both apply a migration and the second
# would fail on the tables the first created: there, the whole run holds an advisory lock
# (per schema, so databases in other schemas of the server do not wait on each other).
_MIGRATION_LOCK_KEY = "hashtext('paplu migrations ' || COALESCE(current_schema(), ''))"
_MIGRATION_LOCK: Final[dict[Dialect, tuple[str, str] | None]] = {
    "sqlite": None,
    "postgres": (
        f"SELECT pg_advisory_lock({_MIGRATION_LOCK_KEY})",
        f"SELECT pg_advisory_unlock({_MIGRATION_LOCK_KEY})",
    ),
}


def migrate(conn: Connection, migrations: Sequence[Migration], target: int) -> int:
    """Apply ``migrations`` up to ``target``, each in its own transaction; returns
    the schema version reached. Every migration not yet recorded is applied, also one
    numbered below the highest applied (merged after it). Refuses a database that
    records a migration this code does not ship (newer code wrote it). Safe to run from
    several processes at once: one applies each migration, the others wait and see it."""
    lock = _MIGRATION_LOCK[dialect_of(conn)]
    if lock is None:
        return _migrate(conn, migrations, target)
    take, give_back = lock
    conn.execute(take)
    try:
        version = _migrate(conn, migrations, target)
    except BaseException:
        with contextlib.suppress(StorageError):  # must not hide why migrating failed
            conn.execute(give_back)
        raise
    conn.execute(give_back)
    return version


def _migrate(conn: Connection, migrations: Sequence[Migration], target: int) -> int:
    conn.execute(_SCHEMA_VERSION_TABLE)
    known = {mig.version for mig in migrations}
    unknown = applied_versions(conn) - known
    if unknown:
        raise StorageError(
            f"database schema v{max(unknown)} is newer than this code "
            f"(v{max(known, default=0)}): migration(s) {sorted(unknown)} unknown here"
        )
    for mig in migrations:
        if mig.version > target:
            break
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the write lock: another process may have migrated.
            if mig.version in applied_versions(conn):
                conn.execute("ROLLBACK")
                continue
            for stmt in split_sql(mig.sql):
                conn.execute(stmt)
            conn.execute(_RECORD_VERSION, (mig.version, mig.name, time.time()))
            conn.execute("COMMIT")
        except BaseException:
            _rollback_quietly(conn)
            raise
        for note in migration_notes(conn, mig.version):
            log.warning("migration %04d_%s: %s", mig.version, mig.name, note)
    return current_version(conn)


# ---------------------------------------------------------------- transactions


def _rollback_quietly(conn: Connection) -> None:
    """Roll back if a transaction is still open. SQLite already rolls back by itself
    on some errors (disk full, I/O); a failing ROLLBACK must not hide the error that
    caused it, so its own failure is ignored (the connection stays usable)."""
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error, StorageError):
            conn.execute("ROLLBACK")


def write_transaction(conn: Connection, body: Callable[[Connection], T]) -> T:
    """Run ``body`` in an explicit write transaction (taken up-front with IMMEDIATE so
    it cannot fail half-way with SQLITE_BUSY on lock upgrade). Any exception, also one
    from COMMIT, rolls everything back and propagates. Runs on the worker thread."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn)
        conn.execute("COMMIT")
    except BaseException:
        _rollback_quietly(conn)
        raise
    return result


# -------------------------------------------------------------------- database


_Job = tuple[Callable[[], Any], "asyncio.Future[Any]"]


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    """Deliver a job's outcome on the loop thread, unless the waiter is gone."""
    if future.done():  # the awaiting coroutine was cancelled: the job still ran
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class Database:
    """One SQLite connection driven by its own worker thread. Create with :meth:`open`.

    :class:`~bot.storage.pg.PgDatabase` reuses the worker, the job queue and the error
    translation point, and replaces only connecting and disconnecting."""

    THREAD_NAME = "paplu-sqlite"
    #: The SQL dialect of this backend's migrations and per-aggregate statements.
    DIALECT: Dialect = "sqlite"

    def __init__(self, target: str) -> None:
        """Use :meth:`open`; this only prepares the (not yet started) worker."""
        self._target = target
        self._conn: Connection | None = None
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        # Daemon: a Storage that is never closed must not keep the process alive; a
        # job cut off at interpreter exit is a crash to SQLite, which WAL survives.
        self._thread = threading.Thread(target=self._work, name=self.THREAD_NAME, daemon=True)

    @classmethod
    async def open(cls, target: str, *, synchronous: Synchronous = "FULL") -> Database:
        """Connect (on the worker thread) and set the pragmas every job relies on.
        ``":memory:"`` is a private in-memory database; otherwise parent directories
        are created."""
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError("synchronous must be FULL or NORMAL")
        if target != ":memory:" and not target.startswith("file:"):
            try:
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageUnavailable(f"cannot create the database directory: {exc}") from exc
        db = cls(target)
        db._thread.start()
        try:
            await db._submit(lambda: db._connect(synchronous))
        except BaseException:
            await db.close()
            raise
        return db

    def _connect(self, synchronous: Synchronous) -> None:
        conn = sqlite3.connect(self._target, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={synchronous}")  # whitelisted in open()
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=5000")
            # 64 MiB page cache: leaderboard/index pages of a big guild stay hot.
            conn.execute("PRAGMA cache_size=-65536")
            conn.execute("PRAGMA temp_store=MEMORY")
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called (no more jobs are accepted)."""
        return self._closed

    async def run(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn(connection)`` as one job on the worker thread. Reads run in
        autocommit mode; use :meth:`transaction` (or :func:`write_transaction`
        inside ``fn``) to write."""
        if self._closed:
            raise StorageUnavailable("storage is closed")

        def job() -> T:
            conn = self._conn
            if conn is None:
                raise StorageUnavailable("storage is closed")
            return fn(conn)

        return await self._submit(job)

    async def transaction(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` inside one write transaction, as one job."""
        return await self.run(lambda conn: write_transaction(conn, fn))

    async def close(self) -> None:
        """Finish the jobs already queued, close the connection, stop the worker.
        Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._thread.is_alive():
                await self._submit(self._disconnect)
        finally:
            self._jobs.put(None)  # the worker stops after the jobs queued before it

    def _disconnect(self) -> None:
        conn, self._conn = self._conn, None
        if isinstance(conn, sqlite3.Connection):
            conn.close()

    def _submit(self, job: Callable[[], T]) -> asyncio.Future[T]:
        """Queue ``job`` for the worker; the future settles on the calling loop."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((job, future))
        return future

    def _work(self) -> None:
        """Worker thread: run jobs in order; translate driver errors (the single
        translation point) and hand outcomes back to the waiting loop."""
        while (item := self._jobs.get()) is not None:
            job, future = item
            ok = False
            value: Any
            try:
                value = job()
                ok = True
            except sqlite3.Error as exc:
                value = translate_error(exc)
                value.__cause__ = exc
            except BaseException as exc:  # delivered to the waiter, never lost here
                value = exc
            # A closed loop (RuntimeError) means nobody is waiting any more.
            with contextlib.suppress(RuntimeError):
                future.get_loop().call_soon_threadsafe(_settle, future, ok, value)
