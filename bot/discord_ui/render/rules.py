"""`/rummy rules` and `/rummy check`: text generated from the rules object and the evaluator,
so it cannot disagree with the engine."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card, Face
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
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

from .text import KIND_LABEL, card, cards, wild_text


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
    rules.check_copies(cards_)  # typed-in hands: a third JK must not be ruled valid
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
