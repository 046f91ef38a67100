"""Restart: the real entry point (`python -m bot`) is killed with SIGKILL mid-game and started
again on the same database; play continues through the buttons already on screen, and the match
ends exactly as the same game played without interruption (same deck seed, same decisions).

Storage writes every accepted action before anyone is shown its result, so whatever a player saw
before the crash is what the restarted bot knows.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import (
    TOKEN,
    TableDriver,
    embed_field,
    game_env,
    labels,
    results_deal,
    select_options,
)
from tests.fakediscord import FakeDiscord, StoredMessage
from tests.postgres import postgres_schema, postgres_url_or_skip

USERS = ["alice", "bob"]
SEED = 7  # pool101, two players: two deals
PROFILE = {"profile": "pool101"}


def outcome(fake: FakeDiscord) -> dict[int, list[tuple[str, str]]]:
    """Every deal's results (each hand revealed, each payment, standings), by deal number."""
    out: dict[int, list[tuple[str, str]]] = {}
    for m in fake.public_messages("general"):
        number = results_deal(m)
        if number is not None:
            fields = [(f["name"], f["value"]) for e in m.embeds for f in e.get("fields") or []]
            assert out.setdefault(number, fields) == fields, "a deal's results changed"
    return out


async def resumed(fake: FakeDiscord, mark: int) -> None:
    """Wait until a restarted bot has touched the channel again (its `on_ready` resume)."""
    await fake.wait_for(
        lambda: any(
            method in ("PATCH", "POST") and path.startswith("/channels/")
            for method, path, _ in fake.server.request_log[mark:]
        ),
        message="the restarted bot never resumed the table",
    )
    await fake.settle(0.3)


async def uninterrupted(
    tmp_path: Path, database_url: str | None
) -> tuple[dict[int, Any], list[tuple[str, str]]]:
    """The reference: the same match played through without a crash (a full game, on the
    backend under test)."""
    async with game_env(
        tmp_path, USERS, SEED, next_deal_delay=60.0, database_url=database_url
    ) as env:
        driver = TableDriver(env.fake, USERS)
        await driver.open("alice", **PROFILE)
        await driver.start("alice")
        final = await driver.play()
        assert final is not None
        await env.finish()
        return outcome(env.fake), driver.moves


@pytest.fixture(params=["sqlite", "postgres"])
async def databases(request: pytest.FixtureRequest) -> AsyncIterator[tuple[str | None, str | None]]:
    """(reference game's DATABASE_URL, restarted bot's DATABASE_URL): None is SQLite in
    tmp_path; for PostgreSQL two fresh schemas of the test server."""
    if request.param == "sqlite":
        yield None, None
        return
    url = postgres_url_or_skip()
    async for reference in postgres_schema(url):
        async for restarted in postgres_schema(url):
            yield reference, restarted


async def test_kill_and_restart_mid_game(
    tmp_path: Path, databases: tuple[str | None, str | None]
) -> None:
    reference_url, database_url = databases
    expected, expected_moves = await uninterrupted(tmp_path / "reference", reference_url)

    env = {
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "DATABASE_URL": database_url or "",
        "DECK_SEED": str(SEED),
        "AI_DELAY": "0",
        "NEXT_DEAL_DELAY": "60",
        "LOG_LEVEL": "WARNING",
    }
    async with FakeDiscord(users=USERS, channels=["general"], token=TOKEN) as fake:
        proc = await fake.launch("bot", env=env)
        try:
            await fake.wait_for_commands("rummy")
            driver = TableDriver(fake, USERS)
            await driver.open("alice", **PROFILE)
            await driver.start("alice")
            await driver.play(stop_after=3)

            # Crash 1: in the middle of a turn, right after the draw was shown.
            kind, ping = await fake.wait_for(driver._next_event)
            assert kind == "ping"
            driver.handled.add(ping.id)
            user = fake.user(int(ping.content[2:].split(">")[0])).name
            view = await driver.view_of(user, ping)
            choice = driver.strategy.choose(view)
            assert choice == ("click", "Draw from stock")
            driver.moves.append((user, "Draw from stock"))
            view = await driver.act(user, view, "click", "Draw from stock")
            assert select_options(view, "Discard a card")
            assert await proc.kill() != 0

            mark = len(fake.server.request_log)
            proc = await fake.launch("bot", env=env)
            await resumed(fake, mark)
            # The view from before the crash still works: discard from its menu, unrefreshed.
            choice = driver.strategy.choose(fake.message(view.id))
            assert choice is not None and choice[0] == "select"
            driver.moves.append((user, f"{choice[1][0]} {choice[1][1]}"))
            view = await driver.act(user, fake.message(view.id), *choice)
            assert "moved on" not in fake.render(view.id)
            assert not select_options(view, "Discard a card")  # the turn passed
            driver.turns += 1

            # Crash 2: between deals, then “Next deal” on the results posted before the crash.
            def deal_one() -> StoredMessage | None:
                return next(
                    (m for m in fake.public_messages("general") if results_deal(m) == 1), None
                )

            driver.click_next = False
            await driver.play(until=lambda: deal_one() is not None)
            results = deal_one()
            assert results is not None
            driver.click_next = True
            assert await proc.kill() != 0
            mark = len(fake.server.request_log)
            proc = await fake.launch("bot", env=env)
            await resumed(fake, mark)  # the restarted bot has caught up before anyone clicks
            driver.handled.add(results.id)
            for m in fake.public_messages("general"):
                # Results are shown at least once: a bot restarted between deals cannot know
                # whether they reached Discord before the crash, so it posts them again.
                if results_deal(m) == 1:
                    driver.handled.add(m.id)
            assert "Next deal" in labels(fake.message(results.id))
            await driver.next_deal(fake.message(results.id))
            final = await driver.play()
            assert final is not None

            assert outcome(fake) == expected
            assert driver.moves == expected_moves
            assert "Match over — winner:" in " ".join(
                (e.get("footer") or {}).get("text", "") for e in final.embeds
            )
            assert embed_field(final, "Standings") == dict(expected[max(expected)])["Standings"]
            violations = await fake.wait_idle()
            assert violations == [], "\n".join(map(str, violations)) + proc.log()
        finally:
            await proc.terminate()
