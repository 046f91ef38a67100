"""The public table message and the turn ping: built only from a `PublicView`, so no hidden
card can reach them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.engine.fairness import shown
from bot.engine.observation import PublicView
from bot.engine.rules import Rules
from bot.words import Locale, text
from bot.words.cards import amount, card, status_words, wild_words

from ..clicks import Act, Click
from ..components import GameButton
from .colour import COLOUR
from .controls import view_of


def table_embed(
    view: PublicView,
    rules: Rules,
    log: Sequence[str],
    deadline: float | None,
    note: str | None = None,
    locale: Locale | None = None,
) -> discord.Embed:
    """The public table: no hidden card may appear here (it only reads a PublicView)."""
    if view.match_phase == "over":
        title = text(locale, "table-title-over", profile=rules.name)
    else:
        title = text(locale, "table-title", profile=rules.name, deal=view.deal_number)
    e = discord.Embed(title=title, colour=COLOUR)
    seat_lines = []
    for s in view.seats:
        marks = []
        if view.turn == s.seat:
            marks.append("▶")
        if s.is_dealer:
            marks.append(text(locale, "table-dealer"))
        line = f"{' '.join(marks)} **{s.name}**{status_words(s.status, locale)}"
        if s.status == "active" and s.cards:
            line += " · " + text(locale, "table-cards", cards=s.cards)
        line += " · " + text(locale, "table-score", score=amount(s.score))
        seat_lines.append(line.strip())
    e.add_field(name=text(locale, "table-seats"), value="\n".join(seat_lines) or "—", inline=False)
    if view.match_phase == "playing":
        e.add_field(name=text(locale, "table-top-discard"), value=card(view.top_discard))
        wild = wild_words(rules, view.wild_rank, view.indicator, locale)
        e.add_field(name=text(locale, "table-indicator"), value=f"{card(view.indicator)} ({wild})")
        e.add_field(
            name=text(locale, "table-stock"),
            value=text(locale, "table-cards", cards=view.stock_size),
        )
        if view.turn is not None:
            who = view.seats[view.turn].name
            step = text(
                locale,
                "table-turn-draw" if view.phase == "draw" else "table-turn-discard",
                name=who,
            )
            if deadline:
                step = text(locale, "table-time-up", step=step, when=f"<t:{int(deadline)}:R>")
            e.add_field(name=text(locale, "table-turn"), value=step, inline=False)
    if log:
        lines = recent_lines(log, len(view.seats))
        e.add_field(name=text(locale, "table-recent"), value="\n".join(lines), inline=False)
    footer = note or text(locale, "table-footer")
    if view.commitment is not None:
        footer += f"\n{commitment_line(view.deal_number, view.commitment, locale)}"
    e.set_footer(text=footer)
    return e


def commitment_line(deal_number: int, commitment: str, locale: Locale | None = None) -> str:
    """The deal's shuffle commitment, public from its start, so players can later check the
    revealed order against what was promised (`python -m bot.engine verify`)."""
    return text(locale, "table-commitment", deal=deal_number, hash=shown(commitment))


def turn_ping(mention: str, deadline: float | None, locale: Locale | None = None) -> str:
    if deadline:
        return text(locale, "turn-ping-timer", mention=mention, when=f"<t:{int(deadline)}:R>")
    return text(locale, "turn-ping", mention=mention)


#: Discord's limit on one embed field's value.
FIELD_LIMIT = 1024


def recent_lines(log: Sequence[str], seats: int) -> list[str]:
    """Every public action since the player now on turn last played: the others' draws and
    throws (two lines each), plus the line before, newest last; as many as fit a field.

    Discards are the game's public evidence, and the table message is edited at most once a
    second, so a short fixed window would let fast throws vanish unseen."""
    want = log[-(2 * seats + 1) :]
    out: list[str] = []
    size = 0
    for line in reversed(want):
        if size + len(line) + 1 > FIELD_LIMIT:
            break
        out.append(line)
        size += len(line) + 1
    return out[::-1]


def turn_warning_text(mention: str, locale: Locale | None = None) -> str:
    return text(locale, "turn-warning", mention=mention)


def replaced_view_text(locale: Locale | None = None) -> str:
    """What an older private hand view says once a newer one took its place."""
    return text(locale, "hand-replaced")


def table_view(
    table_id: str, version: int, between_deals: bool = False, locale: Locale | None = None
) -> discord.ui.View:
    items: list[discord.ui.Item[Any]] = [
        GameButton(
            Click(Act.HAND, table_id, version),
            label=text(locale, "button-your-hand"),
            emoji="🂠",
            style=discord.ButtonStyle.primary,
        )
    ]
    if between_deals:
        items.append(
            GameButton(
                Click(Act.NEXT, table_id, version),
                label=text(locale, "button-next-deal"),
                style=discord.ButtonStyle.success,
            )
        )
    return view_of(*items)


def prompt_view(table_id: str, version: int, locale: Locale | None = None) -> discord.ui.View:
    return table_view(table_id, version, locale=locale)
