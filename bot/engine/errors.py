"""Why an action was refused, as typed facts.

Every refusal is a `RummyError` subclass; its type is its reason, and a `WrongPhase` adds a
`PhaseReason` code. Players never read `message` or `str(error)`: those are English for logs,
tests and the terminal. The Discord side picks the words (in the reader's language) from the
type and the code, so a reworded developer text cannot orphan a translation. The engine
validates an action completely before changing anything, so a refused action leaves the match
exactly as it was: callers may catch `RummyError`, word it and carry on.

Rule options refused by `bot/engine/rules.py` (`Rules.with_options`, `check_table_options`,
`get_profile`, `parse_options`) raise `RuleOptionError`: still a `ValueError` (every caller
that catches those keeps working), with an `OptionProblem` code and its parameters.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class RummyError(Exception):
    """Base of every refusal; `message` is a short English text for logs and the terminal."""

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


class PhaseReason(StrEnum):
    """Why an action does not fit the moment (the code of a `WrongPhase`)."""

    ALREADY_LEFT = "already_left"
    NEXT_DEAL_NOT_STARTED = "next_deal_not_started"
    NO_DEAL = "no_deal"
    TIMEOUT_NOT_ON_TURN = "timeout_not_on_turn"
    DEAL_IN_PROGRESS = "deal_in_progress"
    DEAL_OVER = "deal_over"
    ALREADY_DRAWN = "already_drawn"
    DRAW_FIRST = "draw_first"
    DROP_BEFORE_DRAWING = "drop_before_drawing"
    DECLARE_NEEDS_CARD = "declare_needs_card"
    DRAW_BEFORE_DECLARING = "draw_before_declaring"


#: The developer's English for each reason (logs, tests, the terminal); players get the
#: catalogue's words for the code.
PHASE_TEXT: dict[PhaseReason, str] = {
    PhaseReason.ALREADY_LEFT: "You have already left",
    PhaseReason.NEXT_DEAL_NOT_STARTED: "The next deal has not started yet",
    PhaseReason.NO_DEAL: "No deal is being played",
    PhaseReason.TIMEOUT_NOT_ON_TURN: "Only the seat on turn can time out",
    PhaseReason.DEAL_IN_PROGRESS: "A deal is already in progress",
    PhaseReason.DEAL_OVER: "This deal is over",
    PhaseReason.ALREADY_DRAWN: "You have already drawn; discard a card",
    PhaseReason.DRAW_FIRST: "Draw a card first",
    PhaseReason.DROP_BEFORE_DRAWING: "You can only drop at the start of your turn, before drawing",
    PhaseReason.DECLARE_NEEDS_CARD: "Choose the card to discard with your declaration",
    PhaseReason.DRAW_BEFORE_DECLARING: "Draw a card before declaring",
}


class WrongPhase(RummyError):
    """Drawing twice, discarding before drawing, acting between deals or after the match;
    `reason` says which (None: no particular reason known)."""

    default_message = "You cannot do that now"

    def __init__(self, reason: PhaseReason | None = None) -> None:
        self.reason = reason
        super().__init__(None if reason is None else PHASE_TEXT[reason])


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


class OptionProblem(StrEnum):
    """What is wrong with a rule option (the code of a `RuleOptionError`); the parameters
    each one carries are listed beside it."""

    UNKNOWN_OPTION = "unknown_option"  # names
    UNKNOWN_PROFILE = "unknown_profile"  # name, choices
    PROFILE_ONLY = "profile_only"  # name
    NOT_ONE_OF = "not_one_of"  # name, choices, value
    NOT_TRUE_FALSE = "not_true_false"  # name, value
    NOT_WHOLE_NUMBER = "not_whole_number"  # name, value
    NOT_SETTABLE = "not_settable"  # name
    NO_NAME = "no_name"  # item
    TAKES_NO_VALUE = "takes_no_value"  # name
    MIN_PLAYERS = "min_players"  # low, value
    MAX_PLAYERS = "max_players"  # high, value
    NEGATIVE = "negative"  # name, value
    SET_MIN = "set_min"  # value
    NOT_FOR_FORMAT = "not_for_format"  # name, format
    DEALS_CHOICES = "deals_choices"  # choices
    DEALS_OR_TARGET = "deals_or_target"
    POOL_NEEDS_LIMIT = "pool_needs_limit"
    OUT_OF_RANGE = "out_of_range"  # name, low, high, value
    SEATS = "seats"  # profile, low, high, value


class RuleOptionError(ValueError):
    """A rule option the engine refuses: `problem` and `params` are the facts (names, numbers,
    the values allowed), `str(error)` the English text for logs and the terminal."""

    def __init__(self, problem: OptionProblem, text: str, **params: Any) -> None:
        super().__init__(text)
        self.problem = problem
        self.params: dict[str, Any] = params
