-- PostgreSQL dialect of ../sqlite/0005_image_preferences.sql: same schema; BIGINT for ids and counts (Discord
-- snowflakes need 64 bits), DOUBLE PRECISION for REAL, identity columns for rowid keys.
-- 0004: card images or text only.
--
-- A server chooses whether game messages carry card images by default (guild_settings,
-- default on); each player may override that for their own private hand view
-- (user_preferences, one row per user who ever chose). Independent of every other
-- migration, so it applies whichever sibling number merged before or after it.

ALTER TABLE guild_settings
    ADD COLUMN card_images BIGINT NOT NULL DEFAULT 1 CHECK (card_images IN (0, 1));

CREATE TABLE IF NOT EXISTS user_preferences (
    user_id     BIGINT PRIMARY KEY,
    card_images BIGINT CHECK (card_images IN (0, 1)),  -- NULL: follow the server
    updated_at  DOUBLE PRECISION    NOT NULL
);
