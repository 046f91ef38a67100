"""A table in its own thread: the bot starts a public thread from the lobby message, plays the
whole match there (table message, turn pings, results) and keeps the lobby message in the
channel, edited to show where the table plays and, at the end, the final standings.

The fake Discord models threads as Discord documents them (a thread has its starter message's
id; starting one needs Create Public Threads, posting in one Send Messages in Threads; an
archived thread refuses edits, and a message unarchives it unless a moderator locked it), so
the fallbacks are played too: no permission, the server's choice of the channel, a thread
archived or locked mid-match.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import (
    TOKEN,
    TableDriver,
    embed_field,
    find_table_message,
    footer,
    game_env,
    is_ping,
    results_deal,
)
from tests.fakediscord import (
    PERM_MEMBER_DEFAULT,
    PERM_SEND_MESSAGES_IN_THREADS,
    PERM_THREADS,
    FakeDiscord,
    StoredMessage,
)
from tests.postgres import postgres_schema, postgres_url_or_skip

TWO = ["alice", "bob"]
WITH_THREADS = PERM_MEMBER_DEFAULT | PERM_THREADS
FALLBACK = "🧵"


def _lines(fake: FakeDiscord, channel: Any) -> list[StoredMessage]:
    return [m for m in fake.public_messages(channel) if m.content.startswith(FALLBACK)]


async def test_a_whole_match_in_its_thread(tmp_path: Path) -> None:
    async with game_env(
        tmp_path, TWO, 7, next_deal_delay=60.0, bot_permissions=WITH_THREADS
    ) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        lobby = await driver.open("alice", profile="pool101")
        await driver.start("alice")
        thread = fake.thread_of(lobby)
        assert thread is not None, "no thread was started from the lobby message"
        assert thread.parent_id == fake.channel("general").id and thread.type == 11
        assert "alice" in thread.name
        # The lobby message now says where the table plays, without controls.
        await fake.wait_for(lambda: f"<#{thread.id}>" in fake.render(fake.message(lobby.id)))
        shown = fake.message(lobby.id)
        assert not any(c.get("type") == 2 for c in shown.iter_components())

        final = await driver.play()
        assert final is not None and final.channel_id == thread.id
        in_thread = fake.public_messages(thread.id)
        in_channel = fake.public_messages("general")
        # Table message, pings and every deal's results are in the thread; none in the channel.
        assert [results_deal(m) for m in in_thread if results_deal(m)] == [1, 2]
        assert find_table_message(fake, thread.id) is not None or any(
            "Match over" in footer(m) for m in in_thread if results_deal(m) is None
        )
        assert driver.turns > 0 and all(
            fake.message(m).channel_id == thread.id for m in driver.handled
        )
        assert [m.id for m in in_channel] == [lobby.id], fake.screen("alice", "general")
        assert not _lines(fake, "general")
        # At the end the lobby message shows the final standings.
        closed = fake.message(lobby.id)
        standings = embed_field(closed, "Final standings") or ""
        assert "match over" in fake.render(closed).lower()
        assert sorted(line.split(":")[0] for line in standings.splitlines()) == TWO
        assert "🏆" in standings
        # A closed table's thread message says so too (the table message, edited).
        table_msgs = [m for m in in_thread if m.embeds and results_deal(m) is None]
        assert table_msgs and "Match over" in footer(table_msgs[0])
        assert env.table() is None
        await env.finish()
        assert env.audit.checked > driver.turns  # the audit saw the thread's messages


async def test_without_thread_permission_the_table_plays_in_the_channel(tmp_path: Path) -> None:
    """The fake's default roles grant no Create Public Threads: the bot says so in one line and
    the match is played in the channel, the lobby message becoming the table."""
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        lobby = await driver.open("alice", profile="points")
        await driver.start("alice")
        assert fake.thread_of(lobby) is None and fake.server.threads() == []
        final = await driver.play()
        assert final is not None and final.channel_id == fake.channel("general").id
        lines = _lines(fake, "general")
        assert len(lines) == 1, [m.content for m in lines]
        assert "Create Public Threads" in lines[0].content
        assert "Send Messages in Threads" not in lines[0].content  # it has that one
        assert lines[0].content.count("\n") == 0  # one short line
        assert "Match over" in footer(fake.message(lobby.id))
        # No thread request was even tried: the bot knew from its permissions.
        assert not [c for c in fake.server.request_log if c[1].endswith("/threads")]
        await env.finish()


async def test_without_send_in_threads_the_line_names_it(tmp_path: Path) -> None:
    """The server's roles take Send Messages in Threads away (a GUILD_ROLE_UPDATE the bot
    sees): the table plays in the channel, and the line names both missing permissions."""
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        no_threads = PERM_MEMBER_DEFAULT & ~PERM_SEND_MESSAGES_IN_THREADS
        await fake.server.set_bot_permissions(no_threads, everyone=no_threads)
        await fake.settle(0.2)
        driver = TableDriver(fake, TWO)
        lobby = await driver.open("alice", profile="points")
        await driver.start("alice")
        lines = _lines(fake, "general")
        assert len(lines) == 1
        assert "Create Public Threads and Send Messages in Threads" in lines[0].content
        assert fake.thread_of(lobby) is None
        final = await driver.play()
        assert final is not None and final.channel_id == fake.channel("general").id
        await env.finish()


async def test_thread_creation_refused_falls_back_to_the_channel(tmp_path: Path) -> None:
    """The bot's cached permissions say yes, but Discord refuses the thread (403, 50013: a
    channel override the bot did not see): the table plays in the channel, saying why."""
    async with game_env(
        tmp_path, TWO, 4, next_deal_delay=60.0, bot_permissions=WITH_THREADS
    ) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        lobby = await driver.open("alice", profile="points")
        fake.server.bot_permissions = PERM_MEMBER_DEFAULT  # changed behind the bot's back
        await driver.start("alice")
        refused = [c for c in fake.server.request_log if c[1].endswith("/threads")]
        assert [status for _, _, status in refused] == [403]
        final = await driver.play()
        assert final is not None and final.channel_id == fake.channel("general").id
        lines = _lines(fake, "general")
        assert len(lines) == 1 and "would not open a thread" in lines[0].content
        assert fake.thread_of(lobby) is None
        await env.finish()


async def test_the_server_setting_chooses_the_channel(tmp_path: Path) -> None:
    async with game_env(
        tmp_path, TWO, 4, next_deal_delay=60.0, bot_permissions=WITH_THREADS
    ) as env:
        fake = env.fake
        r = await fake.slash("alice", "general", "rummy settings", threads=False)
        await r.wait()
        assert "in the channel" in r.text, r.text
        driver = TableDriver(fake, TWO)
        lobby = await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None and final.channel_id == fake.channel("general").id
        assert fake.server.threads() == []
        assert not _lines(fake, "general")  # the server's choice needs no explanation
        assert "Match over" in footer(fake.message(lobby.id))
        # And back to threads: the next table gets one.
        r = await fake.slash("alice", "general", "rummy settings", threads=True)
        await r.wait()
        assert "own thread" in r.text, r.text
        again = TableDriver(fake, TWO)
        lobby2 = await again.open("alice", profile="points")
        await again.start("alice")
        assert fake.thread_of(lobby2) is not None
        await env.finish()


async def test_an_archived_thread_is_reopened_and_a_locked_one_left(tmp_path: Path) -> None:
    """A moderator archives the table's thread mid-match: the bot unarchives it and plays on
    there. Then they archive and lock it: the table continues in the channel, saying why."""
    async with game_env(
        tmp_path, TWO, 7, next_deal_delay=60.0, bot_permissions=WITH_THREADS
    ) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        lobby = await driver.open("alice", profile="pool101")
        await driver.start("alice")
        thread = fake.thread_of(lobby)
        assert thread is not None
        await driver.play(stop_after=2)
        # Archived: the next message (a turn ping) reopens it, as Discord does for a message.
        await fake.server.archive_thread(thread.id)
        await driver.play(stop_after=3)
        # What players see of a move follows its commit in the background: wait for it.
        await fake.wait_for(
            lambda: not thread.archived,
            10.0,
            message="posting in the archived thread did not reopen it",
        )
        # Archived again, and the next request is an edit of the table message, which an
        # archived thread refuses (400, 50083): the bot unarchives the thread and edits again.
        table = env.table()
        presenter = env.bot.presenter

        def refreshing() -> bool:
            task = presenter._flushers.get(table.id)
            return task is not None and not task.done()

        # The last move's own refresh must be over first: one still in flight would set what
        # the message shows after the line below, and this flush would then send nothing.
        await fake.wait_for(lambda: not refreshing(), 10.0, message="the table kept refreshing")
        await fake.settle(0.3)
        await fake.server.archive_thread(thread.id)
        mark = len(fake.server.request_log)
        presenter.table_message._sent.pop(table.id, None)  # as if the table had changed
        await presenter.flush(table)
        edit = f"/channels/{thread.id}/messages/{table.message_id}"
        # Only the table message and the thread itself: a turn ping may go out meanwhile.
        calls = [
            (m, p, st)
            for m, p, st in fake.server.request_log[mark:]
            if p in (edit, f"/channels/{thread.id}")
        ]
        assert ("PATCH", edit, 400) in calls and ("PATCH", f"/channels/{thread.id}", 200) in calls
        assert calls[-1] == ("PATCH", edit, 200), calls
        assert not thread.archived
        await driver.play(stop_after=4)
        assert not _lines(fake, "general")
        await fake.server.archive_thread(thread.id, locked=True)
        driver.channel = "general"  # the table comes back to the channel
        final = await driver.play()
        assert final is not None and final.channel_id == fake.channel("general").id
        lines = _lines(fake, "general")
        assert len(lines) == 1 and "continues here in the channel" in lines[0].content
        # The lobby's last edit follows the match's commit in the background.
        await fake.wait_for(
            lambda: "Final standings" in fake.render(fake.message(lobby.id)),
            message=lambda: fake.render(fake.message(lobby.id)),
        )
        assert not [m for m in fake.public_messages(thread.id) if is_ping(m) and m.id > final.id]
        await env.finish()


@pytest.fixture(params=["sqlite", "postgres"])
async def database_url(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """The restarted bot's DATABASE_URL: "" is SQLite in tmp_path, else a fresh schema."""
    if request.param == "sqlite":
        yield ""
        return
    async for url in postgres_schema(postgres_url_or_skip()):
        yield url


async def test_restart_resumes_a_table_in_its_thread(tmp_path: Path, database_url: str) -> None:
    """`python -m bot` killed mid-match and started again: the table is still in its thread
    (the thread id is stored with the table), play goes on there, no second thread."""
    env = {
        "DATABASE_URL": database_url,
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "DECK_SEED": "7",
        "AI_DELAY": "0",
        "NEXT_DEAL_DELAY": "60",
        "LOG_LEVEL": "WARNING",
    }
    async with FakeDiscord(
        users=TWO, channels=["general"], token=TOKEN, bot_permissions=WITH_THREADS
    ) as fake:
        proc = await fake.launch("bot", env=env)
        try:
            await fake.wait_for_commands("rummy")
            driver = TableDriver(fake, TWO)
            lobby = await driver.open("alice", profile="pool101")
            await driver.start("alice")
            thread = fake.thread_of(lobby)
            assert thread is not None
            await driver.play(stop_after=3)
            await proc.kill()
            mark = len(fake.server.request_log)
            proc = await fake.launch("bot", env=env)
            await fake.wait_for_commands("rummy")
            final = await driver.play()
            assert final is not None and final.channel_id == thread.id
            assert fake.server.threads() == [thread]
            after = fake.server.request_log[mark:]
            assert not [c for c in after if c[1].endswith("/threads")]  # not opened again
            assert any(path.startswith(f"/channels/{thread.id}/") for _, path, _ in after)
            assert [m.id for m in fake.public_messages("general")] == [lobby.id]
            assert "Final standings" in fake.render(fake.message(lobby.id))
            assert fake.violations == []
        finally:
            await proc.kill()
