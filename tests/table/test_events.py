"""Table events are typed records; the event log stores them exactly as it always did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.ai import AiTier
from bot.engine.actions import Action, ActionKind
from bot.storage import Storage
from bot.table import events as ev
from bot.table.options import build_options
from bot.table.service import TableService

#: Each kind with the JSON the log held before the events were typed (the use cases wrote
#: these dicts by hand; the unit appends ``"version"``). Key order is part of the format.
STORED: list[tuple[ev.TableEvent, str]] = [
    (
        ev.Moved(11, Action(ActionKind.DISCARD, 0, 7)),
        '{"type": "act", "user": 11, "kind": "discard", "seat": 0, "card": 7}',
    ),
    (
        ev.Moved(11, Action(ActionKind.DECLARE, 1, 3, ((1, 2, 3), (4, 5, 6)))),
        '{"type": "act", "user": 11, "kind": "declare", "seat": 1, "card": 3,'
        ' "groups": [[1, 2, 3], [4, 5, 6]]}',
    ),
    (ev.Moved(11, Action.drop(0)), '{"type": "act", "user": 11, "kind": "drop", "seat": 0}'),
    (ev.AiMoved(Action.draw_stock(2)), '{"type": "ai", "kind": "draw_stock", "seat": 2}'),
    (
        ev.AiMoved(Action.discard(2, 46)),
        '{"type": "ai", "kind": "discard", "seat": 2, "card": 46}',
    ),
    (
        ev.TimedOut(0, (Action.draw_stock(0), Action.discard(0, 9))),
        '{"type": "timeout", "seat": 0, "actions": [{"kind": "draw_stock", "seat": 0},'
        ' {"kind": "discard", "seat": 0, "card": 9}]}',
    ),
    (ev.NextDeal(22), '{"type": "next", "user": 22}'),
    (ev.NextDeal(), '{"type": "next", "auto": true}'),
    (ev.Joined(22), '{"type": "join", "user": 22}'),
    (ev.AiAdded(AiTier.EASY), '{"type": "add_ai", "tier": "easy"}'),
    (ev.LeftSeat(11), '{"type": "leave", "user": 11}'),
    (ev.Started(), '{"type": "start"}'),
    (ev.Unseated(11, "ai1"), '{"type": "remove", "user": 11, "seat": "ai1"}'),
    (ev.HostHanded(11, 22), '{"type": "host", "user": 11, "to": 22}'),
    (ev.RematchOpened("abc123"), '{"type": "rematch", "of": "abc123"}'),
    (ev.Cancelled(11), '{"type": "cancel", "user": 11}'),
    (ev.Expired(), '{"type": "expire"}'),
    # A tournament's table (these the tournament branch's use cases wrote by hand too).
    (ev.Held("t1"), '{"type": "hold", "tournament": "t1"}'),
    (ev.Released("t1"), '{"type": "release", "tournament": "t1"}'),
    (ev.TakenOut("u7", "t1"), '{"type": "removed", "seat": "u7", "tournament": "t1"}'),
    (ev.TournamentCancelled("t1"), '{"type": "tournament_cancelled", "tournament": "t1"}'),
]


@pytest.mark.parametrize(("event", "stored"), STORED, ids=lambda x: getattr(x, "kind", ""))
def test_each_kind_is_stored_as_before_and_reads_back(event: ev.TableEvent, stored: str) -> None:
    assert json.dumps(event.to_dict()) == stored
    assert ev.event_from_dict(json.loads(stored)) == event
    # A stored row carries the version too; reading it back ignores it.
    assert ev.event_from_dict({**json.loads(stored), "version": 9}) == event


def test_every_kind_is_covered_and_named_once() -> None:
    types = {
        v for v in vars(ev).values()
        if isinstance(v, type) and issubclass(v, ev.TableEvent) and v is not ev.TableEvent
    }  # fmt: skip
    assert len({cls.kind for cls in types}) == len(types) == 17
    assert {type(event) for event, _ in STORED} == types
    with pytest.raises(ValueError, match="unknown table event"):
        ev.event_from_dict({"type": "sneeze"})


async def test_the_unit_stores_the_event_with_its_version(tmp_path: Path) -> None:
    class Quiet:
        async def table_changed(self, table: object) -> None: ...
        async def turn_started(self, table: object) -> None: ...
        async def turn_warning(self, table: object) -> None: ...
        async def deal_finished(self, table: object, number: int, *, again: bool = False) -> None:
            pass

        async def table_closed(self, table: object, reason: str, *, again: bool = False) -> None:
            pass

    storage = await Storage.open(tmp_path / "t.sqlite3")
    tables = TableService(storage, Quiet(), ai_delay=0.0, deck_seed=5)  # type: ignore[arg-type]
    try:
        options = build_options("points", None, 60, None, {}, None, None, None)
        table = await tables.lobby.create(1, 2, 11, "alice", options)
        await tables.lobby.join(table, 22, "bob")
        await tables.lobby.hand_host(table, 11, "u22")
        rows = await storage.tables.load_events(table.id)
        assert [json.loads(r.event_json) for r in rows] == [
            {"type": "join", "user": 22, "version": 2},
            {"type": "host", "user": 11, "to": 22, "version": 3},
        ]
    finally:
        await tables.shutdown()
        await storage.close()
