"""Tournaments in the table layer, with a recording listener and (for the clock) a manual one:
registration and check-in, the start, rounds to a winner, the organiser's tools, a restart
mid-round, a failure while advancing, and one driver per tournament across two services."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.ai import AiTier
from bot.storage import Storage, StorageError
from bot.table.errors import TournamentProblem, TournamentRefused
from bot.table.model import Table
from bot.table.scheduler import ManualClock
from bot.table.service import TableService
from bot.table.tournament import Organiser
from bot.table.tournament_effects import QuietTournaments
from bot.table.tournament_model import CHECK_IN_SECONDS, Tournament, TournamentStatus
from bot.table.tournament_options import TournamentRequest
from bot.table.turns import think_in_thread
from bot.table.vocabulary import ENGLISH, TableStatus
from tests.postgres import postgres_schema, postgres_url_or_skip
from tests.storage.helpers import raw

GUILD, CHANNEL = 1000, 2000
BOSS = Organiser(1, manager=True)
ALICE, BOB, CAROL, DAVE = 11, 22, 33, 44


class Quiet:
    async def table_changed(self, table: Table) -> None: ...
    async def turn_started(self, table: Table) -> None: ...
    async def turn_warning(self, table: Table) -> None: ...
    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None: ...
    async def table_closed(self, table: Table, reason: str, *, again: bool = False) -> None: ...


class Notes(QuietTournaments):
    """Records every note the tournament side asks to post."""

    def __init__(self, fail: int = 0) -> None:
        self.notes: list[tuple[str, int]] = []
        self.payloads: dict[tuple[str, int], dict[str, Any]] = {}
        self.fail = fail  # refuse this many posts first (Discord away)
        #: Notes asked with `again`: a note whose post may have gone out before a stop (posted,
        #: not yet marked); the Discord side then looks for its message before posting.
        self.again: list[tuple[str, int]] = []

    async def tournament_note(
        self,
        tournament: Tournament,
        kind: str,  # type: ignore[override]
        round_no: int,
        payload: dict[str, Any],
        *,
        again: bool = False,
    ) -> None:
        if self.fail:
            self.fail -= 1
            raise OSError("Discord is away")
        self.notes.append((kind, round_no))
        self.payloads[(kind, round_no)] = payload
        if again:
            self.again.append((kind, round_no))

    def count(self, kind: str) -> int:
        return sum(1 for k, _ in self.notes if k == kind)


async def until(condition: Callable[[], bool], seconds: float = 120.0) -> None:
    """Wait (in real time) for tables and stores to catch up; fails after `seconds`."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    assert condition()


def service(
    storage: Storage, notes: Notes, clock: ManualClock | None = None, **kw: Any
) -> TableService:
    kw.setdefault("owner", "one")
    kw.setdefault("ai_delay", 0.0)
    return TableService(
        storage, Quiet(), next_deal_delay=0.0, deck_seed=5, clock=clock,
        think=think_in_thread, retry_delays=(0.05, 0.1), tournament_listener=notes, **kw,
    )  # fmt: skip


def english(_chosen: str | None) -> Any:
    return ENGLISH


async def ai_tournament(svc: TableService, players: int, **kw: Any) -> Tournament:
    request = TournamentRequest("Night", seats=kw.pop("seats", 4), deals=1, start_in=1, **kw)
    t = await svc.tournaments.create(GUILD, CHANNEL, BOSS, request, english)
    await svc.tournament_tools.add_ai(t, BOSS, players, AiTier.EASY, lambda n: f"AI {n}")
    return t


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "t.sqlite3")
    yield store
    await store.close()


async def test_registration_check_in_and_the_start(storage: Storage) -> None:
    clock, notes = ManualClock(), Notes()
    svc = service(storage, notes, clock)
    try:
        request = TournamentRequest("Saturday", seats=3, deals=1, start_in=30)
        t = await svc.tournaments.create(GUILD, CHANNEL, BOSS, request, english)
        assert t.status is TournamentStatus.REGISTRATION
        with pytest.raises(TournamentRefused) as busy:
            await svc.tournaments.create(GUILD, CHANNEL, BOSS, request, english)
        assert busy.value.problem is TournamentProblem.CHANNEL_BUSY
        for guild, channel, problem in (
            (GUILD, CHANNEL + 1, TournamentProblem.WRONG_PLACE),  # a click from elsewhere
            (GUILD + 1, CHANNEL, TournamentProblem.WRONG_PLACE),
        ):
            with pytest.raises(TournamentRefused) as elsewhere:
                svc.tournaments.get(t.id, guild_id=guild, channel_id=channel)
            assert elsewhere.value.problem is problem
        with pytest.raises(TournamentRefused) as unknown:
            svc.tournaments.get("zzzzzzzzzz", guild_id=GUILD, channel_id=CHANNEL)
        assert unknown.value.problem is TournamentProblem.CLOSED
        tours = svc.tournaments
        for user, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
            assert not (await tours.register(t, user, name)).checked_in
        with pytest.raises(TournamentRefused) as again:
            await tours.register(t, ALICE, "alice")
        assert again.value.problem is TournamentProblem.ALREADY_REGISTERED
        with pytest.raises(TournamentRefused) as early:
            await tours.check_in(t, ALICE)
        assert early.value.problem is TournamentProblem.CHECK_IN_NOT_OPEN
        await tours.unregister(t, BOB)
        with pytest.raises(TournamentRefused) as gone:
            await tours.unregister(t, BOB)
        assert gone.value.problem is TournamentProblem.NOT_REGISTERED
        await tours.register(t, BOB, "bob")
        # The check-in window opens by the clock.
        await clock.advance(30 * 60 - CHECK_IN_SECONDS + 1)
        await until(lambda: t.status is TournamentStatus.CHECK_IN, 10)
        assert not (await tours.check_in(t, ALICE)).already
        assert (await tours.check_in(t, ALICE)).already
        await tours.check_in(t, BOB)
        assert (await tours.register(t, DAVE, "dave")).checked_in  # here: checked in at once
        with pytest.raises(TournamentRefused) as stranger:
            await tours.check_in(t, 99)
        assert stranger.value.problem is TournamentProblem.NOT_REGISTERED
        # The start: carol never checked in and is left out, and told.
        await clock.advance(CHECK_IN_SECONDS)
        await until(lambda: ("round_seated", 1) in notes.notes, 10)  # posted after the commit
        assert t.status is TournamentStatus.RUNNING and ("left_out", 0) in notes.notes
        assert notes.payloads[("left_out", 0)]["users"] == [CAROL]
        r = t.rounds[0]
        seated = sorted(k for slot in r.tables for k in slot.seats)
        assert seated == sorted(f"u{u}" for u in (ALICE, BOB, DAVE)) and r.byes == []
        with pytest.raises(TournamentRefused) as late:
            await tours.register(t, CAROL, "carol")
        assert late.value.problem is TournamentProblem.REGISTRATION_CLOSED
        # The round's table is an ordinary table, stored with the tournament and its round.
        table = svc.registry.by_id[r.tables[0].table_id]
        assert table.status is TableStatus.PLAYING and table.tournament is not None
        stored = await storage.tables.load_table(table.id)
        assert stored is not None and (stored.tournament_id, stored.tournament_round) == (t.id, 1)
    finally:
        await svc.shutdown()


async def test_too_few_checked_in_waits_for_a_late_start(storage: Storage) -> None:
    clock, notes = ManualClock(), Notes()
    svc = service(storage, notes, clock)
    try:
        request = TournamentRequest("Quiet night", seats=3, deals=1, start_in=5)
        t = await svc.tournaments.create(GUILD, CHANNEL, BOSS, request, english)
        assert t.status is TournamentStatus.CHECK_IN  # within the window from the start
        await svc.tournaments.register(t, ALICE, "alice")
        await svc.tournaments.register(t, BOB, "bob")
        await svc.tournaments.unregister(t, BOB)
        await clock.advance(5 * 60 + 1)
        await until(lambda: t.stalled, 10)
        assert t.status is TournamentStatus.CHECK_IN and notes.count("stalled") == 1
        tools = svc.tournament_tools
        with pytest.raises(TournamentRefused) as few:
            await tools.start(t, BOSS)
        assert few.value.problem is TournamentProblem.TOO_FEW
        assert few.value.params == {"minimum": 2, "count": 1}
        await svc.tournaments.register(t, BOB, "bob")
        with pytest.raises(TournamentRefused) as nobody:
            await tools.start(t, Organiser(ALICE))
        assert nobody.value.problem is TournamentProblem.NOT_ORGANISER
        await tools.start(t, BOSS)
        assert t.status is TournamentStatus.RUNNING and len(t.rounds[0].tables) == 1
    finally:
        await svc.shutdown()


async def test_forget_me_waits_for_an_open_tournament_then_takes_the_player_out(
    storage: Storage,
) -> None:
    """A registered player's forget-me changes nothing while the tournament is open (its next
    change would write them back); once it is over, its state and its log lose them."""
    clock, notes = ManualClock(), Notes()
    svc = service(storage, notes, clock)
    ann = 712345678901234567  # Discord-sized, as forget-me meets them
    try:
        request = TournamentRequest("Night", seats=3, deals=1, start_in=30)
        t = await svc.tournaments.create(GUILD, CHANNEL, BOSS, request, english)
        await svc.tournaments.register(t, ann, "Annapurna")
        await svc.tournaments.register(t, BOB, "bob")
        assert await svc.league.forget(GUILD, ann, int(clock.now())) == "playing"
        await svc.tournament_tools.cancel(t, BOSS, "rain")
        assert await svc.league.forget(GUILD, ann, int(clock.now())) == "done"
        (state,) = await raw(storage, "SELECT state_json FROM tournaments")
        log = await raw(storage, "SELECT event_json FROM tournament_events")
        for doc in (str(state[0]), *(str(row[0]) for row in log)):
            assert str(ann) not in doc and "Annapurna" not in doc, doc
        assert '"bob"' in str(state[0]), "the other entrant is kept"
    finally:
        await svc.shutdown()


async def test_a_start_time_is_in_the_servers_time_zone(storage: Storage) -> None:
    """`start_at` is a wall-clock time in the zone the server set for its seasons."""
    clock, notes = ManualClock(), Notes()  # 2023-11-14 22:13:20 UTC, 03:43:20 in India
    svc = service(storage, notes, clock)
    try:
        await storage.settings.update_settings(GUILD, time_zone="Asia/Kolkata")
        request = TournamentRequest("Evening", seats=3, deals=1, start_at="20:30")
        t = await svc.tournaments.create(GUILD, CHANNEL, BOSS, request, english)
        start = datetime.fromtimestamp(t.options.start_at, UTC)
        assert start == datetime(2023, 11, 15, 15, 0, tzinfo=UTC)  # 20:30 that evening in India
    finally:
        await svc.shutdown()


async def test_who_may_organise(storage: Storage) -> None:
    svc = service(storage, Notes())
    try:
        request = TournamentRequest("Roles", start_in=60)
        role = 777000111222333444
        with pytest.raises(TournamentRefused) as refused:
            await svc.tournaments.create(GUILD, CHANNEL, Organiser(ALICE, roles=(role,)), request,
                                         english)  # fmt: skip
        assert refused.value.problem is TournamentProblem.NOT_ORGANISER
        await storage.settings.update_settings(GUILD, organiser_role_id=role)
        t = await svc.tournaments.create(
            GUILD, CHANNEL, Organiser(ALICE, roles=(role,)), request, english
        )
        assert t.organiser_id == ALICE
        await svc.tournament_tools.delay(t, Organiser(ALICE), 30)  # its own organiser
        with pytest.raises(TournamentRefused) as other:
            await svc.tournament_tools.cancel(t, Organiser(BOB), "no")
        assert other.value.problem is TournamentProblem.NOT_ORGANISER
        with pytest.raises(TournamentRefused) as bad:
            await svc.tournaments.create(
                GUILD, CHANNEL + 1, BOSS, TournamentRequest("x", seats=9), english
            )
        assert bad.value.problem is TournamentProblem.BAD_OPTION
        assert bad.value.params["option"] == "seats"
    finally:
        await svc.shutdown()


async def test_a_whole_tournament_posts_each_note_once(storage: Storage) -> None:
    notes = Notes()
    svc = service(storage, notes)
    try:
        t = await ai_tournament(svc, 9)
        await svc.tournament_tools.start(t, BOSS)
        await until(lambda: t.status is TournamentStatus.FINISHED)
        # The closing note is posted after the commit that finished it, in the background.
        await until(lambda: notes.count("finished") > 0)
        await svc.effects.settled()
        rounds = len(t.rounds)
        assert notes.count("round_seated") == rounds == notes.count("round_done")
        assert notes.count("finished") == 1 and len(notes.notes) == len(set(notes.notes))
        assert sorted(t.places) == sorted(e.key for e in t.entrants)
        assert [k for k, p in t.places.items() if p == 1] == [t.winner]
        places = await storage.tournaments.places(t.id)
        assert (places[0].entrant, places[0].place) == (t.winner, 1)
        statuses = await storage.tournaments.table_statuses(t.id)
        assert set(statuses.values()) == {"finished"} and len(statuses) == len(t.table_ids())
        for _ in range(500):  # its note is marked delivered just after it is posted
            if await storage.tournaments.pending() == []:
                break
            await asyncio.sleep(0.02)
        assert await storage.tournaments.pending() == []
        assert t.id not in svc.tournaments.registry.by_id
    finally:
        await svc.shutdown()


async def test_a_failure_while_advancing_is_retried_and_seats_the_whole_round(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = Notes(fail=1)  # the first note cannot be posted either: retried from the outbox
    svc = service(storage, notes)
    real = storage.tournaments.commit
    failures: list[str] = []

    async def flaky(*args: Any, **kw: Any) -> None:
        event = json.loads(args[3])
        if event["type"] == "round_done" and not failures:
            failures.append(event["type"])
            raise StorageError("the database went away")
        await real(*args, **kw)

    monkeypatch.setattr(storage.tournaments, "commit", flaky)
    try:
        t = await ai_tournament(svc, 9)
        await svc.tournament_tools.start(t, BOSS)
        await until(lambda: t.status is TournamentStatus.FINISHED)
        assert failures == ["round_done"]
        assert notes.count("round_seated") == len(t.rounds)  # once each, the first retried
        for r in t.rounds:  # every round seated whole: each of its tables stored and played
            statuses = await storage.tournaments.table_statuses(t.id)
            assert all(statuses[slot.table_id] == "finished" for slot in r.tables)
    finally:
        await svc.shutdown()


async def test_pause_holds_the_tables_and_resume_seats_the_next_round(storage: Storage) -> None:
    notes = Notes()
    svc = service(storage, notes, ai_delay=0.02)
    try:
        t = await ai_tournament(svc, 9)
        await svc.tournament_tools.start(t, BOSS)
        await svc.tournament_tools.pause(t, BOSS)
        with pytest.raises(TournamentRefused):
            await svc.tournament_tools.pause(t, BOSS)
        held = [svc.registry.by_id[s.table_id] for s in t.rounds[0].tables]
        assert all(table.held for table in held if table.status.open)
        await until(lambda: t.rounds[0].done)
        assert len(t.rounds) == 1 and notes.count("round_seated") == 1  # no new round
        await svc.tournament_tools.resume(t, BOSS)
        assert len(t.rounds) == 2 and notes.count("round_seated") == 2
        await until(lambda: t.status is TournamentStatus.FINISHED)
    finally:
        await svc.shutdown()


async def test_removing_a_player_plays_their_seat_out_and_cancel_rates_nothing(
    storage: Storage,
) -> None:
    notes = Notes()
    svc = service(storage, notes, ai_delay=0.05)
    try:
        request = TournamentRequest("People", seats=3, deals=3, start_in=1, turn_timer=600)
        t = await svc.tournaments.create(GUILD, CHANNEL, BOSS, request, english)
        for user, name in ((ALICE, "alice"), (BOB, "bob")):
            await svc.tournaments.register(t, user, name)
        await svc.tournament_tools.add_ai(t, BOSS, 4, AiTier.EASY, lambda n: f"AI {n}")
        await svc.tournament_tools.start(t, BOSS)
        slot = t.rounds[0].table_of(f"u{ALICE}")
        assert slot is not None
        assert await svc.tournament_tools.remove(t, BOSS, ALICE) == "alice"
        table = svc.registry.by_id[slot.table_id]
        m = table.match
        assert m is not None and m.seat_of(f"u{ALICE}") in m.left  # played out as a drop
        with pytest.raises(TournamentRefused) as twice:
            await svc.tournament_tools.remove(t, BOSS, ALICE)
        assert twice.value.problem is TournamentProblem.NO_SUCH_PLAYER
        await svc.tournament_tools.cancel(t, BOSS, "the venue   closed")
        assert t.status is TournamentStatus.CANCELLED and t.reason == "the venue closed"
        assert notes.payloads[("cancelled", 0)] == {"reason": "the venue closed"}
        statuses = await storage.tournaments.table_statuses(t.id)
        assert set(statuses.values()) <= {"cancelled", "finished"}
        assert "cancelled" in statuses.values()
        for table_id, status in statuses.items():
            if status == "cancelled":  # a cancelled table records no match: nothing rated
                found = await raw(storage, "SELECT 1 FROM matches WHERE match_id = ?", (table_id,))
                assert found == []
    finally:
        await svc.shutdown()


async def test_a_restart_mid_round_resumes_every_table_and_the_round(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    first_notes = Notes()
    storage = await Storage.open(path)
    first = service(storage, first_notes, ai_delay=0.05)
    t = await ai_tournament(first, 9)
    await first.tournament_tools.start(t, BOSS)
    tid = t.id

    def a_deal_done() -> bool:
        held = first.registry.by_id.values()
        return t.rounds[0].done or any(tab.match and tab.match.results for tab in held)

    await until(a_deal_done)
    # A stop mid-round (every state is saved; leases are handed back).
    await first.shutdown()
    await storage.close()

    storage = await Storage.open(path)
    notes = Notes()
    second = service(storage, notes)
    try:
        tables = await second.recovery.restore()
        assert {tab.tournament.tournament_id for tab in tables if tab.tournament} <= {tid}
        (back,) = await second.tournament_recovery.restore()
        assert back.id == tid and back.status is TournamentStatus.RUNNING
        for table in tables:
            await second.recovery.resume(table)
        await second.tournament_recovery.resume()
        await until(lambda: back.status is TournamentStatus.FINISHED)
        # No note twice across the restart, unless the stop fell between a note's post and
        # its mark: then the next start asks again with `again` (the Discord side finds the
        # message it posted and posts nothing; `tournament_board`), never as a new note.
        both = first_notes.notes + notes.notes
        twice = {n for n in both if both.count(n) > 1}
        assert twice <= set(notes.again), f"posted twice, not as a replay: {twice}"
        assert all(both.count(n) <= 2 for n in both), both
        assert sorted(back.places) == sorted(e.key for e in back.entrants)
    finally:
        await second.shutdown()
        await storage.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def shared(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """One database two services open: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "shared.sqlite3")
        return
    async for url in postgres_schema(postgres_url_or_skip()):
        yield url


async def test_one_tournament_is_driven_by_one_process(shared: str) -> None:
    a_store, b_store = await Storage.open_url(shared), await Storage.open_url(shared)
    clock = ManualClock()
    a = service(a_store, Notes(), clock, owner="process a", lease_seconds=30.0)
    b = service(b_store, Notes(), clock, owner="process b", lease_seconds=30.0)
    try:
        t = await a.tournaments.create(
            GUILD, CHANNEL, BOSS, TournamentRequest("Shared", start_in=120), english
        )
        assert await b.tournament_recovery.restore() == []  # a holds it
        await b.tournament_recovery.renew()
        assert t.id not in b.tournaments.registry.by_id
        # a stops renewing (it crashed): once its lease has run out, b takes the tournament.
        await a.tournament_recovery.shutdown()
        await a.tournaments.effects.shutdown()
        clock._now += 31.0
        await b.tournament_recovery.renew()
        assert t.id in b.tournaments.registry.by_id
        taken = b.tournaments.registry.by_id[t.id]
        await b.tournaments.register(taken, ALICE, "alice")
        # a, back, learns it lost the tournament and lets it go.
        await a.tournament_recovery.renew()
        assert t.id not in a.tournaments.registry.by_id
    finally:
        await b.shutdown()
        await a.shutdown()
        await a_store.close()
        await b_store.close()


async def test_an_absent_player_is_played_for_dropped_and_ranked_last(storage: Storage) -> None:
    """A person who never plays is played for, dropped after three timeouts in a row, and,
    still absent at the end, ranks below everyone who stayed, AI players too."""
    clock, notes = ManualClock(), Notes()
    svc = service(storage, notes, clock)
    try:
        request = TournamentRequest("Absent", seats=4, advance=2, deals=2, start_in=1)
        t = await svc.tournaments.create(GUILD, CHANNEL, BOSS, request, english)
        await svc.tournaments.register(t, ALICE, "alice")
        await svc.tournament_tools.add_ai(t, BOSS, 3, AiTier.EASY, lambda n: f"AI {n}")
        await svc.tournament_tools.start(t, BOSS)
        assert t.rounds[0].final
        for _ in range(400):
            if t.status is TournamentStatus.FINISHED:
                break
            await clock.advance(20)  # alice's turn timer runs out; the AI think meanwhile
            await asyncio.sleep(0.02)
        assert t.status is TournamentStatus.FINISHED
        slot = t.rounds[0].tables[0]
        alice = next(r for r in slot.results or [] if r.player == f"u{ALICE}")
        assert alice.left and t.places[f"u{ALICE}"] == 4 and t.winner != f"u{ALICE}"
    finally:
        await svc.shutdown()
