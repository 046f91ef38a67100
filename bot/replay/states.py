"""The facts a replay page shows, computed by the engine when the page is made.

`deal_data` replays one hand history through the engine (`bot.engine.replay.DealReplay`, which
also checks the replay against the record) and writes down, for the deal as dealt and after
every recorded move: each seat's hand as the engine groups it at that moment, the pile's last
cards and who threw them, the stock's count, whose turn it is, the move in words; and at the
end what the results message said: each final arrangement, why each seat paid, the score
changes and standings. `match_data` does so for a match's deals in order, keeping the scores
after each deal from their `deltas` and the rules' pool limit.

The page's script only shows this data (`page.js`): it never judges a card, so a page and the
engine cannot disagree. Everything is plain JSON-able values; the words are already in the
reader's language.

How a hand is grouped is the engine's: its best arrangement of the cards held at that moment
(`evaluate_hand`), laid out as every hand view lays it out (`bot.engine.arrange.arrangement`:
the groups, then the cards left; without a group, wild cards, pairs, near-runs, the rest).
Holding 14 after a draw, the 14 are ruled on as they are, so the card just picked up shows in
the group it completes. (The hand view's ruling on 14, `evaluate_drawn`, weighs every possible
discard: four times the CPU, and it answers what to throw, which a replay does not ask.) At the
end each hand is shown as the results showed it: the engine's groups, then its unmatched
cards.

Data layout (`DATA_VERSION`; `page.js` reads exactly this):

    {"v": 1, "lang": "hi", "title": str, "kind": "net" | "penalty", "view": seat | null,
     "players": [name by seat], "t": {words the page shows, by key},
     "deals": [{
        "n": deal number, "seats": [seats dealt in], "dealer": seat,
        "ind": code | null, "wild": words, "wc": [wild faces' codes],
        "A": [{"p": [[kind, label, [[codes of a cluster], ...], {flat index: role}], ...],
               "d": deadwood | null}],       arrangements, shared by the steps
        "steps": [{"w": [lines], "wp": [lines a seat's view shows instead] (optional),
                   "a": seat that moved | null, "turn": seat | null, "ph": "draw" | "discard",
                   "stock": n, "pn": cards in the pile, "pile": [[code, thrower | null], ...],
                   "h": [index into A by seat, in "seats" order; -1: no cards],
                   "o": {seat: status words} (seats out of the deal), "new": code | null}],
        "before": {seat: score}, "after": {seat: score}, (exact, "15/2"; shown as "7½")
        "shown": {"before": {seat: text}, "after": {seat: text}},
        "end": {"head": words, "seats": {seat: {"title": str, "lines": [str]}},
                "standings": [str], "out": [str]}}]}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import pairwise
from typing import Any

from bot.engine.arrange import Part, arrangement
from bot.engine.cards import Card, Face, standard_faces
from bot.engine.deal import HAND_SIZE, Deal
from bot.engine.evaluate import Evaluation, evaluate_hand
from bot.engine.events import (
    DealEnded,
    Drew,
    Dropped,
    Event,
    Reshuffled,
    TimedOut,
    Took,
    Voided,
    WrongShow,
)
from bot.engine.match import FinishedDeal
from bot.engine.public_log import entry
from bot.engine.replay import DealReplay, ReplayError
from bot.engine.rules import DropPaid, Rules
from bot.engine.states import EndReason, ScoreKind, SeatStatus
from bot.words import Locale, catalogue, text
from bot.words.cards import amount, card, status_words, wild_words
from bot.words.log import entry_text
from bot.words.results import (
    end_text,
    part_label,
    score_change,
    seat_lines,
    standing_line,
    wild_roles,
    wrong_show_problems,
)

DATA_VERSION = 1
#: How many of the pile's top cards a step lists (with who threw each).
PILE_SHOWN = 6


def deal_data(
    history: Mapping[str, Any], locale: Locale | str | None = None, *, seat: int | None = None
) -> dict[str, Any]:
    """The page data of one deal (see the module docstring)."""
    return match_data([history], locale, seat=seat)


def match_data(
    histories: Sequence[Mapping[str, Any]],
    locale: Locale | str | None = None,
    *,
    seat: int | None = None,
) -> dict[str, Any]:
    """The page data of a match's deals, in the order given (deal numbers must rise).

    Scores start at zero and change by each deal's `deltas`; under a pool limit a seat whose
    total reaches it is out from then on, as the match decided. Raises `ReplayError` for a
    history the engine does not replay exactly, or deals that are not one match's."""
    if not histories:
        raise ReplayError("no hand history to replay")
    lang = catalogue().resolve(locale)
    first = histories[0]
    numbers = [int(h.get("deal_number", 1)) for h in histories]
    if any(b <= a for a, b in pairwise(numbers)):
        raise ReplayError("the deals are not in the order they were played")
    if any(h.get("variant") != first.get("variant") for h in histories):
        raise ReplayError("the deals are not of one match (their rules differ)")
    names: dict[int, str] = {}
    for h in histories:
        for s in h.get("seats", []):
            names[int(s["seat"])] = str(s["name"])
    players = [names.get(i, "") for i in range(max(names, default=-1) + 1)]
    kind = ScoreKind.PENALTY
    scores = {s: Fraction(0) for s in range(len(players))}
    eliminated: list[int] = []
    deals = []
    rules: Rules | None = None
    for h in histories:
        replay = DealReplay(h)
        rules = replay.rules
        kind = ScoreKind.NET if rules.drop_paid is DropPaid.TO_WINNER else ScoreKind.PENALTY
        data, finished = _deal(replay, players, lang)
        before = dict(scores)
        for s, d in finished.result.deltas.items():
            scores[s] = scores.get(s, Fraction(0)) + d
        out = []
        for s in replay.deal.seats:
            if s not in eliminated and rules.out_at(scores[s]):
                eliminated.append(s)
                out.append(
                    text(lang, "replay-eliminated", name=players[s], total=amount(scores[s]))
                )
        data["before"] = {str(s): str(v) for s, v in before.items()}
        data["after"] = {str(s): str(v) for s, v in scores.items()}
        data["shown"] = {
            "before": {str(s): _score(v, kind) for s, v in before.items()},
            "after": {str(s): _score(v, kind) for s, v in scores.items()},
        }
        data["end"]["out"] = out
        data["end"]["standings"] = _standings(players, scores, kind, eliminated, rules, lang)
        deals.append(data)
    assert rules is not None
    profile = rules.name
    if len(histories) == 1:
        title = text(lang, "replay-title", deal=numbers[0], profile=profile)
    else:
        title = text(lang, "replay-match-title", deals=len(histories), profile=profile)
    return {
        "v": DATA_VERSION,
        "lang": str(lang),
        "title": title,
        "kind": kind.value,
        "view": seat if seat is not None and 0 <= seat < len(players) else None,
        "players": players,
        "t": _words(players, deals, lang),
        "deals": deals,
    }


# ---- one deal ------------------------------------------------------------------------------


def _deal(
    replay: DealReplay, players: Sequence[str], lang: Locale
) -> tuple[dict[str, Any], FinishedDeal]:
    deal = replay.deal
    rules = replay.rules
    wild_rank = deal.wild_rank
    hands = _Hands(deal)
    dealer = players[deal.dealer]
    first = [
        text(lang, "log-deal", n=deal.number, by=dealer),
        text(lang, "replay-first", who=players[deal.turn]),
    ]
    steps = [_state(deal, hands, first, None, None, None)]
    for step in replay.steps():
        lines, public = _words_of(step.events, deal, players, lang)
        actor = step.recorded[0].get("seat")
        new = _picked_up(step.events)
        steps.append(_state(deal, hands, lines, public, actor, new))
    finished = replay.finish()
    result = finished.result
    # The last step shows each hand as the results did: groups, then unmatched cards.
    last = steps[-1]
    last["h"] = [hands.final(finished.evaluations.get(s), s in deal.out_reason) for s in deal.seats]
    if result.end in (EndReason.LAST_STANDING, EndReason.HAND_RUMMY):
        # The move's own line ("dropped", "declared!") does not say this; a void deal's
        # and a declaration's lines do.
        head = end_text(result, players, lang)
        last["w"] = [*last["w"], head]
        if "wp" in last:
            last["wp"] = [*last["wp"], head]
    timeouts = _timeouts_that_dropped(replay.history)
    kind = ScoreKind.NET if rules.drop_paid is DropPaid.TO_WINNER else ScoreKind.PENALTY
    wrong = {e.seat: e for e in deal.events if isinstance(e, WrongShow)}
    end_seats = {}
    for s in deal.seats:
        lines = seat_lines(finished, s, wild_rank, timeouts.get(s), lang, groups=False)
        show = wrong.get(s)
        if show is not None:
            problems = "; ".join(wrong_show_problems(show, rules, wild_rank, lang))
            lines.insert(1, text(lang, "results-why", problems=problems))
        delta = result.deltas.get(s, Fraction(0))
        title = f"{players[s]} ({score_change(delta, kind, lang)})" if delta else players[s]
        end_seats[str(s)] = {"title": title, "lines": lines}
    indicator = deal.indicator
    data = {
        "n": deal.number,
        "seats": list(deal.seats),
        "dealer": deal.dealer,
        "ind": None if indicator is None else indicator.code,
        "wild": wild_words(rules, wild_rank, indicator, lang),
        "wc": [f.code for f in _wild_faces(rules, wild_rank)],
        "A": hands.table,
        "steps": steps,
        "end": {
            "head": end_text(result, players, lang),
            "title": text(lang, "results-title", deal=deal.number),
            "seats": end_seats,
        },
    }
    return data, finished


def _state(
    deal: Deal,
    hands: _Hands,
    lines: list[str],
    public: list[str] | None,
    actor: int | None,
    new: Card | None,
) -> dict[str, Any]:
    """The table after a step, as the page shows it."""
    live = [e for e in deal.pile_log if e.taken_by is None and not e.recycled]
    state: dict[str, Any] = {
        "w": lines,
        "a": actor,
        "turn": None if deal.over else deal.turn,
        "ph": None if deal.over else deal.phase.value,
        "stock": len(deal.stock),
        "pn": len(live),
        "pile": [[hands.codes[e.card.id], e.by] for e in live[-PILE_SHOWN:]],
        "h": [hands.index(deal, s) for s in deal.seats],
        "new": None if new is None else new.code,
    }
    if public is not None:
        state["wp"] = public
    out = {
        str(s): deal.status[s].value for s in deal.seats if deal.status[s] is not SeatStatus.ACTIVE
    }
    if out:
        state["o"] = out
    return state


def _picked_up(events: Sequence[Event]) -> Card | None:
    for e in events:
        if isinstance(e, Drew | Took):
            return e.card
    return None


class _Hands:
    """Each distinct arrangement shown once (`table`); a hand met again (a card drawn and
    thrown straight back) is not ruled on again."""

    def __init__(self, deal: Deal) -> None:
        self.rules = deal.rules
        self.wild_rank = deal.wild_rank
        self.codes = [c.code for c in deal.deck]  # by card id: a code is made once a deal
        self.table: list[dict[str, Any]] = []
        self._index: dict[str, int] = {}
        self._by_hand: dict[tuple[int, ...], int] = {}  # by the hand's ids, sorted
        self._as_held: dict[tuple[int, ...], int] = {}  # by its ids in the order held

    def index(self, deal: Deal, seat: int) -> int:
        hand = deal.hands[seat]
        if not hand:
            return -1
        # Most steps leave most hands as they were: the ids in the order held find them.
        held = tuple(c.id for c in hand)
        found = self._as_held.get(held)
        if found is not None:
            return found
        key = tuple(sorted(held))
        found = self._by_hand.get(key)
        if found is None:
            ev = evaluate_hand(hand, self.rules, self.wild_rank)
            deadwood = ev.deadwood if len(hand) == HAND_SIZE else None
            found = self._by_hand[key] = self._entry(arrangement(ev, self.wild_rank), deadwood)
        self._as_held[held] = found
        return found

    def final(self, ev: Evaluation | None, out: bool) -> int:
        """A hand at the end, as the results show it: the engine's groups, then unmatched."""
        if ev is None or out:
            return -1
        parts: list[list[Any]] = []
        for g in ev.groups:
            roles = wild_roles(g.kind.value, g.cards, self.wild_rank)
            flat = {str(i): roles[c.id] for i, c in enumerate(g.cards) if c.id in roles}
            parts.append([g.kind.value, [[self.codes[c.id] for c in g.cards]], flat])
        if ev.leftover:
            parts.append(["unmatched", [[self.codes[c.id] for c in ev.leftover]], {}])
        return self._add({"p": parts, "d": ev.deadwood})

    def _entry(self, parts: Sequence[Part], deadwood: int | None) -> int:
        code = self.codes
        shown = [[p.kind, [[code[c.id] for c in cl] for cl in p.clusters], {}] for p in parts]
        return self._add({"p": shown, "d": deadwood})

    def _add(self, item: dict[str, Any]) -> int:
        key = repr(item)
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.table)
            self.table.append(item)
        return found


def _wild_faces(rules: Rules, wild_rank: int | None) -> list[Face]:
    faces = [*standard_faces(), Face.parse("JK")]
    return [f for f in faces if rules.is_wild(f, wild_rank)]


def _timeouts_that_dropped(history: Mapping[str, Any]) -> dict[int, int]:
    """Seats the table dropped for running out of time, with how many times in a row (what the
    results message says beside their drop)."""
    return {
        int(e["seat"]): int(e["count"])
        for e in history["events"]
        if e.get("action") == "timeout" and e.get("dropped")
    }


# ---- words ---------------------------------------------------------------------------------


def _words_of(
    events: Sequence[Event], deal: Deal, players: Sequence[str], lang: Locale
) -> tuple[list[str], list[str] | None]:
    """A step's events in words: every card named (the page is made after the deal, when every
    hand is revealed), and, when that differs, the lines a seat's own view shows other seats'
    moves in (a card drawn from the stock stays hidden there, as at the table)."""
    lines: list[str] = []
    public: list[str] = []
    rules = deal.rules
    for e in events:
        match e:
            case Drew(seat, c, auto):
                who = players[seat]
                msg = "replay-auto-drew" if auto else "replay-drew"
                lines.append(text(lang, msg, who=who, card=card(c)))
                hidden = "replay-auto-drew-hidden" if auto else "log-drew"
                public.append(text(lang, hidden, who=who))
                continue
            case Took(seat, c, True):
                line = text(lang, "replay-auto-took", who=players[seat], card=card(c))
            case TimedOut(seat, count, False):
                line = text(lang, "replay-timeout", who=players[seat], count=count)
            case Dropped(auto=True):
                line = _logged(dataclasses.replace(e, auto=False), players, rules, lang)
            case WrongShow(seat):
                problems = "; ".join(wrong_show_problems(e, rules, deal.wild_rank, lang))
                line = _logged(e, players, rules, lang)
                lines.append(line)
                public.append(line)
                line = text(lang, "results-why", problems=problems)
            case Reshuffled(order):
                line = text(lang, "replay-reshuffle", count=len(order))
            case Voided():
                line = text(lang, "results-void")
            case DealEnded():
                continue  # the results' first line says it (added with the result)
            case _:  # a throw, a pile card taken, a drop, a leave, a declaration
                line = _logged(e, players, rules, lang)
        lines.append(line)
        public.append(line)
    return lines, (public if public != lines else None)


def _logged(event: Event, players: Sequence[str], rules: Rules, lang: Locale) -> str:
    """An event as the table log words it (`public_log` record, `bot.words.log`)."""
    record = entry(event, players, rules)
    worded = None if record is None else entry_text(record, lang)
    if worded is None:  # pragma: no cover - every move the page words has a log record
        raise ReplayError(f"no words for {event!r}")
    return worded


def _score(value: Fraction, kind: ScoreKind) -> str:
    return amount(value) if kind is ScoreKind.PENALTY else _signed(value)


def _signed(value: Fraction) -> str:
    return f"+{amount(value)}" if value > 0 else amount(value)


def _standings(
    players: Sequence[str],
    scores: Mapping[int, Fraction],
    kind: ScoreKind,
    eliminated: Sequence[int],
    rules: Rules,
    lang: Locale,
) -> list[str]:
    """The standings after a deal, best first, as the results message lists them. A pool's
    last player in is its winner; other formats' winners are not known from the deals alone."""
    net = kind is ScoreKind.NET
    order = sorted(scores, key=lambda s: -scores[s] if net else scores[s])
    left_in = [s for s in scores if s not in eliminated]
    pool_winner = left_in[0] if rules.pool_limit is not None and len(left_in) == 1 else None
    return [
        standing_line(
            players[s], scores[s], kind, out=s in eliminated, winner=s == pool_winner, locale=lang
        )
        for s in order
    ]


def _words(
    players: Sequence[str], deals: Sequence[Mapping[str, Any]], lang: Locale
) -> dict[str, Any]:
    """Everything else the page says, worded here so the script formats nothing: labels, and
    sentences with a count or a name made for each count or seat the page needs."""
    plain = {key: text(lang, msg_id) for key, msg_id in _LABELS.items()}
    stock = {s["stock"] for d in deals for s in d["steps"]}
    piles = {s["pn"] for d in deals for s in d["steps"]}
    seats = range(len(players))
    numbers = [d["n"] for d in deals]
    return {
        **plain,
        "move-count": text(lang, "replay-move-count", move="{m}", moves="{n}"),
        "deal-option": {str(n): text(lang, "replay-deal-option", deal=n) for n in numbers},
        "scores-after": {str(n): text(lang, "replay-scores-after", deal=n) for n in numbers},
        "view-seat": {str(s): text(lang, "replay-view-seat", name=players[s]) for s in seats},
        "turn-draw": {str(s): text(lang, "replay-turn-draw", name=players[s]) for s in seats},
        "turn-discard": {str(s): text(lang, "replay-turn-discard", name=players[s]) for s in seats},
        "thrown-by": {str(s): text(lang, "replay-thrown-by", name=players[s]) for s in seats},
        "stock-count": {str(n): text(lang, "replay-stock-count", count=n) for n in stock},
        "pile-size": {str(n): text(lang, "replay-pile-size", count=n) for n in piles},
        "hidden": {str(n): text(lang, "replay-hidden", count=n) for n in range(15)},
        "parts": {k: part_label(k, lang) for k in _PART_KINDS},
        "status": {k: status_words(k, lang).strip() for k in ("dropped", "out")},
        "deadwood": {
            str(a["d"]): text(lang, "replay-deadwood", deadwood=a["d"])
            for d in deals
            for a in d["A"]
            if a["d"] is not None
        },
    }


#: The page's labels that need no count or name, by the key the script reads them by.
_LABELS = {
    "made": "replay-made",
    "start": "replay-start",
    "back": "replay-back",
    "forward": "replay-forward",
    "end": "replay-end",
    "play": "replay-play",
    "pause": "replay-pause",
    "speed": "replay-speed",
    "deal": "replay-deal",
    "move": "replay-move",
    "dealt": "replay-dealt",
    "view": "replay-view",
    "view-all": "replay-view-all",
    "keys": "replay-keys",
    "stock": "replay-stock",
    "pile": "replay-pile",
    "pile-empty": "replay-pile-empty",
    "opening": "replay-opening",
    "indicator": "replay-indicator",
    "indicator-none": "replay-indicator-none",
    "dealer": "replay-dealer",
    "new": "replay-new",
    "over": "replay-over",
    "scores-before": "replay-scores-before",
}

_PART_KINDS = ("pure", "impure", "set", "wild", "pairs", "near_runs", "nothing", "unmatched")
