"""Card images or text only: the server default and each player's own choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import Storage
from tests.storage.helpers import G


async def test_server_default_is_images_and_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    async with await Storage.open(path) as s:
        assert (await s.settings.get_settings(G)).card_images is True
        off = await s.settings.update_settings(G, card_images=False)
        assert off.card_images is False
        # other settings changes keep it
        assert (await s.settings.update_settings(G, turn_timer=45)).card_images is False
        assert (await s.settings.get_settings(G + 1)).card_images is True  # per guild
        with pytest.raises(ValueError):
            await s.settings.update_settings(G, card_images=1)  # type: ignore[arg-type]
    async with await Storage.open(path) as s:
        again = await s.settings.get_settings(G)
        assert (again.card_images, again.turn_timer) == (False, 45)
        assert (await s.settings.update_settings(G, card_images=True)).card_images is True


async def test_a_players_choice_is_remembered_everywhere_and_can_be_forgotten(
    tmp_path: Path,
) -> None:
    path = tmp_path / "u.db"
    async with await Storage.open(path) as s:
        assert await s.preferences.get_card_images(5) is None  # never chose: the server decides
        await s.preferences.set_card_images(5, False)
        await s.preferences.set_card_images(6, True)
        assert (await s.preferences.get_card_images(5), await s.preferences.get_card_images(6)) == (
            False,
            True,
        )
        with pytest.raises(ValueError):
            await s.preferences.set_card_images(5, "no")  # type: ignore[arg-type]
    async with await Storage.open(path) as s:  # survives a restart
        assert await s.preferences.get_card_images(5) is False
        await s.preferences.set_card_images(5, None)
        assert await s.preferences.get_card_images(5) is None


async def test_a_players_language_is_kept_apart_from_their_picture_choice(st: Storage) -> None:
    """`/rummy language`: stored per player on both backends; choosing a language keeps the
    picture choice and the other way round; None forgets it."""
    prefs = st.preferences
    assert await prefs.languages() == {}
    await prefs.set_card_images(5, False)
    await prefs.set_language(5, "hi")
    await prefs.set_language(6, "en")
    assert await prefs.languages() == {5: "hi", 6: "en"}
    assert await prefs.get_card_images(5) is False  # untouched by the language
    await prefs.set_card_images(6, True)
    assert (await prefs.languages())[6] == "en"  # untouched by the picture choice
    await prefs.set_language(5, None)
    assert await prefs.languages() == {6: "en"}
    with pytest.raises(ValueError):
        await prefs.set_language(7, "x" * 40)
    assert await prefs.languages() == {6: "en"}
