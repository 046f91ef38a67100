"""Game tables and their action log: what lets a running game survive a restart.

Why: the adapter shows an action only after it is durable, and restores open tables
on start-up. A table row holds the engine's opaque snapshot (``state_json``) and a
``version`` that only ever increases; ``game_events`` is the append-only log, with
``seq`` equal to the version the action produced.

Invariants:

* **Optimistic concurrency.** A write applies only if its version is strictly newer
  than the stored one and the table is still open (lobby/playing); otherwise
  :class:`~bot.storage.errors.VersionConflictError`, so a stale writer can never
  overwrite newer state, and a closed table accepts nothing.
* **Snapshot and event together.** :func:`commit_action` writes both in one
  transaction, so after a crash the log and the snapshot always agree.
* Posting a Discord message is not a game action: message ids are recorded without
  bumping the version (:func:`set_table_messages`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Final, Literal

from bot.storage.conn import Connection
from bot.storage.db import INTEGRITY_ERRORS, Database
from bot.storage.errors import NotFoundError, VersionConflictError
from bot.storage.outbox import check_announcements, write_announcements
from bot.storage.records import (
    TABLE_STATUSES,
    UNSET,
    Announcement,
    EventRecord,
    TableRecord,
    TableStatus,
    Unset,
)

__all__ = [
    "append_event",
    "close_table",
    "commit_action",
    "load_events",
    "load_open_tables",
    "load_table",
    "save_table",
    "set_table_messages",
]

# ------------------------------------------------------------- SQLite dialect

_OPEN = "status IN ('lobby', 'playing')"
_TABLE_COLS: Final = (
    "table_id, guild_id, channel_id, host_id, status, state_json, version,"
    " public_message_id, prompt_message_id, turn_deadline, created_at, updated_at"
)
_UPSERT_TABLE = (
    "INSERT INTO game_tables (table_id, guild_id, channel_id, host_id, status,"
    " public_message_id, prompt_message_id, state_json, version, turn_deadline,"
    " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
    " ON CONFLICT (table_id) DO UPDATE SET guild_id = excluded.guild_id,"
    " channel_id = excluded.channel_id, host_id = excluded.host_id,"
    " status = excluded.status, public_message_id = excluded.public_message_id,"
    " prompt_message_id = excluded.prompt_message_id,"
    " state_json = excluded.state_json, version = excluded.version,"
    " turn_deadline = excluded.turn_deadline, updated_at = excluded.updated_at"
    " WHERE excluded.version > game_tables.version"
    f" AND game_tables.{_OPEN}"
)
_INSERT_EVENT = (
    "INSERT INTO game_events (table_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)"
)
_TABLE_EXISTS = "SELECT 1 FROM game_tables WHERE table_id = ?"
_TABLE_VERSION_STATUS = "SELECT version, status FROM game_tables WHERE table_id = ?"
_CLOSE_TABLE = (
    "UPDATE game_tables SET status = ?, turn_deadline = NULL, updated_at = ?"
    f" WHERE table_id = ? AND {_OPEN}"
)
_SELECT_TABLE = f"SELECT {_TABLE_COLS} FROM game_tables WHERE table_id = ?"
_SELECT_OPEN_TABLES = f"SELECT {_TABLE_COLS} FROM game_tables WHERE {_OPEN}"
_OPEN_TABLES_ORDER = " ORDER BY created_at, table_id"
_SELECT_EVENTS = (
    "SELECT table_id, seq, event_json, created_at FROM game_events"
    " WHERE table_id = ? AND seq > ? ORDER BY seq"
)


def _update_action_sql(columns: list[str]) -> str:
    """UPDATE of an open table to a newer version; ``columns`` come from a fixed
    whitelist in :func:`commit_action`, never from input."""
    return (
        f"UPDATE game_tables SET {', '.join(f'{c} = ?' for c in columns)}"
        f" WHERE table_id = ? AND version < ? AND {_OPEN}"
    )


def _update_messages_sql(columns: list[str]) -> str:
    """UPDATE of message ids only (whitelisted columns, see above)."""
    return f"UPDATE game_tables SET {', '.join(f'{c} = ?' for c in columns)} WHERE table_id = ?"


# ----------------------------------------------------------------- writes


async def save_table(
    db: Database,
    table_id: str,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    status: TableStatus,
    state_json: str,
    version: int,
    public_message_id: int | None = None,
    prompt_message_id: int | None = None,
    turn_deadline: float | None = None,
    now: float | None = None,
) -> None:
    """Insert or replace a table snapshot.

    Optimistic concurrency: an update only applies if ``version`` is strictly
    greater than the stored one and the table is still open; otherwise
    :class:`VersionConflictError` (a stale writer must never overwrite newer
    state).
    """
    if status not in TABLE_STATUSES:
        raise ValueError(f"bad status {status!r}")
    ts = time.time() if now is None else now
    params = (
        table_id,
        guild_id,
        channel_id,
        host_id,
        status,
        public_message_id,
        prompt_message_id,
        state_json,
        version,
        turn_deadline,
        ts,
        ts,
    )

    def body(conn: Connection) -> None:
        if conn.execute(_UPSERT_TABLE, params).rowcount == 0:
            raise VersionConflictError(f"table {table_id}: version {version} is stale")

    await db.transaction(body)


async def commit_action(
    db: Database,
    table_id: str,
    version: int,
    state_json: str,
    event_json: str,
    *,
    status: TableStatus | Unset = UNSET,
    turn_deadline: float | Unset | None = UNSET,
    prompt_message_id: int | Unset | None = UNSET,
    public_message_id: int | Unset | None = UNSET,
    announce: Sequence[Announcement] = (),
    now: float | None = None,
) -> None:
    """Durably accept one game action: the new snapshot (``version``) and its
    event (``seq = version``) are written in ONE transaction, so after a crash the
    log and the snapshot always agree. Call before showing the action.

    Raises :class:`VersionConflictError` if ``version`` is not newer than the
    stored one or the table is closed, :class:`NotFoundError` if unknown.
    Optional keyword arguments update those columns too (UNSET = keep).
    ``announce`` is written to the outbox in the same transaction: what this action
    makes due (a deal's results) survives a crash before it is posted.
    """
    if not isinstance(status, Unset) and status not in TABLE_STATUSES:
        raise ValueError(f"bad status {status!r}")
    check_announcements(announce)
    ts = time.time() if now is None else now
    columns = ["version", "state_json", "updated_at"]
    args: list[Any] = [version, state_json, ts]
    for column, value in (
        ("status", status),
        ("turn_deadline", turn_deadline),
        ("prompt_message_id", prompt_message_id),
        ("public_message_id", public_message_id),
    ):
        if not isinstance(value, Unset):
            columns.append(column)
            args.append(value)
    sql = _update_action_sql(columns)
    args += [table_id, version]

    def body(conn: Connection) -> None:
        if conn.execute(sql, args).rowcount == 0:
            _raise_table_conflict(conn, table_id, version)
        conn.execute(_INSERT_EVENT, (table_id, version, event_json, ts))
        write_announcements(conn, table_id, announce, ts)

    await db.transaction(body)


def _raise_table_conflict(conn: Connection, table_id: str, version: int) -> None:
    """Explain why an update matched no row: unknown table, or stale/closed."""
    row = conn.execute(_TABLE_VERSION_STATUS, (table_id,)).fetchone()
    if row is None:
        raise NotFoundError(f"no table {table_id}")
    raise VersionConflictError(
        f"table {table_id}: version {version} rejected (stored {row[0]}, {row[1]})"
    )


async def append_event(
    db: Database, table_id: str, seq: int, event_json: str, *, now: float | None = None
) -> None:
    """Append an event without a snapshot (e.g. chat/system notes). Prefer
    :func:`commit_action` for game actions. Duplicate ``seq`` raises
    :class:`VersionConflictError`; unknown table raises :class:`NotFoundError`."""
    ts = time.time() if now is None else now

    def body(conn: Connection) -> None:
        if conn.execute(_TABLE_EXISTS, (table_id,)).fetchone() is None:
            raise NotFoundError(f"no table {table_id}")
        try:
            conn.execute(_INSERT_EVENT, (table_id, seq, event_json, ts))
        except INTEGRITY_ERRORS as exc:
            raise VersionConflictError(f"table {table_id}: seq {seq} exists") from exc

    await db.transaction(body)


async def set_table_messages(
    db: Database,
    table_id: str,
    *,
    public_message_id: int | Unset | None = UNSET,
    prompt_message_id: int | Unset | None = UNSET,
) -> None:
    """Record Discord message ids without bumping the game version (posting a
    message is not a game action). Raises NotFoundError for unknown tables."""
    columns: list[str] = []
    args: list[Any] = []
    for column, value in (
        ("public_message_id", public_message_id),
        ("prompt_message_id", prompt_message_id),
    ):
        if not isinstance(value, Unset):
            columns.append(column)
            args.append(value)
    if not columns:
        return
    sql = _update_messages_sql(columns)

    def body(conn: Connection) -> None:
        if conn.execute(sql, [*args, table_id]).rowcount == 0:
            raise NotFoundError(f"no table {table_id}")

    await db.transaction(body)


async def close_table(
    db: Database,
    table_id: str,
    status: Literal["finished", "cancelled"],
    *,
    announce: Sequence[Announcement] = (),
    now: float | None = None,
) -> bool:
    """Mark a table finished/cancelled so it is not restored on start-up.
    Returns False if it was unknown or already closed (safe to retry). ``announce``
    (e.g. the match's end) is written to the outbox in the same transaction, and only
    if this call closed the table: a closed table is never restored, so the outbox is
    the only way its last news survives a crash."""
    if status not in ("finished", "cancelled"):
        raise ValueError("close_table status must be 'finished' or 'cancelled'")
    check_announcements(announce)
    ts = time.time() if now is None else now

    def body(conn: Connection) -> bool:
        closed = conn.execute(_CLOSE_TABLE, (status, ts, table_id)).rowcount > 0
        if closed:
            write_announcements(conn, table_id, announce, ts)
        return closed

    return await db.transaction(body)


# ------------------------------------------------------------------ reads


def _table(row: tuple[Any, ...]) -> TableRecord:
    return TableRecord(*row)


async def load_table(db: Database, table_id: str) -> TableRecord | None:
    """One table, whatever its status."""

    def q(conn: Connection) -> TableRecord | None:
        row = conn.execute(_SELECT_TABLE, (table_id,)).fetchone()
        return None if row is None else _table(row)

    return await db.run(q)


async def load_open_tables(db: Database, guild_id: int | None = None) -> list[TableRecord]:
    """All lobby/playing tables (optionally one guild's), oldest first, for
    restoring games after a restart."""

    def q(conn: Connection) -> list[TableRecord]:
        sql = _SELECT_OPEN_TABLES
        args: tuple[Any, ...] = ()
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args = (guild_id,)
        rows = conn.execute(sql + _OPEN_TABLES_ORDER, args).fetchall()
        return [_table(r) for r in rows]

    return await db.run(q)


async def load_events(db: Database, table_id: str, *, after_seq: int = 0) -> list[EventRecord]:
    """A table's events with ``seq > after_seq`` in order (replay / audit)."""

    def q(conn: Connection) -> list[EventRecord]:
        rows = conn.execute(_SELECT_EVENTS, (table_id, after_seq)).fetchall()
        return [EventRecord(*r) for r in rows]

    return await db.run(q)
