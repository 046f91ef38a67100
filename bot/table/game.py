"""The game's use cases for players: a move, a vote for the next deal, and the checks the
Discord side asks before offering a control (may I drop, may I re-post the table)."""

from __future__ import annotations

from bot.engine.actions import Action, ActionKind
from bot.engine.match import MatchPhase

from . import errors
from .context import TableContext
from .errors import DropReason
from .events import Moved, NextDeal
from .model import Table
from .moves import all_ready, apply_action, card_of, played, start_next_deal, won_by
from .outcomes import Played, Voted
from .vocabulary import TableStatus

#: Seconds between two re-posts of one table's message (`/rummy table`).
REPOST_INTERVAL = 30.0

#: The moves a player makes with the controls of their hand view.
PLAYER_MOVES = frozenset(
    {
        ActionKind.DRAW_STOCK,
        ActionKind.TAKE_DISCARD,
        ActionKind.DISCARD,
        ActionKind.DECLARE,
        ActionKind.DROP,
    }
)


class Game:
    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx
        self._reposted: dict[str, float] = {}  # table id -> when its message was last re-posted

    async def act(
        self,
        table: Table,
        user_id: int,
        version: int | None,
        kind: ActionKind,
        card: int | None = None,
        owner_seat: int | None = None,
    ) -> Played:
        """One game move by a user. ``version`` is the table version the control was drawn
        for (None: a slash command, which acts on the table as it is); ``owner_seat`` the
        seat whose hand view the control is in. A declaration without a card is a hand
        rummy (declaring the 13 cards held, before drawing)."""
        if kind not in PLAYER_MOVES:
            raise errors.UnknownAction()
        if kind is ActionKind.DISCARD and card is None:
            raise errors.ChooseCard()
        async with self.ctx.unit.change(table) as ch:
            work = ch.work
            m = work.match
            if work.status is not TableStatus.PLAYING or m is None:
                raise errors.NotStarted()
            seat = work.engine_seat(user_id)
            if seat is None:
                raise errors.NotPlaying()
            if owner_seat is not None and owner_seat != seat:
                raise errors.NotYourControls()
            if version is not None and version != work.version:
                raise errors.StaleView()
            action = Action(kind, seat, card)
            deal = m.deal
            top = deal.pile[-1] if deal is not None and deal.pile else None
            hand_before = {c.id for c in deal.hands[seat]} if deal is not None else set()
            concerned = card_of(m, action)
            cost = m.drop_cost(seat)
            apply_action(work, action, self.ctx.clock.now())
            work.timeouts[m.players[seat].id] = 0
            declared = won_by(work, seat)
            ch.event = Moved(user_id, action)
            outcome = played(work, seat, action, hand_before, top, concerned, cost, declared)
        return outcome

    async def vote_next(self, table: Table, user_id: int, deal: int | None = None) -> Voted:
        """A vote for the next deal. `deal`: the finished deal whose results carried the
        button (None: the table message's button, always the current one); a button of an
        earlier deal is refused, so a stale one never counts for a later break."""
        async with self.ctx.unit.change(table) as ch:
            work = ch.work
            m = work.match
            waiting = m is not None and m.phase is MatchPhase.BETWEEN_DEALS
            if m is not None and deal is not None and (not waiting or deal != len(m.results)):
                raise errors.OldNextDeal(deal)
            if m is None or not waiting:
                raise errors.NoDealWaiting()
            seat = work.engine_seat(user_id)
            if seat is None or seat not in m.in_play:
                raise errors.NotInMatch()
            key = m.players[seat].id
            if key in work.next_votes:
                return Voted(started=False, already=True)
            work.next_votes.append(key)
            ready = all_ready(work) and not work.held  # held: a paused tournament
            if ready:
                start_next_deal(work, self.ctx.clock.now())
            ch.event = NextDeal(user_id)
        return Voted(started=ready)

    def check_hand(self, table: Table, user_id: int) -> None:
        """Why this user cannot be shown a hand at this table, as a refusal (or nothing):
        the match has not started, or they hold no seat in it."""
        if table.status is TableStatus.LOBBY:
            raise errors.NotStarted()
        if table.engine_seat(user_id) is None:
            raise errors.NotPlaying()

    def check_drop(self, table: Table, user_id: int) -> None:
        """Why `/rummy drop` cannot be offered right now, as a refusal (or nothing)."""
        obs = table.observation_for(user_id)
        if obs.may_drop:
            return
        if not obs.rules.packing_allowed:
            raise errors.DropNotAllowed(DropReason.RULES)
        if not obs.hand:
            raise errors.DropNotAllowed(DropReason.OUT)
        if not obs.my_turn:
            raise errors.DropNotAllowed(DropReason.TURN)
        raise errors.DropNotAllowed(DropReason.DRAWN)

    def claim_repost(self, table: Table, user_id: int, is_manager: bool) -> None:
        """May this user have the table message posted again at the bottom of the channel?
        Only players and managers, and not more than once per `REPOST_INTERVAL` per table (a
        re-post deletes the old message: a bystander must not be able to spam or hide it)."""
        if table.seat_by_user(user_id) is None and not is_manager:
            raise errors.SeatedOrManagerOnly()
        now = self.ctx.clock.now()
        last = self._reposted.get(table.id)
        if last is not None and now - last < REPOST_INTERVAL:
            raise errors.TooSoon(int(REPOST_INTERVAL - (now - last)) + 1)
        self._reposted[table.id] = now

    def forget(self, table_id: str) -> None:
        self._reposted.pop(table_id, None)
