"""The rules object: every way the six profiles of docs/rules.md differ, held as data.

Nothing outside this module may ask "which profile is this?"; code asks the rules object a
question instead (`rules.set_max`, `rules.stock_exhausted`, ...). The presets below are a table
a reader can compare column by column with the one in docs/rules.md.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .cards import ACE, JOKER, Card, Face, check_copies, parse_cards, standard_faces
from .errors import OptionProblem as P
from .errors import RuleOptionError


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
    # House-rule toggles (docs/rules.md, "House toggles").
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
    # One English line saying what the game is ("out at 101"): metadata of the hand-history
    # file (docs/hand-history.md), never shown to players; the Discord side words a profile
    # from its catalogue (`profile-<name>` in rules.ftl, `render/rules.py` `profile_blurb`).
    description: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    # ---- derived questions -------------------------------------------------------------

    @property
    def effective_stock_exhausted(self) -> StockExhausted:
        return StockExhausted.VOID if self.no_reshuffle else self.stock_exhausted

    @property
    def chips(self) -> bool:
        """Whether scores are chips won or lost (payments go to the winner) rather than
        penalty points added to each player's total (pool and deals formats)."""
        return self.drop_paid is DropPaid.TO_WINNER

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
        return list(_deck(size.decks, size.jokers))

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

    def out_at(self, total: Fraction | int) -> bool:
        """Whether a pool player with this total is out of the match (never outside pool).
        The match eliminates by it, and the AI and the review ask it before a drop."""
        return self.pool_limit is not None and total >= self.pool_limit

    def payment_multiplier(self, indicator: Face | None) -> int:
        """`joker_indicator_doubles`: a printed joker cut as indicator doubles the payments."""
        if self.joker_indicator_doubles and indicator is not None and indicator.is_joker:
            return 2
        return 1

    @property
    def max_copies(self) -> int:
        """Most copies of one face in any deck this profile uses."""
        return max(s.decks for s in self.deck_sizes)

    @property
    def max_jokers(self) -> int:
        """Most printed jokers in any deck this profile uses, after the house toggles.

        Not a multiple of `max_copies`: two decks hold 2 jokers in the two-deck profiles but 4
        in `classic` (docs/rules.md, the profiles' deck row), so it is read from the deck sizes.
        """
        return max(self.deck_size(s.max_players).jokers for s in self.deck_sizes)

    def check_copies(self, cards: Iterable[Card | Face]) -> None:
        """Refuse a hand holding more copies of a face than this profile's largest deck.

        Raises `TooManyCopiesError` (a `CardParseError`, so a `ValueError`) naming the card.
        Call it wherever a hand comes from outside: the `check` CLI, `/rummy check`.

        The indicator is not counted against the hand: the ruling of docs/rules.md limits what a
        hand or `check` input holds, and the rule vectors rule on hands that hold both
        copies of the indicator's face (two decks, indicator 9♣, hand 9♣ 9♣ ...).
        """
        check_copies(cards, self.max_copies, self.max_jokers)

    def parse_hand(self, text: str | Iterable[str]) -> list[Card]:
        """Read a hand typed by a person, refusing cards this profile's deck cannot hold."""
        return parse_cards(text, max_copies=self.max_copies, max_jokers=self.max_jokers)

    def with_options(self, **changes: Any) -> Rules:
        """A copy with house-rule toggles or match options changed, typed and validated.

        Values arrive from command lines (strings), from stored lobbies (JSON) and from Discord;
        each is converted to the field's declared type (an enum member from its value, an int
        from digits, a bool from true/false) or refused with a `ValueError` naming the option
        and what it accepts. Without this `"honor"` would sit where `DeclarationMode.HONOR`
        belongs and every `is DeclarationMode.HONOR` test would quietly say no.
        """
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            settable = sorted(
                f.name for f in dataclasses.fields(self) if f.name not in _PROFILE_ONLY
            )
            raise RuleOptionError(
                P.UNKNOWN_OPTION,
                f"unknown rule option(s): {', '.join(sorted(unknown))} "
                f"(options: {', '.join(settable)}; honor and assisted set declaration_mode)",
                names=tuple(sorted(unknown)),
            )
        typed = {name: _convert_option(name, value) for name, value in changes.items()}
        new = dataclasses.replace(self, **typed)
        new.validate()
        return new

    def validate(self) -> None:
        """Refuse combinations the rules do not define (docs/rules.md and `LIMITS`).

        Checked on every `with_options` and by `Match.create`, so a forged or mistyped option
        cannot start a match: a pool limit of 1, a negative drop, a deals count not offered.
        """
        seats_low = LIMITS["seats"][0]
        if not seats_low <= self.min_players <= self.max_players:
            raise RuleOptionError(
                P.MIN_PLAYERS,
                f"min_players must be at least {seats_low} and at most max_players, "
                f"not {self.min_players}",
                low=seats_low,
                value=self.min_players,
            )
        seats_high = min(self.deck_sizes[-1].max_players, LIMITS["seats"][1])
        if self.max_players > seats_high:
            raise RuleOptionError(
                P.MAX_PLAYERS,
                f"max_players must be at most {seats_high} (the largest deck seats that many), "
                f"not {self.max_players}",
                high=seats_high,
                value=self.max_players,
            )
        for name in _AMOUNTS:
            value = getattr(self, name)
            if value is not None and value < 0:
                raise RuleOptionError(
                    P.NEGATIVE, f"{name} must not be negative, not {value}", name=name, value=value
                )
        if self.set_min < 3 or (self.set_max is not None and self.set_max < self.set_min):
            raise RuleOptionError(
                P.SET_MIN,
                f"set_min must be at least 3 and at most set_max, not {self.set_min}",
                value=self.set_min,
            )
        fmt = self.match_format
        if self.num_deals is not None:
            if fmt not in (MatchFormat.DEALS, MatchFormat.TARGET):
                raise _not_for_format("num_deals", fmt)
            _check_range("num_deals", self.num_deals)
        if fmt is MatchFormat.DEALS and self.num_deals not in self.deals_choices:
            raise RuleOptionError(
                P.DEALS_CHOICES,
                f"number of deals must be one of {', '.join(map(str, self.deals_choices))}",
                choices=self.deals_choices,
            )
        if self.target_score is not None:
            if fmt is not MatchFormat.TARGET:
                raise _not_for_format("target_score", fmt)
            _check_range("target_score", self.target_score)
        if fmt is MatchFormat.TARGET and self.num_deals is None and self.target_score is None:
            raise RuleOptionError(P.DEALS_OR_TARGET, "choose a number of deals or a target score")
        if fmt is MatchFormat.POOL:
            if self.pool_limit is None:
                raise RuleOptionError(P.POOL_NEEDS_LIMIT, "a pool match needs a pool_limit")
            _check_range("pool_limit", self.pool_limit)
        elif self.pool_limit is not None:
            raise _not_for_format("pool_limit", fmt)

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
        cached: dict[str, Any] | None = self.__dict__.get("_state")
        if cached is None:
            # Worked out once per rules object (a frozen value): the table's state is saved
            # on every move and this took two `to_dict` walks over every field each time.
            base = PROFILES.get(self.name)
            full = self.to_dict()
            if base is None:
                cached = {"full": full}
            else:
                preset = base.to_dict()
                changed = {k: v for k, v in full.items() if preset.get(k) != v}
                cached = {"profile": self.name, **changed}
            object.__setattr__(self, "_state", cached)  # a cache, not a field: not compared
        return dict(cached)  # its lists are read, never changed (written as JSON)

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

# The six profiles of docs/rules.md. Read across a row of keyword arguments to compare profiles.
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


# ---- option values from outside -------------------------------------------------------------

# What a table may choose, as (lowest, highest) inclusive. The engine is the authority; the
# Discord command declares the same numbers (`/rummy new` in cogs/lobby.py) only so that the
# client can refuse early, and a forged interaction still meets these checks.
LIMITS: dict[str, tuple[int, int]] = {
    "seats": (2, 10),
    "turn_timer": (15, 600),  # seconds
    "num_deals": (1, 50),
    "pool_limit": (20, 1000),
    "target_score": (10, 10_000),
}

# Amounts a player pays; negative ones would turn a penalty into a prize.
_AMOUNTS = (
    "deal_cap", "first_drop", "middle_drop", "invalid_penalty", "hand_rummy_dropped_pay",
)  # fmt: skip

# Fields that make a profile what it is: picked with the profile name, never changed as options.
_PROFILE_ONLY = frozenset({"name", "source", "deck_sizes", "deals_choices", "extra"})

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})
_NONE = frozenset({"none", "null", "off", ""})
_MAX_DIGITS = 9  # far above any limit; keeps int() away from its 4,300-digit refusal


def _not_for_format(name: str, fmt: MatchFormat) -> RuleOptionError:
    return RuleOptionError(
        P.NOT_FOR_FORMAT,
        f"{name} is not an option of a {fmt.value} match",
        name=name,
        format=fmt.value,
    )


def _check_range(name: str, value: int) -> None:
    low, high = LIMITS[name]
    if not low <= value <= high:
        raise RuleOptionError(
            P.OUT_OF_RANGE,
            f"{name} must be between {low} and {high}, not {value}",
            name=name,
            low=low,
            high=high,
            value=value,
        )


def check_table_options(rules: Rules, seats: int, turn_timer: int) -> None:
    """Refuse a table's seat count or turn timer outside what the rules and `LIMITS` allow.

    For the table layer (lobby options from Discord): the rule options themselves are checked
    by `Rules.with_options`; these two belong to the table, not the rules object.
    """
    for name, value in (("seats", seats), ("turn_timer", turn_timer)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleOptionError(
                P.NOT_WHOLE_NUMBER,
                f"{name} must be a whole number, not {value!r}",
                name=name,
                value=str(value),
            )
    _check_range("turn_timer", turn_timer)
    if not rules.min_players <= seats <= rules.max_players:
        raise RuleOptionError(
            P.SEATS,
            f"seats must be between {rules.min_players} and {rules.max_players} "
            f"for {rules.name}, not {seats}",
            profile=rules.name,
            low=rules.min_players,
            high=rules.max_players,
            value=seats,
        )


def parse_options(items: Iterable[str]) -> dict[str, Any]:
    """Command-line `NAME[=VALUE]` items into `with_options` keywords (values still strings).

    A bare name means True (`no_reshuffle`); `honor` and `assisted` are short for
    `declaration_mode=...`; `-` may stand for `_`. Typing is left to `with_options`, so the
    command lines and every other entry point convert values in one place.
    """
    out: dict[str, Any] = {}
    for item in items:
        raw_name, eq, value = item.partition("=")
        name = raw_name.strip().lower().replace("-", "_")
        if not name:
            raise RuleOptionError(
                P.NO_NAME, f"option {item!r} has no name (use NAME or NAME=VALUE)", item=item
            )
        if name in {m.value for m in DeclarationMode}:
            if eq:
                raise RuleOptionError(
                    P.TAKES_NO_VALUE,
                    f"option {name} takes no value (it sets declaration_mode)",
                    name=name,
                )
            out["declaration_mode"] = name
        else:
            out[name] = value.strip() if eq else True
    return out


@functools.cache
def _field_types() -> dict[str, Any]:
    """The declared type of every `Rules` field (resolved once: annotations are strings)."""
    return typing.get_type_hints(Rules)


def _convert_option(name: str, value: Any) -> Any:
    """`value` as the declared type of the `Rules` field `name`, or a ValueError saying why."""
    if name in _PROFILE_ONLY:
        raise RuleOptionError(
            P.PROFILE_ONLY,
            f"{name} is part of the profile, not an option (choose another profile)",
            name=name,
        )
    hint = _field_types()[name]
    args = typing.get_args(hint)
    optional = type(None) in args
    if optional:
        if value is None or (isinstance(value, str) and value.strip().lower() in _NONE):
            return None
        (hint,) = (a for a in args if a is not type(None))
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        allowed = [m.value for m in hint]
        if isinstance(value, hint):
            return value
        if isinstance(value, str) and value.strip().lower() in allowed:
            return hint(value.strip().lower())
        raise RuleOptionError(
            P.NOT_ONE_OF,
            f"{name} must be one of {', '.join(allowed)}, not {value!r}",
            name=name,
            choices=tuple(allowed),
            value=_shown(value),
        )
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise RuleOptionError(
            P.NOT_TRUE_FALSE,
            f"{name} must be true or false, not {value!r}",
            name=name,
            value=_shown(value),
        )
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            text = value.strip()
            digits = text.lstrip("+-")
            if digits.isascii() and digits.isdigit() and len(digits) <= _MAX_DIGITS:
                return int(text)
        what = "a whole number" + (" or none" if optional else "")
        shown = value if not isinstance(value, str) or len(value) < 40 else value[:37] + "..."
        raise RuleOptionError(
            P.NOT_WHOLE_NUMBER,
            f"{name} must be {what}, not {shown!r}",
            name=name,
            value=_shown(value),
        )
    raise RuleOptionError(  # pragma: no cover
        P.NOT_SETTABLE, f"{name} is not an option that can be set", name=name
    )


def _shown(value: Any) -> str:
    """A refused value as text for the message's parameters, cut short (it may be any input)."""
    text = str(value)
    return text if len(text) < 40 else text[:37] + "..."


def get_profile(name: str) -> Rules:
    """The preset for a profile name; raises ValueError listing the valid names."""
    try:
        return PROFILES[name.strip().lower()]
    except KeyError:
        raise RuleOptionError(
            P.UNKNOWN_PROFILE,
            f"unknown profile '{name}' (choose one of {', '.join(PROFILES)})",
            name=_shown(name),
            choices=tuple(PROFILES),
        ) from None


@functools.lru_cache(maxsize=64)
def _deck(decks: int, jokers: int) -> tuple[Card, ...]:
    """The physical cards of `decks` standard decks and `jokers` printed jokers, in their fixed
    order. Built once per size: every change of a table rebuilds its deal from the saved state
    (`Table.copy`), and making ~110 `Card`s each time was ~5 % of the bot's loop under load
    (`docs/scaling.md`). Cards are frozen, so every deal may share the same ones."""
    faces: list[Face] = []
    for _ in range(decks):
        faces.extend(standard_faces())
    faces.extend([JOKER] * jokers)
    return tuple(Card(i, f) for i, f in enumerate(faces))
