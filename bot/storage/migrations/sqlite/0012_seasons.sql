-- 0012: seasons: a server's leaderboard that starts afresh every week or month.
--
-- The plan is three server settings: the cadence (`off`, the default, is the leaderboard as it
-- always was), the IANA time zone whose midnights are the boundaries (NULL: UTC), and the
-- channel where a season's final standings are posted (NULL: not posted).
--
-- Each season is a row with its own window, written when it opens and frozen when it closes:
-- a later change of the cadence or the zone re-plans only the open season's end, never the
-- dates of a season that ended. A result counts in the season that is open when it is
-- recorded (if it finished at or after that season's start); its standings are the summary
-- rows (player_totals, ratings, rating_history) under the season's own scopes
-- ('<profile>@s<number>', '*@s<number>'), so a season board is the same index scan as the
-- all-time one. A closed season's rows are never written again.
--
-- The row that closes a season is also its outbox entry: `announced_at` stays NULL until its
-- final standings are posted (or there was nothing to post), so a season that ended while
-- the bot was stopped, or whose post failed, is announced at the next start.

ALTER TABLE guild_settings ADD COLUMN season TEXT NOT NULL DEFAULT 'off'
    CHECK (season IN ('off', 'weekly', 'monthly'));
ALTER TABLE guild_settings ADD COLUMN time_zone TEXT
    CHECK (time_zone IS NULL OR length(time_zone) <= 64);
ALTER TABLE guild_settings ADD COLUMN season_channel_id INTEGER;

CREATE TABLE seasons (
    guild_id     INTEGER NOT NULL,
    number       INTEGER NOT NULL CHECK (number >= 1),
    cadence      TEXT    NOT NULL CHECK (cadence IN ('weekly', 'monthly')),
    time_zone    TEXT    NOT NULL CHECK (length(time_zone) <= 64),
    starts_at    INTEGER NOT NULL,      -- unix seconds; the previous season's closed_at
    ends_at      INTEGER NOT NULL,      -- the boundary it ends at (re-planned while open)
    closed_at    INTEGER,               -- NULL: the open season; set once, then frozen
    ended_by     TEXT    CHECK (ended_by IN ('boundary', 'manager', 'off')),
    channel_id   INTEGER,               -- where its final standings go (as it closed)
    announced_at REAL,                  -- NULL after closing, until posted
    PRIMARY KEY (guild_id, number),
    CHECK (ends_at >= starts_at),
    CHECK (closed_at IS NULL OR (closed_at >= starts_at AND ended_by IS NOT NULL))
) WITHOUT ROWID;

-- At most one open season per server.
CREATE UNIQUE INDEX seasons_open ON seasons (guild_id) WHERE closed_at IS NULL;
-- Closed seasons whose standings are still to be posted (the outbox's pending rows).
CREATE INDEX seasons_unannounced ON seasons (guild_id, number)
    WHERE closed_at IS NOT NULL AND announced_at IS NULL;
