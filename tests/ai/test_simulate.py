"""The simulator's policy comparison: --seats with tiers and outside policies, rotation, stats."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.actions import Action
from bot.engine.match import Match, MatchPhase
from bot.engine.observation import Observation
from bot.engine.rules import get_profile
from bot.simulate import (
    interval_text,
    main,
    mean_interval,
    play,
    resolve_policy,
    seats_to_act,
    wilson,
)


class FirstLegal:
    """An outside policy with a no-argument constructor: always the first legal action."""

    def act(self, obs: Observation) -> Action:
        return obs.legal_actions[0]


class Seeded:
    """An outside policy that takes the simulator's random generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Action:
        return self.rng.choice(obs.legal_actions)


def test_resolve_registered_and_outside_policies() -> None:
    for name in ("random", "easy", "medium", "hard"):
        assert hasattr(resolve_policy(name)(random.Random(1)), "act")
    assert isinstance(resolve_policy(f"{__name__}:FirstLegal")(random.Random(1)), FirstLegal)
    assert isinstance(resolve_policy(f"{__name__}:Seeded")(random.Random(1)), Seeded)
    with pytest.raises(ValueError, match="unknown policy"):
        resolve_policy("grandmaster")
    with pytest.raises(ValueError, match="cannot load"):
        resolve_policy("no.such.module:Thing")
    with pytest.raises(ValueError, match="not a Policy"):
        resolve_policy("random:Random")


def test_rotation_gives_every_policy_every_seat() -> None:
    summary = play(get_profile("points"), 2, 20, seed=3, seats=["easy", "random"], check=True)
    assert summary.errors == []
    stats = summary.policies
    assert stats["easy"].seat_deals == stats["random"].seat_deals == 20
    wins = stats["easy"].wins + stats["random"].wins
    assert wins + summary.ends.get("void", 0) == 20
    assert stats["easy"].decisions > 0 and stats["easy"].seconds > 0


def test_cli_json_with_outside_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--variant", "pool101", "--seats", f"easy,{__name__}:Seeded",
                 "--deals", "6", "--seed", "2", "--json", "--check"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["players"] == 2 and out["deals"] == 6
    row = out["policies"]["easy"]
    assert set(row) >= {"win_rate", "win_ci95", "avg_paid", "drops", "avg_decision_ms"}


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--variant", "points", "--seats", "medium,easy", "--deals", "4", "--seed", "1"]) == 0
    )
    text = capsys.readouterr().out
    assert "95% CI" in text and "medium" in text and "ms/decision" in text


def test_cli_rejects_unknown_policy() -> None:
    with pytest.raises(SystemExit):
        main(["--seats", "easy,grandmaster"])


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_mean_interval_is_the_normal_one() -> None:
    mean, half = mean_interval([1.0, 3.0, 5.0, 7.0])
    assert mean == 4.0
    assert half == pytest.approx(1.96 * 2.5819889 / 2)  # stdev of the four, over sqrt(4)
    assert mean_interval([2.5]) == (2.5, 0.0)
    assert interval_text([1.0, 3.0, 5.0, 7.0]) == "+4.00 [+1.47, +6.53]"


def test_seats_to_act_plays_a_pool_match_to_its_end() -> None:
    """Every seat it names is the one whose turn it is; next deals start by themselves."""
    match = Match.create(["P0", "P1"], get_profile("pool101"), seed=11)
    policy = Seeded(random.Random(11))
    turns = 0
    for seat in seats_to_act(match):
        assert match.deal is not None and seat == match.deal.turn
        match.apply(policy.act(match.observation(seat)))
        turns += 1
    assert match.phase is MatchPhase.OVER and len(match.results) > 1 and turns > 0


# ---- the command line: plain words, every flag explained, --profile -----------------------


def test_plain_output_is_sentences_and_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--profile", "points", "--players", "2", "--deals", "6", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("points, 2 players: 6 deals in ")
    assert "How the deals ended: " in out and "No errors." in out
    # No Python reprs: dicts, lists, None.
    for repr_bit in ("{", "}", "[", "]", "None", "'"):
        assert repr_bit not in out, repr_bit
    assert "policy" in out and "win %" in out


def test_variant_is_the_old_name_of_profile(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--players", "2", "--deals", "4", "--seed", "2", "--json"]
    assert main(["--profile", "pool101", *args]) == 0
    new = json.loads(capsys.readouterr().out)
    assert main(["--variant", "pool101", *args]) == 0
    old = json.loads(capsys.readouterr().out)
    assert new["profile"] == old["profile"] == "pool101"

    def untimed(summary: dict[str, object]) -> dict[str, object]:
        timing = ("seconds", "deals_per_second", "avg_decision_ms")
        out = {k: v for k, v in summary.items() if k not in timing and k != "policies"}
        policies = summary["policies"]
        assert isinstance(policies, dict)
        out["policies"] = {
            n: {k: v for k, v in st.items() if k not in timing} for n, st in policies.items()
        }
        return out

    assert untimed(new) == untimed(old)  # the same seed, the same run


def test_every_flag_has_help_and_says_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    options = out[out.index("options:") :]
    for flag in ("--profile", "--players", "--deals", "--seed", "--seats", "--option",
                 "--dump-dir", "--check", "--json"):  # fmt: skip
        start = options.index(f"\n  {flag}") + 1  # the option's own entry, not a mention
        block = options[start:].split("\n  --", 1)[0]
        assert "default" in block, (flag, block)
    assert "(default: None)" not in out
