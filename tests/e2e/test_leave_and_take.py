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
from tests.fakediscord import StoredMessage


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
