"""The server slice: a server's settings, and a player's "forget me".

`/rummy settings` (Manage Server) changes the server's defaults for new tables, where tables may
open, the card pictures, hints and rated play, threads and the tables' language, and its seasons
(cadence, time zone, the channel of their final standings, ending one now); the league service
(`bot.table.league`) decides how a change merges and what it said. `/rummy forget-me`
deletes a player's stats and history in the server, after a confirmation whose buttons carry who
asked and when (so only they may confirm, and only for a while).
"""

from __future__ import annotations

import enum
import logging
import re
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord_ui.choices import HINT_CHOICES, PROFILE_NAME_CHOICES, SERVER_LANGUAGE_CHOICES
from bot.discord_ui.errors import UserError, guarded
from bot.discord_ui.interaction import AnyInteraction, Interaction, ours
from bot.discord_ui.locales import server_locale, user_locale
from bot.discord_ui.screens import season as rseason
from bot.discord_ui.screens import settings as rset
from bot.discord_ui.slices import Slice, add_slice, guild_of, require_manager
from bot.table.league import FOLLOW_SERVER, NO_ROLE, SettingsChange, parse_default_hints
from bot.words import Locale, catalogue

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot

log = logging.getLogger(__name__)

FM_TEMPLATE = r"st:fm:(?P<action>yes|no):(?P<owner>\d{1,20}):(?P<issued>\d{1,12})"
#: `/rummy settings season:` (shown as they are: the words a manager types).
SEASON_CHOICES = [app_commands.Choice(name=p, value=p) for p in ("weekly", "monthly", "off")]


def _check_season_channel(interaction: Interaction, channel: discord.TextChannel) -> None:
    """The season channel must be one the bot can post its standings in (a server that did
    not cache the channel is trusted: a failed post is logged and not retried)."""
    guild = interaction.guild
    found = guild.get_channel(channel.id) if guild is not None else None
    if guild is None or not isinstance(found, discord.TextChannel):
        return
    perms = found.permissions_for(guild.me)
    if not (perms.view_channel and perms.send_messages and perms.embed_links):
        raise UserError("error-season-channel", channel=str(channel.id))


class ForgetAnswer(enum.StrEnum):
    YES = "yes"
    NO = "no"


class ForgetConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]], template=FM_TEMPLATE):
    """Confirm / cancel under /rummy forget-me; the id carries who asked and when."""

    def __init__(
        self, answer: ForgetAnswer, owner_id: int, issued: int, *, label: str | None = None
    ) -> None:
        self.answer, self.owner_id, self.issued = answer, owner_id, issued
        yes = answer is ForgetAnswer.YES
        super().__init__(
            discord.ui.Button(
                label=label or rset.forget_label(yes),
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"st:fm:{answer}:{owner_id}:{issued}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: AnyInteraction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ForgetConfirm:
        return cls(
            ForgetAnswer(match["action"]),
            int(match["owner"]),
            int(match["issued"]),
            label=getattr(item, "label", None),
        )

    async def callback(self, any_interaction: AnyInteraction) -> None:
        interaction = ours(any_interaction)

        async def answer() -> None:
            if interaction.user.id != self.owner_id:
                raise UserError("error-not-yours")
            locale = user_locale(interaction)
            if self.answer is ForgetAnswer.NO:
                said = rset.forget_text("cancelled", locale)
                await interaction.response.edit_message(content=said, view=None)
                return
            await interaction.response.defer()
            outcome = await interaction.client.tables.league.forget(
                guild_of(interaction), self.owner_id, self.issued
            )
            if outcome not in ("expired", "playing"):
                log.info("forgot a user in guild %s", interaction.guild_id)
                outcome = "done"
            said = rset.forget_text(outcome, locale)
            await interaction.edit_original_response(content=said, view=None)

        await guarded(interaction, answer)


def forget_view(owner_id: int, issued: int, locale: Locale | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for answer in ForgetAnswer:
        view.add_item(
            ForgetConfirm(
                answer,
                owner_id,
                issued,
                label=rset.forget_label(answer is ForgetAnswer.YES, locale),
            )
        )
    return view


# ---- commands -------------------------------------------------------------------------------


class Server(Slice):
    """A server's settings, and forgetting a player."""

    def dynamic_items(self) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        return (ForgetConfirm,)

    @app_commands.command(name="settings", description="Server settings (Manage Server only)")
    @app_commands.check(require_manager)
    @app_commands.describe(
        default_profile="Profile /rummy new uses when none is given",
        turn_timer="Default seconds per turn",
        allow_channel="Add a channel where tables may open (restricts to the list)",
        remove_channel="Remove a channel from the list",
        all_channels="True: tables may open in every channel again (clears the list)",
        card_images="Card images in game messages (players may still pick text only for "
        "their own hand)",
        hints="Hint level of new tables when the host names none",
        rated_hints_off="True: only games with hints off move ratings (others play unrated)",
        threads="True: each table plays in its own thread (default); False: in the channel",
        language="Language of new tables' lobby, table and results (default: the server's)",
        season="Seasons: the leaderboard starts afresh weekly or monthly (off: never)",
        time_zone="Time zone whose midnight ends a season, e.g. Asia/Kolkata (default: UTC)",
        season_channel="Channel where a season's final standings are posted",
        end_season="True: end the current season now (its final standings are posted)",
        organiser_role="Members of this role may run tournaments (@everyone: Manage Server only)",
    )
    @app_commands.choices(
        default_profile=PROFILE_NAME_CHOICES,
        hints=HINT_CHOICES,
        language=SERVER_LANGUAGE_CHOICES,
        season=SEASON_CHOICES,
    )
    async def settings(
        self,
        interaction: Interaction,
        default_profile: str | None = None,
        turn_timer: app_commands.Range[int, 15, 600] | None = None,
        allow_channel: discord.TextChannel | None = None,
        remove_channel: discord.TextChannel | None = None,
        all_channels: bool | None = None,
        card_images: bool | None = None,
        hints: str | None = None,
        rated_hints_off: bool | None = None,
        threads: bool | None = None,
        language: str | None = None,
        season: str | None = None,
        time_zone: str | None = None,
        season_channel: discord.TextChannel | None = None,
        end_season: bool | None = None,
        organiser_role: discord.Role | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        if language not in (None, FOLLOW_SERVER, *catalogue().locales):
            raise UserError("error-unknown-language")  # a tampered client
        if season_channel is not None:
            _check_season_channel(interaction, season_channel)
        await interaction.response.defer(ephemeral=True, thinking=True)
        changed = await interaction.client.tables.league.change_settings(
            guild_id,
            SettingsChange(
                default_profile=default_profile,
                turn_timer=None if turn_timer is None else int(turn_timer),
                allow_channel=allow_channel.id if allow_channel else None,
                remove_channel=remove_channel.id if remove_channel else None,
                all_channels=all_channels,
                card_images=card_images,
                hints=None if hints is None else parse_default_hints(hints),
                rated_hints_off=rated_hints_off,
                table_threads=threads,
                language=language,
                season=season,
                time_zone=time_zone,
                season_channel=season_channel.id if season_channel else None,
                end_season=end_season or None,
                organiser_role=None if organiser_role is None else _role(organiser_role),
            ),
        )
        if changed.changed:
            self.bot.presenter.prefs.server_changed(guild_id, changed.settings.card_images)
        locale = user_locale(interaction)
        said = [rset.setting_changed_text(what, value, locale) for what, value in changed.changed]
        embed = rset.settings_embed(
            changed.settings,
            said,
            locale,
            server_locale(interaction, changed.settings.language),
            changed.season,
        )
        await interaction.edit_original_response(embed=embed)

    @settings.autocomplete("time_zone")
    async def _zone_menu(
        self, interaction: Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """Zone names matching what was typed; India's first."""
        return [app_commands.Choice(name=z, value=z) for z in rseason.zone_choices(typed)]

    @app_commands.command(
        name="forget-me", description="Delete your rummy stats and history in this server"
    )
    async def forget_me(self, interaction: Interaction) -> None:
        guild_of(interaction)
        locale = user_locale(interaction)
        await interaction.response.send_message(
            rset.forget_text("prompt", locale),
            view=forget_view(interaction.user.id, int(time.time()), locale),
            ephemeral=True,
        )


def _role(role: discord.Role) -> int:
    """A role's id; @everyone (the server's default role) means no organiser role."""
    return NO_ROLE if role.is_default() else role.id


async def setup(bot: PapluBot) -> None:
    await add_slice(bot, Server(bot))
