"""A tournament's rules of its own, as pure functions: seating a round, byes, who goes through,
places, and the seating commitment. Plain values in, plain values out: no Discord, no storage,
no clock, no game engine (a table's match is turned into `SeatResult`s by the caller), so every
rule here can be property-tested on its own.

Why here and not in `bot/engine`: the engine holds the rules of rummy at one table; this is how
an event runs many tables (how many sit where, who goes on), which is the application's policy
and speaks of players by their keys only. Why not inside `bot/table/tournament.py`: the use
cases there lock, store and announce; the rules below must be checkable without any of that,
and the simulator and the words layer use them too.

The rules, as the bot states them to players (`tournament.ftl` words them):

**Seating a round.** The round's players are put in a random order, the *draw* (committed to
before the seating is shown, see `commit`). With no more players than seats per table, they all
sit at one table: the final. Otherwise the round uses as few tables as seat everyone, ceil(n /
seats), with sizes as even as possible (they differ by at most one; larger tables first), the
draw filling table 1 first, then table 2, and so on. A table must be able to send someone home:
it needs more players than go through from it (top N: at least N + 1; a chip line: at least
2). When even tables would be smaller than that, the round uses as many tables of at least that
size as fit, and the players left over at the end of the draw get a **bye**: they go through
to the next round without playing (by lot: the draw decides, nobody chooses).

**Who goes through from a table.** The table's entrants are ranked (`rank`): players still in
the match above those who left it (left, removed by the organiser, or absent at its end: still
dropped for timing out three turns in a row), then people above AI entrants (an AI never goes
through ahead of a person), then by the round's result (pool: whoever stayed in longer; then
the score: net chips, or fewest points), then by deals won at the table this round, then by
the draw (the lot). With *top N*, the first N go through; with a *chip line*, everyone whose
chips are at or above the line, but never everyone at the table (the last-ranked stays).
Nobody who left the match goes through, except that each table sends at least its best-ranked
entrant. AI players that only fill empty seats never go through and get no place.

**Places.** The final table's ranking gives places 1, 2, 3, ...; the final table's first is
the winner. Everyone who went out in the same earlier round shares one place: one more than
the number of players who went on from that round.
"""

from __future__ import annotations

import enum
import hashlib
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

#: The scheme named at the start of every seating commitment's text.
SEATING_SCHEME = "paplu-seating-v1"
#: Players a table needs at the very least (two can play a deal).
MIN_TABLE = 2


class AdvanceKind(enum.StrEnum):
    """How players go through from a table."""

    TOP = "top"  # the best N of each table
    LINE = "line"  # everyone at or above a chip line


@dataclass(frozen=True, slots=True)
class Advance:
    """The rule of who goes through: `TOP` with `value` = N, or `LINE` with `value` = the chip
    line (net chips of the round, possibly negative)."""

    kind: AdvanceKind
    value: int

    @property
    def min_table(self) -> int:
        """The fewest players a table of a round before the final may have: it must send
        somebody home."""
        return self.value + 1 if self.kind is AdvanceKind.TOP else MIN_TABLE

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "value": self.value}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Advance:
        return cls(AdvanceKind(d["kind"]), int(d["value"]))


# ---- seating ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seating:
    """One round's seating: the tables (players by key, in the draw's order) and the byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]

    @property
    def final(self) -> bool:
        return len(self.tables) == 1 and not self.byes

    @property
    def players(self) -> list[str]:
        return [p for table in self.tables for p in table] + list(self.byes)


def even_sizes(players: int, tables: int) -> list[int]:
    """`players` over `tables` as evenly as possible, larger tables first."""
    if tables <= 0:
        return []
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def table_sizes(players: int, seats: int, min_table: int) -> tuple[list[int], int]:
    """The table sizes of a round of `players` and how many get a bye (see the module's rule).

    `seats` is the most a table seats; `min_table` the fewest a table before the final may
    have (`Advance.min_table`)."""
    if players < MIN_TABLE:
        return [], players
    if players <= seats:
        return [players], 0  # the final
    min_table = max(MIN_TABLE, min(min_table, seats))
    tables = math.ceil(players / seats)
    if players // tables >= min_table:
        return even_sizes(players, tables), 0
    tables = players // min_table
    seated = min(players, tables * seats)
    return even_sizes(seated, tables), players - seated


def seat(order: Sequence[str], seats: int, advance: Advance) -> Seating:
    """Seat a round's players in the order of the draw: table 1 takes the first of the draw,
    and the last of the draw get the byes."""
    sizes, _byes = table_sizes(len(order), seats, advance.min_table)
    tables: list[tuple[str, ...]] = []
    at = 0
    for size in sizes:
        tables.append(tuple(order[at : at + size]))
        at += size
    return Seating(tuple(tables), tuple(order[at:]))


def draw(players: Iterable[str], rng: random.Random) -> list[str]:
    """The round's draw: the players in a random order. They are sorted first, so the draw
    depends on who plays and the generator only, never on the order they were listed in."""
    order = sorted(players)
    rng.shuffle(order)
    return order


# ---- the commitment ---------------------------------------------------------------------------


def commitment_text(round_no: int, salt: str, order: Sequence[str]) -> str:
    """The exact text that is hashed: `paplu-seating-v1:<round>:<salt>:<draw, spaced>`."""
    return f"{SEATING_SCHEME}:{round_no}:{salt}:{' '.join(order)}"


def commit(round_no: int, salt: str, order: Sequence[str]) -> str:
    """SHA-256 (hex) of a round's draw and a secret salt: shown before the seating, the salt
    revealed when the round is over, so anyone can check the seating was not changed after."""
    return hashlib.sha256(commitment_text(round_no, salt, order).encode()).hexdigest()


def verify(
    commitment: str,
    round_no: int,
    salt: str,
    order: Sequence[str],
    seats: int,
    advance: Advance,
    tables: Sequence[Sequence[str]],
    byes: Sequence[str],
) -> bool:
    """Does a revealed draw match the commitment, and does it give exactly these tables and
    byes under the stated rule?"""
    if commit(round_no, salt, order) != commitment:
        return False
    expected = seat(order, seats, advance)
    return [list(t) for t in expected.tables] == [list(t) for t in tables] and list(
        expected.byes
    ) == list(byes)


# ---- a table's result -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's round at one table, as the ranking needs it."""

    player: str
    #: Higher is better: net chips (points format), or minus the points (deals, pool).
    score: Fraction = Fraction(0)
    #: Pool: how long the seat stayed in the match (the winner highest); 0 in other formats.
    survival: int = 0
    deals_won: int = 0
    #: Left the match: left it, removed by the organiser, or absent at its end (dropped for
    #: three timeouts in a row and never back).
    left: bool = False
    #: A person (False: an AI entrant).
    person: bool = True
    #: Position in the round's draw (the last tie-break: the lot).
    draw: int = 0
    #: An AI filling an empty seat: ranked last, never goes through, gets no place.
    filler: bool = False

    def key(self) -> tuple[bool, bool, bool, int, Fraction, int, int]:
        return (
            self.filler,
            self.left,
            not self.person,
            -self.survival,
            -self.score,
            -self.deals_won,
            self.draw,
        )


def rank(results: Iterable[SeatResult]) -> list[SeatResult]:
    """A table's results in the order of the stated rule, best first."""
    return sorted(results, key=SeatResult.key)


def qualifiers(results: Iterable[SeatResult], advance: Advance) -> list[str]:
    """Who goes through from one table, best first (see the module's rule)."""
    ranked = [r for r in rank(results) if not r.filler]
    if not ranked:
        return []
    if advance.kind is AdvanceKind.TOP:
        chosen = [r for r in ranked[: advance.value] if not r.left]
    else:
        chosen = [r for r in ranked[:-1] if not r.left and r.score >= advance.value]
    if not chosen:
        chosen = ranked[:1]
    return [r.player for r in chosen]


# ---- places -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """What a finished round (before the final) decided: who was in it (seated, with a bye,
    or removed before it was seated) and who went on to the next."""

    players: tuple[str, ...]
    advanced: tuple[str, ...]


@dataclass(slots=True)
class Places:
    """Every player's place, and the winner."""

    places: dict[str, int] = field(default_factory=dict)
    winner: str | None = None


def places(rounds: Sequence[RoundOutcome], final_order: Sequence[str]) -> Places:
    """Places from the rounds before the final and the final table's ranking (entrants only,
    best first): the final gives 1, 2, 3...; everyone out in one earlier round shares the
    place after everyone who went on from it."""
    out = Places()
    for i, player in enumerate(final_order):
        out.places.setdefault(player, i + 1)
    out.winner = final_order[0] if final_order else None
    for outcome in reversed(rounds):
        shared = len(outcome.advanced) + 1
        going = set(outcome.advanced)
        for player in outcome.players:
            if player not in going:
                out.places.setdefault(player, shared)
    return out
