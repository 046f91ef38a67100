# Leaderboards, /rummy stats, /rummy history, /rummy settings and /rummy forget-me
# (bot/discord_ui/render/stats.py, cogs/stats.py). Names, profile codes (points, pool101),
# table ids and hint levels (full, groups, off) come in as they are. Amounts ($value, $net,
# $best, ...) come already written ("+7½", "-40"); counts are numbers, grouped per language.

# ---- numbers -----------------------------------------------------------------------------

# A whole number in the language's digit grouping (1,234,567; Hindi 12,34,567).
stats-number = { $n }
stats-rating-value = { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1) }
stats-rate-value = { NUMBER($value, style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1) }
stats-win-pct = { NUMBER($rate, style: "percent", maximumFractionDigits: 0) }
# A win rate with nothing played yet.
stats-no-rate = —

# ---- leaderboard -------------------------------------------------------------------------

stats-sort = { $sort ->
        [rating] Rating
        [matches_won] Matches won
        [deals_won] Deals won
        [net_chips] Net chips
       *[win_rate] Win rate
    }
stats-period-all = all time
stats-period-30d = last 30 days
stats-period-7d = last 7 days
stats-all-profiles = all profiles
stats-board-title = Leaderboard — { $sort } · { $profile } · { $period }
stats-board-line = **{ $rank }.** { $name } — { $value } ({ $games })
stats-board-me = { $line } ◀ you
stats-games-rated = { $n ->
        [one] { $n } rated match
       *[other] { $n } rated matches
    }
stats-games-matches = { $n ->
        [one] { $n } match
       *[other] { $n } matches
    }
stats-games-deals = { $n ->
        [one] { $n } deal
       *[other] { $n } deals
    }
stats-board-empty = Nobody is ranked here yet.
stats-board-empty-page = No players on this page.
stats-your-rank = Your rank
stats-own-rank = **#{ $rank }** of { $total } — { $value } ({ $games })
stats-own-unranked = You are not on this board yet: play a game to get ranked.
stats-own-unranked-rate = You are not ranked here yet (needs { $min ->
        [one] { $min } deal
       *[other] { $min } deals
    } in the period).
stats-board-page = Page { $page }
stats-board-page-of = Page { $page } of { $pages }
stats-board-min-deals = at least { $min ->
        [one] { $min } deal
       *[other] { $min } deals
    }
stats-board-rating-rule = rating = μ − 3σ (openskill)
stats-board-previous = ◀ Previous
stats-board-next = Next ▶

# ---- a player's stats --------------------------------------------------------------------

stats-title = Rummy stats — { $name }
stats-unknown-player = (unknown)
stats-overall = Overall rating: { $rating }
stats-trend = Trend: { $spark }
stats-no-games = No games recorded in this server yet.
stats-unrated = unrated
stats-trend-steady = { $ordinal } (steady)
stats-trend-up = { $ordinal } (▲ { NUMBER($change, minimumFractionDigits: 1, maximumFractionDigits: 1) } recently)
stats-trend-down = { $ordinal } (▼ { NUMBER($change, minimumFractionDigits: 1, maximumFractionDigits: 1) } recently)
# $head is the rating, with its recent trend when there is one (stats-trend-*).
stats-rating = { $head } · μ { NUMBER($mu, minimumFractionDigits: 1, maximumFractionDigits: 1) }, σ { NUMBER($sigma, minimumFractionDigits: 1, maximumFractionDigits: 1) } · { $matches ->
        [one] { $matches } rated match
       *[other] { $matches } rated matches
    }
stats-matches = Matches: { $played } played, { $won } won ({ $pct })
stats-deals = Deals: { $played } played, { $won } won ({ $pct })
stats-avg-penalty = Avg penalty when losing: { $value }
stats-drops = Drops: { $first } first, { $middle } middle · wrong shows: { $wrong }
stats-best-worst = Best deal { $best } · worst deal { $worst }
stats-net = Net chips: { $net }
stats-rating-line = Rating: { $rating }

# ---- history -----------------------------------------------------------------------------

stats-history-title = Recent deals — { $name }
stats-history-empty = No deals recorded in this server yet.
stats-history-footer = Pick a deal below to download its hand history (JSON).
stats-history-placeholder = Download a deal's hand history…
stats-deal-title = { $profile } · table { $table } · deal { $deal }
stats-outcome = { $outcome ->
        [won] won
        [lost] lost
        [dropped_first] dropped (first)
        [dropped_middle] dropped (middle)
        [invalid_declaration] wrong show
       *[void] void
    }
# What a deal did to the player's score: chips won or lost, or points added to a total.
# $chips and $points are written amounts; $n is the same amount as a number, for plurals.
stats-score-won = won { $chips } { $n ->
        [one] chip
       *[other] chips
    }
stats-score-lost = lost { $chips } { $n ->
        [one] chip
       *[other] chips
    }
stats-score-points = { $points } { $n ->
        [one] point
       *[other] points
    }
stats-score-even = ±0
# A deal played with fewer hints than full.
stats-hints-note = { $hints ->
        [groups] hints groups
       *[off] hints off
    }
# $time is a Discord timestamp (shown in the reader's own time and language).
stats-history-line = <t:{ $time }:f> — { $deal } — **{ $result }**{ $score }{ $hints }
stats-history-option = { $result }{ $score } · { $time }
stats-hand-history-caption = Hand history of table { $table }, deal { $deal }.

# ---- server settings ---------------------------------------------------------------------

stats-settings-title = Rummy settings for this server
stats-settings-profile = Default profile
stats-settings-timer = Turn timer
stats-seconds = { $seconds } s
stats-settings-channels = Tables may open in
stats-every-channel = every channel
stats-settings-images = Card images
stats-images-on = on (players may pick text only for their own hand)
stats-images-off = off: text only (players may turn them on for their own hand)
stats-settings-hints = Hints
stats-hints-at-new = { $level } at new tables ({ $words })
stats-rated-hints-off = Rated games: hints off only; a table with hints is played unrated
stats-rated-any = Rated games: any hint level
stats-settings-threads = Tables play
stats-threads-on = in their own thread (the lobby stays in the channel)
stats-threads-off = in the channel
stats-settings-footer = Change with /rummy settings options (Manage Server only).

# What one settings change did ($channel is a channel id, shown as its mention).
stats-changed-profile = Default profile: { $profile }
stats-changed-timer = Turn timer: { $seconds } s
stats-changed-all-channels = Tables may open in every channel
stats-changed-allowed = Tables may open in <#{ $channel }>
stats-changed-removed = Tables no longer open in <#{ $channel }>
stats-changed-images-on = Card images: on
stats-changed-images-off = Card images: off (text only)
stats-changed-hints = Hints at new tables: { $level } ({ $words })
stats-changed-rated-off = Rated games: hints off only (a table with hints is played unrated)
stats-changed-threads-on = Tables play in their own thread
stats-changed-threads-off = Tables play in the channel

# ---- forget-me ---------------------------------------------------------------------------

stats-forget-prompt = This deletes **your** rummy stats, ratings and rating history in this server, and takes your name and Discord id out of everything the bot has stored about past games: results, hand-history files, saved tables and their logs, tournaments and their records. Other players' results stay, with you shown as “forgotten player”. It cannot be undone. Messages already posted in channels are not changed. If you are in a game that is still running here, or in a tournament that is still open, finish it first.
stats-forget-done = Done: your stats, ratings and rating history in this server are deleted, and your name and id are gone from the bot's stored results, hand histories and tables.
stats-forget-playing = Nothing was deleted: you are in a game or a tournament that is still running (or open for registration) in this server. Run /rummy forget-me again once it has ended.
stats-forget-cancelled = Cancelled: nothing was deleted.
stats-forget-expired = That confirmation expired; nothing was deleted. Run /rummy forget-me again.
stats-forget-yes = Delete my stats
stats-forget-no = Cancel

# The language of new tables' public messages (`/rummy settings language:`).
stats-settings-language = Tables speak
stats-language-server = { $language } (the server's Discord language)
stats-changed-language = New tables speak { $language }
stats-changed-language-server = New tables speak the server's Discord language
