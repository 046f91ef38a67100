"""The public table is edited through the tokens its players lend by opening their hands from
it (outside Discord's global limit), and through the channel when no such token can do it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.e2e.harness import Env, TableDriver, find_table_message, game_env, table_message
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import StoredMessage

TWO = ["alice", "bob"]
SEED = 3  # a deal long enough for the turns played here (at 7 alice declares early)


def channel_edits(fake: FakeDiscord, msg: StoredMessage, mark: int) -> int:
    route = f"/channels/{msg.channel_id}/messages/{msg.id}"
    return sum(1 for m, p, _ in fake.server.request_log[mark:] if m == "PATCH" and p == route)


def shows_now(env: Env, msg: StoredMessage) -> bool:
    """The public message shows the table as it is (its embed as the bot would build it now;
    the picture is attached with the edit, so its reference is left out)."""
    table = env.table()
    assert table is not None, "the match ended: " + env.fake.render(table_message(env.fake))
    payload, _ = env.bot.presenter.table_message.payload(table, None)
    stored = [{k: v for k, v in e.items() if k != "image"} for e in env.fake.message(msg.id).embeds]
    return bool(stored == [payload["embed"].to_dict()])


async def play(env: Env, turns: int) -> tuple[TableDriver, StoredMessage]:
    driver = TableDriver(env.fake, TWO)
    await driver.open("alice", profile="points")
    await driver.start("alice")
    await env.fake.wait_for(lambda: find_table_message(env.fake))
    for _ in range(turns):
        await turn(env, driver)
    return driver, table_message(env.fake)


async def turn(env: Env, driver: TableDriver) -> None:
    table = env.table()
    who = next(u for u in TWO if table.engine_seat(env.fake.user(u).id) == table.current_turn())
    await driver.take_turn(who)


async def test_the_table_is_edited_through_tokens_its_players_lent(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, SEED, edit_interval=None) as env:
        fake = env.fake
        driver, msg = await play(env, 2)  # each has opened their hand from the table
        await fake.wait_for(lambda: shows_now(env, msg))
        hooks = env.bot.presenter.table_message.hooks
        mark, edits = len(fake.server.request_log), hooks.edits
        for _ in range(3):
            await asyncio.sleep(1.1)  # past the one-edit-a-second pause: one edit a turn
            await turn(env, driver)
            await fake.wait_for(lambda: shows_now(env, msg))
        # Every refresh went through a lent token, none through the channel.
        assert hooks.edits - edits >= 3
        assert channel_edits(fake, msg, mark) == 0
        through_hooks = [
            p
            for m, p, _ in fake.server.request_log[mark:]
            if m == "PATCH" and p.startswith("/webhooks/") and p.endswith("/messages/@original")
        ]
        assert len(through_hooks) >= hooks.edits - edits
        stored = fake.message(msg.id)
        assert not stored.ephemeral and stored.visible_to is None  # still the public table
        assert fake.server.ratelimiter.count() == 0
        await env.finish()  # the hidden-card audit saw every one of those edits


async def test_a_refused_token_hands_the_edit_to_the_channel(tmp_path: Path) -> None:
    """Discord may refuse a token the bot thought alive (its clock and Discord's disagree):
    the edit goes through the channel at once, the move is shown, and that token is not used
    again."""
    async with game_env(tmp_path, TWO, SEED, edit_interval=None) as env:
        fake = env.fake
        driver, msg = await play(env, 2)
        await fake.wait_for(lambda: shows_now(env, msg))
        hooks = env.bot.presenter.table_message.hooks
        table = env.table()
        assert hooks.count(table.id) >= 1
        # Age every lent token past its life at Discord's end only.
        lent = {h.interaction.id for h in hooks._by_table[table.id]}
        for rec in fake.server.interactions.values():
            if rec.id in lent:
                rec.created_at -= 16 * 60
        mark = len(fake.server.request_log)
        await env.bot.presenter.table_changed(table)  # e.g. a timer's warning
        who = next(u for u in TWO if table.engine_seat(fake.user(u).id) == table.current_turn())
        # The player's own view died with its token too: the move is made from a fresh one,
        # opened by the slash command (no token lent).
        r = await fake.slash(who, "general", "rummy hand")
        driver.views[who] = (await r.reply()).id
        await driver.take_turn(who)
        await fake.wait_for(lambda: shows_now(env, msg))
        assert channel_edits(fake, msg, mark) >= 1
        assert hooks.fallbacks >= 1
        assert not any(h.interaction.id in lent for h in hooks._by_table.get(table.id, []))
        # Only the tokens aged here were refused, and each at most once for the table.
        refused: list[Any] = [v for v in fake.violations if v.kind == "expired_token"]
        assert refused and all(v.interaction_id in lent for v in refused)
        fake.server.violations[:] = [v for v in fake.violations if v.kind != "expired_token"]
        assert fake.server.ratelimiter.count() == 0
        await env.finish()


async def test_a_table_posted_afresh_leaves_its_tokens_behind(tmp_path: Path) -> None:
    """A moderator deletes the table message: the lent tokens edit that message only, so the
    table is posted again and later edits go through the channel until a click lends anew."""
    async with game_env(tmp_path, TWO, SEED, edit_interval=None) as env:
        fake = env.fake
        _driver, msg = await play(env, 2)
        table = env.table()
        assert env.bot.presenter.table_message.hooks.count(table.id) >= 1
        fake.server.messages[msg.id].deleted = True
        fake.server.notify()
        await env.bot.presenter.table_changed(table)
        await fake.wait_for(lambda: table.message_id not in (None, msg.id))
        fresh = table_message(fake)
        assert fresh.id == table.message_id and not fresh.deleted
        await fake.wait_for(lambda: shows_now(env, fresh))
        assert env.bot.presenter.table_message.hooks.pick(table.id, table.message_id) is None
        await env.finish()
