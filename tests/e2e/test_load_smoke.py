"""The load test's harness, small: a few tables for a few seconds. Checks that it works and
that nothing is lost under concurrent play: every interaction acknowledged, no Discord rule
broken, and every table's state saved at least as far as any player was shown it."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from benchmarks.bench_load import run_load
from bot.storage import Storage
from bot.table.model import Table
from tests.postgres import postgres_schema, postgres_url_or_skip


async def test_a_few_tables_for_a_few_seconds(tmp_path: Path) -> None:
    report = await run_load(
        3, 6.0, think=(0.2, 0.6), ai_delay=0.2, workdir=tmp_path, say=lambda _line: None
    )
    assert report.opened == 3
    assert report.human_actions > 0 and report.game_actions >= report.human_actions
    assert report.unacknowledged == 0 and report.violations == []
    assert report.player_errors == []
    assert len(report.ack_ms) >= report.human_actions
    assert report.edit_ms, "no table message edit followed an action"
    assert report.lag_ms and report.cpu_seconds > 0 and report.rss_before > 0
    assert all(line for line in report.lines())
    # Saved before shown: the database is never behind what a view offered.
    assert report.db_path is not None and len(report.table_versions) == 3
    async with await Storage.open(report.db_path) as storage:
        for table_id, shown in report.table_versions.items():
            record = await storage.tables.load_table(table_id)
            assert record is not None and record.version >= shown, table_id
            events = await storage.tables.load_events(table_id)
            assert [e.seq for e in events] == list(range(2, record.version + 1))
            assert Table.from_json(record.state_json).id == table_id


JSON_KEYS = {
    "actions", "unacknowledged", "ack_p50_ms", "ack_p99_ms", "loop_lag_p99_ms",
    "bot_cpu_ms_per_action", "drawing_cpu_ms_per_action", "rest_per_action",
    "rest_per_action_by_kind", "rest_429_global", "rest_429_route", "global_rest_per_s_max",
    "table_refresh_p95_s", "rss_kib_per_table", "driver_cpu_ms_per_action",
    "uploads_per_action_by_picture", "floor_ms_per_action", "bot_minus_floor_ms_per_action",
    "bot_loop_cpu_ms_per_action", "floor_cpu_ms_per_click",
}  # fmt: skip


async def test_the_benchmark_prints_its_figures_as_json(tmp_path: Path) -> None:
    """What CI runs of the load test: the command line, a few tables for a few seconds, and
    the JSON line it ends with (the figures themselves are the benchmark's business)."""
    root = Path(__file__).resolve().parents[2]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(root / "benchmarks" / "bench_load.py"), "--tables", "2",
        "--seconds", "3", "--think", "0.2", "0.5", "--ai-delay", "0.2", "--json",
        "--floor-clicks", "8",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root)},
    )  # fmt: skip
    out, _ = await asyncio.wait_for(proc.communicate(), timeout=120)
    text = out.decode()
    assert proc.returncode == 0, text
    figures = json.loads(text.strip().splitlines()[-1])
    assert set(figures) >= JSON_KEYS, JSON_KEYS - set(figures)
    assert figures["tables"] == 2 and figures["actions"] > 0
    assert figures["unacknowledged"] == 0
    assert figures["rest_429_global"] == 0 and figures["rest_429_route"] == 0
    assert set(figures["rest_per_action_by_kind"]) >= {"interaction_response", "channel_edit"}
    assert 0 < figures["global_rest_per_s_max"] <= 50
    # The floor was measured after the window, by the floor bot on the same fake.
    assert set(figures["floor_cpu_ms_per_click"]) == {"ack", "hand", "table", "ping"}
    assert figures["floor_ms_per_action"] > 0


async def test_two_processes_over_postgresql(tmp_path: Path) -> None:
    """The load test's cluster mode (`--processes 2 --database-url`), small: both bot
    processes start on the one database (the probe wraps the PostgreSQL backend too), each
    drives the tables of its own shards, and every click is answered."""
    async for url in postgres_schema(postgres_url_or_skip()):
        report = await run_load(
            2,
            5.0,
            think=(0.2, 0.6),
            ai_delay=0.2,
            workdir=tmp_path,
            database_url=url,
            processes=2,
            tables_per_guild=1,
            say=lambda _line: None,
        )
        assert report.opened == 2
        assert report.human_actions > 0
        assert report.unacknowledged == 0 and report.violations == []
        assert report.player_errors == []
