"""Why the table service refused a request: one exception type per reason, and no wording.

A refusal changes nothing (the service checks before it mutates, and rolls back when storage
fails). The Discord side turns each type into a short private answer in one place
(`bot.words.refusals`), so the table layer stays free of player-facing text and a
test can assert *which* refusal happened instead of matching strings.
"""

from __future__ import annotations

import enum

from bot.engine.errors import RummyError


class Refusal(Exception):
    """Base of every refusal the table service raises."""


class NoTableHere(Refusal):
    """No open table in this channel."""


class TableClosed(Refusal):
    """The table a button or id refers to is closed (or never existed)."""


class WrongPlace(Refusal):
    """A click or command for a table of another server or channel (or from a DM)."""


class ChannelNotAllowed(Refusal):
    """The server keeps tables to its list of channels (`/rummy settings allow_channel:`),
    and this is not one of them."""


class ChannelBusy(Refusal):
    def __init__(self, in_lobby: bool) -> None:
        super().__init__("channel busy")
        self.in_lobby = in_lobby


class AlreadySeated(Refusal):
    pass


class TableFull(Refusal):
    pass


class NotSeated(Refusal):
    """The user has no seat at this table (lobby or match)."""


class NotPlaying(Refusal):
    """The user is not one of the match's players (so has no hand here)."""


class RulingHidden(Refusal):
    """`/rummy check` for a player still playing a match whose hints are below full: it
    would work out what their table hides (`bot.table.hint_policy`)."""

    def __init__(self, hints: object) -> None:
        super().__init__("ruling hidden")
        self.hints = hints


class LobbyAction(enum.StrEnum):
    """What a lobby refusal was about: only the host may do it (`HostOnly`), or it cannot be
    done once the game has started (`AlreadyStarted`). The values are the words' selector
    keys (`refusal-already-started`)."""

    JOIN = "join"
    ADD_AI = "add_ai"
    START = "start"
    REMOVE = "remove"  # the host takes a seat away
    HOST = "host"  # the host hands hosting over


class HostOnly(Refusal):
    """Only the host may do `what`."""

    def __init__(self, what: LobbyAction) -> None:
        super().__init__(what)
        self.what = what


class HostOrManagerOnly(Refusal):
    pass


class SeatedOrManagerOnly(Refusal):
    """Only the table's players (or a server manager) may do this."""


class TooSoon(Refusal):
    """Rate-limited; `wait` whole seconds until it is allowed again."""

    def __init__(self, wait: int) -> None:
        super().__init__(str(wait))
        self.wait = wait


class DropReason(enum.StrEnum):
    """Why a drop cannot be offered right now."""

    RULES = "rules"  # the table plays without dropping (a house rule)
    OUT = "out"  # the player holds no cards in this deal
    TURN = "turn"  # not the player's turn
    DRAWN = "drawn"  # the player has drawn already


class DropNotAllowed(Refusal):
    """A drop now is against the rules; `reason` says which one."""

    def __init__(self, reason: DropReason) -> None:
        super().__init__(reason)
        self.reason = reason


class AlreadyStarted(Refusal):
    """A lobby action (`what`) after the game started."""

    def __init__(self, what: LobbyAction) -> None:
        super().__init__(what)
        self.what = what


class NotStarted(Refusal):
    pass


class NotEnoughPlayers(Refusal):
    def __init__(self, profile: str, minimum: int) -> None:
        super().__init__(profile)
        self.profile = profile
        self.minimum = minimum


class UnknownTier(Refusal):
    def __init__(self, tiers: tuple[str, ...]) -> None:
        super().__init__(", ".join(tiers))
        self.tiers = tiers


class AlreadyLeft(Refusal):
    pass


class NotYourControls(Refusal):
    """A click on a control drawn for another seat's hand."""


class StaleView(Refusal):
    """A click on a view drawn for an older version of the table."""


class UnknownAction(Refusal):
    pass


class ChooseCard(Refusal):
    """A discard/declare arrived without a card."""


class NoDealWaiting(Refusal):
    pass


class OldNextDeal(Refusal):
    """A "Next deal" button of an earlier deal's results (a client that still shows it after
    the next deal began): it votes for nothing."""

    def __init__(self, deal_number: int) -> None:
        super().__init__(deal_number)
        self.deal_number = deal_number


class NotInMatch(Refusal):
    """Only players still in the match may vote for the next deal."""


class NotInDeal(Refusal):
    """A review was asked by someone who did not play that deal."""


class ReviewGone(Refusal):
    """The deal to review is no longer kept (too old, or the bot restarted since)."""


class RuleRefused(Refusal):
    """The engine refused the move; its `RummyError` carries the reason."""

    def __init__(self, error: RummyError) -> None:
        super().__init__(error.message)
        self.error = error


class SaveFailed(Refusal):
    """Storage failed; memory was rolled back, so the move did not happen."""


class TableOptionProblem(enum.StrEnum):
    """Which rule a lobby option broke (`BadOption.problem`); `BadOption.params` the facts."""

    UNKNOWN_PROFILE = "unknown_profile"  # name
    DECLARATION = "declaration"  # choices
    HINTS = "hints"  # choices
    ASSISTED_NEEDS_FULL_HINTS = "assisted_needs_full_hints"  # hints
    DEALS_CHOICES = "deals_choices"  # choices
    NO_DEALS = "no_deals"  # profile
    NOT_POOL = "not_pool"  # profile
    NOT_TARGET = "not_target"  # profile
    SEATS = "seats"  # profile, low, high, seats
    TURN_TIMER = "turn_timer"  # low, high, value
    #: The engine refused a rule option: its own code (`bot.engine.errors.OptionProblem`) is
    #: `params["code"]`, its facts the other params.
    RULES = "rules"


class BadOption(Refusal):
    """A lobby option was refused; `problem` names which rule it broke, `params` the facts."""

    def __init__(self, problem: TableOptionProblem, **params: object) -> None:
        super().__init__(problem)
        self.problem = problem
        self.params = params


class BadBoard(Refusal):
    """A leaderboard that does not exist (an unknown profile, sort or period: a tampered or
    outdated pager)."""


class HistoryPlayersOnly(Refusal):
    """A hand history asked by someone who neither played the deal nor manages the server."""


class DealGone(Refusal):
    """The deal asked for is not stored (deleted by forget-me, or a tampered id)."""


class SettingsProblem(enum.StrEnum):
    """Why a settings change cannot be applied as asked (`SettingsConflict.problem`)."""

    ALL_AND_LIST = "all_and_list"  # all_channels together with allow/remove
    ALLOW_AND_REMOVE = "allow_and_remove"  # the same channel allowed and removed
    UNKNOWN_PROFILE = "unknown_profile"
    UNKNOWN_HINTS = "unknown_hints"
    EVERY_CHANNEL_ALREADY = "every_channel_already"  # removing from no list
    NOT_ON_LIST = "not_on_list"  # params: channel
    LAST_CHANNEL = "last_channel"  # removing it would leave an empty list
    UNKNOWN_SEASON = "unknown_season"  # a season plan other than weekly, monthly, off
    UNKNOWN_TIME_ZONE = "unknown_time_zone"  # params: zone (not an IANA name)
    NO_SEASON = "no_season"  # ending the season now while none is open


class SettingsConflict(Refusal):
    """A settings change that cannot be applied as asked; `problem` says why, `params` the
    facts."""

    def __init__(self, problem: SettingsProblem, **params: object) -> None:
        super().__init__(problem)
        self.problem = problem
        self.params = params


class NotInvited(Refusal):
    """A private table: only the invited players may sit down."""


class NoSuchSeat(Refusal):
    """A host tool named a seat that is not at the table (any more)."""


class NotAtLastTable(Refusal):
    """ "Play again" from someone who did not play the match it follows."""


class TournamentProblem(enum.StrEnum):
    """Why a tournament's use case refused (`TournamentRefused`); worded by
    `bot.words.tournament`."""

    NONE_HERE = "none_here"  # no open tournament in this channel
    CLOSED = "closed"  # finished or cancelled (or never existed)
    WRONG_PLACE = "wrong_place"  # a click for a tournament of another server or channel
    CHANNEL_BUSY = "channel_busy"  # the channel already has an open tournament
    NOT_ORGANISER = "not_organiser"  # Manage Server, the organiser role, or its organiser
    BAD_OPTION = "bad_option"  # `params["option"]` names which, with its facts
    REGISTRATION_CLOSED = "registration_closed"  # it has started
    ALREADY_REGISTERED = "already_registered"
    NOT_REGISTERED = "not_registered"
    FULL = "full"  # the player cap is reached
    REMOVED = "removed"  # the organiser took this player out
    CHECK_IN_NOT_OPEN = "check_in_not_open"  # before the check-in window
    NOT_RUNNING = "not_running"  # a tool for a running tournament, before or after
    ALREADY_RUNNING = "already_running"  # start, delay: it has started
    TOO_FEW = "too_few"  # fewer than `params["minimum"]` checked in
    PAUSED = "paused"  # already paused
    NOT_PAUSED = "not_paused"
    NO_SUCH_PLAYER = "no_such_player"  # a removal of someone not in it
    TOURNAMENT_TABLE = "tournament_table"  # a lobby tool on a tournament's table


class TournamentRefused(Refusal):
    """A tournament's use case refused; `problem` says why, `params` the facts (no words)."""

    def __init__(self, problem: TournamentProblem, **params: object) -> None:
        super().__init__(problem.value)
        self.problem = problem
        self.params = params
