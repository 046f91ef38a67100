"""The hand picture speaks its owner's language, through the fake Discord: a player whose
Discord is in Hindi gets Hindi captions on their hand picture (drawn and uploaded), the
English player at the same table English ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bot.discord_ui.hand_parts
from bot.images import typeset
from bot.images.paint import Picture
from tests.e2e.harness import game_env, open_hand

PLAYERS = ["asha", "bob"]


async def test_each_player_s_hand_picture_is_in_their_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[tuple[int, str, Picture]] = []
    real_hand = bot.discord_ui.hand_parts.hand_picture

    def spy_hand(obs: Any, *args: Any, **kw: Any) -> Picture:
        picture = real_hand(obs, *args, **kw)
        drawn.append((obs.seat, kw["words"].tag, picture))
        return picture

    monkeypatch.setattr(bot.discord_ui.hand_parts, "hand_picture", spy_hand)
    async with game_env(tmp_path, PLAYERS) as env:
        fake = env.fake
        fake.set_locale("asha", "hi")
        r = await fake.slash("bob", "general", "rummy new", profile="points")
        assert r.message is not None
        await fake.click("asha", fake.message(r.message.id), label="Join")
        await fake.wait_for(lambda: "asha" in fake.message(r.message.id).text())
        await (await fake.click("bob", fake.message(r.message.id), label="Start")).wait()
        table = env.table()
        seat_of = {s.user_id: i for i, s in enumerate(table.seats)}
        for user, tag in (("asha", "hi"), ("bob", "en")):
            view = await open_hand(fake, user)
            seat = seat_of[fake.user(user).id]
            tags = {t for s, t, _p in drawn if s == seat}
            assert tags == {tag}, (user, tags)
            picture = [p for s, _t, p in drawn if s == seat][-1]
            texts = [lb.text for lb in picture.scene.labels]
            hindi = [t for t in texts if typeset.has_devanagari(t)]
            if tag == "hi":
                assert hindi and len(hindi) == len(texts), texts  # every caption, not some
            else:
                assert not hindi, texts
            assert view.attachments, "the picture was uploaded with the hand view"
