"""The lobby message: the options the host chose and who has sat down, in the table's
language (`locale`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.ai import TIERS
from bot.engine.rules import DeclarationMode, MatchFormat, Rules
from bot.words import Locale, catalogue, text
from bot.words.cards import hint_level_words

from ..clicks import Act, Click, HostTool, HostToolKind
from ..components import GameButton, GameSelect
from .colour import COLOUR
from .controls import view_of

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


#: The catalogue id of each AI tier's menu entry (its label, and its `.description`).
AI_IDS = {"easy": "ai-easy", "medium": "ai-medium", "hard": "ai-hard", "expert": "ai-expert"}


#: The catalogue id of each AI tier's seat name ("🤖 Hard").
AI_SEAT_IDS = {
    "easy": "ai-seat-easy",
    "medium": "ai-seat-medium",
    "hard": "ai-seat-hard",
    "expert": "ai-seat-expert",
}


def ai_seat_name(tier: str, locale: Locale | None) -> str | None:
    """The name an AI seat of `tier` takes at a table of language `locale` (None: a tier
    without words, named by the table layer)."""
    msg = AI_SEAT_IDS.get(tier)
    return None if msg is None else text(locale, msg)


def _ai_option(tier: str, locale: Locale | None) -> discord.SelectOption:
    msg = AI_IDS.get(tier)
    if msg is None:  # a tier without words yet: its name
        return discord.SelectOption(label=tier, value=tier)
    return discord.SelectOption(
        label=text(locale, msg),
        value=tier,
        description=catalogue().text(locale, msg, attribute="description"),
    )


def lobby_view(
    table_id: str,
    version: int,
    full: bool = False,
    seats: Sequence[tuple[str, str, bool, bool]] = (),
    locale: Locale | None = None,
) -> discord.ui.View:
    """Join / Leave / Start / Cancel, the Add-AI menu and the host's tools; a full lobby
    offers neither Join nor the AI menu (there is no seat left to take). `seats`: (seat key,
    name, is AI, is the host), for the host tools: remove a seat, hand over hosting. Labels
    in the table's language (`locale`)."""

    def cid(act: Act) -> Click:
        return Click(act, table_id, version)

    items: list[discord.ui.Item[Any]] = []
    if not full:
        items.append(
            GameButton(
                cid(Act.JOIN),
                label=text(locale, "button-join"),
                style=discord.ButtonStyle.success,
                row=0,
            )
        )
    items += [
        GameButton(cid(Act.LEAVE), label=text(locale, "button-leave"), row=0),
        GameButton(
            cid(Act.START),
            label=text(locale, "button-start"),
            style=discord.ButtonStyle.primary,
            row=0,
        ),
        GameButton(
            cid(Act.CANCEL),
            label=text(locale, "button-cancel"),
            style=discord.ButtonStyle.danger,
            row=0,
        ),
    ]
    if not full:
        items.append(
            GameSelect(
                cid(Act.ADD_AI),
                placeholder=text(locale, "menu-add-ai"),
                options=[_ai_option(tier, locale) for tier in TIERS],
                row=1,
            )
        )
    tools = [
        discord.SelectOption(
            label=text(locale, "host-remove", name=name)[:100],
            value=HostTool(HostToolKind.REMOVE, key).value,
        )
        for key, name, _ai, host in seats
        if not host
    ] + [
        discord.SelectOption(
            label=text(locale, "host-make", name=name)[:100],
            value=HostTool(HostToolKind.MAKE_HOST, key).value,
        )
        for key, name, ai, host in seats
        if not ai and not host
    ]
    if tools:
        items.append(
            GameSelect(
                cid(Act.HOST),
                placeholder=text(locale, "menu-host-tools"),
                options=tools[:25],
                row=2,
            )
        )
    return view_of(*items)
