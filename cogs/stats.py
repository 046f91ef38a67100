"""Leaderboards, stats, history, server settings and forget-me (the `/rummy` stats commands).

`StatsCommands` is a mixin: the `Rummy` group cog inherits it, and discord.py collects app
commands from the whole class MRO, so these methods become `/rummy leaderboard` and friends
without a second cog or a second top-level command.

Thin by design: parse the interaction, call the league service (`bot.table.league`, which holds
the rules: who may download what, how settings merge, when forget-me expires), render with
`bot.discord_ui.render.stats`, in the catalogue's words: what is posted in the channel (the
leaderboard and its pages, a stats card) in the server's language, every private answer
(history, downloads, settings, forget-me) in the reader's own.

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
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.errors import UserError, answer_error
from bot.discord_ui.locales import server_locale, user_locale
from bot.discord_ui.render import stats as rs
from bot.storage import StorageError
from bot.table.league import FOLLOW_SERVER, League, SettingsChange, parse_default_hints
from bot.words import Locale, catalogue
from bot.words.cards import HINT_WORDS
from bot.words.languages import languages

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot

log = logging.getLogger(__name__)

PROFILE_CHOICES = [app_commands.Choice(name=p, value=p) for p in rs.PROFILE_NAMES]
HINT_CHOICES = [
    app_commands.Choice(name=f"{level} — {words}", value=level)
    for level, words in HINT_WORDS.items()
]
#: `/rummy settings language:`: the server's own Discord language, or one the bot speaks.
SERVER_LANGUAGE_CHOICES = [
    app_commands.Choice(name="Follow the server's Discord language", value=FOLLOW_SERVER),
    *(app_commands.Choice(name=lang.label, value=str(lang.tag)) for lang in languages()),
]
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
FM_TEMPLATE = r"st:fm:(?P<action>yes|no):(?P<owner>\d{1,20}):(?P<issued>\d{1,12})"

# ---- helpers --------------------------------------------------------------------------------


def _league(interaction: discord.Interaction[PapluBot]) -> League:
    return interaction.client.tables.league


def _guild_id(interaction: discord.Interaction[PapluBot]) -> int:
    if interaction.guild_id is None:
        raise UserError("error-server-channel-only")
    return interaction.guild_id


async def _guarded(
    interaction: discord.Interaction[PapluBot], handler: Callable[[], Awaitable[None]]
) -> None:
    """Component callbacks bypass the app-command error handler, so refusals and failures take
    the same one path here (an unanswered click shows "This interaction failed")."""
    try:
        await handler()
    except Exception as exc:
        await answer_error(interaction, exc, "stats component")


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


def _is_manager(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild)


def _require_manage_guild(interaction: discord.Interaction[PapluBot]) -> bool:
    """Manage Server (or Administrator). `default_permissions` cannot be set on a subcommand
    (it belongs to the whole /rummy group), so the check runs when the command is used."""
    perms = interaction.permissions
    if perms.administrator or perms.manage_guild:
        return True
    raise app_commands.MissingPermissions(["manage_guild"])


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
        interaction: discord.Interaction[Any],
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

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def turn() -> None:
            if interaction.user.id != self.owner_id:
                raise UserError("error-not-yours")
            profile = _parse_profile(self.profile)
            await interaction.response.defer()  # an update of the pager's own message
            embed, view = await leaderboard_page(
                _league(interaction),
                _guild_id(interaction),
                self.owner_id,
                self.page,
                profile,
                self.sort,
                self.period,
                server_locale(interaction),  # the board is the channel's, in its language
            )
            await interaction.edit_original_response(embed=embed, view=view)

        await _guarded(interaction, turn)


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
                placeholder=placeholder or rs.history_placeholder(),
                options=options or [discord.SelectOption(label="-", value="0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HistoryDownload:
        return cls(
            int(match["owner"]),
            list(getattr(item, "options", None) or []),
            placeholder=getattr(item, "placeholder", None),
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def download() -> None:
            if interaction.user.id != self.owner_id:
                raise UserError("error-not-yours")
            values = self.item.values
            picked = rs.parse_deal_option(values[0]) if values else None
            offered = {o.value for o in self.item.options}
            if picked is None or values[0] not in offered:
                raise UserError("error-pick-deal")
            deal_id, match_id, deal_no = picked
            guild_id = _guild_id(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            text = await _league(interaction).download(
                guild_id, interaction.user.id, _is_manager(interaction), deal_id
            )
            file = discord.File(
                io.BytesIO(text.encode("utf-8")),
                filename=rs.hand_history_filename(match_id, deal_no),
            )
            caption = rs.hand_history_caption(match_id, deal_no, user_locale(interaction))
            await interaction.followup.send(caption, file=file, ephemeral=True)

        await _guarded(interaction, download)


# ---- forget-me ------------------------------------------------------------------------------


class ForgetConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]], template=FM_TEMPLATE):
    """Confirm / cancel under /rummy forget-me; the id carries who asked and when."""

    def __init__(
        self, action: str, owner_id: int, issued: int, *, label: str | None = None
    ) -> None:
        self.action, self.owner_id, self.issued = action, owner_id, issued
        yes = action == "yes"
        super().__init__(
            discord.ui.Button(
                label=label or rs.forget_label(action),
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"st:fm:{action}:{owner_id}:{issued}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ForgetConfirm:
        return cls(
            match["action"],
            int(match["owner"]),
            int(match["issued"]),
            label=getattr(item, "label", None),
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def answer() -> None:
            if interaction.user.id != self.owner_id:
                raise UserError("error-not-yours")
            locale = user_locale(interaction)
            if self.action == "no":
                said = rs.forget_text("cancelled", locale)
                await interaction.response.edit_message(content=said, view=None)
                return
            await interaction.response.defer()
            outcome = await _league(interaction).forget(
                _guild_id(interaction), self.owner_id, self.issued
            )
            if outcome not in ("expired", "playing"):
                log.info("forgot a user in guild %s", interaction.guild_id)
                outcome = "done"
            said = rs.forget_text(outcome, locale)
            await interaction.edit_original_response(content=said, view=None)

        await _guarded(interaction, answer)


def forget_view(owner_id: int, issued: int, locale: Locale | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in ("yes", "no"):
        view.add_item(
            ForgetConfirm(action, owner_id, issued, label=rs.forget_label(action, locale))
        )
    return view


def stats_dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """The persistent components of this module (the cog registers them in `cog_load`)."""
    return (LeaderboardPager, HistoryDownload, ForgetConfirm)


# ---- commands -------------------------------------------------------------------------------


# Only for the type checker: app_commands decorators want a Cog/Group as `self`. At run time
# the mixin must stay a plain class, or CogMeta would treat it as a cog of its own.
if TYPE_CHECKING:
    _MixinBase = commands.Cog
else:
    _MixinBase = object


class StatsCommands(_MixinBase):
    """Mixed into the `Rummy` group cog so these commands live under `/rummy`."""

    bot: PapluBot

    @app_commands.command(name="leaderboard", description="Top players in this server")
    @app_commands.guild_only()
    @app_commands.describe(
        profile="Only this profile's games (default: all profiles)",
        sort="Rank by (default: rating)",
        period="Time window (default: all time)",
    )
    @app_commands.choices(profile=PROFILE_CHOICES, sort=SORT_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[PapluBot],
        profile: str | None = None,
        sort: str = "rating",
        period: str = "all",
    ) -> None:
        guild_id = _guild_id(interaction)
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
    @app_commands.guild_only()
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[PapluBot], user: discord.User | None = None
    ) -> None:
        guild_id = _guild_id(interaction)
        target = user or interaction.user
        if target.bot:
            raise UserError("error-no-stats-for-bots")
        card = await _read_in_time(_league(interaction).player(guild_id, target.id))
        embed = rs.stats_embed(
            target.display_name, card.stats, card.trend, server_locale(interaction)
        )
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="history", description="Recent deals, with hand-history downloads")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose deals (default: yours)")
    async def history(
        self, interaction: discord.Interaction[PapluBot], user: discord.User | None = None
    ) -> None:
        guild_id = _guild_id(interaction)
        target = user or interaction.user
        if target.bot:
            raise UserError("error-no-history-for-bots")
        await interaction.response.defer(ephemeral=True, thinking=True)
        page = await _league(interaction).history(
            guild_id, target.id, interaction.user.id, _is_manager(interaction)
        )
        locale = user_locale(interaction)
        embed = rs.history_embed(target.display_name, page.rows, locale)
        if not page.downloadable:
            await interaction.edit_original_response(embed=embed)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(
            HistoryDownload(
                interaction.user.id,
                [rs.history_option(r, locale) for r in page.downloadable],
                placeholder=rs.history_placeholder(locale),
            )
        )
        await interaction.edit_original_response(embed=embed, view=view)

    @app_commands.command(name="settings", description="Server settings (Manage Server only)")
    @app_commands.guild_only()
    @app_commands.check(_require_manage_guild)
    @app_commands.describe(
        default_profile="Profile /rummy new uses when none is given",
        turn_timer="Default seconds per turn",
        allow_channel="Add a channel where tables may open (restricts to the list)",
        remove_channel="Remove a channel from the list",
        all_channels="True: tables may open in every channel again (clears the list)",
        card_images="Card images in game messages (players may still pick text only for "
        "their own hand)",
        hints="Hint level of new tables when the host names none",
        rated_hints_off="True: only games with hints off move ratings (others play unrated)",
        threads="True: each table plays in its own thread (default); False: in the channel",
        language="Language of new tables' lobby, table and results (default: the server's)",
    )
    @app_commands.choices(
        default_profile=PROFILE_CHOICES, hints=HINT_CHOICES, language=SERVER_LANGUAGE_CHOICES
    )
    async def settings(
        self,
        interaction: discord.Interaction[PapluBot],
        default_profile: str | None = None,
        turn_timer: app_commands.Range[int, 15, 600] | None = None,
        allow_channel: discord.TextChannel | None = None,
        remove_channel: discord.TextChannel | None = None,
        all_channels: bool | None = None,
        card_images: bool | None = None,
        hints: str | None = None,
        rated_hints_off: bool | None = None,
        threads: bool | None = None,
        language: str | None = None,
    ) -> None:
        guild_id = _guild_id(interaction)
        if language not in (None, FOLLOW_SERVER, *catalogue().locales):
            raise UserError("error-unknown-language")  # a tampered client
        await interaction.response.defer(ephemeral=True, thinking=True)
        changed = await _league(interaction).change_settings(
            guild_id,
            SettingsChange(
                default_profile=default_profile,
                turn_timer=None if turn_timer is None else int(turn_timer),
                allow_channel=allow_channel.id if allow_channel else None,
                remove_channel=remove_channel.id if remove_channel else None,
                all_channels=all_channels,
                card_images=card_images,
                hints=None if hints is None else parse_default_hints(hints),
                rated_hints_off=rated_hints_off,
                table_threads=threads,
                language=language,
            ),
        )
        if changed.changed:
            self.bot.presenter.prefs.server_changed(guild_id, changed.settings.card_images)
        locale = user_locale(interaction)
        said = [rs.setting_changed_text(what, value, locale) for what, value in changed.changed]
        embed = rs.settings_embed(
            changed.settings, said, locale, server_locale(interaction, changed.settings.language)
        )
        await interaction.edit_original_response(embed=embed)

    @app_commands.command(
        name="forget-me", description="Delete your rummy stats and history in this server"
    )
    @app_commands.guild_only()
    async def forget_me(self, interaction: discord.Interaction[PapluBot]) -> None:
        _guild_id(interaction)
        locale = user_locale(interaction)
        await interaction.response.send_message(
            rs.forget_text("prompt", locale),
            view=forget_view(interaction.user.id, int(time.time()), locale),
            ephemeral=True,
        )
