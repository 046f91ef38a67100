"""Issue 39 items 1 and 2: below full hints, no door works out a player's hand for them
(`bot.table.hint_policy`; docs/rules.md, "Hint levels"), played through the fake Discord.

1. `/rummy check` with one's own 13 cards gave the arrangement and the deadwood the hand view
   hides: refused while the player is in a live match below full hints; it answers a player
   at a full-hints table, a bystander, and the same player once their match is over.
2. Assisted declaring below full hints was a free oracle (try each card: "not a valid
   declaration", nothing changes): below full every declaration is on honor, so a refused
   one is a wrong show at its cost; a host asking for assisted declaring there is refused.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.cogs.play.test_hint_levels import drawn_view, drop_to_end, open_table, stored
from tests.e2e.harness import Env, game_env, select_options

THREE = ["alice", "bob", "carol"]  # carol only watches


def own_hand(env: Env, user: str) -> tuple[str, str]:
    """The user's own 13 cards and the deal's indicator, typed as `/rummy check` takes them."""
    table = env.table()
    deal = table.match.deal
    seat = table.engine_seat(env.fake.user(user).id)
    assert deal.indicator is not None
    return " ".join(c.face.code for c in deal.hands[seat][:13]), deal.indicator.face.code


async def check(env: Env, user: str, hand: str, indicator: str) -> Any:
    r = await env.fake.slash(user, "general", "rummy check", hand=hand, indicator=indicator)
    await r.wait()
    assert r.ephemeral, r
    return r


@pytest.mark.parametrize("level", ["groups", "off"])
async def test_check_refuses_a_player_whose_match_hides_the_ruling(
    tmp_path: Path, level: str
) -> None:
    async with game_env(tmp_path, THREE, 4) as env:
        await open_table(env, hints=level)
        hand, indicator = own_hand(env, "alice")
        before = (env.table().version, env.table().status)
        refused = await check(env, "alice", hand, indicator)
        assert f"plays with hints {level}" in refused.text, refused
        assert "Deadwood" not in refused.text and "valid" not in refused.text, refused
        assert (env.table().version, env.table().status) == before
        watched = await check(env, "carol", hand, indicator)  # not playing: answered
        assert "Deadwood" in watched.text, watched
        await drop_to_end(env)
        after = await check(env, "alice", hand, indicator)  # the match is over
        assert "Deadwood" in after.text, after


async def test_check_answers_at_a_full_hints_table(tmp_path: Path) -> None:
    async with game_env(tmp_path, THREE, 4) as env:
        await open_table(env)
        hand, indicator = own_hand(env, "alice")
        answered = await check(env, "alice", hand, indicator)
        assert "Deadwood" in answered.text, answered
        await drop_to_end(env)


@pytest.mark.parametrize("level", ["groups", "off"])
async def test_a_refused_declaration_below_full_hints_is_a_wrong_show(
    tmp_path: Path, level: str
) -> None:
    async with game_env(tmp_path, THREE, 4) as env:
        fake = env.fake
        # The host names no declaration mode (assisted by default): below full, honor.
        lobby = await open_table(env, hints=level)
        assert "a wrong show is penalised" in lobby.text(), lobby.text()
        user, view = await drawn_view(env)
        seat = env.table().engine_seat(fake.user(user).id)
        assert env.table().rules.declaration_mode.value == "honor"
        # A fresh deal's first draw does not declare: the first card of the menu is a show
        # the rules refuse, and it costs.
        first = select_options(view, "Declare, discarding")[0]["value"]
        r = await fake.select(user, view, [first], placeholder="Declare, discarding…")
        await r.wait()
        assert "not a valid declaration" not in r.text, r
        await fake.wait_for(lambda: env.table() is None, message=lambda: "no wrong show")
        sql = "SELECT outcome FROM deal_seats ORDER BY seat"
        record: list[tuple[Any, ...]] = []
        for _ in range(600):
            record = await stored(env, sql)
            if record:
                break
            await asyncio.sleep(0.1)
        assert record[seat] == ("invalid_declaration",), record


@pytest.mark.parametrize("level", ["groups", "off"])
async def test_assisted_declaring_below_full_hints_is_refused_at_the_lobby(
    tmp_path: Path, level: str
) -> None:
    async with game_env(tmp_path, THREE, 4) as env:
        fake = env.fake
        r = await fake.slash("alice", "general", "rummy new", hints=level, declaration="assisted")
        assert r.ephemeral, r
        assert f"With hints {level}, declaring is on your honor" in r.text, r
        assert env.table() is None
        # At full hints assisted declaring stays the host's choice.
        ok = await fake.slash("alice", "general", "rummy new", declaration="assisted")
        assert not ok.ephemeral and env.table() is not None, ok
        assert env.table().rules.declaration_mode.value == "assisted"
