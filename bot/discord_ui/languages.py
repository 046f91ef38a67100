"""Each player's own language for private messages (`/rummy language`).

Discord sends every interaction with the user's client language, and private answers follow
it; a player may choose another (their Discord in English, their game in Hindi, or the other
way round). The choices are few (only players who chose are stored), and every private answer
needs one at once, without a database read on the way: so they are held in memory, loaded at
start and re-read every `REFRESH` seconds, which is how a choice made through another shard
process reaches this one. A choice made here is stored first: a failed write changes nothing.
"""

from __future__ import annotations

import asyncio
import logging

from bot.storage import Storage, StorageError

log = logging.getLogger(__name__)

#: Seconds between re-reads of the stored choices (another process's changes arrive then).
REFRESH = 60.0


class LanguagePreferences:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._chosen: dict[int, str] = {}

    def of(self, user_id: int) -> str | None:
        """The language this player chose, or None (their Discord client's applies)."""
        return self._chosen.get(user_id)

    async def load(self) -> None:
        self._chosen = await self.storage.preferences.languages()

    async def choose(self, user_id: int, language: str | None) -> None:
        """Remember a player's language (None: follow their Discord client again)."""
        await self.storage.preferences.set_language(user_id, language)
        if language is None:
            self._chosen.pop(user_id, None)
        else:
            self._chosen[user_id] = language

    async def keep_fresh(self) -> None:
        """Re-read the stored choices now and then; a storage hiccup keeps the last ones."""
        while True:
            await asyncio.sleep(REFRESH)
            try:
                await self.load()
            except StorageError:
                log.warning("could not re-read the players' languages; keeping the last ones")
