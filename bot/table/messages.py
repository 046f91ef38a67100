"""Remembering which Discord messages show a table (bookkeeping, not a game change).

Message ids are kept on the table (so the presenter edits the right message) and in its stored
row (so a restart edits the same message rather than posting a new one). They carry no game
state, so recording them does not bump the table version, and a failure to store them is
logged and tolerated: the worst case after a restart is a fresh table message.
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
) -> None:
    kwargs: dict[str, Any] = {}
    if message_id is not None:
        table.message_id = message_id
        kwargs["public_message_id"] = message_id
    if prompt_id is not UNCHANGED:
        table.prompt_message_id = prompt_id
        kwargs["prompt_message_id"] = prompt_id
    if kwargs and table.status.open:
        try:
            await storage.tables.set_table_messages(table.id, **kwargs)
        except StorageError:
            log.warning("could not store message ids of table %s", table.id)
