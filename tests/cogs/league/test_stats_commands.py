"""End to end: /rummy leaderboard, stats, history, settings and forget-me against the fake Discord.

Results are seeded straight through `bot.storage` (the game flow that records them is tested
elsewhere), then users act only through slash commands and the buttons/menus they can see.
Every test ends with `wait_idle() == []`: no Discord rule (3-second ack, limits, ...) broken.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.discord_ui.client import PapluBot
from bot.storage import DealRecord, DealSeatRecord, MatchRecord, MatchSeatRecord, Storage
from tests.e2e.harness import TOKEN, forge_interaction, send_forged, settings
from tests.fakediscord import FakeDiscord, InteractionRefused, StoredMessage

# The first user owns the guild (and so has Administrator in the fake); bob has no role.
USERS = ["olga", "alice", "bob", "carol"]
AI_NAME = "Robo (easy AI)"
HISTORY = {"deal": 1, "events": [{"seat": 0, "kind": "draw"}], "note": "hand-history test"}


@contextlib.asynccontextmanager
async def stats_bot(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, PapluBot]]:
    """Like `harness.running_bot`, plus a second channel for the channel allow-list."""
    async with FakeDiscord(users=USERS, channels=["general", "lounge"], token=TOKEN) as fake:
        bot = PapluBot(settings(tmp_path / "bot.sqlite3"))
        async with fake.running(bot):
            await fake.wait_for_commands("rummy")
            yield fake, bot


def _deal(
    guild: int, match: str, no: int, at: int, seats: list[DealSeatRecord], history: str = "{}"
) -> DealRecord:
    return DealRecord(guild, match, no, "points", at, history, seats)


def _human(uid: int, name: str, outcome: str, net: Fraction | int) -> DealSeatRecord:
    penalty = Fraction(0) if outcome == "won" else -Fraction(net)
    return DealSeatRecord(uid, name, False, outcome, penalty, Fraction(net))  # type: ignore[arg-type]


def _ai(outcome: str, net: Fraction | int) -> DealSeatRecord:
    penalty = Fraction(0) if outcome == "won" else -Fraction(net)
    return DealSeatRecord(None, AI_NAME, True, outcome, penalty, Fraction(net))  # type: ignore[arg-type]


async def seed(fake: FakeDiscord, storage: Storage) -> dict[str, int]:
    """14 storage-only players with 20..7 deals won (so the deals_won board has two pages),
    then alice (3 wins incl. a 7½ deal), bob (2 wins), carol (1 loss) and one rated match
    alice > bob > AI > carol. Every deal has an AI opponent, which must never be listed."""
    g = fake.guild_id
    now = int(time.time())
    ids = {u.name: u.id for u in fake.users}
    for i in range(14):
        uid, wins = 900_000 + i, 20 - i
        for n in range(wins):
            seats = [_human(uid, f"p{i + 1:02d}", "won", 10), _ai("lost", -10)]
            await storage.results.record_deal_result(
                _deal(g, f"seedp{i:02d}", n + 1, now - 3600, seats)
            )
    a, b, c = ids["alice"], ids["bob"], ids["carol"]
    hist = json.dumps(HISTORY)
    deals = [
        [_human(a, "alice", "won", Fraction(15, 2)), _human(c, "carol", "lost", Fraction(-15, 2))],
        [_human(a, "alice", "won", 20), _human(b, "bob", "dropped_first", -20)],
        [_human(b, "bob", "won", 12), _human(a, "alice", "lost", -12)],
        [_human(b, "bob", "won", 5), _ai("lost", -5)],
        [_human(a, "alice", "won", 40), _ai("lost", -40)],
    ]
    for n, seats in enumerate(deals, start=1):
        await storage.results.record_deal_result(_deal(g, "tblabc", n, now - 600 + n, seats, hist))
    await storage.results.record_match_result(
        MatchRecord(
            "tblabc",
            g,
            "points",
            now - 500,
            [
                MatchSeatRecord(a, "alice", False, 1, True, Fraction(111, 2)),
                MatchSeatRecord(b, "bob", False, 2, False, Fraction(-3)),
                MatchSeatRecord(None, AI_NAME, True, 3, False, Fraction(-45)),
                MatchSeatRecord(c, "carol", False, 4, False, Fraction(-15, 2)),
            ],
        )
    )
    return ids


def labels(msg: StoredMessage) -> list[str]:
    """Button labels on a message, in order."""
    return [c.get("label") or "" for c in msg.iter_components() if c.get("type") == 2]


def board_names(msg: StoredMessage) -> list[tuple[int, str]]:
    """(rank, name) of each leaderboard line, in display order."""
    desc = msg.embeds[0].get("description") or ""
    return [(int(r), n) for r, n in re.findall(r"\*\*(\d+)\.\*\* (\S+) —", desc)]


def own_line(msg: StoredMessage) -> str:
    return str(next(f["value"] for f in msg.embeds[0]["fields"] if f["name"] == "Your rank"))


async def test_commands_are_subcommands_of_rummy_with_choices(tmp_path: Path) -> None:
    """The mixin's methods really land in the synced /rummy group (MRO collection works)."""
    async with stats_bot(tmp_path) as (fake, _bot):
        cmd = fake.server.find_command("rummy")
        assert cmd is not None
        subs = {o["name"]: o for o in cmd["options"] if o["type"] == 1}
        for name in ("leaderboard", "stats", "history", "settings", "forget-me", "new"):
            assert name in subs, sorted(subs)
        opts = {o["name"]: o for o in subs["leaderboard"]["options"]}
        assert [c["value"] for c in opts["sort"]["choices"]] == [
            "rating",
            "matches_won",
            "deals_won",
            "net_chips",
            "win_rate",
        ]
        assert [c["value"] for c in opts["period"]["choices"]] == ["all", "30d", "7d"]
        assert {c["value"] for c in opts["profile"]["choices"]} == {
            "points",
            "pool101",
            "pool201",
            "deals",
            "paplu",
            "classic",
        }
        assert not any(o.get("required") for o in opts.values())
        assert cmd.get("contexts") in (None, [0]) or cmd.get("dm_permission") is False
        assert await fake.wait_idle() == []


async def test_leaderboard_pages_own_rank_and_refuses_other_clickers(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        await seed(fake, bot.storage)
        result = await fake.slash("alice", "general", "rummy leaderboard", sort="deals_won")
        msg = result.message
        assert msg is not None and not msg.ephemeral, "a leaderboard is for everyone to see"
        rows = board_names(msg)
        assert rows == [(i + 1, f"p{i + 1:02d}") for i in range(10)]
        assert "20 deals" in msg.text()  # p01's value + games
        assert "**#15** of 17" in own_line(msg), own_line(msg)  # alice is off page 1
        assert AI_NAME not in msg.text()
        assert labels(msg) == ["◀ Previous", "Next ▶"]

        # Someone else may not turn alice's pages: a private refusal, the board unchanged.
        refused = await fake.click("bob", msg, label="Next ▶")
        assert refused.ephemeral and "Only the person who ran" in refused.text
        assert board_names(fake.message(msg.id)) == rows

        turned = await fake.click("alice", msg, label="Next ▶")
        assert turned.response_type == 6  # deferred update of the same message
        await fake.wait_for(lambda: board_names(fake.message(msg.id)) != rows)
        page2 = fake.message(msg.id)
        assert board_names(page2) == [
            (11, "p11"),
            (12, "p12"),
            (13, "p13"),
            (14, "p14"),
            (15, "alice"),
            (16, "bob"),
            (17, "carol"),
        ]
        assert "alice — 3 (4 deals) ◀ you" in page2.text()
        assert "Page 2 of 2" in page2.text()
        assert AI_NAME not in page2.text()
        with pytest.raises(InteractionRefused):  # ▶ is disabled on the last page
            await fake.click("alice", page2, label="Next ▶")

        await fake.click("alice", page2, label="◀ Previous")
        await fake.wait_for(lambda: board_names(fake.message(msg.id)) == rows)
        assert await fake.wait_idle() == []


async def test_leaderboard_rating_net_chips_and_periods(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        await seed(fake, bot.storage)
        rating = await fake.slash("carol", "general", "rummy leaderboard", profile="points")
        assert rating.message is not None
        assert [n for _, n in board_names(rating.message)] == ["alice", "bob", "carol"]
        assert labels(rating.message) == []  # one page: no pager
        assert "**#3** of 3" in own_line(rating.message)
        assert "carol" in rating.text and "◀ you" in rating.text

        net = await fake.slash(
            "alice", "general", "rummy leaderboard", sort="net_chips", period="7d"
        )
        assert net.message is not None
        assert "p01 — +200 (20 deals)" in net.message.text()
        assert own_line(net.message) == "**#15** of 17 — +55½ (4 deals)"  # exact
        carol = await fake.slash("carol", "general", "rummy leaderboard", sort="net_chips")
        assert carol.message is not None
        assert own_line(carol.message) == "**#17** of 17 — -7½ (1 deal)"
        assert AI_NAME not in net.message.text() + carol.message.text()

        # A win-rate board needs 5 deals in the period; carol has 1, so she is told why.
        wr = await fake.slash("carol", "general", "rummy leaderboard", sort="win_rate")
        assert wr.message is not None
        assert "needs 5 deals" in own_line(wr.message)
        assert await fake.wait_idle() == []


async def test_pager_survives_a_restart(tmp_path: Path) -> None:
    """The pager's state is in its custom_id: a new bot process answers an old message."""
    async with FakeDiscord(users=USERS, channels=["general"], token=TOKEN) as fake:
        db = tmp_path / "bot.sqlite3"
        first = PapluBot(settings(db))
        async with fake.running(first):
            await fake.wait_for_commands("rummy")
            await seed(fake, first.storage)
            result = await fake.slash("alice", "general", "rummy leaderboard", sort="deals_won")
            assert result.message is not None
            msg_id = result.message.id
        second = PapluBot(settings(db))
        async with fake.running(second):
            await fake.click("alice", msg_id, label="Next ▶")
            await fake.wait_for(lambda: (11, "p11") in board_names(fake.message(msg_id)))
            assert await fake.wait_idle() == []


async def test_stats_shows_exact_numbers_and_no_ai(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        await seed(fake, bot.storage)
        mine = await fake.slash("alice", "general", "rummy stats")
        assert mine.message is not None and not mine.message.ephemeral
        text = mine.text
        assert "Rummy stats — alice" in text
        assert "Matches: 1 played, 1 won" in text
        assert "Deals: 4 played, 3 won" in text
        assert "Net chips: +55½" in text
        assert "Best deal +40 · worst deal -12" in text
        assert "Avg penalty when losing: 12" in text
        assert "Overall rating:" in text and "unrated" not in text.split("\n")[1]

        theirs = await fake.slash("alice", "general", "rummy stats", options={"user": "bob"})
        assert "Rummy stats — bob" in theirs.text
        assert "Drops: 1 first, 0 middle" in theirs.text

        nobody = await fake.slash("alice", "general", "rummy stats", options={"user": "olga"})
        assert "No games recorded" in nobody.text
        assert await fake.wait_idle() == []


async def test_history_lists_deals_and_downloads_hand_history(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        await seed(fake, bot.storage)
        result = await fake.slash("alice", "general", "rummy history")
        msg = result.message
        assert msg is not None and msg.ephemeral, "history is private"
        text = msg.text()
        assert "Recent deals — alice" in text
        assert text.count("table tblabc") >= 4
        assert "won** won 7½ chips" in text and "lost** lost 12 chips" in text
        menu = next(c for c in msg.iter_components() if c.get("type") == 3)
        assert len(menu["options"]) == 4
        assert all(len(c["custom_id"]) <= 100 for c in msg.iter_components() if "custom_id" in c)
        first_deal = next(o for o in menu["options"] if o["label"].endswith("deal 1"))

        picked = await fake.select("alice", msg, [first_deal["value"]])
        await picked.wait()
        files = [m for m in picked.messages if m.attachments] or (
            [picked.message] if picked.message and picked.message.attachments else []
        )
        assert files, picked
        got = files[0]
        assert got.ephemeral
        assert got.attachment_names == ["hand-history-tblabc-deal1.json"]
        assert json.loads(got.attachment_data["hand-history-tblabc-deal1.json"]) == HISTORY

        other = await fake.slash("alice", "general", "rummy history", options={"user": "carol"})
        assert other.message is not None and "Recent deals — carol" in other.text
        assert await fake.wait_idle() == []


async def test_settings_need_manage_server_and_gate_new_tables(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        refused = await fake.slash("bob", "general", "rummy settings", turn_timer=30)
        assert refused.ephemeral and "Manage Server" in refused.text
        assert (await bot.storage.settings.get_settings(fake.guild_id)).turn_timer == 60

        shown = await fake.slash("olga", "general", "rummy settings")
        assert shown.ephemeral and "every channel" in shown.text

        lounge = fake.channel("lounge")
        changed = await fake.slash(
            "olga",
            "general",
            "rummy settings",
            default_profile="pool101",
            turn_timer=90,
            allow_channel="lounge",
        )
        assert changed.ephemeral
        assert "Turn timer: 90 s" in changed.text and lounge.mention in changed.text
        saved = await bot.storage.settings.get_settings(fake.guild_id)
        assert saved.default_profile == "pool101" and saved.turn_timer == 90
        assert saved.allowed_channel_ids == frozenset({lounge.id})

        blocked = await fake.slash("alice", "general", "rummy new")
        assert blocked.ephemeral and "cannot be opened in this channel" in blocked.text
        opened = await fake.slash("alice", "lounge", "rummy new")
        assert opened.message is not None and not opened.ephemeral
        assert "101" in opened.text  # the server's default profile was used

        last = await fake.slash("olga", "general", "rummy settings", remove_channel="lounge")
        assert last.ephemeral and "last channel" in last.text
        reopened = await fake.slash("olga", "general", "rummy settings", all_channels=True)
        assert "every channel" in reopened.text
        assert (await bot.storage.settings.get_settings(fake.guild_id)).allowed_channel_ids is None
        assert await fake.wait_idle() == []


async def test_forget_me_after_confirmation(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        ids = await seed(fake, bot.storage)
        ask = await fake.slash("bob", "general", "rummy forget-me")
        assert ask.message is not None and ask.ephemeral
        first = ask.message
        assert labels(first) == ["Delete my stats", "Cancel"]
        await fake.click("bob", first, label="Cancel")
        await fake.wait_for(lambda: "Cancelled" in fake.message(first.id).text())
        assert labels(fake.message(first.id)) == []
        assert (await bot.storage.boards.player_stats(fake.guild_id, ids["bob"])).profiles

        ask = await fake.slash("bob", "general", "rummy forget-me")
        assert ask.message is not None
        second = ask.message
        await fake.click("bob", second, label="Delete my stats")
        await fake.wait_for(lambda: "Done" in fake.message(second.id).text())
        assert labels(fake.message(second.id)) == []

        gone = await fake.slash("bob", "general", "rummy stats")
        assert "No games recorded" in gone.text
        history = await fake.slash("bob", "general", "rummy history")
        assert "No deals recorded" in history.text
        board = await fake.slash("alice", "general", "rummy leaderboard", profile="points")
        assert board.message is not None
        assert [n for _, n in board_names(board.message)] == ["alice", "carol"]
        alice = await bot.storage.boards.player_stats(fake.guild_id, ids["alice"])
        assert alice.profiles["points"].deals_played == 4  # others' results stay intact
        assert await fake.wait_idle() == []


async def _download(fake: FakeDiscord, result: Any) -> dict[str, Any]:
    """The files a download click answered with, by name."""
    await result.wait()
    msgs = [m for m in result.messages if m.attachments] or (
        [result.message] if result.message and result.message.attachments else []
    )
    return {n: d for m in msgs for n, d in m.attachment_data.items()}


async def test_hand_histories_are_for_the_deals_players_and_managers(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        await seed(fake, bot.storage)
        # carol played one deal, with alice: alice may download it from carol's history...
        other = await fake.slash("alice", "general", "rummy history", options={"user": "carol"})
        assert other.message is not None
        menu = next(c for c in other.message.iter_components() if c.get("type") == 3)
        assert [o["label"] for o in menu["options"]] == ["points · table tblabc · deal 1"]
        # ...bob never sat with carol: her deals are listed, nothing is offered for download.
        theirs = await fake.slash("bob", "general", "rummy history", options={"user": "carol"})
        assert theirs.message is not None and "Recent deals — carol" in theirs.text
        assert not [c for c in theirs.message.iter_components() if c.get("type") == 3]
        # A tampered client sends carol's deal from bob's own menu: refused, no file.
        own = await fake.slash("bob", "general", "rummy history")
        assert own.message is not None
        rows = await bot.storage.boards.recent_deals(fake.guild_id, fake.user("carol").id)
        value = f"{rows[0].deal_id}:tblabc:1"
        forged = forge_interaction(fake, "bob", own.message, f"st:hh:{fake.user('bob').id}",
                                   values=[value])  # fmt: skip
        refused = await send_forged(fake, forged)
        assert refused.ephemeral and refused.text == "Pick a deal from the menu."
        assert await _download(fake, refused) == {}
        # The same menu grafted onto a message without one (it offers the value itself):
        # still refused, bob did not play that deal.
        forged = forge_interaction(fake, "bob", theirs.message, f"st:hh:{fake.user('bob').id}",
                                   values=[value])  # fmt: skip
        refused = await send_forged(fake, forged)
        assert refused.ephemeral and "Only the players of a deal" in refused.text
        assert await _download(fake, refused) == {}
        # The server's owner (a manager) may download any deal.
        boss = await fake.slash("olga", "general", "rummy history", options={"user": "carol"})
        assert boss.message is not None
        menu = next(c for c in boss.message.iter_components() if c.get("type") == 3)
        picked = await fake.select("olga", boss.message, [menu["options"][0]["value"]])
        assert list(await _download(fake, picked)) == ["hand-history-tblabc-deal1.json"]
        assert await fake.wait_idle() == []


async def test_forget_me_takes_the_player_out_of_others_hand_histories(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        ids = {u.name: u.id for u in fake.users}
        a, b = ids["alice"], ids["bob"]
        history = {
            "deal_number": 1,
            "seats": [
                {"seat": 0, "player_id": f"u{a}", "name": "alice"},
                {"seat": 1, "player_id": f"u{b}", "name": "bob"},
            ],
        }
        seats = [_human(a, "alice", "won", 20), _human(b, "bob", "lost", -20)]
        at = int(time.time())
        await bot.storage.results.record_deal_result(
            _deal(fake.guild_id, "tblfm", 1, at, seats, json.dumps(history))
        )
        ask = await fake.slash("bob", "general", "rummy forget-me")
        assert ask.message is not None
        await fake.click("bob", ask.message, label="Delete my stats")
        await fake.wait_for(lambda: "Done" in fake.message(ask.message.id).text())  # type: ignore[union-attr]

        mine = await fake.slash("alice", "general", "rummy history")
        assert mine.message is not None
        menu = next(c for c in mine.message.iter_components() if c.get("type") == 3)
        picked = await fake.select("alice", mine.message, [menu["options"][0]["value"]])
        [raw] = (await _download(fake, picked)).values()
        data = raw.decode() if isinstance(raw, bytes) else raw
        assert str(b) not in data and "bob" not in data
        assert "alice" in data and "forgotten player" in data
        assert await fake.wait_idle() == []


async def test_forget_me_waits_while_the_player_is_at_a_table(tmp_path: Path) -> None:
    async with stats_bot(tmp_path) as (fake, bot):
        await seed(fake, bot.storage)
        opened = await fake.slash("bob", "general", "rummy new")
        await opened.wait()
        ask = await fake.slash("bob", "general", "rummy forget-me")
        assert ask.message is not None
        await fake.click("bob", ask.message, label="Delete my stats")
        await fake.wait_for(lambda: "Nothing was deleted" in fake.message(ask.message.id).text())  # type: ignore[union-attr]
        assert (await bot.storage.boards.player_stats(fake.guild_id, fake.user("bob").id)).profiles
        assert await fake.wait_idle() == []
