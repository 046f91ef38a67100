"""The play slice: a player's hand and moves, the table message, the next deal, the review.

Commands `/rummy hand`, `drop` and `table`; the table message's "Your hand" and "Next deal";
every control of a private hand view (draw, take, discard, declare, hand rummy, drop and its
confirmation, sort, pictures or text, refresh); a deal's "Review my play".

A move is acknowledged at once (a deferred update of the hand view), then made through the
table layer (`bot.table.game`), then the hand view is edited in place to the table as it is
now (`hands.HandViews.show`), so the 3-second rule holds however busy the table is. A refusal
of a hand-view click is shown inside that view, above the hand as it is now (a stale view
heals itself).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from discord import app_commands

from bot.discord_ui.clicks import Act, Click
from bot.discord_ui.dispatch import Handler
from bot.discord_ui.errors import UserError
from bot.discord_ui.hands import HandViews
from bot.discord_ui.interaction import Interaction
from bot.discord_ui.locales import user_locale
from bot.discord_ui.reply import acknowledge, send_private
from bot.discord_ui.screens.help import first_time
from bot.discord_ui.slices import Slice, add_slice, is_manager
from bot.engine.actions import ActionKind
from bot.table import errors
from bot.table.model import Table
from bot.words import refusals, text
from bot.words.review import review_text

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot


#: The engine move each move control makes. Hand rummy is a declaration of the 13 cards held,
#: before drawing (no card); the drop is made by its confirmation, after its cost was shown.
MOVES: dict[Act, ActionKind] = {
    Act.DRAW: ActionKind.DRAW_STOCK,
    Act.TAKE: ActionKind.TAKE_DISCARD,
    Act.DISCARD: ActionKind.DISCARD,
    Act.DECLARE: ActionKind.DECLARE,
    Act.RUMMY: ActionKind.DECLARE,
    Act.CONFIRM_DROP: ActionKind.DROP,
}


class Play(Slice):
    """Playing a hand."""

    @property
    def hands(self) -> HandViews:
        return self.bot.presenter.hands

    def click_handlers(self) -> Mapping[Act, Handler]:
        own_view: dict[Act, Handler] = {act: self._move for act in MOVES}
        own_view.update(
            {
                Act.DROP: self._ask_drop,
                Act.SORT: self._sort,
                Act.IMAGES: self._images,
                Act.REFRESH: self._refresh,
            }
        )
        return {
            **own_view,
            Act.HAND: self._open_from_table,
            Act.NEXT: self._next,
            Act.REVIEW: self._review,
        }

    async def on_refusal(self, interaction: Interaction, click: Click, message: str) -> bool:
        """A refusal of a click in the player's own hand view is shown in that view."""
        table = self.bot.tables.registry.by_id.get(click.table_id)
        if (
            click.seat is None
            or table is None
            or table.engine_seat(interaction.user.id) != click.seat
        ):
            return False
        return await self.hands.show_refusal(interaction, table, message)

    # ---- commands --------------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your cards (only you can see them)")
    async def hand(self, interaction: Interaction) -> None:
        table = _table_here(self.bot, interaction)
        self.bot.tables.game.check_hand(table, interaction.user.id)
        await self.hands.open(interaction, table, note=await self._first_time(interaction, table))

    @app_commands.command(name="drop", description="Drop (pack) this deal, before drawing")
    async def drop(self, interaction: Interaction) -> None:
        table = _table_here(self.bot, interaction)
        game = self.bot.tables.game
        game.check_hand(table, interaction.user.id)
        game.check_drop(table, interaction.user.id)
        await self.hands.open(interaction, table, confirm_drop=True)

    @app_commands.command(name="table", description="Show the table again at the bottom")
    async def table(self, interaction: Interaction) -> None:
        table = _table_here(self.bot, interaction)
        shown = self.bot.presenter.table_message
        try:
            self.bot.tables.game.claim_repost(table, interaction.user.id, is_manager(interaction))
        except errors.SeatedOrManagerOnly:
            # A bystander may look, not move the table: they get their own copy of it.
            await acknowledge(interaction)
            copy = await shown.for_bystander(table, user_locale(interaction))
            await interaction.followup.send(ephemeral=True, **copy)
            return
        await acknowledge(interaction)
        await shown.repost(table)
        await send_private(interaction, text(user_locale(interaction), "done-table-below"))

    # ---- the table message and the results -----------------------------------------------

    async def _open_from_table(self, interaction: Interaction, click: Click) -> None:
        table = self._table(interaction, click)
        self.bot.tables.game.check_hand(table, interaction.user.id)
        await self.hands.open(interaction, table, note=await self._first_time(interaction, table))

    async def _next(self, interaction: Interaction, click: Click) -> None:
        table = self._table(interaction, click)
        await acknowledge(interaction)
        voted = await self.bot.tables.game.vote_next(table, interaction.user.id, click.deal)
        await send_private(interaction, refusals.voted_text(voted, user_locale(interaction)))

    async def _review(self, interaction: Interaction, click: Click) -> None:
        """ "Review my play": acknowledged privately at once (the analysis takes a moment, in
        a worker), then answered to the clicking player only. Works after the next deal has
        started or the table closed, so it does not look the live table up."""
        await acknowledge(interaction)
        assert click.deal is not None  # the parse made sure
        outcome = await self.bot.tables.reviews.review(
            click.table_id,
            interaction.user.id,
            click.deal,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
        )
        await send_private(interaction, review_text(outcome.review, user_locale(interaction)))

    # ---- the hand view's controls ----------------------------------------------------------

    async def _move(self, interaction: Interaction, click: Click) -> None:
        table = await self._own_view(interaction, click)
        played = await self.bot.tables.game.act(
            table, interaction.user.id, click.version, MOVES[click.act], click.card, click.seat
        )
        await self.hands.show(
            interaction, table, refusals.played_text(played, user_locale(interaction))
        )

    async def _ask_drop(self, interaction: Interaction, click: Click) -> None:
        """The first press of Drop: the view again, its cost on the confirmation button."""
        table = await self._own_view(interaction, click)
        if click.version != table.version:
            raise errors.StaleView()
        await self.hands.show(interaction, table, confirm_drop=True)

    async def _sort(self, interaction: Interaction, click: Click) -> None:
        table = await self._own_view(interaction, click)
        self.hands.sort_by_suit(table, interaction.user.id, bool(click.flag))
        await self.hands.show(interaction, table)

    async def _images(self, interaction: Interaction, click: Click) -> None:
        table = await self._own_view(interaction, click)
        await self.hands.card_images(interaction.user.id, bool(click.flag))
        await self.hands.show(interaction, table)

    async def _refresh(self, interaction: Interaction, click: Click) -> None:
        table = await self._own_view(interaction, click)
        await self.hands.show(interaction, table)

    async def _own_view(self, interaction: Interaction, click: Click) -> Table:
        """The table of a click in a hand view, once the view is known to be the clicking
        player's; then acknowledged as an update of that view."""
        table = self._table(interaction, click)
        if click.seat is not None and table.engine_seat(interaction.user.id) != click.seat:
            raise errors.NotYourControls()
        await interaction.response.defer()
        return table

    def _table(self, interaction: Interaction, click: Click) -> Table:
        return self.bot.tables.registry.get(
            click.table_id, guild_id=interaction.guild_id, channel_id=interaction.channel_id
        )

    async def _first_time(self, interaction: Interaction, table: Table) -> str | None:
        """ "New to rummy here?" above the hand, once per player and server, ever: the
        table layer says when (it records the telling)."""
        if await self.bot.tables.league.point_to_help(table.guild_id, interaction.user.id):
            return first_time(user_locale(interaction))
        return None


def _table_here(bot: PapluBot, interaction: Interaction) -> Table:
    """The open table of the channel (or thread) a command was typed in."""
    if interaction.channel_id is None:
        raise UserError("error-server-channel-only")
    return bot.tables.registry.in_channel(interaction.channel_id)


async def setup(bot: PapluBot) -> None:
    await add_slice(bot, Play(bot))
