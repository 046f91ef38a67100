"""The lobby message: the options the host chose and who has sat down, in the table's
language (`locale`)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine.rules import DeclarationMode, MatchFormat, Rules
from bot.words import Locale, text
from bot.words.cards import hint_level_words

from .colour import COLOUR

#: The house toggles a lobby names, in the order it names them.
TOGGLE_IDS = {
    "no_reshuffle": "toggle-no-reshuffle",
    "joker_indicator_doubles": "toggle-joker-indicator-doubles",
    "aces_wild_on_joker": "toggle-aces-wild-on-joker",
    "nothing_wild": "toggle-nothing-wild",
    "one_joker_per_deck": "toggle-one-joker-per-deck",
    "no_packing": "toggle-no-packing",
}


def settings_lines(
    rules: Rules, max_seats: int, turn_timer: int, locale: Locale | None = None
) -> list[str]:
    lines = [text(locale, "lobby-profile", profile=rules.name, seats=max_seats, timer=turn_timer)]
    extras = []
    if rules.match_format is MatchFormat.DEALS or (
        rules.match_format is MatchFormat.TARGET and rules.num_deals
    ):
        extras.append(text(locale, "lobby-deals", deals=rules.num_deals))
    if rules.target_score:
        extras.append(text(locale, "lobby-target", target=rules.target_score))
    if rules.pool_limit:
        extras.append(text(locale, "lobby-pool-limit", limit=rules.pool_limit))
    extras.append(text(locale, "lobby-declare", mode=rules.declaration_mode.value))
    toggles = [text(locale, msg) for name, msg in TOGGLE_IDS.items() if getattr(rules, name)]
    if toggles:
        extras.append(text(locale, "lobby-house-rules", rules=", ".join(toggles)))
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
    locale: Locale | None = None,
) -> discord.Embed:
    """`seats`: (display name, is AI) in joining order; `invited`: a private table's guests;
    `hints` the table's hint level; `rated` False: the server rates only hint-free games."""
    e = discord.Embed(title=text(locale, "lobby-title"), colour=COLOUR)
    lines = settings_lines(rules, max_seats, turn_timer, locale)
    lines.extend(hint_lines(rules, hints, rated, locale))
    e.description = "\n".join(lines)
    seat_lines = [f"{i + 1}. {name}" for i, (name, _ai) in enumerate(seats)]
    seat_lines += [text(locale, "lobby-empty-seat")] * max(0, min(max_seats, 6) - len(seats))
    e.add_field(
        name=text(locale, "lobby-seats", seated=len(seats), seats=max_seats),
        value="\n".join(seat_lines),
        inline=False,
    )
    if invited is not None:
        guests = " ".join(f"<@{u}>" for u in invited) or text(locale, "lobby-nobody-yet")
        e.add_field(
            name=text(locale, "lobby-private"),
            value=text(locale, "lobby-private-guests", guests=guests)[:1024],
        )
    need = max(0, rules.min_players - len(seats))
    if need:
        footer = text(locale, "lobby-footer-waiting", host=host_name, need=need)
    else:
        footer = text(locale, "lobby-footer-ready", host=host_name)
    e.set_footer(text=footer)
    if note:
        e.add_field(name="\u200b", value=note, inline=False)
    return e


def hint_lines(rules: Rules, hints: str, rated: bool, locale: Locale | None = None) -> list[str]:
    """The table's hint level, and what it means before anyone sits down: a wrong show is a
    real risk without hints in honor mode, and a table with hints may be played unrated."""
    level, meaning = hint_level_words(hints, locale)
    lines = [text(locale, "lobby-hints", level=level, meaning=meaning)]
    if hints != "full" and rules.declaration_mode is DeclarationMode.HONOR:
        lines.append(text(locale, "lobby-honor-warning"))
    if not rated:
        lines.append(text(locale, "lobby-unrated"))
    return lines


def lobby_expired_note(timeout: float, locale: Locale | None = None) -> str:
    return text(locale, "lobby-expired", minutes=max(1, round(timeout / 60)))
