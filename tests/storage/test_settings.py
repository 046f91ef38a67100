"""Per-guild settings and their defaults (bot.storage.settings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import (
    Storage,
)
from tests.storage.helpers import G


async def test_settings_defaults_and_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    async with await Storage.open(path) as s:
        d = await s.settings.get_settings(G)
        assert (d.default_profile, d.turn_timer, d.allowed_channel_ids) == ("points", 60, None)
        assert d.channel_allowed(123)
        await s.settings.update_settings(
            G, default_profile="pool101", allowed_channel_ids=[7, 5, 7]
        )
        upd = await s.settings.update_settings(G, turn_timer=45)  # other fields untouched
        assert (upd.default_profile, upd.turn_timer, upd.allowed_channel_ids) == (
            "pool101",
            45,
            frozenset({5, 7}),
        )
        assert upd.channel_allowed(5) and not upd.channel_allowed(6)
        assert (await s.settings.get_settings(G + 1)).default_profile == "points"  # per guild
        with pytest.raises(ValueError):
            await s.settings.update_settings(G, turn_timer=0)
        with pytest.raises(ValueError):
            await s.settings.update_settings(G, default_profile=" ")
    async with await Storage.open(path) as s:
        again = await s.settings.get_settings(G)
        assert again == upd
        cleared = await s.settings.update_settings(G, allowed_channel_ids=None)
        assert cleared.allowed_channel_ids is None and cleared.turn_timer == 45
        assert (
            await s.settings.update_settings(G, allowed_channel_ids=[])
        ).allowed_channel_ids is None


async def test_table_threads_setting_defaults_on_and_round_trips(tmp_path: Path) -> None:
    """Migration 0009: tables play in threads unless a server chose the channel."""
    path = tmp_path / "s.db"
    async with await Storage.open(path) as s:
        assert (await s.settings.get_settings(G)).table_threads is True
        off = await s.settings.update_settings(G, table_threads=False)
        assert off.table_threads is False and off.card_images is True
        kept = await s.settings.update_settings(G, turn_timer=30)  # untouched by others
        assert kept.table_threads is False
        with pytest.raises(ValueError):
            await s.settings.update_settings(G, table_threads=1)  # type: ignore[arg-type]
    async with await Storage.open(path) as s:
        assert (await s.settings.get_settings(G)).table_threads is False
        assert (await s.settings.get_settings(G + 1)).table_threads is True


async def test_the_servers_language_is_kept_apart_from_its_other_settings(st: Storage) -> None:
    """Migration 0011, on both backends: no choice until a server makes one; choosing keeps
    every other setting and the other way round; None follows Discord's language again; a
    value no catalogue tag could be is refused and changes nothing."""
    settings = st.settings
    assert (await settings.get_settings(G)).language is None
    hindi = await settings.update_settings(G, language="hi", hints="off")
    assert hindi.language == "hi" and hindi.hints.value == "off"
    kept = await settings.update_settings(G, turn_timer=45)
    assert kept.language == "hi" and kept.turn_timer == 45
    assert (await settings.get_settings(G + 1)).language is None  # per server
    with pytest.raises(ValueError):
        await settings.update_settings(G, language="x" * 40)
    with pytest.raises(ValueError):
        await settings.update_settings(G, language="")
    assert (await settings.get_settings(G)).language == "hi"
    back = await settings.update_settings(G, language=None)
    assert back.language is None and back.turn_timer == 45 and back.hints.value == "off"
