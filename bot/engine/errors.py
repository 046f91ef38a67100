"""Why an action was refused.

Every refusal is a `RummyError` subclass carrying a short `message` a player can read ("It is
not your turn"). The engine validates an action completely before changing anything, so a
refused action leaves the match exactly as it was: callers may catch `RummyError`, show the
message and carry on.
"""

from __future__ import annotations


class RummyError(Exception):
    """Base of every refusal; `message` is short, human and safe to show in a channel."""

    default_message = "That move is not allowed"

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)


class UnknownSeat(RummyError):
    default_message = "There is no such seat at this table"


class SeatNotActive(RummyError):
    default_message = "You are no longer playing in this deal"


class NotYourTurn(RummyError):
    default_message = "It is not your turn"


class WrongPhase(RummyError):
    """Drawing twice, discarding before drawing, acting between deals or after the match."""

    default_message = "You cannot do that now"


class CardNotInHand(RummyError):
    default_message = "That card is not in your hand"


class CannotDiscardTakenCard(RummyError):
    """The physical card just taken from the discard pile may not be thrown back this turn."""

    default_message = "You cannot discard the card you just took from the pile"


class EmptyPile(RummyError):
    default_message = "There is no card to take"


class PackingNotAllowed(RummyError):
    default_message = "Dropping is not allowed at this table"


class HandRummyNotAllowed(RummyError):
    default_message = (
        "Declaring without drawing is only allowed at your first turn, where the rules allow it"
    )


class InvalidDeclarationError(RummyError):
    """Assisted mode: the engine refuses a declaration it cannot verify, before it happens."""

    default_message = "Those cards are not a valid declaration"


class BadArrangement(RummyError):
    """The grouping sent with a declaration does not split exactly the cards being shown."""

    default_message = "Your groups must use each of your 13 cards exactly once"


class MatchOver(RummyError):
    default_message = "The match is over"
