"""A player's open hand view is refreshed once per table version, never less.

The refreshes of one view (the player's own click, the turn's push, the table flush's push) may
overlap while an edit is in flight; a refresh of the version already being sent would repeat
the request and the picture, a refresh of a newer version must still go out. `HandViews` is
built without its drawing process and storage: only its bookkeeping runs, with the view's
contents stubbed."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord_ui import edits
from bot.discord_ui.hands import HandMessage, HandPictures, HandViews, OpenHand
from bot.discord_ui.table_hooks import TableHooks
from bot.table.vocabulary import TableStatus


class SlowInteraction:
    """An interaction whose edits land only when `gate` is set (or fail, with `fail`)."""

    def __init__(self, iid: int = 4242, message_id: int = 99) -> None:
        self.id = iid
        self.user = SimpleNamespace(id=7)
        self.message = SimpleNamespace(id=message_id)
        self.response = SimpleNamespace(is_done=lambda: True)
        self.edits: list[dict[str, Any]] = []
        self.gate = asyncio.Event()
        self.fail = False

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.edits.append(kwargs)
        await self.gate.wait()
        if self.fail:
            raise RuntimeError("the edit did not land")


@pytest.fixture(autouse=True)
def edits_through_the_stub(monkeypatch: pytest.MonkeyPatch) -> None:
    """The views' edits (`edits.edit_original`, unparsed, for a real interaction) reach the
    stub's `edit_original_response`: only the bookkeeping around them is tested here."""

    async def edit_original(interaction: Any, **kwargs: Any) -> Any:
        return await interaction.edit_original_response(**kwargs)

    monkeypatch.setattr(edits, "edit_original", edit_original)


def views_with_one_open(
    version: int, same: str | None = None
) -> tuple[HandViews, Any, SlowInteraction, list[int]]:
    """`same`: every version's view reads this (else "v<version>")."""
    views = HandViews.__new__(HandViews)
    views.open_views = {}
    views.pictures = HandPictures()
    views.images = SimpleNamespace(run=None)  # type: ignore[assignment]  # nothing is drawn
    views.table_message = SimpleNamespace(hooks=TableHooks())  # type: ignore[assignment]
    table = SimpleNamespace(id="t1", version=version, status=TableStatus.PLAYING, match=object())
    interaction = SlowInteraction()
    views.open_views[("t1", 7)] = OpenHand(interaction, time.monotonic(), 99, version - 1)  # type: ignore[arg-type]
    built: list[int] = []

    async def build(table: Any, user_id: int, *_: Any, **__: Any) -> HandMessage:
        built.append(table.version)
        await asyncio.sleep(0)  # the picture is drawn elsewhere meanwhile
        content = f"v{table.version}" if same is None else same
        return HandMessage(
            content, discord.Embed(), discord.ui.View(timeout=None), version=table.version
        )

    views.build = build  # type: ignore[method-assign]
    return views, table, interaction, built


@pytest.mark.asyncio
async def test_two_refreshes_of_one_version_send_one_edit() -> None:
    views, table, interaction, built = views_with_one_open(5)
    first = asyncio.create_task(views.refresh(table, 7))
    second = asyncio.create_task(views.refresh(table, 7))
    await asyncio.sleep(0.01)
    interaction.gate.set()
    await asyncio.gather(first, second)
    assert built == [5]
    assert [e["content"] for e in interaction.edits] == ["v5"]
    assert views.open_views[("t1", 7)].version == 5
    await views.refresh(table, 7)  # landed: the same version is not sent again
    assert len(interaction.edits) == 1


@pytest.mark.asyncio
async def test_a_newer_version_goes_out_while_an_older_edit_flies() -> None:
    views, table, interaction, built = views_with_one_open(5)
    first = asyncio.create_task(views.refresh(table, 7))
    await asyncio.sleep(0.01)
    table.version = 6  # the table moved on before the first edit landed
    second = asyncio.create_task(views.refresh(table, 7))
    await asyncio.sleep(0.01)
    interaction.gate.set()
    await asyncio.gather(first, second)
    assert built == [5, 6]
    assert [e["content"] for e in interaction.edits] == ["v5", "v6"]


@pytest.mark.asyncio
async def test_a_click_under_way_holds_the_refresh_until_it_fails() -> None:
    views, table, _interaction, built = views_with_one_open(5)
    click = SlowInteraction(iid=5151)  # the player's click in that same view (message 99)
    click.fail = True
    shown = asyncio.create_task(views.show(click, table, "note"))  # type: ignore[arg-type]
    await asyncio.sleep(0.01)
    await views.refresh(table, 7)  # the click is sending version 5: nothing more to send
    assert built == [5] and len(click.edits) == 1
    click.gate.set()
    with pytest.raises(RuntimeError):
        await shown  # the click's edit did not land
    click.fail = False  # (refreshes now go through the click's interaction)
    await views.refresh(table, 7)
    assert built == [5, 5] and len(click.edits) == 2  # so the refresh goes out


@pytest.mark.asyncio
async def test_a_click_in_another_view_makes_it_the_one_refreshed() -> None:
    """An older view of the same hand, clicked: it shows the table as it is, the view that
    was refreshed until then is told it was replaced, and refreshes go to the clicked one."""
    views, table, interaction, built = views_with_one_open(5)
    interaction.gate.set()
    other = SlowInteraction(iid=5151, message_id=12345)
    other.gate.set()
    await views.show(other, table)  # type: ignore[arg-type]
    assert [e["content"] for e in other.edits] == ["v5"]
    assert [e["content"] for e in interaction.edits] == [
        "This hand view was replaced by a newer one — use the newest."
    ]
    table.version = 6
    await views.refresh(table, 7)
    assert built == [5, 6] and [e["content"] for e in other.edits] == ["v5", "v6"]
    assert len(interaction.edits) == 1


@pytest.mark.asyncio
async def test_a_view_that_would_read_the_same_is_not_edited_again() -> None:
    """A waiting player's view after an opponent's draw reads exactly as before: no request,
    and the view stands for the new version; a view that reads differently is edited."""
    views, table, interaction, built = views_with_one_open(5, same="Waiting for Bob")
    interaction.gate.set()
    await views.refresh(table, 7)
    assert [e["content"] for e in interaction.edits] == ["Waiting for Bob"]
    table.version = 6
    await views.refresh(table, 7)
    assert built == [5, 6] and len(interaction.edits) == 1  # built, compared, not sent
    assert views.open_views[("t1", 7)].version == 6
    views.build = _reads(views.build, "Your turn")  # type: ignore[method-assign]
    table.version = 7
    await views.refresh(table, 7)
    assert [e["content"] for e in interaction.edits] == ["Waiting for Bob", "Your turn"]


def _reads(build: Any, content: str) -> Any:
    async def reads(table: Any, user_id: int, *args: Any, **kw: Any) -> HandMessage:
        hand = await build(table, user_id, *args, **kw)
        hand.content = content
        return hand

    return reads


@pytest.mark.asyncio
async def test_an_edit_names_a_kept_picture_only_while_it_is_on_that_message() -> None:
    """One player's edits go one at a time, and each answer says which attachment carries the
    picture on which message: a later edit that keeps the picture names that attachment; a
    picture kept by a view built before another edit replaced it is drawn and uploaded after
    all (naming the replaced attachment would be refused); another message names nothing of
    this one's."""
    from bot.discord_ui.hand_message import ShownImage
    from bot.images import RenderedImage

    pictures, key, name = HandPictures(), ("t1", 7), "hand-1-0.png"
    first = SimpleNamespace(id=99, attachments=[SimpleNamespace(id=1, filename=name)])
    drawn: list[object] = []
    sent: list[list[Any]] = []

    async def draw(picture: Any) -> RenderedImage:
        drawn.append(picture)
        return RenderedImage(b"PNG", name, 1, 1)

    def answering(answer: Any) -> Any:
        async def send(hand: HandMessage) -> Any:
            sent.append(hand.edit_kwargs()["attachments"])
            return answer

        return send

    def hand(kept: ShownImage | None) -> HandMessage:
        view = discord.ui.View(timeout=None)
        out = HandMessage(None, discord.Embed(), view, kept=kept, picture=("k", name))
        out.source = "scene"  # type: ignore[assignment]
        return out

    pictures.learn(key, ShownImage("k", name, 99, first.attachments[0]))  # type: ignore[arg-type]
    on_99 = pictures.on(key, 99)
    assert on_99 is not None and pictures.on(key, 100) is None  # another message: nothing
    await pictures.send(key, 99, hand(on_99), answering(first), draw)
    assert sent[-1] == [first.attachments[0]] and drawn == []  # named, not drawn
    # A view built while the picture was still attachment 1; meanwhile an edit replaced it.
    stale = hand(pictures.on(key, 99))
    second = SimpleNamespace(id=99, attachments=[SimpleNamespace(id=2, filename=name)])
    pictures.learn(key, hand(None).landed(second))  # type: ignore[arg-type]
    await pictures.send(key, 99, stale, answering(second), draw)
    assert drawn == ["scene"] and isinstance(sent[-1][0], discord.File)  # uploaded anew
    on_99 = pictures.on(key, 99)
    assert on_99 is not None and on_99.attachment is second.attachments[0]
