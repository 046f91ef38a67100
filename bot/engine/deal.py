"""One deal: from the shuffle to the last discard, as a state machine.

A deal knows nothing about matches, chips or Discord. It holds where every physical card is
(hands, stock, discard pile, the indicator, cards set aside by packs), whose turn it is and in
which phase, and it accepts or refuses one `Action` at a time. Settlement (who pays what) is in
`settlement.py`; the match wraps deals in `match.py`.

Turns (docs/rules.md, "A turn"): a turn starts in the DRAW phase. The player either draws (the
top stock card or the top discard) and moves to the DISCARD phase, or packs (drops), or, on a
first turn where the rules allow it, declares the dealt 13 ("hand rummy"). In the DISCARD phase
the player throws one card (never the physical card just taken from the pile) or declares by
throwing it and showing the other 13. When a turn ends with the stock empty, the profile decides:
the deal is void, or the discard pile except its top card is shuffled into a new stock.

Every change is preceded by complete validation, so a refused action leaves no trace. Every
accepted change is recorded as a typed event (`events.py`) in `Deal.events`, the single record
of what happened: the accepted actions (`Deal.actions`), the discard pile's history and the hand
history are all read from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, ActionKind
from .cards import Card
from .errors import (
    BadArrangement,
    CannotDiscardTakenCard,
    CardNotInHand,
    EmptyPile,
    HandRummyNotAllowed,
    InvalidDeclarationError,
    NotYourTurn,
    PackingNotAllowed,
    PhaseReason,
    SeatNotActive,
    UnknownSeat,
    WrongPhase,
)
from .evaluate import DrawnEvaluation, Evaluation, evaluate_drawn, evaluate_hand
from .events import (
    DealEnded,
    Dealt,
    Declared,
    Discarded,
    Drew,
    Dropped,
    Event,
    Left,
    Reshuffled,
    TimedOut,
    Took,
    Voided,
    WrongShow,
    from_row,
    to_row,
)
from .fairness import HAND_SIZE as HAND_SIZE
from .fairness import commit, deal_cards, new_salt
from .fairness import make_rng as make_rng
from .groups import check_arrangement
from .quickcheck import may_declare
from .rules import DeclarationMode, HandRummy, InvalidDeclaration, Rules, StockExhausted
from .states import EndReason as EndReason
from .states import OutReason as OutReason
from .states import Phase as Phase
from .states import SeatStatus as SeatStatus


@dataclass(slots=True)
class PileEntry:
    """One card thrown onto the discard pile: who threw it, who (if anyone) took it back out,
    and whether it was shuffled into a new stock. Public knowledge at the table."""

    card: Card
    by: int | None  # None for the opening discard
    taken_by: int | None = None
    recycled: bool = False


class Deal:
    """The state of one deal. Create with `Deal.start(...)`; change only through `apply`."""

    def __init__(
        self, rules: Rules, seats: Sequence[int], dealer: int, seed: int | None, number: int = 1
    ) -> None:
        if len(seats) < 2:
            raise ValueError("a deal needs at least two players")
        if dealer not in seats:
            raise ValueError("the dealer must be one of the seats")
        self.rules = rules
        self.seats: tuple[int, ...] = tuple(seats)
        self.dealer = dealer
        self.seed = seed
        self.number = number  # 1-based number of the deal in its match (for the record)
        self.deck: tuple[Card, ...] = tuple(rules.build_deck(len(self.seats)))
        self.order: list[int] = []  # shuffled deck, top card first (for the hand history)
        # The secret of the shuffle commitment (fairness.py): saved in the live state so a
        # restarted bot keeps the commitment it showed, revealed only by the hand history.
        # None for a deal saved before commitments existed.
        self.salt: str | None = None
        self._commitment: tuple[tuple[str, int], str] | None = None  # (salt, size) -> digest
        self.indicator: Card | None = None
        self.hands: dict[int, list[Card]] = {s: [] for s in self.seats}
        self.dealt: dict[int, list[Card]] = {}
        self.stock: list[Card] = []  # top of the stock is the END of the list
        self.pile: list[Card] = []  # top of the discard pile is the END of the list
        self.pile_log: list[PileEntry] = []
        self.set_aside: list[Card] = []
        self.status: dict[int, SeatStatus] = {s: SeatStatus.ACTIVE for s in self.seats}
        self.out_reason: dict[int, OutReason] = {}
        self.turns_taken: dict[int, int] = {s: 0 for s in self.seats}
        self.turn: int = dealer
        self.phase = Phase.DRAW
        self.taken: Card | None = None  # the physical card just taken from the discard pile
        self.events: list[Event] = []
        self.end: EndReason | None = None
        self.winner: int | None = None
        self.winner_first_turn = False  # declared on their own first drawn turn
        self.shown: dict[int, list[list[int]]] = {}  # player's own grouping, when given
        self.randomness_used = 0
        self._auto = False  # the action being applied is played for a timed-out seat
        self._drawn_cache: tuple[int, DrawnEvaluation | None] | None = None
        # Replays of an unseeded deal only (`replay.py`): the orders its reshuffles were
        # recorded in (card codes, top first), used in turn instead of new randomness. Not
        # saved: a live deal never has any.
        self.recorded_reshuffles: list[list[str]] = []
        # `to_row` of the first events, in order (the events only ever grow: `_log`), so the
        # state saved on every move converts only the new ones (`to_dict`).
        self._rows: list[list[Any] | str] = []

    # ---- setup ------------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: Rules,
        seats: Sequence[int],
        dealer: int,
        seed: int | None,
        number: int = 1,
        *,
        order: Sequence[int] | None = None,
        salt: str | None = None,
    ) -> Deal:
        """Shuffle, deal 13 each from the dealer's right, expose the indicator and the opening
        discard; the rest is the stock. The player on the dealer's right plays first.

        `order` (card ids, top first) and `salt` replay a deal that was already shuffled, seeded
        or not: its recorded order is laid out instead of a new shuffle (`Deal.order` of the
        original, see `bot.ai.review`)."""
        deal = cls(rules, seats, dealer, seed, number)
        cards = list(deal.deck)
        if order is None:
            make_rng(seed, "shuffle").shuffle(cards)
        else:
            if sorted(order) != sorted(c.id for c in cards):
                raise ValueError("the order given is not a permutation of this deal's deck")
            cards = [deal.card(i) for i in order]
        deal.order = [c.id for c in cards]
        deal.salt = new_salt(seed) if salt is None else salt
        rest = deal._deal_out()
        for s, h in deal.dealt.items():
            deal.hands[s] = list(h)
        deal.pile.append(deal.pile_log[0].card)
        deal.stock = rest
        deal.stock.reverse()
        deal.turn = deal.next_seat(dealer, active_only=False)
        deal.events.append(Dealt(dealer, number))
        return deal

    def _deal_out(self) -> list[Card]:
        """Deal `self.order` as the dealer does (`fairness.deal_cards`, the same dealing a
        verifier redoes): `dealt`, the indicator and the opening discard (as the first pile
        entry) are set; returns the rest of the deck, top first. Used by `start` and, since all
        of it follows from the order, when a saved deal is read back."""
        dealing = deal_cards(
            [self.card(i) for i in self.order], self.seats, self.dealer, not self.rules.nothing_wild
        )
        self.dealt = dealing.hands
        self.indicator = dealing.indicator
        self.pile_log = [PileEntry(dealing.opening, None)]
        return dealing.rest

    @property
    def commitment(self) -> str | None:
        """SHA-256 of the shuffled order and the salt (`fairness.commit`): public from the
        deal's start; None for a deal saved before commitments existed."""
        if self.salt is None:
            return None
        # Hashed once per deal: every observation names it, and the order never changes.
        key = (self.salt, len(self.order))
        if self._commitment is None or self._commitment[0] != key:
            self._commitment = (key, commit([self.card(i) for i in self.order], self.salt))
        return self._commitment[1]

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seats: Sequence[int],
        dealer: int,
        seed: int | None,
        actions: Sequence[Action],
        number: int = 1,
    ) -> Deal:
        """Rebuild a seeded deal from its accepted actions (audits, bug reports, tests)."""
        deal = cls.start(rules, seats, dealer, seed, number)
        for a in actions:
            deal.apply(a)
        return deal

    def stack_stock(self, card_id: int) -> None:
        """For replays only: put the physical card `card_id`, which is somewhere in the stock,
        on its top. A replay of an unseeded deal cannot redo the shuffles made during the deal
        (a first drop's cards shuffled under the stock, a reshuffled pile), but the deal's
        `Drew` events record what each stock draw gave: stacking that card before the draw
        replays the deal exactly. Only the hidden order of the stock changes."""
        i = next((k for k, c in enumerate(self.stock) if c.id == card_id), None)
        if i is None:
            raise ValueError(f"card {card_id} is not in the stock")
        self.stock.append(self.stock.pop(i))

    def record_timeout(self, seat: int, count: int, dropped: bool) -> None:
        """Record that `seat`, on turn, ran out of time for the `count`-th turn in a row (the
        moves the table then makes for it are applied with `auto=True`). `Match.apply_timeout`
        records a live timeout through here, and a replay of a hand history its `timeout`
        events, so both record the same event."""
        if self.over or seat != self.turn:
            raise WrongPhase(PhaseReason.TIMEOUT_NOT_ON_TURN)
        self._log(TimedOut(seat, count, dropped))

    # ---- table geometry ---------------------------------------------------------------------

    def next_seat(self, seat: int, active_only: bool = True) -> int:
        """The seat to the right (next in table order), skipping seats no longer playing."""
        i = self.seats.index(seat)
        for k in range(1, len(self.seats) + 1):
            s = self.seats[(i + k) % len(self.seats)]
            if not active_only or self.status[s] is SeatStatus.ACTIVE:
                return s
        return seat

    def play_order_from(self, first: int) -> list[int]:
        i = self.seats.index(first)
        return [self.seats[(i + k) % len(self.seats)] for k in range(len(self.seats))]

    @property
    def wild_rank(self) -> int | None:
        return self.rules.wild_rank(None if self.indicator is None else self.indicator.face)

    @property
    def active(self) -> list[int]:
        return [s for s in self.seats if self.status[s] is SeatStatus.ACTIVE]

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def card(self, card_id: int) -> Card:
        return self.deck[card_id]

    def drop_reason(self, seat: int) -> OutReason:
        """What packing now would count as: first drop before the seat ever drew, else middle."""
        return OutReason.FIRST_DROP if self.turns_taken[seat] == 0 else OutReason.MIDDLE_DROP

    def drop_cost(self, seat: int) -> int:
        if self.drop_reason(seat) is OutReason.FIRST_DROP:
            return self.rules.first_drop
        return self.rules.middle_drop

    # ---- evaluation helpers -----------------------------------------------------------------

    def drawn_evaluation(self) -> DrawnEvaluation | None:
        """The evaluator's ruling on the 14 cards of the player on turn (cached for the turn);
        None when a cheap check proves no declaration is possible."""
        key = len(self.events)
        if self._drawn_cache is not None and self._drawn_cache[0] == key:
            return self._drawn_cache[1]
        hand = self.hands[self.turn]
        result: DrawnEvaluation | None = None
        if may_declare(hand, self.rules, self.wild_rank, spare=1):
            result = evaluate_drawn(hand, self.rules, self.wild_rank, forbidden=self.taken)
        self._drawn_cache = (key, result)
        return result

    def winning_discards(self) -> list[Card]:
        """Physical cards the player on turn may throw to declare validly (assisted mode)."""
        ev = self.drawn_evaluation()
        if ev is None or not ev.declarable:
            return []
        hand = self.hands[self.turn]
        out: list[Card] = []
        for c in ev.winning_discards:
            if self.taken is not None and c.id == self.taken.id:
                twin = next((x for x in hand if x.face == c.face and x.id != c.id), None)
                if twin is None:
                    continue
                c = twin
            out.append(c)
        return out

    def hand_rummy_valid(self, seat: int) -> bool:
        hand = self.hands[seat]
        if not may_declare(hand, self.rules, self.wild_rank, spare=0):
            return False
        return evaluate_hand(hand, self.rules, self.wild_rank).valid

    def can_hand_rummy(self, seat: int) -> bool:
        """Hand rummy may be attempted: allowed by the rules, at this seat's first turn."""
        return (
            self.rules.hand_rummy is not HandRummy.NOT_ALLOWED
            and self.phase is Phase.DRAW
            and self.turn == seat
            and self.turns_taken[seat] == 0
        )

    # ---- legal actions ----------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """Every game move `seat` may make now (LEAVE is always possible and not listed).

        In assisted mode Declare appears only with discards the engine has verified; in honor
        mode any discard may be declared and the engine judges the show afterwards.
        """
        if self.over or seat != self.turn or self.status.get(seat) is not SeatStatus.ACTIVE:
            return []
        honor = self.rules.declaration_mode is DeclarationMode.HONOR
        out: list[Action] = []
        if self.phase is Phase.DRAW:
            if self.stock:
                out.append(Action.draw_stock(seat))
            if self.pile:
                out.append(Action.take_discard(seat))
            if self.rules.packing_allowed:
                out.append(Action.drop(seat))
            if self.can_hand_rummy(seat) and (honor or self.hand_rummy_valid(seat)):
                out.append(Action.declare(seat, None))
            return out
        hand = self.hands[seat]
        for c in hand:
            if self.taken is None or c.id != self.taken.id:
                out.append(Action.discard(seat, c.id))
        if honor:
            out.extend(Action.declare(seat, a.card) for a in list(out))
        else:
            out.extend(Action.declare(seat, c.id) for c in self.winning_discards())
        return out

    # ---- applying actions -------------------------------------------------------------------

    @property
    def actions(self) -> list[Action]:
        """The accepted actions in order, read from the events (for replays and audits)."""
        out: list[Action] = []
        for e in self.events:
            match e:
                case Drew(seat):
                    out.append(Action.draw_stock(seat))
                case Took(seat):
                    out.append(Action.take_discard(seat))
                case Discarded(seat, card):
                    out.append(Action.discard(seat, card.id))
                case Dropped(seat):
                    out.append(Action.drop(seat))
                case Left(seat, reason) if reason is not None:
                    out.append(Action.leave(seat))
                case Declared(seat, card) | WrongShow(seat, _, _, _, card):
                    groups = self.shown.get(seat)
                    out.append(
                        Action.declare(
                            seat,
                            None if card is None else card.id,
                            None if groups is None else tuple(tuple(g) for g in groups),
                        )
                    )
        return out

    def apply(self, action: Action, auto: bool = False) -> None:
        """Validate `action` completely, then perform it. Raises a `RummyError` untouched.

        `auto`: the table plays this move for a seat that ran out of time (recorded on the
        event, so the public log can say so once instead of describing the move)."""
        seat = action.seat
        if seat not in self.status:
            raise UnknownSeat()
        if self.over:
            raise WrongPhase(PhaseReason.DEAL_OVER)
        if self.status[seat] is not SeatStatus.ACTIVE:
            raise SeatNotActive()
        self._auto = auto
        if action.kind is ActionKind.LEAVE:
            self._auto = False
            self._leave(seat)
        else:
            if seat != self.turn:
                raise NotYourTurn()
            handler = {
                ActionKind.DRAW_STOCK: self._draw_stock,
                ActionKind.TAKE_DISCARD: self._take_discard,
                ActionKind.DISCARD: self._discard,
                ActionKind.DECLARE: self._declare,
                ActionKind.DROP: self._drop,
            }[action.kind]
            handler(action)

    def _need_phase(self, phase: Phase, reason: PhaseReason) -> None:
        if self.phase is not phase:
            raise WrongPhase(reason)

    def _hand_card(self, seat: int, card_id: int | None) -> Card:
        for c in self.hands[seat]:
            if c.id == card_id:
                return c
        raise CardNotInHand()

    def _log(self, event: Event) -> None:
        self.events.append(event)

    def _draw_stock(self, action: Action) -> None:
        self._need_phase(Phase.DRAW, PhaseReason.ALREADY_DRAWN)
        card = self.stock.pop()
        self.hands[action.seat].append(card)
        self.taken = None
        self.phase = Phase.DISCARD
        self._log(Drew(action.seat, card, self._auto))

    def _take_discard(self, action: Action) -> None:
        self._need_phase(Phase.DRAW, PhaseReason.ALREADY_DRAWN)
        if not self.pile:
            raise EmptyPile()
        card = self.pile.pop()
        self._pile_entry(card).taken_by = action.seat
        self.hands[action.seat].append(card)
        self.taken = card
        self.phase = Phase.DISCARD
        self._log(Took(action.seat, card, self._auto))

    def _pile_entry(self, card: Card) -> PileEntry:
        for entry in reversed(self.pile_log):
            if entry.card.id == card.id:
                return entry
        raise AssertionError("card on the pile without a log entry")

    def _check_discard(self, seat: int, card_id: int | None) -> Card:
        card = self._hand_card(seat, card_id)
        if self.taken is not None and card.id == self.taken.id:
            raise CannotDiscardTakenCard()
        return card

    def _discard(self, action: Action) -> None:
        self._need_phase(Phase.DISCARD, PhaseReason.DRAW_FIRST)
        card = self._check_discard(action.seat, action.card)
        self._throw(action.seat, card)
        self._log(Discarded(action.seat, card, self._auto))
        self._end_turn(action.seat)

    def _throw(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.pile_log.append(PileEntry(card, seat))

    def _drop(self, action: Action) -> None:
        self._need_phase(Phase.DRAW, PhaseReason.DROP_BEFORE_DRAWING)
        if not self.rules.packing_allowed:
            raise PackingNotAllowed()
        self._retire(action.seat, self.drop_reason(action.seat), "drop")

    def _leave(self, seat: int) -> None:
        """Leaving the table counts as a drop (first or middle), at any moment."""
        reason = OutReason.FIRST_DROP
        if self.turns_taken[seat] > 0 or (seat == self.turn and self.phase is Phase.DISCARD):
            reason = OutReason.MIDDLE_DROP
        self._retire(seat, reason, "leave")

    def _retire(self, seat: int, reason: OutReason, verb: str, discard: Card | None = None) -> None:
        """Take a seat out of the deal: its cards leave play, the turn moves on if it was its."""
        hand = self.hands[seat]
        self.hands[seat] = []
        on_turn = seat == self.turn
        if reason is OutReason.FIRST_DROP and self.rules.first_drop_to_stock_bottom:
            cards = list(hand)
            make_rng(self.seed, f"bottom {self.randomness_used}").shuffle(cards)
            self.randomness_used += 1
            self.stock[0:0] = cards
            bottom = True
        else:
            self.set_aside.extend(hand)
            bottom = False
        self.status[seat] = SeatStatus.OUT if reason is OutReason.WRONG_SHOW else SeatStatus.DROPPED
        self.out_reason[seat] = reason
        self.turns_taken[seat] += 1 if on_turn else 0
        held = tuple(hand)
        if verb == "drop":
            self._log(Dropped(seat, reason, held, bottom, self._auto))
        elif verb == "leave":
            self._log(Left(seat, reason, held, bottom))
        else:
            self._log(WrongShow(seat, reason, held, bottom, discard))
        if len(self.active) == 1:
            self._finish(EndReason.LAST_STANDING, self.active[0])
            return
        if on_turn:
            self.taken = None
            self.phase = Phase.DRAW
            self.turn = self.next_seat(seat)

    def _arrangement(self, seat: int, shown: list[Card], groups: Any) -> list[list[Card]] | None:
        """The player's own grouping as cards, checked to split exactly the shown cards."""
        if groups is None:
            return None
        by_id = {c.id: c for c in shown}
        out: list[list[Card]] = []
        used: set[int] = set()
        for g in groups:
            cards = []
            for cid in g:
                if cid not in by_id or cid in used:
                    raise BadArrangement()
                used.add(cid)
                cards.append(by_id[cid])
            out.append(cards)
        if len(used) != len(shown):
            raise BadArrangement()
        return out

    def _declare(self, action: Action) -> None:
        seat = action.seat
        hand_rummy = action.card is None
        if hand_rummy:
            if self.phase is not Phase.DRAW:
                raise WrongPhase(PhaseReason.DECLARE_NEEDS_CARD)
            if not self.can_hand_rummy(seat):
                raise HandRummyNotAllowed()
            discard = None
            shown = list(self.hands[seat])
        else:
            self._need_phase(Phase.DISCARD, PhaseReason.DRAW_BEFORE_DECLARING)
            discard = self._check_discard(seat, action.card)
            shown = [c for c in self.hands[seat] if c.id != discard.id]
        groups = self._arrangement(seat, shown, action.groups)
        honor = self.rules.declaration_mode is DeclarationMode.HONOR
        if honor and groups is not None:
            # Honor mode judges the show as laid down.
            valid = check_arrangement(groups, self.rules, self.wild_rank)
        else:
            # Otherwise the engine looks for the best arrangement of the shown cards.
            valid = evaluate_hand(shown, self.rules, self.wild_rank).valid
        if not valid and not honor:
            raise InvalidDeclarationError()
        # ---- accepted: from here on the state changes ----
        if groups is not None:
            self.shown[seat] = [[c.id for c in g] for g in groups]
        first_drawn_turn = self.turns_taken[seat] == 0
        if valid:
            if discard is not None:
                self._throw(seat, discard)
            self.turns_taken[seat] += 1
            self._log(Declared(seat, discard, self._auto))
            self.winner_first_turn = first_drawn_turn and not hand_rummy
            self._finish(EndReason.HAND_RUMMY if hand_rummy else EndReason.DECLARED, seat)
            return
        # A wrong show (honor mode): the shown cards and the discard leave play.
        reason = (
            OutReason.WRONG_SHOW
            if self.rules.invalid_declaration is InvalidDeclaration.PENALTY_OUT
            else OutReason.WRONG_SHOW_DROP
        )
        self._retire(seat, reason, "wrong_show", discard)

    def _end_turn(self, seat: int) -> None:
        """After a discard: count the turn, handle an empty stock, pass the turn right."""
        self.turns_taken[seat] += 1
        self.taken = None
        if not self.stock:
            if self.rules.effective_stock_exhausted is StockExhausted.VOID:
                self._log(Voided())
                self._finish(EndReason.VOID, None)
                return
            self._reshuffle()
            if not self.stock:
                self._log(Voided(nothing_to_reshuffle=True))
                self._finish(EndReason.VOID, None)
                return
        self.phase = Phase.DRAW
        self.turn = self.next_seat(seat)

    def _reshuffle(self) -> None:
        """The discard pile except its top card, shuffled, becomes the new stock."""
        if len(self.pile) < 2:
            return
        top = self.pile[-1]
        rest = self.pile[:-1]
        recycled = {c.id for c in rest}
        for entry in self.pile_log:
            if entry.card.id in recycled and entry.taken_by is None:
                entry.recycled = True
        if self.recorded_reshuffles:
            rest = _laid_out(rest, self.recorded_reshuffles.pop(0))
        else:
            make_rng(self.seed, f"reshuffle {self.randomness_used}").shuffle(rest)
        self.randomness_used += 1
        self.pile = [top]
        self.stock = rest
        self._log(Reshuffled(tuple(reversed(rest))))

    def _finish(self, reason: EndReason, winner: int | None) -> None:
        self.end = reason
        self.winner = winner
        self.phase = Phase.OVER
        self.taken = None
        self._log(DealEnded(reason, winner))

    # ---- evaluations at the end -------------------------------------------------------------

    def final_evaluations(self) -> dict[int, Evaluation]:
        """The engine's best arrangement of every hand still held at the end (for settlement
        and the hand history). Empty hands (dropped seats) are not evaluated."""
        out: dict[int, Evaluation] = {}
        for s in self.seats:
            hand = self.hands[s]
            if len(hand) == HAND_SIZE:
                out[s] = evaluate_hand(hand, self.rules, self.wild_rank)
        return out

    # ---- invariants (used by tests and the simulator) ---------------------------------------

    def check_invariants(self) -> None:
        """Raise AssertionError if any physical card is lost, duplicated or misplaced."""
        places: list[Card] = [*self.stock, *self.pile, *self.set_aside]
        if self.indicator is not None:
            places.append(self.indicator)
        for s in self.seats:
            places.extend(self.hands[s])
        ids = [c.id for c in places]
        assert len(ids) == len(self.deck), f"{len(ids)} cards in play, deck has {len(self.deck)}"
        assert len(set(ids)) == len(ids), "a card is in two places"
        for s in self.seats:
            n = len(self.hands[s])
            if self.status[s] is not SeatStatus.ACTIVE:
                assert n == 0, f"seat {s} is out but holds {n} cards"
            elif not self.over and s == self.turn and self.phase is Phase.DISCARD:
                assert n == HAND_SIZE + 1, f"seat {s} on turn holds {n} cards"
            else:
                assert n == HAND_SIZE, f"seat {s} holds {n} cards between turns"
        if not self.over:
            assert self.status[self.turn] is SeatStatus.ACTIVE, "turn is on an inactive seat"
            assert len(self.active) >= 2, "deal continues with fewer than two players"
            if self.phase is Phase.DRAW:
                assert self.stock, "turn starts with an empty stock"
        live = [e.card.id for e in self.pile_log if e.taken_by is None and not e.recycled]
        assert live == [c.id for c in self.pile], "pile log disagrees with the pile"

    def copy(self) -> Deal:
        """An independent copy of this deal, equal to `Deal.from_dict(self.to_dict(), ...)`
        without the round trip: the table layer works on a copy for every change (`Table.copy`),
        and reading a saved deal back replays its dealing and its discard pile (~0.3 ms a
        change). Cards, events and rules are immutable and shared; every container and every
        pile entry (its `taken_by` changes later) is new. The evaluation cache is kept: it is
        keyed by the events so far, which the copy has too."""
        new = Deal.__new__(Deal)
        new.rules = self.rules
        new.seats = self.seats
        new.dealer = self.dealer
        new.seed = self.seed
        new.number = self.number
        new.deck = self.deck
        new.order = list(self.order)
        new.salt = self.salt
        new._commitment = self._commitment
        new.indicator = self.indicator
        new.hands = {s: list(h) for s, h in self.hands.items()}
        new.dealt = {s: list(h) for s, h in self.dealt.items()}
        new.stock = list(self.stock)
        new.pile = list(self.pile)
        new.pile_log = [PileEntry(e.card, e.by, e.taken_by, e.recycled) for e in self.pile_log]
        new.set_aside = list(self.set_aside)
        new.status = dict(self.status)
        new.out_reason = dict(self.out_reason)
        new.turns_taken = dict(self.turns_taken)
        new.turn = self.turn
        new.phase = self.phase
        new.taken = self.taken
        new.events = list(self.events)
        new.end = self.end
        new.winner = self.winner
        new.winner_first_turn = self.winner_first_turn
        new.shown = {s: [list(g) for g in gs] for s, gs in self.shown.items()}
        new.randomness_used = self.randomness_used
        new._auto = False
        new._drawn_cache = self._drawn_cache
        new._rows = list(self._rows)
        new.recorded_reshuffles = [list(order) for order in self.recorded_reshuffles]
        return new

    # ---- serialisation ----------------------------------------------------------------------
    #
    # The live state is written on every click, so it holds only what cannot be recomputed:
    # `dealt`, the indicator, the discard pile and its history follow from `order` and the
    # events, and the accepted actions are read from the events. Cards are ids.

    def to_dict(self) -> dict[str, Any]:
        ids = _ids
        return {
            "seats": list(self.seats),
            "dealer": self.dealer,
            "number": self.number,
            "seed": self.seed,
            "order": list(self.order),
            "salt": self.salt,
            "hands": {str(s): ids(h) for s, h in self.hands.items()},
            "stock": ids(self.stock),
            "set_aside": ids(self.set_aside),
            "status": {str(s): v.value for s, v in self.status.items()},
            "out_reason": {str(s): v.value for s, v in self.out_reason.items()},
            "turns_taken": {str(s): v for s, v in self.turns_taken.items()},
            "turn": self.turn,
            "phase": self.phase.value,
            "taken": None if self.taken is None else self.taken.id,
            "events": self._event_rows(),
            "end": None if self.end is None else self.end.value,
            "winner": self.winner,
            "winner_first_turn": self.winner_first_turn,
            "shown": {str(s): [list(g) for g in gs] for s, gs in self.shown.items()},
            "randomness_used": self.randomness_used,
        }

    def _event_rows(self) -> list[list[Any] | str]:
        """`to_row` of every event, the earlier ones remembered from the last call."""
        rows = self._rows
        if len(rows) > len(self.events):  # not grown from the remembered ones: start over
            rows.clear()
        rows.extend(to_row(e) for e in self.events[len(rows) :])
        return list(rows)

    @classmethod
    def from_dict(cls, data: dict[str, Any], rules: Rules, number: int = 1) -> Deal:
        """Read `to_dict()` back. A deal saved by format 1 (verbose events, with its actions) is
        rebuilt by replaying its actions from its seed (`number` names it then); an unseeded
        format-1 deal cannot be, and raises ValueError."""
        if "actions" in data:
            return cls._from_v1(data, rules, number)
        deal = cls(rules, data["seats"], data["dealer"], data["seed"], data["number"])
        c = deal.card

        def cards(xs: list[int]) -> list[Card]:
            return [c(i) for i in xs]

        deal.order = list(data["order"])
        deal.salt = data.get("salt")
        deal._deal_out()
        deal.hands = {int(s): cards(h) for s, h in data["hands"].items()}
        deal.stock = cards(data["stock"])
        deal.set_aside = cards(data["set_aside"])
        deal.status = {int(s): SeatStatus(v) for s, v in data["status"].items()}
        deal.out_reason = {int(s): OutReason(v) for s, v in data["out_reason"].items()}
        deal.turns_taken = {int(s): int(v) for s, v in data["turns_taken"].items()}
        deal.turn = data["turn"]
        deal.phase = Phase(data["phase"])
        deal.taken = None if data["taken"] is None else c(data["taken"])
        deal.events = [from_row(r, c) for r in data["events"]]
        deal.end = None if data["end"] is None else EndReason(data["end"])
        deal.winner = data["winner"]
        deal.winner_first_turn = data["winner_first_turn"]
        deal.shown = {int(s): [list(g) for g in gs] for s, gs in data["shown"].items()}
        deal.randomness_used = data["randomness_used"]
        deal._replay_pile()
        return deal

    def _replay_pile(self) -> None:
        """Rebuild the discard pile and its public history from the opening discard and the
        events, exactly as `_take_discard`, `_throw` and `_reshuffle` built them."""
        log = self.pile_log[:1]
        for e in self.events:
            match e:
                case Discarded(seat, card) | Declared(seat, Card() as card):
                    log.append(PileEntry(card, seat))
                case Took(seat, card):
                    next(x for x in reversed(log) if x.card.id == card.id).taken_by = seat
                case Reshuffled(order):
                    recycled = {c.id for c in order}
                    for x in log:
                        if x.card.id in recycled and x.taken_by is None:
                            x.recycled = True
        self.pile_log = log
        self.pile = [x.card for x in log if x.taken_by is None and not x.recycled]

    @classmethod
    def _from_v1(cls, data: dict[str, Any], rules: Rules, number: int) -> Deal:
        if data["seed"] is None:
            raise ValueError("an unseeded deal saved by format 1 cannot be restored")
        deal = cls.start(rules, data["seats"], data["dealer"], data["seed"], number)
        for a in data["actions"]:
            deal.apply(Action.from_dict(a))
        if deal.order != list(data["order"]) or {
            str(s): _ids(h) for s, h in deal.hands.items()
        } != {s: list(h) for s, h in data["hands"].items()}:
            raise ValueError("a format-1 deal did not replay to its saved state")
        return deal


def _ids(cards: Sequence[Card]) -> list[int]:
    return [c.id for c in cards]


def _laid_out(cards: list[Card], top_first: Sequence[str]) -> list[Card]:
    """`cards` as a stock (top LAST) whose faces, read from the top, are `top_first`.

    Copies of one face are interchangeable here: the physical card a later draw gives is
    recorded with the draw, and a replay stacks it then (`stack_stock`)."""
    by_code: dict[str, list[Card]] = {}
    for c in cards:
        by_code.setdefault(c.code, []).append(c)
    out: list[Card] = []
    for code in top_first:
        same = by_code.get(code)
        if not same:
            raise ValueError(f"the recorded reshuffle has a {code} the pile did not hold")
        out.append(same.pop())
    if len(out) != len(cards):
        raise ValueError("the recorded reshuffle does not hold every card of the pile")
    out.reverse()
    return out
