"""The league's use cases: leaderboards, a player's stats and history, hand-history downloads,
server settings and forget-me. (Seasons, which the leaderboards and settings follow, are their
own module: `bot.table.season`.)

Why here and not in the cog: who may download whose hand history, how a settings change
merges with what is stored, and when a forget-me confirmation has expired are rules of the
service, the same for any front end; the Discord side only parses, calls and words the
outcome. Refusals are typed (`bot.table.errors`), outcomes are data.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from bot.engine.hints import HintLevel
from bot.engine.rules import PROFILES
from bot.storage import (
    SEASON_PLANS,
    DealHistoryRow,
    GuildSettings,
    LeaderboardRow,
    Period,
    PlayerRank,
    PlayerStats,
    RatingPoint,
    SeasonRecord,
    SortKey,
    Storage,
    StorageError,
)
from bot.storage.records import PERIOD_DAYS, SORT_KEYS
from bot.storage.tournaments import TournamentStats

from . import errors
from .errors import SettingsProblem
from .scheduler import Clock
from .season import SeasonChange, Seasons, is_zone

#: How many recent deals a history lists (and offers for download).
HISTORY_LIMIT = 10
#: A forget-me confirmation older than this is refused: the click should follow the question.
FORGET_TTL = 15 * 60
#: Rated games a player needs before the win-rate board lists them.
WIN_RATE_MIN_GAMES = 5
#: Points of a rating trend shown with a player's stats.
TREND_POINTS = 20
#: (server, player) pairs remembered as pointed to the help before the memory starts afresh.
POINTED_KEPT = 100_000


@dataclass(frozen=True, slots=True)
class BoardPage:
    rows: Sequence[LeaderboardRow]
    own: PlayerRank | None
    page: int
    has_next: bool
    #: The season the board is of (None: all time, or a rolling period).
    season: SeasonRecord | None = None


#: What `/rummy leaderboard season:` takes besides a season's number.
CURRENT_SEASON = "current"
ALL_TIME = "all"


@dataclass(frozen=True, slots=True)
class PlayerCard:
    stats: PlayerStats
    trend: Sequence[RatingPoint]
    #: Their finished tournaments in the server.
    tournaments: TournamentStats = field(default_factory=TournamentStats)


@dataclass(frozen=True, slots=True)
class HistoryPage:
    rows: Sequence[DealHistoryRow]
    #: The deals the asker may download (they played them, or they manage the server).
    downloadable: Sequence[DealHistoryRow]
    #: Their latest tournaments: (id, name, place, players, rounds played).
    tournaments: Sequence[tuple[str, str, int, int, int]] = ()


@dataclass(frozen=True, slots=True)
class SettingsChange:
    """What a manager asked to change (None: leave it)."""

    default_profile: str | None = None
    turn_timer: int | None = None
    allow_channel: int | None = None
    remove_channel: int | None = None
    all_channels: bool | None = None
    card_images: bool | None = None
    hints: HintLevel | None = None  # the default hint level of new tables (`parse_default_hints`)
    rated_hints_off: bool | None = None  # only games without hints move ratings
    table_threads: bool | None = None
    #: The language of new tables' public messages; "server": the server's Discord language.
    language: str | None = None
    season: str | None = None  # off, weekly, monthly (`bot.table.season`)
    time_zone: str | None = None  # an IANA zone name
    season_channel: int | None = None  # where a season's final standings are posted
    end_season: bool | None = None  # True: the open season ends now
    #: The role whose members may run tournaments (`NO_ROLE`: Manage Server only again).
    organiser_role: int | None = None


#: The language choice that means "the server's own Discord language" (stored as none).
FOLLOW_SERVER = "server"
#: The organiser role that means "none": only Manage Server runs tournaments.
NO_ROLE = 0


class Setting(enum.StrEnum):
    """What a settings change did, one fact each (`SettingsChanged.changed`)."""

    DEFAULT_PROFILE = "default_profile"
    TURN_TIMER = "turn_timer"
    ALL_CHANNELS = "all_channels"  # tables may open in every channel again
    ALLOWED = "allowed"  # a channel added to the list
    REMOVED = "removed"  # a channel taken off it
    CARD_IMAGES = "card_images"
    HINTS = "hints"
    RATED_HINTS_OFF = "rated_hints_off"
    TABLE_THREADS = "table_threads"
    LANGUAGE = "language"
    SEASON = "season"  # the plan: weekly, monthly, off
    TIME_ZONE = "time_zone"
    SEASON_CHANNEL = "season_channel_id"  # where a season's final standings are posted
    ORGANISER_ROLE = "organiser_role"  # a role id, or NO_ROLE


#: (DEFAULT_PROFILE, "points"), (ALLOWED, channel id), … and what the seasons did
#: (`SeasonChange`: a season started, ended, re-planned) with the season.
SettingFact = tuple[Setting | SeasonChange, Any]


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    settings: GuildSettings
    #: What changed, in the order asked, as (what, value) facts for the words.
    changed: list[SettingFact] = field(default_factory=list)
    #: The server's open season after the change (None: seasons are off).
    season: SeasonRecord | None = None


ForgetOutcome = Literal["done", "playing", "expired"]


class League:
    def __init__(self, storage: Storage, clock: Clock, seasons: Seasons | None = None) -> None:
        self.storage = storage
        self.clock = clock
        self.seasons = seasons or Seasons(storage, clock)
        #: (server, player) known to have been pointed to the help, or to have played: no
        #: query needed. Per process; `storage.help_pointers` is what holds across processes.
        self._pointed: set[tuple[int, int]] = set()

    async def leaderboard(
        self,
        guild_id: int,
        asker_id: int,
        page: int,
        profile: str | None,
        sort: str,
        period: str | None,
        page_size: int,
        season: str | None = None,
    ) -> BoardPage:
        """One page of a board and the asker's own line. One extra row is fetched to know
        whether a next page exists without counting the whole board. Which board:
        `board_season` (by default the open season's, when the server has seasons)."""
        shown = await self.board_season(guild_id, season, period)
        period = period or ALL_TIME
        check_board(profile, sort, period)
        if page < 0:
            raise errors.BadBoard()
        sort_key, period_key = cast(SortKey, sort), cast(Period, period)
        number = None if shown is None else shown.number
        rows = await self.storage.boards.leaderboard(
            guild_id,
            profile,
            sort_key,
            period_key,
            limit=page_size + 1,
            offset=page * page_size,
            min_games=WIN_RATE_MIN_GAMES,
            season=number,
        )
        own = await self.storage.boards.player_rank(
            guild_id,
            asker_id,
            profile,
            sort_key,
            period_key,
            min_games=WIN_RATE_MIN_GAMES,
            season=number,
        )
        return BoardPage(rows[:page_size], own, page, len(rows) > page_size, shown)

    async def board_season(
        self, guild_id: int, season: str | None, period: str | None
    ) -> SeasonRecord | None:
        """The season a board shows: the one asked for (`CURRENT_SEASON`, or its number),
        none for `ALL_TIME` or a period; asked for nothing, the open season (when the server
        has seasons). A season is its own window: asked together with a period, or one that
        does not exist, is a board that does not exist."""
        if season is None:
            if period is not None:
                return None
            return await self.storage.seasons.current(guild_id)
        if period is not None and period != ALL_TIME:
            raise errors.BadBoard()
        if season == ALL_TIME:
            return None
        if season == CURRENT_SEASON:
            found = await self.storage.seasons.current(guild_id)
        elif season.isdecimal() and len(season) <= 9:
            found = await self.storage.seasons.get(guild_id, int(season))
        else:
            found = None
        if found is None:
            raise errors.BadBoard()
        return found

    async def point_to_help(self, guild_id: int, user_id: int) -> bool:
        """Should this player's hand view be headed by the pointer to `/rummy help` now?
        Yes exactly once per (server, player), whatever the process: for a player without a
        finished deal in the server, the first call anywhere that claims the stored row
        (`storage.help_pointers`) says yes, and it is recorded in the same statement. A
        storage failure says no: the pointer is a courtesy."""
        key = (guild_id, user_id)
        if key in self._pointed:
            return False
        try:
            if await self.storage.boards.recent_deals(guild_id, user_id, limit=1):
                tell = False  # played here already
            else:
                tell = await self.storage.help_pointers.tell_once(
                    guild_id, user_id, now=self.clock.now()
                )
        except StorageError:
            return False
        if len(self._pointed) >= POINTED_KEPT:
            self._pointed.clear()  # only spares a query; the stored rows are the truth
        self._pointed.add(key)
        return tell

    async def player(self, guild_id: int, user_id: int) -> PlayerCard:
        stats = await self.storage.boards.player_stats(guild_id, user_id)
        trend = await self.storage.boards.rating_history(
            guild_id, user_id, None, limit=TREND_POINTS
        )
        tournaments = await self.storage.tournaments.player_stats(guild_id, user_id)
        return PlayerCard(stats, trend, tournaments)

    async def history(
        self, guild_id: int, target_id: int, asker_id: int, is_manager: bool
    ) -> HistoryPage:
        """A player's recent deals, and which of them the asker may download: a hand
        history shows every hand of the deal, so only its players (and managers) may."""
        rows = await self.storage.boards.recent_deals(guild_id, target_id, limit=HISTORY_LIMIT)
        downloadable = rows
        if target_id != asker_id and not is_manager:
            mine = await self.storage.boards.played_deals(
                guild_id, asker_id, [r.deal_id for r in rows]
            )
            downloadable = [r for r in rows if r.deal_id in mine]
        tournaments = await self.storage.tournaments.player_results(guild_id, target_id)
        return HistoryPage(rows, downloadable, tournaments)

    async def download(self, guild_id: int, user_id: int, is_manager: bool, deal_id: int) -> str:
        """One deal's hand history. A client can send any value, whatever the menu offered:
        only the deal's players (and server managers) get it."""
        if not 0 < deal_id < 2**63:
            raise errors.DealGone()
        if not is_manager and not await self.storage.boards.played_deals(
            guild_id, user_id, [deal_id]
        ):
            raise errors.HistoryPlayersOnly()
        text = await self.storage.boards.hand_history(guild_id, deal_id)
        if text is None:
            raise errors.DealGone()
        return text

    async def download_deal(
        self, guild_id: int, user_id: int, is_manager: bool, table_id: str, deal_no: int
    ) -> str:
        """The hand history of a table's deal, asked from its results message (the button
        names the table and the deal; a client can send any value). Same rule as
        `download`: its players and server managers only, since it shows every hand."""
        if not 0 < deal_no < 10_000 or not table_id:
            raise errors.DealGone()
        deal_id = await self.storage.boards.deal_id(guild_id, table_id, deal_no)
        if deal_id is None:
            raise errors.DealGone()
        return await self.download(guild_id, user_id, is_manager, deal_id)

    async def download_match(
        self, guild_id: int, user_id: int, is_manager: bool, table_id: str
    ) -> list[str]:
        """The hand histories of a table's match, in the order played (its match replay).
        Its players (the seats of its first deal) and server managers only; a
        client can send any table id."""
        if not table_id:
            raise errors.DealGone()
        deals = await self.storage.boards.match_deals(guild_id, table_id)
        if not deals:
            raise errors.DealGone()
        # Seats are taken before the first deal and every one of them is dealt in it.
        first = deals[0][0]
        if not is_manager and not await self.storage.boards.played_deals(
            guild_id, user_id, [first]
        ):
            raise errors.HistoryPlayersOnly()
        return [history for _, history in deals]

    async def change_settings(self, guild_id: int, change: SettingsChange) -> SettingsChanged:
        """Merge a manager's change into the stored settings; refusals change nothing."""
        c = change
        if c.all_channels and (c.allow_channel or c.remove_channel):
            raise errors.SettingsConflict(SettingsProblem.ALL_AND_LIST)
        if c.allow_channel and c.allow_channel == c.remove_channel:
            raise errors.SettingsConflict(SettingsProblem.ALLOW_AND_REMOVE)
        if c.default_profile is not None and c.default_profile not in PROFILES:
            raise errors.SettingsConflict(SettingsProblem.UNKNOWN_PROFILE)
        if c.season is not None and c.season not in SEASON_PLANS:
            raise errors.SettingsConflict(SettingsProblem.UNKNOWN_SEASON)
        if c.time_zone is not None and not is_zone(c.time_zone):
            raise errors.SettingsConflict(SettingsProblem.UNKNOWN_TIME_ZONE, zone=c.time_zone[:64])
        current = await self.storage.settings.get_settings(guild_id)
        changes: dict[str, Any] = {}
        facts: list[SettingFact] = []
        if c.default_profile is not None:
            changes["default_profile"] = c.default_profile
            facts.append((Setting.DEFAULT_PROFILE, c.default_profile))
        if c.turn_timer is not None:
            changes["turn_timer"] = int(c.turn_timer)
            facts.append((Setting.TURN_TIMER, int(c.turn_timer)))
        if c.all_channels:
            changes["allowed_channel_ids"] = None
            facts.append((Setting.ALL_CHANNELS, True))
        elif c.allow_channel or c.remove_channel:
            allowed = set(current.allowed_channel_ids or ())
            if c.allow_channel:
                allowed.add(c.allow_channel)
                facts.append((Setting.ALLOWED, c.allow_channel))
            if c.remove_channel:
                if current.allowed_channel_ids is None:
                    raise errors.SettingsConflict(SettingsProblem.EVERY_CHANNEL_ALREADY)
                if c.remove_channel not in allowed:
                    raise errors.SettingsConflict(
                        SettingsProblem.NOT_ON_LIST, channel=c.remove_channel
                    )
                allowed.discard(c.remove_channel)
                if not allowed:
                    # Storage reads an empty list as "every channel": make that explicit.
                    raise errors.SettingsConflict(SettingsProblem.LAST_CHANNEL)
                facts.append((Setting.REMOVED, c.remove_channel))
            changes["allowed_channel_ids"] = sorted(allowed)
        if c.card_images is not None:
            changes["card_images"] = c.card_images
            facts.append((Setting.CARD_IMAGES, c.card_images))
        if c.hints is not None:
            changes["hints"] = c.hints
            facts.append((Setting.HINTS, c.hints))
        if c.rated_hints_off is not None:
            changes["rated_hints_off"] = c.rated_hints_off
            facts.append((Setting.RATED_HINTS_OFF, c.rated_hints_off))
        if c.table_threads is not None:
            changes["table_threads"] = c.table_threads
            facts.append((Setting.TABLE_THREADS, c.table_threads))
        if c.language is not None:
            changes["language"] = None if c.language == FOLLOW_SERVER else c.language
            facts.append((Setting.LANGUAGE, c.language))
        if c.organiser_role is not None:
            role = None if c.organiser_role == NO_ROLE else c.organiser_role
            changes["organiser_role_id"] = role
            facts.append((Setting.ORGANISER_ROLE, c.organiser_role))
        for what, value in (
            (Setting.SEASON, c.season),
            (Setting.TIME_ZONE, c.time_zone),
            (Setting.SEASON_CHANNEL, c.season_channel),
        ):
            if value is not None:
                changes[what.value] = value
                facts.append((what, value))
        # The seasons follow the settings in the same transaction (`bot.table.season`).
        async with self.seasons.changing(guild_id) as unit:
            if changes:
                current = await self.storage.settings.update_settings(
                    guild_id, **changes, tx=unit.tx
                )
            facts.extend(await unit.follow(current, end_now=bool(c.end_season)))
        return SettingsChanged(current, facts, unit.current)

    async def forget(self, guild_id: int, user_id: int, issued: int) -> ForgetOutcome:
        """Delete a player's stats in a server, if the confirmation is fresh and they are in
        no running game there."""
        if self.clock.now() - issued > FORGET_TTL:
            return "expired"
        if not await self.storage.privacy.forget_user(guild_id, user_id):
            return "playing"
        return "done"


def parse_default_hints(value: str) -> HintLevel:
    """The default hint level a manager typed at `/rummy settings`. A client can send
    anything, so this is where it is checked (by `HintLevel.parse`, the one check) and an
    unknown level refused as a settings conflict; `SettingsChange` takes the parsed level."""
    level = HintLevel.parse(value)
    if level is None:
        raise errors.SettingsConflict(SettingsProblem.UNKNOWN_HINTS)
    return level


def check_board(profile: str | None, sort: str, period: str) -> None:
    if profile is not None and profile not in PROFILES:
        raise errors.BadBoard()
    if sort not in SORT_KEYS or (period != "all" and period not in PERIOD_DAYS):
        raise errors.BadBoard()
