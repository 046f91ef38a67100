"""Storage benchmark (a script, not a test).

    python benchmarks/bench_storage.py [--players 100000 --deals 1000000]
    python benchmarks/bench_storage.py --database-url postgresql://user@host/emptydb

Without ``--database-url`` it measures SQLite in a temporary file; with a PostgreSQL URL
the same figures for PostgreSQL (give it an empty database: the fill is not undone).

Fills a temporary database with ``--players`` players and ``--deals`` deal results
(grouped into matches, all in ONE guild: the worst case for a per-guild
leaderboard), then prints median/p95 latencies of the hot paths against targets:

* a leaderboard page (every sort x period x profile scope, first and a deep page)
  -- target <= 20 ms
* recording one deal result -- target <= 5 ms
* storing one game action (``commit_action``) -- target <= 2 ms
* throughput: stored actions per second with 1, 10 and 100 tables writing at once
  (one task per table, each looping ``commit_action`` on its own table for
  ``--throughput-seconds``): concurrent commits on PostgreSQL share the WAL flush, so
  more writers store more actions per second; SQLite has one writer at a time.

``--pool-size`` is PostgreSQL's connection pool (the bot's ``DATABASE_POOL_SIZE``).
The script also runs against code from before the repositories existed (the methods
then lived on ``Storage`` itself): :func:`repo` picks whichever the code has, so one
script measures both sides of the change.

The fill goes through ``storage.results.import_results`` (bulk insert inside large
transactions, then one set-based summary rebuild), so no SQL lives here.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import (
    DealRecord,
    DealSeatRecord,
    MatchRecord,
    MatchSeatRecord,
    Outcome,
    Period,
    SortKey,
    Storage,
)

GUILD = 1
DAY = 86_400
SORTS: tuple[SortKey, ...] = ("rating", "matches_won", "deals_won", "net_chips", "win_rate")
PERIODS: tuple[Period, ...] = ("all", "30d", "7d")
OUTCOMES_LOSING: tuple[Outcome, ...] = (
    "lost",
    "lost",
    "lost",
    "dropped_first",
    "dropped_middle",
    "invalid_declaration",
)
# (profile, share of matches, deals per match range)
# A points "match" is one table session of several independently settled deals.
PROFILES = (("points", 0.6, (3, 10)), ("pool101", 0.25, (3, 8)), ("deals2", 0.15, (2, 2)))


def pick_profile(r: float) -> tuple[str, tuple[int, int]]:
    """Profile and deals-per-match range for a uniform random number ``r``."""
    acc = 0.0
    for profile, share, span in PROFILES:
        acc += share
        if r <= acc:
            return profile, span
    return PROFILES[-1][0], PROFILES[-1][2]


def generate(
    n_players: int, n_deals: int, now: int, seed: int = 7
) -> tuple[Iterator[DealRecord], list[MatchRecord]]:
    """Deterministic synthetic results over the last 365 days. Matches are returned
    as a list (needed for the import's second phase); deals are streamed."""
    rng = random.Random(seed)
    matches: list[MatchRecord] = []
    history = json.dumps({"moves": ["d:7H", "x:KS"] * 10})  # ~200-byte stand-in blob
    names: dict[int | None, str] = {u: f"player{u}" for u in range(1, n_players + 1)}
    names[None] = "Bot"

    def money(halves: int) -> Fraction:
        # ints are accepted by the storage (exact); Fraction only for .5 values
        return Fraction(halves, 2) if halves % 2 else halves // 2  # type: ignore[return-value]

    def deal_iter() -> Iterator[DealRecord]:
        made = 0
        m_no = 0
        while made < n_deals:
            profile, (lo, hi) = pick_profile(rng.random())
            n_seats = rng.choice((2, 2, 3, 4, 4, 5, 6))
            users: list[int | None] = list(rng.sample(range(1, n_players + 1), n_seats))
            if rng.random() < 0.1:
                users[-1] = None  # an AI seat
            start = now - rng.randint(0, 365 * DAY)
            k = min(rng.randint(lo, hi), n_deals - made)
            match_id = f"m{m_no}"
            m_no += 1
            # Money is tracked in integer half-points (10% of penalties end in .5)
            # and only turned into a Fraction when it is not whole, which keeps the
            # generator from dominating the fill time.
            totals = [0] * n_seats
            for deal_no in range(1, k + 1):
                winner = rng.randrange(n_seats)
                seats = []
                halves = [0 if i == winner else rng.randint(4, 160) for i in range(n_seats)]
                for i in range(n_seats):
                    if i != winner and halves[i] % 2 and rng.random() >= 0.2:
                        halves[i] += 1  # mostly whole penalties
                pot = sum(halves)
                for i, u in enumerate(users):
                    net_h = pot if i == winner else -halves[i]
                    totals[i] += net_h
                    seats.append(
                        DealSeatRecord(
                            user_id=u,
                            name=names[u],
                            is_ai=u is None,
                            outcome="won" if i == winner else rng.choice(OUTCOMES_LOSING),
                            penalty=money(halves[i]),
                            net=money(net_h),
                        )
                    )
                yield DealRecord(
                    GUILD, match_id, deal_no, profile, start + deal_no * 600, history, seats
                )
                made += 1
            order = sorted(range(n_seats), key=lambda i: -totals[i])
            places = {seat: rank + 1 for rank, seat in enumerate(order)}
            matches.append(
                MatchRecord(
                    match_id,
                    GUILD,
                    profile,
                    start + k * 600 + 60,
                    [
                        MatchSeatRecord(
                            user_id=u,
                            name=names[u],
                            is_ai=u is None,
                            place=places[i],
                            is_winner=places[i] == 1,
                            net=money(totals[i]),
                        )
                        for i, u in enumerate(users)
                    ],
                )
            )

    return deal_iter(), matches


def repo(st: Any, name: str) -> Any:
    """The repository ``name`` of ``st`` (``st.tables``, ``st.boards``...), or ``st``
    itself on code from before the repositories, where every method lived on Storage."""
    return getattr(st, name, st)


async def open_storage(target: str | Path, pool_size: int) -> Any:
    """Open like the bot does; ``pool_size`` only where the code has a pool."""
    if "pool_size" in inspect.signature(Storage.open_url).parameters:
        return await Storage.open_url(target, pool_size=pool_size)
    return await Storage.open_url(target)


async def throughput(
    st: Any, now: int, state: str, writers: int, seconds: float, round_no: int
) -> tuple[int, float, float]:
    """``writers`` tables each looping ``commit_action`` on its own table (one task per
    table) for ``seconds``: (actions stored, wall seconds, bot CPU seconds)."""
    tables = repo(st, "tables")
    ids = [f"bench-tp-{now}-{round_no}-{writers}-{i}" for i in range(writers)]
    for i, table_id in enumerate(ids):
        await tables.save_table(
            table_id,
            guild_id=GUILD,
            # one open table per channel
            channel_id=now * 10_000 + round_no * 1000 + writers * 2 + i,
            host_id=1,
            status="playing",
            state_json=state,
            version=1,
        )
    done = 0
    stop = time.perf_counter() + seconds

    async def writer(table_id: str) -> None:
        nonlocal done
        v = 2
        while time.perf_counter() < stop:
            await tables.commit_action(
                table_id, v, state, '{"type": "discard", "card": "7H"}', turn_deadline=now + 60.0
            )
            v += 1
            done += 1

    t0 = time.perf_counter()
    cpu0 = time.process_time()
    await asyncio.gather(*(writer(t) for t in ids))
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    for table_id in ids:
        await tables.close_table(table_id, "cancelled")
    return done, wall, cpu


async def throughputs(st: Any, now: int, state: str, seconds: float, rounds: int) -> None:
    """Stored actions per second with 1, 10 and 100 tables writing at once, the three
    interleaved over ``rounds`` rounds (the disk's flush time drifts from one minute to
    the next, and a ratio of figures taken minutes apart would measure the drift)."""
    totals: dict[int, list[float]] = {n: [0, 0.0, 0.0] for n in (1, 10, 100)}
    for r in range(rounds):
        for n in totals:
            done, wall, cpu = await throughput(st, now, state, n, seconds / rounds, r)
            totals[n][0] += done
            totals[n][1] += wall
            totals[n][2] += cpu
    for n, (done, wall, cpu) in totals.items():
        per_action = cpu / max(done, 1) * 1000
        print(
            f"  {n:>3} table(s) writing at once: {done / wall:8.0f} actions/s"
            f"   ({done:.0f} actions in {wall:.1f} s, bot CPU {per_action:.2f} ms/action)"
        )
    ratio = (totals[100][0] / totals[100][1]) / (totals[1][0] / totals[1][1])
    print(f"  100 writers / 1 writer: {ratio:.2f}x")


async def timed(fn: Callable[[], Awaitable[Any]], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        await fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def summary(label: str, samples: list[float], target: float | None = None) -> None:
    samples = sorted(samples)
    med = statistics.median(samples)
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    verdict = ""
    if target is not None:
        verdict = f"  target <= {target:g} ms: {'OK' if med <= target else 'MISSED'}"
    print(f"  {label:<44} median {med:8.3f} ms   p95 {p95:8.3f} ms   n={len(samples)}{verdict}")


def load() -> str:
    """The machine's 1/5/15-minute load averages (the figures depend on them)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs"


async def server_settings(url: str) -> str:
    """The PostgreSQL settings the write figures depend on (a commit waits for the
    WAL flush unless fsync or synchronous_commit is off)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        names = ("server_version", "fsync", "synchronous_commit", "shared_buffers")
        values = [await conn.fetchval(f"SHOW {name}") for name in names]
    finally:
        await conn.close()
    return ", ".join(f"{n}={v}" for n, v in zip(names, values, strict=True))


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--path", type=Path, default=None, help="database file (default: temp dir)")
    ap.add_argument("--reuse", action="store_true", help="skip the fill if --path exists")
    ap.add_argument(
        "--database-url",
        default=None,
        help="postgresql://... to measure PostgreSQL instead of SQLite (an empty database;"
        " with --reuse the fill is skipped)",
    )
    ap.add_argument("--pool-size", type=int, default=10, help="PostgreSQL pool size")
    ap.add_argument(
        "--throughput-seconds", type=float, default=30.0, help="per writer count, in all"
    )
    ap.add_argument("--throughput-rounds", type=int, default=5)
    ap.add_argument("--only-throughput", action="store_true", help="skip the latency figures")
    args = ap.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="bench_storage_")
    path = args.path or Path(tmp.name) / "bench.db"
    now = int(time.time())
    rng = random.Random(1)

    url: str | None = args.database_url
    label = "PostgreSQL" if url else str(path)
    filled = (args.reuse and url is not None) or (url is None and args.reuse and path.exists())
    if not filled:
        print(f"filling {label} with {args.players:,} players / {args.deals:,} deals ...")
        t0 = time.perf_counter()
        filler = await (Storage.open_url(url) if url else Storage.open(path, synchronous="NORMAL"))
        async with filler as st:
            deals, matches = generate(args.players, args.deals, now)
            n_deals, n_matches = await repo(st, "results").import_results(deals, matches)
        fill = time.perf_counter() - t0
        size = "" if url else f" ({path.stat().st_size / 2**20:.0f} MiB)"
        print(f"fill: {n_deals:,} deals, {n_matches:,} matches in {fill:.1f} s{size}")

    if url:
        print(f"server: {await server_settings(url)}")
    print(f"load average before measuring: {load()}")
    state = json.dumps({"hands": [[f"{r}{s}" for r in "A23456789TJQK" for s in "SH"]] * 24})
    async with await open_storage(url or path, args.pool_size) as st:
        if not args.only_throughput:
            await latencies(st, args.players, now, rng, state)
        print(
            f"\nthroughput ({len(state)} B state, pool {args.pool_size} on PostgreSQL,"
            f" {args.throughput_rounds} interleaved rounds):"
        )
        await throughputs(st, now, state, args.throughput_seconds, args.throughput_rounds)
    print(f"\nload average after measuring: {load()}")
    tmp.cleanup()


async def latencies(st: Any, players: int, now: int, rng: random.Random, state: str) -> None:
    """Median/p95 of the hot paths (see the module docstring)."""
    boards = repo(st, "boards")
    results = repo(st, "results")
    tables = repo(st, "tables")
    print("\nfirst period query per window (builds the rolling 7d/30d summaries once/day):")
    for period in PERIODS[1:]:
        t0 = time.perf_counter()
        await boards.leaderboard(GUILD, sort="net_chips", period=period, now=now)
        print(f"  build {period}: {(time.perf_counter() - t0) * 1000:.0f} ms")

    print("\nleaderboard page (limit 10), each combination timed 15x:")
    all_pages: list[float] = []
    per_sort: dict[str, list[float]] = {}
    for sort in SORTS:
        for period in PERIODS:
            for profile in (None, "points"):
                for offset in (0, 1000):

                    def page(
                        sort: SortKey = sort,
                        period: Period = period,
                        profile: str | None = profile,
                        offset: int = offset,
                    ) -> Awaitable[Any]:
                        return boards.leaderboard(
                            GUILD,
                            profile,
                            sort,
                            period,
                            offset=offset,
                            now=now,
                        )

                    samples = await timed(page, 15)
                    all_pages += samples
                    per_sort.setdefault(sort, []).extend(samples)
    summary("all pages", all_pages, 20)
    for sort_name, samples in per_sort.items():
        summary(f"  sort={sort_name}", samples)

    # players that really are on the 30d board, around rank 5000 (a rank is a
    # COUNT over the index, so deeper ranks cost more)
    active = await boards.leaderboard(
        GUILD, sort="net_chips", period="30d", limit=200, offset=5000, now=now
    )
    # cycle: a small --players run has fewer than 200 players that deep (or none)
    it: Iterator[int] = itertools.cycle([r.user_id for r in active] or [1])

    async def own_rank() -> None:
        await boards.player_rank(GUILD, next(it), sort="net_chips", period="30d", now=now)

    summary("player_rank (net_chips, 30d, rank ~5000)", await timed(own_rank, 200))
    user_ids = [rng.randint(1, players) for _ in range(200)]
    it = iter(user_ids)

    async def own_rank_all() -> None:
        await boards.player_rank(GUILD, next(it), sort="rating", now=now)

    summary("player_rank (rating, all, random player)", await timed(own_rank_all, 200))
    it = iter(user_ids)

    async def stats() -> None:
        await boards.player_stats(GUILD, next(it))

    summary("player_stats (random player)", await timed(stats, 200))

    print("\nwrites:")
    counter = iter(range(10**9))

    async def record() -> None:
        n = next(counter)
        users = rng.sample(range(1, players + 1), 4)
        seats = [
            DealSeatRecord(
                u,
                f"player{u}",
                False,
                "won" if i == 0 else "lost",
                Fraction(0 if i == 0 else 20),
                Fraction(60 if i == 0 else -20),
            )
            for i, u in enumerate(users)
        ]
        ok = await results.record_deal_result(
            # match ids unique per run: a reused (--reuse) database keeps earlier ones
            DealRecord(GUILD, f"bench-{now}-{n}", 1, "points", now, '{"moves": []}', seats)
        )
        assert ok

    summary("record_deal_result (4 seats)", await timed(record, 300), 5)

    async def record_match() -> None:
        n = next(counter)
        users = rng.sample(range(1, players + 1), 4)
        seats = [
            MatchSeatRecord(u, f"player{u}", False, i + 1, i == 0, Fraction(0))
            for i, u in enumerate(users)
        ]
        assert await results.record_match_result(
            MatchRecord(f"bench-m{now}-{n}", GUILD, "points", now, seats)
        )

    summary("record_match_result (4 seats, ratings)", await timed(record_match, 300))

    table_id = f"bench-table-{now}"  # a new table each run: the database may be reused
    await tables.save_table(
        table_id,
        guild_id=GUILD,
        channel_id=now,  # one open table per channel: a reused database has one
        host_id=1,
        status="playing",
        state_json=state,
        version=1,
    )
    version = iter(range(2, 10**9))

    async def action() -> None:
        v = next(version)
        await tables.commit_action(
            table_id,
            v,
            state,
            '{"type": "discard", "card": "7H"}',
            turn_deadline=now + 60.0,
        )

    summary(f"commit_action ({len(state)} B state)", await timed(action, 500), 2)


if __name__ == "__main__":
    asyncio.run(main())
