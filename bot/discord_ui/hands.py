"""Each player's private hand view: building it, showing it, and keeping it current.

A player's screen is reached by one route, this module: a click in the hand view edits it in
place (`show`), a command or the table's "Your hand" button opens a fresh one (`open`), and
the table moving on refreshes every open view through the interaction that last showed it
(`refresh`), while its token is young enough (tokens die after 15 minutes; after that the
player opens a fresh view from the table's button, which always works).

What each open view shows is remembered (`OpenHand`): the table version, a digest of
everything visible and whether an edit is under way, so a refresh that would show the same is
not sent and a refresh racing the player's own click does not repeat it; and the picture on
the message (`HandPictures`, learnt from Discord's answers), so a picture already there is not
uploaded again but named as kept (`attachments`: the attachment reported on that very message,
never one of another view's message). One player's edits go one at a time.

The view is built from one snapshot: the seat's `Observation` and the hand advice cached for
this table version (`bot.table.advice`: one evaluation shared by the embed, the discard menu
and the picture). Only the seat's own observation goes in: nothing here can show another
player's cards.
"""

from __future__ import annotations

import contextlib
import time

import discord

from bot.engine.hints import HintLevel
from bot.images import final_hand_picture
from bot.table.advice import AdviceCache, final_hand
from bot.table.errors import Refusal
from bot.table.model import Table
from bot.table.vocabulary import TableStatus
from bot.words import Locale, text
from bot.words.pictures import captions

from . import edits
from .card_images import ImagePreferences, ImageWorker, show_in
from .edits import Answer
from .hand_facts import finished_deal, timeout_note, wrong_show
from .hand_message import HandMessage, HandPictures, OpenHand, ShownImage
from .hand_parts import HandContent, HandParts
from .interaction import Interaction
from .locales import user_locale
from .screens.hand import hand_embed
from .screens.hand_controls import hand_view
from .screens.table import replaced_view_text
from .table_message import TableMessage

TOKEN_SAFE_AGE = 14 * 60.0  # interaction tokens live 15 minutes; stop using them before that
WATCHING = 60.0  # a player who used their live hand view this recently is at the table


class TokenAged(Exception):
    """An open view's token grew too old to use while its edit waited."""


class HandViews:
    """Every open hand view of this process, and the one way to show a player their hand."""

    def __init__(
        self,
        images: ImageWorker,
        prefs: ImagePreferences,
        advice: AdviceCache,
        table_message: TableMessage,
    ) -> None:
        self.images = images
        self.prefs = prefs
        self.advice = advice
        self.table_message = table_message
        self.open_views: dict[tuple[str, int], OpenHand] = {}
        # What each player's view shows, from Discord's answers; their edits, one at a time.
        self.pictures = HandPictures()
        # The parts of each player's view made from their hand alone, and the last view built.
        self.parts = HandParts()
        # Players who chose their cards sorted by suit, per table (kept while it is open).
        self._by_suit: set[tuple[str, int]] = set()

    # ---- what a player's click does -------------------------------------------------------

    async def open(
        self,
        interaction: Interaction,
        table: Table,
        *,
        note: str | None = None,
        confirm_drop: bool = False,
    ) -> None:
        """A fresh hand view, privately (`/rummy hand`, `/rummy drop`, the table's "Your
        hand"). A click on the table's own public message lends its token to the table's edits
        (`table_hooks`): acknowledged as a deferred update, which changes nothing anyone sees,
        and the hand follows as an ephemeral follow-up."""
        user_id = interaction.user.id
        clicked = interaction.message.id if interaction.message is not None else None
        lent = clicked if clicked is not None and clicked == table.message_id else None
        # Acknowledge first: the view waits for its picture, and when many players open their
        # hands at once (a burst of tables starting) pictures queue for the drawing process.
        if lent is not None:
            await interaction.response.defer()
            self.table_message.hooks.lend(table.id, interaction, lent)
        elif not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        hand = await self.build(
            table, user_id, note, confirm_drop=confirm_drop, locale=user_locale(interaction)
        )
        key = (table.id, user_id)
        if lent is not None:
            self.table_message.hooks.used(interaction)

            async def post(h: HandMessage) -> Answer:
                return await interaction.followup.send(ephemeral=True, wait=True, **h.send_kwargs())

            sent = await self.pictures.send(key, None, hand, post, self.images.run)
            await self._remember(table, user_id, interaction, hand, sent, followup=True)
            return

        async def edit(h: HandMessage) -> Answer:
            return await edits.edit_original(interaction, **h.edit_kwargs())

        message = await self.pictures.send(key, None, hand, edit, self.images.run)
        await self._remember(table, user_id, interaction, hand, message)

    async def show(
        self,
        interaction: Interaction,
        table: Table,
        note: str | None = None,
        *,
        confirm_drop: bool = False,
    ) -> None:
        """After a click in the player's hand view (acknowledged as a deferred update): the
        view edited in place to the table as it is now, with `note` above it. The picture is
        uploaded again only if it changed. A match that just ended shows the hand as it ended,
        without controls; a player with no seat left, the note alone."""
        user_id = interaction.user.id
        locale = user_locale(interaction)
        key = (table.id, user_id)
        # The edit goes to the message clicked: only a picture known to be on it is kept.
        clicked = interaction.message.id if interaction.message is not None else None

        async def edit(h: HandMessage) -> Answer:
            return await edits.edit_original(interaction, **h.edit_kwargs())

        if table.status is not TableStatus.PLAYING or table.match is None:
            if table.match is not None and table.engine_seat(user_id) is not None:
                hand = await self.build(table, user_id, note, locale=locale)

                async def final(h: HandMessage) -> Answer:
                    return await edits.edit_original(
                        interaction, **{**h.edit_kwargs(), "view": None}
                    )

                await self.pictures.send(key, clicked, hand, final, self.images.run)
                return
            self.pictures.lost(key, clicked)
            await edits.edit_original(
                interaction,
                content=note or text(locale, "done-game-over"),
                embed=None,
                view=None,
                attachments=[],
            )
            return
        open_hand = self.open_views.get(key)
        on_message = open_hand is not None and (
            interaction.message is not None and open_hand.message_id == interaction.message.id
        )
        # This edit shows the newest state: a refresh meanwhile need not send it too.
        if on_message and open_hand is not None:
            open_hand.sending = table.version
        try:
            shown = self.pictures.on(key, clicked)
            hand = await self.build(table, user_id, note, confirm_drop, shown, locale=locale)
            # From now on refreshes go through this interaction.
            await self._remember(table, user_id, interaction, sending=hand.version)
            await self.pictures.send(key, clicked, hand, edit, self.images.run)
        except BaseException:
            current = self.open_views.get(key)
            if current is not None:
                current.sending = None  # it did not land: the next refresh is sent
            raise
        self._landed(table, user_id, interaction, hand)

    async def show_refusal(self, interaction: Interaction, table: Table, message: str) -> bool:
        """A refusal inside the player's own hand view, above the hand as it is now (so a
        stale view heals itself); False where that does not apply (not their view, not
        acknowledged yet, the table not playing)."""
        if not (
            interaction.response.is_done()
            and table.status is TableStatus.PLAYING
            and table.engine_seat(interaction.user.id) is not None
        ):
            return False
        try:
            await self.show(interaction, table, f"⚠️ {message}")
        except (Refusal, discord.HTTPException):
            return False
        return True

    def sort_by_suit(self, table: Table, user_id: int, by_suit: bool) -> None:
        """A player's choice of hand layout (per table, kept while the table is open)."""
        key = (table.id, user_id)
        if by_suit:
            self._by_suit.add(key)
        else:
            self._by_suit.discard(key)

    async def card_images(self, user_id: int, on: bool) -> None:
        """A player's own choice of pictures or text only (remembered in storage)."""
        await self.prefs.set_user(user_id, on)

    # ---- the table moved on --------------------------------------------------------------

    async def refresh_all(self, table: Table) -> None:
        for table_id, user_id in list(self.open_views):
            if table_id == table.id:
                await self.refresh(table, user_id)

    async def refresh(self, table: Table, user_id: int) -> None:
        """Refresh one player's open hand view in place, while its token is young enough."""
        key = (table.id, user_id)
        open_hand = self.open_views.get(key)
        if open_hand is None:
            return
        if time.monotonic() - open_hand.opened > TOKEN_SAFE_AGE:
            del self.open_views[key]
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
            shown = self.pictures.on(key, open_hand.message_id)  # the message edited below
            hand = await self.build(table, user_id, shown=shown, locale=locale)
            if hand.upload is None and open_hand.seen == hand.visible():
                # The view would read exactly as it does (a waiting player, an opponent's
                # draw): no request. It stands for this version now.
                open_hand.version, open_hand.sending = hand.version, None
                return
            open_hand.version, open_hand.seen = None, None  # unsure until the edit lands
            open_hand.sending = hand.version
            self.table_message.hooks.used(open_hand.interaction)

            async def edit(h: HandMessage) -> Answer:
                if time.monotonic() - open_hand.opened > TOKEN_SAFE_AGE:
                    raise TokenAged  # while it waited its turn in the lane, or its picture
                return await open_hand.edit(**h.edit_kwargs())

            await self.pictures.send(key, open_hand.message_id, hand, edit, self.images.run)
        except Refusal:
            self.open_views.pop(key, None)
        except (discord.HTTPException, TokenAged):
            # The message was dismissed or the token died: forget it quietly.
            self.open_views.pop(key, None)
        except BaseException:
            open_hand.sending = None  # it did not land: the next refresh is sent
            raise
        else:
            self._landed(table, user_id, open_hand.interaction, hand)

    def watching(self, table: Table, user_id: int) -> bool:
        """Is this player at the table: a live hand view they used in the last minute?"""
        open_hand = self.open_views.get((table.id, user_id))
        if open_hand is None:
            return False
        return time.monotonic() - open_hand.opened < min(WATCHING, TOKEN_SAFE_AGE)

    def forget(self, table_id: str) -> None:
        for key in [k for k in self.open_views if k[0] == table_id]:
            del self.open_views[key]
        self._by_suit = {k for k in self._by_suit if k[0] != table_id}
        self.pictures.forget(table_id)
        self.parts.forget(table_id)
        self.advice.forget(table_id)

    # ---- building a view -----------------------------------------------------------------

    async def build(
        self,
        table: Table,
        user_id: int,
        note: str | None = None,
        confirm_drop: bool = False,
        shown: ShownImage | None = None,
        locale: Locale | None = None,
    ) -> HandMessage:
        """One player's private hand view: embed, controls, note and (unless they chose text
        only) the hand image. `shown` is the image the message being edited shows already (that
        message's, never another's): if the new one would be drawn from the same layout, it is
        neither drawn nor uploaded, but named as kept. Built once per table version and the
        player's choices (`hand_parts`), whoever asks."""
        images = await self.prefs.for_user(table.guild_id, user_id)
        key = (table.id, user_id)
        # The table's hint level: with hints off nothing is evaluated, the cards go by suit.
        sort = table.options.hints is HintLevel.OFF or key in self._by_suit
        inputs = (table.version, locale, images, sort, confirm_drop, note)
        content = self.parts.built(key, inputs)
        if content is None:
            content = self._content(table, user_id, note, confirm_drop, images, sort, locale)
            self.parts.keep(key, inputs, content)
        out = HandMessage(
            content.note, content.embed, content.view, version=table.version, locale=locale
        )
        picture = content.picture
        if picture is None:
            return out
        if shown is not None and shown.key == content.picture_key:
            out.kept, out.source = shown, picture
            out.picture = (content.picture_key, shown.filename)
        else:
            out.upload = await self.images.run(picture)
            out.picture = (content.picture_key, out.upload.filename)
        show_in(content.embed, out.picture[1])
        return out

    def _content(
        self,
        table: Table,
        user_id: int,
        note: str | None,
        confirm_drop: bool,
        images: bool,
        sort: bool,
        locale: Locale | None,
    ) -> HandContent:
        """The view for the table as it is now, its picture laid out but not drawn; the parts
        made from the hand alone come from `hand_parts`, made again only when it changed."""
        key = (table.id, user_id)
        obs = table.observation_for(user_id)
        hints = table.options.hints
        advice = None if hints is HintLevel.OFF else self.advice.get(table.id, obs)
        seat = table.seat_by_user(user_id)
        finished = finished_deal(table)
        # Once the deal is over: the seat's own cards as the engine ruled (text and picture).
        final = final_hand(table.match, obs.seat) if table.match is not None else None
        live = finished is None and obs.match_phase == "playing" and bool(obs.hand)
        embed = hand_embed(
            obs,
            advice,
            sort,
            seat.name if seat else "you",
            finished=finished,
            final=final,
            wrong_show=wrong_show(table, obs),
            hints=hints,
            locale=locale,
            part=self.parts.cards(key, obs, advice, sort, hints, locale) if live else None,
        )
        view = hand_view(
            table.id, table.version, obs, advice, sort, confirm_drop, images, hints, locale
        )
        if note is None:
            note = timeout_note(table, obs, locale)
        picture = None
        if finished is not None and final is not None and images:
            words = captions(locale)
            picture = final_hand_picture(obs, final.cards, final.evaluation, words=words)
        elif images and obs.hand and finished is None:
            evaluation = None
            if advice is not None:
                evaluation = advice.drawn if advice.drawn is not None else advice.best
            picture = self.parts.picture(key, obs, sort, evaluation, hints, locale)
        if picture is None:
            return HandContent(note or None, embed, view)
        return HandContent(
            note or None, embed, view, picture, (obs.deal_number, obs.seat, picture.scene)
        )

    # ---- bookkeeping ---------------------------------------------------------------------

    async def _remember(
        self,
        table: Table,
        user_id: int,
        interaction: Interaction,
        shown: HandMessage | None = None,
        answer: Answer | None = None,
        sending: int | None = None,
        followup: bool = False,
    ) -> None:
        """The interaction through which this player's hand view is refreshed from now on,
        its message (`answer`, Discord's answer to sending `shown`; default: the one clicked)
        and what that message shows (None while an edit is in flight: then the next refresh
        uploads and edits rather than trust an image or a state that may not be there).
        `sending`: the table version of that edit in flight, which a refresh of the same
        version need not repeat."""
        message_id = answer.id if answer is not None else None
        if message_id is None and interaction.message is not None:
            message_id = interaction.message.id
        key = (table.id, user_id)
        old = self.open_views.get(key)
        self.open_views[key] = OpenHand(
            interaction,
            time.monotonic(),
            message_id,
            shown.version if shown else None,
            sending,
            followup=followup,
        )
        # An older view still on screen is told it was replaced: its buttons would otherwise
        # look live while showing an old state.
        if old is None or old.interaction.id == interaction.id or old.message_id == message_id:
            return
        with contextlib.suppress(discord.HTTPException):
            async with self.pictures.lane(key):
                if time.monotonic() - old.opened > TOKEN_SAFE_AGE:
                    return  # (checked in the lane: the edit before may have taken a while)
                self.pictures.lost(key, old.message_id)
                await old.edit(
                    content=replaced_view_text(user_locale(old.interaction)),
                    embed=None,
                    view=None,
                    attachments=[],
                )

    def _landed(
        self, table: Table, user_id: int, interaction: Interaction, shown: HandMessage
    ) -> None:
        """An edit through `interaction` landed: its message now shows `shown` (its picture
        was learnt from the answer: `HandPictures.send`)."""
        open_hand = self.open_views.get((table.id, user_id))
        if open_hand is not None and open_hand.interaction is interaction:
            open_hand.version = shown.version
            open_hand.seen = shown.visible()
            if shown.version is not None and (open_hand.sending or 0) <= shown.version:
                open_hand.sending = None
