"""`/rummy`: the slash commands and every button and menu of the game.

Thin by design: each handler parses the interaction, calls the table service (or storage), and
renders the answer; refusals raised by the service take the one error path in
`bot.discord_ui.errors`. Game moves acknowledge at once (a deferred update) and then edit the
player's private view, so the 3-second rule holds even when the table is busy.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.components import (
    CARD_ACTIONS,
    MOVE_ACTIONS,
    ComponentId,
    GameButton,
    GameSelect,
    HelpButton,
    help_view,
)
from bot.discord_ui.errors import UserError, answer_error, message_for
from bot.discord_ui.locales import server_locale, user_locale
from bot.discord_ui.presenter import DiscordPresenter
from bot.discord_ui.render import help as help_pages
from bot.discord_ui.render.lobby import lobby_embed
from bot.discord_ui.render.stats import hand_history_caption, hand_history_filename
from bot.discord_ui.reply import send_private
from bot.discord_ui.views import ai_seat_name, lobby_view
from bot.engine.cards import CardParseError, Face
from bot.engine.rules import PROFILES, get_profile
from bot.table import errors
from bot.table.lobby import parse_tier
from bot.table.model import Table
from bot.table.options import build_options, parse_hints
from bot.table.service import TableService
from bot.table.vocabulary import TableStatus
from bot.words import catalogue, refusals, text
from bot.words.languages import languages
from bot.words.review import review_text
from bot.words.rules import profile_blurb, rules_summary, ruling_text
from cogs.stats import HINT_CHOICES, StatsCommands, stats_dynamic_items

#: `/rummy language`: follow Discord, or one of the catalogue's languages (in its own words).
LANGUAGE_CHOICES = [
    app_commands.Choice(name="Follow my Discord", value="auto"),
    *(app_commands.Choice(name=lang.label, value=str(lang.tag)) for lang in languages()),
]

if TYPE_CHECKING:
    from bot.discord_ui.client import PapluBot

log = logging.getLogger(__name__)

PROFILE_CHOICES = [
    app_commands.Choice(name=f"{name} — {profile_blurb(rules, None)}", value=name)
    for name, rules in PROFILES.items()
]
DECLARATION_CHOICES = [
    app_commands.Choice(name="assisted — Declare only when verified", value="assisted"),
    app_commands.Choice(name="honor — any layout; wrong shows penalised", value="honor"),
]


@app_commands.guild_only()
class Rummy(StatsCommands, commands.GroupCog, group_name="rummy"):
    """Indian Rummy (13-card rummy, Paplu)."""

    def __init__(self, bot: PapluBot) -> None:
        self.bot = bot
        self._played: set[tuple[int, int]] = set()  # (guild, user) known to have played
        super().__init__()

    async def cog_load(self) -> None:
        """Persistent components: any old message's buttons reach this cog after a restart."""
        self.bot.add_dynamic_items(GameButton, GameSelect, HelpButton, *stats_dynamic_items())

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(GameButton, GameSelect, HelpButton, *stats_dynamic_items())

    @property
    def tables(self) -> TableService:
        return self.bot.tables

    @property
    def presenter(self) -> DiscordPresenter:
        return self.bot.presenter

    # ---- lobby commands ------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a rummy table in this channel")
    @app_commands.guild_only()
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
        interaction: discord.Interaction[PapluBot],
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
        assert interaction.guild_id is not None and interaction.channel_id is not None
        invited = _mentioned(invite) if invite is not None else None
        settings = await self.bot.storage.settings.get_settings(interaction.guild_id)
        if not settings.channel_allowed(interaction.channel_id):
            raise UserError("error-channel-not-allowed")
        toggles = {
            "no_reshuffle": no_reshuffle,
            "joker_indicator_doubles": joker_indicator_doubles,
            "aces_wild_on_joker": aces_wild_on_joker,
            "nothing_wild": nothing_wild,
            "one_joker_per_deck": one_joker_per_deck,
            "no_packing": no_packing,
        }
        options = build_options(
            profile or settings.default_profile,
            seats,
            turn_timer or settings.turn_timer,
            declaration,
            toggles,
            deals,
            pool_limit,
            target_score,
            hints=parse_hints(hints) if hints else settings.hints,
            rated_needs_hints_off=settings.rated_hints_off,
        )
        options.invited = invited
        options.language = server_locale(interaction, settings.language)
        user = interaction.user
        table = await self.tables.lobby.create(
            interaction.guild_id, interaction.channel_id, user.id, user.display_name, options
        )
        embed = lobby_embed(
            options.rules(),
            [(user.display_name, False)],
            user.display_name,
            options.max_seats,
            options.turn_timer,
            invited=invited,
            hints=options.hints,
            rated=options.rated,
            locale=options.language,
        )
        response = await interaction.response.send_message(
            embed=embed, view=lobby_view(table.id, table.version, locale=options.language)
        )
        message_id = response.message_id
        if message_id is None:  # pragma: no cover - Discord always reports it
            message_id = (await interaction.original_response()).id
        table.message_id = message_id  # before any await: a quick Join must edit this message
        await self.tables.set_messages(table, message_id=message_id)

    @app_commands.command(name="join", description="Sit down at the table in this channel")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction[PapluBot]) -> None:
        table = self._table_here(interaction)
        await _ack(interaction)
        await self.tables.lobby.join(table, interaction.user.id, interaction.user.display_name)
        await send_private(interaction, text(user_locale(interaction), "done-joined"))

    @app_commands.command(name="leave", description="Leave the table (mid-game this is a drop)")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[PapluBot]) -> None:
        table = self._table_here(interaction)
        await _ack(interaction)
        left = await self.tables.lobby.leave(table, interaction.user.id)
        await interaction.followup.send(
            refusals.left_text(left, user_locale(interaction)), ephemeral=True
        )

    @app_commands.command(name="start", description="Start the game (host only)")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction[PapluBot]) -> None:
        table = self._table_here(interaction)
        await _ack(interaction)
        await self.tables.lobby.start(table, interaction.user.id)
        await interaction.followup.send(
            text(user_locale(interaction), "done-started"), ephemeral=True
        )

    @app_commands.command(name="cancel", description="Close the table (host or Manage Server)")
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction[PapluBot]) -> None:
        table = self._table_here(interaction)
        await _ack(interaction)
        await self.tables.lobby.cancel(table, interaction.user.id, _is_manager(interaction))
        await send_private(interaction, text(user_locale(interaction), "done-cancelled"))

    # ---- game commands --------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your cards (only you can see them)")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[PapluBot]) -> None:
        table = self._table_here(interaction)
        await self._open_hand(interaction, table)

    @app_commands.command(name="drop", description="Drop (pack) this deal, before drawing")
    @app_commands.guild_only()
    async def drop(self, interaction: discord.Interaction[PapluBot]) -> None:
        table = self._table_here(interaction)
        if table.status is TableStatus.PLAYING:
            self.tables.game.check_drop(table, interaction.user.id)
        await self._open_hand(interaction, table, confirm_drop=True)

    @app_commands.command(name="table", description="Show the table again at the bottom")
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction[PapluBot]) -> None:
        table = self._table_here(interaction)
        try:
            self.tables.game.claim_repost(table, interaction.user.id, _is_manager(interaction))
        except errors.SeatedOrManagerOnly:
            # A bystander may look, not move the table: they get their own copy of it.
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(
                ephemeral=True,
                **await self.presenter.table_for_bystander(table, user_locale(interaction)),
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.presenter.repost(table)
        await interaction.followup.send(
            text(user_locale(interaction), "done-table-below"), ephemeral=True
        )

    @app_commands.command(name="rules", description="The rules of a profile, from the engine")
    @app_commands.describe(profile="Which rules (default: this table's, or points)")
    @app_commands.choices(profile=PROFILE_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[PapluBot], profile: str | None = None
    ) -> None:
        if profile is None:
            here = self.tables.registry.here(interaction.channel_id or 0)
            rules = here.rules if here is not None else get_profile("points")
        else:
            rules = get_profile(profile)
        await send_private(interaction, rules_summary(rules, user_locale(interaction)))

    @app_commands.command(name="language", description="The language of your private messages")
    @app_commands.describe(language="Your Discord's language, or one you choose")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[PapluBot], language: str) -> None:
        """A player's own language for what only they see (hand views, refusals, help, the
        review); public messages follow the server. Stored, like the picture choice."""
        if language != "auto" and language not in catalogue().locales:
            raise UserError("error-unknown-language")  # a tampered client
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.languages.choose(
            interaction.user.id, None if language == "auto" else language
        )
        said = "language-auto" if language == "auto" else "language-chosen"
        await send_private(interaction, text(user_locale(interaction), said))

    @app_commands.command(name="help", description="How to play, and what the buttons do")
    async def help(self, interaction: discord.Interaction[PapluBot]) -> None:
        here = self.tables.registry.here(interaction.channel_id or 0)
        rules = here.rules if here is not None else get_profile("points")
        page = help_pages.PAGE_KEYS[0]
        await interaction.response.send_message(
            embed=help_pages.help_embed(page, rules, user_locale(interaction)),
            view=help_view(page, rules.name, user_locale(interaction)),
            ephemeral=True,
        )

    @app_commands.command(name="check", description="Rule on a hand: best arrangement, penalty")
    @app_commands.describe(
        hand="13 or 14 cards, e.g. 4H 5H 6H 9S 10S JK 7C 7D 7S AC 2C 3C 4C",
        indicator="The indicator (cut joker) card, e.g. 8D or JK",
        profile="Which rules",
    )
    @app_commands.choices(profile=PROFILE_CHOICES)
    async def check(
        self,
        interaction: discord.Interaction[PapluBot],
        hand: str,
        indicator: str,
        profile: str = "points",
    ) -> None:
        rules = get_profile(profile)
        try:
            cards = rules.parse_hand(hand)
            ind = Face.parse(indicator)
        except CardParseError as exc:
            detail = refusals.card_error_text(exc, user_locale(interaction))
            raise UserError("error-bad-card", detail=detail) from None
        if len(cards) not in (13, 14):
            raise UserError("error-hand-size", count=len(cards))
        await send_private(interaction, ruling_text(cards, rules, ind, user_locale(interaction)))

    # ---- components ---------------------------------------------------------------------------

    async def on_component(
        self, interaction: discord.Interaction[PapluBot], cid: ComponentId, values: list[str]
    ) -> None:
        """Every button and menu of the game arrives here (see `bot.discord_ui.components`)."""
        try:
            await self._component(interaction, cid, values)
        except Exception as exc:
            message = message_for(exc, user_locale(interaction))
            if message is not None and await self._show_hand_with(interaction, cid, message):
                return
            await answer_error(interaction, exc, cid)

    async def _component(
        self, interaction: discord.Interaction[PapluBot], cid: ComponentId, values: list[str]
    ) -> None:
        if cid.action == "review":
            await self._review(interaction, cid)
            return
        if cid.action == "again":
            await self._play_again(interaction, cid)
            return
        if cid.action == "hist":
            await self._hand_history(interaction, cid)
            return
        table = self.tables.registry.get(
            cid.table_id, guild_id=interaction.guild_id, channel_id=interaction.channel_id
        )
        user = interaction.user
        action = cid.action
        if action in ("join", "leave", "start", "cancel", "add_ai", "next", "host"):
            # These wait for the table's lock; acknowledge first so a busy table can never
            # make Discord show "This interaction failed".
            await _ack(interaction)
        if action == "join":
            await self.tables.lobby.join(table, user.id, user.display_name)
            await send_private(interaction, text(user_locale(interaction), "done-joined"))
        elif action == "leave":
            left = await self.tables.lobby.leave(table, user.id)
            await interaction.followup.send(
                refusals.left_text(left, user_locale(interaction)), ephemeral=True
            )
        elif action == "start":
            await self.tables.lobby.start(table, user.id)
            await interaction.followup.send(
                text(user_locale(interaction), "done-started"), ephemeral=True
            )
        elif action == "cancel":
            await self.tables.lobby.cancel(table, user.id, _is_manager(interaction))
            await send_private(interaction, text(user_locale(interaction), "done-cancelled"))
        elif action == "add_ai":
            tier = parse_tier(values[0] if values else "")  # a client can send any value
            added = await self.tables.lobby.add_ai(
                table, user.id, tier, ai_seat_name(tier, table.options.language)
            )
            await send_private(interaction, refusals.added_ai_text(added, user_locale(interaction)))
        elif action == "host":
            await self._host_tool(interaction, table, values[0] if values else "")
        elif action == "hand":
            await self._open_hand(interaction, table)
        elif action == "next":
            deal = int(cid.arg) if cid.arg.isdigit() else None  # results carry their deal
            voted = await self.tables.game.vote_next(table, user.id, deal)
            await send_private(interaction, refusals.voted_text(voted, user_locale(interaction)))
        else:
            await self._hand_action(interaction, table, cid, values)

    async def _host_tool(
        self, interaction: discord.Interaction[PapluBot], table: Table, value: str
    ) -> None:
        """The lobby's host menu: `remove:<seat>` or `host:<seat>` (a client can send
        anything: an unknown value is refused)."""
        what, _, key = value.partition(":")
        user_id = interaction.user.id
        if what == "remove" and key:
            removed = await self.tables.lobby.remove_seat(table, user_id, key)
            await send_private(
                interaction, refusals.seat_removed_text(removed, user_locale(interaction))
            )
        elif what == "host" and key:
            name = await self.tables.lobby.hand_host(table, user_id, key)
            await send_private(
                interaction, refusals.host_handed_text(name, user_locale(interaction))
            )
        else:
            raise errors.UnknownAction()

    async def _play_again(
        self, interaction: discord.Interaction[PapluBot], cid: ComponentId
    ) -> None:
        """ "Play again" on a match's final results: a new lobby with the same rules (its
        message is posted by the presenter), or a seat at the one already opened."""
        await _ack(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("error-server-channel-only")
        user = interaction.user
        _table, rematch = await self.tables.lobby.rematch(
            cid.table_id, interaction.guild_id, interaction.channel_id, user.id, user.display_name
        )
        await send_private(interaction, refusals.rematch_text(rematch, user_locale(interaction)))

    async def _review(self, interaction: discord.Interaction[PapluBot], cid: ComponentId) -> None:
        """ "Review my play": acknowledge privately at once (the analysis takes a moment, in a
        worker thread), then answer the clicking player only. Works after the next deal has
        started or the table closed, so it does not look the live table up."""
        await _ack(interaction)
        if not cid.arg.isdigit():
            raise errors.UnknownAction()
        outcome = await self.tables.reviews.review(
            cid.table_id,
            interaction.user.id,
            int(cid.arg),
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
        )
        await send_private(interaction, review_text(outcome.review, user_locale(interaction)))

    async def _hand_history(
        self, interaction: discord.Interaction[PapluBot], cid: ComponentId
    ) -> None:
        """ "Hand history" on a deal's results: the file, privately, to a player of that deal
        or a server manager (it shows every hand). Read from storage, so it works after the
        table closed or the bot restarted."""
        await _ack(interaction)
        if interaction.guild_id is None or not cid.arg.isdigit():
            raise errors.UnknownAction()
        deal_no = int(cid.arg)
        text = await self.tables.league.download_deal(
            interaction.guild_id,
            interaction.user.id,
            _is_manager(interaction),
            cid.table_id,
            deal_no,
        )
        file = discord.File(
            io.BytesIO(text.encode("utf-8")), filename=hand_history_filename(cid.table_id, deal_no)
        )
        await interaction.followup.send(
            hand_history_caption(cid.table_id, deal_no, user_locale(interaction)),
            file=file,
            ephemeral=True,
        )

    async def _hand_action(
        self,
        interaction: discord.Interaction[PapluBot],
        table: Table,
        cid: ComponentId,
        values: list[str],
    ) -> None:
        """Controls inside a private hand view: acknowledge first, then edit the view."""
        user_id = interaction.user.id
        seat = table.engine_seat(user_id)
        if cid.seat is not None and seat != cid.seat:
            raise errors.NotYourControls()
        await interaction.response.defer()
        note = None
        confirm_drop = False
        if cid.action == "sort":
            self.presenter.set_sort_by_suit(table, user_id, cid.arg == "suit")
        elif cid.action == "images":
            await self.presenter.set_card_images(user_id, cid.arg == "on")
        elif cid.action == "refresh":
            pass
        elif cid.action == "drop":
            if cid.version != table.version:
                raise errors.StaleView()
            confirm_drop = True
        elif cid.action in MOVE_ACTIONS:
            card = None
            raw = values[0] if values else cid.arg
            if cid.action in CARD_ACTIONS:
                if not raw.isdigit() or len(raw) > 4:
                    raise errors.ChooseCard()
                card = int(raw)
            kind = MOVE_ACTIONS[cid.action]
            played = await self.tables.game.act(table, user_id, cid.version, kind, card, cid.seat)
            note = refusals.played_text(played, user_locale(interaction))
        else:
            raise errors.UnknownAction()
        if table.status is not TableStatus.PLAYING or table.match is None:
            if table.match is not None and table.engine_seat(user_id) is not None:
                # The move ended the match: the player's hand as it ended, without controls.
                hand = await self.presenter.hand_message(
                    table, user_id, note, locale=user_locale(interaction)
                )
                await interaction.edit_original_response(**{**hand.edit_kwargs(), "view": None})
                return
            await interaction.edit_original_response(
                content=note or text(user_locale(interaction), "done-game-over"),
                embed=None,
                view=None,
                attachments=[],
            )
            return
        await self._edit_hand(interaction, table, note, confirm_drop)

    async def _edit_hand(
        self,
        interaction: discord.Interaction[PapluBot],
        table: Table,
        note: str | None,
        confirm_drop: bool = False,
    ) -> None:
        """Show the player's hand in the view they clicked (edited in place); the image is
        uploaded again only if it changed."""
        user_id = interaction.user.id
        shown = self.presenter.shown_on(table, user_id, interaction.message)
        # This edit shows the newest state: a table refresh meanwhile need not send it too.
        self.presenter.hand_editing(table, user_id, interaction.message)
        try:
            hand = await self.presenter.hand_message(
                table, user_id, note, confirm_drop, shown, locale=user_locale(interaction)
            )
            # From now on refreshes go through this interaction; until the edit lands its
            # image is unsure, so a refresh meanwhile of a newer state uploads rather than
            # trust it.
            await self.presenter.remember_hand(table, user_id, interaction, sending=hand.version)
            await interaction.edit_original_response(**hand.edit_kwargs())
        except BaseException:
            self.presenter.hand_edit_failed(table, user_id)  # refreshes go out again
            raise
        self.presenter.hand_shown(table, user_id, interaction, hand)

    async def _show_hand_with(
        self, interaction: discord.Interaction[PapluBot], cid: ComponentId, message: str
    ) -> bool:
        """In a player's own hand view, a refusal is shown above the hand as it is now (so a
        stale view heals itself); returns False where that does not apply."""
        table = self.tables.registry.by_id.get(cid.table_id)
        in_hand_view = cid.seat is not None and interaction.response.is_done()
        if not (
            in_hand_view
            and table is not None
            and table.status is TableStatus.PLAYING
            and table.engine_seat(interaction.user.id) == cid.seat
        ):
            return False
        try:
            await self._edit_hand(interaction, table, f"⚠️ {message}")
        except (errors.Refusal, discord.HTTPException):
            return False
        return True

    async def _open_hand(
        self, interaction: discord.Interaction[PapluBot], table: Table, confirm_drop: bool = False
    ) -> None:
        if table.status is TableStatus.LOBBY:
            raise errors.NotStarted()
        if table.engine_seat(interaction.user.id) is None:
            raise errors.NotPlaying()
        user_id = interaction.user.id
        # A click on the table's own public message lends its token to the table's edits
        # (`table_hooks`): acknowledged as a deferred update, which changes nothing anyone
        # sees, and the hand follows as an ephemeral follow-up.
        clicked = interaction.message.id if interaction.message is not None else None
        lent = clicked if clicked is not None and clicked == table.message_id else None
        # Acknowledge first: the view waits for its picture, and when many players open their
        # hands at once (a burst of tables starting) pictures queue for the drawing process.
        if lent is not None:
            await interaction.response.defer()
            self.presenter.hooks.lend(table.id, interaction, lent)
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        note = None
        if (table.guild_id, user_id) not in self._played:
            if await self.tables.league.has_played(table.guild_id, user_id):
                self._played.add((table.guild_id, user_id))
            else:
                note = help_pages.first_time(user_locale(interaction))
        hand = await self.presenter.hand_message(
            table, user_id, note, confirm_drop=confirm_drop, locale=user_locale(interaction)
        )
        if lent is not None:
            self.presenter.hooks.used(interaction)
            sent = await interaction.followup.send(ephemeral=True, wait=True, **hand.send_kwargs())
            await self.presenter.remember_hand(
                table, user_id, interaction, hand, sent.id, followup=True
            )
            return
        message = await interaction.edit_original_response(**hand.edit_kwargs())
        await self.presenter.remember_hand(table, user_id, interaction, hand, message.id)

    def _table_here(self, interaction: discord.Interaction[PapluBot]) -> Table:
        if interaction.channel_id is None:
            raise UserError("error-server-channel-only")
        return self.tables.registry.in_channel(interaction.channel_id)


async def _ack(interaction: discord.Interaction[PapluBot]) -> None:
    """Acknowledge privately before waiting on anything; the answer follows as a followup."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


_MENTION = re.compile(r"<@!?(\d{15,20})>")


def _mentioned(text: str) -> tuple[int, ...]:
    """The users a `/rummy new invite:` option mentions, in order, once each."""
    ids = tuple(dict.fromkeys(int(m) for m in _MENTION.findall(text)))
    if not ids:
        raise UserError("error-invite-mentions")
    return ids


def _is_manager(interaction: discord.Interaction[PapluBot]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def setup(bot: PapluBot) -> None:
    await bot.add_cog(Rummy(bot))
