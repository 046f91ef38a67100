"""Speed of hand evaluation (a benchmark script, not a test).

    python benchmarks/bench_engine.py [--hands 10000] [--naive-sample 300] [--seed 1]

Evaluates random hands of two kinds, over all six profiles: dealt-random hands, and
nearly-complete hands built from runs and sets with several wild cards (the hard case for a
search). Prints median and p99 time per 13-card evaluation and per 14-card evaluation (all
distinct discards), and the speed ratio against the naive reference evaluator on a sample of
the same 13-card hands. The suit-table cache starts empty, as in a freshly started bot.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.cards import Card
from bot.engine.evaluate import clear_cache, evaluate_drawn, evaluate_hand
from bot.engine.reference import reference_evaluate
from bot.engine.rules import PROFILES, Rules


def near_complete(
    rng: random.Random, deck: list[Card], rules: Rules, wild_rank: int | None
) -> list[Card]:
    """Short runs drawn from the deck, topped up with two to four wild cards."""
    pool = list(deck)
    rng.shuffle(pool)
    wilds = [c for c in pool if rules.is_wild(c.face, wild_rank)]
    hand: list[Card] = wilds[: rng.randint(2, 4)]
    used = {c.id for c in hand}
    while len(hand) < 13:
        suit = rng.randrange(4)
        start = rng.randint(1, 11)
        for rank in range(start, min(14, start + rng.randint(3, 4))):
            match = next(
                (c for c in pool if c.suit == suit and c.rank == rank and c.id not in used), None
            )
            if match is not None and len(hand) < 13:
                hand.append(match)
                used.add(match.id)
    return hand


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--naive-sample", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    profiles = list(PROFILES.values())

    cases: list[tuple[Rules, int | None, list[Card], Card]] = []
    for i in range(args.hands):
        rules = profiles[i % len(profiles)]
        deck = rules.build_deck(4)
        indicator = rng.choice(deck).face
        wild_rank = rules.wild_rank(indicator)
        if i % 2 == 0:
            hand = rng.sample(deck, 14)
        else:
            hand = near_complete(rng, deck, rules, wild_rank)
            extra = rng.choice([c for c in deck if c.id not in {h.id for h in hand}])
            hand = [*hand, extra]
        cases.append((rules, wild_rank, hand[:13], hand[13]))

    clear_cache()
    t13: list[float] = []
    for rules, wild_rank, hand, _ in cases:
        t = time.perf_counter()
        evaluate_hand(hand, rules, wild_rank)
        t13.append(time.perf_counter() - t)
    t14: list[float] = []
    for rules, wild_rank, hand, extra in cases:
        t = time.perf_counter()
        evaluate_drawn([*hand, extra], rules, wild_rank)
        t14.append(time.perf_counter() - t)

    sample = cases[:: max(1, len(cases) // args.naive_sample)][: args.naive_sample]
    warm_t = cold_t = naive_t = 0.0
    for rules, wild_rank, hand, _ in sample:
        t = time.perf_counter()
        evaluate_hand(hand, rules, wild_rank)  # as in a running bot: the cache is warm
        warm_t += time.perf_counter() - t
    for rules, wild_rank, hand, _ in sample:
        clear_cache()  # worst case: no help at all from earlier hands
        t = time.perf_counter()
        evaluate_hand(hand, rules, wild_rank)
        cold_t += time.perf_counter() - t
        t = time.perf_counter()
        reference_evaluate(hand, rules, wild_rank)
        naive_t += time.perf_counter() - t

    ms = 1000.0
    print(f"hands: {len(cases)} (half dealt-random, half nearly complete with 2-4 wild cards)")
    print(
        f"13 cards: median {statistics.median(t13) * ms:.3f} ms, "
        f"p99 {percentile(t13, 0.99) * ms:.3f} ms"
        "   (targets: median <= 0.5 ms, p99 <= 5 ms)"
    )
    print(
        f"14 cards: median {statistics.median(t14) * ms:.3f} ms, "
        f"p99 {percentile(t14, 0.99) * ms:.3f} ms"
        "   (target: median <= 5 ms)"
    )
    n = len(sample)
    print(
        f"naive reference on {n} of the same 13-card hands: {naive_t / n * ms:.2f} ms per hand; "
        f"fast {warm_t / n * ms:.3f} ms warm ({naive_t / warm_t:.0f}x faster), "
        f"{cold_t / n * ms:.3f} ms with the cache cleared before each hand "
        f"({naive_t / cold_t:.0f}x)   (target: >= 300x)"
    )


if __name__ == "__main__":
    main()
