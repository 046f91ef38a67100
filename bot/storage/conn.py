"""The connection shape every storage job is written against, whatever the backend.

Why a protocol: a job is a plain synchronous function given a connection and run as one
transaction on the database's worker thread. SQLite hands it a ``sqlite3.Connection``;
PostgreSQL hands it :class:`~bot.storage.pg.PgConnection`, a synchronous facade over
asyncpg with the same few methods. Aggregate modules type their jobs with
:class:`Connection`, so they cannot lean on anything one driver has and the other lacks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final, Literal, Protocol

__all__ = ["Connection", "Cursor", "Dialect", "dialect_of"]

Dialect = Literal["sqlite", "postgres"]


class Cursor(Protocol):
    """What a statement returns: its rows and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """The subset of ``sqlite3.Connection`` the storage jobs use (``?`` placeholders)."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> Cursor: ...

    @property
    def in_transaction(self) -> bool: ...


_DIALECT_ATTR: Final = "paplu_dialect"


def dialect_of(conn: Connection) -> Dialect:
    """Which SQL dialect ``conn`` speaks: for the few statements that differ (each
    module keeps its per-dialect SQL next to the portable one)."""
    found: Dialect = getattr(conn, _DIALECT_ATTR, "sqlite")
    return found
