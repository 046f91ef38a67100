"""Short of Discord's request budget, the bot sheds turn pings for players who are watching
their own hand view, and only for them; at ease it pings every turn."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import TableDriver, game_env, is_ping, open_hand, play_turn, wait_for_turn
from tests.fakediscord import FakeDiscord

TWO = ["alice", "bob"]


def pings_for(fake: FakeDiscord, user: str) -> int:
    mention = f"<@{fake.user(user).id}>"
    return sum(
        1
        for m in fake.server.messages.values()
        if is_ping(m) and mention in m.content and "your turn" in m.content
    )


@pytest.mark.parametrize(
    ("short", "watching", "pinged"),
    [(False, True, True), (True, True, False), (True, False, True)],
    ids=["at-ease", "short-watching", "short-not-watching"],
)
async def test_a_turn_ping_is_shed_only_for_a_watching_player_when_short(
    tmp_path: Path, short: bool, watching: bool, pinged: bool
) -> None:
    async with game_env(tmp_path, TWO, 4) as env:
        fake, presenter = env.fake, env.bot.presenter
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        await fake.settle(quiet=0.3)
        table = env.table()
        first = next(u for u in TWO if table.engine_seat(fake.user(u).id) == table.current_turn())
        other = next(u for u in TWO if u != first)
        mine = await open_hand(fake, first)
        theirs = await open_hand(fake, other) if watching else None
        if short:
            # As if the last second had used most of this process's share.
            presenter.budget.stretch = lambda: 3  # type: ignore[method-assign]
        before = pings_for(fake, other)
        await play_turn(fake, first, mine)
        if theirs is not None:
            await wait_for_turn(fake, other, theirs)  # their own view says so, either way
        else:
            await fake.wait_for(lambda: pings_for(fake, other) > before, timeout=20)
        await fake.settle(quiet=0.3)
        assert pings_for(fake, other) == before + (1 if pinged else 0)
        await env.finish()


async def test_a_move_s_answer_never_waits_for_the_next_ping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39, item 9: while the table's channel is slow to take new messages (Discord
    holds them: a rate-limited channel, five posts per five seconds), the answer to a move
    (the player's own view) comes at once; the next player's ping follows when the channel
    takes it, once."""
    async with game_env(tmp_path, TWO, 4) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        await fake.settle(quiet=0.3)
        table = env.table()
        first = next(u for u in TWO if table.engine_seat(fake.user(u).id) == table.current_turn())
        other = next(u for u in TWO if u != first)
        mine = await open_hand(fake, first)
        await fake.wait_for(lambda: pings_for(fake, first) == 1, timeout=60)
        before = pings_for(fake, other)

        gate = asyncio.Event()  # from now on the channel holds every new message until set
        server = fake.server
        create = server._channel_create

        async def held(req: Any) -> Any:
            await gate.wait()
            return await create(req)

        routes = [(m, rx, held if h == create else h, a) for m, rx, h, a in server._routes]
        monkeypatch.setattr(server, "_routes", routes)
        view = await play_turn(fake, first, mine)  # the draw's answer, then the discard's
        # The discard's own answer is there (not only a refresh of the view by the table).
        await fake.wait_for(lambda: "You discarded" in fake.message(view.id).text(), timeout=30)
        assert pings_for(fake, other) == before, "the ping went through a held channel?"
        gate.set()
        await fake.wait_for(lambda: pings_for(fake, other) == before + 1, timeout=90)
        await fake.settle(quiet=0.3)
        assert pings_for(fake, other) == before + 1
        await env.finish()
