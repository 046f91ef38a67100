"""The start-up check of the database (one line saying what is wrong, before connecting), and
the operator's look at it (`paplu-bot check-db`, which changes no data).

Why: a database file that is corrupt, unreadable, read-only or locked by another process
used to surface as a long traceback out of the bot's set-up, after it had already logged
in to Discord. The bot cannot run without a writable database, so ``python -m bot``
checks it first, like the settings, and an admin reads one line naming the file and the
problem (:func:`check_database`).

The check opens the database as the bot will (creating it and applying migrations if
needed), then proves it can write with a change that is rolled back. Opening alone is
not enough: SQLite opens a read-only file without complaint, and a lock held by another
process only shows when writing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from bot.storage import migrate as migrations
from bot.storage.conn import Conn, Database, Dialect
from bot.storage.errors import StorageError
from bot.storage.pg import PgDatabase, is_postgres_url
from bot.storage.sqlite import SqliteDatabase
from bot.storage.storage import Storage

__all__ = ["DatabaseCheck", "check_database", "describe", "inspect_database"]

_PROBLEMS: Final = {
    "SQLITE_NOTADB": "is not a SQLite database (or is corrupt)",
    "SQLITE_CORRUPT": "is corrupt",
    "SQLITE_CANTOPEN": "cannot be opened (check the path and its permissions)",
    "SQLITE_PERM": "cannot be opened: permission denied",
    "SQLITE_AUTH": "cannot be opened: permission denied",
    "SQLITE_READONLY": "is read-only (the bot must be able to write to it and to its folder)",
    "SQLITE_BUSY": "is locked by another process (is another copy of the bot running?)",
    "SQLITE_LOCKED": "is locked by another process (is another copy of the bot running?)",
    "SQLITE_FULL": "cannot be written: the disk is full",
    "SQLITE_IOERR": "cannot be read or written (I/O error)",
    # PostgreSQL, by SQLSTATE
    "28P01": "refuses the login: check the user and password in DATABASE_URL",
    "28000": "refuses the login: this user may not connect",
    "3D000": "has no such database: create it first (createdb)",
    "42501": "refuses the bot: the user lacks the privileges to create and write tables",
    "25006": "is read-only (the bot must be able to write to it)",
    "53100": "cannot be written: the disk is full",
}

# A change that proves the file takes writes; rolled back, so nothing is left behind.
_PROBE: Final = "CREATE TABLE paplu_write_probe (x INTEGER)"


def describe(exc: StorageError) -> str:
    """What is wrong with the database, in words an admin can act on."""
    if exc.code in _PROBLEMS:
        return _PROBLEMS[exc.code]
    return str(exc) or type(exc).__name__


class _RollBack(Exception):
    """Raised to end the probe's transaction by rolling it back."""


async def check_database(path: str | Path) -> str | None:
    """None if the bot can open, migrate and write the database at ``path`` (a SQLite
    file or a ``postgresql://`` URL); otherwise one line: the problem (the caller names
    the database)."""
    try:
        storage = await Storage.open_url(path)
    except StorageError as exc:
        return describe(exc)
    try:
        async with storage.transaction() as tx:
            await tx.execute(_PROBE)
            raise _RollBack
    except _RollBack:
        pass
    except StorageError as exc:
        return describe(exc)
    finally:
        await storage.close()
    return None


# ------------------------------------------------------------------ paplu-bot check-db


@dataclass(slots=True)
class DatabaseCheck:
    """What `paplu-bot check-db` found (it creates, migrates and writes nothing)."""

    dialect: Dialect
    version: int = 0  # highest migration applied
    shipped: int = 0  # highest migration this code ships
    pending: list[str] = field(default_factory=list)  # "0012 tournaments", not applied yet
    unknown: list[int] = field(default_factory=list)  # applied, but newer than this code
    integrity: list[str] = field(default_factory=list)  # problems found (empty: sound)
    rows: dict[str, int] = field(default_factory=dict)  # every table read through
    problem: str | None = None  # could not be checked at all

    @property
    def sound(self) -> bool:
        return self.problem is None and not self.unknown and not self.integrity


_TABLES: Final[dict[Dialect, str]] = {
    "sqlite": "SELECT name FROM sqlite_master WHERE type = 'table'"
    " AND name NOT LIKE 'sqlite_%' ORDER BY name",
    "postgres": "SELECT table_name FROM information_schema.tables"
    " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
}


async def inspect_database(target: str | Path) -> DatabaseCheck:
    """Check a database without changing it: its schema version against the migrations this
    code ships (pending ones are what the bot's next start will apply), its integrity (SQLite's
    `PRAGMA integrity_check` and foreign keys; on both backends every table is read through),
    and its size per table. Unlike the start-up check it neither creates nor migrates."""
    url = str(target)
    dialect: Dialect = "postgres" if is_postgres_url(url) else "sqlite"
    report = DatabaseCheck(dialect)
    if dialect == "sqlite" and not Path(url).is_file():
        report.problem = "does not exist (the bot creates it at its first start)"
        return report
    database: Database
    try:
        if dialect == "sqlite":
            database = await SqliteDatabase.open(url)
        else:
            database = await PgDatabase.open(url, pool_size=1)
    except StorageError as exc:
        report.problem = describe(exc)
        return report
    try:
        async with database.reading() as conn:
            await _inspect(conn, report)
    except StorageError as exc:
        report.problem = describe(exc)
    finally:
        await database.close()
    return report


async def _inspect(conn: Conn, report: DatabaseCheck) -> None:
    shipped = migrations.load_migrations(report.dialect)
    report.shipped = shipped[-1].version if shipped else 0
    tables = [str(r[0]) for r in await conn.fetchall(_TABLES[report.dialect])]
    applied = await migrations.applied_versions(conn) if "schema_version" in tables else set()
    report.version = max(applied, default=0)
    report.pending = [f"{m.version:04d} {m.name}" for m in shipped if m.version not in applied]
    report.unknown = sorted(applied - {m.version for m in shipped})
    if report.dialect == "sqlite":
        found = [str(r[0]) for r in await conn.fetchall("PRAGMA integrity_check")]
        if found != ["ok"]:
            report.integrity.extend(found)
        orphans = await conn.fetchall("PRAGMA foreign_key_check")
        if orphans:
            report.integrity.append(f"{len(orphans)} row(s) whose foreign key points nowhere")
    for table in tables:
        quoted = '"' + table.replace('"', '""') + '"'
        report.rows[table] = int(await conn.fetchval(f"SELECT COUNT(*) FROM {quoted}"))
