"""Where every card, label and mark goes, computed without drawing anything.

This module imports no Pillow on purpose: the geometry of an image is the part worth testing
(every card of the hand appears once, in the order the discard menu lists them, groups apart,
marks on the right cards), and plain dataclasses make those tests fast and exact. The painter
(`paint.py`) turns a `Scene` into pixels and decides nothing.

Privacy is also settled here, by the types each builder accepts: `table_scene` takes only a
`PublicView`, `results_scene` only a finished hand history, and `hand_scene` the one seat's
`Observation`. Nothing else is reachable from them.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot.engine.cards import Card, Face
from bot.engine.evaluate import DrawnEvaluation, Evaluation, evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation, PublicView

# ---- sizes ---------------------------------------------------------------------------------
# Card sizes by name; the painter renders one sprite per (face, size). Large is the hand and
# the table centre, small the results rows, mini the backs fanned in front of each seat.
CARD_SIZES: dict[str, tuple[int, int]] = {
    "large": (84, 118),
    "small": (60, 84),
    "mini": (26, 37),
}
MAX_WIDTH = 1000  # Discord shows wider images scaled down; 14 cards must fit
MARGIN = 18
GROUP_GAP = 24  # between two groups of the hand: wider than any in-group step is "covered"
HAND_STEP = 52  # preferred horizontal step between overlapping cards of one group
RAISE = 14  # the card just drawn sits this much higher than its neighbours

KIND_LABEL = {"pure": "Pure run", "impure": "Run", "set": "Set"}
SUIT_ORDER = {0: 0, 1: 1, 3: 2, 2: 3}  # ♠ ♥ ♣ ♦: colours alternate (same as the menu today)
SUIT_NAMES = {0: "Spades", 1: "Hearts", 2: "Diamonds", 3: "Clubs"}
_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
STATUS_TEXT = {
    "dropped": "dropped",
    "out": "out of this deal",
    "eliminated": "eliminated",
    "left": "left the table",
}


# ---- scene objects -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlacedCard:
    """One card on the canvas. `face` None means a card back."""

    face: Face | None
    x: int
    y: int
    size: str = "large"
    card_id: int | None = None  # the physical card, when the image shows a live hand
    group: int = -1  # index of the section (hand) or seat (table/results) it belongs to
    wild: bool = False
    drawn: bool = False  # just drawn this turn (highlighted)
    taken: bool = False  # just taken from the pile: may not be discarded this turn
    suggested: bool = False  # the engine's best discard

    @property
    def width(self) -> int:
        return CARD_SIZES[self.size][0]

    @property
    def height(self) -> int:
        return CARD_SIZES[self.size][1]


@dataclass(frozen=True, slots=True)
class Label:
    """Text; `style` names a colour and weight the painter knows (see paint.STYLES)."""

    text: str
    x: int
    y: int
    size: int = 15
    style: str = "ink"
    anchor: str = "la"  # Pillow anchor names (left/middle/right + ascender/middle)
    max_width: int | None = None  # the painter shortens longer text with an ellipsis


@dataclass(frozen=True, slots=True)
class Box:
    """A rounded rectangle: group underlays, seat plates, highlight frames."""

    x0: int
    y0: int
    x1: int
    y1: int
    style: str
    radius: int = 10


@dataclass(frozen=True, slots=True)
class Disc:
    """A round token: the dealer button, the turn marker."""

    x: int
    y: int
    r: int
    style: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class Fan:
    """`count` card backs side by side, `step` px apart: a hidden hand, by its size only."""

    x: int
    y: int
    count: int
    seat: int
    size: str = "mini"
    step: int = 6

    @property
    def width(self) -> int:
        return CARD_SIZES[self.size][0] + (self.count - 1) * self.step


@dataclass(frozen=True, slots=True)
class Section:
    """One group of the hand as shown: a label and its cards, in display order."""

    label: str
    kind: str  # pure / impure / set / unmatched / suit
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything the painter needs, back to front: background, boxes, discs, cards, labels."""

    width: int
    height: int
    background: str  # "felt" (hand, results) or "table" (the oval table)
    boxes: tuple[Box, ...] = ()
    discs: tuple[Disc, ...] = ()
    fans: tuple[Fan, ...] = ()  # drawn before the cards
    cards: tuple[PlacedCard, ...] = ()
    labels: tuple[Label, ...] = ()
    sections: tuple[Section, ...] = ()  # hand scenes: the groups, for tests and alt text


# ---- small text helpers ---------------------------------------------------------------------


def rank_name(rank: int) -> str:
    return _RANK_NAMES.get(rank, str(rank))


def amount_text(x: Fraction | int | str) -> str:
    """Exact amounts in ASCII (the bundled font has no ½): 15/2 is 7.5, never rounded."""
    f = Fraction(x)
    if f.denominator == 1:
        return str(f.numerator)
    if f.denominator in (2, 4, 5, 8, 10):  # finite decimals stay exact
        return f"{float(f):g}"
    return f"{f.numerator}/{f.denominator}"


def signed_text(x: Fraction | int | str) -> str:
    f = Fraction(x)
    return f"+{amount_text(f)}" if f > 0 else amount_text(f)


def plain_name(name: str, fallback: str) -> str:
    """A display name the bundled (ASCII) font can draw: accents folded, emoji dropped.

    Discord names may hold any script; the text embed keeps the real name, the image a
    readable approximation rather than tofu boxes."""
    folded = unicodedata.normalize("NFKD", name)
    out = "".join(ch for ch in folded if " " <= ch <= "~")
    out = " ".join(out.split())
    return out or fallback


def wild_note(wild_rank: int | None, indicator: Face | Card | None, nothing_wild: bool) -> str:
    """The same three cases as the text UI's `wild_text`, short enough for a card caption."""
    if nothing_wild or indicator is None:
        return "Nothing wild"
    if wild_rank is None:
        return "Jokers wild"
    return f"Wild: {rank_name(wild_rank)}s + jokers"


# ---- the hand: order and sections -------------------------------------------------------------


def evaluate_view(obs: Observation) -> Evaluation | DrawnEvaluation:
    """The one evaluation a hand view needs: 14 cards → every discard tried, else 13 cards.

    Exposed so the Discord side can evaluate once and hand the result to both the text embed
    and the image (evaluation dominates the cost of a hand view)."""
    hand = list(obs.hand)
    if len(hand) == 14:
        return evaluate_drawn(hand, obs.rules, obs.wild_rank, forbidden=obs.taken)
    return evaluate_hand(hand, obs.rules, obs.wild_rank)


def _suit_key(c: Card) -> tuple[bool, int, int, int]:
    return (c.face.is_joker, SUIT_ORDER.get(c.suit, 9), c.rank, c.id)


def hand_sections(
    obs: Observation,
    evaluation: Evaluation | DrawnEvaluation | None = None,
    sort_by_suit: bool = False,
) -> tuple[Section, ...]:
    """The hand split into labelled sections, in the order they are shown.

    Arrangement mode mirrors the text embed: the engine's groups, then the unmatched cards
    with (after a draw) the suggested discard last. Suit mode: ♠ ♥ ♣ ♦ (colours alternate),
    each low to high, printed jokers at the end — the discard menu's order today."""
    hand = list(obs.hand)
    if not hand:
        return ()
    if sort_by_suit:
        by_suit: dict[int, list[Card]] = {}
        for c in sorted(hand, key=_suit_key):
            by_suit.setdefault(-1 if c.face.is_joker else c.suit, []).append(c)
        return tuple(
            Section("Jokers" if s == -1 else SUIT_NAMES[s], "suit", tuple(cs))
            for s, cs in by_suit.items()
        )
    ev = evaluation if evaluation is not None else evaluate_view(obs)
    best = ev.best if isinstance(ev, DrawnEvaluation) else ev
    sections = [Section(KIND_LABEL[g.kind.value], g.kind.value, g.cards) for g in best.groups]
    leftover = list(best.leftover)
    if isinstance(ev, DrawnEvaluation):
        leftover.append(ev.best_discard)
    if leftover:
        sections.append(Section("Unmatched", "unmatched", tuple(leftover)))
    return tuple(sections)


def hand_order(
    obs: Observation,
    evaluation: Evaluation | DrawnEvaluation | None = None,
    sort_by_suit: bool = False,
) -> list[Card]:
    """THE order of the hand: the image draws cards in it and the discard menu should list
    its options in it (filtering out the card that may not be discarded), so what a player
    sees left to right is what they read top to bottom."""
    return [c for s in hand_sections(obs, evaluation, sort_by_suit) for c in s.cards]


def just_drawn(obs: Observation) -> Card | None:
    """The card that arrived this turn: the engine appends a drawn card to the hand, so in the
    discard phase it is the last one. (A future `obs.drawn` field wins if the engine adds it.)"""
    explicit = getattr(obs, "drawn", None)
    if isinstance(explicit, Card):
        return explicit
    if obs.turn == obs.seat and obs.phase == "discard" and len(obs.hand) == 14:
        return obs.hand[-1]
    return None


def _group_step(sizes: Sequence[int], card_w: int, gap: int, preferred: int, width: int) -> int:
    """The in-group step that fits all groups within `width` (never above `preferred`)."""
    groups = len(sizes)
    overlaps = sum(sizes) - groups
    if overlaps <= 0:
        return preferred
    room = width - 2 * MARGIN - groups * card_w - (groups - 1) * gap
    return max(16, min(preferred, room // overlaps))


def hand_scene(
    obs: Observation,
    evaluation: Evaluation | DrawnEvaluation | None = None,
    sort_by_suit: bool = False,
) -> Scene:
    """The private hand: sections left to right, each with its label, marks on the cards."""
    if obs.match_phase != "playing" or not obs.hand:
        return Scene(
            420,
            70,
            "felt",
            labels=(Label("You hold no cards right now.", 210, 35, 18, "ink", "mm"),),
        )
    ev = evaluation if evaluation is not None else evaluate_view(obs)
    sections = hand_sections(obs, ev, sort_by_suit)
    best = ev.best if isinstance(ev, DrawnEvaluation) else ev
    suggested = ev.best_discard if isinstance(ev, DrawnEvaluation) and not sort_by_suit else None
    drawn = just_drawn(obs)
    taken = obs.taken
    wild_rank = obs.wild_rank
    rules = obs.rules

    card_w, card_h = CARD_SIZES["large"]
    step = _group_step([len(s.cards) for s in sections], card_w, GROUP_GAP, HAND_STEP, MAX_WIDTH)
    header_h = 34
    label_h = 22
    top = header_h + label_h + RAISE
    cards: list[PlacedCard] = []
    labels: list[Label] = []
    boxes: list[Box] = []
    x = MARGIN
    for gi, sec in enumerate(sections):
        span = card_w + (len(sec.cards) - 1) * step
        boxes.append(Box(x - 6, top - RAISE - 6, x + span + 6, top + card_h + 24, "group", 10))
        labels.append(
            Label(sec.label, x, header_h, 15, f"kind_{sec.kind}", "la", max_width=span + 4)
        )
        for i, c in enumerate(sec.cards):
            is_drawn = drawn is not None and c.id == drawn.id
            cards.append(
                PlacedCard(
                    c.face,
                    x + i * step,
                    top - RAISE if is_drawn else top,
                    "large",
                    card_id=c.id,
                    group=gi,
                    wild=rules.is_wild(c.face, wild_rank),
                    drawn=is_drawn,
                    taken=taken is not None and c.id == taken.id,
                    suggested=suggested is not None and c.id == suggested.id,
                )
            )
        x += span + GROUP_GAP
    width = max(x - GROUP_GAP + MARGIN, 560)
    tag_y = top + card_h + 4
    for pc in cards:
        visible = min(step, card_w) if pc is not _last_in_group(cards, pc) else card_w
        tag = None
        if pc.taken:
            tag = ("can't discard", "tag_taken")
        elif pc.drawn:
            tag = ("new", "tag_drawn")
        elif pc.suggested:
            tag = ("discard?", "tag_suggested")
        if tag is not None:
            labels.append(Label(tag[0], pc.x + 4, tag_y, 13, tag[1], "la", max_width=visible + 40))

    # Header: the numbers a player decides by, in the same words as the text embed.
    if isinstance(ev, DrawnEvaluation) and not sort_by_suit:
        dead = f"Best discard leaves deadwood {best.deadwood}"
        if ev.declarable:
            dead += " · you can declare!"
    elif isinstance(ev, DrawnEvaluation):
        dead = f"Deadwood now: {best.deadwood}"
    else:
        dead = f"Deadwood {best.deadwood}"
    labels.append(Label(dead, MARGIN, 9, 17, "gold" if best.valid else "ink", "la"))
    note = wild_note(wild_rank, obs.indicator, rules.nothing_wild)
    labels.append(Label(note, width - MARGIN, 9, 17, "muted", "ra"))
    height = tag_y + 24
    return Scene(
        width,
        height,
        "felt",
        boxes=tuple(boxes),
        cards=tuple(cards),
        labels=tuple(labels),
        sections=sections,
    )


def _last_in_group(cards: Sequence[PlacedCard], pc: PlacedCard) -> PlacedCard:
    return [c for c in cards if c.group == pc.group][-1]


# ---- the public table ---------------------------------------------------------------------------

TABLE_W, TABLE_H = 920, 600
_PLATE_W, _PLATE_H = 184, 72
_FAN_STEP = 6


def _seat_centres(n: int) -> list[tuple[int, int]]:
    """Seats around the oval, seat 0 at the bottom, then clockwise as a table goes round."""
    cx, cy, rx, ry = TABLE_W // 2, TABLE_H // 2, 350, 232
    out = []
    for i in range(n):
        angle = math.pi / 2 + 2 * math.pi * i / n
        out.append((round(cx + rx * math.cos(angle)), round(cy + ry * math.sin(angle))))
    return out


def table_scene(view: PublicView, nothing_wild: bool = False) -> Scene:
    """The public table, from public facts only (a `PublicView` cannot hold a hidden card).

    `nothing_wild` is the one rule the caption needs (a rules fact, not a card)."""
    boxes: list[Box] = []
    discs: list[Disc] = []
    fans: list[Fan] = []
    cards: list[PlacedCard] = []
    labels: list[Label] = []
    variant = plain_name(view.variant, "Rummy").capitalize()
    title = f"{variant} · deal {view.deal_number}"
    if view.match_phase == "over":
        title = f"{variant} · match over"
    labels.append(Label(title, 16, 12, 18, "ink", "la"))

    mini_w, mini_h = CARD_SIZES["mini"]
    for (cx, cy), seat in zip(_seat_centres(len(view.seats)), view.seats, strict=True):
        s = seat.seat
        on_turn = view.turn == s
        playing = seat.status == "active"
        x0, y0 = cx - _PLATE_W // 2, cy - _PLATE_H // 2 + 12
        style = "plate_turn" if on_turn else ("plate" if playing else "plate_out")
        boxes.append(Box(x0, y0, x0 + _PLATE_W, y0 + _PLATE_H, style, 12))
        name = plain_name(seat.name, f"Seat {s + 1}")
        labels.append(Label(name, x0 + 12, y0 + 8, 17, "name", "la", max_width=_PLATE_W - 44))
        score = f"score {amount_text(seat.score)}"
        info = f"{seat.cards} cards · {score}" if playing and seat.cards else score
        labels.append(Label(info, x0 + 12, y0 + 31, 14, "muted", "la", max_width=_PLATE_W - 20))
        if on_turn:
            step_text = "to draw or drop" if view.phase == "draw" else "to discard or declare"
            labels.append(Label(f"On turn: {step_text}", x0 + 12, y0 + 51, 13, "gold", "la",
                                max_width=_PLATE_W - 20))  # fmt: skip
        elif seat.status not in ("active", "waiting"):
            status = STATUS_TEXT.get(seat.status, seat.status)
            labels.append(Label(status, x0 + 12, y0 + 51, 13, "red", "la"))
        if seat.is_dealer:
            discs.append(Disc(x0 + _PLATE_W - 18, y0 + 18, 11, "dealer", "D"))
        # The fan of backs sits just above the plate, one back per card held.
        if playing and seat.cards:
            n = seat.cards
            fan_w = mini_w + (n - 1) * _FAN_STEP
            fx = cx - fan_w // 2
            fans.append(Fan(fx, y0 - mini_h + 8, n, s, "mini", _FAN_STEP))

    # Centre: stock, top discard, indicator, each with a caption.
    card_w, card_h = CARD_SIZES["large"]
    cy = TABLE_H // 2 - card_h // 2 - 10
    slots = [TABLE_W // 2 - 150, TABLE_W // 2 - card_w // 2, TABLE_W // 2 + 150 - card_w]
    cap_y = cy + card_h + 10
    if view.stock_size > 0:
        layers = min(4, 1 + view.stock_size // 15)
        for i in range(layers):
            cards.append(PlacedCard(None, slots[0] - 2 * i, cy - 2 * i, "large"))
    else:
        boxes.append(Box(slots[0], cy, slots[0] + card_w, cy + card_h, "slot", 8))
    labels.append(Label(f"Stock {view.stock_size}", slots[0] + card_w // 2, cap_y, 15, "ink", "ma"))
    if view.top_discard is not None:
        cards.append(PlacedCard(view.top_discard.face, slots[1], cy, "large"))
    else:
        boxes.append(Box(slots[1], cy, slots[1] + card_w, cy + card_h, "slot", 8))
    labels.append(Label("Discard", slots[1] + card_w // 2, cap_y, 15, "ink", "ma"))
    if view.indicator is not None:
        cards.append(PlacedCard(view.indicator.face, slots[2], cy, "large"))
    else:
        boxes.append(Box(slots[2], cy, slots[2] + card_w, cy + card_h, "slot", 8))
    labels.append(Label("Indicator", slots[2] + card_w // 2, cap_y, 15, "ink", "ma"))
    note = wild_note(view.wild_rank, view.indicator, nothing_wild)
    labels.append(Label(note, slots[2] + card_w // 2, cap_y + 20, 14, "gold", "ma"))
    return Scene(
        TABLE_W,
        TABLE_H,
        "table",
        boxes=tuple(boxes),
        discs=tuple(discs),
        fans=tuple(fans),
        cards=tuple(cards),
        labels=tuple(labels),
    )


# ---- results -------------------------------------------------------------------------------------

_RESULT_NAME_W = 200
_RESULT_STEP = 34
_RESULT_GAP = 16
_RESULT_ROW_H = 128


def _wild_rank_of(history: Mapping[str, Any]) -> int | None:
    name = history.get("wild_rank")
    if name is None:
        return None
    return Face.parse(f"{name}S").rank


def results_scene(history: Mapping[str, Any]) -> Scene:
    """The reveal: one row per seat with its best arrangement, what it pays, the winner marked.

    Built from the finished hand history only. Dropped hands stay face down, as in the text
    result (a drop is never shown)."""
    end = history["end"]
    reason = end["reason"]
    winner = end.get("winner")
    names = {
        int(s["seat"]): plain_name(s["name"], f"Seat {s['seat'] + 1}") for s in history["seats"]
    }
    rules = history.get("rules", {})
    nothing_wild = bool(rules.get("nothing_wild", False))
    wild_rank = _wild_rank_of(history)
    charges = {int(c["seat"]): c for c in history.get("charges", [])}
    deltas = {int(s): Fraction(v) for s, v in history.get("deltas", {}).items()}

    if reason == "void":
        head = "The stock ran out: the deal is void, nobody pays."
    else:
        how = {
            "declared": "declared",
            "hand_rummy": "declared hand rummy",
            "last_standing": "is the last player standing",
        }.get(reason, reason)
        head = f"{names.get(winner, '?')} {how}!"
    labels = [
        Label(f"Deal {history['deal_number']} result", MARGIN, 12, 19, "ink", "la"),
        Label(head, MARGIN, 38, 16, "gold", "la"),
    ]
    boxes: list[Box] = []
    discs: list[Disc] = []
    fans: list[Fan] = []
    cards: list[PlacedCard] = []
    card_w = CARD_SIZES["small"][0]
    y = 70
    right = 0
    for row, (seat_str, fin) in enumerate(history["final"].items()):
        seat = int(seat_str)
        is_winner = seat == winner
        boxes.append(
            Box(MARGIN - 8, y, 0, y + _RESULT_ROW_H - 10, "row_win" if is_winner else "row", 12)
        )
        labels.append(
            Label(names.get(seat, f"Seat {seat + 1}"), MARGIN + 6, y + 14, 18, "name", "la",
                  max_width=_RESULT_NAME_W - 44)
        )  # fmt: skip
        if is_winner:
            discs.append(Disc(MARGIN + _RESULT_NAME_W - 30, y + 24, 13, "winner", "W"))
        delta = deltas.get(seat, Fraction(0))
        charge = charges.get(seat)
        if charge is not None:
            labels.append(
                Label(f"pays {amount_text(charge['amount'])}", MARGIN + 6, y + 42, 16, "red", "la")
            )
            basis = str(charge["basis"]).replace("_", " ")
            labels.append(
                Label(f"{basis} {charge['base']}", MARGIN + 6, y + 64, 14, "muted", "la",
                      max_width=_RESULT_NAME_W - 16)
            )  # fmt: skip
        elif is_winner:
            labels.append(Label("wins", MARGIN + 6, y + 42, 16, "gold", "la"))
        if delta:
            labels.append(Label(f"score {signed_text(delta)}", MARGIN + 6, y + 86, 14,
                                "gold" if delta > 0 else "muted", "la"))  # fmt: skip

        x = MARGIN + _RESULT_NAME_W
        cy = y + 28
        arrangement = fin.get("arrangement")
        if fin.get("status") == "active" and arrangement:
            groups: list[tuple[str, list[str]]] = [
                (KIND_LABEL.get(g["kind"], g["kind"]), list(g["cards"]))
                for g in arrangement["groups"]
            ]
            if arrangement.get("leftover"):
                groups.append(("Unmatched", list(arrangement["leftover"])))
            for label, codes in groups:
                span = card_w + (len(codes) - 1) * _RESULT_STEP
                labels.append(Label(label, x, y + 8, 13, "muted", "la", max_width=span + 4))
                for i, code in enumerate(codes):
                    face = Face.parse(code)
                    wild = not nothing_wild and (face.is_joker or face.rank == wild_rank)
                    cards.append(
                        PlacedCard(face, x + i * _RESULT_STEP, cy, "small", group=row, wild=wild)
                    )
                x += span + _RESULT_GAP
            x -= _RESULT_GAP
        else:
            out = fin.get("out_reason") or fin.get("status", "")
            fan = Fan(x, cy + 12, len(fin.get("cards", [])) or 13, seat, "mini", 8)
            fans.append(fan)
            x += fan.width + 14
            labels.append(Label(str(out).replace("_", " "), x, cy + 22, 16, "muted", "la"))
            x += 160
        right = max(right, x)
        y += _RESULT_ROW_H
    width = min(MAX_WIDTH, max(right + MARGIN + 8, 640))
    boxes = [Box(b.x0, b.y0, width - MARGIN + 8, b.y1, b.style, b.radius) for b in boxes]
    return Scene(
        width,
        y + 6,
        "felt",
        boxes=tuple(boxes),
        discs=tuple(discs),
        fans=tuple(fans),
        cards=tuple(cards),
        labels=tuple(labels),
    )
