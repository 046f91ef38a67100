"""The start-up check of the database: one line saying what is wrong, before connecting.

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

from pathlib import Path
from typing import Final

from bot.storage.errors import StorageError
from bot.storage.storage import Storage

__all__ = ["check_database", "describe"]

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
