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

__all__ = [
    "Batch",
    "Connection",
    "Cursor",
    "Dialect",
    "dialect_of",
    "insert_batches",
    "insert_rows",
]

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
        statement = sql.format(rows=_unnest(types))
        out: list[Any] = []
        for i in range(0, len(rows), _ROWS_PER_STATEMENT):
            chunk = rows[i : i + _ROWS_PER_STATEMENT]
            out += conn.execute(statement, _columns(chunk)).fetchall()
        return out if returning else []
    statement = sql.format(rows="VALUES (" + ",".join("?" * len(types)) + ")")
    if not returning:
        conn.executemany(statement, rows)
        return []
    return [r for row in rows for r in conn.execute(statement, row).fetchall()]


#: One batch for :func:`insert_batches`: (INSERT with ``{rows}``, column types, rows).
Batch = tuple[str, Sequence[str], Sequence[Sequence[Any]]]


def insert_batches(conn: Connection, batches: Sequence[Batch]) -> None:
    """Run several :func:`insert_rows` batches that are independent of each other:
    each writes its own table and none needs to see another's rows.

    Why: the writes of one recorded result (its seats, the players' names and the
    summary rows) are such batches. PostgreSQL gets them as ONE statement, every batch
    but the last a data-modifying ``WITH`` query (each runs exactly once, to
    completion, on the statement's snapshot): one round trip for all of them. SQLite
    runs them one after another."""
    live = [b for b in batches if b[2]]
    if (
        dialect_of(conn) != "postgres"
        or len(live) < 2
        or any(len(rows) > _ROWS_PER_STATEMENT for _sql, _types, rows in live)
    ):
        for sql, types, rows in live:
            insert_rows(conn, sql, types, rows)
        return
    parts = [sql.format(rows=_unnest(types)) for sql, types, _rows in live]
    statement = (
        "WITH " + ", ".join(f"b{i} AS ({p})" for i, p in enumerate(parts[:-1])) + " " + parts[-1]
    )
    conn.execute(statement, [col for _sql, _types, rows in live for col in _columns(rows)])


def _unnest(types: Sequence[str]) -> str:
    """PostgreSQL row source: one array parameter per column."""
    return "SELECT * FROM unnest(" + ", ".join(f"?::{t}[]" for t in types) + ")"


def _columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Rows turned into one list per column (the arrays :func:`_unnest` takes)."""
    return [list(col) for col in zip(*rows, strict=True)]
