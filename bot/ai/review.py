"""The post-deal review: the few moves where the hard AI would have played differently, and why.

A player learns most from a short list of concrete moments ("on your 4th turn you threw 7♥;
throwing K♣ kept you one card from declaring"), not from a verdict on the whole deal. This module
replays a seat's decisions one at a time, asks the hard policy what it would have done from the
*same* `Observation` (the seat's own cards and the public facts of that moment: never a later
card, never another hand), and, where the two differ, measures both moves from that seat's point
of view:

* **distance**: how many draws the 13 cards kept still need to become a valid declaration (0
  when they already are one, 1 when some single draw from the unseen cards would make one;
  beyond that hard's measure from `distance.py`), and the unseen copies that would lower it;
* **winning / useful draws**: how many unseen copies (cards whose place the seat cannot know:
  the stock or hidden hands) would complete a declaration, or lower the deadwood;
* **expected deadwood**: the engine's deadwood after the next draw, averaged over the unseen
  copies (each copy weighs one; the best throw among the drawn card and the highest loose
  cards is assumed after the draw);
* **feeding**: how much the next player, judged by what they took from the pile, threw and let
  pass (`Tracker.interest`), seems to collect around the card given away.

The gain reported is the expected deadwood the alternative saves. Only disagreements that the
measures support are kept (a different throw among equals is no lesson), ranked by how much they
matter; a missed declaration always comes first.

Everything is a pure function of the decisions given; `seat_decisions(match, seat)` rebuilds
those decisions for the deal that just ended by replaying its actions from its recorded deck
order and draws (seeded or not), and reads nothing but `Match.observation(seat)` at each of the
seat's turns. Work is counted in
evaluations (hard's own budget plus at most one evaluation per distinct unseen face and
alternative), never in time, so a review is the same on every machine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face
from bot.engine.deal import Deal
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.events import Declared, Discarded, Drew, Dropped, Left, Took, WrongShow
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import Observation

from .common import by_kind, safe_declaration
from .distance import HandCode, effective_draws, set_limit
from .lookahead import next_draw
from .policies import HardPolicy, hopeless_opening
from .tracking import Tracker

# A disagreement is worth showing only when the alternative saves at least this much expected
# deadwood, or gets closer to a declaration, or feeds the next player clearly less.
MIN_GAIN = 1.5
MIN_FEED_GAP = 0.8
DEFAULT_LIMIT = 3
THROWS_TRIED = 4  # loose cards tried as the throw after a probe draw


class MoveKind(StrEnum):
    DRAW = "draw"
    DISCARD = "discard"
    DROP = "drop"
    DECLARE = "declare"


class Reason(StrEnum):
    """Why the alternative is better (a suggestion lists the ones that apply)."""

    MISSED_DECLARATION = "missed_declaration"  # a valid declaration was on the table
    CLOSER = "closer"  # fewer draws from a declaration
    MORE_WINNERS = "more_winners"  # more unseen cards would complete the hand
    MORE_USEFUL = "more_useful"  # more unseen cards improve the hand
    LESS_DEADWOOD = "less_deadwood"  # lower expected deadwood
    LESS_FEEDING = "less_feeding"  # gives the next player less of what they collect
    HOPELESS_HAND = "hopeless_hand"  # dropping was cheaper than the likely loss
    HAND_WORTH_PLAYING = "hand_worth_playing"  # the drop gave up a playable hand


@dataclass(frozen=True, slots=True)
class Decision:
    """One move a seat made, with what it knew when it made it."""

    obs: Observation
    action: Action
    auto: bool = False  # played by the table for a seat that ran out of time


@dataclass(frozen=True, slots=True)
class Outlook:
    """How the 13 cards a move keeps look from the seat's own information."""

    deadwood: int  # the engine's deadwood of those 13 now
    expected_deadwood: float  # after one more draw from the unseen cards (best throw)
    distance: int  # draws still needed to declare: 0 valid now, 1 one draw away, ...
    winning_draws: int  # unseen copies that would complete a declaration
    useful_draws: int  # unseen copies that lower the deadwood
    feed: float  # the next player's interest in the card given away (0: none)
    closer_draws: int = 0  # unseen copies that lower the distance (effective draws)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One move where hard would have played differently."""

    turn: int  # the seat's own turn number in the deal, 1-based
    kind: MoveKind
    played: Action
    better: Action
    played_card: Card | None  # the card thrown (discard), taken (draw) or None
    better_card: Card | None
    played_outlook: Outlook
    better_outlook: Outlook
    gain: float  # expected deadwood the alternative saves (positive: better)
    reasons: tuple[Reason, ...]
    drop_cost: int | None = None  # for drop decisions: what dropping cost then


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    deal_number: int
    moves: int  # the seat's own decisions reviewed (table-played moves are skipped)
    agreed: int  # of those, how many hard would have made too
    suggestions: tuple[Suggestion, ...]


# ---- measuring a hand ---------------------------------------------------------------------------


def _unseen(t: Tracker) -> Counter[Face]:
    return Counter(t.unseen_faces())


def outlook(obs: Observation, kept: Sequence[Card], given: Card | None = None) -> Outlook:
    """Measure 13 kept cards against the unseen cards of `obs` (see the module docstring).

    `given` is the card the move puts on the pile (it is no longer unseen to anyone, and the
    next player may take it)."""
    rules, wr = obs.rules, obs.wild_rank
    t = Tracker.from_observation(obs)
    unseen = _unseen(t)
    if given is not None and unseen[given.face] > 0 and all(c.id != given.id for c in obs.hand):
        unseen[given.face] -= 1
    now = evaluate_hand(kept, rules, wr)
    draw = next_draw(kept, now, unseen, rules, wr, THROWS_TRIED)
    expected, winners, useful = draw.expected, draw.winners, draw.useful
    # Hard's own measures: draws still needed and the unseen copies that lower that number.
    code = HandCode.of(kept, rules, wr)
    far, closer = effective_draws(code, unseen, rules, wr, set_limit(rules))
    distance = 0 if now.valid else (1 if winners else max(2, far))
    feed = 0.0
    if given is not None and t.next_seat is not None:
        feed = max(0.0, t.interest(t.next_seat, given.face))
    return Outlook(now.deadwood, expected, distance, winners, useful, feed, closer)


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    return [c for c in hand if c.id != card.id]


def _card(obs: Observation, card_id: int | None) -> Card | None:
    if card_id is None:
        return None
    return next((c for c in obs.hand if c.id == card_id), None)


# ---- comparing two moves ------------------------------------------------------------------------


def _reasons(played: Outlook, better: Outlook) -> list[Reason]:
    out: list[Reason] = []
    if better.distance < played.distance:
        out.append(Reason.CLOSER)
    if better.winning_draws > played.winning_draws:
        out.append(Reason.MORE_WINNERS)
    if better.useful_draws > played.useful_draws + 2:
        out.append(Reason.MORE_USEFUL)
    if played.expected_deadwood - better.expected_deadwood >= MIN_GAIN:
        out.append(Reason.LESS_DEADWOOD)
    if played.feed - better.feed >= MIN_FEED_GAP:
        out.append(Reason.LESS_FEEDING)
    return out


def _discard_suggestion(
    turn: int, obs: Observation, played: Action, better: Action
) -> Suggestion | None:
    p, b = _card(obs, played.card), _card(obs, better.card)
    if p is None or b is None or p.face == b.face:
        return None
    po = outlook(obs, _without(obs.hand, p), p)
    bo = outlook(obs, _without(obs.hand, b), b)
    reasons = _reasons(po, bo)
    # Hard weighs things these measures do not (structure, lookahead); show only what they back.
    worse = (
        bo.distance > po.distance
        or bo.winning_draws < po.winning_draws
        or bo.expected_deadwood - po.expected_deadwood >= MIN_GAIN
    )
    if not reasons or worse:
        return None
    gain = po.expected_deadwood - bo.expected_deadwood
    return Suggestion(turn, MoveKind.DISCARD, played, better, p, b, po, bo, gain, tuple(reasons))


def _draw_suggestion(
    turn: int, obs: Observation, played: Action, better: Action
) -> Suggestion | None:
    top = obs.top_discard
    if top is None:
        return None
    rules, wr = obs.rules, obs.wild_rank
    stock = outlook(obs, obs.hand)
    taken = evaluate_drawn([*obs.hand, top], rules, wr, forbidden=top)
    kept = _without([*obs.hand, top], taken.best_discard)
    take = outlook(obs, kept, taken.best_discard)
    # Compare after this turn: taking gives `take.deadwood` for sure; a stock draw gives
    # `stock.expected_deadwood` on average.
    take_after = 0.0 if taken.declarable else float(take.deadwood)
    if better.kind is ActionKind.TAKE_DISCARD:
        po, bo, gain = stock, take, stock.expected_deadwood - take_after
        pc, bc = None, top
        closer = take.distance < max(0, stock.distance - 1) or taken.declarable
    else:
        po, bo, gain = take, stock, take_after - stock.expected_deadwood
        pc, bc = top, None
        closer = stock.distance < take.distance
    reasons: list[Reason] = []
    if taken.declarable and better.kind is ActionKind.TAKE_DISCARD:
        reasons.append(Reason.MISSED_DECLARATION)
    if closer:
        reasons.append(Reason.CLOSER)
    if gain >= MIN_GAIN:
        reasons.append(Reason.LESS_DEADWOOD)
    if not reasons or gain < 0:
        return None
    return Suggestion(turn, MoveKind.DRAW, played, better, pc, bc, po, bo, gain, tuple(reasons))


def _drop_suggestion(
    turn: int, obs: Observation, played: Action, better: Action
) -> Suggestion | None:
    here = outlook(obs, obs.hand)
    cost = obs.drop_cost
    if cost is None:
        return None
    penalty = evaluate_hand(obs.hand, obs.rules, obs.wild_rank).penalty
    if better.kind is ActionKind.DROP:
        if not hopeless_opening(obs, 0.6):
            return None
        gain = 0.6 * penalty - cost
        reasons: tuple[Reason, ...] = (Reason.HOPELESS_HAND,)
    else:
        if played.kind is not ActionKind.DROP:
            return None
        gain = cost - 0.6 * penalty if hopeless_opening(obs, 0.6) else float(cost)
        reasons = (Reason.HAND_WORTH_PLAYING,)
    if gain <= 0:
        return None
    return Suggestion(
        turn, MoveKind.DROP, played, better, None, None, here, here, gain, reasons, cost
    )


def _missed_declaration(turn: int, obs: Observation, played: Action, better: Action) -> Suggestion:
    p = _card(obs, played.card)
    b = _card(obs, better.card)
    kept_p = _without(obs.hand, p) if p is not None else list(obs.hand)[:13]
    kept_b = _without(obs.hand, b) if b is not None else list(obs.hand)[:13]
    po = outlook(obs, kept_p, p)
    bo = outlook(obs, kept_b, b)
    gain = float(evaluate_hand(kept_p, obs.rules, obs.wild_rank).penalty)
    return Suggestion(
        turn, MoveKind.DECLARE, played, better, p, b, po, bo, gain,
        (Reason.MISSED_DECLARATION,),
    )  # fmt: skip


def judge(turn: int, obs: Observation, played: Action, advice: Action) -> Suggestion | None:
    """Compare the move played with hard's `advice` from the same observation."""
    if played == advice:
        return None
    if advice.kind is ActionKind.DECLARE and played.kind is not ActionKind.DECLARE:
        return _missed_declaration(turn, obs, played, advice)
    if ActionKind.DROP in (played.kind, advice.kind):
        return _drop_suggestion(turn, obs, played, advice)
    if played.kind is ActionKind.DISCARD and advice.kind is ActionKind.DISCARD:
        return _discard_suggestion(turn, obs, played, advice)
    draws = (ActionKind.DRAW_STOCK, ActionKind.TAKE_DISCARD)
    if played.kind in draws and advice.kind in draws and played.kind is not advice.kind:
        return _draw_suggestion(turn, obs, played, advice)
    return None


def _rank(s: Suggestion) -> tuple[int, float]:
    first = 0 if Reason.MISSED_DECLARATION in s.reasons else 1
    return (first, -s.gain)


def review(
    decisions: Sequence[Decision], seed: int = 0, limit: int = DEFAULT_LIMIT
) -> Review | None:
    """The review of one seat's deal, or None when it made no decision of its own.

    `decisions` are that seat's moves in order, each with its observation at that moment.
    `seed` seeds hard's sampling, so a review is reproducible."""
    own = [d for d in decisions if not d.auto and d.obs.legal_actions]
    if not own:
        return None
    seat = own[0].obs.seat
    hard = HardPolicy(random.Random(seed))
    found: list[Suggestion] = []
    agreed = 0
    turn = 0
    for d in own:
        obs = d.obs
        if d.action.kind in (ActionKind.DRAW_STOCK, ActionKind.TAKE_DISCARD, ActionKind.DROP):
            turn += 1
        elif len(obs.hand) == 13 and d.action.kind is ActionKind.DECLARE:
            turn += 1  # a hand rummy is a whole turn
        advice = safe_declaration(obs, by_kind(obs)) or hard.act(obs)
        if advice == d.action or _same_move(advice, d.action, obs):
            agreed += 1
            continue
        s = judge(max(1, turn), obs, d.action, advice)
        if s is not None:
            found.append(s)
    found.sort(key=_rank)
    return Review(seat, own[0].obs.deal_number, len(own), agreed, tuple(found[:limit]))


def _same_move(a: Action, b: Action, obs: Observation) -> bool:
    """Two actions that differ only by which physical copy of a face they name."""
    if a.kind is not b.kind:
        return False
    ca, cb = _card(obs, a.card), _card(obs, b.card)
    return ca is not None and cb is not None and ca.face == cb.face


# ---- rebuilding a seat's decisions ---------------------------------------------------------------

_MOVES = (Drew, Took, Discarded, Dropped, Declared, WrongShow)


class ReplayError(ValueError):
    """The finished deal cannot be rebuilt (its record is inconsistent)."""


def seat_decisions(match: Match, seat: int) -> list[Decision]:
    """`seat`'s decisions in the deal that just ended (`match.finished_deal()`), each with the
    observation the seat had then, rebuilt by replaying the deal's accepted actions from its
    recorded order in a copy of the match (each stock draw given the card the deal recorded,
    so shuffles made during an unseeded deal replay too). Only `observation(seat)` of the copy
    is read, so nothing the seat could not see at that moment enters a decision. Raises
    `ReplayError` when there is no finished deal or it cannot be replayed."""
    finished = match.finished_deal()
    deal = match.deal
    if finished is None or deal is None:
        raise ReplayError("no finished deal to review")
    if seat not in deal.seats:
        raise ReplayError("that seat did not play the deal")
    # The deal's recorded order, not its seed: an unseeded deal (the terminal game without
    # --seed) replays just as well. Shuffles made during the deal are followed through the
    # recorded draws below.
    fresh = Deal.start(
        match.rules, deal.seats, deal.dealer, deal.seed, deal.number,
        order=deal.order, salt=deal.salt,
    )  # fmt: skip
    actions = deal.actions
    draws = iter([e.card.id for e in deal.events if isinstance(e, Drew)])
    data = match.to_dict()
    data["version"] = match.version - len(actions)  # every accepted action bumps it once
    data["deal"] = fresh.to_dict()
    data["phase"] = MatchPhase.PLAYING.value
    data["results"] = data["results"][:-1]
    data["scores"] = {
        str(s): str(v - finished.result.deltas.get(s, 0)) for s, v in match.scores.items()
    }
    data["eliminated"] = [s for s in match.eliminated if s not in deal.seats]
    data["left"] = [s for s in match.left if s not in deal.seats]
    data["winners"] = []
    data["table_events"] = []
    shadow = Match.from_dict(data)
    autos = [
        bool(getattr(e, "auto", False))
        for e in deal.events
        if isinstance(e, _MOVES) or (isinstance(e, Left) and e.reason is not None)
    ]
    if len(autos) != len(actions):
        raise ReplayError("the deal's events and actions disagree")
    out: list[Decision] = []
    for action, auto in zip(actions, autos, strict=True):
        if action.seat == seat and action.kind is not ActionKind.LEAVE:
            out.append(Decision(shadow.observation(seat), action, auto))
        if action.kind is ActionKind.DRAW_STOCK:
            replayed = shadow.deal
            drawn = next(draws, None)
            if replayed is None or drawn is None:
                raise ReplayError("the deal's draws and actions disagree")
            try:
                replayed.stack_stock(drawn)
            except ValueError:
                raise ReplayError("a recorded draw is not in the replayed stock") from None
        shadow.apply(action, auto=auto)
    return out


def review_seat(
    match: Match, seat: int, seed: int = 0, limit: int = DEFAULT_LIMIT
) -> Review | None:
    """`review(seat_decisions(match, seat))`: the review of `seat` in the deal that just ended."""
    return review(seat_decisions(match, seat), seed, limit)
