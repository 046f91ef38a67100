"""Post-deal reviews ("Review my play"): finished deals kept in memory, analysed on request.

Why in memory: a review replays one seat's own observations of a deal, which needs the match
right after the deal; that is kept for `REVIEWS_KEPT` deals past the next deal and past the
table's close, and is lost on a restart (the review is a courtesy, the results are stored).
"""

from __future__ import annotations

from typing import Any

from bot.ai import thinking
from bot.ai.review import ReplayError
from bot.engine.match import Match, MatchPhase

from . import errors
from .model import Table
from .outcomes import DealReview

#: Finished deals kept in memory for "Review my play" (state of the match right after each).
REVIEWS_KEPT = 64


class Reviews:
    def __init__(self) -> None:
        # (table id, deal number) -> (guild, where its results are: the channel and the
        # table's thread, match state right after the deal)
        self._finished: dict[tuple[str, int], tuple[int, tuple[int, ...], dict[str, Any]]] = {}
        self._reviews: dict[tuple[str, int, int], DealReview] = {}

    def keep(self, table: Table, number: int, match: Match | None = None) -> None:
        """Keep the match as it is right after deal `number` (called when it ends): `match`,
        the state the change that ended it stored (default: the table's). A state that is not
        deal `number` just ended (the match moved on first) is not kept: reviewed, it would
        be another deal's decisions under this deal's number."""
        m = table.match if match is None else match
        key = (table.id, number)
        if m is None or key in self._finished:
            return
        deal = m.deal
        if m.phase is MatchPhase.PLAYING or deal is None or not deal.over:
            return
        if len(m.results) != number:
            return
        places = (table.channel_id, table.home_id)
        self._finished[key] = (table.guild_id, places, m.to_dict())
        while len(self._finished) > REVIEWS_KEPT:
            del self._finished[next(iter(self._finished))]

    async def review(
        self,
        table_id: str,
        user_id: int,
        deal_number: int,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> DealReview:
        """`user_id`'s review of deal `deal_number` at table `table_id` (see `bot.ai.review`):
        only that player's own information at each of their turns is used.

        The replay and the expert's analysis take a second or so of CPU, so they run in the
        AI's worker process (the event loop keeps serving clicks); the result is cached per
        player."""
        kept = self._finished.get((table_id, deal_number))
        if kept is None:
            raise errors.ReviewGone()
        guild, places, state = kept
        checked = guild_id is not None or channel_id is not None
        if checked and (guild_id != guild or channel_id not in places):
            raise errors.WrongPlace()
        key = f"u{user_id}"
        seat = next((i for i, p in enumerate(state["players"]) if p[0] == key), None)
        deal = state.get("deal") or {}
        if seat is None or seat not in deal.get("seats", ()):
            raise errors.NotInDeal()
        cache_key = (table_id, deal_number, seat)
        cached = self._reviews.get(cache_key)
        if cached is not None:
            return cached
        try:
            review = await thinking.review(state, seat, int(state.get("seed") or 0))
        except ReplayError as exc:
            raise errors.ReviewGone() from exc
        outcome = DealReview(deal_number, seat, review)
        self._reviews[cache_key] = outcome
        while len(self._reviews) > 4 * REVIEWS_KEPT:
            del self._reviews[next(iter(self._reviews))]
        return outcome
