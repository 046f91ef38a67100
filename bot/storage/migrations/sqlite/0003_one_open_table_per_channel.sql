-- 0003: at most one open (lobby/playing) table per channel, enforced by the database.
--
-- Until now only the bot's memory kept a channel to one table; a race (two processes, or
-- a restart mid-creation) could leave two open rows for one channel, and a restart then
-- loaded both. Older databases may already hold such duplicates, and a UNIQUE index
-- cannot be created over them, so they are resolved first: per channel the newest open
-- table (latest created_at, then table_id) is kept and the others are cancelled. Each
-- cancellation leaves a row in migration_notes, which Storage.open logs, so an operator
-- can see which tables were closed and why (their state_json is kept untouched).

CREATE TABLE migration_notes (
    id         INTEGER PRIMARY KEY,
    version    INTEGER NOT NULL,
    note       TEXT    NOT NULL,
    created_at REAL    NOT NULL
);

CREATE TEMP TABLE duplicate_open_tables AS
SELECT old.table_id AS table_id, old.channel_id AS channel_id,
       (SELECT keep.table_id FROM game_tables AS keep
         WHERE keep.channel_id = old.channel_id AND keep.status IN ('lobby', 'playing')
         ORDER BY keep.created_at DESC, keep.table_id DESC LIMIT 1) AS kept_id
  FROM game_tables AS old
 WHERE old.status IN ('lobby', 'playing');

DELETE FROM duplicate_open_tables WHERE table_id = kept_id;

INSERT INTO migration_notes (version, note, created_at)
SELECT 3, 'cancelled open table ' || table_id || ' in channel ' || channel_id
          || ': a newer open table (' || kept_id || ') holds that channel',
       CAST(strftime('%s', 'now') AS REAL)
  FROM duplicate_open_tables ORDER BY channel_id, table_id;

UPDATE game_tables
   SET status = 'cancelled', turn_deadline = NULL,
       updated_at = CAST(strftime('%s', 'now') AS REAL)
 WHERE table_id IN (SELECT table_id FROM duplicate_open_tables);

DROP TABLE duplicate_open_tables;

CREATE UNIQUE INDEX game_tables_one_open_per_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'playing');
