"""The `expert` tier: hard's race to a declaration, judged in expected chips.

Hard throws the card that leaves the fewest expected turns to a declaration; it pays little
attention to what it holds when somebody else goes out first, which in points rummy is where
the chips go. Expert keeps hard's measures (distance and effective draws, `distance.py`; the
feed danger of a throw, `tracking.py`) and turns them into a *value in chips* (`chips.py`):

* its own chance to declare on each coming turn, from the distance and effective draws of the
  cards it keeps (`finish_chances`);
* each opponent's chance to declare on each of their coming turns, read from the pile
  (`closeness.py`: turns played, cards taken, low throws);
* what it would pay if an opponent went out (the engine's capped penalty of the kept cards)
  and what the others pay when it wins.

So the same hand races early and sheds high cards as an opponent closes in. Decisions:

* **throw**: among the few best throws by distance and the few that keep the least penalty,
  the best value in chips: hard's expected turns to a declaration at `chips_per_turn` chips a
  turn, plus the points kept times the chance that some opponent declares within
  `soon_rounds` rounds. The points count little while nobody is close and a lot when someone
  is. Pricing a turn or a point in other ways, settling close calls by a fitted value or by
  determinised search, and reading the opponents by a fitted hazard were all measured and
  showed no gain; they were taken out of the code (docs/ai.md, "What was tried", keeps what
  each measured);
* **draw**: take the open card when the best 13 it leaves have less deadwood than a stock draw
  leaves on average (`expectation.take_by_expectation`), or when it declares. Hard's rule
  looks only at the distance; this one at the points kept too, and it made the expert pay
  less when it loses without winning fewer deals;
* **drop**: heads-up, when dropping costs fewer chips than the expected payment of playing on,
  by a margin. Playing on is valued as the turn would be played: after the take the draw
  rule would make, else with the 13 cards held. With more opponents, hard's rule
  (the valuation was calibrated heads-up only). In a pool match points are not chips: a drop
  that takes the seat to the limit is never made (it ends the match, where playing on keeps a
  chance), and heads-up the drop compares the chance of winning the match after dropping and
  after playing on (`pool_chances`, `equity.py`);
* **declare**: whenever a declaration is certainly valid; waiting can only let an opponent go
  out first, and a declaration already collects everything a deal can pay.

Every setting is a class attribute, so `benchmarks/duplicate.py` can try `expert@name=value`
on the same cards as the default. What each setting measured, the calibration behind the drop
margins, the headline figures and where the chips still go are in docs/ai.md.

Work is fixed per decision (the candidates counted), never measured in time, and nothing on
the decision path draws a random number, so an observation always gives the same move.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation
from bot.engine.policy import register_policy

from .chips import Race, finish_chances, first_step_rate, race
from .closeness import Closeness, opponents
from .common import by_kind, distinct_faces, non_wild, safe_declaration
from .distance import HandCode, distance, effective_draws, set_limit
from .equity import after_loss, after_win, equity
from .expectation import take_by_expectation
from .policies import HardPolicy, _discard, _draw_action, _throwable
from .shape import shape_cost
from .tracking import Tracker

HORIZON = 16  # own turns looked ahead by the chip value


class ThrowValue(NamedTuple):
    """One candidate throw as the expert judged it (the review shows these figures)."""

    chips: float  # expected chips after the throw
    card: Card
    race: Race  # chances of going out first / of an opponent going out first
    distance: int  # draws the kept 13 still need to declare
    good: int  # unseen copies that would bring them a step closer
    points: int  # the kept 13's penalty: what an opponent's declaration would cost now


class ExpertPolicy(HardPolicy):
    """See the module docstring. Tunable weights are class attributes (duplicate.py sets them
    with `expert@name=value` to compare variants on the same cards)."""

    ukeire_candidates = 4  # throws ranked by distance whose effective draws are counted (as hard)
    pay_candidates = 2  # ... plus the throws that keep the least penalty (distance <= best+1)
    gain_each = 40.0  # chips one opponent pays when this seat declares (hard vs hard: 42.5)
    pay_decay = 0.92  # a loss k rounds ahead costs the penalty held now times this ** k
    chips_per_turn = 3.0  # what one turn of progress is worth, in chips ("turns" model)
    soon_rounds = 3  # the points held are at risk of an opponent declaring this many rounds
    take_gain = 1.0  # a take must beat a stock draw's mean deadwood by this many points
    # Drops: margins from `benchmarks/drop_calibration.py` (docs/ai.md, "Drop calibration").
    drop_margin = 4.0  # chips playing on must lose beyond the drop's cost before it drops
    middle_drop_margin = 4.0  # the same for a later (middle) drop
    drop_min_distance = 2  # hands this close to a declaration are never valued for a drop
    pool_equity = True  # in a pool match, drop by the chance of winning the match (`equity.py`)
    pool_drop_margin = 0.0  # ... when dropping leaves this much more of that chance

    def act(self, obs: Observation) -> Action:
        kinds = by_kind(obs)
        declare = safe_declaration(obs, kinds)
        if declare is not None:
            return declare
        tracker = Tracker.from_observation(obs)
        opps = self.closeness(obs)
        if ActionKind.DISCARD in kinds:
            return _discard(obs, self.choose_throw(obs, tracker, opps)[0])
        # One take decision serves both the drop (which values the turn as it would be
        # played) and the draw: the expectation behind it is the costliest part of a turn.
        take = self._expert_take(obs, tracker)
        if ActionKind.DROP in kinds and self._expert_drop(obs, tracker, opps, take):
            return kinds[ActionKind.DROP][0]
        return _draw_action(obs, kinds, take)

    def closeness(self, obs: Observation) -> list[Closeness]:
        """Every opponent's closeness to a declaration, read from the pile (`closeness.py`).
        A method, so that a benchmark can tell a copy of the expert the truth instead
        (`benchmarks/closeness_oracle.py`)."""
        return opponents(obs)

    # -- draw ---------------------------------------------------------------------------------

    def _expert_take(self, obs: Observation, t: Tracker) -> bool:
        """Take the open card when it lets the hand declare, or when the best 13 it leaves
        have less deadwood than a stock draw leaves on average, by `take_gain` points
        (`expectation.take_by_expectation`). Hard's rule (a step closer, wild, or declaring)
        and either of the two rules were measured worse (docs/ai.md)."""
        top = obs.top_discard
        if top is None:
            return False
        return take_by_expectation(obs, top, Counter(t.unseen_faces()), self.take_gain)

    # -- throw --------------------------------------------------------------------------------

    def throw_values(
        self,
        obs: Observation,
        t: Tracker,
        opps: Sequence[Closeness],
        hand: Sequence[Card] | None = None,
        forbidden: Card | None = None,
        also: Card | None = None,
    ) -> list[ThrowValue]:
        """The candidate throws from `hand` (14 cards; default: the hand held, the card just
        taken forbidden) with their values in chips, best first. `also` adds one more card to
        the candidates (the review measures the card a player threw)."""
        rules, wr = obs.rules, obs.wild_rank
        if hand is None:
            hand, forbidden = obs.hand, obs.taken
            cands = _throwable(obs)
        else:
            legal = [c for c in hand if forbidden is None or c.id != forbidden.id]
            cands = distinct_faces(non_wild(legal, rules, wr) or legal)
        set_max = set_limit(rules)
        live = t.live_table()
        unseen = Counter(t.unseen_faces())
        total = sum(unseen.values()) or 1
        ev = evaluate_drawn(hand, rules, wr, forbidden=forbidden)
        pen = {c.face: e.penalty for c, e in ev.by_discard}
        void_race = self._race(obs)
        code = HandCode.of(hand, rules, wr)
        quick = []
        for c in cands:
            rest_code = code.minus(c.face, rules.is_wild(c.face, wr))
            d = distance(rest_code, set_max)
            rest = [x for x in hand if x.id != c.id]
            danger = self._danger(obs, t, c)
            shape = shape_cost(rest, rules, wr, live)
            extra = self.shape_turns * shape + danger / self.points_per_turn
            quick.append((d, extra, -c.face.value, c, rest_code))
        quick.sort(key=lambda q: (q[0], q[1], q[2], q[3].id))
        chosen = quick[: self.ukeire_candidates]
        best_d = quick[0][0]
        cheap = sorted(
            (q for q in quick[self.ukeire_candidates :] if q[0] <= best_d + 1),
            key=lambda q: (pen.get(q[3].face, 0), q[3].id),
        )
        chosen += cheap[: self.pay_candidates]
        if also is not None and all(q[3].face != also.face for q in chosen):
            chosen += [q for q in quick if q[3].face == also.face][:1]
        soon = self.lose_soon(opps)
        out = []
        for d, extra, _, c, rest_code in chosen:
            _, good = effective_draws(rest_code, unseen, rules, wr, set_max, now=d)
            finish = finish_chances(d, first_step_rate(good, total, extra), HORIZON)
            points = pen.get(c.face, 0)
            pay = 0.0 if void_race else float(points)
            r = race(finish, pay, opps, self.gain_each, self.pay_decay, me_first=False)
            turns = self._turns(d, good, total)
            # hard's turns at a price in chips, plus the points held at risk soon
            chips = -self.chips_per_turn * (turns + extra) - soon * pay
            out.append(ThrowValue(chips, c, r, d, good, points))
        out.sort(key=lambda v: (-v.chips, -v.card.face.value, v.card.id))
        return out

    def lose_soon(self, opps: Sequence[Closeness], rounds: int | None = None) -> float:
        """Chance that some opponent declares within `rounds` rounds (default `soon_rounds`;
        closeness)."""
        none = 1.0
        for k in range(self.soon_rounds if rounds is None else rounds):
            for o in opps:
                none *= 1.0 - o.hazard(k)
        return 1.0 - none

    def choose_throw(
        self, obs: Observation, t: Tracker, opps: Sequence[Closeness]
    ) -> tuple[Card, list[ThrowValue]]:
        """The card to throw and the candidates' values it was chosen on (for the review)."""
        cands = _throwable(obs)
        if len(cands) == 1:
            return cands[0], []
        values = self.throw_values(obs, t, opps)
        return values[0].card, values

    # -- drop ---------------------------------------------------------------------------------

    def play_on_value(self, obs: Observation, t: Tracker, opps: Sequence[Closeness]) -> Race:
        """Expected chips of playing the 13 cards held now (before this turn's draw)."""
        rules, wr, hand = obs.rules, obs.wild_rank, obs.hand
        set_max = set_limit(rules)
        unseen = Counter(t.unseen_faces())
        total = sum(unseen.values()) or 1
        d, good = effective_draws(HandCode.of(hand, rules, wr), unseen, rules, wr, set_max)
        finish = finish_chances(d, first_step_rate(good, total), HORIZON)
        pay = float(evaluate_hand(hand, rules, wr).penalty)
        return race(finish, pay, opps, self.gain_each, self.pay_decay, me_first=True)

    def drop_estimate(
        self, obs: Observation, t: Tracker, opps: Sequence[Closeness], take: bool | None = None
    ) -> Race:
        """Expected chips of playing on, as the drop rule weighs them: the turn valued as the
        expert's own draw rule would play it. When that rule would take the open card, the
        value after taking it and making the best throw (a hand that the pile card improves
        is not as bad as its 13 cards say); otherwise `play_on_value` (the 13 cards alone,
        which measured worse as the drop's estimate: docs/ai.md). `take` is that rule's answer
        when the caller has it already."""
        top = obs.top_discard
        if top is None:
            return self.play_on_value(obs, t, opps)
        if take is None:
            take = self._expert_take(obs, t)
        taken = (
            self.throw_values(obs, t, opps, hand=[*obs.hand, top], forbidden=top) if take else []
        )
        return taken[0].race if taken else self.play_on_value(obs, t, opps)

    def _expert_drop(
        self, obs: Observation, t: Tracker, opps: Sequence[Closeness], take: bool | None = None
    ) -> bool:
        cost = obs.drop_cost
        if cost is None or not obs.may_drop:
            return False
        if self.pool_equity and obs.rules.out_at(obs.seats[obs.seat].score + cost):
            return False  # out of the match for sure, where playing on keeps a chance
        if len(opps) > 1:
            # The drop valuation is calibrated heads-up only; at a 4-player table against
            # medium it dropped 26 of 40 deals. With more opponents keep hard's rule.
            return self._should_drop(obs)
        rules = obs.rules
        code = HandCode.of(obs.hand, rules, obs.wild_rank)
        if distance(code, set_limit(rules)) <= self.drop_min_distance:
            return False  # never worth a drop (see drop_min_distance): skip the valuation
        estimate = self.drop_estimate(obs, t, opps, take)
        chances = self.pool_chances(obs, opps, estimate)
        if chances is not None:
            dropped, played = chances
            return dropped > played + self.pool_drop_margin
        margin = self.drop_margin if cost == rules.first_drop else self.middle_drop_margin
        return -float(cost) > estimate.chips + margin

    def pool_chances(
        self, obs: Observation, opps: Sequence[Closeness], estimate: Race
    ) -> tuple[float, float] | None:
        """Heads-up in a pool match (with `pool_equity`): the chance of winning the match
        after dropping now and after playing on; None anywhere else (points, more opponents,
        no drop allowed). Playing on is the drop estimate's race (`estimate`): going out
        first, the opponent adds a usual loss (`equity.after_win`); the opponent going out
        first, this seat adds what the race expects it to pay then; neither within the
        horizon, even odds. A drop that reaches the limit leaves no chance at all."""
        limit = obs.rules.pool_limit
        cost = obs.drop_cost
        if not self.pool_equity or limit is None or cost is None or len(opps) != 1:
            return None
        mine = float(obs.seats[obs.seat].score)
        theirs = float(obs.seats[opps[0].seat].score)
        # the expected payment, over every outcome
        paid = estimate.win * self.gain_each - estimate.chips
        pay = paid / estimate.lose if estimate.lose > 1e-9 else 0.0
        rest = max(0.0, 1.0 - estimate.win - estimate.lose)
        won = after_win(mine, theirs, limit)
        played = (
            estimate.win * won
            + estimate.lose * equity(mine + pay, theirs, limit)
            + rest * 0.5 * (won + after_loss(mine, theirs, limit))
        )
        return equity(mine + cost, theirs, limit), played


def make_expert(rng: random.Random) -> ExpertPolicy:
    return ExpertPolicy(rng)


register_policy("expert", make_expert)
