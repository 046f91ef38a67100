-- 0013: tournaments.
--
-- A tournament is kept like a table: its whole state as JSON with a version that only ever
-- increases (optimistic concurrency), an append-only event log, and an outbox of what must
-- still be announced (a round seated, a round's standings, the end), written in the SAME
-- transaction as the change that makes it due and marked when posted. Its tables are
-- ordinary game_tables rows, written in the same transaction as the round that seats them
-- (a round is seated whole or not at all), with the tournament and the round in their row so
-- results, history and stats can name them. The tables of one tournament share its channel
-- (each plays in its own thread), so the one-open-table-per-channel index leaves them out.
-- Final places are rows of tournament_results (players' stats read them). A server may name
-- the role of its organisers (guild_settings.organiser_role_id; NULL: Manage Server only).
-- Which process drives a tournament is a lease in table_owners, keyed 'tournament:<id>'.
-- Independent of every other migration, so it applies whichever sibling merged first.

CREATE TABLE tournaments (
    tournament_id TEXT    PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    organiser_id  INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('registration', 'check_in', 'running',
                                                     'finished', 'cancelled')),
    state_json    TEXT    NOT NULL,
    version       INTEGER NOT NULL CHECK (version >= 0),
    messages_json TEXT    NOT NULL DEFAULT '{}',  -- Discord message ids: bookkeeping
    start_at      REAL    NOT NULL,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);
CREATE INDEX tournaments_open ON tournaments (status)
    WHERE status IN ('registration', 'check_in', 'running');
CREATE INDEX tournaments_guild ON tournaments (guild_id, created_at);

CREATE TABLE tournament_events (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    event_json    TEXT    NOT NULL,
    created_at    REAL    NOT NULL,
    PRIMARY KEY (tournament_id, seq)
) WITHOUT ROWID;

CREATE TABLE tournament_outbox (
    outbox_id     INTEGER PRIMARY KEY,
    tournament_id TEXT    NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('round_seated', 'round_done', 'finished',
                                                   'cancelled', 'left_out', 'stalled')),
    round_no      INTEGER NOT NULL DEFAULT 0 CHECK (round_no >= 0),
    payload_json  TEXT    NOT NULL DEFAULT '{}',
    created_at    REAL    NOT NULL,
    delivered_at  REAL,
    UNIQUE (tournament_id, kind, round_no)
);
CREATE INDEX tournament_outbox_pending ON tournament_outbox (outbox_id)
    WHERE delivered_at IS NULL;

CREATE TABLE tournament_results (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    entrant       TEXT    NOT NULL,       -- the entrant's key in the tournament
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER,                -- NULL: an AI entrant, or a forgotten user
    name          TEXT    NOT NULL,
    place         INTEGER NOT NULL CHECK (place >= 1),
    players       INTEGER NOT NULL CHECK (players >= 1),
    rounds        INTEGER NOT NULL CHECK (rounds >= 0),
    finished_at   REAL    NOT NULL,
    PRIMARY KEY (tournament_id, entrant)
);
CREATE INDEX tournament_results_user ON tournament_results (guild_id, user_id)
    WHERE user_id IS NOT NULL;

ALTER TABLE game_tables ADD COLUMN tournament_id TEXT;
ALTER TABLE game_tables ADD COLUMN tournament_round INTEGER;
CREATE INDEX game_tables_tournament ON game_tables (tournament_id)
    WHERE tournament_id IS NOT NULL;
DROP INDEX game_tables_one_open_per_channel;
CREATE UNIQUE INDEX game_tables_one_open_per_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'playing') AND tournament_id IS NULL;

ALTER TABLE guild_settings ADD COLUMN organiser_role_id INTEGER;
