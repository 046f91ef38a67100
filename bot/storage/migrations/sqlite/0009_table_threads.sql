-- 0009: a table in its own thread.
--
-- A table may live in a thread started from its lobby message: the table message, turn pings
-- and results go there, while the lobby message stays in the channel and shows the table's
-- state. game_tables keeps the thread (NULL: the table lives in the channel itself) and the
-- lobby message (NULL: not placed yet; equal to public_message_id: one message serves both,
-- in the channel), written like the other message ids, without a version bump. A server
-- chooses threads or the channel (guild_settings.table_threads, default threads).
-- Independent of every other migration, so it applies whichever sibling merged first.

ALTER TABLE game_tables ADD COLUMN thread_id INTEGER;
ALTER TABLE game_tables ADD COLUMN lobby_message_id INTEGER;
ALTER TABLE guild_settings
    ADD COLUMN table_threads INTEGER NOT NULL DEFAULT 1 CHECK (table_threads IN (0, 1));
