"""Issue 39 items 4, 5, 6 and 8: "Play again" after a match, as its players press it, through
the fake Discord. Each match here ends the quick way: at two seats, one player leaves."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.e2e.harness import Env, TableDriver, game_env, labels
from tests.fakediscord import PERM_MEMBER_DEFAULT, PERM_THREADS, StoredMessage

WITH_THREADS = PERM_MEMBER_DEFAULT | PERM_THREADS
USERS = ["owner", "alice", "bob"]  # the owner manages the server
TWO = ["alice", "bob"]


async def finished(env: Env, **options: Any) -> tuple[TableDriver, StoredMessage]:
    """alice and bob play a match that bob leaves: its final results, with Play again."""
    fake = env.fake
    driver = TableDriver(fake, TWO)
    await driver.open("alice", **options)
    await driver.start("alice")
    left = await fake.slash("bob", driver.channel, "rummy leave")
    assert left.ephemeral, left

    def final() -> StoredMessage | None:
        return next(
            (m for m in fake.public_messages(driver.channel) if "Play again" in labels(m)), None
        )

    return driver, await fake.wait_for(final, message="no final results")


async def press(env: Env, user: str, final: StoredMessage) -> Any:
    r = await env.fake.click(user, env.fake.message(final.id), label="Play again")
    await r.wait()
    assert r.ephemeral, r
    return r


def humans(env: Env) -> set[str]:
    table = env.table()
    assert table is not None
    return {s.name for s in table.seats if s.ai is None}


async def test_every_player_of_a_private_match_may_sit_in_its_rematch(tmp_path: Path) -> None:
    """Item 4: the invited player presses first; the host who made the table still sits."""
    async with game_env(tmp_path, USERS, 4) as env:
        _driver, final = await finished(env, invite=env.fake.user("bob").mention)
        first = await press(env, "bob", final)
        assert "new table" in first.text, first
        second = await press(env, "alice", final)
        assert "You took a seat" in second.text, second
        assert humans(env) == {"alice", "bob"}
        stranger = await env.fake.slash("owner", "general", "rummy join")
        await stranger.wait()
        assert humans(env) == {"alice", "bob"}  # still a private table


async def test_two_players_pressing_play_again_at_once_are_both_seated(tmp_path: Path) -> None:
    """Item 5: one opens the lobby, the other takes a seat, whatever the order."""
    async with game_env(tmp_path, USERS, 4) as env:
        _driver, final = await finished(env)
        answers = await asyncio.gather(press(env, "alice", final), press(env, "bob", final))
        said = sorted(r.text for r in answers)
        assert any("new table" in s for s in said) and any("You took a seat" in s for s in said)
        assert humans(env) == {"alice", "bob"}


async def test_play_again_in_the_thread_says_where_and_tells_a_second_press(
    tmp_path: Path,
) -> None:
    """Item 6: pressed in the table's thread, the answer links the channel the lobby opens
    in (not "below"); a second press says the player already has that seat."""
    async with game_env(tmp_path, USERS, 4, bot_permissions=WITH_THREADS) as env:
        fake = env.fake
        driver, final = await finished(env)
        assert driver.channel != fake.channel("general").id
        first = await press(env, "alice", final)
        general = fake.channel("general").mention
        assert general in first.text and "below" not in first.text, first
        again = await press(env, "alice", final)
        assert "already" in again.text and "took a seat" not in again.text, again
        other = await press(env, "bob", final)
        assert "You took a seat" in other.text and general in other.text, other
        again = await press(env, "bob", final)
        assert "already" in again.text, again
        assert humans(env) == {"alice", "bob"}


async def test_play_again_obeys_the_servers_channel_list(tmp_path: Path) -> None:
    """Item 8: after `/rummy settings allow_channel:#other`, Play again on a #general result
    is refused like `/rummy new` there, and opens nothing."""
    async with game_env(tmp_path, USERS, 4, channels=("general", "other")) as env:
        fake = env.fake
        _driver, final = await finished(env)
        changed = await fake.slash("owner", "general", "rummy settings", allow_channel="other")
        assert changed.ephemeral, changed
        blocked = await fake.slash("alice", "general", "rummy new")
        assert blocked.ephemeral and "cannot be opened in this channel" in blocked.text
        refused = await press(env, "alice", final)
        assert refused.text == blocked.text, refused
        assert env.table() is None
