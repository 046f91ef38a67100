"""The tournament slice: `/rummy tournament create|status|record|start|delay|pause|resume|remove|
cancel|add-ai` (a subcommand group of `/rummy`), and the registration message's Register,
Unregister and I'm here.

Each handler parses (the dispatch did, for clicks; discord.py, for options), makes one call into
the table layer (`bot.table.tournament`, `bot.table.tournament_tools`) and one to the screen
(`bot.discord_ui.screens.tournament`). Who may run a tournament is the table layer's rule; the
handler only says who is asking (`Organiser`: their id, Manage Server, their roles). Anything
that waits for a tournament's lock is acknowledged first.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.ai import TIERS
from bot.discord_ui.choices import HINT_CHOICES, PROFILE_CHOICES
from bot.discord_ui.clicks import Act, Click
from bot.discord_ui.dispatch import Handler
from bot.discord_ui.errors import UserError
from bot.discord_ui.interaction import Interaction
from bot.discord_ui.locales import server_locale, user_locale
from bot.discord_ui.reply import acknowledge, send_private
from bot.discord_ui.screens import tournament as screen
from bot.discord_ui.slices import Slice, add_slice, is_manager
from bot.table.lobby import parse_tier
from bot.table.tournament import Organiser
from bot.table.tournament_model import Tournament, TournamentFormat
from bot.table.tournament_options import TournamentRequest
from bot.words.tournament import ai_name

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot

#: The profiles a tournament can play, named as `/rummy new` names them.
FORMAT_CHOICES = [c for c in PROFILE_CHOICES if c.value in set(TournamentFormat)]
TIER_CHOICES = [app_commands.Choice(name=tier, value=tier) for tier in TIERS]


def organiser(interaction: Interaction) -> Organiser:
    """Who asks, as the table layer's organiser rule needs it."""
    roles = getattr(interaction.user, "roles", ())
    return Organiser(
        interaction.user.id, manager=is_manager(interaction), roles=tuple(r.id for r in roles)
    )


def place_of(interaction: Interaction) -> tuple[int, int]:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError("error-server-channel-only")
    return interaction.guild_id, interaction.channel_id


class Tournaments(Slice):
    """A server's rummy night on many tables."""

    tournament = app_commands.Group(
        name="tournament", description="Tournaments: many tables, rounds, one winner"
    )

    def click_handlers(self) -> Mapping[Act, Handler]:
        return {
            Act.T_REGISTER: self._register,
            Act.T_UNREGISTER: self._unregister,
            Act.T_HERE: self._check_in,
        }

    def _clicked(self, interaction: Interaction, click: Click) -> Tournament:
        """The tournament a button names (refused if it is another server's or channel's)."""
        return self.bot.tables.tournaments.get(
            click.table_id, guild_id=interaction.guild_id, channel_id=interaction.channel_id
        )

    def _of_channel(self, interaction: Interaction) -> Tournament:
        """The open tournament of the channel (or of the table thread) a command came from."""
        place_of(interaction)
        return self.bot.tables.tournaments.here(interaction.channel_id)

    # ---- the registration message's buttons -------------------------------------------------

    async def _register(self, interaction: Interaction, click: Click) -> None:
        t = self._clicked(interaction, click)
        await acknowledge(interaction)
        user = interaction.user
        done = await self.bot.tables.tournaments.register(t, user.id, user.display_name)
        said = screen.registered_text(t, done.count, done.checked_in, user_locale(interaction))
        await send_private(interaction, said)

    async def _unregister(self, interaction: Interaction, click: Click) -> None:
        t = self._clicked(interaction, click)
        await acknowledge(interaction)
        await self.bot.tables.tournaments.unregister(t, interaction.user.id)
        await send_private(interaction, screen.done_text("unregistered", user_locale(interaction)))

    async def _check_in(self, interaction: Interaction, click: Click) -> None:
        t = self._clicked(interaction, click)
        await acknowledge(interaction)
        done = await self.bot.tables.tournaments.check_in(t, interaction.user.id)
        said = screen.checked_in_text(t, done.already, user_locale(interaction))
        await send_private(interaction, said)

    # ---- commands --------------------------------------------------------------------------

    @tournament.command(name="create", description="Create a tournament in this channel")
    @app_commands.describe(
        name="The tournament's name",
        format="What each table plays in a round (default: points)",
        deals="Deals a round (points: 1 to 10; deals: 2, 3 or 6; default 2)",
        seats="Most players a table (default 6)",
        advance="How many go through from each table (default 2)",
        chip_line="Points: everyone at or above this many chips goes through",
        start_in="Minutes from now to the start (default 15)",
        start_at="The start as HH:MM (or YYYY-MM-DD HH:MM) in the server's time zone",
        cap="Most players (default 60)",
        turn_timer="Seconds per turn (default: the server's setting)",
        ai_fill="AI players fill empty seats (they never go through)",
        hints="Hint level (default off: rated)",
    )
    @app_commands.choices(format=FORMAT_CHOICES, hints=HINT_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 60],
        format: str = "points",
        deals: app_commands.Range[int, 1, 10] | None = None,
        seats: app_commands.Range[int, 2, 6] | None = None,
        advance: app_commands.Range[int, 1, 5] | None = None,
        chip_line: app_commands.Range[int, -1000, 1000] | None = None,
        start_in: app_commands.Range[int, 1, 10080] | None = None,
        start_at: app_commands.Range[str, 1, 20] | None = None,
        cap: app_commands.Range[int, 2, 200] | None = None,
        turn_timer: app_commands.Range[int, 15, 600] | None = None,
        ai_fill: bool = False,
        hints: str | None = None,
    ) -> None:
        guild_id, channel_id = place_of(interaction)
        request = TournamentRequest(
            str(name), format, deals, seats, advance, chip_line, start_in,
            None if start_at is None else str(start_at), cap, turn_timer, ai_fill, hints,
        )  # fmt: skip
        t = await self.bot.tables.tournaments.create(
            guild_id,
            channel_id,
            organiser(interaction),
            request,
            lambda chosen: server_locale(interaction, chosen),
        )
        await self.bot.presenter.tournaments.post_register(interaction, t)

    @tournament.command(name="status", description="The tournament's standings, and your place")
    async def status(self, interaction: Interaction) -> None:
        guild_id, channel_id = place_of(interaction)
        t = await self.bot.tables.tournaments.find(guild_id, channel_id)  # open, or the last
        tables = self.bot.tables.tournaments.live_tables(t)
        language = t.options.language
        await interaction.response.send_message(embed=screen.status_embed(t, tables, language))
        own = screen.own_text(t, interaction.user.id, tables, user_locale(interaction))
        await send_private(interaction, own)

    @tournament.command(name="record", description="A tournament's record: draws, salts, tables")
    @app_commands.describe(tournament="Its id (default: this channel's latest)")
    async def record(
        self, interaction: Interaction, tournament: app_commands.Range[str, 4, 16] | None = None
    ) -> None:
        guild_id, channel_id = place_of(interaction)
        await acknowledge(interaction)
        t = await self.bot.tables.tournaments.find(guild_id, channel_id, tournament)
        file = discord.File(
            io.BytesIO(screen.record_json(t).encode("utf-8")), filename=f"tournament-{t.id}.json"
        )
        said = screen.record_caption(t, user_locale(interaction))
        await send_private(interaction, said, file=file)

    @tournament.command(name="start", description="Start now, with whoever checked in (organisers)")
    async def start(self, interaction: Interaction) -> None:
        t = self._of_channel(interaction)
        await acknowledge(interaction)
        await self.bot.tables.tournament_tools.start(t, organiser(interaction))
        await send_private(interaction, screen.done_text("started", user_locale(interaction)))

    @tournament.command(name="delay", description="Move the start (organisers)")
    @app_commands.describe(minutes="Minutes from now to the new start")
    async def delay(
        self, interaction: Interaction, minutes: app_commands.Range[int, 1, 10080]
    ) -> None:
        t = self._of_channel(interaction)
        await acknowledge(interaction)
        start = await self.bot.tables.tournament_tools.delay(t, organiser(interaction), minutes)
        said = screen.done_text("delayed", user_locale(interaction), start=start)
        await send_private(interaction, said)

    @tournament.command(name="pause", description="Hold every table between deals (organisers)")
    async def pause(self, interaction: Interaction) -> None:
        t = self._of_channel(interaction)
        await acknowledge(interaction)
        await self.bot.tables.tournament_tools.pause(t, organiser(interaction))
        await send_private(interaction, screen.done_text("paused", user_locale(interaction)))

    @tournament.command(name="resume", description="Resume a paused tournament (organisers)")
    async def resume(self, interaction: Interaction) -> None:
        t = self._of_channel(interaction)
        await acknowledge(interaction)
        await self.bot.tables.tournament_tools.resume(t, organiser(interaction))
        await send_private(interaction, screen.done_text("resumed", user_locale(interaction)))

    @tournament.command(name="remove", description="Take a player out (organisers)")
    @app_commands.describe(player="Who: their seat is played out as a drop")
    async def remove(self, interaction: Interaction, player: discord.User) -> None:
        t = self._of_channel(interaction)
        await acknowledge(interaction)
        name = await self.bot.tables.tournament_tools.remove(t, organiser(interaction), player.id)
        said = screen.done_text("removed", user_locale(interaction), name=name)
        await send_private(interaction, said)

    @tournament.command(name="cancel", description="Cancel the tournament (organisers)")
    @app_commands.describe(reason="Why (everyone reads it)")
    async def cancel(
        self, interaction: Interaction, reason: app_commands.Range[str, 1, 200]
    ) -> None:
        t = self._of_channel(interaction)
        await acknowledge(interaction)
        await self.bot.tables.tournament_tools.cancel(t, organiser(interaction), str(reason))
        await send_private(interaction, screen.done_text("cancelled", user_locale(interaction)))

    @tournament.command(name="add-ai", description="Enter AI players (organisers)")
    @app_commands.describe(count="How many", tier="How strong (default medium)")
    @app_commands.choices(tier=TIER_CHOICES)
    async def add_ai(
        self,
        interaction: Interaction,
        count: app_commands.Range[int, 1, 60],
        tier: str = "medium",
    ) -> None:
        t = self._of_channel(interaction)
        level = parse_tier(tier)  # a client can send any value
        await acknowledge(interaction)
        language = t.options.language
        added = await self.bot.tables.tournament_tools.add_ai(
            t, organiser(interaction), count, level, lambda n: ai_name(level, n, language)
        )
        said = screen.done_text("added_ai", user_locale(interaction), count=added)
        await send_private(interaction, said)


async def setup(bot: PapluBot) -> None:
    await add_slice(bot, Tournaments(bot))
