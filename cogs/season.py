"""The season slice: `/rummy season`, a player's own view of the server's seasons.

Privately, in the player's words: the season now running, when it ends and their place in it so
far; the last one that ended, its champion and where they finished. Managers set seasons up
with `/rummy settings season: time_zone: season_channel:` and end one with `end_season:` (the
server slice); the boards themselves are `/rummy leaderboard season:` (the league slice); the
final post is `bot.discord_ui.season_posts`, called by the season layer (`bot.table.season`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.discord_ui.interaction import Interaction
from bot.discord_ui.locales import user_locale
from bot.discord_ui.screens import season as screen
from bot.discord_ui.slices import Slice, add_slice, guild_of

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot


class SeasonCommands(Slice):
    """A player's seasons: this one and the last, and their place in each."""

    @app_commands.command(
        name="season", description="This season and the last: when they end, who won, your place"
    )
    async def season(self, interaction: Interaction) -> None:
        guild_id = guild_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        overview = await interaction.client.tables.seasons.overview(guild_id, interaction.user.id)
        embed = screen.overview_embed(overview, user_locale(interaction))
        await interaction.edit_original_response(embed=embed)


async def setup(bot: PapluBot) -> None:
    await add_slice(bot, SeasonCommands(bot))
