"""Load test: many concurrent tables on one bot process, against the fake Discord on 127.0.0.1.

    python benchmarks/bench_load.py --tables 300 --seconds 120

The fake Discord (many guilds, one channel per table) and the scripted players run in this
process; the bot runs as a subprocess through its real entry point (wrapped by
`benchmarks/load_probe.py`, which measures event-loop lag and database writes from inside), so
the bot's CPU and memory are its own. Each table has two human seats and one AI seat; a human
waits for their turn, "thinks" for a jittered few seconds, then draws and discards through the
buttons of their private hand view (opened before the measured window, so the window is play,
not every table starting in the same second). Nothing here is timed against a limit: it
prints figures.

Figures (per run):
- acknowledgement latency p50/p99/max: the fake server's clock from sending INTERACTION_CREATE
  to the bot's acknowledgement (Discord's 3-second rule is about this);
- action -> table edit: from a human action to the next edit of that table's public message
  (the bot coalesces edits to one a second per table, on purpose);
- RSS per open table: the bot's resident memory before and after opening the tables, divided;
- database write transactions, payload bytes and disk bytes per game action;
- event-loop lag p99/max: how late a 50 ms sleep in the bot's loop wakes up;
- CPU per game action: the bot process (the sum of its threads' on-CPU nanoseconds from
  `/proc/<pid>/task/<tid>/schedstat`; its event loop's thread alone too), its drawing process,
  and this process (the fake Discord and the players, at `--driver-nice`);
- the floor (`floor_ms_per_action`): after the window, the same fake runs
  `benchmarks/rest_floor_bot.py` (discord.py with no game, on the same event loop) and
  clicks it, mode by mode, interleaved (`bench_rest_floor.measure_on`); the run's own
  request mix at those prices is what discord.py and aiohttp alone spend on its traffic, and
  `bot_minus_floor_ms_per_action` is the project's own cost above it (`--floor-clicks 0`
  skips it);
- REST calls per game action by kind, the 429s the fake Discord sent (it enforces Discord's
  rate limits: `tests/fakediscord/ratelimits.py`) and the most requests counted against the
  global limit in any one second.
`--json` ends the output with one line holding one JSON object of the headline figures
(`LoadReport.figures`). Traffic goes only to 127.0.0.1 and every loop ends by itself (at
the deadline or on a timeout).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bench_rest_floor import (  # noqa: E402
    FLOOR_MODES,
    floor_per_action,
    measure_on,
    schedstat_ns,
    thread_cpu_ns,
)
from benchmarks.load_probe import samples_path  # noqa: E402
from bot import gc_tuning  # noqa: E402
from bot.discord_ui.budget import KINDS, exempt, kind_of  # noqa: E402
from bot.storage import Storage  # noqa: E402
from tests.e2e.harness import TOKEN, Strategy, is_match_over, is_ping, labels  # noqa: E402
from tests.fakediscord import (  # noqa: E402
    PERM_MEMBER_DEFAULT,
    PERM_THREADS,
    FakeDiscord,
    FakeDiscordError,
    StoredMessage,
)

VERSION_RE = re.compile(r"^r[ms]:([0-9a-z]+):(\d+):")
PAGE = 4096


@dataclass
class Table:
    """One table under load: its channel, two human players and what was seen of it."""

    index: int
    channel_id: int
    humans: tuple[str, str]
    table_id: str | None = None
    message_id: int | None = None
    over: bool = False
    max_version: int = 0
    pending: list[float] = field(default_factory=list)  # human actions awaiting a table edit


@dataclass
class LoadReport:
    tables: int
    opened: int
    seconds: float
    human_actions: int = 0
    game_actions: int = 0
    refused_or_unanswered: int = 0
    unacknowledged: int = 0
    finished_tables: int = 0
    ack_ms: list[float] = field(default_factory=list)
    bot_ack_ms: list[float] = field(default_factory=list)  # the bot's share (see load_probe)
    bot_ack_by_kind: dict[str, list[float]] = field(default_factory=dict)
    driver_lag_ms: list[float] = field(default_factory=list)  # this process's loop
    edit_ms: list[float] = field(default_factory=list)
    budget: dict[str, float] = field(default_factory=dict)  # the bots' RestBudget counters
    gc: dict[str, list[float]] = field(default_factory=dict)  # generation: [n, total ms, max]
    lag_ms: list[float] = field(default_factory=list)
    rss_before: int = 0
    rss_open: int = 0
    rss_end: int = 0
    cpu_seconds: float = 0.0  # every thread of the bot process (schedstat, ns resolution)
    loop_cpu_seconds: float = 0.0  # the bot's main thread alone: its event loop
    loop_wait_seconds: float = 0.0  # ... runnable but waiting for a CPU (run-queue time)
    child_cpu_seconds: float = 0.0  # the bot's drawing process
    child_rss: int = 0
    transactions: int = 0
    payload_bytes: int = 0
    disk_bytes: int = 0
    open_seconds: float = 0.0
    driver_cpu_seconds: float = 0.0  # this process: fake Discord + scripted players
    load_average: float = 0.0  # the machine's 1-minute load at the end (other work too)
    violations: list[str] = field(default_factory=list)
    player_errors: list[str] = field(default_factory=list)
    table_versions: dict[str, int] = field(default_factory=dict)  # id -> highest shown
    slow_callbacks: dict[str, list[float]] = field(default_factory=dict)  # what held the loop
    memory_top: list[str] = field(default_factory=list)  # tracemalloc's biggest lines, if on
    requests: dict[str, int] = field(default_factory=dict)  # the bot's REST calls by route
    by_kind: dict[str, int] = field(default_factory=dict)  # ... by kind (budget.KINDS)
    rest_429: dict[str, int] = field(default_factory=dict)  # 429s sent, by scope
    global_rest_per_s_max: int = 0  # most non-exempt requests in any 1-s window
    processes: int = 1
    uploads: int = 0  # image files uploaded in the window
    uploads_by_picture: dict[str, int] = field(default_factory=dict)  # ... by file name stem
    drawn_by_picture: dict[str, int] = field(default_factory=dict)  # pictures drawn, by stem
    db_path: Path | None = None
    #: `--tournament N`: the tournament played beside the tables (players, rounds seated in
    #: the window, tables opened, finished).
    tournament: dict[str, int] = field(default_factory=dict)
    driver_nice: int = 0
    drawing_nice: int | None = None  # the drawing process's niceness, if not the bot's own
    event_loop: str = "auto"  # EVENT_LOOP given to the bot (and the floor bot)
    orjson: bool = True  # False: orjson hidden from the bot and the floor bot
    #: The floor bot's CPU ms a click by mode (medians of the rounds; empty: not measured).
    floor_cost: dict[str, float] = field(default_factory=dict)
    floor_rounds: dict[str, list[float]] = field(default_factory=dict)
    floor_seconds: float = 0.0
    floor_error: str = ""  # why the floor was not measured, if it was not

    def floor_parts(self) -> dict[str, float]:
        """The floor of this run's request mix, ms an action, by part and in total."""
        if not self.floor_cost or not self.game_actions:
            return {}
        mix = {
            "uploads_per_action": self.uploads / self.game_actions,
            "rest_per_action_by_kind": {k: n / self.game_actions for k, n in self.by_kind.items()},
        }
        return floor_per_action(self.floor_cost, mix)

    def figures(self) -> dict[str, Any]:
        """The headline figures as one flat JSON-able object (`--json`)."""
        actions = self.game_actions or math.nan
        per_action = {k: round(self.by_kind.get(k, 0) / actions, 3) for k in KINDS}
        counted = sum(n for k, n in self.by_kind.items() if not exempt(k))
        return {
            "tables": self.opened,
            "processes": self.processes,
            "seconds": self.seconds,
            "actions": self.game_actions,
            "actions_per_s": round(self.game_actions / self.seconds, 2),
            "unacknowledged": self.unacknowledged,
            "ack_p50_ms": round(pct(self.ack_ms, 50), 1),
            "ack_p99_ms": round(pct(self.ack_ms, 99), 1),
            "bot_ack_p50_ms": round(pct(self.bot_ack_ms, 50), 1),
            "bot_ack_p99_ms": round(pct(self.bot_ack_ms, 99), 1),
            "loop_lag_p99_ms": round(pct(self.lag_ms, 99), 1),
            "bot_cpu_ms_per_action": round(self.cpu_seconds * 1000 / actions, 2),
            "bot_loop_cpu_ms_per_action": round(self.loop_cpu_seconds * 1000 / actions, 2),
            "bot_loop_runqueue_ms_per_s": round(self.loop_wait_seconds * 1000 / self.seconds, 1),
            "floor_ms_per_action": round(self.floor_parts().get("total", math.nan), 2),
            "bot_minus_floor_ms_per_action": round(
                self.cpu_seconds * 1000 / actions - self.floor_parts().get("total", math.nan), 2
            ),
            "floor_cpu_ms_per_click": {k: round(v, 3) for k, v in self.floor_cost.items()},
            "driver_nice": self.driver_nice,
            "drawing_nice": self.drawing_nice,
            "event_loop": self.event_loop,
            "orjson": self.orjson,
            "drawing_cpu_ms_per_action": round(self.child_cpu_seconds * 1000 / actions, 2),
            "driver_cpu_ms_per_action": round(self.driver_cpu_seconds * 1000 / actions, 2),
            "driver_cpu_share": round(self.driver_cpu_seconds / self.seconds, 3),
            "rest_per_action": round(sum(self.by_kind.values()) / actions, 3),
            "rest_per_action_by_kind": per_action,
            "global_counted_per_action": round(counted / actions, 3),
            "uploads_per_action": round(self.uploads / actions, 3),
            "uploads_per_action_by_picture": {
                k: round(n / actions, 3) for k, n in sorted(self.uploads_by_picture.items())
            },
            "drawn_per_action": round(sum(self.drawn_by_picture.values()) / actions, 3),
            "drawn_per_action_by_picture": {
                k: round(n / actions, 3) for k, n in sorted(self.drawn_by_picture.items())
            },
            "rest_429_global": self.rest_429.get("global", 0),
            "rest_429_route": sum(n for s, n in self.rest_429.items() if s != "global"),
            "global_rest_per_s_max": self.global_rest_per_s_max,
            "table_refresh_p50_s": round(pct(self.edit_ms, 50) / 1000, 3),
            "table_refresh_p95_s": round(pct(self.edit_ms, 95) / 1000, 3),
            "table_refresh_max_s": round(max(self.edit_ms, default=math.nan) / 1000, 3),
            "rss_kib_per_table": round(
                (self.rss_open - self.rss_before) / max(self.opened, 1) / 1024, 1
            ),
            "load_average": round(self.load_average, 2),
            "violations": len(self.violations),
            "gc_full_collections": int(self.gc.get("2", [0])[0]),
            "gc_full_ms_max": round(self.gc.get("2", [0, 0.0, 0.0])[2], 1),
            "gc_ms_per_action": round(sum(v[1] for v in self.gc.values()) / actions, 3),
            "budget_slots": self.budget.get("slots", 0),
            "budget_expired": self.budget.get("expired", 0),
            "budget_held_ms_per_slot": round(
                self.budget.get("held_s", 0.0) * 1000 / max(self.budget.get("slots", 0), 1), 1
            ),
            "budget_wait_ms_per_slot": round(
                self.budget.get("waited_s", 0.0) * 1000 / max(self.budget.get("slots", 0), 1), 1
            ),
            # Table edits sent through a token a player's click lent (outside the global
            # limit), and lent tokens Discord refused (the edit then went through the channel).
            "table_edits_lent_per_action": round(self.budget.get("hook_edits", 0) / actions, 3),
            "lent_token_fallbacks": self.budget.get("hook_fallbacks", 0),
            # Why a refresh found no token (asked once per edit and once per pause between).
            "lent_none_lent": self.budget.get("hook_none_lent", 0),
            "lent_all_busy": self.budget.get("hook_all_busy", 0),
            **{f"tournament_{k}": v for k, v in self.tournament.items()},
        }

    def lines(self) -> list[str]:
        per_k = 1000 / self.game_actions if self.game_actions else math.nan
        actions = self.game_actions or math.nan
        return [
            f"tables: {self.opened} of {self.tables} opened in {self.open_seconds:.1f} s; "
            f"measured {self.seconds:.0f} s; {self.finished_tables} finished meanwhile",
            f"actions: {self.human_actions} human clicks, {self.game_actions} game actions saved "
            f"({self.game_actions / self.seconds:.1f}/s); "
            f"{self.unacknowledged} unacknowledged, {self.refused_or_unanswered} refused/no view",
            f"ack latency ms: p50 {pct(self.ack_ms, 50):.1f}  p99 {pct(self.ack_ms, 99):.1f}  "
            f"max {max(self.ack_ms, default=math.nan):.1f}  (n={len(self.ack_ms)})",
            f"  of which in the bot (creation -> ack sent) ms: p50 {pct(self.bot_ack_ms, 50):.1f}  "
            f"p99 {pct(self.bot_ack_ms, 99):.1f}  max {max(self.bot_ack_ms, default=math.nan):.1f}",
            f"action -> table edit ms: p50 {pct(self.edit_ms, 50):.0f}  "
            f"p99 {pct(self.edit_ms, 99):.0f}  max {max(self.edit_ms, default=math.nan):.0f}  "
            f"(n={len(self.edit_ms)})",
            f"event-loop lag ms: p50 {pct(self.lag_ms, 50):.1f}  p99 {pct(self.lag_ms, 99):.1f}  "
            f"max {max(self.lag_ms, default=math.nan):.1f}  (n={len(self.lag_ms)})",
            f"RSS MiB: {self.rss_before / 2**20:.1f} before, {self.rss_open / 2**20:.1f} open, "
            f"{self.rss_end / 2**20:.1f} end; per table "
            f"{(self.rss_open - self.rss_before) / max(self.opened, 1) / 1024:.1f} KiB at open, "
            f"{(self.rss_end - self.rss_before) / max(self.opened, 1) / 1024:.1f} KiB at end",
            f"database per game action: {self.transactions / actions:.2f} write transactions, "
            f"{self.payload_bytes / actions / 1024:.1f} KiB payload, "
            f"{self.disk_bytes / actions / 1024:.1f} KiB written to disk",
            f"CPU: {self.cpu_seconds:.1f} s in the bot = {self.cpu_seconds * per_k:.2f} ms "
            f"per game action ({self.cpu_seconds / self.seconds * 100:.0f}% of one core; its "
            f"event loop's thread {self.loop_cpu_seconds * per_k:.2f} ms, and it waited for a "
            f"CPU {self.loop_wait_seconds * 1000 / self.seconds:.0f} ms a second)",
            *self._floor_lines(per_k),
            f"fake Discord + players loop lag ms: p50 {pct(self.driver_lag_ms, 50):.1f}  "
            f"p99 {pct(self.driver_lag_ms, 99):.1f}  "
            f"max {max(self.driver_lag_ms, default=math.nan):.1f}",
            f"drawing process: {self.child_cpu_seconds:.1f} s CPU = "
            f"{self.child_cpu_seconds * per_k:.2f} ms per game action "
            f"({self.child_cpu_seconds / self.seconds * 100:.0f}% of one core), "
            f"RSS {self.child_rss / 2**20:.1f} MiB (fixed, not per table); pictures drawn "
            f"{sum(self.drawn_by_picture.values()) / actions:.2f} an action, uploaded "
            f"{self.uploads / actions:.2f}",
            f"machine: fake Discord + players (nice +{self.driver_nice}) used "
            f"{self.driver_cpu_seconds:.1f} s CPU = {self.driver_cpu_seconds * per_k:.2f} ms per "
            f"game action ({self.driver_cpu_seconds / self.seconds * 100:.0f}% of one core); "
            f"load average {self.load_average:.1f} on {os.cpu_count()} cores",
        ]

    def _floor_lines(self, per_k: float) -> list[str]:
        parts = self.floor_parts()
        if not parts:
            return [f"floor: not measured {self.floor_error}".rstrip()]
        cost = ", ".join(f"{k} {v:.2f}" for k, v in self.floor_cost.items())
        split = ", ".join(f"{k} {v:.2f}" for k, v in parts.items() if k != "total")
        return [
            f"floor (discord.py alone, this run's request mix): {parts['total']:.2f} ms per "
            f"game action ({split}); bot - floor = "
            f"{self.cpu_seconds * per_k - parts['total']:.2f} ms",
            f"  floor bot CPU ms a click, medians of {len(next(iter(self.floor_rounds.values())))}"
            f" rounds ({self.floor_seconds:.0f} s): {cost}",
        ]


def pct(values: list[float], p: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[k]


def runqueue_wait_ns(pid: int) -> int:
    """Nanoseconds the main thread of `pid` (the bot's event loop) has spent runnable but
    waiting for a CPU. Loop lag counts this too: a loop whose process waits for a core wakes
    late however little it has to do."""
    return schedstat_ns(pid, only=pid, field=1)


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes `pid` started (the bot's image-drawing process)."""
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        pass
    return found


def disk_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            if line.startswith("write_bytes:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Watcher:
    """Per-message change events and per-table bookkeeping, hooked into the fake server's
    message writes (so hundreds of waiting players do not all wake on every change)."""

    def __init__(self, fake: FakeDiscord, tables: dict[int, Table]) -> None:
        self.fake = fake
        self.tables = tables
        self.events: dict[int, asyncio.Event] = {}
        self.edit_ms: list[float] = []
        server = fake.server
        create, edit = server.create_message, server.edit_message

        def create_message(*args: Any, **kwargs: Any) -> StoredMessage:
            msg = create(*args, **kwargs)
            self.changed(msg)
            return msg

        def edit_message(msg: StoredMessage, *args: Any, **kwargs: Any) -> None:
            edit(msg, *args, **kwargs)
            self.changed(msg)

        server.create_message = create_message  # type: ignore[method-assign]
        server.edit_message = edit_message  # type: ignore[method-assign]

    def event(self, message_id: int) -> asyncio.Event:
        ev = self.events.get(message_id)
        if ev is None:
            ev = self.events[message_id] = asyncio.Event()
        return ev

    def table_of(self, channel_id: int) -> Table | None:
        """The table whose channel this is, or whose channel this thread was started in (with
        thread permissions, as with `--tournament`, every table moves to its lobby's thread)."""
        table = self.tables.get(channel_id)
        if table is None:
            chan = self.fake.server.channels.get(channel_id)
            if chan is not None and chan.parent_id is not None:
                table = self.tables.get(chan.parent_id)
        return table

    def changed(self, msg: StoredMessage) -> None:
        table = self.table_of(msg.channel_id)
        if table is not None:
            for comp in msg.iter_components():
                m = VERSION_RE.match(str(comp.get("custom_id") or ""))
                if m:
                    table.table_id = m.group(1)
                    table.max_version = max(table.max_version, int(m.group(2)))
            # The table message, not a turn ping (which carries a "Your hand" button too: taken
            # for the table, its post would count as a table refresh, and its click lends no
            # token for the table's edits).
            has_hand = "Your hand" in labels(msg) and not is_ping(msg)
            if msg.visible_to is None and not has_hand and table.message_id == msg.id:
                table.message_id = None  # closed, or replaced by a newer table message
            if msg.visible_to is None and has_hand:
                now = self.fake.server.now()
                table.message_id = msg.id
                self.edit_ms.extend((now - t) * 1000 for t in table.pending)
                table.pending.clear()
            if msg.visible_to is None and is_match_over(msg):
                table.over = True
        ev = self.events.pop(msg.id, None)
        if ev is not None:
            ev.set()
        # "Anything new at this table" (its channel, or its thread).
        ev = self.events.pop(-(table.channel_id if table else msg.channel_id), None)
        if ev is not None:
            ev.set()

    async def wait(self, message_id: int, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self.event(message_id).wait(), timeout)
        except TimeoutError:
            return False
        return True


class Players:
    """The scripted humans of every table."""

    def __init__(
        self, fake: FakeDiscord, watch: Watcher, think: tuple[float, float], rng: random.Random
    ) -> None:
        self.fake = fake
        self.watch = watch
        self.think = think
        self.rng = rng
        self.strategy = Strategy()
        self.human_actions = 0
        self.refused = 0
        self.errors: list[str] = []

    async def open_table(self, table: Table) -> None:
        fake = self.fake
        host, guest = table.humans
        result = await fake.slash(host, table.channel_id, "rummy new", profile="points", timeout=30)
        lobby = result.message
        if lobby is None or result.ephemeral:
            raise FakeDiscordError(f"no lobby in table {table.index}: {result.text}")
        await fake.click(guest, fake.message(lobby.id), label="Join", timeout=30)
        await fake.select(
            host, fake.message(lobby.id), ["easy"], placeholder="Add an AI player…", timeout=30
        )
        for _ in range(50):  # the lobby shows the AI seat once the bot has redrawn it
            if "Start" in labels(fake.message(lobby.id)):
                break
            await self.watch.wait(lobby.id, 1.0)
        await fake.click(host, fake.message(lobby.id), label="Start", timeout=30)
        for _ in range(100):
            if table.message_id is not None:
                break
            await self.watch.wait(-table.channel_id, 1.0)

    async def open_view(self, table: Table, user: str) -> int | None:
        """Press "Your hand" on the table message (waiting a little for one to exist)."""
        for _ in range(10):
            if table.over:
                return None
            if table.message_id is not None:
                source = self.fake.message(table.message_id)
                try:
                    result = await self.fake.click(user, source, label="Your hand", timeout=30)
                    view = await result.reply(timeout=30)
                except (FakeDiscordError, TimeoutError):
                    view = None
                if view is not None:
                    return view.id
            await self.watch.wait(-table.channel_id, 2.0)
        return None

    async def play(
        self, table: Table, user: str, deadline: float, view_id: int | None = None
    ) -> None:
        """One human seat until the deadline, from its hand view (`view_id`, opened before the
        window) or opening one; a seat that cannot go on is counted, not fatal."""
        try:
            await self._play(table, user, deadline, view_id)
        except (FakeDiscordError, TimeoutError) as exc:
            self.errors.append(f"table {table.index} {user}: {exc}")
        if not table.over and asyncio.get_running_loop().time() < deadline - 1:
            self.errors.append(f"table {table.index} {user}: stopped early (no hand view)")

    async def _play(self, table: Table, user: str, deadline: float, view_id: int | None) -> None:
        loop = asyncio.get_running_loop()
        if view_id is None:
            view_id = await self.open_view(table, user)
        while view_id is not None and not table.over and loop.time() < deadline:
            ev = self.watch.event(view_id)
            view = self.fake.message(view_id)
            choice = self.strategy.choose(view) if "Your turn" in view.text() else None
            if choice is None:
                remaining = deadline - loop.time()
                if not await self._wait(ev, min(20.0, remaining)) and remaining > 20.0:
                    view_id = await self.open_view(table, user)  # as a person would: reopen
                continue
            pause = self.rng.uniform(*self.think)
            await asyncio.sleep(min(pause, max(0.0, deadline - loop.time())))
            if loop.time() >= deadline or table.over:
                break
            ev = self.watch.event(view_id)
            view = self.fake.message(view_id)
            choice = self.strategy.choose(view) if "Your turn" in view.text() else None
            if choice is None:
                continue
            how, what = choice
            try:
                if how == "click":
                    result = await self.fake.click(user, view, label=what, wait=False)
                else:
                    placeholder, value = what
                    result = await self.fake.select(
                        user, view, [value], placeholder=placeholder, wait=False
                    )
            except FakeDiscordError:
                self.refused += 1
                continue
            sent = result.record.dispatched_at
            table.pending.append(sent if sent is not None else self.fake.server.now())
            self.human_actions += 1
            if not await self._wait(ev, 10.0):
                self.refused += 1

    @staticmethod
    async def _wait(ev: asyncio.Event, timeout: float) -> bool:
        if timeout <= 0:
            return False
        try:
            await asyncio.wait_for(ev.wait(), timeout)
        except TimeoutError:
            return False
        return True


class LagProbe:
    """Event-loop lag of this process (the fake Discord and the players): if it is late, the
    acknowledgement times it records are late too, whatever the bot did, and the fake counts
    the bot's requests against the global limit when it gets to them, so a stall bunches them
    into fewer of its seconds than the bot sent them in.

    This process keeps every message, request and interaction of the run, and its full
    garbage collections grew to 0.5-0.7 s at 300 tables: what survives is frozen every
    `FREEZE_EVERY` seconds (out of the collector's sight; a benchmark may keep its garbage
    cycles), and young collections are rarer (as in the bot, `bot.gc_tuning`)."""

    FREEZE_EVERY = 5.0

    def __init__(self, period: float = 0.05) -> None:
        self.period = period
        self.lag_ms: list[float] = []
        gc.set_threshold(*gc_tuning.THRESHOLDS)
        gc.freeze()
        self.task = asyncio.create_task(self._run())
        self.freezer = asyncio.create_task(self._freeze())

    async def _freeze(self) -> None:
        while True:
            await asyncio.sleep(self.FREEZE_EVERY)
            gc.freeze()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(self.period)
            self.lag_ms.append((loop.time() - start - self.period) * 1000)

    def stop(self) -> list[float]:
        self.task.cancel()
        self.freezer.cancel()
        return self.lag_ms


def probe(path: Path) -> dict[str, Any]:
    """One bot process's figures: the JSON it rewrites, plus the samples it appends."""
    try:
        out = dict(json.loads(path.read_text()))
    except (OSError, ValueError):
        return {}
    try:
        lines = samples_path(path).read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        try:
            key, items = json.loads(line)
        except ValueError:
            continue  # the line being written right now
        out.setdefault(key, []).extend(items)
    return out


def merged_probe(paths: list[Path]) -> dict[str, Any]:
    """The probes of every bot process as one: counts added, samples pooled."""
    out: dict[str, Any] = {
        "lag": [], "ack_sent": [], "transactions": 0, "commits": 0, "payload_bytes": 0,
        "slow": {}, "memory": [], "budget": {}, "gc": {}, "drawn": {},
    }  # fmt: skip
    for path in paths:
        one = probe(path)
        for key in ("lag", "ack_sent", "memory"):
            out[key] += one.get(key, [])
        for key in ("transactions", "commits", "payload_bytes"):
            out[key] += one.get(key, 0)
        for stem, count in one.get("drawn", {}).items():
            out["drawn"][stem] = out["drawn"].get(stem, 0) + count
        for gen, (count, total, longest) in one.get("gc", {}).items():
            entry = out["gc"].setdefault(gen, [0, 0.0, 0.0])
            entry[0] += count
            entry[1] += total
            entry[2] = max(entry[2], longest)
        for key, value in one.get("budget", {}).items():
            if not isinstance(value, bool):
                out["budget"][key] = out["budget"].get(key, 0) + value
        for what, (count, total, longest) in one.get("slow", {}).items():
            entry = out["slow"].setdefault(what, [0, 0.0, 0.0])
            entry[0] += count
            entry[1] += total
            entry[2] = max(entry[2], longest)
    return out


async def run_load(
    tables: int = 300,
    seconds: float = 120.0,
    *,
    think: tuple[float, float] = (2.0, 5.0),
    ai_delay: float = 1.5,
    tables_per_guild: int = 10,
    open_concurrency: int = 8,
    workdir: Path | None = None,
    seed: int = 1,
    tracemalloc: bool = False,
    database_url: str | None = None,
    processes: int = 1,
    driver_nice: int = 0,
    drawing_nice: int | None = None,
    images: bool = True,
    tournament: int = 0,
    event_loop: str = "auto",
    orjson: bool = True,
    floor_clicks: int = 0,
    floor_rounds: int = 8,
    say: Any = print,
) -> LoadReport:
    """Open `tables` tables, play them for `seconds`, and measure (see the module doc).

    `database_url` (postgresql://...) runs the bot on PostgreSQL instead of a SQLite file;
    `processes` > 1 runs that many bot processes over the one database, each owning an equal
    share of the shards (`SHARD_COUNT` = `processes`), as a shard cluster would.
    `tournament` > 0 also runs a tournament of that many AI players in a channel of its own
    (tables of six, two through, two deals a round), started when the window starts; the bot
    may then open threads (every table plays in one, as on a server that allows it).
    `event_loop` is the bots' `EVENT_LOOP`, `orjson` False hides orjson from them (and from
    the floor bot: `BENCH_NO_ORJSON`); `floor_clicks` > 0 measures the floor after the
    window, that many clicks a mode in `floor_rounds` rounds. `drawing_nice` (None: the
    bot's own `DRAWING_NICENESS`) sets the drawing process's niceness, for A/B runs."""
    rng = random.Random(seed)
    work = workdir or Path(tempfile.mkdtemp(prefix="paplu-load-"))
    work.mkdir(parents=True, exist_ok=True)
    db = work / "load.sqlite3"
    probe_files = [work / f"probe-{n}.json" for n in range(processes)]
    users = [f"p{i}{side}" for i in range(tables) for side in "ab"]
    report = LoadReport(
        tables=tables,
        opened=0,
        seconds=seconds,
        db_path=db,
        processes=processes,
        driver_nice=driver_nice,
        drawing_nice=drawing_nice,
        event_loop=event_loop,
        orjson=orjson,
    )
    async with FakeDiscord(users=users, channels=[], token=TOKEN, ack_deadline=3.0) as fake:
        by_channel: dict[int, Table] = {}
        guild = fake.guild_id
        guilds = {guild}
        for i in range(tables):
            if i and i % tables_per_guild == 0:
                guild = fake.add_guild(f"Guild {i // tables_per_guild}")
                guilds.add(guild)
            chan = fake.add_channel(f"table-{i}", guild_id=guild)
            by_channel[chan.id] = Table(i, chan.id, (f"p{i}a", f"p{i}b"))
        event = fake.add_channel("tournament", guild_id=fake.guild_id) if tournament else None
        if event is not None:
            fake.server.bot_permissions = PERM_MEMBER_DEFAULT | PERM_THREADS
        watch = Watcher(fake, by_channel)
        if not images:
            # What a server admin does with `/rummy settings card_images:off`, for every guild.
            storage = await Storage.open_url(database_url or db)
            for guild_id in guilds:
                await storage.settings.update_settings(guild_id, card_images=False)
            await storage.close()
        base_env = {
            "DATABASE_PATH": str(db),
            "AI_DELAY": str(ai_delay),
            "LOG_LEVEL": "WARNING",
            "LOAD_PROBE_EVERY": "0.5",
            "LOAD_PROBE_TRACEMALLOC": "1" if tracemalloc else "0",
            "EVENT_LOOP": event_loop,
            "BENCH_NO_ORJSON": "0" if orjson else "1",
        }
        if drawing_nice is not None:
            base_env["BENCH_DRAWING_NICE"] = str(drawing_nice)
        if database_url:
            base_env["DATABASE_URL"] = database_url
        procs = []
        try:
            for n in range(processes):
                env = {**base_env, "LOAD_PROBE_FILE": str(probe_files[n])}
                if processes > 1:
                    env |= {"SHARD_COUNT": str(processes), "SHARD_IDS": str(n)}
                procs.append(await fake.launch("benchmarks.load_probe", env=env, timeout=60))
            pids = [proc.pid for proc in procs]
            if driver_nice:
                # The fake Discord and the players stand in for the far side of the network;
                # at a lower priority they leave the bot the CPU it would have on its own.
                os.nice(driver_nice)
            await fake.wait_for_commands("rummy", timeout=60)
            await asyncio.sleep(2.0)
            report.rss_before = sum(rss_bytes(pid) for pid in pids)
            players = Players(fake, watch, think, rng)
            gate = asyncio.Semaphore(open_concurrency)

            async def open_one(table: Table) -> bool:
                async with gate:
                    try:
                        await players.open_table(table)
                    except (FakeDiscordError, TimeoutError) as exc:
                        say(f"table {table.index} did not open: {exc}")
                        return False
                    return table.message_id is not None

            started = time.monotonic()
            opened = await asyncio.gather(*(open_one(t) for t in by_channel.values()))
            report.open_seconds = time.monotonic() - started
            report.opened = sum(opened)
            # Every player opens their hand before the window: 600 "Your hand" clicks in the
            # same instant are the benchmark starting every table at once, not play (they made
            # a sixth of the window's acknowledgements, at a p50 of ~125 ms). Reopening a hand
            # later in play is measured like any other click.
            seats = [
                (t, user)
                for t, ok in zip(by_channel.values(), opened, strict=True)
                if ok
                for user in t.humans
            ]
            await asyncio.sleep(3.0)
            report.rss_open = sum(rss_bytes(pid) for pid in pids)  # tables, before any hand
            first_views = await asyncio.gather(*(players.open_view(t, u) for t, u in seats))
            await asyncio.sleep(3.0)
            say(f"opened {report.opened} tables in {report.open_seconds:.1f} s")
            if event is not None:
                await enter_tournament(fake, event.id, tournament)

            before = merged_probe(probe_files)
            cpu0 = sum(thread_cpu_ns(pid) for pid in pids)
            loop0 = sum(thread_cpu_ns(pid, only=pid) for pid in pids)
            wait0 = sum(runqueue_wait_ns(pid) for pid in pids)
            disk0 = sum(disk_bytes(pid) for pid in pids)
            kids = [k for pid in pids for k in children(pid)]
            child_cpu0 = sum(cpu_seconds(k) for k in kids)
            driver0 = time.process_time()
            window_start, wall_start = fake.server.now(), time.time()
            n_interactions = len(fake.server.interactions)
            n_requests, n_uploads = len(fake.server.request_log), len(fake.server.uploads)
            driver_lag = LagProbe()
            deadline = asyncio.get_running_loop().time() + seconds
            if event is not None:
                await fake.slash(users[0], event.id, "rummy tournament start", timeout=60)
            await asyncio.gather(
                *(
                    players.play(t, user, deadline, view_id)
                    for (t, user), view_id in zip(seats, first_views, strict=True)
                )
            )
            window_end = fake.server.now()
            report.cpu_seconds = (sum(thread_cpu_ns(pid) for pid in pids) - cpu0) / 1e9
            report.loop_cpu_seconds = (
                sum(thread_cpu_ns(pid, only=pid) for pid in pids) - loop0
            ) / 1e9
            report.loop_wait_seconds = (sum(runqueue_wait_ns(pid) for pid in pids) - wait0) / 1e9
            report.child_cpu_seconds = sum(cpu_seconds(k) for k in kids) - child_cpu0
            report.child_rss = sum(rss_bytes(k) for k in kids)
            report.driver_cpu_seconds = time.process_time() - driver0
            report.load_average = os.getloadavg()[0]
            report.disk_bytes = sum(disk_bytes(pid) for pid in pids) - disk0
            wall_end = time.time()
            report.rss_end = sum(rss_bytes(pid) for pid in pids)
            await fake.wait_idle(timeout=30)
            await asyncio.sleep(1.2)  # one more probe dump
            after = merged_probe(probe_files)
            report.human_actions = players.human_actions
            report.refused_or_unanswered = players.refused
            report.player_errors = players.errors
            report.game_actions = after["commits"] - before["commits"]
            report.transactions = after["transactions"] - before["transactions"]
            report.payload_bytes = after["payload_bytes"] - before["payload_bytes"]
            report.lag_ms = [ms for t, ms in after["lag"] if wall_start <= t <= wall_end]
            acks = [a for a in after["ack_sent"] if wall_start <= a[0] <= wall_end]
            report.bot_ack_ms = [a[1] for a in acks]
            for _t, ms, kind in acks:
                report.bot_ack_by_kind.setdefault(kind, []).append(ms)
            report.driver_lag_ms = driver_lag.stop()
            recs = list(fake.server.interactions.values())
            report.ack_ms = [
                (r.acked_at - r.dispatched_at) * 1000
                for r in recs[n_interactions:]
                if r.acked_at is not None
                and r.dispatched_at is not None
                and r.dispatched_at >= window_start
            ]
            report.unacknowledged = sum(
                1 for r in recs if r.dispatched_at is not None and r.acked_at is None
            )
            report.edit_ms = list(watch.edit_ms)
            report.gc = {
                gen: [v[0] - before["gc"].get(gen, [0, 0.0])[0],
                      v[1] - before["gc"].get(gen, [0, 0.0])[1], v[2]]
                for gen, v in after["gc"].items()
            }  # fmt: skip
            report.drawn_by_picture = {
                stem: n - before["drawn"].get(stem, 0) for stem, n in after["drawn"].items()
            }
            report.budget = {k: v - before["budget"].get(k, 0) for k, v in after["budget"].items()}
            report.finished_tables = sum(1 for t in by_channel.values() if t.over)
            report.table_versions = {
                t.table_id: t.max_version for t in by_channel.values() if t.table_id
            }
            report.violations = [str(v) for v in fake.server.violations]
            report.slow_callbacks = after["slow"]
            report.memory_top = after["memory"]
            report.uploads = len(fake.server.uploads) - n_uploads
            for upload in fake.server.uploads[n_uploads:]:
                stem = upload.filename.rsplit(".", 1)[0]
                report.uploads_by_picture[stem] = report.uploads_by_picture.get(stem, 0) + 1
            for method, path, _status in fake.server.request_log[n_requests:]:
                route = f"{method} " + re.sub(r"/\d+|/[A-Za-z0-9_-]{40,}", "/:id", path)
                report.requests[route] = report.requests.get(route, 0) + 1
                kind = kind_of(method, "/api/v10" + path)
                report.by_kind[kind] = report.by_kind.get(kind, 0) + 1
            limiter = fake.server.ratelimiter
            for entry in limiter.log:
                if window_start <= entry.at <= window_end:
                    report.rest_429[entry.scope] = report.rest_429.get(entry.scope, 0) + 1
            report.global_rest_per_s_max = limiter.busiest_second(window_start, window_end)
            if event is not None:
                report.tournament = tournament_figures(fake, event.id, tournament)
            if floor_clicks > 0:
                for proc in procs:
                    await proc.terminate(timeout=20)
                floor_env = {
                    "EVENT_LOOP": event_loop,
                    "BENCH_NO_ORJSON": base_env["BENCH_NO_ORJSON"],
                }
                await measure_floor(fake, report, floor_clicks, floor_rounds, floor_env, say)
        finally:
            for proc in procs:
                await proc.terminate(timeout=20)
    return report


async def enter_tournament(fake: FakeDiscord, channel_id: int, players: int) -> None:
    """The first guild's owner creates a tournament and enters `players` AI players."""
    owner = fake.users[0].name
    await fake.slash(
        owner, channel_id, "rummy tournament create", name="Load night", seats=6, advance=2,
        deals=2, start_in=5, cap=max(players, 2), timeout=30,
    )  # fmt: skip
    left = players
    while left > 0:
        count = min(60, left)
        await fake.slash(
            owner, channel_id, "rummy tournament add-ai", count=count, tier="easy", timeout=30
        )
        left -= count


def tournament_figures(fake: FakeDiscord, channel_id: int, players: int) -> dict[str, int]:
    """How far the tournament got: rounds seated, tables opened (threads), finished."""
    messages = fake.public_messages(channel_id)
    rounds = sum(1 for m in messages if any("· round" in (e.get("footer") or {}).get("text", "")
                                              for e in m.embeds))  # fmt: skip
    finished = any("final standings" in (e.get("title") or "") for m in messages for e in m.embeds)
    threads = sum(
        1 for c in fake.server.channels.values() if c.is_thread and c.parent_id == channel_id
    )
    return {"players": players, "rounds": rounds, "tables": threads, "finished": int(finished)}


async def measure_floor(
    fake: FakeDiscord,
    report: LoadReport,
    clicks: int,
    rounds: int,
    env: dict[str, str],
    say: Any,
) -> None:
    """The floor of this run, on this fake once the bots are gone (rate limits off: this is
    cost, not pacing): a floor bot on the bots' event loop, clicked by a user of its own in a
    channel of its own (`bench_rest_floor.measure_on`)."""
    fake.server.rate_limits.enabled = False
    fake.add_user("floorclicker")
    fake.add_channel("floor-bench")
    started = time.monotonic()
    try:
        rounds_ms = await measure_on(
            fake, "floorclicker", "floor-bench", clicks, rounds, FLOOR_MODES, env=env
        )  # fmt: skip
    except (FakeDiscordError, TimeoutError, AssertionError) as exc:
        say(f"the floor was not measured: {exc}")
        report.floor_error = str(exc)[:300]
        return
    report.floor_seconds = time.monotonic() - started
    report.floor_rounds = rounds_ms
    report.floor_cost = {mode: statistics.median(ms) for mode, ms in rounds_ms.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 5.0), metavar=("MIN", "MAX"))
    parser.add_argument("--ai-delay", type=float, default=1.5)
    parser.add_argument("--open-concurrency", type=int, default=8)
    parser.add_argument(
        "--tracemalloc", action="store_true", help="trace the bot's allocations (slower)"
    )
    parser.add_argument(
        "--database-url", help="postgresql://... (default: a SQLite file in a temp folder)"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="bot processes, each owning 1/N of the shards"
    )
    parser.add_argument(
        "--no-images", action="store_true", help="servers set to text only (no card images)"
    )
    parser.add_argument(
        "--json", action="store_true", help="end with one line: the figures as a JSON object"
    )
    parser.add_argument(
        "--tournament", type=int, default=0, metavar="PLAYERS",
        help="also run a tournament of this many AI players, started with the window",
    )  # fmt: skip
    parser.add_argument(
        "--event-loop",
        default="auto",
        choices=("auto", "uvloop", "asyncio"),
        help="the bot's EVENT_LOOP (and the floor bot's)",
    )
    parser.add_argument(
        "--no-orjson",
        action="store_true",
        help="hide orjson from the bot and the floor bot (A/B runs of the speedups extra)",
    )
    parser.add_argument(
        "--floor-clicks",
        type=int,
        default=240,
        help="clicks a mode for the floor after the window (0: not measured)",
    )
    parser.add_argument(
        "--driver-nice",
        type=int,
        default=0,
        help="run the fake Discord and players at this lower priority (the bot keeps its own)",
    )
    parser.add_argument(
        "--drawing-nice",
        type=int,
        default=None,
        help="the bot's drawing process at this niceness (default: the bot's own, +10)",
    )
    args = parser.parse_args()
    report = asyncio.run(
        run_load(
            args.tables,
            args.seconds,
            think=tuple(args.think),
            ai_delay=args.ai_delay,
            open_concurrency=args.open_concurrency,
            tracemalloc=args.tracemalloc,
            database_url=args.database_url,
            processes=args.processes,
            driver_nice=args.driver_nice,
            drawing_nice=args.drawing_nice,
            images=not args.no_images,
            tournament=args.tournament,
            event_loop=args.event_loop,
            orjson=not args.no_orjson,
            floor_clicks=args.floor_clicks,
        )
    )
    backend = "PostgreSQL" if args.database_url else "SQLite"
    procs = "one process" if args.processes == 1 else f"{args.processes} processes (shards split)"
    nice = f", driver at nice +{args.driver_nice}" if args.driver_nice else ""
    if args.drawing_nice is not None:
        nice += f", drawing at nice +{args.drawing_nice}"
    nice += ", text only (no card images)" if args.no_images else ""
    nice += f", EVENT_LOOP={args.event_loop}" + (", no orjson" if args.no_orjson else "")
    print(f"bench_load: {backend}, {procs}, {args.tables} tables, {args.seconds:.0f} s{nice}")
    for line in report.lines():
        print("  " + line)
    if report.player_errors:
        print(f"  seats that stopped early: {len(report.player_errors)}; first:")
        for line in report.player_errors[:5]:
            print("    " + line[:300])
    actions = max(report.game_actions, 1)
    print("  the bot's ack time by interaction (n, p50, p99, max ms):")
    for kind, ms in sorted(report.bot_ack_by_kind.items(), key=lambda kv: -len(kv[1])):
        print(f"    {len(ms):5d} {pct(ms, 50):7.1f} {pct(ms, 99):7.1f} {max(ms):7.1f}  {kind}")
    print(
        f"  REST calls per game action: {sum(report.requests.values()) / actions:.2f}; "
        f"images uploaded per game action: {report.uploads / actions:.2f}"
    )
    for route, count in sorted(report.requests.items(), key=lambda kv: -kv[1])[:8]:
        print(f"    {count / actions:5.2f}  {route}")
    slow = sorted(report.slow_callbacks.items(), key=lambda kv: -kv[1][1])
    if slow:
        print("  callbacks that held the loop >= 20 ms (count, total ms, max ms), whole run:")
        for what, (count, total, longest) in slow[:8]:
            print(f"    {count:5.0f} {total:8.0f} {longest:7.0f}  {what}")
    for line in report.memory_top:
        print("  mem " + line[:200])
    if report.violations:
        print(f"  Discord rule violations: {len(report.violations)}; first: {report.violations[0]}")
    if report.tournament:
        print(f"  tournament beside the tables: {report.tournament}")
    print(
        f"  rate limits: {sum(report.rest_429.values())} 429s {report.rest_429}; busiest second "
        f"{report.global_rest_per_s_max} requests counted against the global limit"
    )
    if args.json:
        print(json.dumps(report.figures(), sort_keys=True))


if __name__ == "__main__":
    main()
