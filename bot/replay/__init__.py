"""Watch a deal again: one self-contained HTML page per deal or match, made from hand histories.

A hand history (docs/hand-history.md) is a file a program reads. This package turns it into a
page a person steps through, in any browser, offline, on a phone too: the table at every
moment (each seat's hand grouped as the engine groups it, the pile's last cards and who threw
them, the stock, the indicator and what is wild, whose turn), each move in words in the
reader's language, and at the end each final hand, the penalties and the payments as the
results message said them; for a match its deals in order with the scores after each and the
eliminations. The states are computed by the engine when the page is made (the history is
replayed through it and checked against itself, `bot.engine.replay`) and embedded as data; the
page's script only shows them. See `states.py` for what is computed, `page.py` for the file.

Public API (what the Discord side's **Replay** button and `/rummy history` call; plain
Python, no Discord, storage or table import, so it can run in a worker):

    deal_page(history, locale=None, *, seat=None) -> bytes
        The page of one deal: `history` is the hand-history dict (`json.loads` of the stored
        text, or `Match.finished_deal().history`). `locale` is the reader's language (a
        catalogue tag or a Discord locale value, `"hi"`, `"en-GB"`; None: English). `seat`
        opens the page "from this seat": the other hands stay hidden until the deal's end
        (the reader can switch the view).
    match_page(histories, locale=None, *, seat=None) -> bytes
        The page of a match: its deals' histories in the order played (what storage keeps,
        `deals.hand_history` by `deal_no`). Scores after each deal are the sum of the deals'
        `deltas`; eliminations follow from the rules' pool limit.
    replay_filename(table_id, deal_no=None) -> str
        A safe attachment name: `replay-<table>-deal<N>.html`, or `replay-<table>.html` for a
        match.
    ReplayError (a ValueError)
        Raised when a history cannot be replayed exactly by this version of the engine
        (malformed, or it disagrees with the record): send the JSON history alone then.

Both pages are UTF-8 HTML of at most a few hundred kilobytes (a deal's is well under 250 KB)
and take some tens of milliseconds of CPU to make (`benchmarks/bench_replay.py`). Making one
evaluates hands: call it off the event loop (`asyncio.to_thread` or the worker pool).

From a shell: `python -m bot.replay HISTORY.json [MORE.json ...] -o replay.html [--lang hi]
[--seat N]` (several files, or one file holding a list, make a match page).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.replay import ReplayError
from bot.words import Locale, text

from .page import render
from .states import deal_data, match_data

__all__ = ["ReplayError", "deal_page", "match_page", "replay_filename"]


def deal_page(
    history: Mapping[str, Any], locale: Locale | str | None = None, *, seat: int | None = None
) -> bytes:
    """The replay page of one deal (see the module docstring)."""
    data = deal_data(history, locale, seat=seat)
    return render(data, text(data["lang"], "replay-noscript"))


def match_page(
    histories: Sequence[Mapping[str, Any]],
    locale: Locale | str | None = None,
    *,
    seat: int | None = None,
) -> bytes:
    """The replay page of a match's deals, in the order played (see the module docstring)."""
    data = match_data(histories, locale, seat=seat)
    return render(data, text(data["lang"], "replay-noscript"))


_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def replay_filename(table_id: str, deal_no: int | None = None) -> str:
    """A safe attachment name: ids come from storage, but a filename must never carry a path
    separator or spaces whatever an id looks like."""
    safe = _UNSAFE.sub("_", table_id).strip("_")[:40] or "table"
    return f"replay-{safe}.html" if deal_no is None else f"replay-{safe}-deal{deal_no}.html"
