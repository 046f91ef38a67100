"""The Declare button throws the card the hand's text and picture suggest.

It used to throw the first card whose discard declares (by card id), while the footer said
"Discarding 3♣ leaves deadwood 0 — you can declare!" and the picture marked 3♣."""

from __future__ import annotations

from bot.discord_ui.screens.hand_controls import hand_view
from bot.engine.actions import Action, ActionKind
from bot.engine.match import Match, Player
from bot.engine.observation import Observation
from bot.engine.rules import get_profile
from bot.table.advice import HandAdvice, advise
from bot.words.cards import card


def first_declarable(seed: int) -> tuple[Observation, HandAdvice]:
    """Two players drawing from the stock and throwing the suggested card, until one of them
    holds a hand that declares."""
    m = Match.create([Player("u1", "a"), Player("u2", "b")], get_profile("points"), seed=seed)
    for _ in range(200):
        deal = m.deal
        assert deal is not None and not deal.over
        obs = m.observation(deal.turn)
        if obs.phase == "draw":
            m.apply(Action(ActionKind.DRAW_STOCK, deal.turn, None))
            continue
        advice = advise(obs)
        assert advice.drawn is not None
        if advice.drawn.declarable:
            return obs, advice
        m.apply(Action(ActionKind.DISCARD, deal.turn, advice.drawn.best_discard.id))
    raise AssertionError("no declarable hand")


def test_declare_throws_the_suggested_card() -> None:
    obs, advice = first_declarable(0)  # seed 0: 2♠ and 3♣ both declare; 3♣ is suggested
    assert advice.drawn is not None
    suggested = advice.drawn.best_discard
    declares = [a.card for a in obs.legal_actions if a.kind is ActionKind.DECLARE]
    assert len(declares) > 1 and declares[0] != suggested.id  # the case that went wrong
    view = hand_view("tbl1", 5, obs, advice, sort_by_suit=False)
    items = [c for row in view.to_components() for c in row["components"]]
    buttons = [i for i in items if (i.get("label") or "").startswith("Declare —")]
    assert len(buttons) == 1
    assert buttons[0]["label"] == f"Declare — discard {card(suggested)}"
    assert buttons[0]["custom_id"].endswith(f":declare:{suggested.id}")
