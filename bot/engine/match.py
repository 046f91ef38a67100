"""A match: players at a table playing deals under one rules profile until the format ends.

The match chooses the first dealer (at random, or by the Paplu card-drawing ceremony that also
decides the seating), starts each deal with the right players and dealer, settles finished
deals into the ledger, eliminates pool players, and decides when the match is over and who won.

Seats are numbered 0..n-1 in table order; "to the right" is the next seat. Between deals the
match waits in BETWEEN_DEALS so the table can show the result; `start_next_deal()` continues.

Everything the Discord adapter needs goes through this class: `apply(action)`,
`apply_timeout(...)`, `legal_actions(seat)`, `observation(seat)`, `public_view()`, the public
log as facts (`event_count`, `events_since`, `entries_since`; see `public_log.py`), the
finished deal (`finished_deal()`), `to_json()` / `from_json()`, and `version`, a counter
bumped by every accepted change (put it in button ids to recognise stale clicks).

Finished deals and the live state. The live state (`to_dict`) is saved on every click, so it
does not carry old hand histories. The deal that just ended stays in the match (and in the
saved state) until `start_next_deal()`; in that window `finished_deal()` hands out its result,
final arrangements and hand history (built from the deal, so a restarted bot gets the same
record). The table layer must store that record before it starts the next deal; afterwards
only the compact results (`results`) remain.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .actions import Action, ActionKind
from .cards import Card
from .deal import Deal, make_rng
from .errors import MatchOver, PhaseReason, UnknownSeat, WrongPhase
from .evaluate import Evaluation
from .events import Drew, Event, Left, Took, from_row, to_row
from .history import build_hand_history
from .observation import Observation, PileCard, PublicView, SeatView
from .public_log import LogEntry, entries
from .rules import DropPaid, FirstDealer, MatchFormat, Rules, get_profile
from .settlement import DealResult, fixed_cost, settle
from .states import MatchPhase as MatchPhase
from .states import OutReason, Phase, SeatState, SeatStatus
from .states import Player as Player
from .states import ScoreKind as ScoreKind

# 2: compact deal state (cards as ids, events as rows), no old hand histories. 1 is still read.
FORMAT_VERSION = 2


@dataclass(frozen=True, slots=True)
class FinishedDeal:
    """The deal that just ended, typed: what renderers and the table layer read.

    `evaluations` holds the engine's best arrangement of every hand still held (dropped seats
    have none); `history` is the hand-history JSON (docs/hand-history.md) to store."""

    result: DealResult
    evaluations: dict[int, Evaluation]
    status: dict[int, SeatStatus]
    out_reason: dict[int, OutReason]
    history: dict[str, Any]


class Match:
    """The complete, serialisable state of one match. Create with `Match.create(...)`."""

    def __init__(self, rules: Rules, players: Sequence[Player], seed: int | None) -> None:
        self.rules = rules
        self.players: tuple[Player, ...] = tuple(players)
        self.seed = seed
        self.version = 0
        self.scores: dict[int, Fraction] = {s: Fraction(0) for s in range(len(self.players))}
        self.eliminated: list[int] = []  # pool: seats at or above the limit, in order of exit
        self.left: list[int] = []  # seats that left the table
        self.dealer = 0
        self.deal: Deal | None = None
        self.results: list[DealResult] = []
        self.table_events: list[Event] = []  # since the current deal ended (a seat leaving)
        self.event_base = 0  # events recorded in earlier deals (see `event_count`)
        self._finished: FinishedDeal | None = None  # cache of `finished_deal()`, not saved
        self.phase = MatchPhase.PLAYING
        self.winners: tuple[int, ...] = ()
        self.seating: list[dict[str, Any]] = []  # record of the card-drawing ceremony

    # ---- creation -----------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        players: Sequence[Player | str],
        rules: Rules | str,
        seed: int | None = None,
    ) -> Match:
        """Seat the players, choose the first dealer and deal the first hand.

        `players` in the order they sit (strings are both id and name); `rules` a `Rules` or a
        profile name; `seed` makes every shuffle reproducible (tests, simulations, replays),
        without it the OS random generator is used. Under the card-drawing ceremony
        (`FirstDealer.DRAW_CARDS`) the seating itself changes: see `match.players`.
        """
        if isinstance(rules, str):
            rules = get_profile(rules)
        rules.validate()
        seated = [p if isinstance(p, Player) else Player(p, p) for p in players]
        if not rules.min_players <= len(seated) <= rules.max_players:
            raise ValueError(f"{rules.name} is for {rules.min_players}-{rules.max_players} players")
        if len({p.id for p in seated}) != len(seated):
            raise ValueError("a player can only sit once")
        if rules.match_format is MatchFormat.TARGET and not (rules.num_deals or rules.target_score):
            raise ValueError("choose a number of deals or a target score")
        match = cls(rules, seated, seed)
        if rules.first_dealer is FirstDealer.DRAW_CARDS:
            match._seating_ceremony()
        else:
            match.dealer = make_rng(seed, "first dealer").randrange(len(seated))
        match._start_deal()
        return match

    def _seating_ceremony(self) -> None:
        """Paplu: everyone draws a card (ace low, jokers removed); ties redraw among the tied.
        The lowest deals; the highest sits to the dealer's right, the others in descending
        order after them. So table order becomes highest .. lowest, and the dealer is last."""
        rng = make_rng(self.seed, "seating")
        deck = [c for c in self.rules.build_deck(len(self.players)) if not c.face.is_joker]
        rng.shuffle(deck)
        keys: dict[int, list[int]] = {i: [] for i in range(len(self.players))}
        contenders = [list(range(len(self.players)))]
        while contenders:
            draws: dict[str, str] = {}
            for group in contenders:
                for i in group:
                    if not deck:
                        deck = [c for c in self.rules.build_deck(len(self.players))
                                if not c.face.is_joker]  # fmt: skip
                        rng.shuffle(deck)
                    card = deck.pop()
                    keys[i].append(card.rank)
                    draws[self.players[i].id] = card.code
            self.seating.append(draws)
            tied: dict[tuple[int, ...], list[int]] = {}
            for group in contenders:
                for i in group:
                    tied.setdefault(tuple(keys[i]), []).append(i)
            contenders = [g for g in tied.values() if len(g) > 1]
        order = sorted(range(len(self.players)), key=lambda i: keys[i], reverse=True)
        self.players = tuple(self.players[i] for i in order)
        self.dealer = len(self.players) - 1

    # ---- queries ------------------------------------------------------------------------

    @property
    def score_kind(self) -> ScoreKind:
        return ScoreKind.NET if self.rules.drop_paid is DropPaid.TO_WINNER else ScoreKind.PENALTY

    @property
    def in_play(self) -> list[int]:
        """Seats that still take part in deals (not eliminated, not left), in table order."""
        return [s for s in range(len(self.players)) if s not in self.eliminated + self.left]

    @property
    def deal_number(self) -> int:
        """1-based number of the current (or last) deal."""
        return len(self.results) + (1 if self.phase is MatchPhase.PLAYING else 0)

    def seat_of(self, player_id: str) -> int:
        for i, p in enumerate(self.players):
            if p.id == player_id:
                return i
        raise UnknownSeat()

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase is not MatchPhase.PLAYING or self.deal is None:
            return []
        return self.deal.legal_actions(seat)

    def finished_deal(self) -> FinishedDeal | None:
        """The deal that just ended, from its end until `start_next_deal()` (also once the
        match is over); None while a deal is played. Built on first use and cached, so a match
        restored from its saved state gives the same record."""
        deal = self.deal
        if self.phase is MatchPhase.PLAYING or deal is None or not deal.over or not self.results:
            return None
        if self._finished is None or self._finished.result is not self.results[-1]:
            result = self.results[-1]
            evaluations = deal.final_evaluations()
            history = build_hand_history(self.rules, self.players, deal, result, evaluations)
            self._finished = FinishedDeal(
                result, evaluations, dict(deal.status), dict(deal.out_reason), history
            )
        return self._finished

    def hand_history(self, number: int) -> dict[str, Any]:
        """The hand history of finished deal `number` (1-based), while it is the deal that just
        ended (see `finished_deal`); older ones were handed out then and are not kept."""
        finished = self.finished_deal()
        if finished is None or finished.result.number != number:
            raise LookupError(f"deal {number} is not the deal that just ended")
        return finished.history

    # ---- the public log -----------------------------------------------------------------

    def events(self) -> list[Event]:
        """The current record: the current (or just finished) deal's events, then what
        happened at the table since it ended."""
        return ([] if self.deal is None else list(self.deal.events)) + self.table_events

    @property
    def event_count(self) -> int:
        """How many events this match has recorded so far: take it before a change and pass
        it to `events_since` / `entries_since` after, to get what the change added."""
        return self.event_base + len(self.events())

    def events_since(self, mark: int) -> list[Event]:
        return self.events()[max(0, mark - self.event_base) :]

    def entries_since(self, mark: int) -> list[LogEntry]:
        """The public log records (`public_log`: facts, no words) for the events recorded
        since `mark` (an earlier `event_count`)."""
        return entries(self.events_since(mark), [p.name for p in self.players], self.rules)

    # ---- views ----------------------------------------------------------------------------

    def _seat_views(self) -> tuple[SeatView, ...]:
        deal = self.deal
        views = []
        for s, p in enumerate(self.players):
            if s in self.left:
                status = SeatState.LEFT
            elif s in self.eliminated:
                status = SeatState.ELIMINATED
            elif deal is None or s not in deal.status:
                status = SeatState.WAITING
            else:
                status = SeatState(deal.status[s].value)
            count = len(deal.hands[s]) if deal is not None and s in deal.hands else 0
            dealer = deal is not None and deal.dealer == s
            views.append(SeatView(s, p.name, status, count, self.scores[s], dealer))
        return tuple(views)

    def drop_cost(self, seat: int) -> int | None:
        """What dropping now would cost `seat` (before multipliers), as its observation says:
        None unless it holds cards in a deal still running and is still in it. The table
        layer asks this for every move (`Game.act`); the whole observation is dearer."""
        deal = self.deal
        if deal is None or deal.over or seat not in deal.hands:
            return None
        if deal.status[seat] is not SeatStatus.ACTIVE:
            return None
        return fixed_cost(self.rules, deal.drop_reason(seat))

    def observation(self, seat: int) -> Observation:
        """Everything `seat` may know right now (see `observation.py`)."""
        deal = self.deal
        if not 0 <= seat < len(self.players):
            raise ValueError("no such seat")
        live = deal is not None and not deal.over
        hand: tuple[Card, ...] = ()
        may_drop, drop_cost = False, None
        taken = drawn = None
        if deal is not None and seat in deal.hands:
            hand = tuple(deal.hands[seat])
            if live and deal.status[seat] is SeatStatus.ACTIVE:
                drop_cost = self.drop_cost(seat)
                may_drop = (
                    self.rules.packing_allowed and deal.turn == seat and deal.phase is Phase.DRAW
                )
                if deal.turn == seat:
                    taken = deal.taken
                    drawn = _drawn_this_turn(deal, seat)
        return Observation(
            seat=seat,
            version=self.version,
            rules=self.rules,
            match_phase=self.phase,
            deal_number=self.deal_number,
            dealer=None if deal is None else deal.dealer,
            hand=hand,
            indicator=None if deal is None else deal.indicator,
            wild_rank=None if deal is None else deal.wild_rank,
            pile=() if deal is None else tuple(deal.pile),
            pile_history=()
            if deal is None
            else tuple(PileCard(e.card, e.by, e.taken_by, e.recycled) for e in deal.pile_log),
            seats=self._seat_views(),
            stock_size=0 if deal is None else len(deal.stock),
            turn=deal.turn if live and deal is not None else None,
            phase=None if deal is None else deal.phase,
            taken=taken,
            drawn=drawn,
            may_drop=may_drop,
            drop_cost=drop_cost,
            score_kind=self.score_kind,
            legal_actions=tuple(self.legal_actions(seat)),
            commitment=None if deal is None else deal.commitment,
        )

    def public_view(self, recent: int = 5) -> PublicView:
        """The table message: no hidden card, and the last `recent` public log records."""
        deal = self.deal
        live = deal is not None and not deal.over
        lines = self.entries_since(self.event_base) if recent else []
        return PublicView(
            version=self.version,
            variant=self.rules.name,
            match_phase=self.phase,
            deal_number=self.deal_number,
            seats=self._seat_views(),
            dealer=None if deal is None else deal.dealer,
            turn=deal.turn if live and deal is not None else None,
            phase=None if deal is None else deal.phase,
            top_discard=deal.pile[-1] if deal is not None and deal.pile else None,
            indicator=None if deal is None else deal.indicator,
            wild_rank=None if deal is None else deal.wild_rank,
            stock_size=0 if deal is None else len(deal.stock),
            recent=tuple(lines[-recent:]) if recent else (),
            winners=self.winners,
            commitment=None if deal is None else deal.commitment,
            pile_history=()
            if deal is None
            else tuple(PileCard(e.card, e.by, e.taken_by, e.recycled) for e in deal.pile_log),
        )

    # ---- changes ------------------------------------------------------------------------

    def apply(self, action: Action, auto: bool = False) -> None:
        """Perform one player's action, or raise a `RummyError` leaving the match unchanged.

        `auto`: the table plays this move for a seat that ran out of time; use
        `apply_timeout`, which also records the timeout."""
        if not 0 <= action.seat < len(self.players):
            raise UnknownSeat()
        if self.phase is MatchPhase.OVER:
            raise MatchOver()
        if action.kind is ActionKind.LEAVE and self.phase is MatchPhase.BETWEEN_DEALS:
            if action.seat in self.left:
                raise WrongPhase(PhaseReason.ALREADY_LEFT)
            self._leave(action.seat)
            self.table_events.append(Left(action.seat))
            self.version += 1
            return
        if self.phase is not MatchPhase.PLAYING or self.deal is None:
            raise WrongPhase(PhaseReason.NEXT_DEAL_NOT_STARTED)
        self.deal.apply(action, auto)
        self.version += 1
        if action.kind is ActionKind.LEAVE:
            self.left.append(action.seat)
        if self.deal.over:
            self._finish_deal()

    def apply_timeout(
        self,
        seat: int,
        actions: Sequence[Action],
        count: int,
        then: Callable[[Observation], Action | None] | None = None,
    ) -> None:
        """`seat`, on turn, ran out of time for the `count`-th turn in a row and the table plays
        `actions` for it (ending with a DROP when it drops the seat): records a `TimedOut`
        event, then applies the actions marked `auto`. `then`, if given, chooses one more move
        from the seat's observation after those (the throw after an automatic draw depends on
        the card drawn, which nobody may know before). Raises like `apply` (a refused action
        leaves the moves before it applied, so the caller should pass legal actions)."""
        deal = self.deal
        if self.phase is not MatchPhase.PLAYING or deal is None or deal.over:
            raise WrongPhase(PhaseReason.NO_DEAL)
        if deal.turn != seat or not actions:
            raise WrongPhase(PhaseReason.TIMEOUT_NOT_ON_TURN)
        dropped = actions[-1].kind is ActionKind.DROP
        deal.record_timeout(seat, count, dropped)
        for action in actions:
            self.apply(action, auto=True)
        if then is None or dropped:
            return
        deal = self.deal
        if self.phase is not MatchPhase.PLAYING or deal is None or deal.over or deal.turn != seat:
            return
        more = then(self.observation(seat))
        if more is not None:
            self.apply(more, auto=True)

    def start_next_deal(self) -> None:
        """Deal the next hand. The deal that just ended (and its `finished_deal()` record) is
        gone afterwards: the table layer stores the record first."""
        if self.phase is MatchPhase.OVER:
            raise MatchOver()
        if self.phase is not MatchPhase.BETWEEN_DEALS:
            raise WrongPhase(PhaseReason.DEAL_IN_PROGRESS)
        self.event_base += len(self.events())
        self.table_events = []
        self._finished = None
        self._start_deal()
        self.version += 1

    def _leave(self, seat: int) -> None:
        self.left.append(seat)
        if len(self.in_play) < 2:
            self._end_match()

    def _deal_seed(self, number: int) -> int | None:
        if self.seed is None:
            return None
        digest = hashlib.sha256(f"{self.seed}:deal {number}".encode()).hexdigest()
        return int(digest[:16], 16)

    def _start_deal(self) -> None:
        number = len(self.results) + 1
        self.deal = Deal.start(
            self.rules, self.in_play, self.dealer, self._deal_seed(number), number
        )
        self.phase = MatchPhase.PLAYING

    def _finish_deal(self) -> None:
        deal = self.deal
        assert deal is not None
        evaluations = deal.final_evaluations()
        result = settle(deal, len(self.results) + 1, evaluations)
        for s, d in result.deltas.items():
            self.scores[s] += d
        self.results.append(result)
        history = build_hand_history(self.rules, self.players, deal, result, evaluations)
        self._finished = FinishedDeal(
            result, evaluations, dict(deal.status), dict(deal.out_reason), history
        )
        for s in deal.seats:
            if s not in self.eliminated and self.rules.out_at(self.scores[s]):
                self.eliminated.append(s)
        if self._match_finished():
            self._end_match()
            return
        self.dealer = self._next_dealer()
        self.phase = MatchPhase.BETWEEN_DEALS

    def _next_dealer(self) -> int:
        """The deal passes to the right, skipping seats that no longer play."""
        n = len(self.players)
        playing = set(self.in_play)
        for k in range(1, n + 1):
            s = (self.dealer + k) % n
            if s in playing:
                return s
        return self.dealer

    def _match_finished(self) -> bool:
        rules, played = self.rules, len(self.results)
        if len(self.in_play) < 2:
            return True
        fmt = rules.match_format
        if fmt is MatchFormat.SINGLE_DEAL:
            return played >= 1
        if fmt is MatchFormat.POOL:
            return False  # until one player is left
        if fmt is MatchFormat.DEALS:
            return played >= (rules.num_deals or 1)
        if fmt is MatchFormat.ROTATION:
            return played >= len(self.players)  # every player has dealt once
        # TARGET: a number of deals, or a score reached, whichever comes first.
        if rules.num_deals is not None and played >= rules.num_deals:
            return True
        target = rules.target_score
        return target is not None and any(self.scores[s] >= target for s in self.in_play)

    def _end_match(self) -> None:
        self.phase = MatchPhase.OVER
        self.deal = self.deal if self.deal is not None and self.deal.over else None
        candidates = self.in_play
        if self.rules.match_format is MatchFormat.POOL or not candidates:
            self.winners = tuple(candidates) if len(candidates) == 1 else ()
            return
        if (
            self.rules.match_format is MatchFormat.SINGLE_DEAL
            and self.results
            and self.results[-1].void
        ):
            self.winners = ()  # a void single deal has no winner
            return
        scores = {s: self.scores[s] for s in candidates}
        best = max(scores.values()) if self.score_kind is ScoreKind.NET else min(scores.values())
        self.winners = tuple(s for s in candidates if scores[s] == best)

    # ---- invariants ---------------------------------------------------------------------

    def check_invariants(self) -> None:
        if self.deal is not None:
            self.deal.check_invariants()
        if self.score_kind is ScoreKind.NET:
            assert sum(self.scores.values()) == 0, "transfers do not sum to zero"
        for r in self.results:
            if r.void:
                assert all(v == 0 for v in r.deltas.values()), "a void deal changed scores"

    def copy(self) -> Match:
        """An independent copy, equal to `Match.from_dict(self.to_dict())` without the round
        trip (see `Deal.copy`): rules, players, scores' fractions, results and events are
        immutable and shared, the containers new. The seating record is shared as the round
        trip shares it (it is written once, when the match starts)."""
        new = Match.__new__(Match)
        new.rules = self.rules
        new.players = self.players
        new.seed = self.seed
        new.version = self.version
        new.scores = dict(self.scores)
        new.eliminated = list(self.eliminated)
        new.left = list(self.left)
        new.dealer = self.dealer
        new.deal = None if self.deal is None else self.deal.copy()
        new.results = list(self.results)
        new.table_events = list(self.table_events)
        new.event_base = self.event_base
        new._finished = None
        new.phase = self.phase
        new.winners = self.winners
        new.seating = self.seating
        return new

    # ---- serialisation ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The live state, compact (it is saved on every click): rules as changes to their
        profile, the current deal with cards as ids and events as rows, results as rows, and no
        hand histories (see the module docstring)."""
        deal = self.deal
        return {
            "format_version": FORMAT_VERSION,
            "rules": self.rules.to_state(),
            "players": [[p.id, p.name] for p in self.players],
            "seed": self.seed,
            "version": self.version,
            "scores": {str(s): str(v) for s, v in self.scores.items()},
            "eliminated": list(self.eliminated),
            "left": list(self.left),
            "dealer": self.dealer,
            "deal": None if deal is None else deal.to_dict(),
            "results": [r.to_row() for r in self.results],
            "phase": self.phase.value,
            "winners": list(self.winners),
            "seating": self.seating,
            "event_base": self.event_base,
            "table_events": [to_row(e) for e in self.table_events],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """Read `to_dict()` back; a format-1 state (which carried every hand history) is read
        too: its deal is replayed from its seed, its old histories are dropped (the table layer
        stored them when each deal ended)."""
        version = data.get("format_version")
        if version not in (1, FORMAT_VERSION):
            raise ValueError(f"unsupported match format_version {version}")
        v1 = version == 1
        rules = Rules.from_state(data["rules"])
        players = [
            Player(p["id"], p["name"]) if v1 else Player(p[0], p[1]) for p in data["players"]
        ]
        m = cls(rules, players, data["seed"])
        m.version = data["version"]
        m.scores = {int(s): Fraction(v) for s, v in data["scores"].items()}
        m.eliminated = list(data["eliminated"])
        m.left = list(data["left"])
        m.dealer = data["dealer"]
        if v1:
            m.results = [DealResult.from_dict(r) for r in data["results"]]
        else:
            m.results = [DealResult.from_row(r) for r in data["results"]]
        m.phase = MatchPhase(data["phase"])
        number = len(m.results) + (1 if m.phase is MatchPhase.PLAYING else 0)
        deal = None if data["deal"] is None else Deal.from_dict(data["deal"], rules, number)
        m.deal = deal
        m.winners = tuple(data["winners"])
        m.seating = data["seating"]
        m.event_base = data.get("event_base", 0)

        def card(i: int) -> Card:
            if deal is None:
                raise ValueError("an event names a card but there is no deal")
            return deal.card(i)

        m.table_events = [from_row(r, card) for r in data.get("table_events", [])]
        return m

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Match:
        return cls.from_dict(json.loads(text))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def _drawn_this_turn(deal: Deal, seat: int) -> Card | None:
    """The card `seat` drew on its current turn (it is the newest event until the discard)."""
    if deal.phase is not Phase.DISCARD or not deal.events:
        return None
    last = deal.events[-1]
    if isinstance(last, Drew | Took) and last.seat == seat:
        return last.card
    return None
