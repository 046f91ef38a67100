"""One player's private hand view: built from that seat's `Observation` and the hand advice
the table service computed once for this table version."""

from __future__ import annotations

import discord

from bot.engine.arrange import NEAR_RUNS, NOTHING, PAIRS, UNMATCHED, WILD, arrangement, loose_parts
from bot.engine.cards import Card
from bot.engine.evaluate import evaluate_hand
from bot.engine.events import WrongShow
from bot.engine.groups import GroupKind
from bot.engine.match import FinishedDeal
from bot.engine.observation import Observation
from bot.engine.rules import Rules
from bot.engine.settlement import fixed_cost
from bot.images.layout import hand_sections
from bot.table.advice import HandAdvice

from .text import COLOUR, KIND_LABEL, amount, card, cards, cost_text, wild_text

SUIT_SYMBOLS = {"Spades": "♠", "Hearts": "♥", "Diamonds": "♦", "Clubs": "♣"}


def hand_embed(
    obs: Observation,
    advice: HandAdvice | None,
    sort_by_suit: bool,
    player_name: str,
    *,
    finished: FinishedDeal | None = None,
    wrong_show: WrongShow | None = None,
    hints: str = "full",
) -> discord.Embed:
    """One player's own cards, grouped by the engine's best arrangement (or by suit). Without
    cards, it says why: the deal's end with the player's final arrangement, or what was wrong
    with their show.

    `hints` is the table's level: `full` adds the deadwood, what the suggested discard leaves
    and "you can declare"; `groups` shows the arrangement only; `off` (no `advice`: nothing is
    evaluated) the cards by suit."""
    rules = obs.rules
    e = discord.Embed(colour=COLOUR)
    if finished is not None:
        return _after_the_deal(e, obs, finished)
    if wrong_show is not None and wrong_show.seat == obs.seat:
        e.title = f"Your hand — deal {obs.deal_number}"
        e.description = "\n".join(wrong_show_lines(wrong_show, obs))
        return e
    if obs.match_phase != "playing" or not obs.hand:
        e.title = "Your hand"
        e.description = "You hold no cards right now."
        return e
    mine = obs.turn == obs.seat
    phase = obs.phase
    if mine and phase == "draw":
        status = "**Your turn:** draw from the stock or take the top discard."
    elif mine and phase == "discard" and obs.drawn is not None:
        status = f"**Your turn:** you drew {card(obs.drawn)} 🆕 — discard a card (or declare)."
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

    new = obs.drawn
    if sort_by_suit or advice is None or hints == "off":
        # The picture's and the discard menu's order (♠ ♥ ♣ ♦, colours alternating).
        for section in hand_sections(obs, None, sort_by_suit=True):
            name = f"{SUIT_SYMBOLS.get(section.label, '')} {section.label}".strip()
            value = cards(list(section.cards), obs.wild_rank, new)
            e.add_field(name=name, value=value, inline=False)
        if hints == "off" or advice is None:
            e.set_footer(text="Sorted by suit. Hints are off at this table: you judge your hand.")
        elif hints == "groups":
            e.set_footer(text="Sorted by suit.")
        else:
            e.set_footer(text=f"Deadwood now: {advice.best.deadwood}. Sorted by suit.")
        return e

    wr = obs.wild_rank
    drawn = advice.drawn
    ev = advice.best
    # The one grouping the picture and the discard menu follow too (`bot.engine.arrange`).
    suggest = hints == "full"
    for part in arrangement(drawn if drawn is not None else ev, wr, suggest=suggest):
        name = PART_LABEL.get(part.kind) or KIND_LABEL[part.kind]
        if part.kind == UNMATCHED and drawn is not None and suggest:
            name = "Unmatched (incl. suggested discard)"
        value = CLUSTER_GAP.join(cards(cluster, wr, new) for cluster in part.clusters)
        e.add_field(name=name, value=value, inline=False)
    if not suggest:
        e.set_footer(text="Hints: groups only. Nothing is counted or checked for you.")
    elif drawn is not None:
        e.set_footer(
            text=f"Discarding {card(drawn.best_discard)} leaves deadwood {ev.deadwood}"
            + (" — you can declare!" if drawn.declarable else ".")
        )
    else:
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


#: The words for the parts of `bot.engine.arrange` (a hand with no group yet, and the cards
#: beside the groups).
PART_LABEL = {
    WILD: "Wild cards",
    PAIRS: "Pairs (half a set)",
    NEAR_RUNS: "Near-runs",
    NOTHING: "Fits nothing yet",
    UNMATCHED: "Unmatched",
}
#: Between two clusters of one part: which cards pair, which make a near-run.
CLUSTER_GAP = " · "


def structure(hand: list[Card], wild_rank: int | None) -> list[tuple[str, list[Card]]]:
    """`bot.engine.arrange.loose_parts` with its parts named for the embed (cards flattened,
    in the order shown)."""
    return [(PART_LABEL[p.kind], list(p.cards)) for p in loose_parts(hand, wild_rank)]


def _after_the_deal(e: discord.Embed, obs: Observation, finished: FinishedDeal) -> discord.Embed:
    result = finished.result
    e.title = f"Deal {result.number} is over"
    wr = obs.wild_rank
    if result.void:
        e.description = "The stock ran out: the deal is void, nobody pays."
    elif result.winner == obs.seat:
        e.description = "**You declared!** 🎉 Your winning hand:"
    else:
        charge = result.charge(obs.seat)
        paid = f" You pay {amount(charge.amount)}." if charge is not None else ""
        winner = obs.seats[result.winner].name if result.winner is not None else "Nobody"
        e.description = f"**{winner}** won this deal.{paid}"
    ev = finished.evaluations.get(obs.seat)
    if ev is not None:
        for g in ev.groups:
            e.add_field(name=KIND_LABEL[g.kind.value], value=cards(g.cards, wr), inline=False)
        if ev.leftover:
            e.add_field(name="Unmatched", value=cards(ev.leftover, wr), inline=False)
    e.set_footer(text="The results are on the table message.")
    return e


def wrong_show_problems(show: WrongShow, rules: Rules, wild_rank: int | None) -> list[str]:
    """What was wrong with a show, from the engine's own ruling on the cards shown."""
    shown = [c for c in show.cards if show.card is None or c.id != show.card.id][:13]
    ev = evaluate_hand(shown, rules, wild_rank)
    pure = sum(1 for g in ev.groups if g.kind is GroupKind.PURE)
    runs = sum(1 for g in ev.groups if g.kind is not GroupKind.SET)
    problems = []
    if pure == 0:
        problems.append("no pure run")
    if runs < 2:
        problems.append("two runs needed" + (" (it has one)" if runs == 1 else ""))
    if ev.leftover:
        problems.append(f"these cards fit no group: {cards(ev.leftover, wild_rank)}")
    return problems or ["the layout breaks a rule"]


def wrong_show_lines(show: WrongShow, obs: Observation) -> list[str]:
    """Why a show was not valid and its cost, for the player who made it."""
    problems = wrong_show_problems(show, obs.rules, obs.wild_rank)
    cost = fixed_cost(obs.rules, show.reason)
    return [
        "**Your show was not valid**: it has " + "; ".join(problems) + ".",
        f"It costs {cost_text(cost, obs.rules.chips)}; your cards are out of this deal while the"
        " others play on.",
    ]


def timed_out_text(thrown: Card | None, left: int) -> str:
    """The private word after the bot played a turn for a player who ran out of time."""
    did = f"the bot threw {card(thrown)} for you" if thrown else "the bot declared for you"
    after = (
        "one more timeout in a row and you are dropped from this deal"
        if left == 1
        else f"{left} more timeouts in a row and you are dropped from this deal"
    )
    return f"⏰ Your time ran out: {did}. {after[0].upper()}{after[1:]}."
