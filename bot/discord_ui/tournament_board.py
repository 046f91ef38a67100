"""The tournament side of the presenter: the table layer's `TournamentListener` for Discord.

It keeps two messages current, each edited at most once per `EDIT_INTERVAL` (stretched when
the process runs short of its request budget, like a table's message): the registration message
(the answer to `/rummy tournament create`) and the running round's message. It posts the notes
the outbox says are due: a round's message (the commitment comes first, in the same message as
the seating it commits to, before any table's thread is opened), a round's end (an edit of
that message: who went through, the salt revealed), the final standings with their picture,
a cancellation, the stall, and a private word to everyone left out. Posted once across a crash:
with ``again`` it first looks for its message (by the id it kept, else in the channel's recent
messages, by the footer) before posting.

For the tables of a round it gives the placement the message a table's thread is opened from
(`starter`) and the thread's first message, which pings its players there (`welcome`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.images.standings import standings_picture
from bot.storage.tournaments import TournamentNoteKind
from bot.table.model import Table
from bot.table.tournament_model import Tournament
from bot.words import tournament as words

from .budget import HEADROOM, RestBudget
from .card_images import ImageWorker, as_file
from .interaction import Interaction
from .placement import URGENT
from .screens import tournament as screen

if TYPE_CHECKING:
    from .client import PapluBot

log = logging.getLogger(__name__)

EDIT_INTERVAL = 1.0
#: Messages of the channel looked through for a round's message a stopped run posted.
LOOKBACK = 30
_PINGS = discord.AllowedMentions(users=True, roles=False, everyone=False)


def _digest(kwargs: dict[str, Any]) -> str:
    """What an edit would show: its embed and its controls' ids and labels."""
    embed = kwargs.get("embed")
    view = kwargs.get("view")
    shown: list[Any] = [embed.to_dict() if isinstance(embed, discord.Embed) else None]
    if isinstance(view, discord.ui.View):
        shown.append([item.to_component_dict() for item in view.children])
    return hashlib.sha256(json.dumps(shown, sort_keys=True, default=str).encode()).hexdigest()


class TournamentBoard:
    """Implements `bot.table.tournament_effects.TournamentListener` for Discord."""

    def __init__(
        self, client: PapluBot | discord.Client, budget: RestBudget, images: ImageWorker
    ) -> None:
        self.client = client
        self.budget = budget
        self.images = images
        self._dirty: dict[str, Tournament] = {}
        #: The thread each table of a round plays in (the round message links them, also
        #: once a table has closed and left the registry).
        self._threads: dict[str, int] = {}
        #: What each message was last edited to show (a digest): an unchanged one is not
        #: edited again, so a round of busy tables costs edits only when standings move.
        self._shown: dict[int, str] = {}
        self._flushers: dict[str, asyncio.Task[None]] = {}
        #: One note at a time per tournament: a round's "done" note (which edits the round's
        #: message, or posts it if there is none) must not run while its "seated" note is
        #: still posting that message, or the round would be posted twice.
        self._noting: dict[str, asyncio.Lock] = {}
        self._closing = False

    # ---- what the table layer calls -------------------------------------------------------

    async def tournament_changed(self, tournament: Tournament) -> None:
        self._mark(tournament)

    async def round_table_changed(self, tournament: Tournament, table: Table) -> None:
        if table.thread_id is not None:
            self._threads[table.id] = table.thread_id
        self._mark(tournament)

    async def tournament_note(
        self,
        tournament: Tournament,
        kind: TournamentNoteKind,
        round_no: int,
        payload: dict[str, Any],
        *,
        again: bool = False,
    ) -> None:
        """Post one note of the outbox (see the module docstring), by its kind."""
        post = {
            "round_seated": self._note_seated,
            "round_done": self._note_done,
            "finished": self._note_finished,
            "cancelled": self._note_cancelled,
            "stalled": self._note_stalled,
            "left_out": self._note_left_out,
        }[kind]
        async with self._noting.setdefault(tournament.id, asyncio.Lock()):
            await post(tournament, round_no, payload, again)
        self._mark(tournament)

    async def _note_seated(self, t: Tournament, number: int, _: Any, again: bool) -> None:
        await self._post_round(t, number, again)

    async def _note_done(self, t: Tournament, number: int, _: Any, again: bool) -> None:
        await self._show_round(t, number, required=True)

    async def _note_finished(self, t: Tournament, _n: int, _: Any, again: bool) -> None:
        await self._post_final(t, again)
        self.forget(t)

    async def _note_cancelled(
        self, t: Tournament, _n: int, payload: dict[str, Any], again: bool
    ) -> None:
        said = words.cancelled_text(t, str(payload.get("reason", "")), t.options.language)
        await self._say(t, said, "cancelled", again)

    async def _note_stalled(
        self, t: Tournament, _n: int, payload: dict[str, Any], again: bool
    ) -> None:
        count, minimum = int(payload.get("count", 0)), int(payload.get("minimum", 2))
        said = words.stalled_text(t, count, minimum, t.options.language)
        await self._say(t, said, None, again)

    async def _note_left_out(
        self, t: Tournament, _n: int, payload: dict[str, Any], _again: bool
    ) -> None:
        await self._left_out(t, [int(u) for u in payload.get("users", [])])

    async def post_register(self, interaction: Interaction, t: Tournament) -> None:
        """The registration message: the public answer to `/rummy tournament create`."""
        language = t.options.language
        view = screen.register_view(t, language) or discord.ui.View(timeout=None)
        response = await interaction.response.send_message(
            embed=screen.register_embed(t, language), view=view
        )
        message_id = response.message_id
        if message_id is None:  # pragma: no cover - Discord always reports it
            message_id = (await interaction.original_response()).id
        await self._remember(t, "register", message_id)

    # ---- the registration and round messages, kept current -------------------------------

    def _mark(self, t: Tournament) -> None:
        self._dirty[t.id] = t
        task = self._flushers.get(t.id)
        if (task is None or task.done()) and not self._closing:
            self._flushers[t.id] = asyncio.create_task(self._flush_loop(t.id))

    async def _flush_loop(self, tournament_id: str) -> None:
        try:
            while not self._closing:
                t = self._dirty.pop(tournament_id, None)
                if t is None:
                    return
                await self.flush(t)
                await asyncio.sleep(EDIT_INTERVAL * self.budget.stretch())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("refreshing tournament %s failed", tournament_id)

    async def flush(self, t: Tournament) -> None:
        """Edit the registration message and the round's message to show `t` as it is."""
        language = t.options.language
        register = t.messages.get("register")
        if register is not None:
            view = screen.register_view(t, language) or discord.ui.View(timeout=None)
            await self._edit(t, register, embed=screen.register_embed(t, language), view=view)
        r = t.current
        if r is not None and f"round-{r.number}" in t.messages:
            await self._show_round(t, r.number, required=False)

    async def _edit(self, t: Tournament, message_id: int, **kwargs: Any) -> bool:
        digest = _digest(kwargs)
        if self._shown.get(message_id) == digest:
            return True
        await self.budget.slot(HEADROOM, "PATCH", t.channel_id)
        try:
            await self._channel(t).get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as exc:
            log.warning("could not edit a message of tournament %s: %s", t.id, exc)
            return False
        self._shown[message_id] = digest
        return True

    def _channel(self, t: Tournament) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(t.channel_id, guild_id=t.guild_id)

    def _tables(self, t: Tournament) -> dict[str, Table]:
        service = getattr(self.client, "tables", None)
        return {} if service is None else service.tournaments.live_tables(t)

    # ---- notes ------------------------------------------------------------------------------

    async def _post_round(self, t: Tournament, number: int, again: bool) -> None:
        key = f"round-{number}"
        if again and (key in t.messages or await self._find(t, key, number)):
            await self._show_round(t, number, required=False)
            return
        r = t.rounds[number - 1]
        embed = screen.round_embed(t, r, self._tables(t), t.options.language, self._threads)
        message = await self._send(t, embed=embed)
        await self._remember(t, key, message.id)

    async def _show_round(self, t: Tournament, number: int, *, required: bool) -> None:
        key = f"round-{number}"
        if key not in t.messages and not await self._find(t, key, number):
            if required:
                await self._post_round(t, number, again=False)
            return
        r = t.rounds[number - 1]
        embed = screen.round_embed(t, r, self._tables(t), t.options.language, self._threads)
        if not await self._edit(t, t.messages[key], embed=embed) and required:
            raise RuntimeError(f"round {number} of tournament {t.id} could not be shown")

    async def _find(self, t: Tournament, key: str, number: int) -> bool:
        """A round's message a stopped run posted (its footer names the round)."""
        mark = screen.round_key(t, number, t.options.language)
        me = self.client.user
        try:
            async for msg in self._channel(t).history(limit=LOOKBACK):
                if me is not None and msg.author.id != me.id:
                    continue
                if any((e.footer.text or "") == mark for e in msg.embeds):
                    await self._remember(t, key, msg.id)
                    return True
        except discord.HTTPException:
            log.warning("could not look through the channel of tournament %s", t.id)
        return False

    async def _post_final(self, t: Tournament, again: bool) -> None:
        if again and "final" in t.messages:
            return
        language = t.options.language
        title, heading = screen.picture_words(t, language)
        picture = standings_picture(title, heading, screen.picture_rows(t), f"standings-{t.id}")
        image = await self.images.run(picture)
        embed = screen.final_embed(t, language, image.filename)
        file = as_file(image, screen.picture_alt(language))
        message = await self._send(t, embed=embed, files=[file])
        await self._remember(t, "final", message.id)

    async def _say(self, t: Tournament, line: str, key: str | None, again: bool) -> None:
        if again and key is not None and key in t.messages:
            return
        message = await self._send(t, content=line[:2000])
        if key is not None:
            await self._remember(t, key, message.id)

    async def _left_out(self, t: Tournament, users: list[int]) -> None:
        """A private word to each player who registered but did not check in (a DM; one who
        does not take DMs from the server is skipped: the registration message says it too)."""
        said = words.left_out_text(t, t.options.language)
        for user_id in users:
            await self.budget.slot(URGENT, "POST", 0)
            try:
                user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
                await user.send(said)
            except discord.HTTPException as exc:
                log.info("could not tell user %s they were left out: %s", user_id, exc)

    async def _send(self, t: Tournament, **kwargs: Any) -> discord.Message:
        await self.budget.slot(URGENT, "POST", t.channel_id)
        return await self._channel(t).send(**kwargs)

    async def _remember(self, t: Tournament, key: str, message_id: int) -> None:
        service = getattr(self.client, "tables", None)
        if service is None:
            t.messages[key] = message_id
            return
        await service.tournaments.remember_message(t, key, message_id)

    # ---- a round's tables ------------------------------------------------------------------

    def _of(self, table: Table) -> Tournament | None:
        seat = table.tournament
        service = getattr(self.client, "tables", None)
        if seat is None or service is None:
            return None
        found: Tournament | None = service.tournaments.registry.by_id.get(seat.tournament_id)
        return found

    async def starter(self, table: Table) -> tuple[int, str] | None:
        """Post the message a tournament table's thread opens from; (its id, the thread's
        name), or None for a table of no tournament held here."""
        t = self._of(table)
        if t is None or table.tournament is None:
            return None
        language = t.options.language
        await self.budget.slot(URGENT, "POST", table.channel_id)
        message = await self._channel(t).send(screen.starter_text(t, table.tournament, language))
        return message.id, screen.thread_title(t, table.tournament, language)

    async def welcome(self, table: Table, thread: discord.PartialMessageable) -> None:
        """The thread's first message: its players pinged there (it adds them to it)."""
        t = self._of(table)
        if t is None or table.tournament is None:
            return
        self._threads[table.id] = thread.id
        self._mark(t)  # the round message links the thread
        line = screen.ping_text(t, table.tournament, t.options.language)
        if line is None:
            return
        await self.budget.slot(URGENT, "POST", thread.id)
        with contextlib.suppress(discord.HTTPException):
            await thread.send(line, allowed_mentions=_PINGS)

    def forget(self, t: Tournament) -> None:
        """A tournament that ended: drop what was kept of its messages and tables."""
        for message_id in t.messages.values():
            self._shown.pop(message_id, None)
        for table_id in t.table_ids():
            self._threads.pop(table_id, None)

    async def shutdown(self) -> None:
        self._closing = True
        for task in self._flushers.values():
            task.cancel()
