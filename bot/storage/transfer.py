"""Moving a bot's data from its SQLite file to PostgreSQL (`paplu-bot migrate-data`).

Why: a server that outgrows one process moves to PostgreSQL (several processes share it), and
must not lose its leaderboards, ratings, histories and settings on the way. Setting
`DATABASE_URL` alone starts an empty database.

What it guarantees:

* **Everything, or nothing.** Every table of the SQLite schema (results, summaries, ratings,
  rating history, names, settings, preferences, tables and their events, the outbox, the
  leases, the migration notes) is copied in ONE PostgreSQL transaction, after both databases
  are at this code's schema version (each migrated as the bot would at its start). The
  tables and their columns are read from the two live schemas, not from a list here, so a
  table a later migration adds is copied without a change (and a schema that differs stops
  the copy before it starts).
* **A consistent source.** The SQLite side is read in one read transaction: one snapshot,
  even if something writes the file meanwhile. A table that a running bot is playing (its
  lease in `table_owners` has not run out) stops the copy: its game would go on in the old
  database after the copy. A stopped bot hands its leases back; after a crash they run out
  within a minute.
* **The target is empty**, unless the operator says to replace what it holds (`replace`):
  its rows are then deleted in the same transaction, before the copy.
* **Counted twice.** Each table's rows are counted in the source, and in the target both
  inside the transaction (a mismatch rolls it back) and again after the commit.
* **Ids go on.** Identity columns keep their values (a deal's id is in its seats and in
  every link to it), and each identity sequence is set past the highest copied value, so the
  first result recorded on PostgreSQL does not collide with a copied one.
* **The order of matches survives.** PostgreSQL's `matches.recorded` stands for SQLite's
  implicit rowid (it breaks ties between matches finished in the same second when ratings are
  replayed), so it is filled from that rowid.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from graphlib import TopologicalSorter
from typing import Final

from bot.storage.conn import Conn, insert_rows
from bot.storage.errors import StorageError
from bot.storage.pg import PgDatabase
from bot.storage.sqlite import SqliteConn, SqliteDatabase

__all__ = ["CopyRefused", "CopyReport", "copy_sqlite_to_postgres"]

#: Not copied: each database keeps its own record of the migrations applied to it (the two
#: are checked to be at the same version instead).
_NOT_COPIED: Final = frozenset({"schema_version"})
#: Target columns the SQLite schema has no column for, filled from the source row's rowid.
_FROM_ROWID: Final[Mapping[str, str]] = {"matches": "recorded"}
#: Rows read and written per batch (a batch is one statement on PostgreSQL).
BATCH: Final = 2000


class CopyRefused(Exception):
    """The copy did not start, or was rolled back: the message says why, for the operator."""


@dataclass(slots=True)
class CopyReport:
    """What was copied: rows per table (source order), and checked."""

    schema_version: int
    counts: dict[str, int] = field(default_factory=dict)
    replaced: dict[str, int] = field(default_factory=dict)  # rows deleted from the target
    sequences: dict[str, int] = field(default_factory=dict)  # "table.column": next value
    seconds: float = 0.0

    @property
    def rows(self) -> int:
        return sum(self.counts.values())


# ------------------------------------------------------------------ the two schemas

_SQLITE_TABLES = (
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
)
_PG_COLUMNS = (
    "SELECT table_name, column_name, data_type FROM information_schema.columns"
    " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
)
_PG_TABLES = (
    "SELECT table_name FROM information_schema.tables"
    " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
)
_PG_IDENTITY = (
    "SELECT table_name, column_name FROM information_schema.columns"
    " WHERE table_schema = current_schema()"
    " AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"
    " ORDER BY table_name, column_name"
)
_LIVE_LEASES = (
    "SELECT o.table_id, o.owner, o.lease_until FROM table_owners AS o"
    " JOIN game_tables AS t ON t.table_id = o.table_id"
    " WHERE t.status IN ('lobby', 'playing') AND o.lease_until > ? ORDER BY o.table_id"
)


def _quoted(name: str) -> str:
    """A table or column name from the schema catalogue, quoted as an SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True, slots=True)
class _Table:
    name: str
    source_columns: tuple[str, ...]  # read from SQLite, in this order
    target_columns: tuple[str, ...]  # written to PostgreSQL, in the same order
    types: tuple[str, ...]  # the PostgreSQL types of target_columns
    rowid: bool  # the last target column is filled from SQLite's rowid


async def _sqlite_schema(conn: Conn) -> dict[str, list[str]]:
    tables = [str(r[0]) for r in await conn.fetchall(_SQLITE_TABLES)]
    return {
        t: [str(c[1]) for c in await conn.fetchall(f"PRAGMA table_info({_quoted(t)})")]
        for t in tables
        if t not in _NOT_COPIED
    }


async def _sqlite_parents(conn: Conn, tables: Sequence[str]) -> dict[str, set[str]]:
    """Each table's parents by foreign key: they are written first (and emptied last)."""
    return {
        t: {
            str(r[2])
            for r in await conn.fetchall(f"PRAGMA foreign_key_list({_quoted(t)})")
            if str(r[2]) != t
        }
        for t in tables
    }


async def _pg_schema(conn: Conn) -> dict[str, dict[str, str]]:
    tables = {str(r[0]) for r in await conn.fetchall(_PG_TABLES)}
    out: dict[str, dict[str, str]] = {}
    for table, column, kind in await conn.fetchall(_PG_COLUMNS):
        if table in tables and table not in _NOT_COPIED:
            out.setdefault(str(table), {})[str(column)] = str(kind)
    return out


def _plan(
    source: Mapping[str, list[str]],
    target: Mapping[str, Mapping[str, str]],
    parents: Mapping[str, set[str]],
) -> list[_Table]:
    """The tables to copy, parents first, each with its column mapping; refuses schemas that
    do not match (the same migrations should have made them alike)."""
    if set(source) != set(target):
        only_source = sorted(set(source) - set(target))
        only_target = sorted(set(target) - set(source))
        raise CopyRefused(
            "the two schemas differ (tables only in SQLite: "
            f"{only_source or 'none'}; only in PostgreSQL: {only_target or 'none'})"
        )
    graph = {t: parents.get(t, set()) & set(source) for t in sorted(source)}
    order = list(TopologicalSorter(graph).static_order())
    plan = []
    for name in order:
        cols = list(source[name])
        target_cols = target[name]
        missing = [c for c in cols if c not in target_cols]
        extra = [c for c in target_cols if c not in cols]
        rowid = _FROM_ROWID.get(name)
        if rowid is not None and extra == [rowid]:
            extra = []
        if missing or extra:
            raise CopyRefused(
                f"table {name} differs: columns only in SQLite {missing or 'none'}, "
                f"only in PostgreSQL {extra or 'none'}"
            )
        written = [*cols, rowid] if rowid is not None else cols
        plan.append(
            _Table(
                name=name,
                source_columns=tuple(cols),
                target_columns=tuple(written),
                types=tuple(target_cols[c] for c in written),
                rowid=rowid is not None,
            )
        )
    return plan


async def _count(conn: Conn, table: str) -> int:
    return int(await conn.fetchval(f"SELECT COUNT(*) FROM {_quoted(table)}"))


# ------------------------------------------------------------------ the copy


async def copy_sqlite_to_postgres(
    source: SqliteDatabase,
    target: PgDatabase,
    *,
    replace: bool = False,
    now: float | None = None,
    progress: Callable[[str, int], None] = lambda _table, _rows: None,
) -> CopyReport:
    """Copy every row of `source` into `target` (both already migrated to this code's
    schema), in one transaction of `target`; see the module docstring. `replace`: the target
    may hold data, which is deleted first (in the same transaction). `progress(table, rows)`
    is called after each table. Raises :class:`CopyRefused` (nothing changed) for a source
    that is being played, a target that is not empty, schemas that differ or counts that do
    not match."""
    started = time.monotonic()
    at = time.time() if now is None else now
    async with source.reading() as src:
        if not isinstance(src, SqliteConn):  # pragma: no cover - the backend is fixed above
            raise TypeError("the source must be a SQLite database")
        # One read transaction: every table is read from the same snapshot.
        await src.execute("BEGIN")
        try:
            return await _copy(src, target, replace, at, started, progress)
        finally:
            await src.execute("COMMIT")


async def _copy(
    src: SqliteConn,
    target: PgDatabase,
    replace: bool,
    at: float,
    started: float,
    progress: Callable[[str, int], None],
) -> CopyReport:
    live = await src.fetchall(_LIVE_LEASES, (at,))
    if live:
        table_id, owner, until = live[0]
        raise CopyRefused(
            f"{len(live)} table(s) are being played from the SQLite database (table {table_id} "
            f"by {owner}, its lease runs for {max(0, round(until - at))} s more): stop the bot "
            "first (a stopped bot hands its tables back; after a crash, wait a minute)"
        )
    source_version = int(await src.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
    source_schema = await _sqlite_schema(src)
    parents = await _sqlite_parents(src, list(source_schema))
    counts = {t: await _count(src, t) for t in source_schema}

    report = CopyReport(schema_version=source_version)
    async with target.transaction(bulk=True) as tx:
        target_version = int(
            await tx.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        )
        if target_version != source_version:
            raise CopyRefused(
                f"the SQLite database is at schema v{source_version} and PostgreSQL at "
                f"v{target_version}: both should be at this code's version"
            )
        plan = _plan(source_schema, await _pg_schema(tx), parents)
        held = {t.name: await _count(tx, t.name) for t in plan}
        if any(held.values()):
            if not replace:
                busy = ", ".join(f"{name} {n}" for name, n in held.items() if n)
                raise CopyRefused(
                    f"the PostgreSQL database already holds data ({busy}): copy into an empty "
                    "database, or pass --force to replace what it holds"
                )
            for table in reversed(plan):  # children first
                if held[table.name]:
                    await tx.execute(f"DELETE FROM {_quoted(table.name)}")
                    report.replaced[table.name] = held[table.name]
        for table in plan:
            await _copy_table(src, tx, table)
            copied = await _count(tx, table.name)
            if copied != counts[table.name]:
                raise CopyRefused(
                    f"table {table.name}: {counts[table.name]} rows in SQLite but {copied} "
                    "written; nothing was changed"
                )
            report.counts[table.name] = copied
            progress(table.name, copied)
        report.sequences = await _advance_sequences(tx)
    # After the commit, from another connection: the rows are there for everyone.
    async with target.reading() as check:
        for name, expected in report.counts.items():
            found = await _count(check, name)
            if found != expected:
                raise StorageError(
                    f"table {name}: {expected} rows copied but {found} found after the commit"
                )
    report.seconds = time.monotonic() - started
    return report


async def _copy_table(src: SqliteConn, tx: Conn, table: _Table) -> None:
    columns = ", ".join(_quoted(c) for c in table.source_columns)
    if table.rowid:
        columns += ", rowid"
    select = f"SELECT {columns} FROM {_quoted(table.name)}"
    if table.rowid:
        select += " ORDER BY rowid"
    insert = (
        f"INSERT INTO {_quoted(table.name)} ({', '.join(_quoted(c) for c in table.target_columns)})"
        " {rows}"
    )
    async for rows in src.batches(select, size=BATCH):
        await insert_rows(tx, insert, table.types, rows)


async def _advance_sequences(tx: Conn) -> dict[str, int]:
    """Set every identity sequence of the target past its column's highest value (copied rows
    kept their ids; the sequence did not count them). Returns each one's next value."""
    out: dict[str, int] = {}
    for table, column in await tx.fetchall(_PG_IDENTITY):
        t, c = _quoted(str(table)), _quoted(str(column))
        top = await tx.fetchval(f"SELECT MAX({c}) FROM {t}")
        following = 1 if top is None else int(top) + 1
        # is_called false: the next nextval() returns `following` itself.
        await tx.fetchval(
            "SELECT setval(pg_get_serial_sequence(?, ?)::regclass, ?, false)",
            (str(t), str(column), following),
        )
        out[f"{table}.{column}"] = following
    return out
