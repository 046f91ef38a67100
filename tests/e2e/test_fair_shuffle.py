"""The verifiable shuffle, end to end: the table shows the commitment from the deal's start, the
results reveal the salt, and the attached hand history verifies against what the table showed.
The hidden-card audit of every scenario also treats the salt as secret until the deal ends."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import bot.discord_ui.table_message
from bot.engine.fairness import verify
from tests.e2e.harness import TableDriver, embed_field, footer, game_env, results_deal

COMMITMENT_RE = re.compile(r"Deal 1 shuffle commitment: ([0-9a-f]{16})… \(sha256\)")


async def test_the_shown_commitment_verifies_against_the_revealed_history(tmp_path: Path) -> None:
    users = ["alice", "bob"]
    async with game_env(tmp_path, users, None) as env:  # no seed: the OS generator, as live
        fake = env.fake
        driver = TableDriver(fake, users)
        lobby = await driver.open("alice", profile="points")
        await driver.start("alice")
        await fake.wait_for(
            lambda: COMMITMENT_RE.search(footer(fake.message(lobby.id))), timeout=10
        )
        found = COMMITMENT_RE.search(footer(fake.message(lobby.id)))
        assert found is not None
        shown = found.group(1)
        final = await driver.play()
        assert final is not None and results_deal(final) == 1
        got = await fake.click("bob", final, label="Hand history")  # a player downloads it
        await got.wait()
        (sent,) = [m for m in got.messages if m.attachments] or [got.message]
        assert sent is not None and sent.ephemeral
        (name,) = sent.attachment_names
        history = json.loads(sent.attachment_data[name])
        result = verify(history)
        assert result.ok, result.problems
        assert result.commitment is not None and result.commitment.startswith(shown)
        field = embed_field(final, "Shuffle") or ""
        assert history["shuffle"]["salt"] in field and "python -m bot.engine verify" in field
        await env.finish()


async def test_leak_audit_notices_the_salt_before_the_deal_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bot.discord_ui.table_message.TableMessage.payload

    def leaky(self: Any, table: Any, final: Any, locale: Any = None) -> Any:
        payload, public = real(self, table, final, locale)
        deal = table.match.deal if table.match is not None else None
        if deal is not None and not deal.over:
            payload["embed"].add_field(name="oops", value=deal.salt)
        return payload, public

    monkeypatch.setattr(bot.discord_ui.table_message.TableMessage, "payload", leaky)
    async with game_env(tmp_path, ["alice", "bob"], 7) as env:
        driver = TableDriver(env.fake, ["alice", "bob"])
        await driver.open("alice", profile="points")
        await driver.start("alice")
        await env.fake.wait_for(lambda: bool(env.audit.leaks), timeout=10)
        await driver.play()
        assert any("shuffle salt" in leak for leak in env.audit.leaks), env.audit.leaks
        env.audit.leaks.clear()
        await env.finish()
