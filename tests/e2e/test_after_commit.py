"""The unit of work through the fake Discord: what players are told and shown around a commit.

* Recording the deal's result fails once right after the winning declaration is stored: the
  declarer is told they declared (never "nothing changed"), the results are posted, the
  table closes, the result is stored by the retry, and `/rummy new` works in the channel.
* A commit held back: nothing public or private shows the move until it is stored, even a
  hand view opened by the player while it is in flight.
* Results posted once: after a crash between the post and its mark, in a busy channel, later
  than Discord remembers a nonce (found by reading the channel from the deal's end on); and
  when the first POST's answer is lost and the channel cannot be read (its nonce).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.storage import StorageUnavailable
from tests.e2e.harness import (
    CARD_RE,
    TableDriver,
    enabled,
    eventually,
    game_env,
    results_deal,
)
from tests.fakediscord.driver import DEADLINE
from tests.fakediscord.server import NONCE_WINDOW

TWO = ["alice", "bob"]


async def nothing_pending(storage: Any) -> bool:
    return await storage.outbox.pending_announcements() == []


def private_texts(fake: Any) -> list[str]:
    return [m.text() for m in fake.server.messages.values() if m.ephemeral and not m.deleted]


async def test_result_recording_fails_after_the_winning_declaration(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake, storage = env.fake, env.bot.storage
        real = storage.results.record_deal_result
        calls = [0]

        async def flaky(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            if calls[0] == 1:
                raise StorageUnavailable("record_deal_result failed (injected)")
            return await real(*args, **kwargs)

        storage.results.record_deal_result = flaky  # type: ignore[method-assign]
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None and results_deal(final) == 1
        texts = private_texts(fake)
        assert not any("went wrong" in t or "nothing changed" in t for t in texts), texts
        assert any("You declared!" in t for t in texts), texts
        assert env.table() is None  # closed: the channel is free again
        guild = fake.guild_id
        # the retry stores the result
        await eventually(lambda: storage.boards.recent_deals(guild, fake.user("alice").id))
        assert len(await storage.boards.recent_deals(guild, fake.user("alice").id)) == 1
        assert calls[0] == 2
        assert await storage.outbox.pending_announcements() == []
        again = await fake.slash("bob", "general", "rummy new", profile="points")
        assert again.message is not None and not again.ephemeral, again


async def test_a_move_in_flight_is_shown_to_nobody(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake, storage = env.fake, env.bot.storage
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        table = env.table()
        turn = table.current_turn()
        user = table.match.players[turn].id[1:]
        name = fake.user(int(user)).name
        view = await driver.view_of(name)
        assert enabled(view, "Draw from stock")
        cards_before = sorted(CARD_RE.findall(fake.render(view.id)))
        version = table.version

        gate, entered = asyncio.Event(), asyncio.Event()
        real = storage.tables.commit_action

        async def held(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            await gate.wait()
            return await real(*args, **kwargs)

        storage.tables.commit_action = held  # type: ignore[method-assign]
        log_mark = len(fake.server.request_log)
        draw = await fake.click(name, fake.message(view.id), label="Draw from stock")
        await asyncio.wait_for(entered.wait(), DEADLINE)
        storage.tables.commit_action = real  # type: ignore[method-assign]
        # While the commit is held: the player opens a fresh view, and the table refreshes.
        fresh = await fake.slash(name, "general", "rummy hand")
        await fresh.wait()
        assert fresh.message is not None
        await asyncio.sleep(0.5)  # several refresh intervals of the public table
        assert sorted(CARD_RE.findall(fake.render(fresh.message.id))) == cards_before
        assert "you drew" not in fake.render(fresh.message.id).lower()
        assert table.version == version
        edits = [p for m, p, _ in fake.server.request_log[log_mark:] if m == "PATCH"]
        table_msg = driver.lobby
        assert table_msg is not None
        assert not any(str(table_msg.id) in p for p in edits), "table edited before the commit"
        gate.set()
        await draw.wait()
        await fake.wait_for(
            lambda: "you drew" in fake.render(view.id).lower(),
            message=lambda: fake.render(view.id),
        )
        assert table.version == version + 1


async def test_results_posted_before_a_crash_are_not_posted_again(tmp_path: Path) -> None:
    """The crash window of the outbox: the results message is posted, then the process dies
    before marking it posted. The next start finds the message in the channel (the results
    carry the table's mark in their footer) and does not post it twice."""
    from bot.discord_ui.client import PapluBot
    from tests.e2e.harness import TOKEN, scripted_pace, settings
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord(users=TWO, channels=["general"], token=TOKEN) as fake:
        db = tmp_path / "bot.sqlite3"
        first = PapluBot(settings(db, 4, next_deal_delay=60.0))
        scripted_pace(fake, client=first)
        async with fake.running(first):
            await fake.wait_for_commands("rummy")
            real_mark = first.storage.outbox.mark_announced

            async def crash_before_marking(table_id: str, kind: str, *a: Any, **k: Any) -> Any:
                if kind in ("deal_results", "match_over"):
                    raise StorageUnavailable("the process died here (simulated)")
                return await real_mark(table_id, kind, *a, **k)  # type: ignore[arg-type]

            first.storage.outbox.mark_announced = crash_before_marking  # type: ignore[method-assign]
            driver = TableDriver(fake, TWO)
            await driver.open("alice", profile="points")
            await driver.start("alice")
            final = await driver.play()
            assert final is not None
            owed = await first.storage.outbox.pending_announcements()
            assert sorted(n.kind for n in owed) == ["deal_results", "match_over"]

        def results() -> list[Any]:
            return [m for m in fake.public_messages("general") if results_deal(m) == 1]

        assert len(results()) == 1
        # A busy channel: sixty members' messages since (the bot once looked back fifty), and
        # the restart later than Discord remembers a nonce, so the look-up alone must find it.
        for n in range(60):
            await fake.say(TWO[n % 2], "general", f"chatter {n}")
        fake.server.advance_time(NONCE_WINDOW + 1)
        second = PapluBot(settings(db, 4, next_deal_delay=60.0))
        second.budget.share = first.budget.share
        async with fake.running(second):
            await eventually(lambda: nothing_pending(second.storage))
            assert len(results()) == 1, "the results were posted twice"
            assert fake.server.nonce_hits == [], "found by the look-up, not by the nonce"
            assert await fake.wait_idle() == []


async def test_a_results_post_whose_answer_was_lost_is_not_posted_again(tmp_path: Path) -> None:
    """The first POST of a deal's results reaches Discord, which stores the message, and the
    answer is lost (the connection drops). The bot retries; with the channel's history
    unreadable (no Read Message History), its look-up finds nothing, and the retry's nonce
    (the same at every attempt, with enforce_nonce) gets the message already posted from
    Discord instead of a second one."""
    import dataclasses

    from tests.fakediscord.models import FLAG_EPHEMERAL
    from tests.fakediscord.server import error_response

    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        server = fake.server
        ctx = env.bot.tables.ctx
        ctx.settings = dataclasses.replace(ctx.settings, retry_delays=(0.2,))
        create, history = server._channel_create, server._channel_history
        lost: list[Any] = []

        async def answer_lost(req: Any) -> Any:
            resp = await create(req)
            payload = req.payload or {}
            is_results = any("Deal 1" in (e.get("title") or "") for e in payload.get("embeds", []))
            if is_results and not lost and not int(payload.get("flags") or 0) & FLAG_EPHEMERAL:
                lost.append(payload.get("nonce"))
                req.raw.transport.close()  # stored at Discord; the answer never arrives
            return resp

        async def unreadable(req: Any) -> Any:
            return error_response(403, 50001, "Missing Access")

        swap = {create: answer_lost, history: unreadable}
        server._routes = [(m, rx, swap.get(h, h), a) for m, rx, h, a in server._routes]
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None and results_deal(final) == 1
        await eventually(lambda: nothing_pending(env.bot.storage))
        assert lost and lost[0] is not None, "the first attempt reached Discord"
        results = [m for m in fake.public_messages(driver.channel) if results_deal(m) == 1]
        assert [m.id for m in results] == [final.id], "posted once"
        assert server.nonce_hits == [final.id], "the retry was answered by the nonce"
        assert final.nonce == lost[0]


async def test_results_come_once_discord_answers_again(tmp_path: Path) -> None:
    """From the final results on, Discord answers every message post and edit with 429 for
    ten seconds (the bot's retry pauses shortened to at most a second, so the old five tries
    ended after three): the results and the match's end appear once it answers again, in the
    same process, and once each."""
    import dataclasses

    from bot.table.vocabulary import TableStatus
    from tests.fakediscord.server import Outage

    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        ctx = env.bot.tables.ctx
        ctx.settings = dataclasses.replace(ctx.settings, retry_delays=(0.2, 0.5, 1.0))
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        table = env.table()
        assert table is not None

        def posts_after_the_end(method: str, path: str) -> bool:
            return (
                table.status is TableStatus.FINISHED
                and method in ("POST", "PATCH")
                and path.startswith("/channels/")
            )

        outage = fake.server.outage = Outage(posts_after_the_end, seconds=10.0)
        final = await driver.play()
        assert final is not None and results_deal(final) == 1
        assert outage.started is not None and outage.refused >= 5
        assert fake.server.now() >= outage.started + outage.seconds
        results = [m for m in fake.public_messages(driver.channel) if results_deal(m) == 1]
        assert [m.id for m in results] == [final.id], "posted once"
        await eventually(lambda: nothing_pending(env.bot.storage))
        fake.server.outage = None
