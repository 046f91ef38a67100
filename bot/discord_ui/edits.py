"""Edits of the hand views and the table message whose answer is not made into a message.

discord.py answers every edit with a `Message` (an `InteractionMessage`, a `WebhookMessage`)
built from Discord's answer: its author, embeds, components and the rest, which the bot never
reads. Of an edit's answer the bot reads the message's id and, when the edit shows a picture,
the attachment carrying it (`card_images.attachment_named`: what the next edit names to keep
that picture). These functions send the very request discord.py's own method sends, through
the same parts of discord.py (`handle_message_parameters` for the body and the files, the
webhook adapter with its rate-limit handling for the interaction's token, the HTTP client with
its per-route buckets for a channel message), so errors are raised as before (`NotFound`,
`Forbidden`, `HTTPException`; a 429 is waited out and retried by discord.py), and leave the
answer as Discord's JSON (`Edited`): an attachment becomes discord.py's `Attachment` only when
read. About 0.1 ms of the loop an edit (docs/scaling.md, "Phase 2", item 4).

Each mirrors one discord.py 2.7 method, named in its docstring; `tests/discord_ui/
test_edits.py` sends both through the fake and compares the requests, so a discord.py update
that changes what the method sends shows there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context

from .interaction import Interaction


class Edited:
    """Discord's answer to an edit, as the JSON it came in: the message's id, and its
    attachments (made into discord.py's `Attachment`, with the state a parsed message would
    give them, only when asked)."""

    __slots__ = ("_state", "data")

    def __init__(self, data: Mapping[str, Any], state: Any) -> None:
        self.data = data
        self._state = state

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def attachments(self) -> list[discord.Attachment]:
        return [
            discord.Attachment(data=a, state=self._state) for a in self.data.get("attachments", ())
        ]


#: What the bot reads of an answer: a parsed message (of a post) or an unparsed edit's.
Answer: TypeAlias = discord.Message | Edited


def _store(state: Any, view: Any, message_id: int) -> None:
    """What discord.py does with a view after an edit: one with live items is stored for its
    message (the game's components are persistent `DynamicItem`s, so this only registers
    their classes again)."""
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)


async def edit_original(
    interaction: Interaction,
    *,
    content: str | None = MISSING,
    embed: discord.Embed | None = MISSING,
    attachments: Any = MISSING,
    view: discord.ui.View | None = MISSING,
) -> Edited:
    """`interaction.edit_original_response(...)`: `PATCH /webhooks/{application}/{token}/
    messages/@original`, through the webhook adapter."""
    state = interaction._state
    http = state.http
    with handle_message_parameters(
        content=content,
        attachments=attachments,
        embed=embed,
        view=view,
        allowed_mentions=None,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        data = await async_context.get().edit_original_interaction_response(
            interaction.application_id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )
    answer = Edited(data, state)
    _store(state, view, answer.id)
    return answer


async def edit_followup(
    interaction: Interaction,
    message_id: int,
    *,
    content: str | None = MISSING,
    embed: discord.Embed | None = MISSING,
    attachments: Any = MISSING,
    view: discord.ui.View | None = MISSING,
) -> Edited:
    """`interaction.followup.edit_message(message_id, ...)`: `PATCH /webhooks/{application}/
    {token}/messages/{message}`, through the webhook adapter."""
    state = interaction._state
    http = state.http
    with handle_message_parameters(
        content=content,
        attachments=attachments,
        embed=embed,
        view=view,
        allowed_mentions=None,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        data = await async_context.get().edit_webhook_message(
            interaction.application_id,
            interaction.token,
            message_id,
            session=interaction._session,  # the HTTP client's, as `Webhook.from_state` takes
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            with_components=bool(view),
        )
    _store(state, view, message_id)
    return Edited(data, state)


async def edit_message(
    channel: discord.PartialMessageable,
    message_id: int,
    *,
    content: str | None = MISSING,
    embed: discord.Embed | None = MISSING,
    attachments: Any = MISSING,
    view: discord.ui.View | None = MISSING,
) -> Edited:
    """`channel.get_partial_message(message_id).edit(...)`: `PATCH /channels/{channel}/
    messages/{message}`, through the HTTP client (its per-route buckets and global limit)."""
    state = channel._state
    if view is not MISSING:
        state.prevent_view_updates_for(message_id)
    with handle_message_parameters(
        content=content,
        embed=embed,
        attachments=attachments,
        view=view,
        allowed_mentions=None,
        previous_allowed_mentions=None if content is MISSING else state.allowed_mentions,
    ) as params:
        data = await state.http.edit_message(channel.id, message_id, params=params)
    _store(state, view, message_id)
    return Edited(data, state)
