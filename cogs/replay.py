"""The replay slice: a deal's or a match's replay page, privately, from its results' buttons.

"Replay" on a deal's results sends that deal's page; "Match replay" on a match's last results
sends one page with every deal of the match. Both are read from storage (so they work after the
table closed or the bot restarted) and go only to those who may have the hand history: the
players of the deal (of the match's first deal, for a match) and the server's managers, since a
replay shows every hand. `/rummy history`'s menu sends the page beside the history file (the
league slice, with `screens/replay.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.discord_ui.clicks import Act, Click
from bot.discord_ui.dispatch import Handler
from bot.discord_ui.interaction import Interaction
from bot.discord_ui.locales import user_locale
from bot.discord_ui.reply import acknowledge
from bot.discord_ui.screens.replay import deal_replay, match_replay
from bot.discord_ui.slices import Slice, add_slice, guild_of, is_manager
from bot.table.league import League

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot


def _league(interaction: Interaction) -> League:
    return interaction.client.tables.league


class ReplayCommands(Slice):
    """Replay pages of finished deals and matches."""

    def click_handlers(self) -> Mapping[Act, Handler]:
        return {Act.REPLAY: self._deal, Act.MATCH_REPLAY: self._match}

    async def _deal(self, interaction: Interaction, click: Click) -> None:
        await acknowledge(interaction)
        assert click.deal is not None  # the parse made sure
        history = await _league(interaction).download_deal(
            guild_of(interaction),
            interaction.user.id,
            is_manager(interaction),
            click.table_id,
            click.deal,
        )
        sent = await deal_replay(click.table_id, click.deal, history, user_locale(interaction))
        await interaction.followup.send(sent.content, files=sent.files, ephemeral=True)

    async def _match(self, interaction: Interaction, click: Click) -> None:
        await acknowledge(interaction)
        histories = await _league(interaction).download_match(
            guild_of(interaction), interaction.user.id, is_manager(interaction), click.table_id
        )
        sent = await match_replay(click.table_id, histories, user_locale(interaction))
        await interaction.followup.send(sent.content, files=sent.files, ephemeral=True)


async def setup(bot: PapluBot) -> None:
    await add_slice(bot, ReplayCommands(bot))
