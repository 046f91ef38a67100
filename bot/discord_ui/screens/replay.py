"""Replay pages on Discord: the buttons that ask for one, and the private message that brings it.

A replay page (`bot.replay`) is made from the same stored hand histories as the "Hand history"
file, for the same people (the deal's players and the server's managers: it shows every hand);
the table layer checks who may have them, this module only turns them into files. Making a
page replays the deal through the engine, some tens of milliseconds of CPU for a deal (more for
a long match), so it runs on a thread, never on the event loop that answers every other click.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot.replay import ReplayError, deal_page, match_page, replay_filename
from bot.words import Locale, text

from ..clicks import Act, Click
from ..components import GameButton
from .history import hand_history_filename

log = logging.getLogger(__name__)

#: The largest page sent (Discord takes 10 MiB a message from a bot; a deal's page is well
#: under 250 KB, a long pool match's a few MB). A bigger one is not sent: its deals' pages are.
MAX_PAGE_BYTES = 8 * 1024 * 1024


def replay_button(
    table_id: str, version: int, deal_number: int, locale: Locale | None = None
) -> GameButton:
    """ "Replay": the deal's replay page, privately, to whoever may have its hand history."""
    return GameButton(
        Click(Act.REPLAY, table_id, version, deal=deal_number),
        label=text(locale, "button-replay"),
        emoji="▶️",
    )


def match_replay_button(table_id: str, version: int, locale: Locale | None = None) -> GameButton:
    """ "Match replay" (on a match's last results): every deal of it on one page."""
    return GameButton(
        Click(Act.MATCH_REPLAY, table_id, version),
        label=text(locale, "button-match-replay"),
        emoji="⏯️",
    )


@dataclass(frozen=True, slots=True)
class Delivery:
    """What the private answer carries: its line and its files."""

    content: str
    files: list[discord.File]


async def deal_replay(table_id: str, deal_no: int, history_json: str, locale: Locale) -> Delivery:
    """A deal's replay page; if this version of the engine cannot replay the history (an old
    or damaged record), its hand-history file instead, saying so."""
    page = await _made(lambda: deal_page(json.loads(history_json), locale), table_id)
    if page is None:
        return Delivery(
            text(locale, "replay-unavailable"),
            [_file(history_json.encode("utf-8"), hand_history_filename(table_id, deal_no))],
        )
    return Delivery(
        text(locale, "replay-deal-caption", table=table_id, deal=deal_no),
        [_file(page, replay_filename(table_id, deal_no))],
    )


async def match_replay(table_id: str, histories: Sequence[str], locale: Locale) -> Delivery:
    """A match's replay page (its deals in the order played); if it cannot be made or is too
    big to send, the last deal's page (or history) instead, saying why."""
    page = await _made(lambda: match_page([json.loads(h) for h in histories], locale), table_id)
    if page is not None and len(page) <= MAX_PAGE_BYTES:
        return Delivery(
            text(locale, "replay-match-caption", table=table_id, deals=len(histories)),
            [_file(page, replay_filename(table_id))],
        )
    last = await deal_replay(table_id, len(histories), histories[-1], locale)
    return Delivery(text(locale, "replay-match-unavailable") + "\n" + last.content, last.files)


async def _made(make: Callable[[], bytes], table_id: str) -> bytes | None:
    """Run a page maker on a thread; None if the history cannot be replayed (logged)."""
    try:
        page: bytes = await asyncio.to_thread(make)
    except (ReplayError, ValueError, KeyError, TypeError):
        log.warning("could not make a replay page for table %s", table_id, exc_info=True)
        return None
    return page


def _file(body: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(body), filename=name)
