"""A hand history played again through the engine, move by move, and checked against itself.

A hand history (docs/hand-history.md) records what happened; a replay page, an audit or a bug
report wants the table as it was at each moment: every hand, the pile, the stock, whose turn.
Rather than a second reading of the rules, this module lays out the recorded deck order with
`Deal.start` and applies every recorded move with `Deal.apply`, so each state is the engine's
own. What the engine cannot know from the order alone is fed from the record:

* a stock draw gives the recorded physical card (`Deal.stack_stock`): cards a first drop put
  under the stock were shuffled there unrecorded, and an unseeded deal's reshuffles cannot be
  redone from a seed;
* an unseeded deal's reshuffles are laid out in their recorded order
  (`Deal.recorded_reshuffles`); a seeded deal redoes them from its seed, which the cross-check
  below then confirms;
* a timeout is recorded as the table recorded it (`Deal.record_timeout`), and the moves after it
  are applied as moves made for the seat (`auto`);
* a wrong show names its thrown card by code only: any held copy of that face that may be
  thrown is the same to the rules (all of the seat's cards leave play);
* a declaration the player grouped themselves (`shown_groups`) is declared with that grouping,
  which is what honor mode judges.

Everything the engine records on the way is checked against the history as it happens: each
move's events (the engine's own reshuffle, void and end of the deal included) must be exactly
the next recorded events, and at the end the rebuilt history (`build_hand_history`) must
match the recorded one: dealt hands, events, each final hand with its arrangement, the charges
and the deltas. A history that does not replay exactly raises `ReplayError` saying where,
so nothing built on a replay can disagree with the record it was made from.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, Groups
from .cards import Card
from .deal import Deal
from .errors import RummyError
from .events import Event
from .history import build_hand_history, event_json
from .match import FinishedDeal
from .rules import Rules
from .settlement import settle
from .states import Player

#: What a history must hold to be replayed (a format 1, 2 or 3 history holds all of it).
REQUIRED = ("rules", "seats", "dealer", "deck_order_ids", "events", "final", "deltas")

#: The parts of a history that a replay must reproduce exactly. The header's `rules`,
#: `format_version` and `shuffle` are not among them: a history written by an older version
#: describes them differently and still replays.
CHECKED = (
    "deck_order",
    "hands_dealt",
    "indicator",
    "wild_rank",
    "opening_discard",
    "events",
    "end",
    "wrong_shows",
    "final",
    "charges",
    "deltas",
)

#: Recorded events the engine makes itself, after the move that causes them.
ENGINE_MADE = frozenset({"reshuffle", "stock_exhausted", "deal_over"})


class ReplayError(ValueError):
    """The history cannot be replayed as recorded (malformed, or the engine disagrees)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One recorded move replayed: its recorded events (the move, then what the engine did
    because of it: a reshuffle, the deal's end) and the engine's typed events for them.
    A timeout is a step of its own (nothing moves; the moves after it are `auto`)."""

    recorded: tuple[Mapping[str, Any], ...]
    events: tuple[Event, ...]

    @property
    def action(self) -> str:
        return str(self.recorded[0]["action"])


class DealReplay:
    """One hand history replayed: `deal` is the engine's state, advanced by `steps()`."""

    def __init__(self, history: Mapping[str, Any]) -> None:
        missing = [k for k in REQUIRED if k not in history]
        if missing:
            raise ReplayError(f"not a hand history: no {', '.join(missing)}")
        self.history = history
        try:
            self.rules = Rules.from_dict(dict(history["rules"]))
            self.players = _players(history["seats"])
            seats = [int(s["seat"]) for s in history["seats"]]
            shuffle = history.get("shuffle") or {}
            self.deal = Deal.start(
                self.rules,
                seats,
                int(history["dealer"]),
                history.get("deal_seed"),
                int(history.get("deal_number", 1)),
                order=[int(i) for i in history["deck_order_ids"]],
                salt=shuffle.get("salt"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"the history's header cannot be read ({exc})") from exc
        if self.deal.seed is None:
            self.deal.recorded_reshuffles = [
                [str(c) for c in e["order"]]
                for e in history["events"]
                if e.get("action") == "reshuffle"
            ]
        self._done = False

    def steps(self) -> Iterator[Step]:
        """Apply the recorded moves one at a time; after each step is yielded, `deal` is the
        state the move left. Raises `ReplayError` at the first event the engine does not
        reproduce. Runs once."""
        if self._done:
            raise ReplayError("this history has already been replayed")
        self._done = True
        recorded: Sequence[Mapping[str, Any]] = self.history["events"]
        deal = self.deal
        i = 0
        while i < len(recorded):
            event = recorded[i]
            if event.get("action") in ENGINE_MADE:
                raise ReplayError(
                    f"event {i} ({event.get('action')}): the engine did not make it after "
                    "the move before it"
                )
            start = len(deal.events)
            try:
                self._apply(event)
            except (RummyError, ValueError, KeyError, TypeError) as exc:
                raise ReplayError(f"event {i} ({event.get('action')}): {exc}") from exc
            made = deal.events[start:]
            if not made:  # pragma: no cover - every move records at least one event
                raise ReplayError(f"event {i} ({event.get('action')}) recorded nothing")
            mine = [event_json(e, i + k) for k, e in enumerate(made)]
            theirs = [dict(e) for e in recorded[i : i + len(made)]]
            if mine != theirs:
                raise ReplayError(
                    f"event {i} ({event.get('action')}): the engine recorded {mine}, "
                    f"the history {theirs}"
                )
            yield Step(tuple(recorded[i : i + len(made)]), tuple(made))
            i += len(made)

    def finish(self) -> FinishedDeal:
        """Settle the replayed deal and check the result against the history: the finished
        deal, with the rebuilt history (equal to the recorded one in every checked part)."""
        if not self._done:
            for _ in self.steps():
                pass
        deal = self.deal
        if not deal.over:
            raise ReplayError("the recorded events end before the deal does")
        evaluations = deal.final_evaluations()
        result = settle(deal, deal.number, evaluations)
        rebuilt = build_hand_history(self.rules, self.players, deal, result, evaluations)
        for key in CHECKED:
            if key in self.history and rebuilt[key] != self.history[key]:
                raise ReplayError(f"the replayed deal's {key} differs from the history's")
        return FinishedDeal(result, evaluations, dict(deal.status), dict(deal.out_reason), rebuilt)

    # ---- one recorded move ---------------------------------------------------------------

    def _apply(self, e: Mapping[str, Any]) -> None:
        deal = self.deal
        action, seat, auto = e["action"], e["seat"], bool(e.get("auto", False))
        if action == "timeout":
            deal.record_timeout(seat, int(e["count"]), bool(e["dropped"]))
            return
        if action == "draw_stock":
            card_id = int(e["card_id"])
            if deal.seed is not None and deal.stock and deal.stock[-1].id != card_id:
                # A seeded deal redoes every shuffle: its top card must be the one recorded.
                raise ValueError(f"the top of the stock is {deal.stock[-1].code}, not {e['card']}")
            deal.stack_stock(card_id)
            deal.apply(Action.draw_stock(seat), auto)
        elif action == "take_discard":
            deal.apply(Action.take_discard(seat), auto)
        elif action == "discard":
            deal.apply(Action.discard(seat, int(e["card_id"])), auto)
        elif action == "drop":
            deal.apply(Action.drop(seat), auto)
        elif action == "leave":
            deal.apply(Action.leave(seat))
        elif action in ("declare", "wrong_show"):
            card = self._thrown(seat, e)
            deal.apply(Action.declare(seat, card, self._groups(seat, card)), auto)
        else:
            raise ValueError(f"unknown action {action!r}")

    def _thrown(self, seat: int, e: Mapping[str, Any]) -> int | None:
        """The physical card a declaration throws: its recorded id, or (a wrong show records
        the face only) a held copy of that face that may be thrown."""
        if e.get("card") is None:
            return None  # hand rummy: nothing thrown
        if e.get("card_id") is not None:
            return int(e["card_id"])
        deal = self.deal
        taken = None if deal.taken is None else deal.taken.id
        for c in deal.hands[seat]:
            if c.code == e["card"] and c.id != taken:
                return c.id
        raise ValueError(f"seat {seat} holds no {e['card']} it may throw")

    def _groups(self, seat: int, thrown: int | None) -> Groups | None:
        """The player's own grouping of a declaration (`shown_groups`, as codes) as card ids
        of the cards shown."""
        shown = self.history["final"].get(str(seat), {}).get("shown_groups")
        if shown is None:
            return None
        free: dict[str, list[Card]] = {}
        for c in self.deal.hands[seat]:
            if c.id != thrown:
                free.setdefault(c.code, []).append(c)
        out = []
        for group in shown:
            ids = []
            for code in group:
                same = free.get(code)
                if not same:
                    raise ValueError(f"seat {seat} showed a {code} it did not hold")
                ids.append(same.pop().id)
            out.append(tuple(ids))
        return tuple(out)


def _players(seats: Sequence[Mapping[str, Any]]) -> list[Player]:
    """The players by seat number (a later deal of a pool match may skip eliminated seats)."""
    by_seat = {int(s["seat"]): Player(str(s["player_id"]), str(s["name"])) for s in seats}
    return [by_seat.get(i, Player("", "")) for i in range(max(by_seat, default=-1) + 1)]


def replay(history: Mapping[str, Any]) -> FinishedDeal:
    """Replay a whole history and check it (`DealReplay(history).finish()`)."""
    return DealReplay(history).finish()
