"""The table service without Discord: seats, locks, versions, refusals, durability, timers, AI."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.ai import AiTier
from bot.engine.actions import ActionKind
from bot.engine.errors import CardNotInHand
from bot.engine.evaluate import evaluate_drawn
from bot.engine.match import MatchPhase
from bot.storage import Storage, StorageError
from bot.table import errors
from bot.table.jobs import result_jobs
from bot.table.model import Table, TableOptions
from bot.table.options import build_options
from bot.table.outcomes import Left
from bot.table.reviews import Reviews
from bot.table.service import TableService as Tables
from bot.table.vocabulary import TableStatus
from bot.words.log import log_lines

GUILD, CHANNEL = 1000, 2000
ALICE, BOB, CAROL = 11, 22, 33


class Recorder:
    """A presenter that only records what it was asked to show."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    async def table_changed(self, table: Table) -> None:
        self.calls.append(("changed", table.id))

    async def turn_started(self, table: Table) -> None:
        self.calls.append(("turn", table.id))

    async def turn_warning(self, table: Table) -> None:
        self.calls.append(("warning", table.id))

    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None:
        self.calls.append((f"deal {number}", table.id))

    async def table_closed(self, table: Table, reason: str, *, again: bool = False) -> None:
        self.calls.append((reason, table.id))


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "t.sqlite3")
    yield store
    await store.close()


@pytest.fixture
async def tables(storage: Storage) -> AsyncIterator[Tables]:
    t = Tables(storage, Recorder(), ai_delay=0.0, next_deal_delay=0.05, deck_seed=5)
    yield t
    await t.shutdown()


def options(profile: str = "points", **kw: Any) -> TableOptions:
    return build_options(profile, None, 60, None, {}, kw.get("deals"), None, None)


async def two_player_game(tables: Tables, profile: str = "points") -> Table:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options(profile))
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.start(table, ALICE)
    return table


def on_turn(table: Table) -> int:
    turn = table.current_turn()
    assert turn is not None and table.match is not None
    return int(table.match.players[turn].id[1:])


async def test_lobby_rules(tables: Tables) -> None:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options())
    with pytest.raises(errors.ChannelBusy):
        await tables.lobby.create(GUILD, CHANNEL, BOB, "bob", options())
    with pytest.raises(errors.NotEnoughPlayers):
        await tables.lobby.start(table, ALICE)
    await tables.lobby.join(table, BOB, "bob")
    with pytest.raises(errors.AlreadySeated):
        await tables.lobby.join(table, BOB, "bob")
    with pytest.raises(errors.HostOnly):
        await tables.lobby.start(table, BOB)
    with pytest.raises(errors.HostOnly):
        await tables.lobby.add_ai(table, BOB, AiTier.EASY)
    assert await tables.lobby.leave(table, BOB) == Left(in_match=False)
    assert [s.name for s in table.seats] == ["alice"]


async def test_table_full(tables: Tables) -> None:
    opts = build_options("points", 2, 60, None, {}, None, None, None)
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await tables.lobby.join(table, BOB, "bob")
    with pytest.raises(errors.TableFull):
        await tables.lobby.join(table, CAROL, "carol")


def test_build_options_validation() -> None:
    with pytest.raises(errors.BadOption, match="deals_choices"):
        build_options("deals", None, 60, None, {}, 4, None, None)
    with pytest.raises(errors.BadOption, match="no_deals"):
        build_options("points", None, 60, None, {}, 3, None, None)
    with pytest.raises(errors.BadOption, match="not_pool"):
        build_options("paplu", None, 60, None, {}, None, 150, None)
    with pytest.raises(errors.BadOption, match="seats"):
        build_options("paplu", 8, 60, None, {}, None, None, None)
    opts = build_options("classic", 8, 30, "honor", {"no_packing": True}, None, None, 200)
    rules = opts.rules()
    assert rules.target_score == 200 and rules.no_packing and rules.max_players == 10
    assert rules.declaration_mode.value == "honor"


async def test_refusals_change_nothing(tables: Tables) -> None:
    table = await two_player_game(tables)
    waiting = BOB if on_turn(table) == ALICE else ALICE
    before = table.to_json()
    with pytest.raises(errors.RuleRefused, match="not your turn"):
        await tables.game.act(table, waiting, table.version, ActionKind.DRAW_STOCK)
    with pytest.raises(errors.StaleView):
        await tables.game.act(table, on_turn(table), table.version - 1, ActionKind.DRAW_STOCK)
    with pytest.raises(errors.NotPlaying):
        await tables.game.act(table, CAROL, table.version, ActionKind.DRAW_STOCK)
    with pytest.raises(errors.NotYourControls):
        seat = table.engine_seat(on_turn(table))
        await tables.game.act(
            table, on_turn(table), table.version, ActionKind.DRAW_STOCK, owner_seat=1 - seat
        )
    with pytest.raises(errors.RuleRefused, match="Draw a card first"):
        assert table.match is not None and table.match.deal is not None
        card = table.match.deal.hands[table.engine_seat(on_turn(table))][0].id
        await tables.game.act(table, on_turn(table), table.version, ActionKind.DISCARD, card)
    # A card the hand does not hold (another seat's, or no card of the deal at all: a
    # tampered menu) is the rules' refusal, like any illegal move (issue 39 item 18).
    player = on_turn(table)
    await tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK)
    before = table.to_json()
    assert table.match is not None and table.match.deal is not None
    theirs = table.match.deal.hands[1 - table.engine_seat(player)][0].id
    for card in (999, theirs):
        for kind in (ActionKind.DISCARD, ActionKind.DECLARE):
            with pytest.raises(errors.RuleRefused) as refused:
                await tables.game.act(table, player, table.version, kind, card)
            assert isinstance(refused.value.error, CardNotInHand), (card, kind)
    assert table.to_json() == before


async def test_turn_moves_and_is_saved_before_shown(tables: Tables, storage: Storage) -> None:
    table = await two_player_game(tables)
    player = on_turn(table)
    v = table.version
    await tables.game.act(table, player, v, ActionKind.DRAW_STOCK)
    assert table.version == v + 1
    record = await storage.tables.load_table(table.id)
    assert record is not None and record.version == table.version
    assert Table.from_json(record.state_json).match == table.match
    assert table.match is not None and table.match.deal is not None
    hand = table.match.deal.hands[table.engine_seat(player)]
    await tables.game.act(table, player, table.version, ActionKind.DISCARD, hand[0].id)
    assert on_turn(table) != player
    assert "drew from the stock" in log_lines(table.log, "en")[-2]
    events = await storage.tables.load_events(table.id)
    assert [json.loads(e.event_json)["type"] for e in events][-2:] == ["act", "act"]


async def test_storage_failure_rolls_back(tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    table = await two_player_game(tables)
    before = table.to_json()

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(tables.storage.tables, "commit_action", broken)
    with pytest.raises(errors.SaveFailed):
        await tables.game.act(table, on_turn(table), table.version, ActionKind.DRAW_STOCK)
    assert table.to_json() == before


async def test_timeouts_autoplay_then_drop(tables: Tables) -> None:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options("pool101"))
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.join(table, CAROL, "carol")
    await tables.lobby.start(table, ALICE)
    assert table.match is not None
    absent = on_turn(table)
    seat = table.engine_seat(absent)
    for round_ in range(3):
        # Everyone else plays normally; the absent player only ever times out.
        while on_turn(table) != absent:
            player = on_turn(table)
            await tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK)
            deal = table.match.deal
            assert deal is not None
            drawn = evaluate_drawn(deal.hands[deal.turn], table.match.rules, deal.wild_rank)
            await tables.game.act(
                table, player, table.version, ActionKind.DISCARD, drawn.best_discard.id
            )
        assert table.turn_marker is not None
        await tables.turns.timeout(table, list(table.turn_marker))
        if round_ < 2:
            assert "ran out of time" in log_lines(table.log, "en")[-1]
            assert table.match.deal is not None
            assert len(table.match.deal.hands[seat]) == 13
    assert "dropped after 3 timeouts" in log_lines(table.log, "en")[-1]
    assert table.match.deal is not None
    assert table.match.deal.status[seat].value == "dropped"


async def test_stale_timer_does_nothing(tables: Tables) -> None:
    table = await two_player_game(tables)
    before = table.to_json()
    await tables.turns.timeout(table, [99, 0, 0])
    assert table.to_json() == before


async def test_ai_plays_its_turns(tables: Tables) -> None:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options())
    await tables.lobby.add_ai(table, ALICE, AiTier.MEDIUM)
    await tables.lobby.start(table, ALICE)
    assert table.match is not None
    for _ in range(30):
        if table.status is not TableStatus.PLAYING:
            break
        if on_turn_or_none(table) == ALICE:
            await tables.game.act(table, ALICE, table.version, ActionKind.DRAW_STOCK)
            deal = table.match.deal
            assert deal is not None
            drawn = evaluate_drawn(deal.hands[deal.turn], table.match.rules, deal.wild_rank)
            await tables.game.act(
                table, ALICE, table.version, ActionKind.DISCARD, drawn.best_discard.id
            )
        await asyncio.sleep(0.05)
    ai_moves = [line for line in log_lines(table.log, "en") if line.startswith("🤖")]
    assert ai_moves, log_lines(table.log, "en")


def on_turn_or_none(table: Table) -> int | None:
    turn = table.current_turn()
    if turn is None or table.match is None:
        return None
    key = table.match.players[turn].id
    return int(key[1:]) if key.startswith("u") else None


async def test_restore_after_restart(tables: Tables, storage: Storage) -> None:
    table = await two_player_game(tables)
    await tables.game.act(table, on_turn(table), table.version, ActionKind.DRAW_STOCK)
    fresh = Tables(storage, Recorder(), ai_delay=0.0)
    restored = await fresh.recovery.restore()
    assert [t.id for t in restored] == [table.id]
    again = restored[0]
    assert again.version == table.version
    assert again.match == table.match
    assert fresh.registry.in_channel(CHANNEL) is again
    await fresh.shutdown()


async def test_whole_match_records_results_once(tables: Tables, storage: Storage) -> None:
    table = await two_player_game(tables)
    for _ in range(400):
        if table.status is not TableStatus.PLAYING:
            break
        player = on_turn(table)
        await tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK)
        m = table.match
        assert m is not None
        if table.status is not TableStatus.PLAYING or m.deal is None or m.deal.over:
            continue
        deal = m.deal
        drawn = evaluate_drawn(deal.hands[deal.turn], m.rules, deal.wild_rank, forbidden=deal.taken)
        kind = ActionKind.DECLARE if drawn.declarable else ActionKind.DISCARD
        card = drawn.winning_discards[0] if drawn.declarable else drawn.best_discard
        await tables.game.act(table, player, table.version, kind, card.id)
    assert table.status is TableStatus.FINISHED
    assert table.match is not None and table.match.phase is MatchPhase.OVER
    assert CHANNEL not in tables.registry.by_channel
    assert await tables.effects.settled() == []  # the messages, posted after the commits
    assert await storage.outbox.pending_announcements() == []  # results stored, messages posted
    # As after a crash between storing a result and marking its job: the job runs again.
    for job in result_jobs(table, 0, True, int(tables.clock.now())):
        await tables.effects.store_job(table.id, job.kind, job.deal_no, job.payload_json)
    deals = await storage.boards.recent_deals(GUILD, ALICE)
    assert len(deals) == 1
    stats = await storage.boards.player_stats(GUILD, ALICE)
    assert stats.profiles["points"].deals_played == 1
    assert stats.profiles["points"].matches_played == 1


async def test_a_table_is_acted_on_only_from_its_own_guild_and_channel(tables: Tables) -> None:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options())
    assert tables.registry.get(table.id, guild_id=GUILD, channel_id=CHANNEL) is table
    with pytest.raises(errors.WrongPlace):
        tables.registry.get(table.id, guild_id=GUILD + 1, channel_id=CHANNEL)
    with pytest.raises(errors.WrongPlace):
        tables.registry.get(table.id, guild_id=GUILD, channel_id=CHANNEL + 1)
    with pytest.raises(errors.WrongPlace):  # a DM has no guild
        tables.registry.get(table.id, guild_id=None, channel_id=CHANNEL + 2)


async def test_racing_creates_in_one_channel_open_one_table(tables: Tables) -> None:
    results = await asyncio.gather(
        *(tables.lobby.create(GUILD, CHANNEL, 100 + i, f"u{i}", options()) for i in range(20)),
        return_exceptions=True,
    )
    opened = [r for r in results if isinstance(r, Table)]
    refused = [r for r in results if isinstance(r, errors.ChannelBusy)]
    assert len(opened) == 1 and len(refused) == 19
    assert tables.registry.in_channel(CHANNEL) is opened[0]
    assert tables.lobby._creating == {}


async def test_each_stored_change_announces_its_deal_once(storage: Storage) -> None:
    """Effects belong to the one change that made them due: the deal's results and the match's
    end are announced once, whatever moves follow (they were once posted twice by two
    overlapping follow-ups)."""
    recorder = Recorder()
    tables = Tables(storage, recorder, ai_delay=0.0, next_deal_delay=60, deck_seed=5)
    table = await two_player_game(tables)
    for _ in range(400):
        m = table.match
        assert m is not None
        if m.phase is not MatchPhase.PLAYING:
            break
        player = on_turn(table)
        await tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK)
        m = table.match
        assert m is not None
        if m.deal is None or m.deal.over:
            continue
        deal = m.deal
        drawn = evaluate_drawn(deal.hands[deal.turn], m.rules, deal.wild_rank, forbidden=deal.taken)
        kind = ActionKind.DECLARE if drawn.declarable else ActionKind.DISCARD
        card = drawn.winning_discards[0] if drawn.declarable else drawn.best_discard
        await tables.game.act(table, player, table.version, kind, card.id)
    with pytest.raises(errors.TableClosed):  # a late click on the closed table
        await tables.game.act(table, ALICE, table.version, ActionKind.DRAW_STOCK)
    assert await tables.effects.settled() == []
    announced = [c for c, _ in recorder.calls if c.startswith("deal ")]
    assert announced == ["deal 1"]
    assert [c for c, _ in recorder.calls if c == "finished"] == ["finished"]
    await tables.shutdown()


async def test_reposting_the_table_is_for_players_and_managers_and_rate_limited(
    tables: Tables,
) -> None:
    table = await two_player_game(tables)
    with pytest.raises(errors.SeatedOrManagerOnly):
        tables.game.claim_repost(table, CAROL, is_manager=False)
    tables.game.claim_repost(table, ALICE, is_manager=False)
    with pytest.raises(errors.TooSoon):
        tables.game.claim_repost(table, BOB, is_manager=False)
    with pytest.raises(errors.TooSoon):
        tables.game.claim_repost(table, CAROL, is_manager=True)


async def test_drop_refusals_say_why(tables: Tables) -> None:
    table = await two_player_game(tables)
    player = on_turn(table)
    waiting = BOB if player == ALICE else ALICE
    tables.game.check_drop(table, player)  # allowed: on turn, before drawing
    with pytest.raises(errors.DropNotAllowed) as not_turn:
        tables.game.check_drop(table, waiting)
    assert not_turn.value.reason is errors.DropReason.TURN
    await tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK)
    with pytest.raises(errors.DropNotAllowed) as drawn:
        tables.game.check_drop(table, player)
    assert drawn.value.reason is errors.DropReason.DRAWN


async def test_paplu_shows_the_seating_draw_before_the_first_deal(tables: Tables) -> None:
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", options("paplu"))
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.join(table, CAROL, "carol")
    await tables.lobby.start(table, ALICE)
    m = table.match
    assert m is not None and m.seating
    draw = [line for line in log_lines(table.log, "en") if line.startswith("🎴 Seating draw")]
    assert draw and all(name in draw[0] for name in ("alice", "bob", "carol"))
    seats = next(line for line in log_lines(table.log, "en") if line.startswith("🎴 Seats"))
    order = " → ".join(p.name for p in m.players)
    assert order in seats and seats.endswith(f"{m.players[-1].name} deals (lowest)")
    deal_line = next(
        i for i, line in enumerate(log_lines(table.log, "en")) if line.startswith("Deal 1")
    )
    assert log_lines(table.log, "en").index(seats) < deal_line


async def test_review_of_a_finished_deal(tables: Tables) -> None:
    """A player of the deal gets their review (also once the match is over and the table
    closed); anyone else, another channel and any deal not kept are refused."""
    table = await two_player_game(tables)
    with pytest.raises(errors.ReviewGone):  # nothing has finished yet
        await tables.reviews.review(table.id, ALICE, 1)
    player = on_turn(table)
    await tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK)
    assert table.match is not None and table.match.deal is not None
    hand = table.match.deal.hands[table.engine_seat(player)]
    await tables.game.act(table, player, table.version, ActionKind.DISCARD, hand[-1].id)
    other = on_turn(table)
    await tables.game.act(
        table, other, table.version, ActionKind.DROP
    )  # two players: the deal ends
    assert not table.status.open  # a points match is one deal: the table has closed
    mine = await tables.reviews.review(table.id, player, 1, guild_id=GUILD, channel_id=CHANNEL)
    assert mine.deal_number == 1 and mine.seat == table.engine_seat(player)
    assert mine.review is not None and mine.review.moves == 2
    dropped = await tables.reviews.review(table.id, other, 1)
    assert dropped.review is not None and dropped.review.moves == 1
    with pytest.raises(errors.NotInDeal):
        await tables.reviews.review(table.id, CAROL, 1)
    with pytest.raises(errors.ReviewGone):
        await tables.reviews.review(table.id, ALICE, 2)
    with pytest.raises(errors.WrongPlace):
        await tables.reviews.review(table.id, ALICE, 1, guild_id=GUILD, channel_id=CHANNEL + 1)


async def test_a_review_is_of_the_deal_and_the_seat_it_names(storage: Storage) -> None:
    """Issue 39 item 15: a review must be of the decisions it is asked about. Each deal of a
    match is kept as it ended (keyed by table and deal, the cache by seat too): deal 1's
    review asked after deal 2 is deal 1's, of that player's own moves. A state that is not
    the deal named (the match moved on before it was kept) is not kept: it would be another
    deal's moves under this deal's number."""
    tables = Tables(storage, Recorder(), ai_delay=0.0, next_deal_delay=60, deck_seed=5)
    opts = build_options("deals", None, 60, None, {}, 2, None, None)
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.start(table, ALICE)
    first = on_turn(table)
    for _ in range(2):  # two turns each: draw and throw the card drawn
        for _player in range(2):
            player = on_turn(table)
            await tables.game.act(table, player, table.version, ActionKind.DRAW_STOCK)
            assert table.match is not None and table.match.deal is not None
            hand = table.match.deal.hands[table.engine_seat(player)]
            await tables.game.act(table, player, table.version, ActionKind.DISCARD, hand[-1].id)
    await tables.game.act(table, on_turn(table), table.version, ActionKind.DROP)
    await tables.game.vote_next(table, ALICE, 1)
    await tables.game.vote_next(table, BOB, 1)
    await tables.game.act(table, on_turn(table), table.version, ActionKind.DROP)  # deal 2 over
    assert table.match is not None and table.match.phase is MatchPhase.OVER
    one = await tables.reviews.review(table.id, first, 1)
    two = await tables.reviews.review(table.id, first, 2)
    assert one.review is not None and one.review.deal_number == 1
    assert one.review.moves in (4, 5)  # two draws and two throws (and the drop, if theirs)
    assert two.review is None or (two.review.deal_number == 2 and two.review.moves <= 1)
    assert (await tables.reviews.review(table.id, first, 1)) is one  # cached, per seat
    other = ALICE if first == BOB else BOB
    theirs = await tables.reviews.review(table.id, other, 1)
    assert theirs.seat != one.seat and theirs is not one
    late = Reviews()
    late.keep(table, 1)  # the match is at deal 2's end now
    with pytest.raises(errors.ReviewGone):
        await late.review(table.id, first, 1)
    await tables.shutdown()


async def test_a_new_deal_shows_only_its_own_moves(storage: Storage) -> None:
    """The recent actions of the table were carrying the last deal's moves into the next."""
    tables = Tables(storage, Recorder(), ai_delay=0.0, next_deal_delay=60, deck_seed=5)
    opts = build_options("deals", None, 60, None, {}, 2, None, None)
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.start(table, ALICE)
    await tables.game.act(table, on_turn(table), table.version, ActionKind.DROP)
    assert table.between_deals
    assert any("drop" in line for line in log_lines(table.log, "en"))
    await tables.game.vote_next(table, ALICE)
    await tables.game.vote_next(table, BOB)
    m = table.match
    assert m is not None and m.deal_number == 2
    assert log_lines(table.log, "en") and all(
        "drop" not in line for line in log_lines(table.log, "en")
    ), log_lines(table.log, "en")
    assert log_lines(table.log, "en")[0].startswith("Deal 2")
    await tables.shutdown()


async def test_an_earlier_deals_next_deal_button_counts_for_nothing(storage: Storage) -> None:
    """A "Next deal" press from deal 1's results, made during deal 2's break, is refused and
    changes nothing: it must not count as a vote for a later deal."""
    tables = Tables(storage, Recorder(), ai_delay=0.0, next_deal_delay=60, deck_seed=5)
    opts = build_options("deals", None, 60, None, {}, 3, None, None)
    table = await tables.lobby.create(GUILD, CHANNEL, ALICE, "alice", opts)
    await tables.lobby.join(table, BOB, "bob")
    await tables.lobby.start(table, ALICE)
    await tables.game.act(table, on_turn(table), table.version, ActionKind.DROP)
    await tables.game.vote_next(table, ALICE, 1)
    await tables.game.vote_next(table, BOB, 1)
    with pytest.raises(errors.OldNextDeal):  # deal 2 is being played
        await tables.game.vote_next(table, ALICE, 1)
    await tables.game.act(table, on_turn(table), table.version, ActionKind.DROP)
    assert table.between_deals
    version = table.version
    with pytest.raises(errors.OldNextDeal):  # deal 2's break: deal 1's button is stale
        await tables.game.vote_next(table, ALICE, 1)
    assert table.version == version and table.next_votes == []
    await tables.game.vote_next(table, ALICE, 2)  # deal 2's own button counts
    assert table.next_votes == ["u" + str(ALICE)]
    await tables.shutdown()
