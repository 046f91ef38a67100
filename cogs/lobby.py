"""The lobby slice: opening a table, taking and leaving seats, the host's tools, "Play again".

Commands `/rummy new`, `join`, `leave`, `start` and `cancel`; the lobby message's buttons and
menus (Join, Leave, Start, Cancel, Add an AI player, Host tools) and the results' "Play again".
Each handler parses (the dispatch did, for clicks), makes one call into the table layer
(`bot.table.lobby`) and one to the screen. Anything that waits for a table's lock is
acknowledged first, so a busy table can never make Discord show "This interaction failed".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from discord import app_commands

from bot.discord_ui.choices import DECLARATION_CHOICES, HINT_CHOICES, PROFILE_CHOICES
from bot.discord_ui.clicks import Act, Click, HostToolKind
from bot.discord_ui.dispatch import Handler
from bot.discord_ui.errors import UserError
from bot.discord_ui.interaction import Interaction
from bot.discord_ui.locales import server_locale, user_locale
from bot.discord_ui.reply import acknowledge, send_private
from bot.discord_ui.screens import lobby as screen
from bot.discord_ui.slices import Slice, add_slice, is_manager
from bot.table.model import Table
from bot.table.options import LobbyRequest
from bot.words import refusals, text

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot


_MENTION = re.compile(r"<@!?(\d{15,20})>")


class Lobby(Slice):
    """Opening a table and filling its seats."""

    def click_handlers(self) -> Mapping[Act, Handler]:
        return {
            Act.JOIN: self._join,
            Act.LEAVE: self._leave,
            Act.START: self._start,
            Act.CANCEL: self._cancel,
            Act.ADD_AI: self._add_ai,
            Act.HOST: self._host_tool,
            Act.AGAIN: self._play_again,
        }

    # ---- commands --------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a rummy table in this channel")
    @app_commands.describe(
        profile="Which rules (default: the server's default)",
        seats="Most players at the table",
        turn_timer="Seconds per turn (default: the server's setting)",
        declaration="assisted: Declare only when valid; honor: wrong shows are penalised",
        deals="Number of deals (deals: 2, 3 or 6; classic: any)",
        pool_limit="Pool games: the score at which a player is out",
        target_score="Classic: play until someone reaches this score",
        no_reshuffle="House rule: stock runs out = void deal",
        joker_indicator_doubles="House rule: a joker as indicator doubles payments",
        aces_wild_on_joker="House rule: a joker as indicator makes aces wild",
        nothing_wild="House rule: no wild cards at all",
        one_joker_per_deck="House rule: one printed joker per deck",
        no_packing="House rule: no dropping",
        invite="A private table: mention the players who may join (only they can sit down)",
        hints="What your hand view works out for you (default: the server's setting)",
    )
    @app_commands.choices(
        profile=PROFILE_CHOICES, declaration=DECLARATION_CHOICES, hints=HINT_CHOICES
    )
    async def new(
        self,
        interaction: Interaction,
        profile: str | None = None,
        seats: app_commands.Range[int, 2, 10] | None = None,
        turn_timer: app_commands.Range[int, 15, 600] | None = None,
        declaration: str | None = None,
        deals: app_commands.Range[int, 1, 50] | None = None,
        pool_limit: app_commands.Range[int, 20, 1000] | None = None,
        target_score: app_commands.Range[int, 10, 10000] | None = None,
        no_reshuffle: bool = False,
        joker_indicator_doubles: bool = False,
        aces_wild_on_joker: bool = False,
        nothing_wild: bool = False,
        one_joker_per_deck: bool = False,
        no_packing: bool = False,
        invite: str | None = None,
        hints: str | None = None,
    ) -> None:
        guild_id, channel_id = _place_of(interaction)
        request = LobbyRequest(
            profile,
            seats,
            turn_timer,
            declaration,
            {
                "no_reshuffle": no_reshuffle,
                "joker_indicator_doubles": joker_indicator_doubles,
                "aces_wild_on_joker": aces_wild_on_joker,
                "nothing_wild": nothing_wild,
                "one_joker_per_deck": one_joker_per_deck,
                "no_packing": no_packing,
            },
            deals,
            pool_limit,
            target_score,
            hints,
            invited=None if invite is None else _mentioned(invite),
        )
        user = interaction.user
        table = await self.bot.tables.lobby.open(
            guild_id,
            channel_id,
            user.id,
            user.display_name,
            request,
            lambda chosen: server_locale(interaction, chosen),
        )
        await self.bot.presenter.table_message.post_lobby(interaction, table)

    @app_commands.command(name="join", description="Sit down at the table in this channel")
    async def join(self, interaction: Interaction) -> None:
        await self._join(interaction, None)

    @app_commands.command(name="leave", description="Leave the table (mid-game this is a drop)")
    async def leave(self, interaction: Interaction) -> None:
        await self._leave(interaction, None)

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: Interaction) -> None:
        await self._start(interaction, None)

    @app_commands.command(name="cancel", description="Close the table (host or Manage Server)")
    async def cancel(self, interaction: Interaction) -> None:
        await self._cancel(interaction, None)

    # ---- handlers (a command's `click` is None: the table is the channel's) ----------------

    async def _join(self, interaction: Interaction, click: Click | None) -> None:
        table = self._table(interaction, click)
        await acknowledge(interaction)
        user = interaction.user
        await self.bot.tables.lobby.join(table, user.id, user.display_name)
        await send_private(interaction, text(user_locale(interaction), "done-joined"))

    async def _leave(self, interaction: Interaction, click: Click | None) -> None:
        table = self._table(interaction, click)
        await acknowledge(interaction)
        left = await self.bot.tables.lobby.leave(table, interaction.user.id)
        await send_private(interaction, refusals.left_text(left, user_locale(interaction)))

    async def _start(self, interaction: Interaction, click: Click | None) -> None:
        table = self._table(interaction, click)
        await acknowledge(interaction)
        await self.bot.tables.lobby.start(table, interaction.user.id)
        await send_private(interaction, text(user_locale(interaction), "done-started"))

    async def _cancel(self, interaction: Interaction, click: Click | None) -> None:
        table = self._table(interaction, click)
        await acknowledge(interaction)
        await self.bot.tables.lobby.cancel(table, interaction.user.id, is_manager(interaction))
        await send_private(interaction, text(user_locale(interaction), "done-cancelled"))

    async def _add_ai(self, interaction: Interaction, click: Click) -> None:
        table = self._table(interaction, click)
        await acknowledge(interaction)
        assert click.tier is not None  # the parse made sure
        name = screen.ai_seat_name(click.tier, table.options.language)
        added = await self.bot.tables.lobby.add_ai(table, interaction.user.id, click.tier, name)
        await send_private(interaction, refusals.added_ai_text(added, user_locale(interaction)))

    async def _host_tool(self, interaction: Interaction, click: Click) -> None:
        """The lobby's host menu: take a seat away, or hand over hosting."""
        table = self._table(interaction, click)
        await acknowledge(interaction)
        tool = click.host
        assert tool is not None  # the parse made sure
        locale = user_locale(interaction)
        if tool.kind is HostToolKind.REMOVE:
            removed = await self.bot.tables.lobby.remove_seat(
                table, interaction.user.id, tool.seat_key
            )
            said = refusals.seat_removed_text(removed, locale)
        else:
            name = await self.bot.tables.lobby.hand_host(table, interaction.user.id, tool.seat_key)
            said = refusals.host_handed_text(name, locale)
        await send_private(interaction, said)

    async def _play_again(self, interaction: Interaction, click: Click) -> None:
        """ "Play again" on a match's final results: a new lobby with the same rules (its
        message is posted by the presenter), or a seat at the one already opened."""
        await acknowledge(interaction)
        guild_id, channel_id = _place_of(interaction)
        user = interaction.user
        _table, rematch = await self.bot.tables.lobby.rematch(
            click.table_id, guild_id, channel_id, user.id, user.display_name
        )
        await send_private(interaction, refusals.rematch_text(rematch, user_locale(interaction)))

    def _table(self, interaction: Interaction, click: Click | None) -> Table:
        """The table a click names (refused if it is another server's or channel's), or for a
        command the table of the channel it was typed in."""
        if click is not None:
            return self.bot.tables.registry.get(
                click.table_id, guild_id=interaction.guild_id, channel_id=interaction.channel_id
            )
        _guild_id, channel_id = _place_of(interaction)
        return self.bot.tables.registry.in_channel(channel_id)


def _place_of(interaction: Interaction) -> tuple[int, int]:
    """The server and channel a command came from (the bot's commands are for servers)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError("error-server-channel-only")
    return interaction.guild_id, interaction.channel_id


def _mentioned(text: str) -> tuple[int, ...]:
    """The users a `/rummy new invite:` option mentions, in order, once each."""
    ids = tuple(dict.fromkeys(int(m) for m in _MENTION.findall(text)))
    if not ids:
        raise UserError("error-invite-mentions")
    return ids


async def setup(bot: PapluBot) -> None:
    await add_slice(bot, Lobby(bot))
