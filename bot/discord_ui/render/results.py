"""The results of a deal: every hand revealed in its best arrangement, charges, standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import discord

from bot.engine.fairness import shown
from bot.table.model import Standing

from .text import COLOUR, KIND_LABEL, amount, code_to_pretty, signed


def result_embed(
    history: Mapping[str, Any],
    names: Sequence[str],
    standings: Sequence[str],
    match_over: bool,
    winners: Sequence[str],
    score_word: str,
) -> discord.Embed:
    """The reveal: every hand in its best arrangement, each charge, standings."""
    end = history["end"]
    number = history["deal_number"]
    reason = end["reason"]
    if reason == "void":
        head = "The stock ran out: the deal is void, nobody pays."
    else:
        winner = names[end["winner"]]
        how = {
            "declared": "declared",
            "hand_rummy": "declared hand rummy",
            "last_standing": "is the last player standing",
        }[reason]
        head = f"**{winner}** {how}!"
    e = discord.Embed(title=f"Deal {number} result", description=head, colour=COLOUR)
    charges = {c["seat"]: c for c in history["charges"]}
    deltas = {int(s): Fraction(v) for s, v in history["deltas"].items()}
    for seat_str, fin in history["final"].items():
        seat = int(seat_str)
        name = names[seat]
        arrangement = fin.get("arrangement")
        parts = []
        if fin["status"] == "active" and arrangement:
            for g in arrangement["groups"]:
                parts.append(
                    f"{KIND_LABEL[g['kind']]}: {' '.join(map(code_to_pretty, g['cards']))}"
                )
            if arrangement["leftover"]:
                parts.append("Unmatched: " + " ".join(map(code_to_pretty, arrangement["leftover"])))
        elif fin["out_reason"]:
            parts.append(fin["out_reason"].replace("_", " "))
        charge = charges.get(seat)
        if charge is not None:
            basis = charge["basis"].replace("_", " ")
            rate = Fraction(charge["rate"])
            rate_txt = "" if rate == 1 else f" × {amount(rate)}"
            mult = "" if charge["multiplier"] == 1 else f" × {charge['multiplier']}"
            paid = amount(Fraction(charge["amount"]))
            parts.append(f"Pays {paid} ({basis} {charge['base']}{rate_txt}{mult})")
        if seat == end.get("winner"):
            parts.append("Winner 🏆")
        delta = deltas.get(seat, Fraction(0))
        title = f"{name} ({signed(delta)} {score_word})" if delta else name
        e.add_field(name=title[:256], value=("\n".join(parts) or "—")[:1024], inline=False)
    e.add_field(name="Standings", value="\n".join(standings)[:1024] or "—", inline=False)
    shuffle = history.get("shuffle")
    if shuffle:
        text = shuffle_text(shuffle)
        if len(e) + len("Shuffle") + len(text) <= 6000 - 200:  # room left for the footer
            e.add_field(name="Shuffle", value=text, inline=False)
    if match_over:
        text = (
            "Match over — winner: " + ", ".join(winners) if winners else "Match over — no winner."
        )
        e.set_footer(text=text)
    return e


def shuffle_text(shuffle: Mapping[str, Any]) -> str:
    """The reveal of the deal's shuffle commitment: the secret salt, and how to check that the
    attached hand history's deck order is the one promised at the start."""
    return (
        f"Commitment `{shown(shuffle['commitment'])}…` · salt `{shuffle['salt']}`\n"
        "Check the attached hand history with `python -m bot.engine verify`"
    )


def standings_lines(standings: Sequence[Standing]) -> list[str]:
    """Score lines, best first, in the match's own terms (net chips or penalty points)."""
    lines = []
    for s in standings:
        mark = " (out)" if s.out else " (left)" if s.left else ""
        if s.winner:
            mark += " 🏆"
        lines.append(f"{s.name}: {amount(s.score)}{mark}")
    return lines
