-- PostgreSQL dialect of ../sqlite/0014_help_pointers.sql: the same schema; BIGINT for ids,
-- DOUBLE PRECISION for REAL.
-- 0014: the players told where `/rummy help` is.
--
-- A player's first hand view in a server is headed "New to rummy here? `/rummy help` …",
-- once. Which players were told is a row each, written when they are told (the insert that
-- claims the row is the telling, so two processes, two shards or a restart tell a player
-- once between them, where a set kept in memory told them once per process). A player who
-- asks to be forgotten in a server (`/rummy forget-me`) loses the row there with the rest of
-- what the server keeps of them. Independent of every other migration.

CREATE TABLE IF NOT EXISTS help_pointers (
    guild_id BIGINT           NOT NULL,
    user_id  BIGINT           NOT NULL,
    told_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
