"""Is `closeness.py` calibrated? Its chance that an opponent declares soon, against what happened.

    python benchmarks/closeness_calibration.py --deals 300 --seed 6000 --opponent hard
    python benchmarks/closeness_calibration.py --deals 300 --seed 6000 --dump rows.jsonl
    python benchmarks/closeness_calibration.py --fit train.jsonl --check valid.jsonl

Heads-up points deals, the expert (as configured, drops included) against `--opponent`, seats
alternated. At the first decision of each of the expert's turns it logs, for the opponent, what
the estimate says: the chance that it declares on its next turn, within its next 2 and within
its next 3 turns (`1 - prod(1 - hazard(k))`), with the public evidence the estimate reads
(turns played, cards taken and kept, its throws, the stock). The label is read after the deal
from what the simulator saw happen (never given to the AI): on which of its coming turns the
opponent declared, or how many it played without declaring before the deal ended. A window the
deal ended inside without the opponent declaring (the expert declared or dropped first) is
censored and left out of that window's table: the estimate is a chance *given that the deal
goes on*, which is how `chips.race` uses it.

Prints, for the hazards of the opponent's next three turns (each on the rows whose deal
reached that turn: unbiased) and then per window, a reliability table (predicted bucket, count,
mean predicted, observed frequency with a 95% interval) and the Brier score and log loss, beside
those of a constant predictor (the base rate) for scale. A window's table leaves out the rows
censored inside it, and those never declared, so for windows of 2 and 3 its observed rates are
biased up a little; the hazard tables are not. `--fit FILES` fits the logistic hazard of
`fitted_hazard.fitted_features` (`benchmarks/experiments/`) to dumped rows (one row per coming
turn reached, up to three ahead, the evidence as at the decision) by Newton's method and prints
the weights and both estimates' tables on those rows; `--check FILES` prints both on other rows
(with `--fit`'s weights, or else `fitted_hazard.FITTED_WEIGHTS`). A benchmark, not a test: no
assertion.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.experiments.fitted_hazard import (
    FITTED_WEIGHTS,
    Evidence,
    evidence_of,
    fitted_features,
)
from bot.engine.actions import ActionKind
from bot.engine.match import Match
from bot.engine.rules import get_profile
from bot.engine.states import EndReason
from bot.simulate import resolve_policy, seats_to_act

sys.path.insert(0, str(Path(__file__).resolve().parent))
from duplicate import variant

WINDOWS = (1, 2, 3)
EDGES = (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0001)


def within(c: Evidence, n: int, weights: Sequence[float] | None = None) -> float:
    """Chance that the opponent declares within its next `n` turns, as the model says."""
    none = 1.0
    for k in range(n):
        h = c.hazard(k) if weights is None else c.fitted_hazard(k, weights)
        none *= 1.0 - h
    return 1.0 - none


def collect(expert_spec: str, opponent: str, deals: int, seed: int) -> list[dict[str, Any]]:
    """One row per expert turn: the opponent's evidence, the estimates and the outcome."""
    rules = get_profile("points")
    make_e = variant(expert_spec)
    make_o = resolve_policy(opponent)
    master = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for i in range(deals):
        match_seed = master.getrandbits(40)
        me = i % 2
        opp = 1 - me
        match = Match.create(["P0", "P1"], rules, seed=match_seed)
        makers = [make_e, make_o] if me == 0 else [make_o, make_e]
        policies = [m(random.Random(match_seed * 7919 + s)) for s, m in enumerate(makers)]
        logged: list[dict[str, Any]] = []
        done = 0  # the opponent's completed turns (a throw or a declaration)
        for seat in seats_to_act(match):
            obs = match.observation(seat)
            if seat == me and obs.drawn is None:
                c = next(o for o in evidence_of(obs) if o.seat == opp)
                row: dict[str, Any] = {
                    "deal": i, "opponent": opponent, "done": done,
                    "evidence": c.evidence(), "features": list(fitted_features(c, 0)),
                    "pred": [within(c, n) for n in WINDOWS],
                    "turns": c.turns, "takes": c.takes, "recent_low": c.recent_low,
                }  # fmt: skip
                logged.append(row)
            action = policies[seat].act(obs)
            match.apply(action)
            if seat == opp and action.kind in (ActionKind.DISCARD, ActionKind.DECLARE):
                done += 1
        result = match.results[-1]
        declared = result.winner == opp and result.end in (
            EndReason.DECLARED,
            EndReason.HAND_RUMMY,
        )
        for row in logged:
            row["after"] = done - row["done"]  # the opponent's turns played after the decision
            row["declared"] = declared  # ... the last of them a declaration
            row["end"] = str(result.end)
        rows += logged
    return rows


def label(row: dict[str, Any], n: int) -> int | None:
    """1: declared within its next n turns; 0: played n turns without; None: censored."""
    if row["declared"] and row["after"] <= n:
        return 1
    if row["after"] >= n + (1 if row["declared"] else 0):
        return 0
    return None


def scores(pairs: Sequence[tuple[float, int]]) -> tuple[float, float]:
    brier = sum((p - y) ** 2 for p, y in pairs) / len(pairs)
    eps = 1e-6
    ll = -sum(
        math.log(min(1 - eps, max(eps, p))) if y else math.log(min(1 - eps, max(eps, 1 - p)))
        for p, y in pairs
    ) / len(pairs)
    return brier, ll


def reliability(pairs: Sequence[tuple[float, int]]) -> list[str]:
    out = [f"{'bucket':>13} {'n':>6} {'predicted':>9} {'observed':>8} {'95% CI':>15}"]
    for lo, hi in itertools.pairwise(EDGES):
        sel = [(p, y) for p, y in pairs if lo <= p < hi]
        if not sel:
            continue
        n = len(sel)
        pm = sum(p for p, _ in sel) / n
        o = sum(y for _, y in sel) / n
        h = 1.96 * math.sqrt(max(o * (1 - o), 1e-9) / n)
        out.append(f"[{lo:.2f},{min(hi, 1):.2f}) {n:>6} {pm:>9.3f} {o:>8.3f} "
                   f"[{max(0, o - h):.3f},{min(1, o + h):.3f}]")  # fmt: skip
    brier, ll = scores(pairs)
    base = sum(y for _, y in pairs) / len(pairs)
    b0, l0 = scores([(base, y) for _, y in pairs])
    out.append(f"n {len(pairs)}, base rate {base:.3f}: Brier {brier:.4f} (constant {b0:.4f}), "
               f"log loss {ll:.4f} (constant {l0:.4f})")  # fmt: skip
    return out


def predictions(row: dict[str, Any], weights: Sequence[float] | None) -> list[float]:
    if weights is None:
        return list(row["pred"])
    c = Evidence.from_evidence(row["evidence"])
    return [within(c, n, weights) for n in WINDOWS]


def report(rows: Sequence[dict[str, Any]], weights: Sequence[float] | None) -> list[str]:
    out = []
    for k in range(3):
        # the hazard of the opponent's turn k ahead, on the rows whose deal reached that turn
        pairs = []
        for r in rows:
            if r["after"] > k:
                c = Evidence.from_evidence(r["evidence"])
                h = c.hazard(k) if weights is None else c.fitted_hazard(k, weights)
                pairs.append((h, 1 if r["declared"] and r["after"] == k + 1 else 0))
        out.append(f"\nhazard of its turn {k + 1} ahead, on the {len(pairs)} rows that reached it")
        out += reliability(pairs)
    preds = [predictions(r, weights) for r in rows]
    for j, n in enumerate(WINDOWS):
        pairs = []
        for r, p in zip(rows, preds, strict=True):
            y = label(r, n)
            if y is not None:
                pairs.append((p[j], y))
        cens = len(rows) - len(pairs)
        out.append(f"\nwithin {n} turn{'s' if n > 1 else ''} ({cens} censored rows left out)")
        out += reliability(pairs)
    return out


# -- the fit ----------------------------------------------------------------------------------


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (small dense systems)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        d = m[col][col] or 1e-12
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / d
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / (m[i][i] or 1e-12) for i in range(n)]


def hazard_rows(rows: Sequence[dict[str, Any]]) -> list[tuple[list[float], int]]:
    """(features, declared on that turn) for each coming turn the opponent actually reached,
    up to three ahead of the decision (features of turn k ahead, evidence as at the
    decision)."""
    out = []
    for r in rows:
        c = Evidence.from_evidence(r["evidence"])
        for k in range(3):
            if r["after"] <= k:
                break  # the deal ended before this turn
            y = 1 if r["declared"] and r["after"] == k + 1 else 0
            out.append((list(fitted_features(c, k)), y))
    return out


def fit(rows: Sequence[dict[str, Any]], ridge: float = 1.0, steps: int = 25) -> list[float]:
    """Logistic regression of the per-turn hazard by Newton's method (L2 `ridge`, not on the
    intercept)."""
    data = hazard_rows(rows)
    k = len(data[0][0])
    w = [0.0] * k
    w[0] = -2.0
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in data:
            z = sum(a * b for a, b in zip(w, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = p - y
            s = p * (1 - p)
            for i in range(k):
                grad[i] += g * x[i]
                hi = hess[i]
                sx = s * x[i]
                for j in range(k):
                    hi[j] += sx * x[j]
        for i in range(1, k):
            grad[i] += ridge * w[i]
            hess[i][i] += ridge
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return w


def load(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--expert", default="expert", help="the expert variant (duplicate.py)")
    parser.add_argument("--opponent", default="hard")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=6000)
    parser.add_argument("--model", choices=("hand", "fitted"), default="hand")
    parser.add_argument("--dump", default="", help="write the rows as JSON lines to this file")
    parser.add_argument("--fit", default="", nargs="*", help="fit to these dumped row files")
    parser.add_argument("--check", default="", nargs="*", help="score on these dumped files")
    parser.add_argument("--ridge", type=float, default=1.0)
    args = parser.parse_args(argv)
    if args.fit or args.check:
        weights: Sequence[float] = FITTED_WEIGHTS
        if args.fit:
            train = [r for p in args.fit for r in load(p)]
            weights = fit(train, args.ridge)
            print("weights:", "(" + ", ".join(f"{w:.4f}" for w in weights) + ")")
            print(f"\n== fit rows ({len(train)}), hand-set estimate ==")
            print("\n".join(report(train, None)))
            print(f"\n== fit rows ({len(train)}), fitted estimate ==")
            print("\n".join(report(train, weights)))
        if args.check:
            check = [r for p in args.check for r in load(p)]
            print(f"\n== check rows ({len(check)}), hand-set estimate ==")
            print("\n".join(report(check, None)))
            print(f"\n== check rows ({len(check)}), fitted estimate ==")
            print("\n".join(report(check, weights)))
        return 0
    rows = collect(args.expert, args.opponent, args.deals, args.seed)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print(f"{args.expert} vs {args.opponent}, heads-up points, {args.deals} deals, "
          f"seed {args.seed}: {len(rows)} expert turns; {args.model} estimate")  # fmt: skip
    print("\n".join(report(rows, None if args.model == "hand" else FITTED_WEIGHTS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
