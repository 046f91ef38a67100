"""A player's hand view as a message: what one shows (`HandMessage`), the picture on it
(`ShownImage`), the open view it is refreshed through (`OpenHand`), and how its edits go out
(`HandPictures`). `hands.py` builds and sends them.

A picture an edit keeps is named in its `attachments`, by the attachment Discord's answer
reported on that very message: an edit that names none leaves Discord to guess from an embed
that still says attachment://, and one that names another message's attachment is refused.
What each player's view shows is known from the answers, so one player's edits go one at a
time (the player's click, the turn's refresh and the table flush's may overlap, through
different tokens): each answer then says what the message shows after every edit before it,
and a picture named as kept is checked against it just before the edit goes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any

import discord

from bot.images import Picture, RenderedImage
from bot.words import Locale, text

from . import edits
from .card_images import as_file, attachment_named
from .edits import Answer
from .interaction import Interaction
from .screens.controls import as_seen

#: What a player sees in a hand view (`HandMessage.visible`): compared, never serialised.
Seen = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class ShownImage:
    """The hand image a message shows: what it was drawn from, its file name, the message it
    is on and the attachment carrying it there (from Discord's answer to the edit or post that
    put it there). Only an edit of that same message may name the attachment."""

    key: Hashable
    filename: str
    message_id: int
    attachment: discord.Attachment


@dataclass(slots=True)
class OpenHand:
    interaction: Interaction
    opened: float
    message_id: int | None = None  # the hand view's message
    version: int | None = None  # the table version that message shows (None: unsure)
    # The table version an edit under way will show (None: no edit under way). A refresh of
    # that same version would only repeat it: a second request and a second drawing of the
    # picture.
    sending: int | None = None
    # What that message shows, as `HandMessage.visible` (None: unsure): a refresh that would
    # show the same is not sent.
    seen: Seen | None = None
    # The view is a follow-up of `interaction` (opened from the table's public message, whose
    # token the table borrows: `table_hooks`), not its original response.
    followup: bool = False

    async def edit(self, **kwargs: Any) -> Answer:
        """Edit the hand view through its token. A view opened from the table's message is
        that interaction's ephemeral follow-up, and the interaction's original response is
        the public table: editing "the original" there would show a hand to everyone. The
        answer is left unparsed (`edits`)."""
        if self.followup:
            if self.message_id is None:
                raise LookupError("a follow-up hand view without its message id")
            return await edits.edit_followup(self.interaction, self.message_id, **kwargs)
        return await edits.edit_original(self.interaction, **kwargs)


@dataclass(slots=True)
class HandMessage:
    """One player's private view, ready to send or to edit in.

    `picture` is what its embed shows (the picture's key and file name; None: no picture);
    `upload` the image to attach now, or `kept` the picture already on the message being
    edited, named in the edit's `attachments` so that it stays (`source`: the scene, drawn
    after all if the message turns out to show another picture by the time the edit goes)."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View
    upload: RenderedImage | None = None
    kept: ShownImage | None = None
    source: Picture | None = None
    picture: tuple[Hashable, str] | None = None
    version: int | None = None  # the table version it was drawn from
    locale: Locale | None = None  # the reader's language (the picture's alt text)
    _visible: Seen | None = None  # `visible()`, worked out once

    def visible(self) -> Seen:
        """Everything the player sees in this view: text, embed, controls (the table version
        inside their ids aside: `screens.controls.as_seen`) and the picture's name, as plain
        values to compare with what the message shows."""
        if self._visible is None:
            picture = None if self.picture is None else self.picture[1]
            self._visible = (self.content, self.embed.to_dict(), as_seen(self.view), picture)
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
        image is kept by naming its attachment. Every edit names what the message keeps."""
        out: dict[str, Any] = {"content": self.content, "embed": self.embed, "view": self.view}
        if self.upload is not None:
            out["attachments"] = [as_file(self.upload, text(self.locale, "hand-picture"))]
        else:
            out["attachments"] = [] if self.kept is None else [self.kept.attachment]
        return out

    def landed(self, message: Answer | None) -> ShownImage | None:
        """The picture `message` (Discord's answer to sending this) shows, with the attachment
        carrying it there; None: no picture, or the answer did not name it (then the next
        edit uploads rather than guess)."""
        if self.picture is None:
            return None
        key, filename = self.picture
        found = attachment_named(message, filename)
        if message is None or found is None:
            return None
        return ShownImage(key, filename, message.id, found)


Key = tuple[str, int]  # (table id, user id)


class HandPictures:
    """The picture each player's hand view message shows (per table and player: the message
    last edited, its picture and the attachment carrying it), learnt from Discord's answers,
    and the lane their edits take, one at a time."""

    def __init__(self) -> None:
        self._on: dict[Key, ShownImage] = {}
        self._lanes: dict[Key, asyncio.Lock] = {}

    def on(self, key: Key, message_id: int | None) -> ShownImage | None:
        """The picture known to be on message `message_id` (None: none, unsure, or what is
        known is of another message)."""
        shown = self._on.get(key)
        if shown is None or message_id is None or shown.message_id != message_id:
            return None
        return shown

    def lane(self, key: Key) -> asyncio.Lock:
        """Held while one of this player's hand view messages is edited."""
        lock = self._lanes.get(key)
        if lock is None:
            lock = self._lanes[key] = asyncio.Lock()
        return lock

    async def send(
        self,
        key: Key,
        message_id: int | None,
        hand: HandMessage,
        send: Callable[[HandMessage], Awaitable[Answer]],
        draw: Callable[[Picture], Awaitable[RenderedImage]],
    ) -> Answer:
        """Send `hand` to message `message_id` (None: a new message) with `send`, in this
        player's lane, and learn from the answer what the message shows. A picture `hand`
        keeps that is not the one on the message any more (an edit landed meanwhile) is drawn
        with `draw` and uploaded instead."""
        async with self.lane(key):
            if hand.kept is not None and hand.kept is not self.on(key, message_id):
                assert hand.source is not None
                hand.upload, hand.kept = await draw(hand.source), None
            try:
                answer = await send(hand)
            except BaseException:
                self._on.pop(key, None)  # it may have landed, or not: unsure
                raise
            self.learn(key, hand.landed(answer))
            return answer

    def learn(self, key: Key, shown: ShownImage | None) -> None:
        if shown is None:
            self._on.pop(key, None)
        else:
            self._on[key] = shown

    def lost(self, key: Key, message_id: int | None = None) -> None:
        """The picture on `message_id` (None: on any of this player's messages) is gone or
        unsure."""
        shown = self._on.get(key)
        if shown is not None and message_id in (None, shown.message_id):
            del self._on[key]

    def forget(self, table_id: str) -> None:
        for kept in (self._on, self._lanes):
            for key in [k for k in kept if k[0] == table_id]:
                del kept[key]
