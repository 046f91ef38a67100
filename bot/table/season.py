"""Seasons: when a server's leaderboard starts afresh, and the post that closes each season.

A server chooses a cadence (`/rummy settings season:` weekly, monthly or off) and a time zone;
its seasons then end at local midnight on Monday (weekly) or on the 1st (monthly), in that
zone, summer time included (`next_boundary`, with `zoneinfo`). What storage keeps is what
this module decided (`bot.storage.seasons`): each season's start and planned end, frozen when
it closes, so changing the zone or the cadence later re-plans only the open season.

Three things close a season, each in one transaction under the server's lock (so two of them
never close one season twice, and a result being recorded never interleaves with a close,
see `bot.storage.results`): its **boundary** passing (a timer per server, on the injectable
clock, re-armed when the plan changes), a **manager** ending it now, and seasons being turned
**off**. Unless seasons were turned off, the next season opens in the same transaction,
starting where this one closed.

**Posted once.** The closed season's row is its own outbox entry: it is owed an announcement
until it is marked. After the commit its final standings (the top ten by season rating and
its champion) go to the server's season channel; a failed post is retried a few times, then
left to the next start. `start` (called once the bot is connected, after the tables have
delivered their own results) first delivers what a stopped run owed, with ``again``: the run
may have posted and stopped before marking, so the listener looks for the post first; then it
closes every season whose boundary passed while the bot was stopped, and arms the timers of
the others. A season nobody played in is closed without a post.

**Season rating.** Starts from openskill's default for everyone (see
`bot.storage.summaries.rate_match`): a season is a race that everyone starts level.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import cache
from typing import Final, Protocol, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.storage import (
    SEASON_OFF,
    Cadence,
    GuildSettings,
    LeaderboardRow,
    PlayerRank,
    SeasonRecord,
    Storage,
    StorageError,
    Tx,
)

from . import errors
from .scheduler import Clock

log = logging.getLogger(__name__)

#: The zone of a server that has chosen none.
DEFAULT_ZONE: Final = "UTC"
#: The zone most of the bot's players live in: offered first when a manager picks one.
SUGGESTED_ZONE: Final = "Asia/Kolkata"
#: How many players a season's final post lists.
FINAL_TOP: Final = 10
#: Attempts at posting a season's final standings before leaving them to the next start.
ANNOUNCE_ATTEMPTS: Final = 5
#: Seconds between those attempts, and between retries of a timer's close that failed.
RETRY_DELAYS: Final = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)


# ---- the calendar ----------------------------------------------------------------------------


@cache
def zone_names() -> frozenset[str]:
    """Every IANA zone name this machine knows (the system's database, or the `tzdata`
    package); read once, it does not change while the bot runs."""
    return frozenset(available_timezones())


def is_zone(name: str) -> bool:
    """Whether `name` is a zone a server may choose (checked before it is stored)."""
    return name in zone_names()


def zone(name: str | None) -> tzinfo:
    """The zone of a stored name; UTC for none (or, should the machine have lost its zone
    database, for one it cannot read: a season then ends at UTC midnight, not never)."""
    if not name or name == DEFAULT_ZONE:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        log.warning("unknown time zone %r: seasons use UTC", name)
        return UTC


def _this_monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _next_week(day: date) -> date:
    return day + timedelta(days=7)


def _this_first(day: date) -> date:
    return day.replace(day=1)


def _next_month(day: date) -> date:
    return date(day.year + day.month // 12, day.month % 12 + 1, 1)


#: Per cadence: the boundary day at or before a date, and the one after a boundary day.
_CALENDAR: Final[dict[str, tuple[Callable[[date], date], Callable[[date], date]]]] = {
    "weekly": (_this_monday, _next_week),
    "monthly": (_this_first, _next_month),
}


def _midnight(day: date, where: tzinfo) -> int:
    """The first instant of `day` in `where`, as unix seconds. Where summer time skips local
    midnight, that is the instant the day begins (fold 0 reads the skipped hour with the
    offset before the change)."""
    return int(datetime(day.year, day.month, day.day, tzinfo=where).timestamp())


def next_boundary(after: float, cadence: str, where: tzinfo) -> int:
    """The first season boundary strictly after `after`: local midnight of the next Monday
    (weekly) or of the next 1st of a month (monthly) in `where`, as unix seconds."""
    first, step = _CALENDAR[cadence]
    day = first(datetime.fromtimestamp(after, where).date())
    boundary = _midnight(day, where)
    while boundary <= after:
        day = step(day)
        boundary = _midnight(day, where)
    return boundary


# ---- what the outside world is told ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeasonFinal:
    """A closed season's final standings, as its post shows them: the top players by season
    rating (ties share a place; the champions are those in first place), how many were ranked,
    and the language the server chose for its public messages (None: its Discord one)."""

    season: SeasonRecord
    rows: Sequence[LeaderboardRow]
    ranked: int
    language: str | None = None

    @property
    def champions(self) -> list[LeaderboardRow]:
        return [r for r in self.rows if r.rank == 1]


class SeasonListener(Protocol):
    async def season_ended(self, final: SeasonFinal, *, again: bool = False) -> None:
        """Post a closed season's final standings in its channel. Raise if they were not
        posted and may be later (the season layer retries); return when they were, or when
        they never can be (no channel, or one the bot may not post in). ``again``: an
        earlier run (or attempt) may have posted them already: look first."""
        ...


class NoPosts:
    """A listener that posts nothing (the terminal, tests that do not look)."""

    async def season_ended(self, final: SeasonFinal, *, again: bool = False) -> None:
        return None


@dataclass(frozen=True, slots=True)
class SeasonOverview:
    """One player's view of the server's seasons: the open one and their place in it so far,
    the last one that ended, its champions and their final place in it."""

    current: SeasonRecord | None
    current_place: PlayerRank | None
    last: SeasonRecord | None
    last_place: PlayerRank | None
    last_champions: Sequence[LeaderboardRow] = ()


class SeasonChange(enum.StrEnum):
    """What a settings change did to the server's seasons (a `SeasonFact`'s first)."""

    STARTED = "season_started"
    ENDED = "season_ended"
    REPLANNED = "season_replanned"  # the open season's end moved (cadence or zone changed)


SeasonFact = tuple[SeasonChange, SeasonRecord]  # (ENDED, the season), (STARTED, …)


@dataclass(slots=True)
class SeasonUnit:
    """One change of a server's season settings in progress (see `Seasons.changing`): the
    transaction the settings are written in, and what `follow` did to the seasons."""

    seasons: Seasons
    guild_id: int
    tx: Tx
    facts: list[SeasonFact] = field(default_factory=list)
    #: The open season once the change is made (None: seasons are off).
    current: SeasonRecord | None = None
    #: The season the change closed (its post is owed once the change is committed).
    ended: SeasonRecord | None = None

    async def follow(self, settings: GuildSettings, *, end_now: bool = False) -> list[SeasonFact]:
        """Bring the server's seasons in line with `settings` (as just written in this
        transaction): end the open season if a manager asked (`end_now`: refused when none
        is open) or seasons were turned off; open one if seasons are on and none is; re-plan
        the open one's end if the cadence or the zone changed. Returns what it did."""
        storage, now = self.seasons.storage, self.seasons.clock.now()
        at = int(now)
        current = await storage.seasons.current(self.guild_id, tx=self.tx)
        if end_now and current is None:
            raise errors.SettingsConflict(errors.SettingsProblem.NO_SEASON)
        plan, zone_name = settings.season, settings.time_zone or DEFAULT_ZONE
        if current is not None and (end_now or plan == SEASON_OFF):
            closed_at = max(at, current.starts_at)
            self.ended = await storage.seasons.close(
                self.guild_id,
                current.number,
                closed_at=closed_at,
                ended_by="manager" if end_now else "off",
                ends_at=closed_at,
                channel_id=settings.season_channel_id,
                tx=self.tx,
            )
            if self.ended is not None:
                self.facts.append((SeasonChange.ENDED, self.ended))
            current = None
        if plan != SEASON_OFF and current is None:
            start = at if self.ended is None else int(self.ended.closed_at or at)
            current = await storage.seasons.open(
                self.guild_id,
                cadence=plan,
                time_zone=zone_name,
                starts_at=start,
                ends_at=next_boundary(start, plan, zone(zone_name)),
                tx=self.tx,
            )
            self.facts.append((SeasonChange.STARTED, current))
        elif current is not None and (current.cadence, current.time_zone) != (plan, zone_name):
            ends_at = next_boundary(max(now, current.starts_at), plan, zone(zone_name))
            current = await storage.seasons.replan(
                self.guild_id, cadence=plan, time_zone=zone_name, ends_at=ends_at, tx=self.tx
            )
            if current is not None:
                self.facts.append((SeasonChange.REPLANNED, current))
        self.current = current
        return self.facts


class Seasons:
    """Every server's seasons in this process: their timers, their closing, their posts."""

    def __init__(
        self,
        storage: Storage,
        clock: Clock,
        listener: SeasonListener | None = None,
        *,
        owns_guild: Callable[[int], bool] | None = None,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
    ) -> None:
        """``owns_guild`` says which servers' seasons this process drives (its shards: the
        same ones whose tables it drives; None: all)."""
        self.storage = storage
        self.clock = clock
        self.listener: SeasonListener = listener or NoPosts()
        self.owns_guild = owns_guild or (lambda _guild_id: True)
        self.retry_delays = retry_delays
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._posts: set[asyncio.Task[None]] = set()
        self._closing = False

    # ---- reading ------------------------------------------------------------------------------

    async def current(self, guild_id: int) -> SeasonRecord | None:
        return await self.storage.seasons.current(guild_id)

    async def recent(self, guild_id: int, limit: int = 24) -> list[SeasonRecord]:
        """The server's latest seasons, newest first (a menu to pick a board from)."""
        return await self.storage.seasons.recent(guild_id, limit)

    async def overview(self, guild_id: int, user_id: int) -> SeasonOverview:
        """The player's places: in the open season so far, and final in the last one."""
        boards = self.storage.boards
        current = await self.storage.seasons.current(guild_id)
        last = await self.storage.seasons.last_closed(guild_id)
        now_place = last_place = None
        champions: list[LeaderboardRow] = []
        if current is not None:
            now_place = await boards.player_rank(guild_id, user_id, season=current.number)
        if last is not None:
            last_place = await boards.player_rank(guild_id, user_id, season=last.number)
            top = await boards.leaderboard(guild_id, limit=FINAL_TOP, season=last.number)
            champions = [r for r in top if r.rank == 1]
        return SeasonOverview(current, now_place, last, last_place, champions)

    async def final(self, season: SeasonRecord) -> SeasonFinal:
        """A season's final standings (its top players by season rating)."""
        boards, g, n = self.storage.boards, season.guild_id, season.number
        rows = await boards.leaderboard(g, limit=FINAL_TOP, season=n)
        ranked = 0
        if rows:
            first = await boards.player_rank(g, rows[0].user_id, season=n)
            ranked = first.total if first is not None else len(rows)
        settings = await self.storage.settings.get_settings(g)
        return SeasonFinal(season, rows, ranked, settings.language)

    async def _played(self, season: SeasonRecord) -> bool:
        """Did anyone play a counted deal or match in the season?"""
        g, n = season.guild_id, season.number
        boards = self.storage.boards
        return bool(
            await boards.leaderboard(g, sort="matches_won", limit=1, season=n)
            or await boards.leaderboard(g, sort="deals_won", limit=1, season=n)
        )

    # ---- changing ----------------------------------------------------------------------------

    def _lock(self, guild_id: int) -> asyncio.Lock:
        return self._locks.setdefault(guild_id, asyncio.Lock())

    @asynccontextmanager
    async def changing(self, guild_id: int) -> AsyncIterator[SeasonUnit]:
        """``async with seasons.changing(guild) as unit:`` write the server's settings with
        ``tx=unit.tx``, then ``await unit.follow(settings)``. One transaction for both: a
        refusal raised inside changes nothing. After the commit the server's timer follows
        the open season, and a season that ended is posted."""
        async with self._lock(guild_id):
            async with self.storage.transaction() as tx:
                unit = SeasonUnit(self, guild_id, tx)
                yield unit
            if unit.ended is not None:
                self._post_later(unit.ended, again=False)
            self._follow_timer(guild_id, unit.current)

    async def close_due(self, guild_id: int) -> SeasonRecord | None:
        """Close the server's open season if its boundary has passed (and open the next,
        unless seasons are off); arm the timer of whatever is open then. Returns the season it
        closed (whose post is then on its way), else None."""
        async with self._lock(guild_id):
            now = self.clock.now()
            current = await self.storage.seasons.current(guild_id)
            if current is None or now < current.ends_at:
                self._follow_timer(guild_id, current)
                return None
            settings = await self.storage.settings.get_settings(guild_id)
            opened: SeasonRecord | None = None
            async with self.storage.transaction() as tx:
                closed = await self.storage.seasons.close(
                    guild_id,
                    current.number,
                    closed_at=max(int(now), current.starts_at),
                    ended_by="boundary",
                    ends_at=current.ends_at,
                    channel_id=settings.season_channel_id,
                    tx=tx,
                )
                if closed is not None and settings.season != SEASON_OFF:
                    opened = await self._open_after(guild_id, closed, settings, tx)
            if closed is not None:
                log.info("season %s of guild %s ended", closed.number, guild_id)
                self._post_later(closed, again=False)
            self._follow_timer(guild_id, opened)
            return closed

    async def _open_after(
        self, guild_id: int, closed: SeasonRecord, settings: GuildSettings, tx: Tx
    ) -> SeasonRecord:
        start = int(closed.closed_at or closed.ends_at)
        zone_name = settings.time_zone or DEFAULT_ZONE
        cadence = cast(Cadence, settings.season)  # not off: the caller checked
        return await self.storage.seasons.open(
            guild_id,
            cadence=cadence,
            time_zone=zone_name,
            starts_at=start,
            ends_at=next_boundary(start, cadence, zone(zone_name)),
            tx=tx,
        )

    # ---- start-up, timers, shut-down ---------------------------------------------------------

    async def start(self) -> None:
        """Once the bot is connected (and the tables have stored the results they owed):
        post what a stopped run still owed (``again``), close every season whose boundary
        passed while the bot was stopped (each posted once), and arm the others' timers.
        Only this process's servers."""
        owed = [s for s in await self.storage.seasons.unannounced() if self.owns_guild(s.guild_id)]
        for season in owed:
            self._post_later(season, again=True)
        ended = 0
        for season in await self.storage.seasons.open_seasons():
            if not self.owns_guild(season.guild_id):
                continue
            try:
                ended += await self.close_due(season.guild_id) is not None
            except (StorageError, OSError):
                log.exception("could not close the season of guild %s", season.guild_id)
                self._follow_timer(season.guild_id, season)  # its timer retries
        log.info(
            "seasons started: %d owed a post, %d ended while stopped, %d timers",
            len(owed),
            ended,
            len(self.timers()),
        )

    def _follow_timer(self, guild_id: int, season: SeasonRecord | None) -> None:
        """The server's timer now waits for `season`'s end (none: no timer)."""
        old = self._timers.pop(guild_id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if season is None or self._closing:
            return
        task = asyncio.ensure_future(self._wait(guild_id, season.ends_at))
        self._timers[guild_id] = task
        task.add_done_callback(lambda t: self._forget_timer(guild_id, t))

    def _forget_timer(self, guild_id: int, task: asyncio.Task[None]) -> None:
        if self._timers.get(guild_id) is task:
            del self._timers[guild_id]

    async def _wait(self, guild_id: int, ends_at: int) -> None:
        """Sleep until the boundary, then close the season; a failure is retried."""
        await self.clock.sleep(max(0.0, ends_at - self.clock.now()))
        tries = 0
        while True:
            try:
                await self.close_due(guild_id)
                return
            except (StorageError, OSError):
                log.warning("could not close the season of guild %s; retrying", guild_id)
            await self.clock.sleep(self.retry_delays[min(tries, len(self.retry_delays) - 1)])
            tries += 1

    def timers(self) -> list[int]:
        """The servers whose season timer is armed (tests look)."""
        return [g for g, t in self._timers.items() if not t.done()]

    def pending(self) -> int:
        """Posts still on their way (tests wait for them)."""
        return sum(1 for t in self._posts if not t.done())

    async def shutdown(self) -> None:
        self._closing = True
        tasks = [*self._timers.values(), *self._posts]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ---- posting -----------------------------------------------------------------------------

    def _post_later(self, season: SeasonRecord, *, again: bool) -> None:
        if self._closing:
            return
        task = asyncio.ensure_future(self._post(season, again))
        self._posts.add(task)
        task.add_done_callback(self._posts.discard)

    async def _post(self, season: SeasonRecord, again: bool) -> None:
        """Post a closed season's final standings and mark them posted: a few attempts,
        each after the last failed one looks for the post first; then left to the next
        start. A season nobody played in is only marked."""
        what = f"season {season.number} of guild {season.guild_id}"
        for attempt in range(ANNOUNCE_ATTEMPTS):
            try:
                if await self._played(season):
                    final = await self.final(season)
                    await self.listener.season_ended(final, again=again or attempt > 0)
                await self.storage.seasons.mark_announced(season.guild_id, season.number)
                return
            except Exception:
                log.warning("could not post %s (attempt %d)", what, attempt + 1, exc_info=True)
            await self.clock.sleep(self.retry_delays[min(attempt, len(self.retry_delays) - 1)])
        log.error("%s: not posted after %d attempts; left to the next start", what, attempt + 1)
