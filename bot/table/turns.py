"""Turns that run by themselves: AI moves, turn timers and timeouts, the pause before the next
deal, and an idle lobby's expiry. Each is a task on the `Scheduler` (one per table and
purpose, on the injectable clock) that ends in an ordinary change through the unit of work.

A change that cannot be stored (the database is away) is tried again after a pause rather
than dropped: otherwise an AI seat would never move again, and the table would hang.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial

from bot.ai import AiTier, make_policy
from bot.ai.thinking import decide
from bot.engine.actions import Action
from bot.engine.errors import RummyError
from bot.engine.match import MatchPhase
from bot.engine.observation import Observation

from . import errors
from .autoplay import timeout_finish, timeout_opening
from .context import TableContext
from .events import AiMoved, NextDeal, TimedOut
from .model import Table
from .moves import apply_action, new_turn_if_needed, start_next_deal
from .vocabulary import TableStatus

log = logging.getLogger(__name__)

#: Seconds before the turn timer runs out at which the player is warned.
WARNING_BEFORE = 15.0

#: How an AI seat chooses its move: (tier, what the seat sees, seed) -> the move.
Think = Callable[[AiTier, Observation, int], Awaitable[Action]]


async def think_in_thread(tier: AiTier, obs: Observation, seed: int) -> Action:
    """Off the event loop, on a thread: for the cheap tiers, and for tests."""
    policy = make_policy(tier, seed=seed)
    return await asyncio.to_thread(policy.act, obs)


async def think_off_the_loop(tier: AiTier, obs: Observation, seed: int) -> Action:
    """How the bot's AI seats think: the expert in its worker process (pure Python holding
    the GIL in a thread would stall the event loop), the other tiers on a thread
    (`bot.ai.thinking.decide`). The move is the same either way for a seed."""
    return await decide(tier, obs, seed)


def _quiet(task: asyncio.Task[Action]) -> None:
    """A thought nobody waits for any more (its table moved on) may have failed: read its
    error so asyncio does not report it as never retrieved; the turn simply moves on."""
    if not task.cancelled():
        task.exception()


class Turns:
    def __init__(
        self,
        ctx: TableContext,
        lobby_expire: Callable[[Table, int], Awaitable[None]] | None = None,
        think: Think = think_off_the_loop,
    ) -> None:
        self.ctx = ctx
        self.lobby_expire = lobby_expire
        self.think = think
        self._pinged: dict[str, list[int]] = {}  # table id -> turn marker last announced

    # ---- what effects arm ------------------------------------------------------------------

    def expire_lobby_later(self, table: Table) -> None:
        """An idle lobby closes by itself; any change to the lobby restarts the wait."""
        if self.lobby_expire is not None:
            self.ctx.scheduler.schedule(table.id, "lobby", self._expire(table, table.version))

    def next_deal_later(self, table: Table) -> None:
        self.ctx.scheduler.schedule(table.id, "next", self._auto_next_deal(table, table.version))

    async def next_turn(self, table: Table) -> None:
        """Hand the turn over: an AI seat moves after its pause; a player is pinged once per
        turn and their timer armed."""
        turn = table.current_turn()
        if turn is None:
            return
        seat = table.seat_info(turn)
        scheduler = self.ctx.scheduler
        if seat.ai is not None:
            scheduler.cancel(table.id, "timer")
            scheduler.schedule(table.id, "ai", self._ai_turn(table, table.version))
            return
        marker = list(table.turn_marker or [])
        scheduler.schedule(table.id, "timer", self._turn_timer(table, marker))
        if self._pinged.get(table.id) != marker:
            self._pinged[table.id] = marker
            await self.ctx.listener.turn_started(table)

    def forget(self, table_id: str) -> None:
        self._pinged.pop(table_id, None)

    def nudge(self, table: Table) -> bool:
        """A safety net, run with every lease renewal: an AI seat on turn with no AI task
        pending (its turn's task was lost to a bug or a crash of the task) is set moving
        again, with a warning. Returns whether it had to."""
        turn = table.current_turn()
        if table.status is not TableStatus.PLAYING or turn is None:
            return False
        if table.seat_info(turn).ai is None:
            return False
        if (table.id, "ai") in self.ctx.scheduler.pending(table.id):
            return False
        log.warning("table %s: the AI on turn had no move pending; moving it", table.id)
        self.ctx.scheduler.schedule(table.id, "ai", self._ai_turn(table, table.version))
        return True

    # ---- the tasks -----------------------------------------------------------------------------

    async def _expire(self, table: Table, version: int) -> None:
        await self.ctx.clock.sleep(self.ctx.settings.lobby_timeout)
        if self.lobby_expire is not None:
            await self.lobby_expire(table, version)

    async def _ai_turn(self, table: Table, version: int, delay: float | None = None) -> None:
        """An AI seat's move: it thinks during its pause, not after it, so a slow tier (the
        expert, in its worker) answers after max(pause, thinking) rather than their sum.
        What it saw is the committed table of `version`; if anything changed meanwhile (a
        leave, a timeout), the thought is thrown away, never applied to a newer table."""
        thought = self._start_thinking(table, version)
        try:
            await self.ctx.clock.sleep(self.ctx.settings.ai_delay if delay is None else delay)
            if thought is None or table.version != version:
                return
            if table.status is not TableStatus.PLAYING or table.match is None:
                return
            action = await thought
        finally:
            if thought is not None and not thought.done():
                thought.cancel()
        try:
            async with self.ctx.unit.change(table) as ch:
                if ch.work.version != version:
                    return  # someone else's change came first (a leave, a timeout)
                apply_action(ch.work, action, self.ctx.clock.now())
                ch.event = AiMoved(action)
        except errors.SaveFailed:
            retry = self.ctx.settings.retry_delays[-1] / 6
            log.warning("could not store an AI move at table %s; trying again", table.id)
            self.ctx.scheduler.schedule(table.id, "ai", self._ai_turn(table, version, retry))
        except errors.TableClosed:
            return

    def _start_thinking(self, table: Table, version: int) -> asyncio.Task[Action] | None:
        """Set the AI on turn thinking about the committed table, outside its lock (players'
        clicks are not held up); None when nobody should (not an AI's turn, not playing)."""
        m = table.match
        if table.version != version or table.status is not TableStatus.PLAYING or m is None:
            return None
        turn = table.current_turn()
        tier = None if turn is None else table.seat_info(turn).ai
        if turn is None or tier is None:
            return None
        seen = m.observation(turn)  # taken now: the table may change while it thinks
        task = asyncio.ensure_future(self.think(tier, seen, (table.seed or 0) + version))
        task.add_done_callback(_quiet)
        return task

    async def _turn_timer(self, table: Table, marker: list[int]) -> None:
        if table.deadline is None:
            return
        clock = self.ctx.clock
        wait = table.deadline - clock.now() - WARNING_BEFORE
        if wait > 0:
            await clock.sleep(wait)
            if table.turn_marker == marker:
                try:
                    await self.ctx.listener.turn_warning(table)
                except Exception:
                    log.exception("could not warn the player on turn at table %s", table.id)
        remaining = (table.deadline or 0) - clock.now()
        if remaining > 0:
            await clock.sleep(remaining)
        await self.timeout(table, marker)

    async def timeout(self, table: Table, marker: list[int]) -> None:
        """The player on turn ran out of time: play for them, or drop them after repeats."""
        try:
            async with self.ctx.unit.change(table) as ch:
                work = ch.work
                m = work.match
                if (
                    work.status is not TableStatus.PLAYING
                    or m is None
                    or work.turn_marker != marker
                ):
                    return
                turn = work.current_turn()
                if turn is None or m.deal is None:
                    return
                key = m.players[turn].id
                count = work.timeouts.get(key, 0) + 1
                work.timeouts[key] = count
                # Pure auto-play (`autoplay`): the opening move from what the seat sees now,
                # and, after an automatic draw, the throw chosen from what it sees then.
                obs = m.observation(turn)
                opening = timeout_opening(obs, count)
                if opening is None:
                    actions, then = [timeout_finish(obs, just_drew=False)], None
                else:
                    actions, then = [opening], partial(timeout_finish, just_drew=True)
                mark = m.event_count
                try:
                    m.apply_timeout(turn, actions, count, then)
                except RummyError as exc:
                    raise errors.RuleRefused(exc) from None
                new_turn_if_needed(work, self.ctx.clock.now())
                work.log.extend(m.entries_since(mark))
                ch.event = TimedOut(turn, tuple(actions))
        except errors.SaveFailed:
            log.warning("could not store a timeout at table %s; trying again", table.id)
            self.ctx.scheduler.schedule(table.id, "timer", self._retry_timeout(table, marker))
        except errors.TableClosed:
            return

    async def _retry_timeout(self, table: Table, marker: list[int]) -> None:
        await self.ctx.clock.sleep(self.ctx.settings.retry_delays[-1] / 6)
        await self.timeout(table, marker)

    async def _auto_next_deal(self, table: Table, version: int) -> None:
        await self.ctx.clock.sleep(self.ctx.settings.next_deal_delay)
        try:
            async with self.ctx.unit.change(table) as ch:
                m = ch.work.match
                if (
                    ch.work.version != version
                    or m is None
                    or m.phase is not MatchPhase.BETWEEN_DEALS
                    or ch.work.held  # a paused tournament: its release starts the deal
                ):
                    return
                start_next_deal(ch.work, self.ctx.clock.now())
                ch.event = NextDeal()
        except errors.SaveFailed:
            log.warning("could not start the next deal at table %s; trying again", table.id)
            self.ctx.scheduler.schedule(table.id, "next", self._auto_next_deal(table, version))
        except errors.TableClosed:
            return
