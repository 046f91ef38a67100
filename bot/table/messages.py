"""Remembering which Discord messages show a table (bookkeeping, not a game change).

Message ids, and the thread a table plays in, are kept on the table (so the presenter edits
the right message) and in its stored row (so a restart edits the same message rather than
posting a new one, and never opens a second thread). They carry no game state, so recording
them does not bump the table version, and a failure to store them is logged and tolerated:
the worst case after a restart is a fresh table message.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.storage import Storage, StorageError

from .model import Table

log = logging.getLogger(__name__)

UNCHANGED: Any = object()


async def remember_messages(
    storage: Storage,
    table: Table,
    *,
    message_id: int | None = None,
    prompt_id: int | None = UNCHANGED,
    thread_id: int | None = UNCHANGED,
    lobby_id: int | None = None,
) -> None:
    """Set and store the given ids (UNCHANGED / None: leave as is). A `thread_id` (None: the
    channel) moves the table there, which forgets the table message unless one is given;
    `lobby_id` marks the table placed: its lobby message in the channel."""
    kwargs: dict[str, Any] = {}
    if message_id is not None:
        table.message_id = message_id
        kwargs["public_message_id"] = message_id
    if prompt_id is not UNCHANGED:
        table.prompt_message_id = prompt_id
        kwargs["prompt_message_id"] = prompt_id
    if thread_id is not UNCHANGED:
        # A new home: the table message stays where it was, and is posted again there.
        table.thread_id = thread_id
        kwargs["thread_id"] = thread_id
        if message_id is None:
            table.message_id = None
            kwargs["public_message_id"] = None
    if lobby_id is not None:
        table.lobby_message_id = lobby_id
        kwargs["lobby_message_id"] = lobby_id
    if kwargs and table.status.open:
        try:
            await storage.tables.set_table_messages(table.id, **kwargs)
        except StorageError:
            log.warning("could not store message ids of table %s", table.id)
