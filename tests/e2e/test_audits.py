"""The audits themselves, and the controls the full games do not use.

Every scenario of this suite ends with `Env.finish()`: zero Discord rule violations recorded by
the fake and zero hidden-card leaks found by `harness.HiddenCardAudit`, which checks each message
(public, or ephemeral to someone) at the moment it is stored against the hands at that moment.
Here we prove the leak audit would notice a leak, and play a game that also uses the remaining
controls (sorting, drop with its confirmation, `/rummy table`, `/rummy rules`, `/rummy check`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bot.discord_ui.hands
import bot.discord_ui.table_message
from bot.words.log import log_lines
from tests.e2e.harness import (
    ENGLISH,
    Say,
    Strategy,
    TableDriver,
    embed_field,
    enabled,
    footer,
    game_env,
    label_starting,
    labels,
)
from tests.fakediscord import StoredMessage


async def test_leak_audit_notices_a_public_leak(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bot.discord_ui.table_message.TableMessage.payload

    def leaky(self: Any, table: Any, final: Any, locale: Any = None) -> Any:
        payload, public = real(self, table, final, locale)
        m = table.match
        if m is not None and m.deal is not None and not m.deal.over:
            from bot.words.cards import card

            hand = m.deal.hands[m.deal.seats[0]]
            payload["embed"].add_field(name="oops", value=" ".join(card(c) for c in hand))
        return payload, public

    monkeypatch.setattr(bot.discord_ui.table_message.TableMessage, "payload", leaky)
    async with game_env(tmp_path, ["alice", "bob"], 7) as env:
        driver = TableDriver(env.fake, ["alice", "bob"])
        await driver.open("alice", profile="points")
        await driver.start("alice")
        # The table is drawn right after the start; wait for that before a quick deal ends.
        await env.fake.wait_for(lambda: bool(env.audit.leaks))
        await driver.play()
        assert env.audit.leaks, "the audit missed a hand printed on the public table"
        assert "public" in env.audit.leaks[0]
        env.audit.leaks.clear()
        await env.finish()


async def test_leak_audit_notices_a_card_in_someone_elses_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bot.discord_ui.hands.HandViews.build

    async def nosy(self: Any, table: Any, user_id: int, *args: Any, **kw: Any) -> Any:
        hand = await real(self, table, user_id, *args, **kw)
        m = table.match
        seat = table.engine_seat(user_id)
        others = [s for s in m.deal.seats if s != seat]
        if others and m.deal.hands[others[0]]:
            from bot.words.cards import card

            hand.content = f"psst: {card(m.deal.hands[others[0]][-1])}"
        return hand

    monkeypatch.setattr(bot.discord_ui.hands.HandViews, "build", nosy)
    async with game_env(tmp_path, ["alice", "bob"], 7) as env:
        driver = TableDriver(env.fake, ["alice", "bob"])
        await driver.open("alice", profile="points")
        await driver.start("alice")
        await driver.play()
        assert any("ephemeral" in leak for leak in env.audit.leaks), env.audit.leaks
        env.audit.leaks.clear()
        await env.finish()


class DropFirst(Strategy):
    """dave drops at his first turn (confirming the cost); the others play normally."""

    def __init__(self) -> None:
        self.dropped = False

    def choose(self, view: StoredMessage, say: Say = ENGLISH) -> tuple[str, Any] | None:
        confirm = label_starting(view, "Confirm drop")
        if confirm is not None:
            self.dropped = True
            return ("click", confirm)
        return super().choose(view, say)


async def test_other_controls_in_a_four_player_game(tmp_path: Path) -> None:
    users = ["alice", "bob", "carol", "dave"]
    async with game_env(tmp_path, users, 6) as env:
        fake = env.fake
        driver = TableDriver(fake, users, strategy=DropFirst())
        await driver.open("alice", profile="points")
        await driver.start("alice")

        # /rummy rules and /rummy check answer privately, from the engine.
        r = await fake.slash("carol", "general", "rummy rules")
        assert r.ephemeral and "points" in r.text.lower()
        r = await fake.slash(
            "bob",
            "general",
            "rummy check",
            hand="4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C",
            indicator="8D",
        )
        assert r.ephemeral and r.text

        # Sorting toggles the private view both ways without touching the game.
        view = await driver.view_of("carol")
        version = env.table().version
        view = await driver.act("carol", view, "click", "Sort by suit")
        assert "Group by melds" in labels(view) and "Sorted by suit" in footer(view)
        view = await driver.act("carol", view, "click", "Group by melds")
        assert "Sort by suit" in labels(view)
        assert env.table().version == version

        # /rummy table re-posts the table at the bottom; the old message is removed.
        old = next(
            m for m in fake.public_messages("general") if m.embeds and "Your hand" in labels(m)
        )
        r = await fake.slash("dave", "general", "rummy table")
        await r.wait()
        assert r.ephemeral
        assert fake.message(old.id).deleted
        new = fake.public_messages("general")[-1]
        assert new.embeds and "Your hand" in labels(new)

        # dave drops at his first turn: “Drop (20 chips)” asks first, “Keep playing” backs out.
        # A points game speaks of chips throughout (it said "points" here and "chips" in the
        # results).
        async def dave_turn() -> None:
            kind, ping = await fake.wait_for(driver._next_event)
            assert kind == "ping", kind
            driver.handled.add(ping.id)
            user = fake.user(int(ping.content[2:].split(">")[0])).name
            if user != "dave":
                await driver.take_turn(user, ping)
                return
            v = await driver.view_of("dave", ping)
            drop = label_starting(v, "Drop (")
            assert drop == "Drop (20 chips)" and enabled(v, "Drop (")
            v = await driver.act("dave", v, "click", drop)
            assert labels(v) == ["Confirm drop — costs 20 chips", "Keep playing"]
            v = await driver.act("dave", v, "click", "Keep playing")
            assert enabled(v, "Draw from stock")
            v = await driver.act("dave", v, "click", drop)
            v = await driver.act("dave", v, "click", "Confirm drop — costs 20 chips")
            assert "You dropped (20 chips)." in fake.render(v.id)

        while not any("dave dropped" in line for line in log_lines(env.table().log, "en")):
            await dave_turn()
        final = await driver.play()
        assert final is not None
        dave = next(
            f for e in final.embeds for f in e.get("fields") or [] if f["name"].startswith("dave")
        )
        assert "first drop" in dave["value"] and "Pays 20" in dave["value"], dave
        assert "lost 20 chips" in dave["name"] and "points" not in fake.render(final.id), dave
        assert "Match over" in footer(final) and embed_field(final, "Standings")
        await env.finish()
