"""Changing a table's game, in memory: the steps the use cases share.

These functions work on the working copy of a change (`bot.table.unit.Change.work`) and
never on a live table; none of them awaits, so a change is one uninterrupted step.
"""

from __future__ import annotations

from typing import Any

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card
from bot.engine.errors import RummyError
from bot.engine.match import Match, MatchPhase

from . import errors
from .model import Table
from .outcomes import Played


def apply_action(table: Table, action: Action, now: float) -> None:
    """Apply one engine move (a refusal of the rules becomes `RuleRefused`) and log it."""
    m = table.match
    if m is None:
        raise errors.NotStarted()
    mark = m.event_count
    try:
        m.apply(action)
    except RummyError as exc:
        raise errors.RuleRefused(exc) from None
    table.log.extend(m.entries_since(mark))
    new_turn_if_needed(table, now)


def new_turn_if_needed(table: Table, now: float) -> None:
    """Reset the turn timer when the turn passes to someone (or a new deal starts)."""
    m = table.match
    turn = table.current_turn()
    if m is None or turn is None:
        table.deadline = None
        table.turn_marker = None
        return
    marker = [m.deal_number, turn, sum(m.deal.turns_taken.values()) if m.deal else 0]
    if marker != table.turn_marker:
        table.turn_marker = marker
        table.deadline = now + table.options.turn_timer


def start_next_deal(table: Table, now: float) -> None:
    if table.match is None:
        raise errors.NotStarted()
    mark = table.match.event_count
    table.match.start_next_deal()
    table.next_votes = []
    # The table shows this deal's moves only; the last deal's are in its results.
    table.log = table.match.entries_since(mark)
    new_turn_if_needed(table, now)


def all_ready(table: Table) -> bool:
    """Every human still in the match voted for the next deal."""
    m = table.match
    if m is None:
        return False
    humans = [m.players[s].id for s in m.in_play if m.players[s].id.startswith("u")]
    return all(h in table.next_votes for h in humans)


def won_by(table: Table, seat: int) -> bool:
    m = table.match
    return bool(
        m is not None
        and m.results
        and m.results[-1].winner == seat
        and (m.phase is not MatchPhase.PLAYING or m.deal is None or m.deal.over)
    )


def card_of(match: Match, action: Action) -> Card | None:
    """The physical card an action names (a discard or declaration), before it is applied:
    one of the acting seat's own cards, or None. A client can send any number as a card: one
    the hand does not hold (another seat's, or no card of the deal at all) is no card here,
    and the engine refuses the move itself (`CardNotInHand`)."""
    deal = match.deal
    if deal is None or action.card is None or action.seat not in deal.hands:
        return None
    return next((c for c in deal.hands[action.seat] if c.id == action.card), None)


def played(
    table: Table,
    seat: int,
    action: Action,
    hand_before: set[int],
    top: Any,
    concerned: Any,
    cost: int | None,
    declared: bool,
) -> Played:
    """What a player's move did, as the player may know it."""
    k = action.kind
    if k is ActionKind.DRAW_STOCK:
        m = table.match
        deal = m.deal if m is not None else None
        drawn = None
        if deal is not None and not deal.over:
            drawn = next((c for c in deal.hands[seat] if c.id not in hand_before), None)
        return Played(k, card=drawn)
    if k is ActionKind.TAKE_DISCARD:
        return Played(k, card=top)
    if k is ActionKind.DISCARD:
        return Played(k, card=concerned)
    if k is ActionKind.DROP:
        return Played(k, cost=cost, chips=table.rules.chips)
    return Played(k, card=concerned, declared=declared, wrong_show=not declared)
