"""A match: players at a table playing deals under one rules profile until the format ends.

The match chooses the first dealer (at random, or by the Paplu card-drawing ceremony that also
decides the seating), starts each deal with the right players and dealer, settles finished
deals into the ledger, eliminates pool players, and decides when the match is over and who won.

Seats are numbered 0..n-1 in table order; "to the right" is the next seat. Between deals the
match waits in BETWEEN_DEALS so the table can show the result; `start_next_deal()` continues.

Everything the Discord adapter needs goes through this class: `apply(action)`,
`legal_actions(seat)`, `observation(seat)`, `public_view()`, `hand_history(n)`, `to_json()` /
`from_json()`, and `version`, a counter bumped by every accepted change (put it in button ids to
recognise stale clicks).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .actions import Action, ActionKind
from .deal import Deal, make_rng
from .errors import MatchOver, UnknownSeat, WrongPhase
from .rules import DropPaid, FirstDealer, MatchFormat, Rules, get_profile
from .settlement import DealResult, settle

if TYPE_CHECKING:
    from .observation import Observation, PublicView

FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Player:
    """Who sits at a seat: a stable id (e.g. a Discord user id) and a display name."""

    id: str
    name: str


class MatchPhase(StrEnum):
    PLAYING = "playing"  # a deal is in progress
    BETWEEN_DEALS = "between_deals"  # the last deal is settled; waiting for start_next_deal()
    OVER = "over"


class ScoreKind(StrEnum):
    """How to read `Match.scores`."""

    NET = "net"  # chips won minus chips paid; transfers, sums to 0; higher is better
    PENALTY = "penalty"  # penalty points accumulated; lower is better


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
        self.histories: list[dict[str, Any]] = []
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

    def hand_history(self, number: int) -> dict[str, Any]:
        """The downloadable record of finished deal `number` (1-based)."""
        return self.histories[number - 1]

    def observation(self, seat: int) -> Observation:
        from .observation import build_observation

        return build_observation(self, seat)

    def public_view(self) -> PublicView:
        from .observation import build_public_view

        return build_public_view(self)

    # ---- changes ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Perform one player's action, or raise a `RummyError` leaving the match unchanged."""
        if not 0 <= action.seat < len(self.players):
            raise UnknownSeat()
        if self.phase is MatchPhase.OVER:
            raise MatchOver()
        if action.kind is ActionKind.LEAVE and self.phase is MatchPhase.BETWEEN_DEALS:
            if action.seat in self.left:
                raise WrongPhase("You have already left")
            self._leave(action.seat)
            self.version += 1
            return
        if self.phase is not MatchPhase.PLAYING or self.deal is None:
            raise WrongPhase("The next deal has not started yet")
        self.deal.apply(action)
        self.version += 1
        if action.kind is ActionKind.LEAVE:
            self.left.append(action.seat)
        if self.deal.over:
            self._finish_deal()

    def start_next_deal(self) -> None:
        if self.phase is MatchPhase.OVER:
            raise MatchOver()
        if self.phase is not MatchPhase.BETWEEN_DEALS:
            raise WrongPhase("A deal is already in progress")
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
        self.deal = Deal.start(self.rules, self.in_play, self.dealer, self._deal_seed(number))
        self.phase = MatchPhase.PLAYING

    def _finish_deal(self) -> None:
        from .history import build_hand_history

        deal = self.deal
        assert deal is not None
        evaluations = deal.final_evaluations()
        result = settle(deal, len(self.results) + 1, evaluations)
        for s, d in result.deltas.items():
            self.scores[s] += d
        self.results.append(result)
        self.histories.append(build_hand_history(self, deal, result, evaluations))
        limit = self.rules.pool_limit
        if limit is not None:
            for s in deal.seats:
                if s not in self.eliminated and self.scores[s] >= limit:
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

    # ---- serialisation ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format_version": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "players": [{"id": p.id, "name": p.name} for p in self.players],
            "seed": self.seed,
            "version": self.version,
            "scores": {str(s): str(v) for s, v in self.scores.items()},
            "eliminated": list(self.eliminated),
            "left": list(self.left),
            "dealer": self.dealer,
            "deal": None if self.deal is None else self.deal.to_dict(),
            "results": [r.to_dict() for r in self.results],
            "histories": self.histories,
            "phase": self.phase.value,
            "winners": list(self.winners),
            "seating": self.seating,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        if data.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"unsupported match format_version {data.get('format_version')}")
        rules = Rules.from_dict(data["rules"])
        players = [Player(p["id"], p["name"]) for p in data["players"]]
        m = cls(rules, players, data["seed"])
        m.version = data["version"]
        m.scores = {int(s): Fraction(v) for s, v in data["scores"].items()}
        m.eliminated = list(data["eliminated"])
        m.left = list(data["left"])
        m.dealer = data["dealer"]
        m.deal = None if data["deal"] is None else Deal.from_dict(data["deal"], rules)
        m.results = [DealResult.from_dict(r) for r in data["results"]]
        m.histories = data["histories"]
        m.phase = MatchPhase(data["phase"])
        m.winners = tuple(data["winners"])
        m.seating = data["seating"]
        return m

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Match:
        return cls.from_dict(json.loads(text))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]
