"""A season's final standings in the server's season channel: the season layer's listener.

The season layer (`bot.table.season`) decides when a season ends and that its post is owed; this
only shows it. Posted in the server's language (its `/rummy settings language:`, else its
Discord language). Once across a crash: a run that posted and stopped before the season was
marked posted is followed by one that calls with ``again``, and this looks through the
channel's recent messages for the season's mark (its footer, in any language the bot speaks)
before posting.

What Discord refuses for good (the channel is gone, or the bot may not post there) is logged
and not retried: the season is then marked, and the server sees why in `/rummy settings`. A
failure that may pass (Discord's own errors, the network) is raised, so the season layer tries
again.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.storage import SeasonRecord
from bot.table.season import SeasonFinal
from bot.words import Locale, catalogue

from .budget import RestBudget
from .placement import URGENT
from .screens import season as screen

if TYPE_CHECKING:
    from .client import PapluBot

log = logging.getLogger(__name__)

#: How many recent channel messages are searched for a post made before a restart.
LOOKBACK = 50


class SeasonPosts:
    """Implements `bot.table.season.SeasonListener` for Discord."""

    def __init__(self, client: PapluBot | discord.Client, budget: RestBudget) -> None:
        self.client = client
        self.budget = budget

    async def season_ended(self, final: SeasonFinal, *, again: bool = False) -> None:
        season = final.season
        if season.channel_id is None:
            log.info("season %s of guild %s: no season channel", season.number, season.guild_id)
            return
        channel = await self._channel(season)
        if channel is None:
            return
        if again and await self._posted(channel, season):
            log.info("season %s of guild %s was posted before", season.number, season.guild_id)
            return
        embed = screen.final_embed(final, self._locale(final))
        await self.budget.slot(URGENT, "POST", season.channel_id)
        try:
            await channel.send(embed=embed)
        except (discord.Forbidden, discord.NotFound):
            log.warning(
                "cannot post season %s of guild %s in channel %s",
                season.number,
                season.guild_id,
                season.channel_id,
            )

    def _locale(self, final: SeasonFinal) -> Locale:
        """The server's language: the one it chose, else its Discord one (else English)."""
        guild = self.client.get_guild(final.season.guild_id)
        discord_language = guild.preferred_locale if guild is not None else None
        return catalogue().resolve(final.language or discord_language)

    async def _channel(self, season: SeasonRecord) -> discord.abc.Messageable | None:
        """The season channel, or None when it is gone or not one the bot may read."""
        assert season.channel_id is not None
        channel = self.client.get_channel(season.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(season.channel_id)
            except (discord.Forbidden, discord.NotFound):
                log.warning("season channel %s is gone", season.channel_id)
                return None
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("season channel %s takes no messages", season.channel_id)
            return None
        return channel

    async def _posted(self, channel: discord.abc.Messageable, season: SeasonRecord) -> bool:
        """Is the season's final post among the channel's recent messages (by the bot)?"""
        me = self.client.user
        keys = tuple(screen.season_key(season.number, tag) for tag in catalogue().locales)
        try:
            async for msg in channel.history(limit=LOOKBACK):
                if me is not None and msg.author.id != me.id:
                    continue
                if any((e.footer.text or "").endswith(keys) for e in msg.embeds):
                    return True
        except (discord.Forbidden, discord.NotFound):
            log.warning("cannot read season channel %s to look for a post", season.channel_id)
        return False
