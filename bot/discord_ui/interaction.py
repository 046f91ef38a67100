"""The type of every interaction the bot handles: one that came through its own client.

discord.py types an interaction by its client (`discord.Interaction[ClientT]`), so a handler
that says `Interaction` here can use the bot's parts (`interaction.client.tables`) with their
types. Component callbacks are typed by discord.py for any client (a component class could
serve several); `ours` says what is true in this process: there is one client, a `PapluBot`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, cast

import discord

if TYPE_CHECKING:
    from .client import PapluBot

    Interaction: TypeAlias = discord.Interaction[PapluBot]
else:
    Interaction = discord.Interaction

#: What discord.py hands a component's callback.
AnyInteraction: TypeAlias = discord.Interaction[discord.Client]


def ours(interaction: AnyInteraction) -> Interaction:
    """The interaction as this bot's (see the module's docstring)."""
    return cast("Interaction", interaction)
