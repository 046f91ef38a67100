"""The README's invite asks for what the bot uses: the permission integer and the URL agree,
and it holds every permission a table's thread needs (`render.place.PERMISSION_NAMES`)."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.discord_ui.screens.place import PERMISSION_NAMES

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_permission_integer_covers_threads() -> None:
    text = README.read_text()
    integer = int(re.search(r"Permission integer: `(\d+)`", text).group(1))  # type: ignore[union-attr]
    in_url = re.findall(r"permissions=(\d+)", text)
    assert in_url and {int(n) for n in in_url} == {integer}
    perms = discord.Permissions(integer)
    for flag in (
        "view_channel",
        "send_messages",
        "embed_links",
        "attach_files",
        "read_message_history",
        *PERMISSION_NAMES,
    ):
        assert getattr(perms, flag), flag
    assert not perms.manage_messages and not perms.manage_threads
    for name in ("Create Public Threads", "Send Messages in Threads"):
        assert f"**{name}**" in text
