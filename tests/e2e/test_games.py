"""Whole matches from `/rummy new` to the match result, every human seat played only through
what its own views show (the turn ping, “Your hand”, the private view's buttons and menus).

Deck seeds are injected so the deals are known; the seeds below give short matches with the
simple strategy of `harness.Strategy` (found by replaying that strategy on the engine). Both
audits run over every game (see `harness.game_env`): no Discord rule broken, and no hidden card
shown to anyone but its holder before the reveal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.words.log import log_lines
from tests.e2e.harness import (
    TableDriver,
    embed_field,
    footer,
    game_env,
    recent_log,
    results_deal,
)

TWO = ["alice", "bob"]
FOUR = ["alice", "bob", "carol", "dave"]


def standings(msg: Any) -> list[str]:
    return (embed_field(msg, "Standings") or "").splitlines()


@pytest.mark.parametrize(
    ("profile", "users", "seed", "options", "deals"),
    [
        pytest.param("points", TWO, 4, {}, 1, id="points-2p"),
        pytest.param("points", FOUR, 6, {}, 1, id="points-4p"),
        pytest.param("pool101", TWO, 7, {}, 2, id="pool101-2p"),
        pytest.param("pool101", FOUR, 14, {}, 4, id="pool101-4p"),
        pytest.param("pool101", FOUR, 7, {"pool_limit": 60}, 2, id="pool101-4p-limit60"),
        pytest.param("paplu", TWO, 7, {}, 2, id="paplu-2p"),
        pytest.param("paplu", FOUR, 6, {}, 4, id="paplu-4p"),
        pytest.param("points", TWO, 2, {"declaration": "honor"}, 1, id="points-2p-honor"),
    ],
)
async def test_full_match(
    tmp_path: Path, profile: str, users: list[str], seed: int, options: dict[str, Any], deals: int
) -> None:
    # A long pause between deals: the next deal starts only because everyone clicks Next.
    async with game_env(tmp_path, users, seed, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, users)
        lobby = await driver.open(users[0], profile=profile, **options)
        await driver.start(users[0])
        final = await driver.play()
        assert final is not None

        # One results message per deal; the last one names the match winner.
        results = [m for m in fake.public_messages("general") if results_deal(m) is not None]
        assert [results_deal(m) for m in results] == list(range(1, deals + 1))
        assert final.id == results[-1].id
        assert "Match over — winner:" in footer(final)
        lines = standings(final)
        assert sorted(line.split(":")[0] for line in lines) == sorted(users)
        assert "🏆" in "\n".join(lines)
        for m in results:  # every hand revealed at the end of each deal
            for user in users:
                assert user in fake.render(m)
        # The table message says the match is over; no buttons. It is the lobby message,
        # edited in place, until a deal's results push it up: each later deal posts it again
        # at the bottom (the old one deleted), so it is the last table message of all.
        table_id = env.last_table().message_id
        table_msg = fake.message(table_id)
        assert not table_msg.deleted and "Match over" in footer(table_msg)
        assert (table_id == lobby.id) == (deals == 1)
        assert fake.message(lobby.id).deleted == (deals > 1)
        assert not any(c.get("type") == 2 for c in table_msg.iter_components())
        assert any("declared" in line for line in recent_log(fake))
        assert env.table() is None  # the table is closed
        # Each player used one private view of their own, edited in place all game.
        for user in users:
            view = fake.message(driver.views[user])
            assert view.visible_to == fake.user(user).id
            assert len(view.edits) > 0
        # Multi-deal formats went through the Next-deal vote (the auto delay is 60 s).
        assert (driver.next_clicks > 0) == (deals > 1)
        if options.get("declaration") == "honor":  # declared by laying out, from the menu
            assert any(what.startswith("Declare, discarding…") for _, what in driver.moves)
        await env.finish()
        assert env.audit.checked > driver.turns
        assert env.audit.results_checked >= deals


async def test_pool_with_ai_seats_and_auto_next_deal(tmp_path: Path) -> None:
    """Two humans and two AI seats; nobody clicks Next: the short auto delay deals on."""
    async with game_env(tmp_path, TWO, 5, next_deal_delay=0.2) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO, click_next=False)
        lobby = await driver.open("alice", ai=["medium", "hard"], profile="pool101", pool_limit=60)
        assert "Medium" in fake.render(lobby.id) and "Hard" in fake.render(lobby.id)
        await driver.start("alice")
        final = await driver.play(timeout=60)
        assert final is not None
        assert "Match over — winner:" in footer(final)
        assert len(standings(final)) == 4
        assert driver.next_clicks == 0
        assert sum("🤖" in line for line in standings(final)) == 2
        # AI moves are logged publicly like anyone else's (the table shows the newest five).
        assert any(line.startswith("🤖") for line in log_lines(env.last_table().log, "en"))
