"""The words of a post-deal review ("Review my play" on Discord, the end of a deal in the terminal).

The review itself (`bot.ai.review`) is numbers and reasons; this module turns it into a few
short lines a player can act on. It lives beside the review, below both front ends, so the
Discord side and the terminal game word a review with the same sentences: only the way a card
is written differs (`♥` symbols on Discord, `7H` codes in a terminal), which the caller passes
as `card_text`.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ai.review import MoveKind, Outlook, Reason, Review, Suggestion
from bot.engine.actions import ActionKind
from bot.engine.cards import Card


def pretty_card(c: Card) -> str:
    return c.face.pretty


def _distance(o: Outlook) -> str:
    if o.distance == 0:
        return "a valid declaration"
    if o.distance == 1:
        return f"one card from declaring ({o.winning_draws} unseen cards would finish it)"
    return (
        f"{o.distance} cards from declaring ({o.closer_draws} unseen cards would bring it closer)"
    )


def _move(s: Suggestion, card: Card | None, kind: ActionKind, text: Callable[[Card], str]) -> str:
    if kind is ActionKind.DRAW_STOCK:
        return "drawing from the stock"
    if kind is ActionKind.TAKE_DISCARD:
        return f"taking {text(card)} from the pile" if card else "taking the discard"
    if kind is ActionKind.DROP:
        return "dropping"
    if kind is ActionKind.DECLARE:
        return f"declaring (throwing {text(card)})" if card else "declaring your dealt hand"
    return f"throwing {text(card)}" if card else "throwing"


_WHY = {
    Reason.CLOSER: "it gets you closer to a declaration",
    Reason.MORE_WINNERS: "more unseen cards would finish your hand",
    Reason.MORE_USEFUL: "more unseen cards would improve your hand",
    Reason.LESS_DEADWOOD: "it leaves less deadwood",
    Reason.LESS_FEEDING: "it gives the next player less of what they collect",
}


def suggestion_lines(s: Suggestion, text: Callable[[Card], str] = pretty_card) -> list[str]:
    """One suggestion: what you did, what hard would do, why, and the numbers behind it."""
    played = _move(s, s.played_card, s.played.kind, text)
    better = _move(s, s.better_card, s.better.kind, text)
    head = f"Turn {s.turn}: you chose {played}; better: {better}."
    if Reason.MISSED_DECLARATION in s.reasons:
        return [head, f"  You had a valid declaration; playing on risked {s.gain:.0f} points."]
    if s.kind is MoveKind.DROP:
        cost = s.drop_cost if s.drop_cost is not None else 0
        if Reason.HOPELESS_HAND in s.reasons:
            why = (f"  The hand had no pure sequence in sight; the drop cost {cost} against a "
                   f"likely loss about {s.gain + cost:.0f}.")  # fmt: skip
        else:
            why = f"  The hand was worth playing: the drop cost {cost} points for nothing."
        return [head, why]
    reasons = [_WHY[r] for r in s.reasons if r in _WHY]
    lines = [head]
    if reasons:
        lines.append("  Why: " + "; ".join(reasons) + ".")
    po, bo = s.played_outlook, s.better_outlook
    lines.append(f"  Yours: {_distance(po)}, {po.useful_draws} useful draws, "
                 f"expected deadwood {po.expected_deadwood:.1f}.")  # fmt: skip
    lines.append(f"  Better: {_distance(bo)}, {bo.useful_draws} useful draws, "
                 f"expected deadwood {bo.expected_deadwood:.1f}"
                 f" (about {s.gain:.1f} points less).")  # fmt: skip
    if Reason.LESS_FEEDING in s.reasons:
        lines.append("  The next player had been collecting around the card you gave away.")
    return lines


def review_lines(review: Review | None, text: Callable[[Card], str] = pretty_card) -> list[str]:
    """The whole review: a one-line summary, then each suggestion."""
    if review is None or review.moves == 0:
        return ["You made no moves of your own in that deal, so there is nothing to review."]
    head = (f"Deal {review.deal_number}: hard would have made {review.agreed} of your "
            f"{review.moves} moves too.")  # fmt: skip
    if not review.suggestions:
        return [head, "No clear mistakes: the moves hard would change were close calls."]
    lines = [head]
    for s in review.suggestions:
        lines.extend(suggestion_lines(s, text))
    return lines


def review_text(review: Review | None, limit: int = 1900) -> str:
    """The review as one message (Discord caps a message at 2000 characters)."""
    text = "\n".join(review_lines(review))
    return text if len(text) <= limit else text[: limit - 1] + "…"
