"""The verifiable shuffle: the commitment shown at a deal's start, the reveal in the hand history,
`fairness.verify` and `python -m bot.engine verify`."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import random
import secrets
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine.actions import Action, ActionKind
from bot.engine.deal import Deal
from bot.engine.fairness import SCHEME, commit, make_rng, verify
from bot.engine.match import Match, MatchPhase
from bot.engine.policy import RandomPolicy
from bot.engine.rules import DeclarationMode, Rules, StockExhausted, get_profile
from tests.conftest import PROJECT_ROOT

History = dict[str, Any]


def play(
    m: Match,
    choose: Callable[[Match], Action],
    on_step: Callable[[Match], None] | None = None,
    max_steps: int = 5000,
) -> list[History]:
    """Play `m` to its end (or `max_steps`) and return every deal's hand history, as JSON."""
    histories: list[History] = []
    for _ in range(max_steps):
        if m.phase is MatchPhase.OVER:
            break
        if m.phase is MatchPhase.BETWEEN_DEALS:
            m.start_next_deal()
            continue
        if on_step is not None:
            on_step(m)
        m.apply(choose(m))
        if m.phase is not MatchPhase.PLAYING:
            histories.append(json.loads(json.dumps(m.hand_history(len(m.results)))))
    return histories


def random_player(seed: int) -> Callable[[Match], Action]:
    policy = RandomPolicy(random.Random(seed))

    def choose(m: Match) -> Action:
        assert m.deal is not None
        return policy.act(m.observation(m.deal.turn))

    return choose


def chaos_player(seed: int) -> Callable[[Match], Action]:
    """Rarely declares (so stocks run out and are reshuffled), drops often, and now and then a
    seat leaves: every way a card moves ends up in the histories."""
    rng = random.Random(seed)

    def choose(m: Match) -> Action:
        deal = m.deal
        assert deal is not None
        if rng.random() < 0.004:
            return Action.leave(rng.choice(deal.active))
        legal = m.legal_actions(deal.turn)
        declares = [a for a in legal if a.kind is ActionKind.DECLARE]
        drops = [a for a in legal if a.kind is ActionKind.DROP]
        other = [a for a in legal if a.kind not in (ActionKind.DECLARE, ActionKind.DROP)]
        r = rng.random()
        if declares and r < 0.01:
            return rng.choice(declares)
        if drops and r < 0.05:
            return drops[0]
        return rng.choice(other)

    return choose


def chaos_rules(profile: str) -> Rules:
    return dataclasses.replace(
        get_profile(profile),
        declaration_mode=DeclarationMode.HONOR,
        stock_exhausted=StockExhausted.RESHUFFLE,
        first_drop_to_stock_bottom=True,
    )


@pytest.fixture(scope="module")
def played() -> History:
    """One finished deal of a real (seeded) match, played by random policies."""
    m = Match.create(["ann", "bob", "cat"], "points", seed=7)
    return play(m, random_player(7))[0]


# ---- the commitment ---------------------------------------------------------------------------


def test_commitment_is_the_sha256_of_the_documented_text() -> None:
    m = Match.create(["a", "b"], "points", seed=5)
    deal = m.deal
    assert deal is not None and deal.salt is not None
    codes = " ".join(deal.card(i).code for i in deal.order)
    text = f"paplu-deal-v1:{deal.salt}:{codes}"
    assert deal.commitment == hashlib.sha256(text.encode()).hexdigest()
    assert m.public_view().commitment == deal.commitment
    assert all(m.observation(s).commitment == deal.commitment for s in (0, 1))


def test_commitment_is_stable_for_a_seed() -> None:
    first = Match.create(["a", "b", "c"], "points", seed=42)
    again = Match.create(["a", "b", "c"], "points", seed=42)
    pinned = "078b089ac59897d6bd4d5557ed4e59152595fa086ed30811660ff902cf6024a3"
    assert first.public_view().commitment == again.public_view().commitment == pinned
    deal = first.deal
    assert deal is not None
    replayed = Deal.replay(deal.rules, deal.seats, deal.dealer, deal.seed, [], deal.number)
    assert replayed.commitment == pinned
    other = Match.create(["a", "b", "c"], "points", seed=43)
    assert other.public_view().commitment != pinned


def test_unseeded_deals_use_the_os_generator_and_fresh_salts() -> None:
    assert isinstance(make_rng(None, "shuffle"), secrets.SystemRandom)
    salts = set()
    for _ in range(3):
        deal = Match.create(["a", "b"], "points").deal
        assert deal is not None and deal.salt is not None
        assert len(deal.salt) == 32 and int(deal.salt, 16) >= 0
        salts.add(deal.salt)
    assert len(salts) == 3


def test_a_restarted_bot_keeps_the_commitment_it_showed() -> None:
    m = Match.create(["a", "b", "c"], "paplu")
    shown = m.public_view().commitment
    choose = random_player(3)
    for _ in range(5):
        m.apply(choose(m))
    restored = Match.from_json(m.to_json())
    assert restored.public_view().commitment == shown
    histories = play(restored, choose)
    assert histories[0]["shuffle"]["commitment"] == shown
    assert verify(histories[0]).ok


def test_a_deal_saved_before_commitments_has_none_and_does_not_verify() -> None:
    m = Match.create(["a", "b"], "points", seed=9)
    state = m.to_dict()
    del state["deal"]["salt"]
    old = Match.from_dict(state)
    assert old.public_view().commitment is None
    history = play(old, random_player(9))[0]
    assert history["shuffle"] is None
    result = verify(history)
    assert not result.ok and "no shuffle commitment" in result.problems[0]


# ---- verify -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("profile", "players", "seed"), [
    ("points", 2, 1), ("points", 6, None), ("pool101", 3, 2), ("paplu", 4, None),
    ("deals", 3, 4), ("classic", 8, 5),
])  # fmt: skip
def test_verify_passes_on_played_histories(profile: str, players: int, seed: int | None) -> None:
    m = Match.create([f"p{i}" for i in range(players)], profile, seed=seed)
    histories = play(m, random_player(seed or 0), max_steps=1500)
    assert histories
    for h in histories:
        assert h["format_version"] == 3
        assert h["shuffle"]["scheme"] == SCHEME
        assert h["shuffle"]["source"] == ("os" if seed is None else "seed")
        result = verify(h)
        assert result.ok, result.problems
        assert result.draws_checked == sum(e["action"] == "draw_stock" for e in h["events"])


def test_verify_follows_reshuffles_stock_bottom_wrong_shows_and_leaves() -> None:
    seen: set[str] = set()
    for seed in range(12):
        players = 2 + seed % 4
        rules = chaos_rules(("points", "paplu")[seed % 2])
        m = Match.create([f"p{i}" for i in range(players)], rules, seed=seed if seed % 3 else None)
        for h in play(m, chaos_player(seed)):
            result = verify(h)
            assert result.ok, result.problems
            seen |= {f"{e['action']}:{e.get('cards_to', '')}" for e in h["events"]}
    assert {"reshuffle:", "drop:stock_bottom", "wrong_show:set_aside", "leave:set_aside"} <= seen


def test_tampering_with_the_order_is_caught(played: History) -> None:
    h = copy.deepcopy(played)
    order = h["deck_order"]
    j = next(i for i in range(1, len(order)) if order[i] != order[0])
    order[0], order[j] = order[j], order[0]
    result = verify(h)
    assert not result.ok
    assert "do not hash to the commitment" in result.problems[0]
    # Replacing a card (a duplicate where one should be) breaks the hash and the deck.
    h = copy.deepcopy(played)
    h["deck_order"][-1] = h["deck_order"][0]
    problems = verify(h).problems
    assert any("hash" in p for p in problems) and any("complete deck" in p for p in problems)


def test_tampering_with_a_hand_is_caught(played: History) -> None:
    h = copy.deepcopy(played)
    hand = h["hands_dealt"]["1"]
    hand[0] = next(c for c in h["deck_order"] if c not in hand)
    result = verify(h)
    assert not result.ok
    assert result.problems == ["seat 1's dealt hand is not what the deck order deals"]


def test_tampering_with_the_salt_is_caught(played: History) -> None:
    h = copy.deepcopy(played)
    salt = h["shuffle"]["salt"]
    h["shuffle"]["salt"] = ("0" if salt[0] != "0" else "1") + salt[1:]
    result = verify(h)
    assert not result.ok
    assert "do not hash to the commitment" in result.problems[0]


def test_a_draw_that_was_not_the_top_of_the_stock_is_caught(played: History) -> None:
    h = copy.deepcopy(played)
    draw = next(e for e in h["events"] if e["action"] == "draw_stock")
    draw["card"] = h["indicator"]
    result = verify(h)
    assert not result.ok
    assert f"event {draw['n']} (draw_stock by seat {draw['seat']})" in result.problems[0]
    assert "the top of the stock was" in result.problems[0]


def test_a_reordered_deck_with_a_new_commitment_is_not_the_one_shown() -> None:
    """A cheat who rewrites the order must also rewrite the commitment, which then differs from
    the one the table showed before the first move: what players compare."""
    m = Match.create(["a", "b"], "points")
    shown = m.public_view().commitment
    h = play(m, random_player(1))[0]
    h["deck_order"].reverse()
    h["shuffle"]["commitment"] = commit(h["deck_order"], h["shuffle"]["salt"])
    result = verify(h)
    assert result.commitment != shown
    assert not result.ok  # and the dealt hands no longer follow from the order


def test_a_malformed_history_is_reported_not_raised(played: History) -> None:
    h = copy.deepcopy(played)
    del h["hands_dealt"]
    result = verify(h)
    assert not result.ok and "malformed" in result.problems[0]


# ---- nothing secret before the deal ends ------------------------------------------------------


def _json(view: object) -> str:
    return json.dumps(dataclasses.asdict(view), default=str)  # type: ignore[call-overload]


@pytest.mark.parametrize("seed", [None, 12])
def test_the_salt_and_order_never_reach_a_view_during_a_deal(seed: int | None) -> None:
    m = Match.create(["a", "b", "c"], "pool101", seed=seed)
    steps = 0

    def audit(m: Match) -> None:
        nonlocal steps
        deal = m.deal
        assert deal is not None and deal.salt is not None and not deal.over
        order = " ".join(deal.card(i).code for i in deal.order)
        ids = json.dumps(deal.order)
        texts = [_json(m.public_view())] + [_json(m.observation(s)) for s in deal.seats]
        for text in texts:
            assert deal.salt not in text
            assert order not in text and ids not in text
            assert str(deal.commitment) in text
        steps += 1

    histories = play(m, random_player(5), on_step=audit, max_steps=400)
    assert steps > 20 and histories
    assert histories[0]["shuffle"]["salt"] in json.dumps(histories[0])


# ---- the command line -------------------------------------------------------------------------


def run_verify(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine", "verify", *map(str, paths)],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=120,
    )


def test_cli_verify_ok_mismatch_and_unreadable(played: History, tmp_path: Path) -> None:
    good = tmp_path / "deal-1-history.json"
    good.write_text(json.dumps(played))
    proc = run_verify(good)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    commitment = played["shuffle"]["commitment"]
    assert f"{good}: OK" in proc.stdout
    assert commitment in proc.stdout and f"{commitment[:16]}…" in proc.stdout

    tampered = copy.deepcopy(played)
    tampered["shuffle"]["salt"] = "00" + tampered["shuffle"]["salt"][2:]
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(tampered))
    proc = run_verify(good, bad)
    assert proc.returncode == 1
    assert f"{bad}: MISMATCH" in proc.stdout and "do not hash to the commitment" in proc.stdout

    junk = tmp_path / "junk.json"
    junk.write_text("not json")
    proc = run_verify(junk)
    assert proc.returncode == 1 and "error: cannot read" in proc.stdout
