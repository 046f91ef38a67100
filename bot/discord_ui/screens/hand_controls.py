"""The controls of a player's private hand view: what they may do now, and nothing more.

They follow the phase of the player's turn (draw or take, then discard or declare; drop before
drawing), labelled in the player's language. The discard menu lists the cards in
`bot.images.hand_order`, the order the hand picture draws them (and the embed lists them), so
left to right in the picture is top to bottom in the menu.

Below full hints (the table's level; no `advice` at all with "off"), the menu says nothing of
what a discard leaves, and Declare is a menu of every discard in either declaration mode, so the
controls never tell a declarable hand from another; "off" has no "Group by melds" either.

They are built as the component dicts Discord receives (`controls.Rows`): a view is built for
every table version each player sees, and discord.py's objects for its up to 20 controls and
14 menu lines cost more than the rest of the view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.engine.actions import ActionKind
from bot.engine.observation import Observation
from bot.engine.rules import DeclarationMode, HandRummy
from bot.images import hand_order
from bot.table.advice import HandAdvice
from bot.words import Locale, text
from bot.words.cards import card, cost_words

from ..clicks import Act, Click
from .controls import Component, Rows, button, menu, option
from .hand import discard_option_description


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
    """The controls of `obs`'s seat now; `card_images` (shown or not) adds the switch between
    pictures and text only, `confirm_drop` asks to confirm a drop (with its cost)."""
    controls = _Controls(table_id, version, obs, advice, sort_by_suit, hints, locale)
    if confirm_drop and obs.may_drop:
        return Rows([controls.confirm_drop()])
    if obs.my_turn and obs.phase == "draw":
        controls.draw()
    elif obs.my_turn and obs.phase == "discard":
        controls.discard()
    controls.view_choices(card_images)
    return Rows(controls.rows)


@dataclass
class _Controls:
    table_id: str
    version: int
    obs: Observation
    advice: HandAdvice | None
    sort_by_suit: bool
    hints: str
    locale: Locale | None
    rows: list[list[Component]] = field(default_factory=lambda: [[], [], []])

    @property
    def full(self) -> bool:
        return self.hints == "full" and self.advice is not None

    @property
    def kinds(self) -> set[ActionKind]:
        return {a.kind for a in self.obs.legal_actions}

    def click(self, act: Act, **typed: Any) -> Click:
        return Click(act, self.table_id, self.version, self.obs.seat, **typed)

    def say(self, msg_id: str, **args: Any) -> str:
        return text(self.locale, msg_id, **args)

    def cost(self) -> str:
        return cost_words(self.obs.drop_cost, self.obs.rules.chips, self.locale)

    def confirm_drop(self) -> list[Component]:
        return [
            button(
                self.click(Act.CONFIRM_DROP).id,
                self.say("button-confirm-drop", cost=self.cost()),
                discord.ButtonStyle.danger,
            ),
            button(self.click(Act.REFRESH).id, self.say("button-keep-playing")),
        ]

    def draw(self) -> None:
        """Draw from the stock or take the top discard; hand rummy when it may be tried; drop."""
        obs, kinds = self.obs, self.kinds
        top = obs.top_discard
        take = self.say("button-take", card=card(top)) if top else self.say("button-take-any")
        self.rows[0] += [
            button(
                self.click(Act.DRAW).id,
                self.say("button-draw"),
                discord.ButtonStyle.primary,
                disabled=ActionKind.DRAW_STOCK not in kinds,
            ),
            button(self.click(Act.TAKE).id, take, disabled=ActionKind.TAKE_DISCARD not in kinds),
        ]
        legal_rummy = any(
            a.kind is ActionKind.DECLARE and a.card is None for a in obs.legal_actions
        )
        if legal_rummy or (not self.full and _may_try_hand_rummy(obs)):
            self.rows[0].append(
                button(
                    self.click(Act.RUMMY).id,
                    self.say("button-hand-rummy"),
                    discord.ButtonStyle.success,
                )
            )
        if obs.may_drop:
            self.rows[1].append(
                button(
                    self.click(Act.DROP).id,
                    self.say("button-drop", cost=self.cost()),
                    discord.ButtonStyle.danger,
                )
            )

    def discard(self) -> None:
        """The discard menu, and declaring: a menu of every discard (honor mode, or below full
        hints), else a button naming the throw that declares."""
        options = self._discard_options()[:25]
        discard = self.click(Act.DISCARD).menu_id
        self.rows[0].append(menu(discard, self.say("menu-discard"), options or [option("-", "-")]))
        if self.obs.rules.declaration_mode is DeclarationMode.HONOR or not self.full:
            lines = [option(o["label"], o["value"]) for o in options] or [option("-", "-")]
            declare = self.click(Act.DECLARE).menu_id
            self.rows[1].append(menu(declare, self.say("menu-declare"), lines))
        else:
            self.rows[1].append(self._declare_button())

    def _discard_options(self) -> list[Component]:
        obs, advice = self.obs, self.advice
        legal = obs.legal_actions
        discards = {a.card for a in legal if a.kind is ActionKind.DISCARD and a.card is not None}
        evaluation = None
        if advice is not None:
            evaluation = advice.drawn if advice.drawn is not None else advice.best
        options = []
        for c in hand_order(obs, evaluation, self.sort_by_suit, self.hints):
            if c.id not in discards:
                continue  # the card just taken from the pile may not go straight back
            described = self.full and advice is not None
            options.append(
                option(
                    card(c),
                    str(c.id),
                    (
                        discard_option_description(advice, c, self.locale)
                        if described and advice is not None
                        else None
                    ),
                )
            )
        return options

    def _declare_button(self) -> Component:
        """Assisted mode at full hints: the card the text and the picture suggest, when
        throwing it declares; else the first card whose throw declares (each legal
        declaration names its throw); disabled when none does."""
        obs, advice = self.obs, self.advice
        declares = [
            a.card for a in obs.legal_actions if a.kind is ActionKind.DECLARE and a.card is not None
        ]
        drawn = advice.drawn if advice is not None else None
        suggested = drawn.best_discard.id if drawn is not None else None
        best = suggested if suggested in declares else (declares[0] if declares else None)
        by_id = {c.id: c for c in obs.hand}
        label = (
            self.say("button-declare", card=card(by_id[best]))
            if best is not None
            else self.say("button-declare-not-yet")
        )
        return button(
            self.click(Act.DECLARE, card=best).id,
            label,
            discord.ButtonStyle.success,
            disabled=best is None,
        )

    def view_choices(self, card_images: bool | None) -> None:
        """Sort by suit or group by melds (not with hints off), refresh, pictures or text."""
        row = self.rows[2]
        if self.hints != "off":
            by_suit = self.sort_by_suit
            row.append(
                button(
                    self.click(Act.SORT, flag=not by_suit).id,
                    self.say("button-group" if by_suit else "button-sort"),
                )
            )
        row.append(button(self.click(Act.REFRESH).id, self.say("button-refresh"), emoji="🔄"))
        if card_images is not None:
            row.append(
                button(
                    self.click(Act.IMAGES, flag=not card_images).id,
                    self.say("button-text-only" if card_images else "button-card-images"),
                    emoji="🔤" if card_images else "🖼️",
                )
            )


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
