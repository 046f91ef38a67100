"""The game's persistent components and their custom ids.

Every component's custom_id carries the table id, the table version it was drawn for, the seat
it belongs to and the action: `rm:<table>:<version>:<seat or x>:<action>[:<arg>]` for buttons,
the same with `rs:` for select menus. Two `DynamicItem` classes, registered by the rummy cog when
it loads, recognise those ids on any message, old or new, and hand the click to the cog. So no
view object needs to live in memory for a button to work, and a restart breaks nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.engine.actions import ActionKind
from bot.words import Locale, text

from .locales import user_locale

if TYPE_CHECKING:
    from .client import PapluBot

#: The moves a hand view's controls make, by the action word in their custom id. "rummy" is
#: a declaration of the 13 cards held, before drawing (no card); "confirm_drop" is the second
#: press of Drop, after its cost was shown.
MOVE_ACTIONS: dict[str, ActionKind] = {
    "draw": ActionKind.DRAW_STOCK,
    "take": ActionKind.TAKE_DISCARD,
    "discard": ActionKind.DISCARD,
    "declare": ActionKind.DECLARE,
    "rummy": ActionKind.DECLARE,
    "confirm_drop": ActionKind.DROP,
}
#: Of those, the ones whose control names a card.
CARD_ACTIONS = frozenset({"discard", "declare"})

CUSTOM_ID_PREFIX = "rm"
CUSTOM_ID_TEMPLATE = (
    r"rm:(?P<table>[0-9a-z]{4,16}):(?P<version>\d{1,9}):(?P<seat>\d{1,2}|x)"
    r":(?P<action>[a-z_]{2,16})(?::(?P<arg>[0-9a-z_-]{1,24}))?"
)
SELECT_TEMPLATE = "rs" + CUSTOM_ID_TEMPLATE[2:]  # same shape, "rs:" prefix for select menus


def custom_id(table_id: str, version: int, seat: int | None, action: str, arg: str = "") -> str:
    """A button/select id carrying the table version it was built for (at most 100 chars)."""
    cid = f"{CUSTOM_ID_PREFIX}:{table_id}:{version}:{'x' if seat is None else seat}:{action}"
    if arg:
        cid += f":{arg}"
    return cid


@dataclass(frozen=True, slots=True)
class ComponentId:
    table_id: str
    version: int
    seat: int | None
    action: str
    arg: str

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ComponentId:
        seat = match["seat"]
        return cls(
            match["table"],
            int(match["version"]),
            None if seat == "x" else int(seat),
            match["action"],
            match["arg"] or "",
        )


class ComponentHandler(Protocol):
    async def on_component(
        self, interaction: discord.Interaction[PapluBot], cid: ComponentId, values: list[str]
    ) -> None: ...


async def _route(
    interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
) -> None:
    cog = interaction.client.get_cog("Rummy")
    if cog is None:  # pragma: no cover - only while the extension reloads
        await interaction.response.send_message(
            text(user_locale(interaction), "error-restarting"), ephemeral=True
        )
        return
    handler: ComponentHandler = cog
    await handler.on_component(interaction, cid, values)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID_TEMPLATE):
    """A button whose meaning lives entirely in its custom_id."""

    def __init__(
        self,
        cid: ComponentId,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=custom_id(cid.table_id, cid.version, cid.seat, cid.action, cid.arg),
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(ComponentId.from_match(match), label=label or "?")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _route(interaction, self.cid, [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A select menu whose meaning lives in its custom_id; values are card ids or tiers."""

    def __init__(
        self,
        cid: ComponentId,
        *,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        cid_text = "rs" + custom_id(cid.table_id, cid.version, cid.seat, cid.action, cid.arg)[2:]
        super().__init__(
            discord.ui.Select(
                custom_id=cid_text,
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-")],
                row=row,
            )
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        options = list(item.options) if isinstance(item, discord.ui.Select) else None
        return cls(ComponentId.from_match(match), options=options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _route(interaction, self.cid, list(self.item.values))


HELP_TEMPLATE = r"hp:(?P<page>[a-z]{2,8}):(?P<profile>[a-z0-9]{1,12})"


class HelpButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HELP_TEMPLATE):
    """One screen of `/rummy help`: the page and the profile it explains are in the id, so
    the pager works from any old help message, after a restart too."""

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
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HelpButton:
        return cls(match["page"], match["profile"], label=getattr(item, "label", None) or "…")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.engine.rules import PROFILES

        from .errors import answer_error
        from .render.help import PAGE_KEYS, help_embed

        if self.page not in PAGE_KEYS or self.profile not in PROFILES:
            await answer_error(interaction, ValueError("unknown help page"), "help")
            return
        rules = PROFILES[self.profile]
        here = interaction.client.tables.registry.here(interaction.channel_id or 0)
        if here is not None and here.rules.name == self.profile:
            rules = here.rules  # this table's own house rules
        from .locales import user_locale

        locale = user_locale(interaction)
        await interaction.response.edit_message(
            embed=help_embed(self.page, rules, locale),
            view=help_view(self.page, self.profile, locale),
        )


def help_view(page: str, profile: str, locale: Locale | None = None) -> discord.ui.View:
    """The pager under a help screen: one button per screen (7, in two rows), labelled in
    the reader's language."""
    from .render.help import PAGE_KEYS, page_title

    view = discord.ui.View(timeout=None)
    for key in PAGE_KEYS:
        label = page_title(key, locale)
        view.add_item(HelpButton(key, profile, label=label, current=key == page))
    return view
