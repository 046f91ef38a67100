# The words drawn on the hand, table and results pictures (bot/discord_ui/pictures.py fills
# `bot.images.Captions` from these). Short: a caption sits under a card or on a seat plate.
# The variables are filled in by the layout, after the catalogue ({ $cards } is a seat's
# 13 or 14 cards, so the caption needs no plural).

pic-kind-pure = Pure run
pic-kind-impure = Run
pic-kind-set = Set
pic-part-wild = Wild cards
pic-part-pairs = Pair
pic-part-near-runs = Near-run
pic-part-nothing = Fits nothing yet
pic-part-unmatched = Unmatched
pic-suit-spades = Spades
pic-suit-hearts = Hearts
pic-suit-diamonds = Diamonds
pic-suit-clubs = Clubs
pic-suit-jokers = Jokers

pic-no-cards = You hold no cards right now.
pic-by-suit = Your cards by suit
pic-your-groups = Your groups
pic-best-discard = Best discard leaves deadwood { $deadwood }
pic-can-declare = you can declare!
pic-deadwood-now = Deadwood now: { $deadwood }
pic-deadwood = Deadwood { $deadwood }
pic-tag-taken = can't discard
pic-tag-new-discard = new, discard?
pic-tag-new = new
pic-tag-discard = discard?

pic-nothing-wild = Nothing wild
pic-jokers-wild = Jokers wild
pic-wild-rank = Wild: { $rank }s
pic-wild-and-jokers = + jokers

pic-variant-fallback = Rummy
pic-title-deal = { $variant } · deal { $deal }
pic-title-over = { $variant } · match over
pic-turn = { $name }'s turn
pic-match-over = The match is over
pic-between-deals = Between deals
pic-indicator = Indicator
pic-discards = Discards, newest on the right
pic-pile-start = start
pic-taken-by = taken by
pic-plate-score = score { $score }
pic-seat = Seat { $seat }
# On the dealer's button (one or two letters fit).
pic-dealer-mark = D
pic-status-dropped = dropped
pic-status-out = out of this deal
pic-status-eliminated = eliminated
pic-status-left = left the table

pic-result-title = Deal { $deal } result
pic-void = The stock ran out: the deal is void, nobody pays.
pic-declared = { $name } declared!
pic-hand-rummy = { $name } declared hand rummy!
pic-last-standing = { $name } is the last player standing!
pic-won = { $name } wins!
pic-pays = pays { $amount }
pic-charge-base = { $basis } { $base }
pic-basis-deadwood = deadwood
pic-basis-first-drop = first drop
pic-basis-middle-drop = middle drop
pic-basis-wrong-show = wrong show
pic-basis-wrong-show-drop = wrong show drop
pic-basis-hand-rummy-dropped = hand rummy dropped
pic-wins = wins
pic-score-delta = score { $delta }
# On the winner's disc (one or two letters fit).
pic-winner-mark = W
pic-out-dropped = dropped
pic-out-out = out
pic-out-eliminated = eliminated
pic-out-left = left
