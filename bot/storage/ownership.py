"""Table ownership: which bot process drives an open table, held as a renewable lease.

Why: with shard clusters several processes share one database, and a table must be driven by
exactly one of them (two would both run its timers and AI turns, both edit its message, and
fight over its version). Sharding by guild already gives each table one process when the
configuration is right; this module makes a wrong configuration (overlapping ``SHARD_IDS``)
harmless: a process claims a table before driving it, and the database says no to the second.

Invariants:

* **Atomic claim.** :meth:`LeaseRepo.claim_table` is one conditional upsert: it takes the
  row only if there is none, its lease has expired, or the owner is already the caller.
  Two processes claiming at once cannot both win (SQLite serialises writers; the
  statement reads and writes in one step).
* **Leases end.** A process that dies stops renewing; once ``lease_until`` has passed
  anyone may claim the table, so a crashed process's tables are taken over without an
  operator.
* **Only the owner renews or releases.** :meth:`LeaseRepo.renew_tables` and
  :meth:`LeaseRepo.release_table` match on the owner, so a process that lost a table (it
  stalled past its lease and another took over) learns it from the result instead of
  silently taking the table back.
* Time is passed in (``now``) by the caller's clock, so leases can be tested without waiting.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.conn import Database, Tx

__all__ = ["LeaseRepo", "Owner"]

# ------------------------------------------------------------- SQLite dialect

_CLAIM = (
    "INSERT INTO table_owners (table_id, owner, lease_until, claimed_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner,"
    " lease_until = excluded.lease_until,"
    " claimed_at = CASE WHEN table_owners.owner = excluded.owner"
    " THEN table_owners.claimed_at ELSE excluded.claimed_at END"
    " WHERE table_owners.owner = excluded.owner OR table_owners.lease_until <= ?"
)
_RENEW = "UPDATE table_owners SET lease_until = ? WHERE table_id = ? AND owner = ?"
_RELEASE = "DELETE FROM table_owners WHERE table_id = ? AND owner = ?"
_OWNER_OF = "SELECT owner, lease_until, claimed_at FROM table_owners WHERE table_id = ?"
# Open tables nobody holds a live lease on (never claimed, released, or expired).
_ORPHANS = (
    "SELECT t.table_id, t.guild_id FROM game_tables AS t"
    " LEFT JOIN table_owners AS o ON o.table_id = t.table_id"
    " WHERE t.status IN ('lobby', 'playing') AND (o.table_id IS NULL OR o.lease_until <= ?)"
    " ORDER BY t.created_at, t.table_id"
)


@dataclass(frozen=True, slots=True)
class Owner:
    """Who holds a table and until when (epoch seconds)."""

    owner: str
    lease_until: float
    claimed_at: float


class LeaseRepo:
    """``storage.leases``: which process drives which open table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim_table(
        self,
        table_id: str,
        owner: str,
        lease_seconds: float,
        *,
        now: float,
        tx: Tx | None = None,
    ) -> bool:
        """Take (or keep) ``table_id`` for ``owner`` until ``now + lease_seconds``. True if
        the caller holds it afterwards: it was unowned, its lease had expired, or it was
        already ours. False if another owner holds a live lease (nothing is changed then)."""
        if lease_seconds <= 0:
            raise ValueError("lease_seconds must be positive")
        params = (table_id, owner, now + lease_seconds, now, now)
        async with self._db.transaction(tx) as t:
            return await t.execute(_CLAIM, params) == 1

    async def renew_tables(
        self,
        table_ids: Iterable[str],
        owner: str,
        lease_seconds: float,
        *,
        now: float,
        tx: Tx | None = None,
    ) -> set[str]:
        """Extend the lease of every table in ``table_ids`` still held by ``owner``, in one
        transaction (one write per renewal period, however many tables a process runs).
        Returns the ids that are *not* held any more: another process claimed them after
        our lease ran out, and the caller must stop driving them."""
        ids = list(table_ids)
        if not ids:
            return set()
        until = now + lease_seconds
        lost = set()
        async with self._db.transaction(tx) as t:
            for table_id in ids:
                if await t.execute(_RENEW, (until, table_id, owner)) == 0:
                    lost.add(table_id)
        return lost

    async def release_table(self, table_id: str, owner: str, *, tx: Tx | None = None) -> bool:
        """Give a table up (closed, or the process is shutting down cleanly), so the next
        owner need not wait for the lease to run out. False if ``owner`` did not hold it."""
        async with self._db.transaction(tx) as t:
            return await t.execute(_RELEASE, (table_id, owner)) == 1

    async def table_owner(self, table_id: str) -> Owner | None:
        """The current holder of a table (even if its lease has expired), or None."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(_OWNER_OF, (table_id,))
        return None if row is None else Owner(str(row[0]), float(row[1]), float(row[2]))

    async def orphan_tables(self, *, now: float) -> list[tuple[str, int]]:
        """Open tables without a live lease, as ``(table_id, guild_id)``, oldest first:
        what a process may adopt (after filtering by its shards and claiming each one)."""
        async with self._db.reading() as conn:
            rows = await conn.fetchall(_ORPHANS, (now,))
        return [(str(r[0]), int(r[1])) for r in rows]
