"""The one error path of the Discord side: every failure becomes one short private answer.

Three kinds of failure reach a user: a `Refusal` from the table service (typed; worded by
`render.refusals`), a `UserError` raised by a cog for input it could not parse (it carries its
own sentence), and anything else, which is a bug: logged with its traceback and answered with
an apology that promises nothing changed (true: the service rolls back before it raises).
Slash commands, game components and stats components all end here.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.table.errors import Refusal

from .render.refusals import refusal_text
from .reply import send_private

log = logging.getLogger(__name__)

SORRY = "Something went wrong on our side; nothing changed. Try again."


class UserError(Exception):
    """A mistake in what the user typed or clicked, caught by the Discord side itself."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def message_for(error: BaseException) -> str | None:
    """The words for a failure a user caused, or None for a bug."""
    original = getattr(error, "original", error)
    if isinstance(original, Refusal):
        return refusal_text(original)
    if isinstance(original, UserError):
        return original.message
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Rummy is played in a server channel, not in DMs."
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the Manage Server permission for that."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use that command here."
    return None


async def answer_error(
    interaction: discord.Interaction[Any], error: BaseException, where: object = None
) -> None:
    message = message_for(error)
    if message is None:
        original = getattr(error, "original", error)
        log.error("%s failed", where or interaction.data, exc_info=original)
        message = SORRY
    await send_private(interaction, message)
