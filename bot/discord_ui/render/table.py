"""The public table message and the turn ping: built only from a `PublicView`, so no hidden
card can reach them."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine.fairness import shown
from bot.engine.observation import PublicView
from bot.engine.rules import Rules

from .text import COLOUR, STATUS_ICON, amount, card, wild_text


def table_embed(
    view: PublicView,
    rules: Rules,
    log: Sequence[str],
    deadline: float | None,
    note: str | None = None,
) -> discord.Embed:
    """The public table: no hidden card may appear here (it only reads a PublicView)."""
    title = f"🎴 {rules.name} — deal {view.deal_number}"
    if view.match_phase == "over":
        title = f"🎴 {rules.name} — match over"
    e = discord.Embed(title=title, colour=COLOUR)
    seat_lines = []
    for s in view.seats:
        marks = []
        if view.turn == s.seat:
            marks.append("▶")
        if s.is_dealer:
            marks.append("(dealer)")
        count = f"{s.cards} cards" if s.status == "active" and s.cards else ""
        score = amount(s.score)
        line = f"{' '.join(marks)} **{s.name}**{STATUS_ICON.get(s.status, '')}"
        line += f" · {count}" if count else ""
        line += f" · score {score}"
        seat_lines.append(line.strip())
    e.add_field(name="Seats", value="\n".join(seat_lines) or "—", inline=False)
    if view.match_phase == "playing":
        e.add_field(name="Top discard", value=card(view.top_discard), inline=True)
        e.add_field(
            name="Indicator",
            value=f"{card(view.indicator)} ({wild_text(rules, view.wild_rank, view.indicator)})",
            inline=True,
        )
        e.add_field(name="Stock", value=f"{view.stock_size} cards", inline=True)
        if view.turn is not None:
            who = view.seats[view.turn].name
            step = "to draw or drop" if view.phase == "draw" else "to discard or declare"
            timer = f" · time up <t:{int(deadline)}:R>" if deadline else ""
            e.add_field(name="Turn", value=f"**{who}** {step}{timer}", inline=False)
    if log:
        lines = recent_lines(log, len(view.seats))
        e.add_field(name="Recent", value="\n".join(lines), inline=False)
    footer = note or "Press “Your hand” to see your cards (only you can see them)."
    if view.commitment is not None:
        footer += f"\n{commitment_line(view.deal_number, view.commitment)}"
    e.set_footer(text=footer)
    return e


def commitment_line(deal_number: int, commitment: str) -> str:
    """The deal's shuffle commitment, public from its start, so players can later check the
    revealed order against what was promised (`python -m bot.engine verify`)."""
    return f"Deal {deal_number} shuffle commitment: {shown(commitment)}… (sha256)"


def turn_ping(mention: str, deadline: float | None) -> str:
    timer = f" — time up <t:{int(deadline)}:R>" if deadline else ""
    return f"{mention}, it's your turn{timer}."


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


def turn_warning_text(mention: str) -> str:
    return f"⏳ {mention}, 15 seconds left — then the bot plays for you."


REPLACED_VIEW = "This hand view was replaced by a newer one — use the newest."
