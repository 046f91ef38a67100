-- PostgreSQL dialect of ../sqlite/0010_language_preference.sql: the same schema.
-- 0010: a player's own language for private messages.
--
-- Discord tells the bot each user's client language with every interaction, and private
-- answers follow it; a player may choose another one (`/rummy language`), kept here beside
-- their other display choice. NULL: follow the Discord client. The value is a catalogue
-- language tag (`en`, `hi`); the Discord side checks it against the catalogue it ships.

ALTER TABLE user_preferences ADD COLUMN language TEXT CHECK (language IS NULL OR length(language) <= 16);
