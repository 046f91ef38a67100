"""`/rummy rules` and `/rummy check`: text generated from the rules object and the evaluator,
so it cannot disagree with the engine, worded from the catalogue (`rules.ftl`) in the reader's
language. The engine keeps only data (profile names, enum values, numbers); every word,
including the short description of each profile, is here and in the catalogue."""

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
from bot.table.vocabulary import Locale

from .cards import card, cards, wild_words
from .catalogue import text

#: The one-line description of each profile (the slash command's profile choices, the rules
#: summary's head), by profile name.
PROFILE_IDS = {
    "points": "profile-points",
    "pool101": "profile-pool101",
    "pool201": "profile-pool201",
    "deals": "profile-deals",
    "paplu": "profile-paplu",
    "classic": "profile-classic",
}

_HAND_RUMMY_IDS = {
    HandRummy.NOT_ALLOWED: "rules-hand-rummy-not-allowed",
    HandRummy.NORMAL: "rules-hand-rummy-normal",
    HandRummy.DOUBLE_PLAYED: "rules-hand-rummy-double",
}

_GROUP_IDS = {"pure": "group-pure", "impure": "group-impure", "set": "group-set"}


def profile_blurb(rules: Rules, locale: Locale | None) -> str:
    """A profile's short description ("out at 101"), its numbers from the rules object; a
    rules object that is no profile has none."""
    msg_id = PROFILE_IDS.get(rules.name)
    if msg_id is None:
        return ""
    return text(
        locale,
        msg_id,
        cap=rules.deal_cap or 0,
        limit=rules.pool_limit or 0,
        low=rules.min_players,
        high=rules.max_players,
    )


def _match(rules: Rules, locale: Locale | None) -> str:
    fmt = rules.match_format
    if fmt is MatchFormat.SINGLE_DEAL:
        return text(locale, "rules-match-single")
    if fmt is MatchFormat.POOL:
        return text(locale, "rules-match-pool", limit=rules.pool_limit or 0)
    if fmt is MatchFormat.DEALS:
        return text(locale, "rules-match-deals", deals=rules.num_deals or 0)
    if fmt is MatchFormat.ROTATION:
        return text(locale, "rules-match-rotation")
    if rules.num_deals:
        return text(locale, "rules-match-target-deals", deals=rules.num_deals)
    return text(locale, "rules-match-target-score", target=rules.target_score or 0)


def _sets(rules: Rules, locale: Locale | None) -> str:
    if rules.set_max is None:
        return text(locale, "rules-set-open", min=rules.set_min)
    if rules.set_max == rules.set_min:
        return text(locale, "rules-set-exact", min=rules.set_min)
    return text(locale, "rules-set-range", min=rules.set_min, max=rules.set_max)


def rules_summary(rules: Rules, locale: Locale | None = None) -> str:
    """A summary generated from the rules object, so it cannot disagree with the engine, in
    the reader's language (None: English)."""
    t = locale
    sizes = ", ".join(
        text(t, "rules-deck", decks=s.decks, jokers=s.jokers, players=s.max_players)
        for s in rules.deck_sizes
    )
    aces = rules.joker_indicator_wilds is JokerIndicatorWilds.ACES or rules.aces_wild_on_joker
    joker = text(t, "rules-joker-ind-aces" if aces else "rules-joker-ind-jokers")
    protected = rules.lone_pure is LonePure.PROTECTED
    lone = text(t, "rules-lone-protected" if protected else "rules-lone-all")
    if rules.deal_cap is not None:
        cap = text(t, "rules-cap", cap=rules.deal_cap)
    else:
        cap = text(t, "rules-no-cap")
    if rules.first_drop_to_stock_bottom:
        first = text(t, "rules-first-drop-bottom", cost=rules.first_drop)
    else:
        first = text(t, "rules-first-drop", cost=rules.first_drop)
    drops = rules.packing_allowed
    if rules.invalid_declaration is InvalidDeclaration.PENALTY_OUT:
        invalid = text(t, "rules-invalid-penalty", penalty=rules.invalid_penalty)
    elif drops:
        invalid = text(t, "rules-invalid-middle", middle=rules.middle_drop)
    else:  # no drops at this table: the same cost, not named after one
        invalid = text(t, "rules-invalid-penalty", penalty=rules.middle_drop)
    void = rules.effective_stock_exhausted is StockExhausted.VOID
    stock = text(t, "rules-stock-void" if void else "rules-stock-reshuffle")
    hand_rummy_id = _HAND_RUMMY_IDS[rules.hand_rummy]
    if not drops and rules.hand_rummy is HandRummy.DOUBLE_PLAYED:
        hand_rummy_id = "rules-hand-rummy-double-no-drops"
    hand_rummy = text(t, hand_rummy_id, dropped=rules.hand_rummy_dropped_pay)
    to_winner = rules.drop_paid is DropPaid.TO_WINNER
    paid = text(t, "rules-drop-to-winner" if to_winner else "rules-drop-to-total")
    lines = [
        text(t, "rules-head", name=rules.name, low=rules.min_players, high=rules.max_players),
        text(t, "rules-cards", sizes=sizes, joker=joker),
        text(t, "rules-declare", sets=_sets(rules, t)),
        text(t, "rules-values"),
        text(t, "rules-lone", lone=lone, cap=cap),
        # Dropping: its costs, or that there is none (`no_packing`), never both.
        text(t, "rules-drop", first=first, middle=rules.middle_drop, paid=paid)
        if drops
        else text(t, "rules-no-dropping"),
        text(t, "rules-invalid", invalid=invalid),
        text(t, "rules-stock", stock=stock),
        text(t, "rules-hand-rummy", rule=hand_rummy),
    ]
    if rules.first_turn_win_half:
        lines.append(text(t, "rules-first-turn-half"))
    if rules.joker_indicator_doubles:
        lines.append(text(t, "rules-indicator-doubles"))
    lines.append(text(t, "rules-match", match=_match(rules, t)))
    assisted = rules.declaration_mode is DeclarationMode.ASSISTED
    lines.append(text(t, "rules-assisted" if assisted else "rules-honor"))
    return "\n".join(lines)


def ruling_text(
    cards_: Sequence[Card], rules: Rules, indicator: Face, locale: Locale | None = None
) -> str:
    """The `/rummy check` answer: the best arrangement and the penalty, for teaching, in the
    reader's language (None: English)."""
    t = locale
    rules.check_copies(cards_)  # typed-in hands: a third JK must not be ruled valid
    wild_rank = rules.wild_rank(indicator)
    wild = wild_words(rules, wild_rank, indicator, t)
    head = text(t, "ruling-head", profile=rules.name, indicator=indicator.pretty, wild=wild)
    if len(cards_) == 14:
        drawn = evaluate_drawn(cards_, rules, wild_rank)
        ev = drawn.best
        if drawn.declarable:
            faces = ", ".join(sorted({c.face.pretty for c in drawn.winning_discards}))
            first = text(t, "ruling-declarable", cards=faces)
        else:
            first = text(t, "ruling-not-yet", card=card(drawn.best_discard))
    else:
        ev = evaluate_hand(cards_, rules, wild_rank)
        first = text(t, "ruling-valid" if ev.valid else "ruling-invalid")
    lines = [head, first]
    for g in ev.groups:
        label = text(t, _GROUP_IDS[g.kind.value])
        lines.append(text(t, "ruling-group", group=label, cards=cards(g.cards, wild_rank)))
    if ev.leftover:
        lines.append(text(t, "ruling-unmatched", cards=cards(ev.leftover, wild_rank)))
    if ev.penalty != ev.deadwood:
        lines.append(text(t, "ruling-penalty-capped", deadwood=ev.deadwood, penalty=ev.penalty))
    else:
        lines.append(text(t, "ruling-penalty", deadwood=ev.deadwood, penalty=ev.penalty))
    return "\n".join(lines)
