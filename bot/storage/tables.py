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
* **Snapshot and event together.** :meth:`TableRepo.commit_action` writes both in one
  transaction, so after a crash the log and the snapshot always agree.
* Posting a Discord message is not a game action: message ids are recorded without
  bumping the version (:meth:`TableRepo.set_table_messages`).

Every write method takes ``tx=``: given, it runs inside that transaction (the caller's
unit of work commits); absent, it runs its own.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Final, Literal, cast

from bot.storage.conn import Conn, Database, Tx, finish
from bot.storage.errors import NotFoundError, StorageIntegrityError, VersionConflictError
from bot.storage.outbox import (
    check_announcements,
    write_announcements,
    write_announcements_on,
)
from bot.storage.records import (
    TABLE_STATUSES,
    UNSET,
    Announcement,
    EventRecord,
    TableRecord,
    TableStatusName,
    Unset,
)
from bot.storage.sqlite import SqliteDatabase, ThreadConn

__all__ = ["TableRepo"]

# ------------------------------------------------------------- SQLite dialect

_OPEN = "status IN ('lobby', 'playing')"
_TABLE_COLS: Final = (
    "table_id, guild_id, channel_id, host_id, status, state_json, version,"
    " public_message_id, prompt_message_id, turn_deadline, created_at, updated_at,"
    " thread_id, lobby_message_id, tournament_id, tournament_round"
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
_EVENT_EXISTS = "SELECT 1 FROM game_events WHERE table_id = ? AND seq = ?"
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
    whitelist in :meth:`TableRepo.commit_action`, never from input."""
    return (
        f"UPDATE game_tables SET {', '.join(f'{c} = ?' for c in columns)}"
        f" WHERE table_id = ? AND version < ? AND {_OPEN}"
    )


# PostgreSQL: the whole action is ONE statement. Each statement is a round trip, and a
# statement is atomic by itself: the update, its event and its outbox rows run as
# data-modifying WITH queries, the event and the rows only for a row the update matched.
# Outside a caller's transaction that is one round trip instead of four (BEGIN, UPDATE,
# INSERT, COMMIT), so a connection of the pool is held for a quarter of the time; the count
# says whether the update matched (0: stale, closed or unknown, explained by a read).
_PG_EVENT = (
    "ev AS (INSERT INTO game_events (table_id, seq, event_json, created_at)"
    " SELECT table_id, ?::bigint, ?::text, ?::float8 FROM up RETURNING seq)"
)
_PG_ANNOUNCE = (
    "an AS (INSERT INTO announcements (table_id, kind, deal_no, payload_json, created_at)"
    " SELECT up.table_id, a.kind, a.deal_no, a.payload, ?::float8"
    " FROM up, unnest(?::text[], ?::bigint[], ?::text[]) AS a (kind, deal_no, payload)"
    " ON CONFLICT (table_id, kind, deal_no) DO NOTHING)"
)


def _pg_action_sql(columns: list[str], announce: bool) -> str:
    """:func:`_update_action_sql`, its event and (``announce``) its outbox rows as one
    PostgreSQL statement returning how many events it wrote (1 or 0)."""
    parts = [f"up AS ({_update_action_sql(columns)} RETURNING table_id)", _PG_EVENT]
    if announce:
        parts.append(_PG_ANNOUNCE)
    return "WITH " + ", ".join(parts) + " SELECT COUNT(*) FROM ev"


def _update_messages_sql(columns: list[str]) -> str:
    """UPDATE of message ids only (whitelisted columns, see above)."""
    return f"UPDATE game_tables SET {', '.join(f'{c} = ?' for c in columns)} WHERE table_id = ?"


# ----------------------------------------------------------------- helpers


def _status(status: str) -> TableStatusName:
    """The status as one of its names; a value that is not one is the caller's bug."""
    if status not in TABLE_STATUSES:
        raise ValueError(f"bad status {status!r}")
    return cast(TableStatusName, str(status))


async def _raise_table_conflict(conn: Conn, table_id: str, version: int) -> None:
    """Explain why an update matched no row: unknown table, or stale/closed."""
    _explain_table_conflict(
        await conn.fetchone(_TABLE_VERSION_STATUS, (table_id,)), table_id, version
    )


def _explain_table_conflict(row: tuple[Any, ...] | None, table_id: str, version: int) -> None:
    """The error for an update that matched no row, from the table's version and status."""
    if row is None:
        raise NotFoundError(f"no table {table_id}")
    raise VersionConflictError(
        f"table {table_id}: version {version} rejected (stored {row[0]}, {row[1]})"
    )


def _table(row: tuple[Any, ...]) -> TableRecord:
    return TableRecord(row[0], row[1], row[2], row[3], _status(row[4]), *row[5:])


class TableRepo:
    """``storage.tables``: game tables and their action log."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # ------------------------------------------------------------- writes

    async def save_table(
        self,
        table_id: str,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        status: TableStatusName,
        state_json: str,
        version: int,
        public_message_id: int | None = None,
        prompt_message_id: int | None = None,
        turn_deadline: float | None = None,
        now: float | None = None,
        tx: Tx | None = None,
    ) -> None:
        """Insert or replace a table snapshot.

        Optimistic concurrency: an update only applies if ``version`` is strictly
        greater than the stored one and the table is still open; otherwise
        :class:`VersionConflictError` (a stale writer must never overwrite newer
        state).
        """
        ts = time.time() if now is None else now
        params = (
            table_id,
            guild_id,
            channel_id,
            host_id,
            _status(status),
            public_message_id,
            prompt_message_id,
            state_json,
            version,
            turn_deadline,
            ts,
            ts,
        )
        async with self._db.transaction(tx) as t:
            if await t.execute(_UPSERT_TABLE, params) == 0:
                raise VersionConflictError(f"table {table_id}: version {version} is stale")

    async def commit_action(
        self,
        table_id: str,
        version: int,
        state_json: str,
        event_json: str,
        *,
        status: TableStatusName | Unset = UNSET,
        turn_deadline: float | Unset | None = UNSET,
        prompt_message_id: int | Unset | None = UNSET,
        public_message_id: int | Unset | None = UNSET,
        announce: Sequence[Announcement] = (),
        now: float | None = None,
        tx: Tx | None = None,
    ) -> None:
        """Durably accept one game action: the new snapshot (``version``) and its
        event (``seq = version``) are written in ONE transaction, so after a crash the
        log and the snapshot always agree. Call before showing the action.

        Raises :class:`VersionConflictError` if ``version`` is not newer than the
        stored one or the table is closed, :class:`NotFoundError` if unknown.
        Optional keyword arguments update those columns too (UNSET = keep).
        ``announce`` is written to the outbox in the same transaction: what this action
        makes due (a deal's results, the jobs recording them) survives a crash before it
        is done.
        """
        check_announcements(announce)
        ts = time.time() if now is None else now
        columns = ["version", "state_json", "updated_at"]
        args: list[Any] = [version, state_json, ts]
        for column, value in (
            ("status", status if isinstance(status, Unset) else _status(status)),
            ("turn_deadline", turn_deadline),
            ("prompt_message_id", prompt_message_id),
            ("public_message_id", public_message_id),
        ):
            if not isinstance(value, Unset):
                columns.append(column)
                args.append(value)
        args += [table_id, version]
        if self._db.dialect == "postgres":
            await self._commit_action_pg(
                table_id, version, event_json, ts, columns, args, announce, tx
            )
            return
        sql = _update_action_sql(columns)
        if tx is None and isinstance(self._db, SqliteDatabase):
            # The whole transaction in one hop to SQLite's thread (see `atomically`).
            def body(t: ThreadConn) -> None:
                if t.execute(sql, args) == 0:
                    _explain_table_conflict(t.fetchone(_TABLE_VERSION_STATUS, (table_id,)),
                                            table_id, version)  # fmt: skip
                t.execute(_INSERT_EVENT, (table_id, version, event_json, ts))
                write_announcements_on(t, table_id, announce, ts)

            await self._db.atomically(body)
            return
        async with self._db.transaction(tx) as t:
            if await t.execute(sql, args) == 0:
                await _raise_table_conflict(t, table_id, version)
            await t.execute(_INSERT_EVENT, (table_id, version, event_json, ts))
            await write_announcements(t, table_id, announce, ts)

    async def _commit_action_pg(
        self,
        table_id: str,
        version: int,
        event_json: str,
        ts: float,
        columns: list[str],
        args: list[Any],
        announce: Sequence[Announcement],
        tx: Tx | None,
    ) -> None:
        """:meth:`commit_action` on PostgreSQL: one statement (see :data:`_PG_EVENT`), in
        the caller's transaction or, without one, alone on a pool connection (a single
        statement commits atomically by itself)."""
        sql = _pg_action_sql(columns, bool(announce))
        params = [*args, version, event_json, ts]
        if announce:
            params += [
                ts,
                [a.kind for a in announce],
                [a.deal_no for a in announce],
                [a.payload_json for a in announce],
            ]
        if tx is not None:
            if await tx.fetchval(sql, params) == 0:
                await _raise_table_conflict(tx, table_id, version)
            return
        async with self._db.session() as conn:
            # The statement is the commit: like a COMMIT, it is not cut off by a
            # cancellation (it ends, then the cancellation goes on).
            if await finish(conn.fetchval(sql, params)) == 0:
                await _raise_table_conflict(conn, table_id, version)

    async def append_event(
        self,
        table_id: str,
        seq: int,
        event_json: str,
        *,
        now: float | None = None,
        tx: Tx | None = None,
    ) -> None:
        """Append an event without a snapshot (e.g. chat/system notes). Prefer
        :meth:`commit_action` for game actions. Duplicate ``seq`` raises
        :class:`VersionConflictError`; unknown table raises :class:`NotFoundError`."""
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            if await t.fetchone(_TABLE_EXISTS, (table_id,)) is None:
                raise NotFoundError(f"no table {table_id}")
            if await t.fetchone(_EVENT_EXISTS, (table_id, seq)) is not None:
                # Checked, not caught: on PostgreSQL a failed statement aborts the whole
                # transaction, which may be the caller's (tx=).
                raise VersionConflictError(f"table {table_id}: seq {seq} exists")
            try:
                await t.execute(_INSERT_EVENT, (table_id, seq, event_json, ts))
            except StorageIntegrityError as exc:  # a concurrent writer took the seq
                raise VersionConflictError(f"table {table_id}: seq {seq} exists") from exc

    async def set_table_messages(
        self,
        table_id: str,
        *,
        public_message_id: int | Unset | None = UNSET,
        prompt_message_id: int | Unset | None = UNSET,
        thread_id: int | Unset | None = UNSET,
        lobby_message_id: int | Unset | None = UNSET,
        tx: Tx | None = None,
    ) -> None:
        """Record Discord message ids (and the thread the table lives in) without bumping
        the game version (posting a message is not a game action). Raises NotFoundError
        for unknown tables."""
        columns: list[str] = []
        args: list[Any] = []
        for column, value in (
            ("public_message_id", public_message_id),
            ("prompt_message_id", prompt_message_id),
            ("thread_id", thread_id),
            ("lobby_message_id", lobby_message_id),
        ):
            if not isinstance(value, Unset):
                columns.append(column)
                args.append(value)
        if not columns:
            return
        sql = _update_messages_sql(columns)
        if tx is None and isinstance(self._db, SqliteDatabase):
            # A ping posted or deleted records its id: one hop, as `commit_action`.
            def body(t: ThreadConn) -> None:
                if t.execute(sql, [*args, table_id]) == 0:
                    raise NotFoundError(f"no table {table_id}")

            await self._db.atomically(body)
            return
        async with self._db.transaction(tx) as t:
            if await t.execute(sql, [*args, table_id]) == 0:
                raise NotFoundError(f"no table {table_id}")

    async def close_table(
        self,
        table_id: str,
        status: Literal["finished", "cancelled"],
        *,
        announce: Sequence[Announcement] = (),
        now: float | None = None,
        tx: Tx | None = None,
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
        async with self._db.transaction(tx) as t:
            closed = await t.execute(_CLOSE_TABLE, (str(status), ts, table_id)) > 0
            if closed:
                await write_announcements(t, table_id, announce, ts)
        return closed

    # -------------------------------------------------------------- reads

    async def load_table(self, table_id: str) -> TableRecord | None:
        """One table, whatever its status."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(_SELECT_TABLE, (table_id,))
        return None if row is None else _table(row)

    async def load_open_tables(self, guild_id: int | None = None) -> list[TableRecord]:
        """All lobby/playing tables (optionally one guild's), oldest first, for
        restoring games after a restart."""
        sql = _SELECT_OPEN_TABLES
        args: tuple[Any, ...] = ()
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args = (guild_id,)
        async with self._db.reading() as conn:
            rows = await conn.fetchall(sql + _OPEN_TABLES_ORDER, args)
        return [_table(r) for r in rows]

    async def load_events(self, table_id: str, *, after_seq: int = 0) -> list[EventRecord]:
        """A table's events with ``seq > after_seq`` in order (replay / audit)."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_SELECT_EVENTS, (table_id, after_seq))
        return [EventRecord(*r) for r in rows]
