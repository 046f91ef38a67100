"""What the fake Discord's referee costs per REST request (figures, no assertions).

    python benchmarks/bench_spec_validation.py [--game points-4p] [--cold-rounds 3]

Plays whole matches of `tests/e2e/test_games.py` (the real bot in-process against the fake
Discord, through `tests.e2e.harness`, both audits on) and times, with the thread's CPU clock
(`time.thread_time_ns`; the fake, the bot and the referee share one thread, and both timed
calls are synchronous, so nothing else runs inside them), the two steps the fake adds to every
REST request before handling it:

* `route`: which operation of Discord's API document the request is (`FakeDiscordServer.
  _operation`, `openapi.OpenAPI.resolve`);
* `check`: its path and query parameters and body against the document's schemas, then the
  documented limits the document lacks (`FakeDiscordServer._refuse_request`).

Printed: the requests of the game, the referee's CPU per request (mean, median, 95th
percentile, max) as it runs in the tests (verdicts on a body text and a parameter value
already checked are reused), its total against the whole process's CPU over the game, and
the same requests checked again against a freshly loaded document with no reused verdicts
(`cold`: every body validated; the median of `--cold-rounds` passes, each on a new
document, its first-use compilation included), plus what loading and preparing the document
costs once per process. The machine's load (`/proc/loadavg`) is printed before and after: on
a shared machine, compare figures of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.harness import TableDriver, game_env
from tests.fakediscord import FakeDiscordServer, openapi

#: The matches of tests/e2e/test_games.py this can play: (profile, seats, seed, options).
GAMES: dict[str, tuple[str, list[str], int, dict[str, Any]]] = {
    "points-2p": ("points", ["alice", "bob"], 4, {}),
    "points-4p": ("points", ["alice", "bob", "carol", "dave"], 6, {}),
    "pool101-2p": ("pool101", ["alice", "bob"], 7, {}),
    "paplu-4p": ("paplu", ["alice", "bob", "carol", "dave"], 6, {}),
}


@dataclass
class Seen:
    """One request as the referee saw it: the operation, its path and query, its body."""

    operation: openapi.Operation
    path: str
    query: dict[str, str]
    body: openapi.Body


@dataclass
class Timings:
    route_ns: list[int]
    check_ns: list[int]
    seen: list[Seen]


def timed(timings: Timings) -> Callable[[], None]:
    """Wrap the two referee steps of FakeDiscordServer with the thread's CPU clock; returns
    the function that puts them back."""
    route, refuse = FakeDiscordServer._operation, FakeDiscordServer._refuse_request

    def operation(self: FakeDiscordServer, request: Any, method: str, tail: str) -> Any:
        start = time.thread_time_ns()
        try:
            return route(self, request, method, tail)
        finally:
            timings.route_ns.append(time.thread_time_ns() - start)

    def refuse_request(
        self: FakeDiscordServer,
        op: openapi.Operation,
        request: Any,
        path: str,
        params: dict[str, str],
        body: openapi.Body,
        files: list[Any],
    ) -> Any:
        start = time.thread_time_ns()
        try:
            return refuse(self, op, request, path, params, body, files)
        finally:
            timings.check_ns.append(time.thread_time_ns() - start)
            timings.seen.append(Seen(op, path, dict(request.query), body))

    FakeDiscordServer._operation = operation  # type: ignore[method-assign]
    FakeDiscordServer._refuse_request = refuse_request  # type: ignore[method-assign,assignment]

    def restore() -> None:
        FakeDiscordServer._operation = route  # type: ignore[method-assign]
        FakeDiscordServer._refuse_request = refuse  # type: ignore[method-assign]

    return restore


async def play(game: str, timings: Timings) -> float:
    """Play one match to its end; the process's CPU seconds over it."""
    profile, users, seed, options = GAMES[game]
    with tempfile.TemporaryDirectory() as tmp:
        start = time.process_time()
        async with game_env(Path(tmp), users, seed, next_deal_delay=60.0) as env:
            driver = TableDriver(env.fake, users)
            await driver.open(users[0], profile=profile, **options)
            await driver.start(users[0])
            assert await driver.play() is not None
            await env.finish()  # no violations: the bot's requests all passed the referee
        return time.process_time() - start


def cold(seen: list[Seen]) -> tuple[float, list[int]]:
    """Load the document afresh and check every request, no verdict reused: the load's CPU
    seconds and each request's CPU ns."""
    start = time.thread_time_ns()
    document = openapi.load()
    load_s = (time.thread_time_ns() - start) / 1e9
    costs = []
    for s in seen:
        document.forget()
        t = time.thread_time_ns()
        document.check(s.operation, s.path, s.query, s.body)
        costs.append(time.thread_time_ns() - t)
    return load_s, costs


def us(ns: float) -> str:
    return f"{ns / 1000:8.1f}"


def row(name: str, values: list[int]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"{name:<34}{us(statistics.fmean(values))}{us(statistics.median(values))}"
        f"{us(p95)}{us(ordered[-1])}{sum(values) / 1e6:10.1f}"
    )


def load_average() -> str:
    with open("/proc/loadavg") as handle:
        return " ".join(handle.read().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--cold-rounds", type=int, default=3)
    args = parser.parse_args()
    games = args.game or ["points-4p", "paplu-4p"]
    print(f"load average before: {load_average()} ({len(games)} match(es): {', '.join(games)})")
    timings = Timings([], [], [])
    restore = timed(timings)
    try:
        process_s = sum(asyncio.run(play(game, timings)) for game in games)
    finally:
        restore()
    rounds = [cold(timings.seen) for _ in range(max(1, args.cold_rounds))]
    loads = [load for load, _ in rounds]
    per_request = [statistics.median(r[1][i] for r in rounds) for i in range(len(timings.seen))]
    both = [a + b for a, b in zip(timings.route_ns, timings.check_ns, strict=False)]
    referee_s = (sum(timings.route_ns) + sum(timings.check_ns)) / 1e9
    bodies = sum(s.body.media_type is not None for s in timings.seen)
    print(
        f"{len(timings.route_ns)} requests ({bodies} with a body); "
        f"process CPU over the matches {process_s:.2f} s"
    )
    print(
        f"{'CPU per request (us)':<34}{'mean':>8}{'median':>8}{'p95':>8}{'max':>8}{'total ms':>10}"
    )
    print(row("route (as in the tests)", timings.route_ns))
    print(row("check (as in the tests)", timings.check_ns))
    print(row("route + check (as in the tests)", both))
    print(row("document check, cold", [int(c) for c in per_request]))
    print(
        f"referee total {referee_s * 1000:.1f} ms = {100 * referee_s / process_s:.1f}% of "
        f"the process's CPU; loading and preparing the document once: "
        f"{statistics.median(loads) * 1000:.0f} ms"
    )
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
