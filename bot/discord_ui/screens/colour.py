"""The colour of every embed the bot posts: the card table's green."""

from __future__ import annotations

import discord

COLOUR = discord.Colour.from_rgb(0x1F, 0x8B, 0x4C)
