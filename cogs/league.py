"""The league slice: leaderboards, stats, history and hand histories, server settings, forget-me.

A server with seasons (`bot.table.season`) sees its current season's board by default;
`season:` picks a past one or all time, from a menu of the server's seasons.

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
from bot.discord_ui.screens import season as rseason
from bot.discord_ui.screens import stats as rs
from bot.discord_ui.screens.replay import deal_replay
from bot.discord_ui.slices import Slice, add_slice, guild_of, is_manager
from bot.storage import StorageError
from bot.table.league import ALL_TIME, CURRENT_SEASON, League
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

# A season board's pager names its season (`:s3`): its pages stay that season's even after
# the next one begins. Pagers without it (all time, a period, or from before seasons) page
# the board they name.
LB_TEMPLATE = (
    r"st:lb:(?P<page>\d{1,6}):(?P<profile>[a-z0-9]{1,12}):(?P<sort>[a-z_]{1,16})"
    r":(?P<period>all|30d|7d):(?P<owner>\d{1,20})(?::s(?P<season>\d{1,9}))?"
)
#: Longest season number typed into `season:` (a longer one is no season).
SEASON_DIGITS = 9
HH_TEMPLATE = r"st:hh:(?P<owner>\d{1,20})"

# ---- helpers --------------------------------------------------------------------------------


def _league(interaction: Interaction) -> League:
    return interaction.client.tables.league


def _parse_profile(token: str) -> str | None:
    return None if token == ALL_PROFILES else token


def _check_season(season: str | None, period: str | None) -> None:
    """What `/rummy leaderboard season:` may be: the current season, all time, or a season's
    number; and a season is its own window, so it takes no period."""
    if season is None:
        return
    if season not in (CURRENT_SEASON, ALL_TIME) and not (
        season.isdecimal() and len(season) <= SEASON_DIGITS
    ):
        raise UserError("error-unknown-season", season=discord.utils.escape_markdown(season[:40]))
    if period is not None and period != ALL_TIME:
        raise UserError("error-season-and-period")


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
    period: str | None,
    locale: Locale | None = None,
    season: str | None = None,
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page and its pager, in `locale` (the server's: a board is posted in the channel).
    `period` None and `season` None: the server's current season, or all time."""
    board = await league.leaderboard(
        guild_id, owner_id, page, profile, sort, period, page_size=rs.PAGE_SIZE, season=season
    )
    rows, own, has_next = board.rows, board.own, board.has_next
    shown = board.season
    embed = rs.leaderboard_embed(
        rows,
        profile=profile,
        sort=sort,
        period=period or ALL_TIME,
        page=page,
        own=own,
        owner_id=owner_id,
        locale=locale,
        when=None if shown is None else rseason.season_name(shown, locale),
        heading=None if shown is None else rseason.board_heading(shown, locale),
    )
    if page == 0 and not has_next:
        return embed, None
    view = discord.ui.View(timeout=None)
    token = ALL_PROFILES if profile is None else profile
    previous, following = rs.pager_labels(locale)
    number = None if shown is None else shown.number
    for target, label, disabled in (
        (page - 1, previous, page == 0),
        (page + 1, following, not has_next),
    ):
        view.add_item(
            LeaderboardPager(
                target,
                token,
                sort,
                period or ALL_TIME,
                owner_id,
                label=label,
                disabled=disabled,
                season=number,
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
        season: int | None = None,
    ) -> None:
        self.page = max(page, 0)
        self.profile, self.sort, self.period, self.owner_id = profile, sort, period, owner_id
        self.season = season
        tail = "" if season is None else f":s{season}"
        # A disabled ◀ on page 0 still needs an id distinct from ▶ (page 1): -1 -> 0 is fine.
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"st:lb:{self.page}:{profile}:{sort}:{period}:{owner_id}{tail}",
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
            season=None if match["season"] is None else int(match["season"]),
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
                None if self.season is None else str(self.season),
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
            locale = user_locale(interaction)
            caption = rh.hand_history_caption(match_id, deal_no, locale)
            # Its replay page beside it: the file a person opens (the history is for programs).
            replay = await deal_replay(match_id, deal_no, text, locale)
            files = [file] + [f for f in replay.files if f.filename.endswith(".html")]
            if len(files) > 1:
                caption += "\n" + replay.content
            await interaction.followup.send(caption, files=files, ephemeral=True)

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
        season="Which season (default: the current one, when the server has seasons)",
    )
    @app_commands.choices(profile=PROFILE_NAME_CHOICES, sort=SORT_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        profile: str | None = None,
        sort: str = "rating",
        period: str | None = None,
        season: str | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        _check_season(season, period)
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
                season,
            )
        )
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @leaderboard.autocomplete("season")
    async def _season_menu(
        self, interaction: Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """The server's seasons to pick from, newest first (none: no seasons yet)."""
        if interaction.guild_id is None:
            return []
        try:
            seasons = await interaction.client.tables.seasons.recent(interaction.guild_id)
        except StorageError:
            return []
        picks = rseason.season_choices(seasons, typed, user_locale(interaction))
        return [app_commands.Choice(name=label, value=value) for label, value in picks]

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
