"""The rules object: every way the six profiles of RULES.md differ, held as data.

Nothing outside this module may ask "which profile is this?"; code asks the rules object a
question instead (`rules.set_max`, `rules.stock_exhausted`, ...). The presets below are a table
a reader can compare column by column with the one in RULES.md.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .cards import ACE, JOKER, Card, Face, standard_faces


class JokerIndicatorWilds(StrEnum):
    """What becomes wild when the indicator is a printed joker."""

    ACES = "aces"  # all aces are wild (the online formats)
    NONE = "none"  # no wild rank: only the remaining printed jokers are wild


class LonePure(StrEnum):
    """How a losing hand with a pure sequence but no second sequence is counted."""

    PROTECTED = "protected"  # the best pure sequence is protected, the rest counts
    ALL_COUNT = "all_count"  # every card counts


class InvalidDeclaration(StrEnum):
    """What a wrong show costs."""

    PENALTY_OUT = "penalty_out"  # pays `invalid_penalty` and is out of the deal; others play on
    MIDDLE_DROP = "middle_drop"  # no win; counted as a middle drop; others play on


class StockExhausted(StrEnum):
    VOID = "void"  # deal void: nobody pays, drop penalties cancelled
    RESHUFFLE = "reshuffle"  # discard pile except its top card becomes a new stock


class HandRummy(StrEnum):
    """Declaring a dealt 13 at the first turn without drawing."""

    NOT_ALLOWED = "not_allowed"
    NORMAL = "normal"  # allowed, normal rates
    DOUBLE_PLAYED = "double_played"  # players who already played pay double, others single


class MatchFormat(StrEnum):
    SINGLE_DEAL = "single_deal"  # points: one deal, losers pay the winner chips
    POOL = "pool"  # totals add up; at or above the limit a player is out
    DEALS = "deals"  # fixed number of deals; lowest total wins
    ROTATION = "rotation"  # one full dealer rotation; transfers; highest net wins
    TARGET = "target"  # a chosen number of deals or target score; transfers


class FirstDealer(StrEnum):
    RANDOM = "random"
    DRAW_CARDS = "draw_cards"  # each draws a card: lowest deals, ties redraw


class DropPaid(StrEnum):
    """Where a dropped player's fixed penalty goes."""

    TO_WINNER = "to_winner"  # paid to the (eventual) winner
    TO_TOTAL = "to_total"  # added to the player's running total (pool/deals)


class DeclarationMode(StrEnum):
    ASSISTED = "assisted"  # Declare offered only for a verified layout
    HONOR = "honor"  # any layout may be declared; wrong shows are penalised


@dataclass(frozen=True, slots=True)
class DeckSize:
    """Deck composition for tables up to `max_players` players."""

    max_players: int
    decks: int
    jokers: int


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to know about a table's game. Frozen: one per match."""

    name: str
    source: str
    min_players: int
    max_players: int
    deck_sizes: tuple[DeckSize, ...]
    joker_indicator_wilds: JokerIndicatorWilds
    set_min: int
    set_max: int | None  # None: wild cards may extend a set without limit
    lone_pure: LonePure
    deal_cap: int | None
    first_drop: int
    middle_drop: int
    first_drop_to_stock_bottom: bool  # first-pack cards shuffled into the bottom of the stock
    invalid_declaration: InvalidDeclaration
    invalid_penalty: int
    stock_exhausted: StockExhausted
    first_turn_win_half: bool  # winner on first drawn turn: players without a turn pay half
    hand_rummy: HandRummy
    hand_rummy_dropped_pay: int  # what already-dropped players pay on a hand rummy
    match_format: MatchFormat
    pool_limit: int | None  # pool: out at or above this total
    deals_choices: tuple[int, ...]  # deals: allowed numbers of deals
    default_deals: int | None
    first_dealer: FirstDealer
    drop_paid: DropPaid
    # House-rule toggles (RULES.md "House-rule toggles").
    no_reshuffle: bool = False
    joker_indicator_doubles: bool = False
    aces_wild_on_joker: bool = False
    nothing_wild: bool = False
    one_joker_per_deck: bool = False
    no_packing: bool = False
    declaration_mode: DeclarationMode = DeclarationMode.ASSISTED
    # Match length choices made at the lobby (deals / target formats).
    num_deals: int | None = None
    target_score: int | None = None
    # One line saying what the game is, for menus ("out at 101").
    description: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    # ---- derived questions -------------------------------------------------------------

    @property
    def effective_stock_exhausted(self) -> StockExhausted:
        return StockExhausted.VOID if self.no_reshuffle else self.stock_exhausted

    @property
    def packing_allowed(self) -> bool:
        return not self.no_packing

    def deck_size(self, players: int) -> DeckSize:
        """Decks and printed jokers for this many players (after house-rule toggles)."""
        for size in self.deck_sizes:
            if players <= size.max_players:
                break
        else:
            raise ValueError(f"{self.name} seats at most {self.max_players} players")
        jokers = size.jokers
        if self.one_joker_per_deck:
            jokers = min(jokers, size.decks)
        if self.nothing_wild:
            jokers = 0
        return DeckSize(size.max_players, size.decks, jokers)

    def build_deck(self, players: int) -> list[Card]:
        """The deal's physical cards in a fixed order (ids 0..n-1); shuffle separately."""
        size = self.deck_size(players)
        faces: list[Face] = []
        for _ in range(size.decks):
            faces.extend(standard_faces())
        faces.extend([JOKER] * size.jokers)
        return [Card(i, f) for i, f in enumerate(faces)]

    def wild_rank(self, indicator: Face | None) -> int | None:
        """The rank made wild by the indicator, or None when no standard rank is wild."""
        if self.nothing_wild or indicator is None:
            return None
        if indicator.is_joker:
            if self.aces_wild_on_joker or self.joker_indicator_wilds is JokerIndicatorWilds.ACES:
                return ACE
            return None
        return indicator.rank

    def is_wild(self, face: Face, wild_rank: int | None) -> bool:
        """Printed jokers are always wild (unless nothing is wild); so is every wild-rank card."""
        if self.nothing_wild:
            return False
        return face.is_joker or face.rank == wild_rank

    def cap(self, penalty: int) -> int:
        return penalty if self.deal_cap is None else min(penalty, self.deal_cap)

    def payment_multiplier(self, indicator: Face | None) -> int:
        """`joker_indicator_doubles`: a printed joker cut as indicator doubles the payments."""
        if self.joker_indicator_doubles and indicator is not None and indicator.is_joker:
            return 2
        return 1

    @property
    def max_copies(self) -> int:
        """Most copies of one face in any deck this profile uses."""
        return max(s.decks for s in self.deck_sizes)

    def with_options(self, **changes: Any) -> Rules:
        """A copy with house-rule toggles or match options changed (validated)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        new = dataclasses.replace(self, **changes)
        new.validate()
        return new

    def validate(self) -> None:
        if self.match_format is MatchFormat.DEALS and self.num_deals not in self.deals_choices:
            raise ValueError(
                f"number of deals must be one of {', '.join(map(str, self.deals_choices))}"
            )
        if self.num_deals is not None and self.num_deals < 1:
            raise ValueError("number of deals must be at least 1")
        if self.pool_limit is not None and self.pool_limit < 1:
            raise ValueError("pool limit must be positive")

    # ---- serialisation ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name == "deck_sizes":
                v = [[s.max_players, s.decks, s.jokers] for s in v]
            elif isinstance(v, tuple):
                v = list(v)
            elif isinstance(v, Fraction):
                v = str(v)
            out[f.name] = v
        return out

    def to_state(self) -> dict[str, Any]:
        """Compact form for the live table state: the profile's name and only the fields that
        differ from that profile (house toggles, match length). A rules object that is not
        based on a profile is written whole. `from_state` reads both."""
        base = PROFILES.get(self.name)
        full = self.to_dict()
        if base is None:
            return {"full": full}
        preset = base.to_dict()
        return {"profile": self.name, **{k: v for k, v in full.items() if preset.get(k) != v}}

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> Rules:
        if "full" in data:
            return cls.from_dict(data["full"])
        if "profile" not in data:
            return cls.from_dict(data)  # a plain `to_dict()` (older saved states)
        changes = {k: v for k, v in data.items() if k != "profile"}
        return cls.from_dict({**PROFILES[data["profile"]].to_dict(), **changes})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        kwargs: dict[str, Any] = {}
        types = {f.name: f for f in dataclasses.fields(cls)}
        enums: dict[str, type[StrEnum]] = {
            "joker_indicator_wilds": JokerIndicatorWilds,
            "lone_pure": LonePure,
            "invalid_declaration": InvalidDeclaration,
            "stock_exhausted": StockExhausted,
            "hand_rummy": HandRummy,
            "match_format": MatchFormat,
            "first_dealer": FirstDealer,
            "drop_paid": DropPaid,
            "declaration_mode": DeclarationMode,
        }
        for name, value in data.items():
            if name not in types:
                continue
            if name == "deck_sizes":
                value = tuple(DeckSize(*s) for s in value)
            elif name == "deals_choices":
                value = tuple(value)
            elif name in enums:
                value = enums[name](value)
            kwargs[name] = value
        return cls(**kwargs)


TWO_DECKS = (DeckSize(6, 2, 2),)
CLASSIC_DECKS = (DeckSize(3, 1, 2), DeckSize(6, 2, 4), DeckSize(10, 3, 6))

# The six profiles of RULES.md. Read across a row of keyword arguments to compare profiles.
_COMMON: dict[str, Any] = dict(set_min=3, invalid_penalty=80, hand_rummy_dropped_pay=10)

POINTS = Rules(
    name="points", description="one deal, chips, 80 cap",
    source="001", min_players=2, max_players=6, deck_sizes=TWO_DECKS,
    joker_indicator_wilds=JokerIndicatorWilds.ACES, set_max=None,
    lone_pure=LonePure.PROTECTED, deal_cap=80, first_drop=20, middle_drop=40,
    first_drop_to_stock_bottom=False, invalid_declaration=InvalidDeclaration.PENALTY_OUT,
    stock_exhausted=StockExhausted.VOID, first_turn_win_half=False,
    hand_rummy=HandRummy.NOT_ALLOWED, match_format=MatchFormat.SINGLE_DEAL, pool_limit=None,
    deals_choices=(), default_deals=None, first_dealer=FirstDealer.RANDOM,
    drop_paid=DropPaid.TO_WINNER, **_COMMON,
)  # fmt: skip

POOL101 = Rules(
    name="pool101", description="out at 101",
    source="004", min_players=2, max_players=6, deck_sizes=TWO_DECKS,
    joker_indicator_wilds=JokerIndicatorWilds.ACES, set_max=4,
    lone_pure=LonePure.ALL_COUNT, deal_cap=80, first_drop=20, middle_drop=40,
    first_drop_to_stock_bottom=False, invalid_declaration=InvalidDeclaration.PENALTY_OUT,
    stock_exhausted=StockExhausted.RESHUFFLE, first_turn_win_half=False,
    hand_rummy=HandRummy.NOT_ALLOWED, match_format=MatchFormat.POOL, pool_limit=101,
    deals_choices=(), default_deals=None, first_dealer=FirstDealer.RANDOM,
    drop_paid=DropPaid.TO_TOTAL, **_COMMON,
)  # fmt: skip

POOL201 = Rules(
    name="pool201", description="out at 201",
    source="004", min_players=2, max_players=6, deck_sizes=TWO_DECKS,
    joker_indicator_wilds=JokerIndicatorWilds.ACES, set_max=4,
    lone_pure=LonePure.ALL_COUNT, deal_cap=80, first_drop=25, middle_drop=50,
    first_drop_to_stock_bottom=False, invalid_declaration=InvalidDeclaration.PENALTY_OUT,
    stock_exhausted=StockExhausted.RESHUFFLE, first_turn_win_half=False,
    hand_rummy=HandRummy.NOT_ALLOWED, match_format=MatchFormat.POOL, pool_limit=201,
    deals_choices=(), default_deals=None, first_dealer=FirstDealer.RANDOM,
    drop_paid=DropPaid.TO_TOTAL, **_COMMON,
)  # fmt: skip

DEALS = Rules(
    name="deals", description="fixed number of deals",
    source="004", min_players=2, max_players=6, deck_sizes=TWO_DECKS,
    joker_indicator_wilds=JokerIndicatorWilds.ACES, set_max=4,
    lone_pure=LonePure.ALL_COUNT, deal_cap=80, first_drop=20, middle_drop=40,
    first_drop_to_stock_bottom=False, invalid_declaration=InvalidDeclaration.PENALTY_OUT,
    stock_exhausted=StockExhausted.RESHUFFLE, first_turn_win_half=False,
    hand_rummy=HandRummy.NOT_ALLOWED, match_format=MatchFormat.DEALS, pool_limit=None,
    deals_choices=(2, 3, 6), default_deals=2, first_dealer=FirstDealer.RANDOM,
    drop_paid=DropPaid.TO_TOTAL, num_deals=2, **_COMMON,
)  # fmt: skip

PAPLU = Rules(
    name="paplu", description="traditional, transfers, no cap",
    source="000", min_players=2, max_players=6, deck_sizes=TWO_DECKS,
    joker_indicator_wilds=JokerIndicatorWilds.NONE, set_max=3,
    lone_pure=LonePure.PROTECTED, deal_cap=None, first_drop=10, middle_drop=40,
    first_drop_to_stock_bottom=True, invalid_declaration=InvalidDeclaration.MIDDLE_DROP,
    stock_exhausted=StockExhausted.VOID, first_turn_win_half=True,
    hand_rummy=HandRummy.NORMAL, match_format=MatchFormat.ROTATION, pool_limit=None,
    deals_choices=(), default_deals=None, first_dealer=FirstDealer.DRAW_CARDS,
    drop_paid=DropPaid.TO_WINNER, **_COMMON,
)  # fmt: skip

CLASSIC = Rules(
    name="classic", description="2-10 players, house rules",
    source="003", min_players=2, max_players=10, deck_sizes=CLASSIC_DECKS,
    joker_indicator_wilds=JokerIndicatorWilds.NONE, set_max=4,
    lone_pure=LonePure.PROTECTED, deal_cap=None, first_drop=10, middle_drop=40,
    first_drop_to_stock_bottom=True, invalid_declaration=InvalidDeclaration.MIDDLE_DROP,
    stock_exhausted=StockExhausted.RESHUFFLE, first_turn_win_half=True,
    hand_rummy=HandRummy.DOUBLE_PLAYED, match_format=MatchFormat.TARGET, pool_limit=None,
    deals_choices=(), default_deals=None, first_dealer=FirstDealer.RANDOM,
    drop_paid=DropPaid.TO_WINNER, num_deals=6, **_COMMON,
)  # fmt: skip

PROFILES: dict[str, Rules] = {r.name: r for r in (POINTS, POOL101, POOL201, DEALS, PAPLU, CLASSIC)}

HOUSE_TOGGLES = (
    "no_reshuffle",
    "joker_indicator_doubles",
    "aces_wild_on_joker",
    "nothing_wild",
    "one_joker_per_deck",
    "no_packing",
)


def get_profile(name: str) -> Rules:
    """The preset for a profile name; raises ValueError listing the valid names."""
    try:
        return PROFILES[name.strip().lower()]
    except KeyError:
        raise ValueError(
            f"unknown profile '{name}' (choose one of {', '.join(PROFILES)})"
        ) from None
