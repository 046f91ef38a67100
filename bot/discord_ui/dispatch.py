"""One dispatch for every click of the game: parse the id once, then the slice's handler.

Each feature slice (a cog) registers the handlers of the actions it owns when it loads
(`ClickRouter.register`); the components themselves (`components.GameButton`,
`GameSelect`) know nothing but their custom id and hand every click here. So a click reaches
its handler through one table keyed by `clicks.Act`, with no cog lookup and no chain of string
comparisons, and a new feature adds its actions by registering them.

Failures take one path: a `BadClick` or a refusal is answered privately in the reader's words;
a slice may first offer to show the refusal inside the player's own hand view (`on_refusal`);
anything else is a bug, logged and answered with the apology (`errors.answer_error`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from .clicks import Act, BadClick, Click, parse
from .errors import UserError, answer_error, message_for
from .interaction import Interaction
from .locales import user_locale

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

Handler = Callable[[Interaction, Click], Awaitable[None]]
#: A slice's chance to show a refusal where the player is looking (their hand view); True
#: when it did.
RefusalHook = Callable[[Interaction, Click, str], Awaitable[bool]]


class ClickRouter:
    """The handler of each action, as the slices registered them."""

    def __init__(self) -> None:
        self._handlers: dict[Act, tuple[Handler, RefusalHook | None]] = {}

    def register(
        self, acts: Sequence[Act], handler: Handler, on_refusal: RefusalHook | None = None
    ) -> None:
        """`handler` answers every click of `acts` (one slice owns an action)."""
        for act in acts:
            if act in self._handlers:
                raise ValueError(f"two handlers for {act!r}")
            self._handlers[act] = (handler, on_refusal)

    def unregister(self, acts: Sequence[Act]) -> None:
        for act in acts:
            self._handlers.pop(act, None)

    @property
    def acts(self) -> frozenset[Act]:
        return frozenset(self._handlers)

    async def dispatch(
        self, interaction: Interaction, custom_id: str, values: Sequence[str]
    ) -> None:
        try:
            click = parse(custom_id, values)
        except BadClick as exc:
            await answer_error(interaction, exc, custom_id)
            return
        found = self._handlers.get(click.act)
        if found is None:  # an action whose slice is not loaded (a reload under way)
            await answer_error(interaction, UserError("error-restarting"), custom_id)
            return
        handler, on_refusal = found
        try:
            await handler(interaction, click)
        except Exception as exc:
            message = message_for(exc, user_locale(interaction))
            if (
                message is not None
                and on_refusal is not None
                and await on_refusal(interaction, click, message)
            ):
                return
            await answer_error(interaction, exc, click)
