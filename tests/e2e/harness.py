"""Running the real bot against the fake Discord, and acting as players through their views.

Players act only through what their own views show: they open their hand with the table's
button, read the ephemeral message, and click its buttons or pick from its menus.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.client import PapluBot
from bot.config import Settings
from tests.fakediscord import FakeDiscord, StoredMessage

TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"


def settings(db: Path, seed: int | None = 7, **kw: Any) -> Settings:
    base: dict[str, Any] = dict(
        token=TOKEN,
        database_path=db,
        dev_guild_id=None,
        log_level=20,
        ai_delay=0.0,
        next_deal_delay=0.3,
        deck_seed=seed,
    )
    base.update(kw)
    return Settings(**base)


@contextlib.asynccontextmanager
async def running_bot(
    tmp_path: Path, users: list[str], seed: int | None = 7, **kw: Any
) -> AsyncIterator[tuple[FakeDiscord, PapluBot]]:
    async with FakeDiscord(users=users, channels=["general"], token=TOKEN) as fake:
        bot = PapluBot(settings(tmp_path / "bot.sqlite3", seed, **kw))
        async with fake.running(bot):
            await fake.wait_for_commands("rummy")
            yield fake, bot


def text(msg: StoredMessage) -> str:
    return msg.text()


def labels(msg: StoredMessage) -> list[str]:
    out = []
    for row in msg.components or []:
        for comp in row.get("components", []):
            if comp.get("type") == 2:
                out.append(comp.get("label") or "")
    return out


def enabled(msg: StoredMessage, prefix: str) -> bool:
    for row in msg.components or []:
        for comp in row.get("components", []):
            if comp.get("type") == 2 and (comp.get("label") or "").startswith(prefix):
                return not comp.get("disabled", False)
    return False


def label_starting(msg: StoredMessage, prefix: str) -> str | None:
    for label in labels(msg):
        if label.startswith(prefix):
            return label
    return None


def select_options(msg: StoredMessage, placeholder_prefix: str) -> list[dict[str, Any]]:
    for row in msg.components or []:
        for comp in row.get("components", []):
            if comp.get("type") == 3 and (comp.get("placeholder") or "").startswith(
                placeholder_prefix
            ):
                return list(comp.get("options", []))
    return []


def deadwood_of(option: dict[str, Any]) -> int:
    desc = option.get("description") or ""
    if "valid declaration" in desc:
        return -1
    m = re.search(r"deadwood (\d+)", desc)
    return int(m.group(1)) if m else 999


async def open_hand(fake: FakeDiscord, user: str) -> StoredMessage:
    """Press “Your hand” on the table message, as a player would; returns the private view."""
    table_msg = next(
        m for m in reversed(fake.public_messages("general")) if "Your hand" in labels(m)
    )
    result = await fake.click(user, table_msg, label="Your hand")
    assert result.ephemeral, "a hand view must be private"
    assert result.message is not None
    return fake.message(result.message.id)


async def act(
    fake: FakeDiscord,
    user: str,
    view: StoredMessage,
    *,
    label: str | None = None,
    values: list[str] | None = None,
    placeholder: str | None = None,
) -> StoredMessage:
    """Click a button (or pick from a menu) in a private view and wait for the view to update."""
    before = len(fake.message(view.id).edits)
    if values is not None:
        await fake.select(user, view, values, placeholder=placeholder)
    else:
        await fake.click(user, view, label=label)
    await fake.wait_for(lambda: len(fake.message(view.id).edits) > before, timeout=10)
    await fake.settle(quiet=0.1)
    return fake.message(view.id)


async def wait_for_turn(fake: FakeDiscord, user: str, view: StoredMessage) -> StoredMessage:
    """Wait until the player's own view says it is their turn (the bot pushes it); press
    Refresh if it does not arrive, as a player would."""

    def my_turn() -> bool:
        return "Your turn" in fake.message(view.id).text()

    try:
        await fake.wait_for(my_turn, timeout=3)
    except Exception:
        view = await act(fake, user, fake.message(view.id), label="Refresh")
        await fake.wait_for(my_turn, timeout=3)
    return fake.message(view.id)


async def play_turn(fake: FakeDiscord, user: str, view: StoredMessage) -> StoredMessage:
    """Draw from the stock, then declare if the view offers it, else discard the card the
    menu says leaves the least deadwood. Uses only what the player's own view shows."""
    view = await wait_for_turn(fake, user, view)
    if enabled(view, "Draw from stock"):
        view = await act(fake, user, view, label="Draw from stock")
    declare = label_starting(view, "Declare — discard")
    if declare is not None and enabled(view, "Declare — discard"):
        return await act(fake, user, view, label=declare)
    options = select_options(view, "Discard a card")
    assert options, f"{user} has no discard menu:\n{fake.render(view)}"
    best = min(options, key=deadwood_of)
    return await act(fake, user, view, values=[best["value"]], placeholder="Discard a card…")
