"""Hindi at the table, as far as it goes today: the synced slash commands carry Hindi
descriptions, and a refusal is answered in the language of the user who was refused (their
Discord client's `locale`), while an English user at the same table reads English.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.discord_ui.languages import LanguagePreferences
from bot.words import catalogue
from tests.e2e.harness import (
    Env,
    TableDriver,
    answered,
    find_table_message,
    forge_interaction,
    game_env,
    send_forged,
    table_message,
)

USERS = ["asha", "bob", "chitra"]  # asha and bob play; chitra watches
HINDI = {"asha": "hi", "bob": "en-GB", "chitra": "hi"}


def hi(msg_id: str, **args: Any) -> str:
    return catalogue().text("hi", msg_id, args)


def en(msg_id: str, **args: Any) -> str:
    return catalogue().text("en", msg_id, args)


def words(user: str, msg_id: str) -> str:
    """What `user` should read for `msg_id`: Hindi for a Hindi client, else English."""
    return hi(msg_id) if HINDI[user] == "hi" else en(msg_id)


async def test_synced_commands_carry_hindi_descriptions(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        cmd = env.fake.server.find_command("rummy")
        assert cmd is not None
        assert cmd["description_localizations"]["hi"] == hi("cmd-rummy")
        assert "en-US" not in cmd["description_localizations"], "English is the base text"
        subcommands = cmd["options"]
        assert len(subcommands) >= 15
        options = 0
        # A subcommand (type 1) or a group of them (type 2, `/rummy tournament ...`): each is
        # described in Hindi under its qualified name, its options and choices too.
        pending: list[tuple[str, dict[str, Any]]] = [
            (f"cmd-rummy-{s['name']}", s) for s in subcommands
        ]
        while pending:
            key, sub = pending.pop()
            assert sub["type"] in (1, 2)
            said = sub["description_localizations"]["hi"]
            assert said == hi(key) and said != sub["description"]
            assert not sub.get("name_localizations"), "names stay English, easy to type"
            if sub["type"] == 2:
                pending += [(f"{key}-{s['name']}", s) for s in sub["options"]]
                continue
            for opt in sub.get("options", []):
                said = opt["description_localizations"]["hi"]
                assert said == catalogue().text("hi", key, attribute=opt["name"])
                assert any("\u0900" <= c <= "\u097f" for c in said), said
                options += 1
                for choice in opt.get("choices", []):
                    if choice["value"] in catalogue().locales:  # named in its own words
                        assert not choice.get("name_localizations")
                    elif choice["name"] != choice["value"]:
                        assert choice["name_localizations"]["hi"] == hi(f"choice-{choice['value']}")
        assert options >= 25


async def _started(env: Env) -> tuple[TableDriver, str, str]:
    """A points table for asha and bob; returns (driver, player on turn, the other)."""
    fake = env.fake
    driver = TableDriver(fake, ["asha", "bob"])
    await driver.open("asha", profile="points")
    await driver.start("asha")
    ping = await fake.wait_for(lambda: driver._next_event())
    assert ping[0] == "ping"
    first = fake.user(int(ping[1].content[2:].split(">")[0])).name
    await fake.wait_for(lambda: find_table_message(fake))
    return driver, first, "bob" if first == "asha" else "asha"


async def test_each_user_is_refused_in_their_own_language(tmp_path: Path) -> None:
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        for user, locale in HINDI.items():
            fake.set_locale(user, locale)
        # A slash command refused by the service, through the app-command error path.
        for user in ("chitra", "bob"):
            result = await fake.slash(user, "general", "rummy leave")
            assert result.ephemeral and result.text == words(user, "refusal-no-table-here")

        driver, first, other = await _started(env)
        driver.languages = {u: HINDI[u] for u in ("asha", "bob")}
        table = env.table()
        version = table.version
        before = table.version, table.match.to_dict()

        def seat(user: str) -> int:
            return int(table.engine_seat(fake.user(user).id))

        # A click on someone else's hand controls, each way round.
        for clicker, owner in ((other, first), (first, other)):
            view = await driver.view_of(clicker)
            cid = f"rm:{table.id}:{version}:{seat(owner)}:draw"
            result = await send_forged(fake, forge_interaction(fake, clicker, view, cid))
            await answered(fake, result)
            assert result.ephemeral
            assert words(clicker, "refusal-not-your-controls") in result.text, result.text
        # A move out of turn, from the player's own controls: the engine's refusal, worded
        # on the Discord side, above the re-shown hand.
        view = await driver.view_of(other)
        cid = f"rm:{table.id}:{version}:{seat(other)}:draw"
        result = await send_forged(fake, forge_interaction(fake, other, view, cid))
        await answered(fake, result)
        shown = fake.render(view.id)
        assert shown.startswith("⚠️") and words(other, "engine-not-your-turn") in shown, shown
        # The spectator has no hand; a Hindi spectator is told so in Hindi.
        result = await fake.click("chitra", table_message(fake), label="Your hand")
        assert result.ephemeral and result.text == hi("refusal-not-playing")

        assert (table.version, table.match.to_dict()) == before, "nothing changed"
        # No refusal was said in public, in either language.
        public = " ".join(m.text() for m in fake.public_messages("general"))
        for msg_id in ("refusal-not-your-controls", "engine-not-your-turn"):
            assert hi(msg_id) not in public and en(msg_id) not in public
        await driver.take_turn(first)


async def test_the_fake_sends_the_users_and_the_servers_language(tmp_path: Path) -> None:
    """Discord's `locale` (the user's client) and `guild_locale` (the server's), as discord.py
    reads them into `interaction.locale` / `interaction.guild_locale`."""
    import discord

    from bot.discord_ui.locales import server_locale, user_locale

    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        fake.set_locale("asha", "hi")
        fake.set_guild_locale("hi")
        server = fake.server
        for user, locale in (("asha", "hi"), ("bob", "en-US")):
            rec = server.create_interaction(2, fake.user(user), fake.channel("general"), {})
            body = server.interaction_payload(rec)
            assert body["locale"] == locale and body["guild_locale"] == "hi"
        assert server.guild_payload()["preferred_locale"] == "hi"
        seen: list[tuple[str, str]] = []
        original = env.bot.tree.interaction_check

        async def spy(interaction: discord.Interaction[Any]) -> bool:
            seen.append((user_locale(interaction), server_locale(interaction)))
            return await original(interaction)

        env.bot.tree.interaction_check = spy  # type: ignore[method-assign]
        for user in ("asha", "bob"):
            await (await fake.slash(user, "general", "rummy leave")).wait()
        assert seen == [("hi", "hi"), ("en", "hi")]


async def test_a_player_chooses_their_own_language_and_it_is_kept(tmp_path: Path) -> None:
    """`/rummy language`: bob's Discord is in English but he reads his game in Hindi; the
    choice is stored (what a restarted process loads) and "Follow my Discord" gives English
    back."""
    async with game_env(tmp_path, USERS) as env:
        fake = env.fake
        fake.set_locale("bob", "en-GB")
        said = await fake.slash("bob", "general", "rummy language", language="hi")
        assert said.ephemeral and said.text == hi("language-chosen"), said.text
        refused = await fake.slash("bob", "general", "rummy leave")
        assert refused.ephemeral and refused.text == hi("refusal-no-table-here")
        other = await fake.slash("asha", "general", "rummy leave")  # others are unaffected
        assert other.text == en("refusal-no-table-here")
        uid = fake.user("bob").id
        assert await env.bot.storage.preferences.languages() == {uid: "hi"}
        restarted = LanguagePreferences(env.bot.storage)  # what a new process starts with
        await restarted.load()
        assert restarted.of(uid) == "hi"

        back = await fake.slash("bob", "general", "rummy language", language="auto")
        assert back.ephemeral and back.text == en("language-auto"), back.text
        refused = await fake.slash("bob", "general", "rummy leave")
        assert refused.text == en("refusal-no-table-here")
        assert await env.bot.storage.preferences.languages() == {}


async def test_a_hindi_player_plays_a_whole_game_in_hindi_beside_an_english_one(
    tmp_path: Path,
) -> None:
    """Issue 23: asha's Discord is in Hindi, bob's in English, at one table. Each plays the
    whole match through their own private views: asha's hand views (text and controls) are
    Hindi from the first to the last, bob's English; the public table stays English."""
    async with game_env(tmp_path, ["asha", "bob"], 4) as env:
        fake = env.fake
        fake.set_locale("asha", "hi")
        fake.set_locale("bob", "en-US")
        driver = TableDriver(fake, ["asha", "bob"])
        driver.languages = {"asha": "hi"}
        await driver.open("asha", profile="points")
        await driver.start("asha")
        final = await driver.play()
        assert final is not None
        english = ("Your turn", "Draw from stock", "Discard a card", "Your hand —", "Refresh")
        for user, hindi in (("asha", True), ("bob", False)):
            view = fake.message(driver.views[user])
            assert view.visible_to == fake.user(user).id
            snapshots = [v for v in view.edits if v.get("embeds")]  # not the "thinking…" one
            versions = [json.dumps(v, ensure_ascii=False) for v in snapshots]
            versions.append(json.dumps([view.embeds, view.components], ensure_ascii=False))
            assert len(versions) > 3, versions
            for shown in versions:
                if hindi:
                    assert re.search("[\u0900-\u097f]", shown), shown
                    assert not any(w in shown for w in english), shown
                else:
                    assert not re.search("[\u0900-\u097f]", shown), shown
        public = " ".join(m.text() for m in fake.public_messages("general"))
        assert not re.search("[\u0900-\u097f]", public)  # the server's language: English
        await env.finish()


DEVANAGARI = re.compile("[\u0900-\u097f]")


def _versions(msg: Any) -> list[str]:
    """Every version of a message as the channel saw it, as text (content, embeds, labels)."""
    shots = [
        *msg.edits,
        {"content": msg.content, "embeds": msg.embeds, "components": msg.components},
    ]
    return [json.dumps(shot, ensure_ascii=False) for shot in shots]


async def test_a_hindi_server_plays_its_tables_in_hindi(tmp_path: Path) -> None:
    """Issue 23, who reads which language: the server's Discord is in Hindi and it chose
    nothing, so a table opened by bob (whose Discord is English) speaks Hindi in public (the
    lobby, the table, the pings, the results and its buttons), while bob's own views stay
    English and asha's Hindi. Then a manager sets `/rummy settings language:en`: the next
    table speaks English; the one already finished keeps its Hindi. (A value outside the
    choices never reaches the bot from this fake, which checks choices as Discord does.)"""
    async with game_env(tmp_path, ["asha", "bob"], 4, next_deal_delay=60.0) as env:
        fake = env.fake
        fake.set_guild_locale("hi")
        fake.set_locale("asha", "hi")
        fake.set_locale("bob", "en-US")
        driver = TableDriver(fake, ["asha", "bob"])
        lobby = await driver.open("bob", profile="points")
        assert lobby.embeds[0]["title"] == hi("lobby-title")
        assert hi("button-join") in [c.get("label") for c in lobby.iter_components()]
        await driver.start("bob")
        final = await driver.play()
        assert final is not None and final.embeds[0]["title"] == hi("results-title", deal=1)

        english = [
            en(msg_id)
            for msg_id in (
                "table-seats", "table-top-discard", "table-footer", "button-your-hand",
                "results-standings", "button-play-again", "button-history", "lobby-empty-seat",
            )
        ] + ["it's your turn", "Deal 1", "drew from", "Match over", "Pays ", "Winner"]  # fmt: skip
        public = [m for m in fake.server.messages.values() if not m.ephemeral]
        assert len(public) >= 4  # the lobby (the table in the channel), a ping, the results
        for msg in public:
            for shown in _versions(msg):
                if '"embeds": [{' not in shown and "<@" not in shown:
                    continue  # a deleted ping or an empty "thinking" state
                assert DEVANAGARI.search(shown), shown
                assert not [w for w in english if w in shown], shown
        for user, hindi in (("asha", True), ("bob", False)):
            view = fake.message(driver.views[user])
            assert bool(DEVANAGARI.search(json.dumps(view.embeds, ensure_ascii=False))) is hindi

        changed = await fake.slash("asha", "general", "rummy settings", language="en")
        await changed.wait()
        assert changed.ephemeral and hi("stats-changed-language", language="English") in (
            changed.text
        ), changed.text
        again = await fake.slash("bob", "general", "rummy new", profile="points")
        assert again.message is not None and not again.ephemeral
        assert again.message.embeds[0]["title"] == en("lobby-title")
        assert fake.message(final.id).embeds[0]["title"] == hi("results-title", deal=1)
        settings = await env.bot.storage.settings.get_settings(fake.guild_id)
        assert settings.language == "en"
        await env.finish()
