"""The connection shape every storage job is written against, whatever the backend.

Why a protocol: a job is a plain synchronous function given a connection and run as one
transaction on the database's worker thread. SQLite hands it a ``sqlite3.Connection``;
PostgreSQL hands it :class:`~bot.storage.pg.PgConnection`, a synchronous facade over
asyncpg with the same few methods. Aggregate modules type their jobs with
:class:`Connection`, so they cannot lean on anything one driver has and the other lacks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final, Literal, Protocol

__all__ = ["Connection", "Cursor", "Dialect", "dialect_of", "insert_rows"]

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


#: Rows per statement when PostgreSQL inserts a large batch (bulk loads, rebuilds).
_ROWS_PER_STATEMENT: Final = 20_000


def insert_rows(
    conn: Connection,
    sql: str,
    types: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    returning: bool = False,
) -> list[Any]:
    """Run ``sql`` (an INSERT whose row source is written ``{rows}``) for every row of
    ``rows``; ``types`` are the PostgreSQL types of the columns. Returns the rows of a
    ``RETURNING`` clause when ``returning``.

    Why: on PostgreSQL every statement is a round trip, so a batch is one statement
    that takes each column as an array and selects its rows from ``unnest`` (split
    only above :data:`_ROWS_PER_STATEMENT` rows). SQLite runs in-process, so it keeps
    plain ``VALUES`` rows (``executemany``; one ``execute`` per row when rows are
    returned). Either way the rows are inserted in the order given."""
    if not rows:
        return []
    if dialect_of(conn) == "postgres":
        source = "SELECT * FROM unnest(" + ", ".join(f"?::{t}[]" for t in types) + ")"
        statement = sql.format(rows=source)
        out: list[Any] = []
        for i in range(0, len(rows), _ROWS_PER_STATEMENT):
            chunk = rows[i : i + _ROWS_PER_STATEMENT]
            columns = [list(col) for col in zip(*chunk, strict=True)]
            out += conn.execute(statement, columns).fetchall()
        return out if returning else []
    statement = sql.format(rows="VALUES (" + ",".join("?" * len(types)) + ")")
    if not returning:
        conn.executemany(statement, rows)
        return []
    return [r for row in rows for r in conn.execute(statement, row).fetchall()]
