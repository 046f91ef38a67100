"""Every wrong click is answered privately and changes nothing.

Players act through their views; where the Discord client itself would not let a user send
something (another player's ephemeral controls are invisible to them, and a view never shows
controls for a turn that is not yours), a tampered client is simulated with
`harness.forge_interaction`: a raw component interaction carrying a custom_id the user was never
shown, sent with a message they can see.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest

import bot.discord_ui.hands
import bot.discord_ui.table_message
from tests.e2e.harness import (
    Env,
    TableDriver,
    answered,
    find_table_message,
    forge_interaction,
    game_env,
    labels,
    select_options,
    send_forged,
    table_message,
)
from tests.fakediscord import InteractionRefused, StoredMessage

USERS = ["alice", "bob", "carol"]  # carol watches; alice and bob play


def state(env: Env) -> tuple[int, str]:
    table = env.table()
    return table.version, json.dumps(table.match.to_dict(), sort_keys=True, default=str)


def ever_said(msg: StoredMessage, text: str) -> bool:
    """Whether a message showed `text` in any of its versions (later pushes may replace it)."""
    return any(text in json.dumps(snap, ensure_ascii=False) for snap in msg.edits) or (
        text in msg.text()
    )


def custom_ids(msg: StoredMessage) -> dict[str, str]:
    return {
        c.get("label") or c.get("placeholder") or "": c["custom_id"]
        for c in msg.iter_components()
        if c.get("custom_id")
    }


async def started(env: Env) -> tuple[TableDriver, str, str]:
    """A points table for alice and bob; returns (driver, player on turn, the other)."""
    driver = TableDriver(env.fake, ["alice", "bob"])
    await driver.open("alice", profile="points")
    await driver.start("alice")
    ping = await env.fake.wait_for(lambda: driver._next_event())
    assert ping[0] == "ping"
    first = env.fake.user(int(ping[1].content[2:].split(">")[0])).name
    other = "bob" if first == "alice" else "alice"
    await env.fake.wait_for(lambda: find_table_message(env.fake))
    return driver, first, other


async def test_lobby_mistakes(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        r = await fake.slash("alice", "general", "rummy new", profile="points")
        lobby = r.message
        assert lobby is not None and not r.ephemeral

        async def refused(result: Any, words: str) -> None:
            await result.wait()
            assert result.ephemeral, result
            assert words in result.text, result.text

        await refused(await fake.slash("bob", "general", "rummy new"), "already has a lobby")
        await refused(await fake.click("alice", lobby, label="Join"), "already seated")
        await refused(await fake.click("alice", lobby, label="Start"), "needs at least 2")
        await refused(await fake.slash("bob", "general", "rummy hand"), "not started")
        await fake.click("bob", lobby, label="Join")
        await refused(await fake.click("bob", fake.message(lobby.id), label="Start"), "host")
        await refused(await fake.click("carol", fake.message(lobby.id), label="Cancel"), "host")
        await refused(
            await fake.select(
                "bob", fake.message(lobby.id), ["hard"], placeholder="Add an AI player…"
            ),
            "Only the host",
        )
        # Options the engine rejects are explained; options outside the command's range are
        # refused by the Discord client itself.
        await refused(await fake.slash("carol", "general", "rummy leave"), "not seated")
        with pytest.raises(InteractionRefused):
            await fake.slash("alice", "general", "rummy new", turn_timer=10)
        table = env.table()
        assert [s.name for s in table.seats] == ["alice", "bob"] and table.status == "lobby"
        await env.finish()


async def test_a_host_alone_who_leaves_closes_the_lobby(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        r = await fake.slash("alice", "general", "rummy new", profile="points")
        assert r.message is not None
        left = await fake.click("alice", r.message, label="Leave")
        await left.wait()
        assert left.ephemeral and "closed" in left.text, left
        assert env.table() is None
        await fake.wait_for(lambda: "cancelled" in fake.render(r.message.id))
        await env.finish()


async def test_options_the_rules_reject(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        r = await env.fake.slash("alice", "general", "rummy new", profile="points", pool_limit=50)
        assert r.ephemeral and "not a pool game" in r.text
        assert env.table() is None
        await env.finish()


async def test_someone_elses_hand_controls(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        driver, first, other = await started(env)
        mine = await driver.view_of(first)
        theirs = await driver.view_of(other)
        draw_id = custom_ids(mine)["Draw from stock"]
        before = state(env)

        # The other player replays the first player's Draw button from their own view.
        result = await send_forged(fake, forge_interaction(fake, other, theirs, draw_id))
        assert result.ephemeral and "someone else's hand" in result.text, result
        assert state(env) == before
        # A spectator tries the same from the public table message.
        result = await send_forged(
            fake, forge_interaction(fake, "carol", table_message(fake), draw_id)
        )
        assert result.ephemeral and "someone else's hand" in result.text, result
        # ... and a discard on someone else's behalf, as a select.
        select_id = draw_id.replace("rm:", "rs:").replace(":draw", ":discard")
        hand = env.table().match.deal.hands[env.table().engine_seat(fake.user(first).id)]
        result = await send_forged(
            fake, forge_interaction(fake, other, theirs, select_id, values=[str(hand[0].id)])
        )
        assert result.ephemeral and "someone else's hand" in result.text, result
        assert state(env) == before
        # The spectator has no hand at all.
        result = await fake.click("carol", table_message(fake), label="Your hand")
        assert result.ephemeral and "not playing at this table" in result.text
        result = await fake.slash("carol", "general", "rummy hand")
        assert result.ephemeral and "not playing at this table" in result.text
        assert state(env) == before
        # None of this was shown publicly, and the rightful owner's view still works.
        assert not any("someone else" in m.text() for m in fake.public_messages("general"))
        await driver.take_turn(first)
        assert state(env)[0] > before[0]
        await env.finish()


async def test_out_of_turn(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        driver, first, other = await started(env)
        theirs = await driver.view_of(other)
        # The view of a player who is not on turn offers no move at all...
        assert not {"Draw from stock", "Drop (20 chips)"} & set(labels(theirs))
        assert not select_options(theirs, "Discard a card")
        before = state(env)
        # ... so a tampered client builds one for their own seat at the current version.
        table = env.table()
        seat = table.engine_seat(fake.user(other).id)
        for action in ("draw", "take", "confirm_drop", "rummy", "drop"):
            cid = f"rm:{table.id}:{table.version}:{seat}:{action}"
            result = await send_forged(fake, forge_interaction(fake, other, theirs, cid))
            await answered(fake, result)
            shown = fake.render(theirs.id)
            if action == "drop":  # only asks for a confirmation, which it does not offer
                assert not any(
                    x.startswith("Confirm drop") for x in labels(fake.message(theirs.id))
                )
            else:
                assert shown.startswith("⚠️") and "turn" in shown.lower(), (action, shown)
            assert result.ephemeral
            assert state(env) == before
        # /rummy drop out of turn opens the hand without any drop to confirm.
        result = await fake.slash(other, "general", "rummy drop")
        assert result.ephemeral
        assert not any(lbl.startswith("Confirm drop") for lbl in labels(result.message))
        assert state(env) == before
        await driver.take_turn(first)
        await env.finish()


async def test_stale_view_and_double_clicks(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        driver, first, other = await started(env)
        old = await driver.view_of(first)  # from the table's button
        fresh_r = await fake.slash(first, "general", "rummy hand")  # a second, newer view
        fresh = fresh_r.message
        assert fresh is not None and fresh.id != old.id

        # Double-click Draw in the fresh view: one draw happens, the second is refused.
        seat = env.table().engine_seat(fake.user(first).id)
        r1 = await fake.click(first, fresh, label="Draw from stock", wait=False)
        r2 = await fake.click(first, fresh, label="Draw from stock", wait=False)
        await asyncio.gather(r1.wait(), r2.wait())
        # Both clicks answered (one draw, one refusal); a busy machine gets there later.
        await fake.wait_for(lambda: ever_said(fake.message(fresh.id), "⚠️ The table has moved on"))
        await fake.wait_for(lambda: len(env.table().match.deal.hands[seat]) != 13)
        await fake.wait_idle()
        assert len(env.table().match.deal.hands[seat]) == 14
        before = state(env)

        # The older view was replaced when the newer one opened: it says so and offers no
        # live controls (its buttons would otherwise look live while showing an old state).
        await fake.wait_for(lambda: ever_said(fake.message(old.id), "replaced by a newer one"))
        assert labels(fake.message(old.id)) == []
        assert state(env) == before

        # Double-click Discard (two different cards, as fast as the client allows).
        view = fake.message(fresh.id)
        await fake.wait_for(lambda: bool(select_options(fake.message(fresh.id), "Discard a card")))
        view = fake.message(fresh.id)
        options = select_options(view, "Discard a card")
        a, b = options[0]["value"], options[1]["value"]
        pile = len(env.table().match.deal.pile)
        r1 = await fake.select(first, view, [a], placeholder="Discard a card…", wait=False)
        r2 = await fake.select(first, view, [b], placeholder="Discard a card…", wait=False)
        await asyncio.gather(r1.wait(), r2.wait())

        def moved_on() -> int:
            return sum(
                "⚠️ The table has moved on" in json.dumps(snap, ensure_ascii=False)
                for snap in [
                    *fake.message(fresh.id).edits,
                    {"content": fake.message(fresh.id).content},
                ]
            )

        # Both clicks answered (the discard, then the refusal), however busy the machine:
        # once for the second Draw, once for the second Discard.
        await fake.wait_for(lambda: moved_on() >= 2)
        await fake.wait_idle()
        deal = env.table().match.deal
        assert len(deal.hands[seat]) == 13
        assert len(deal.pile) == pile + 1
        assert str(deal.pile[-1].id) == a  # the first click won, the second changed nothing
        assert str(b) in {str(c.id) for c in deal.hands[seat]}
        assert deal.turn != seat
        assert moved_on() == 2
        # Play continues normally.
        await driver.take_turn(other)
        await env.finish()


class ShiftedClock:
    """`time` for the hand views and the table message, following the fake Discord's clock
    (which tests can advance), so the bot and Discord agree on how old a token is."""

    def __init__(self, fake: Any) -> None:
        self.fake = fake

    def monotonic(self) -> float:
        return float(self.fake.server.now())

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


async def settled_at_the_current_version(env: Env, driver: TableDriver) -> None:
    """Wait until the table message and every player's view carry the table's current version
    in their controls, then until the bot has sent nothing for a while. A test that jumps the
    clock must do this first: an edit already on its way (its token checked, its picture being
    drawn, its request queued behind a rate limit) would reach Discord after the jump, and
    Discord would rightly call its token dead."""
    fake = env.fake

    def current() -> bool:
        version = env.table().version
        shown = [table_message(fake), *(fake.message(v) for v in driver.views.values())]
        return all(
            int(c["custom_id"].split(":")[2]) == version
            for msg in shown
            for c in msg.iter_components()
            if c.get("custom_id", "").startswith(("rm:", "rs:"))
        )

    await fake.wait_for(current, message="a view or the table never showed the last version")
    await fake.settle(quiet=1.0)


async def test_expired_views(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        for part in (bot.discord_ui.hands, bot.discord_ui.table_message):
            monkeypatch.setattr(part, "time", ShiftedClock(fake))
        driver, first, other = await started(env)
        await driver.take_turn(first)
        old = await driver.view_of(other)  # the other player's turn: Draw is offered
        assert "Draw from stock" in labels(old)
        first_view = fake.message(driver.views[first])
        await settled_at_the_current_version(env, driver)
        first_edits = len(fake.message(first_view.id).edits)

        fake.server.advance_time(16 * 60)  # every token so far has died

        # The other player plays from a fresh `/rummy hand` view; the bot must not try to
        # refresh the first player's view through its dead token (the fake would record it).
        r = await fake.slash(other, "general", "rummy hand")
        driver.views[other] = r.message.id
        await driver.take_turn(other)
        await fake.wait_idle()
        assert len(fake.message(first_view.id).edits) == first_edits
        before = state(env)

        # The expired, stale view: its Draw button is refused, nothing changes.
        result = await fake.click(other, fake.message(old.id), label="Draw from stock")
        await fake.wait_for(lambda: ever_said(fake.message(old.id), "moved on"))
        assert result.ephemeral and state(env) == before

        # The first player's view went quiet; the table's button gives a fresh, working view.
        clicked = await fake.click(first, table_message(fake), label="Your hand")
        fresh = await clicked.reply()
        assert fresh.ephemeral and fresh.id != first_view.id
        assert "Draw from stock" in labels(fresh)
        driver.views[first] = fresh.id
        await driver.take_turn(first)
        assert state(env)[0] > before[0]
        # ... and that fresh view is kept up to date again.
        await fake.wait_for(lambda: "Waiting for" in fake.render(fresh.id))
        assert not [v for v in fake.violations if v.kind == "expired_token"]
        await env.finish()


async def test_rummy_commands_are_not_offered_in_dms(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        for command in ("rummy rules", "rummy join", "rummy check"):
            with pytest.raises(InteractionRefused, match="not available in DMs"):
                await fake.slash("bob", fake.dm_channel("bob"), command)
        await env.finish()


async def test_the_hand_view_is_current_before_the_turn_ping(tmp_path: Path) -> None:
    """The next player's open view shows their controls no later than the ping arrives, even
    while the table message waits out its one-edit-a-second pause (the real interval)."""
    async with game_env(tmp_path, USERS, edit_interval=None) as env:
        fake = env.fake
        driver, first, other = await started(env)
        view = await driver.view_of(other)
        assert "Draw from stock" not in labels(fake.message(view.id))  # not their turn yet
        mention = f"<@{fake.user(other).id}>"
        seen: list[list[str]] = []
        original = fake.server.create_message

        def spy(*args: Any, **kwargs: Any) -> StoredMessage:
            msg = original(*args, **kwargs)
            if mention in msg.content and "your turn" in msg.content:
                seen.append(labels(fake.message(view.id)))
            return msg

        fake.server.create_message = spy  # type: ignore[method-assign]
        try:
            await driver.take_turn(first)
            await fake.wait_for(lambda: bool(seen))
        finally:
            fake.server.create_message = original  # type: ignore[method-assign]
        assert "Draw from stock" in seen[0], seen
        await env.finish()


async def test_a_huge_bad_card_in_check_gets_a_short_answer(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        junk = "Z" * 5000
        r = await fake.slash(
            "alice", "general", "rummy check", hand=f"{junk} 2S 3S", indicator="8D"
        )
        await r.wait()
        assert r.ephemeral and 0 < len(r.text) <= 2000
        assert "ZZZ" in r.text  # the bad token is named, cut to fit
        await env.finish()


async def test_closed_tables_leave_nothing_in_the_presenter(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        presenter = env.bot.presenter
        ids = []
        for _ in range(5):
            r = await fake.slash("alice", "general", "rummy new", profile="points")
            await r.wait()
            await fake.click("bob", fake.message(r.message.id), label="Join")
            table = env.table()
            ids.append(table.id)
            await fake.slash("alice", "general", "rummy cancel")
            await fake.wait_for(lambda: env.table() is None)
        await env.bot.tables.effects.settled()  # the closing shown, the table forgotten
        await fake.wait_idle()
        hands, shown, said = presenter.hands, presenter.table_message, presenter.announcements
        per_table = [
            hands.open_views, hands._by_suit, presenter._dirty, presenter._flushers,
            said._warnings, said._results, shown.pictures._on, shown._sent, shown.pictures._drawn,
            shown.pictures._laid,
        ]  # fmt: skip
        for kept in per_table:
            assert not [k for k in kept if (k[0] if isinstance(k, tuple) else k) in ids]
        assert len(hands.advice) == 0
        await env.finish()


async def test_a_tampered_discard_value_is_refused_and_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 39 item 18: a discard menu that sends a card id the hand does not hold (999, far
    past the decks) or two values where the menu allows one: a short private answer in the
    player's own view, nothing changes, and nothing is logged as a bug."""
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        driver, first, _other = await started(env)
        view = await driver.view_of(first)
        view = await driver.act(first, view, "click", "Draw from stock")
        await fake.wait_for(lambda: bool(select_options(fake.message(view.id), "Discard a card")))
        view = fake.message(view.id)
        discard_id = custom_ids(view)["Discard a card…"]
        held = [o["value"] for o in select_options(view, "Discard a card")]
        before = state(env)
        caplog.set_level(logging.ERROR, logger="bot.discord_ui")
        # 999: a well-formed card id the hand does not hold, refused by the rules (shown in
        # the player's view, above the hand); two values: no click the menu could send,
        # refused at the parse (a private answer).
        cases = ((["999"], "That card is not in your hand."), (held[:2], "not recognised"))
        for values, words in cases:
            result = await send_forged(
                fake, forge_interaction(fake, first, view, discard_id, values=values)
            )
            await answered(fake, result)
            said = result.text + fake.render(view.id)
            assert result.ephemeral, (values, result)
            assert "went wrong" not in said and words in said, (values, said)
            assert state(env) == before, values
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
        # The player still plays on from the same view.
        options = select_options(fake.message(view.id), "Discard a card")
        assert [o["value"] for o in options] == held
        await driver.act(first, fake.message(view.id), "select", ("Discard a card…", held[0]))
        await fake.wait_for(lambda: state(env)[0] > before[0])
        await env.finish()
