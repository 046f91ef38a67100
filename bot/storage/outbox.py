"""The announcement outbox: what must still be posted, kept as durably as the state.

Why: posting to Discord cannot join a database transaction. If a table is closed in the
database and the process dies before the final results are posted, the table is not
restored (it is finished) and the results would be lost for good. So the state change
that makes an announcement due writes it here in the SAME transaction
(``storage.tables.commit_action`` / ``close_table`` take ``announce=``); the poster marks
it delivered after posting (:meth:`OutboxRepo.mark_announced`), and on start-up whatever
is still pending is posted (:meth:`OutboxRepo.pending_announcements`). The same holds for
the jobs ``record_deal`` / ``record_match`` (recording a result after the move that
finished it): written with the move, done after the commit, marked when done.

Invariants:

* **Exactly once in the normal case, at least once across crashes.** An announcement
  becomes pending with its cause and stops being pending only when marked; a crash
  between posting and marking repeats it once, which beats silence.
* **Idempotent writes.** ``(table_id, kind, deal_no)`` is unique and writes are
  ``ON CONFLICT DO NOTHING``: re-writing a due announcement (every save between deals
  does) never revives a delivered one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from bot.storage.conn import Conn, Database, Tx
from bot.storage.records import (
    ANNOUNCEMENT_KINDS,
    Announcement,
    AnnouncementKind,
    AnnouncementRecord,
)
from bot.storage.sqlite import ThreadConn

__all__ = ["OutboxRepo", "check_announcements", "write_announcements"]

# ------------------------------------------------------------- SQLite dialect

_INSERT = (
    "INSERT INTO announcements (table_id, kind, deal_no, payload_json, created_at)"
    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, kind, deal_no) DO NOTHING"
)
_COLS = "announcement_id, table_id, kind, deal_no, payload_json, created_at, delivered_at"
_PENDING = f"SELECT {_COLS} FROM announcements WHERE delivered_at IS NULL"
_ORDER = " ORDER BY announcement_id"
_MARK = (
    "UPDATE announcements SET delivered_at = ?"
    " WHERE table_id = ? AND kind = ? AND deal_no = ? AND delivered_at IS NULL"
)


def check_announcements(announce: Sequence[Announcement]) -> None:
    """Refuse a malformed announcement before any transaction starts (caller bug)."""
    for a in announce:
        if a.kind not in ANNOUNCEMENT_KINDS:
            raise ValueError(f"bad announcement kind {a.kind!r}")
        if a.deal_no < 0:
            raise ValueError("deal_no must not be negative")


async def write_announcements(
    conn: Conn, table_id: str, announce: Sequence[Announcement], ts: float
) -> None:
    """Write ``announce`` inside the caller's open transaction (the state change's)."""
    if announce:
        await conn.executemany(_INSERT, outbox_rows(table_id, announce, ts))


def write_announcements_on(
    conn: ThreadConn, table_id: str, announce: Sequence[Announcement], ts: float
) -> None:
    """:func:`write_announcements` inside a transaction run whole on SQLite's thread
    (:meth:`~bot.storage.sqlite.SqliteDatabase.atomically`)."""
    conn.executemany(_INSERT, outbox_rows(table_id, announce, ts))


def outbox_rows(
    table_id: str, announce: Sequence[Announcement], ts: float
) -> list[tuple[Any, ...]]:
    """The parameter rows of ``_INSERT`` for ``announce``."""
    return [(table_id, a.kind, a.deal_no, a.payload_json, ts) for a in announce]


class OutboxRepo:
    """``storage.outbox``: what is due and not yet done."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def pending_announcements(self, table_id: str | None = None) -> list[AnnouncementRecord]:
        """Announcements not yet marked delivered (optionally one table's), oldest first."""
        sql: str = _PENDING
        args: tuple[Any, ...] = ()
        if table_id is not None:
            sql, args = sql + " AND table_id = ?", (table_id,)
        async with self._db.reading() as conn:
            rows = await conn.fetchall(sql + _ORDER, args)
        return [AnnouncementRecord(*r) for r in rows]

    async def announce(
        self,
        table_id: str,
        announce: Sequence[Announcement],
        *,
        now: float | None = None,
        tx: Tx | None = None,
    ) -> None:
        """Write announcements/jobs of a table on their own (normally they go with the
        state change, ``commit_action(announce=...)``); an existing one is left as is."""
        check_announcements(announce)
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            await write_announcements(t, table_id, announce, ts)

    async def mark_announced(
        self,
        table_id: str,
        kind: AnnouncementKind,
        deal_no: int = 0,
        *,
        now: float | None = None,
        tx: Tx | None = None,
    ) -> bool:
        """Mark one announcement posted (or job done); False if it was not pending
        (unknown, or already marked), so a repeated mark is harmless. With ``tx`` (the
        transaction that did a ``record_*`` job) the job and its mark commit together."""
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            return await t.execute(_MARK, (ts, table_id, kind, deal_no)) > 0
