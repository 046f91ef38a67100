"""The lobby message: the options the host chose and who has sat down."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine.rules import DeclarationMode, MatchFormat, Rules

from .text import COLOUR, HINT_WORDS


def settings_lines(rules: Rules, max_seats: int, turn_timer: int) -> list[str]:
    lines = [f"**Profile:** `{rules.name}` · seats {max_seats} · turn timer {turn_timer}s"]
    extras = []
    if rules.match_format is MatchFormat.DEALS or (
        rules.match_format is MatchFormat.TARGET and rules.num_deals
    ):
        extras.append(f"{rules.num_deals} deals")
    if rules.target_score:
        extras.append(f"target {rules.target_score}")
    if rules.pool_limit:
        extras.append(f"out at {rules.pool_limit}")
    extras.append(f"declare: {rules.declaration_mode.value}")
    toggles = [
        name.replace("_", " ")
        for name in (
            "no_reshuffle",
            "joker_indicator_doubles",
            "aces_wild_on_joker",
            "nothing_wild",
            "one_joker_per_deck",
            "no_packing",
        )
        if getattr(rules, name)
    ]
    if toggles:
        extras.append("house rules: " + ", ".join(toggles))
    lines.append(" · ".join(extras))
    return lines


def lobby_embed(
    rules: Rules,
    seats: Sequence[tuple[str, bool]],
    host_name: str,
    max_seats: int,
    turn_timer: int,
    note: str | None = None,
    invited: Sequence[int] | None = None,
    hints: str = "full",
    rated: bool = True,
) -> discord.Embed:
    """`seats`: (display name, is AI) in joining order; `invited`: a private table's guests;
    `hints` the table's hint level; `rated` False: the server rates only hint-free games."""
    e = discord.Embed(title="🎴 Indian Rummy — table open", colour=COLOUR)
    lines = settings_lines(rules, max_seats, turn_timer)
    lines.extend(hint_lines(rules, hints, rated))
    e.description = "\n".join(lines)
    seat_lines = [f"{i + 1}. {name}" for i, (name, _ai) in enumerate(seats)]
    seat_lines += ["· empty"] * max(0, min(max_seats, 6) - len(seats))
    e.add_field(name=f"Seats ({len(seats)}/{max_seats})", value="\n".join(seat_lines), inline=False)
    if invited is not None:
        guests = " ".join(f"<@{u}>" for u in invited) or "nobody yet"
        e.add_field(name="Private table", value=f"Only these players may join: {guests}"[:1024])
    need = max(0, rules.min_players - len(seats))
    footer = f"Host: {host_name}. "
    footer += (
        f"Waiting for {need} more player{'s' if need != 1 else ''}."
        if need
        else "The host can start."
    )
    e.set_footer(text=footer)
    if note:
        e.add_field(name="\u200b", value=note, inline=False)
    return e


def hint_lines(rules: Rules, hints: str, rated: bool) -> list[str]:
    """The table's hint level, and what it means before anyone sits down: a wrong show is a
    real risk without hints in honor mode, and a table with hints may be played unrated."""
    lines = [f"**Hints:** {hints} ({HINT_WORDS.get(hints, hints)})"]
    if hints != "full" and rules.declaration_mode is DeclarationMode.HONOR:
        lines.append("⚠️ Nobody checks your hand before you declare: a wrong show is penalised.")
    if not rated:
        lines.append(
            "**Unrated:** this server rates only games with hints off; this match counts in "
            "the stats but moves no rating."
        )
    return lines


def lobby_expired_note(timeout: float) -> str:
    minutes = max(1, round(timeout / 60))
    return (
        f"This lobby closed after {minutes} minute{'s' if minutes != 1 else ''} without a start. "
        "Open a new one with /rummy new."
    )
