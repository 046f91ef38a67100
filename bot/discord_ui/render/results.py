"""The results of a deal: every hand revealed in its best arrangement, charges, standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import discord

from bot.engine.cards import Card, Face, rank_name
from bot.engine.evaluate import Evaluation
from bot.engine.events import WrongShow
from bot.engine.fairness import shown
from bot.engine.match import FinishedDeal
from bot.engine.rules import Rules
from bot.engine.settlement import Basis, Charge
from bot.engine.states import EndReason, OutReason, ScoreKind
from bot.table.model import Standing

from .hand import wrong_show_problems
from .text import COLOUR, KIND_LABEL, amount, cards, signed


def result_embed(
    finished: FinishedDeal,
    names: Sequence[str],
    standings: Sequence[str],
    match_over: bool,
    winners: Sequence[str],
    score: ScoreKind,
    wild_rank: int | None,
    rules: Rules | None = None,
    wrong_shows: Mapping[int, WrongShow] | None = None,
    table_id: str | None = None,
    timed_out: Mapping[int, int] | None = None,
    *,
    hints: str = "full",
    rated: bool = True,
) -> discord.Embed:
    """The reveal: every hand in its best arrangement (wild cards marked, with what each one
    stands for), each charge with how it was reached, and the standings. The footer names the
    table (`results_key`): after a restart, that is how the bot finds results it already
    posted. It also says a hint level below full (the deal was played with less help) and,
    at the match's end, that it moved no rating when the server rates hint-free games only."""
    result = finished.result
    if result.void:
        head = "The stock ran out: the deal is void, nobody pays."
    else:
        winner = names[result.winner] if result.winner is not None else "?"
        how = {
            EndReason.DECLARED: "declared",
            EndReason.HAND_RUMMY: "declared hand rummy",
            EndReason.LAST_STANDING: "is the last player standing",
        }.get(result.end, "won")
        head = f"**{winner}** {how}!"
    e = discord.Embed(title=f"Deal {result.number} result", description=head, colour=COLOUR)
    for seat in sorted(finished.status):
        parts = seat_lines(finished, seat, wild_rank, (timed_out or {}).get(seat))
        show = (wrong_shows or {}).get(seat)
        if show is not None and rules is not None:
            parts.insert(1, "Why: " + "; ".join(wrong_show_problems(show, rules, wild_rank)))
        delta = result.deltas.get(seat, Fraction(0))
        title = f"{names[seat]} ({score_change(delta, score)})" if delta else names[seat]
        e.add_field(name=title[:256], value=("\n".join(parts) or "—")[:1024], inline=False)
    e.add_field(name="Standings", value="\n".join(standings)[:1024] or "—", inline=False)
    shuffle = finished.history.get("shuffle")
    if shuffle:
        text = shuffle_text(shuffle)
        if len(e) + len("Shuffle") + len(text) <= 6000 - 200:  # room left for the footer
            e.add_field(name="Shuffle", value=text, inline=False)
    footer = []
    if match_over:
        footer.append(
            "Match over — winner: " + ", ".join(winners) if winners else "Match over — no winner."
        )
    if hints != "full":
        footer.append(f"hints {hints}")
    if match_over and not rated:
        footer.append("unrated (this server rates games with hints off only)")
    if table_id is not None:
        footer.append(results_key(table_id))
    if footer:
        e.set_footer(text=" · ".join(footer)[:2048])
    return e


def next_deal_started(number: int) -> str:
    """What an earlier deal's results say once the deal after them has begun (their "Next
    deal" button is gone by then)."""
    return f"Deal {number} has started."


def results_key(table_id: str) -> str:
    """The mark a results message carries to say which table it belongs to."""
    return f"Table {table_id}"


def seat_lines(
    finished: FinishedDeal, seat: int, wild_rank: int | None, timeouts: int | None = None
) -> list[str]:
    """A seat's lines in the results: its groups, or why it was out (with the timeouts that
    dropped it: the table's line saying so has scrolled away by the end), its bill."""
    parts: list[str] = []
    ev = finished.evaluations.get(seat)
    reason = finished.out_reason.get(seat)
    if ev is not None and reason is None:
        for g in ev.groups:
            parts.append(
                f"{KIND_LABEL[g.kind.value]}: {group_text(g.kind.value, g.cards, wild_rank)}"
            )
        if ev.leftover:
            parts.append("Unmatched: " + cards(ev.leftover, wild_rank))
    elif reason is not None:
        parts.append(out_reason_text(reason, timeouts))
    charge = finished.result.charge(seat)
    if charge is not None:
        parts.append(charge_text(charge, ev))
    if seat == finished.result.winner:
        parts.append("Winner 🏆")
    return parts


OUT_REASONS: dict[OutReason, str] = {
    OutReason.FIRST_DROP: "dropped before drawing (first drop)",
    OutReason.MIDDLE_DROP: "dropped (middle drop)",
    OutReason.WRONG_SHOW: "declared a hand that was not valid (wrong show)",
    OutReason.WRONG_SHOW_DROP: "declared a hand that was not valid (counted as a middle drop)",
}


def out_reason_text(reason: OutReason, timeouts: int | None = None) -> str:
    text = OUT_REASONS.get(reason, reason.value.replace("_", " "))
    if timeouts:
        text += f", by the bot after {timeouts} timeouts in a row"
    return text[0].upper() + text[1:]


def charge_text(charge: Charge, ev: Evaluation | None) -> str:
    """'Pays 80 (deadwood 84, capped at 80)': both numbers when the cap changed the bill."""
    basis = charge.basis.value.replace("_", " ")
    rate = "" if charge.rate == 1 else f" × {amount(charge.rate)}"
    mult = "" if charge.multiplier == 1 else f" × {charge.multiplier}"
    base = f"{basis} {charge.base}"
    if charge.basis is Basis.DEADWOOD and ev is not None and ev.deadwood != charge.base:
        base = f"deadwood {ev.deadwood}, capped at {charge.base}"
    return f"Pays {amount(charge.amount)} ({base}{rate}{mult})"


def score_change(delta: Fraction, score: ScoreKind) -> str:
    """One convention per kind of score, everywhere: chips are won or lost ("won 40 chips",
    "lost 7½ chips"); pool and deals points are added to a total ("+7 points")."""
    if score is ScoreKind.NET:
        verb = "won" if delta > 0 else "lost"
        return f"{verb} {amount(abs(delta))} chips"
    return f"{signed(delta)} points"


def group_text(kind: str, cs: Sequence[Card], wild_rank: int | None) -> str:
    """A group's cards with wild cards marked * and what each one stands for ("3♠ as 9♥" in
    a run, "🃏 as a 7" in a set), so an impure run reads as the run it is."""
    roles = wild_roles(kind, cs, wild_rank)
    out = []
    for c in cs:
        text = cards([c], wild_rank)
        if c.id in roles:
            text += f" as {roles[c.id]}"
        out.append(text)
    return " ".join(out)


def wild_roles(kind: str, cs: Sequence[Card], wild_rank: int | None) -> dict[int, str]:
    def is_wild(c: Card) -> bool:
        return c.face.is_joker or (wild_rank is not None and c.rank == wild_rank)

    if kind == "set":
        natural = next((c for c in cs if not is_wild(c)), None)
        if natural is None:
            return {}
        name = rank_name(natural.rank)
        article = "an" if name in ("A", "8") else "a"
        return {c.id: f"{article} {name}" for c in cs if is_wild(c)}
    if kind != "impure":
        return {}
    anchor = next(((i, c) for i, c in enumerate(cs) if not is_wild(c)), None)
    if anchor is None:
        return {}
    index, natural = anchor
    start = natural.rank - index
    roles = {}
    for i, c in enumerate(cs):
        rank = start + i
        rank = 1 if rank == 14 else rank  # Q-K-A: the ace above the king
        if is_wild(c) and not (c.suit == natural.suit and c.rank == rank):
            roles[c.id] = Face(rank, natural.suit).pretty
    return roles


def standings_lines(standings: Sequence[Standing], score: ScoreKind) -> list[str]:
    """Score lines, best first, in the match's own terms: net chips won or lost, or the
    penalty points a player has added up (pool and deals)."""

    lines = []
    for s in standings:
        mark = " (out)" if s.out else " (left)" if s.left else ""
        if s.winner:
            mark += " 🏆"
        total = (
            f"{signed(s.score)} chips" if score is ScoreKind.NET else f"{amount(s.score)} points"
        )
        lines.append(f"{s.name}: {total}{mark}")
    return lines


def shuffle_text(shuffle: Mapping[str, Any]) -> str:
    """The reveal of the deal's shuffle commitment: the secret salt, and how to check that the
    attached hand history's deck order is the one promised at the start."""
    return (
        f"Commitment `{shown(shuffle['commitment'])}…` · salt `{shuffle['salt']}`\n"
        "Check the attached hand history with `python -m bot.engine verify`"
    )
