"""The players told where `/rummy help` is (migration 0014): told once per (server, player),
whichever connection, process or restart asks, and forgotten with the player's other rows."""

from __future__ import annotations

import asyncio

from bot.storage import Storage
from tests.storage.conftest import Reopen
from tests.storage.helpers import G


async def test_a_player_is_told_once_per_server(st: Storage) -> None:
    assert not await st.help_pointers.told(G, 1)
    assert await st.help_pointers.tell_once(G, 1)
    assert await st.help_pointers.told(G, 1)
    assert not await st.help_pointers.tell_once(G, 1)  # told already
    assert await st.help_pointers.tell_once(G + 1, 1)  # another server: told there too
    assert await st.help_pointers.tell_once(G, 2)  # another player


async def test_claims_made_at_once_tell_one_of_them(st: Storage) -> None:
    claims = await asyncio.gather(*(st.help_pointers.tell_once(G, 7) for _ in range(8)))
    assert sorted(claims) == [False] * 7 + [True]


async def test_the_telling_survives_a_restart(reopen: Reopen) -> None:
    first = await reopen()
    try:
        assert await first.help_pointers.tell_once(G, 3)
    finally:
        await first.close()
    second = await reopen()
    try:
        assert await second.help_pointers.told(G, 3)
        assert not await second.help_pointers.tell_once(G, 3)
    finally:
        await second.close()


async def test_forget_me_forgets_the_telling_in_that_server_only(st: Storage) -> None:
    await st.help_pointers.tell_once(G, 1)
    await st.help_pointers.tell_once(G + 1, 1)
    await st.help_pointers.tell_once(G, 2)
    assert await st.privacy.forget_user(G, 1)
    assert not await st.help_pointers.told(G, 1)
    assert await st.help_pointers.told(G + 1, 1)
    assert await st.help_pointers.told(G, 2)
