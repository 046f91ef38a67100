"""The bot's one voice for refusals and for what a move did.

The table service raises typed `Refusal`s and returns typed outcomes; this module is the only
place that turns them into the short private sentences players read. The sentences themselves
live in the catalogue (`bot/discord_ui/i18n/locales/*/refusals.ftl`), one per language; here
each refusal or outcome picks its message id and hands over its facts. Every function takes the
reader's `locale` (a `discord.Locale`, a catalogue tag, or None for English): these answers are
private, so it is the user's own `interaction.locale`.
"""

from __future__ import annotations

from bot.engine import errors as engine
from bot.engine.actions import ActionKind
from bot.engine.rules import PROFILES
from bot.table import errors as e
from bot.table.outcomes import AddedAI, Left, Played, Rematch, SeatRemoved, Voted

from ..i18n import text
from .text import card


def _listed(values: object) -> str:
    return ", ".join(map(str, values)) if isinstance(values, tuple | list) else str(values)


_OPTION_IDS = {
    "unknown_profile": "option-unknown-profile",
    "declaration": "option-declaration",
    "hints": "option-hints",
    "deals_choices": "option-deals-choices",
    "no_deals": "option-no-deals",
    "not_pool": "option-not-pool",
    "not_target": "option-not-target",
    "seats": "option-seats",
    "turn_timer": "option-turn-timer",
    "rules": "option-rules",
}


def _bad_option(exc: e.BadOption, locale: object) -> str:
    msg_id = _OPTION_IDS.get(exc.problem)
    if msg_id is None:
        return text(locale, "option-other")
    args: dict[str, object] = {
        k: str(v) for k, v in exc.params.items() if k not in ("choices", "message")
    }
    args.update({k: v for k, v in exc.params.items() if isinstance(v, int)})
    if exc.problem == "unknown_profile":
        args["choices"] = ", ".join(PROFILES)
    if "choices" in exc.params:
        args["choices"] = _listed(exc.params["choices"])
    if "message" in exc.params:
        message = str(exc.params["message"])
        args["message"] = message.capitalize() if exc.problem == "rules" else message
    return text(locale, msg_id, **args)


_SETTINGS_IDS = {
    "all_and_list": "settings-all-and-list",
    "allow_and_remove": "settings-allow-and-remove",
    "unknown_profile": "settings-unknown-profile",
    "unknown_hints": "settings-unknown-hints",
    "every_channel_already": "settings-every-channel-already",
    "not_on_list": "settings-not-on-list",
    "last_channel": "settings-last-channel",
}


def _settings_conflict(exc: e.SettingsConflict, locale: object) -> str:
    msg_id = _SETTINGS_IDS.get(exc.problem, "settings-other")
    # A channel id is a snowflake: given as text, so no language groups its digits.
    return text(locale, msg_id, channel=str(exc.params.get("channel", "")))


_DROP_IDS = {
    "rules": "refusal-drop-rules",
    "out": "refusal-drop-out",
    "turn": "refusal-drop-turn",
    "drawn": "refusal-drop-drawn",
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

#: `WrongPhase` carries its reason only as the engine's English sentence (the engine has no
#: reason code for it yet); each sentence the engine raises is mapped here, and
#: tests/discord_ui/test_i18n.py fails if the engine raises one this table does not know.
WRONG_PHASE_IDS = {
    "You have already left": "engine-phase-already-left",
    "The next deal has not started yet": "engine-phase-next-deal-not-started",
    "No deal is being played": "engine-phase-no-deal",
    "Only the seat on turn can time out": "engine-phase-timeout-not-on-turn",
    "A deal is already in progress": "engine-phase-deal-in-progress",
    "This deal is over": "engine-phase-deal-over",
    "You have already drawn; discard a card": "engine-phase-already-drawn",
    "Draw a card first": "engine-phase-draw-first",
    "You can only drop at the start of your turn, before drawing": (
        "engine-phase-drop-before-drawing"
    ),
    "Choose the card to discard with your declaration": "engine-phase-declare-needs-card",
    "Draw a card before declaring": "engine-phase-draw-before-declaring",
}


def engine_error_text(error: engine.RummyError, locale: object) -> str:
    """The engine's refusal in the reader's language, chosen by its type (and a `WrongPhase`
    by its reason); a refusal this side does not know reads as a generic "not allowed"."""
    if isinstance(error, engine.WrongPhase) and error.message in WRONG_PHASE_IDS:
        return text(locale, WRONG_PHASE_IDS[error.message])
    for kind, msg_id in _ENGINE_IDS:
        if isinstance(error, kind):
            return text(locale, msg_id)
    return text(locale, "engine-refused")


def refusal_text(exc: e.Refusal, locale: object) -> str:
    """A short sentence for the one user who was refused; nothing changed."""
    match exc:
        case e.NoTableHere():
            return text(locale, "refusal-no-table-here")
        case e.TableClosed():
            return text(locale, "refusal-table-closed")
        case e.WrongPlace():
            return text(locale, "refusal-wrong-place")
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
        case e.HostOnly(what="start"):
            return text(locale, "refusal-host-only-start")
        case e.HostOnly(what="add_ai"):
            return text(locale, "refusal-host-only-add-ai")
        case e.HostOnly():
            return text(locale, "refusal-host-only")
        case e.SeatedOrManagerOnly():
            return text(locale, "refusal-seated-or-manager-only")
        case e.TooSoon(wait=wait):
            return text(locale, "refusal-too-soon", wait=wait)
        case e.DropNotAllowed(reason=reason):
            return text(locale, _DROP_IDS.get(reason, "refusal-drop"))
        case e.HostOrManagerOnly():
            return text(locale, "refusal-host-or-manager-only")
        case e.AlreadyStarted(what=what):
            return text(locale, "refusal-already-started", what=what)
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

    return text(locale, "refusal-other")


def played_text(played: Played, locale: object) -> str:
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


def left_text(left: Left, locale: object) -> str:
    if left.closed:
        return text(locale, "done-left-closed")
    if left.in_match:
        return text(locale, "done-left-match")
    return text(locale, "done-left")


def voted_text(voted: Voted, locale: object) -> str:
    return text(locale, "done-next-deal" if voted.started else "done-ready")


def added_ai_text(added: AddedAI, locale: object) -> str:
    return text(locale, "done-added-ai", tier=added.tier, name=added.name)


def seat_removed_text(removed: SeatRemoved, locale: object) -> str:
    return text(locale, "done-seat-removed", name=removed.name)


def host_handed_text(name: str, locale: object) -> str:
    return text(locale, "done-host-handed", name=name)


def rematch_text(rematch: Rematch, locale: object) -> str:
    return text(locale, "done-rematch-opened" if rematch.opened else "done-rematch-seated")
