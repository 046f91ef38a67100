"""Answering an interaction privately, whether or not it was already acknowledged.

Discord allows one acknowledgement per interaction; after it, answers go through the followup
webhook. Every private answer of the bot goes through `send_private`, so no handler has to
remember which of the two applies, and an answer that cannot be delivered (token expired,
message gone) is logged instead of raising into a handler that already failed once.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from .interaction import Interaction

log = logging.getLogger(__name__)

#: Discord's limit on a message's content.
CONTENT_LIMIT = 2000


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Keep a message within Discord's limit (an echo of user input can be arbitrarily long)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def acknowledge(interaction: Interaction) -> None:
    """Acknowledge privately before waiting on anything (a table's lock, storage): the answer
    follows as a follow-up, so the 3-second rule holds however busy the table is."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def send_private(interaction: Interaction, message: str, **kwargs: Any) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(clip(message), ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(clip(message), ephemeral=True, **kwargs)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id)
