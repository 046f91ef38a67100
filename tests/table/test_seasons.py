"""Seasons in the table layer (bot.table.season), on the injectable clock: the calendar in a
server's zone (summer time included), the boundary closing a season and opening the next, the
final standings posted once (across a restart at the boundary, a crash between posting and
marking, a failed post), a manager ending a season, turning seasons off, and the leaderboard
following the season. No test sleeps for real: the clock moves when told."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.storage import DealRecord, DealSeatRecord, MatchRecord, MatchSeatRecord, Storage
from bot.table import errors
from bot.table.league import League, SettingsChange
from bot.table.scheduler import ManualClock
from bot.table.season import SeasonFinal, Seasons, is_zone, next_boundary, zone

GUILD = 1000
ALICE, BOB, CAROL = 11, 22, 33
CHANNEL = 4242
KOLKATA = ZoneInfo("Asia/Kolkata")
LONDON = ZoneInfo("Europe/London")


def at(zone_: ZoneInfo, *when: int) -> int:
    """Unix seconds of a local time in a zone."""
    return int(datetime(*when, tzinfo=zone_).timestamp())  # type: ignore[misc]


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait (in real time) for what the manual clock set off: storing it is real I/O."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    assert condition()


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 5.0) -> None:
    """`until`, for a condition that reads storage."""
    for _ in range(int(seconds / 0.01)):
        if await check():
            return
        await asyncio.sleep(0.01)
    assert await check()


async def in_season(storage: Storage, number: int) -> None:
    """Wait until the server's open season is `number` (the timer closed the one before)."""

    async def check() -> bool:
        current = await storage.seasons.current(GUILD)
        return current is not None and current.number == number

    await eventually(check)


class Posts:
    """Records each season's final post; can fail, or hang (a process stopped mid-post)."""

    def __init__(self) -> None:
        self.finals: list[tuple[SeasonFinal, bool]] = []
        self.fail = 0
        self.hang = False

    async def season_ended(self, final: SeasonFinal, *, again: bool = False) -> None:
        if self.hang:
            await asyncio.Event().wait()
        if self.fail:
            self.fail -= 1
            raise RuntimeError("Discord is down")
        self.finals.append((final, again))

    def numbers(self) -> list[int]:
        return [f.season.number for f, _ in self.finals]


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "seasons.sqlite3")
    yield store
    await store.close()


class Bot:
    """One run of the bot's season part: its seasons and its league, on the shared clock."""

    def __init__(self, storage: Storage, clock: ManualClock) -> None:
        self.posts = Posts()
        self.seasons = Seasons(storage, clock, self.posts, retry_delays=(1.0,))
        self.league = League(storage, clock, self.seasons)

    async def settle(self) -> None:
        await until(lambda: self.seasons.pending() == 0)


async def play(
    storage: Storage, clock: ManualClock, match_id: str, winner: int, loser: int
) -> None:
    """A two-player match (one deal) that `winner` won, finished now."""
    now = int(clock.now())
    deal = DealRecord(
        GUILD,
        match_id,
        1,
        "points",
        now,
        "{}",
        [
            DealSeatRecord(winner, f"p{winner}", False, "won", Fraction(0), Fraction(10)),
            DealSeatRecord(loser, f"p{loser}", False, "lost", Fraction(10), Fraction(-10)),
        ],
    )
    seats = [
        MatchSeatRecord(winner, f"p{winner}", False, 1, True, Fraction(10)),
        MatchSeatRecord(loser, f"p{loser}", False, 2, False, Fraction(-10)),
    ]
    assert await storage.results.record_deal_result(deal)
    assert await storage.results.record_match_result(
        MatchRecord(match_id, GUILD, "points", now, seats)
    )


async def weekly_in_kolkata(bot: Bot) -> None:
    changed = await bot.league.change_settings(
        GUILD,
        SettingsChange(season="weekly", time_zone="Asia/Kolkata", season_channel=CHANNEL),
    )
    assert changed.season is not None and changed.season.number == 1


# ---- the calendar ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "cadence", "where", "boundary"),
    [
        # Weekly: local Monday midnight; Kolkata is UTC+5:30 all year.
        (at(KOLKATA, 2024, 3, 13, 12), "weekly", KOLKATA, at(KOLKATA, 2024, 3, 18)),
        (at(KOLKATA, 2024, 3, 18), "weekly", KOLKATA, at(KOLKATA, 2024, 3, 25)),
        # Monthly: local midnight of the 1st, across a year's end.
        (at(KOLKATA, 2024, 12, 31, 23, 59), "monthly", KOLKATA, at(KOLKATA, 2025, 1, 1)),
        (at(KOLKATA, 2024, 2, 1), "monthly", KOLKATA, at(KOLKATA, 2024, 3, 1)),
        # London's clocks go forward on Sunday 31 March 2024: Monday 1 April starts at 23:00 UTC.
        (at(LONDON, 2024, 3, 27), "weekly", LONDON, at(LONDON, 2024, 4, 1)),
        (at(LONDON, 2024, 3, 20), "monthly", LONDON, at(LONDON, 2024, 4, 1)),
        # ... and back on 27 October: 1 November starts at midnight UTC again.
        (at(LONDON, 2024, 10, 20), "monthly", LONDON, at(LONDON, 2024, 11, 1)),
    ],
)
def test_next_boundary_is_local_midnight(
    after: int, cadence: str, where: ZoneInfo, boundary: int
) -> None:
    assert next_boundary(after, cadence, where) == boundary
    local = datetime.fromtimestamp(boundary, where)
    assert (local.hour, local.minute) == (0, 0)


def test_summer_time_moves_the_boundary_in_utc() -> None:
    before = next_boundary(at(LONDON, 2024, 3, 20), "weekly", LONDON)
    after = next_boundary(before, "weekly", LONDON)
    assert datetime.fromtimestamp(before, UTC).hour == 0
    assert datetime.fromtimestamp(after, UTC).hour == 23  # Monday 00:00 BST
    assert after - before == 167 * 3600  # the week the clocks went forward is an hour short


def test_a_skipped_midnight_starts_the_season_when_the_day_begins() -> None:
    """Paraguay's clocks went from 00:00 to 01:00 on 1 October 2023: that month began at 01:00."""
    asuncion = ZoneInfo("America/Asuncion")
    boundary = next_boundary(at(asuncion, 2023, 9, 20), "monthly", asuncion)
    assert datetime.fromtimestamp(boundary, UTC) == datetime(2023, 10, 1, 4, tzinfo=UTC)


def test_zones_are_checked_by_name() -> None:
    assert is_zone("Asia/Kolkata") and is_zone("Europe/London") and is_zone("UTC")
    for bad in ("Mars/Olympus", "asia/kolkata", "", "../etc/passwd", "Asia"):
        assert not is_zone(bad), bad
    assert zone(None) == zone("UTC")


# ---- the boundary on the clock ---------------------------------------------------------------

BOUNDARY_CASES = [
    ("weekly", "Asia/Kolkata", (2024, 3, 13, 12), (2024, 3, 18), (2024, 3, 25)),
    ("monthly", "Asia/Kolkata", (2024, 1, 20), (2024, 2, 1), (2024, 3, 1)),
    ("weekly", "Europe/London", (2024, 3, 27), (2024, 4, 1), (2024, 4, 8)),
    ("monthly", "Europe/London", (2024, 3, 10), (2024, 4, 1), (2024, 5, 1)),
]


@pytest.mark.parametrize(("cadence", "zone_name", "start", "first", "second"), BOUNDARY_CASES)
async def test_the_boundary_closes_a_season_and_opens_the_next(
    storage: Storage,
    cadence: str,
    zone_name: str,
    start: tuple[int, ...],
    first: tuple[int, ...],
    second: tuple[int, ...],
) -> None:
    where = ZoneInfo(zone_name)
    clock = ManualClock(at(where, *start))
    bot = Bot(storage, clock)
    changed = await bot.league.change_settings(
        GUILD, SettingsChange(season=cadence, time_zone=zone_name, season_channel=CHANNEL)
    )
    assert ("season_started", changed.season) in changed.changed
    one = changed.season
    assert one is not None and (one.number, one.starts_at) == (1, int(clock.now()))
    assert one.ends_at == at(where, *first)
    assert bot.seasons.timers() == [GUILD]

    await play(storage, clock, "m1", ALICE, BOB)
    await clock.advance(one.ends_at - clock.now() - 1)
    assert (await storage.seasons.current(GUILD)) == one, "a second before the boundary"
    assert bot.seasons.timers() == [GUILD] and bot.posts.finals == []

    await clock.advance(1)
    await until(lambda: bool(bot.posts.finals))
    await bot.settle()
    closed = await storage.seasons.get(GUILD, 1)
    assert closed is not None and closed.closed_at == one.ends_at
    assert (closed.ended_by, closed.channel_id) == ("boundary", CHANNEL)
    two = await storage.seasons.current(GUILD)
    assert two is not None and two.number == 2
    assert (two.starts_at, two.ends_at) == (one.ends_at, at(where, *second))

    [(final, again)] = bot.posts.finals
    assert not again and final.season.number == 1 and final.ranked == 2
    assert [(r.rank, r.user_id) for r in final.rows] == [(1, ALICE), (2, BOB)]
    assert [r.user_id for r in final.champions] == [ALICE]
    marked = await storage.seasons.get(GUILD, 1)
    assert marked is not None and marked.announced_at is not None

    # A result recorded now counts in season 2 and all time, not in season 1.
    await play(storage, clock, "m2", BOB, CAROL)
    assert [r.user_id for r in await storage.boards.leaderboard(GUILD, season=2)] == [BOB, CAROL]
    assert [r.user_id for r in await storage.boards.leaderboard(GUILD, season=1)] == [ALICE, BOB]
    assert len(await storage.boards.leaderboard(GUILD)) == 3
    await bot.seasons.shutdown()


# ---- posted once ---------------------------------------------------------------------------


async def test_a_boundary_passed_while_stopped_is_posted_once_after_the_start(
    storage: Storage,
) -> None:
    clock = ManualClock(at(KOLKATA, 2024, 3, 13, 12))
    first = Bot(storage, clock)
    await weekly_in_kolkata(first)
    await play(storage, clock, "m1", BOB, ALICE)
    await first.seasons.shutdown()  # the bot stops on Wednesday...

    await clock.advance(10 * 86_400)  # ...and is started again eleven days later
    second = Bot(storage, clock)
    await second.seasons.start()
    await second.settle()
    assert second.posts.numbers() == [1]
    assert second.posts.finals[0][1] is False, "closed by this run: nothing to look for"
    assert [r.user_id for r in second.posts.finals[0][0].champions] == [BOB]
    closed = await storage.seasons.get(GUILD, 1)
    assert closed is not None and closed.closed_at == int(clock.now())
    assert closed.ends_at == at(KOLKATA, 2024, 3, 18), "it shows the boundary it ended at"
    two = await storage.seasons.current(GUILD)
    assert two is not None and two.number == 2
    assert two.ends_at == next_boundary(clock.now(), "weekly", KOLKATA)
    assert second.seasons.timers() == [GUILD]
    await second.seasons.shutdown()

    third = Bot(storage, clock)
    await third.seasons.start()
    await third.settle()
    assert third.posts.finals == [], "posted once: a later start owes nothing"
    await third.seasons.shutdown()


async def test_a_post_cut_off_before_its_mark_is_looked_for_at_the_next_start(
    storage: Storage,
) -> None:
    clock = ManualClock(at(KOLKATA, 2024, 3, 17, 23))
    first = Bot(storage, clock)
    await weekly_in_kolkata(first)
    await play(storage, clock, "m1", ALICE, BOB)
    first.posts.hang = True  # the process stops while posting
    await clock.advance(3600)
    await until(lambda: first.seasons.pending() == 1)
    await first.seasons.shutdown()
    assert [s.number for s in await storage.seasons.unannounced()] == [1]

    second = Bot(storage, clock)
    await second.seasons.start()
    await second.settle()
    assert [(f.season.number, again) for f, again in second.posts.finals] == [(1, True)]
    assert await storage.seasons.unannounced() == []
    await second.seasons.shutdown()


async def test_a_failed_post_is_retried(storage: Storage) -> None:
    clock = ManualClock(at(KOLKATA, 2024, 3, 17, 23))
    bot = Bot(storage, clock)
    await weekly_in_kolkata(bot)
    await play(storage, clock, "m1", ALICE, BOB)
    bot.posts.fail = 2
    await clock.advance(3600)  # the boundary: the first attempt fails
    # A failure and the wait for its retry are one step of the post's task: once the
    # failure is seen, the retry is waiting for the clock.
    await until(lambda: bot.posts.fail == 1)
    await clock.advance(1.0)  # the second attempt fails too
    await until(lambda: bot.posts.fail == 0)
    await clock.advance(1.0)  # the third gets through
    await bot.settle()
    # Posted once, and told that an earlier attempt might have posted (so it looks first).
    assert [(f.season.number, again) for f, again in bot.posts.finals] == [(1, True)]
    assert await storage.seasons.unannounced() == []
    await bot.seasons.shutdown()


async def test_a_season_nobody_played_closes_without_a_post(storage: Storage) -> None:
    clock = ManualClock(at(KOLKATA, 2024, 3, 17, 23))
    bot = Bot(storage, clock)
    await weekly_in_kolkata(bot)
    await clock.advance(3600)
    await in_season(storage, 2)
    await bot.settle()
    closed = await storage.seasons.get(GUILD, 1)
    assert closed is not None and not closed.open
    assert bot.posts.finals == [] and await storage.seasons.unannounced() == []
    await bot.seasons.shutdown()


# ---- what managers change -------------------------------------------------------------------


async def test_a_manager_ends_the_season_now(storage: Storage) -> None:
    clock = ManualClock(at(KOLKATA, 2024, 3, 13, 12))
    bot = Bot(storage, clock)
    await weekly_in_kolkata(bot)
    await play(storage, clock, "m1", CAROL, ALICE)
    await clock.advance(3600)
    changed = await bot.league.change_settings(GUILD, SettingsChange(end_season=True))
    facts = dict(changed.changed)
    assert facts["season_ended"].number == 1 and facts["season_ended"].ended_by == "manager"
    assert facts["season_started"].number == 2
    assert changed.season is not None and changed.season.ends_at == at(KOLKATA, 2024, 3, 18)
    await bot.settle()
    assert bot.posts.numbers() == [1]
    await bot.seasons.shutdown()


async def test_turning_seasons_off_ends_the_season_and_the_timer(storage: Storage) -> None:
    clock = ManualClock(at(KOLKATA, 2024, 3, 13, 12))
    bot = Bot(storage, clock)
    await weekly_in_kolkata(bot)
    await play(storage, clock, "m1", ALICE, BOB)
    changed = await bot.league.change_settings(GUILD, SettingsChange(season="off"))
    assert changed.season is None and changed.settings.season == "off"
    ended = dict(changed.changed)["season_ended"]
    assert ended.ended_by == "off"
    await bot.settle()
    assert bot.posts.numbers() == [1] and bot.seasons.timers() == []
    board = await bot.league.leaderboard(GUILD, ALICE, 0, None, "rating", None, 10)
    assert board.season is None, "no seasons: the all-time board"
    # Nothing to end now; the refusal changes nothing.
    with pytest.raises(errors.SettingsConflict) as refused:
        await bot.league.change_settings(GUILD, SettingsChange(end_season=True, turn_timer=30))
    assert refused.value.problem == "no_season"
    assert (await storage.settings.get_settings(GUILD)).turn_timer == 60
    await bot.seasons.shutdown()


async def test_a_new_zone_replans_only_the_open_season(storage: Storage) -> None:
    clock = ManualClock(at(KOLKATA, 2024, 3, 13, 12))
    bot = Bot(storage, clock)
    await weekly_in_kolkata(bot)
    await clock.advance(6 * 86_400)  # into season 2
    await in_season(storage, 2)
    changed = await bot.league.change_settings(
        GUILD, SettingsChange(season="monthly", time_zone="Europe/London")
    )
    assert changed.season is not None and changed.season.number == 2
    assert changed.season.ends_at == at(LONDON, 2024, 4, 1)
    assert ("season_replanned", changed.season) in changed.changed
    one = await storage.seasons.get(GUILD, 1)
    assert one is not None
    assert (one.cadence, one.time_zone, one.ends_at) == (
        "weekly",
        "Asia/Kolkata",
        at(KOLKATA, 2024, 3, 18),
    )
    await bot.seasons.shutdown()


async def test_wrong_season_settings_change_nothing(storage: Storage) -> None:
    clock = ManualClock()
    bot = Bot(storage, clock)
    for change, problem in (
        (SettingsChange(season="daily"), "unknown_season"),
        (SettingsChange(season="weekly", time_zone="Mars/Olympus"), "unknown_time_zone"),
        (SettingsChange(end_season=True), "no_season"),
    ):
        with pytest.raises(errors.SettingsConflict) as refused:
            await bot.league.change_settings(GUILD, change)
        assert refused.value.problem == problem
    settings = await storage.settings.get_settings(GUILD)
    assert (settings.season, settings.time_zone) == ("off", None)
    assert await storage.seasons.current(GUILD) is None


# ---- the leaderboard follows the season ----------------------------------------------------


async def test_the_leaderboard_shows_the_current_season_by_default(storage: Storage) -> None:
    clock = ManualClock(at(KOLKATA, 2024, 3, 13, 12))
    bot = Bot(storage, clock)
    await play(storage, clock, "before", CAROL, ALICE)
    await weekly_in_kolkata(bot)
    await play(storage, clock, "m1", ALICE, BOB)

    def board(season: str | None = None, period: str | None = None):  # type: ignore[no-untyped-def]
        return bot.league.leaderboard(GUILD, ALICE, 0, None, "rating", period, 10, season)

    now = await board()
    assert now.season is not None and now.season.number == 1
    assert [r.user_id for r in now.rows] == [ALICE, BOB]
    assert now.own is not None and now.own.rank == 1
    assert {r.user_id for r in (await board("all")).rows} == {ALICE, BOB, CAROL}
    assert (await board(None, "7d")).season is None
    assert (await board(None, "all")).season is None
    assert (await board("1")).season == now.season
    assert (await board("current")).season == now.season
    for season, period in (("9", None), ("first", None), ("1", "7d"), ("-1", None)):
        with pytest.raises(errors.BadBoard):
            await board(season, period)
    await bot.seasons.shutdown()
