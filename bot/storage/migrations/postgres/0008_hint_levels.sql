-- PostgreSQL dialect of ../sqlite/0008_hint_levels.sql: same schema; BIGINT for the 0/1 flags
-- (as card_images in 0005).
-- 0008: hint levels.
--
-- A table shows its players full hints (the arrangement, what each discard leaves, "you can
-- declare"), the groups only, or none. Every deal and match result records the level it was
-- played at ('full' for every result stored before), and a match whether it moved ratings:
-- a server may rate only games played without hints (guild_settings.rated_hints_off), and a
-- match played with hints there is stored unrated, so replaying ratings later gives the same
-- numbers whatever the setting says by then. The server's default level lives beside it.
-- Independent of every other migration, so it applies whichever sibling number merged first.

ALTER TABLE deals ADD COLUMN hints TEXT NOT NULL DEFAULT 'full'
    CHECK (hints IN ('full', 'groups', 'off'));
ALTER TABLE matches ADD COLUMN hints TEXT NOT NULL DEFAULT 'full'
    CHECK (hints IN ('full', 'groups', 'off'));
ALTER TABLE matches ADD COLUMN rated BIGINT NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN hints TEXT NOT NULL DEFAULT 'full'
    CHECK (hints IN ('full', 'groups', 'off'));
ALTER TABLE guild_settings ADD COLUMN rated_hints_off BIGINT NOT NULL DEFAULT 0
    CHECK (rated_hints_off IN (0, 1));
