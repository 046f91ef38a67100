"""The profile reader the scaling work uses to say where the bot's CPU goes."""

from __future__ import annotations

from benchmarks.profile_summary import inclusive, layers, read_raw, self_time, under

RAW = [
    'process 1:"python";thread (0x1);run (asyncio/runners.py:118);'
    "_flush (bot/discord_ui/presenter.py:663);request (discord/http.py:600) 6\n",
    "thread (0x1);run (asyncio/runners.py:118);act (bot/table/game.py:40);"
    "evaluate (bot/engine/evaluate.py:12) 3\n",
    "thread (0x2);_connection_worker_thread (aiosqlite/core.py:120) 1\n",
    "not a sample line\n",
]


def test_samples_drop_thread_labels_and_line_numbers() -> None:
    samples = list(read_raw(RAW))
    assert [s.count for s in samples] == [6, 3, 1]
    assert samples[1].frames == (
        "run (asyncio/runners.py)",
        "act (bot/table/game.py)",
        "evaluate (bot/engine/evaluate.py)",
    )


def test_each_sample_is_charged_to_one_layer() -> None:
    counts = layers(list(read_raw(RAW)))
    assert counts == {
        "HTTP client (discord.py + aiohttp)": 6,
        "bot: engine/evaluate.py": 3,
        "SQLite thread (aiosqlite)": 1,
    }


def test_inclusive_self_and_under() -> None:
    samples = list(read_raw(RAW))
    assert inclusive(samples)["run (asyncio/runners.py)"] == 9
    assert self_time(samples)["evaluate (bot/engine/evaluate.py)"] == 3
    assert under(samples, "run ") == {
        "_flush (bot/discord_ui/presenter.py)": 6,
        "act (bot/table/game.py)": 3,
    }
