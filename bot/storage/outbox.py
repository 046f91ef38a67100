"""The announcement outbox: what must still be posted, kept as durably as the state.

Why: posting to Discord cannot join a database transaction. If a table is closed in the
database and the process dies before the final results are posted, the table is not
restored (it is finished) and the results would be lost for good. So the state change
that makes an announcement due writes it here in the SAME transaction
(:func:`bot.storage.tables.commit_action` / :func:`~bot.storage.tables.close_table` take
``announce=``); the poster marks it delivered after posting (:func:`mark_announced`),
and on start-up whatever is still pending is posted (:func:`pending_announcements`).

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

from bot.storage.conn import Connection
from bot.storage.db import Database
from bot.storage.records import ANNOUNCEMENT_KINDS, Announcement, AnnouncementRecord

__all__ = ["check_announcements", "mark_announced", "pending_announcements", "write_announcements"]

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


def write_announcements(
    conn: Connection, table_id: str, announce: Sequence[Announcement], ts: float
) -> None:
    """Write ``announce`` inside the caller's open transaction (the state change's)."""
    for a in announce:
        conn.execute(_INSERT, (table_id, a.kind, a.deal_no, a.payload_json, ts))


async def pending_announcements(
    db: Database, table_id: str | None = None
) -> list[AnnouncementRecord]:
    """Announcements not yet marked delivered (optionally one table's), oldest first."""

    def q(conn: Connection) -> list[AnnouncementRecord]:
        sql: str = _PENDING
        args: tuple[Any, ...] = ()
        if table_id is not None:
            sql, args = sql + " AND table_id = ?", (table_id,)
        rows: list[Any] = conn.execute(sql + _ORDER, args).fetchall()
        return [AnnouncementRecord(*r) for r in rows]

    return await db.run(q)


async def mark_announced(
    db: Database, table_id: str, kind: str, deal_no: int = 0, *, now: float | None = None
) -> bool:
    """Mark one announcement posted; False if it was not pending (unknown, or already
    marked), so a repeated mark is harmless."""
    ts = time.time() if now is None else now

    def body(conn: Connection) -> bool:
        return conn.execute(_MARK, (ts, table_id, kind, deal_no)).rowcount > 0

    return await db.transaction(body)
