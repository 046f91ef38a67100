"""`/rummy` as the bot's slices make it, built without a bot (for tests of the command tree)."""

from __future__ import annotations

import importlib
import inspect

from bot.discord_ui.client import EXTENSIONS
from bot.discord_ui.slices import RummyGroup, Slice, command_group


def rummy_group() -> RummyGroup:
    """Every slice of every extension the bot loads, in load order, its commands under
    `/rummy`."""
    cogs: list[Slice] = []
    for name in EXTENSIONS:
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Slice) and cls is not Slice and cls.__module__ == name:
                cogs.append(cls(None))  # type: ignore[arg-type]
    return command_group(cogs)
