"""Lobby options: what a host may choose at `/rummy new`, checked against the rules object.

Everything is checked here even though the slash command declares ranges: a client can send
anything, so the table layer never trusts what Discord says it enforced.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import RuleOptionError
from bot.engine.rules import (
    HOUSE_TOGGLES,
    DeclarationMode,
    MatchFormat,
    check_table_options,
    get_profile,
)

from .errors import BadOption, TableOptionProblem
from .model import HintLevel, TableOptions

#: Seconds a player may think per turn (the slash command offers the same range).
TURN_TIMER_RANGE = (15, 600)


@dataclass(frozen=True, slots=True)
class LobbyRequest:
    """What a host asked for when opening a table (`/rummy new`); None: the server's default
    (profile, turn timer, hint level) or the profile's."""

    profile: str | None = None
    seats: int | None = None
    turn_timer: int | None = None
    declaration: str | None = None
    toggles: dict[str, bool] = field(default_factory=dict)
    deals: int | None = None
    pool_limit: int | None = None
    target_score: int | None = None
    hints: str | None = None
    #: A private table: only these users may sit down (the host always may).
    invited: tuple[int, ...] | None = None


def build_options(
    profile: str,
    max_seats: int | None,
    turn_timer: int,
    declaration: str | None,
    toggles: dict[str, bool],
    deals: int | None,
    pool_limit: int | None,
    target_score: int | None,
    *,
    hints: HintLevel = HintLevel.FULL,
    rated_needs_hints_off: bool = False,
) -> TableOptions:
    """Validate lobby options against the rules object; raises `BadOption` saying why.

    `hints` is the level the host chose (`parse_hints`) or the server's default;
    `rated_needs_hints_off` the server's rule that only games without hints move ratings
    (see `hint_rating`)."""
    try:
        base = get_profile(profile)
    except ValueError:
        raise BadOption(TableOptionProblem.UNKNOWN_PROFILE, name=profile) from None
    changes: dict[str, Any] = {k: v for k, v in toggles.items() if k in HOUSE_TOGGLES and v}
    if declaration:
        try:
            changes["declaration_mode"] = DeclarationMode(declaration)
        except ValueError:
            raise BadOption(
                TableOptionProblem.DECLARATION, choices=tuple(m.value for m in DeclarationMode)
            ) from None
    if deals is not None:
        if base.match_format is MatchFormat.DEALS and deals not in base.deals_choices:
            raise BadOption(TableOptionProblem.DEALS_CHOICES, choices=base.deals_choices)
        if base.match_format not in (MatchFormat.DEALS, MatchFormat.TARGET):
            raise BadOption(TableOptionProblem.NO_DEALS, profile=profile)
        changes["num_deals"] = deals
    if pool_limit is not None:
        if base.match_format is not MatchFormat.POOL:
            raise BadOption(TableOptionProblem.NOT_POOL, profile=profile)
        changes["pool_limit"] = pool_limit
    if target_score is not None:
        if base.match_format is not MatchFormat.TARGET:
            raise BadOption(TableOptionProblem.NOT_TARGET, profile=profile)
        changes["target_score"] = target_score
        changes.setdefault("num_deals", None)
    seats = max_seats or base.max_players
    if not base.min_players <= seats <= base.max_players:
        raise BadOption(
            TableOptionProblem.SEATS,
            profile=profile,
            low=base.min_players,
            high=base.max_players,
            seats=seats,
        )
    low, high = TURN_TIMER_RANGE
    if not low <= turn_timer <= high:
        raise BadOption(TableOptionProblem.TURN_TIMER, low=low, high=high, value=turn_timer)
    rated = hint_rating(hints, rated_needs_hints_off)
    options = TableOptions(profile, seats, turn_timer, changes, hints=hints, rated=rated)
    try:
        check_table_options(options.rules(), seats, turn_timer)
    except RuleOptionError as exc:
        # The engine's code and facts, not its sentence: the Discord side words them.
        raise BadOption(TableOptionProblem.RULES, code=exc.problem, **exc.params) from None
    return options


def parse_hints(value: str) -> HintLevel:
    """The hint level a host typed at `/rummy new`. A client can send anything, so this is
    where a level from outside is checked (by `HintLevel.parse`, the one check) and an unknown
    one refused as a lobby option; `build_options` takes the parsed level."""
    level = HintLevel.parse(value)
    if level is None:
        raise BadOption(TableOptionProblem.HINTS, choices=tuple(h.value for h in HintLevel))
    return level


def hint_rating(level: HintLevel, rated_needs_hints_off: bool) -> bool:
    """Whether a table's match moves ratings, given its hint level.

    Hint levels: `full` shows the engine's best arrangement, what each discard would leave
    and when the hand can be declared; `groups` the arrangement only (no deadwood, no
    "you can declare": the player judges a finished hand themselves); `off` the cards
    sorted by suit and nothing evaluated. With hints below `full` the Declare control no
    longer tells a declarable hand from another: in honor mode a wrong show then costs its
    penalty, in assisted mode the engine refuses it (its rules, unchanged).

    A server that rates only games played without hints (`/rummy settings`
    rated_hints_off) does not forbid hints: a table with hints on is opened as asked and
    played **unrated** (it counts in every stat and leaderboard, its match moves no rating),
    and its lobby says so before anyone sits down. Why this and not a refusal: ratings here
    are automatic (any match of two or more humans), so refusing hints would forbid the
    helped, casual game outright; an admin who wants fair ratings wants hint-free rated
    games, not the end of friendly tables. The decision is made when the table opens and
    travels with the result, so changing the setting later never rewrites past ratings."""
    return not rated_needs_hints_off or level is HintLevel.OFF
