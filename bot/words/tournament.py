"""A tournament's facts as sentences: its rules as the registration message states them, its
state, a round's byes and why, the private answers and the refusals.

The facts come from the table layer (`bot.table.tournament_model`, `bot.table.bracket`, the
typed `TournamentRefused`); the words from the catalogue (`locales/*/tournament.ftl`). Nothing
here knows Discord beyond writing a timestamp as `<t:…>` through the catalogue.
"""

from __future__ import annotations

from bot.table import bracket
from bot.table.bracket import AdvanceKind
from bot.table.errors import TournamentProblem, TournamentRefused
from bot.table.tournament_model import (
    CHECK_IN_SECONDS,
    MIN_ENTRANTS,
    Round,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from bot.table.vocabulary import Locale

from .catalogue import text

_FORMAT_IDS = {
    TournamentFormat.POINTS: "tournament-format-points",
    TournamentFormat.DEALS: "tournament-format-deals",
    TournamentFormat.POOL101: "tournament-format-pool101",
    TournamentFormat.POOL201: "tournament-format-pool201",
}

_REFUSAL_IDS = {
    TournamentProblem.NONE_HERE: "tournament-refused-none-here",
    TournamentProblem.CLOSED: "tournament-refused-closed",
    TournamentProblem.WRONG_PLACE: "tournament-refused-wrong-place",
    TournamentProblem.CHANNEL_BUSY: "tournament-refused-channel-busy",
    TournamentProblem.NOT_ORGANISER: "tournament-refused-not-organiser",
    TournamentProblem.REGISTRATION_CLOSED: "tournament-refused-registration-closed",
    TournamentProblem.ALREADY_REGISTERED: "tournament-refused-already-registered",
    TournamentProblem.NOT_REGISTERED: "tournament-refused-not-registered",
    TournamentProblem.FULL: "tournament-refused-full",
    TournamentProblem.REMOVED: "tournament-refused-removed",
    TournamentProblem.CHECK_IN_NOT_OPEN: "tournament-refused-check-in-not-open",
    TournamentProblem.NOT_RUNNING: "tournament-refused-not-running",
    TournamentProblem.ALREADY_RUNNING: "tournament-refused-already-running",
    TournamentProblem.TOO_FEW: "tournament-refused-too-few",
    TournamentProblem.PAUSED: "tournament-refused-paused",
    TournamentProblem.NOT_PAUSED: "tournament-refused-not-paused",
    TournamentProblem.NO_SUCH_PLAYER: "tournament-refused-no-such-player",
    TournamentProblem.TOURNAMENT_TABLE: "tournament-refused-tournament-table",
}

#: The options `bot.table.tournament_options` may refuse, by the name it gives.
OPTION_IDS = {
    "name": "tournament-option-name",
    "format": "tournament-option-format",
    "seats": "tournament-option-seats",
    "deals": "tournament-option-deals",
    "no_deals": "tournament-option-no-deals",
    "advance": "tournament-option-advance",
    "advance_both": "tournament-option-advance-both",
    "chip_line": "tournament-option-chip-line",
    "start_in": "tournament-option-start-in",
    "start_at": "tournament-option-start-at",
    "start_both": "tournament-option-start-both",
    "cap": "tournament-option-cap",
    "turn_timer": "tournament-option-turn-timer",
    "hints": "tournament-option-hints",
    "ai_tier": "tournament-option-ai-tier",
}


def refusal_text(exc: TournamentRefused, locale: Locale | None) -> str:
    """A tournament's refusal for the one who was refused."""
    if exc.problem is TournamentProblem.BAD_OPTION:
        return option_text(exc.params, locale)
    args = {k: _fact(k, v) for k, v in exc.params.items()}
    return text(locale, _REFUSAL_IDS.get(exc.problem, "tournament-option-other"), **args)


def option_text(params: dict[str, object], locale: Locale | None) -> str:
    option = str(params.get("option", ""))
    msg_id = OPTION_IDS.get(option, "tournament-option-other")
    if option == "chip_line" and "low" in params:
        msg_id = "tournament-option-chip-line-range"
    args = {k: _fact(k, v) for k, v in params.items() if k != "option"}
    return text(locale, msg_id, **args)


def _fact(name: str, value: object) -> object:
    """Numbers stay numbers (the language groups them), except times and ids: text."""
    if name in ("opens", "start", "value"):
        return str(value)
    return value


def stamp(seconds: float) -> str:
    """A Unix time for a Discord timestamp, as text (no digit grouping)."""
    return str(int(seconds))


# ---- the rules, as the registration message states them -------------------------------------


def rules_lines(t: Tournament, locale: Locale | None) -> list[str]:
    opts = t.options
    lines = [text(locale, _FORMAT_IDS[opts.format], deals=opts.deals)]
    if opts.advance.kind is AdvanceKind.TOP:
        lines.append(
            text(locale, "tournament-advance-top", seats=opts.seats, count=opts.advance.value)
        )
    else:
        lines.append(
            text(locale, "tournament-advance-line", seats=opts.seats, line=opts.advance.value)
        )
    if t.status.entering:
        opens = opts.start_at - CHECK_IN_SECONDS
        lines.append(
            text(locale, "tournament-start", start=stamp(opts.start_at), opens=stamp(opens))
        )
    lines.append(text(locale, "tournament-settings", timer=opts.turn_timer, cap=opts.cap))
    if opts.rated:
        lines.append(text(locale, "tournament-rated"))
    else:
        lines.append(text(locale, "tournament-unrated", hints=opts.hints.value))
    if opts.ai_fill:
        lines.append(text(locale, "tournament-ai-fill"))
    lines.append(text(locale, "tournament-rules"))
    return lines


def state_line(t: Tournament, locale: Locale | None) -> str:
    """Where the tournament is, in one line."""
    if t.status is TournamentStatus.REGISTRATION:
        return text(locale, "tournament-state-registration")
    if t.status is TournamentStatus.CHECK_IN:
        if t.stalled:
            count = len(t.checked_in)
            return text(locale, "tournament-state-stalled", count=count, minimum=MIN_ENTRANTS)
        return text(locale, "tournament-state-check-in")
    if t.status is TournamentStatus.RUNNING:
        if t.paused:
            return text(locale, "tournament-state-paused")
        return text(locale, "tournament-state-running", round=len(t.rounds))
    if t.status is TournamentStatus.FINISHED:
        winner = t.name_of(t.winner) if t.winner else "?"
        return text(locale, "tournament-state-finished", winner=winner)
    return text(locale, "tournament-state-cancelled", reason=t.reason or "—")


def names_line(names: list[str], locale: Locale | None, most: int = 40) -> str:
    """Names, comma-separated, cut after `most` with how many more."""
    if not names:
        return text(locale, "tournament-nobody")
    shown = ", ".join(names[:most])
    if len(names) > most:
        shown += " " + text(locale, "tournament-and-more", count=len(names) - most)
    return shown


def bye_reason(t: Tournament, r: Round, locale: Locale | None) -> str:
    """Why the round has byes: the stated rule, with its numbers."""
    opts = t.options
    low = max(bracket.MIN_TABLE, min(opts.advance.min_table, opts.seats))
    players = len(r.draw)
    return text(
        locale,
        "tournament-bye-reason",
        players=players,
        low=low,
        seats=opts.seats,
        count=len(r.byes),
    )


def left_out_text(t: Tournament, locale: Locale | None) -> str:
    return text(locale, "tournament-left-out", name=t.options.name)


def stalled_text(t: Tournament, count: int, minimum: int, locale: Locale | None) -> str:
    return text(locale, "tournament-stalled", name=t.options.name, count=count, minimum=minimum)


def cancelled_text(t: Tournament, reason: str, locale: Locale | None) -> str:
    return text(locale, "tournament-cancelled", name=t.options.name, reason=reason or "—")


def ai_name(tier: str, number: int, locale: Locale | None) -> str:
    return text(locale, "tournament-ai-name", tier=tier.capitalize(), number=str(number))
