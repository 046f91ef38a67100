"""The storage's error vocabulary, kept apart so every module (and callers) can name it.

Invariant that upper layers rely on: **every** failure of the database itself reaches
callers as a :class:`StorageError` (the adapter rolls its in-memory game state back
only on that type). Driver exceptions (``sqlite3.Error``, asyncpg's and socket errors) are
translated in one place per backend, :func:`bot.storage.sqlite.translate_error` and
:func:`bot.storage.pg.translate_error`, and kept as
``__cause__`` for the logs. Caller mistakes (a bad sort key, a non-positive timer)
stay ``ValueError``/``TypeError``: they are bugs, not storage failures. A value no column
can hold (an integer outside signed 64 bits, e.g. a typed-in deal id) is
:class:`BadValue`, a ``ValueError`` too: it is refused before it reaches the driver
(:func:`bot.storage.conn.check_values`), because it is the user's bad input, not a
failure of the database.
"""

from __future__ import annotations

__all__ = [
    "BadValue",
    "NotFoundError",
    "StorageError",
    "StorageIntegrityError",
    "StorageUnavailable",
    "VersionConflictError",
]


class StorageError(Exception):
    """Base class for storage errors the caller is expected to handle. ``code`` names the
    driver's primary result code when the database itself reported it (e.g.
    ``"SQLITE_READONLY"``), so a person can be told what to fix; None otherwise."""

    code: str | None = None


class StorageUnavailable(StorageError):
    """The database could not do the work right now: locked/busy beyond the busy
    timeout, disk full, read-only, I/O error, corrupt file, cannot open, or the
    storage is closed. Nothing was written; retrying later may succeed."""


class StorageIntegrityError(StorageError):
    """A constraint of the schema refused a write (a duplicate key that the code did
    not expect, a CHECK, a foreign key). The whole transaction was rolled back."""


class VersionConflictError(StorageError):
    """A write carried a table version that is not newer than the stored one (or the
    table is already closed). The caller holds a stale snapshot and must reload."""


class NotFoundError(StorageError):
    """The referenced table does not exist."""


class BadValue(ValueError):
    """A value no column can hold (an integer outside signed 64 bits), refused before it
    reaches the driver. Not a :class:`StorageError`: nothing is wrong with the database,
    the input is (a typed-in id), and the caller answers it as bad input."""
