"""The league slice: leaderboards, stats, history and hand histories, server settings, forget-me.

Commands `/rummy leaderboard`, `stats`, `history`, `settings` and `forget-me`, and a deal's
"Hand history" button on its results. Thin by design: parse the interaction, call the league
service (`bot.table.league`, which holds the rules: who may download what, how settings merge,
when forget-me expires), render with `bot.discord_ui.screens.stats`, in the catalogue's words:
what is posted in the channel (the leaderboard and its pages, a stats card) in the server's
language, every private answer (history, downloads, settings, forget-me) in the reader's own.

Components (leaderboard pager, hand-history download menu, forget-me confirmation) are
`DynamicItem`s whose whole state lives in their custom_id (prefix ``st:``), so they keep working
after a restart and need no view object in memory. Each id carries the id of the user who ran
the command: only that user may page or confirm, everybody else gets a short private refusal.
Every handler that touches storage acknowledges first (defer), so a busy database can never make
Discord show "This interaction failed"; the two public answers (leaderboard, stats) read first,
within `PUBLIC_BUDGET` seconds, so that a failure can still be answered privately.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord_ui.choices import PROFILE_NAME_CHOICES
from bot.discord_ui.clicks import Act, Click
from bot.discord_ui.dispatch import Handler
from bot.discord_ui.errors import UserError, guarded
from bot.discord_ui.interaction import AnyInteraction, Interaction, ours
from bot.discord_ui.locales import server_locale, user_locale
from bot.discord_ui.reply import acknowledge
from bot.discord_ui.screens import history as rh
from bot.discord_ui.screens import stats as rs
from bot.discord_ui.slices import Slice, add_slice, guild_of, is_manager
from bot.storage import StorageError
from bot.table.league import League
from bot.words import Locale

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot

log = logging.getLogger(__name__)


#: The menus' English base text (the catalogue's `choice-<value>` words them for Discord's
#: other languages, see `bot.discord_ui.translator`).
SORT_CHOICES = [
    app_commands.Choice(name="Rating", value="rating"),
    app_commands.Choice(name="Matches won", value="matches_won"),
    app_commands.Choice(name="Deals won", value="deals_won"),
    app_commands.Choice(name="Net chips", value="net_chips"),
    app_commands.Choice(name="Win rate", value="win_rate"),
]
PERIOD_CHOICES = [
    app_commands.Choice(name="all time", value="all"),
    app_commands.Choice(name="last 30 days", value="30d"),
    app_commands.Choice(name="last 7 days", value="7d"),
]
#: custom_id token for "no profile filter" (a profile name never equals it).
ALL_PROFILES = "any"
#: Seconds a public answer may spend reading before it must answer (Discord allows 3 s).
PUBLIC_BUDGET = 2.0

LB_TEMPLATE = (
    r"st:lb:(?P<page>\d{1,6}):(?P<profile>[a-z0-9]{1,12}):(?P<sort>[a-z_]{1,16})"
    r":(?P<period>all|30d|7d):(?P<owner>\d{1,20})"
)
HH_TEMPLATE = r"st:hh:(?P<owner>\d{1,20})"

# ---- helpers --------------------------------------------------------------------------------


def _league(interaction: Interaction) -> League:
    return interaction.client.tables.league


def _parse_profile(token: str) -> str | None:
    return None if token == ALL_PROFILES else token


async def _read_in_time(read: Awaitable[Any]) -> Any:
    """Read what a public answer shows before answering, within `PUBLIC_BUDGET`: after a
    public acknowledgement an error could only be shown to the whole channel."""
    try:
        return await asyncio.wait_for(read, PUBLIC_BUDGET)
    except TimeoutError as exc:
        raise UserError("error-stats-slow") from exc
    except StorageError as exc:
        log.warning("could not read stats: %s", exc)
        raise UserError("error-stats-failed") from exc


# ---- leaderboard ----------------------------------------------------------------------------


async def leaderboard_page(
    league: League,
    guild_id: int,
    owner_id: int,
    page: int,
    profile: str | None,
    sort: str,
    period: str,
    locale: Locale | None = None,
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page and its pager, in `locale` (the server's: a board is posted in the channel)."""
    board = await league.leaderboard(
        guild_id, owner_id, page, profile, sort, period, page_size=rs.PAGE_SIZE
    )
    rows, own, has_next = board.rows, board.own, board.has_next
    embed = rs.leaderboard_embed(
        rows,
        profile=profile,
        sort=sort,
        period=period,
        page=page,
        own=own,
        owner_id=owner_id,
        locale=locale,
    )
    if page == 0 and not has_next:
        return embed, None
    view = discord.ui.View(timeout=None)
    token = ALL_PROFILES if profile is None else profile
    previous, following = rs.pager_labels(locale)
    view.add_item(
        LeaderboardPager(
            page - 1, token, sort, period, owner_id, label=previous, disabled=page == 0
        )
    )
    view.add_item(
        LeaderboardPager(
            page + 1, token, sort, period, owner_id, label=following, disabled=not has_next
        )
    )
    return embed, view


class LeaderboardPager(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LB_TEMPLATE):
    """◀/▶ on a leaderboard; the target page and the board are in the custom_id."""

    def __init__(
        self,
        page: int,
        profile: str,
        sort: str,
        period: str,
        owner_id: int,
        *,
        label: str = "…",
        disabled: bool = False,
    ) -> None:
        self.page = max(page, 0)
        self.profile, self.sort, self.period, self.owner_id = profile, sort, period, owner_id
        # A disabled ◀ on page 0 still needs an id distinct from ▶ (page 1): -1 -> 0 is fine.
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"st:lb:{self.page}:{profile}:{sort}:{period}:{owner_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: AnyInteraction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaderboardPager:
        return cls(
            int(match["page"]),
            match["profile"],
            match["sort"],
            match["period"],
            int(match["owner"]),
            label=getattr(item, "label", None) or "…",
        )

    async def callback(self, any_interaction: AnyInteraction) -> None:
        interaction = ours(any_interaction)

        async def turn() -> None:
            if interaction.user.id != self.owner_id:
                raise UserError("error-not-yours")
            profile = _parse_profile(self.profile)
            await interaction.response.defer()  # an update of the pager's own message
            embed, view = await leaderboard_page(
                _league(interaction),
                guild_of(interaction),
                self.owner_id,
                self.page,
                profile,
                self.sort,
                self.period,
                server_locale(interaction),  # the board is the channel's, in its language
            )
            await interaction.edit_original_response(embed=embed, view=view)

        await guarded(interaction, turn)


# ---- history --------------------------------------------------------------------------------


class HistoryDownload(discord.ui.DynamicItem[discord.ui.Select[Any]], template=HH_TEMPLATE):
    """The "download a deal" menu under /rummy history; option values are deal ids."""

    def __init__(
        self,
        owner_id: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
    ) -> None:
        self.owner_id = owner_id
        super().__init__(
            discord.ui.Select(
                custom_id=f"st:hh:{owner_id}",
                placeholder=placeholder or rh.history_placeholder(),
                options=options or [discord.SelectOption(label="-", value="0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: AnyInteraction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HistoryDownload:
        return cls(
            int(match["owner"]),
            list(getattr(item, "options", None) or []),
            placeholder=getattr(item, "placeholder", None),
        )

    async def callback(self, any_interaction: AnyInteraction) -> None:
        interaction = ours(any_interaction)

        async def download() -> None:
            if interaction.user.id != self.owner_id:
                raise UserError("error-not-yours")
            values = self.item.values
            picked = rh.parse_deal_option(values[0]) if values else None
            offered = {o.value for o in self.item.options}
            if picked is None or values[0] not in offered:
                raise UserError("error-pick-deal")
            deal_id, match_id, deal_no = picked
            guild_id = guild_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            text = await _league(interaction).download(
                guild_id, interaction.user.id, is_manager(interaction), deal_id
            )
            file = discord.File(
                io.BytesIO(text.encode("utf-8")),
                filename=rh.hand_history_filename(match_id, deal_no),
            )
            caption = rh.hand_history_caption(match_id, deal_no, user_locale(interaction))
            await interaction.followup.send(caption, file=file, ephemeral=True)

        await guarded(interaction, download)


# ---- forget-me ------------------------------------------------------------------------------


class LeagueCommands(Slice):
    """The server's league: who plays best, each player's record, the server's settings."""

    def dynamic_items(self) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        return (LeaderboardPager, HistoryDownload)

    def click_handlers(self) -> Mapping[Act, Handler]:
        return {Act.HISTORY: self._hand_history}

    async def _hand_history(self, interaction: Interaction, click: Click) -> None:
        """ "Hand history" on a deal's results: the file, privately, to a player of that deal
        or a server manager (it shows every hand). Read from storage, so it works after the
        table closed or the bot restarted."""
        await acknowledge(interaction)
        assert click.deal is not None  # the parse made sure
        guild_id = guild_of(interaction)
        body = await _league(interaction).download_deal(
            guild_id, interaction.user.id, is_manager(interaction), click.table_id, click.deal
        )
        file = discord.File(
            io.BytesIO(body.encode("utf-8")),
            filename=rh.hand_history_filename(click.table_id, click.deal),
        )
        caption = rh.hand_history_caption(click.table_id, click.deal, user_locale(interaction))
        await interaction.followup.send(caption, file=file, ephemeral=True)

    @app_commands.command(name="leaderboard", description="Top players in this server")
    @app_commands.describe(
        profile="Only this profile's games (default: all profiles)",
        sort="Rank by (default: rating)",
        period="Time window (default: all time)",
    )
    @app_commands.choices(profile=PROFILE_NAME_CHOICES, sort=SORT_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        profile: str | None = None,
        sort: str = "rating",
        period: str = "all",
    ) -> None:
        guild_id = guild_of(interaction)
        embed, view = await _read_in_time(
            leaderboard_page(
                _league(interaction),
                guild_id,
                interaction.user.id,
                0,
                profile,
                sort,
                period,
                server_locale(interaction),
            )
        )
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="A player's rummy stats in this server")
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        guild_id = guild_of(interaction)
        target = user or interaction.user
        if target.bot:
            raise UserError("error-no-stats-for-bots")
        card = await _read_in_time(_league(interaction).player(guild_id, target.id))
        embed = rs.stats_embed(
            target.display_name, card.stats, card.trend, server_locale(interaction),
            card.tournaments,
        )  # fmt: skip
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="history", description="Recent deals, with hand-history downloads")
    @app_commands.describe(user="Whose deals (default: yours)")
    async def history(self, interaction: Interaction, user: discord.User | None = None) -> None:
        guild_id = guild_of(interaction)
        target = user or interaction.user
        if target.bot:
            raise UserError("error-no-history-for-bots")
        await interaction.response.defer(ephemeral=True, thinking=True)
        page = await _league(interaction).history(
            guild_id, target.id, interaction.user.id, is_manager(interaction)
        )
        locale = user_locale(interaction)
        embed = rh.history_embed(target.display_name, page.rows, locale, page.tournaments)
        if not page.downloadable:
            await interaction.edit_original_response(embed=embed)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(
            HistoryDownload(
                interaction.user.id,
                [rh.history_option(r, locale) for r in page.downloadable],
                placeholder=rh.history_placeholder(locale),
            )
        )
        await interaction.edit_original_response(embed=embed, view=view)


async def setup(bot: PapluBot) -> None:
    await add_slice(bot, LeagueCommands(bot))
