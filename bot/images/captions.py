"""The words drawn on the pictures, handed in by whoever asks for a picture.

`bot.images` holds no player-facing words: the Discord side words every caption in the
viewer's language from its catalogue (`bot.words.pictures.captions`) and passes them
here as this plain data. The layout only chooses which caption goes where and fills in the
numbers and names.

A template names its slots in `str.format` style (`"Stock {count}"`); `fill` fills them. The
slots each template may use are listed in `SLOTS` (a test checks every language's captions
against it), so a translation cannot ask for a value the layout does not give.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Captions:
    """Every caption of the hand, table and results pictures, in one language.

    `tag` is the language (a catalogue tag such as `en` or `hi`): pictures of different
    languages differ in their text, so any cache of pictures keyed by the scene keys on it.
    """

    tag: str
    # ---- the hand: group and row labels
    kind_pure: str
    kind_impure: str
    kind_set: str
    part_wild: str
    part_pairs: str
    part_near_runs: str
    part_nothing: str
    part_unmatched: str
    suit_spades: str
    suit_hearts: str
    suit_diamonds: str
    suit_clubs: str
    suit_jokers: str
    # ---- the hand: its header and the marks under cards
    no_cards: str
    by_suit: str
    your_groups: str
    best_discard: str  # {deadwood}
    can_declare: str  # appended after " · "
    deadwood_now: str  # {deadwood}
    deadwood: str  # {deadwood}
    tag_taken: str
    tag_new_discard: str
    tag_new: str
    tag_discard: str
    # ---- what is wild (hand header, table indicator caption)
    nothing_wild: str
    jokers_wild: str
    wild_rank: str  # {rank}; the first line of the indicator's caption
    wild_and_jokers: str  # the second line ("+ jokers")
    # ---- the table
    variant_fallback: str
    title_deal: str  # {variant} {deal}
    title_over: str  # {variant}
    turn: str  # {name}
    match_over: str
    between_deals: str
    indicator: str
    discards: str
    pile_start: str
    taken_by: str
    plate_score: str  # {score}
    seat: str  # {seat}
    dealer_mark: str
    status: Mapping[str, str]  # seat status code -> words ("dropped", "left", ...)
    # ---- the results
    result_title: str  # {deal}
    void: str
    declared: str  # {name}
    hand_rummy: str  # {name}
    last_standing: str  # {name}
    won: str  # {name}: any other way a deal is won
    pays: str  # {amount}
    basis: Mapping[str, str]  # charge basis code -> words
    charge_base: str  # {basis} {base}
    wins: str
    score_delta: str  # {delta}
    winner_mark: str
    out: Mapping[str, str]  # out reason / status code -> words

    def fill(self, template: str, **values: Any) -> str:
        """A template with its slots filled (`template` is one of this object's fields)."""
        return template.format(**values)

    def code(self, table: Mapping[str, str], value: object) -> str:
        """The words for a code (a status, a basis), or the code itself, readable, for one
        these captions do not know (a newer engine's)."""
        key = str(value)
        return table.get(key) or key.replace("_", " ")


#: The slots each template field may use (every other text field has none).
SLOTS: dict[str, frozenset[str]] = {
    "best_discard": frozenset({"deadwood"}),
    "deadwood_now": frozenset({"deadwood"}),
    "deadwood": frozenset({"deadwood"}),
    "wild_rank": frozenset({"rank"}),
    "title_deal": frozenset({"variant", "deal"}),
    "title_over": frozenset({"variant"}),
    "turn": frozenset({"name"}),
    "plate_score": frozenset({"score"}),
    "seat": frozenset({"seat"}),
    "result_title": frozenset({"deal"}),
    "declared": frozenset({"name"}),
    "hand_rummy": frozenset({"name"}),
    "last_standing": frozenset({"name"}),
    "won": frozenset({"name"}),
    "pays": frozenset({"amount"}),
    "charge_base": frozenset({"basis", "base"}),
    "score_delta": frozenset({"delta"}),
}
#: The code tables: which codes each must word.
STATUS_CODES = ("dropped", "out", "eliminated", "left")
BASIS_CODES = (
    "deadwood",
    "first_drop",
    "middle_drop",
    "wrong_show",
    "wrong_show_drop",
    "hand_rummy_dropped",
)
OUT_CODES = (*BASIS_CODES[1:5], *STATUS_CODES)


def text_fields() -> tuple[str, ...]:
    """The names of the caption fields that are one string each (not `tag`, not a table)."""
    return tuple(
        f.name for f in fields(Captions) if f.name not in ("tag", "status", "basis", "out")
    )
