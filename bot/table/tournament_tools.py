"""The organiser's tools: AI entrants, a late start, a delay, pause and resume, removing a
player, cancelling. Each is one tournament change (`bot.table.tournament_unit`), allowed to the
tournament's organiser, anyone with Manage Server, and the server's organiser role.

A pause holds every table of the round between deals (a deal in play is finished first) and
seats no new round until it is resumed; a removed player's seat is played out as a drop (the
engine's leave) and they go no further; a cancellation closes every table still open, as
cancelled, so nothing of them is rated.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from bot.ai import AiTier
from bot.storage.tournaments import TournamentNote

from .errors import TournamentProblem, TournamentRefused
from .tournament import Organiser, Tournaments
from .tournament_model import CHECK_IN_SECONDS, MIN_ENTRANTS, Entrant, Tournament, TournamentStatus

#: The longest cancellation reason kept (it is shown to everyone).
REASON_LENGTH = 200
#: The most AI entrants one `add_ai` adds.
MAX_AI_AT_ONCE = 60


def _refuse(problem: TournamentProblem, **params: object) -> TournamentRefused:
    return TournamentRefused(problem, **params)


class OrganiserTools:
    """What an organiser may do to a tournament (`service.tournaments.tools`)."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.t = tournaments

    async def add_ai(
        self, t: Tournament, who: Organiser, count: int, tier: AiTier, name: Callable[[int], str]
    ) -> int:
        """The organiser enters `count` AI players of `tier` (checked in at once; they play
        like anyone, and never go through ahead of a person). `name(n)` names the n-th; a
        tier from outside is parsed first (`bot.table.lobby.parse_tier`)."""
        await self.t.need_organiser(t, who)
        async with self.t.unit.change(t) as ch:
            w = ch.work
            if not w.status.entering:
                raise _refuse(TournamentProblem.REGISTRATION_CLOSED)
            room = w.options.cap - len(w.registered)
            if count < 1 or count > min(room, MAX_AI_AT_ONCE):
                raise _refuse(TournamentProblem.FULL, cap=w.options.cap)
            for _ in range(count):
                w.ai_counter += 1
                n = w.ai_counter
                w.entrants.append(Entrant(f"e{n}", name(n), ai=tier, checked_in=True))
            ch.event = {"type": "add_ai", "count": count, "tier": tier.value}
        return count

    async def start(self, t: Tournament, who: Organiser) -> None:
        """The organiser starts now (a late start after too few checked in, or early)."""
        await self.t.need_organiser(t, who)
        async with self.t.unit.change(t) as ch:
            w = ch.work
            if w.status is TournamentStatus.REGISTRATION:
                opens = int(w.options.start_at - CHECK_IN_SECONDS)
                raise _refuse(TournamentProblem.CHECK_IN_NOT_OPEN, opens=opens)
            if not w.status.entering:
                raise _refuse(TournamentProblem.ALREADY_RUNNING)
            if len(w.checked_in) < MIN_ENTRANTS:
                count = len(w.checked_in)
                raise _refuse(TournamentProblem.TOO_FEW, minimum=MIN_ENTRANTS, count=count)
            w.options = w.options.with_start(min(w.options.start_at, self.t.ctx.clock.now()))
            self.t.begin(ch)

    async def delay(self, t: Tournament, who: Organiser, minutes: int) -> float:
        """Move the start to `minutes` from now (check-in opens, or stays open, as the new
        time says); returns the new start."""
        await self.t.need_organiser(t, who)
        if not 1 <= minutes <= 7 * 24 * 60:
            raise _refuse(TournamentProblem.BAD_OPTION, option="start_in", low=1, high=10080)
        async with self.t.unit.change(t) as ch:
            w = ch.work
            if not w.status.entering:
                raise _refuse(TournamentProblem.ALREADY_RUNNING)
            now = self.t.ctx.clock.now()
            w.options = w.options.with_start(now + 60 * minutes)
            w.stalled = False
            if w.status is TournamentStatus.REGISTRATION and minutes * 60 <= CHECK_IN_SECONDS:
                w.status = TournamentStatus.CHECK_IN
            ch.event = {"type": "delay", "minutes": minutes}
        return t.options.start_at

    async def pause(self, t: Tournament, who: Organiser) -> None:
        await self.t.need_organiser(t, who)
        async with self.t.unit.change(t) as ch:
            if ch.work.status is not TournamentStatus.RUNNING:
                raise _refuse(TournamentProblem.NOT_RUNNING)
            if ch.work.paused:
                raise _refuse(TournamentProblem.PAUSED)
            ch.work.paused, ch.hold = True, True
            ch.event = {"type": "pause", "by": who.user_id}

    async def resume(self, t: Tournament, who: Organiser) -> None:
        await self.t.need_organiser(t, who)
        async with self.t.unit.change(t) as ch:
            w = ch.work
            if w.status is not TournamentStatus.RUNNING:
                raise _refuse(TournamentProblem.NOT_RUNNING)
            if not w.paused:
                raise _refuse(TournamentProblem.NOT_PAUSED)
            w.paused, ch.hold = False, False
            ch.event = {"type": "resume", "by": who.user_id}
            r = w.current
            if r is not None and r.done:
                self.t.advance(ch)  # the round ended while paused: the next one now

    async def remove(self, t: Tournament, who: Organiser, user_id: int) -> str:
        """The organiser takes a player out: before the start they are no longer entered;
        while it runs their seat is played out as a drop and they go no further. Returns
        their name."""
        await self.t.need_organiser(t, who)
        async with self.t.unit.change(t) as ch:
            w = ch.work
            known = w.entrant_of(user_id)
            if known is None or known.removed:
                raise _refuse(TournamentProblem.NO_SUCH_PLAYER)
            known.removed = True
            r = w.current
            if w.status is TournamentStatus.RUNNING and r is not None and not r.done:
                if known.key in r.players:
                    r.removed.append(known.key)
                slot = r.table_of(known.key)
                if slot is not None and not slot.done:
                    ch.leave.append(known.key)
            ch.event = {"type": "remove", "user": user_id, "by": who.user_id}
        return known.name

    async def cancel(self, t: Tournament, who: Organiser, reason: str) -> None:
        """Cancel with a reason: every table still open closes (cancelled: nothing rated)."""
        await self.t.need_organiser(t, who)
        words = " ".join(reason.split())[:REASON_LENGTH]
        async with self.t.unit.change(t) as ch:
            ch.work.status = TournamentStatus.CANCELLED
            ch.work.reason = words
            ch.notes.append(TournamentNote("cancelled", 0, json.dumps({"reason": words})))
            ch.event = {"type": "cancel", "by": who.user_id, "reason": words}
