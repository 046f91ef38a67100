"""A finished deal in words: how it ended, why each seat paid, score changes and standings.

The results message on Discord and the replay page (`bot/replay`) both say these things, and a
player compares them: "the page says I paid 80, did the results say so?". So the sentences are
made here, once, from the engine's facts (a `FinishedDeal`, its charges and evaluations) and
the catalogue's `results-*`, `out-*`, `basis-*`, `charge*`, `score-*` and `standing-*`
messages (public.ftl); nothing here needs Discord. Text may carry the catalogue's Markdown
(`**name**`): each renderer shows it its own way.

The Discord side's results message and hand views (`bot/discord_ui/screens/results.py`,
`hand.py`) word their lines with these functions; `tests/replay/test_words.py` compares the
replay page's words with the message on real deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bot.engine.cards import Card, Face, rank_name
from bot.engine.evaluate import Evaluation, evaluate_hand
from bot.engine.events import WrongShow
from bot.engine.groups import GroupKind
from bot.engine.match import FinishedDeal
from bot.engine.rules import Rules
from bot.engine.settlement import Basis, Charge, DealResult
from bot.engine.states import EndReason, OutReason, ScoreKind
from bot.table.vocabulary import Locale

from .cards import amount, cards, signed
from .catalogue import text

#: How a deal was won, by the engine's reason (anything else: "won").
END_IDS = {
    EndReason.DECLARED: "results-declared",
    EndReason.HAND_RUMMY: "results-hand-rummy",
    EndReason.LAST_STANDING: "results-last-standing",
}

#: Why a seat stopped playing.
OUT_REASONS: dict[OutReason, str] = {
    OutReason.FIRST_DROP: "out-first-drop",
    OutReason.MIDDLE_DROP: "out-middle-drop",
    OutReason.WRONG_SHOW: "out-wrong-show",
    OutReason.WRONG_SHOW_DROP: "out-wrong-show-drop",
}

#: The catalogue id of each basis a charge is reckoned on.
BASIS_IDS: dict[Basis, str] = {
    Basis.DEADWOOD: "basis-deadwood",
    Basis.FIRST_DROP: "basis-first-drop",
    Basis.MIDDLE_DROP: "basis-middle-drop",
    Basis.WRONG_SHOW: "basis-wrong-show",
    Basis.WRONG_SHOW_DROP: "basis-wrong-show-drop",
    Basis.HAND_RUMMY_DROPPED: "basis-hand-rummy-dropped",
}

#: The name of each group kind and of the parts of a hand without groups (hand.ftl).
PART_IDS = {
    "pure": "group-pure",
    "impure": "group-impure",
    "set": "group-set",
    "wild": "part-wild",
    "pairs": "part-pairs",
    "near_runs": "part-near-runs",
    "nothing": "part-nothing",
    "unmatched": "part-unmatched",
}


def part_label(kind: str, locale: Locale | None = None) -> str:
    """The name of a part of a hand (a group kind, pairs, near-runs...) in `locale`."""
    return text(locale, PART_IDS[kind]) if kind in PART_IDS else kind


def end_text(result: DealResult, names: Sequence[str], locale: Locale | None = None) -> str:
    """The results' first line: who won and how, or that the deal is void."""
    if result.void:
        return text(locale, "results-void")
    winner = names[result.winner] if result.winner is not None else "?"
    return text(locale, END_IDS.get(result.end, "results-won"), winner=winner)


def out_reason_text(
    reason: OutReason, timeouts: int | None = None, locale: Locale | None = None
) -> str:
    """Why a seat was out of the deal, with the timeouts that dropped it (if they did)."""
    words = text(locale, OUT_REASONS[reason])
    if timeouts:
        words = text(locale, "out-by-timeouts", reason=words, timeouts=timeouts)
    return words


def charge_text(charge: Charge, ev: Evaluation | None, locale: Locale | None = None) -> str:
    """'Pays 80 (deadwood 84, capped at 80)': both numbers when the cap changed the bill."""
    if charge.basis is Basis.DEADWOOD and ev is not None and ev.deadwood != charge.base:
        base = text(locale, "charge-capped", deadwood=ev.deadwood, base=charge.base)
    else:
        base = text(locale, BASIS_IDS[charge.basis], base=charge.base)
    if charge.rate != 1:
        base = text(locale, "charge-rate", base=base, rate=amount(charge.rate))
    if charge.multiplier != 1:
        base = text(locale, "charge-rate", base=base, rate=str(charge.multiplier))
    return text(locale, "charge", amount=amount(charge.amount), base=base)


def score_change(delta: Fraction, score: ScoreKind, locale: Locale | None = None) -> str:
    """One convention per kind of score, everywhere: chips are won or lost ("won 40 chips",
    "lost 7½ chips"); pool and deals points are added to a total ("+7 points")."""
    if score is ScoreKind.NET:
        msg = "score-won" if delta > 0 else "score-lost"
        return text(locale, msg, amount=amount(abs(delta)))
    return text(locale, "score-points", amount=signed(delta))


def wild_roles(
    kind: str, cs: Sequence[Card], wild_rank: int | None, locale: Locale | None = None
) -> dict[int, str]:
    """What each wild card of a group stands for, by card id ("9♥" in a run, "a 7" in a
    set); a wild card playing itself has no role."""

    def is_wild(c: Card) -> bool:
        return c.face.is_joker or (wild_rank is not None and c.rank == wild_rank)

    if kind == "set":
        natural = next((c for c in cs if not is_wild(c)), None)
        if natural is None:
            return {}
        name = rank_name(natural.rank)
        # A number rank is passed as a number, so a language may choose its words by it.
        rank: str | int = int(name) if name.isdigit() else name
        return {c.id: text(locale, "wild-as-rank", rank=rank) for c in cs if is_wild(c)}
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


def group_text(
    kind: str, cs: Sequence[Card], wild_rank: int | None, locale: Locale | None = None
) -> str:
    """A group's cards with wild cards marked * and what each one stands for ("3♠ as 9♥" in
    a run, "🃏 as a 7" in a set), so an impure run reads as the run it is."""
    roles = wild_roles(kind, cs, wild_rank, locale)
    out = []
    for c in cs:
        shown_card = cards([c], wild_rank)
        if c.id in roles:
            shown_card = text(locale, "wild-as", card=shown_card, role=roles[c.id])
        out.append(shown_card)
    return " ".join(out)


def wrong_show_problems(
    show: WrongShow, rules: Rules, wild_rank: int | None, locale: Locale | None = None
) -> list[str]:
    """What was wrong with a show, from the engine's own ruling on the cards shown."""
    shown = [c for c in show.cards if show.card is None or c.id != show.card.id][:13]
    ev = evaluate_hand(shown, rules, wild_rank)
    pure = sum(1 for g in ev.groups if g.kind is GroupKind.PURE)
    runs = sum(1 for g in ev.groups if g.kind is not GroupKind.SET)
    problems = []
    if pure == 0:
        problems.append(text(locale, "show-no-pure"))
    if runs < 2:
        problems.append(text(locale, "show-two-runs-one" if runs == 1 else "show-two-runs"))
    if ev.leftover:
        problems.append(text(locale, "show-loose", cards=cards(ev.leftover, wild_rank)))
    return problems or [text(locale, "show-breaks-rule")]


def seat_lines(
    finished: FinishedDeal,
    seat: int,
    wild_rank: int | None,
    timeouts: int | None = None,
    locale: Locale | None = None,
    *,
    groups: bool = True,
) -> list[str]:
    """A seat's lines in the results: its groups (`groups=False` leaves them out, for a
    renderer that draws them), or why it was out, its bill, and whether it won."""
    parts: list[str] = []
    ev = finished.evaluations.get(seat)
    reason = finished.out_reason.get(seat)
    if ev is not None and reason is None:
        if groups:
            for g in ev.groups:
                kind = part_label(g.kind.value, locale)
                parts.append(f"{kind}: {group_text(g.kind.value, g.cards, wild_rank, locale)}")
            if ev.leftover:
                parts.append(text(locale, "results-unmatched", cards=cards(ev.leftover, wild_rank)))
    elif reason is not None:
        parts.append(out_reason_text(reason, timeouts, locale))
    charge = finished.result.charge(seat)
    if charge is not None:
        parts.append(charge_text(charge, ev, locale))
    if seat == finished.result.winner:
        parts.append(text(locale, "results-winner"))
    return parts


def standing_line(
    name: str,
    score: Fraction,
    kind: ScoreKind,
    *,
    out: bool = False,
    left: bool = False,
    winner: bool = False,
    locale: Locale | None = None,
) -> str:
    """One line of the standings, in the match's own terms: net chips won or lost, or the
    penalty points a player has added up (pool and deals)."""
    mark = text(locale, "standing-out") if out else text(locale, "standing-left") if left else ""
    if winner:
        mark += " 🏆"
    if kind is ScoreKind.NET:
        return text(locale, "standing-chips", name=name, amount=signed(score), mark=mark)
    return text(locale, "standing-points", name=name, amount=amount(score), mark=mark)
