"""Where a table plays: its thread's name, the lobby message it leaves in the channel, and the
one line that says why a table plays in the channel after all.

A table opens in its own public thread started from its lobby message (a server may choose
the channel instead, `/rummy settings threads:`). The lobby message stays in the channel and
shows the table's state: who plays, where, and at the end the final standings; everything
else (the table message, turn pings, results) is in the thread.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from .text import COLOUR

#: Discord's limit on a thread's name.
THREAD_NAME_MAX = 100

#: The permissions a table's thread needs, by their discord.py flag: Discord's names for them.
PERMISSION_NAMES = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}

#: Why a table plays in the channel instead of a thread (the presenter's reasons).
FALLBACK_LINES = {
    "permissions": (
        "🧵 This table plays here in the channel: I need the **{missing}** permission{s} "
        "to give it a thread."
    ),
    "refused": "🧵 This table plays here in the channel: Discord would not open a thread for it.",
    "closed": "🧵 The table's thread is closed, so the table continues here in the channel.",
}


def thread_name(host_name: str, profile: str) -> str:
    """The table's thread: whose table and which rules, within Discord's 100 characters."""
    name = f"🎴 {host_name}'s rummy table ({profile})"
    return name[:THREAD_NAME_MAX]


def fallback_line(reason: str, missing: Sequence[str] = ()) -> str:
    """The one short line posted in the channel when a table does not get (or loses) its
    thread."""
    line = FALLBACK_LINES[reason]
    return line.format(missing=" and ".join(missing), s="s" if len(missing) > 1 else "")


def placed_embed(
    names: Sequence[str],
    thread_id: int | None,
    standings: Sequence[str],
    state: str,
    table_id: str,
) -> discord.Embed:
    """The lobby message once its table is playing elsewhere. `state` is "playing",
    "finished" or "cancelled"; `standings` the score lines so far (none before the first
    deal ends)."""
    where = f"<#{thread_id}>" if thread_id is not None else "this channel, below"
    if state == "finished":
        title = "🎴 Indian Rummy — match over"
        text = f"The match was played in {where}. Final standings below."
    elif state == "cancelled":
        title = "🎴 Indian Rummy — table closed"
        text = f"The table in {where} was closed before the match ended."
    else:
        title = "🎴 Indian Rummy — playing"
        text = f"The table plays in {where}: the table, turns and results are there."
    embed = discord.Embed(title=title, description=text, colour=COLOUR)
    embed.add_field(name="Players", value=", ".join(names)[:1024] or "—", inline=False)
    if standings:
        name = "Final standings" if state == "finished" else "Standings"
        embed.add_field(name=name, value="\n".join(standings)[:1024], inline=False)
    embed.set_footer(text=f"Table {table_id}")
    return embed
