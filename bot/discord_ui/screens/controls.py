"""What every screen's controls share: a view that never times out (its buttons work through
their ids after a restart), and the empty one that takes controls off a message."""

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
