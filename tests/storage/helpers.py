"""Shared builders for the storage tests: a fixed guild and clock, result records, and
a raw-SQL peek for the few assertions that must look under the API."""

from __future__ import annotations

from fractions import Fraction

from bot.storage import DealRecord, DealSeatRecord, MatchRecord, MatchSeatRecord, Storage

G = 1000  # guild id
NOW = 1_750_000_000  # a fixed "now" (unix seconds) so period tests are deterministic
DAY = 86_400
F = Fraction


async def raw(s: Storage, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Peek at the raw database (tests only), on the connection writes use."""
    async with s._db.session() as conn:
        return await conn.fetchall(sql, args)


async def raw_exec(s: Storage, sql: str) -> None:
    """Run one raw statement on the connection writes use (tests only): a pragma or a
    setting that must apply to the writes that follow."""
    async with s._db.session() as conn:
        await conn.execute(sql)


def dialect(s: Storage) -> str:
    """Which backend the ``st`` fixture gave this test run ("sqlite" or "postgres"),
    for the few assertions that look under the API in the backend's own words."""
    return s.dialect


def seat(
    user: int | None,
    outcome: str = "lost",
    net: Fraction | int = 0,
    penalty: Fraction | int = 0,
    name: str | None = None,
) -> DealSeatRecord:
    return DealSeatRecord(
        user_id=user,
        name=name or (f"p{user}" if user is not None else "AI"),
        is_ai=user is None,
        outcome=outcome,  # type: ignore[arg-type]
        penalty=F(penalty),
        net=F(net),
    )


def deal(
    match_id: str,
    deal_no: int,
    seats: list[DealSeatRecord],
    *,
    guild: int = G,
    profile: str = "points",
    at: int = NOW,
    history: str = '{"moves": []}',
) -> DealRecord:
    return DealRecord(G if guild is None else guild, match_id, deal_no, profile, at, history, seats)


def match(
    match_id: str,
    places: list[tuple[int | None, int]],
    *,
    guild: int = G,
    profile: str = "points",
    at: int = NOW,
) -> MatchRecord:
    seats = [
        MatchSeatRecord(
            user_id=u,
            name=f"p{u}" if u is not None else "AI",
            is_ai=u is None,
            place=p,
            is_winner=p == 1,
            net=F(0),
        )
        for u, p in places
    ]
    return MatchRecord(match_id, guild, profile, at, seats)


def two_player_deal(
    match_id: str, winner: int, loser: int, amount: Fraction | int, **kw
) -> DealRecord:  # type: ignore[no-untyped-def]
    a = F(amount)
    return deal(
        match_id, kw.pop("deal_no", 1), [seat(winner, "won", a), seat(loser, "lost", -a, a)], **kw
    )
