"""The info slice: how to play, the rules, a ruling on any hand, and a player's language.

Commands `/rummy help` (a few short private screens, paged by buttons whose page is in their
custom id, so the pager works from any old help message, after a restart too), `rules`,
`check` and `language`. Everything here is private and in the reader's language.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord_ui.choices import FOLLOW_DISCORD, LANGUAGE_CHOICES, PROFILE_CHOICES
from bot.discord_ui.errors import UserError, answer_error
from bot.discord_ui.interaction import AnyInteraction, Interaction, ours
from bot.discord_ui.locales import user_locale
from bot.discord_ui.reply import send_private
from bot.discord_ui.screens.help import PAGE_KEYS, help_embed, page_title
from bot.discord_ui.slices import Slice, add_slice
from bot.engine.cards import CardParseError, Face
from bot.engine.rules import PROFILES, Rules, get_profile
from bot.table.errors import UnknownAction
from bot.words import Locale, catalogue, text
from bot.words.refusals import card_error_text
from bot.words.rules import rules_summary, ruling_text

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot


HELP_TEMPLATE = r"hp:(?P<page>[a-z]{2,8}):(?P<profile>[a-z0-9]{1,12})"


class HelpButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HELP_TEMPLATE):
    """One screen of `/rummy help`: the page and the profile it explains are in the id."""

    def __init__(self, page: str, profile: str, *, label: str, current: bool = False) -> None:
        self.page, self.profile = page, profile
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
                disabled=current,
                custom_id=f"hp:{page}:{profile}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: AnyInteraction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HelpButton:
        return cls(match["page"], match["profile"], label=getattr(item, "label", None) or "…")

    async def callback(self, any_interaction: AnyInteraction) -> None:
        interaction = ours(any_interaction)
        if self.page not in PAGE_KEYS or self.profile not in PROFILES:
            await answer_error(interaction, UnknownAction(), "help")
            return
        rules = _rules_here(interaction, self.profile)
        locale = user_locale(interaction)
        await interaction.response.edit_message(
            embed=help_embed(self.page, rules, locale, _language_here(interaction)),
            view=help_view(self.page, self.profile, locale),
        )


def help_view(page: str, profile: str, locale: Locale | None = None) -> discord.ui.View:
    """The pager under a help screen: one button per screen, labelled in the reader's
    language."""
    view = discord.ui.View(timeout=None)
    for key in PAGE_KEYS:
        view.add_item(HelpButton(key, profile, label=page_title(key, locale), current=key == page))
    return view


class Info(Slice):
    """Help, rules, rulings and languages."""

    def dynamic_items(self) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        return (HelpButton,)

    @app_commands.command(name="rules", description="The rules of a profile, from the engine")
    @app_commands.describe(profile="Which rules (default: this table's, or points)")
    @app_commands.choices(profile=PROFILE_CHOICES)
    async def rules(self, interaction: Interaction, profile: str | None = None) -> None:
        rules = _rules_here(interaction) if profile is None else get_profile(profile)
        await send_private(interaction, rules_summary(rules, user_locale(interaction)))

    @app_commands.command(name="language", description="The language of your private messages")
    @app_commands.describe(language="Your Discord's language, or one you choose")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: Interaction, language: str) -> None:
        """A player's own language for what only they see (hand views, refusals, help, the
        review); public messages follow the server. Stored, like the picture choice."""
        if language != FOLLOW_DISCORD and language not in catalogue().locales:
            raise UserError("error-unknown-language")  # a tampered client
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = None if language == FOLLOW_DISCORD else language
        await self.bot.languages.choose(interaction.user.id, chosen)
        said = "language-auto" if chosen is None else "language-chosen"
        await send_private(interaction, text(user_locale(interaction), said))

    @app_commands.command(name="help", description="How to play, and what the buttons do")
    async def help(self, interaction: Interaction) -> None:
        rules = _rules_here(interaction)
        page = PAGE_KEYS[0]
        locale = user_locale(interaction)
        await interaction.response.send_message(
            embed=help_embed(page, rules, locale, _language_here(interaction)),
            view=help_view(page, rules.name, locale),
            ephemeral=True,
        )

    @app_commands.command(name="check", description="Rule on a hand: best arrangement, penalty")
    @app_commands.describe(
        hand="13 or 14 cards, e.g. 4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C",
        indicator="The indicator (cut joker) card, e.g. 8D or JK",
        profile="Which rules",
    )
    @app_commands.choices(profile=PROFILE_CHOICES)
    async def check(
        self, interaction: Interaction, hand: str, indicator: str, profile: str = "points"
    ) -> None:
        # Not while the player's own match hides what a ruling tells (its hint level).
        await self.bot.tables.may_rule(interaction.user.id)
        rules = get_profile(profile)
        locale = user_locale(interaction)
        try:
            cards = rules.parse_hand(hand)
            ind = Face.parse(indicator)
        except CardParseError as exc:
            raise UserError("error-bad-card", detail=card_error_text(exc, locale)) from None
        if len(cards) not in (13, 14):
            raise UserError("error-hand-size", count=len(cards))
        await send_private(interaction, ruling_text(cards, rules, ind, locale))


def _language_here(interaction: Interaction) -> Locale | None:
    """The language of the table in this channel, whose buttons the help names (None: no
    table here)."""
    here = interaction.client.tables.registry.here(interaction.channel_id or 0)
    return here.options.language if here is not None else None


def _rules_here(interaction: Interaction, profile: str | None = None) -> Rules:
    """The rules of the table in this channel (with its house rules) when it plays `profile`
    (or any, when none is named); else the profile's own (points when none is named)."""
    here = interaction.client.tables.registry.here(interaction.channel_id or 0)
    if here is not None and profile in (None, here.rules.name):
        return here.rules
    return get_profile(profile or "points")


async def setup(bot: PapluBot) -> None:
    await add_slice(bot, Info(bot))
