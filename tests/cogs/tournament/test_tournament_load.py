"""A 60-player tournament (ten tables in round 1) within Discord's limits, at Discord's real
pace: the fake enforces the global limit (50 requests a second) and the per-route buckets
(5 messages in 5 seconds a channel, ...) and records every 429 as a violation; here its windows
are NOT sped up (no `scripted_pace`), so the bot meets them exactly as it would meet Discord.
The bot opens ten threads (each from its own message in the channel), pings their players,
keeps the round's message and the tables current, and plays to the final with AI players."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bot.discord_ui.client import PapluBot
from tests.e2e.harness import TOKEN, footer, settings
from tests.fakediscord import PERM_MEMBER_DEFAULT, PERM_THREADS, FakeDiscord


async def test_sixty_players_open_ten_tables_within_the_limits(tmp_path: Path) -> None:
    async with FakeDiscord(
        users=["alice"],
        channels=["general"],
        token=TOKEN,
        bot_permissions=PERM_MEMBER_DEFAULT | PERM_THREADS,
    ) as fake:
        bot = PapluBot(settings(tmp_path / "bot.sqlite3", 5, next_deal_delay=1.0))
        async with fake.running(bot):
            await fake.wait_for_commands("rummy")
            created = await fake.slash(
                "alice", "general", "rummy tournament create", name="Big night", seats=6,
                advance=2, deals=1, start_in=5,
            )  # fmt: skip
            assert created.message is not None
            added = await fake.slash(
                "alice", "general", "rummy tournament add-ai", count=60, tier="easy", timeout=30
            )
            assert "60 AI players entered" in added.text, added
            started = await fake.slash("alice", "general", "rummy tournament start", timeout=60)
            assert started.text == "The tournament has started.", started

            def threads(prefix: str) -> int:
                return sum(
                    1
                    for c in fake.server.channels.values()
                    if c.is_thread and c.name.startswith(prefix)
                )

            await fake.wait_for(lambda: threads("R1 T") == 10, 120, message="ten tables")
            await fake.wait_for(
                lambda: any(
                    "final standings" in " ".join(e.get("title") or "" for e in m.embeds)
                    for m in fake.public_messages("general")
                ),
                600,
                message="the tournament never finished",
            )
            violations = await fake.wait_idle(timeout=30)
            assert violations == [], "\n".join(map(str, violations))
            # Rounds of 60, 20, 8 and the final of 4: one message each in the channel.
            rounds = Counter(
                footer(m).rsplit("round ", 1)[-1]
                for m in fake.public_messages("general")
                if "· round" in footer(m)
            )
            assert rounds == {"1": 1, "2": 1, "3": 1, "4": 1}, rounds
            # Paced: no 429 of any kind, never more than Discord's 50 counted requests in
            # any one second (a sliding window, stricter than Discord's).
            limiter = fake.server.ratelimiter
            assert limiter.count() == 0, limiter.limited
            assert limiter.busiest_second() <= 50
