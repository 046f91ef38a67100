"""Keeping Discord in step with the tables: the table layer's listener, and nothing more.

The table service calls this (as its `TableListener`) after every accepted change; nothing here
changes game state. The work is done by the parts below it, each with one job, calls going one
way (down this list):

* `announcements.Announcements`: the turn's ping and warning, each deal's results;
* `hands.HandViews`: every player's private hand view (built, shown, refreshed);
* `table_message.TableMessage`: the public table message and its picture;
* `placement.Placement`: where the table's messages live (its thread or the channel) and the
  lobby message.

What is left here is timing: edits of the public table are coalesced to at most one per
`EDIT_INTERVAL` per table (stretched when this process runs short of its request budget), so a
burst of AI moves or fast clicks costs one edit; each refresh also retires results whose vote
is over and refreshes the open hand views.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.storage import Storage
from bot.table.advice import AdviceCache
from bot.table.listener import CloseReason
from bot.table.model import Table
from bot.table.vocabulary import TableStatus

from .announcements import Announcements
from .budget import RestBudget
from .card_images import ImagePreferences, ImageWorker
from .hands import HandViews
from .placement import Placement
from .table_message import Shown, TableMessage
from .tournament_board import TournamentBoard

if TYPE_CHECKING:
    from .client import PapluBot

log = logging.getLogger(__name__)

EDIT_INTERVAL = 1.0  # seconds between edits of one table's public message


class DiscordPresenter:
    """Implements `bot.table.listener.TableListener` for Discord."""

    def __init__(
        self,
        client: PapluBot | discord.Client,
        storage: Storage,
        next_deal_delay: float,
        lobby_timeout: float = 30 * 60.0,
        budget: RestBudget | None = None,
    ) -> None:
        self.budget = budget or RestBudget()
        self.images = ImageWorker()
        self.prefs = ImagePreferences(storage)
        self.placement = Placement(client, storage, self.budget)
        self.table_message = TableMessage(
            self.placement, self.budget, self.images, self.prefs, storage, lobby_timeout
        )
        self.hands = HandViews(self.images, self.prefs, AdviceCache(), self.table_message)
        self.announcements = Announcements(
            client,
            storage,
            self.budget,
            self.placement,
            self.table_message,
            self.hands,
            self.images,
            self.prefs,
            next_deal_delay,
        )
        #: The tournament side (`TournamentListener`), and the starts of its tables' threads.
        self.tournaments = TournamentBoard(client, self.budget, self.images)
        self.placement.tournaments = self.tournaments
        self._dirty: dict[str, bool] = {}
        self._flushers: dict[str, asyncio.Task[None]] = {}
        self._closing = False

    # ---- what the table service calls ------------------------------------------------------

    async def table_changed(self, table: Table) -> None:
        self._dirty[table.id] = True
        task = self._flushers.get(table.id)
        if (task is None or task.done()) and not self._closing:
            self._flushers[table.id] = asyncio.create_task(self._flush_loop(table))

    async def turn_started(self, table: Table) -> None:
        await self.announcements.turn_started(table)

    async def turn_warning(self, table: Table) -> None:
        await self.announcements.turn_warning(table)

    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None:
        await self.announcements.deal_finished(table, number, again=again)

    async def table_closed(self, table: Table, reason: CloseReason, *, again: bool = False) -> None:
        """Show the table closed (an edit of its message: repeating it shows nothing twice,
        so ``again`` needs no look-up)."""
        await self.announcements.delete_prompt(table)
        self._dirty[table.id] = True
        await self.flush(table, final=reason)
        await self.placement.show_lobby(table, reason)
        self.forget(table.id)

    async def thread_closed(self, table: Table, thread_id: int) -> None:
        """A moderator locked and archived, or deleted, a table's thread: the table moves to
        its channel now, with its line, its table message and a ping for the player on turn."""
        if not await self.placement.left_thread(table, thread_id):
            return
        await self.table_changed(table)  # the table message, posted again in the channel
        if table.status is TableStatus.PLAYING and table.current_turn() is not None:
            await self.announcements.turn_started(table)

    def forget(self, table_id: str) -> None:
        """Drop every per-table entry of a closed table."""
        self._dirty.pop(table_id, None)
        for part in (self.announcements, self.hands, self.table_message, self.placement):
            part.forget(table_id)
        task = self._flushers.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def shutdown(self) -> None:
        self._closing = True
        for task in self._flushers.values():
            task.cancel()
        await self.tournaments.shutdown()
        self.images.shutdown()

    # ---- the refresh -----------------------------------------------------------------------

    async def _flush_loop(self, table: Table) -> None:
        try:
            while self._dirty.get(table.id) and not self._closing:
                await self.flush(table)
                # A table changed again within the interval is busy: under pressure it waits
                # a few intervals, and its next edit carries everything since this one;
                # unless a lent token can carry that edit (not counted against the budget).
                lent = self.table_message.lent_token(table)
                await asyncio.sleep(EDIT_INTERVAL * (1 if lent else self.budget.stretch()))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("refreshing table %s failed", table.id)

    async def flush(self, table: Table, final: CloseReason | None = None) -> None:
        """One refresh: results whose vote is over lose their button, a warning of a past
        turn goes, the table message shows the table as it is, and so do the open hands."""
        self._dirty[table.id] = False
        await self.announcements.retire_results(table, final)
        await self.announcements.delete_warning(table, unless_turn=list(table.turn_marker or []))
        shown = await self.table_message.show(table, final)
        if shown is Shown.AGAIN:
            self._dirty[table.id] = True  # the flush loop posts it in its new home
        elif shown is Shown.LEFT_THREAD:
            await self.announcements.turn_started(table)
        if table.status is TableStatus.PLAYING:
            await self.hands.refresh_all(table)
