"""Recording results as outbox jobs: written with the move that ends a deal, stored after it.

Why a job and not a write in the move's own transaction: storing a result updates the
leaderboards, period windows and ratings of every seat, which is several times the work of
storing the move; the move's commit stays small and the result follows it at once. Why a job
and not a plain write after the commit: if that write fails (or the process dies), the job is
still in the outbox, so it is retried and, at the latest, done at the next start. Storing a
result is idempotent (one row per match and deal), so a repeat after a crash counts once.

The payload is the whole record, frozen at the moment the deal ended: the next deal replaces
what the table state knows of this one, and a job may be delivered after that.
"""

from __future__ import annotations

import json
import logging
from fractions import Fraction
from typing import Any

from bot.engine.match import MatchPhase
from bot.storage import (
    Announcement,
    DealRecord,
    DealSeatRecord,
    HintLevel,
    MatchRecord,
    MatchSeatRecord,
    Storage,
)

from .model import Table
from .results import deal_record, match_record

log = logging.getLogger(__name__)

RESULT_KINDS = frozenset({"record_deal", "record_match"})


def result_jobs(work: Table, deals_before: int, match_ended: bool, now: int) -> list[Announcement]:
    """The result records a change makes due: the deal it finished (numbered past
    `deals_before`), and the match record when it ended the match."""
    m = work.match
    if m is None:
        return []
    jobs: list[Announcement] = []
    finished = m.finished_deal()
    if finished is not None and finished.result.number > deals_before:
        record = deal_record(work, finished.result, finished.history, now)
        jobs.append(Announcement("record_deal", record.deal_no, deal_to_json(record)))
    if match_ended and m.phase is MatchPhase.OVER:
        jobs.append(Announcement("record_match", 0, match_to_json(match_record(work, now))))
    return jobs


async def store_result(
    storage: Storage, table_id: str, kind: str, deal_no: int, payload_json: str
) -> None:
    """Store one job's record and mark the job done, in one transaction: either both happen
    or neither (and storing a record twice changes nothing, should a run stop between)."""
    async with storage.transaction() as tx:
        if kind == "record_deal":
            await storage.results.record_deal_result(deal_from_json(payload_json), tx=tx)
            await storage.outbox.mark_announced(table_id, "record_deal", deal_no, tx=tx)
        elif kind == "record_match":
            await storage.results.record_match_result(match_from_json(payload_json), tx=tx)
            await storage.outbox.mark_announced(table_id, "record_match", deal_no, tx=tx)
        else:
            raise ValueError(f"not a result job: {kind!r}")


# ---- the payload format: plain JSON, amounts as exact fractions "n/d" ----------------------


def _amount(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def deal_to_json(r: DealRecord) -> str:
    return json.dumps(
        {
            "guild_id": r.guild_id,
            "match_id": r.match_id,
            "deal_no": r.deal_no,
            "profile": r.profile,
            "finished_at": r.finished_at,
            "hand_history_json": r.hand_history_json,
            "hints": str(r.hints),
            "seats": [
                {
                    "user_id": s.user_id,
                    "name": s.name,
                    "is_ai": s.is_ai,
                    "outcome": s.outcome,
                    "penalty": _amount(s.penalty),
                    "net": _amount(s.net),
                }
                for s in r.seats
            ],
        }
    )


def deal_from_json(text: str) -> DealRecord:
    d: dict[str, Any] = json.loads(text)
    return DealRecord(
        guild_id=d["guild_id"],
        match_id=d["match_id"],
        deal_no=d["deal_no"],
        profile=d["profile"],
        finished_at=d["finished_at"],
        hand_history_json=d["hand_history_json"],
        # A job written before hint levels existed: its deal was played with full hints.
        hints=HintLevel(d.get("hints", HintLevel.FULL.value)),
        seats=[
            DealSeatRecord(
                user_id=s["user_id"],
                name=s["name"],
                is_ai=s["is_ai"],
                outcome=s["outcome"],
                penalty=Fraction(s["penalty"]),
                net=Fraction(s["net"]),
            )
            for s in d["seats"]
        ],
    )


def match_to_json(r: MatchRecord) -> str:
    return json.dumps(
        {
            "match_id": r.match_id,
            "guild_id": r.guild_id,
            "profile": r.profile,
            "finished_at": r.finished_at,
            "hints": str(r.hints),
            "rated": r.rated,
            "seats": [
                {
                    "user_id": s.user_id,
                    "name": s.name,
                    "is_ai": s.is_ai,
                    "place": s.place,
                    "is_winner": s.is_winner,
                    "net": _amount(s.net),
                }
                for s in r.seats
            ],
        }
    )


def match_from_json(text: str) -> MatchRecord:
    d: dict[str, Any] = json.loads(text)
    return MatchRecord(
        match_id=d["match_id"],
        guild_id=d["guild_id"],
        profile=d["profile"],
        finished_at=d["finished_at"],
        hints=HintLevel(d.get("hints", HintLevel.FULL.value)),
        rated=bool(d.get("rated", True)),
        seats=[
            MatchSeatRecord(
                user_id=s["user_id"],
                name=s["name"],
                is_ai=s["is_ai"],
                place=s["place"],
                is_winner=s["is_winner"],
                net=Fraction(s["net"]),
            )
            for s in d["seats"]
        ],
    )
