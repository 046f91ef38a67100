"""End to end: seasons against the fake Discord.

A manager turns weekly seasons on in Asia/Kolkata time with a season channel, players see the
current season's board by default and pick others from its menu, a manager ends the season
and its final standings are posted once, and players see their own final place privately;
every wrong input gets a short private answer and changes nothing.

Then the real entry point (`python -m bot`): a weekly season whose boundary passes while the
bot is stopped is announced once after it starts, and not again after the next restart. The
bot's clock is the system's, so "a week passes while it is stopped" is made by moving the
stored season (and the results played in it) a week into the past while the bot is down,
which is what the bot finds when it starts.

Results are seeded through `bot.storage` (the game flow that records them is tested
elsewhere), after the season opened, so they count in it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import pytest

from bot.discord_ui.client import PapluBot
from bot.storage import MatchRecord, MatchSeatRecord, Storage
from tests.e2e.harness import TOKEN, settings
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.fakediscord.models import PERM_MEMBER_DEFAULT
from tests.postgres import postgres_schema, postgres_url_or_skip

USERS = ["olga", "alice", "bob", "carol"]  # olga owns the server (a manager); the rest do not
WEEK = 7 * 86_400
FINAL_TITLE = "Season 1 is over!"


#: Discord's Embed Links permission: the final post is an embed.
EMBED_LINKS = 1 << 14


@contextlib.asynccontextmanager
async def season_bot(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, PapluBot]]:
    async with FakeDiscord(users=USERS, channels=["general", "results"], token=TOKEN) as fake:
        bot = PapluBot(settings(tmp_path / "bot.sqlite3"))
        async with fake.running(bot):
            await fake.wait_for_commands("rummy")
            yield fake, bot


async def seed(fake: FakeDiscord, storage: Storage, at: int, prefix: str = "m") -> None:
    """Two rated matches: alice beats bob, then alice beats carol."""
    ids = {u.name: u.id for u in fake.users}
    for n, (winner, loser) in enumerate((("alice", "bob"), ("alice", "carol"))):
        seats = [
            MatchSeatRecord(ids[winner], winner, False, 1, True, Fraction(20)),
            MatchSeatRecord(ids[loser], loser, False, 2, False, Fraction(-20)),
        ]
        match = MatchRecord(f"{prefix}{n}", fake.guild_id, "points", at + n, seats)
        assert await storage.results.record_match_result(match)


def finals(fake: FakeDiscord, channel: str) -> list[StoredMessage]:
    """The season final posts in a channel."""
    return [
        m
        for m in fake.public_messages(channel)
        if any(e.get("title") == FINAL_TITLE for e in m.embeds)
    ]


def title(msg: StoredMessage | None) -> str:
    assert msg is not None
    return str(msg.embeds[0].get("title") or "")


async def test_a_season_from_settings_to_its_final_post(tmp_path: Path) -> None:
    async with season_bot(tmp_path) as (fake, bot):
        g = fake.guild_id
        zones = await fake.autocomplete("olga", "general", "rummy settings", "time_zone")
        assert zones[0]["value"] == "Asia/Kolkata" and len(zones) == 25
        kolkata = await fake.autocomplete(
            "olga", "general", "rummy settings", "time_zone", time_zone="kolk"
        )
        assert [z["value"] for z in kolkata] == ["Asia/Kolkata"]

        # Wrong inputs: a short private answer each, and nothing changes.
        refused = await fake.slash("bob", "general", "rummy settings", season="weekly")
        assert refused.ephemeral and "Manage Server" in refused.text
        mars = await fake.slash(
            "olga", "general", "rummy settings", season="weekly", time_zone="Mars/Olympus"
        )
        assert mars.ephemeral and "“Mars/Olympus” is not a time zone I know" in mars.text
        nothing = await fake.slash("olga", "general", "rummy settings", end_season=True)
        assert nothing.ephemeral and "no season to end" in nothing.text
        assert (await bot.storage.settings.get_settings(g)).season == "off"
        assert await bot.storage.seasons.current(g) is None

        on = await fake.slash(
            "olga",
            "general",
            "rummy settings",
            season="weekly",
            time_zone="Asia/Kolkata",
            season_channel="results",
        )
        assert on.ephemeral
        assert "Seasons: weekly" in on.text and "Season 1 has begun" in on.text
        assert "weekly, ending Monday 00:00 (Asia/Kolkata time)" in on.text
        assert fake.channel("results").mention in on.text
        await seed(fake, bot.storage, int(time.time()))

        board = await fake.slash("bob", "general", "rummy leaderboard")
        assert "Season 1" in title(board.message) and "Season rating" in board.text
        assert "**1.** alice" in board.text and "◀ you" in board.text  # bob, 2nd or 3rd
        menu = await fake.autocomplete("bob", "general", "rummy leaderboard", "season")
        assert [c["value"] for c in menu] == ["current", "all"]
        all_time = await fake.slash("bob", "general", "rummy leaderboard", season="all")
        assert "all time" in title(all_time.message)
        both = await fake.slash("bob", "general", "rummy leaderboard", season="1", period="7d")
        assert both.ephemeral and "not both" in both.text
        typo = await fake.slash("bob", "general", "rummy leaderboard", season="Season one")
        assert typo.ephemeral and "There is no season “Season one”" in typo.text
        later = await fake.slash("bob", "general", "rummy leaderboard", season="9")
        assert later.ephemeral and "does not exist" in later.text

        mine = await fake.slash("carol", "general", "rummy season")
        assert mine.ephemeral and "You are **#" in mine.text and "of 3 so far" in mine.text

        ended = await fake.slash("olga", "general", "rummy settings", end_season=True)
        assert "Season 1 has ended" in ended.text and "Season 2 has begun" in ended.text
        (post,) = await fake.wait_for(lambda: finals(fake, "results"), timeout=10)
        assert "🏆 Champion: **alice**" in post.text()
        assert "Ended early by a manager" in post.text()
        assert "**1.** alice" in post.text() and "3 players ranked" in post.text()

        place = await fake.slash("alice", "general", "rummy season")
        assert place.ephemeral and "You finished **#1** of 3" in place.text
        assert "Champion: alice" in place.text and "Season 2" in place.text
        past = await fake.slash("bob", "general", "rummy leaderboard", season="1")
        assert "Season 1" in title(past.message) and "final standings" in past.text
        now = await fake.slash("bob", "general", "rummy leaderboard")
        assert "Season 2" in title(now.message) and "Nobody is ranked here yet" in now.text
        menu = await fake.autocomplete("bob", "general", "rummy leaderboard", "season")
        assert [c["value"] for c in menu] == ["current", "all", "1"]

        off = await fake.slash("olga", "general", "rummy settings", season="off")
        assert "Seasons: off" in off.text and "Season 2 has ended" in off.text
        board = await fake.slash("bob", "general", "rummy leaderboard")
        assert "all time" in title(board.message)
        assert finals(fake, "results") == [post], "an empty season is not posted"
        assert await fake.wait_idle() == []


async def test_a_season_channel_the_bot_cannot_post_in_is_refused(tmp_path: Path) -> None:
    async with season_bot(tmp_path) as (fake, bot):
        no_embeds = PERM_MEMBER_DEFAULT & ~EMBED_LINKS
        await fake.server.set_bot_permissions(no_embeds, everyone=no_embeds)
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None
        await fake.wait_for(lambda: not guild.me.guild_permissions.embed_links)
        refused = await fake.slash(
            "olga", "general", "rummy settings", season="weekly", season_channel="results"
        )
        results = fake.channel("results").mention
        assert refused.ephemeral and f"I cannot post in {results}" in refused.text
        assert (await bot.storage.settings.get_settings(fake.guild_id)).season == "off"
        assert await bot.storage.seasons.current(fake.guild_id) is None
        assert await fake.wait_idle() == []


# ---- a boundary passed while the bot was stopped -----------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where the bot keeps its data: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "bot.sqlite3")
        return
    async for url in postgres_schema(postgres_url_or_skip()):
        yield url


async def a_week_passes(database: str) -> None:
    """While the bot is stopped: the open season (and the results played in it) move a week
    and a day into the past, so its Monday boundary has passed when the bot starts again."""
    storage = await Storage.open_url(database)
    try:
        shift = WEEK + 86_400
        async with storage.transaction() as tx:
            await tx.execute(
                "UPDATE seasons SET starts_at = starts_at - ?, ends_at = ends_at - ?"
                " WHERE closed_at IS NULL",
                (shift, shift),
            )
        (season,) = await storage.seasons.open_seasons()
        assert season.ends_at < time.time()
    finally:
        await storage.close()


async def posted_and_marked(database: str, guild_id: int) -> None:
    """Wait until season 1 is marked posted (the post and its mark are two steps: a restart
    between them is the table layer's test; this one restarts after both)."""
    storage = await Storage.open_url(database)
    try:
        for _ in range(500):
            season = await storage.seasons.get(guild_id, 1)
            if season is not None and season.announced_at is not None:
                return
            await asyncio.sleep(0.02)
        raise AssertionError("season 1 was posted but never marked")
    finally:
        await storage.close()


async def test_a_boundary_passed_while_stopped_is_announced_once(
    tmp_path: Path, database: str
) -> None:
    env = {
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "DATABASE_URL": database if database.startswith("postgres") else "",
        "LOG_LEVEL": "INFO",
    }
    async with FakeDiscord(users=USERS, channels=["general"], token=TOKEN) as fake:
        proc = await fake.launch("bot", env=env, timeout=60)
        try:
            await fake.wait_for_commands("rummy")
            on = await fake.slash(
                "olga",
                "general",
                "rummy settings",
                season="weekly",
                time_zone="Asia/Kolkata",
                season_channel="general",
            )
            assert "Season 1 has begun" in on.text
            assert await proc.terminate() == 0

            await a_week_passes(database)
            storage = await Storage.open_url(database)
            try:  # the season's games, played before the stop
                season = await storage.seasons.current(fake.guild_id)
                assert season is not None
                await seed(fake, storage, season.starts_at + 3600)
            finally:
                await storage.close()

            proc = await fake.launch("bot", env=env, timeout=60)
            (post,) = await fake.wait_for(
                lambda: finals(fake, "general"), timeout=20, message=proc.log
            )
            assert "🏆 Champion: **alice**" in post.text()
            assert "3 players ranked · Season 1 · final standings" in post.text()
            await posted_and_marked(database, fake.guild_id)
            board = await fake.slash("bob", "general", "rummy leaderboard")
            assert "Season 2" in title(board.message)

            # Started again: nothing is owed any more, so nothing is posted twice.
            assert await proc.kill() != 0
            proc = await fake.launch("bot", env=env, timeout=60)
            await fake.wait_for(
                lambda: "seasons started: 0 owed a post, 0 ended while stopped" in proc.log(),
                timeout=20,
                message=proc.log,
            )
            assert finals(fake, "general") == [post]
            assert await fake.wait_idle() == [], proc.log()
        finally:
            await proc.terminate()
