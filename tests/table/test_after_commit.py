"""The unit of work's promises, on both backends: a change is seen only once it is stored,
and once it is stored it has happened, whatever fails after the commit.

Each after-commit effect (recording results, closing the table, posting results, pinging the
next player, marking a message posted) is made to fail once; the player's answer stays the
move's real outcome, the effect is retried, and the table closes so that `/rummy new` works.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine.actions import ActionKind
from bot.engine.evaluate import evaluate_drawn
from bot.storage import Storage, StorageUnavailable
from bot.table import errors
from bot.table.model import Table
from bot.table.options import build_options
from bot.table.outcomes import Played
from bot.table.service import TableService
from bot.table.vocabulary import TableStatus
from tests.postgres import postgres_schema, postgres_url_or_skip

GUILD, CHANNEL = 1000, 2000
ALICE, BOB = 11, 22


class Listener:
    """Records what it shows; each method can be told to fail its next N calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.again: list[bool] = []
        self.fail: dict[str, int] = {}

    def _maybe_fail(self, name: str) -> None:
        if self.fail.get(name, 0) > 0:
            self.fail[name] -= 1
            raise RuntimeError(f"{name} failed (injected)")

    async def table_changed(self, table: Table) -> None:
        self._maybe_fail("table_changed")

    async def turn_started(self, table: Table) -> None:
        self._maybe_fail("turn_started")
        self.calls.append("turn")

    async def turn_warning(self, table: Table) -> None:
        pass

    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None:
        self._maybe_fail("deal_finished")
        self.calls.append(f"deal {number}")
        self.again.append(again)

    async def table_closed(self, table: Table, reason: str, *, again: bool = False) -> None:
        self._maybe_fail("table_closed")
        self.calls.append(reason)


@pytest.fixture(params=["sqlite", "postgres"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    if request.param == "sqlite":
        store = await Storage.open(tmp_path / "t.sqlite3")
        yield store
        await store.close()
        return
    url = postgres_url_or_skip()
    async for schema_url in postgres_schema(url):
        store = await Storage.open_url(schema_url)
        yield store
        await store.close()


REPOS = {
    "commit_action": "tables",
    "record_deal_result": "results",
    "release_table": "leases",
    "mark_announced": "outbox",
}


def repo(storage: Storage, method: str) -> Any:
    """The repository that holds a storage method (where a fault is injected)."""
    return getattr(storage, REPOS[method])


def fail_once(
    monkeypatch: pytest.MonkeyPatch, storage: Storage, method: str, times: int = 1
) -> list[int]:
    """Make `method` raise StorageUnavailable on its next `times` calls; returns a counter of
    all calls."""
    owner = repo(storage, method)
    real: Callable[..., Awaitable[Any]] = getattr(owner, method)
    calls = [0]

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] <= times:
            raise StorageUnavailable(f"{method} failed (injected)")
        return await real(*args, **kwargs)

    monkeypatch.setattr(owner, method, flaky)
    return calls


def service(storage: Storage, listener: Listener) -> TableService:
    return TableService(
        storage, listener, ai_delay=0.0, next_deal_delay=60, deck_seed=5, retry_delays=(0.05,)
    )


async def points_game(tables: TableService) -> Table:
    opts = build_options("points", None, 60, None, {}, None, None, None)
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.start(table, ALICE)
    return table


def on_turn(table: Table) -> int:
    turn = table.current_turn()
    assert turn is not None and table.match is not None
    return int(table.match.players[turn].id[1:])


async def play_to_the_end(tables: TableService, table: Table) -> Played:
    """Draw and throw (declaring as soon as a throw wins) until the match is over; returns
    the last move's outcome, as the player who made it was told, once what players see of
    the moves (queued after each commit) has been shown."""
    last: Played | None = None
    for _ in range(400):
        if table.status is not TableStatus.PLAYING:
            break
        player = on_turn(table)
        last = await tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK)
        m = table.match
        assert m is not None
        if table.status is not TableStatus.PLAYING or m.deal is None or m.deal.over:
            continue
        deal = m.deal
        drawn = evaluate_drawn(deal.hands[deal.turn], m.rules, deal.wild_rank, forbidden=deal.taken)
        kind = ActionKind.DECLARE if drawn.declarable else ActionKind.DISCARD
        card = drawn.winning_discards[0] if drawn.declarable else drawn.best_discard
        last = await tables.game.act(table, player, table.version, kind, card.id)
    assert last is not None and table.status is TableStatus.FINISHED
    await tables.effects.settled()
    return last


async def settled(tables: TableService, condition: Callable[[], Awaitable[bool]]) -> None:
    """Wait (real time, bounded) for retries to get somewhere."""
    for _ in range(200):
        if await condition():
            return
        await asyncio.sleep(0.02)
    assert await condition()


async def memory_equals_database(storage: Storage, table: Table) -> None:
    record = await storage.tables.load_table(table.id)
    assert record is not None
    assert record.version == table.version
    stored = json.loads(record.state_json)
    assert stored["match"] == (None if table.match is None else table.match.to_dict())
    assert stored["status"] == table.status.value


async def new_table_opens(tables: TableService) -> None:
    again = await tables.lobby.create(GUILD, CHANNEL, BOB, "bob", points_options())
    assert tables.registry.in_channel(CHANNEL) is again


def points_options() -> Any:
    return build_options("points", None, 60, None, {}, None, None, None)


async def test_recording_the_result_fails_after_the_winning_move(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    listener = Listener()
    tables = service(storage, listener)
    table = await points_game(tables)
    calls = fail_once(monkeypatch, storage, "record_deal_result")
    last = await play_to_the_end(tables, table)  # no SaveFailed: the move is stored
    assert last.kind is ActionKind.DECLARE and last.declared  # told the truth: you won
    assert CHANNEL not in tables.registry.by_channel
    assert listener.calls[-2:] == ["deal 1", "finished"]  # shown at once, not held back
    await settled(tables, lambda: _deals_stored(storage, 1))
    assert calls[0] == 2  # failed once, retried once
    await settled(tables, lambda: _nothing_pending(storage))
    await memory_equals_database(storage, table)
    await new_table_opens(tables)
    await tables.shutdown()


async def test_posting_the_results_fails_once_and_is_retried(storage: Storage) -> None:
    listener = Listener()
    listener.fail["deal_finished"] = 1
    tables = service(storage, listener)
    table = await points_game(tables)
    await play_to_the_end(tables, table)
    await settled(tables, lambda: _nothing_pending(storage))
    assert listener.calls.count("deal 1") == 1 and listener.calls.count("finished") == 1
    assert listener.again == [True]  # the retry looks for the message before posting it
    assert await _deals_stored(storage, 1)
    await new_table_opens(tables)
    await tables.shutdown()


async def test_closing_fails_after_the_commit(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table is closed by the commit itself; handing its lease back fails, and that
    only delays a takeover that cannot happen (the table is closed)."""
    listener = Listener()
    listener.fail["table_closed"] = 1
    tables = service(storage, listener)
    table = await points_game(tables)
    fail_once(monkeypatch, storage, "release_table")
    await play_to_the_end(tables, table)
    record = await storage.tables.load_table(table.id)
    assert record is not None and record.status == "finished"
    await new_table_opens(tables)
    await settled(tables, lambda: _nothing_pending(storage))
    assert listener.calls.count("finished") == 1
    await tables.shutdown()


async def test_the_next_players_ping_fails_and_the_turn_goes_on(storage: Storage) -> None:
    listener = Listener()
    tables = service(storage, listener)
    table = await points_game(tables)
    listener.fail["turn_started"] = 1
    player = on_turn(table)
    await tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK)
    m = table.match
    assert m is not None and m.deal is not None
    throw = m.deal.hands[m.deal.turn][-1]
    played = await tables.game.act(table, player, table.version, ActionKind.DISCARD, throw.id)
    assert played.card == throw
    assert on_turn(table) != player
    assert (table.id, "timer") in tables.scheduler.pending()  # the turn timer is armed anyway
    await memory_equals_database(storage, table)
    await tables.shutdown()


async def test_marking_a_posted_result_fails_and_a_restart_looks_before_posting(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Posted, then the mark fails (or the process dies before it): the next start delivers
    it again, telling the listener to look for the message first."""
    listener = Listener()
    tables = service(storage, listener)
    table = await points_game(tables)
    real_mark = storage.outbox.mark_announced

    async def mark(table_id: str, kind: str, deal_no: int = 0, **kw: Any) -> bool:
        if kind == "deal_results":
            raise StorageUnavailable("mark failed (injected)")
        return await real_mark(table_id, kind, deal_no, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(repo(storage, "mark_announced"), "mark_announced", mark)
    await play_to_the_end(tables, table)
    await tables.shutdown()
    monkeypatch.setattr(repo(storage, "mark_announced"), "mark_announced", real_mark)
    pending = await storage.outbox.pending_announcements()
    assert [(p.kind, p.deal_no) for p in pending] == [("deal_results", 1)]

    after = Listener()
    restarted = service(storage, after)
    assert await restarted.recovery.restore() == []
    assert await restarted.recovery.deliver_pending() == 1
    assert after.calls == ["deal 1"] and after.again == [True]
    assert await storage.outbox.pending_announcements() == []
    await restarted.shutdown()


async def test_a_slow_commit_shows_nothing_before_it_is_stored(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    listener = Listener()
    tables = service(storage, listener)
    table = await points_game(tables)
    player = on_turn(table)
    seat = table.engine_seat(player)
    assert seat is not None
    before = table.to_json()
    hand_before = [c.id for c in table.observation_for(player).hand]
    gate = asyncio.Event()
    entered = asyncio.Event()
    real = storage.tables.commit_action

    async def slow(*args: Any, **kwargs: Any) -> None:
        entered.set()
        await gate.wait()
        await real(*args, **kwargs)

    monkeypatch.setattr(repo(storage, "commit_action"), "commit_action", slow)
    move = asyncio.create_task(tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK))
    await entered.wait()
    # In flight: every reader (the presenter, a hand view, a timer) sees the stored table.
    assert table.to_json() == before
    assert [c.id for c in table.observation_for(player).hand] == hand_before
    gate.set()
    played = await move
    assert played.card is not None
    assert played.card.id in [c.id for c in table.observation_for(player).hand]
    await memory_equals_database(storage, table)
    await tables.shutdown()


async def test_a_cancelled_change_keeps_memory_and_database_equal(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The caller is cancelled while its commit is in flight (a shutdown, a replaced timer):
    the commit goes on, and memory takes the stored change."""
    listener = Listener()
    tables = service(storage, listener)
    table = await points_game(tables)
    player = on_turn(table)
    version = table.version
    gate = asyncio.Event()
    entered = asyncio.Event()
    real = storage.tables.commit_action

    async def slow(*args: Any, **kwargs: Any) -> None:
        entered.set()
        await gate.wait()
        await real(*args, **kwargs)

    monkeypatch.setattr(repo(storage, "commit_action"), "commit_action", slow)
    move = asyncio.create_task(tables.game.act(table, player, version, ActionKind.DRAW_STOCK))
    await entered.wait()
    move.cancel()
    await asyncio.sleep(0.01)
    gate.set()
    with pytest.raises(asyncio.CancelledError):
        await move
    assert table.version == version + 1
    await memory_equals_database(storage, table)
    await tables.shutdown()


async def test_a_failed_commit_changes_nothing_and_says_so(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    listener = Listener()
    tables = service(storage, listener)
    table = await points_game(tables)
    before = table.to_json()
    fail_once(monkeypatch, storage, "commit_action")
    with pytest.raises(errors.SaveFailed):
        await tables.game.act(table, on_turn(table), table.version, ActionKind.DRAW_STOCK)
    assert table.to_json() == before
    await memory_equals_database(storage, table)
    await tables.game.act(table, on_turn(table), table.version, ActionKind.DRAW_STOCK)
    await memory_equals_database(storage, table)
    await tables.shutdown()


async def _deals_stored(storage: Storage, n: int) -> bool:
    return len(await storage.boards.recent_deals(GUILD, ALICE)) == n


async def _nothing_pending(storage: Storage) -> bool:
    return await storage.outbox.pending_announcements() == []


async def test_effects_held_back_still_show_each_deal_once(storage: Storage) -> None:
    """What players see runs in the background, after the commit: if it is held back (a slow
    channel) while the game goes on, each queued change still shows what it did, not what
    the table did since (every move before the winning one once posted the deal's results)."""
    gate = asyncio.Event()

    class Slow(Listener):
        async def table_changed(self, table: Table) -> None:
            await gate.wait()

    listener = Slow()
    tables = service(storage, listener)
    table = await points_game(tables)
    task = asyncio.ensure_future(play_to_the_end(tables, table))
    await settled(tables, _is(lambda: table.status is TableStatus.FINISHED))
    assert listener.calls == []  # all of it is still queued behind the first table change
    gate.set()
    await asyncio.wait_for(task, 60)
    assert listener.calls.count("deal 1") == 1
    assert listener.calls.count("finished") == 1
    assert listener.calls[-2:] == ["deal 1", "finished"]
    await tables.shutdown()


def _is(check: Callable[[], bool]) -> Callable[[], Awaitable[bool]]:
    async def condition() -> bool:
        return check()

    return condition
