"""Buttons and select menus, built so they keep working across restarts.

Every component's custom_id carries the table id, the table version it was drawn for, the seat
it belongs to and the action (see `adapter.custom_id`). Two `DynamicItem` classes, registered in
`setup_hook`, recognise those ids on any message, old or new, and hand the click to the rummy
cog. So no view object needs to live in memory for a button to work, and a bot restart breaks
nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot import render
from bot.adapter import CUSTOM_ID_TEMPLATE, custom_id
from bot.engine.actions import ActionKind
from bot.engine.observation import Observation
from bot.engine.rules import DeclarationMode

SELECT_TEMPLATE = "rs" + CUSTOM_ID_TEMPLATE[2:]  # same shape, "rs:" prefix for select menus
SUIT_ORDER = {0: 0, 1: 1, 3: 2, 2: 3}  # ♠ ♥ ♣ ♦ alternate colours in the menu


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


async def _route(
    interaction: discord.Interaction[Any], cid: ComponentId, values: list[str]
) -> None:
    cog = interaction.client.get_cog("Rummy")
    if cog is None:  # pragma: no cover - only while the extension reloads
        await interaction.response.send_message(
            "The game is restarting; try again.", ephemeral=True
        )
        return
    await cog.on_component(interaction, cid, values)


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


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def lobby_view(table_id: str, version: int) -> discord.ui.View:
    def cid(action: str) -> ComponentId:
        return ComponentId(table_id, version, None, action, "")

    ai_options = [
        discord.SelectOption(
            label="Easy AI", value="easy", description="Plays legally, keeps pairs"
        ),
        discord.SelectOption(label="Medium AI", value="medium", description="Greedy on deadwood"),
        discord.SelectOption(
            label="Hard AI", value="hard", description="Tracks cards, looks ahead"
        ),
    ]
    return _view(
        GameButton(cid("join"), label="Join", style=discord.ButtonStyle.success, row=0),
        GameButton(cid("leave"), label="Leave", row=0),
        GameButton(cid("start"), label="Start", style=discord.ButtonStyle.primary, row=0),
        GameButton(cid("cancel"), label="Cancel", style=discord.ButtonStyle.danger, row=0),
        GameSelect(cid("add_ai"), placeholder="Add an AI player…", options=ai_options, row=1),
    )


def table_view(table_id: str, version: int, between_deals: bool = False) -> discord.ui.View:
    items: list[discord.ui.Item[Any]] = [
        GameButton(
            ComponentId(table_id, version, None, "hand", ""),
            label="Your hand",
            emoji="🂠",
            style=discord.ButtonStyle.primary,
        )
    ]
    if between_deals:
        items.append(
            GameButton(
                ComponentId(table_id, version, None, "next", ""),
                label="Next deal",
                style=discord.ButtonStyle.success,
            )
        )
    return _view(*items)


def prompt_view(table_id: str, version: int) -> discord.ui.View:
    return table_view(table_id, version)


def next_deal_view(table_id: str, version: int) -> discord.ui.View:
    return _view(
        GameButton(
            ComponentId(table_id, version, None, "next", ""),
            label="Next deal",
            style=discord.ButtonStyle.success,
        )
    )


def hand_view(
    table_id: str, version: int, obs: Observation, sort_by_suit: bool, confirm_drop: bool = False
) -> discord.ui.View:
    """The private controls, following the phase of the player's turn."""
    seat = obs.seat

    def cid(action: str, arg: str = "") -> ComponentId:
        return ComponentId(table_id, version, seat, action, arg)

    items: list[discord.ui.Item[Any]] = []
    legal = obs.legal_actions
    kinds = {a.kind for a in legal}
    if confirm_drop and obs.may_drop:
        items.append(
            GameButton(
                cid("confirm_drop"),
                label=f"Confirm drop — costs {obs.drop_cost}",
                style=discord.ButtonStyle.danger,
                row=0,
            )
        )
        items.append(GameButton(cid("refresh"), label="Keep playing", row=0))
        return _view(*items)

    if obs.my_turn and obs.phase == "draw":
        items.append(
            GameButton(
                cid("draw"),
                label="Draw from stock",
                style=discord.ButtonStyle.primary,
                disabled=ActionKind.DRAW_STOCK not in kinds,
                row=0,
            )
        )
        top = obs.top_discard
        items.append(
            GameButton(
                cid("take"),
                label=f"Take {render.card(top)}" if top else "Take discard",
                disabled=ActionKind.TAKE_DISCARD not in kinds,
                row=0,
            )
        )
        if any(a.kind is ActionKind.DECLARE and a.card is None for a in legal):
            items.append(
                GameButton(
                    cid("rummy"),
                    label="Declare hand rummy",
                    style=discord.ButtonStyle.success,
                    row=0,
                )
            )
        if obs.may_drop:
            items.append(
                GameButton(
                    cid("drop"),
                    label=f"Drop ({obs.drop_cost})",
                    style=discord.ButtonStyle.danger,
                    row=1,
                )
            )
    elif obs.my_turn and obs.phase == "discard":
        discards = [a.card for a in legal if a.kind is ActionKind.DISCARD and a.card is not None]
        by_id = {c.id: c for c in obs.hand}
        options = []
        for cid_ in sorted(
            discards,
            key=lambda i: (
                by_id[i].face.is_joker,
                SUIT_ORDER.get(by_id[i].suit, 9),
                by_id[i].rank,
            ),
        ):
            c = by_id[cid_]
            options.append(
                discord.SelectOption(
                    label=render.card(c),
                    value=str(c.id),
                    description=render.discard_option_description(obs, c),
                )
            )
        items.append(
            GameSelect(cid("discard"), placeholder="Discard a card…", options=options[:25], row=0)
        )
        declares = [a.card for a in legal if a.kind is ActionKind.DECLARE and a.card is not None]
        if obs.rules.declaration_mode is DeclarationMode.HONOR:
            honor_options = [
                discord.SelectOption(label=o.label, value=o.value) for o in options[:25]
            ]
            items.append(
                GameSelect(
                    cid("declare"),
                    placeholder="Declare, discarding…",
                    options=honor_options,
                    row=1,
                )
            )
        else:
            best = declares[0] if declares else None
            label = (
                f"Declare — discard {render.card(by_id[best])}"
                if best is not None
                else "Declare (not yet possible)"
            )
            items.append(
                GameButton(
                    cid("declare", str(best) if best is not None else ""),
                    label=label,
                    style=discord.ButtonStyle.success,
                    disabled=best is None,
                    row=1,
                )
            )
    items.append(
        GameButton(
            cid("sort", "melds" if sort_by_suit else "suit"),
            label="Group by melds" if sort_by_suit else "Sort by suit",
            row=2,
        )
    )
    items.append(GameButton(cid("refresh"), label="Refresh", emoji="🔄", row=2))
    return _view(*items)


def empty_view() -> discord.ui.View:
    return discord.ui.View(timeout=None)
