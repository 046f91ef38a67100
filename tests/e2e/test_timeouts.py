"""Time and absence: a silent player is played for by the bot, warned, then dropped.

The command's shortest turn timer is 15 s; three timeouts in real time would take most of the
suite's budget, so the bot's turn clock runs 15x faster in-process (`harness.fast_turn_clock`:
the adapter's injectable clock plus its sleeps; no bot code is changed).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.words.log import log_lines
from tests.e2e.harness import TableDriver, footer, game_env, results_deal

USERS = ["alice", "bob", "carol"]
FACTOR = 15.0


async def test_silent_player_is_auto_played_then_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.e2e.harness import fast_turn_clock

    async with game_env(tmp_path, USERS, seed=3) as env:
        fake = env.fake
        fast_turn_clock(monkeypatch, env.bot, FACTOR, fake)
        # carol sits down and never touches her cards; alice and bob play at once.
        driver = TableDriver(fake, USERS, silent={"carol"})
        await driver.open("alice", profile="points", turn_timer=30)
        await driver.start("alice")
        final = await driver.play()
        assert final is not None

        log = log_lines(env.last_table().log, "en")  # the full public action log, in order
        carol_lines = [line for line in log if line.startswith("⏰")]
        assert len(carol_lines) == 3, log
        for line in carol_lines[:2]:  # the thrown card is named: it is public evidence
            assert re.fullmatch(r"⏰ carol ran out of time; the bot threw \S+ for them", line)
        assert carol_lines[2] == "⏰ carol was dropped after 3 timeouts in a row"
        # alice and bob kept playing before, between and after; nobody else timed out.
        first, last = log.index(carol_lines[0]), len(log) - 1 - log[::-1].index(carol_lines[-1])
        assert any(line.startswith(("alice", "bob")) for line in log[first:last])
        assert any(line.startswith(("alice", "bob")) for line in log[last:])
        # carol was warned on her turn's ping, edited in place (one mention per turn: an
        # edit notifies nobody), and the ping removed once her turn was over.
        mention = f"<@{fake.user('carol').id}>"
        pings = [m for m in fake.server.messages.values() if mention in m.content]
        assert len(pings) >= 3 and all(not m.ephemeral for m in pings)
        warnings = [m for m in pings if "15 seconds left" in m.content]
        assert len(warnings) >= 3
        assert all("your turn" in w.edits[0]["content"] for w in warnings)  # the edited ping
        assert all(w.deleted for w in warnings)
        # While carol was auto-played she still held 13 cards (the drawn card was thrown).
        seats = [
            line
            for m in fake.public_messages("general")
            for snap in [*m.edits, {"embeds": m.embeds}]
            for e in snap.get("embeds") or []
            for f in e.get("fields") or []
            if f.get("name") == "Seats"
            for line in f["value"].splitlines()
            if "**carol**" in line and "cards" in line
        ]
        assert seats and all("13 cards" in line for line in seats), seats
        # The result: carol paid the middle-drop penalty (she had played turns by then).
        assert results_deal(final) == 1 and "Match over" in footer(final)
        carol = next(
            f for e in final.embeds for f in e.get("fields") or [] if f["name"].startswith("carol")
        )
        assert "middle drop" in carol["value"], carol
        assert "Pays 40" in carol["value"], carol
        # ...and why, in the results that stay (the table's line has scrolled away by then).
        assert "after 3 timeouts in a row" in carol["value"], carol
        await env.finish()
