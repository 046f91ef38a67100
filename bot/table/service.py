"""The table service: the table layer built in one place (its bootstrap), with no Discord.

Callers (the Discord cogs, the terminal, tests) hold one `TableService` and use its parts:

* ``service.lobby``: open a table, seats, AI players, start, cancel (`bot.table.lobby`);
* ``service.game``: moves and votes, and the checks behind offering a control (`game`);
* ``service.reviews``: "Review my play" (`reviews`);
* ``service.league``: leaderboards, stats, history downloads, settings, forget-me (`league`);
* ``service.seasons``: each server's seasons, their timers and final posts (`season`);
* ``service.recovery``: restore, resume and deliver after a restart (`recovery`);
* ``service.registry``: which open table is this id or in this channel (`registry`);
* ``service.tournaments``: tournaments and their rounds (`tournament`), their organisers'
  tools (``service.tournament_tools``, `tournament_tools`), and bringing them back after a
  restart (``service.tournament_recovery``, `tournament_recovery`).

Every change goes through one unit of work (`bot.table.unit`): lock, change a copy, one
transaction (state + event + outbox), swap in, then the effects (`bot.table.effects`). Use
cases return typed outcomes (`outcomes`) and refuse with typed `Refusal`s (`errors`); words
are the Discord side's business.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.storage import Storage

from .context import LEASE_SECONDS, TableContext, TableSettings
from .effects import Effects
from .game import Game
from .hint_policy import check_ruling
from .league import League
from .leases import Leases
from .listener import TableListener
from .lobby import Lobby
from .messages import UNCHANGED, remember_messages
from .model import Table
from .recovery import Recovery
from .registry import Registry
from .reviews import Reviews
from .scheduler import Clock, Scheduler
from .season import SeasonListener, Seasons
from .tournament import Tournaments
from .tournament_effects import QuietTournaments, TournamentListener, TournamentTables
from .tournament_recovery import TournamentRecovery
from .tournament_tools import OrganiserTools
from .tournament_unit import TournamentRegistry
from .turns import Think, Turns, think_off_the_loop
from .unit import UnitOfWork

__all__ = ["LEASE_SECONDS", "TableService", "TableSettings"]

log = logging.getLogger(__name__)


class TableService:
    """Every open table of this process, and what can be done with them."""

    def __init__(
        self,
        storage: Storage,
        listener: TableListener,
        *,
        ai_delay: float = 1.5,
        next_deal_delay: float = 20.0,
        lobby_timeout: float = 30 * 60.0,
        deck_seed: int | None = None,
        clock: Clock | None = None,
        owner: str = "local",
        owns_guild: Callable[[int], bool] | None = None,
        lease_seconds: float = LEASE_SECONDS,
        retry_delays: tuple[float, ...] | None = None,
        think: Think = think_off_the_loop,
        tournament_listener: TournamentListener | None = None,
        season_listener: SeasonListener | None = None,
    ) -> None:
        """``owner`` names this process in the database's table leases (stable across
        restarts, so a restarted process takes its own tables straight back);
        ``owns_guild`` says which guilds' tables this process drives (its shards; None =
        all of them); ``think`` is how AI seats choose their moves; ``tournament_listener``
        shows tournaments (None: nothing is shown); ``season_listener`` posts a season's final
        standings (None: nowhere)."""
        settings = TableSettings(
            ai_delay=ai_delay,
            next_deal_delay=next_deal_delay,
            lobby_timeout=lobby_timeout,
            deck_seed=deck_seed,
            owner=owner,
            lease_seconds=lease_seconds,
            **({} if retry_delays is None else {"retry_delays": retry_delays}),
        )
        scheduler = Scheduler(clock)
        unit = UnitOfWork(storage, scheduler.clock.now)
        shows = tournament_listener or QuietTournaments()
        held = TournamentRegistry()
        self.ctx = ctx = TableContext(
            storage,
            TournamentTables(listener, held, shows),
            scheduler,
            Registry(),
            unit,
            settings,
            owns_guild or (lambda _guild_id: True),
        )
        self.reviews = Reviews()
        self.turns = Turns(ctx, think=think)
        self.effects = Effects(ctx, self.turns, self.reviews)
        self.lobby = Lobby(ctx, self.effects)
        self.turns.lobby_expire = self.lobby.expire
        self.game = Game(ctx)
        self.leases = Leases(ctx)
        self.recovery = Recovery(ctx, self.effects, self.leases, self.reviews)
        self.seasons = Seasons(
            storage,
            scheduler.clock,
            season_listener,
            owns_guild=owns_guild,
            retry_delays=settings.retry_delays,
        )
        self.league = League(storage, scheduler.clock, self.seasons)
        self.leases.adopt = self.recovery.adopt
        self.leases.lost = self._lost
        self.leases.renewed = self._nudge
        self.effects.on_closed = self._closed
        unit.after = self.effects.after
        self.tournaments = Tournaments(ctx, self.effects, shows, held)
        self.tournament_tools = OrganiserTools(self.tournaments)
        self.tournament_recovery = TournamentRecovery(ctx, self.tournaments)
        #: Whether other processes drive some guilds' tables (shards): what a player may be
        #: told is then decided over the database's open tables too, not only this process's.
        self._shared = owns_guild is not None

    # ---- what callers read ------------------------------------------------------------------

    async def may_rule(self, user_id: int) -> None:
        """Refuse `/rummy check` (`errors.RulingHidden`) to a player still playing a match
        whose hint level hides what a ruling tells. The command may be typed in any server,
        so with several processes the player's table may be another process's: the open
        tables this one does not hold are read from the database (rare: a typed command)."""
        check_ruling(self.registry.by_id.values(), user_id)
        if not self._shared:
            return
        held = self.registry.by_id
        others = [
            Table.from_json(record.state_json)
            for record in await self.storage.tables.load_open_tables()
            if record.table_id not in held and record.status == "playing"
        ]
        check_ruling(others, user_id)

    @property
    def registry(self) -> Registry:
        return self.ctx.registry

    @property
    def storage(self) -> Storage:
        return self.ctx.storage

    @property
    def scheduler(self) -> Scheduler:
        return self.ctx.scheduler

    @property
    def clock(self) -> Clock:
        """The one clock of turn timers, AI pauses and deadlines (the scheduler's)."""
        return self.ctx.scheduler.clock

    @property
    def owner(self) -> str:
        return self.ctx.settings.owner

    async def set_messages(
        self, table: Table, *, message_id: int | None = None, prompt_id: int | None = UNCHANGED
    ) -> None:
        """Remember which Discord messages show a table (bookkeeping, not a change)."""
        await remember_messages(self.ctx.storage, table, message_id=message_id, prompt_id=prompt_id)

    # ---- start-up and shut-down -------------------------------------------------------------

    async def shutdown(self) -> None:
        """Stop every task, then hand the tables back at once (a clean stop need not make
        another process wait for the leases to run out)."""
        await self.tournament_recovery.shutdown()
        await self.tournaments.shutdown()
        await self.leases.shutdown()
        await self.seasons.shutdown()
        await self.effects.shutdown()
        await self.ctx.scheduler.shutdown()
        for table_id in list(self.ctx.registry.by_id):
            await self.effects.release(table_id)

    def _closed(self, table: Table) -> None:
        """Forget every per-table entry once a closed table's effects are done (a
        tournament's table: its round may be over)."""
        self.turns.forget(table.id)
        self.game.forget(table.id)
        self.tournaments.table_closed(table)

    def _nudge(self) -> None:
        for table in list(self.ctx.registry.by_id.values()):
            self.turns.nudge(table)

    def _lost(self, table_id: str) -> None:
        table = self.ctx.registry.by_id.get(table_id)
        if table is None:
            return
        self.ctx.scheduler.cancel_table(table_id)
        self.ctx.registry.drop(table)
        self._closed(table)
