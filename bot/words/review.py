"""The words of a post-deal review ("Review my play" on Discord, the end of a deal in the
terminal), in the reader's language.

The review itself (`bot.ai.review`) is numbers and reasons; this module turns it into a few
short lines a player can act on, from the catalogue (`locales/*/review.ftl`). The terminal game
words a review with the same messages: only the way a card is written differs (`♥` symbols on
Discord, `7H` codes in a terminal), which the caller passes as `card_text`. Nothing here
imports discord, so the terminal needs no Discord client to use it.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ai.review import MoveKind, Reason, Review, Suggestion
from bot.engine.actions import ActionKind
from bot.engine.cards import Card
from bot.table.vocabulary import Locale
from bot.words import text
from bot.words.cards import cost_words

CardText = Callable[[Card], str]


def pretty_card(c: Card) -> str:
    return c.face.pretty


#: (what the player did, what the expert would have done) per kind of move; the second
#: pair is for a move whose card the review does not name.
_WORDS: dict[ActionKind, tuple[str, str, str, str]] = {
    ActionKind.DRAW_STOCK: (
        "review-did-stock", "review-did-stock", "review-alt-stock", "review-alt-stock"
    ),
    ActionKind.TAKE_DISCARD: (
        "review-did-take", "review-did-take-any", "review-alt-take", "review-alt-take-any"
    ),
    ActionKind.DROP: ("review-did-drop", "review-did-drop", "review-alt-drop", "review-alt-drop"),
    ActionKind.DECLARE: (
        "review-did-declare",
        "review-did-declare-dealt",
        "review-alt-declare",
        "review-alt-declare-dealt",
    ),
}  # fmt: skip
_THROW = ("review-did-throw", "review-did-throw-any", "review-alt-throw", "review-alt-throw-any")


def _move(
    locale: Locale | None, card: Card | None, kind: ActionKind, cards: CardText, alt: bool
) -> str:
    named, unnamed, alt_named, alt_unnamed = _WORDS.get(kind, _THROW)
    if card is None:
        return text(locale, alt_unnamed if alt else unnamed)
    return text(locale, alt_named if alt else named, card=cards(card))


def _away(locale: Locale | None, n: int) -> str:
    return text(locale, "review-away", n=max(0, n))


def _amount(value: float, chips: bool, locale: Locale | None) -> str:
    """An amount in the table's one unit, with one decimal."""
    return text(locale, "review-amount", value=value, unit="chips" if chips else "points")


def suggestion_lines(
    s: Suggestion,
    locale: Locale | None = None,
    cards: CardText = pretty_card,
    chips: bool = True,
) -> list[str]:
    """One suggestion: what you did, what the expert would do, why, and the figures, every
    amount in the table's unit (`chips`: chips, else points), stated on its line."""
    po, bo = s.played_figures, s.better_figures
    who = s.threat or text(locale, "review-an-opponent")
    if s.kind is MoveKind.DISCARD and s.played_card and s.better_card:
        head = text(
            locale,
            "review-threw-kept",
            turn=s.turn,
            played=cards(s.played_card),
            better=cards(s.better_card),
        )
    elif s.kind is MoveKind.DROP and Reason.HOPELESS_HAND in s.reasons:
        head = text(locale, "review-played-on", turn=s.turn)
    elif s.kind is MoveKind.DROP:
        head = text(locale, "review-dropped", turn=s.turn)
    else:
        did = _move(locale, s.played_card, s.played.kind, cards, alt=False)
        alt = _move(locale, s.better_card, s.better.kind, cards, alt=True)
        head = text(locale, "review-move", turn=s.turn, did=did, alt=alt)
    lines = [head]
    if Reason.MISSED_DECLARATION in s.reasons:
        lines.append(text(locale, "review-missed-declaration", points=po.points))
        return lines
    if s.kind is MoveKind.DROP:
        cost = cost_words(s.drop_cost if s.drop_cost is not None else 0, chips, locale)
        play = po if Reason.HOPELESS_HAND in s.reasons else bo
        drop = bo if Reason.HOPELESS_HAND in s.reasons else po
        if play.match is not None and drop.match is not None:  # a pool match, heads-up
            if Reason.DROP_ENDS_MATCH in s.reasons:
                lines.append(text(locale, "review-drop-out", cost=cost))
            lines.append(text(locale, "review-match-chances", drop=drop.match, play=play.match))
            return lines
        if play.chips < 0:
            expected = _amount(-play.chips, chips, locale)
            lines.append(text(locale, "review-drop-cost-lose", cost=cost, chips=expected))
        else:
            expected = _amount(play.chips, chips, locale)
            lines.append(text(locale, "review-drop-cost-win", cost=cost, chips=expected))
        lines.append(text(locale, "review-gain-short", gain=_amount(s.gain, chips, locale)))
        return lines
    if Reason.FEWER_POINTS in s.reasons:
        figures = {
            "fewer": po.points - bo.points,
            "who": who,
            "better": bo.points,
            "played": po.points,
        }
        card = s.better_card
        if s.kind is MoveKind.DISCARD and card:
            lines.append(text(locale, "review-fewer-throw", card=cards(card), **figures))
        else:
            lines.append(text(locale, "review-fewer-it", **figures))
    if Reason.BROKE_A_GROUP in s.reasons and s.played_card and s.partners:
        partners = " ".join(cards(c) for c in s.partners)
        lines.append(
            text(locale, "review-broke-group", card=cards(s.played_card), partners=partners)
        )
    if Reason.CLOSER in s.reasons:
        lines.append(
            text(
                locale,
                "review-closer",
                better=_away(locale, bo.distance),
                played=_away(locale, po.distance),
            )
        )
    if Reason.MORE_HELPFUL in s.reasons:
        lines.append(text(locale, "review-more-helpful", better=bo.helpful, played=po.helpful))
    lines.append(text(locale, "review-gain", gain=_amount(s.gain, chips, locale)))
    return lines


def review_lines(
    review: Review | None, locale: Locale | None = None, cards: CardText = pretty_card
) -> list[str]:
    """The whole review: a summary, then each suggestion in turn order. Every count comes
    from the one `Review` whose items are listed: the moves, those the expert would have
    played the same way and those it would change (`changed`), the ones listed below and
    the ones left out (`unlisted`: close calls, or smaller than the five listed)."""
    if review is None or review.moves == 0:
        return [text(locale, "review-nothing")]
    if review.changed == 0:
        return [text(locale, "review-head-same", deal=review.deal_number, moves=review.moves)]
    head = text(
        locale,
        "review-head",
        deal=review.deal_number,
        moves=review.moves,
        agreed=review.agreed,
        changed=review.changed,
    )
    listed = len(review.suggestions)
    if listed == 0:
        return [head, text(locale, "review-no-mistakes", changed=review.changed)]
    if review.unlisted == 0:
        lines = [head, text(locale, "review-listed-all", listed=listed)]
    else:
        lines = [head, text(locale, "review-listed-some", listed=listed, unlisted=review.unlisted)]
    for s in review.suggestions:
        lines.extend(suggestion_lines(s, locale, cards, review.chips))
    return lines


def review_text(review: Review | None, locale: Locale | None = None, limit: int = 1900) -> str:
    """The review as one message (Discord caps a message at 2000 characters)."""
    words = "\n".join(review_lines(review, locale))
    return words if len(words) <= limit else words[: limit - 1] + "…"
