"""Card images end to end: who receives which picture, when it is uploaded again, and text only.

Every file the bot uploads is recorded by the fake Discord (`fake.uploads`: the message it
landed on and who could see that message), so privacy is checked on the uploads themselves,
not on what a test happens to look at. The fake also flags an embed showing an
`attachment://` its message lacks, so an edit that keeps (or drops) a picture wrongly fails
`env.finish()`.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

import bot.discord_ui.hand_parts
import bot.discord_ui.table_picture
from bot.engine.observation import Observation, PublicView
from tests.e2e.harness import (
    TableDriver,
    act,
    game_env,
    open_hand,
    results_deal,
    select_options,
    table_message,
)
from tests.fakediscord import FakeDiscord, StoredMessage

TWO = ["alice", "bob"]
HAND_RE = re.compile(r"hand-(\d+)-(\d+)\.png")
PNG = b"\x89PNG\r\n\x1a\n"


def images_of(fake: FakeDiscord, prefix: str) -> list[Any]:
    return [u for u in fake.uploads if u.filename.startswith(prefix)]


def shown_image(msg: StoredMessage) -> str | None:
    """The attachment the message's embed shows, checked to be on the message."""
    refs = msg.embed_attachment_refs
    if not refs:
        return None
    assert refs[0] in msg.attachment_names, (refs, msg.attachment_names)
    return refs[0]


def every_version(msg: StoredMessage) -> list[list[str]]:
    """The attachment names of a message in each of its states, oldest first."""
    return [[a["filename"] for a in snap["attachments"]] for snap in msg.edits] + [
        msg.attachment_names
    ]


async def test_images_in_a_whole_match_reach_the_right_people(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn_tables: list[Any] = []
    drawn_hands: list[Any] = []
    real_table = bot.discord_ui.table_picture.table_picture
    real_hand = bot.discord_ui.hand_parts.hand_picture

    def spy_table(view: Any, *args: Any, **kw: Any) -> Any:
        drawn_tables.append(view)
        return real_table(view, *args, **kw)

    def spy_hand(obs: Any, *args: Any, **kw: Any) -> Any:
        drawn_hands.append(obs)
        return real_hand(obs, *args, **kw)

    monkeypatch.setattr(bot.discord_ui.table_picture, "table_picture", spy_table)
    monkeypatch.setattr(bot.discord_ui.hand_parts, "hand_picture", spy_hand)
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        lobby = await driver.open("alice", profile="points")
        await driver.start("alice")
        final = await driver.play()
        assert final is not None
        await env.finish()

        # The public table is drawn from the PublicView only, never from anything holding a
        # hand; hands are drawn from one seat's Observation.
        assert drawn_tables and all(type(v) is PublicView for v in drawn_tables)
        assert drawn_hands and all(type(o) is Observation for o in drawn_hands)

        # Hand images: only ever on a private message of the one player whose seat it shows,
        # on the first answer and on later edits of that view.
        hands = images_of(fake, "hand-")
        assert hands and all(u.data.startswith(PNG) for u in hands)
        seat_of: dict[int, set[str]] = {}
        for u in hands:
            assert u.visible_to is not None, f"hand image {u.filename} on a public message"
            assert fake.message(u.message_id).visible_to == u.visible_to
            m = HAND_RE.fullmatch(u.filename)
            assert m is not None, u.filename
            seat_of.setdefault(u.visible_to, set()).add(m.group(2))
        alice, bob = fake.user("alice").id, fake.user("bob").id
        assert set(seat_of) == {alice, bob}
        assert len(seat_of[alice]) == 1 and len(seat_of[bob]) == 1
        assert seat_of[alice] != seat_of[bob]
        # "Your hand" is acknowledged first and the view edited in, so every hand image is an
        # edit of a private message (never a public one, checked above).
        assert all(u.edit for u in hands)
        for m in fake.public_messages("general"):
            for names in every_version(m):
                assert not any(n.startswith("hand-") for n in names), (m.id, names)

        # An open view is refreshed when the other player moves, but its picture is uploaded
        # again only when the hand itself changed.
        for user in TWO:
            view = fake.message(driver.views[user])
            uploads = [u for u in hands if u.message_id == view.id]
            assert len(view.edits) > len(uploads) > 0
            shown_image(view)  # whatever it shows is on it

        # The table message carries the table image, public, replaced by edits as play goes.
        tables = images_of(fake, "table-")
        assert tables and all(u.visible_to is None and u.message_id == lobby.id for u in tables)
        assert sum(u.edit for u in tables) >= 2
        final_table = fake.message(lobby.id)
        assert shown_image(final_table) == "table-1.png"
        assert "Match over" in final_table.text()  # the text is all still there

        # The results message: the reveal picture (the hand history is a button away).
        results = [m for m in fake.public_messages("general") if results_deal(m) is not None]
        assert results
        for m in results:
            n = results_deal(m)
            assert m.attachment_names == [f"deal-{n}-result.png"]
            assert shown_image(m) == f"deal-{n}-result.png"
            assert m.attachment_data[f"deal-{n}-result.png"].startswith(PNG)
        assert all(u.visible_to is None for u in images_of(fake, "deal-"))
        # Every edit that kept a picture (the table's, a hand's) named its attachment: one
        # that names none leaves Discord to guess, and it may show the picture a second time.
        # (An edit naming another message's attachment is refused by the fake: a violation.)
        assert fake.server.implicit_keeps == []


async def test_an_unchanged_table_picture_is_not_uploaded_again(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 4) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        await fake.wait_for(lambda: images_of(fake, "table-"))
        await fake.settle(quiet=0.3)
        msg = table_message(fake)
        edits, uploads = len(msg.edits), len(images_of(fake, "table-"))
        # Told the table changed while nothing visible did: no edit at all (it would cost a
        # request against Discord's global limit and show the same), no drawing, no upload.
        presenter = env.bot.presenter
        draws = presenter.images.run
        drawn: list[object] = []

        async def counting(picture: object) -> object:
            drawn.append(picture)
            return await draws(picture)  # type: ignore[arg-type]

        presenter.images.run = counting  # type: ignore[method-assign,assignment]
        await presenter.table_changed(env.table())
        await asyncio.sleep(1.5)  # past the refresh interval
        await fake.settle(quiet=0.3)
        assert len(fake.message(msg.id).edits) == edits
        assert len(images_of(fake, "table-")) == uploads
        assert not [p for p in drawn if "table-" in getattr(p, "name", "")]
        presenter.images.run = draws  # type: ignore[method-assign]
        assert shown_image(fake.message(msg.id)) == "table-1.png"
        # A draw from the stock changes the text (the stock's size), not the picture: the
        # table is edited without an upload.
        table = env.table()
        user = next(u for u in TWO if table.engine_seat(fake.user(u).id) == table.current_turn())
        view = await open_hand(fake, user)
        edits = len(fake.message(msg.id).edits)
        shape_from = len(fake.server.attachment_edits)
        view = await act(fake, user, view, label="Draw from stock")
        await fake.wait_for(lambda: len(fake.message(msg.id).edits) > edits)
        await fake.settle(quiet=0.3)
        assert len(images_of(fake, "table-")) == uploads
        # ...and that edit names the picture it keeps: the attachment already on the message
        # (the request's shape: `attachments: [{id}]`, no file), not an absent `attachments`.
        (kept,) = fake.message(msg.id).attachments
        assert kept["filename"] == "table-1.png"
        draws = [e for e in fake.server.attachment_edits[shape_from:] if e.message_id == msg.id]
        assert draws and all(e.named == [kept["id"]] and e.files == 0 for e in draws), draws
        assert msg.id not in fake.server.implicit_keeps
        # A discard changes the picture: uploaded again, replacing the old one.
        options = select_options(view, "Discard a card")
        await act(fake, user, view, values=[options[0]["value"]], placeholder="Discard a card…")
        await fake.wait_for(lambda: len(images_of(fake, "table-")) > uploads)
        await fake.settle(quiet=0.3)
        assert fake.message(msg.id).attachment_names == ["table-1.png"]
        await env.bot.tables.lobby.cancel(table, fake.user("alice").id, True)


async def test_the_discard_menu_lists_cards_in_the_pictures_order(tmp_path: Path) -> None:
    from bot.images import hand_order

    async with game_env(tmp_path, TWO, 4) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        await fake.settle(quiet=0.3)
        table = env.table()
        user = next(u for u in TWO if table.engine_seat(fake.user(u).id) == table.current_turn())
        view = await open_hand(fake, user)
        for label in ("Draw from stock", "Sort by suit"):
            view = await act(fake, user, view, label=label)
            obs = table.observation_for(fake.user(user).id)
            advice = env.bot.presenter.hands.advice.get(table.id, obs)
            order = hand_order(obs, advice.drawn, label == "Sort by suit")
            menu = [int(o["value"]) for o in select_options(view, "Discard a card")]
            assert menu == [c.id for c in order if c.id in menu]
            assert len(menu) == len(order)  # drawn from the stock: every card may go
        await env.bot.tables.lobby.cancel(table, fake.user("alice").id, True)


async def test_a_player_can_switch_to_text_only_and_back(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 4) as env:
        fake = env.fake
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        view = await open_hand(fake, "alice")
        assert shown_image(view) is not None and "[Text only]" in view.text()

        view = await act(fake, "alice", view, label="Text only")
        assert view.attachment_names == [] and view.embed_attachment_refs == []
        assert "Your hand" in view.text() and "[Card images]" in view.text()
        assert await env.bot.storage.preferences.get_card_images(fake.user("alice").id) is False
        before = len(images_of(fake, "hand-"))
        # From now on nothing of alice's carries a picture: refreshes, new views, moves.
        await act(fake, "alice", view, label="Refresh")
        fresh = await open_hand(fake, "alice")
        assert fresh.attachment_names == []
        alice = fake.user("alice").id
        assert [u for u in images_of(fake, "hand-")[before:] if u.visible_to == alice] == []
        # bob never chose: he still gets his picture
        bobs = await open_hand(fake, "bob")
        assert shown_image(bobs) is not None

        view = await act(fake, "alice", fresh, label="Card images")
        assert shown_image(view) is not None
        assert await env.bot.storage.preferences.get_card_images(alice) is True
        await env.bot.tables.lobby.cancel(env.table(), alice, True)


async def test_a_server_set_to_text_only_sends_no_pictures(tmp_path: Path) -> None:
    async with game_env(tmp_path, TWO, 4, next_deal_delay=60.0) as env:
        fake = env.fake
        off = await fake.slash("alice", "general", "rummy settings", card_images=False)
        assert off.ephemeral and "Card images: off" in off.text
        driver = TableDriver(fake, TWO)
        await driver.open("alice", profile="points")
        await driver.start("alice")
        view = await open_hand(fake, "bob")
        assert "[Card images]" in view.text()  # the player may still opt in for themselves
        final = await driver.play()
        assert final is not None
        await env.finish()
        assert [u.filename for u in fake.uploads] == []
        assert final.attachment_names == []
        assert "Match over" in final.text()
