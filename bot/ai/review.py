"""The post-deal review: the few moves where the expert AI would have played differently, and why.

A player learns most from a short list of concrete moments ("you threw 9♠ and kept K♦; throwing
K♦ would have left 10 fewer points in your hand if Bob had gone out"), not from a verdict on the
whole deal. This module replays a seat's decisions one at a time, asks the expert policy what it
would have done from the *same* `Observation` (the seat's own cards and the public facts of that
moment: never a later card, never another hand), and, where the two differ, keeps the figures
the expert chose on, for both moves:

* **chips**: the value the expert chose on, in chips (`ExpertPolicy.throw_values`; for a drop,
  `chips.race`: the chance of going out first times what the others pay, minus the chance
  that an opponent goes out first times what this hand would pay then); players are shown
  the difference between the two moves;
* **win / lose**: the chances of going out first and of an opponent going out first;
* **points**: what the cards kept would cost if an opponent went out now (the engine's capped
  penalty);
* **distance** and **helpful cards**: draws still needed to go out, and the unseen copies that
  would bring the hand a step closer (`distance.py`).

A move is shown only when the expert's own figures say the alternative is better by at least
`MIN_GAIN` chips as shown (rounded to one decimal), so the words can never call a move better
while showing it worse. At most `DEFAULT_LIMIT` moves are kept: the costliest, then put back in
turn order; a missed declaration is always kept.

Everything is a pure function of the decisions given; `seat_decisions(match, seat)` rebuilds
those decisions for the deal that just ended by replaying its actions from its recorded deck
order and draws (seeded or not), and reads nothing but `Match.observation(seat)` at each of the
seat's turns. Work is the expert's own budget per decision plus one more throw measured, never
a clock, so a review is the same on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card
from bot.engine.deal import Deal
from bot.engine.evaluate import evaluate_hand
from bot.engine.events import Declared, Discarded, Drew, Dropped, Left, Took, WrongShow
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import Observation

from .closeness import opponents
from .common import by_kind, linked, safe_declaration
from .distance import HandCode, distance, set_limit
from .expert import ExpertPolicy, ThrowValue
from .tracking import Tracker

MIN_GAIN = 0.5  # chips, as shown (one decimal): smaller differences are close calls
MIN_MATCH_GAIN = 1  # pool drops: percent of the chance of winning the match, as shown
DEFAULT_LIMIT = 5


class MoveKind(StrEnum):
    DRAW = "draw"
    DISCARD = "discard"
    DROP = "drop"
    DECLARE = "declare"


class Reason(StrEnum):
    """Why the alternative is better (a suggestion lists the ones its figures back)."""

    MISSED_DECLARATION = "missed_declaration"  # a valid declaration was on the table
    CLOSER = "closer"  # fewer draws from going out
    FEWER_POINTS = "fewer_points"  # fewer points held if an opponent goes out
    MORE_HELPFUL = "more_helpful"  # more unseen cards would bring the hand closer
    BROKE_A_GROUP = "broke_a_group"  # the card thrown belonged with cards kept
    HOPELESS_HAND = "hopeless_hand"  # dropping was cheaper than playing on
    HAND_WORTH_PLAYING = "hand_worth_playing"  # the drop gave up more than playing on
    DROP_ENDS_MATCH = "drop_ends_match"  # pool: the drop took the seat to the limit


@dataclass(frozen=True, slots=True)
class Decision:
    """One move a seat made, with what it knew when it made it."""

    obs: Observation
    action: Action
    auto: bool = False  # played by the table for a seat that ran out of time


@dataclass(frozen=True, slots=True)
class Figures:
    """One move as the expert measured it (every number is rounded as shown to players)."""

    chips: float  # expected chips, one decimal
    win: float  # chance of going out first
    lose: float  # chance that an opponent goes out first
    points: int  # points the kept cards would cost if an opponent went out now
    distance: int  # cards still needed to go out (0: a valid declaration)
    helpful: int  # unseen copies that would bring the hand a step closer
    match: int | None = None  # pool, heads-up: the chance of winning the match, in percent


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One move where the expert would have played differently."""

    turn: int  # the seat's own turn number in the deal, 1-based
    kind: MoveKind
    played: Action
    better: Action
    played_card: Card | None  # the card thrown (discard), taken (draw) or None
    better_card: Card | None
    played_figures: Figures
    better_figures: Figures
    gain: float  # better.chips - played.chips, one decimal, >= MIN_GAIN; for a pool drop
    # judged by the match (`Figures.match` set), better.match - played.match in percent
    reasons: tuple[Reason, ...]
    drop_cost: int | None = None  # for drop decisions: what dropping cost then
    partners: tuple[Card, ...] = ()  # kept cards the thrown card went with
    threat: str | None = None  # the opponent who seemed closest to going out


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    deal_number: int
    moves: int  # the seat's own decisions reviewed (table-played moves are skipped)
    agreed: int  # of those, how many the expert would have made too
    suggestions: tuple[Suggestion, ...]  # in turn order
    chips: bool = True  # the table's unit: chips (points rummy, paplu) or points (pool, deals)

    @property
    def changed(self) -> int:
        """The moves the expert would have made differently: `suggestions` and the rest."""
        return self.moves - self.agreed

    @property
    def unlisted(self) -> int:
        """Moves the expert would change that are not among `suggestions`: close calls
        (under `MIN_GAIN`, or not judged), and any beyond the limit (the costliest are kept)."""
        return self.changed - len(self.suggestions)


# ---- measuring moves ---------------------------------------------------------------------------


def _figures(v: ThrowValue) -> Figures:
    return Figures(round(v.chips, 1), v.race.win, v.race.lose, v.points, v.distance, v.good)


def _card(obs: Observation, card_id: int | None) -> Card | None:
    if card_id is None:
        return None
    return next((c for c in obs.hand if c.id == card_id), None)


def _threat(obs: Observation) -> str | None:
    """The name of the opponent who seems closest to going out (by `closeness`)."""
    opps = opponents(obs)
    if not opps:
        return None
    seat = max(opps, key=lambda o: (o.hazard(0), -o.seat)).seat
    return next((s.name for s in obs.seats if s.seat == seat), None)


def _partners(hand: Sequence[Card], card: Card, rules_wild: set[int]) -> tuple[Card, ...]:
    """Kept cards the thrown card could have formed a group with (same rank, or same suit
    within two ranks), at most two."""
    out = [
        c for c in hand if c.id != card.id and c.id not in rules_wild and linked(c.face, card.face)
    ]
    out.sort(key=lambda c: (c.face.suit, c.face.rank))
    return tuple(out[:2])


def _discard_suggestion(
    turn: int, obs: Observation, played: Action, better: Action, expert: ExpertPolicy
) -> Suggestion | None:
    p, b = _card(obs, played.card), _card(obs, better.card)
    if p is None or b is None or p.face == b.face:
        return None
    t = Tracker.from_observation(obs)
    values = expert.throw_values(obs, t, expert.closeness(obs), also=p)
    vp = next((v for v in values if v.card.face == p.face), None)
    vb = next((v for v in values if v.card.face == b.face), None)
    if vp is None or vb is None:
        return None
    fp, fb = _figures(vp), _figures(vb)
    gain = round(fb.chips - fp.chips, 1)
    if gain < MIN_GAIN:
        return None
    reasons = []
    if fb.distance < fp.distance:
        reasons.append(Reason.CLOSER)
    if fb.points < fp.points:
        reasons.append(Reason.FEWER_POINTS)
    if fb.distance == fp.distance and fb.helpful > fp.helpful:
        reasons.append(Reason.MORE_HELPFUL)
    wild = {c.id for c in obs.hand if obs.rules.is_wild(c.face, obs.wild_rank)}
    partners = _partners([c for c in obs.hand if c.id != b.id], p, wild)
    if partners and fb.distance <= fp.distance:
        reasons.append(Reason.BROKE_A_GROUP)
    return Suggestion(
        turn, MoveKind.DISCARD, played, better, p, b, fp, fb, gain, tuple(reasons),
        partners=partners, threat=_threat(obs),
    )  # fmt: skip


def _draw_suggestion(
    turn: int, obs: Observation, played: Action, better: Action, expert: ExpertPolicy
) -> Suggestion | None:
    """Only the lesson the expert's rule gives: a pile card it would have taken (a step
    closer, or fewer points kept) was left for a stock draw. Shown only when its figures say
    so: more chips, no farther from going out."""
    top = obs.top_discard
    if top is None or better.kind is not ActionKind.TAKE_DISCARD:
        return None
    rules, wr = obs.rules, obs.wild_rank
    t = Tracker.from_observation(obs)
    opps = expert.closeness(obs)
    taken = expert.throw_values(obs, t, opps, hand=[*obs.hand, top], forbidden=top)
    if not taken:
        return None
    stay = expert.play_on_value(obs, t, opps)
    d_now = distance(HandCode.of(obs.hand, rules, wr), set_limit(rules))
    points = evaluate_hand(obs.hand, rules, wr).penalty
    fp = Figures(round(stay.chips, 1), stay.win, stay.lose, points, d_now, 0)
    fb = _figures(taken[0])
    gain = round(fb.chips - fp.chips, 1)
    if gain < MIN_GAIN or fb.distance > fp.distance:
        return None
    reasons = [Reason.CLOSER] if fb.distance < fp.distance else []
    if fb.points < fp.points:
        reasons.append(Reason.FEWER_POINTS)
    return Suggestion(
        turn, MoveKind.DRAW, played, better, None, top, fp, fb, gain, tuple(reasons),
        threat=_threat(obs),
    )  # fmt: skip


def _drop_suggestion(
    turn: int, obs: Observation, played: Action, better: Action, expert: ExpertPolicy
) -> Suggestion | None:
    cost = obs.drop_cost
    if cost is None:
        return None
    rules, wr = obs.rules, obs.wild_rank
    t = Tracker.from_observation(obs)
    opps = expert.closeness(obs)
    stay = expert.drop_estimate(obs, t, opps)
    d_now = distance(HandCode.of(obs.hand, rules, wr), set_limit(rules))
    points = evaluate_hand(obs.hand, rules, wr).penalty
    # In a heads-up pool match the expert drops by the chance of winning the match, so the
    # review shows that chance (in whole percent) instead of chips.
    chances = expert.pool_chances(obs, opps, stay)
    off, on = (None, None) if chances is None else (round(100 * c) for c in chances)
    play = Figures(round(stay.chips, 1), stay.win, stay.lose, points, d_now, 0, on)
    drop = Figures(float(-cost), 0.0, 1.0, cost, d_now, 0, off)
    reasons: tuple[Reason, ...]
    if better.kind is ActionKind.DROP:
        fp, fb, reasons = play, drop, (Reason.HOPELESS_HAND,)
    elif played.kind is ActionKind.DROP:
        fp, fb, reasons = drop, play, (Reason.HAND_WORTH_PLAYING,)
    else:
        return None
    if fp.match is not None and fb.match is not None:
        gain = float(fb.match - fp.match)
        if gain < MIN_MATCH_GAIN:
            return None
        if rules.out_at(obs.seats[obs.seat].score + cost):
            reasons += (Reason.DROP_ENDS_MATCH,)
    else:
        gain = round(fb.chips - fp.chips, 1)
        if gain < MIN_GAIN:
            return None
    return Suggestion(
        turn, MoveKind.DROP, played, better, None, None, fp, fb, gain, reasons, cost,
        threat=_threat(obs),
    )  # fmt: skip


def _missed_declaration(turn: int, obs: Observation, played: Action, better: Action) -> Suggestion:
    p = _card(obs, played.card)
    b = _card(obs, better.card)
    kept = [c for c in obs.hand if p is None or c.id != p.id][:13]
    points = evaluate_hand(kept, obs.rules, obs.wild_rank).penalty
    fp = Figures(float(-points), 0.0, 0.0, points, 1, 0)
    fb = Figures(0.0, 1.0, 0.0, 0, 0, 0)
    return Suggestion(
        turn, MoveKind.DECLARE, played, better, p, b, fp, fb, float(points),
        (Reason.MISSED_DECLARATION,), threat=_threat(obs),
    )  # fmt: skip


def judge(
    turn: int, obs: Observation, played: Action, advice: Action, expert: ExpertPolicy
) -> Suggestion | None:
    """Compare the move played with the expert's `advice` from the same observation."""
    if played == advice:
        return None
    if advice.kind is ActionKind.DECLARE and played.kind is not ActionKind.DECLARE:
        return _missed_declaration(turn, obs, played, advice)
    if ActionKind.DROP in (played.kind, advice.kind):
        return _drop_suggestion(turn, obs, played, advice, expert)
    if played.kind is ActionKind.DISCARD and advice.kind is ActionKind.DISCARD:
        return _discard_suggestion(turn, obs, played, advice, expert)
    draws = (ActionKind.DRAW_STOCK, ActionKind.TAKE_DISCARD)
    if played.kind in draws and advice.kind in draws and played.kind is not advice.kind:
        return _draw_suggestion(turn, obs, played, advice, expert)
    return None


def _cost_rank(s: Suggestion) -> tuple[int, float, int]:
    first = 0 if Reason.MISSED_DECLARATION in s.reasons else 1
    return (first, -s.gain, s.turn)


def review(
    decisions: Sequence[Decision], seed: int = 0, limit: int = DEFAULT_LIMIT
) -> Review | None:
    """The review of one seat's deal, or None when it made no decision of its own.

    `decisions` are that seat's moves in order, each with its observation at that moment.
    `seed` seeds the expert, so a review is reproducible."""
    own = [d for d in decisions if not d.auto and d.obs.legal_actions]
    if not own:
        return None
    seat = own[0].obs.seat
    expert = ExpertPolicy(random.Random(seed))
    found: list[Suggestion] = []
    agreed = 0
    turn = 0
    for d in own:
        obs = d.obs
        if d.action.kind in (ActionKind.DRAW_STOCK, ActionKind.TAKE_DISCARD, ActionKind.DROP):
            turn += 1
        elif len(obs.hand) == 13 and d.action.kind is ActionKind.DECLARE:
            turn += 1  # a hand rummy is a whole turn
        advice = safe_declaration(obs, by_kind(obs)) or expert.act(obs)
        if advice == d.action or _same_move(advice, d.action, obs):
            agreed += 1
            continue
        s = judge(max(1, turn), obs, d.action, advice, expert)
        if s is not None:
            found.append(s)
    kept = sorted(found, key=_cost_rank)[:limit]
    kept.sort(key=lambda s: s.turn)
    rules = own[0].obs.rules
    return Review(seat, own[0].obs.deal_number, len(own), agreed, tuple(kept), rules.chips)


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
