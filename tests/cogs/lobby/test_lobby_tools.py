"""The lobby as a host runs it, through the fake Discord: host tools (remove a seat, hand over
hosting, a leaving host is succeeded), private tables, and "Play again" after a match."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import (
    TableDriver,
    footer,
    forge_interaction,
    game_env,
    labels,
    select_options,
    send_forged,
)
from tests.fakediscord import PERM_MEMBER_DEFAULT, PERM_THREADS

WITH_THREADS = PERM_MEMBER_DEFAULT | PERM_THREADS
PLAYERS = ["alice", "bob", "carol"]
HOST_TOOLS = "Host tools: seats and hosting…"


async def test_host_tools_in_the_lobby(tmp_path: Path) -> None:
    async with game_env(tmp_path, PLAYERS) as env:
        fake = env.fake
        driver = TableDriver(fake, ["alice", "bob"])
        lobby = await driver.open("alice", ai=["easy"])

        def tools() -> list[str]:
            return [o["label"] for o in select_options(fake.message(lobby.id), HOST_TOOLS)]

        want = ["Remove bob", "Remove 🤖 Easy", "Make bob the host"]
        await fake.wait_for(lambda: tools() == want, message=lambda: str(tools()))

        # Only the host may use them.
        ai_key = next(s.key for s in env.table().seats if s.ai)
        r = await fake.select(
            "bob", fake.message(lobby.id), [f"remove:{ai_key}"], placeholder=HOST_TOOLS
        )
        await r.wait()
        assert r.ephemeral and "Only the host" in r.text, r

        r = await fake.select(
            "alice", fake.message(lobby.id), [f"remove:{ai_key}"], placeholder=HOST_TOOLS
        )
        await r.wait()
        assert r.ephemeral and "Removed 🤖 Easy" in r.text, r
        await fake.wait_for(lambda: "🤖 Easy" not in fake.render(lobby.id))
        # The menu as it was (the seat is gone), or a tampered value: refused, nothing changes.
        tools_id = next(
            c["custom_id"]
            for c in fake.message(lobby.id).iter_components()
            if c.get("placeholder") == HOST_TOOLS
        )
        seats = [s.key for s in env.table().seats]
        for value in (f"remove:{ai_key}", "remove:", "crown:bob"):
            rec = forge_interaction(fake, "alice", lobby, tools_id, values=[value])
            refused = await send_forged(fake, rec)
            assert refused.ephemeral, refused
            assert "not at the table" in refused.text or "not recognised" in refused.text, value
        assert [s.key for s in env.table().seats] == seats

        bob = f"u{fake.user('bob').id}"
        r = await fake.select(
            "alice", fake.message(lobby.id), [f"host:{bob}"], placeholder=HOST_TOOLS
        )
        await r.wait()
        assert r.ephemeral and "bob is the host now" in r.text, r
        await fake.wait_for(lambda: "Host: bob" in footer(fake.message(lobby.id)))
        r = await fake.click("alice", fake.message(lobby.id), label="Start")
        await r.wait()
        assert "Only the host can start" in r.text, r

        # The host leaves: the next player who sat down hosts.
        r = await fake.click("bob", fake.message(lobby.id), label="Leave")
        await r.wait()
        await fake.wait_for(lambda: "Host: alice" in footer(fake.message(lobby.id)))
        assert env.table().host_id == fake.user("alice").id


async def test_a_private_table(tmp_path: Path) -> None:
    async with game_env(tmp_path, PLAYERS) as env:
        fake = env.fake
        bob = fake.user("bob").id
        r = await fake.slash("alice", "general", "rummy new", invite=f"<@{bob}>")
        assert r.message is not None and not r.ephemeral, r
        lobby = r.message
        assert f"<@{bob}>" in fake.render(lobby.id) and "Private table" in fake.render(lobby.id)
        refused = await fake.click("carol", fake.message(lobby.id), label="Join")
        await refused.wait()
        assert refused.ephemeral and "private table" in refused.text, refused
        joined = await fake.click("bob", fake.message(lobby.id), label="Join")
        await joined.wait()
        assert "joined" in joined.text, joined
        assert [s.name for s in env.table().seats] == ["alice", "bob"]
        bad = await fake.slash("carol", "general", "rummy new", invite="everyone")
        assert bad.ephemeral and "Mention the players" in bad.text, bad


async def test_play_again_after_the_match(tmp_path: Path) -> None:
    async with game_env(tmp_path, PLAYERS, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, ["alice", "bob"])
        await driver.open("alice", profile="points", ai=["medium"])
        await driver.start("alice")
        final = await driver.play()
        assert final is not None and "Play again" in labels(final)
        old = env.last_table()

        stranger = await fake.click("carol", fake.message(final.id), label="Play again")
        await stranger.wait()
        assert stranger.ephemeral and "Only the players of that match" in stranger.text
        assert env.table() is None

        first = await fake.click("bob", fake.message(final.id), label="Play again")
        await first.wait()
        assert first.ephemeral and "new table" in first.text, first
        await fake.wait_for(lambda: env.table() is not None)
        table = env.table()
        assert table.id != old.id and table.host_id == fake.user("bob").id
        assert table.options == old.options
        second = await fake.click("alice", fake.message(final.id), label="Play again")
        await second.wait()
        assert "You took a seat" in second.text, second
        assert [(s.name, s.ai) for s in table.seats] == [
            ("bob", None),
            ("🤖 Medium", "medium"),
            ("alice", None),
        ]
        # The new lobby is posted below the results, with its buttons.
        lobby = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in reversed(fake.public_messages("general"))
                    if "table open" in fake.render(m.id) and "Start" in labels(m)
                ),
                None,
            )
        )
        await fake.wait_for(lambda: "alice" in fake.render(lobby.id))


async def test_a_host_who_left_the_match_cannot_close_it(tmp_path: Path) -> None:
    """Issue 39 item 3: the host leaves a running match with `/rummy leave` (a drop), then
    types `/rummy cancel` in the table's thread: refused, and the three still playing play
    on; hosting passed to the next player still in the match, who may close it."""
    users = ["owner", "bob", "carol", "dave"]  # the owner manages the server; bob hosts
    async with game_env(tmp_path, users, 5, bot_permissions=WITH_THREADS) as env:
        fake = env.fake
        driver = TableDriver(fake, ["bob", "carol", "dave"])
        await driver.open("bob", profile="pool101")
        await driver.start("bob")
        thread = driver.channel
        assert thread != "general"
        await driver.play(stop_after=2)
        left = await fake.slash("bob", thread, "rummy leave")
        assert left.ephemeral and "counts as a drop" in left.text, left
        table = env.table()

        for who in ("bob", "dave"):  # the host who left, and a player who is not the host
            refused = await fake.slash(who, thread, "rummy cancel")
            assert refused.ephemeral and "Only the host or a server manager" in refused.text, (
                who,
                refused,
            )
            assert env.table() is table and table.status == "playing"
        assert table.host_id == fake.user("carol").id  # bob sat down first, then carol

        closed = await fake.slash("carol", thread, "rummy cancel")
        assert closed.ephemeral and closed.text == "The table is closed.", closed
        await fake.wait_for(lambda: env.table() is None)


async def test_a_lobby_left_to_its_ai_players_says_it_closed(tmp_path: Path) -> None:
    """Issue 39 item 10: the host adds an AI player and leaves; nobody human is left, so the
    lobby closes. Its message said "Host: ?. The host can start." above the AI seat; it says
    the table is closed, with nobody to start it and no seat listed."""
    async with game_env(tmp_path, PLAYERS) as env:
        fake = env.fake
        driver = TableDriver(fake, ["alice"])
        lobby = await driver.open("alice", ai=["easy"])
        left = await fake.slash("alice", "general", "rummy leave")
        assert left.ephemeral, left
        assert "closed" in left.text, left
        await fake.wait_for(lambda: "cancelled" in fake.render(lobby.id))
        shown = fake.render(lobby.id)
        assert "Host: ?" not in shown and "can start" not in shown, shown
        assert "Easy" not in shown, shown
        assert "Everyone left" in footer(fake.message(lobby.id)), shown
        assert env.table() is None
