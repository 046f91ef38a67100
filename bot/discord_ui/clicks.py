"""What a click means: a component's custom id parsed once into a typed `Click`.

Every game component carries its whole meaning in its custom id, so no view object has to live
in memory for a button to work and a restart breaks nothing:
`rm:<table>:<version>:<seat or x>:<action>[:<arg>]` for buttons, the same with `rs:` for select
menus. The version is the table version the control was drawn for (a click on an older view is
refused by the table layer as stale); the seat, for a hand view's controls, the seat they
belong to.

A client can send anything: a tampered id, a card that was never offered, two values where a
menu allows one. `parse` is the only place that reads an id and the values a menu sent; what it
cannot turn into a well-formed `Click` is a `BadClick`, answered with the short private
"that control does not work any more" and nothing changes. Past the parse, every handler works
with typed fields (`Act`, a card id, a deal number, an AI tier, a host tool), never with the
strings of the id.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot.ai import AiTier
from bot.table.errors import UnknownAction

PREFIX_BUTTON = "rm"
PREFIX_SELECT = "rs"
#: A game component's custom id, for discord.py's `DynamicItem` templates (buttons; selects
#: the same with `rs:`). discord.py matches it in full against every incoming custom id.
TEMPLATE = (
    r"rm:(?P<table>[0-9a-z]{4,16}):(?P<version>\d{1,9}):(?P<seat>\d{1,2}|x)"
    r":(?P<action>[a-z_]{2,16})(?::(?P<arg>[0-9a-z_-]{1,24}))?"
)
SELECT_TEMPLATE = PREFIX_SELECT + TEMPLATE[len(PREFIX_BUTTON) :]
_ID = re.compile(r"(?P<kind>r[ms]):" + TEMPLATE[len(PREFIX_BUTTON) + 1 :])


class Act(enum.StrEnum):
    """The action word of a game component: what the click asks for."""

    # The lobby (its message, its menus) and a finished match's "Play again".
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    ADD_AI = "add_ai"
    HOST = "host"
    AGAIN = "again"
    # The table message and a deal's results.
    HAND = "hand"
    NEXT = "next"
    REVIEW = "review"
    HISTORY = "hist"
    REPLAY = "replay"  # a deal's replay page
    MATCH_REPLAY = "replay_match"  # the match's replay page (on its last results)
    # A player's own hand view.
    DRAW = "draw"
    TAKE = "take"
    DISCARD = "discard"
    DECLARE = "declare"
    RUMMY = "rummy"  # a declaration of the 13 cards held, before drawing
    DROP = "drop"  # first press: the cost is shown
    CONFIRM_DROP = "confirm_drop"
    SORT = "sort"
    IMAGES = "images"
    REFRESH = "refresh"
    # A tournament's registration message (the id is the tournament's).
    T_REGISTER = "t_register"
    T_UNREGISTER = "t_unregister"
    T_HERE = "t_here"  # "I'm here": check-in


class HostToolKind(enum.StrEnum):
    REMOVE = "remove"  # take a seat away (an AI or a player)
    MAKE_HOST = "host"  # hand the host role to a seated player


@dataclass(frozen=True, slots=True)
class HostTool:
    """One entry of the lobby's host menu: what to do, to which seat."""

    kind: HostToolKind
    seat_key: str

    @property
    def value(self) -> str:
        return f"{self.kind}:{self.seat_key}"


class BadClick(UnknownAction):
    """An id or a value that no control of the bot ever carried (a tampered or garbled
    client): answered like an unknown action, and nothing changes."""


@dataclass(frozen=True, slots=True)
class Click:
    """A game component, as typed values. Built by the views (`id` is its custom id) and by
    `parse` from what Discord sends; each action has only the fields it needs set."""

    act: Act
    table_id: str
    version: int
    seat: int | None = None
    #: DISCARD and DECLARE: the card (its id) the player chose.
    card: int | None = None
    #: NEXT, REVIEW, HISTORY and REPLAY: the deal the message is about (NEXT on the table: None).
    deal: int | None = None
    #: ADD_AI: the tier chosen.
    tier: AiTier | None = None
    #: HOST: the host tool chosen.
    host: HostTool | None = None
    #: SORT: by suit (True) or grouped by melds; IMAGES: pictures on (True) or text only.
    flag: bool | None = None

    @property
    def arg(self) -> str:
        """The id's argument: what the control itself carries (a select menu's choice comes
        in its values instead)."""
        spec = _SPECS[self.act]
        return "" if spec.arg is None else spec.arg.write(self)

    @property
    def id(self) -> str:
        """The custom id of a button (at most 100 characters: `TEMPLATE` bounds each part)."""
        seat = "x" if self.seat is None else str(self.seat)
        cid = f"{PREFIX_BUTTON}:{self.table_id}:{self.version}:{seat}:{self.act}"
        arg = self.arg
        return f"{cid}:{arg}" if arg else cid

    @property
    def menu_id(self) -> str:
        """The custom id of a select menu: the same, with the menus' prefix."""
        return PREFIX_SELECT + self.id[len(PREFIX_BUTTON) :]

    def value(self) -> str:
        """What a menu option carries for this click's choice (a card, a tier, a host tool)."""
        spec = _SPECS[self.act]
        if spec.value is None:
            raise ValueError(f"{self.act} is not a menu")
        return spec.value.write(self)


@dataclass(frozen=True, slots=True)
class _Field:
    """How one typed field travels in a custom id argument or a menu value."""

    read: Callable[[str], dict[str, object]]
    write: Callable[[Click], str]
    optional: bool = False


@dataclass(frozen=True, slots=True)
class _Spec:
    """What an action carries: an argument in its id; for a menu, the one value chosen
    (`value`); `button`: whether it may also come as a button (else only as a menu)."""

    arg: _Field | None = None
    value: _Field | None = None
    button: bool = True


def _number(name: str, digits: int) -> Callable[[str], dict[str, object]]:
    def read(raw: str) -> dict[str, object]:
        if not raw.isascii() or not raw.isdigit() or len(raw) > digits:
            raise BadClick()
        return {name: int(raw)}

    return read


def _choice(name: str, words: dict[str, object]) -> Callable[[str], dict[str, object]]:
    def read(raw: str) -> dict[str, object]:
        if raw not in words:
            raise BadClick()
        return {name: words[raw]}

    return read


def _tier(raw: str) -> dict[str, object]:
    try:
        return {"tier": AiTier(raw)}
    except ValueError:
        raise BadClick() from None


def _host(raw: str) -> dict[str, object]:
    what, _, key = raw.partition(":")
    try:
        kind = HostToolKind(what)
    except ValueError:
        raise BadClick() from None
    if not key or len(key) > 24 or not key.isascii() or not key.isprintable():
        raise BadClick()
    return {"host": HostTool(kind, key)}


#: A card's id: its place in the unshuffled decks of the deal (at most a few hundred).
_CARD = _Field(_number("card", 3), lambda c: "" if c.card is None else str(c.card))
_DEAL = _Field(_number("deal", 4), lambda c: "" if c.deal is None else str(c.deal))
_SORT = _Field(
    _choice("flag", {"suit": True, "melds": False}), lambda c: "suit" if c.flag else "melds"
)
_IMAGES = _Field(_choice("flag", {"on": True, "off": False}), lambda c: "on" if c.flag else "off")

_SPECS: dict[Act, _Spec] = {
    Act.JOIN: _Spec(),
    Act.LEAVE: _Spec(),
    Act.START: _Spec(),
    Act.CANCEL: _Spec(),
    Act.ADD_AI: _Spec(button=False, value=_Field(_tier, lambda c: c.tier or "")),
    Act.HOST: _Spec(button=False, value=_Field(_host, lambda c: c.host.value if c.host else "")),
    Act.AGAIN: _Spec(),
    Act.HAND: _Spec(),
    Act.NEXT: _Spec(arg=replace(_DEAL, optional=True)),
    Act.REVIEW: _Spec(arg=_DEAL),
    Act.HISTORY: _Spec(arg=_DEAL),
    Act.REPLAY: _Spec(arg=_DEAL),
    Act.MATCH_REPLAY: _Spec(),
    Act.DRAW: _Spec(),
    Act.TAKE: _Spec(),
    Act.DISCARD: _Spec(button=False, value=_CARD),
    # Assisted mode: a button naming the card whose throw declares; honor mode, and any
    # table below full hints: a menu of every card.
    Act.DECLARE: _Spec(arg=replace(_CARD, optional=True), value=_CARD),
    Act.RUMMY: _Spec(),
    Act.DROP: _Spec(),
    Act.CONFIRM_DROP: _Spec(),
    Act.SORT: _Spec(arg=_SORT),
    Act.IMAGES: _Spec(arg=_IMAGES),
    Act.REFRESH: _Spec(),
    Act.T_REGISTER: _Spec(),
    Act.T_UNREGISTER: _Spec(),
    Act.T_HERE: _Spec(),
}


def parse(custom_id: str, values: Sequence[str] = ()) -> Click:
    """The click a component's custom id and chosen values stand for; `BadClick` when they
    are not one the bot could have drawn (an unknown action, a malformed argument, a menu
    value that is not one value of the right shape)."""
    found = _ID.fullmatch(custom_id)
    if found is None:
        raise BadClick()
    try:
        act = Act(found["action"])
    except ValueError:
        raise BadClick() from None
    spec = _SPECS[act]
    menu = found["kind"] == PREFIX_SELECT
    seat = found["seat"]
    fields: dict[str, object] = {}
    raw_arg = found["arg"] or ""
    if spec.arg is not None and raw_arg:
        fields.update(spec.arg.read(raw_arg))
    elif raw_arg or (spec.arg is not None and not spec.arg.optional):
        raise BadClick()
    if menu:
        if spec.value is None or len(values) != 1:
            raise BadClick()
        fields.update(spec.value.read(values[0]))
    elif values or not spec.button:
        raise BadClick()
    return Click(
        act,
        found["table"],
        int(found["version"]),
        None if seat == "x" else int(seat),
        **fields,  # type: ignore[arg-type]
    )
