# Seasons: a server's leaderboard that starts afresh every week or month (bot/table/season.py,
# bot/discord_ui/screens/season.py, cogs/season.py, and the season parts of /rummy settings and
# /rummy leaderboard). $number is a season's number; $start and $end are unix seconds, written
# as Discord timestamps (each reader sees them in their own time zone and language); $date is
# an ISO date (2025-03-17) where Discord shows no timestamps; $zone is an IANA time zone name
# (Asia/Kolkata), $channel a channel id shown as its mention.

season-name = Season { $number }
season-cadence = { $cadence ->
        [weekly] weekly
       *[monthly] monthly
    }

# The line above a season board's players.
season-board-open = { $name } ({ $cadence }) began <t:{ $start }:d> and ends <t:{ $end }:R>. Season rating: everyone starts level.
season-board-closed = { $name } ({ $cadence }), <t:{ $start }:d> – <t:{ $end }:d>: final standings.

# The post that closes a season, in the server's season channel.
season-final-title = { $name } is over!
season-final-ended = { $ended ->
        [manager] Ended early by a manager, <t:{ $end }:f>; it began <t:{ $start }:d>.
        [off] Ended when seasons were turned off, <t:{ $end }:f>; it began <t:{ $start }:d>.
       *[boundary] From <t:{ $start }:d> to <t:{ $end }:f>.
    }
season-final-champion = 🏆 Champion: **{ $names }**. Congratulations!
season-final-no-champion = Nobody played a rated match this season (that needs two people at a table), so there is no champion.
season-final-standings = Final standings (season rating)
season-final-ranked = { $ranked ->
        [one] { $ranked } player ranked
       *[other] { $ranked } players ranked
    }
# A final post's mark (its footer): the bot looks for it after a restart, so it is never posted twice.
season-key = Season { $number } · final standings

# /rummy season (a private answer).
season-overview-title = Seasons in this server
season-overview-off = This server has no seasons: its leaderboard runs for all time. A manager can start them with `/rummy settings season:weekly` (or monthly).
season-overview-stopped = Seasons are off now; the last one is below.
season-overview-now = This season
season-overview-current = **{ $name }** ({ $cadence }) ends <t:{ $end }:f> (<t:{ $end }:R>).
season-overview-place = You are **#{ $rank }** of { $total } so far (season rating { $value }).
season-overview-unplaced = You have no rated match in it yet: play one to be ranked.
season-overview-before = Last season
season-overview-last = **{ $name }** ended <t:{ $end }:f>.
season-overview-champions = Champion: { $names }
season-overview-final-place = You finished **#{ $rank }** of { $total } (season rating { $value }).
season-overview-not-in-last = You were not ranked in it.
season-overview-footer = Any season's full board: /rummy leaderboard season:

# The season part of /rummy settings.
season-settings-field = Seasons
season-settings-off = off: one leaderboard for all time
season-settings-plan = { $plan ->
        [weekly] weekly, ending Monday 00:00
       *[monthly] monthly, ending on the 1st at 00:00
    } ({ $zone } time)
season-settings-now = { $name } ends <t:{ $end }:f>
season-settings-channel = Final standings are posted in <#{ $channel }>
season-settings-no-channel = Final standings are not posted: name a channel with season_channel:

# What a settings change did to the seasons.
season-changed-plan = { $plan ->
        [weekly] Seasons: weekly (a new one every Monday at 00:00)
        [monthly] Seasons: monthly (a new one on the 1st at 00:00)
       *[off] Seasons: off (one leaderboard for all time)
    }
season-changed-zone = Seasons end at midnight { $zone } time
season-changed-channel = Season standings will be posted in <#{ $channel }>
season-changed-started = { $name } has begun; it ends <t:{ $end }:f>
season-changed-ended = { $name } has ended (its standings are not posted: no season channel)
season-changed-ended-posted = { $name } has ended; its final standings are being posted in <#{ $channel }>
season-changed-replanned = { $name } now ends <t:{ $end }:f>

# The menu of /rummy leaderboard season:
season-pick-current = Current season ({ $name })
season-pick-all = All time
season-pick-past = { $name } ({ $cadence }, ended { $date })

# Wrong inputs (private answers; nothing changes).
settings-unknown-season = Seasons are weekly, monthly or off.
settings-unknown-time-zone = “{ $zone }” is not a time zone I know. Pick one from the list (India: Asia/Kolkata).
settings-no-season = There is no season to end: seasons are off. Start them with season:weekly or season:monthly.
error-season-and-period = Pick a season or a period, not both: a season is its own time window.
error-unknown-season = There is no season “{ $season }”. Pick one from the list, or leave it out for the current season.
error-season-channel = I cannot post in <#{ $channel }>: give me Send Messages and Embed Links there, or pick another channel.
