"""Numbered migrations, per dialect, applied once each: how a database gets its schema.

Why and the invariants:

* ``migrations/<dialect>/NNNN_name.sql``, each applied once in its own transaction and
  recorded in ``schema_version``; a database newer than the code is refused rather than
  misread. Both dialects ship the same numbers and names, so a schema version means the
  same thing on either.
* Numbers are unique but may have gaps: features developed side by side each claim a
  number and merge in any order, so every shipped migration the database has not
  recorded is applied, a lower number merged late included (migrations must therefore not
  depend on a higher-numbered sibling).
* Several processes may migrate one fresh database at once (every shard process starts
  together): each migration's ``BEGIN IMMEDIATE`` takes SQLite's write lock and the
  re-read under it sees what another process committed; PostgreSQL's ``BEGIN`` locks
  nothing up front, so there the whole run holds an advisory lock.

A migration runs on a :meth:`~bot.storage.conn.Database.session` connection (it issues
its own ``BEGIN``/``COMMIT``; the advisory lock is a session lock).
"""

from __future__ import annotations

import contextlib
import importlib.resources
import itertools
import logging
import re
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.storage.conn import Conn, Dialect
from bot.storage.errors import StorageError

__all__ = [
    "Migration",
    "current_version",
    "load_migrations",
    "migrate",
    "migration_notes",
    "split_sql",
]

log = logging.getLogger(__name__)

#: Package whose ``<DIALECT>/`` directory holds the numbered ``.sql`` files.
MIGRATIONS_PACKAGE: Final = "bot.storage.migrations"


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered ``.sql`` file of :mod:`bot.storage.migrations`."""

    version: int
    name: str
    sql: str


_MIGRATION_RE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


def load_migrations(dialect: Dialect = "sqlite") -> list[Migration]:
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


async def current_version(conn: Conn) -> int:
    """Highest applied migration number (0 for an empty database)."""
    return int(await conn.fetchval(_CURRENT_VERSION))


async def applied_versions(conn: Conn) -> set[int]:
    """Every migration number recorded in ``schema_version``."""
    return {int(v) for (v,) in await conn.fetchall("SELECT version FROM schema_version")}


_HAS_NOTES: Final[dict[Dialect, str]] = {
    "sqlite": "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migration_notes'",
    "postgres": "SELECT 1 FROM pg_catalog.pg_tables"
    " WHERE schemaname = current_schema() AND tablename = 'migration_notes'",
}
_NOTES = "SELECT note FROM migration_notes WHERE version = ? ORDER BY id"


async def migration_notes(conn: Conn, version: int) -> list[str]:
    """What migration ``version`` did to existing data that an operator should know
    (e.g. 0003 cancelling duplicate open tables). A migration is plain SQL and cannot
    log, so it leaves rows in ``migration_notes``; :func:`migrate` logs them once, right
    after applying it. Empty before 0003 created the table."""
    if await conn.fetchone(_HAS_NOTES[conn.dialect]) is None:
        return []
    return [str(r[0]) for r in await conn.fetchall(_NOTES, (version,))]


_MIGRATION_LOCK_KEY = "hashtext('paplu migrations ' || COALESCE(current_schema(), ''))"
_MIGRATION_LOCK: Final[dict[Dialect, tuple[str, str] | None]] = {
    "sqlite": None,
    "postgres": (
        f"SELECT pg_advisory_lock({_MIGRATION_LOCK_KEY})",
        f"SELECT pg_advisory_unlock({_MIGRATION_LOCK_KEY})",
    ),
}


async def migrate(conn: Conn, migrations: Sequence[Migration], target: int) -> int:
    """Apply ``migrations`` up to ``target``, each in its own transaction; returns
    the schema version reached. Every migration not yet recorded is applied, also one
    numbered below the highest applied (merged after it). Refuses a database that
    records a migration this code does not ship (newer code wrote it). Safe to run from
    several processes at once: one applies each migration, the others wait and see it."""
    lock = _MIGRATION_LOCK[conn.dialect]
    if lock is None:
        return await _migrate(conn, migrations, target)
    take, give_back = lock
    await conn.fetchall(take)
    try:
        version = await _migrate(conn, migrations, target)
    except BaseException:
        with contextlib.suppress(StorageError):  # must not hide why migrating failed
            await conn.fetchall(give_back)
        raise
    await conn.fetchall(give_back)
    return version


async def _migrate(conn: Conn, migrations: Sequence[Migration], target: int) -> int:
    await conn.execute(_SCHEMA_VERSION_TABLE)
    known = {mig.version for mig in migrations}
    unknown = await applied_versions(conn) - known
    if unknown:
        raise StorageError(
            f"database schema v{max(unknown)} is newer than this code "
            f"(v{max(known, default=0)}): migration(s) {sorted(unknown)} unknown here"
        )
    for mig in migrations:
        if mig.version > target:
            break
        started = time.perf_counter()
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the write lock: another process may have migrated.
            if mig.version in await applied_versions(conn):
                await conn.execute("ROLLBACK")
                continue
            for stmt in split_sql(mig.sql):
                await conn.execute(stmt)
            await conn.execute(_RECORD_VERSION, (mig.version, mig.name, time.time()))
            await conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(StorageError):  # the error that failed it wins
                await conn.execute("ROLLBACK")
            raise
        # One line per migration applied: an operator sees what an upgrade changed (and
        # what a slow start was doing); a database already up to date logs nothing.
        log.info(
            "applied migration %04d %s (%s) in %.0f ms",
            mig.version,
            mig.name,
            conn.dialect,
            (time.perf_counter() - started) * 1000,
        )
        for note in await migration_notes(conn, mig.version):
            log.warning("migration %04d_%s: %s", mig.version, mig.name, note)
    return await current_version(conn)
