"""The post-deal review: flags known blunders, uses only the seat's own information, replays
a finished deal into exactly the observations the seat had, and shows up in the terminal game."""

from __future__ import annotations

import io
import random

from bot.ai import make_policy
from bot.ai.review import (
    Decision,
    MoveKind,
    Reason,
    ReplayError,
    review,
    seat_decisions,
)
from bot.ai.review_text import review_lines
from bot.engine.actions import Action
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import Observation
from bot.play import main
from tests.test_ai import _obs_for


def _throw(obs: Observation, code: str) -> Action:
    card = next(c for c in obs.hand if c.face.code == code)
    return Action.discard(obs.seat, card.id)


def test_a_missed_declaration_comes_first() -> None:
    obs = _obs_for("4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 4C KD", "QD", draw="3C")
    r = review([Decision(obs, _throw(obs, "2C"))])
    assert r is not None and r.moves == 1 and r.agreed == 0
    (s,) = r.suggestions
    assert s.kind is MoveKind.DECLARE
    assert Reason.MISSED_DECLARATION in s.reasons
    assert s.better.kind.value == "declare"
    assert "valid declaration" in "\n".join(review_lines(r))


def test_breaking_a_pure_run_is_flagged_with_the_numbers() -> None:
    obs = _obs_for("7H 8H 9H 4S 5S 6S 3C JK 2D 2C 2S 9C KC", "10D", draw="JD")
    r = review([Decision(obs, _throw(obs, "8H"))])
    assert r is not None
    (s,) = r.suggestions
    assert s.kind is MoveKind.DISCARD
    assert s.played_card is not None and s.played_card.face.code == "8H"
    assert s.better_card is not None and s.better_card.face.code in {"KC", "JD", "9C"}
    assert s.gain > 0
    assert s.better_outlook.expected_deadwood < s.played_outlook.expected_deadwood
    assert s.better_outlook.distance <= s.played_outlook.distance
    assert Reason.LESS_DEADWOOD in s.reasons or Reason.CLOSER in s.reasons
    text = "\n".join(review_lines(r, lambda c: c.face.code))
    assert "throwing 8H" in text and "expected deadwood" in text


def test_a_good_move_is_not_flagged() -> None:
    obs = _obs_for("7H 8H 9H 4S 5S 6S 3C JK 2D 2C 2S 9C KC", "10D", draw="JD")
    r = review([Decision(obs, _throw(obs, "KC"))])
    assert r is not None and r.suggestions == ()


def _play_deal(seed: int) -> tuple[Match, list[Decision], list[Decision]]:
    """A medium-vs-easy deal. Seat 0's decisions are recorded twice: as played, and as seen
    from a copy of the match whose hidden cards (the other hand and the stock) were shuffled."""
    match = Match.create(["A", "B"], "points", seed=seed)
    policies = [make_policy("medium", seed), make_policy("easy", seed + 1)]
    live: list[Decision] = []
    shuffled: list[Decision] = []
    rng = random.Random(seed)
    while match.phase is MatchPhase.PLAYING:
        deal = match.deal
        assert deal is not None
        seat = deal.turn
        obs = match.observation(seat)
        action = policies[seat].act(obs)
        if seat == 0:
            live.append(Decision(obs, action))
            twin = Match.from_dict(match.to_dict())
            tdeal = twin.deal
            assert tdeal is not None
            hidden = list(tdeal.hands[1]) + tdeal.stock
            rng.shuffle(hidden)
            tdeal.hands[1], tdeal.stock = (
                hidden[: len(tdeal.hands[1])],
                hidden[len(tdeal.hands[1]) :],
            )
            shuffled.append(Decision(twin.observation(0), action))
        match.apply(action)
    return match, live, shuffled


def test_review_uses_only_the_seats_own_information() -> None:
    match, live, shuffled = _play_deal(3)
    assert seat_decisions(match, 0) == live  # the replay rebuilds exactly what the seat saw
    assert review(shuffled, seed=5) == review(live, seed=5)  # hidden cards change nothing
    r = review(seat_decisions(match, 0), seed=5)
    assert r is not None and r.seat == 0 and r.moves == len(live)


def test_no_review_while_a_deal_is_played() -> None:
    match = Match.create(["A", "B"], "points", seed=1)
    try:
        seat_decisions(match, 0)
    except ReplayError:
        pass
    else:  # pragma: no cover
        raise AssertionError("a deal in play has nothing to review")


def test_the_terminal_game_prints_the_review_after_a_deal() -> None:
    out = io.StringIO()
    code = main(
        ["--profile", "points", "--ai", "easy", "--seed", "4"], io.StringIO("s\n1\n" * 200), out
    )
    assert code == 0
    text = out.getvalue()
    assert "Review of your play:" in text
    assert "hard would have made" in text


def _play_unseeded(
    profile: str, players: int, rng_seed: int, drop_chance: float
) -> tuple[Match, dict[int, list[Decision]]]:
    """One unseeded deal (the OS generator shuffles, as in the terminal game without --seed)
    between random players; every seat's decisions recorded as played."""
    from bot.engine.policy import RandomPolicy

    match = Match.create([f"P{i}" for i in range(players)], profile, seed=None)
    rng = random.Random(rng_seed)
    policies = [RandomPolicy(rng, drop_chance=drop_chance) for _ in range(players)]
    live: dict[int, list[Decision]] = {s: [] for s in range(players)}
    while match.phase is MatchPhase.PLAYING:
        deal = match.deal
        assert deal is not None
        obs = match.observation(deal.turn)
        action = policies[deal.turn].act(obs)
        live[deal.turn].append(Decision(obs, action))
        match.apply(action)
    return match, live


def test_an_unseeded_deal_replays_into_what_each_seat_saw() -> None:
    """No seed: the replay lays out the recorded deck order, and follows the shuffles made
    during the deal (first drops shuffled under the stock in paplu, reshuffled piles in
    pool101) through the recorded draws. Each seat's rebuilt decisions are exactly its own."""
    from bot.engine.events import Dropped, Reshuffled

    seen: set[str] = set()
    for i in range(16):
        # paplu, 3-5 players dropping often: first drops go under the stock. pool101, two
        # players who never drop: random play seldom declares, so the stock runs out.
        if i % 2:
            match, live = _play_unseeded("paplu", 3 + i % 3, i, 0.15)
        else:
            match, live = _play_unseeded("pool101", 2, i, 0.0)
        deal = match.deal
        assert deal is not None and deal.seed is None
        for e in deal.events:
            if isinstance(e, Dropped) and e.to_stock_bottom:
                seen.add("dropped under the stock")
            if isinstance(e, Reshuffled):
                seen.add("reshuffled")
        for seat, decisions in live.items():
            assert seat_decisions(match, seat) == decisions, (i, seat)
    assert seen == {"dropped under the stock", "reshuffled"}, seen
