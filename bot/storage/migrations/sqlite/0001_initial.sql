-- 0001: core tables. Results (deals/matches and their seats) are the source of
-- truth; player_totals/ratings are summaries derived from them and can be rebuilt
-- (Storage.rebuild_summaries).

CREATE TABLE guild_settings (
    guild_id            INTEGER PRIMARY KEY,
    default_profile     TEXT    NOT NULL,
    turn_timer          INTEGER NOT NULL CHECK (turn_timer > 0),
    allowed_channel_ids TEXT,               -- JSON array of ints; NULL = all channels
    updated_at          REAL    NOT NULL
);

-- One row per table (lobby or running match). state_json is the engine's opaque
-- snapshot; version only ever increases (optimistic concurrency).
CREATE TABLE game_tables (
    table_id          TEXT    PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    host_id           INTEGER NOT NULL,
    status            TEXT    NOT NULL
                      CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    public_message_id INTEGER,
    prompt_message_id INTEGER,
    state_json        TEXT    NOT NULL,
    version           INTEGER NOT NULL CHECK (version >= 0),
    turn_deadline     REAL,
    created_at        REAL    NOT NULL,
    updated_at        REAL    NOT NULL
);
CREATE INDEX game_tables_open ON game_tables (status) WHERE status IN ('lobby', 'playing');

-- Append-only action log; seq is the table version the action produced.
CREATE TABLE game_events (
    table_id   TEXT    NOT NULL REFERENCES game_tables (table_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    event_json TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TABLE deals (
    deal_id      INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    match_id     TEXT    NOT NULL,
    deal_no      INTEGER NOT NULL,
    profile      TEXT    NOT NULL,
    finished_at  INTEGER NOT NULL,
    hand_history TEXT    NOT NULL,
    UNIQUE (match_id, deal_no)          -- written once: retries hit ON CONFLICT DO NOTHING
);

-- guild_id/profile/finished_at are copied from the deal so per-user and per-period
-- queries need no join. Fractions are stored exactly as numerator/denominator.
CREATE TABLE deal_seats (
    deal_id     INTEGER NOT NULL REFERENCES deals (deal_id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    profile     TEXT    NOT NULL,
    finished_at INTEGER NOT NULL,
    user_id     INTEGER,                -- NULL: AI seat or forgotten user
    name        TEXT    NOT NULL,
    is_ai       INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    outcome     TEXT    NOT NULL CHECK (outcome IN ('won', 'lost', 'dropped_first',
                        'dropped_middle', 'invalid_declaration', 'void')),
    penalty_num INTEGER NOT NULL,
    penalty_den INTEGER NOT NULL CHECK (penalty_den > 0),
    net_num     INTEGER NOT NULL,
    net_den     INTEGER NOT NULL CHECK (net_den > 0),
    PRIMARY KEY (deal_id, seat)
);
CREATE INDEX deal_seats_user ON deal_seats (guild_id, user_id, finished_at)
    WHERE user_id IS NOT NULL;

CREATE TABLE matches (
    match_id    TEXT    PRIMARY KEY,    -- written once
    guild_id    INTEGER NOT NULL,
    profile     TEXT    NOT NULL,
    finished_at INTEGER NOT NULL
);

CREATE TABLE match_seats (
    match_id    TEXT    NOT NULL REFERENCES matches (match_id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    profile     TEXT    NOT NULL,
    finished_at INTEGER NOT NULL,
    user_id     INTEGER,
    name        TEXT    NOT NULL,
    is_ai       INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    place       INTEGER NOT NULL CHECK (place >= 1),
    is_winner   INTEGER NOT NULL CHECK (is_winner IN (0, 1)),
    net_num     INTEGER NOT NULL,
    net_den     INTEGER NOT NULL CHECK (net_den > 0),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_user ON match_seats (guild_id, user_id, finished_at)
    WHERE user_id IS NOT NULL;

-- Latest display name per human, so leaderboards need not scan result rows.
CREATE TABLE player_names (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- All-time summary per (guild, scope, user); scope is a profile name or '*' (all
-- profiles). Humans only. net_f is a float copy of the exact net for ORDER BY.
CREATE TABLE player_totals (
    guild_id       INTEGER NOT NULL,
    scope          TEXT    NOT NULL,
    user_id        INTEGER NOT NULL,
    deals_played   INTEGER NOT NULL DEFAULT 0,
    deals_won      INTEGER NOT NULL DEFAULT 0,
    matches_played INTEGER NOT NULL DEFAULT 0,
    matches_won    INTEGER NOT NULL DEFAULT 0,
    net_num        INTEGER NOT NULL DEFAULT 0,
    net_den        INTEGER NOT NULL DEFAULT 1,
    net_f          REAL    NOT NULL DEFAULT 0,
    win_rate       REAL    NOT NULL DEFAULT 0,
    last_played_at INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, scope, user_id)
) WITHOUT ROWID;

-- Current openskill (PlackettLuce) rating per (guild, scope, user); scope as above.
CREATE TABLE ratings (
    guild_id       INTEGER NOT NULL,
    scope          TEXT    NOT NULL,
    user_id        INTEGER NOT NULL,
    mu             REAL    NOT NULL,
    sigma          REAL    NOT NULL,
    ordinal        REAL    NOT NULL,
    matches        INTEGER NOT NULL,
    last_played_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, scope, user_id)
) WITHOUT ROWID;

CREATE TABLE rating_history (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    scope          TEXT    NOT NULL,
    user_id        INTEGER NOT NULL,
    match_id       TEXT    NOT NULL,
    mu             REAL    NOT NULL,
    sigma          REAL    NOT NULL,
    ordinal        REAL    NOT NULL,
    ordinal_before REAL    NOT NULL,
    rated_at       INTEGER NOT NULL
);
CREATE INDEX rating_history_user ON rating_history (guild_id, user_id, scope, id);
