"""Which tables this process holds in memory, by id and by channel.

Why its own object: every part of the table layer (use cases, turns, recovery, leases) asks
the same two questions (which table is this id, which table is in this channel) and must get
the same answer; and a client can send any id from anywhere, so the place check lives here,
once.
"""

from __future__ import annotations

from . import errors
from .model import Table


class Registry:
    """The open tables this process drives."""

    def __init__(self) -> None:
        self.by_id: dict[str, Table] = {}
        self.by_channel: dict[int, Table] = {}

    def get(
        self, table_id: str, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> Table:
        """The open table with this id. Given where a click came from, a table of another
        server or channel is refused."""
        table = self.by_id.get(table_id)
        if table is None:
            raise errors.TableClosed()
        checked = guild_id is not None or channel_id is not None
        if checked and (guild_id != table.guild_id or not table.in_place(channel_id)):
            raise errors.WrongPlace()
        return table

    def in_channel(self, channel_id: int) -> Table:
        """The table of a channel, or of the thread it plays in."""
        table = self.by_channel.get(channel_id) or self.in_thread(channel_id)
        if table is None:
            raise errors.NoTableHere()
        return table

    def in_thread(self, thread_id: int) -> Table | None:
        """The table playing in this thread, if this process holds it (a scan: commands typed
        in a thread are rare next to clicks, and a table's thread may change)."""
        return next((t for t in self.by_id.values() if t.thread_id == thread_id), None)

    def here(self, channel_id: int) -> Table | None:
        """`in_channel` without the refusal."""
        return self.by_channel.get(channel_id) or self.in_thread(channel_id)

    def hold(self, table: Table) -> None:
        self.by_id[table.id] = table
        if table.tournament is None:
            # A tournament's tables share its channel and play in their threads: the
            # channel stays free for an ordinary table.
            self.by_channel[table.channel_id] = table

    def drop(self, table: Table) -> None:
        """Stop holding a table (closed, or now driven by another process)."""
        self.by_id.pop(table.id, None)
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]
