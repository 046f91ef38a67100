"""The game's persistent components: a button and a select menu whose meaning is their id.

Two `DynamicItem` classes, registered by the client at start-up, recognise the game's custom
ids (`clicks.TEMPLATE`) on any message, old or new, and hand every click to the one dispatch
(`dispatch.ClickRouter`), which parses the id and calls the handler its slice registered. So no
view object needs to live in memory for a button to work, and a restart breaks nothing.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from .clicks import SELECT_TEMPLATE, TEMPLATE, Click
from .interaction import AnyInteraction, ours


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A button whose meaning lives entirely in its custom id."""

    def __init__(
        self,
        click: Click | str,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        custom_id = click if isinstance(click, str) else click.id
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=custom_id,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: AnyInteraction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(match.string, label=label or "?")

    async def callback(self, any_interaction: AnyInteraction) -> None:
        interaction = ours(any_interaction)
        await interaction.client.clicks.dispatch(interaction, self.item.custom_id or "", ())


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A select menu whose meaning lives in its custom id; its values are the choices (card
    ids, AI tiers, host tools)."""

    def __init__(
        self,
        click: Click | str,
        *,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        custom_id = click if isinstance(click, str) else click.menu_id
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-")],
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: AnyInteraction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        options = list(item.options) if isinstance(item, discord.ui.Select) else None
        return cls(match.string, options=options)

    async def callback(self, any_interaction: AnyInteraction) -> None:
        interaction = ours(any_interaction)
        await interaction.client.clicks.dispatch(
            interaction, self.item.custom_id or "", list(self.item.values)
        )
