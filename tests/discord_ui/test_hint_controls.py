"""The private controls below full hints: nothing in them tells a declarable hand from
another. Hand rummy, which assisted mode lists only when it is valid, is offered whenever it
may be tried; the engine still rules on it."""

from __future__ import annotations

from typing import Any

from bot.discord_ui.screens.hand_controls import hand_view
from bot.engine.actions import ActionKind
from bot.images import samples
from bot.table.advice import advise


def labels(view: Any) -> list[str]:
    return [c.get("label") or "" for row in view.to_components() for c in row["components"]]


def test_hand_rummy_is_offered_at_the_first_turn_whatever_the_hand_below_full_hints() -> None:
    m = samples.new_match(2, 3, profile="paplu")  # hand rummy allowed, assisted mode
    assert m.deal is not None
    seat = m.deal.turn
    obs = m.observation(seat)
    valid = any(a.kind is ActionKind.DECLARE and a.card is None for a in obs.legal_actions)
    assert not valid  # a dealt 13 is almost never a declaration: this one is not
    full = hand_view("abcdefghij", 1, obs, advise(obs), False, hints="full")
    assert "Declare hand rummy" not in labels(full)  # full hints: the engine's verdict shows
    for level in ("groups", "off"):
        advice = None if level == "off" else advise(obs)
        view = hand_view("abcdefghij", 1, obs, advice, level == "off", hints=level)
        assert "Declare hand rummy" in labels(view), level
    # After the seat's first discard it may not be tried any more: no button.
    draw = next(a for a in obs.legal_actions if a.kind is ActionKind.DRAW_STOCK)
    m.apply(draw)
    after = m.observation(seat)
    m.apply(next(a for a in after.legal_actions if a.kind is ActionKind.DISCARD))
    while m.deal is not None and m.deal.turn != seat:
        other = m.observation(m.deal.turn)
        m.apply(next(a for a in other.legal_actions if a.kind is ActionKind.DRAW_STOCK))
        other = m.observation(m.deal.turn)
        m.apply(next(a for a in other.legal_actions if a.kind is ActionKind.DISCARD))
    later = m.observation(seat)
    view = hand_view("abcdefghij", 2, later, None, True, hints="off")
    assert "Declare hand rummy" not in labels(view)
    assert "Draw from stock" in labels(view)
