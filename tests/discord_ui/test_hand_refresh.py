"""A player's open hand view is refreshed once per table version, never less.

The presenter's refreshes of one view (the player's own click, the turn's push, the table
flush's push) may overlap while an edit is in flight; a refresh of the version already being
sent would repeat the request and the picture, a refresh of a newer version must still go out.
The presenter is built without its Discord client, storage and drawing process: only its hand
bookkeeping runs, with the view's contents stubbed."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord_ui.presenter import DiscordPresenter, HandMessage, OpenHand
from bot.discord_ui.table_hooks import TableHooks


class SlowInteraction:
    """An interaction whose edits land only when `gate` is set."""

    id = 4242

    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []
        self.gate = asyncio.Event()

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.edits.append(kwargs)
        await self.gate.wait()


def presenter_with_view(
    version: int, same: str | None = None
) -> tuple[DiscordPresenter, Any, SlowInteraction, list[int]]:
    """`same`: every version's view reads this (else "v<version>")."""
    presenter = DiscordPresenter.__new__(DiscordPresenter)
    presenter.hands = {}
    presenter.hooks = TableHooks()
    table = SimpleNamespace(id="t1", version=version)
    interaction = SlowInteraction()
    presenter.hands[("t1", 7)] = OpenHand(interaction, time.monotonic(), 99, None, version - 1)  # type: ignore[arg-type]
    built: list[int] = []

    async def hand_message(table: Any, user_id: int, **_: Any) -> HandMessage:
        built.append(table.version)
        await asyncio.sleep(0)  # the picture is drawn elsewhere meanwhile
        content = f"v{table.version}" if same is None else same
        return HandMessage(
            content, discord.Embed(), discord.ui.View(timeout=None), version=table.version
        )

    presenter.hand_message = hand_message  # type: ignore[method-assign]
    return presenter, table, interaction, built


@pytest.mark.asyncio
async def test_two_refreshes_of_one_version_send_one_edit() -> None:
    presenter, table, interaction, built = presenter_with_view(5)
    first = asyncio.create_task(presenter._push_hand(table, 7))
    second = asyncio.create_task(presenter._push_hand(table, 7))
    await asyncio.sleep(0.01)
    interaction.gate.set()
    await asyncio.gather(first, second)
    assert built == [5]
    assert [e["content"] for e in interaction.edits] == ["v5"]
    assert presenter.hands[("t1", 7)].version == 5
    await presenter._push_hand(table, 7)  # landed: the same version is not sent again
    assert len(interaction.edits) == 1


@pytest.mark.asyncio
async def test_a_newer_version_goes_out_while_an_older_edit_flies() -> None:
    presenter, table, interaction, built = presenter_with_view(5)
    first = asyncio.create_task(presenter._push_hand(table, 7))
    await asyncio.sleep(0.01)
    table.version = 6  # the table moved on before the first edit landed
    second = asyncio.create_task(presenter._push_hand(table, 7))
    await asyncio.sleep(0.01)
    interaction.gate.set()
    await asyncio.gather(first, second)
    assert built == [5, 6]
    assert [e["content"] for e in interaction.edits] == ["v5", "v6"]


@pytest.mark.asyncio
async def test_a_click_under_way_holds_the_refresh_until_it_fails() -> None:
    presenter, table, interaction, built = presenter_with_view(5)
    message = SimpleNamespace(id=99)
    presenter.hand_editing(table, 7, message)  # type: ignore[arg-type]
    await presenter._push_hand(table, 7)
    assert built == [] and interaction.edits == []
    presenter.hand_edit_failed(table, 7)  # the click's edit did not land
    interaction.gate.set()
    await presenter._push_hand(table, 7)
    assert built == [5] and [e["content"] for e in interaction.edits] == ["v5"]


@pytest.mark.asyncio
async def test_a_click_on_another_view_does_not_hold_this_one() -> None:
    presenter, table, interaction, built = presenter_with_view(5)
    presenter.hand_editing(table, 7, SimpleNamespace(id=12345))  # type: ignore[arg-type]
    interaction.gate.set()
    await presenter._push_hand(table, 7)
    assert built == [5]


@pytest.mark.asyncio
async def test_a_view_that_would_read_the_same_is_not_edited_again() -> None:
    """A waiting player's view after an opponent's draw reads exactly as before: no request,
    and the view stands for the new version; a view that reads differently is edited."""
    presenter, table, interaction, built = presenter_with_view(5, same="Waiting for Bob")
    interaction.gate.set()
    await presenter._push_hand(table, 7)
    assert [e["content"] for e in interaction.edits] == ["Waiting for Bob"]
    table.version = 6
    await presenter._push_hand(table, 7)
    assert built == [5, 6] and len(interaction.edits) == 1  # built, compared, not sent
    assert presenter.hands[("t1", 7)].version == 6
    presenter.hand_message = _reads(presenter.hand_message, "Your turn")  # type: ignore[method-assign]
    table.version = 7
    await presenter._push_hand(table, 7)
    assert [e["content"] for e in interaction.edits] == ["Waiting for Bob", "Your turn"]


def _reads(build: Any, content: str) -> Any:
    async def hand_message(table: Any, user_id: int, **kw: Any) -> HandMessage:
        hand = await build(table, user_id, **kw)
        hand.content = content
        return hand

    return hand_message
