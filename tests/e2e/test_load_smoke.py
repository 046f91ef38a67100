"""The load test's harness, small: a few tables for a few seconds. Checks that it works and
that nothing is lost under concurrent play: every interaction acknowledged, no Discord rule
broken, and every table's state saved at least as far as any player was shown it."""

from __future__ import annotations

from pathlib import Path

from benchmarks.bench_load import run_load
from bot.storage import Storage
from bot.table.model import Table


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
