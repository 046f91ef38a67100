"""One player's private hand view: built from that seat's `Observation` and the hand advice
the table service computed once for this table version."""

from __future__ import annotations

import discord

from bot.engine.cards import Card
from bot.engine.observation import Observation
from bot.table.advice import HandAdvice

from .text import COLOUR, KIND_LABEL, card, cards, wild_text


def hand_embed(
    obs: Observation, advice: HandAdvice, sort_by_suit: bool, player_name: str
) -> discord.Embed:
    """One player's own cards, grouped by the engine's best arrangement (or by suit)."""
    rules = obs.rules
    e = discord.Embed(colour=COLOUR)
    if obs.match_phase != "playing" or not obs.hand:
        e.title = "Your hand"
        e.description = "You hold no cards right now."
        return e
    mine = obs.turn == obs.seat
    phase = obs.phase
    if mine and phase == "draw":
        status = "**Your turn:** draw from the stock or take the top discard."
    elif mine and phase == "discard":
        status = "**Your turn:** discard a card (or declare)."
    elif obs.turn is not None:
        status = f"Waiting for **{obs.seats[obs.turn].name}**."
    else:
        status = "The deal is over."
    e.title = f"Your hand — deal {obs.deal_number}"
    lines = [status]
    lines.append(
        f"Top discard {card(obs.top_discard)} · indicator {card(obs.indicator)} "
        f"({wild_text(rules, obs.wild_rank, obs.indicator)}) · stock {obs.stock_size}"
    )
    if obs.taken is not None:
        lines.append(f"You took {card(obs.taken)} from the pile: it cannot go straight back.")
    if obs.wild_rank is not None:
        lines.append("(* marks a wild card)")
    e.description = "\n".join(lines)

    hand = list(obs.hand)
    if sort_by_suit:
        by_suit: dict[int, list[Card]] = {}
        for c in sorted(hand, key=lambda c: (c.face.is_joker, c.suit, c.rank)):
            by_suit.setdefault(-1 if c.face.is_joker else c.suit, []).append(c)
        names = {-1: "Jokers", 0: "♠ Spades", 1: "♥ Hearts", 2: "♦ Diamonds", 3: "♣ Clubs"}
        for suit, cs in by_suit.items():
            e.add_field(name=names[suit], value=cards(cs, obs.wild_rank), inline=False)
        e.set_footer(text=f"Deadwood now: {advice.best.deadwood}. Sorted by suit.")
        return e

    wr = obs.wild_rank
    drawn = advice.drawn
    ev = advice.best
    for g in ev.groups:
        e.add_field(name=KIND_LABEL[g.kind.value], value=cards(g.cards, wr), inline=False)
    if drawn is not None:
        left = list(ev.leftover)
        left.append(drawn.best_discard)
        e.add_field(name="Unmatched (incl. suggested discard)", value=cards(left, wr), inline=False)
        e.set_footer(
            text=f"Discarding {card(drawn.best_discard)} leaves deadwood {ev.deadwood}"
            + (" — you can declare!" if drawn.declarable else ".")
        )
    else:
        if ev.leftover:
            e.add_field(name="Unmatched", value=cards(ev.leftover, wr), inline=False)
        e.set_footer(
            text=f"Deadwood {ev.deadwood} (penalty if someone declares now: {ev.penalty})."
        )
    return e


def discard_option_description(advice: HandAdvice, c: Card) -> str:
    """What discarding `c` would leave: a short hint for the select menu."""
    ev = advice.after_discard(c)
    if ev is None:
        return ""
    if ev.valid:
        return "leaves a valid declaration"
    return f"leaves deadwood {ev.deadwood}"
