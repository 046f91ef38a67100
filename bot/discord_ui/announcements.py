"""What the table says to the channel: the turn's ping and warning, and each deal's results.

The ping mentions the player on turn once; with fifteen seconds left the same message is
edited into the warning (Discord notifies the mentions of a new message, never of an edit, so
the player gets one notification a turn, and whoever opens the channel reads the newest word).
When this process is short of its request budget, a player who is watching their own hand view
(which says "Your turn" by itself, refreshed through the interaction webhook) gets no ping.

A deal's results are one message: every hand revealed, each charge and the standings, its
picture, and its buttons ("Next deal" while the next deal waits; the review, the hand history,
"Play again" at the end). Posted once, two ways:

* every attempt at posting one deal's results carries the same message nonce, with Discord's
  `enforce_nonce` (`results_nonce`): a POST retried after its first attempt reached Discord but
  its answer was lost (a timeout, a reset connection, a 5xx on the way back) gets the message
  already posted instead of a second one, for as long as Discord remembers the nonce ("a few
  minutes");
* a run that posted them and stopped before marking them posted (or a retry later than that)
  finds them in the channel before posting (`again`), reading forward from the moment the deal
  ended (its outbox row's time) rather than back from now, so members' messages posted since
  do not hide them.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.events import Event, TimedOut, WrongShow
from bot.engine.match import MatchPhase
from bot.images import results_picture
from bot.storage import Storage
from bot.table.listener import CloseReason
from bot.table.messages import remember_messages
from bot.table.model import Table, standings
from bot.table.vocabulary import TableStatus
from bot.words import text
from bot.words.pictures import captions

from .budget import HEADROOM, RestBudget
from .card_images import ImagePreferences, ImageWorker, as_file, show_in
from .hands import HandViews
from .placement import URGENT, Placement
from .screens.results import (
    next_deal_started,
    next_deal_view,
    past_results_view,
    result_embed,
    results_key,
    results_view,
    standings_lines,
)
from .screens.table import prompt_view, turn_ping, turn_warning_text
from .table_message import TableMessage

if TYPE_CHECKING:
    from .client import PapluBot

log = logging.getLogger(__name__)

#: How many recent channel messages are searched for results a stopped run left (their
#: "Next deal" button), when the deal's end is not known.
RESULTS_LOOKBACK = 50
#: How many channel messages from a deal's end on are searched for its results (`again`).
RESULTS_LOOKAHEAD = 200
#: Seconds read before a deal's end, for a clock here a little ahead of Discord's.
CLOCK_MARGIN = 120.0


def results_nonce(table_id: str, number: int) -> int:
    """The nonce of one deal's results message: the same at every attempt, in every process,
    and no other message's (a table id is never reused; a rematch is a new table). 63 bits:
    at most 19 digits, within Discord's 25 characters."""
    digest = hashlib.blake2b(f"results:{table_id}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def results_title(language: str) -> re.Pattern[str]:
    """A results message's embed title in the table's language, its deal number captured."""
    shown = re.escape(text(language, "results-title", deal="\x00"))
    return re.compile(shown.replace("\x00", r"(\d+)"))


class Announcements:
    def __init__(
        self,
        client: PapluBot | discord.Client,
        storage: Storage,
        budget: RestBudget,
        placement: Placement,
        table_message: TableMessage,
        hands: HandViews,
        images: ImageWorker,
        prefs: ImagePreferences,
        next_deal_delay: float,
    ) -> None:
        self.client = client
        self.storage = storage
        self.budget = budget
        self.placement = placement
        self.table_message = table_message
        self.hands = hands
        self.images = images
        self.prefs = prefs
        self.next_deal_delay = next_deal_delay
        self._warnings: dict[str, tuple[int, list[int]]] = {}  # table -> (message, turn)
        # Results messages with a live "Next deal" button, by table: message id -> deal.
        self._results: dict[str, dict[int, int]] = {}
        # Tables whose results messages this process knows: it posted them, or looked for
        # them in the channel once (a table it restored or took over).
        self._seen: set[str] = set()

    # ---- the turn ------------------------------------------------------------------------

    async def turn_started(self, table: Table) -> None:
        turn = table.current_turn()
        if turn is None:
            return
        seat = table.seat_info(turn)
        if seat.user_id is None:
            return
        # The player's open hand view shows the controls before the ping can send them there.
        await self.hands.refresh(table, seat.user_id)
        await self.placement.home(table)
        await self.delete_prompt(table)
        if self.hands.watching(table, seat.user_id) and self.budget.stretch() > 1:
            # Short of budget: their own view (refreshed above, through the interaction
            # webhook) already says "Your turn"; the 15-second warning, with no ping to edit,
            # is then this turn's one mention.
            return
        language = table.options.language
        content = turn_ping(f"<@{seat.user_id}>", table.deadline, language)
        marker = list(table.turn_marker or [])
        try:
            msg = await self.placement.send(
                table,
                # A ping that waited for the channel's posts is dropped if the turn passed
                # meanwhile: the next turn's own ping says what is true now.
                still=lambda: list(table.turn_marker or []) == marker,
                content=content,
                view=prompt_view(table.id, table.version, language),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException:
            log.warning("could not post the turn prompt for table %s", table.id)
            return
        if msg is not None:
            await remember_messages(self.storage, table, prompt_id=msg.id)

    async def turn_warning(self, table: Table) -> None:
        """Fifteen seconds left, said on the turn's ping: that message is edited in place
        (one notification a turn, see the module's docstring). When the turn has no ping to
        edit (skipped while the player watched their own view with the budget short, or
        deleted), the warning is posted with the mention: it is then the turn's only one."""
        turn = table.current_turn()
        if turn is None:
            return
        seat = table.seat_info(turn)
        if seat.user_id is None:
            return
        warning = turn_warning_text(f"<@{seat.user_id}>", table.options.language)
        mention = discord.AllowedMentions(users=True)  # keeps the ping's mention on the edit
        channel = await self.placement.home(table)
        if table.prompt_message_id is not None:
            await self.budget.slot(URGENT, "PATCH", table.home_id)
            try:
                await channel.get_partial_message(table.prompt_message_id).edit(
                    content=warning, allowed_mentions=mention
                )
                return
            except discord.NotFound:
                await remember_messages(self.storage, table, prompt_id=None)
            except discord.HTTPException:
                log.warning("could not edit the turn prompt of table %s", table.id)
                return  # the ping stands: a new mention would be a second one
        await self.delete_warning(table)
        marker = list(table.turn_marker or [])
        try:
            msg = await self.placement.send(
                table,
                still=lambda: list(table.turn_marker or []) == marker,
                content=warning,
                allowed_mentions=mention,
            )
        except discord.HTTPException:
            log.warning("could not post the turn warning for table %s", table.id)
            return
        if msg is not None:
            self._warnings[table.id] = (msg.id, marker)

    async def delete_warning(self, table: Table, *, unless_turn: list[int] | None = None) -> None:
        warning = self._warnings.get(table.id)
        if warning is None or (unless_turn is not None and warning[1] == unless_turn):
            return
        del self._warnings[table.id]
        await self.budget.slot(URGENT, "DELETE", table.home_id)
        with contextlib.suppress(discord.HTTPException):
            await self.placement.channel(table).get_partial_message(warning[0]).delete()

    async def delete_prompt(self, table: Table) -> None:
        await self.delete_warning(table)
        if table.prompt_message_id is None:
            return
        await self.budget.slot(URGENT, "DELETE", table.home_id)
        with contextlib.suppress(discord.HTTPException):
            await (
                self.placement.channel(table).get_partial_message(table.prompt_message_id).delete()
            )
        await remember_messages(self.storage, table, prompt_id=None)

    # ---- a deal's results ----------------------------------------------------------------

    async def deal_finished(self, table: Table, number: int, *, again: bool = False) -> None:
        """Post a deal's results; raises if Discord refused (the table layer retries).
        ``again``: a run that stopped may have posted them already: look first."""
        m = table.match
        if m is None:
            return
        await self.delete_prompt(table)
        finished = m.finished_deal()
        if finished is None or finished.result.number != number:
            return
        over = m.phase is MatchPhase.OVER
        winners = [m.players[s].name for s in m.winners]
        wild_rank = m.deal.wild_rank if m.deal is not None else None
        events = m.deal.events if m.deal is not None else []
        language = table.options.language
        embed = result_embed(
            finished,
            table.names,
            standings_lines(standings(m), m.score_kind, language),
            over,
            winners,
            m.score_kind,
            wild_rank,
            m.rules,
            _wrong_shows(events),
            table.id,
            _timed_out_drops(events),
            hints=table.options.hints,
            rated=table.options.rated,
            locale=language,
        )
        # The hand history is one click away ("Hand history", for the deal's players and
        # managers): it shows every hand, dropped ones too, so it is not posted to all.
        files: list[discord.File] = []
        if await self.prefs.server_default(table.guild_id):
            words = captions(language)
            image = await self.images.run(results_picture(finished.history, words=words))
            show_in(embed, image.filename)
            files.insert(0, as_file(image, text(language, "results-picture")))
        kwargs: dict[str, Any] = {"embed": embed, "files": files}
        if over:
            kwargs["view"] = results_view(
                table.id, table.version, number, language, again=table.tournament is None
            )
        else:
            kwargs["view"] = next_deal_view(table.id, table.version, number, language)
            kwargs["content"] = text(
                language, "results-next-deal", seconds=int(self.next_deal_delay)
            )
        kwargs["nonce"] = results_nonce(table.id, number)  # sent with enforce_nonce
        await self.placement.home(table)
        if again:
            posted = await self._posted_results(table, since=await self._ended_at(table, number))
            if number in posted.values() or any(
                n == number for n in self._results.get(table.id, {}).values()
            ):
                log.info("deal %s of table %s was posted before the restart", number, table.id)
                return
        await self.budget.slot(URGENT, "POST", table.home_id)
        try:
            msg = await self.placement.channel(table).send(**kwargs)
        except discord.HTTPException as exc:
            await self.placement.failed(table, exc)  # the table layer posts them again
            raise
        if not over:
            self._results.setdefault(table.id, {})[msg.id] = number
            self.table_message.bury(table.id)
        await self.placement.show_lobby(table)

    async def retire_results(self, table: Table, final: CloseReason | None) -> None:
        """Take the "Next deal" button off every results message whose vote is over: the
        deal after it has begun (its text then says so) or the table closed (then it says
        nothing of a next deal). One edit per message, once: it is forgotten before the
        edit, whatever the answer. A table this process did not open (restored after a
        restart, or taken over) is looked for in the channel first, once, so that no button
        a stopped run left stays live."""
        if table.id not in self._seen:
            self._seen.add(table.id)
            if table.match is not None and table.match.results:
                await self._posted_results(table)
        pending = self._results.get(table.id)
        m = table.match
        if not pending or m is None:
            return
        waiting = final is None and table.status is TableStatus.PLAYING and table.between_deals
        language = table.options.language
        for message_id, number in list(pending.items()):
            if waiting and number == len(m.results):
                continue  # the vote this button belongs to is still open
            del pending[message_id]
            started = m.deal is not None and m.deal.number > number
            await self.budget.slot(HEADROOM, "PATCH", table.home_id)
            try:
                await (
                    self.placement.channel(table)
                    .get_partial_message(message_id)
                    .edit(
                        content=next_deal_started(number + 1, language) if started else None,
                        view=past_results_view(table.id, table.version, number, language),
                    )
                )
            except discord.HTTPException:
                log.warning("could not retire results %s of table %s", number, table.id)

    def forget(self, table_id: str) -> None:
        self._warnings.pop(table_id, None)
        self._results.pop(table_id, None)
        self._seen.discard(table_id)

    async def _ended_at(self, table: Table, number: int) -> float | None:
        """When this deal's results were made due (its outbox row's time), if still pending."""
        try:
            rows = await self.storage.outbox.pending_announcements(table.id)
        except Exception:
            log.warning("could not read the outbox of table %s", table.id, exc_info=True)
            return None
        return next(
            (r.created_at for r in rows if r.kind == "deal_results" and r.deal_no == number),
            None,
        )

    async def _posted_results(self, table: Table, since: float | None = None) -> dict[int, int]:
        """This table's results messages in the channel, message id -> deal (a run that
        posted them and stopped before marking them, or before taking their button away):
        from `since` (a time) on, oldest first, when it is known, else the recent history.
        Those still showing a live "Next deal" are remembered, so that the one edit that
        retires them is made by this process. Looks at the bot's messages for a deal's title
        and the table's mark in the footer."""
        me = self.client.user
        key = results_key(table.id, table.options.language)
        title_of = results_title(table.options.language)
        found: dict[int, int] = {}
        if since is None:
            messages = self.placement.channel(table).history(limit=RESULTS_LOOKBACK)
        else:
            start = datetime.fromtimestamp(since - CLOCK_MARGIN, tz=UTC)
            messages = self.placement.channel(table).history(
                limit=RESULTS_LOOKAHEAD,
                after=discord.Object(discord.utils.time_snowflake(start)),
                oldest_first=True,
            )
        try:
            async for msg in messages:
                if me is not None and msg.author.id != me.id:
                    continue
                for embed in msg.embeds:
                    title = title_of.fullmatch(embed.title or "")
                    if title is None or not (embed.footer.text or "").endswith(key):
                        continue
                    found[msg.id] = int(title[1])
                    if _next_deal_live(msg):
                        self._results.setdefault(table.id, {})[msg.id] = int(title[1])
        except discord.HTTPException:
            log.warning("could not read the channel of table %s to look for results", table.id)
        return found


def _next_deal_live(msg: discord.Message) -> bool:
    """Does this message still offer a live "Next deal" (its custom id's action is next)?"""
    return any(
        isinstance(item, discord.Button) and not item.disabled and ":next" in (item.custom_id or "")
        for row in msg.components
        if isinstance(row, discord.ActionRow)
        for item in row.children
    )


def _timed_out_drops(events: Sequence[Event]) -> dict[int, int]:
    """Seats the bot dropped for running out of time, with how many timeouts in a row."""
    return {e.seat: e.count for e in events if isinstance(e, TimedOut) and e.dropped}


def _wrong_shows(events: Sequence[Event]) -> dict[int, WrongShow]:
    return {e.seat: e for e in events if isinstance(e, WrongShow)}
