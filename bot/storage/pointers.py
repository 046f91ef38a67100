"""The players told where `/rummy help` is: one row per (server, player), written when told.

Why stored: a player's first hand view in a server is headed "New to rummy here? …", once.
Kept in memory, "once" meant once per process: every restart, and every other process or
shard that opened the player's view, told them again. The row is claimed by an insert that
does nothing when the row is there already, so whichever process claims it first tells the
player, and no other ever does (``tell_once`` answers True exactly once per row). The row is
the player's own: forget-me deletes it with their other rows in that server
(``privacy.COLUMNS``).
"""

from __future__ import annotations

import time

from bot.storage.conn import Database, Tx

__all__ = ["HelpPointerRepo"]

_CLAIM = (
    "INSERT INTO help_pointers (guild_id, user_id, told_at) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id, user_id) DO NOTHING"
)
_TOLD = "SELECT 1 FROM help_pointers WHERE guild_id = ? AND user_id = ?"


class HelpPointerRepo:
    """``storage.help_pointers``: who was pointed to the help, per server."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def tell_once(
        self, guild_id: int, user_id: int, *, now: float | None = None, tx: Tx | None = None
    ) -> bool:
        """Claim the telling: True if this call recorded it (tell the player now), False if
        the player was told before, by this process or any other."""
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            return await t.execute(_CLAIM, (guild_id, user_id, ts)) == 1

    async def told(self, guild_id: int, user_id: int) -> bool:
        """Was this player told in this server?"""
        async with self._db.reading() as conn:
            return await conn.fetchone(_TOLD, (guild_id, user_id)) is not None
