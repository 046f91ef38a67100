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

from bot.words import Locale, text

from .colour import COLOUR
from .results import results_key

#: Discord's limit on a thread's name.
THREAD_NAME_MAX = 100

#: The permissions a table's thread needs, by their discord.py flag: Discord's names for them.
PERMISSION_NAMES = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}

#: Why a table plays in the channel instead of a thread (the presenter's reasons).
FALLBACK_IDS = {
    "permissions": "place-permissions",
    "refused": "place-refused",
    "closed": "place-closed",
}


def thread_name(host_name: str, profile: str, locale: Locale | None = None) -> str:
    """The table's thread: whose table and which rules, within Discord's 100 characters."""
    return text(locale, "thread-name", host=host_name, profile=profile)[:THREAD_NAME_MAX]


def fallback_line(reason: str, missing: Sequence[str] = (), locale: Locale | None = None) -> str:
    """The one short line posted in the channel when a table does not get (or loses) its
    thread. Permission names stay as Discord shows them in the server settings."""
    names = ""
    for name in missing:
        names = name if not names else text(locale, "place-and", first=names, second=name)
    return text(locale, FALLBACK_IDS[reason], missing=names, count=len(missing))


#: The title and the sentence of the lobby message, by the state of its table.
PLACED_IDS = {
    "finished": ("placed-title-finished", "placed-finished"),
    "cancelled": ("placed-title-cancelled", "placed-cancelled"),
    "playing": ("placed-title-playing", "placed-playing"),
}


def placed_embed(
    names: Sequence[str],
    thread_id: int | None,
    standings: Sequence[str],
    state: str,
    table_id: str,
    locale: Locale | None = None,
) -> discord.Embed:
    """The lobby message once its table is playing elsewhere. `state` is "playing",
    "finished" or "cancelled"; `standings` the score lines so far (none before the first
    deal ends)."""
    where = f"<#{thread_id}>" if thread_id is not None else text(locale, "placed-here")
    title, sentence = PLACED_IDS.get(state, PLACED_IDS["playing"])
    embed = discord.Embed(
        title=text(locale, title), description=text(locale, sentence, where=where), colour=COLOUR
    )
    embed.add_field(
        name=text(locale, "placed-players"), value=", ".join(names)[:1024] or "—", inline=False
    )
    if standings:
        name = "placed-final-standings" if state == "finished" else "placed-standings"
        embed.add_field(name=text(locale, name), value="\n".join(standings)[:1024], inline=False)
    embed.set_footer(text=results_key(table_id, locale))
    return embed
