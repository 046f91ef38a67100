"""Keeping Discord in step with the tables: the public message, turn pings, results, and the
private hand views people have open.

The table service calls this (as its `TableListener`) after every accepted change; nothing here
changes game state. Edits of the public table are coalesced to at most one per second per
table, so a burst of AI moves or fast clicks costs one edit. Open hand views are refreshed in
place through the interaction that last showed them, while its token is young enough (tokens
die after 15 minutes; after that the player opens a fresh view from the table's button, which
always works).

Discord's global rate limit (50 requests per second per bot token, interaction endpoints
excepted) binds on the public side: table edits, turn pings and their deletion, results. The
table edit, most of it, first goes through a token that a player's click on the public message
lent (`table_hooks`: that click is acknowledged as a deferred update, which makes the public
message its original response, and the hand view follows as an ephemeral follow-up), which
the global limit does not count. Only without such a token (none young enough, or each used
to its own bucket's share) does it go through the channel. There, like the pings and results,
it waits for a slot of this process's share (`budget.RestBudget.slot`) and is built
only once it has one, so a table that waited sends everything that happened meanwhile; an
edit that would change nothing a player sees (the same embed, controls and picture) is not
sent at all. When the share runs short, busy tables' refreshes stretch (every 2 s, 3 s...)
and a player who is watching their own hand view (it refreshes through the interaction
webhook, which is not counted) gets no separate turn ping; clicks are answered as before.

Card images (`card_images`) ride along: the hand view shows its owner's hand image, the public
message the table image drawn from the `PublicView` alone, the results message the reveal. Text
stays in every embed. An image is drawn off the event loop, and uploaded only when it differs
from the one the message already shows: the public table remembers the digest of its image, an
open hand the layout its image was drawn from, and an edit that leaves `attachments` out keeps
the message's files (Discord's rule), so an unchanged picture costs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import re
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.engine.events import Declared, Discarded, Event, TimedOut, WrongShow, actor
from bot.engine.match import FinishedDeal, MatchPhase
from bot.engine.observation import Observation, PublicView
from bot.images import RenderedImage, hand_picture, results_picture, table_picture
from bot.storage import Storage, StorageError
from bot.table.advice import AdviceCache
from bot.table.autoplay import MAX_TIMEOUTS
from bot.table.errors import Refusal
from bot.table.messages import remember_messages
from bot.table.model import HintLevel, Table, standings
from bot.table.vocabulary import TableStatus
from bot.words import Locale, text
from bot.words.log import log_lines
from bot.words.pictures import captions

from . import views
from .budget import HEADROOM, RestBudget
from .card_images import ImagePreferences, ImageWorker, as_file, show_in
from .locales import user_locale
from .render.hand import hand_embed, timed_out_text
from .render.lobby import lobby_embed, lobby_expired_note
from .render.place import PERMISSION_NAMES, fallback_line, placed_embed, thread_name
from .render.results import next_deal_started, result_embed, results_key, standings_lines
from .render.table import replaced_view_text, table_embed, turn_ping, turn_warning_text
from .table_hooks import TableHooks

if TYPE_CHECKING:
    from .client import PapluBot

log = logging.getLogger(__name__)

VERSION_IN_ID = re.compile(r'("r[ms]:[0-9a-z]+:)\d+:')  # the version field of a custom id

EDIT_INTERVAL = 1.0  # seconds between edits of one table's public message
#: How many recent channel messages are searched for results posted before a restart.
RESULTS_LOOKBACK = 50


def results_title(language: str) -> re.Pattern[str]:
    """A results message's embed title in the table's language, its deal number captured."""
    shown = re.escape(text(language, "results-title", deal="\x00"))
    return re.compile(shown.replace("\x00", r"(\d+)"))


TOKEN_SAFE_AGE = 14 * 60.0  # interaction tokens live 15 minutes; stop using them before that
WATCHING = 60.0  # a player who used their live hand view this recently is at the table
URGENT = 0.85  # the part of the share pings, deletions and results may use (edits: less)
UNKNOWN = "?"  # the table message may show any image (after a restart or a failed edit)
#: A table's thread archives after this many minutes without a message (Discord's choices:
#: 60, 1440, 4320, 10080); a turn ping is a message, so only a table left alone that long.
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
ARCHIVED = 50083  # Discord: the operation cannot be performed on an archived thread
ALREADY_THREADED = 160004  # Discord: a thread has already been created for this message
#: Discord's codes for "this thread is no more for you": unknown channel, missing access,
#: missing permissions (a locked thread, a moderator's change).
THREAD_GONE = (10003, 50001, 50013)


@dataclass(frozen=True, slots=True)
class ShownImage:
    """The hand image a message shows: what it was drawn from, and its attachment name."""

    key: Hashable
    filename: str


@dataclass(slots=True)
class OpenHand:
    interaction: discord.Interaction[PapluBot]
    opened: float
    message_id: int | None = None  # the hand view's message
    shown: ShownImage | None = None  # the image on that message (None: none, or unsure)
    version: int | None = None  # the table version that message shows (None: unsure)
    # The table version an edit under way will show (None: no edit under way). A refresh of
    # that same version would only repeat it: a second request and a second drawing of the
    # picture (while an edit is in flight, `shown` is unsure, so it would upload again).
    sending: int | None = None
    # What that message shows, as `HandMessage.visible` (None: unsure): a refresh that would
    # show the same is not sent.
    seen: str | None = None
    # The view is a follow-up of `interaction` (opened from the table's public message, whose
    # token the table borrows: `table_hooks`), not its original response.
    followup: bool = False

    async def edit(self, **kwargs: Any) -> None:
        """Edit the hand view through its token. A view opened from the table's message is
        that interaction's ephemeral follow-up, and the interaction's original response is
        the public table: editing "the original" there would show a hand to everyone."""
        if self.followup:
            if self.message_id is None:
                raise LookupError("a follow-up hand view without its message id")
            await self.interaction.followup.edit_message(self.message_id, **kwargs)
        else:
            await self.interaction.edit_original_response(**kwargs)


@dataclass(slots=True)
class HandMessage:
    """One player's private view, ready to send or to edit in.

    `upload` is the image to attach now; `shown` the image the message shows once this lands
    (the same one, or an unchanged earlier one kept by leaving `attachments` out)."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View
    upload: RenderedImage | None = None
    shown: ShownImage | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    version: int | None = None  # the table version it was drawn from
    locale: Locale | None = None  # the reader's language (the picture's alt text)
    _visible: str | None = None  # `visible()`, worked out once

    def visible(self) -> str:
        """A digest of everything the player sees in this view: text, embed, controls (the
        table version inside their ids aside: the buttons of a waiting view mean the same
        whatever version they carry, and a move's button is checked against the table) and
        the picture."""
        if self._visible is None:
            controls = VERSION_IN_ID.sub(r"\1*:", json.dumps(self.view.to_components()))
            picture = None if self.shown is None else self.shown.filename
            shown = [self.content, self.embed.to_dict(), controls, picture]
            digest = hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()
            self._visible = digest
        return self._visible

    def send_kwargs(self) -> dict[str, Any]:
        """For a new message (a follow-up): the image, if any, as its file."""
        out: dict[str, Any] = {"embed": self.embed, "view": self.view}
        if self.content is not None:
            out["content"] = self.content
        if self.upload is not None:
            out["file"] = as_file(self.upload, text(self.locale, "hand-picture"))
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        """For an edit: a new image replaces the old; text only removes it; an unchanged
        image is kept by not naming attachments at all."""
        out: dict[str, Any] = {"content": self.content, "embed": self.embed, "view": self.view}
        if self.upload is not None:
            out["attachments"] = [as_file(self.upload, text(self.locale, "hand-picture"))]
        elif self.shown is None:
            out["attachments"] = []
        return out


class DiscordPresenter:
    """Implements `bot.table.listener.TableListener` for Discord."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        next_deal_delay: float,
        lobby_timeout: float = 30 * 60.0,
        budget: RestBudget | None = None,
    ) -> None:
        self.client = client
        self.budget = budget or RestBudget()
        self.storage = storage
        self.next_deal_delay = next_deal_delay
        self.lobby_timeout = lobby_timeout
        self.advice = AdviceCache()
        self.images = ImageWorker()
        self.prefs = ImagePreferences(storage)
        self._table_images: dict[str, str | None] = {}  # digest of the image on the message
        self._table_sent: dict[str, str] = {}  # digest of the last edit that landed
        # The last table picture drawn per table: its scene's hash, its digest, its file name.
        self._table_drawn: dict[str, tuple[int, str | None, str]] = {}
        self.hands: dict[tuple[str, int], OpenHand] = {}
        # Tokens lent by clicks on the public messages, aged by the clock the hand views use
        # (looked up at each call, so both agree with whatever `time` this module sees).
        self.hooks = TableHooks(clock=lambda: time.monotonic())
        self._sort_by_suit: set[tuple[str, int]] = set()
        self._dirty: dict[str, bool] = {}
        self._flushers: dict[str, asyncio.Task[None]] = {}
        self._warnings: dict[str, tuple[int, list[int]]] = {}  # table -> (message, turn)
        # Results messages with a live "Next deal" button, by table: message id -> deal.
        self._results: dict[str, dict[int, int]] = {}
        # Results posted below a table's message since it was posted: the next deal brings
        # the table back down to the bottom (`_bring_down`).
        self._buried: set[str] = set()
        # Tables whose results messages this process knows: it posted them, or looked for
        # them in the channel once (a table it restored or took over).
        self._seen: set[str] = set()
        self._placing: dict[str, asyncio.Lock] = {}  # a table being given its thread
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
        # The player's open hand view shows the controls before the ping can send them there.
        await self._push_hand(table, seat.user_id)
        await self._home(table)
        await self._delete_prompt(table)
        if self._watching(table, seat.user_id) and self.budget.stretch() > 1:
            # Short of budget: their own view (refreshed above, through the interaction
            # webhook) already says "Your turn"; the 15-second warning, with no ping to edit,
            # is then this turn's one mention.
            return
        language = table.options.language
        content = turn_ping(f"<@{seat.user_id}>", table.deadline, language)
        try:
            msg = await self._send(
                table,
                content=content,
                view=views.prompt_view(table.id, table.version, language),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException:
            log.warning("could not post the turn prompt for table %s", table.id)
            return
        await remember_messages(self.storage, table, prompt_id=msg.id)

    async def turn_warning(self, table: Table) -> None:
        """Fifteen seconds left, said on the turn's ping: that message is edited in place.

        A player wants one notification per turn, not two: the ping already sent them to the
        table, and a second message mentioning them would be a second unread mention for the
        same turn. Discord notifies the mentions of a new message, never of an edit, so the
        edited ping still counts once, and whoever opens the channel (or the notification)
        reads the newest word there: time is short. It also costs one request where a new
        message and its later deletion cost two. When the turn has no ping to edit (skipped
        while the player watched their own view with the budget short, or deleted), the
        warning is posted with the mention: it is then the turn's only one."""
        turn = table.current_turn()
        if turn is None:
            return
        seat = table.seat_info(turn)
        if seat.user_id is None:
            return
        warning = turn_warning_text(f"<@{seat.user_id}>", table.options.language)
        mention = discord.AllowedMentions(users=True)  # keeps the ping's mention on the edit
        channel = await self._home(table)
        if table.prompt_message_id is not None:
            await self.budget.slot(URGENT, "PATCH", table.home_id)
            try:
                await channel.get_partial_message(table.prompt_message_id).edit(
                    content=warning, allowed_mentions=mention
                )
                return
            except discord.NotFound:
                await remember_messages(self.storage, table, prompt_id=None)
            except discord.HTTPException:
                log.warning("could not edit the turn prompt of table %s", table.id)
                return  # the ping stands: a new mention would be a second one
        await self._delete_warning(table)
        try:
            msg = await self._send(table, content=warning, allowed_mentions=mention)
        except discord.HTTPException:
            log.warning("could not post the turn warning for table %s", table.id)
            return
        self._warnings[table.id] = (msg.id, list(table.turn_marker or []))

    async def _delete_warning(self, table: Table, *, unless_turn: list[int] | None = None) -> None:
        warning = self._warnings.get(table.id)
        if warning is None or (unless_turn is not None and warning[1] == unless_turn):
            return
        del self._warnings[table.id]
        await self.budget.slot(URGENT, "DELETE", table.home_id)
        with contextlib.suppress(discord.HTTPException):
            await self._channel(table).get_partial_message(warning[0]).delete()

    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None:
        """Post a deal's results; raises if Discord refused (the table layer retries).
        ``again``: a run that stopped may have posted them already: look first."""
        m = table.match
        if m is None:
            return
        await self._delete_prompt(table)
        finished = m.finished_deal()
        if finished is None or finished.result.number != number:
            return
        history = finished.history
        over = m.phase is MatchPhase.OVER
        winners = [m.players[s].name for s in m.winners]
        wild_rank = m.deal.wild_rank if m.deal is not None else None
        language = table.options.language
        embed = result_embed(
            finished,
            table.names,
            standings_lines(standings(m), m.score_kind, language),
            over,
            winners,
            m.score_kind,
            wild_rank,
            m.rules,
            _wrong_shows(m.deal.events if m.deal is not None else []),
            table.id,
            _timed_out_drops(m.deal.events if m.deal is not None else []),
            hints=table.options.hints,
            rated=table.options.rated,
            locale=language,
        )
        # The hand history is one click away ("Hand history", for the deal's players and
        # managers): it shows every hand, dropped ones too, so it is not posted to all.
        files: list[discord.File] = []
        if await self.prefs.server_default(table.guild_id):
            image = await self.images.run(results_picture(history, words=captions(language)))
            show_in(embed, image.filename)
            files.insert(0, as_file(image, text(language, "results-picture")))
        kwargs: dict[str, Any] = {"embed": embed, "files": files}
        if over:
            kwargs["view"] = views.results_view(table.id, table.version, number, language)
        else:
            kwargs["view"] = views.next_deal_view(table.id, table.version, number, language)
            kwargs["content"] = text(
                language, "results-next-deal", seconds=int(self.next_deal_delay)
            )
        await self._home(table)
        if again:
            posted = await self._posted_results(table)
            if number in posted.values() or any(
                n == number for n in self._results.get(table.id, {}).values()
            ):
                log.info("deal %s of table %s was posted before the restart", number, table.id)
                return
        await self.budget.slot(URGENT, "POST", table.home_id)
        try:
            msg = await self._channel(table).send(**kwargs)
        except discord.HTTPException as exc:
            await self._home_failed(table, exc)  # the table layer posts them again
            raise
        if not over:
            self._results.setdefault(table.id, {})[msg.id] = number
            self._buried.add(table.id)
        await self._show_lobby(table)

    async def _posted_results(self, table: Table) -> dict[int, int]:
        """This table's results messages in the channel's recent history, message id ->
        deal (a run that posted them and stopped before marking them, or before taking their
        button away). Those still showing a live "Next deal" are remembered, so that the one
        edit that retires them is made by this process. Looks at the bot's messages for a
        deal's title and the table's mark in the footer."""
        me = self.client.user
        key = results_key(table.id, table.options.language)
        title_of = results_title(table.options.language)
        found: dict[int, int] = {}
        try:
            async for msg in self._channel(table).history(limit=RESULTS_LOOKBACK):
                if me is not None and msg.author.id != me.id:
                    continue
                for embed in msg.embeds:
                    title = title_of.fullmatch(embed.title or "")
                    if title is None or not (embed.footer.text or "").endswith(key):
                        continue
                    found[msg.id] = int(title[1])
                    if _next_deal_live(msg):
                        self._results.setdefault(table.id, {})[msg.id] = int(title[1])
        except discord.HTTPException:
            log.warning("could not read the channel of table %s to look for results", table.id)
        return found

    async def _retire_results(self, table: Table, final: str | None) -> None:
        """Take the "Next deal" button off every results message whose vote is over: the
        deal after it has begun (its text then says so) or the table closed (then it says
        nothing of a next deal). One edit per message, once: it is forgotten before the
        edit, whatever the answer. A table this process did not open (restored after a
        restart, or taken over) is looked for in the channel first, once, so that no button
        a stopped run left stays live."""
        if table.id not in self._seen:
            self._seen.add(table.id)
            if table.match is not None and table.match.results:
                await self._posted_results(table)
        pending = self._results.get(table.id)
        m = table.match
        if not pending or m is None:
            return
        waiting = final is None and table.status is TableStatus.PLAYING and table.between_deals
        for message_id, number in list(pending.items()):
            if waiting and number == len(m.results):
                continue  # the vote this button belongs to is still open
            del pending[message_id]
            started = m.deal is not None and m.deal.number > number
            await self.budget.slot(HEADROOM, "PATCH", table.home_id)
            try:
                await (
                    self._channel(table)
                    .get_partial_message(message_id)
                    .edit(
                        content=(
                            next_deal_started(number + 1, table.options.language)
                            if started
                            else None
                        ),
                        view=views.past_results_view(
                            table.id, table.version, number, table.options.language
                        ),
                    )
                )
            except discord.HTTPException:
                log.warning("could not retire results %s of table %s", number, table.id)

    async def table_closed(self, table: Table, reason: str, *, again: bool = False) -> None:
        """Show the table closed (an edit of its message: repeating it shows nothing twice,
        so ``again`` needs no look-up)."""
        await self._delete_prompt(table)
        self._dirty[table.id] = True
        await self._flush(table, final=reason)
        await self._show_lobby(table, reason)
        self.forget(table.id)

    def forget(self, table_id: str) -> None:
        """Drop every per-table entry of a closed table."""
        for key in [k for k in self.hands if k[0] == table_id]:
            del self.hands[key]
        self._sort_by_suit = {k for k in self._sort_by_suit if k[0] != table_id}
        self._dirty.pop(table_id, None)
        self._warnings.pop(table_id, None)
        self._results.pop(table_id, None)
        self._buried.discard(table_id)
        self._seen.discard(table_id)
        self._table_images.pop(table_id, None)
        self._table_sent.pop(table_id, None)
        self._table_drawn.pop(table_id, None)
        self._placing.pop(table_id, None)
        task = self._flushers.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self.advice.forget(table_id)
        self.hooks.forget(table_id)

    # ---- hand views ------------------------------------------------------------------------

    async def remember_hand(
        self,
        table: Table,
        user_id: int,
        interaction: discord.Interaction[PapluBot],
        shown: HandMessage | None = None,
        message_id: int | None = None,
        sending: int | None = None,
        followup: bool = False,
    ) -> None:
        """The interaction through which this player's hand view is refreshed from now on,
        its message (default: the one clicked) and what that message shows (None while an
        edit is in flight: then the next refresh uploads and edits rather than trust an image
        or a state that may not be there). `sending`: the table version of that edit in
        flight, which a refresh of the same version need not repeat."""
        if message_id is None and interaction.message is not None:
            message_id = interaction.message.id
        key = (table.id, user_id)
        old = self.hands.get(key)
        self.hands[key] = OpenHand(
            interaction,
            time.monotonic(),
            message_id,
            shown.shown if shown else None,
            shown.version if shown else None,
            sending,
            followup=followup,
        )
        # An older view still on screen is told it was replaced: its buttons would otherwise
        # look live while showing an old state.
        if old is None or old.interaction.id == interaction.id or old.message_id == message_id:
            return
        if time.monotonic() - old.opened > TOKEN_SAFE_AGE:
            return
        with contextlib.suppress(discord.HTTPException):
            await old.edit(
                content=replaced_view_text(user_locale(old.interaction)),
                embed=None,
                view=None,
                attachments=[],
            )

    def hand_shown(
        self,
        table: Table,
        user_id: int,
        interaction: discord.Interaction[PapluBot],
        shown: HandMessage,
    ) -> None:
        """An edit through `interaction` landed: its message now shows `shown`."""
        open_hand = self.hands.get((table.id, user_id))
        if open_hand is not None and open_hand.interaction is interaction:
            open_hand.shown = shown.shown
            open_hand.version = shown.version
            open_hand.seen = shown.visible()
            if shown.version is not None and (open_hand.sending or 0) <= shown.version:
                open_hand.sending = None

    def hand_editing(self, table: Table, user_id: int, message: discord.Message | None) -> None:
        """The player's click is about to edit `message` (their hand view) to the table as it
        is now: until that edit lands, a refresh of this same version is not sent a second
        time. Only when `message` is the view refreshes go to (another one is replaced)."""
        open_hand = self.hands.get((table.id, user_id))
        if open_hand is not None and message is not None and open_hand.message_id == message.id:
            open_hand.sending = table.version

    def hand_edit_failed(self, table: Table, user_id: int) -> None:
        """The click's edit did not land: the next refresh is sent, whatever its version."""
        open_hand = self.hands.get((table.id, user_id))
        if open_hand is not None:
            open_hand.sending = None

    def shown_on(
        self, table: Table, user_id: int, message: discord.Message | None
    ) -> ShownImage | None:
        """The image known to be on `message` (a hand view being clicked), if any."""
        open_hand = self.hands.get((table.id, user_id))
        if open_hand is None or message is None or open_hand.message_id != message.id:
            return None
        return open_hand.shown

    async def set_card_images(self, user_id: int, on: bool) -> None:
        """A player's own choice of images or text only (remembered in storage)."""
        await self.prefs.set_user(user_id, on)

    def set_sort_by_suit(self, table: Table, user_id: int, by_suit: bool) -> None:
        """A player's choice of hand layout (per table, kept while the table is open)."""
        key = (table.id, user_id)
        if by_suit:
            self._sort_by_suit.add(key)
        else:
            self._sort_by_suit.discard(key)

    async def hand_message(
        self,
        table: Table,
        user_id: int,
        note: str | None = None,
        confirm_drop: bool = False,
        shown: ShownImage | None = None,
        locale: Locale | None = None,
    ) -> HandMessage:
        """One player's private hand view: embed, controls, note and (unless they chose text
        only) the hand image. `shown` is the image the message being edited shows already: if
        the new one would be drawn from the same layout, it is neither drawn nor uploaded.

        The image and the text come from one snapshot: the seat's `Observation` and the hand
        advice cached for this table version (its evaluation is what both the embed and the
        image group the cards by, and what orders the discard menu)."""
        images = await self.prefs.for_user(table.guild_id, user_id)
        obs = table.observation_for(user_id)  # after the await: the newest state
        # The table's hint level: with hints off nothing is evaluated, the cards go by suit.
        hints = table.options.hints
        off = hints is HintLevel.OFF
        advice = None if off else self.advice.get(table.id, obs)
        sort = off or (table.id, user_id) in self._sort_by_suit
        seat = table.seat_by_user(user_id)
        name = seat.name if seat else "you"
        embed = hand_embed(
            obs,
            advice,
            sort,
            name,
            finished=_finished(table),
            wrong_show=_wrong_show(table, obs),
            hints=hints,
            locale=locale,
        )
        view = views.hand_view(
            table.id,
            table.version,
            obs,
            advice,
            sort,
            confirm_drop,
            card_images=images,
            hints=hints,
            locale=locale,
        )
        if note is None:
            note = _timeout_note(table, obs, locale)
        out = HandMessage(note or None, embed, view, version=table.version, locale=locale)
        if not images or not obs.hand:
            return out
        evaluation = None
        if advice is not None:
            evaluation = advice.drawn if advice.drawn is not None else advice.best
        picture = hand_picture(obs, sort, evaluation, hints, words=captions(locale))
        key = (obs.deal_number, obs.seat, picture.scene)
        if shown is not None and shown.key == key:
            out.shown = shown
        else:
            out.upload = await self.images.run(picture)
            out.shown = ShownImage(key, out.upload.filename)
        show_in(embed, out.shown.filename)
        return out

    async def _push_hands(self, table: Table) -> None:
        for table_id, user_id in list(self.hands):
            if table_id == table.id:
                await self._push_hand(table, user_id)

    async def _push_hand(self, table: Table, user_id: int) -> None:
        """Refresh one player's open hand view in place, while its token is young enough."""
        key = (table.id, user_id)
        open_hand = self.hands.get(key)
        if open_hand is None:
            return
        if time.monotonic() - open_hand.opened > TOKEN_SAFE_AGE:
            del self.hands[key]
            return
        if table.version in (open_hand.version, open_hand.sending):
            # Already shows this state, or an edit showing it is under way: the player's own
            # click, or the turn's refresh came first. Editing again would only cost a
            # request and a drawing (and drop a note). A later change is a new version.
            return
        # Marked before the first await: a refresh that starts while this one waits for its
        # picture (the turn's and the table flush's, one after the other) then sends nothing.
        open_hand.sending = table.version
        try:
            locale = user_locale(open_hand.interaction)  # the player's, as when they opened it
            hand = await self.hand_message(table, user_id, shown=open_hand.shown, locale=locale)
            if hand.upload is None and open_hand.seen == hand.visible():
                # The view would read exactly as it does (a waiting player, an opponent's
                # draw): no request. It stands for this version now.
                open_hand.version, open_hand.sending = hand.version, None
                return
            open_hand.shown, open_hand.version = None, None  # unsure until the edit lands
            open_hand.seen = None
            open_hand.sending = hand.version
            self.hooks.used(open_hand.interaction)
            await open_hand.edit(**hand.edit_kwargs())
        except Refusal:
            self.hands.pop(key, None)
        except discord.HTTPException:
            # The message was dismissed or the token died: forget it quietly.
            self.hands.pop(key, None)
        except BaseException:
            open_hand.sending = None  # it did not land: the next refresh is sent
            raise
        else:
            self.hand_shown(table, user_id, open_hand.interaction, hand)

    # ---- the public message ----------------------------------------------------------------

    async def _flush_loop(self, table: Table) -> None:
        try:
            while self._dirty.get(table.id) and not self._closing:
                await self._flush(table)
                # A table changed again within the interval is busy: under pressure it waits
                # a few intervals, and its next edit carries everything since this one;
                # unless a lent token can carry that edit (not counted against the budget).
                lent = self.hooks.pick(table.id, table.message_id) is not None
                await asyncio.sleep(EDIT_INTERVAL * (1 if lent else self.budget.stretch()))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("refreshing table %s failed", table.id)

    async def _flush(self, table: Table, final: str | None = None) -> None:
        self._dirty[table.id] = False
        await self._retire_results(table, final)
        await self._delete_warning(table, unless_turn=list(table.turn_marker or []))
        channel = await self._home(table)
        thread = table.thread_id
        if final is None and await self._bring_down(table):
            pass  # the table was posted afresh at the bottom, as it is now
        elif table.message_id is not None:
            await self._edit_table(table, final)
            channel = self._channel(table)  # the table may have left a closed thread
        if table.message_id is None and final is None:
            payload, public = self._public_payload(table, final)
            image = await self._table_image(table, public)
            digest = _digest(image)
            await self.budget.slot(HEADROOM, "POST", table.home_id)
            try:
                msg = await channel.send(**self._with_image(payload, image, table.options.language))
            except discord.HTTPException as exc:
                log.warning("could not post the table message of %s", table.id)
                if await self._home_failed(table, exc):
                    self._dirty[table.id] = True  # the flush loop posts it in the new home
                return
            self._table_images[table.id] = digest
            await remember_messages(self.storage, table, message_id=msg.id)
            if thread is not None and table.thread_id is None and table.current_turn() is not None:
                # The table left its thread: the player on turn was pinged in there.
                await self.turn_started(table)
        if table.status is TableStatus.PLAYING:
            await self._push_hands(table)

    async def _edit_table(self, table: Table, final: str | None) -> None:
        """Edit the public message to the table's newest state, unless it already shows it.

        The edit waits for a slot of the budget first; if the table moved on meanwhile, the
        payload is built again, so the one edit carries every change."""
        assert table.message_id is not None
        if await self._edit_through_hook(table, final):
            return
        if self.budget.room(HEADROOM):
            version, edit, digest, sent = await self._table_edit(table, final)
            if sent == self._table_sent.get(table.id):
                return  # nothing a player would see changed (e.g. a hidden card moved)
            await self.budget.slot(HEADROOM, "PATCH", table.home_id)
            if table.version != version:
                version, edit, digest, sent = await self._table_edit(table, final, urgent=True)
        else:
            # Short of budget: the slot comes first and the edit is built once, after it
            # (built before, it would be out of date by then and drawn twice). Its picture
            # is drawn ahead of the hand pictures waiting, so the slot is not held idle.
            await self.budget.slot(HEADROOM, "PATCH", table.home_id)
            if self.hooks.pick(table.id, table.message_id) is not None:
                # A player lent a token while this edit waited: it goes that way, uncounted.
                self.budget.give_back("PATCH", table.home_id)
                if await self._edit_through_hook(table, final):
                    return
                await self.budget.slot(HEADROOM, "PATCH", table.home_id)
            version, edit, digest, sent = await self._table_edit(table, final, urgent=True)
            if sent == self._table_sent.get(table.id):
                self.budget.give_back("PATCH", table.home_id)
                return
        try:
            try:
                await self._channel(table).get_partial_message(table.message_id).edit(**edit)
            except discord.HTTPException as exc:
                # An archived thread refuses edits: unarchived, the edit goes again; a
                # thread that cannot be had any more moves the table to the channel.
                if exc.status == 404 or not await self._home_failed(table, exc):
                    raise
                if table.message_id is None:
                    return  # moved: the flush posts the table in the channel
                await self.budget.slot(HEADROOM, "PATCH", table.home_id)
                await self._channel(table).get_partial_message(table.message_id).edit(**edit)
        except discord.NotFound:
            table.message_id = None
        except discord.HTTPException:
            self._table_images[table.id] = UNKNOWN
            self._table_sent.pop(table.id, None)
            log.warning("could not edit the table message of %s", table.id)
        else:
            self._table_images[table.id] = digest
            self._table_sent[table.id] = sent

    async def _edit_through_hook(self, table: Table, final: str | None) -> bool:
        """Edit the public message through a token that a click on it lent (`table_hooks`:
        outside the global limit, so no budget slot). False when there is no such token or
        it failed: the caller then edits through the channel, as without one."""
        if self.hooks.pick(table.id, table.message_id) is None:
            return False
        _version, edit, digest, sent = await self._table_edit(table, final)
        if sent == self._table_sent.get(table.id):
            return True  # nothing a player would see changed
        hook = self.hooks.pick(table.id, table.message_id)  # again: the picture took a while
        if hook is None:
            return False
        self.hooks.used(hook.interaction)
        try:
            await hook.interaction.edit_original_response(**edit)
        except discord.HTTPException as exc:
            self.hooks.drop(table.id, hook)
            # Whether the edit landed is unknown: the channel's edit uploads the picture.
            self._table_images[table.id] = UNKNOWN
            self._table_sent.pop(table.id, None)
            log.info(
                "table %s: a lent token failed (%s); edited through the channel",
                table.id,
                exc.status,
            )
            return False
        self.hooks.edits += 1
        self._table_images[table.id] = digest
        self._table_sent[table.id] = sent
        return True

    async def _table_edit(
        self, table: Table, final: str | None, *, urgent: bool = False
    ) -> tuple[int, dict[str, Any], str | None, str]:
        """The edit of the public message for the table as it is now: (the version it was
        built from, the edit's arguments, the digest of its picture, the digest of everything
        it shows: embed, controls and picture)."""
        version = table.version
        payload, public = self._public_payload(table, final)
        edit = dict(payload)
        on_message = self._table_images.get(table.id, UNKNOWN)
        shown = await self._table_shown(table, public, on_message, urgent=urgent)
        digest: str | None = None
        if shown is not None:
            digest, filename, image = shown
            show_in(edit["embed"], filename)
            if image is not None and digest != on_message:
                edit["attachments"] = [
                    as_file(image, text(table.options.language, "table-picture"))
                ]
        elif on_message is not None:
            edit["attachments"] = []
        # The table version inside the buttons' ids is not something a player sees, and the
        # public buttons ("Your hand", "Next deal") work whatever version they carry.
        controls = VERSION_IN_ID.sub(r"\1*:", json.dumps(edit["view"].to_components()))
        visible = json.dumps([edit["embed"].to_dict(), controls, digest], sort_keys=True)
        return version, edit, digest, hashlib.sha256(visible.encode()).hexdigest()

    async def _table_shown(
        self,
        table: Table,
        public: PublicView | None,
        on_message: str | None,
        *,
        urgent: bool = False,
    ) -> tuple[str | None, str, RenderedImage | None] | None:
        """The table picture for an edit: (its digest, its file name, the image to upload,
        or None when the message already shows exactly this picture). None: no picture.

        The scene is laid out (cheap) and compared with the last one drawn for this table;
        only a different scene is painted and encoded (most moves change the picture; a
        change of text only, or a refresh of the same state, does not). What is kept per
        table is the scene's hash, not the scene or the image."""
        if public is None or not await self.prefs.server_default(table.guild_id):
            return None
        picture = table_picture(
            public, table.rules.nothing_wild, words=captions(table.options.language)
        )
        key = hash(picture)
        drawn = self._table_drawn.get(table.id)
        if drawn is not None and drawn[0] == key and drawn[1] == on_message:
            return drawn[1], drawn[2], None
        image = await self.images.run(picture, urgent=urgent)
        digest = _digest(image)
        self._table_drawn[table.id] = (key, digest, image.filename)
        return digest, image.filename, image

    async def _table_image(self, table: Table, public: PublicView | None) -> RenderedImage | None:
        """The table image, drawn from the `PublicView` alone (None: no match, or this
        server chose text only)."""
        if public is None or not await self.prefs.server_default(table.guild_id):
            return None
        picture = table_picture(
            public, table.rules.nothing_wild, words=captions(table.options.language)
        )
        image = await self.images.run(picture)
        self._table_drawn[table.id] = (hash(picture), _digest(image), image.filename)
        return image

    @staticmethod
    def _with_image(
        payload: dict[str, Any], image: RenderedImage | None, locale: Locale | None
    ) -> dict[str, Any]:
        """A new public message's arguments: the image (if any) as its file."""
        if image is None:
            return payload
        show_in(payload["embed"], image.filename)
        return {**payload, "file": as_file(image, text(locale, "table-picture"))}

    def _public_payload(
        self, table: Table, final: str | None, locale: Locale | None = None
    ) -> tuple[dict[str, Any], PublicView | None]:
        """The public message's embed and view, and the `PublicView` it was built from (the
        image is drawn from that same snapshot; None in the lobby). In the table's language,
        unless `locale` asks for another (a bystander's private copy)."""
        rules = table.rules
        language = locale or table.options.language
        if table.status is TableStatus.LOBBY or (table.match is None and final is not None):
            embed = lobby_embed(
                rules,
                [(s.name, s.ai is not None) for s in table.seats],
                table.host_name,
                table.options.max_seats,
                table.options.turn_timer,
                invited=table.options.invited,
                hints=table.options.hints,
                rated=table.options.rated,
                locale=language,
            )
            if final == "cancelled":
                embed.title = text(language, "lobby-title-cancelled")
                return {"embed": embed, "view": views.empty_view()}, None
            if final == "expired":
                embed.title = text(language, "lobby-title-expired")
                embed.set_footer(text=lobby_expired_note(self.lobby_timeout, language))
                return {"embed": embed, "view": views.empty_view()}, None
            full = len(table.seats) >= table.options.max_seats
            view = views.lobby_view(table.id, table.version, full, lobby_seats(table), language)
            return {"embed": embed, "view": view}, None
        view_ = table.public_view()
        note = None
        if final == "cancelled":
            note = text(language, "table-cancelled")
        elif final == "finished":
            note = text(language, "table-finished")
        embed = table_embed(
            view_, rules, log_lines(table.log, language), table.deadline, note, language
        )
        if final is not None:
            return {"embed": embed, "view": views.empty_view()}, view_
        between = table.match is not None and table.match.phase is MatchPhase.BETWEEN_DEALS
        view = views.table_view(table.id, table.version, between, language)
        return {"embed": embed, "view": view}, view_

    async def table_for_bystander(
        self, table: Table, locale: Locale | None = None
    ) -> dict[str, Any]:
        """The public table as a private message for someone not at it, in their language:
        the same embed and picture (public facts only), without the controls."""
        payload, public = self._public_payload(table, None, locale)
        image = await self._table_image(table, public)
        out = self._with_image({"embed": payload["embed"]}, image, locale)
        out["content"] = text(locale, "table-for-bystander")
        return out

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
            await self.repost(table)
        except discord.HTTPException:
            log.warning("could not bring the table of %s down; editing it in place", table.id)
            return False
        return True

    async def repost(self, table: Table) -> None:
        """Post the table message again at the bottom of the channel (`/rummy table`)."""
        self._buried.discard(table.id)
        version = table.version
        old = table.message_id
        payload, public = self._public_payload(table, None)
        image = await self._table_image(table, public)
        channel = await self._home(table)
        await self.budget.slot(URGENT, "POST", table.home_id)
        msg = await channel.send(**self._with_image(payload, image, table.options.language))
        self._table_images[table.id] = _digest(image)
        self._table_sent.pop(table.id, None)
        # In the channel, the lobby message was the table message: the new one takes over.
        lobby = msg.id if old is not None and table.lobby_message_id == old else None
        await remember_messages(self.storage, table, message_id=msg.id, lobby_id=lobby)
        if table.version == version:
            # What the new message shows, so the next refresh edits only if that changes.
            *_, sent = await self._table_edit(table, None)
            self._table_sent[table.id] = sent
        if old is not None:
            await self.budget.slot(HEADROOM, "DELETE", table.home_id)
            with contextlib.suppress(discord.HTTPException):
                await self._channel(table).get_partial_message(old).delete()

    # ---- where the table plays: its thread, or the channel ---------------------------------

    async def _home(self, table: Table) -> discord.PartialMessageable:
        """Where the table's messages go. A table that has just started is placed first (once:
        its own thread, or the channel, with a line saying why)."""
        if table.lobby_message_id is None and table.match is not None:
            async with self._placing.setdefault(table.id, asyncio.Lock()):
                if table.lobby_message_id is None:
                    await self._place(table)
        return self._channel(table)

    async def _place(self, table: Table) -> None:
        """Open the table's thread from its lobby message, or keep it in the channel: the
        server chose so, the bot lacks a thread permission, or Discord refused. Stored at
        once (with the thread), so a restart never opens a second thread."""
        lobby = table.message_id
        reason, missing = await self._thread_refusal(table)
        if reason is None and lobby is not None:
            thread_id = await self._open_thread(table, lobby)
            if thread_id is not None:
                # The lobby message stays in the channel; the table is posted in the thread.
                self._table_images.pop(table.id, None)
                self._table_sent.pop(table.id, None)
                await remember_messages(self.storage, table, thread_id=thread_id, lobby_id=lobby)
                await self._show_lobby(table)
                return
            reason = "refused"
        # One message in the channel serves as lobby and table (0: there is none).
        await remember_messages(self.storage, table, lobby_id=lobby or 0)
        if reason not in (None, "off"):
            await self._say(table, fallback_line(reason, missing, table.options.language))

    async def _thread_refusal(self, table: Table) -> tuple[str | None, list[str]]:
        """Why this table cannot have a thread: ("off", []) the server chose the channel (or
        the channel cannot hold threads), ("permissions", names) the bot lacks them; (None,
        []) it can."""
        try:
            threads = (await self.storage.settings.get_settings(table.guild_id)).table_threads
        except StorageError:
            threads = True  # the default
        guild = self.client.get_guild(table.guild_id)
        channel = guild.get_channel(table.channel_id) if guild is not None else None
        if not threads or guild is None or not isinstance(channel, discord.TextChannel):
            return "off", []
        perms = channel.permissions_for(guild.me)
        missing = [name for flag, name in PERMISSION_NAMES.items() if not getattr(perms, flag)]
        return ("permissions", missing) if missing else (None, [])

    async def _open_thread(self, table: Table, lobby: int) -> int | None:
        """Start the public thread from the lobby message; its id (None: refused)."""
        name = thread_name(table.host_name, table.rules.name, table.options.language)
        await self.budget.slot(URGENT, "POST", table.channel_id)
        message = self._lobby_channel(table).get_partial_message(lobby)
        try:
            thread = await message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        except discord.HTTPException as exc:
            if exc.code == ALREADY_THREADED:
                return lobby  # a run that stopped opened it: a thread has its message's id
            log.warning("could not open a thread for table %s: %s", table.id, exc)
            return None
        return thread.id

    async def _home_failed(self, table: Table, exc: discord.HTTPException) -> bool:
        """The table's thread refused a request: unarchive it (Discord refuses edits in an
        archived thread), or, if it cannot be had any more (locked, deleted, no access), move
        the table to its channel with a line saying why. True: send again (now it may)."""
        if table.thread_id is None:
            return False
        if exc.code == ARCHIVED and await self._unarchive(table, table.thread_id):
            return True
        if exc.code != ARCHIVED and exc.code not in THREAD_GONE:
            return False
        log.warning("table %s leaves its thread %s: %s", table.id, table.thread_id, exc)
        await remember_messages(self.storage, table, thread_id=None)
        self._table_images.pop(table.id, None)
        self._table_sent.pop(table.id, None)
        await self._say(table, fallback_line("closed", locale=table.options.language))
        return True

    async def thread_closed(self, table: Table, thread_id: int) -> None:
        """Discord says a table's thread was locked and archived by a moderator, or deleted
        (THREAD_UPDATE / THREAD_DELETE): the table moves to its channel now, with its line,
        its table message and a ping for the player on turn, instead of at its next refused
        request, which might be a whole turn timer away while the player waits in a thread
        nobody can write in."""
        if table.thread_id != thread_id or not table.status.open:
            return
        log.warning("table %s leaves its thread %s: closed by a moderator", table.id, thread_id)
        await remember_messages(self.storage, table, thread_id=None)
        self._table_images.pop(table.id, None)
        self._table_sent.pop(table.id, None)
        await self._say(table, fallback_line("closed", locale=table.options.language))
        await self.table_changed(table)  # the table message, posted again in the channel
        if table.status is TableStatus.PLAYING and table.current_turn() is not None:
            await self.turn_started(table)

    async def _unarchive(self, table: Table, thread_id: int) -> bool:
        guild = self.client.get_guild(table.guild_id)
        try:
            thread = guild.get_thread(thread_id) if guild is not None else None
            if thread is None:
                await self.budget.slot(URGENT, "GET", thread_id)
                fetched = await self.client.fetch_channel(thread_id)
                if not isinstance(fetched, discord.Thread):
                    return False
                thread = fetched
            if thread.locked:
                return False  # only a moderator may reopen it
            await self.budget.slot(URGENT, "PATCH", thread_id)
            await thread.edit(archived=False)
        except discord.HTTPException as exc:
            log.warning("could not unarchive the thread of table %s: %s", table.id, exc)
            return False
        return True

    async def _send(self, table: Table, **kwargs: Any) -> discord.Message:
        """A message without files to the table's home (again once if its thread refused)."""
        await self._home(table)
        await self.budget.slot(URGENT, "POST", table.home_id)
        try:
            return await self._channel(table).send(**kwargs)
        except discord.HTTPException as exc:
            if not await self._home_failed(table, exc):
                raise
        await self.budget.slot(URGENT, "POST", table.home_id)
        return await self._channel(table).send(**kwargs)

    async def _say(self, table: Table, line: str) -> None:
        """One line in the table's channel (why it plays there)."""
        await self.budget.slot(URGENT, "POST", table.channel_id)
        try:
            await self._lobby_channel(table).send(line)
        except discord.HTTPException:
            log.warning("could not say where table %s plays", table.id)

    async def _show_lobby(self, table: Table, final: str | None = None) -> None:
        """The lobby message in the channel, when the table plays elsewhere (its thread, or a
        newer message below): who plays, where, the standings (at the end, the final ones)."""
        lobby = table.lobby_message_id
        if not lobby or lobby == table.message_id:
            return
        m = table.match
        language = table.options.language
        lines = (
            standings_lines(standings(m), m.score_kind, language)
            if m is not None and m.results
            else []
        )
        state = "playing" if final is None else "finished" if final == "finished" else "cancelled"
        embed = placed_embed(table.names, table.thread_id, lines, state, table.id, language)
        await self.budget.slot(HEADROOM, "PATCH", table.channel_id)
        try:
            await (
                self._lobby_channel(table)
                .get_partial_message(lobby)
                .edit(embed=embed, view=views.empty_view())
            )
        except discord.HTTPException:
            log.warning("could not update the lobby message of table %s", table.id)

    # ---- helpers ---------------------------------------------------------------------------

    def _watching(self, table: Table, user_id: int) -> bool:
        """Is this player at the table: a live hand view they used in the last minute?"""
        open_hand = self.hands.get((table.id, user_id))
        if open_hand is None:
            return False
        return time.monotonic() - open_hand.opened < min(WATCHING, TOKEN_SAFE_AGE)

    def _channel(self, table: Table) -> discord.PartialMessageable:
        """Where the table's messages are: its thread, or its channel."""
        if table.thread_id is not None:
            return self.client.get_partial_messageable(
                table.thread_id, guild_id=table.guild_id, type=discord.ChannelType.public_thread
            )
        return self._lobby_channel(table)

    def _lobby_channel(self, table: Table) -> discord.PartialMessageable:
        """The channel the table was opened in (its lobby message is there)."""
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _delete_prompt(self, table: Table) -> None:
        await self._delete_warning(table)
        if table.prompt_message_id is None:
            return
        await self.budget.slot(URGENT, "DELETE", table.home_id)
        with contextlib.suppress(discord.HTTPException):
            await self._channel(table).get_partial_message(table.prompt_message_id).delete()
        await remember_messages(self.storage, table, prompt_id=None)

    async def shutdown(self) -> None:
        self._closing = True
        for task in self._flushers.values():
            task.cancel()
        self.images.shutdown()


def _next_deal_live(msg: discord.Message) -> bool:
    """Does this message still offer a live "Next deal" (its custom id's action is next)?"""
    return any(
        isinstance(item, discord.Button) and not item.disabled and ":next" in (item.custom_id or "")
        for row in msg.components
        if isinstance(row, discord.ActionRow)
        for item in row.children
    )


def _digest(image: RenderedImage | None) -> str | None:
    """What identifies an image's upload: its name and bytes (encoding is deterministic)."""
    if image is None:
        return None
    return hashlib.sha256(image.filename.encode() + b"\0" + image.data).hexdigest()


def _finished(table: Table) -> FinishedDeal | None:
    """The deal that just ended (shown in its players' hand views until the next deal)."""
    return table.match.finished_deal() if table.match is not None else None


def _wrong_show(table: Table, obs: Observation) -> WrongShow | None:
    """This seat's wrong show in the current deal, if it made one (honor mode)."""
    deal = table.match.deal if table.match is not None else None
    if deal is None or obs.hand:
        return None
    return next((e for e in deal.events if isinstance(e, WrongShow) and e.seat == obs.seat), None)


def _timeout_note(table: Table, obs: Observation, locale: Locale | None = None) -> str | None:
    """If the bot just played this seat's turn because its time ran out, say so privately:
    which card it threw, and how many more timeouts in a row before a drop."""
    deal = table.match.deal if table.match is not None else None
    if deal is None or table.match is None:
        return None
    for event in reversed(deal.events):
        if actor(event) != obs.seat:
            continue
        if isinstance(event, Discarded | Declared) and event.auto:
            key = table.match.players[obs.seat].id
            left = MAX_TIMEOUTS - table.timeouts.get(key, 0)
            thrown = event.card if isinstance(event, Discarded) else None
            return timed_out_text(thrown, left, locale)
        return None
    return None


def lobby_seats(table: Table) -> list[tuple[str, str, bool, bool]]:
    """The seats as the lobby's host tools list them: (key, name, is AI, is the host)."""
    return [(s.key, s.name, s.ai is not None, s.user_id == table.host_id) for s in table.seats]


def _timed_out_drops(events: Sequence[Event]) -> dict[int, int]:
    """Seats the bot dropped for running out of time, with how many timeouts in a row."""
    return {e.seat: e.count for e in events if isinstance(e, TimedOut) and e.dropped}


def _wrong_shows(events: Sequence[Event]) -> dict[int, WrongShow]:
    return {e.seat: e for e in events if isinstance(e, WrongShow)}
