-- 0004: card images or text only.
--
-- A server chooses whether game messages carry card images by default (guild_settings,
-- default on); each player may override that for their own private hand view
-- (user_preferences, one row per user who ever chose). Independent of every other
-- migration, so it applies whichever sibling number merged before or after it.

ALTER TABLE guild_settings
    ADD COLUMN card_images INTEGER NOT NULL DEFAULT 1 CHECK (card_images IN (0, 1));

CREATE TABLE IF NOT EXISTS user_preferences (
    user_id     INTEGER PRIMARY KEY,
    card_images INTEGER CHECK (card_images IN (0, 1)),  -- NULL: follow the server
    updated_at  REAL    NOT NULL
);
