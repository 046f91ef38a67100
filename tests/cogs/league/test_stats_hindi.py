"""End to end, issue 23: the stats commands in Hindi against the fake Discord.

Who reads which language: the leaderboard and a stats card are posted in the channel, so
they follow the server's language (`guild_locale`); history, hand-history downloads,
settings and forget-me are private, so they follow the user's own (`locale`); a refusal is
the refused user's. Each check also asserts that no English word is left on a Hindi screen,
apart from names, profile codes, table ids and what players type.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.engine.rules import PROFILES
from bot.words import catalogue
from tests.cogs.league.test_stats_commands import labels, seed, stats_bot
from tests.fakediscord import StoredMessage

#: Latin words a Hindi screen may show: the seeded names, profile codes, the seeded table
#: id, what players type (commands, hint levels, Discord's permission name), file formats.
CODES = {
    *PROFILES,
    *("olga", "alice", "bob", "carol", "tblabc"),
    *("full", "groups", "off", "JSON", "UTC", "json"),
    *("rummy", "settings", "forget", "me", "Manage", "Server", "Discord"),
    # The name forget-me stores in place of a forgotten player's (the prompt quotes it).
    *("forgotten", "player"),
}


def hi(msg_id: str, **args: Any) -> str:
    return catalogue().text("hi", msg_id, args)


def en(msg_id: str, **args: Any) -> str:
    return catalogue().text("en", msg_id, args)


def shown(msg: StoredMessage) -> str:
    """Everything a user reads on a message: its text, embeds, labels, menu entries."""
    parts = [msg.text().replace(" (disabled)", "")]
    for comp in msg.iter_components():
        parts += [o.get("description") or "" for o in comp.get("options") or []]
    return "\n".join(parts)


def english_words(text: str) -> list[str]:
    """Latin-letter words (with their digits: p01, pool101) that are not names or codes;
    Discord's own markup (`<t:…:f>`, `<#…>`) and the seeded names p01…p14 excepted."""
    text = re.sub(r"<t:\d+:\w>", "", text)
    words = re.findall(r"[A-Za-z][A-Za-z0-9_-]*[A-Za-z0-9]", text)
    return [w for w in words if w not in CODES and not re.fullmatch(r"p\d\d", w)]


def in_hindi(text: str) -> bool:
    return any("\u0900" <= c <= "\u097f" for c in text) and english_words(text) == []


async def test_a_hindi_server_posts_boards_and_cards_in_hindi(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        await seed(fake, bot.storage)
        fake.set_guild_locale("hi")
        fake.set_locale("alice", "hi")
        fake.set_locale("carol", "hi")

        board = await fake.slash("alice", "general", "rummy leaderboard", sort="deals_won")
        msg = board.message
        assert msg is not None and not msg.ephemeral
        text = shown(msg)
        assert in_hindi(text), english_words(text)
        assert msg.embeds[0]["title"] == "लीडरबोर्ड — जीती बाज़ियाँ · सभी प्रोफ़ाइल · शुरू से अब तक"
        assert "**1.** p01 — 20 (20 बाज़ियाँ)" in text
        own = next(f for f in msg.embeds[0]["fields"] if f["name"] == hi("stats-your-rank"))
        assert own["value"] == "17 में से **#15** — 3 (4 बाज़ियाँ)"
        assert labels(msg) == ["◀ पिछला", "अगला ▶"]

        # A Hindi user may not turn alice's pages either: refused privately, in Hindi.
        refused = await fake.click("carol", msg, label="अगला ▶")
        assert refused.ephemeral and refused.text == hi("error-not-yours")
        # An English user is refused in English, on the same Hindi board.
        refused = await fake.click("bob", msg, label="अगला ▶")
        assert refused.ephemeral and refused.text == en("error-not-yours")

        await fake.click("alice", msg, label="अगला ▶")
        await fake.wait_for(lambda: "p11" in fake.message(msg.id).text())
        page2 = shown(fake.message(msg.id))
        assert in_hindi(page2), english_words(page2)
        assert "alice — 3 (4 बाज़ियाँ) ◀ आप" in page2 and "2 में से पेज 2" in page2

        card = await fake.slash("alice", "general", "rummy stats")
        assert card.message is not None and not card.message.ephemeral
        text = shown(card.message)
        assert in_hindi(text), english_words(text)
        assert "रमी आँकड़े — alice" in text
        assert "बाज़ियाँ: 4 खेलीं, 3 जीतीं (75%)" in text
        assert "कुल चिप्स: +55½" in text
        # The server's language, whoever asks: bob's client is English, the card is Hindi.
        bobs = await fake.slash("bob", "general", "rummy stats", options={"user": "carol"})
        assert in_hindi(shown(bobs.message)), english_words(bobs.text)  # type: ignore[arg-type]
        assert "रमी आँकड़े — carol" in bobs.text
        rated = await fake.slash("carol", "general", "rummy leaderboard", sort="win_rate")
        assert rated.message is not None and "5 बाज़ियाँ चाहिए" in rated.text
        # A refused slash command, in the asker's language: carol may not change settings.
        refused = await fake.slash("carol", "general", "rummy settings", turn_timer=30)
        assert refused.ephemeral and in_hindi(refused.text), refused.text
        assert "Manage Server" in refused.text
        assert await fake.wait_idle() == []


async def test_private_answers_follow_the_user_and_public_ones_the_server(
    tmp_path: Path,
) -> None:
    """An English server: alice's Discord is Hindi, bob's English. The board alice posts is
    English (the channel's language); her history, download, settings and forget-me are
    Hindi; bob reads all of his in English."""
    async with stats_bot(tmp_path) as (fake, bot):
        await seed(fake, bot.storage)
        fake.set_locale("alice", "hi")
        fake.set_locale("olga", "hi")
        fake.set_locale("bob", "en-GB")

        board = await fake.slash("alice", "general", "rummy leaderboard", profile="points")
        assert board.message is not None and not board.message.ephemeral
        assert board.message.embeds[0]["title"] == "Leaderboard — Rating · points · all time"
        assert not any("\u0900" <= c <= "\u097f" for c in shown(board.message))

        mine = await fake.slash("alice", "general", "rummy history")
        msg = mine.message
        assert msg is not None and msg.ephemeral
        text = shown(msg)
        assert in_hindi(text), english_words(text)
        assert "हाल की बाज़ियाँ — alice" in text and "**जीत** 7½ चिप्स जीते" in text
        menu = next(c for c in msg.iter_components() if c.get("type") == 3)
        assert menu["placeholder"] == hi("stats-history-placeholder")
        first = next(o for o in menu["options"] if o["label"].endswith("बाज़ी 1"))
        picked = await fake.select("alice", msg, [first["value"]])
        await picked.wait()
        files = [m for m in picked.messages if m.attachments] or [picked.message]
        assert files[0] is not None
        assert files[0].content == hi("stats-hand-history-caption", table="tblabc", deal=1)

        theirs = await fake.slash("bob", "general", "rummy history")
        assert theirs.message is not None
        assert "Recent deals — bob" in theirs.text and "**won** won 12 chips" in theirs.text
        assert not any("\u0900" <= c <= "\u097f" for c in shown(theirs.message))

        settings = await fake.slash("olga", "general", "rummy settings", turn_timer=90)
        assert settings.ephemeral and settings.message is not None
        # The table's language is named in its own words ("English"), as language menus do.
        text = shown(settings.message).replace("टेबल की भाषा: English", "")
        assert in_hindi(text), english_words(text)
        assert "✓ बारी का समय: 90 सेकंड" in text and "हर चैनल में" in text
        refused = await fake.slash("bob", "general", "rummy settings", turn_timer=30)
        assert refused.ephemeral and "Manage Server" in refused.text
        assert not any("\u0900" <= c <= "\u097f" for c in refused.text)

        ask = await fake.slash("alice", "general", "rummy forget-me")
        assert ask.message is not None and ask.ephemeral
        assert in_hindi(shown(ask.message)), english_words(shown(ask.message))
        assert labels(ask.message) == ["मेरे आँकड़े मिटाएँ", "रद्द करें"]
        await fake.click("alice", ask.message, label="रद्द करें")
        await fake.wait_for(
            lambda: fake.message(ask.message.id).text() == hi("stats-forget-cancelled")  # type: ignore[union-attr]
        )
        assert (
            await bot.storage.boards.player_stats(fake.guild_id, fake.user("alice").id)
        ).profiles
        assert await fake.wait_idle() == []
