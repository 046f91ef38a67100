"""What the bot plays for a seat whose turn timer ran out: pure functions of an Observation.

The rule is deliberately plain and predictable for the absent player: draw from the stock and
throw the drawn card back, unless the hand can now be declared; after too many timeouts in a
row, drop (when dropping is allowed) so an absent player stops holding the table up.
"""

from __future__ import annotations

from bot.engine.actions import Action, ActionKind
from bot.engine.evaluate import evaluate_drawn
from bot.engine.observation import Observation

#: Consecutive timeouts after which the bot drops an absent player.
MAX_TIMEOUTS = 3


def timeout_opening(obs: Observation, timeouts: int) -> Action | None:
    """The first move for an absent seat in its draw phase (None when it is not drawing)."""
    if obs.phase != "draw" or obs.turn != obs.seat:
        return None
    kinds = {a.kind for a in obs.legal_actions}
    if timeouts >= MAX_TIMEOUTS and ActionKind.DROP in kinds:
        return Action.drop(obs.seat)
    if ActionKind.DRAW_STOCK in kinds:
        return Action.draw_stock(obs.seat)
    return Action.take_discard(obs.seat)


def timeout_finish(obs: Observation, just_drew: bool) -> Action:
    """After the draw: declare if the 14 cards allow it, else throw the newest card. When the
    bot itself just drew for the seat, the newest card is the drawn one, and if that came from
    the pile (it may not go straight back) the best discard goes instead; when the player drew
    and then ran out of time, the newest card they may throw goes."""
    hand = obs.hand
    drawn = evaluate_drawn(hand, obs.rules, obs.wild_rank, forbidden=obs.taken)
    if drawn.declarable:
        return Action.declare(obs.seat, drawn.winning_discards[0].id)
    taken = obs.taken
    if just_drew:
        newest = hand[-1]
        if taken is not None and newest.id == taken.id:
            return Action.discard(obs.seat, drawn.best_discard.id)
        return Action.discard(obs.seat, newest.id)
    newest = next(c for c in reversed(hand) if taken is None or c.id != taken.id)
    return Action.discard(obs.seat, newest.id)
