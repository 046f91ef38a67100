"""A player's own display preferences: card images or text only, and their language.

Why a separate aggregate: a preference belongs to the person, not to a server or a table, so
it is keyed by the user alone and follows them to every server the bot is in (someone on a
slow connection or using a screen reader wants text everywhere). "No row" and a NULL value
both mean "no choice made": the server's default (``GuildSettings.card_images``) applies.
"""

from __future__ import annotations

import time

from bot.storage.conn import Database, Tx

__all__ = ["PreferenceRepo"]

_SELECT = "SELECT card_images FROM user_preferences WHERE user_id = ?"
_UPSERT = (
    "INSERT INTO user_preferences (user_id, card_images, updated_at) VALUES (?, ?, ?)"
    " ON CONFLICT (user_id) DO UPDATE SET card_images = excluded.card_images,"
    " updated_at = excluded.updated_at"
)


_LANGUAGE_UPSERT = (
    "INSERT INTO user_preferences (user_id, language, updated_at) VALUES (?, ?, ?)"
    " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
    " updated_at = excluded.updated_at"
)
_LANGUAGES = "SELECT user_id, language FROM user_preferences WHERE language IS NOT NULL"


class PreferenceRepo:
    """``storage.preferences``: a player's own display choices."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get_card_images(self, user_id: int) -> bool | None:
        """The user's choice (True: images, False: text only) or None if they never chose."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(_SELECT, (user_id,))
        return None if row is None or row[0] is None else bool(row[0])

    async def set_card_images(
        self,
        user_id: int,
        card_images: bool | None,
        *,
        now: float | None = None,
        tx: Tx | None = None,
    ) -> None:
        """Record the user's choice; None forgets it (the server default applies again)."""
        if card_images is not None and not isinstance(card_images, bool):
            raise ValueError("card_images must be True, False or None")
        value = None if card_images is None else int(card_images)
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            await t.execute(_UPSERT, (user_id, value, ts))

    async def languages(self) -> dict[int, str]:
        """Every player's chosen language (user id -> catalogue tag); players who never
        chose are not in it. Small: only the players who chose are stored."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_LANGUAGES)
        return {int(r[0]): str(r[1]) for r in rows}

    async def set_language(
        self, user_id: int, language: str | None, *, now: float | None = None, tx: Tx | None = None
    ) -> None:
        """Record the player's language (a catalogue tag); None forgets it (their Discord
        client's language applies again)."""
        if language is not None and (not isinstance(language, str) or not 0 < len(language) <= 16):
            raise ValueError("language must be a short language tag or None")
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            await t.execute(_LANGUAGE_UPSERT, (user_id, language, ts))
