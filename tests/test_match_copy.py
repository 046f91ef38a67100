"""`Match.copy` is the saved-and-read-back match without the round trip: equal state, equal
views, the same future, and no container shared with the original."""

from __future__ import annotations

import random

import pytest

from bot.ai import AiTier
from bot.engine.actions import Action
from bot.engine.match import Match, MatchPhase
from bot.engine.policy import RandomPolicy
from bot.engine.rules import PROFILES


def _same(a: Match, b: Match) -> None:
    assert a.to_dict() == b.to_dict()
    for seat in range(len(a.players)):
        assert a.observation(seat) == b.observation(seat)
    assert a.public_view() == b.public_view()
    assert a.public_view().recent == b.public_view().recent


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_a_copy_is_the_round_trip_at_every_step_and_plays_on_the_same(profile: str) -> None:
    seed = sum(map(ord, profile))
    m = Match.create(["a", "b", "c"], profile, seed=seed)
    policies = [RandomPolicy(random.Random(seed + i)) for i in range(3)]
    steps = 0
    while m.phase is not MatchPhase.OVER and steps < 400:
        steps += 1
        if m.phase is MatchPhase.BETWEEN_DEALS:
            copied, read = m.copy(), Match.from_dict(m.to_dict())
            for one in (m, copied, read):
                one.start_next_deal()
            _same(copied, m)
            _same(read, m)
            continue
        deal = m.deal
        assert deal is not None
        copied, read = m.copy(), Match.from_dict(m.to_dict())
        _same(copied, read)
        before = m.to_dict()
        action: Action = policies[deal.turn].act(m.observation(deal.turn))
        copied.apply(action)  # the copy moves on; the original has not
        assert m.to_dict() == before
        read.apply(action)
        m.apply(action)
        _same(copied, m)
        _same(read, m)
    assert steps > 20


def test_a_tables_working_copy_has_its_state_and_shares_no_container() -> None:
    from bot.table.model import Seat, Table, TableOptions

    m = Match.create(["u1", "u2", "ai1"], "points", seed=5)
    table = Table("t1", 1, 2, 3, TableOptions("points", 3, 60))
    table.seats = [
        Seat("u1", "Asha", 1),
        Seat("u2", "Bharat", 2),
        Seat("ai1", "Bot", ai=AiTier.EASY),
    ]
    table.match, table.version, table.deadline = m, 7, 123.5
    table.turn_marker, table.timeouts, table.next_votes = [1, 0, 3], {"u1": 1}, ["u2"]
    table.log = m.entries_since(m.event_base)
    work = table.copy()
    reference = Table("t1", 1, 2, 3, table.options)
    reference.load_state(table.to_state())
    assert work.to_state() == reference.to_state() == table.to_state()
    assert work.log == table.log
    work.seats[0].name = "changed"
    assert work.turn_marker is not None and work.match is not None
    work.turn_marker.append(9)
    work.timeouts["u2"] = 2
    work.next_votes.append("u1")
    deal = work.match.deal
    assert deal is not None
    work.match.apply(RandomPolicy(random.Random(1)).act(work.match.observation(deal.turn)))
    assert table.to_state() == reference.to_state()
