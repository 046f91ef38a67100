"""The table's public message: built from public facts only, and kept current cheaply.

Discord's global rate limit (50 requests per second per bot token, interaction endpoints
excepted) binds on the public side, and the table edit is most of it. The edit first goes
through a token that a player's click on the public message lent (`table_hooks`: that click is
acknowledged as a deferred update, which makes the public message its original response),
which the global limit does not count. Only without such a token does it go through the
channel, where it waits for a slot of this process's share (`budget.RestBudget.slot`) and is
built only once it has one, so a table that waited sends everything that happened meanwhile.
An edit that would change nothing a player sees (the same embed, controls and picture) is not
sent at all.

The table picture is drawn from the `PublicView` alone, off the event loop, and uploaded only
when it differs from the one on the message; an edit that keeps it names its attachment (the
one Discord's answer to the upload reported on that message), never leaving `attachments`
out while the embed says attachment://. What is remembered of the message (its picture and
that attachment, what it shows) is keyed by the message's id, so a table posted afresh (below
the results, or in the channel after leaving its thread) starts from "unknown", and a picture
whose attachment no answer named is uploaded again rather than guessed.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from typing import Any, NamedTuple

import discord

from bot.engine.match import MatchPhase
from bot.engine.observation import PublicView
from bot.images import RenderedImage
from bot.table.listener import CloseReason
from bot.table.messages import remember_messages
from bot.table.model import Table
from bot.table.vocabulary import TableStatus
from bot.words import Locale, text
from bot.words.log import log_lines

from . import edits
from .budget import HEADROOM, RestBudget
from .card_images import ImagePreferences, ImageWorker, as_file, show_in
from .edits import Answer
from .interaction import Interaction
from .placement import URGENT, Placement
from .screens.controls import as_seen, empty_view
from .screens.lobby import lobby_embed, lobby_expired_note, lobby_view
from .screens.table import table_embed, table_view
from .table_hooks import TableHooks
from .table_picture import UNKNOWN, TablePictures

log = logging.getLogger(__name__)

#: What a table message shows (its embed, controls and picture): compared, not serialised.
Shows = tuple[Any, ...]


class Shown(enum.Enum):
    """What became of a refresh of the table message."""

    DONE = enum.auto()
    #: Its home refused the new message and moved (a thread it lost): post it again there.
    AGAIN = enum.auto()
    #: Posted in the channel after leaving its thread, a turn on: the player on turn was
    #: pinged in the thread, and must be again here.
    LEFT_THREAD = enum.auto()


class TableMessage:
    def __init__(
        self,
        placement: Placement,
        budget: RestBudget,
        images: ImageWorker,
        prefs: ImagePreferences,
        storage: Any,
        lobby_timeout: float,
    ) -> None:
        self.placement = placement
        self.budget = budget
        self.pictures = TablePictures(images, prefs)
        self.storage = storage
        self.lobby_timeout = lobby_timeout
        # Tokens lent by clicks on the public messages, aged by the clock the hand views use
        # (looked up at each call, so both agree with whatever `time` this module sees).
        self.hooks = TableHooks(clock=lambda: time.monotonic())
        # Per table, by the message it is about: the digest of everything the last edit
        # that landed showed.
        self._sent: dict[str, tuple[int, Shows]] = {}
        # Results posted below a table's message since it was posted: the next deal brings
        # the table back down to the bottom.
        self._buried: set[str] = set()
        self._lanes: dict[str, asyncio.Lock] = {}

    # ---- what the presenter asks -----------------------------------------------------------

    def _lane(self, table_id: str) -> asyncio.Lock:
        """Held while a table's message is edited or posted: one at a time (the flush loop's
        and a closing's, a repost), so each answer says what the message shows after every
        edit before it, and an edit that keeps the picture names what is really on it."""
        lock = self._lanes.get(table_id)
        if lock is None:
            lock = self._lanes[table_id] = asyncio.Lock()
        return lock

    async def show(self, table: Table, final: CloseReason | None = None) -> Shown:
        """Bring the public message up to date (posted afresh at the bottom once a deal's
        results buried it; posted anew when it has no message)."""
        async with self._lane(table.id):
            return await self._show(table, final)

    async def _show(self, table: Table, final: CloseReason | None) -> Shown:
        await self.placement.home(table)
        thread = table.thread_id
        if final is None and await self._bring_down(table):
            pass  # the table was posted afresh at the bottom, as it is now
        elif table.message_id is not None:
            await self._edit(table, final)
        if table.message_id is not None or final is not None:
            return Shown.DONE
        payload, public = self.payload(table, final)
        image = await self.pictures.for_post(table, public)
        await self.budget.slot(HEADROOM, "POST", table.home_id)
        try:
            msg = await self.placement.channel(table).send(
                **_with_image(payload, image, table.options.language)
            )
        except discord.HTTPException as exc:
            log.warning("could not post the table message of %s", table.id)
            return Shown.AGAIN if await self.placement.failed(table, exc) else Shown.DONE
        self.pictures.posted(table, msg, image)
        await remember_messages(self.storage, table, message_id=msg.id)
        if thread is not None and table.thread_id is None and table.current_turn() is not None:
            return Shown.LEFT_THREAD
        return Shown.DONE

    async def post_lobby(self, interaction: Interaction, table: Table) -> None:
        """A new lobby's message: the answer to the `/rummy new` that opened it (so it is
        that interaction's original response, and its id is known at once)."""
        payload, _ = self.payload(table, None)
        response = await interaction.response.send_message(**payload)
        message_id = response.message_id
        if message_id is None:  # pragma: no cover - Discord always reports it
            message_id = (await interaction.original_response()).id
        table.message_id = message_id  # before any await: a quick Join must edit this message
        await remember_messages(self.storage, table, message_id=message_id)

    def bury(self, table_id: str) -> None:
        """A deal's results were posted below the table message."""
        self._buried.add(table_id)

    async def repost(self, table: Table) -> None:
        """Post the table message again at the bottom of the channel (`/rummy table`)."""
        async with self._lane(table.id):
            await self._repost(table)

    async def _repost(self, table: Table) -> None:
        self._buried.discard(table.id)
        version = table.version
        old = table.message_id
        payload, public = self.payload(table, None)
        image = await self.pictures.for_post(table, public)
        channel = await self.placement.home(table)
        await self.budget.slot(URGENT, "POST", table.home_id)
        msg = await channel.send(**_with_image(payload, image, table.options.language))
        self.pictures.posted(table, msg, image)
        # In the channel, the lobby message was the table message: the new one takes over.
        lobby = msg.id if old is not None and table.lobby_message_id == old else None
        await remember_messages(self.storage, table, message_id=msg.id, lobby_id=lobby)
        if table.version == version:
            # What the new message shows, so the next refresh edits only if that changes.
            self._sent[table.id] = (msg.id, (await self._edit_for(table, None)).sent)
        if old is not None:
            await self.budget.slot(HEADROOM, "DELETE", table.home_id)
            with contextlib.suppress(discord.HTTPException):
                await self.placement.channel(table).get_partial_message(old).delete()

    async def for_bystander(self, table: Table, locale: Locale | None = None) -> dict[str, Any]:
        """The public table as a private message for someone not at it, in their language:
        the same embed and picture (public facts only), without the controls."""
        payload, public = self.payload(table, None, locale)
        image = await self.pictures.for_post(table, public)
        out = _with_image({"embed": payload["embed"]}, image, locale)
        out["content"] = text(locale, "table-for-bystander")
        return out

    def lent_token(self, table: Table) -> bool:
        """Is there a token a click on the message lent, to edit it outside the budget?"""
        return self.hooks.pick(table.id, table.message_id) is not None

    def forget(self, table_id: str) -> None:
        self._sent.pop(table_id, None)
        self._lanes.pop(table_id, None)
        self.pictures.forget(table_id)
        self._buried.discard(table_id)
        self.hooks.forget(table_id)

    def payload(
        self, table: Table, final: CloseReason | None, locale: Locale | None = None
    ) -> tuple[dict[str, Any], PublicView | None]:
        """The public message's embed and view, and the `PublicView` it was built from (the
        image is drawn from that same snapshot; None in the lobby). In the table's language,
        unless `locale` asks for another (a bystander's private copy)."""
        rules = table.rules
        language = locale or table.options.language
        if table.status is TableStatus.LOBBY or (table.match is None and final is not None):
            # A lobby its last human left closes: its AI seats are nobody's, not listed.
            empty = final is not None and all(s.ai is not None for s in table.seats)
            seated = [] if empty else table.seats
            embed = lobby_embed(
                rules,
                [(s.name, s.ai is not None) for s in seated],
                table.host_name,
                table.options.max_seats,
                table.options.turn_timer,
                invited=table.options.invited,
                hints=table.options.hints,
                rated=table.options.rated,
                locale=language,
            )
            if final is CloseReason.CANCELLED:
                embed.title = text(language, "lobby-title-cancelled")
                closed = "lobby-footer-everyone-left" if empty else "lobby-footer-cancelled"
                embed.set_footer(text=text(language, closed))
                return {"embed": embed, "view": empty_view()}, None
            if final is CloseReason.EXPIRED:
                embed.title = text(language, "lobby-title-expired")
                embed.set_footer(text=lobby_expired_note(self.lobby_timeout, language))
                return {"embed": embed, "view": empty_view()}, None
            full = len(table.seats) >= table.options.max_seats
            view = lobby_view(table.id, table.version, full, lobby_seats(table), language)
            return {"embed": embed, "view": view}, None
        view_ = table.public_view()
        note = None
        if final is CloseReason.CANCELLED:
            note = text(language, "table-cancelled")
        elif final is CloseReason.FINISHED:
            note = text(language, "table-finished")
        embed = table_embed(
            view_, rules, log_lines(table.log, language), table.deadline, note, language
        )
        if final is not None:
            return {"embed": embed, "view": empty_view()}, view_
        between = table.match is not None and table.match.phase is MatchPhase.BETWEEN_DEALS
        return {"embed": embed, "view": table_view(table.id, table.version, between, language)}, (
            view_
        )

    # ---- the edit ------------------------------------------------------------------------

    def _last_sent(self, table: Table) -> Shows | None:
        found = self._sent.get(table.id)
        return found[1] if found is not None and found[0] == table.message_id else None

    def _landed(
        self,
        table: Table,
        digest: str | None,
        sent: Shows | None,
        answer: Answer | None = None,
        filename: str | None = None,
    ) -> None:
        """An edit of the table message landed (`answer`, Discord's answer to it, whose
        attachment `filename` carries the picture now), or did not (`UNKNOWN`)."""
        assert table.message_id is not None
        if answer is not None and answer.id != table.message_id:
            return  # an edit of a message the table left meanwhile: nothing of the new one
        self.pictures.landed(table, table.message_id, digest, answer, filename)
        if sent is None:
            self._sent.pop(table.id, None)
        else:
            self._sent[table.id] = (table.message_id, sent)

    async def _edit(self, table: Table, final: CloseReason | None) -> None:
        """Edit the public message to the table's newest state, unless it already shows it.

        The edit waits for a slot of the budget first; if the table moved on meanwhile (or
        its message is another one now), the payload is built again, so the one edit carries
        every change and names only the attachments of the message it edits."""
        assert table.message_id is not None
        if await self._edit_through_hook(table, final):
            return
        if self.budget.room(HEADROOM):
            built = await self._edit_for(table, final)
            if built.sent == self._last_sent(table):
                return  # nothing a player would see changed (e.g. a hidden card moved)
            await self.budget.slot(HEADROOM, "PATCH", table.home_id)
            if (table.version, table.message_id) != (built.version, built.message_id):
                built = await self._edit_for(table, final, urgent=True)
        else:
            # Short of budget: the slot comes first and the edit is built once, after it
            # (built before, it would be out of date by then and drawn twice). Its picture
            # is drawn ahead of the hand pictures waiting, so the slot is not held idle.
            await self.budget.slot(HEADROOM, "PATCH", table.home_id)
            if self.lent_token(table):
                # A player lent a token while this edit waited: it goes that way, uncounted.
                self.budget.give_back("PATCH", table.home_id)
                if await self._edit_through_hook(table, final):
                    return
                await self.budget.slot(HEADROOM, "PATCH", table.home_id)
            built = await self._edit_for(table, final, urgent=True)
            if built.sent == self._last_sent(table):
                self.budget.give_back("PATCH", table.home_id)
                return
        if built.message_id is None or table.message_id != built.message_id:
            # The table left its thread while this edit waited for its slot or its picture
            # (a moderator locked the thread, seen by another request): there is no message
            # to edit, and the flush posts the table afresh in the channel.
            return
        await self._send_edit(table, final, built)

    async def _send_edit(self, table: Table, final: CloseReason | None, built: _Edit) -> None:
        """Send a built edit of the table message through the channel."""
        assert built.message_id is not None
        channel = self.placement.channel(table)
        try:
            try:
                answer = await edits.edit_message(channel, built.message_id, **built.kwargs)
            except discord.HTTPException as exc:
                # An archived thread refuses edits: unarchived, the edit goes again; a
                # thread that cannot be had any more moves the table to the channel.
                if exc.status == 404 or not await self.placement.failed(table, exc):
                    raise
                if table.message_id is None:
                    return  # moved: the flush posts the table in the channel
                await self.budget.slot(HEADROOM, "PATCH", table.home_id)
                channel = self.placement.channel(table)
                answer = await edits.edit_message(channel, built.message_id, **built.kwargs)
        except discord.NotFound:
            table.message_id = None
        except discord.HTTPException:
            if table.message_id is not None:  # else moved meanwhile: nothing of it is known
                self._landed(table, UNKNOWN, None)
            log.warning("could not edit the table message of %s", table.id)
            if final is not None:
                # A closed table's last edit has no next change to carry it: the caller
                # (the table layer's retry, for a finished match) makes it again.
                raise
        else:
            self._landed(table, built.digest, built.sent, answer, built.filename)

    async def _edit_through_hook(self, table: Table, final: CloseReason | None) -> bool:
        """Edit the public message through a token that a click on it lent (`table_hooks`:
        outside the global limit, so no budget slot). False when there is no such token or
        it failed: the caller then edits through the channel, as without one."""
        if not self.lent_token(table):
            return False
        built = await self._edit_for(table, final)
        if built.sent == self._last_sent(table):
            return True  # nothing a player would see changed
        if table.message_id != built.message_id:
            return False  # posted anew while the picture was drawn: the channel's edit
        hook = self.hooks.pick(table.id, table.message_id)  # again: the picture took a while
        if hook is None:
            return False
        self.hooks.used(hook.interaction)
        try:
            answer = await edits.edit_original(hook.interaction, **built.kwargs)
        except discord.HTTPException as exc:
            self.hooks.drop(table.id, hook)
            # Whether the edit landed is unknown: the channel's edit uploads the picture.
            self._landed(table, UNKNOWN, None)
            log.info(
                "table %s: a lent token failed (%s); edited through the channel",
                table.id,
                exc.status,
            )
            return False
        self.hooks.edits += 1
        self._landed(table, built.digest, built.sent, answer, built.filename)
        return True

    async def _edit_for(
        self, table: Table, final: CloseReason | None, *, urgent: bool = False
    ) -> _Edit:
        """The edit of the public message for the table as it is now (`_Edit`). A picture
        the message keeps is named by its attachment; one it shows no more is removed."""
        version, message_id = table.version, table.message_id
        payload, public = self.payload(table, final)
        edit = dict(payload)
        on_message = self.pictures.on_message(table)
        shown = await self.pictures.shown(table, public, on_message, urgent=urgent)
        if table.message_id != message_id or self.pictures.on_message(table) != on_message:
            # Posted anew, or another edit landed, while the picture was drawn: what the
            # message keeps is another attachment now.
            return await self._edit_for(table, final, urgent=urgent)
        digest = filename = None
        if shown is not None:
            digest, filename, image = shown
            show_in(edit["embed"], filename)
            if digest == on_message:
                # The picture stays: named, so that the edit says what the message keeps.
                edit["attachments"] = self.pictures.kept(table, message_id)
            elif image is not None:
                edit["attachments"] = [
                    as_file(image, text(table.options.language, "table-picture"))
                ]
        elif on_message is not None:
            edit["attachments"] = []
        # The table version inside the buttons' ids is not something a player sees, and the
        # public buttons ("Your hand", "Next deal") work whatever version they carry.
        sent = (edit["embed"].to_dict(), as_seen(edit["view"]), digest)
        return _Edit(version, message_id, edit, digest, sent, filename)

    async def _bring_down(self, table: Table) -> bool:
        """Keep the table in view: once a deal's results have pushed the table message up,
        the next deal's first refresh posts it again at the bottom (and deletes the old one)
        instead of editing a message players must scroll to. Once per deal: a post and a
        delete instead of an edit. Returns whether it did."""
        if table.id not in self._buried or table.message_id is None:
            return False
        if table.status is not TableStatus.PLAYING or table.between_deals:
            return False
        self._buried.discard(table.id)
        try:
            await self._repost(table)
        except discord.HTTPException:
            log.warning("could not bring the table of %s down; editing it in place", table.id)
            return False
        return True


class _Edit(NamedTuple):
    """An edit of the table message, built for the table as it was."""

    version: int  # the table version it was built from
    message_id: int | None  # the message it edits (its attachments are that message's)
    kwargs: dict[str, Any]  # the edit's arguments
    digest: str | None  # the digest of its picture (None: no picture)
    sent: Shows  # everything it shows: embed, controls and picture
    filename: str | None  # the picture's file name (None: no picture)


def lobby_seats(table: Table) -> list[tuple[str, str, bool, bool]]:
    """The seats as the lobby's host tools list them: (key, name, is AI, is the host)."""
    return [(s.key, s.name, s.ai is not None, s.user_id == table.host_id) for s in table.seats]


def _with_image(
    payload: dict[str, Any], image: RenderedImage | None, locale: Locale | None
) -> dict[str, Any]:
    """A new public message's arguments: the image (if any) as its file."""
    if image is None:
        return payload
    show_in(payload["embed"], image.filename)
    return {**payload, "file": as_file(image, text(locale, "table-picture"))}
