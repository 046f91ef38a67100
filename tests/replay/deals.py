"""Real deals for the replay tests, played by seeded AI seats through the engine's `Match`.

Each scenario plays a match the way a table does (`Match.apply`, `Match.apply_timeout` with the
table's own timeout moves), with a small script forcing the case it is about (a drop, a
wrong show, a timeout, a stock that runs out), and records the engine's state *live* after
every recorded step: what a replay page shows at that step must equal it. The states are
taken from the match being played, not from any replay, so a replay that went wrong cannot
agree with them by construction.

A step is what the page steps through: the deal as dealt (step 0), then one step per
recorded move or timeout (a reshuffle, a void stock or the deal's end belong to the move that
caused them).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from bot.ai import make_policy
from bot.engine.actions import Action, ActionKind
from bot.engine.evaluate import evaluate_hand
from bot.engine.match import Match, MatchPhase
from bot.engine.policy import Policy
from bot.engine.rules import DeclarationMode, Rules, StockExhausted, get_profile
from bot.table.autoplay import timeout_finish, timeout_opening

History = dict[str, Any]


@dataclass(frozen=True)
class Snapshot:
    """The engine's table at one step: what the page must show then."""

    hands: dict[int, list[str]]  # every seat dealt in: its card codes, sorted
    top: str | None  # top of the discard pile
    stock: int
    turn: int | None  # None once the deal is over
    scores: dict[int, Fraction]  # the match's scores (after the deal at its last step)


@dataclass
class Played:
    """A played match: each deal's history (as JSON would give it back) and its states."""

    name: str
    histories: list[History] = field(default_factory=list)
    states: list[list[Snapshot]] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)  # pool: in order, at the match's end
    scores: dict[int, Fraction] = field(default_factory=dict)  # at the match's end


#: A script: given the match and how many moves this deal has had, the move to make instead of
#: the AI's (None: the AI plays). "timeout" asks for the table's timeout moves.
Script = Callable[[Match, int], Action | str | None]


def snapshot(m: Match) -> Snapshot:
    deal = m.deal
    assert deal is not None
    return Snapshot(
        hands={s: sorted(c.code for c in deal.hands[s]) for s in deal.seats},
        top=deal.pile[-1].code if deal.pile else None,
        stock=len(deal.stock),
        turn=None if deal.over else deal.turn,
        scores=dict(m.scores),
    )


def play(
    name: str,
    rules: Rules | str,
    players: int,
    seed: int,
    tier: str = "easy",
    script: Script | None = None,
    max_deals: int = 20,
) -> Played:
    """Play a seeded match to its end (or `max_deals` deals) with `tier` AI at every seat."""
    names = ["Asha", "Ravi", "Meera", "Kabir", "Zoya", "Dev"][:players]
    m = Match.create(names, rules, seed=seed)
    policies: dict[int, Policy] = {s: make_policy(tier, seed * 31 + s) for s in range(players)}
    out = Played(name)
    timeouts: dict[int, int] = {}
    moves = 0
    states = [snapshot(m)]
    for _ in range(20_000):
        if m.phase is MatchPhase.OVER or len(out.histories) >= max_deals:
            break
        if m.phase is MatchPhase.BETWEEN_DEALS:
            m.start_next_deal()
            moves, timeouts = 0, {}
            states = [snapshot(m)]
            continue
        deal = m.deal
        assert deal is not None
        seat = deal.turn
        forced = script(m, moves) if script is not None else None
        if forced == "timeout":
            timeouts[seat] = timeouts.get(seat, 0) + 1
            opening = timeout_opening(m.observation(seat), timeouts[seat])
            assert opening is not None
            states.append(snapshot(m))  # the timeout itself changes nothing
            m.apply_timeout(seat, [opening], timeouts[seat])
            states.append(snapshot(m))
            if opening.kind is not ActionKind.DROP and not m.deal.over:
                m.apply(timeout_finish(m.observation(seat), just_drew=True), auto=True)
                states.append(snapshot(m))
        else:
            timeouts.pop(seat, None)
            action = forced if isinstance(forced, Action) else None
            m.apply(action or policies[seat].act(m.observation(seat)))
            states.append(snapshot(m))
        moves += 1
        if m.phase is not MatchPhase.PLAYING:
            history = json.loads(json.dumps(m.hand_history(len(m.results))))
            out.histories.append(history)
            out.states.append(states)
    out.eliminated = list(m.eliminated)
    out.scores = dict(m.scores)
    return out


# ---- the scenarios -------------------------------------------------------------------------


def _drops(m: Match, moves: int) -> Action | None:
    """Seat after the dealer packs at once (first drop); later someone drops mid-deal."""
    deal = m.deal
    assert deal is not None
    seat = deal.turn
    if moves == 0:
        return Action.drop(seat)
    if moves == 9 and Action.drop(seat) in m.legal_actions(seat):
        return Action.drop(seat)
    return None


def _wrong_show() -> Script:
    """From the seventh move on, the first seat in its discard phase that cannot declare
    validly declares anyway, once: honor mode takes any declaration and judges it."""
    done: list[bool] = []

    def script(m: Match, moves: int) -> Action | None:
        deal = m.deal
        assert deal is not None
        seat = deal.turn
        if done or moves < 7 or len(deal.hands[seat]) != 14:
            return None
        for a in m.legal_actions(seat):
            if a.kind is ActionKind.DECLARE and a.card is not None:
                rest = [c for c in deal.hands[seat] if c.id != a.card]
                if not evaluate_hand(rest, deal.rules, deal.wild_rank).valid:
                    done.append(True)
                    return a
        return None

    return script


def _never_declare(m: Match, moves: int) -> Action | None:
    """Draw from the stock and throw the card drawn back: nobody ever declares, so the stock
    runs out (a void deal under points rules, a reshuffle under pool rules)."""
    deal = m.deal
    assert deal is not None
    seat = deal.turn
    if len(deal.hands[seat]) == 13:
        return Action.draw_stock(seat) if deal.stock else Action.take_discard(seat)
    drawn = deal.hands[seat][-1]
    if deal.taken is not None and drawn.id == deal.taken.id:
        drawn = deal.hands[seat][0]
    return Action.discard(seat, drawn.id)


def _reshuffle_then_play(m: Match, moves: int) -> Action | None:
    return _never_declare(m, moves) if moves < 70 else None


def _timeouts(m: Match, moves: int) -> str | None:
    """One seat runs out of time three turns running: the table plays twice, then drops it."""
    deal = m.deal
    assert deal is not None
    return "timeout" if deal.turn == deal.seats[-1] and moves >= 2 else None


@cache
def scenarios() -> dict[str, Played]:
    """Every scenario the replay tests open, played once per test session."""
    honor = dataclasses.replace(get_profile("points"), declaration_mode=DeclarationMode.HONOR)
    reshuffle = dataclasses.replace(
        get_profile("pool101"), stock_exhausted=StockExhausted.RESHUFFLE
    )
    return {
        "points": play("points", "points", 4, seed=11, tier="medium"),
        "pool101": play("pool101", "pool101", 3, seed=5),
        "paplu": play("paplu", "paplu", 3, seed=8, max_deals=1),
        "wrong_show": play("wrong_show", honor, 3, seed=3, script=_wrong_show()),
        "drop": play("drop", "points", 4, seed=21, script=_drops),
        "void": play("void", "points", 6, seed=2, script=_never_declare),
        "timeout": play("timeout", "points", 3, seed=4, script=_timeouts),
        "reshuffle": play("reshuffle", reshuffle, 6, seed=9, script=_reshuffle_then_play,
                          max_deals=1),
    }  # fmt: skip
