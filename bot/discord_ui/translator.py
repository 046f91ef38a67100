"""Slash commands in the catalogue's languages: a discord.py `app_commands.Translator`.

When the tree is synced, discord.py asks this translator for every string of every command,
once per Discord locale, and sends the answers as `name_localizations` and
`description_localizations`. The message id is derived from where the string sits, so the
cogs keep their plain English (Discord's base text) and need no ids of their own:

| string                       | catalogue id                                     |
|------------------------------|--------------------------------------------------|
| the group's description      | `cmd-rummy`                                      |
| a subcommand's description   | `cmd-rummy-new` (qualified name, dashes)         |
| an option's description      | attribute `.turn_timer` of its command's message |
| a choice's display name      | `choice-<value>` (a choice named as its value,   |
|                              | like a profile code, stays as it is)             |

Names are never translated: `/rummy new profile:` is typed the same in every language (and
every guide), as Hindi names would be hard to type on most keyboards. English is the base text
itself, so English locales get no localization; a language that lacks a message gets none
either, and Discord shows the English base.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.words.catalogue import SOURCE, Catalogue, catalogue


def command_id(qualified_name: str) -> str:
    """The message id of a command or group (`rummy forget-me` → `cmd-rummy-forget-me`)."""
    return "cmd-" + qualified_name.replace(" ", "-")


def choice_id(choice: app_commands.Choice[Any]) -> str | None:
    """The message id of a choice's display name, or None for a choice shown as it is: one
    named as its value (a profile code), or a language (named in its own words everywhere,
    see `bot.words.languages`)."""
    value = str(choice.value)
    if choice.name == value or value in catalogue().locales:
        return None
    return f"choice-{value}"


def string_id(context: app_commands.TranslationContextTypes) -> tuple[str, str | None] | None:
    """(message id, attribute) for the string at `context`, or None if it is not translated."""
    # The location says what `data` is (a command, group, parameter or choice).
    where = context.location
    data_: Any = context.data
    if where in (Where.command_description, Where.group_description):
        return command_id(data_.qualified_name), None
    if where is Where.parameter_description:
        return command_id(data_.command.qualified_name), data_.display_name
    if where is Where.choice_name:
        msg_id = choice_id(data_)
        return None if msg_id is None else (msg_id, None)
    return None  # names, and anything else: as written


class CatalogueTranslator(app_commands.Translator):
    """Fills the tree's localizations from the catalogue."""

    def __init__(self, source: Catalogue | None = None) -> None:
        self._catalogue = source

    @property
    def catalogue(self) -> Catalogue:
        return self._catalogue or catalogue()

    async def load(self) -> None:
        """Called by `CommandTree.set_translator` at start-up: the catalogue is loaded (and
        checked) then, so a broken file fails the start rather than a player's first answer."""
        self._catalogue = self.catalogue

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        found = string_id(context)
        if found is None:
            return None
        tag = self.catalogue.resolve(locale)
        msg_id, attribute = found
        if tag == SOURCE or not self.catalogue.has(tag, msg_id, attribute):
            return None
        return self.catalogue.text(tag, msg_id, attribute=attribute)
