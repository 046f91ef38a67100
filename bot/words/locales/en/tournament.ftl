# Tournaments (bot/words/tournament.py, bot/discord_ui/screens/tournament.py, cogs/tournament.py):
# the registration message, the round and final standings, the notes, the private answers and
# the refusals. Public messages speak the tournament's language (the server's when it was
# created); private answers the reader's. $start, $opens are Unix times for Discord's
# timestamps (<t:…:R>), given as text so that no language groups their digits.

## The registration message
tournament-title = 🏆 { $name }
tournament-format-points = Points rummy, { $deals ->
        [one] one deal
       *[other] { $deals } deals
    } a round, chips carried from deal to deal
tournament-format-deals = Deals rummy, { $deals } deals a round, fewest points best
tournament-format-pool101 = Pool 101: each table plays until one player is left
tournament-format-pool201 = Pool 201: each table plays until one player is left
tournament-advance-top = Tables of up to { $seats }; the best { $count } of each table go through.
tournament-advance-line = Tables of up to { $seats }; everyone at or above { $line } chips goes through (never a whole table; at least its best).
tournament-start = Starts <t:{ $start }:F> (<t:{ $start }:R>). Check-in (“I'm here”) opens <t:{ $opens }:R>; whoever has not checked in by the start is left out.
tournament-settings = Turn timer { $timer } s · at most { $cap } players
tournament-rated = Rated: hints are off.
tournament-unrated = Unrated: hints are { $hints }.
tournament-ai-fill = AI players fill empty seats; they never go through.
tournament-rules = Ties: more deals won at the table, then the seating draw. Whoever leaves their match, is removed, or is still absent at its end (dropped after three timeouts in a row) goes through only if nobody at the table stayed; an AI never goes through ahead of a person. Everyone out in the same round shares a place.
tournament-registered = Registered ({ $count }/{ $cap })
tournament-nobody = Nobody yet.
tournament-and-more = …and { $count } more
tournament-checked-in = { $count } checked in
tournament-state-registration = Registration is open.
tournament-state-check-in = Check-in is open: press “I'm here”.
tournament-state-stalled = Too few checked in ({ $count }; at least { $minimum } needed): the organiser can start late, delay or cancel.
tournament-state-running = Round { $round } is being played.
tournament-state-paused = Paused by the organiser: deals in play finish, and nothing new starts until it resumes.
tournament-state-finished = Won by { $winner }.
tournament-state-cancelled = Cancelled: { $reason }
tournament-footer = Tournament { $id }
tournament-button-register = Register
tournament-button-unregister = Unregister
tournament-button-here = I'm here

## A round
tournament-round-title = { $name } — round { $round }
tournament-final-title = { $name } — the final
tournament-commitment = Seating commitment: `{ $commitment }`. It was shown before the seating; when the round is over its salt is revealed, and SHA-256 of `{ $scheme }:{ $round }:<salt>:<the draw, spaced>` must give it again.
tournament-revealed = Salt: `{ $salt }` · the draw, in order: { $draw }
tournament-revealed-record = Salt: `{ $salt }` · the draw, in order, is in `/rummy tournament record`.
tournament-table-line = **Table { $number }** { $where }: { $players }
tournament-table-deal = deal { $deal } of { $deals }
tournament-table-playing = playing
tournament-table-done = ✔ done
tournament-byes = Byes
tournament-bye-reason = { $players } players cannot all sit at tables of { $low } to { $seats } (each must send someone home), so the last { $count ->
        [one] player
       *[other] { $count } players
    } of the draw go straight to the next round.
tournament-through = Through to the next round
tournament-round-footer = Tournament { $id } · round { $round }

## The end
tournament-final-standings = { $name } — final standings
tournament-winner = 🏆 { $winner } wins { $name }!
tournament-place-line = { $place }. { $name }
tournament-place-shared = { $place }. { $names } (out in round { $round })
tournament-picture = Final standings
tournament-picture-title = { $name }
tournament-picture-place = Place
tournament-picture-player = Player
tournament-picture-rounds = Rounds

## Notes
tournament-left-out = You registered for **{ $name }** but did not check in, so you were left out. See you at the next one!
tournament-stalled = **{ $name }** cannot start: { $count } checked in, at least { $minimum } are needed. The organiser can start it late (`/rummy tournament start`), delay it (`/rummy tournament delay`) or cancel it.
tournament-cancelled = **{ $name }** was cancelled: { $reason }. Its tables are closed and nothing was rated.
tournament-starter = **{ $name }** · round { $round }, table { $number }: { $players }
tournament-thread = R{ $round } T{ $number } · { $name }
tournament-table-ping = { $mentions } — your round { $round } table. Good luck!

## Private answers
tournament-done-registered = You are registered for **{ $name }** ({ $count } so far). Check-in opens before the start: press “I'm here” then.
tournament-done-registered-here = You are registered and checked in for **{ $name }**.
tournament-done-unregistered = You are no longer registered.
tournament-done-checked-in = You are checked in. It starts <t:{ $start }:R>.
tournament-done-already-checked-in = You were already checked in.
tournament-done-started = The tournament has started.
tournament-done-delayed = The start is now <t:{ $start }:F> (<t:{ $start }:R>).
tournament-done-paused = Paused. Deals in play finish; nothing new starts until you resume.
tournament-done-resumed = Resumed.
tournament-done-removed = { $name } is out of the tournament.
tournament-done-cancelled = The tournament is cancelled.
tournament-done-added-ai = { $count ->
        [one] One AI player entered.
       *[other] { $count } AI players entered.
    }
tournament-ai-name = 🤖 { $tier } { $number }

## /rummy tournament status
tournament-status-title = { $name } — standings
tournament-status-entrants = { $count } players
tournament-own-table = You play at table { $number } of round { $round } ({ $where }), place { $place } of { $seats } there so far.
tournament-own-bye = You have a bye in round { $round }: you go straight to the next round.
tournament-own-waiting = You are through to the next round.
tournament-own-out = You are out of the tournament.
tournament-own-place = Your final place: { $place } of { $players }.
tournament-own-registered = You are registered{ $here ->
        [yes] {" "}and checked in.
       *[no] ; check in when check-in opens.
    }
tournament-own-left-out = You did not check in, so you are not playing.
tournament-own-none = You are not in this tournament.
tournament-record-caption = The record of **{ $name }**: every round's draw, salt, commitment, tables and results.
tournament-history = { $name } (`{ $id }`): { $place } of { $players } · { $rounds ->
        [one] one round
       *[other] { $rounds } rounds
    }
tournament-history-title = Tournaments
tournament-stats = Played { $played } · won { $won } · best place { $best }
tournament-stats-last = Last: { $name }, { $place } of { $players }

## Refusals
tournament-refused-none-here = There is no tournament in this channel.
tournament-refused-closed = That tournament is over (or was cancelled).
tournament-refused-wrong-place = That tournament is run in another channel; use the buttons there.
tournament-refused-channel-busy = This channel already has a tournament. Cancel it first, or create one in another channel.
tournament-refused-not-organiser = Only its organiser, someone with Manage Server, or the server's organiser role can do that.
tournament-refused-registration-closed = Registration is closed: the tournament has started.
tournament-refused-already-registered = You are already registered.
tournament-refused-not-registered = You are not registered for this tournament.
tournament-refused-full = The tournament is full ({ $cap } players).
tournament-refused-removed = The organiser took you out of this tournament.
tournament-refused-check-in-not-open = Check-in opens <t:{ $opens }:R>.
tournament-refused-not-running = The tournament is not running.
tournament-refused-already-running = The tournament has already started.
tournament-refused-too-few = Only { $count } checked in; at least { $minimum } are needed to start.
tournament-refused-paused = The tournament is already paused.
tournament-refused-not-paused = The tournament is not paused.
tournament-refused-no-such-player = That player is not in the tournament.
tournament-refused-tournament-table = This table belongs to a tournament: its organiser runs it with `/rummy tournament`.
tournament-option-name = Give the tournament a name of at most { $high } characters.
tournament-option-format = The format is one of: { $choices }.
tournament-option-seats = Seats per table: between { $low } and { $high }, not { $value }.
tournament-option-deals = Deals a round: one of { $choices }.
tournament-option-no-deals = A { $format } tournament plays each table to the end; leave `deals` out.
tournament-option-advance = How many go through: between { $low } and { $high } a table, not { $value }.
tournament-option-advance-both = Choose `advance` or `chip_line`, not both.
tournament-option-chip-line = A chip line is for points tournaments; { $format } tables count points. Use `advance`.
tournament-option-chip-line-range = The chip line is between { $low } and { $high }, not { $value }.
tournament-option-start-in = The start is between { $low } and { $high } minutes from now, not { $value }.
tournament-option-start-at = “{ $value }” is not a time ahead (write 20:30, or 2025-06-01 20:30, in the server's time zone).
tournament-option-start-both = Choose `start_in` or `start_at`, not both.
tournament-option-cap = The player cap is between { $low } and { $high }, not { $value }.
tournament-option-turn-timer = The turn timer is between { $low } and { $high } seconds, not { $value }.
tournament-option-hints = The hint level is one of: { $choices }.
tournament-option-ai-tier = The AI tier is one of: { $choices }.
tournament-option-other = That option is not possible.

## /rummy settings
tournament-settings-organisers = Tournament organisers
tournament-organisers-managers = Manage Server only
tournament-organisers-role = Manage Server and <@&{ $role }>
tournament-changed-organisers = Tournament organisers: <@&{ $role }> (and Manage Server)
tournament-changed-organisers-none = Tournament organisers: Manage Server only

## /rummy tournament (the commands' descriptions: Discord's base text is the cog's English)
cmd-rummy-tournament = Tournaments: many tables, rounds, one winner
cmd-rummy-tournament-create = Create a tournament in this channel
    .name = The tournament's name
    .format = What each table plays in a round (default: points)
    .deals = Deals a round (points: 1 to 10; deals: 2, 3 or 6; default 2)
    .seats = Most players a table (default 6)
    .advance = How many go through from each table (default 2)
    .chip_line = Points: everyone at or above this many chips goes through
    .start_in = Minutes from now to the start (default 15)
    .start_at = The start as HH:MM (or YYYY-MM-DD HH:MM) in the server's time zone
    .cap = Most players (default 60)
    .turn_timer = Seconds per turn (default: the server's setting)
    .ai_fill = AI players fill empty seats (they never go through)
    .hints = Hint level (default off: rated)
cmd-rummy-tournament-status = The tournament's standings, and your place
cmd-rummy-tournament-record = A tournament's record: draws, salts, tables
    .tournament = Its id (default: this channel's latest)
cmd-rummy-tournament-start = Start now, with whoever checked in (organisers)
cmd-rummy-tournament-delay = Move the start (organisers)
    .minutes = Minutes from now to the new start
cmd-rummy-tournament-pause = Hold every table between deals (organisers)
cmd-rummy-tournament-resume = Resume a paused tournament (organisers)
cmd-rummy-tournament-remove = Take a player out (organisers)
    .player = Who: their seat is played out as a drop
cmd-rummy-tournament-cancel = Cancel the tournament (organisers)
    .reason = Why (everyone reads it)
cmd-rummy-tournament-add-ai = Enter AI players (organisers)
    .count = How many
    .tier = How strong (default medium)
