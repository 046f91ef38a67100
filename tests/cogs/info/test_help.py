"""`/rummy help` through the fake Discord: a few short private screens, paged in place, written
from this table's rules; a first-time player's first hand view points to it."""

from __future__ import annotations

from pathlib import Path

from bot.discord_ui.screens.help import PAGE_KEYS, first_time, page_title
from bot.words import text
from tests.e2e.harness import TableDriver, game_env, labels

FIRST_TIME = first_time("en")
TITLES = [page_title(key, "en") for key in PAGE_KEYS]

TWO = ["alice", "bob"]


async def test_help_pages_through_its_screens(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO) as env:
        fake = env.fake
        r = await fake.slash("alice", "general", "rummy help")
        assert r.ephemeral and r.message is not None, r
        msg = r.message
        assert "How to play — The goal" in fake.render(msg.id)
        assert labels(fake.message(msg.id)) == TITLES
        for title in TITLES[1:]:
            click = await fake.click("alice", fake.message(msg.id), label=title)
            await click.wait()
            assert f"How to play — {title}" in fake.render(msg.id), fake.render(msg.id)
        assert "points" in fake.render(msg.id)  # the rules screen: the default profile
        assert len(fake.render(msg.id)) < 2500  # short screens


async def test_help_speaks_of_this_tables_rules(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="pool101", no_packing=True)
        r = await fake.slash("bob", "general", "rummy help")
        click = await fake.click("bob", fake.message(r.message.id), label="Dropping")
        await click.wait()
        assert "without dropping" in fake.render(r.message.id), fake.render(r.message.id)
        assert "pool101" in fake.render(r.message.id)


async def test_a_first_time_player_is_pointed_to_help(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        view = await driver.view_of("alice")
        assert FIRST_TIME in fake.render(view.id)
        final = await driver.play()
        assert final is not None
        # Once they have played here, no more pointer.
        again = await fake.slash("bob", "general", "rummy new", profile="points")
        assert again.message is not None
        join = await fake.click("alice", fake.message(again.message.id), label="Join")
        await join.wait()
        start = await fake.click("bob", fake.message(again.message.id), label="Start")
        await start.wait()
        hand = await fake.slash("alice", "general", "rummy hand")
        await hand.wait()
        assert hand.message is not None and FIRST_TIME not in fake.render(hand.message.id)


async def test_help_reads_in_hindi_for_a_player_whose_discord_is_in_hindi(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO) as env:
        fake = env.fake
        fake.set_locale("bob", "hi")
        TableDriver(fake, TWO)
        r = await fake.slash("bob", "general", "rummy help")
        assert r.ephemeral and r.message is not None, r
        shown = fake.render(r.message.id)
        assert "कैसे खेलें — लक्ष्य" in shown and "How to play" not in shown, shown
        hindi = [page_title(key, "hi") for key in PAGE_KEYS]
        assert labels(fake.message(r.message.id)) == hindi
        click = await fake.click("bob", fake.message(r.message.id), label=page_title("drop", "hi"))
        await click.wait()
        shown = fake.render(r.message.id)
        assert "ड्रॉप" in shown and "A bad hand" not in shown, shown
        # Alice's Discord is in English: her help stays English.
        mine = await fake.slash("alice", "general", "rummy help")
        assert mine.message is not None and "How to play — The goal" in fake.render(mine.message.id)


async def test_help_names_each_button_as_the_reader_sees_it(tmp_path: Path) -> None:
    """Issue 39 item 13: help named the English buttons to a Hindi player, and **Your hand**
    to an English player at a Hindi server's table whose button reads आपका हाथ. Each button
    is named from its own catalogue message: the table's in the table's language, the hand
    view's in the reader's."""
    hand_view = ("button-draw", "menu-discard", "button-sort", "button-refresh")
    async with game_env(tmp_path, TWO) as env:
        fake = env.fake
        fake.set_guild_locale("hi")  # the server, so its tables, speak Hindi
        fake.set_locale("bob", "hi")
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        for user, locale in (("bob", "hi"), ("alice", "en")):
            r = await fake.slash(user, "general", "rummy help")
            assert r.message is not None
            turn = page_title("turn", locale)
            click = await fake.click(user, fake.message(r.message.id), label=turn)
            await click.wait()
            shown = fake.render(r.message.id)
            assert f"**{text('hi', 'button-your-hand')}**" in shown, (user, shown)
            for msg_id in hand_view:
                assert f"**{text(locale, msg_id)}**" in shown, (user, msg_id, shown)
            assert ("**Draw from stock**" in shown) == (locale == "en"), shown
            assert "**Your hand**" not in shown, shown


async def test_a_no_packing_tables_rules_page_says_one_thing(tmp_path: Path) -> None:
    """Issue 39 item 14, as the player read it: `/rummy rules` at a paplu `no_packing` table
    listed drop costs, "No dropping at this table." and a wrong show counted as a middle drop."""
    async with game_env(tmp_path, TWO) as env:
        fake = env.fake
        await TableDriver(fake, TWO).open("alice", profile="paplu", no_packing=True)
        r = await fake.slash("bob", "general", "rummy rules")
        assert r.ephemeral, r
        assert "No dropping at this table." in r.text, r.text
        assert "Drop before" not in r.text and "middle drop" not in r.text, r.text
