"""Where every card, label and mark goes, computed without drawing anything.

The geometry of an image is the part worth testing (every card of the hand appears once, in
the order the discard menu lists them, groups apart, marks on the right cards, text large
enough for a phone), and plain dataclasses make those tests fast and exact. The painter
(`paint.py`) and the card art (`sprites.py`) turn this geometry into pixels and decide
nothing about where things go. The one thing borrowed from Pillow here is the bundled font's
measurements (`font`, `text_width`): a label is sized to fit its text, so no label needs
cutting, and the corner index of a card is placed from the real glyph boxes.

Privacy is also settled here, by the types each builder accepts: `table_scene` takes only a
`PublicView`, `results_scene` only a finished hand history, and `hand_scene` the one seat's
`Observation`. Nothing else is reachable from them.
"""

from __future__ import annotations

import itertools
import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from bot.engine.arrange import NEAR_RUNS, NOTHING, PAIRS, UNMATCHED, WILD, arrangement
from bot.engine.cards import Card, Face
from bot.engine.evaluate import DrawnEvaluation, Evaluation, evaluate_drawn, evaluate_hand
from bot.engine.observation import Observation, PileCard, PublicView

from . import typeset
from .captions import Captions

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont, ImageFont

# ---- sizes ---------------------------------------------------------------------------------
# Card sizes by name; the painter renders one sprite per (face, size). Large is the hand and
# the table, small the results rows, mini the backs fanned in the results for hidden hands.
CARD_SIZES: dict[str, tuple[int, int]] = {
    "large": (84, 118),
    "small": (60, 84),
    "mini": (26, 37),
}
MAX_WIDTH = 1000  # Discord shows wider images scaled down; nothing is wider than this
MARGIN = 18
GROUP_GAP = 24  # between two groups of the hand: wider than any in-group step is "covered"
HAND_STEP = 54  # preferred horizontal step between overlapping cards of one group
RAISE = 14  # the card just drawn sits this much higher than its neighbours

# Phones: Discord shows a picture about 360 px wide, whatever its real width. Every picture
# (the hand, the table, the results, the standings) is laid out so that, scaled to that
# width, a card's rank is at least 12 px tall and every text's font at least 9 px
# (tests/images/test_phone.py checks the computed sizes of each kind).
PHONE_WIDTH = 360
MIN_RANK_PX = 12
MIN_LABEL_PX = 9
HAND_MAX_WIDTH = 600  # 360/600 = 0.6: ranks of 21 px and labels of 15 px stay readable
LABEL_SIZE = 15  # the smallest label in the hand and table pictures
HEADER_SIZE = 17

#: The caption field (`Captions`) of each group kind and each part of `bot.engine.arrange`
#: (one box per pair, per near-run): the words come from the caller, in its language.
KIND_CAPTION = {"pure": "kind_pure", "impure": "kind_impure", "set": "kind_set"}
PART_CAPTION = {
    WILD: "part_wild",
    PAIRS: "part_pairs",
    NEAR_RUNS: "part_near_runs",
    NOTHING: "part_nothing",
    UNMATCHED: "part_unmatched",
}
SUIT_ORDER = {0: 0, 1: 1, 3: 2, 2: 3}  # ♠ ♥ ♣ ♦: colours alternate (same as the menu today)
#: The language-free key of each suit row of a hand sorted by suit (`Section.key`).
SUIT_KEYS = {-1: "jokers", 0: "spades", 1: "hearts", 2: "diamonds", 3: "clubs"}
_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def section_label(words: Captions, key: str) -> str:
    """The caption of a hand section by its key (a group kind, an arrange part, a suit)."""
    field = KIND_CAPTION.get(key) or PART_CAPTION.get(key) or f"suit_{key}"
    return str(getattr(words, field, key))


# ---- text measurements ------------------------------------------------------------------------


def font(size: int) -> FreeTypeFont | ImageFont:
    """Pillow's bundled scalable font at `size` px (cached: loading parses the font): the
    card art's, and every caption's Latin text (Devanagari runs: `typeset`)."""
    return typeset.latin_font(size)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    """How wide `text` is drawn at `size` px, counting the 1 px outline bold labels get,
    each script in the font the painter draws it with (`typeset.length`; Devanagari in the
    bold face, the wider one, whichever the label's style)."""
    return math.ceil(typeset.length(text, size, bold=True)) + 2


def disc_text_size(text: str, r: int) -> int:
    """The font size the painter writes a disc's word in (the dealer's button, the winner's
    mark): Latin at 1.3 times the radius; Devanagari (wider) as large as fits 1.6 radii."""
    if not typeset.has_devanagari(text):
        return round(r * 1.3)
    size = round(r * 1.1)
    while size > 8 and typeset.length(text, size, bold=True) > 1.6 * r:
        size -= 1
    return size


# ---- scene objects -----------------------------------------------------------------------------

T = TypeVar("T")


def _pickled_by_fields(cls: type[T]) -> type[T]:
    """Pickle a frozen slots dataclass as its class and its field values, in order.

    Every picture crosses to the drawing process pickled. A slots dataclass otherwise goes
    through the generic copyreg path (a Python `__getstate__` building a dict per object),
    which made pickling a hand's scene cost more than writing it to the pipe."""
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]

    def reduce(self: T) -> tuple[type[T], tuple[Any, ...]]:
        return cls, tuple([getattr(self, name) for name in names])

    cls.__reduce__ = reduce  # type: ignore[assignment, method-assign]
    return cls


@_pickled_by_fields
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
    row: int = 0  # the hand's row (a hand wraps onto several rows to stay phone-sized)

    @property
    def width(self) -> int:
        return CARD_SIZES[self.size][0]

    @property
    def height(self) -> int:
        return CARD_SIZES[self.size][1]


@_pickled_by_fields
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


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Box:
    """A rounded rectangle: group underlays, seat plates, highlight frames."""

    x0: int
    y0: int
    x1: int
    y1: int
    style: str
    radius: int = 10


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Disc:
    """A round token: the dealer button, the turn marker."""

    x: int
    y: int
    r: int
    style: str
    text: str = ""


@_pickled_by_fields
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


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Section:
    """One group of the hand as shown: a label and its cards, in display order."""

    key: str  # what it is, in no language: a group kind, an arrange part, or a suit
    kind: str  # pure / impure / set / unmatched / suit
    cards: tuple[Card, ...]
    label: str = ""  # its caption, when laid out with `Captions`


@_pickled_by_fields
@dataclass(frozen=True, slots=True)
class Scene:
    """Everything the painter needs, back to front: background, boxes, discs, cards, labels."""

    width: int
    height: int
    background: str  # "felt": the painter's one background
    boxes: tuple[Box, ...] = ()
    discs: tuple[Disc, ...] = ()
    fans: tuple[Fan, ...] = ()  # drawn before the cards
    cards: tuple[PlacedCard, ...] = ()
    labels: tuple[Label, ...] = ()
    sections: tuple[Section, ...] = ()  # hand scenes: the groups, for tests and alt text


# ---- the card face: where the index, the pips and the court panel go --------------------------
# Fractions of the card's width (w) or height (h). The corner index is the rank with its suit
# beside it (not below): a short index leaves the whole middle of the card to the pips, so a
# rank large enough for a phone never touches them, and the strip a covered card shows
# (`min_hand_step`) carries both.

FACE_SS = 4  # the art is drawn at this multiple and scaled down (sprites.py)
RANK_EM = 0.36  # rank font size / w: 30 px on the large card, whose capitals are 21 px
RANK_MAX_EM = 0.86  # a wider rank ("10") is drawn condensed to this width, in font sizes
INDEX_SUIT = 0.18  # suit height beside the rank / w
PIP = 0.13  # pip height / w
PIP_COLUMNS = {"L": 0.3, "M": 0.5, "R": 0.7}
PIP_ROWS: dict[int, list[tuple[str, float]]] = {
    2: [("M", 0), ("M", 1)],
    3: [("M", 0), ("M", 0.5), ("M", 1)],
    4: [("L", 0), ("R", 0), ("L", 1), ("R", 1)],
    5: [("L", 0), ("R", 0), ("M", 0.5), ("L", 1), ("R", 1)],
    6: [(c, r) for r in (0, 0.5, 1) for c in "LR"],
    7: [*((c, r) for r in (0, 0.5, 1) for c in "LR"), ("M", 0.25)],
    8: [*((c, r) for r in (0, 0.5, 1) for c in "LR"), ("M", 0.25), ("M", 0.75)],
    9: [*((c, r) for r in (0, 1 / 3, 2 / 3, 1) for c in "LR"), ("M", 0.5)],
    10: [*((c, r) for r in (0, 1 / 3, 2 / 3, 1) for c in "LR"), ("M", 1 / 6), ("M", 5 / 6)],
}


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned box on a card, in the card's own pixels (floats: sub-pixel art)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def gap(self, other: Rect) -> float:
        """The clear space between two boxes (negative when they overlap)."""
        dx = max(other.x0 - self.x1, self.x0 - other.x1)
        dy = max(other.y0 - self.y1, self.y0 - other.y1)
        return max(dx, dy)

    def union(self, other: Rect) -> Rect:
        return Rect(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )

    def rotated(self, w: float, h: float) -> Rect:
        """The same box turned half a circle about the card's centre (the lower index)."""
        return Rect(w - self.x1, h - self.y1, w - self.x0, h - self.y0)


@dataclass(frozen=True, slots=True)
class IndexGeometry:
    """A card's upper-left index (the lower-right one is it turned half a circle)."""

    text: str
    rank_size: int  # font size at the art's scale (FACE_SS times the card's pixels)
    baseline: float  # of the rank, in card pixels
    rank: Rect  # the rank's ink, outline included
    rank_width: float  # the rank as drawn (condensed when wider than RANK_MAX_EM)
    cap_height: float  # how tall the rank's capitals/digits stand, in card pixels
    suit: Rect  # the suit symbol beside the rank (its centre and height: see `suit_h`)
    suit_h: float

    @property
    def box(self) -> Rect:
        return self.rank.union(self.suit)


def rank_name(rank: int) -> str:
    return _RANK_NAMES.get(rank, str(rank))


@lru_cache(maxsize=64)
def index_geometry(rank: int, size: str) -> IndexGeometry:
    """Where the corner index of a card of `rank` (0: the joker's) sits at `size`.

    Measured on the real glyphs at the art's scale, so the rank's box is the ink drawn."""
    w, h = CARD_SIZES[size]
    pad_x, pad_y = 0.045 * w, 0.04 * h
    text = "JOKER" if rank == 0 else rank_name(rank)
    rank_size = round(RANK_EM * w * FACE_SS)
    stroke = round(0.012 * w * FACE_SS) / FACE_SS
    if rank == 0:  # the joker: a small star over nothing; its index is the word, stacked
        star = 0.24 * w
        r = Rect(pad_x, pad_y, pad_x + star, pad_y + star)
        return IndexGeometry(text, rank_size, pad_y + star, r, star, star, r, star)
    f = font(rank_size)
    left, top, right, bottom = f.getbbox(text, anchor="ls")
    natural = (right - left) / FACE_SS
    drawn = min(natural, RANK_MAX_EM * rank_size / FACE_SS)
    baseline = pad_y + stroke - top / FACE_SS
    rank_box = Rect(pad_x, pad_y, pad_x + drawn + 2 * stroke, baseline + bottom / FACE_SS + stroke)
    suit_h = INDEX_SUIT * w
    cy = baseline + top / FACE_SS / 2
    sx = rank_box.x1 + 0.03 * w
    suit = Rect(sx, cy - suit_h / 2, sx + suit_h, cy + suit_h / 2)
    return IndexGeometry(text, rank_size, baseline, rank_box, drawn, -top / FACE_SS, suit, suit_h)


def rank_glyph_height(rank: int, size: str) -> float:
    """The height of a card's rank as drawn, in the picture's pixels (the phone test's
    number: capitals and digits of the bundled font stand 0.70 of its size)."""
    return index_geometry(rank, size).cap_height


@lru_cache(maxsize=16)
def _field_top(size: str, courts: bool = False) -> float:
    """Where the card's middle (pips, or the court panel) may begin: below the index of
    every number card (or of every court card: the Q's tail reaches lower)."""
    h = CARD_SIZES[size][1]
    ranks = range(11, 14) if courts else range(1, 11)
    lowest = max(index_geometry(r, size).box.y1 for r in ranks)
    return lowest + 0.03 * h


def pip_boxes(rank: int, size: str) -> list[tuple[float, float, float, bool]]:
    """The pips of a number card: (centre x, centre y, height, upside down), top to bottom
    between the two indices."""
    if not 2 <= rank <= 10:
        return []
    w, h = CARD_SIZES[size]
    ph = PIP * w
    top = _field_top(size) + ph / 2
    bottom = h - top
    return [
        (PIP_COLUMNS[col] * w, top + row * (bottom - top), ph, row > 0.5)
        for col, row in PIP_ROWS[rank]
    ]


def pip_rect(cx: float, cy: float, ph: float) -> Rect:
    """A pip's ink box: every suit shape is at most as wide as it is tall (sprites.draw_suit)."""
    return Rect(cx - ph / 2, cy - ph / 2, cx + ph / 2, cy + ph / 2)


def court_panel(size: str) -> Rect:
    """The framed panel that holds a court card's figure, between the two indices."""
    w, h = CARD_SIZES[size]
    top = _field_top(size, courts=True)
    return Rect(0.17 * w, top, 0.83 * w, h - top)


def badge_box(size: str, slot: int) -> Rect:
    """Where a card's marks go (0: the wild star, 1: the "may not discard" sign): under the
    corner index, on the strip a covered card keeps visible."""
    w, h = CARD_SIZES[size]
    b = round(0.26 * w)
    x = 0.045 * w
    y = max(index_geometry(r, size).box.y1 for r in range(1, 14)) + 0.03 * h
    y += slot * (b + 4)
    return Rect(x, y, x + b, y + b)


@lru_cache(maxsize=8)
def min_hand_step(size: str = "large") -> int:
    """The narrowest strip of a covered card that still shows its whole index and marks."""
    right = max(index_geometry(r, size).box.x1 for r in range(0, 14))
    right = max(right, badge_box(size, 0).x1)
    return math.ceil(right + 2)


# ---- small text helpers ---------------------------------------------------------------------


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
    """A display name the bundled Latin font can draw: accents folded, emoji dropped.

    Discord names may hold any script; the text embed keeps the real name, the image a
    readable approximation rather than tofu boxes. Devanagari is kept: the pictures have a
    font for it (`typeset`); so is an AI seat's robot mark, which `typeset` draws."""
    folded = unicodedata.normalize("NFKD", name)
    out = "".join(
        ch for ch in folded if " " <= ch <= "~" or typeset.is_devanagari(ch) or ch == typeset.ROBOT
    )
    out = " ".join(out.split())
    return out or fallback


def wild_lines(
    wild_rank: int | None, indicator: Face | Card | None, nothing_wild: bool, words: Captions
) -> tuple[str, ...]:
    """The same three cases as the text UI's `wild_words`, short enough for a card caption:
    one line, or two where the wild rank and the printed jokers are both wild (the table
    stacks them under the indicator when they do not fit its width)."""
    if nothing_wild or indicator is None:
        return (words.nothing_wild,)
    if wild_rank is None:
        return (words.jokers_wild,)
    return (words.fill(words.wild_rank, rank=rank_name(wild_rank)), words.wild_and_jokers)


def wild_note(
    wild_rank: int | None, indicator: Face | Card | None, nothing_wild: bool, words: Captions
) -> str:
    """`wild_lines` on one line."""
    return " ".join(wild_lines(wild_rank, indicator, nothing_wild, words))


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
    hints: str = "full",
    words: Captions | None = None,
) -> tuple[Section, ...]:
    """The hand split into sections, in the order they are shown; labelled when `words` are
    given (the picture), else only keyed (the text embed words them itself).

    Arrangement mode is `bot.engine.arrange.arrangement`, the grouping the text embed lists
    too: the engine's groups, then the unmatched cards with (after a draw) the suggested
    discard last; without any group, wild cards, each pair, each near-run, loose cards.
    Suit mode: ♠ ♥ ♣ ♦ (colours alternate), each low to high, printed jokers at the end.

    `hints` (a table's hint level: "full", "groups" or "off"): with "groups" the unmatched
    cards are in suit order, so the suggested discard is not told by its place; "off" is
    suit mode and evaluates nothing."""
    hand = list(obs.hand)
    if not hand:
        return ()
    if sort_by_suit or hints == "off":
        return suit_sections(hand, words)
    ev = evaluation if evaluation is not None else evaluate_view(obs)
    return arranged_sections(ev, obs.wild_rank, hints == "full", words)


def suit_sections(hand: Sequence[Card], words: Captions | None = None) -> tuple[Section, ...]:
    """Cards by suit: ♠ ♥ ♣ ♦ (colours alternate), each low to high, printed jokers last."""
    by_suit: dict[int, list[Card]] = {}
    for c in sorted(hand, key=_suit_key):
        by_suit.setdefault(-1 if c.face.is_joker else c.suit, []).append(c)
    suits = [Section(SUIT_KEYS[s], "suit", tuple(cs)) for s, cs in by_suit.items()]
    return tuple(_labelled(sec, words) for sec in suits)


def arranged_sections(
    ev: Evaluation | DrawnEvaluation,
    wild_rank: int | None,
    suggest: bool = True,
    words: Captions | None = None,
) -> tuple[Section, ...]:
    """The engine's ruling as sections (`bot.engine.arrange.arrangement`): a pair or a
    near-run is a box of its own, so one sees which cards belong together."""
    sections: list[Section] = []
    for part in arrangement(ev, wild_rank, suggest=suggest):
        clusters = part.clusters if part.kind in (PAIRS, NEAR_RUNS) else (part.cards,)
        sections.extend(
            _labelled(Section(part.kind, part.kind, cluster), words) for cluster in clusters
        )
    return tuple(sections)


def final_sections(
    cards: Sequence[Card],
    evaluation: Evaluation | None,
    wild_rank: int | None,
    words: Captions | None = None,
) -> tuple[Section, ...]:
    """A seat's own cards at the end of a deal, as its hand view shows them (text and picture
    alike): the engine's arrangement of them, or, for cards it did not rule on (the cards a
    player dropped with), by suit."""
    if evaluation is None:
        return suit_sections(cards, words)
    return arranged_sections(evaluation, wild_rank, True, words)


def _labelled(section: Section, words: Captions | None) -> Section:
    if words is None:
        return section
    return Section(section.key, section.kind, section.cards, section_label(words, section.key))


def hand_order(
    obs: Observation,
    evaluation: Evaluation | DrawnEvaluation | None = None,
    sort_by_suit: bool = False,
    hints: str = "full",
) -> list[Card]:
    """THE order of the hand: the image draws cards in it and the discard menu should list
    its options in it (filtering out the card that may not be discarded), so what a player
    sees left to right is what they read top to bottom."""
    return [c for s in hand_sections(obs, evaluation, sort_by_suit, hints) for c in s.cards]


def just_drawn(obs: Observation) -> Card | None:
    """The card that arrived this turn: the engine appends a drawn card to the hand, so in the
    discard phase it is the last one. (A future `obs.drawn` field wins if the engine adds it.)"""
    explicit = getattr(obs, "drawn", None)
    if isinstance(explicit, Card):
        return explicit
    if obs.turn == obs.seat and obs.phase == "discard" and len(obs.hand) == 14:
        return obs.hand[-1]
    return None


@dataclass(frozen=True, slots=True)
class _Piece:
    """A run of one section's cards on one row (a long section may continue on the next)."""

    section: int
    start: int
    count: int


def _slot_width(piece: _Piece, label_w: Sequence[int], card_w: int, step: int) -> int:
    """The room a piece takes: its cards, or its label if that is wider."""
    return max(card_w + (piece.count - 1) * step, label_w[piece.section])


def _row_width(row: Sequence[_Piece], label_w: Sequence[int], card_w: int, step: int) -> int:
    """A row's width: its pieces side by side, a group gap between two."""
    return sum(_slot_width(p, label_w, card_w, step) for p in row) + GROUP_GAP * (len(row) - 1)


def _pieces(sizes: Sequence[int], lo: int, hi: int) -> list[_Piece]:
    """The section fragments covering the hand's cards lo..hi-1 (in hand order)."""
    out = []
    first = 0
    for si, n in enumerate(sizes):
        a, b = max(lo, first), min(hi, first + n)
        if a < b:
            out.append(_Piece(si, a - first, b - a))
        first += n
    return out


@lru_cache(maxsize=4096)
def plan_rows(
    sizes: tuple[int, ...],
    label_w: tuple[int, ...],
    row_width: int,
    card_w: int,
    min_step: int,
    preferred: int = HAND_STEP,
    max_rows: int = 4,
) -> tuple[tuple[tuple[_Piece, ...], ...], int]:
    """Break the hand (sections of `sizes` cards, in order) into rows no wider than
    `row_width`, and choose the step between covered cards.

    Fewest rows first; then rows that break between groups rather than inside one; then the
    widest step (more of each covered card shows); then the narrowest picture (balanced rows,
    so it scales down less on a phone). A hand is at most 14 cards, so trying every break is
    cheap (under a hundred candidates), and hands of the same shape share the answer: kept by
    its arguments (plain ints), the last 4096 asked for (about 1 kB each). Shapes keep coming:
    60 deals of 2 to 6 seats asked for 2,636 plans, 579 of them different (512 were kept
    before, fewer than a busy bot's hands of one language ask for).

    A candidate row is measured from its cards' positions alone, no `_Piece` built: only the
    plan chosen is. A row's width grows with the step, so the widest step at which every row
    of a candidate fits is the narrowest of each row's own widest."""
    total = sum(sizes)
    bounds = set(itertools.accumulate(sizes))
    steps = range(max(preferred, min_step), min_step - 1, -1)
    starts = (0, *itertools.accumulate(sizes))
    # The section holding each card of the hand (sections of no cards hold none).
    owner = [si for si, n in enumerate(sizes) for _ in range(n)]

    segments: dict[tuple[int, int], tuple[int | None, list[int]]] = {}

    def segment(lo: int, hi: int) -> tuple[int | None, list[int]]:
        """One row holding cards lo..hi-1: the first of `steps` at which it fits (None:
        none), and its width at each step (`_row_width` of its pieces)."""
        found = segments.get((lo, hi))
        if found is None:
            spans = []  # (its cards but one, its label's width) for each section on the row
            if lo < hi:
                for si in range(owner[lo], owner[hi - 1] + 1):
                    n = min(hi, starts[si + 1]) - max(lo, starts[si])
                    if n > 0:
                        spans.append((n - 1, label_w[si]))
            gaps = GROUP_GAP * (len(spans) - 1)
            widths = [
                gaps + sum([max(card_w + n * step, label) for n, label in spans]) for step in steps
            ]
            fits = next((k for k, w in enumerate(widths) if w <= row_width), None)
            found = segments[lo, hi] = (fits, widths)
        return found

    for rows in range(1, max_rows + 1):
        best: tuple[tuple[int, int, int], tuple[int, ...]] | None = None
        for cuts in itertools.combinations(range(1, total), rows - 1):
            edges = (0, *cuts, total)
            parts = [segment(edges[i], edges[i + 1]) for i in range(rows)]
            # Every row fits from the step where the last of them does.
            k = 0
            for fits, _widths in parts:
                if fits is None:
                    break
                k = max(k, fits)
            else:
                inner = sum(1 for c in cuts if c not in bounds)
                key = (inner, -steps[k], max(widths[k] for _fits, widths in parts))
                if best is None or key < best[0]:
                    best = (key, edges)
        if best is not None:
            edges = best[1]
            plan = tuple(tuple(_pieces(sizes, edges[i], edges[i + 1])) for i in range(rows))
            return plan, -best[0][1]
    # Wider than any sensible picture: one section per row at the narrowest step.
    return tuple(tuple(_pieces(sizes, a, a + n)) for a, n in zip(starts, sizes, strict=False)), (
        min_step
    )


def _tag_text(pc: PlacedCard, words: Captions) -> tuple[str, str] | None:
    """The words under a marked card: every mark it carries, most important first."""
    if pc.taken:
        return (words.tag_taken, "tag_taken")
    if pc.drawn and pc.suggested:
        return (words.tag_new_discard, "tag_drawn")
    if pc.drawn:
        return (words.tag_new, "tag_drawn")
    if pc.suggested:
        return (words.tag_discard, "tag_suggested")
    return None


def hand_scene(
    obs: Observation,
    evaluation: Evaluation | DrawnEvaluation | None = None,
    sort_by_suit: bool = False,
    hints: str = "full",
    *,
    words: Captions,
) -> Scene:
    """The private hand: sections left to right, wrapping onto rows so that the picture stays
    at most `HAND_MAX_WIDTH` wide (readable on a phone), each with its label, marks on the
    cards; read left to right, top to bottom, it is `hand_order`.

    `hints` is the table's hint level: "full" heads the picture with the deadwood (and "you
    can declare") and marks the suggested discard; "groups" keeps the arrangement without
    either; "off" draws the cards by suit and evaluates nothing (the marks that are facts,
    "new" and "can't discard", stay)."""
    if obs.match_phase != "playing" or not obs.hand:
        return _no_cards(words)
    full = hints == "full"
    ev: Evaluation | DrawnEvaluation | None = None
    if hints != "off":
        ev = evaluation if evaluation is not None else evaluate_view(obs)
    sections = hand_sections(obs, ev, sort_by_suit, hints, words)
    suggested = (
        ev.best_discard if isinstance(ev, DrawnEvaluation) and not sort_by_suit and full else None
    )
    # Header: the numbers a player decides by, in the same words as the text embed.
    best = ev.best if isinstance(ev, DrawnEvaluation) else ev
    gold = full and best is not None and best.valid
    if best is None or hints == "off":
        dead = words.by_suit
    elif not full:
        dead = words.by_suit if sort_by_suit else words.your_groups
    elif isinstance(ev, DrawnEvaluation) and not sort_by_suit:
        dead = words.fill(words.best_discard, deadwood=best.deadwood)
        if ev.declarable:
            dead += f" · {words.can_declare}"
    elif isinstance(ev, DrawnEvaluation):
        dead = words.fill(words.deadwood_now, deadwood=best.deadwood)
    else:
        dead = words.fill(words.deadwood, deadwood=best.deadwood)
    marks = _Marks(just_drawn(obs), obs.taken, suggested)
    return _hand_layout(obs, sections, dead, gold, marks, words)


def final_hand_scene(
    obs: Observation,
    cards: Sequence[Card],
    evaluation: Evaluation | None,
    *,
    words: Captions,
) -> Scene:
    """A seat's own cards once its deal is over (`final_sections`: the engine's arrangement,
    or the cards it dropped with by suit), headed by their deadwood: the hand view between
    deals and at the match's end. `obs` is that seat's observation (the wild card, the
    rules); `cards` and `evaluation` are its own, never another seat's."""
    if not cards:
        return _no_cards(words)
    sections = final_sections(cards, evaluation, obs.wild_rank, words)
    if evaluation is None:
        return _hand_layout(obs, sections, words.by_suit, False, _Marks(), words)
    dead = words.fill(words.deadwood, deadwood=evaluation.deadwood)
    return _hand_layout(obs, sections, dead, evaluation.valid, _Marks(), words)


def _no_cards(words: Captions) -> Scene:
    room = 420 - 2 * MARGIN
    text = _fitted(words.no_cards, 18, room)
    return Scene(420, 70, "felt", labels=(Label(text, 210, 35, 18, "ink", "mm", room),))


@dataclass(frozen=True, slots=True)
class _Marks:
    """The cards marked in a live hand: just drawn, taken from the pile, suggested discard."""

    drawn: Card | None = None
    taken: Card | None = None
    suggested: Card | None = None


def _hand_layout(
    obs: Observation,
    sections: tuple[Section, ...],
    dead: str,
    gold: bool,
    marks: _Marks,
    words: Captions,
) -> Scene:
    """Lay out a hand's sections in rows under its header (`dead`, gold when the hand is
    valid) and the wild note; marks on the cards and the tags under them."""
    drawn, taken, suggested = marks.drawn, marks.taken, marks.suggested
    wild_rank = obs.wild_rank
    rules = obs.rules

    card_w, card_h = CARD_SIZES["large"]
    label_w = [text_width(sec.label, LABEL_SIZE) for sec in sections]
    rows, step = plan_rows(
        tuple(len(sec.cards) for sec in sections),
        tuple(label_w),
        HAND_MAX_WIDTH - 2 * MARGIN,
        card_w,
        min_hand_step("large"),
    )
    width = max(
        max(_row_width(r, label_w, card_w, step) for r in rows) + 2 * MARGIN,
        HAND_MIN_WIDTH,
    )

    # The wild note beside the header when both fit, else on a line of its own.
    note = wild_note(wild_rank, obs.indicator, rules.nothing_wild, words)
    labels: list[Label] = []
    inner_w = width - 2 * MARGIN
    dead_w, note_w = text_width(dead, HEADER_SIZE), text_width(note, HEADER_SIZE)
    labels.append(Label(dead, MARGIN, 10, HEADER_SIZE, "gold" if gold else "ink", "la",
                        max_width=inner_w))  # fmt: skip
    if dead_w + 16 + note_w <= inner_w:
        labels.append(Label(note, width - MARGIN, 10, HEADER_SIZE, "muted", "ra",
                            max_width=note_w))  # fmt: skip
        y = 36
    else:
        labels.append(Label(note, MARGIN, 34, HEADER_SIZE, "muted", "la", max_width=inner_w))
        y = 60

    cards: list[PlacedCard] = []
    boxes: list[Box] = []
    label_line = LABEL_SIZE + 7
    tag_line = LABEL_SIZE + 5
    for ri, row in enumerate(rows):
        top = y + label_line + RAISE
        row_cards: list[PlacedCard] = []
        x = MARGIN
        for piece in row:
            sec = sections[piece.section]
            slot = _slot_width(piece, label_w, card_w, step)
            span = card_w + (piece.count - 1) * step
            boxes.append(Box(x - 6, top - RAISE - 6, x + span + 6, top + card_h + 8, "group", 10))
            labels.append(Label(sec.label, x, y, LABEL_SIZE, f"kind_{sec.kind}", "la",
                                max_width=slot + 4))  # fmt: skip
            for i, c in enumerate(sec.cards[piece.start : piece.start + piece.count]):
                is_drawn = drawn is not None and c.id == drawn.id
                pc = PlacedCard(
                    c.face,
                    x + i * step,
                    top - RAISE if is_drawn else top,
                    "large",
                    card_id=c.id,
                    group=piece.section,
                    wild=rules.is_wild(c.face, wild_rank),
                    drawn=is_drawn,
                    taken=taken is not None and c.id == taken.id,
                    suggested=suggested is not None and c.id == suggested.id,
                    row=ri,
                )
                cards.append(pc)
                row_cards.append(pc)
            x += slot + GROUP_GAP
        # Tags under the marked cards; one that would run into the previous tag of this row
        # goes on a second line, so none covers another.
        tag_y = top + card_h + 10
        ends = [-(10**6), -(10**6)]
        lines = 1
        for pc in row_cards:
            tag = _tag_text(pc, words)
            if tag is None:
                continue
            tw = text_width(tag[0], LABEL_SIZE)
            tx = pc.x + 2
            line = 0 if tx >= ends[0] + 8 else 1
            lines = max(lines, line + 1)
            ends[line] = tx + tw
            labels.append(Label(tag[0], tx, tag_y + line * tag_line, LABEL_SIZE, tag[1], "la",
                                max_width=tw))  # fmt: skip
        y = tag_y + lines * tag_line + 8
    return Scene(
        width,
        y + 2,
        "felt",
        boxes=tuple(boxes),
        cards=tuple(cards),
        labels=tuple(labels),
        sections=sections,
    )


HAND_MIN_WIDTH = 420  # room for the header's numbers


# ---- the public table ---------------------------------------------------------------------------
# The text message already lists the seats, the stock and the turn with a live countdown
# (Discord's relative timestamps tick; a picture cannot, and `PublicView` holds no deadline).
# What text shows poorly is the discard pile: which cards went by, who threw each, which one
# someone picked up. So the picture is that, at phone size: the indicator, the last throws
# as cards with their throwers, whose turn it is, and a compact plate per seat.

TABLE_W = 540  # 360/540: captions of 15 px are 10 px on a phone, a rank 14 px
PILE_SHOWN = 6  # the last throws shown: a full round at a six-seat table
_PILE_STEP = 74  # the pile's cards overlap a little; each caption gets this much room
_CAPTION_LINE = 20
_PLATE_H = 56  # a name over its score
_PLATE_GAP = 10
_DEALER_R = 13  # the dealer's button: its letter 17 px (a Devanagari one 14), 9+ on a phone


def _seat(words: Captions, seat: int) -> str:
    """A seat's caption where its player has no drawable name (seats count from 1)."""
    return words.fill(words.seat, seat=seat + 1)


def _first_name(name: str, fallback: str) -> str:
    """A thrower's caption under a card: the first word of the name (the plates below show
    it whole)."""
    words = plain_name(name, fallback).split(" ")
    if words[0] == typeset.ROBOT and len(words) > 1:
        return f"{typeset.ROBOT} {words[1]}"  # an AI seat keeps its mark
    return words[0]


def _fitted(text: str, size: int, room: int) -> str:
    """`text`, shortened with "..." only if it cannot fit `room` (a very long Discord name),
    measured as `text_width` measures (each script in its own font, the outline's 2 px)."""
    if text_width(text, size) <= room:  # nearly always (and measured already)
        return text
    return typeset.shorten(text, size, room, extra=2, bold=True)


def table_scene(view: PublicView, nothing_wild: bool = False, *, words: Captions) -> Scene:
    """The public table, from public facts only (a `PublicView` cannot hold a hidden card).

    It shows what changes when the cards on the table change or the turn passes: the
    indicator, the pile, whose turn, the seats' scores and states. The counters that move on
    every draw (the stock's size, a hand's 13 or 14 cards, draw or discard) are the embed's
    text, not the picture's: with them every draw from the stock redrew and uploaded the
    picture, about half of all table pictures. `nothing_wild` is the one rule the caption
    needs (a rules fact, not a card)."""
    boxes: list[Box] = []
    discs: list[Disc] = []
    cards: list[PlacedCard] = []
    labels: list[Label] = []
    W = TABLE_W
    inner = W - 2 * MARGIN
    variant = plain_name(view.variant, words.variant_fallback).capitalize()
    title = words.fill(words.title_deal, variant=variant, deal=view.deal_number)
    if view.match_phase == "over":
        title = words.fill(words.title_over, variant=variant)
    title_room = inner
    labels.append(Label(_fitted(title, 18, title_room), MARGIN, 12, 18, "ink", "la",
                        max_width=title_room))  # fmt: skip
    names = {s.seat: plain_name(s.name, _seat(words, s.seat)) for s in view.seats}
    if view.turn is not None:
        turn = words.fill(words.turn, name=names.get(view.turn, "?"))
    elif view.match_phase == "over":
        turn = words.match_over
    else:
        turn = words.between_deals
    labels.append(Label(_fitted(turn, 18, inner), MARGIN, 40, 18, "gold", "la", max_width=inner))

    card_w, card_h = CARD_SIZES["large"]
    top = 96
    # The indicator and what it makes wild.
    labels.append(Label(words.indicator, MARGIN, top - 22, LABEL_SIZE, "muted", "la",
                        max_width=text_width(words.indicator, LABEL_SIZE)))  # fmt: skip
    if view.indicator is not None:
        cards.append(PlacedCard(view.indicator.face, MARGIN, top, "large"))
    else:
        boxes.append(Box(MARGIN, top, MARGIN + card_w, top + card_h, "slot", 8))
    wild = wild_lines(view.wild_rank, view.indicator, nothing_wild, words)
    note = " ".join(wild)
    cap_y = top + card_h + 8
    # Under the card, on two lines when it is wider ("Wild: 8s" / "+ jokers").
    note_lines = [note]
    if text_width(note, LABEL_SIZE) > card_w + 16 and len(wild) > 1:
        note_lines = list(wild)
    for k, line in enumerate(note_lines):
        labels.append(Label(line, MARGIN, cap_y + 20 * k, LABEL_SIZE, "gold", "la",
                            max_width=text_width(line, LABEL_SIZE)))  # fmt: skip
    note_w = max(text_width(line, LABEL_SIZE) for line in note_lines)

    # The pile: the last throws, oldest left, each with its thrower; a card taken back says
    # by whom, the live top of the pile is framed.
    px = MARGIN + max(card_w, note_w) + 24
    thrown = [e for e in view.pile_history if not e.recycled][-PILE_SHOWN:]
    if not thrown and view.top_discard is not None:
        thrown = [PileCard(view.top_discard, None, None, False)]
    caption = words.discards
    labels.append(Label(caption, px, top - 22, LABEL_SIZE, "muted", "la",
                        max_width=text_width(caption, LABEL_SIZE)))  # fmt: skip
    top_card = None if view.top_discard is None else view.top_discard.id
    pile_room = W - MARGIN - 4 - px
    step = _PILE_STEP
    if len(thrown) > 1:
        step = min(_PILE_STEP, (pile_room - card_w) // (len(thrown) - 1))
    # Under each card its thrower, and who took it back; when a caption is wider than its
    # card's strip, the captions take turns on two levels, each as wide as two strips.
    blocks: list[list[tuple[str, str]]] = []
    for e in thrown:
        who = words.pile_start if e.discarded_by is None else _first_name(
            names.get(e.discarded_by, "?"), _seat(words, e.discarded_by))  # fmt: skip
        block = [(who, "muted")]
        if e.taken_by is not None:
            taker = _first_name(names.get(e.taken_by, "?"), _seat(words, e.taken_by))
            block += [(words.taken_by, "red"), (taker, "red")]
        blocks.append(block)

    def caption_room(i: int, strips: int) -> int:
        edge = W - MARGIN - (px + i * step + 2)
        return edge if i == len(thrown) - 1 else min(edge, strips * step - 4)

    single = all(
        text_width(t, LABEL_SIZE) <= caption_room(i, 1)
        for i, block in enumerate(blocks)
        for t, _ in block
    )
    # The lines each level takes: the tallest block on it (a card taken back has three).
    levels = [max((len(b) for b in blocks[k::2]), default=0) for k in (0, 1)]
    if single:
        levels = [max(levels), 0]
    for i, (e, block) in enumerate(zip(thrown, blocks, strict=True)):
        x = px + i * step
        if e.card.id == top_card:
            boxes.append(Box(x - 5, top - 5, x + card_w + 5, top + card_h + 5, "pile_top", 10))
        elif e.taken_by is not None:
            boxes.append(Box(x - 5, top - 5, x + card_w + 5, top + card_h + 5, "pile_taken", 10))
        cards.append(PlacedCard(e.card.face, x, top, "large", card_id=e.card.id, group=i))
        here = caption_room(i, 1 if single else 2)
        below = 0 if single or i % 2 == 0 else levels[0]
        for k, (line, style) in enumerate(block):
            ly = cap_y + _CAPTION_LINE * (below + k)
            labels.append(Label(_fitted(line, LABEL_SIZE, here), x + 2, ly, LABEL_SIZE, style,
                                "la", max_width=here))  # fmt: skip
    captions = max(len(note_lines), sum(levels))
    if not thrown:
        boxes.append(Box(px, top, px + card_w, top + card_h, "slot", 8))

    # The seats: two plates a row; the one on turn framed in gold, the dealer's button.
    y = cap_y + _CAPTION_LINE * max(captions, 1) + 12
    plate_w = (inner - _PLATE_GAP) // 2
    for i, seat in enumerate(view.seats):
        s = seat.seat
        x0 = MARGIN + (i % 2) * (plate_w + _PLATE_GAP)
        y0 = y + (i // 2) * (_PLATE_H + _PLATE_GAP)
        playing = seat.status == "active"
        on_turn = view.turn == s
        style = "plate_turn" if on_turn else ("plate" if playing else "plate_out")
        boxes.append(Box(x0, y0, x0 + plate_w, y0 + _PLATE_H, style, 10))
        if seat.status not in ("active", "waiting"):
            info = words.code(words.status, seat.status)
            info_style = "red"
        else:
            info = words.fill(words.plate_score, score=amount_text(seat.score))
            info_style = "muted"
        # The name on the plate's first line, the score (or the seat's state) under it.
        right = x0 + plate_w - 10
        if seat.is_dealer:
            discs.append(Disc(right - _DEALER_R, y0 + _PLATE_H // 2, _DEALER_R, "dealer",
                              words.dealer_mark))  # fmt: skip
            right -= 2 * _DEALER_R + 6
        room = right - (x0 + 12)
        labels.append(Label(_fitted(names[s], 17, room), x0 + 12, y0 + 7, 17, "name", "la",
                            max_width=room))  # fmt: skip
        labels.append(Label(_fitted(info, LABEL_SIZE, room), x0 + 12, y0 + 31, LABEL_SIZE,
                            info_style, "la", max_width=room))  # fmt: skip
    rows = (len(view.seats) + 1) // 2
    height = y + rows * (_PLATE_H + _PLATE_GAP) + 8
    return Scene(
        W,
        height,
        "felt",
        boxes=tuple(boxes),
        discs=tuple(discs),
        cards=tuple(cards),
        labels=tuple(labels),
    )


# ---- results -------------------------------------------------------------------------------------
# One block a seat, stacked: its name and what it pays (or that it wins) on a line, the basis
# and the score change under them, then its hand as the engine arranged it, in rows of small
# cards (the hand picture's row plan), or its cards face down when it dropped. Narrow enough
# that, on a phone, the small cards' ranks are 12 px and the smallest text 10 px.

RESULTS_W = 432  # 360/432: a small card's rank (15 px) and the joker's star (14 px) >= 12 px
_RESULT_CARD = "small"
_RESULT_STEP = 40  # preferred step between a group's cards (the small index is 38 px wide)
_RESULT_LABEL = 13  # group captions, the basis and the score: 10.8 px on a phone
_RESULT_NAME = 17
_RESULT_OUTCOME = 15
_WIN_R = 13  # the winner's disc


def _wild_rank_of(history: Mapping[str, Any]) -> int | None:
    name = history.get("wild_rank")
    if name is None:
        return None
    return Face.parse(f"{name}S").rank


def _result_lines(
    history: Mapping[str, Any], seat: int, deltas: Mapping[int, Fraction], words: Captions
) -> tuple[tuple[str, str] | None, str | None, tuple[str, str] | None]:
    """A seat's texts: its outcome (text, style) beside the name, the basis of what it pays
    under the name, its score change (text, style) under the outcome."""
    charge = next((c for c in history.get("charges", []) if int(c["seat"]) == seat), None)
    outcome: tuple[str, str] | None = None
    basis = None
    if charge is not None:
        outcome = (words.fill(words.pays, amount=amount_text(charge["amount"])), "red")
        kind = words.code(words.basis, charge["basis"])
        basis = words.fill(words.charge_base, basis=kind, base=charge["base"])
    elif seat == history["end"].get("winner"):
        outcome = (words.wins, "gold")
    delta = deltas.get(seat, Fraction(0))
    score = None
    if delta:
        text = words.fill(words.score_delta, delta=signed_text(delta))
        score = (text, "gold" if delta > 0 else "muted")
    return outcome, basis, score


def results_scene(history: Mapping[str, Any], *, words: Captions) -> Scene:
    """The reveal: one block per seat with its best arrangement, what it pays, the winner
    marked.

    Built from the finished hand history only. Dropped hands stay face down, as in the text
    result (a drop is never shown). Every label gets the room its text needs (a group's room
    is as wide as its caption), so none is cut but a name too long for its line."""
    end = history["end"]
    reason = end["reason"]
    winner = end.get("winner")
    names = {
        int(s["seat"]): plain_name(s["name"], _seat(words, int(s["seat"])))
        for s in history["seats"]
    }
    rules = history.get("rules", {})
    nothing_wild = bool(rules.get("nothing_wild", False))
    wild_rank = _wild_rank_of(history)
    deltas = {int(s): Fraction(v) for s, v in history.get("deltas", {}).items()}

    if reason == "void":
        head = words.void
    else:
        how = {
            "declared": words.declared,
            "hand_rummy": words.hand_rummy,
            "last_standing": words.last_standing,
        }.get(reason, words.won)
        head = words.fill(how, name=names.get(winner, "?"))
    W = RESULTS_W
    inner = W - 2 * MARGIN
    title = words.fill(words.result_title, deal=history["deal_number"])
    labels = [
        Label(_fitted(title, 19, inner), MARGIN, 12, 19, "ink", "la", max_width=inner),
        Label(_fitted(head, 16, inner), MARGIN, 38, 16, "gold", "la", max_width=inner),
    ]
    boxes: list[Box] = []
    discs: list[Disc] = []
    fans: list[Fan] = []
    cards: list[PlacedCard] = []
    card_w, card_h = CARD_SIZES[_RESULT_CARD]
    label_line = _RESULT_LABEL + 6
    y = 66
    for row, (seat_str, fin) in enumerate(history["final"].items()):
        seat = int(seat_str)
        is_winner = seat == winner
        top = y
        outcome, basis, score = _result_lines(history, seat, deltas, words)
        x = MARGIN
        if is_winner:
            discs.append(Disc(x + _WIN_R, y + 10 + _WIN_R - 2, _WIN_R, "winner",
                              words.winner_mark))  # fmt: skip
            x += 2 * _WIN_R + 8
        right = W - MARGIN
        if outcome is not None:
            out_w = text_width(outcome[0], _RESULT_OUTCOME)
            labels.append(Label(outcome[0], right, y + 12, _RESULT_OUTCOME, outcome[1], "ra",
                                max_width=out_w))  # fmt: skip
            right -= out_w + 12
        name = names.get(seat, _seat(words, seat))
        labels.append(Label(_fitted(name, _RESULT_NAME, right - x), x, y + 10, _RESULT_NAME,
                            "name", "la", max_width=right - x))  # fmt: skip
        y += 36
        if basis is not None or score is not None:
            score_w = 0 if score is None else text_width(score[0], _RESULT_LABEL)
            if score is not None:
                labels.append(Label(score[0], W - MARGIN, y, _RESULT_LABEL, score[1], "ra",
                                    max_width=score_w))  # fmt: skip
            if basis is not None:
                room = inner - score_w - 12
                labels.append(Label(_fitted(basis, _RESULT_LABEL, room), MARGIN, y,
                                    _RESULT_LABEL, "muted", "la", max_width=room))  # fmt: skip
            y += label_line + 4
        arrangement = fin.get("arrangement")
        if fin.get("status") == "active" and arrangement:
            groups: list[tuple[str, list[str]]] = [
                (section_label(words, g["kind"]), list(g["cards"])) for g in arrangement["groups"]
            ]
            if arrangement.get("leftover"):
                groups.append((words.part_unmatched, list(arrangement["leftover"])))
            label_w = tuple(text_width(label, _RESULT_LABEL) for label, _codes in groups)
            plan, step = plan_rows(
                tuple(len(codes) for _label, codes in groups),
                label_w,
                inner,
                card_w,
                min_hand_step(_RESULT_CARD),
                _RESULT_STEP,
            )
            for pieces in plan:
                x = MARGIN
                for piece in pieces:
                    label, codes = groups[piece.section]
                    slot = _slot_width(piece, label_w, card_w, step)
                    labels.append(Label(label, x, y, _RESULT_LABEL, "muted", "la",
                                        max_width=slot))  # fmt: skip
                    for i, code in enumerate(codes[piece.start : piece.start + piece.count]):
                        face = Face.parse(code)
                        wild = not nothing_wild and (face.is_joker or face.rank == wild_rank)
                        cards.append(PlacedCard(face, x + i * step, y + label_line, _RESULT_CARD,
                                                group=row, wild=wild))  # fmt: skip
                    x += slot + GROUP_GAP
                y += label_line + card_h + 10
        else:
            out = words.code(words.out, fin.get("out_reason") or fin.get("status", ""))
            fan = Fan(MARGIN, y, len(fin.get("cards", [])) or 13, seat, "mini", 8)
            fans.append(fan)
            room = inner - fan.width - 14
            labels.append(Label(_fitted(out, _RESULT_OUTCOME, room), MARGIN + fan.width + 14,
                                y + CARD_SIZES["mini"][1] // 2, _RESULT_OUTCOME, "muted", "lm",
                                max_width=room))  # fmt: skip
            y += CARD_SIZES["mini"][1] + 12
        boxes.append(Box(MARGIN - 8, top, W - MARGIN + 8, y, "row_win" if is_winner else "row",
                         12))  # fmt: skip
        y += 8
    return Scene(
        W,
        y + 4,
        "felt",
        boxes=tuple(boxes),
        discs=tuple(discs),
        fans=tuple(fans),
        cards=tuple(cards),
        labels=tuple(labels),
    )
