"""Lobby options: what a host may choose at `/rummy new`, checked against the rules object.

Everything is checked here even though the slash command declares ranges: a client can send
anything, so the table layer never trusts what Discord says it enforced.
"""

from __future__ import annotations

from typing import Any

from bot.engine.rules import (
    HOUSE_TOGGLES,
    DeclarationMode,
    MatchFormat,
    check_table_options,
    get_profile,
)

from .errors import BadOption
from .model import TableOptions

#: Seconds a player may think per turn (the slash command offers the same range).
TURN_TIMER_RANGE = (15, 600)


def build_options(
    profile: str,
    max_seats: int | None,
    turn_timer: int,
    declaration: str | None,
    toggles: dict[str, bool],
    deals: int | None,
    pool_limit: int | None,
    target_score: int | None,
) -> TableOptions:
    """Validate lobby options against the rules object; raises `BadOption` saying why."""
    try:
        base = get_profile(profile)
    except ValueError as exc:
        raise BadOption("unknown_profile", message=str(exc)) from None
    changes: dict[str, Any] = {k: v for k, v in toggles.items() if k in HOUSE_TOGGLES and v}
    if declaration:
        try:
            changes["declaration_mode"] = DeclarationMode(declaration)
        except ValueError:
            raise BadOption(
                "declaration", choices=tuple(m.value for m in DeclarationMode)
            ) from None
    if deals is not None:
        if base.match_format is MatchFormat.DEALS and deals not in base.deals_choices:
            raise BadOption("deals_choices", choices=base.deals_choices)
        if base.match_format not in (MatchFormat.DEALS, MatchFormat.TARGET):
            raise BadOption("no_deals", profile=profile)
        changes["num_deals"] = deals
    if pool_limit is not None:
        if base.match_format is not MatchFormat.POOL:
            raise BadOption("not_pool", profile=profile)
        changes["pool_limit"] = pool_limit
    if target_score is not None:
        if base.match_format is not MatchFormat.TARGET:
            raise BadOption("not_target", profile=profile)
        changes["target_score"] = target_score
        changes.setdefault("num_deals", None)
    seats = max_seats or base.max_players
    if not base.min_players <= seats <= base.max_players:
        raise BadOption(
            "seats", profile=profile, low=base.min_players, high=base.max_players, seats=seats
        )
    low, high = TURN_TIMER_RANGE
    if not low <= turn_timer <= high:
        raise BadOption("turn_timer", low=low, high=high, value=turn_timer)
    options = TableOptions(profile, seats, turn_timer, changes)
    try:
        check_table_options(options.rules(), seats, turn_timer)
    except ValueError as exc:
        raise BadOption("rules", message=str(exc)) from None
    return options
