-- 0007: recording a result is an outbox job.
--
-- The move that finishes a deal (or a match) writes, in its own transaction, a
-- 'record_deal' ('record_match') row whose payload_json is the record to store; it is
-- done after the commit, and again at start-up until it is marked done. The kind's
-- CHECK constraint widens to admit them. SQLite cannot alter a CHECK in place, so the
-- table is rebuilt (nothing references announcements; its index is recreated).

CREATE TABLE announcements_0007 (
    announcement_id INTEGER PRIMARY KEY,
    table_id        TEXT    NOT NULL REFERENCES game_tables (table_id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('deal_results', 'match_over',
                                                     'record_deal', 'record_match')),
    deal_no         INTEGER NOT NULL DEFAULT 0 CHECK (deal_no >= 0),
    payload_json    TEXT    NOT NULL DEFAULT '{}',
    created_at      REAL    NOT NULL,
    delivered_at    REAL,
    UNIQUE (table_id, kind, deal_no)
);
INSERT INTO announcements_0007 (announcement_id, table_id, kind, deal_no, payload_json,
                                created_at, delivered_at)
    SELECT announcement_id, table_id, kind, deal_no, payload_json, created_at, delivered_at
    FROM announcements;
DROP TABLE announcements;
ALTER TABLE announcements_0007 RENAME TO announcements;
CREATE INDEX announcements_pending ON announcements (announcement_id)
    WHERE delivered_at IS NULL;
