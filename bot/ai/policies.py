"""The three AI tiers: `easy`, `medium` and `hard`, registered in `bot.engine.policy.POLICIES`.

Each tier is a `Policy`: `act(obs)` reads one `Observation` (the seat's own hand and public
facts, never another hand or the stock) and returns one of `obs.legal_actions`. The tiers are
meant to be honestly different in strength:

* `EasyPolicy` plays like a beginner who knows the rules: keeps pairs and side-by-side
  cards, throws high lone cards, picks up from the pile only a wild card, often throws
  carelessly, never drops, declares whenever the engine says it can. No evaluator search, no
  card counting, no plan for the pure sequence.
* `MediumPolicy` is greedy on the engine, exactly as the tier is specified: for every possible
  throw it asks the evaluator for the deadwood of the remaining 13 (`evaluate_drawn`) and
  throws the card that leaves the least, each live completion (an unseen copy that would
  finish a three-card group) counting 1.5 points in its favour, so near-ties go to the most
  live completions; it takes the discard only when it is wild, completes a group (or a
  declaration) or clearly lowers the deadwood (never a face it threw itself this deal),
  keeps wild cards, declares when valid, and drops a hopeless opening hand when the drop
  costs less than the likely loss. It has no structural plan beyond that.
* `HardPolicy` races to a declaration the way mahjong programs do: it measures every hand by
  its *distance* (how many draws it still needs to become a valid declaration under the
  two-lives rule) and its *effective draws* (how many unseen copies, counted exactly face by
  face, would bring it a step closer; `distance.py`). A throw is judged by the turns it is
  expected to leave until a declaration (the next step takes `unseen / effective draws` stock
  draws on average, later steps about `step_turns` each), plus what it may feed the next
  player (card tracking in `tracking.py`: what they took, threw and let pass, and the chance
  they hold a pair the card completes, judged from which neighbours are still unseen), with
  the structural score of `shape.py` and the engine's deadwood as small tie-breaks (deadwood
  weighs more late in the deal, when the hand may be caught holding it). It takes the discard
  when it lowers the distance, is wild or declares at once (a card that leaves the distance
  as it is never beats a stock draw, which keeps its chance of a step). Near the end of a
  stock that voids the deal it stops caring about deadwood. It drops a hopeless opening hand
  by medium's rule. (Its older plan, a structural score and sampled rollouts, was removed in
  issue 38: the distance plan replaced it, and no tier ran it any more.)

Determinism: a policy's only randomness is the `random.Random` given to its factory; only easy
draws from it while playing. Medium, hard and expert are functions of the observation alone, so
the same observation always gets the same answer whatever happened before (the adapter
rebuilds policies per move).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Card, Face
from bot.engine.evaluate import evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation
from bot.engine.policy import register_policy
from bot.engine.quickcheck import has_pure_triple, may_declare
from bot.engine.rules import Rules, StockExhausted

from .common import (
    by_kind,
    completes_group,
    discard_choices,
    distinct_faces,
    non_wild,
    pure_partials,
    safe_declaration,
)
from .distance import HandCode, distance, effective_draws, set_limit
from .shape import shape_cost
from .tracking import Tracker


def _draw_action(obs: Observation, kinds: dict[ActionKind, list[Action]], take: bool) -> Action:
    """Take the discard or draw from the stock, falling back to whichever is legal."""
    stock = kinds.get(ActionKind.DRAW_STOCK)
    pile = kinds.get(ActionKind.TAKE_DISCARD)
    if take and pile:
        return pile[0]
    if stock:
        return stock[0]
    if pile:
        return pile[0]
    return obs.legal_actions[0]  # only drop (or declare) is left


def _discard(obs: Observation, card: Card) -> Action:
    return Action.discard(obs.seat, card.id)


def _throwable(obs: Observation) -> list[Card]:
    """Distinct-face discard candidates, wild cards only when nothing else may go."""
    choices = discard_choices(obs)
    return distinct_faces(non_wild(choices, obs.rules, obs.wild_rank) or choices)


# ---- easy -------------------------------------------------------------------------------------


class EasyPolicy:
    """A beginner: keeps obvious pairs and neighbours, throws high lone cards.

    It sees only *obvious* links: two cards of one rank, or two cards of one suit side by
    side (7-8, not 7-9), never the evaluator's arrangement, and it does not plan for the pure
    sequence a declaration needs. It takes the discard only when it is wild (it does not
    read the pile for sets or runs), and often (`sloppiness`) throws a card it
    should have kept. It never drops. It declares whenever a declaration is certainly valid.
    """

    def __init__(self, rng: random.Random, sloppiness: float = 0.45) -> None:
        self.rng = rng
        self.sloppiness = sloppiness

    def act(self, obs: Observation) -> Action:
        kinds = by_kind(obs)
        declare = safe_declaration(obs, kinds)
        if declare is not None:
            return declare
        if ActionKind.DISCARD not in kinds:
            top = obs.top_discard
            take = top is not None and obs.rules.is_wild(top.face, obs.wild_rank)
            return _draw_action(obs, kinds, take)
        return _discard(obs, self._choose_discard(obs))

    def _choose_discard(self, obs: Observation) -> Card:
        choices = discard_choices(obs)
        cands = non_wild(choices, obs.rules, obs.wild_rank) or choices
        hand = obs.hand

        def links(c: Card) -> int:
            return sum(1 for o in hand if o.id != c.id and obvious_link(c.face, o.face))

        if self.rng.random() < self.sloppiness:
            return self.rng.choice(cands)
        fewest = min(links(c) for c in cands)
        pool = [c for c in cands if links(c) == fewest]
        top_value = max(c.face.value for c in pool)
        return self.rng.choice([c for c in pool if c.face.value == top_value])


def obvious_link(a: Face, b: Face) -> bool:
    """A beginner's link: same rank (any suit), or same suit and adjacent rank."""
    if a.is_joker or b.is_joker:
        return False
    if a.rank == b.rank:
        return True
    return a.suit == b.suit and abs(a.rank - b.rank) == 1


# ---- medium -----------------------------------------------------------------------------------


class MediumPolicy:
    """Greedy, one decision at a time, on the engine's evaluation (see the module docstring).

    A hand's score is the engine's real deadwood (`evaluate_hand` / `evaluate_drawn`) minus a
    small bonus per *live completion*: every copy of a face, not yet seen by this seat, that
    would finish a three-card group with two cards it holds (`live_completions`). Medium counts
    only cards it can see (its hand, the pile, the indicator, cards it watched an opponent
    take); it does not read opponents' intentions, plan the shape of the hand or look ahead.
    """

    completion_weight = 1.5  # deadwood points one live completing copy is worth
    take_margin = 3  # a take must lower the deadwood by more than this (a stock draw helps too)
    loss_share = 0.6  # expected share of the penalty a hopeless opening hand ends up paying

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Action:
        kinds = by_kind(obs)
        declare = safe_declaration(obs, kinds)
        if declare is not None:
            return declare
        tracker = Tracker.from_observation(obs)
        if ActionKind.DISCARD in kinds:
            return _discard(obs, self._best_discard(obs, tracker))
        if ActionKind.DROP in kinds and self._should_drop(obs):
            return kinds[ActionKind.DROP][0]
        return _draw_action(obs, kinds, self._should_take(obs, tracker))

    def _score(self, obs: Observation, deadwood: int, rest: Sequence[Card], t: Tracker) -> float:
        live = live_completions(rest, obs.rules, obs.wild_rank, t)
        return deadwood - self.completion_weight * live

    def _best_of(
        self, obs: Observation, hand: Sequence[Card], forbidden: Card | None, t: Tracker
    ) -> tuple[Card, float]:
        """The throw from `hand` (14 cards) leaving the best score, and that score."""
        rules, wr = obs.rules, obs.wild_rank
        ev = evaluate_drawn(hand, rules, wr, forbidden=forbidden)
        options = [(c, e) for c, e in ev.by_discard if not rules.is_wild(c.face, wr)]
        best: tuple[float, int, int, Card] | None = None
        for card, e in options or list(ev.by_discard):  # wild cards only if nothing else
            rest = [c for c in hand if c.id != card.id]
            key = (self._score(obs, e.deadwood, rest, t), -card.face.value, card.id, card)
            if best is None or key[:3] < best[:3]:
                best = key
        assert best is not None
        return best[3], best[0]

    def _best_discard(self, obs: Observation, t: Tracker) -> Card:
        card, _ = self._best_of(obs, obs.hand, obs.taken, t)
        legal = {c.id for c in discard_choices(obs)}
        if card.id in legal:
            return card
        # evaluate_drawn names one physical card per face; throw a legal copy of it.
        return next(c for c in obs.hand if c.face == card.face and c.id in legal)

    def _should_take(self, obs: Observation, t: Tracker) -> bool:
        """Take the discard only when it is wild, completes a group (or a declaration), or
        lowers the engine's deadwood. Never take back a face this seat threw this deal: two
        greedy players would otherwise pass the same cards back and forth for ever."""
        top = obs.top_discard
        if top is None:
            return False
        rules, wr, hand = obs.rules, obs.wild_rank, obs.hand
        if rules.is_wild(top.face, wr) or _declares_with(obs, top):
            return True
        if any(e.discarded_by == obs.seat and e.card.face == top.face for e in obs.pile_history):
            return False
        if completes_group(top.face, hand, rules, wr):
            return True
        now = evaluate_hand(hand, rules, wr).deadwood
        after = evaluate_drawn([*hand, top], rules, wr, forbidden=top).best.deadwood
        return after < now - self.take_margin

    def _should_drop(self, obs: Observation) -> bool:
        """Drop the opening hand when it has no credible pure sequence and dropping is cheaper
        than the loss such a hand usually ends with."""
        if obs.drop_cost is None or obs.drop_cost != obs.rules.first_drop:
            return False  # only the cheap first drop; later the hand has had its chances
        return hopeless_opening(obs, self.loss_share)


def live_completions(hand: Sequence[Card], rules: Rules, wild_rank: int | None, t: Tracker) -> int:
    """Unseen copies of natural faces that would complete a three-card group in `hand`."""
    total = 0
    for face, live in t.live_standard():
        if (
            live
            and not rules.is_wild(face, wild_rank)
            and completes_group(face, hand, rules, wild_rank)
        ):
            total += live
    return total


def hopeless_opening(obs: Observation, loss_share: float) -> bool:
    rules, wr, hand = obs.rules, obs.wild_rank, obs.hand
    if has_pure_triple([c for c in hand if not c.face.is_joker]):
        return False
    wilds = sum(1 for c in hand if rules.is_wild(c.face, wr))
    partials = pure_partials(hand, rules, wr)
    if partials >= 2 or (partials >= 1 and wilds >= 1):
        return False
    expected_loss = loss_share * evaluate_hand(hand, rules, wr).penalty
    return obs.drop_cost is not None and obs.drop_cost < expected_loss


# ---- hard -------------------------------------------------------------------------------------


class HardPolicy:
    """Distance to a declaration and effective draws, discard safety, card tracking.

    Its thinking is budgeted in work, not time: every throw's distance, then exact effective
    draws (one distance per distinct unseen face) for the `ukeire_candidates` best throws.
    Nothing on the decision path reads a clock or draws a random number, so an observation
    gives the same decision on an idle machine and on an overloaded one; the counts are sized
    so a decision stays within ~100 ms at p95 on a small shared machine (`bench_ai.py`).
    """

    danger_weight = 2.5  # penalty points per unit of the next player's interest in a card
    feed_weight = 16.0  # points (about two turns of progress) times the chance a throw is usable
    step_turns = 12.0  # turns one later step costs: distance first (5 and 8 measured worse)
    ukeire_candidates = 4  # throws whose effective draws are counted (best by distance first)
    points_per_turn = 8.0  # the feed danger is in penalty points; a turn is worth about 8
    shape_turns = 0.01  # structural score (penalty points) as a tie-break between throws
    deadwood_turns = 0.01  # engine deadwood kept, early in the deal ...
    late_deadwood_turns = 0.05  # ... and added once the pile holds `late_pile` cards
    late_pile = 30

    def __init__(self, rng: random.Random) -> None:
        # Hard needs no randomness. It still takes the 64 bits its sampled plan (removed in
        # issue 38) took as a seed: a generator shared by several seats (`bot.simulate` hands
        # one to every policy of a match) then reaches the next seat in the state it always
        # did, and a seeded run plays as before.
        rng.getrandbits(64)

    def act(self, obs: Observation) -> Action:
        kinds = by_kind(obs)
        declare = safe_declaration(obs, kinds)
        if declare is not None:
            return declare
        tracker = Tracker.from_observation(obs)
        if ActionKind.DISCARD in kinds:
            return _discard(obs, self._distance_discard(obs, tracker))
        if ActionKind.DROP in kinds and self._should_drop(obs):
            return kinds[ActionKind.DROP][0]
        return _draw_action(obs, kinds, self._distance_take(obs, tracker))

    # -- pieces ----------------------------------------------------------------------------

    def _race(self, obs: Observation) -> bool:
        """Near the end of a stock that voids the deal, any valid declaration beats a void:
        stop caring about deadwood and only chase completion."""
        if obs.rules.effective_stock_exhausted is not StockExhausted.VOID:
            return False
        active = sum(1 for s in obs.seats if s.status == "active")
        return obs.stock_size <= 3 * max(2, active)

    def _danger(self, obs: Observation, t: Tracker, card: Card) -> float:
        """How much throwing `card` may help the next player (and, less, the others): what
        they showed they collect (`interest`) and how many pairs they may hold that the card
        completes (`feed_risk`: a card whose neighbours we can see is safe)."""
        if t.next_seat is None:
            return 0.0
        size = next((s.cards for s in obs.seats if s.seat == t.next_seat), 13)
        # Expected completable pairs -> chance that at least one is held.
        feed = self.feed_weight * (1.0 - math.exp(-t.feed_risk(card.face, size, obs.wild_rank)))
        danger = max(0.0, t.interest(t.next_seat, card.face))
        for seat in t.took:
            if seat not in (t.seat, t.next_seat):
                danger += 0.3 * max(0.0, t.interest(seat, card.face))
        return self.danger_weight * danger + feed

    # -- distance and effective draws -------------------------------------------------------

    def _turns(self, d: int, good: int, unseen: int) -> float:
        """Rough turns still needed to declare: the next step takes `unseen / good` draws on
        average (each stock card is a uniform pick among the unseen copies), every later step
        about `step_turns`."""
        if d <= 0:
            return 0.0
        return self.step_turns * (d - 1) + unseen / max(good, 0.5)

    def _distance_discard(self, obs: Observation, t: Tracker) -> Card:
        cands = _throwable(obs)
        if len(cands) == 1:
            return cands[0]
        return self._best_throw(obs, t, obs.hand, cands, obs.taken)[1]

    def _best_throw(
        self,
        obs: Observation,
        t: Tracker,
        hand: Sequence[Card],
        cands: Sequence[Card],
        forbidden: Card | None,
    ) -> tuple[float, Card]:
        """The throw from `hand` (14 cards) that leaves the fewest expected turns to a
        declaration (`_turns` of its distance and effective draws), plus the feed danger and
        small tie-breaks (structure, deadwood), and that value.

        Every throw's distance is computed; effective draws only for the best few by distance
        and the quick terms (counting them is the expensive part)."""
        rules, wr = obs.rules, obs.wild_rank
        set_max = set_limit(rules)
        live = t.live_table()
        unseen = Counter(t.unseen_faces())
        total = sum(unseen.values()) or 1
        race = self._race(obs)
        ev = evaluate_drawn(hand, rules, wr, forbidden=forbidden)
        dead = {c.face: e.deadwood for c, e in ev.by_discard}
        late = min(1.0, len(obs.pile_history) / self.late_pile)
        dw = 0.0 if race else self.deadwood_turns + late * self.late_deadwood_turns
        code = HandCode.of(hand, rules, wr)
        quick: list[tuple[int, float, int, Card, HandCode]] = []
        for c in cands:
            rest_code = code.minus(c.face, rules.is_wild(c.face, wr))
            d = distance(rest_code, set_max)
            rest = [x for x in hand if x.id != c.id]
            extra = (
                self.shape_turns * shape_cost(rest, rules, wr, live)
                + self._danger(obs, t, c) / self.points_per_turn
                + dw * dead.get(c.face, 0)
            )
            quick.append((d, extra, -c.face.value, c, rest_code))
        quick.sort(key=lambda q: (q[0], q[1], q[2], q[3].id))
        best: tuple[float, int, Card] | None = None
        for d, extra, neg_value, c, rest_code in quick[: self.ukeire_candidates]:
            _, good = effective_draws(rest_code, unseen, rules, wr, set_max, now=d)
            value = self._turns(d, good, total) + extra
            if best is None or (value, neg_value) < best[:2]:
                best = (value, neg_value, c)
        assert best is not None
        return best[0], best[2]

    def _distance_take(self, obs: Observation, t: Tracker) -> bool:
        """Take the discard when it brings the hand a step closer to a declaration (a stock
        card only does so with the chance its effective draws give), or when it is wild or
        declares at once. A card that leaves the distance as it is never beats a stock draw
        on the expected turns (the draw keeps its chance of a step), so it is left: a take
        also shows the table what the hand collects."""
        top = obs.top_discard
        if top is None:
            return False
        rules, wr, hand = obs.rules, obs.wild_rank, obs.hand
        if rules.is_wild(top.face, wr) or _declares_with(obs, top):
            return True
        set_max = set_limit(rules)
        code = HandCode.of(hand, rules, wr)
        return distance(code.plus(top.face, False), set_max) < distance(code, set_max)

    def _should_drop(self, obs: Observation) -> bool:
        if obs.drop_cost is None or obs.drop_cost != obs.rules.first_drop:
            return False
        return hopeless_opening(obs, MediumPolicy.loss_share)


def _declares_with(obs: Observation, top: Card) -> bool:
    """Would taking `top` let this seat declare at once (never throwing `top` itself)?"""
    drawn = [*obs.hand, top]
    if not may_declare(drawn, obs.rules, obs.wild_rank, spare=1):
        return False
    return evaluate_drawn(drawn, obs.rules, obs.wild_rank, forbidden=top).declarable


register_policy("easy", EasyPolicy)
register_policy("medium", MediumPolicy)
register_policy("hard", HardPolicy)
