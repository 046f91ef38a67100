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
  is. Pricing a turn or a point in other ways (`throw_model`, `turn_value`, `turns_horizon`,
  `life_weight`, `race_distance`, `deadwood_distance`) and settling close calls by a fitted
  value (`fitted_gap`) were all measured and showed no gain, so they are off (settling them
  by determinised search was measured too and removed: docs/ai.md);
* **draw**: take the open card when the best 13 it leaves have less deadwood than a stock draw
  leaves on average (`reference_opponent.take_by_expectation`), or when it declares. Hard's rule
  looks only at the distance; this one at the points kept too, and it made the expert pay
  less when it loses without winning fewer deals;
* **drop**: heads-up, when dropping costs fewer chips than the expected payment of playing on,
  by a margin. Playing on is valued as the turn would be played (`drop_sees_take`): after the
  take the draw rule would make, else with the 13 cards held. With more opponents, hard's rule
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

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation
from bot.engine.policy import register_policy
from bot.engine.quickcheck import has_pure_triple

from .chips import Race, finish_chances, first_step_rate, race
from .closeness import Closeness, opponents
from .common import by_kind, distinct_faces, non_wild, safe_declaration
from .distance import HandCode, distance, effective_draws, set_limit
from .equity import after_loss, after_win, equity
from .fitted import FITS, ThrowState, predict, throw_features
from .policies import HardPolicy, _discard, _draw_action, _throwable
from .reference_opponent import deadwood_candidates, expected_after_draw, take_by_expectation
from .shape import shape_cost
from .tracking import Tracker

HORIZON = 16  # own turns looked ahead by the chip value
_LIFE_PROBE_ID = 3_100_000  # the imagined card of `ExpertPolicy.life_pay`


class ThrowValue(NamedTuple):
    """One candidate throw as the expert judged it (the review shows these figures)."""

    chips: float  # expected chips after the throw
    card: Card
    race: Race  # chances of going out first / of an opponent going out first
    distance: int  # draws the kept 13 still need to declare
    good: int  # unseen copies that would bring them a step closer
    points: int  # the kept 13's penalty: what an opponent's declaration would cost now
    features: tuple[float, ...] = ()  # `fitted.throw_features` of the position after it


class ExpertPolicy(HardPolicy):
    """See the module docstring. Tunable weights are class attributes (duplicate.py sets them
    with `expert@name=value` to compare variants on the same cards)."""

    ukeire_candidates = 4  # throws ranked by distance whose effective draws are counted (as hard)
    pay_candidates = 2  # ... plus the throws that keep the least penalty (distance <= best+1)
    gain_each = 40.0  # chips one opponent pays when this seat declares (hard vs hard: 42.5)
    pay_decay = 0.92  # a loss k rounds ahead costs the penalty held now times this ** k
    chips_per_turn = 3.0  # what one turn of progress is worth, in chips ("turns" model)
    soon_rounds = 3  # the points held are at risk of an opponent declaring this many rounds
    draw_model = "deadwood"  # the reference's expectation; "hard": hard's rule;
    # "either": take when either rule would
    take_gain = 1.0  # "deadwood" draw: the take must beat a stock draw's mean by this many points
    # Drops: margins from `benchmarks/drop_calibration.py` (docs/ai.md, "Drop calibration").
    drop_margin = 4.0  # chips playing on must lose beyond the drop's cost before it drops
    middle_drop_margin = 4.0  # the same for a later (middle) drop
    drop_min_distance = 2  # hands this close to a declaration are never valued for a drop
    drop_sees_take = True  # value playing on as the turn would be played (see drop_estimate)
    pool_equity = True  # in a pool match, drop by the chance of winning the match (`equity.py`)
    pool_drop_margin = 0.0  # ... when dropping leaves this much more of that chance
    # Measured and off (figures in docs/ai.md, "What was tried"); kept so that each can be
    # tried again on the same cards.
    throw_model = "turns"  # "turns": hard's turns + points at risk soon; "race": chips.race;
    # "fitted": `fitted.predict` with `fitted_weights` (fitted from play; see fitted.py);
    # "deadwood": the reference's expected deadwood after the next draw, blended below
    deadwood_chips = 1.0  # chips per point of expected deadwood after the next draw ...
    deadwood_soon = 0.0  # ... plus this many times the chance of losing soon (`lose_soon`)
    deadwood_risk = 0.0  # ... plus this times the "turns" model's points at risk soon
    deadwood_turns = 0.0  # ... plus this times the "turns" model's turns term
    fitted_weights: tuple[float, ...] | str = "full"  # a name in `fitted.FITS`, or weights
    fitted_gap = 0.0  # chips: the fitted model settles the best two when closer than this
    turn_value = "fixed"  # "fixed": chips_per_turn; "hazard": see `turn_chips`
    closeness_model = "hand"  # "hand": closeness.py's hand-set hazard; "fitted": its
    # logistic fit (`Closeness.fitted_hazard`, better calibrated, not better played)
    hazard_scale = 1.0  # the hand-set hazard times this
    turns_horizon = 0.0  # "turns" model: 0 prices every turn alike; H > 0 saturates the
    # turns at about H (`delay_turns`)
    deadwood_distance = 0  # "turns" model: when the best throw leaves the hand this many
    # draws from declaring or fewer, the throw is valued as `throw_model = "deadwood"` values
    # it (its candidates and blend), so the expectation is paid for only near a declaration
    race_distance = 0  # "turns" model: when the best throw leaves the hand this many draws
    # from declaring or fewer, every candidate is valued by `chips.race` instead
    life_weight = 0.0  # "turns" model: a kept 13 with no pure sequence pays its full count,
    # capped, whatever is thrown; with this on, its points at risk are lowered by this times
    # the chance that a life (a face completing a pure three) is drawn within `soon_rounds`
    # turns times what the hand would pay then (`life_pay`)
    take_for_points = False  # with hard's draw rule, also take a same-distance card to hold
    # fewer points ...
    take_soon_min = 0.15  # ... once some opponent may declare soon with this chance
    take_margin_chips = 1.0  # ... and the take saves this many chips in the "turns" model

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
        take = self._expert_take(obs, tracker, opps)
        if ActionKind.DROP in kinds and self._expert_drop(obs, tracker, opps, take):
            return kinds[ActionKind.DROP][0]
        return _draw_action(obs, kinds, take)

    def closeness(self, obs: Observation) -> list[Closeness]:
        """Every opponent's closeness to a declaration, by `closeness_model`."""
        opps = opponents(obs)
        if self.closeness_model == "fitted":
            return [replace(o, fitted=True) for o in opps]
        if self.hazard_scale != 1.0:
            return [replace(o, scale=self.hazard_scale) for o in opps]
        return opps

    # -- draw ---------------------------------------------------------------------------------

    def _expert_take(self, obs: Observation, t: Tracker, opps: Sequence[Closeness]) -> bool:
        """By `draw_model`: the reference's expected deadwood (the default), or hard's rule
        (take a card that brings the hand a step closer, is wild or declares), or either of
        the two. With hard's rule and `take_for_points`, also a card that keeps the distance
        but lets a heavier card go once an opponent may be close: in the "turns" model's
        chips, taking it spends this turn's draw (one turn more, at `turn_chips`) and holds
        fewer points at risk soon."""
        top = obs.top_discard
        if self.draw_model in ("deadwood", "either"):
            if top is None:
                return False
            if self.draw_model == "either" and self._distance_take(obs, t):
                return True
            return take_by_expectation(obs, top, Counter(t.unseen_faces()), self.take_gain)
        if self._distance_take(obs, t):
            return True
        if not self.take_for_points or top is None or self._race(obs):
            return False
        soon = self.lose_soon(opps)
        if soon < self.take_soon_min:
            return False
        rules, wr, hand = obs.rules, obs.wild_rank, obs.hand
        pay_now = float(evaluate_hand(hand, rules, wr).penalty)
        if pay_now <= top.face.value:
            return False  # nothing heavier to let go
        set_max = set_limit(rules)
        unseen = Counter(t.unseen_faces())
        total = sum(unseen.values()) or 1
        code = HandCode.of(hand, rules, wr)
        d = distance(code, set_max)
        _, good = effective_draws(code, unseen, rules, wr, set_max, now=d)
        taken = self.throw_values(obs, t, opps, hand=[*hand, top], forbidden=top)
        if not taken:
            return False
        best = taken[0]  # the throw it would make after the take
        if best.distance > d:
            return False
        stock = self.turn_chips(opps, pay_now) * self._turns(d, good, total) + soon * pay_now
        pay = float(best.points)
        take = (
            self.turn_chips(opps, pay) * (1.0 + self._turns(best.distance, best.good, total))
            + soon * pay
        )
        return stock - take > self.take_margin_chips

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
        terms: dict[Face, tuple[float, float]] = {}  # shape cost and feed danger of a throw
        for c in cands:
            rest_code = code.minus(c.face, rules.is_wild(c.face, wr))
            d = distance(rest_code, set_max)
            rest = [x for x in hand if x.id != c.id]
            danger = self._danger(obs, t, c)
            shape = shape_cost(rest, rules, wr, live)
            extra = self.shape_turns * shape + danger / self.points_per_turn
            quick.append((d, extra, -c.face.value, c, rest_code))
            terms[c.face] = (shape, danger)
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
        deadwood = self.throw_model == "deadwood" or (
            self.throw_model == "turns"
            and self.deadwood_distance > 0
            and best_d <= self.deadwood_distance
        )
        if deadwood:  # the reference's candidates too: the few best by the engine's deadwood
            for c in deadwood_candidates(hand, cands, obs, forbidden):
                if all(q[3].face != c.face for q in chosen):
                    chosen += [q for q in quick if q[3].face == c.face][:1]
        soon = self.lose_soon(opps)
        state = ThrowState(soon, self.lose_soon(opps, 1), min(1.0, len(obs.pile_history) / 30))
        out = []
        for d, extra, _, c, rest_code in chosen:
            _, good = effective_draws(rest_code, unseen, rules, wr, set_max, now=d)
            finish = finish_chances(d, first_step_rate(good, total, extra), HORIZON)
            points = pen.get(c.face, 0)
            pay = 0.0 if void_race else float(points)
            r = race(finish, pay, opps, self.gain_each, self.pay_decay, me_first=False)
            turns = self._turns(d, good, total)
            feats = throw_features(state, d, good, total, turns, pay, *terms[c.face], r.chips)
            if self.throw_model == "race":
                chips = r.chips
            elif self.throw_model == "fitted":
                w = self.fitted_weights
                chips = predict(feats, FITS[w] if isinstance(w, str) else w)
            elif deadwood:
                rest = [x for x in hand if x.id != c.id]
                expect, _ = expected_after_draw(rest, unseen, obs)
                chips = (
                    -(self.deadwood_chips + self.deadwood_soon * soon) * expect
                    - self.deadwood_risk * soon * pay
                    - self.deadwood_turns * self.turn_chips(opps, pay) * (turns + extra)
                )
            else:  # hard's turns at a price in chips, plus the points held at risk soon
                at_risk = pay
                if self.life_weight and pay > 0:
                    rest = [x for x in hand if x.id != c.id]
                    at_risk = self.life_pay(rest, pay, unseen, total, obs)
                delay = self.delay_turns(turns + extra)
                chips = -self.turn_chips(opps, pay) * delay - soon * at_risk
            out.append(ThrowValue(chips, c, r, d, good, points, feats))
        if (
            self.race_distance > 0
            and self.throw_model == "turns"
            and out
            and min(v.distance for v in out) <= self.race_distance
        ):
            out = [v._replace(chips=v.race.chips) for v in out]
        out.sort(key=lambda v: (-v.chips, -v.card.face.value, v.card.id))
        return out

    def delay_turns(self, turns: float) -> float:
        """The "turns" model's delay, in turns, of a hand `turns` from a declaration. Linear
        by default (`turns_horizon = 0`); with a horizon H, `H * (1 - exp(-turns / H))`: the
        same price for the first turn, less for each later one, as the chance of still being
        first to declare falls by about `exp(-1 / H)` a turn (an opponent declaring at `1/H`
        a turn), so a turn beyond the deal's likely end costs little. Points kept then weigh
        more against the effective draws (tenpai on a low card rather than a high pair)."""
        h = self.turns_horizon
        if h <= 0:
            return turns
        return h * (1.0 - math.exp(-turns / h))

    def life_pay(
        self, kept: Sequence[Card], pay: float, unseen: Counter[Face], total: int, obs: Observation
    ) -> float:
        """The points at risk of `kept` (13 cards paying `pay`) with the first life priced in:
        a hand with no pure sequence pays its full count (capped) whatever it throws, so the
        penalty alone cannot tell a hand one draw from its life from a hopeless one. Each
        unseen face that would complete a pure three (`has_pure_triple`) would bring the
        payment down to the best 13 after drawing it (`evaluate_drawn`, the drawn card kept);
        those faces' live copies give a per-turn chance of drawing one (two looks a turn, as
        `first_step_rate`) and so the chance `q` of a life within `soon_rounds` turns. The
        points at risk are `pay - life_weight * q * (pay - mean payment with the life)`.
        A hand that holds a pure sequence already is returned as `pay`."""
        naturals = [x for x in kept if not x.face.is_joker]
        if has_pure_triple(naturals):
            return pay
        rules, wr = obs.rules, obs.wild_rank
        outs = 0
        paid = 0.0
        for face, n in unseen.items():
            if n <= 0 or face.is_joker:
                continue
            probe = Card(_LIFE_PROBE_ID, face)
            if not has_pure_triple([*naturals, probe]):
                continue
            after = evaluate_drawn([*kept, probe], rules, wr, forbidden=probe).best.penalty
            outs += n
            paid += n * min(pay, float(after))
        if outs == 0:
            return pay
        per_turn = first_step_rate(outs, total)
        q = 1.0 - (1.0 - per_turn) ** self.soon_rounds
        return pay - self.life_weight * q * (pay - paid / outs)

    def turn_chips(self, opps: Sequence[Closeness], pay: float) -> float:
        """What one turn of delay costs in chips. `turn_value = "fixed"`: `chips_per_turn`.
        `"hazard"`: the chance that some opponent declares in the coming round times what is
        at stake when the race is decided (what the others pay me, or what I pay), never
        below `chips_per_turn`."""
        if self.turn_value != "hazard":
            return self.chips_per_turn
        none = 1.0
        for o in opps:
            none *= 1.0 - o.hazard(0)
        stake = self.gain_each * len(opps) + pay
        return max(self.chips_per_turn, (1.0 - none) * stake)

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
        if (
            self.fitted_gap > 0
            and len(values) >= 2
            and values[0].chips - values[1].chips < self.fitted_gap
        ):
            w = self.fitted_weights
            weights = FITS[w] if isinstance(w, str) else w
            if predict(values[1].features, weights) > predict(values[0].features, weights):
                values[0], values[1] = values[1], values[0]
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
        """Expected chips of playing on, as the drop rule weighs them. With `drop_sees_take`
        the turn is valued as the expert's own draw rule (`draw_model`) would play it: when
        that rule would take the open card, the value after taking it and making the best
        throw (a hand that the pile card improves is not as bad as its 13 cards say);
        otherwise `play_on_value`. It was first measured with hard's draw rule. `take` is
        that rule's answer when the caller has it already."""
        top = obs.top_discard
        if not self.drop_sees_take or top is None:
            return self.play_on_value(obs, t, opps)
        if take is None:
            take = self._expert_take(obs, t, opps)
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
