"""AI tiers: legal and honest play in every profile, determinism, and a strength sanity check.

Runs are kept small (a capped number of steps per match, fixed seeds) so the whole file stays
within a few seconds per profile; the real strength figures come from `python -m bot.simulate`.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot.ai import make_policy
from bot.ai.common import completes_group, linked
from bot.ai.policies import EasyPolicy, HardPolicy, MediumPolicy
from bot.ai.shape import full_live, shape_cost
from bot.ai.tracking import Tracker
from bot.engine.actions import Action, ActionKind
from bot.engine.cards import Face, parse_cards
from bot.engine.deal import Deal
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import Observation
from bot.engine.policy import POLICIES, Policy
from bot.engine.rules import PROFILES, DeclarationMode, Rules, get_profile


def play(
    rules: Rules, tiers: list[str], seed: int, max_steps: int = 400, deals: int = 1
) -> tuple[Match, list[Action]]:
    """Play with `tiers` at the seats until `deals` deals end (or `max_steps`), checking that
    every chosen action is one of the legal actions and that the engine's invariants hold."""
    match = Match.create([f"P{i}" for i in range(len(tiers))], rules, seed=seed)
    policies: list[Policy] = [make_policy(t, seed * 10 + i) for i, t in enumerate(tiers)]
    actions: list[Action] = []
    for _ in range(max_steps):
        if match.phase is MatchPhase.OVER or len(match.results) >= deals:
            break
        if match.phase is MatchPhase.BETWEEN_DEALS:
            match.start_next_deal()
            continue
        deal = match.deal
        assert deal is not None
        obs = match.observation(deal.turn)
        action = policies[deal.turn].act(obs)
        assert action in obs.legal_actions, (rules.name, tiers[deal.turn], action)
        if action.kind is ActionKind.DECLARE:
            # AIs never make a wrong show, in honor mode either.
            assert obs.rules.declaration_mode is DeclarationMode.ASSISTED or _valid_show(
                deal, action
            )
        match.apply(action)
        actions.append(action)
        match.check_invariants()
    return match, actions


def _valid_show(deal: Deal, action: Action) -> bool:
    from bot.engine.evaluate import evaluate_hand

    shown = [c for c in deal.hands[action.seat] if c.id != action.card]
    return evaluate_hand(shown, deal.rules, deal.wild_rank).valid


# ---- legality across every profile ----------------------------------------------------------


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_tiers_play_legally_in_every_profile(profile: str) -> None:
    rules = get_profile(profile)
    for seed in range(2):
        play(rules, ["easy", "medium", "hard"], seed, max_steps=150)
    play(rules, ["easy", "medium"], 7, max_steps=200, deals=2)


def test_honor_mode_declarations_are_always_valid() -> None:
    for profile in ("points", "paplu"):
        rules = get_profile(profile).with_options(declaration_mode=DeclarationMode.HONOR)
        for seed in range(3):
            match, _ = play(rules, ["medium", "easy"], seed, max_steps=200)
            # Nobody was put out by a wrong show.
            assert all(c.basis.value != "wrong_show" for r in match.results for c in r.charges)


def test_classic_with_many_players() -> None:
    rules = get_profile("classic")
    play(rules, ["easy", "medium", "hard", "easy", "medium", "easy", "medium"], 3, max_steps=120)


def test_house_toggles() -> None:
    rules = get_profile("points").with_options(nothing_wild=True, no_packing=True)
    play(rules, ["medium", "hard"], 5, max_steps=120)
    rules = get_profile("pool101").with_options(no_reshuffle=True)
    play(rules, ["easy", "medium"], 6, max_steps=300)


def test_long_deal_to_the_end_of_the_stock() -> None:
    """Easy against a do-nothing opponent may run the stock out: reshuffles and voids work."""
    for profile in ("pool101", "points"):
        play(get_profile(profile), ["easy", "random"], 11, max_steps=400)


@pytest.mark.parametrize("tier", ["easy", "medium", "hard"])
def test_self_play_deals_end(tier: str) -> None:
    """Two players of one tier never pass the same cards back and forth for ever: every deal
    ends long before the stock could run out many times over."""
    rules = get_profile("points")
    for seed in range(4 if tier == "hard" else 12):
        match, _ = play(rules, [tier, tier], 300 + seed, max_steps=400)
        assert match.results, (tier, seed)


# ---- determinism and honesty -------------------------------------------------------------------


@pytest.mark.parametrize("tier", ["easy", "medium", "hard"])
def test_deterministic_for_a_seed(tier: str) -> None:
    rules = get_profile("points")
    _, a = play(rules, [tier, tier], 21, max_steps=60)
    _, b = play(rules, [tier, tier], 21, max_steps=60)
    assert a == b


def _observations(seed: int, steps: int) -> tuple[Match, Observation]:
    match = Match.create(["A", "B", "C"], "points", seed=seed)
    policies = [make_policy("medium", i) for i in range(3)]
    for _ in range(steps):
        deal = match.deal
        assert deal is not None and match.phase is MatchPhase.PLAYING
        match.apply(policies[deal.turn].act(match.observation(deal.turn)))
    deal = match.deal
    assert deal is not None
    return match, match.observation(deal.turn)


def _contains_state(value: Any, depth: int = 0) -> bool:
    if isinstance(value, (Match, Deal)):
        return True
    if depth > 3:
        return False
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(
            _contains_state(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)
        )
    if isinstance(value, (tuple, list)):
        return any(_contains_state(v, depth + 1) for v in value)
    return False


@pytest.mark.parametrize("steps", [0, 7, 20])
def test_hard_is_a_function_of_the_observation_alone(steps: int) -> None:
    """Changing every hidden card (other hands, stock order) leaves the observation, and so the
    hard policy's choice, unchanged; the observation carries no reference to the match."""
    match, obs = _observations(5, steps)
    assert not _contains_state(obs)
    choice = HardPolicy(random.Random(1)).act(obs)
    deal = match.deal
    assert deal is not None
    # Shuffle the hidden cards: the other seats' hands and the stock, between each other.
    me = obs.seat
    hidden = [c for s, h in deal.hands.items() if s != me for c in h] + deal.stock
    random.Random(99).shuffle(hidden)
    for s in deal.hands:
        if s != me:
            n = len(deal.hands[s])
            deal.hands[s], hidden = hidden[:n], hidden[n:]
    deal.stock = hidden
    obs2 = match.observation(me)
    assert obs2 == obs
    assert HardPolicy(random.Random(1)).act(obs2) == choice
    # The same policy object asked twice gives the same answer (no memory between calls).
    policy = HardPolicy(random.Random(1))
    assert policy.act(obs) == policy.act(obs) == choice


def test_hard_decides_the_same_under_a_slow_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard's budget is counted in work, not seconds: with a clock that jumps ahead a whole
    second on every reading and on every evaluation (an overloaded machine, or an evaluator
    a thousand times slower), every decision is the one it makes at normal speed. A wall-clock
    cut-off, as hard once had, would stop early and choose differently."""
    import time

    import bot.ai.policies as policies_module

    observations = [_observations(seed, steps)[1] for seed in (5, 8) for steps in (0, 3, 8, 15)]
    expected = [HardPolicy(random.Random(3)).act(obs) for obs in observations]

    now = [0.0]

    def slow_clock() -> float:
        now[0] += 1.0
        return now[0]

    def slowly(fn: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            now[0] += 1.0
            return fn(*args, **kwargs)

        return wrapped

    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, slow_clock)
    for name in ("evaluate_hand", "evaluate_drawn", "shape_cost", "distance", "effective_draws"):
        monkeypatch.setattr(policies_module, name, slowly(getattr(policies_module, name)))
    got = [HardPolicy(random.Random(3)).act(obs) for obs in observations]
    assert now[0] > 100  # the clock really did run fast
    assert got == expected


def test_tiers_are_listed_once() -> None:
    from bot.ai import TIERS

    assert TIERS == ("easy", "medium", "hard", "expert")
    for tier in TIERS:
        assert hasattr(make_policy(tier, 1), "act")
    with pytest.raises(ValueError, match="easy, medium, hard, expert"):
        make_policy("grandmaster", 1)


def test_make_policy_refuses_unknown_tiers() -> None:
    with pytest.raises(ValueError, match="unknown AI tier"):
        make_policy("grandmaster", 1)
    for tier in ("easy", "medium", "hard", "random"):
        assert tier in POLICIES
        assert hasattr(make_policy(tier, 1), "act")


# ---- behaviour on hand-made positions ----------------------------------------------------------


def test_shape_prefers_progress() -> None:
    rules = get_profile("points")
    live = full_live(rules, 2)
    valid = parse_cards("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C")
    near = parse_cards("4H 5H 6H 9S 10S JK 7C 7D KS AC 2C QC 4C")
    junk = parse_cards("KS KD 2H 9C 4D QH 6S JD 3C 8H AS 5D 10C")
    assert shape_cost(valid, rules, 8, live) < shape_cost(near, rules, 8, live)
    assert shape_cost(near, rules, 8, live) < shape_cost(junk, rules, 8, live)


def test_links_and_completions() -> None:
    rules = get_profile("points")
    hand = parse_cards("7H 8H KS KD 2C")
    assert completes_group(Face.parse("9H"), hand, rules, None)
    assert completes_group(Face.parse("6H"), hand, rules, None)
    assert completes_group(Face.parse("KC"), hand, rules, None)
    assert not completes_group(Face.parse("KS"), hand, rules, None)  # same suit: no set
    assert not completes_group(Face.parse("3C"), hand, rules, None)
    assert linked(Face.parse("QS"), Face.parse("AS"))  # Q-K-A
    assert not linked(Face.parse("KS"), Face.parse("2S"))  # no wrapping


def test_tracker_counts_copies_and_pile_takes() -> None:
    _, obs = _observations(5, 30)  # a seed whose deal runs 30 steps, with pile takes
    t = Tracker.from_observation(obs)
    for _face, live in t.live_standard():
        assert 0 <= live <= 2
    in_hand = {c.face for c in obs.hand}
    for f in in_hand:
        if not f.is_joker:
            assert t.live_count(f) <= 1
    total_unseen = len(t.unseen_faces())
    known = len(obs.hand) + len(obs.pile) + 1 + sum(sum(h.values()) for h in t.holds.values())
    assert total_unseen == 106 - known


def _obs_for(hand: str, top: str, draw: str | None = None) -> Observation:
    """A real observation whose seat holds exactly `hand`, with `top` on the pile (threes
    wild); with `draw`, the seat has just drawn that card from the stock."""
    rules = get_profile("points")
    match = Match.create(["A", "B"], rules, seed=1)
    deal = match.deal
    assert deal is not None
    seat = deal.turn
    wanted = [Face.parse(t) for t in hand.split()] + [Face.parse(top)]
    if draw is not None:
        wanted.append(Face.parse(draw))
    pool = {c.id: c for c in deal.deck}
    chosen = []
    for f in wanted:
        cid = next(i for i, c in pool.items() if c.face == f)
        chosen.append(pool.pop(cid))
    others = [c for c in deal.deck if c.id in pool]
    indicator = next(c for c in others if c.face == Face.parse("3D"))
    others.remove(indicator)
    deal.indicator = indicator
    n = len(hand.split())
    deal.hands[seat] = chosen[:n]
    deal.hands[deal.next_seat(seat)] = others[:13]
    deal.pile = [chosen[n]]
    deal.pile_log[0].card = chosen[n]
    deal.stock = others[13:] + chosen[n + 1 :]
    deal.check_invariants()
    if draw is not None:
        match.apply(Action.draw_stock(seat))
    return match.observation(seat)


@pytest.mark.parametrize("cls", [MediumPolicy, HardPolicy])
def test_takes_a_discard_that_completes_a_run(cls: type) -> None:
    obs = _obs_for("7H 8H KS KD 2C 5S 9D JC QD 4C AH 10S 6D", "9H")
    assert cls(random.Random(0)).act(obs).kind is ActionKind.TAKE_DISCARD


@pytest.mark.parametrize("cls", [MediumPolicy, HardPolicy])
def test_takes_a_third_card_for_a_pair(cls: type) -> None:
    obs = _obs_for("7H 8H KS KD 2C 5S 9D JC QD 4C AH 10S 6D", "KH")
    assert cls(random.Random(0)).act(obs).kind is ActionKind.TAKE_DISCARD


@pytest.mark.parametrize("top", ["9H", "KH"])
def test_easy_takes_only_wild_cards_from_the_pile(top: str) -> None:
    obs = _obs_for("7H 8H KS KD 2C 5S 9D JC QD 4C AH 10S 6D", top)
    assert EasyPolicy(random.Random(0)).act(obs).kind is ActionKind.DRAW_STOCK
    wild = _obs_for("7H 8H KS KD 2C 5S 9D JC QD 4C AH 10S 6D", "3S")  # threes are wild
    assert EasyPolicy(random.Random(0)).act(wild).kind is ActionKind.TAKE_DISCARD


@pytest.mark.parametrize("cls", [EasyPolicy, MediumPolicy, HardPolicy])
def test_keeps_wild_cards_and_groups(cls: type) -> None:
    obs = _obs_for("7H 8H 9H 4S 5S 6S 3C JK 2D 2C 2S 9C KC", "10D", draw="JD")
    action = cls(random.Random(0)).act(obs)
    assert action.kind is ActionKind.DISCARD
    thrown = next(c for c in obs.hand if c.id == action.card).face.code
    assert thrown in {"KC", "JD", "9C"}, thrown


@pytest.mark.parametrize("cls", [EasyPolicy, MediumPolicy, HardPolicy])
def test_declares_when_it_can(cls: type) -> None:
    obs = _obs_for("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 4C KD", "QD", draw="3C")
    action = cls(random.Random(0)).act(obs)
    assert action.kind is ActionKind.DECLARE


# ---- strength sanity -------------------------------------------------------------------------


def _wins(a: str, b: str, deals: int, profile: str = "points") -> float:
    """Deal win share of tier `a` heads-up against `b`, alternating who sits first."""
    rules = get_profile(profile)
    won = 0
    for i in range(deals):
        tiers = [a, b] if i % 2 == 0 else [b, a]
        match, _ = play(rules, tiers, 1000 + i, max_steps=400)
        winner = match.results[-1].winner if match.results else None
        if winner is not None and tiers[winner] == a:
            won += 1
    return won / deals


def test_medium_beats_random() -> None:
    assert _wins("medium", "random", 40) >= 0.8


def test_easy_beats_random() -> None:
    assert _wins("easy", "random", 40) >= 0.8


def test_feed_risk_falls_when_the_neighbours_are_seen() -> None:
    """A card whose neighbours are dead (in our hand or on the pile) is a safe throw."""
    risky = _obs_for("2C 5S 9D JC QD 4C AH 10S 6D KS KD 3H 4H", "QS")
    safe = _obs_for("7H 8H 6H 9H 5H 7S 7D 7C AH 10S 6D KS 3H", "QS")
    seven = Face.parse("7C")
    r1 = Tracker.from_observation(risky).feed_risk(seven, 13, risky.wild_rank)
    r2 = Tracker.from_observation(safe).feed_risk(seven, 13, safe.wild_rank)
    assert r2 < r1
    assert Tracker.from_observation(risky).feed_risk(Face.parse("JK"), 13, None) == 0.0


# ---- hard: distance to a declaration ---------------------------------------------------------


def _distance_of(obs: Observation, cards: list[Any]) -> int:
    from bot.ai.distance import HandCode, distance, set_limit

    return distance(HandCode.of(cards, obs.rules, obs.wild_rank), set_limit(obs.rules))


def test_hard_draws_from_the_stock_when_the_discard_brings_it_no_closer() -> None:
    obs = _obs_for("7H 8H KS KD 2C 5S 9D JC QD 4C AH 10S 6D", "2S")
    top = obs.top_discard
    assert top is not None
    now = _distance_of(obs, list(obs.hand))
    assert _distance_of(obs, [*obs.hand, top]) == now  # the 2S helps nothing
    assert HardPolicy(random.Random(0)).act(obs).kind is ActionKind.DRAW_STOCK


def test_hard_throws_keep_the_hand_as_close_as_any_throw_would() -> None:
    """Over real positions, hard's throw leaves the fewest draws to a declaration that any
    legal throw leaves (it may give up one step only for far more effective draws: rare)."""
    from bot.ai.common import discard_choices

    same = total = 0
    for seed in range(5):
        rules = get_profile("points")
        match = Match.create(["A", "B"], rules, seed=seed)
        policies = [HardPolicy(random.Random(seed)), MediumPolicy(random.Random(seed))]
        for _ in range(60):
            deal = match.deal
            if deal is None or match.phase is not MatchPhase.PLAYING or match.results:
                break
            obs = match.observation(deal.turn)
            action = policies[deal.turn].act(obs)
            if deal.turn == 0 and action.kind is ActionKind.DISCARD:
                hand = list(obs.hand)
                after = {
                    c.id: _distance_of(obs, [x for x in hand if x.id != c.id])
                    for c in discard_choices(obs)
                }
                best = min(after.values())
                assert after[action.card] <= best + 1
                same += after[action.card] == best
                total += 1
            match.apply(action)
    assert total >= 25
    assert same >= 0.9 * total
