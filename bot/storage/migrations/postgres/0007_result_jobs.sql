-- PostgreSQL dialect of ../sqlite/0007_result_jobs.sql: the same wider CHECK, altered in place.
-- 0007: recording a finished deal or match is an outbox job too ('record_deal',
-- 'record_match', the payload being the result record; see the SQLite file).

ALTER TABLE announcements DROP CONSTRAINT announcements_kind_check;
ALTER TABLE announcements ADD CONSTRAINT announcements_kind_check
    CHECK (kind IN ('deal_results', 'match_over', 'record_deal', 'record_match'));
