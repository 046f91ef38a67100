"""What every screen's controls share: a view that never times out (its buttons work through
their ids after a restart), the empty one that takes controls off a message, and controls
given as Discord's own component dicts (`Rows`)."""

from __future__ import annotations

from typing import Any

import discord


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def empty_view() -> discord.ui.View:
    return discord.ui.View(timeout=None)


Component = dict[str, Any]


class Rows(discord.ui.View):
    """Controls given as the component dicts Discord receives, one list a row, sent as they
    are: built straight from what a screen shows, without the discord.py objects (a `Button`
    and its `DynamicItem` per button, a `SelectOption` per menu line) that would only be
    turned back into these dicts. The game's controls need no object to work: their clicks
    reach the bot through the persistent `GameButton` and `GameSelect`, matched by their ids
    (`components.py`), whatever message they are on."""

    def __init__(self, rows: list[list[Component]]) -> None:
        super().__init__(timeout=None)
        self._rows = [row for row in rows if row]

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": [dict(c) for c in row]} for row in self._rows]


def button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    emoji: str | None = None,
    disabled: bool = False,
) -> Component:
    """A button as discord.py's `Button.to_component_dict` writes it."""
    out: Component = {
        "type": 2,
        "style": style.value,
        "label": label,
        "disabled": disabled,
        "custom_id": custom_id,
    }
    if emoji is not None:
        out["emoji"] = {"id": None, "name": emoji}
    return out


def option(label: str, value: str, description: str | None = None) -> Component:
    """A menu's line as discord.py's `SelectOption.to_dict` writes it."""
    out: Component = {"label": label, "value": value, "default": False}
    if description is not None:
        out["description"] = description
    return out


def menu(custom_id: str, placeholder: str, options: list[Component]) -> Component:
    """A one-choice select menu as discord.py's `Select.to_component_dict` writes it."""
    return {
        "type": 3,
        "custom_id": custom_id,
        "placeholder": placeholder,
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
        "options": options,
    }


def as_seen(view: discord.ui.View) -> list[dict[str, Any]]:
    """`view`'s components as a player sees them: the table version inside a game control's
    id (`r[ms]:<table>:<version>:...`) aside, since a waiting view's buttons mean the same
    whatever version they carry and a move's button is checked against the table. Plain
    dicts, compared as they are (no JSON text, no digest)."""
    rows = view.to_components()
    for row in rows:
        for component in row.get("components", ()):
            cid = component.get("custom_id")
            if cid and cid[:3] in ("rm:", "rs:"):
                table, _, rest = cid[3:].partition(":")
                component["custom_id"] = f"{cid[:3]}{table}:*:{rest.partition(':')[2]}"
    return rows
