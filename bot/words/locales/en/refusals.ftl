# Refusals: the short private answer to the one user who was refused. Nothing changed.
# Worded by bot/discord_ui/render/refusals.py from the table layer's typed refusals.

refusal-no-table-here = There is no table in this channel. Open one with `/rummy new`.
refusal-table-closed = This table is closed. Start a new one with `/rummy new`.
refusal-wrong-place = That table is played in another channel; use the controls there.
refusal-channel-busy-lobby = This channel already has a lobby open: join it, or ask its host (or someone with Manage Server) to close it with `/rummy cancel`.
refusal-channel-busy-game = This channel already has a game running. Its host (or someone with Manage Server) can close it with `/rummy cancel`; or open a table in another channel.
refusal-already-seated = You are already seated at this table.
refusal-table-full = This table is full.
refusal-not-seated = You are not seated at this table.
refusal-not-playing = You are not playing at this table, so you have no hand here.
refusal-ruling-hidden = Your table plays with hints { $level }: `/rummy check` answers again once your match is over.
refusal-host-only-start = Only the host can start the game.
refusal-host-only-add-ai = Only the host can add AI players.
refusal-host-only = Only the host can change the seats or hand over hosting.
refusal-seated-or-manager-only = Only the players at this table (or someone with Manage Server) can do that.
refusal-too-soon = The table was just posted again; try in { $wait } s.
refusal-drop-rules = This table plays without dropping (a house rule).
refusal-drop-out = You hold no cards in this deal, so there is nothing to drop.
refusal-drop-turn = You can drop only on your own turn, before you draw.
refusal-drop-drawn = You have drawn already: a drop is only allowed before drawing. Discard a card (or declare) instead.
refusal-drop = You cannot drop right now.
refusal-host-or-manager-only = Only the host or a server manager can cancel this table.
refusal-already-started = The game has already started; you cannot { $what ->
        [join] join
        [add_ai] add an AI
        [start] start
       *[other] do that
    } now.
refusal-not-started = The game has not started yet.
refusal-not-enough-players = `{ $profile }` needs at least { $minimum } players (invite someone, or add an AI).
refusal-unknown-tier = Choose an AI tier from the menu.
refusal-already-left = You have already left this match.
refusal-not-your-controls = Those controls belong to someone else's hand. Press “Your hand” on the table to see yours.
refusal-stale-view = The table has moved on since that view was shown, so nothing was played. Here is your hand as it is now.
refusal-unknown-action = That button is not recognised.
refusal-choose-card = Choose a card first.
refusal-no-deal-waiting = There is no deal waiting to start.
refusal-old-next-deal = That button is from deal { $deal }'s results: the deal after it has started.
refusal-not-in-match = Only players still in the match can start the next deal.
refusal-not-in-deal = You did not play that deal, so there is no play of yours to review.
refusal-review-gone = That deal is no longer kept for review (reviews last until the bot restarts).
refusal-save-failed = Could not save that move, so it did not happen. Try again.
refusal-bad-board = That leaderboard does not exist; run `/rummy leaderboard` again.
refusal-history-players-only = Only the players of a deal (and server managers) can download its hand history.
refusal-deal-gone = That deal is no longer available.
refusal-not-invited = This is a private table: only the players its host invited can sit down.
refusal-no-such-seat = That seat is not at the table any more.
refusal-not-at-last-table = Only the players of that match can start its rematch; open your own table.
refusal-other = That is not possible right now.

# Lobby options the rules refuse (BadOption.problem). `message` (for `rules`) is the engine's
# own English sentence: the engine's option checks have no reason codes yet.
option-unknown-profile = Unknown profile; choose one of { $choices }.
option-declaration = Declaration mode is assisted or honor.
option-hints = Hints are { $choices }.
option-assisted-needs-full-hints = With hints { $hints }, declaring is on your honor (a wrong show costs): assisted declaring needs full hints.
option-deals-choices = Deals rummy is played over { $choices } deals.
option-no-deals = `{ $profile }` has no number of deals to choose.
option-not-pool = `{ $profile }` is not a pool game.
option-not-target = Only `classic` plays to a target score, not `{ $profile }`.
option-seats = `{ $profile }` seats { $low }–{ $high } players, not { $seats }.
option-turn-timer = A turn lasts { $low }–{ $high } seconds, not { $value }.
option-other = Those table options are not allowed.

# Settings changes that cannot be applied as asked (SettingsConflict.problem).
settings-all-and-list = Use all_channels alone, or allow/remove channels, not both.
settings-allow-and-remove = Allow and remove the same channel? Pick one.
settings-unknown-profile = Unknown profile.
settings-unknown-hints = Hints are full, groups or off.
settings-every-channel-already = Tables may open in every channel; add one with allow_channel first.
settings-not-on-list = <#{ $channel }> is not on the list.
settings-last-channel = That is the last channel on the list. Use all_channels:True to allow every channel instead.
settings-other = Those settings cannot be changed that way.

# What a move or a lobby action did: the private confirmation.
done-drew-card = You drew { $card }.
done-drew-stock = You drew from the stock.
done-took = You took { $card }.
done-discarded = You discarded { $card }.
done-dropped = You dropped ({ $unit ->
        [chips] { $cost ->
            [one] { $cost } chip
           *[other] { $cost } chips
        }
       *[points] { $cost ->
            [one] { $cost } point
           *[other] { $cost } points
        }
    }).
done-declared = You declared! 🎉 Your winning hand is below; the results are on the table.
done-wrong-show = Your show was not valid: see below why, and what it costs.
done-left-closed = You left, and nobody else was seated: the table is closed.
done-left-match = You left the match: it counts as a drop in this deal and costs { $unit ->
        [chips] { $cost ->
            [one] { $cost } chip
           *[other] { $cost } chips
        }
       *[points] { $cost ->
            [one] { $cost } point
           *[other] { $cost } points
        }
    }.
done-left-between = You left the match; you play no further deals.
done-left-match-over = With that the match is over: the results are on the table.
done-left = You left the table.
done-next-deal = Next deal!
done-ready = You are ready; waiting for the others.
done-added-ai = Added { $tier ->
        [easy] an easy
        [medium] a medium
        [hard] a hard
        [expert] an expert
       *[other] a { $tier }
    } AI player ({ $name }).
done-seat-removed = Removed { $name } from the table.
done-host-handed = { $name } is the host now.
done-rematch-opened = A new table with the same rules is open in { $channel }; the others can press **{ button-play-again }**.
done-rematch-seated = You took a seat at the new table in { $channel }.
done-rematch-already = You already have a seat at the new table in { $channel }.

# Answers to the lobby and table commands and buttons.
done-joined = You joined the table.
done-started = The game has started. Press “Your hand” to see your cards.
done-cancelled = The table is closed.
done-table-below = The table is below.
done-game-over = The game is over.
