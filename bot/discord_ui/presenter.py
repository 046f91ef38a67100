"""Keeping Discord in step with the tables: the public message, turn pings, results, and the
private hand views people have open.

The table service calls this (as its `TableListener`) after every accepted change; nothing here
changes game state. Edits of the public table are coalesced to at most one per second per
table, so a burst of AI moves or fast clicks costs one edit. Open hand views are refreshed in
place through the interaction that last showed them, while its token is young enough (tokens
die after 15 minutes; after that the player opens a fresh view from the table's button, which
always works).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.match import MatchPhase, ScoreKind
from bot.storage import Storage
from bot.table.advice import AdviceCache
from bot.table.errors import Refusal
from bot.table.messages import remember_messages
from bot.table.model import Table, TableStatus, standings

from . import views
from .render.hand import hand_embed
from .render.lobby import lobby_embed, lobby_expired_note
from .render.results import result_embed, standings_lines
from .render.table import table_embed, turn_ping

if TYPE_CHECKING:
    from .client import PapluBot

log = logging.getLogger(__name__)

EDIT_INTERVAL = 1.0  # seconds between edits of one table's public message
TOKEN_SAFE_AGE = 14 * 60.0  # interaction tokens live 15 minutes; stop using them before that


@dataclass(slots=True)
class OpenHand:
    interaction: discord.Interaction[PapluBot]
    opened: float


class DiscordPresenter:
    """Implements `bot.table.listener.TableListener` for Discord."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        next_deal_delay: float,
        lobby_timeout: float = 30 * 60.0,
    ) -> None:
        self.client = client
        self.storage = storage
        self.next_deal_delay = next_deal_delay
        self.lobby_timeout = lobby_timeout
        self.advice = AdviceCache()
        self.hands: dict[tuple[str, int], OpenHand] = {}
        self._sort_by_suit: set[tuple[str, int]] = set()
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
        turn = table.current_turn()
        if turn is None:
            return
        seat = table.seat_info(turn)
        if seat.user_id is None:
            return
        channel = self._channel(table)
        await self._delete_prompt(table)
        content = turn_ping(f"<@{seat.user_id}>", table.deadline)
        try:
            msg = await channel.send(
                content,
                view=views.prompt_view(table.id, table.version),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException:
            log.warning("could not post the turn prompt for table %s", table.id)
            return
        await remember_messages(self.storage, table, prompt_id=msg.id)

    async def turn_warning(self, table: Table) -> None:
        turn = table.current_turn()
        if turn is None or table.prompt_message_id is None:
            return
        seat = table.seat_info(turn)
        if seat.user_id is None:
            return
        with contextlib.suppress(discord.HTTPException):
            await (
                self._channel(table)
                .get_partial_message(table.prompt_message_id)
                .edit(
                    content=f"⏳ <@{seat.user_id}>, 15 seconds left — then the bot plays for you."
                )
            )

    async def deal_finished(self, table: Table, number: int) -> None:
        m = table.match
        if m is None:
            return
        await self._delete_prompt(table)
        history = m.hand_history(number)
        over = m.phase is MatchPhase.OVER
        winners = [m.players[s].name for s in m.winners]
        word = "chips" if m.score_kind is ScoreKind.NET else "points"
        embed = result_embed(
            history, table.names, standings_lines(standings(m)), over, winners, word
        )
        data = json.dumps(history, indent=2, default=str).encode()
        file = discord.File(io.BytesIO(data), filename=f"deal-{number}-history.json")
        kwargs: dict[str, Any] = {"embed": embed, "file": file}
        if over:
            kwargs["view"] = views.results_view(table.id, table.version, number)
        else:
            kwargs["view"] = views.next_deal_view(table.id, table.version, number)
            kwargs["content"] = (
                "Next deal starts when everyone presses **Next deal** "
                f"(or in {int(self.next_deal_delay)} s)."
            )
        with contextlib.suppress(discord.HTTPException):
            await self._channel(table).send(**kwargs)

    async def table_closed(self, table: Table, reason: str) -> None:
        await self._delete_prompt(table)
        self._dirty[table.id] = True
        await self._flush(table, final=reason)
        self.forget(table.id)

    def forget(self, table_id: str) -> None:
        """Drop every per-table entry of a closed table."""
        for key in [k for k in self.hands if k[0] == table_id]:
            del self.hands[key]
        self._sort_by_suit = {k for k in self._sort_by_suit if k[0] != table_id}
        self._dirty.pop(table_id, None)
        task = self._flushers.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self.advice.forget(table_id)

    # ---- hand views ------------------------------------------------------------------------

    def remember_hand(
        self, table: Table, user_id: int, interaction: discord.Interaction[PapluBot]
    ) -> None:
        self.hands[(table.id, user_id)] = OpenHand(interaction, time.monotonic())

    def set_sort_by_suit(self, table: Table, user_id: int, by_suit: bool) -> None:
        """A player's choice of hand layout (per table, kept while the table is open)."""
        key = (table.id, user_id)
        if by_suit:
            self._sort_by_suit.add(key)
        else:
            self._sort_by_suit.discard(key)

    def hand_payload(
        self, table: Table, user_id: int, note: str | None = None, confirm_drop: bool = False
    ) -> dict[str, Any]:
        """The embed, view and note of one player's private hand view."""
        obs = table.observation_for(user_id)
        advice = self.advice.get(table.id, obs)
        sort = (table.id, user_id) in self._sort_by_suit
        seat = table.seat_by_user(user_id)
        name = seat.name if seat else "you"
        embed = hand_embed(obs, advice, sort, name)
        view = views.hand_view(
            table.id, table.version, obs, advice, sort, confirm_drop=confirm_drop
        )
        return {"content": note or None, "embed": embed, "view": view}

    async def _push_hands(self, table: Table) -> None:
        now = time.monotonic()
        for (table_id, user_id), open_hand in list(self.hands.items()):
            if table_id != table.id:
                continue
            if now - open_hand.opened > TOKEN_SAFE_AGE:
                del self.hands[(table_id, user_id)]
                continue
            try:
                payload = self.hand_payload(table, user_id)
                await open_hand.interaction.edit_original_response(**payload)
            except Refusal:
                del self.hands[(table_id, user_id)]
            except discord.HTTPException:
                # The message was dismissed or the token died: forget it quietly.
                self.hands.pop((table_id, user_id), None)

    # ---- the public message ----------------------------------------------------------------

    async def _flush_loop(self, table: Table) -> None:
        try:
            while self._dirty.get(table.id) and not self._closing:
                await self._flush(table)
                await asyncio.sleep(EDIT_INTERVAL)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("refreshing table %s failed", table.id)

    async def _flush(self, table: Table, final: str | None = None) -> None:
        self._dirty[table.id] = False
        payload = self._public_payload(table, final)
        channel = self._channel(table)
        if table.message_id is not None:
            try:
                await channel.get_partial_message(table.message_id).edit(**payload)
            except discord.NotFound:
                table.message_id = None
            except discord.HTTPException:
                log.warning("could not edit the table message of %s", table.id)
        if table.message_id is None and final is None:
            try:
                msg = await channel.send(**payload)
            except discord.HTTPException:
                log.warning("could not post the table message of %s", table.id)
                return
            await remember_messages(self.storage, table, message_id=msg.id)
        if table.status is TableStatus.PLAYING:
            await self._push_hands(table)

    def _public_payload(self, table: Table, final: str | None) -> dict[str, Any]:
        rules = table.rules
        if table.status is TableStatus.LOBBY or (table.match is None and final is not None):
            embed = lobby_embed(
                rules,
                [(s.name, s.ai is not None) for s in table.seats],
                table.seats[0].name if table.seats else "?",
                table.options.max_seats,
                table.options.turn_timer,
            )
            if final == "cancelled":
                embed.title = "🎴 Indian Rummy — table cancelled"
                return {"embed": embed, "view": views.empty_view()}
            if final == "expired":
                embed.title = "🎴 Indian Rummy — lobby closed"
                embed.set_footer(text=lobby_expired_note(self.lobby_timeout))
                return {"embed": embed, "view": views.empty_view()}
            return {"embed": embed, "view": views.lobby_view(table.id, table.version)}
        view_ = table.public_view()
        note = None
        if final == "cancelled":
            note = "This table was cancelled."
        elif final == "finished":
            note = "Match over. Start another with /rummy new."
        embed = table_embed(view_, rules, table.log, table.deadline, note)
        if final is not None:
            return {"embed": embed, "view": views.empty_view()}
        between = table.match is not None and table.match.phase is MatchPhase.BETWEEN_DEALS
        return {"embed": embed, "view": views.table_view(table.id, table.version, between)}

    async def repost(self, table: Table) -> None:
        """Post the table message again at the bottom of the channel (`/rummy table`)."""
        old = table.message_id
        payload = self._public_payload(table, None)
        msg = await self._channel(table).send(**payload)
        await remember_messages(self.storage, table, message_id=msg.id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._channel(table).get_partial_message(old).delete()

    # ---- helpers ---------------------------------------------------------------------------

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _delete_prompt(self, table: Table) -> None:
        if table.prompt_message_id is None:
            return
        with contextlib.suppress(discord.HTTPException):
            await self._channel(table).get_partial_message(table.prompt_message_id).delete()
        await remember_messages(self.storage, table, prompt_id=None)

    async def shutdown(self) -> None:
        self._closing = True
        for task in self._flushers.values():
            task.cancel()
