"""Fit the expert's throw value in chips from play (`benchmarks/experiments/fitted_throw.py`).

    python benchmarks/fit_throw_value.py collect --deals 150 --seed 5100 --out rows.jsonl
    python benchmarks/fit_throw_value.py fit rows.jsonl [more.jsonl ...]

`collect` plays heads-up points deals, `--policy` (default: the expert with its default
settings) against `--opponent` (default hard), seats alternated. At each throw decision of the
policy's seat with a choice, every candidate the expert weighs (`ExpertPolicy.throw_values`)
is thrown on a copy of the match and the copy is played to the deal's end by the same two
policies; the candidate's label is the seat's chips in that copy. All copies of a decision
share the stock and the opponent's hand, so the labels of one decision differ only by the
throw and what followed from it: a paired comparison, far less noisy than the chips of deals
that differ in their cards. The features of each candidate are read from the policy's own
observation (`fitted_throw.candidate_features`), never from the hidden state the copies play
on. The match itself goes on with the policy's own choice. One JSON line per decision.

`fit` removes each decision's mean from its features and labels (only the differences between
candidates of one decision matter for a choice) and solves the least squares problem, with a
small ridge, in pure Python. It prints the weights (paste them into `fitted_throw.WEIGHTS`),
and a two-fold check by deal: fitted on the even deals, the odd deals' decisions are played by the
model's pick, and the reverse; the gain is the label of the model's pick minus that of the
policy's own pick, summed per deal, with its 95% interval over deals. The oracle line is the
best candidate's label minus the policy's pick: what a perfect throw model could add.
A benchmark, not a test: no assertion.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.experiments.fitted_throw import FEATURES, candidate_features, predict
from bot.ai.closeness import opponents
from bot.ai.expert import ExpertPolicy
from bot.ai.policies import _throwable
from bot.ai.tracking import Tracker
from bot.engine.actions import Action, ActionKind
from bot.engine.match import Match, MatchPhase
from bot.engine.policy import Policy
from bot.engine.rules import get_profile
from bot.simulate import interval_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from duplicate import variant


def play_out(match: Match, policies: Sequence[Policy], seat: int) -> float:
    """Play `match` to the end of its deal; `seat`'s chips in that deal."""
    while match.phase is MatchPhase.PLAYING:
        deal = match.deal
        assert deal is not None
        obs = match.observation(deal.turn)
        match.apply(policies[deal.turn].act(obs))
    return float(match.results[-1].deltas.get(seat, 0))


def collect(
    policy: str, opponent: str, deals: int, seed: int, progress: bool = False
) -> list[dict[str, Any]]:
    """One row per throw decision of `policy`'s seat with more than one candidate."""
    rules = get_profile("points")
    make_p, make_o = variant(policy), variant(opponent)
    master = random.Random(seed)
    rows: list[dict[str, Any]] = []
    start = time.process_time()
    for i in range(deals):
        match_seed = master.getrandbits(40)
        me = i % 2
        match = Match.create(["P0", "P1"], rules, seed=match_seed)
        makers = [make_p, make_o] if me == 0 else [make_o, make_p]
        policies = [m(random.Random(match_seed * 7919 + s)) for s, m in enumerate(makers)]
        mine = policies[me]
        assert isinstance(mine, ExpertPolicy)
        turn = 0
        first = len(rows)
        while match.phase is MatchPhase.PLAYING:
            deal = match.deal
            assert deal is not None
            seat = deal.turn
            obs = match.observation(seat)
            action = policies[seat].act(obs)
            if seat == me and action.kind is ActionKind.DISCARD and len(_throwable(obs)) > 1:
                t, opps = Tracker.from_observation(obs), opponents(obs)
                values = mine.throw_values(obs, t, opps)
                features = candidate_features(mine, obs, t, opps, values)
                state = match.to_dict()
                labels = []
                for v in values:
                    copy = Match.from_dict(state)
                    copy.apply(Action.discard(me, v.card.id))
                    labels.append(play_out(copy, policies, me))
                face = next(c.face for c in obs.hand if c.id == action.card)
                picked = next((k for k, v in enumerate(values) if v.card.face == face), 0)
                rows.append({
                    "deal": i, "turn": turn, "picked": picked, "labels": labels,
                    "features": [list(f) for f in features],
                    "cards": [str(v.card.face) for v in values],
                })  # fmt: skip
                turn += 1
            match.apply(action)
        chips = float(match.results[-1].deltas.get(me, 0))
        for row in rows[first:]:
            row["chips"] = chips  # the deal as played: the picked candidate's label
        if progress and (i + 1) % 10 == 0:
            cpu = time.process_time() - start
            print(f"  {i + 1} deals, {len(rows)} decisions, {cpu:.0f} s", file=sys.stderr)
    return rows


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b (a square, symmetric positive definite after the ridge) by Gaussian
    elimination with partial pivoting: numpy is not a dependency."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        if abs(p) < 1e-12:
            raise ValueError("singular system")
        for r in range(col + 1, n):
            f = m[r][col] / p
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(rows: Sequence[dict[str, Any]], ridge: float = 1.0) -> list[float]:
    """Least squares on within-decision differences (each decision's mean removed), with
    `ridge` added to the diagonal (the features are scaled to similar sizes)."""
    k = len(FEATURES)
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for row in rows:
        xs, ys = row["features"], row["labels"]
        if len(ys) < 2:
            continue
        mx = [statistics.fmean(x[j] for x in xs) for j in range(k)]
        my = statistics.fmean(ys)
        for x, y in zip(xs, ys, strict=True):
            dx = [x[j] - mx[j] for j in range(k)]
            dy = y - my
            for i in range(k):
                xty[i] += dx[i] * dy
                for j in range(k):
                    xtx[i][j] += dx[i] * dx[j]
    for i in range(k):
        xtx[i][i] += ridge
    return solve(xtx, xty)


def gains(
    rows: Sequence[dict[str, Any]], weights: Sequence[float]
) -> tuple[dict[int, float], dict[int, float]]:
    """Per deal: the label of the model's pick minus the policy's pick, and the oracle's."""
    model: dict[int, float] = {}
    oracle: dict[int, float] = {}
    for row in rows:
        ys, p = row["labels"], row["picked"]
        preds = [predict(x, weights) for x in row["features"]]
        best = max(range(len(ys)), key=lambda j: (preds[j], -j))
        model[row["deal"]] = model.get(row["deal"], 0.0) + ys[best] - ys[p]
        oracle[row["deal"]] = oracle.get(row["deal"], 0.0) + max(ys) - ys[p]
    return model, oracle


# The expert's default "turns" model written in the features (3 chips a turn of hard's turns,
# its feed danger and 0.01 of its shape score; 1 chip a point times the chance of losing soon):
# it differs from the policy's own pick only where the features cap the turns at 40, so its
# two-fold line checks the check (about zero).
TURNS_MODEL = tuple(
    {"turns": -30.0, "shape": -0.3, "danger": -3.0, "points_soon": -10.0}.get(name, 0.0)
    for name in FEATURES
)


def only(row: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """`row` with the features not in `names` set to zero (their fitted weight is then 0)."""
    keep = [name in names for name in FEATURES]
    feats = [[x if k else 0.0 for x, k in zip(f, keep, strict=True)] for f in row["features"]]
    return {**row, "features": feats}


def report(rows: Sequence[dict[str, Any]], ridge: float) -> list[str]:
    out = [f"{len(rows)} decisions from {len({r['deal'] for r in rows})} deals"]
    weights = fit(rows, ridge)
    out.append("weights (all rows): (" + ", ".join(f"{w:.4g}" for w in weights) + ")")
    for name, w in zip(FEATURES, weights, strict=True):
        out.append(f"  {name:>12} {w:+9.3f}")
    even = [r for r in rows if r["deal"] % 2 == 0]
    odd = [r for r in rows if r["deal"] % 2 == 1]
    model: dict[int, float] = {}
    oracle: dict[int, float] = {}
    for train, test in ((even, odd), (odd, even)):
        m, o = gains(test, fit(train, ridge))
        model.update(m)
        oracle.update(o)
    out.append(
        f"two-fold, model pick - policy pick, chips a deal: {interval_text([*model.values()])}"
    )
    out.append(f"oracle (best - policy pick), chips a deal: {interval_text([*oracle.values()])}")
    same, _ = gains(rows, TURNS_MODEL)
    out.append(
        f"the turns model in these features, chips a deal: {interval_text([*same.values()])}"
    )
    changed = sum(
        1 for r in rows
        if max(range(len(r["labels"])), key=lambda j: (predict(r["features"][j], weights), -j))
        != r["picked"]
    )  # fmt: skip
    out.append(f"the all-rows fit picks another throw in {changed} of {len(rows)} decisions")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play deals and write the labelled decisions")
    c.add_argument("--policy", default="expert", help="the seat whose throws are recorded")
    c.add_argument("--opponent", default="hard")
    c.add_argument("--deals", type=int, default=100)
    c.add_argument("--seed", type=int, default=5100)
    c.add_argument("--out", required=True, help="JSON lines file to write")
    f = sub.add_parser("fit", help="fit the weights and check them two-fold by deal")
    f.add_argument("data", nargs="+", help="JSON lines files from collect")
    f.add_argument("--ridge", type=float, default=1.0)
    f.add_argument("--features", default="", help="comma-separated subset of the features to fit")
    args = parser.parse_args(argv)
    if args.command == "collect":
        rows = collect(args.policy, args.opponent, args.deals, args.seed, progress=True)
        with open(args.out, "w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r) + "\n")
        print(f"{len(rows)} decisions from {args.deals} deals (seed {args.seed}) -> {args.out}")
        return 0
    rows = []
    for n, path in enumerate(args.data):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    row = json.loads(line)
                    row["deal"] += 1_000_000 * n  # deals of different files stay apart
                    rows.append(row)
    if args.features:
        rows = [only(r, args.features.split(",")) for r in rows]
    print("\n".join(report(rows, args.ridge)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
