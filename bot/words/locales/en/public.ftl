# What everyone in the channel reads: the lobby, the table, the turn pings, the results and
# where a table plays (bot/discord_ui/render/lobby.py, table.py, results.py, place.py, the
# presenter and the public buttons in views.py). They speak the table's language, which is
# the server's (`/rummy settings language:`) when the table opened. Cards ($card, $cards)
# come written already (10♥, K♠, 🃏); $when is a Discord timestamp (<t:…:R>).

## The lobby
lobby-title = 🎴 Indian Rummy — table open
lobby-title-cancelled = 🎴 Indian Rummy — table cancelled
lobby-title-expired = 🎴 Indian Rummy — lobby closed
lobby-footer-cancelled = The table is closed.
lobby-footer-everyone-left = Everyone left: the table is closed.
lobby-profile = **Profile:** `{ $profile }` · seats { $seats } · turn timer { $timer }s
lobby-deals = { $deals } deals
lobby-target = target { $target }
lobby-pool-limit = out at { $limit }
lobby-declare = declare: { $mode ->
        [assisted] assisted
       *[honor] honor
    }
lobby-house-rules = house rules: { $rules }
toggle-no-reshuffle = no reshuffle
toggle-joker-indicator-doubles = joker indicator doubles
toggle-aces-wild-on-joker = aces wild on joker
toggle-nothing-wild = nothing wild
toggle-one-joker-per-deck = one joker per deck
toggle-no-packing = no packing
lobby-hints = **Hints:** { $level } ({ $meaning })
hint-level-full = full
hint-level-groups = groups
hint-level-off = off
hint-meaning-full = arrangement, deadwood and when you can declare
hint-meaning-groups = the arrangement only
hint-meaning-off = no help: cards sorted by suit
lobby-honor-warning = ⚠️ Nobody checks your hand before you declare: a wrong show is penalised.
lobby-unrated = **Unrated:** this server rates only games with hints off; this match counts in the stats but moves no rating.
lobby-seats = Seats ({ $seated }/{ $seats })
lobby-empty-seat = · empty
lobby-private = Private table
lobby-private-guests = Only these players may join: { $guests }
lobby-nobody-yet = nobody yet
lobby-footer-waiting = Host: { $host }. Waiting for { $need ->
        [one] { $need } more player.
       *[other] { $need } more players.
    }
lobby-footer-ready = Host: { $host }. The host can start.
lobby-expired = This lobby closed after { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } without a start. Open a new one with /rummy new.

## The lobby's controls
button-join = Join
button-leave = Leave
button-start = Start
button-cancel = Cancel
menu-add-ai = Add an AI player…
ai-easy = Easy AI
    .description = Plays legally, keeps pairs
ai-medium = Medium AI
    .description = Greedy on deadwood
ai-hard = Hard AI
    .description = Races to declare: counts the cards that help
ai-expert = Expert AI
    .description = Plays for chips: sheds points when you are close
ai-seat-easy = 🤖 Easy
ai-seat-medium = 🤖 Medium
ai-seat-hard = 🤖 Hard
ai-seat-expert = 🤖 Expert
menu-host-tools = Host tools: seats and hosting…
host-remove = Remove { $name }
host-make = Make { $name } the host

## The table
table-title = 🎴 { $profile } — deal { $deal }
table-title-over = 🎴 { $profile } — match over
table-dealer = (dealer)
table-cards = { $cards ->
        [one] { $cards } card
       *[other] { $cards } cards
    }
table-score = score { $score }
status-dropped = (dropped)
status-out = (out of this deal)
status-eliminated = (eliminated)
status-left = (left)
table-seats = Seats
table-top-discard = Top discard
table-indicator = Indicator
table-stock = Stock
table-turn = Turn
table-turn-draw = **{ $name }** to draw or drop
table-turn-discard = **{ $name }** to discard or declare
table-time-up = { $step } · time up { $when }
table-recent = Recent
table-footer = Press “Your hand” to see your cards (only you can see them).
table-cancelled = This table was cancelled.
table-finished = Match over. Start another with /rummy new.
table-commitment = Deal { $deal } shuffle commitment: { $hash }… (sha256)
table-for-bystander = The table as it is now (you are not playing at it):
table-picture = The table: seats, cards held, stock, discard pile and indicator, as listed below
button-your-hand = Your hand
button-next-deal = Next deal

## Turn pings
turn-ping = { $mention }, it's your turn.
turn-ping-timer = { $mention }, it's your turn — time up { $when }.
turn-warning = ⏳ { $mention }, 15 seconds left — then the bot plays for you.

## Results
results-title = Deal { $deal } result
results-void = The stock ran out: the deal is void, nobody pays.
results-declared = **{ $winner }** declared!
results-hand-rummy = **{ $winner }** declared hand rummy!
results-last-standing = **{ $winner }** is the last player standing!
results-won = **{ $winner }** won!
results-why = Why: { $problems }
results-unmatched = Unmatched: { $cards }
results-winner = Winner 🏆
results-standings = Standings
results-shuffle = Shuffle
results-shuffle-text = Commitment `{ $hash }…` · salt `{ $salt }`
    Check it against the hand history (**Hand history** below) with `python -m bot.engine verify`
results-match-over = Match over — winner: { $winners }
results-match-over-none = Match over — no winner.
results-hints = hints { $level }
results-unrated = unrated (this server rates games with hints off only)
results-key = Table { $table }
results-next-started = Deal { $deal } has started.
results-next-deal = Next deal starts when everyone presses **Next deal** (or in { $seconds } s).
results-picture = Every hand of the deal revealed, as listed below
out-first-drop = Dropped before drawing (first drop)
out-middle-drop = Dropped (middle drop)
out-wrong-show = Declared a hand that was not valid (wrong show)
out-wrong-show-drop = Declared a hand that was not valid (counted as a middle drop)
out-by-timeouts = { $reason }, by the bot after { $timeouts } timeouts in a row
charge = Pays { $amount } ({ $base })
charge-capped = deadwood { $deadwood }, capped at { $base }
charge-rate = { $base } × { $rate }
basis-deadwood = deadwood { $base }
basis-first-drop = first drop { $base }
basis-middle-drop = middle drop { $base }
basis-wrong-show = wrong show { $base }
basis-wrong-show-drop = wrong show drop { $base }
basis-hand-rummy-dropped = hand rummy dropped { $base }
score-won = won { $amount } chips
score-lost = lost { $amount } chips
score-points = { $amount } points
standing-chips = { $name }: { $amount } chips{ $mark }
standing-points = { $name }: { $amount } points{ $mark }
standing-out = { " " }(out)
standing-left = { " " }(left)
wild-as = { $card } as { $role }
wild-as-rank = { $rank ->
        [A] an A
        [8] an 8
       *[other] a { $rank }
    }
button-review = Review my play
button-history = Hand history
button-replay = Replay
button-match-replay = Match replay
button-play-again = Play again

## Where the table plays
thread-name = 🎴 { $host }'s rummy table ({ $profile })
place-permissions = 🧵 This table plays here in the channel: I need the **{ $missing }** { $count ->
        [one] permission
       *[other] permissions
    } to give it a thread.
place-refused = 🧵 This table plays here in the channel: Discord would not open a thread for it.
place-closed = 🧵 The table's thread is closed, so the table continues here in the channel.
place-and = { $first } and { $second }
placed-here = this channel, below
placed-title-finished = 🎴 Indian Rummy — match over
placed-title-cancelled = 🎴 Indian Rummy — table closed
placed-title-playing = 🎴 Indian Rummy — playing
placed-finished = The match was played in { $where }. Final standings below.
placed-cancelled = The table in { $where } was closed before the match ended.
placed-playing = The table plays in { $where }: the table, turns and results are there.
placed-players = Players
placed-final-standings = Final standings
placed-standings = Standings
