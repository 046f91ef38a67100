"""Forget-me: erase one user's footprint in one guild without breaking anyone else's.

Why it anonymises instead of deleting results: a deal or match belongs to every
player who sat at it. Deleting the forgotten user's seats would change the other
players' history and make a rebuild of their totals disagree with today's. So:

* the user's own summaries, ratings, rating history and stored name are deleted;
* their seats in results are kept but anonymised (``user_id`` NULL, name
  :data:`DELETED_NAME`), so the other players' results and totals stay intact and a
  later rebuild does not resurrect the user;
* ratings already earned by others are not recomputed; the engine's hand-history JSON
  is opaque and not rewritten; open game tables are untouched.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from bot.storage.db import Database

__all__ = ["DELETED_NAME", "forget_user"]

#: Name written over a forgotten user's seats in other players' results.
DELETED_NAME: Final = "(deleted)"

# ------------------------------------------------------------- SQLite dialect

# Table names are this fixed list, never input.
_SEAT_TABLES: Final = ("deal_seats", "match_seats")
_PERSONAL_TABLES: Final = (
    "player_totals",
    "period_board",
    "ratings",
    "rating_history",
    "player_names",
)
_ANONYMISE = "UPDATE {table} SET user_id = NULL, name = ? WHERE guild_id = ? AND user_id = ?"
_DELETE = "DELETE FROM {table} WHERE guild_id = ? AND user_id = ?"


async def forget_user(db: Database, guild_id: int, user_id: int) -> None:
    """Erase a user's footprint in one guild: stats, ratings, rating history,
    name and summaries are deleted. Their seats in *other players'* results are
    kept but anonymised (user_id NULL, name "(deleted)") so those players'
    results and totals stay correct. Ratings already earned by others are not
    recomputed. The engine's hand-history JSON is opaque and not rewritten.
    Open game tables are untouched."""

    def body(conn: sqlite3.Connection) -> None:
        for table in _SEAT_TABLES:
            conn.execute(_ANONYMISE.format(table=table), (DELETED_NAME, guild_id, user_id))
        for table in _PERSONAL_TABLES:
            conn.execute(_DELETE.format(table=table), (guild_id, user_id))

    await db.transaction(body)
