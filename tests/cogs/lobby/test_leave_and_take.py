"""Taking the top discard through the view, and leaving a running match with /rummy leave."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.words.log import log_lines
from tests.e2e.harness import (
    ENGLISH,
    Say,
    Strategy,
    TableDriver,
    enabled,
    game_env,
    is_match_over,
    label_starting,
    select_options,
)
from tests.fakediscord import PERM_MEMBER_DEFAULT, PERM_THREADS, StoredMessage

WITH_THREADS = PERM_MEMBER_DEFAULT | PERM_THREADS


class TakeThenDiscard(Strategy):
    """Takes the top discard whenever the view offers it, then plays like the default."""

    def __init__(self) -> None:
        self.took: list[str] = []
        self.taken_label: str | None = None

    def choose(self, view: StoredMessage, say: Say = ENGLISH) -> tuple[str, Any] | None:
        take = label_starting(view, "Take ")
        if take is not None and enabled(view, "Take "):
            self.took.append(take)
            self.taken_label = take.removeprefix("Take ")
            return ("click", take)
        if self.taken_label is not None and select_options(view, "Discard a card"):
            # The card just taken may not go straight back: the menu must not offer it
            # unless a second copy of the same face is in the hand.
            labels = [o["label"] for o in select_options(view, "Discard a card")]
            assert labels.count(self.taken_label) <= 1
            self.taken_label = None
        return super().choose(view, say)


async def test_take_the_discard_through_the_view(tmp_path: Path) -> None:
    async with game_env(tmp_path, ["alice", "bob"], 7) as env:
        strategy = TakeThenDiscard()
        driver = TableDriver(env.fake, ["alice", "bob"], strategy=strategy)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play(max_turns=300)
        assert final is not None and is_match_over(final)
        assert strategy.took, "no player ever took the top discard"
        log = "\n".join(log_lines(env.last_table().log, "en"))
        assert " took " in log and " from the pile" in log


async def test_leaving_mid_game_is_a_drop(tmp_path: Path) -> None:
    async with game_env(tmp_path, ["alice", "bob", "carol"], 11) as env:
        fake = env.fake
        driver = TableDriver(fake, ["alice", "bob", "carol"])
        await driver.open("alice", profile="pool101")
        await driver.start("alice")
        await driver.play(stop_after=2)
        result = await fake.slash("carol", "general", "rummy leave")
        await result.wait()
        assert result.ephemeral and "counts as a drop" in result.text, result
        again = await fake.slash("carol", "general", "rummy leave")
        await again.wait()
        assert again.ephemeral and "already left" in again.text
        table = env.table()
        assert table is not None and table.match is not None
        seat = table.engine_seat(fake.user("carol").id)
        assert seat in table.match.left
        assert "carol left the table" in log_lines(table.log, "en")
        # The other two play on to the end of the match without carol.
        driver.humans = ["alice", "bob"]
        final = await driver.play(max_turns=600, timeout=60)
        assert final is not None and is_match_over(final)


async def test_leaving_mid_deal_says_what_it_cost_and_that_the_match_ended(
    tmp_path: Path,
) -> None:
    """Issue 39 item 7: at a two-seat table, `/rummy leave` typed in the table's thread in
    the middle of a deal is a drop that ends the match: the answer says the leave counts as a
    drop, what it cost, and that the match is over (the other seat was there, and won); not
    that the table closed for want of players. The same with an AI as the other seat."""
    async with game_env(tmp_path, ["alice", "bob"], 11, bot_permissions=WITH_THREADS) as env:
        fake = env.fake
        for humans, ai in ((["alice", "bob"], []), (["alice"], ["easy"])):
            driver = TableDriver(fake, humans)
            await driver.open("alice", profile="points", ai=ai)
            await driver.start("alice")
            assert driver.channel != "general"  # the table plays in its thread
            table = env.table()

            def alice_played(table: Any = table) -> bool:
                return turns_taken(table, "alice") > 0

            await driver.play(until=alice_played)  # a middle drop from now on: 40 chips
            result = await fake.slash("alice", driver.channel, "rummy leave")
            await result.wait()
            said = result.text
            assert result.ephemeral, result
            assert "counts as a drop" in said and "40 chips" in said, said
            assert "match is over" in said and "closed" not in said, said

            def over(channel: str | int = driver.channel) -> StoredMessage | None:
                return next((m for m in fake.public_messages(channel) if is_match_over(m)), None)

            await fake.wait_for(over)
            await fake.wait_for(lambda: env.table() is None)
            await env.bot.tables.effects.settled()


def turns_taken(table: Any, name: str) -> int:
    """How many turns `name` has finished in the deal under way."""
    seat = next(i for i, p in enumerate(table.match.players) if p.name == name)
    deal = table.match.deal
    return 0 if deal is None else int(deal.turns_taken[seat])
