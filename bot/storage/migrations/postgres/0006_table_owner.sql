-- PostgreSQL dialect of ../sqlite/0006_table_owner.sql: same schema; BIGINT for ids and counts (Discord
-- snowflakes need 64 bits), DOUBLE PRECISION for REAL, identity columns for rowid keys.
-- 0006: which bot process drives each open table, and until when (a lease).
--
-- With shard clusters, a table belongs to the process running its guild's shard. Two
-- misconfigured processes (overlapping SHARD_IDS) must never both act on one table, so a
-- process claims a table before driving it and renews the claim while it runs; a claim
-- succeeds only if the table is unowned, its lease has run out, or it is already ours.
-- A separate table rather than columns on game_tables: the claim is written before the table
-- row exists (no window in which a new table looks unowned), and game actions never touch it.
CREATE TABLE table_owners (
    table_id    TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    lease_until DOUBLE PRECISION NOT NULL,       -- epoch seconds; after this anyone may claim the table
    claimed_at  DOUBLE PRECISION NOT NULL
);
