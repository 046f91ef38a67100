"""A whole tournament played by AI players through the table layer, without Discord:
`python -m bot.simulate tournament --players 60 --seats 6 --format points --deals 2 --advance 2`.

Every seat is an AI entrant; the tournament is created, filled, started and played by the same
use cases (`bot.table.tournament`), units of work, storage (an in-memory SQLite database) and
table machinery the bot runs, with the delays set to nothing. The same `--seed` plays the same
tournament: the seating draws, the salts and every table's cards follow from it.

`--json` prints one JSON object as the last line:

* `players`: the entrants' ids (`e1`, `e2`, ...), `names` their names;
* `rounds`: each `{"number", "final", "tables": [{"seats": [ids], "chips": {id: net chips
  this round}, "advanced": [ids]}], "byes": [ids]}`. In the `deals` and pool formats, where a
  table scores points (fewer is better) rather than chips, `chips` is minus the points and
  `points` the points themselves; `deals_won` and `left` (who left the match) are the
  tie-break's facts. Seats include AI players that only fill empty seats (`--ai-fill`, listed
  in `fillers`), which never go through and get no place;
* `places`: `{id: place}` (1 for the winner; everyone out in the same round shares a place),
  `winner`;
* `commitments`: one a round: `commitment` (shown before the seating), what it commits to
  (`text`: the scheme, the round, the salt and the draw), the `draw` and `salt`, and
  `verified` (the commitment and the seating recomputed from them match).

The plain output says the same in a few lines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .ai import TIERS
from .clihelp import HelpFormatter
from .storage import Storage
from .storage.tournaments import TournamentNoteKind
from .table import bracket
from .table.lobby import parse_tier
from .table.service import TableService
from .table.tournament import Organiser
from .table.tournament_effects import QuietTournaments
from .table.tournament_model import MAX_ENTRANTS, Tournament, TournamentFormat
from .table.tournament_options import TournamentRequest
from .table.turns import think_in_thread
from .table.vocabulary import ENGLISH

GUILD, CHANNEL, ORGANISER = 1, 2, 3
#: Seconds a simulated tournament may take before it is given up.
TIME_LIMIT = 1800.0


class _Quiet:
    """A table listener that shows nothing."""

    async def table_changed(self, table: Any) -> None: ...
    async def turn_started(self, table: Any) -> None: ...
    async def turn_warning(self, table: Any) -> None: ...
    async def deal_finished(self, table: Any, number: int, *, again: bool = False) -> None: ...
    async def table_closed(self, table: Any, reason: str, *, again: bool = False) -> None: ...


class _Ending(QuietTournaments):
    """Says when the tournament is over (finished or cancelled)."""

    def __init__(self) -> None:
        self.over = asyncio.Event()

    async def tournament_note(
        self,
        tournament: Tournament,
        kind: TournamentNoteKind,
        round_no: int,
        payload: dict[str, Any],
        *,
        again: bool = False,
    ) -> None:
        if kind in ("finished", "cancelled"):
            self.over.set()


async def play(
    players: int,
    seats: int,
    fmt: str,
    deals: int | None,
    advance: int | None,
    chip_line: int | None,
    seed: int,
    tier: str = "easy",
    ai_fill: bool = False,
) -> dict[str, Any]:
    """Play one tournament and return its record (see the module docstring)."""
    level = parse_tier(tier)
    storage = await Storage.open(":memory:")
    ending = _Ending()
    service = TableService(
        storage,
        _Quiet(),
        ai_delay=0.0,
        next_deal_delay=0.0,
        deck_seed=seed,
        think=think_in_thread,
        retry_delays=(0.05, 0.2),
        tournament_listener=ending,
    )
    try:
        organiser = Organiser(ORGANISER, manager=True)
        request = TournamentRequest(
            "Simulated", fmt, deals, seats, advance, chip_line, start_in=1,
            cap=max(players, 2), ai_fill=ai_fill, ai_tier=tier,
        )  # fmt: skip
        t = await service.tournaments.create(
            GUILD, CHANNEL, organiser, request, lambda _chosen: ENGLISH
        )
        added = 0
        while added < players:
            count = min(60, players - added)
            await service.tournament_tools.add_ai(t, organiser, count, level, lambda n: f"AI {n}")
            added += count
        await service.tournament_tools.start(t, organiser)
        await asyncio.wait_for(ending.over.wait(), TIME_LIMIT)
        return record(t)
    finally:
        await service.shutdown()
        await storage.close()


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def record(t: Tournament) -> dict[str, Any]:
    """A finished tournament as the JSON the simulator prints."""
    opts = t.options
    chips = opts.format.chips
    rounds: list[dict[str, Any]] = []
    commitments: list[dict[str, Any]] = []
    for r in t.rounds:
        tables = []
        for slot in r.tables:
            results = {res.player: res.score for res in slot.results or []}
            table: dict[str, Any] = {
                "seats": list(slot.seats),
                "chips": {k: _number(v) for k, v in results.items()},
                "advanced": list(slot.advanced),
                "deals_won": {res.player: res.deals_won for res in slot.results or []},
                "left": [res.player for res in slot.results or [] if res.left],
                "fillers": list(slot.fillers),
            }
            if not chips:
                table["points"] = {k: _number(-v) for k, v in results.items()}
            tables.append(table)
        rounds.append({"number": r.number, "final": r.final, "tables": tables, "byes": r.byes})
        verified = bracket.verify(
            r.commitment, r.number, r.salt, r.draw, opts.seats, opts.advance,
            [s.seats[: len(s.seats) - len(s.fillers)] for s in r.tables], r.byes,
        )  # fmt: skip
        commitments.append(
            {
                "round": r.number,
                "commitment": r.commitment,
                "text": bracket.commitment_text(r.number, r.salt, r.draw),
                "draw": list(r.draw),
                "salt": r.salt,
                "verified": verified,
            }
        )
    return {
        "format": opts.format.value,
        "seats": opts.seats,
        "advance": opts.advance.to_dict(),
        "seed": t.seed,
        "status": t.status.value,
        "players": [e.key for e in t.entrants if not e.removed],
        "names": {e.key: e.name for e in t.entrants},
        "rounds": rounds,
        "places": dict(sorted(t.places.items(), key=lambda kv: (kv[1], kv[0]))),
        "winner": t.winner,
        "commitments": commitments,
    }


def summary_text(out: dict[str, Any]) -> str:
    """The record in a few plain lines."""
    lines = [
        f"{len(out['players'])} players, {out['format']}, tables of up to {out['seats']}: "
        f"{len(out['rounds'])} rounds; winner {out['winner']} ({out['names'][out['winner']]})."
    ]
    for r in out["rounds"]:
        sizes = ", ".join(str(len(t["seats"])) for t in r["tables"])
        went = sum(len(t["advanced"]) for t in r["tables"])
        final = " (final)" if r["final"] else f", {went} through, {len(r['byes'])} byes"
        lines.append(f"round {r['number']}: tables of {sizes}{final}")
    ok = all(c["verified"] for c in out["commitments"])
    lines.append("Seating commitments: " + ("all verified." if ok else "NOT all verified."))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.simulate tournament",
        description=__doc__,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--players", type=int, default=60, help="AI entrants (2 to 200)")
    parser.add_argument("--seats", type=int, default=6, help="most players a table (2 to 6)")
    parser.add_argument(
        "--format", default="points", choices=[f.value for f in TournamentFormat],
        help="what each table plays in a round",
    )  # fmt: skip
    parser.add_argument(
        "--deals", type=int, default=None,
        help="deals a round (points: 1 to 10; deals: 2, 3 or 6; default 2)",
    )  # fmt: skip
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--advance", type=int, default=None,
        help="how many go through from each table (default 2; 1 at 2-3 seats)",
    )  # fmt: skip
    how.add_argument(
        "--chip-line", type=int, default=None,
        help="points format: everyone at or above this many chips goes through",
    )  # fmt: skip
    parser.add_argument("--ai-fill", action="store_true",
                        help="AI players fill empty seats (they never go through)")  # fmt: skip
    parser.add_argument("--tier", default="easy", choices=TIERS, help="the AI entrants' tier")
    parser.add_argument("--seed", type=int, default=1, help="the tournament's seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= MAX_ENTRANTS:
        parser.error(f"--players must be between 2 and {MAX_ENTRANTS}")
    logging.basicConfig(level=logging.ERROR)
    game = play(
        args.players, args.seats, args.format, args.deals, args.advance,
        args.chip_line, args.seed, args.tier, args.ai_fill,
    )  # fmt: skip
    try:
        out = asyncio.run(game)
    except Exception as exc:  # a refused option: say which, as the bot would
        problem = getattr(exc, "params", None) or str(exc)
        print(f"cannot run that tournament: {problem}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(summary_text(out))
    return 0
