"""The views the game shows: lobby, table, prompts and the private hand controls.

Built fresh for each table version from `components` (so every id carries the version) and
within Discord's limits: at most 5 rows, 25 options per select.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.ai import TIERS
from bot.engine.actions import ActionKind
from bot.engine.observation import Observation
from bot.engine.rules import DeclarationMode, HandRummy
from bot.images import hand_order
from bot.table.advice import HandAdvice
from bot.words import Locale, catalogue, text
from bot.words.cards import card, cost_words

from .components import ComponentId, GameButton, GameSelect
from .render.hand import discard_option_description

#: The catalogue id of each AI tier's menu entry (its label, and its `.description`).
AI_IDS = {"easy": "ai-easy", "medium": "ai-medium", "hard": "ai-hard", "expert": "ai-expert"}


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


#: The catalogue id of each AI tier's seat name ("🤖 Hard").
AI_SEAT_IDS = {
    "easy": "ai-seat-easy",
    "medium": "ai-seat-medium",
    "hard": "ai-seat-hard",
    "expert": "ai-seat-expert",
}


def ai_seat_name(tier: str, locale: Locale | None) -> str | None:
    """The name an AI seat of `tier` takes at a table of language `locale` (None: a tier
    without words, named by the table layer)."""
    msg = AI_SEAT_IDS.get(tier)
    return None if msg is None else text(locale, msg)


def _ai_option(tier: str, locale: Locale | None) -> discord.SelectOption:
    msg = AI_IDS.get(tier)
    if msg is None:  # a tier without words yet: its name
        return discord.SelectOption(label=tier, value=tier)
    return discord.SelectOption(
        label=text(locale, msg),
        value=tier,
        description=catalogue().text(locale, msg, attribute="description"),
    )


def lobby_view(
    table_id: str,
    version: int,
    full: bool = False,
    seats: Sequence[tuple[str, str, bool, bool]] = (),
    locale: Locale | None = None,
) -> discord.ui.View:
    """Join / Leave / Start / Cancel, the Add-AI menu and the host's tools; a full lobby
    offers neither Join nor the AI menu (there is no seat left to take). `seats`: (seat key,
    name, is AI, is the host), for the host tools: remove a seat, hand over hosting. Labels
    in the table's language (`locale`)."""

    def cid(action: str) -> ComponentId:
        return ComponentId(table_id, version, None, action, "")

    items: list[discord.ui.Item[Any]] = []
    if not full:
        items.append(
            GameButton(
                cid("join"),
                label=text(locale, "button-join"),
                style=discord.ButtonStyle.success,
                row=0,
            )
        )
    items += [
        GameButton(cid("leave"), label=text(locale, "button-leave"), row=0),
        GameButton(
            cid("start"),
            label=text(locale, "button-start"),
            style=discord.ButtonStyle.primary,
            row=0,
        ),
        GameButton(
            cid("cancel"),
            label=text(locale, "button-cancel"),
            style=discord.ButtonStyle.danger,
            row=0,
        ),
    ]
    if not full:
        items.append(
            GameSelect(
                cid("add_ai"),
                placeholder=text(locale, "menu-add-ai"),
                options=[_ai_option(tier, locale) for tier in TIERS],
                row=1,
            )
        )
    tools = [
        discord.SelectOption(
            label=text(locale, "host-remove", name=name)[:100], value=f"remove:{key}"
        )
        for key, name, _ai, host in seats
        if not host
    ] + [
        discord.SelectOption(label=text(locale, "host-make", name=name)[:100], value=f"host:{key}")
        for key, name, ai, host in seats
        if not ai and not host
    ]
    if tools:
        items.append(
            GameSelect(
                cid("host"), placeholder=text(locale, "menu-host-tools"), options=tools[:25], row=2
            )
        )
    return _view(*items)


def table_view(
    table_id: str, version: int, between_deals: bool = False, locale: Locale | None = None
) -> discord.ui.View:
    items: list[discord.ui.Item[Any]] = [
        GameButton(
            ComponentId(table_id, version, None, "hand", ""),
            label=text(locale, "button-your-hand"),
            emoji="🂠",
            style=discord.ButtonStyle.primary,
        )
    ]
    if between_deals:
        items.append(
            GameButton(
                ComponentId(table_id, version, None, "next", ""),
                label=text(locale, "button-next-deal"),
                style=discord.ButtonStyle.success,
            )
        )
    return _view(*items)


def prompt_view(table_id: str, version: int, locale: Locale | None = None) -> discord.ui.View:
    return table_view(table_id, version, locale=locale)


def review_button(
    table_id: str, version: int, deal_number: int, locale: Locale | None = None
) -> GameButton:
    """ "Review my play": a private review of the clicking player's moves in that deal. The deal
    number rides in the id, so the button keeps working after the next deal has started."""
    return GameButton(
        ComponentId(table_id, version, None, "review", str(deal_number)),
        label=text(locale, "button-review"),
        emoji="🔍",
    )


def history_button(
    table_id: str, version: int, deal_number: int, locale: Locale | None = None
) -> GameButton:
    """ "Hand history": the deal's hand-history file, sent privately to a player of the deal
    (or a server manager) who presses it. It shows every hand, dropped ones too, so it is no
    longer attached to the public results for the whole channel."""
    return GameButton(
        ComponentId(table_id, version, None, "hist", str(deal_number)),
        label=text(locale, "button-history"),
        emoji="📄",
    )


def next_deal_view(
    table_id: str, version: int, deal_number: int | None = None, locale: Locale | None = None
) -> discord.ui.View:
    """A deal's results while the next deal waits: "Next deal" (carrying the deal's number,
    so a press after the next deal began is told so and counts for nothing) and the review."""
    items: list[discord.ui.Item[Any]] = [
        GameButton(
            ComponentId(table_id, version, None, "next", str(deal_number or "")),
            label=text(locale, "button-next-deal"),
            style=discord.ButtonStyle.success,
        )
    ]
    if deal_number is not None:
        items.append(review_button(table_id, version, deal_number, locale))
        items.append(history_button(table_id, version, deal_number, locale))
    return _view(*items)


def past_results_view(
    table_id: str, version: int, deal_number: int, locale: Locale | None = None
) -> discord.ui.View:
    """A deal's results once the next deal has begun (or the table closed): the review only."""
    return _view(
        review_button(table_id, version, deal_number, locale),
        history_button(table_id, version, deal_number, locale),
    )


def results_view(
    table_id: str, version: int, deal_number: int, locale: Locale | None = None
) -> discord.ui.View:
    """The last deal of a match: its review, and "Play again" (a new lobby, same rules)."""
    again = GameButton(
        ComponentId(table_id, version, None, "again", ""),
        label=text(locale, "button-play-again"),
        style=discord.ButtonStyle.success,
    )
    return _view(
        review_button(table_id, version, deal_number, locale),
        history_button(table_id, version, deal_number, locale),
        again,
    )


def hand_view(
    table_id: str,
    version: int,
    obs: Observation,
    advice: HandAdvice | None,
    sort_by_suit: bool,
    confirm_drop: bool = False,
    card_images: bool | None = None,
    hints: str = "full",
    locale: Locale | None = None,
) -> discord.ui.View:
    """The private controls, following the phase of the player's turn, labelled in the
    player's language (`locale`).

    The discard menu lists cards in `bot.images.hand_order`, the order the hand image draws
    them (and the embed lists them), so left to right in the picture is top to bottom in the
    menu. `card_images` (shown or not) adds the switch between images and text only.

    `hints` below "full" (the table's level; `advice` is None with "off"): the menu says
    nothing of what a discard leaves, and Declare is a menu of every discard in either
    declaration mode, so the controls never tell a declarable hand from another (honor mode
    penalises a wrong show, assisted mode refuses it: the rules decide, not the view); "off"
    has no "Group by melds" either."""
    full = hints == "full" and advice is not None
    seat = obs.seat

    def cid(action: str, arg: str = "") -> ComponentId:
        return ComponentId(table_id, version, seat, action, arg)

    items: list[discord.ui.Item[Any]] = []
    legal = obs.legal_actions
    cost = cost_words(obs.drop_cost, obs.rules.chips, locale)
    kinds = {a.kind for a in legal}
    if confirm_drop and obs.may_drop:
        items.append(
            GameButton(
                cid("confirm_drop"),
                label=text(locale, "button-confirm-drop", cost=cost),
                style=discord.ButtonStyle.danger,
                row=0,
            )
        )
        items.append(GameButton(cid("refresh"), label=text(locale, "button-keep-playing"), row=0))
        return _view(*items)

    if obs.my_turn and obs.phase == "draw":
        items.append(
            GameButton(
                cid("draw"),
                label=text(locale, "button-draw"),
                style=discord.ButtonStyle.primary,
                disabled=ActionKind.DRAW_STOCK not in kinds,
                row=0,
            )
        )
        top = obs.top_discard
        items.append(
            GameButton(
                cid("take"),
                label=(
                    text(locale, "button-take", card=card(top))
                    if top
                    else text(locale, "button-take-any")
                ),
                disabled=ActionKind.TAKE_DISCARD not in kinds,
                row=0,
            )
        )
        if any(a.kind is ActionKind.DECLARE and a.card is None for a in legal) or (
            not full and _may_try_hand_rummy(obs)
        ):
            items.append(
                GameButton(
                    cid("rummy"),
                    label=text(locale, "button-hand-rummy"),
                    style=discord.ButtonStyle.success,
                    row=0,
                )
            )
        if obs.may_drop:
            items.append(
                GameButton(
                    cid("drop"),
                    label=text(locale, "button-drop", cost=cost),
                    style=discord.ButtonStyle.danger,
                    row=1,
                )
            )
    elif obs.my_turn and obs.phase == "discard":
        discards = {a.card for a in legal if a.kind is ActionKind.DISCARD and a.card is not None}
        by_id = {c.id: c for c in obs.hand}
        evaluation = None
        if advice is not None:
            evaluation = advice.drawn if advice.drawn is not None else advice.best
        options = []
        for c in hand_order(obs, evaluation, sort_by_suit, hints):
            if c.id not in discards:
                continue  # the card just taken from the pile may not go straight back
            options.append(
                discord.SelectOption(
                    label=card(c),
                    value=str(c.id),
                    description=(
                        discard_option_description(advice, c, locale)
                        if full and advice is not None
                        else None
                    ),
                )
            )
        items.append(
            GameSelect(
                cid("discard"),
                placeholder=text(locale, "menu-discard"),
                options=options[:25],
                row=0,
            )
        )
        declares = [a.card for a in legal if a.kind is ActionKind.DECLARE and a.card is not None]
        if obs.rules.declaration_mode is DeclarationMode.HONOR or not full:
            honor_options = [
                discord.SelectOption(label=o.label, value=o.value) for o in options[:25]
            ]
            items.append(
                GameSelect(
                    cid("declare"),
                    placeholder=text(locale, "menu-declare"),
                    options=honor_options,
                    row=1,
                )
            )
        else:
            # The card the text and the picture suggest, when throwing it declares; else the
            # first card whose throw declares (each legal declaration names its throw).
            drawn = advice.drawn if advice is not None else None
            suggested = drawn.best_discard.id if drawn is not None else None
            best = suggested if suggested in declares else (declares[0] if declares else None)
            label = (
                text(locale, "button-declare", card=card(by_id[best]))
                if best is not None
                else text(locale, "button-declare-not-yet")
            )
            items.append(
                GameButton(
                    cid("declare", str(best) if best is not None else ""),
                    label=label,
                    style=discord.ButtonStyle.success,
                    disabled=best is None,
                    row=1,
                )
            )
    if hints != "off":
        items.append(
            GameButton(
                cid("sort", "melds" if sort_by_suit else "suit"),
                label=text(locale, "button-group" if sort_by_suit else "button-sort"),
                row=2,
            )
        )
    items.append(
        GameButton(cid("refresh"), label=text(locale, "button-refresh"), emoji="🔄", row=2)
    )
    if card_images is not None:
        items.append(
            GameButton(
                cid("images", "off" if card_images else "on"),
                label=text(locale, "button-text-only" if card_images else "button-card-images"),
                emoji="🔤" if card_images else "🖼️",
                row=2,
            )
        )
    return _view(*items)


def _may_try_hand_rummy(obs: Observation) -> bool:
    """Whether the rules let this seat attempt hand rummy now (its first turn, before
    drawing), read from what it may see: no discard of its own this deal. In assisted mode
    the engine lists hand rummy only when it is valid; below full hints the button must
    not tell that, so it is offered whenever it may be tried (the engine still rules)."""
    return (
        obs.rules.hand_rummy is not HandRummy.NOT_ALLOWED
        and obs.my_turn
        and obs.phase == "draw"
        and not any(p.discarded_by == obs.seat for p in obs.pile_history)
    )


def empty_view() -> discord.ui.View:
    return discord.ui.View(timeout=None)
