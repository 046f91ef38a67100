-- 0007: recording a finished deal or match is an outbox job too.
--
-- The move that ends a deal writes, in its own transaction, a 'record_deal' row (and, at
-- the end of a match, 'record_match') whose payload is the result record; the table service
-- stores the result after the commit and marks the row delivered, and whatever is still
-- pending at start-up is stored then. A failure after the commit is retried, never lost.
-- SQLite cannot alter a CHECK constraint, so the table is rebuilt with the wider one.

CREATE TABLE announcements_new (
    announcement_id INTEGER PRIMARY KEY,
    table_id        TEXT    NOT NULL REFERENCES game_tables (table_id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL
                    CHECK (kind IN ('deal_results', 'match_over', 'record_deal', 'record_match')),
    deal_no         INTEGER NOT NULL DEFAULT 0 CHECK (deal_no >= 0),
    payload_json    TEXT    NOT NULL DEFAULT '{}',
    created_at      REAL    NOT NULL,
    delivered_at    REAL,
    UNIQUE (table_id, kind, deal_no)
);
INSERT INTO announcements_new
    SELECT announcement_id, table_id, kind, deal_no, payload_json, created_at, delivered_at
    FROM announcements;
DROP TABLE announcements;
ALTER TABLE announcements_new RENAME TO announcements;
CREATE INDEX announcements_pending ON announcements (announcement_id)
    WHERE delivered_at IS NULL;
