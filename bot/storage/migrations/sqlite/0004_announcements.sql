-- 0004: the announcement outbox.
--
-- A deal's results (and a match's end) must be posted once the state change that makes
-- them due is durable. Posting cannot be part of a database transaction, so the change
-- writes what is due here, in the SAME transaction (commit_action / close_table), and
-- the poster marks it delivered after posting. A crash in between leaves it pending and
-- it is posted on the next start: a repeat after a crash rather than silence.
-- (table_id, kind, deal_no) is the identity: writing it again changes nothing.

CREATE TABLE announcements (
    announcement_id INTEGER PRIMARY KEY,
    table_id        TEXT    NOT NULL REFERENCES game_tables (table_id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('deal_results', 'match_over')),
    deal_no         INTEGER NOT NULL DEFAULT 0 CHECK (deal_no >= 0),
    payload_json    TEXT    NOT NULL DEFAULT '{}',
    created_at      REAL    NOT NULL,
    delivered_at    REAL,
    UNIQUE (table_id, kind, deal_no)
);
CREATE INDEX announcements_pending ON announcements (announcement_id)
    WHERE delivered_at IS NULL;
