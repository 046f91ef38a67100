"""The bot's one voice for refusals and for what a move did.

The table service raises typed `Refusal`s and returns typed outcomes; this module is the only
place that turns them into the short private sentences players read. The sentences themselves
live in the catalogue (`bot/words/locales/*/refusals.ftl`), one per language; here
each refusal or outcome picks its message id and hands over its facts. Every function takes the
reader's `locale` (a `discord.Locale`, a catalogue tag, or None for English): these answers are
private, so it is the user's own `interaction.locale`.
"""

from __future__ import annotations

from bot.engine import errors as engine
from bot.engine.actions import ActionKind
from bot.engine.cards import CardParseError, CardProblem
from bot.engine.rules import PROFILES
from bot.table import errors as e
from bot.table.outcomes import AddedAI, Left, Played, Rematch, SeatRemoved, Voted
from bot.table.vocabulary import Locale

from .cards import card
from .catalogue import text
from .tournament import refusal_text as tournament_refusal_text


def _listed(values: object) -> str:
    return ", ".join(map(str, values)) if isinstance(values, tuple | list) else str(values)


#: A lobby option the table layer refused (`BadOption.problem`), but for
#: `TableOptionProblem.RULES`: that one carries the engine's own code (`RULE_OPTION_IDS`).
#: tests/words/test_catalogue.py fails if a code has no words.
OPTION_IDS: dict[e.TableOptionProblem, str] = {
    e.TableOptionProblem.UNKNOWN_PROFILE: "option-unknown-profile",
    e.TableOptionProblem.DECLARATION: "option-declaration",
    e.TableOptionProblem.HINTS: "option-hints",
    e.TableOptionProblem.ASSISTED_NEEDS_FULL_HINTS: "option-assisted-needs-full-hints",
    e.TableOptionProblem.DEALS_CHOICES: "option-deals-choices",
    e.TableOptionProblem.NO_DEALS: "option-no-deals",
    e.TableOptionProblem.NOT_POOL: "option-not-pool",
    e.TableOptionProblem.NOT_TARGET: "option-not-target",
    e.TableOptionProblem.SEATS: "option-seats",
    e.TableOptionProblem.TURN_TIMER: "option-turn-timer",
}

#: The engine's rule-option problems (`bot/engine/errors.py` `OptionProblem`), reaching the
#: lobby as `BadOption(TableOptionProblem.RULES, code=..., **facts)`; words in `rules.ftl`.
RULE_OPTION_IDS: dict[engine.OptionProblem, str] = {
    engine.OptionProblem.UNKNOWN_OPTION: "rule-option-unknown-option",
    engine.OptionProblem.UNKNOWN_PROFILE: "rule-option-unknown-profile",
    engine.OptionProblem.PROFILE_ONLY: "rule-option-profile-only",
    engine.OptionProblem.NOT_ONE_OF: "rule-option-not-one-of",
    engine.OptionProblem.NOT_TRUE_FALSE: "rule-option-not-true-false",
    engine.OptionProblem.NOT_WHOLE_NUMBER: "rule-option-not-whole-number",
    engine.OptionProblem.NOT_SETTABLE: "rule-option-not-settable",
    engine.OptionProblem.NO_NAME: "rule-option-no-name",
    engine.OptionProblem.TAKES_NO_VALUE: "rule-option-takes-no-value",
    engine.OptionProblem.MIN_PLAYERS: "rule-option-min-players",
    engine.OptionProblem.MAX_PLAYERS: "rule-option-max-players",
    engine.OptionProblem.NEGATIVE: "rule-option-negative",
    engine.OptionProblem.SET_MIN: "rule-option-set-min",
    engine.OptionProblem.NOT_FOR_FORMAT: "rule-option-not-for-format",
    engine.OptionProblem.DEALS_CHOICES: "rule-option-deals-choices",
    engine.OptionProblem.DEALS_OR_TARGET: "rule-option-deals-or-target",
    engine.OptionProblem.POOL_NEEDS_LIMIT: "rule-option-pool-needs-limit",
    engine.OptionProblem.OUT_OF_RANGE: "rule-option-out-of-range",
    engine.OptionProblem.SEATS: "rule-option-seats",
}


def rule_option_text(
    problem: engine.OptionProblem, params: dict[str, object], locale: Locale | None
) -> str:
    """A rule option the engine refused (`RuleOptionError`), from its code and facts."""
    msg_id = RULE_OPTION_IDS.get(problem)
    if msg_id is None:
        return text(locale, "option-other")
    args = {k: _listed(v) if isinstance(v, tuple | list) else v for k, v in params.items()}
    return text(locale, msg_id, **args)


def _bad_option(exc: e.BadOption, locale: Locale | None) -> str:
    if exc.problem is e.TableOptionProblem.RULES:
        problem = exc.params.get("code")
        facts = {k: v for k, v in exc.params.items() if k != "code"}
        if isinstance(problem, engine.OptionProblem):
            return rule_option_text(problem, facts, locale)
        return text(locale, "option-other")
    msg_id = OPTION_IDS.get(exc.problem)
    if msg_id is None:
        return text(locale, "option-other")
    args: dict[str, object] = {k: str(v) for k, v in exc.params.items() if k != "choices"}
    args.update({k: v for k, v in exc.params.items() if isinstance(v, int)})
    if exc.problem is e.TableOptionProblem.UNKNOWN_PROFILE:
        args["choices"] = ", ".join(PROFILES)
    if "choices" in exc.params:
        args["choices"] = _listed(exc.params["choices"])
    return text(locale, msg_id, **args)


_CARD_IDS = {
    CardProblem.EMPTY: "card-error-empty",
    CardProblem.NOT_A_CARD: "card-error-not-a-card",
    CardProblem.NO_CARDS: "card-error-no-cards",
    CardProblem.TOO_MANY: "card-error-too-many",
}


def card_error_text(exc: CardParseError, locale: Locale | None) -> str:
    """Typed cards the engine cannot read (`CardParseError`), from its code and facts: shown
    inside `error-bad-card` on Discord and by the terminal."""
    args = {k: str(v) for k, v in exc.params.items() if k not in ("count", "limit", "joker")}
    args.update({k: v for k, v in exc.params.items() if k in ("count", "limit")})
    args["joker"] = "yes" if exc.params.get("joker") else "no"
    return text(locale, _CARD_IDS.get(exc.problem, "card-error-not-a-card"), **args)


#: Each `SettingsConflict` code has its own words (test_catalogue.py fails if one has none).
SETTINGS_IDS: dict[e.SettingsProblem, str] = {
    e.SettingsProblem.ALL_AND_LIST: "settings-all-and-list",
    e.SettingsProblem.ALLOW_AND_REMOVE: "settings-allow-and-remove",
    e.SettingsProblem.UNKNOWN_PROFILE: "settings-unknown-profile",
    e.SettingsProblem.UNKNOWN_HINTS: "settings-unknown-hints",
    e.SettingsProblem.EVERY_CHANNEL_ALREADY: "settings-every-channel-already",
    e.SettingsProblem.NOT_ON_LIST: "settings-not-on-list",
    e.SettingsProblem.LAST_CHANNEL: "settings-last-channel",
    e.SettingsProblem.UNKNOWN_SEASON: "settings-unknown-season",
    e.SettingsProblem.UNKNOWN_TIME_ZONE: "settings-unknown-time-zone",
    e.SettingsProblem.NO_SEASON: "settings-no-season",
}


def _settings_conflict(exc: e.SettingsConflict, locale: Locale | None) -> str:
    msg_id = SETTINGS_IDS.get(exc.problem, "settings-other")
    # A channel id is a snowflake: given as text, so no language groups its digits.
    channel, zone = (str(exc.params.get(k, "")) for k in ("channel", "zone"))
    return text(locale, msg_id, channel=channel, zone=zone)


#: Why a drop cannot be offered (`DropNotAllowed.reason`), each in its own words.
DROP_IDS: dict[e.DropReason, str] = {
    e.DropReason.RULES: "refusal-drop-rules",
    e.DropReason.OUT: "refusal-drop-out",
    e.DropReason.TURN: "refusal-drop-turn",
    e.DropReason.DRAWN: "refusal-drop-drawn",
}

#: What only the host may do (`HostOnly.what`). Taking a seat away and handing hosting over
#: share one sentence; joining is never host-only, so it reads as that general one too.
HOST_ONLY_IDS: dict[e.LobbyAction, str] = {
    e.LobbyAction.START: "refusal-host-only-start",
    e.LobbyAction.ADD_AI: "refusal-host-only-add-ai",
    e.LobbyAction.REMOVE: "refusal-host-only",
    e.LobbyAction.HOST: "refusal-host-only",
    e.LobbyAction.JOIN: "refusal-host-only",
}

#: The engine's refusals by type (`bot/engine/errors.py`), most specific first.
_ENGINE_IDS: tuple[tuple[type[engine.RummyError], str], ...] = (
    (engine.UnknownSeat, "engine-unknown-seat"),
    (engine.SeatNotActive, "engine-seat-not-active"),
    (engine.NotYourTurn, "engine-not-your-turn"),
    (engine.CardNotInHand, "engine-card-not-in-hand"),
    (engine.CannotDiscardTakenCard, "engine-cannot-discard-taken"),
    (engine.EmptyPile, "engine-empty-pile"),
    (engine.PackingNotAllowed, "engine-packing-not-allowed"),
    (engine.HandRummyNotAllowed, "engine-hand-rummy-not-allowed"),
    (engine.InvalidDeclarationError, "engine-invalid-declaration"),
    (engine.BadArrangement, "engine-bad-arrangement"),
    (engine.MatchOver, "engine-match-over"),
    (engine.WrongPhase, "engine-wrong-phase"),
)

#: Each `WrongPhase` reason code (`bot/engine/errors.py` `PhaseReason`) has its own words;
#: tests/words/test_catalogue.py fails if a code has none.
WRONG_PHASE_IDS: dict[engine.PhaseReason, str] = {
    engine.PhaseReason.ALREADY_LEFT: "engine-phase-already-left",
    engine.PhaseReason.NEXT_DEAL_NOT_STARTED: "engine-phase-next-deal-not-started",
    engine.PhaseReason.NO_DEAL: "engine-phase-no-deal",
    engine.PhaseReason.TIMEOUT_NOT_ON_TURN: "engine-phase-timeout-not-on-turn",
    engine.PhaseReason.DEAL_IN_PROGRESS: "engine-phase-deal-in-progress",
    engine.PhaseReason.DEAL_OVER: "engine-phase-deal-over",
    engine.PhaseReason.ALREADY_DRAWN: "engine-phase-already-drawn",
    engine.PhaseReason.DRAW_FIRST: "engine-phase-draw-first",
    engine.PhaseReason.DROP_BEFORE_DRAWING: "engine-phase-drop-before-drawing",
    engine.PhaseReason.DECLARE_NEEDS_CARD: "engine-phase-declare-needs-card",
    engine.PhaseReason.DRAW_BEFORE_DECLARING: "engine-phase-draw-before-declaring",
}


def engine_error_text(error: engine.RummyError, locale: Locale | None) -> str:
    """The engine's refusal in the reader's language, chosen by its type (and a `WrongPhase`
    by its reason code, never by its English text); a refusal this side does not know reads
    as a generic "not allowed"."""
    if isinstance(error, engine.WrongPhase) and error.reason in WRONG_PHASE_IDS:
        return text(locale, WRONG_PHASE_IDS[error.reason])
    for kind, msg_id in _ENGINE_IDS:
        if isinstance(error, kind):
            return text(locale, msg_id)
    return text(locale, "engine-refused")


def refusal_text(exc: e.Refusal, locale: Locale | None) -> str:
    """A short sentence for the one user who was refused; nothing changed."""
    match exc:
        case e.NoTableHere():
            return text(locale, "refusal-no-table-here")
        case e.TableClosed():
            return text(locale, "refusal-table-closed")
        case e.WrongPlace():
            return text(locale, "refusal-wrong-place")
        case e.ChannelNotAllowed():
            return text(locale, "error-channel-not-allowed")
        case e.ChannelBusy(in_lobby=in_lobby):
            if in_lobby:
                return text(locale, "refusal-channel-busy-lobby")
            return text(locale, "refusal-channel-busy-game")
        case e.AlreadySeated():
            return text(locale, "refusal-already-seated")
        case e.TableFull():
            return text(locale, "refusal-table-full")
        case e.NotSeated():
            return text(locale, "refusal-not-seated")
        case e.NotPlaying():
            return text(locale, "refusal-not-playing")
        case e.RulingHidden(hints=hints):
            return text(locale, "refusal-ruling-hidden", level=str(hints))
        case e.HostOnly(what=what):
            return text(locale, HOST_ONLY_IDS.get(what, "refusal-host-only"))
        case e.SeatedOrManagerOnly():
            return text(locale, "refusal-seated-or-manager-only")
        case e.TooSoon(wait=wait):
            return text(locale, "refusal-too-soon", wait=wait)
        case e.DropNotAllowed(reason=reason):
            return text(locale, DROP_IDS.get(reason, "refusal-drop"))
        case e.HostOrManagerOnly():
            return text(locale, "refusal-host-or-manager-only")
        case e.AlreadyStarted(what=what):
            # One sentence whose variants are chosen by the action's value (`join`, …).
            return text(locale, "refusal-already-started", what=str(what))
        case e.NotStarted():
            return text(locale, "refusal-not-started")
        case e.NotEnoughPlayers(profile=profile, minimum=minimum):
            return text(locale, "refusal-not-enough-players", profile=profile, minimum=minimum)
        case e.UnknownTier():
            return text(locale, "refusal-unknown-tier")
        case e.AlreadyLeft():
            return text(locale, "refusal-already-left")
        case e.NotYourControls():
            return text(locale, "refusal-not-your-controls")
        case e.StaleView():
            return text(locale, "refusal-stale-view")
        case e.UnknownAction():
            return text(locale, "refusal-unknown-action")
        case e.ChooseCard():
            return text(locale, "refusal-choose-card")
        case e.NoDealWaiting():
            return text(locale, "refusal-no-deal-waiting")
        case e.OldNextDeal(deal_number=n):
            return text(locale, "refusal-old-next-deal", deal=n)
        case e.NotInMatch():
            return text(locale, "refusal-not-in-match")
        case e.NotInDeal():
            return text(locale, "refusal-not-in-deal")
        case e.ReviewGone():
            return text(locale, "refusal-review-gone")
        case e.RuleRefused(error=error):
            return engine_error_text(error, locale)
        case e.SaveFailed():
            return text(locale, "refusal-save-failed")
        case e.BadOption():
            return _bad_option(exc, locale)
        case e.BadBoard():
            return text(locale, "refusal-bad-board")
        case e.HistoryPlayersOnly():
            return text(locale, "refusal-history-players-only")
        case e.DealGone():
            return text(locale, "refusal-deal-gone")
        case e.SettingsConflict():
            return _settings_conflict(exc, locale)
        case e.NotInvited():
            return text(locale, "refusal-not-invited")
        case e.NoSuchSeat():
            return text(locale, "refusal-no-such-seat")
        case e.NotAtLastTable():
            return text(locale, "refusal-not-at-last-table")
        case e.TournamentRefused():
            return tournament_refusal_text(exc, locale)

    return text(locale, "refusal-other")


def played_text(played: Played, locale: Locale | None) -> str:
    """The private confirmation of a move."""
    k = played.kind
    if k is ActionKind.DRAW_STOCK:
        if played.card:
            return text(locale, "done-drew-card", card=card(played.card))
        return text(locale, "done-drew-stock")
    if k is ActionKind.TAKE_DISCARD:
        return text(locale, "done-took", card=card(played.card))
    if k is ActionKind.DISCARD:
        return text(locale, "done-discarded", card=card(played.card))
    if k is ActionKind.DROP:
        unit = "chips" if played.chips else "points"
        return text(locale, "done-dropped", unit=unit, cost=played.cost or 0)
    if played.declared:
        return text(locale, "done-declared")
    return text(locale, "done-wrong-show")


def left_text(left: Left, locale: Locale | None) -> str:
    """A seat given up: in a lobby (which closed if nobody human was left), or in a match:
    what the leave cost in the deal under way, and whether the match ended with it."""
    if not left.in_match:
        return text(locale, "done-left-closed" if left.closed else "done-left")
    if left.cost is None:
        said = text(locale, "done-left-between")
    else:
        unit = "chips" if left.chips else "points"
        said = text(locale, "done-left-match", unit=unit, cost=left.cost)
    if left.match_over:
        said += " " + text(locale, "done-left-match-over")
    return said


def voted_text(voted: Voted, locale: Locale | None) -> str:
    return text(locale, "done-next-deal" if voted.started else "done-ready")


def added_ai_text(added: AddedAI, locale: Locale | None) -> str:
    return text(locale, "done-added-ai", tier=added.tier, name=added.name)


def seat_removed_text(removed: SeatRemoved, locale: Locale | None) -> str:
    return text(locale, "done-seat-removed", name=removed.name)


def host_handed_text(name: str, locale: Locale | None) -> str:
    return text(locale, "done-host-handed", name=name)


def rematch_text(rematch: Rematch, locale: Locale | None) -> str:
    """Where the rematch's lobby is (a link to its channel: pressed in the table's thread,
    the lobby opens in the channel above), and what this press did there."""
    if rematch.opened:
        msg_id = "done-rematch-opened"
    else:
        msg_id = "done-rematch-already" if rematch.already else "done-rematch-seated"
    return text(locale, msg_id, channel=f"<#{rematch.channel_id}>")
