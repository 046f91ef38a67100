"""Play many deals with program players: `python -m bot.simulate --profile paplu --players 4`.

Meaning of `--deals K`: K deals in total, played as consecutive matches of the chosen profile
(a new match starts whenever one ends; the last one may be cut short). Every seat is driven by a
policy (`--seats random,random,...`, names registered in `bot.engine.policy.POLICIES`, i.e.
`random`, `easy`, `medium`, `hard`, or `module.path:ClassName` for any outside class that
implements the `Policy` protocol; its constructor may take the `random.Random` or nothing) that
sees only its own `Observation`.

Comparing policies: when the seats name different policies, matches are played in groups that
share one seed (the same shuffles), once per rotation of the seats, so every policy sits in
every position with the same cards and position and card luck cancel (duplicate format). The
summary then gives, per policy: deals played, deal win rate with a 95% (Wilson) confidence
interval (a void deal is a deal nobody won), average penalty paid per deal, drops and average
decision time. With `--check` every step is verified against the engine's
invariants (card conservation, hand sizes, ledger sums). `--dump-dir` writes each finished
deal's hand history as JSON; `--json` prints one summary object at the end (the plain output
says the same in sentences and a table). `--variant` is the old name of `--profile`.

`python -m bot.simulate tournament ...` plays a whole tournament instead (see
`bot.simulate_tournament`, or `python -m bot.simulate tournament --help`).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import ai as _ai  # noqa: F401  (registers the easy/medium/hard tiers)
from .clihelp import HelpFormatter
from .engine.actions import Action, ActionKind
from .engine.deal import Deal, OutReason, Phase
from .engine.match import Match, MatchPhase, ScoreKind
from .engine.observation import Observation
from .engine.policy import POLICIES, Policy, PolicyFactory
from .engine.rules import PROFILES, MatchFormat, Rules, get_profile, parse_options
from .engine.settlement import fixed_cost


@dataclass
class Summary:
    variant: str
    players: int
    deals: int = 0
    matches: int = 0
    matches_finished: int = 0
    steps: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    policies: dict[str, PolicyStats] = field(default_factory=dict)

    def stats(self, name: str) -> PolicyStats:
        if name not in self.policies:
            self.policies[name] = PolicyStats()
        return self.policies[name]

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.variant,
            "variant": self.variant,  # the same: the key's name before `profile`
            "players": self.players,
            "deals": self.deals,
            "matches": self.matches,
            "matches_finished": self.matches_finished,
            "steps": self.steps,
            "ends": dict(sorted(self.ends.items())),
            "errors": self.errors,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals / self.seconds, 1) if self.seconds else None,
            "policies": {name: st.to_dict() for name, st in sorted(self.policies.items())},
        }


@dataclass
class PolicyStats:
    """One policy's record over a run (summed over every seat it held)."""

    seat_deals: int = 0  # deals in which one of its seats took part
    wins: int = 0
    paid: float = 0.0  # penalties charged to its seats
    delta: float = 0.0  # score change of its seats (net chips won in paplu; penalty otherwise)
    drops: int = 0
    decisions: int = 0
    seconds: float = 0.0  # time spent inside `act`

    def to_dict(self) -> dict[str, Any]:
        n = self.seat_deals
        lo, hi = wilson(self.wins, n)
        return {
            "deals": n,
            "wins": self.wins,
            "win_rate": round(self.wins / n, 4) if n else None,
            "win_ci95": [round(lo, 4), round(hi, 4)],
            "avg_paid": round(self.paid / n, 2) if n else None,
            "avg_delta": round(self.delta / n, 2) if n else None,
            "drops": self.drops,
            "decisions": self.decisions,
            "avg_decision_ms": (
                round(1000 * self.seconds / self.decisions, 3) if self.decisions else None
            ),
        }


def seats_to_act(match: Match) -> Iterator[int]:
    """The seat whose turn it is, turn after turn, until the match is over: the loop every
    benchmark that plays whole matches runs (it starts each next deal). The caller applies
    that seat's action before asking for the next."""
    while match.phase is not MatchPhase.OVER:
        if match.phase is MatchPhase.BETWEEN_DEALS:
            match.start_next_deal()
            continue
        deal = match.deal
        assert deal is not None
        yield deal.turn


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval (0 for fewer than 2 values):
    the benchmarks' paired differences are sums of many deals, so the normal one serves."""
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def interval_text(values: Sequence[float]) -> str:
    """`+1.23 [+0.45, +2.01]`: a mean with its 95% interval, as the benchmarks print it."""
    mean, half = mean_interval(values)
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate (sound near 0% and 100%, unlike p +- 2se)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def resolve_policy(spec: str) -> PolicyFactory:
    """A factory for a registered name or for `module.path:ClassName` (an outside policy)."""
    if spec in POLICIES:
        return POLICIES[spec]
    if ":" not in spec:
        raise ValueError(f"unknown policy {spec!r} (known: {', '.join(sorted(POLICIES))}, "
                         "or module.path:ClassName)")  # fmt: skip
    module_name, _, attr = spec.partition(":")
    try:
        obj = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load policy {spec!r}: {exc}") from None
    if not callable(getattr(obj, "act", None)):
        raise ValueError(f"{spec!r} has no act(obs) method: not a Policy")
    try:
        inspect.signature(obj).bind(random.Random())
        takes_rng = True
    except (TypeError, ValueError):
        takes_rng = False

    def factory(rng: random.Random) -> Policy:
        policy: Policy = obj(rng) if takes_rng else obj()
        return policy

    return factory


def check_observation(match: Match, obs: Observation) -> None:
    """No card of another seat's hand (or of the stock) may appear in an observation."""
    deal = match.deal
    if deal is None or deal.over:
        return
    visible = {c.id for c in obs.hand} | {c.id for c in obs.pile}
    visible |= {e.card.id for e in obs.pile_history}
    if obs.indicator is not None:
        visible.add(obs.indicator.id)
    hidden = {c.id for c in deal.stock} | {c.id for c in deal.set_aside}
    for s, h in deal.hands.items():
        if s != obs.seat:
            hidden |= {c.id for c in h}
    # A card thrown then taken back by another seat is public knowledge: it is in the log.
    public = {e.card.id for e in deal.pile_log}
    assert not (visible & hidden) - public, "observation reveals a hidden card"


def play(
    rules: Rules,
    players: int,
    deals: int,
    seed: int | None = None,
    seats: Sequence[str] = (),
    dump_dir: Path | None = None,
    check: bool = False,
    drop_chance: float | None = None,
) -> Summary:
    """Play `deals` deals; returns counts of how they ended and any errors (never raises for
    a failure inside a match: it is recorded and the next match starts)."""
    summary = Summary(rules.name, players)
    master = random.Random(seed)
    names = list(seats) or ["random"] * players
    if len(names) != players:
        raise ValueError("--seats must name one policy per player")
    factories = {name: resolve_policy(name) for name in names}
    # Different policies: replay each seed once per rotation of the seats (duplicate format).
    rotations = players if len(set(names)) > 1 else 1
    start = time.perf_counter()
    match_seed = 0
    while summary.deals < deals:
        rotation = summary.matches % rotations
        if rotation == 0:
            match_seed = master.getrandbits(48)
        seat_names = names[rotation:] + names[:rotation]
        rng = random.Random(match_seed)
        policies: list[Policy] = []
        for name in seat_names:
            policy = factories[name](rng)
            if drop_chance is not None and hasattr(policy, "drop_chance"):
                policy.drop_chance = drop_chance
            policies.append(policy)
        summary.matches += 1
        try:
            match = Match.create([f"P{i + 1}" for i in range(players)], rules, seed=match_seed)
            _play_match(match, policies, summary, deals, dump_dir, check, seat_names)
        except Exception as exc:  # recorded; the run goes on
            summary.errors.append(f"match seed {match_seed}: {type(exc).__name__}: {exc}")
            summary.deals += 1
    summary.seconds = time.perf_counter() - start
    return summary


def _play_match(
    match: Match,
    policies: list[Policy],
    summary: Summary,
    deals: int,
    dump_dir: Path | None,
    check: bool,
    seat_names: Sequence[str] = (),
) -> None:
    names = list(seat_names) or [f"seat{i}" for i in range(len(policies))]
    while summary.deals < deals:
        if match.phase is MatchPhase.OVER:
            summary.matches_finished += 1
            return
        if match.phase is MatchPhase.BETWEEN_DEALS:
            match.start_next_deal()
            continue
        deal = match.deal
        assert deal is not None
        seat = deal.turn
        obs = match.observation(seat)
        if check:
            check_observation(match, obs)
        t0 = time.perf_counter()
        action: Action = policies[seat].act(obs)
        stats = summary.stats(names[seat])
        stats.seconds += time.perf_counter() - t0
        stats.decisions += 1
        if action.kind is ActionKind.DROP:
            stats.drops += 1
        if check and action not in obs.legal_actions:
            raise AssertionError(f"policy chose an illegal action {action}")
        version = match.version
        expected_cost = obs.drop_cost
        match.apply(action)
        summary.steps += 1
        if check:
            assert match.version == version + 1, "version did not advance"
            match.check_invariants()
            _check_step(deal, seat, action, expected_cost)
        if match.phase is not MatchPhase.PLAYING:
            summary.deals += 1
            result = match.results[-1]
            summary.ends[result.end.value] += 1
            for s in deal.seats:
                st = summary.stats(names[s])
                st.seat_deals += 1
                st.wins += 1 if result.winner == s else 0
            for charge in result.charges:
                summary.stats(names[charge.seat]).paid += float(charge.amount)
            for s, d in result.deltas.items():
                summary.stats(names[s]).delta += float(d)
            if dump_dir is not None:
                number = len(match.results)
                path = dump_dir / f"match{summary.matches:04d}-deal{number:02d}.json"
                path.write_text(json.dumps(match.hand_history(number), indent=1))
    if match.phase is MatchPhase.OVER:
        summary.matches_finished += 1
        if check:
            check_match_end(match)


def _check_step(deal: Deal, seat: int, action: Action, expected_cost: int | None) -> None:
    """Turn order and drop costs, checked after every accepted action."""
    if action.kind is ActionKind.DROP:
        reason = deal.out_reason[seat]
        assert fixed_cost(deal.rules, reason) == expected_cost, "drop cost changed"
        first = reason is OutReason.FIRST_DROP
        assert first == (deal.turns_taken[seat] == 1), "first drop after a turn"
    if not deal.over and action.kind in (ActionKind.DISCARD, ActionKind.DROP):
        assert deal.turn == deal.next_seat(seat), "turn did not pass to the right"
        assert deal.phase is Phase.DRAW


def check_match_end(match: Match) -> None:
    """The match ended for the reason its format gives, with the right winners."""
    rules, played = match.rules, len(match.results)
    fmt = rules.match_format
    playing = match.in_play
    if len(playing) >= 2 or fmt is MatchFormat.POOL:
        if fmt is MatchFormat.SINGLE_DEAL:
            assert played == 1
        elif fmt is MatchFormat.DEALS:
            assert played == rules.num_deals
        elif fmt is MatchFormat.ROTATION:
            assert played == len(match.players)
        elif fmt is MatchFormat.TARGET:
            target = rules.target_score
            reached = target is not None and any(match.scores[s] >= target for s in playing)
            assert played == rules.num_deals or reached
        elif fmt is MatchFormat.POOL:
            limit = rules.pool_limit
            assert limit is not None
            assert all(match.scores[s] >= limit for s in match.eliminated)
            assert all(match.scores[s] < limit for s in playing)
            assert len(playing) <= 1 and match.winners == tuple(playing)
    if match.score_kind is ScoreKind.NET:
        assert sum(match.scores.values()) == 0
    if match.winners and fmt is not MatchFormat.POOL:
        pick = max if match.score_kind is ScoreKind.NET else min
        best = pick(match.scores[s] for s in playing)
        assert match.winners == tuple(s for s in playing if match.scores[s] == best)


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in[:1] == ["tournament"]:  # a whole tournament: `bot.simulate_tournament`
        from .simulate_tournament import main as tournament

        return tournament(args_in[1:])
    parser = argparse.ArgumentParser(
        prog="python -m bot.simulate", description=__doc__, formatter_class=HelpFormatter
    )
    parser.add_argument("--profile", "--variant", dest="profile", default="paplu",
                        help=f"rules profile: {', '.join(PROFILES)}")  # fmt: skip
    parser.add_argument("--players", type=int, default=None,
                        help="seats (default: one per --seats entry, else 4)")  # fmt: skip
    parser.add_argument("--deals", type=int, default=100, help="total deals (across matches)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the whole run (shuffles and policies), for a "
                        "reproducible run (default: a fresh one)")  # fmt: skip
    parser.add_argument("--seats", default="",
                        help="comma-separated policies per seat: random, easy, medium, hard, "
                        "or module.path:ClassName (default: random at every seat)")  # fmt: skip
    parser.add_argument("--option", action="append", default=[], metavar="NAME[=VALUE]",
                        help="house-rule toggle or match option, e.g. honor, no_reshuffle, "
                        "num_deals=3; may be repeated (default: the profile's rules)")  # fmt: skip
    parser.add_argument("--dump-dir", type=Path, default=None, metavar="DIR",
                        help="write every finished deal's hand history there as JSON "
                        "(default: none written)")  # fmt: skip
    parser.add_argument(
        "--check", action="store_true", help="verify invariants every step (default: off)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON summary (default: sentences and a table)",
    )
    args = parser.parse_args(args_in)
    try:
        rules = get_profile(args.profile)
        rules = rules.with_options(**parse_options(args.option))
    except ValueError as exc:
        parser.error(str(exc))
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    for spec in seats:
        try:
            resolve_policy(spec)
        except ValueError as exc:
            parser.error(str(exc))
    players = args.players if args.players is not None else (len(seats) or 4)
    if seats and len(seats) != players:
        parser.error(f"--seats names {len(seats)} policies for {players} players")
    if args.dump_dir is not None:
        args.dump_dir.mkdir(parents=True, exist_ok=True)
    summary = play(rules, players, args.deals, args.seed, seats, args.dump_dir, args.check)
    out = summary.to_dict()
    if args.json:
        print(json.dumps(out))
    else:
        print(summary_text(out))
        print()
        print(policy_table(out["policies"]))
    return 1 if summary.errors else 0


_ENDS = {"declared": "declared", "hand_rummy": "hand rummy", "last_standing": "last one standing",
         "void": "void"}  # fmt: skip


def summary_text(out: dict[str, Any]) -> str:
    """The run in a few plain sentences (the `--json` object, for people)."""
    rate = out["deals_per_second"]
    speed = f" ({rate:,} deals/s)" if rate is not None else ""
    lines = [
        f"{out['profile']}, {out['players']} players: {out['deals']:,} deals in "
        f"{out['matches']:,} matches ({out['matches_finished']:,} played to the end), "
        f"{out['steps']:,} moves, {out['seconds']:.2f} s{speed}.",
    ]
    ends = out["ends"]
    if ends:
        parts = [f"{_ENDS.get(k, k.replace('_', ' '))} {v:,}" for k, v in ends.items()]
        lines.append("How the deals ended: " + ", ".join(parts) + ".")
    if out["errors"]:
        lines.append(f"{len(out['errors'])} error(s):")
        lines.extend(f"  {e}" for e in out["errors"])
    else:
        lines.append("No errors.")
    return "\n".join(lines)


def policy_table(policies: dict[str, dict[str, Any]]) -> str:
    """The per-policy comparison as a text table."""
    head = (f"{'policy':<16}{'deals':>7}{'wins':>7}{'win %':>8}{'95% CI':>16}"
            f"{'avg paid':>10}{'avg Δ':>9}{'drops':>7}{'ms/decision':>13}")  # fmt: skip
    lines = [head]
    for name, st in policies.items():
        rate = "-" if st["win_rate"] is None else f"{100 * st['win_rate']:.1f}"
        lo, hi = st["win_ci95"]
        ci = f"{100 * lo:.1f}-{100 * hi:.1f}"
        paid = "-" if st["avg_paid"] is None else f"{st['avg_paid']:.2f}"
        delta = "-" if st.get("avg_delta") is None else f"{st['avg_delta']:+.2f}"
        ms = "-" if st["avg_decision_ms"] is None else f"{st['avg_decision_ms']:.2f}"
        lines.append(f"{name:<16}{st['deals']:>7}{st['wins']:>7}{rate:>8}{ci:>16}"
                     f"{paid:>10}{delta:>9}{st['drops']:>7}{ms:>13}")  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
