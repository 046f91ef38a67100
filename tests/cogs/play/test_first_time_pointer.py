"""Issue 39 item 16: "New to rummy here? /rummy help…" heads ONE hand view of a player's first
game, ever: not one per process. Played through the fake Discord as the players met it: views
opened from each turn's ping and refreshed, `/rummy hand` typed again, and the bot restarted
in the middle of the deal (a new process knows nothing the last one kept in memory)."""

from __future__ import annotations

from pathlib import Path

from bot.discord_ui.client import PapluBot
from bot.discord_ui.screens.help import first_time
from tests.e2e.harness import TOKEN, TableDriver, scripted_pace, settings
from tests.fakediscord import FakeDiscord

FIRST_TIME = first_time("en")
USERS = ["alice", "bob"]


def pointed(fake: FakeDiscord, user: str) -> list[int]:
    """The private messages of `user` that ever showed the pointer (in any version)."""
    uid = fake.user(user).id
    out = []
    for m in fake.server.messages.values():
        if m.visible_to != uid:
            continue
        versions = [m.content, *(e.get("content") for e in m.edits)]
        if any(FIRST_TIME in (v or "") for v in versions):
            out.append(m.id)
    return out


async def fresh_views(fake: FakeDiscord, driver: TableDriver) -> None:
    """Each player types `/rummy hand` where the table plays: a new view, not a refresh."""
    for user in USERS:
        r = await fake.slash(user, driver.channel, "rummy hand")
        await r.wait()
        assert r.message is not None and r.ephemeral, r
        driver.views[user] = r.message.id  # the view the player goes on with


async def test_the_pointer_heads_one_view_of_a_first_game_across_a_restart(
    tmp_path: Path,
) -> None:
    async with FakeDiscord(users=USERS, channels=["general"], token=TOKEN) as fake:
        db = tmp_path / "bot.sqlite3"
        first = PapluBot(settings(db, 7, next_deal_delay=60.0))
        scripted_pace(fake, client=first)
        async with fake.running(first):
            await fake.wait_for_commands("rummy")
            driver = TableDriver(fake, USERS)
            await driver.open("alice", profile="points")
            await driver.start("alice")
            await driver.play(stop_after=2)  # views opened from the pings, then refreshed
            await fresh_views(fake, driver)
            await driver.play(stop_after=4)
            await fake.settle(quiet=0.3)
            assert [len(pointed(fake, u)) for u in USERS] == [1, 1]
        # The bot restarts mid-deal, on the same database; the players go on.
        second = PapluBot(settings(db, 7, next_deal_delay=60.0))
        second.budget.share = first.budget.share
        async with fake.running(second):
            await fake.wait_for_commands("rummy")
            await fake.settle(quiet=0.3)
            await fresh_views(fake, driver)
            final = await driver.play()
            assert final is not None
            await fake.settle(quiet=0.3)
            assert await fake.wait_idle() == []
        assert [len(pointed(fake, u)) for u in USERS] == [1, 1], [pointed(fake, u) for u in USERS]
