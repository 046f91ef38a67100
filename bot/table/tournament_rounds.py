"""A round in memory: seating it (its draw, commitment and tables), reading its tables' results,
and the places at the end. These work on the working copy of a tournament change
(`bot.table.tournament_unit.TournamentChange.work`) and never await, so each is one step.

The rules themselves (who sits where, who goes through, places) are `bot.table.bracket`'s;
this module builds the tables that play them and reads back what they played.
"""

from __future__ import annotations

import hashlib
import random
import secrets

from bot.engine.match import Match, Player, ScoreKind
from bot.engine.public_log import seating_entries
from bot.storage.tournaments import PlaceRow

from . import bracket
from .autoplay import MAX_TIMEOUTS
from .bracket import SeatResult
from .model import Seat, Table, TournamentSeat, new_table_id
from .moves import new_turn_if_needed
from .tournament_model import Round, TableSlot, Tournament, TournamentStatus
from .vocabulary import TableStatus

#: Seconds added to the first turn of a round's tables for every table opened with it: their
#: threads open one after another within Discord's limits, so the last table's first player
#: is not timed out while the bot is still opening the thread they play in.
PLACING_GRACE = 3.0
MAX_GRACE = 60.0


def derived(seed: int, tag: str) -> int:
    """A seed for one purpose, from the tournament's seed (tests and the simulator only)."""
    return int(hashlib.sha256(f"{seed}:{tag}".encode()).hexdigest()[:16], 16)


def seat_round(work: Tournament, players: list[str], now: float) -> list[Table]:
    """Draw, commit to and seat the next round of `players` (entrant keys); the round is
    added to `work` and its tables returned, playing, their first deal dealt."""
    number = len(work.rounds) + 1
    opts = work.options
    if work.seed is None:
        rng: random.Random = secrets.SystemRandom()
        salt = secrets.token_hex(16)
    else:
        rng = random.Random(derived(work.seed, f"draw {number}"))
        halves = (derived(work.seed, f"salt {number}.{half}") for half in (1, 2))
        salt = "".join(f"{h:016x}" for h in halves)
    order = bracket.draw(players, rng)
    seating = bracket.seat(order, opts.seats, opts.advance)
    rnd = Round(
        number,
        order,
        salt,
        bracket.commit(number, salt, order),
        [],
        list(seating.byes),
        now,
    )
    grace = min(MAX_GRACE, PLACING_GRACE * len(seating.tables))
    tables: list[Table] = []
    for i, keys in enumerate(seating.tables, start=1):
        slot = TableSlot(i, new_table_id(), list(keys))
        if opts.ai_fill:
            while len(slot.seats) < opts.seats:
                work.ai_counter += 1
                key = f"ai{work.ai_counter}"
                slot.fillers[key] = f"🤖 {opts.ai_tier.capitalize()} {work.ai_counter}"
                slot.seats.append(key)
        rnd.tables.append(slot)
        tables.append(_open_table(work, rnd, slot, now, grace))
    work.rounds.append(rnd)
    return tables


def _open_table(work: Tournament, rnd: Round, slot: TableSlot, now: float, grace: float) -> Table:
    opts = work.options
    if work.seed is None:
        seed = random.SystemRandom().getrandbits(63)
    else:
        seed = derived(work.seed, f"table {rnd.number}.{slot.number}") >> 1
    table = Table(
        slot.table_id,
        work.guild_id,
        work.channel_id,
        work.organiser_id,
        opts.table_options(len(slot.seats)),
        seed=seed,
        tournament=TournamentSeat(work.id, rnd.number, slot.number),
    )
    for key in slot.seats:
        entrant = work.entrant(key)
        if entrant is None:
            table.seats.append(Seat(key, slot.fillers[key], ai=opts.ai_tier))
        else:
            table.seats.append(Seat(key, entrant.name, user_id=entrant.user_id, ai=entrant.ai))
    table.ai_counter = len(slot.fillers)
    m = Match.create([Player(s.key, s.name) for s in table.seats], table.rules, seed=seed)
    table.match = m
    table.status = TableStatus.PLAYING
    table.version = 1
    if m.seating:
        table.log.extend(seating_entries(m.seating, [(p.id, p.name) for p in m.players]))
    table.log.extend(m.entries_since(0))
    new_turn_if_needed(table, now)
    if table.deadline is not None:
        table.deadline += grace
    if work.paused:
        table.held = True
    return table


def table_results(work: Tournament, rnd: Round, slot: TableSlot, table: Table) -> list[SeatResult]:
    """Each seat's round at a finished (or closed) table, as `bracket.rank` needs it."""
    m = table.match
    draw = {key: i for i, key in enumerate(rnd.draw)}
    out: list[SeatResult] = []
    if m is None:
        return [
            SeatResult(key, left=True, draw=draw.get(key, len(draw)), filler=key in slot.fillers)
            for key in slot.seats
        ]
    net = m.score_kind is ScoreKind.NET
    pool = work.options.format.pool
    for s, player in enumerate(m.players):
        entrant = work.entrant(player.id)
        survival = 0
        if pool:
            if s in m.winners:
                survival = len(m.players) + 1
            elif s in m.eliminated:
                survival = m.eliminated.index(s) + 1
            elif s not in m.left:
                survival = len(m.players)
        out.append(
            SeatResult(
                player.id,
                m.scores[s] if net else -m.scores[s],
                survival,
                sum(1 for r in m.results if r.winner == s),
                s in m.left
                or (entrant is not None and entrant.removed)
                # Absent at the end: dropped for three timeouts in a row, and never back.
                or table.timeouts.get(player.id, 0) >= MAX_TIMEOUTS,
                entrant is not None and entrant.person,
                draw.get(player.id, len(draw)),
                player.id in slot.fillers,
            )
        )
    return out


def next_players(rnd: Round, work: Tournament) -> list[str]:
    """Who plays the round after `rnd`: every table's qualifiers and the byes, less anyone
    the organiser removed."""
    going = [k for t in rnd.tables for k in t.advanced] + list(rnd.byes)
    return [k for k in going if (e := work.entrant(k)) is not None and not e.removed]


def finish(work: Tournament) -> list[PlaceRow]:
    """The tournament is decided: every entrant's place, the winner, the status. Normally the
    final table is done (its ranking gives places 1, 2, ...); if a round leaves fewer than
    two players (the others removed), the one left wins without a final."""
    last = work.rounds[-1]
    if last.final:
        slot = last.tables[0]
        order = [r.player for r in bracket.rank(slot.results or []) if not r.filler]
        earlier = work.rounds[:-1]
    else:
        order = next_players(last, work)
        earlier = work.rounds
    # Who went on from a round is who played the next one (seated, or with a bye).
    outcomes = [
        bracket.RoundOutcome(tuple(r.players), tuple(later.players))
        for r, later in zip(earlier, work.rounds[1:], strict=False)
    ]
    if not last.final:
        outcomes.append(bracket.RoundOutcome(tuple(last.players), tuple(order)))
    placed = bracket.places(outcomes, order)
    work.places = placed.places
    work.winner = placed.winner
    work.status = TournamentStatus.FINISHED
    rows: list[PlaceRow] = []
    for key, place in sorted(work.places.items(), key=lambda kv: (kv[1], kv[0])):
        entrant = work.entrant(key)
        rounds = sum(1 for r in work.rounds if key in r.players)
        user = entrant.user_id if entrant is not None else None
        rows.append(PlaceRow(key, user, work.name_of(key), place, rounds))
    return rows
