"""Is the expert's drop estimate calibrated? Its "expected chips if I play on" against the chips
it actually got.

    python benchmarks/drop_calibration.py --deals 300 --seed 3000 --opponent hard

Heads-up points deals, the expert (made never to drop, so that every deal is played to its end
and the realised chips are those of playing on) against `--opponent`, seats alternated. At every
decision where the expert could drop, it logs `ExpertPolicy.drop_estimate(...).chips` (the
figure the drop rule compares with the drop's cost; `stock`: the 13 cards' `play_on_value`),
the hand's distance and whether it is the first or a later turn; when the deal ends each logged
figure is paired with the seat's chips in that deal. The table groups the figures in bins of
the estimate and prints the mean estimate beside the mean realised chips (with a 95% interval),
so a model that is too pessimistic (it predicts bigger losses than happen) shows as estimate <
realised in the low bins, which is where it drops. A benchmark, not a test: no assertion.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.closeness import opponents
from bot.ai.distance import HandCode, distance, set_limit
from bot.ai.expert import ExpertPolicy
from bot.ai.tracking import Tracker
from bot.engine.actions import ActionKind
from bot.engine.match import Match
from bot.engine.rules import get_profile
from bot.simulate import mean_interval, resolve_policy, seats_to_act

sys.path.insert(0, str(Path(__file__).resolve().parent))
from duplicate import variant

BINS = (-60.0, -40.0, -30.0, -25.0, -20.0, -15.0, -10.0, -5.0, 0.0, 5.0, 10.0, 20.0)


def collect(expert_spec: str, opponent: str, deals: int, seed: int) -> list[dict[str, Any]]:
    """One row per drop decision of the expert: estimate, distance, turn kind, realised chips."""
    rules = get_profile("points")
    make_e = variant(expert_spec)
    make_o = resolve_policy(opponent)
    master = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for i in range(deals):
        match_seed = master.getrandbits(40)
        me = i % 2
        match = Match.create(["P0", "P1"], rules, seed=match_seed)
        makers = [make_e, make_o] if me == 0 else [make_o, make_e]
        policies = [m(random.Random(match_seed * 7919 + s)) for s, m in enumerate(makers)]
        expert = policies[me]
        assert isinstance(expert, ExpertPolicy)
        expert.drop_margin = 1e9  # never drop: every deal is played on to its end
        logged: list[dict[str, Any]] = []
        for seat in seats_to_act(match):
            obs = match.observation(seat)
            if seat == me and obs.may_drop and obs.drop_cost is not None:
                kinds = {a.kind for a in obs.legal_actions}
                if ActionKind.DROP in kinds:
                    t = Tracker.from_observation(obs)
                    opps = opponents(obs)
                    v = expert.drop_estimate(obs, t, opps)
                    stock = expert.play_on_value(obs, t, opps).chips
                    d = distance(HandCode.of(obs.hand, obs.rules, obs.wild_rank), set_limit(rules))
                    turn = sum(1 for e in obs.pile_history if e.discarded_by == me)
                    logged.append({
                        "estimate": v.chips, "stock": stock, "win": v.win, "lose": v.lose,
                        "distance": d, "cost": obs.drop_cost, "turn": turn,
                    })  # fmt: skip
            match.apply(policies[seat].act(obs))
        chips = sum(float(r.deltas.get(me, 0)) for r in match.results)
        won = any(r.winner == me for r in match.results)
        for row in logged:
            row["realised"] = chips
            row["won"] = won
            row["deal"] = i
        rows += logged
    return rows


def table(rows: Sequence[dict[str, Any]], key: str = "estimate") -> list[str]:
    out = [f"{'bin':>14} {'n':>5} {'deals':>5} {'estimate':>9} {'realised':>9} {'95% CI':>17}"
           f" {'P(win) est':>10} {'won':>5}"]  # fmt: skip
    edges = (-math.inf, *BINS, math.inf)
    for lo, hi in itertools.pairwise(edges):
        sel = [r for r in rows if lo <= r[key] < hi]
        if not sel:
            continue
        est = statistics.fmean(r[key] for r in sel)
        real = [r["realised"] for r in sel]
        m, h = mean_interval(real)
        pw = statistics.fmean(r["win"] for r in sel)
        won = statistics.fmean(1.0 if r["won"] else 0.0 for r in sel)
        n_deals = len({r["deal"] for r in sel})
        out.append(f"[{lo:>5.0f},{hi:>5.0f}) {len(sel):>5} {n_deals:>5} {est:>+9.2f} {m:>+9.2f} "
                   f"[{m - h:>+6.2f},{m + h:>+6.2f}] {pw:>10.3f} {won:>5.3f}")  # fmt: skip
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--expert", default="expert", help="the expert variant (duplicate.py)")
    parser.add_argument("--opponent", default="hard")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--dump", default="", help="write the rows as JSON lines to this file")
    args = parser.parse_args(argv)
    rows = collect(args.expert, args.opponent, args.deals, args.seed)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print(f"{args.expert} (never dropping) vs {args.opponent}, heads-up points, "
          f"{args.deals} deals, seed {args.seed}: {len(rows)} drop decisions")  # fmt: skip
    for kind, sel in (("first turn", [r for r in rows if r["turn"] == 0]),
                      ("later turns", [r for r in rows if r["turn"] > 0])):  # fmt: skip
        print(f"\n{kind}: {len(sel)} decisions")
        print("\n".join(table(sel)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
