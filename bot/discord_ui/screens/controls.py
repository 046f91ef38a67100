"""What every screen's controls share: a view that never times out (its buttons work through
their ids after a restart), the empty one that takes controls off a message, and how a view's
controls read to a player (`as_seen`)."""

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
