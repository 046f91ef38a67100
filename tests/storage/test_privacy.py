"""Forget-me (bot.storage.privacy)."""

from __future__ import annotations

from bot.storage import (
    DELETED_NAME,
    Storage,
)
from tests.storage.helpers import NOW, F, G, match, raw, two_player_deal


async def test_forget_user(st: Storage) -> None:
    await st.record_deal_result(two_player_deal("m1", 1, 2, 10))
    await st.record_deal_result(two_player_deal("m2", 2, 1, 4))
    await st.record_deal_result(two_player_deal("x", 3, 1, 1, guild=G + 1))
    await st.record_match_result(match("m1", [(1, 1), (2, 2)]))
    await st.leaderboard(G, sort="net_chips", period="7d", now=NOW)  # materialise period board
    before_2 = await st.player_stats(G, 2)

    await st.forget_user(G, 1)

    assert (await st.player_stats(G, 1)).profiles == {}
    assert await st.recent_deals(G, 1) == []
    assert await st.rating_history(G, 1) == []
    for period in ("all", "7d"):
        for sort in ("rating", "net_chips", "deals_won"):
            rows = await st.leaderboard(G, sort=sort, period=period, now=NOW)  # type: ignore[arg-type]
            assert [r.user_id for r in rows] == [2], (sort, period)
    # the other player's results and stats are intact
    after_2 = await st.player_stats(G, 2)
    assert after_2 == before_2
    (latest, *_rest) = await st.recent_deals(G, 2)
    assert latest.net in (F(4), F(-10))
    # the forgotten seat is anonymised, not deleted
    names = {r[0] for r in await raw(st, "SELECT name FROM deal_seats WHERE guild_id = ?", (G,))}
    assert names == {"p2", DELETED_NAME}
    left = await raw(st, "SELECT COUNT(*) FROM deal_seats WHERE user_id = 1 AND guild_id = ?", (G,))
    assert left == [(0,)]
    # other guilds are untouched
    assert (await st.player_stats(G + 1, 1)).profiles["points"].deals_played == 1
    # a rebuild afterwards does not resurrect the user
    await st.rebuild_summaries(G)
    assert await st.player_rank(G, 1, sort="net_chips", now=NOW) is None
