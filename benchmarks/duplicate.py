"""Duplicate play: two AI variants on the same cards, seats swapped, paired difference in chips.

    python benchmarks/duplicate.py --a expert --b hard --deals 400 --seed 7
    python benchmarks/duplicate.py --a expert --b "expert@pay_decay=0.85" --field hard
    python benchmarks/duplicate.py --a expert --b hard --field medium,medium --deals 300

A variant is a policy spec as `bot.simulate` takes it (a registered name or
`module.path:ClassName`, such as the yardstick opponents
`benchmarks.experiments.reference_opponent:ReferencePolicy` and
`benchmarks.experiments.guard_opponent:GuardPolicy`), optionally followed by `@name=value`
settings that override the policy's class attributes (its weights), e.g.
`expert@drop_margin=0@soon_rounds=5`.

Heads-up (no `--field`): every match seed is played twice, A in seat 0 and B in seat 1, then
swapped; both seatings use the same shuffles and the same policy seeds. A deal's paired value
is A's chips minus B's over the two seatings, divided by four (per seat and deal): in points,
zero-sum heads-up, that is A's chips a deal. Seat and card luck cancel. In a pool profile the
"chips" are penalty points added (lower is better) and the match wins are printed too.
With `--field F1,F2,...`: A and B in turn take one seat of the same deals against the field,
in every seat position; the paired value is A's chips minus B's chips on identical cards and
opponents' seeds.

Prints the mean paired difference in chips per deal with its 95% interval (normal, from the
paired values' spread), both variants' win rates with Wilson 95% intervals, and their mean CPU
time per decision: `time.process_time` around each of the side's `act` calls, summed over the
run and divided by its decisions. The caches in `bot.ai` (distance, shape) are module-level and
shared by every policy in the process, and each deal is played twice on the same cards, so the
second playing finds much of the first's work cached (about 3x cheaper). Both sides get that
equally: heads-up, both sides play in both seatings of a seed (the first cold, the second
warm); with `--field`, A and B take turns playing a position first (by seed). So the two
figures compare A with B in the same run, fairly, but are lower than a variant's cost on
fresh cards: for that, `bench_ai.py` (one variant per process). `--dump FILE` writes
the paired values: two runs with the same B, seed and deal count play the same cards, so the
difference of their lines is A1 against A2 on identical deals. A benchmark, not a test: no
assertion.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.actions import ActionKind
from bot.engine.match import Match, MatchPhase
from bot.engine.policy import Policy, PolicyFactory
from bot.engine.rules import MatchFormat, get_profile
from bot.simulate import interval_text, mean_interval, resolve_policy, seats_to_act, wilson


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def variant(spec: str) -> PolicyFactory:
    """A factory for `name[@attr=value...]`: the policy with some class attributes changed."""
    base, *settings = spec.split("@")
    factory = resolve_policy(base)
    pairs = []
    for s in settings:
        name, _, raw = s.partition("=")
        pairs.append((name, _value(raw)))

    def make(rng: random.Random) -> Policy:
        policy = factory(rng)
        for name, value in pairs:
            if not hasattr(policy, name):
                raise ValueError(f"{base} has no setting {name!r}")
            setattr(policy, name, value)
        return policy

    return make


@dataclass
class Side:
    wins: int = 0
    deals: int = 0
    decisions: int = 0
    drops: int = 0
    matches: int = 0
    match_wins: int = 0
    cpu: float = 0.0
    chips: list[float] = field(default_factory=list)


def play_match(
    profile: str, seed: int, makers: Sequence[PolicyFactory], tags: Sequence[str | None],
    sides: dict[str, Side],
) -> list[float]:  # fmt: skip
    """One match; returns each seat's chips (sum of its score deltas over the match)."""
    rules = get_profile(profile)
    n = len(makers)
    match = Match.create([f"P{i}" for i in range(n)], rules, seed=seed)
    policies = [m(random.Random(seed * 7919 + i)) for i, m in enumerate(makers)]
    for seat in seats_to_act(match):
        obs = match.observation(seat)
        t0 = time.process_time()
        action = policies[seat].act(obs)
        spent = time.process_time() - t0
        tag = tags[seat]
        if tag is not None:
            sides[tag].decisions += 1
            sides[tag].cpu += spent
            sides[tag].drops += action.kind is ActionKind.DROP
        match.apply(action)
        if match.phase is not MatchPhase.PLAYING:
            result = match.results[-1]
            for s in range(n):
                t = tags[s]
                if t is not None:
                    sides[t].deals += 1
                    sides[t].wins += 1 if result.winner == s else 0
    for s in range(n):
        t = tags[s]
        if t is not None:
            sides[t].matches += 1
            sides[t].match_wins += 1 if match.winners == (s,) else 0
    chips = [0.0] * n
    for r in match.results:
        for s, d in r.deltas.items():
            chips[s] += float(d)
    return chips


def run(
    a: str,
    b: str,
    field_specs: Sequence[str],
    profile: str,
    deals: int,
    seed: int,
    progress: int = 0,
    dump: str = "",
) -> dict[str, Any]:
    make_a, make_b = variant(a), variant(b)
    fillers = [variant(f) for f in field_specs]
    sides = {"a": Side(), "b": Side()}
    paired: list[float] = []
    master = random.Random(seed)
    start = time.process_time()
    reported = 0
    rounds = 0
    while len(paired) < deals:
        if progress and len(paired) >= reported + progress:
            reported = len(paired)
            print(f"  after {len(paired)} pairs: {interval_text(paired)}; A won "
                  f"{sides['a'].wins}/{sides['a'].deals}, B {sides['b'].wins}/{sides['b'].deals}",
                  flush=True)  # fmt: skip
        match_seed = master.getrandbits(40)
        rounds += 1
        if not fillers:
            c1 = play_match(profile, match_seed, [make_a, make_b], ["a", "b"], sides)
            c2 = play_match(profile, match_seed, [make_b, make_a], ["b", "a"], sides)
            # A's chips minus B's, over both seatings, per seat-deal (zero-sum: A's chips)
            paired.append(((c1[0] - c1[1]) + (c2[1] - c2[0])) / 4)
            continue
        n = len(fillers) + 1
        for pos in range(n):
            if len(paired) >= deals:
                break
            seats_a: list[PolicyFactory] = list(fillers)
            seats_a.insert(pos, make_a)
            seats_b: list[PolicyFactory] = list(fillers)
            seats_b.insert(pos, make_b)
            tags_a: list[str | None] = [None] * n
            tags_a[pos] = "a"
            tags_b: list[str | None] = [None] * n
            tags_b[pos] = "b"
            # The second of the two finds the first's positions cached: A goes first on every
            # other seed at each position, so the CPU figures are not biased toward B.
            if (rounds + pos) % 2:
                ca = play_match(profile, match_seed, seats_a, tags_a, sides)
                cb = play_match(profile, match_seed, seats_b, tags_b, sides)
            else:
                cb = play_match(profile, match_seed, seats_b, tags_b, sides)
                ca = play_match(profile, match_seed, seats_a, tags_a, sides)
            paired.append(ca[pos] - cb[pos])
    if dump:
        # One paired value a line, in play order: two runs with the same B, seed and deals
        # play the same cards, so their lines pair up (A1 - A2 on identical deals).
        Path(dump).write_text("".join(f"{v!r}\n" for v in paired), encoding="utf-8")
    mean, half = mean_interval(paired)
    out: dict[str, Any] = {
        "a": a, "b": b, "field": list(field_specs), "profile": profile, "seed": seed,
        "pairs": len(paired),
        "diff_chips_per_deal": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "cpu_seconds": round(time.process_time() - start, 1),
    }  # fmt: skip
    for tag, side in sides.items():
        lo, hi = wilson(side.wins, side.deals)
        out[tag + "_win_rate"] = round(side.wins / side.deals, 4) if side.deals else None
        out[tag + "_win_ci95"] = [round(lo, 4), round(hi, 4)]
        out[tag + "_deals"] = side.deals
        out[tag + "_drops"] = side.drops
        mlo, mhi = wilson(side.match_wins, side.matches)
        out[tag + "_match_wins"] = [side.match_wins, side.matches, round(mlo, 4), round(mhi, 4)]
        out[tag + "_ms_per_decision"] = (
            round(1000 * side.cpu / side.decisions, 2) if side.decisions else None
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--a", required=True, help="variant A, e.g. expert or expert@drop_margin=0")
    parser.add_argument("--b", required=True, help="variant B")
    parser.add_argument("--field", default="", help="other seats, comma-separated (default: none)")
    parser.add_argument("--profile", default="points")
    parser.add_argument("--deals", type=int, default=200, help="paired values to collect")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="print the running figures every N pairs")  # fmt: skip
    parser.add_argument("--dump", default="", metavar="FILE",
                        help="write the paired values to FILE, one a line")  # fmt: skip
    args = parser.parse_args(argv)
    field_specs = [f.strip() for f in args.field.split(",") if f.strip()]
    out = run(
        args.a, args.b, field_specs, args.profile, args.deals, args.seed, args.progress, args.dump
    )
    if args.json:
        print(json.dumps(out))
        return 0
    lo, hi = out["ci95"]
    what = "A vs B heads-up" if not field_specs else f"A and B against {', '.join(field_specs)}"
    print(f"{out['profile']}, {what}, {out['pairs']} paired deals, seed {out['seed']}")
    print(f"A = {args.a}\nB = {args.b}")
    print(f"A - B: {out['diff_chips_per_deal']:+.2f} chips a deal, 95% CI [{lo:+.2f}, {hi:+.2f}]")
    for tag in ("a", "b"):
        wl, wh = out[tag + "_win_ci95"]
        rate = out[tag + "_win_rate"]
        ms, drops = out[tag + "_ms_per_decision"], out[tag + "_drops"]
        print(f"{tag.upper()}: wins {100 * (rate or 0):.1f}% of {out[tag + '_deals']} deals "
              f"[{100 * wl:.1f}, {100 * wh:.1f}], {ms} ms CPU/decision, {drops} drops")  # fmt: skip
    if get_profile(args.profile).match_format is not MatchFormat.SINGLE_DEAL:
        for tag in ("a", "b"):
            w, m, lo, hi = out[tag + "_match_wins"]
            print(f"{tag.upper()}: won {w} of {m} matches [{100 * lo:.1f}, {100 * hi:.1f}]")
    print(f"CPU {out['cpu_seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
