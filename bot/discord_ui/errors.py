"""The one error path of the Discord side: every failure becomes one short private answer.

Three kinds of failure reach a user: a `Refusal` from the table service (typed; worded by
`render.refusals`), a `UserError` raised by a cog for input it could not use (it carries a
catalogue message id and its facts), and anything else, which is a bug: logged with its
traceback and answered with an apology that promises nothing changed (true: the service rolls
back before it raises). Slash commands, game components and stats components all end here.

Every answer is private, so it is worded in the user's own Discord language
(`interaction.locale`; English where the catalogue has no such language).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from discord import app_commands

from bot.table.errors import Refusal
from bot.words import Locale, text
from bot.words.refusals import refusal_text

from .interaction import Interaction
from .locales import user_locale
from .reply import send_private

log = logging.getLogger(__name__)


class UserError(Exception):
    """A mistake in what the user typed or clicked, caught by the Discord side itself.

    `msg_id` names the catalogue message (`locales/*/errors.ftl`), `args` its variables; the
    words are chosen when the answer is sent, in the reader's language."""

    def __init__(self, msg_id: str, **args: Any) -> None:
        super().__init__(msg_id)
        self.msg_id = msg_id
        self.params = args

    def text(self, locale: Locale | None) -> str:
        return text(locale, self.msg_id, **self.params)


def message_for(error: BaseException, locale: Locale | None) -> str | None:
    """The words for a failure a user caused, in `locale`, or None for a bug."""
    original = getattr(error, "original", error)
    if isinstance(original, Refusal):
        return refusal_text(original, locale)
    if isinstance(original, UserError):
        return original.text(locale)
    if isinstance(error, app_commands.NoPrivateMessage):
        return text(locale, "error-no-private-message")
    if isinstance(error, app_commands.MissingPermissions):
        return text(locale, "error-missing-permissions")
    if isinstance(error, app_commands.CheckFailure):
        return text(locale, "error-check-failure")
    return None


async def answer_error(
    interaction: Interaction, error: BaseException, where: object = None
) -> None:
    locale = user_locale(interaction)
    message = message_for(error, locale)
    if message is None:
        original = getattr(error, "original", error)
        log.error("%s failed", where or interaction.data, exc_info=original)
        message = text(locale, "error-sorry")
    await send_private(interaction, message)


async def guarded(interaction: Interaction, handler: Callable[[], Awaitable[None]]) -> None:
    """Run a component's handler on the one error path: component callbacks bypass the
    app-command error handler, and an unanswered click shows "This interaction failed"."""
    try:
        await handler()
    except Exception as exc:
        await answer_error(interaction, exc, "component")
