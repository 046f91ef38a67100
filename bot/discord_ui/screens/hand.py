"""One player's private hand view: built from that seat's `Observation` and the hand advice
the table service computed once for this table version."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import discord

from bot.engine.arrange import NEAR_RUNS, NOTHING, PAIRS, UNMATCHED, WILD, arrangement, loose_parts
from bot.engine.cards import Card
from bot.engine.events import WrongShow
from bot.engine.match import FinishedDeal
from bot.engine.observation import Observation
from bot.engine.settlement import fixed_cost
from bot.images.layout import Section, final_sections, hand_sections
from bot.table.advice import FinalHand, HandAdvice
from bot.words import Locale, text
from bot.words.cards import amount, card, cards, cost_words, wild_words
from bot.words.results import part_label, wrong_show_problems

from .colour import COLOUR

#: Catalogue ids of the suit rows, by the picture's section keys.
SUIT_IDS = {
    "spades": "suit-spades",
    "hearts": "suit-hearts",
    "diamonds": "suit-diamonds",
    "clubs": "suit-clubs",
    "jokers": "pic-suit-jokers",
}


@dataclass(frozen=True, slots=True)
class CardsPart:
    """The hand's own part of a live hand embed: its fields (name, value) and its footer.
    It is made from the hand alone (`cards_key`, and the advice on it): an opponent's move
    changes none of it, so a view refreshed for one words nothing of it again."""

    fields: tuple[tuple[str, str], ...]
    footer: str


def cards_key(
    obs: Observation, sort_by_suit: bool, hints: str, locale: Locale | None
) -> tuple[Hashable, ...]:
    """Everything `cards_part` reads beside the advice (which its caller compares by
    identity): two views with the same key and advice get the same `CardsPart`."""
    return (obs.deal_number, obs.hand, obs.wild_rank, obs.drawn, sort_by_suit, hints, locale)


def cards_part(
    obs: Observation,
    advice: HandAdvice | None,
    sort_by_suit: bool,
    hints: str = "full",
    locale: Locale | None = None,
) -> CardsPart:
    """The cards of a live hand view: grouped by the engine's best arrangement, or by suit
    (sorted so, below hints, or with no advice)."""
    if sort_by_suit or advice is None or hints == "off":
        return _by_suit(obs, advice, hints, locale)
    return _grouped(obs, advice, hints, locale)


def hand_embed(
    obs: Observation,
    advice: HandAdvice | None,
    sort_by_suit: bool,
    player_name: str,
    *,
    finished: FinishedDeal | None = None,
    final: FinalHand | None = None,
    wrong_show: WrongShow | None = None,
    hints: str = "full",
    locale: Locale | None = None,
    part: CardsPart | None = None,
) -> discord.Embed:
    """One player's own cards, grouped by the engine's best arrangement (or by suit). Without
    cards, it says why: the deal's end with the player's final arrangement, or what was wrong
    with their show.

    `hints` is the table's level: `full` adds the deadwood, what the suggested discard leaves
    and "you can declare"; `groups` shows the arrangement only; `off` (no `advice`: nothing is
    evaluated) the cards by suit. Worded in `locale`, the player's language. `part`: the
    hand's own part, if worked out already (`cards_part` of the same arguments)."""
    t = locale
    e = discord.Embed(colour=COLOUR)
    if finished is not None:
        return _after_the_deal(e, obs, finished, final, t)
    if wrong_show is not None and wrong_show.seat == obs.seat:
        e.title = text(t, "hand-title", deal=obs.deal_number)
        e.description = "\n".join(wrong_show_lines(wrong_show, obs, t))
        return e
    if obs.match_phase != "playing" or not obs.hand:
        e.title = text(t, "hand-title-none")
        e.description = text(t, "hand-no-cards")
        return e
    e.title = text(t, "hand-title", deal=obs.deal_number)
    e.description = "\n".join(_status_lines(obs, t))
    if part is None:
        part = cards_part(obs, advice, sort_by_suit, hints, t)
    for name, value in part.fields:
        e.add_field(name=name, value=value, inline=False)
    e.set_footer(text=part.footer)
    return e


def _status_lines(obs: Observation, t: Locale | None) -> list[str]:
    """Whose turn and what to do, the table's top card, indicator and wild cards."""
    mine = obs.turn == obs.seat
    phase = obs.phase
    if mine and phase == "draw":
        status = text(t, "hand-status-draw")
    elif mine and phase == "discard" and obs.drawn is not None:
        status = text(t, "hand-status-drew", card=card(obs.drawn))
    elif mine and phase == "discard":
        status = text(t, "hand-status-discard")
    elif obs.turn is not None:
        status = text(t, "hand-status-waiting", name=obs.seats[obs.turn].name)
    else:
        status = text(t, "hand-status-over")
    lines = [status]
    # The stock's size only on the player's own turn: a waiting player's view then reads the
    # same after an opponent's draw, and is not edited for it (the table shows the stock).
    lines.append(
        text(
            t,
            "hand-table-line" if mine else "hand-table-line-waiting",
            top=card(obs.top_discard),
            indicator=card(obs.indicator),
            wild=wild_words(obs.rules, obs.wild_rank, obs.indicator, t),
            stock=obs.stock_size,
        )
    )
    if obs.taken is not None:
        lines.append(text(t, "hand-taken", card=card(obs.taken)))
    if obs.wild_rank is not None:
        lines.append(text(t, "hand-wild-mark"))
    return lines


def _by_suit(
    obs: Observation, advice: HandAdvice | None, hints: str, t: Locale | None
) -> CardsPart:
    """The cards by suit, in the picture's and the discard menu's order (♠ ♥ ♣ ♦, colours
    alternating); the footer says as much as the hint level allows."""
    fields = []
    for section in hand_sections(obs, None, sort_by_suit=True):
        suit = SUIT_IDS.get(section.key)
        name = text(t, suit) if suit is not None else section.key
        fields.append((name, cards(list(section.cards), obs.wild_rank, obs.drawn)))
    if hints == "off" or advice is None:
        footer = text(t, "hand-footer-off")
    elif hints == "groups":
        footer = text(t, "hand-footer-suit")
    else:
        footer = text(t, "hand-footer-suit-deadwood", deadwood=advice.best.deadwood)
    return CardsPart(tuple(fields), footer)


def _grouped(obs: Observation, advice: HandAdvice, hints: str, t: Locale | None) -> CardsPart:
    """The cards in the engine's arrangement (the one grouping the picture and the discard
    menu follow too: `bot.engine.arrange`); at full hints, the suggested discard and what it
    leaves."""
    wr = obs.wild_rank
    new = obs.drawn
    drawn = advice.drawn
    ev = advice.best
    # The one grouping the picture and the discard menu follow too (`bot.engine.arrange`).
    suggest = hints == "full"
    fields = []
    for part in arrangement(drawn if drawn is not None else ev, wr, suggest=suggest):
        name = part_label(part.kind, t)
        if part.kind == UNMATCHED and drawn is not None and suggest:
            name = text(t, "part-unmatched-suggested")
        value = CLUSTER_GAP.join(cards(cluster, wr, new) for cluster in part.clusters)
        fields.append((name, value))
    if not suggest:
        footer = text(t, "hand-footer-groups")
    elif drawn is not None:
        said = "hand-footer-declare" if drawn.declarable else "hand-footer-discard"
        footer = text(t, said, card=card(drawn.best_discard), deadwood=ev.deadwood)
    else:
        footer = text(t, "hand-footer-deadwood", deadwood=ev.deadwood, penalty=str(ev.penalty))
    return CardsPart(tuple(fields), footer)


def discard_option_description(advice: HandAdvice, c: Card, locale: Locale | None = None) -> str:
    """What discarding `c` would leave: a short hint for the select menu."""
    ev = advice.after_discard(c)
    if ev is None:
        return ""
    if ev.valid:
        return text(locale, "hand-leaves-valid")
    return text(locale, "hand-leaves-deadwood", deadwood=ev.deadwood)


#: Catalogue ids of the parts of `bot.engine.arrange` (a hand with no group yet, the cards
#: beside the groups) and of the engine's group kinds.
PART_IDS = {
    WILD: "part-wild",
    PAIRS: "part-pairs",
    NEAR_RUNS: "part-near-runs",
    NOTHING: "part-nothing",
    UNMATCHED: "part-unmatched",
    "pure": "group-pure",
    "impure": "group-impure",
    "set": "group-set",
}


#: Between two clusters of one part: which cards pair, which make a near-run.
CLUSTER_GAP = " · "


def structure(
    hand: list[Card], wild_rank: int | None, locale: Locale | None = None
) -> list[tuple[str, list[Card]]]:
    """`bot.engine.arrange.loose_parts` with its parts named for the embed (cards flattened,
    in the order shown)."""
    return [(part_label(p.kind, locale), list(p.cards)) for p in loose_parts(hand, wild_rank)]


def _after_the_deal(
    e: discord.Embed,
    obs: Observation,
    finished: FinishedDeal,
    final: FinalHand | None,
    t: Locale | None,
) -> discord.Embed:
    """The deal is over: who won, what this player pays (for a wrong show, why it was not
    valid and what it cost), and their own cards as the picture shows them
    (`layout.final_sections`)."""
    result = finished.result
    e.title = text(t, "hand-over-title", deal=result.number)
    charge = result.charge(obs.seat)
    show = final.wrong_show if final is not None else None
    if result.void:
        lines = [text(t, "hand-over-void")]
    elif result.winner == obs.seat:
        lines = [text(t, "hand-over-won")]
    else:
        nobody = text(t, "hand-over-nobody")
        winner = obs.seats[result.winner].name if result.winner is not None else nobody
        if charge is not None and show is None:
            paid = amount(charge.amount)
            lines = [text(t, "hand-over-lost-pay", winner=winner, amount=paid)]
        else:
            lines = [text(t, "hand-over-lost", winner=winner)]
    if show is not None:
        cost = charge.amount if charge is not None else fixed_cost(obs.rules, show.reason)
        lines.append(_show_invalid(show, obs, t))
        lines.append(text(t, "show-cost-paid", cost=cost_words(cost, obs.rules.chips, t)))
    e.description = "\n".join(lines)
    if final is not None:
        for name, value in _final_fields(final, obs.wild_rank, t):
            e.add_field(name=name, value=value, inline=False)
    e.set_footer(text=text(t, "hand-over-footer"))
    return e


def _final_fields(
    final: FinalHand, wild_rank: int | None, t: Locale | None
) -> list[tuple[str, str]]:
    """The player's own cards at the deal's end, one field per part (the pairs of a hand
    without groups in one field, a " · " between them), as the picture draws them."""
    out: list[tuple[str, list[Section]]] = []
    for section in final_sections(final.cards, final.evaluation, wild_rank):
        if out and out[-1][1][0].key == section.key:
            out[-1][1].append(section)
        else:
            out.append((_section_name(section, t), [section]))
    return [
        (name, CLUSTER_GAP.join(cards(s.cards, wild_rank) for s in sections))
        for name, sections in out
    ]


def _section_name(section: Section, t: Locale | None) -> str:
    if section.kind == "suit":
        return text(t, SUIT_IDS[section.key])
    return part_label(section.key, t)


def _show_invalid(show: WrongShow, obs: Observation, locale: Locale | None) -> str:
    """Why a show was not valid: the same reasons the public results give."""
    problems = wrong_show_problems(show, obs.rules, obs.wild_rank, locale)
    return text(locale, "show-invalid", problems="; ".join(problems))


def wrong_show_lines(show: WrongShow, obs: Observation, locale: Locale | None = None) -> list[str]:
    """Why a show was not valid and its cost, for the player who made it."""
    cost = fixed_cost(obs.rules, show.reason)
    return [
        _show_invalid(show, obs, locale),
        text(locale, "show-cost", cost=cost_words(cost, obs.rules.chips, locale)),
    ]


def timed_out_text(thrown: Card | None, left: int, locale: Locale | None = None) -> str:
    """The private word after the bot played a turn for a player who ran out of time."""
    if thrown is not None:
        return text(locale, "timeout-threw", card=card(thrown), left=left)
    return text(locale, "timeout-declared", left=left)
