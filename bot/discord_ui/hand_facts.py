"""What a hand view says beside the cards, from the seat's own facts: the deal that just
ended, the seat's wrong show, and the bot's move for a player whose time ran out."""

from __future__ import annotations

from bot.engine.events import Declared, Discarded, WrongShow, actor
from bot.engine.match import FinishedDeal
from bot.engine.observation import Observation
from bot.table.autoplay import MAX_TIMEOUTS
from bot.table.model import Table
from bot.words import Locale

from .screens.hand import timed_out_text


def finished_deal(table: Table) -> FinishedDeal | None:
    """The deal that just ended (shown in its players' hand views until the next deal)."""
    return table.match.finished_deal() if table.match is not None else None


def wrong_show(table: Table, obs: Observation) -> WrongShow | None:
    """This seat's wrong show in the current deal, if it made one (honor mode)."""
    deal = table.match.deal if table.match is not None else None
    if deal is None or obs.hand:
        return None
    return next((e for e in deal.events if isinstance(e, WrongShow) and e.seat == obs.seat), None)


def timeout_note(table: Table, obs: Observation, locale: Locale | None = None) -> str | None:
    """If the bot just played this seat's turn because its time ran out, say so privately:
    which card it threw, and how many more timeouts in a row before a drop."""
    deal = table.match.deal if table.match is not None else None
    if deal is None or table.match is None:
        return None
    for event in reversed(deal.events):
        if actor(event) != obs.seat:
            continue
        if isinstance(event, Discarded | Declared) and event.auto:
            key = table.match.players[obs.seat].id
            left = MAX_TIMEOUTS - table.timeouts.get(key, 0)
            thrown = event.card if isinstance(event, Discarded) else None
            return timed_out_text(thrown, left, locale)
        return None
    return None
