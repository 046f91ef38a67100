-- PostgreSQL dialect of ../sqlite/0011_server_language.sql: the same schema.
-- 0011: the language of a server's public messages.
--
-- The lobby, the table, the results and the turn pings are read by everyone in the channel,
-- so they speak the server's language, which `/rummy settings language:` chooses. NULL: the
-- server has not chosen, and a table opens in the server's Discord language when the bot
-- has a catalogue for it, else English. The value is a catalogue language tag (`en`, `hi`);
-- the Discord side checks it against the catalogue it ships. A table keeps the language it
-- opened with (in its saved state), so changing this never switches a match halfway.

ALTER TABLE guild_settings ADD COLUMN language TEXT CHECK (language IS NULL OR length(language) <= 16);
