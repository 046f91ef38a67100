-- 0004: PLACEHOLDER on branch h-scale only. The real 0004 comes from another branch
-- (migrations must be numbered without gaps, and h-scale's own migration is 0006).
-- Delete this file when merging; a duplicate number is refused loudly at start-up.
SELECT 1;
