"""The words of a post-deal review ("Review my play" on Discord, the end of a deal in the terminal).

The review itself (`bot.ai.review`) is numbers and reasons; this module turns it into a few
short lines a player can act on. It lives beside the review, below both front ends, so the
Discord side and the terminal game word a review with the same sentences: only the way a card
is written differs (`♥` symbols on Discord, `7H` codes in a terminal), which the caller passes
as `card_text`.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ai.review import MoveKind, Reason, Review, Suggestion
from bot.engine.actions import ActionKind
from bot.engine.cards import Card


def pretty_card(c: Card) -> str:
    return c.face.pretty


def _away(n: int) -> str:
    if n <= 0:
        return "a valid declaration"
    if n == 1:
        return "one card from going out"
    return f"{n} cards from going out"


def _move(card: Card | None, kind: ActionKind, text: Callable[[Card], str]) -> str:
    if kind is ActionKind.DRAW_STOCK:
        return "drew from the stock"
    if kind is ActionKind.TAKE_DISCARD:
        return f"took {text(card)} from the pile" if card else "took the discard"
    if kind is ActionKind.DROP:
        return "dropped"
    if kind is ActionKind.DECLARE:
        return f"declared, throwing {text(card)}" if card else "declared your dealt hand"
    return f"threw {text(card)}" if card else "threw a card"


def _better(card: Card | None, kind: ActionKind, text: Callable[[Card], str]) -> str:
    if kind is ActionKind.DRAW_STOCK:
        return "drawing from the stock"
    if kind is ActionKind.TAKE_DISCARD:
        return f"taking {text(card)} from the pile" if card else "taking the discard"
    if kind is ActionKind.DROP:
        return "dropping"
    if kind is ActionKind.DECLARE:
        return f"declaring (throwing {text(card)})" if card else "declaring your dealt hand"
    return f"throwing {text(card)}" if card else "another throw"


def _summary(s: Suggestion) -> str:
    """The difference the choice was made on, as the expert values it, in chips."""
    return f"  By the expert's reckoning about {s.gain:.1f} chips better for you."


def suggestion_lines(s: Suggestion, text: Callable[[Card], str] = pretty_card) -> list[str]:
    """One suggestion: what you did, what the expert would do, why, and the figures."""
    po, bo = s.played_figures, s.better_figures
    who = s.threat or "an opponent"
    if s.kind is MoveKind.DISCARD and s.played_card and s.better_card:
        head = (f"Turn {s.turn}: you threw {text(s.played_card)} and kept "
                f"{text(s.better_card)}; throwing {text(s.better_card)} was better.")  # fmt: skip
    elif s.kind is MoveKind.DROP and Reason.HOPELESS_HAND in s.reasons:
        head = f"Turn {s.turn}: you played on; dropping was better."
    elif s.kind is MoveKind.DROP:
        head = f"Turn {s.turn}: you dropped; playing on was better."
    else:
        played = _move(s.played_card, s.played.kind, text)
        better = _better(s.better_card, s.better.kind, text)
        head = f"Turn {s.turn}: you {played}; {better} was better."
    lines = [head]
    if Reason.MISSED_DECLARATION in s.reasons:
        lines.append(
            f"  You had a valid declaration; playing on kept {po.points} points in your hand."
        )
        return lines
    if s.kind is MoveKind.DROP:
        cost = s.drop_cost if s.drop_cost is not None else 0
        play = po if Reason.HOPELESS_HAND in s.reasons else bo
        outlook = (f"was expected to cost about {-play.chips:.1f}" if play.chips < 0
                   else f"was expected to win about {play.chips:.1f}")  # fmt: skip
        lines.append(f"  Dropping cost {cost} points; playing on this hand {outlook}.")
        lines.append(f"  About {s.gain:.1f} chips better for you.")
        return lines
    if Reason.FEWER_POINTS in s.reasons:
        fewer = po.points - bo.points
        card = s.better_card
        move = f"Throwing {text(card)}" if s.kind is MoveKind.DISCARD and card else "It"
        lines.append(f"  {move} would have left {fewer} fewer points in your hand if {who} "
                     f"went out ({bo.points} instead of {po.points}).")  # fmt: skip
    if Reason.BROKE_A_GROUP in s.reasons and s.played_card and s.partners:
        with_ = " ".join(text(c) for c in s.partners)
        lines.append(f"  {text(s.played_card)} belonged with {with_} in your hand.")
    if Reason.CLOSER in s.reasons:
        lines.append(f"  It would have left you {_away(bo.distance)} instead of "
                     f"{_away(po.distance)}.")  # fmt: skip
    if Reason.MORE_HELPFUL in s.reasons:
        lines.append(f"  More cards would have helped your next draw: {bo.helpful} instead of "
                     f"{po.helpful}.")  # fmt: skip
    lines.append(_summary(s))
    return lines


def review_lines(review: Review | None, text: Callable[[Card], str] = pretty_card) -> list[str]:
    """The whole review: a one-line summary, then each suggestion in turn order."""
    if review is None or review.moves == 0:
        return ["You made no moves of your own in that deal, so there is nothing to review."]
    moves = "1 move" if review.moves == 1 else f"{review.moves} moves"
    head = (f"Deal {review.deal_number}: you made {moves}; the expert AI would "
            f"have played {review.agreed} of them the same way.")  # fmt: skip
    if not review.suggestions:
        return [head, "No clear mistakes: the moves the expert would change were close calls."]
    lines = [head]
    for s in review.suggestions:
        lines.extend(suggestion_lines(s, text))
    return lines


def review_text(review: Review | None, limit: int = 1900) -> str:
    """The review as one message (Discord caps a message at 2000 characters)."""
    text = "\n".join(review_lines(review))
    return text if len(text) <= limit else text[: limit - 1] + "…"
