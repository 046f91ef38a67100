# The one error path (bot/discord_ui/errors.py): failures the Discord side answers itself.

error-sorry = Something went wrong on our side; nothing changed. Try again.
error-restarting = The game is restarting; try again in a moment.
error-no-private-message = Rummy is played in a server channel, not in DMs.
error-missing-permissions = You need the Manage Server permission for that.
error-check-failure = You cannot use that command here.

# Input a command could not use (UserError, raised by the cogs).
error-server-channel-only = Use this in a server channel.
error-channel-not-allowed = Tables cannot be opened in this channel (see `/rummy settings`).
error-unknown-language = That language is not one the bot speaks; choose one from the list.
language-chosen = Your private messages are now in English.
language-auto = Your private messages now follow your Discord's language.
error-bad-card = { $detail }.
error-hand-size = A hand has 13 cards (or 14 after drawing); you gave { $count }.
error-invite-mentions = Mention the players you invite, like `invite: @Asha @Ravi`.
error-stats-slow = The stats are slow to load right now; try again in a moment.
error-stats-failed = Could not load the stats right now; try again in a moment.
error-not-yours = Only the person who ran this command can use these buttons. Run it yourself to get your own.
error-pick-deal = Pick a deal from the menu.
error-no-stats-for-bots = Bots and AI players have no stats.
error-no-history-for-bots = Bots and AI players have no history.

# The engine's refusals (bot/engine/errors.py), by type; a WrongPhase by the engine's reason.
engine-refused = That move is not allowed.
engine-unknown-seat = There is no such seat at this table.
engine-seat-not-active = You are no longer playing in this deal.
engine-not-your-turn = It is not your turn.
engine-wrong-phase = You cannot do that now.
engine-card-not-in-hand = That card is not in your hand.
engine-cannot-discard-taken = You cannot discard the card you just took from the pile.
engine-empty-pile = There is no card to take.
engine-packing-not-allowed = Dropping is not allowed at this table.
engine-hand-rummy-not-allowed = Declaring without drawing is only allowed at your first turn, where the rules allow it.
engine-invalid-declaration = Those cards are not a valid declaration.
engine-bad-arrangement = Your groups must use each of your 13 cards exactly once.
engine-match-over = The match is over.
engine-phase-already-left = You have already left.
engine-phase-next-deal-not-started = The next deal has not started yet.
engine-phase-no-deal = No deal is being played.
engine-phase-timeout-not-on-turn = Only the seat on turn can time out.
engine-phase-deal-in-progress = A deal is already in progress.
engine-phase-deal-over = This deal is over.
engine-phase-already-drawn = You have already drawn; discard a card.
engine-phase-draw-first = Draw a card first.
engine-phase-drop-before-drawing = You can only drop at the start of your turn, before drawing.
engine-phase-declare-needs-card = Choose the card to discard with your declaration.
engine-phase-draw-before-declaring = Draw a card before declaring.
