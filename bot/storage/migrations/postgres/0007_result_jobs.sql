-- PostgreSQL dialect of ../sqlite/0007_result_jobs.sql: same schema; the CHECK is
-- replaced in place (the column constraint's generated name is announcements_kind_check).
-- 0007: recording a result is an outbox job.
--
-- The move that finishes a deal (or a match) writes, in its own transaction, a
-- 'record_deal' ('record_match') row whose payload_json is the record to store; it is
-- done after the commit, and again at start-up until it is marked done. The kind's
-- CHECK constraint widens to admit them.

ALTER TABLE announcements DROP CONSTRAINT announcements_kind_check;
ALTER TABLE announcements ADD CONSTRAINT announcements_kind_check
    CHECK (kind IN ('deal_results', 'match_over', 'record_deal', 'record_match'));
