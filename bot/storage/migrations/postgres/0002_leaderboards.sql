-- PostgreSQL dialect of ../sqlite/0002_leaderboards.sql: same schema; BIGINT for ids and counts (Discord
-- snowflakes need 64 bits), DOUBLE PRECISION for REAL, identity columns for rowid keys.
-- 0002: leaderboard indexes and rolling-period summaries.
--
-- Every leaderboard page is an index range scan on (guild, scope, value DESC) that
-- stops after LIMIT rows; a player's rank is a COUNT over the same index.

CREATE INDEX player_totals_matches_won
    ON player_totals (guild_id, scope, matches_won DESC, user_id);
CREATE INDEX player_totals_deals_won
    ON player_totals (guild_id, scope, deals_won DESC, user_id);
CREATE INDEX player_totals_net
    ON player_totals (guild_id, scope, net_f DESC, user_id);
CREATE INDEX player_totals_win_rate
    ON player_totals (guild_id, scope, win_rate DESC, deals_played DESC, user_id);

CREATE INDEX ratings_ordinal
    ON ratings (guild_id, scope, ordinal DESC, user_id, last_played_at);

-- Time-range scans used to (re)build the period summaries.
CREATE INDEX deal_seats_time ON deal_seats (guild_id, finished_at) WHERE user_id IS NOT NULL;
CREATE INDEX match_seats_time ON match_seats (guild_id, finished_at) WHERE user_id IS NOT NULL;

-- Rolling 7d/30d summaries: the same counters as player_totals, restricted to the
-- UTC days [start_day, start_day + period_days - 1] recorded in period_window.
-- Maintained on every recorded result that falls inside the window and rolled
-- forward lazily (subtract leaving days, add entering days) when a query asks
-- for a later day.
CREATE TABLE period_window (
    guild_id    BIGINT NOT NULL,
    period_days BIGINT NOT NULL,
    start_day   BIGINT NOT NULL,
    PRIMARY KEY (guild_id, period_days)
);

CREATE TABLE period_board (
    guild_id       BIGINT NOT NULL,
    scope          TEXT    NOT NULL,
    period_days    BIGINT NOT NULL,
    user_id        BIGINT NOT NULL,
    deals_played   BIGINT NOT NULL DEFAULT 0,
    deals_won      BIGINT NOT NULL DEFAULT 0,
    matches_played BIGINT NOT NULL DEFAULT 0,
    matches_won    BIGINT NOT NULL DEFAULT 0,
    net_f          DOUBLE PRECISION    NOT NULL DEFAULT 0,
    win_rate       DOUBLE PRECISION    NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, period_days, scope, user_id)
);

CREATE INDEX period_board_matches_won
    ON period_board (guild_id, period_days, scope, matches_won DESC, user_id);
CREATE INDEX period_board_deals_won
    ON period_board (guild_id, period_days, scope, deals_won DESC, user_id);
CREATE INDEX period_board_net
    ON period_board (guild_id, period_days, scope, net_f DESC, user_id);
CREATE INDEX period_board_win_rate
    ON period_board (guild_id, period_days, scope, win_rate DESC, deals_played DESC, user_id);
