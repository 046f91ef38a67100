"""Timers on the injectable clock (no test sleeps for real), auto-play as pure functions, and
a whole table driven through the service with no Discord at all."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.ai import AiTier
from bot.engine.actions import ActionKind
from bot.engine.match import Match, MatchPhase, Player
from bot.engine.rules import get_profile
from bot.storage import Storage
from bot.table.autoplay import MAX_TIMEOUTS, timeout_finish, timeout_opening
from bot.table.model import Table
from bot.table.options import build_options
from bot.table.scheduler import ManualClock, Scheduler
from bot.table.service import TableService
from bot.table.turns import WARNING_BEFORE
from bot.table.vocabulary import TableStatus
from bot.words.log import log_lines

GUILD, CHANNEL = 1000, 2000
ALICE, BOB = 11, 22


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait (in real time) for a change the manual clock set off: storing it is real I/O."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    assert condition()


class Recorder:
    def __init__(self) -> None:
        self.calls: list[str] = []

    async def table_changed(self, table: Table) -> None:
        self.calls.append("changed")

    async def turn_started(self, table: Table) -> None:
        self.calls.append("turn")

    async def turn_warning(self, table: Table) -> None:
        self.calls.append("warning")

    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None:
        self.calls.append(f"deal {number}")

    async def table_closed(self, table: Table, reason: str, *, again: bool = False) -> None:
        self.calls.append(reason)


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "t.sqlite3")
    yield store
    await store.close()


async def test_manual_clock_wakes_sleepers_in_order() -> None:
    clock = ManualClock()
    woke: list[str] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append(name)

    tasks = [asyncio.ensure_future(sleeper("b", 20)), asyncio.ensure_future(sleeper("a", 10))]
    await asyncio.sleep(0)
    await clock.advance(5)
    assert woke == []
    await clock.advance(10)
    assert woke == ["a"]
    await clock.advance(10)
    assert woke == ["a", "b"]
    await asyncio.gather(*tasks)


async def test_scheduler_replaces_and_forgets_tasks() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    ran: list[int] = []

    async def job(n: int) -> None:
        await clock.sleep(10)
        ran.append(n)

    scheduler.schedule("t1", "timer", job(1))
    scheduler.schedule("t1", "timer", job(2))  # replaces the first
    await asyncio.sleep(0)
    assert scheduler.pending("t1") == [("t1", "timer")]
    await clock.advance(10)
    assert ran == [2]
    assert scheduler.pending() == []
    scheduler.schedule("t2", "ai", job(3))
    scheduler.cancel_table("t2")
    await clock.advance(10)
    assert ran == [2] and scheduler.pending() == []
    await scheduler.shutdown()


async def test_turn_timer_warns_then_plays_for_the_absent_player(storage: Storage) -> None:
    clock = ManualClock()
    recorder = Recorder()
    service = TableService(storage, recorder, ai_delay=0, deck_seed=3, clock=clock)
    opts = build_options("points", None, 60, None, {}, None, None, None)
    table = await service.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await service.lobby.join(table, BOB, "bob")
    await service.lobby.start(table, ALICE)
    assert table.deadline == clock.now() + 60
    on_turn = table.current_turn()
    await clock.advance(60 - WARNING_BEFORE - 1)
    assert "warning" not in recorder.calls
    await clock.advance(1)
    assert "warning" in recorder.calls
    assert table.current_turn() == on_turn  # not yet
    await clock.advance(WARNING_BEFORE)
    await until(lambda: table.current_turn() != on_turn)  # the bot drew and threw for them
    assert log_lines(table.log, "en")[-1].startswith("⏰")
    assert table.match is not None
    assert table.timeouts[table.match.players[on_turn].id] == 1  # type: ignore[index]
    await service.shutdown()


def _match(seed: int) -> Match:
    players = [Player("a", "A"), Player("b", "B")]
    return Match.create(players, get_profile("points"), seed=seed)


def test_timeout_opening_draws_then_drops_after_repeats() -> None:
    m = _match(1)
    assert m.deal is not None
    obs = m.observation(m.deal.turn)
    first = timeout_opening(obs, 1)
    assert first is not None and first.kind is ActionKind.DRAW_STOCK
    last = timeout_opening(obs, MAX_TIMEOUTS)
    assert last is not None and last.kind is ActionKind.DROP
    other = m.observation(1 - m.deal.turn)
    assert timeout_opening(other, 1) is None  # not their turn


def test_timeout_finish_throws_the_drawn_card() -> None:
    for seed in range(20):
        m = _match(seed)
        assert m.deal is not None
        seat = m.deal.turn
        before = {c.id for c in m.deal.hands[seat]}
        m.apply(timeout_opening(m.observation(seat), 1))  # type: ignore[arg-type]
        drawn = next(c for c in m.deal.hands[seat] if c.id not in before)
        action = timeout_finish(m.observation(seat), just_drew=True)
        if action.kind is ActionKind.DISCARD:
            assert action.card == drawn.id
        else:
            assert action.kind is ActionKind.DECLARE


async def test_a_whole_match_through_the_service_without_discord(storage: Storage) -> None:
    """Two AI seats and nobody else: the service plays a pool match to its end on its own."""
    clock = ManualClock()
    recorder = Recorder()
    service = TableService(
        storage, recorder, ai_delay=1, next_deal_delay=5, deck_seed=11, clock=clock
    )
    opts = build_options("pool101", None, 60, None, {}, None, None, None)
    table = await service.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await service.lobby.add_ai(table, ALICE, AiTier.MEDIUM)
    await service.lobby.add_ai(table, ALICE, AiTier.EASY)
    # The host never clicks: each of their turns times out and is auto-played, so the clock
    # alone drives the match to its end.
    await service.lobby.start(table, ALICE)
    for _ in range(20000):
        if table.status is not TableStatus.PLAYING:
            break
        await clock.advance(5)
        await asyncio.sleep(0.001)  # AI seats think in a worker thread: let it answer
    assert table.status is TableStatus.FINISHED
    for _ in range(100):  # the closing announcements follow the status change
        if recorder.calls[-1] == "finished":
            break
        await asyncio.sleep(0.01)
    assert table.match is not None and table.match.phase is MatchPhase.OVER
    assert recorder.calls[-1] == "finished"
    finished = [c for c in recorder.calls if c.startswith("deal ")]
    assert len(finished) == len(table.match.results)
    for _ in range(100):  # a follow-up of the last move may still be finishing
        if not service.scheduler.pending():
            break
        await clock.advance(5)
        await asyncio.sleep(0.01)
    assert service.scheduler.pending() == []
    assert CHANNEL not in service.registry.by_channel and table.id not in service.registry.by_id
    stats = await storage.boards.player_stats(GUILD, ALICE)
    assert stats.profiles["pool101"].deals_played == len(table.match.results)
    await service.shutdown()


async def test_an_idle_lobby_closes_by_itself(storage: Storage) -> None:
    clock = ManualClock()
    recorder = Recorder()
    service = TableService(storage, recorder, lobby_timeout=1800, clock=clock)
    opts = build_options("points", None, 60, None, {}, None, None, None)
    table = await service.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await clock.advance(1000)
    await service.lobby.join(table, BOB, "bob")  # a change restarts the wait
    await clock.advance(1000)
    assert table.status is TableStatus.LOBBY
    await clock.advance(900)
    for _ in range(200):  # closing writes to storage (a real thread): give it real time
        if recorder.calls and recorder.calls[-1] == "expired":
            break
        await asyncio.sleep(0.01)
    assert table.status is TableStatus.CANCELLED
    assert recorder.calls[-1] == "expired"
    assert CHANNEL not in service.registry.by_channel and service.scheduler.pending() == []
    record = await storage.tables.load_table(table.id)
    assert record is not None and record.status == "cancelled"
    await service.shutdown()


async def test_a_started_table_does_not_expire(storage: Storage) -> None:
    clock = ManualClock()
    service = TableService(storage, Recorder(), lobby_timeout=100, clock=clock)
    opts = build_options("points", None, 600, None, {}, None, None, None)
    table = await service.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await service.lobby.join(table, BOB, "bob")
    await service.lobby.start(table, ALICE)
    await clock.advance(150)
    assert table.status is TableStatus.PLAYING
    assert ("t", "lobby") not in [(k[0][:1], k[1]) for k in service.scheduler.pending()]
    await service.shutdown()


async def test_closed_tables_leave_nothing_behind(storage: Storage) -> None:
    """300 tables opened, played a little and closed: no per-table entry survives."""
    clock = ManualClock()
    service = TableService(storage, Recorder(), ai_delay=0, clock=clock)
    opts = build_options("points", None, 60, None, {}, None, None, None)
    for i in range(300):
        table = await service.lobby.create(GUILD, 10_000 + i, ALICE, "alice", opts)
        await service.lobby.join(table, BOB, "bob")
        if i % 2:
            await service.lobby.start(table, ALICE)
        await service.lobby.cancel(table, ALICE, is_manager=False)
    await asyncio.sleep(0)
    assert service.registry.by_id == {} and service.registry.by_channel == {}
    assert service.scheduler.pending() == [] and service.scheduler._tasks == {}
    assert service.turns._pinged == {} and service.game._reposted == {}
    assert service.lobby._creating == {} and service.effects.pending() == 0
    await service.shutdown()


async def test_an_ai_whose_move_was_lost_is_set_moving_again(storage: Storage) -> None:
    """The safety net of the lease loop: an AI on turn with no move pending moves again."""
    clock = ManualClock()
    service = TableService(storage, Recorder(), ai_delay=0, deck_seed=3, clock=clock)
    opts = build_options("points", None, 60, None, {}, None, None, None)
    table = await service.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await service.lobby.add_ai(table, ALICE, AiTier.EASY)
    await service.lobby.start(table, ALICE)
    for _ in range(10):  # until the AI is on turn
        turn = table.current_turn()
        assert turn is not None and table.match is not None
        if table.seat_info(turn).ai is not None:
            break
        await service.game.act(table, ALICE, table.version, ActionKind.DRAW_STOCK)
        m = table.match
        assert m.deal is not None
        await service.game.act(
            table, ALICE, table.version, ActionKind.DISCARD, m.deal.hands[turn][-1].id
        )
    await service.effects.settled()  # the AI's move armed after the last change
    service.scheduler.cancel(table.id, "ai")  # the AI's move is lost
    await asyncio.sleep(0)
    version = table.version
    assert service.turns.nudge(table)
    await until(lambda: table.version > version)
    assert not service.turns.nudge(table)  # moving again: nothing to do
    await service.shutdown()


async def test_an_ai_thinks_during_its_pause_and_moves_only_after_both(storage: Storage) -> None:
    """The pause before an AI's move and its thinking overlap: a slow tier answers after
    max(pause, thinking), not their sum, and a quick thought still waits out the pause."""
    from bot.engine.actions import Action
    from bot.engine.observation import Observation
    from bot.table.turns import think_in_thread

    clock = ManualClock()
    changed_at: list[float] = []
    asked_at: list[float] = []
    may_answer = asyncio.Event()

    class Timed(Recorder):
        async def table_changed(self, table: Table) -> None:
            changed_at.append(clock.now())

    async def think(tier: AiTier, obs: Observation, seed: int) -> Action:
        asked_at.append(clock.now())
        await may_answer.wait()  # a slow thinker: it answers when the test says so
        return await think_in_thread(tier, obs, seed)

    service = TableService(storage, Timed(), ai_delay=4, deck_seed=3, clock=clock, think=think)
    opts = build_options("points", None, 60, None, {}, None, None, None)
    table = await service.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await service.lobby.add_ai(table, ALICE, AiTier.MEDIUM)
    await service.lobby.start(table, ALICE)
    for _ in range(200):  # if the host starts, their turn times out onto the AI
        if asked_at:
            break
        await clock.advance(1)
        await asyncio.sleep(0.001)
    assert asked_at, "the AI never started thinking"
    assert asked_at[0] == changed_at[-1]  # at the start of its pause, not after it
    version = table.version
    await clock.advance(10)  # the pause is over, the thought is not: no move yet
    await asyncio.sleep(0.05)
    assert table.version == version
    may_answer.set()  # the thought ends after the pause: the move follows at once
    await until(lambda: table.version > version)
    await service.shutdown()
