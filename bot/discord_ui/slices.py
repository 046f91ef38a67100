"""A feature slice on the Discord side: one cog, in its own extension, for one feature.

Every command of the bot is a subcommand of `/rummy` (players type `/rummy new`, `/rummy
leaderboard`, `/rummy tournament create`), yet each feature keeps its commands, its clicks and
its handlers in its own cog (`cogs/lobby.py`, `cogs/play.py`, ...). discord.py lets one cog own
a command group, not several cogs share one, so the group is the bot's (`RummyGroup`, added to
the tree before any extension loads) and a `Slice` hands it its commands when it loads:

* its slash commands (ordinary `@app_commands.command` methods) become subcommands of
  `/rummy` (a `Group` attribute, such as `/rummy tournament`, a subcommand group);
* its clicks: `click_handlers()` maps each `clicks.Act` it answers to a handler, registered in
  the bot's one dispatch (`dispatch.ClickRouter`); `on_refusal` may show a refusal where the
  player is looking;
* its other persistent components (`dynamic_items()`: pagers, confirmations) are registered
  with discord.py.

A new feature is a new slice: a cog like these, its screen module, a table-layer module and a
catalogue file, and its extension's name in `client.EXTENSIONS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from .clicks import Act, Click
from .dispatch import Handler
from .errors import UserError
from .interaction import Interaction

if TYPE_CHECKING:
    from .client import PapluBot


class RummyGroup(app_commands.Group):
    """`/rummy`: the one top-level command; every slice's commands live under it."""

    def __init__(self) -> None:
        super().__init__(
            name="rummy", description="Indian Rummy (13-card rummy, Paplu).", guild_only=True
        )


class Slice(commands.Cog):
    """The base of every feature cog (see the module docstring)."""

    def __init__(self, bot: PapluBot) -> None:
        self.bot = bot

    def click_handlers(self) -> Mapping[Act, Handler]:
        """The game components' actions this slice answers, and how."""
        return {}

    def dynamic_items(self) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """This slice's own persistent components (their state in their custom ids)."""
        return ()

    async def on_refusal(self, interaction: Interaction, click: Click, message: str) -> bool:
        """Show a refusal of one of this slice's clicks where the player is looking; False
        leaves it to the private answer every refusal gets."""
        return False

    async def cog_load(self) -> None:
        for command in self.get_app_commands():
            self.bot.rummy.add_command(command)
        handlers = self.click_handlers()
        for act, handler in handlers.items():
            self.bot.clicks.register((act,), handler, self.on_refusal)
        if self.dynamic_items():
            self.bot.add_dynamic_items(*self.dynamic_items())

    async def cog_unload(self) -> None:
        for command in self.get_app_commands():
            self.bot.rummy.remove_command(command.name)
        self.bot.clicks.unregister(tuple(self.click_handlers()))
        if self.dynamic_items():
            self.bot.remove_dynamic_items(*self.dynamic_items())


async def add_slice(bot: PapluBot, cog: Slice) -> None:
    """Add a slice's cog. Its commands joined `/rummy` in `cog_load`; discord.py then adds
    each command's root (that same group, already in the tree) to the tree again, which
    only `override` allows: it replaces the group with itself. A clash between two slices'
    commands is still refused, by the group, in `cog_load`."""
    await bot.add_cog(cog, override=True)


def command_group(cogs: list[Slice]) -> RummyGroup:
    """`/rummy` as these slices make it, without a bot (for the tests of the command tree
    and of its translations)."""
    group = RummyGroup()
    for cog in cogs:
        for command in cog.get_app_commands():
            group.add_command(command)
    return group


def guild_of(interaction: Interaction) -> int:
    """The server a command or click came from (the bot's commands are for servers)."""
    if interaction.guild_id is None:
        raise UserError("error-server-channel-only")
    return interaction.guild_id


def is_manager(interaction: Interaction) -> bool:
    """Manage Server (or Administrator) in the server the interaction came from."""
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild)


def require_manager(interaction: Interaction) -> bool:
    """`app_commands.check` for the managers' commands. `default_permissions` cannot be set on
    a subcommand (it belongs to the whole group), so the check runs when the command is used."""
    if is_manager(interaction):
        return True
    raise app_commands.MissingPermissions(["manage_guild"])
