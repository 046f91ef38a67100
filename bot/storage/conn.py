"""The async connection shape every storage query is written against, whatever the backend.

Why a protocol: a repository (:mod:`~bot.storage.tables`, :mod:`~bot.storage.results`...)
writes its SQL once, with ``?`` placeholders, against :class:`Conn`; the SQLite backend
(:mod:`bot.storage.sqlite`, aiosqlite) and the PostgreSQL one (:mod:`bot.storage.pg`, an
asyncpg pool) each implement it, so no query can lean on what one driver has and the
other lacks. The few statements that differ are kept per dialect next to the portable
ones (keyed by :attr:`Conn.dialect`).

* **A transaction is a context**: ``async with db.transaction() as tx`` (see
  :class:`Database`); every write method of a repository takes ``tx=`` and, given one,
  runs inside it without committing (:func:`joined`), so the writes of several
  repositories commit or roll back together.
* **Bad values stop here**: every statement's parameters pass :func:`check_values` before
  they reach a driver, so an integer no column can hold is
  :class:`~bot.storage.errors.BadValue` (bad input), never a driver's ``OverflowError``.
* **Commits are not torn**: :func:`finish` runs a COMMIT or ROLLBACK to its end even when
  the task awaiting it is cancelled, then lets the cancellation through.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Final, Literal, Protocol, TypeVar

from bot.storage.errors import BadValue

__all__ = [
    "Batch",
    "Conn",
    "Database",
    "Dialect",
    "Tx",
    "check_values",
    "finish",
    "insert_batches",
    "insert_rows",
    "joined",
]

T = TypeVar("T")

Dialect = Literal["sqlite", "postgres"]

#: Smallest and largest value of a signed 64-bit INTEGER/BIGINT column.
_INT_MIN: Final = -(2**63)
_INT_MAX: Final = 2**63 - 1


class Conn(Protocol):
    """One connection as a query sees it (``?`` placeholders; rows are plain tuples).

    Reads get one in autocommit mode (:meth:`Database.reading`); inside a transaction it
    is a :class:`Tx`. Every method raises :class:`~bot.storage.errors.StorageError` for a
    failure of the database and :class:`~bot.storage.errors.BadValue` for a parameter no
    column can hold."""

    @property
    def dialect(self) -> Dialect: ...

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed (-1 when not counted)."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""
        ...

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row of a query (or of a ``RETURNING`` clause)."""
        ...

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The first row, or None."""
        ...

    async def fetchval(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """The first column of the first row, or None."""
        ...


class Tx(Conn, Protocol):
    """A :class:`Conn` inside an open transaction: its statements commit together when the
    ``async with`` that opened it ends normally, and roll back if it raises (a
    cancellation included).

    ``committed`` turns True once its COMMIT has completed. A task cancelled while the
    COMMIT was on its way sees ``CancelledError`` only after the COMMIT ended (see
    :func:`finish`), so it may have committed: ``committed`` says whether it did."""

    @property
    def committed(self) -> bool: ...


class Database(Protocol):
    """A backend: its dialect, its transactions, its read connections, its lifecycle."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def closed(self) -> bool: ...

    def transaction(
        self, tx: Tx | None = None, *, bulk: bool = False
    ) -> AbstractAsyncContextManager[Tx]:
        """A new transaction, or ``tx`` itself when given (see :func:`joined`). ``bulk``:
        long statements are expected (an import), so a per-statement timeout is relaxed."""
        ...

    def reading(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for reads (autocommit: each statement sees committed data)."""
        ...

    def session(self, *, bulk: bool = False) -> AbstractAsyncContextManager[Conn]:
        """A connection held exclusively, in autocommit mode, that runs its own
        ``BEGIN``/``COMMIT`` statements: migrations, ``VACUUM``, a write that is one
        statement (atomic by itself), and tests that look under the API (``bulk`` as for
        :meth:`transaction`)."""
        ...

    async def close(self) -> None: ...


@asynccontextmanager
async def joined(tx: Tx) -> AsyncIterator[Tx]:
    """A caller's transaction used as is: the statements run in it and nothing is
    committed here (the caller's ``async with`` commits or rolls back everything)."""
    yield tx


def check_values(args: Iterable[Any]) -> None:
    """Refuse an integer outside signed 64 bits (also inside a list: the column arrays of
    PostgreSQL batches) with :class:`BadValue`, before the driver sees it: SQLite raises
    ``OverflowError`` binding it and asyncpg a data error, neither of which is a failure
    of the database."""
    for v in args:
        if type(v) is int:
            if not _INT_MIN <= v <= _INT_MAX:
                raise BadValue(f"{v} does not fit in a 64-bit integer")
        elif type(v) is list:
            for x in v:
                if type(x) is int and not _INT_MIN <= x <= _INT_MAX:
                    raise BadValue(f"{x} does not fit in a 64-bit integer")


async def finish(work: Awaitable[T]) -> T:
    """Await ``work`` to its end even if the calling task is cancelled meanwhile, then
    re-raise the cancellation.

    Why: a COMMIT (or ROLLBACK) abandoned half-way leaves the caller unable to tell whether
    it happened, and the connection or the write lock handed on while the statement still
    runs. Shielded, the statement ends first: the database is either fully committed or
    fully not, and the connection is clean, before the cancellation goes on."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():
                raise
            cancelled = True
    result = task.result()
    if cancelled:
        raise asyncio.CancelledError
    return result


# ------------------------------------------------------------------ batches

#: Rows per statement when PostgreSQL inserts a large batch (bulk loads, rebuilds).
_ROWS_PER_STATEMENT: Final = 20_000


async def insert_rows(
    conn: Conn,
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
    if conn.dialect == "postgres":
        statement = sql.format(rows=_unnest(types))
        out: list[Any] = []
        for i in range(0, len(rows), _ROWS_PER_STATEMENT):
            chunk = rows[i : i + _ROWS_PER_STATEMENT]
            if returning:
                out += await conn.fetchall(statement, _columns(chunk))
            else:
                await conn.execute(statement, _columns(chunk))
        return out
    statement = sql.format(rows="VALUES (" + ",".join("?" * len(types)) + ")")
    if not returning:
        await conn.executemany(statement, rows)
        return []
    return [r for row in rows for r in await conn.fetchall(statement, row)]


#: One batch for :func:`insert_batches`: (INSERT with ``{rows}``, column types, rows).
Batch = tuple[str, Sequence[str], Sequence[Sequence[Any]]]


async def insert_batches(conn: Conn, batches: Sequence[Batch]) -> None:
    """Run several :func:`insert_rows` batches that are independent of each other:
    each writes its own table and none needs to see another's rows.

    Why: the writes of one recorded result (its seats, the players' names and the
    summary rows) are such batches. PostgreSQL gets them as ONE statement, every batch
    but the last a data-modifying ``WITH`` query (each runs exactly once, to
    completion, on the statement's snapshot): one round trip for all of them. SQLite
    runs them one after another."""
    live = [b for b in batches if b[2]]
    if (
        conn.dialect != "postgres"
        or len(live) < 2
        or any(len(rows) > _ROWS_PER_STATEMENT for _sql, _types, rows in live)
    ):
        for sql, types, rows in live:
            await insert_rows(conn, sql, types, rows)
        return
    parts = [sql.format(rows=_unnest(types)) for sql, types, _rows in live]
    statement = (
        "WITH " + ", ".join(f"b{i} AS ({p})" for i, p in enumerate(parts[:-1])) + " " + parts[-1]
    )
    await conn.execute(statement, [col for _sql, _types, rows in live for col in _columns(rows)])


def _unnest(types: Sequence[str]) -> str:
    """PostgreSQL row source: one array parameter per column."""
    return "SELECT * FROM unnest(" + ", ".join(f"?::{t}[]" for t in types) + ")"


def _columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Rows turned into one list per column (the arrays :func:`_unnest` takes)."""
    return [list(col) for col in zip(*rows, strict=True)]
