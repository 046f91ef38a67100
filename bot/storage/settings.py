"""Per-guild configuration that admins change with ``/rummy settings``.

Why here and with explicit defaults: a guild that never touched its settings has no
row, and every reader must see the same defaults. :data:`DEFAULT_PROFILE` and
:data:`DEFAULT_TURN_TIMER` are those defaults, named once; nothing else in storage
knows game defaults. An empty allow-list is stored as "all channels" (NULL): a list
with no channel would only lock the bot out of the guild.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from bot.storage.conn import Conn, Database, Tx
from bot.storage.records import HINT_LEVELS, UNSET, HintLevel, Unset

__all__ = [
    "DEFAULT_PROFILE",
    "DEFAULT_TURN_TIMER",
    "SEASON_OFF",
    "SEASON_PLANS",
    "GuildSettings",
    "SettingsRepo",
]

#: Rules profile a new table uses in a guild that has not chosen one.
DEFAULT_PROFILE: Final = "points"
#: Seconds per turn in a guild that has not chosen a timer.
DEFAULT_TURN_TIMER: Final = 60
#: The season plan of a guild that has not chosen one: no seasons, one all-time leaderboard.
SEASON_OFF: Final = "off"
#: What ``season`` may be (migration 0012's CHECK accepts these only).
SEASON_PLANS: Final = frozenset({SEASON_OFF, "weekly", "monthly"})


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild configuration. ``allowed_channel_ids`` None means every channel;
    ``card_images`` is whether game messages carry card images (players may still choose
    text only for themselves, see :mod:`bot.storage.preferences`); ``hints`` the hint level
    a new table gets when its host names none; ``rated_hints_off`` that only games played
    with hints off move ratings (a table with hints on is played unrated); ``table_threads``
    whether each table plays in its own thread started from its lobby message (False: in
    the channel itself); ``language`` the catalogue tag of the server's public messages
    (None: the server's own Discord language when the bot speaks it, else English);
    ``season`` how often the leaderboard starts afresh (``off``, ``weekly``, ``monthly``;
    see :mod:`bot.storage.seasons`), ``time_zone`` the IANA zone whose midnights end a season
    (None: UTC), ``season_channel_id`` where a season's final standings are posted (None:
    they are not); ``organiser_role_id`` the role whose members may run tournaments besides
    those with Manage Server (None: Manage Server only)."""

    guild_id: int
    default_profile: str = DEFAULT_PROFILE
    turn_timer: int = DEFAULT_TURN_TIMER
    allowed_channel_ids: frozenset[int] | None = field(default=None)
    card_images: bool = True
    hints: HintLevel = HintLevel.FULL
    rated_hints_off: bool = False
    table_threads: bool = True
    language: str | None = None
    season: str = SEASON_OFF
    time_zone: str | None = None
    season_channel_id: int | None = None
    organiser_role_id: int | None = None

    def channel_allowed(self, channel_id: int) -> bool:
        """Whether games may be started in ``channel_id``."""
        return self.allowed_channel_ids is None or channel_id in self.allowed_channel_ids


# ------------------------------------------------------------- SQLite dialect

_SELECT_SETTINGS = (
    "SELECT default_profile, turn_timer, allowed_channel_ids, card_images, hints,"
    " rated_hints_off, table_threads, language, season, time_zone, season_channel_id,"
    " organiser_role_id"
    " FROM guild_settings WHERE guild_id = ?"
)
_UPSERT_SETTINGS = (
    "INSERT INTO guild_settings (guild_id, default_profile, turn_timer,"
    " allowed_channel_ids, card_images, hints, rated_hints_off, table_threads, language,"
    " season, time_zone, season_channel_id, organiser_role_id, updated_at)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
    " ON CONFLICT (guild_id) DO UPDATE SET default_profile = excluded.default_profile,"
    " turn_timer = excluded.turn_timer,"
    " allowed_channel_ids = excluded.allowed_channel_ids,"
    " card_images = excluded.card_images,"
    " hints = excluded.hints,"
    " rated_hints_off = excluded.rated_hints_off,"
    " table_threads = excluded.table_threads,"
    " language = excluded.language,"
    " season = excluded.season,"
    " time_zone = excluded.time_zone,"
    " season_channel_id = excluded.season_channel_id,"
    " organiser_role_id = excluded.organiser_role_id,"
    " updated_at = excluded.updated_at"
)


async def _read(conn: Conn, guild_id: int) -> GuildSettings:
    row = await conn.fetchone(_SELECT_SETTINGS, (guild_id,))
    if row is None:
        return GuildSettings(guild_id)
    channels = None if row[2] is None else frozenset(int(c) for c in json.loads(row[2]))
    return GuildSettings(
        guild_id,
        row[0],
        int(row[1]),
        channels,
        bool(row[3]),
        HintLevel(row[4]),
        bool(row[5]),
        bool(row[6]),
        None if row[7] is None else str(row[7]),
        str(row[8]),
        None if row[9] is None else str(row[9]),
        None if row[10] is None else int(row[10]),
        None if row[11] is None else int(row[11]),
    )


class SettingsRepo:
    """``storage.settings``: per-guild configuration."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults if never changed."""
        async with self._db.reading() as conn:
            return await _read(conn, guild_id)

    async def update_settings(
        self,
        guild_id: int,
        *,
        default_profile: str | Unset = UNSET,
        turn_timer: int | Unset = UNSET,
        allowed_channel_ids: Iterable[int] | Unset | None = UNSET,
        card_images: bool | Unset = UNSET,
        hints: str | Unset = UNSET,
        rated_hints_off: bool | Unset = UNSET,
        table_threads: bool | Unset = UNSET,
        language: str | Unset | None = UNSET,
        season: str | Unset = UNSET,
        time_zone: str | Unset | None = UNSET,
        season_channel_id: int | Unset | None = UNSET,
        organiser_role_id: int | Unset | None = UNSET,
        now: float | None = None,
        tx: Tx | None = None,
    ) -> GuildSettings:
        """Change some settings (UNSET = keep). ``allowed_channel_ids=None`` or an
        empty list means all channels (an empty allow-list would only lock the bot
        out of the guild); ``language=None`` follows the server's Discord language again;
        ``time_zone=None`` is UTC again and ``season_channel_id=None`` posts no standings.
        Returns the new settings (as written in this transaction)."""
        if not isinstance(default_profile, Unset) and not default_profile.strip():
            raise ValueError("default_profile must be non-empty")
        if not isinstance(turn_timer, Unset) and (
            isinstance(turn_timer, bool) or not isinstance(turn_timer, int) or turn_timer <= 0
        ):
            raise ValueError("turn_timer must be a positive int (seconds)")
        if not isinstance(card_images, Unset | bool):
            raise ValueError("card_images must be True or False")
        if not isinstance(hints, Unset) and hints not in HINT_LEVELS:
            raise ValueError(f"hints must be one of {sorted(HINT_LEVELS)}")
        if not isinstance(rated_hints_off, Unset | bool):
            raise ValueError("rated_hints_off must be True or False")
        if not isinstance(table_threads, Unset | bool):
            raise ValueError("table_threads must be True or False")
        if isinstance(language, str) and not 0 < len(language) <= 16:
            raise ValueError("language must be a language tag of at most 16 characters")
        if not isinstance(season, Unset) and season not in SEASON_PLANS:
            raise ValueError(f"season must be one of {sorted(SEASON_PLANS)}")
        if isinstance(time_zone, str) and not 0 < len(time_zone) <= 64:
            raise ValueError("time_zone must be a zone name of at most 64 characters")
        channels_json: str | Unset | None = UNSET
        if not isinstance(allowed_channel_ids, Unset):
            ids = sorted({int(c) for c in allowed_channel_ids or ()})
            channels_json = json.dumps(ids) if ids else None
        ts = time.time() if now is None else now
        async with self._db.transaction(tx) as t:
            row = await t.fetchone(_SELECT_SETTINGS, (guild_id,))
            cur: list[Any] = (
                list(row)
                if row
                else [
                    DEFAULT_PROFILE,
                    DEFAULT_TURN_TIMER,
                    None,
                    1,
                    HintLevel.FULL.value,
                    0,
                    1,
                    None,
                    SEASON_OFF,
                    None,
                    None,
                    None,
                ]
            )
            images = card_images if isinstance(card_images, Unset) else int(card_images)
            level = hints if isinstance(hints, Unset) else str(hints)
            rated = rated_hints_off if isinstance(rated_hints_off, Unset) else int(rated_hints_off)
            threads = table_threads if isinstance(table_threads, Unset) else int(table_threads)
            values = (
                default_profile, turn_timer, channels_json, images, level, rated, threads, language,
                season, time_zone, season_channel_id, organiser_role_id,
            )  # fmt: skip
            for i, value in enumerate(values):
                if not isinstance(value, Unset):
                    cur[i] = value
            await t.execute(_UPSERT_SETTINGS, (guild_id, *cur, ts))
            return await _read(t, guild_id)
