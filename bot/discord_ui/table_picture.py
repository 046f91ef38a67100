"""The picture on each table's public message: drawn only when its scene changed, uploaded
only when it differs from the one on the message, and otherwise kept by naming its attachment.

What is remembered is keyed by the message it is about: the digest of the picture on it and
the attachment carrying it there, from Discord's answer to the post or edit that put it there.
An edit that keeps the picture names that attachment (an edit that names none leaves Discord
to guess from an embed that still says attachment://, and its trackers report the picture then
shown a second time, outside the embed); a picture whose attachment no answer named is
`UNKNOWN`, so the next edit uploads it again rather than guess. Per table, the last picture
drawn (its scene's hash, digest and file name), not the image.

Per table too, the last picture laid out, with the key it was laid out from (`table_key`: what
`bot.images.table_picture` reads of the `PublicView`, the rule and the language) and its
scene's hash: most table edits change nothing the picture shows (a draw from the stock, a
change of the embed's text only), and lay nothing out nor hash a scene again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable

import discord

from bot.engine.cards import Face
from bot.engine.observation import PublicView
from bot.images import Picture, RenderedImage, table_picture
from bot.images.layout import PILE_SHOWN
from bot.table.model import Table
from bot.words import Locale
from bot.words.pictures import captions

from .card_images import ImagePreferences, ImageWorker, attachment_named
from .edits import Answer

UNKNOWN = "?"  # the table message may show any image (after a restart or a failed edit)


def table_key(view: PublicView, nothing_wild: bool, locale: Locale | None) -> tuple[Hashable, ...]:
    """Everything `bot.images.table_picture` reads of `view` (`layout.table_scene`, and the
    picture's name), with the rule and the language it is captioned in: views with the same
    key are drawn alike (`tests/discord_ui/test_table_key.py` plays whole deals, and swaps
    every field of a view for another state's, to check it).

    Of the seats: each one's number, name, status, score and dealer's button, in order (not
    its card count: the embed's). Of the pile: the last `PILE_SHOWN` throws not shuffled back
    into the stock, each card, its thrower and who took it back, and the live top card. A
    `Card` compares by its id alone, so its face is named beside it."""
    pile: list[tuple[int, Face, int | None, int | None]] = []
    for e in reversed(view.pile_history):
        if not e.recycled:
            pile.append((e.card.id, e.card.face, e.discarded_by, e.taken_by))
            if len(pile) == PILE_SHOWN:
                break
    top, indicator = view.top_discard, view.indicator
    return (
        view.variant,
        view.deal_number,
        view.match_phase,
        view.turn,
        None if indicator is None else indicator.face,
        view.wild_rank,
        None if top is None else (top.id, top.face),
        tuple((s.seat, s.name, s.status, s.score, s.is_dealer) for s in view.seats),
        tuple(pile),
        nothing_wild,
        locale,
    )


class TablePictures:
    def __init__(self, images: ImageWorker, prefs: ImagePreferences) -> None:
        self.images = images
        self.prefs = prefs
        # Per table: (the message, the digest of the picture on it, the attachment carrying
        # it there).
        self._on: dict[str, tuple[int, str | None, discord.Attachment | None]] = {}
        # The last table picture drawn per table: its scene's hash, its digest, its file name.
        self._drawn: dict[str, tuple[int, str | None, str]] = {}
        # The last table picture laid out per table: its key (`table_key`), the picture and
        # its scene's hash.
        self._laid: dict[str, tuple[tuple[Hashable, ...], Picture, int]] = {}

    def on_message(self, table: Table) -> str | None:
        """The digest of the picture the table message shows (None: none; `UNKNOWN`: not
        sure, or no answer named the attachment carrying it, so an edit could not name what
        it keeps)."""
        found = self._on.get(table.id)
        if found is None or found[0] != table.message_id:
            return UNKNOWN
        return found[1] if found[1] is None or found[2] is not None else UNKNOWN

    def kept(self, table: Table, message_id: int | None) -> list[discord.Attachment]:
        """For an edit of message `message_id` that keeps its picture: the attachment to name
        ([] if none is known for that very message; `on_message` then said `UNKNOWN`)."""
        found = self._on.get(table.id)
        if found is None or message_id is None or found[0] != message_id or found[2] is None:
            return []
        return [found[2]]

    def posted(self, table: Table, msg: discord.Message, image: RenderedImage | None) -> None:
        """A table message was posted (`msg`, Discord's answer) with `image` on it."""
        found = None if image is None else attachment_named(msg, image.filename)
        self._on[table.id] = (msg.id, _digest(image), found)

    def landed(
        self,
        table: Table,
        message_id: int,
        digest: str | None,
        answer: Answer | None,
        filename: str | None,
    ) -> None:
        """An edit of `message_id` landed (`answer`: Discord's answer to it) showing the
        picture `digest` as `filename`; or did not (`UNKNOWN`, no answer)."""
        found = None if filename is None else attachment_named(answer, filename)
        self._on[table.id] = (message_id, digest, found)

    def forget(self, table_id: str) -> None:
        self._on.pop(table_id, None)
        self._drawn.pop(table_id, None)
        self._laid.pop(table_id, None)

    def laid_out(self, table: Table, public: PublicView) -> tuple[Picture, int]:
        """The table picture for `public`, laid out, and its scene's hash: the one laid out
        last for this table when its key is the same (`table_key`)."""
        key = table_key(public, table.rules.nothing_wild, table.options.language)
        kept = self._laid.get(table.id)
        if kept is not None and kept[0] == key:
            return kept[1], kept[2]
        picture = table_picture(
            public, table.rules.nothing_wild, words=captions(table.options.language)
        )
        scene = hash(picture)
        self._laid[table.id] = (key, picture, scene)
        return picture, scene

    async def shown(
        self,
        table: Table,
        public: PublicView | None,
        on_message: str | None,
        *,
        urgent: bool = False,
    ) -> tuple[str | None, str, RenderedImage | None] | None:
        """The table picture for an edit: (its digest, its file name, the image to upload,
        or None when the message already shows exactly this picture). None: no picture.

        The scene is laid out only when what it shows changed (`laid_out`), and compared
        with the last one drawn for this table; only a different scene is painted and encoded
        (most moves change the picture; a draw from the stock, a change of text only, or a
        refresh of the same state, does not)."""
        if public is None or not await self.prefs.server_default(table.guild_id):
            return None
        picture, key = self.laid_out(table, public)
        drawn = self._drawn.get(table.id)
        if drawn is not None and drawn[0] == key and drawn[1] == on_message:
            return drawn[1], drawn[2], None
        image = await self.images.run(picture, urgent=urgent)
        digest = _digest(image)
        self._drawn[table.id] = (key, digest, image.filename)
        return digest, image.filename, image

    async def for_post(self, table: Table, public: PublicView | None) -> RenderedImage | None:
        """The table image for a new message, drawn from the `PublicView` alone (None: no
        match, or this server chose text only)."""
        if public is None or not await self.prefs.server_default(table.guild_id):
            return None
        picture, key = self.laid_out(table, public)
        image = await self.images.run(picture)
        self._drawn[table.id] = (key, _digest(image), image.filename)
        return image


def _digest(image: RenderedImage | None) -> str | None:
    """What identifies an image's upload: its name and bytes (encoding is deterministic)."""
    if image is None:
        return None
    return hashlib.sha256(image.filename.encode() + b"\0" + image.data).hexdigest()
