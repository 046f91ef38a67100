"""Turning engine state into what people read: embeds and short texts.

Nothing here decides anything or changes state; every function takes a view the engine (or the
adapter) already built and returns text. That keeps two promises checkable in one place:
public renderings take only public views (`PublicView`, finished hand histories), and a hand
rendering takes one seat's `Observation`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import discord

from bot.engine.cards import Card, Face
from bot.engine.cards import rank_name as _rank_name
from bot.engine.describe import amount as amount
from bot.engine.describe import signed as signed
from bot.engine.evaluate import Evaluation, evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation, PublicView
from bot.engine.rules import (
    DeclarationMode,
    DropPaid,
    HandRummy,
    InvalidDeclaration,
    JokerIndicatorWilds,
    LonePure,
    MatchFormat,
    Rules,
    StockExhausted,
)

COLOUR = discord.Colour.from_rgb(0x1F, 0x8B, 0x4C)  # card-table green
KIND_LABEL = {"pure": "Pure run", "impure": "Run", "set": "Set"}
STATUS_ICON = {
    "active": "",
    "dropped": " (dropped)",
    "out": " (out of this deal)",
    "eliminated": " (eliminated)",
    "left": " (left)",
    "waiting": "",
}


def card(c: Card | Face | None) -> str:
    if c is None:
        return "—"
    face = c.face if isinstance(c, Card) else c
    return face.pretty


def cards(cs: Iterable[Card | Face], wild_rank: int | None = None) -> str:
    """Cards in a row; cards of the wild rank are marked with * (printed jokers show as 🃏)."""
    out = []
    for c in cs:
        face = c.face if isinstance(c, Card) else c
        mark = "*" if wild_rank is not None and face.rank == wild_rank else ""
        out.append(face.pretty + mark)
    return " ".join(out)


def code_to_pretty(code: str) -> str:
    return Face.parse(code).pretty


def rank_name(rank: int | None) -> str:
    return "none" if rank is None else _rank_name(rank)


def wild_text(rules: Rules, wild_rank: int | None, indicator: Card | Face | None) -> str:
    if rules.nothing_wild or indicator is None:
        return "nothing is wild"
    if wild_rank is None:
        return "only printed jokers are wild"
    return f"{rank_name(wild_rank)}s and printed jokers are wild"


# ---- lobby -----------------------------------------------------------------------------------


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
) -> discord.Embed:
    """`seats`: (display name, is AI) in joining order."""
    e = discord.Embed(title="🎴 Indian Rummy — table open", colour=COLOUR)
    e.description = "\n".join(settings_lines(rules, max_seats, turn_timer))
    seat_lines = [f"{i + 1}. {name}" for i, (name, _ai) in enumerate(seats)]
    seat_lines += ["· empty"] * max(0, min(max_seats, 6) - len(seats))
    e.add_field(name=f"Seats ({len(seats)}/{max_seats})", value="\n".join(seat_lines), inline=False)
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


# ---- the public table --------------------------------------------------------------------------


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
        e.add_field(name="Recent", value="\n".join(log[-5:])[:1024], inline=False)
    if note:
        e.set_footer(text=note)
    else:
        e.set_footer(text="Press “Your hand” to see your cards (only you can see them).")
    return e


def turn_ping(mention: str, deadline: float | None) -> str:
    timer = f" — time up <t:{int(deadline)}:R>" if deadline else ""
    return f"{mention}, it's your turn{timer}."


# ---- the private hand --------------------------------------------------------------------------


def hand_embed(obs: Observation, sort_by_suit: bool, player_name: str) -> discord.Embed:
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
        ev13 = _best_thirteen(obs)
        e.set_footer(text=f"Deadwood now: {ev13.deadwood}. Sorted by suit.")
        return e

    wr = obs.wild_rank
    # One 14-card evaluation serves both the layout and the suggested discard.
    drawn = evaluate_drawn(hand, rules, wr, forbidden=obs.taken) if len(hand) == 14 else None
    ev = drawn.best if drawn is not None else evaluate_hand(hand, rules, wr)
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


def _best_thirteen(obs: Observation) -> Evaluation:
    hand = list(obs.hand)
    if len(hand) == 14:
        return evaluate_drawn(hand, obs.rules, obs.wild_rank, forbidden=obs.taken).best
    return evaluate_hand(hand, obs.rules, obs.wild_rank)


def discard_option_description(obs: Observation, c: Card) -> str:
    """What discarding `c` would leave: a short hint for the select menu."""
    rest = [x for x in obs.hand if x.id != c.id]
    ev = evaluate_hand(rest, obs.rules, obs.wild_rank)
    if ev.valid:
        return "leaves a valid declaration"
    return f"leaves deadwood {ev.deadwood}"


# ---- results -----------------------------------------------------------------------------------


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
    if match_over:
        text = (
            "Match over — winner: " + ", ".join(winners) if winners else "Match over — no winner."
        )
        e.set_footer(text=text)
    return e


# ---- rules and rulings ------------------------------------------------------------------------


def rules_summary(rules: Rules) -> str:
    """A summary generated from the rules object, so it cannot disagree with the engine."""
    sizes = ", ".join(
        f"{s.decks} deck{'s' if s.decks > 1 else ''} + {s.jokers} jokers "
        f"up to {s.max_players} players"
        for s in rules.deck_sizes
    )
    set_size = (
        f"{rules.set_min} or more cards"
        if rules.set_max is None
        else (
            f"exactly {rules.set_min} cards"
            if rules.set_max == rules.set_min
            else f"{rules.set_min}–{rules.set_max} cards"
        )
    )
    joker_ind = (
        "all aces become wild"
        if rules.joker_indicator_wilds is JokerIndicatorWilds.ACES or rules.aces_wild_on_joker
        else "only the other printed jokers are wild"
    )
    lone = (
        "its best pure run is protected, the rest counts"
        if rules.lone_pure is LonePure.PROTECTED
        else "every card counts"
    )
    cap = (
        f"One deal's penalty is capped at {rules.deal_cap}"
        if rules.deal_cap is not None
        else "There is no cap on a deal's penalty"
    )
    first = f"{rules.first_drop}"
    if rules.first_drop_to_stock_bottom:
        first += " (cards shuffled into the bottom of the stock)"
    invalid = (
        f"pays {rules.invalid_penalty} and is out of the deal; the others play on"
        if rules.invalid_declaration is InvalidDeclaration.PENALTY_OUT
        else f"wins nothing and counts as a middle drop ({rules.middle_drop}); the others play on"
    )
    stock = (
        "the deal is void (nobody pays)"
        if rules.effective_stock_exhausted is StockExhausted.VOID
        else "the discard pile except its top card is reshuffled into a new stock"
    )
    hand_rummy = {
        HandRummy.NOT_ALLOWED: "not allowed",
        HandRummy.NORMAL: "allowed at your first turn without drawing; normal rates",
        HandRummy.DOUBLE_PLAYED: (
            "allowed at your first turn without drawing; players who already played pay double, "
            f"the others single, dropped players {rules.hand_rummy_dropped_pay}"
        ),
    }[rules.hand_rummy]
    match = {
        MatchFormat.SINGLE_DEAL: "one deal; each loser pays the winner their penalty in chips",
        MatchFormat.POOL: f"penalties add up; at {rules.pool_limit} or more you are out; "
        "the last player in wins",
        MatchFormat.DEALS: f"{rules.num_deals} deals; the lowest total wins",
        MatchFormat.ROTATION: "one full dealer rotation; every payment is a transfer; "
        "the highest net wins",
        MatchFormat.TARGET: (
            f"{rules.num_deals} deals" if rules.num_deals else f"until {rules.target_score} points"
        )
        + "; payments are transfers; the highest net wins",
    }[rules.match_format]
    paid = "paid to the winner" if rules.drop_paid is DropPaid.TO_WINNER else "added to your total"
    lines = [
        f"**{rules.name}** ({rules.min_players}–{rules.max_players} players)",
        f"• Cards: {sizes}. 13 each; one indicator card makes its rank wild "
        f"(a printed joker as indicator: {joker_ind}). Wild cards count 0.",
        "• Declare with all 13 cards in groups: at least two runs, at least one pure "
        f"(no substitute). Sets: {set_size}, different suits.",
        "• Values: A K Q J 10 count 10, 2–9 face value.",
        f"• A loser with a pure run but no second run: {lone}. {cap}.",
        f"• Drop before your first draw: {first}; later: {rules.middle_drop} ({paid}).",
        f"• Invalid declaration: {invalid}.",
        f"• Stock runs out: {stock}.",
        f"• Hand rummy: {hand_rummy}.",
    ]
    if rules.first_turn_win_half:
        lines.append("• A winner on their first drawn turn: players who had no turn yet pay half.")
    if rules.joker_indicator_doubles:
        lines.append("• A printed joker cut as indicator doubles every payment.")
    if not rules.packing_allowed:
        lines.append("• No dropping at this table.")
    lines.append(f"• Match: {match}.")
    mode = (
        "Declare is offered only when the engine has verified your layout"
        if rules.declaration_mode is DeclarationMode.ASSISTED
        else "You may declare any layout; a wrong show is penalised"
    )
    lines.append(f"• {mode}.")
    return "\n".join(lines)


def ruling_text(cards_: Sequence[Card], rules: Rules, indicator: Face) -> str:
    """The `/rummy check` answer: the best arrangement and the penalty, for teaching."""
    wild_rank = rules.wild_rank(indicator)
    head = (
        f"`{rules.name}`, indicator {indicator.pretty}: {wild_text(rules, wild_rank, indicator)}."
    )
    if len(cards_) == 14:
        drawn = evaluate_drawn(cards_, rules, wild_rank)
        ev = drawn.best
        if drawn.declarable:
            faces = ", ".join(sorted({c.face.pretty for c in drawn.winning_discards}))
            first = f"✅ Declarable: discard {faces}."
        else:
            first = f"❌ Not declarable yet. Best discard: {card(drawn.best_discard)}."
    else:
        ev = evaluate_hand(cards_, rules, wild_rank)
        first = "✅ A valid declaration." if ev.valid else "❌ Not a valid declaration."
    lines = [head, first]
    for g in ev.groups:
        lines.append(f"• {KIND_LABEL[g.kind.value]}: {cards(g.cards, wild_rank)}")
    if ev.leftover:
        lines.append(f"• Unmatched: {cards(ev.leftover, wild_rank)}")
    capped = f" (capped from {ev.deadwood})" if ev.penalty != ev.deadwood else ""
    lines.append(f"Deadwood {ev.deadwood}; penalty if caught now: **{ev.penalty}**{capped}.")
    return "\n".join(lines)
