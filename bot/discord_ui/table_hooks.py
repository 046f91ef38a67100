"""Interaction tokens lent by clicks on a table's public message, for editing that message.

Why: Discord's global limit (about 50 requests a second per bot) binds on the public side,
and the table edit is most of it: at a few hundred busy tables one token cannot refresh every
table within seconds through `PATCH /channels/{channel}/messages/{message}`. The interaction
endpoints are outside the global limit. A click on a component of the public message that is
acknowledged as a *deferred update* (callback type 6) makes that message the interaction's
original response, so for the token's life (15 minutes) `PATCH
/webhooks/{application}/{token}/messages/@original` edits the public table without counting
against the global limit; the player's private hand view then goes out as an ephemeral
follow-up of the same interaction. Every player opens their hand from that message, so a
busy table nearly always has such a token young enough.

What is kept per table: the few freshest tokens (with the message they edit: a table posted
afresh leaves them behind), and per token the times of the requests sent through it, because
the interaction webhook has its own bucket (a few requests per two seconds per token), which
the player's hand refreshes through the same token share.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from .interaction import Interaction

#: Interaction tokens live 15 minutes; a table edit does not start on one older than this.
MAX_AGE = 14 * 60.0
#: At most this many requests per `WINDOW` seconds go through one token for the table, so the
#: interaction webhook's own bucket (5 per 2 s, as Discord answers for webhooks) keeps room for
#: the player's hand refreshes through it.
PER_WINDOW = 3
WINDOW = 2.0
#: Tokens kept per table (the freshest); more would only age out unused.
KEEP = 4


@dataclass(slots=True)
class Hook:
    """One lent token: the interaction, the public message it edits, when it was created."""

    interaction: Interaction  # acknowledged with a deferred update
    message_id: int
    lent_at: float
    sent: deque[float] = field(default_factory=deque)  # recent requests through it


class TableHooks:
    """The lent tokens of every table this process shows."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._by_table: dict[str, list[Hook]] = {}
        self._by_id: dict[int, Hook] = {}  # the same hooks, by interaction id
        self.edits = 0  # table edits sent through a lent token (for figures)
        self.fallbacks = 0  # lent tokens that failed and were dropped
        # Why a table edit had no token (for figures): none lent for the message, or every
        # token's own bucket was at its share.
        self.none_lent = 0
        self.all_busy = 0

    def lend(self, table_id: str, interaction: Interaction, message_id: int) -> None:
        """A click on `message_id` (the table's public message) was acknowledged with a
        deferred update: its token may edit that message."""
        if interaction.id in self._by_id:
            return
        hooks = self._by_table.setdefault(table_id, [])
        hook = Hook(interaction, message_id, self._clock())
        hooks.append(hook)
        self._by_id[interaction.id] = hook
        for old in hooks[:-KEEP]:
            self._by_id.pop(old.interaction.id, None)
        del hooks[:-KEEP]

    def pick(self, table_id: str, message_id: int | None) -> Hook | None:
        """The freshest token that may edit `message_id` now: young enough, for that very
        message, and with room in its own bucket. None: edit through the channel."""
        hooks = self._by_table.get(table_id)
        if not hooks or message_id is None:
            self.none_lent += 1
            return None
        now = self._clock()
        for old in [h for h in hooks if now - h.lent_at >= MAX_AGE or h.message_id != message_id]:
            hooks.remove(old)
            self._by_id.pop(old.interaction.id, None)
        for hook in reversed(hooks):
            while hook.sent and hook.sent[0] <= now - WINDOW:
                hook.sent.popleft()
            if len(hook.sent) < PER_WINDOW:
                return hook
        if hooks:
            self.all_busy += 1
        else:
            self.none_lent += 1
        return None

    def used(self, interaction: Interaction) -> None:
        """A request went through `interaction`'s token (a table edit or a hand refresh)."""
        hook = self._by_id.get(interaction.id)
        if hook is not None:
            hook.sent.append(self._clock())

    def drop(self, table_id: str, hook: Hook) -> None:
        """The token failed (expired, the message gone): neither it nor any token lent
        before it is tried again (Discord ending one says the older ones are as dead; a
        younger one may still be good)."""
        hooks = self._by_table.get(table_id, [])
        if hook not in hooks:
            return
        self.fallbacks += 1
        for old in [h for h in hooks if h.lent_at <= hook.lent_at]:
            hooks.remove(old)
            self._by_id.pop(old.interaction.id, None)

    def forget(self, table_id: str) -> None:
        for hook in self._by_table.pop(table_id, ()):
            self._by_id.pop(hook.interaction.id, None)

    def count(self, table_id: str) -> int:
        return len(self._by_table.get(table_id, ()))
