# A player's private hand view (bot/discord_ui/render/hand.py) and its controls (views.py).
# Cards ($card, $cards) come written already (10♥, K♠, 🃏).

hand-title = Your hand — deal { $deal }
hand-title-none = Your hand
hand-no-cards = You hold no cards right now.
hand-status-draw = **Your turn:** draw from the stock or take the top discard.
hand-status-drew = **Your turn:** you drew { $card } 🆕 — discard a card (or declare).
hand-status-discard = **Your turn:** discard a card (or declare).
hand-status-waiting = Waiting for **{ $name }**.
hand-status-over = The deal is over.
hand-table-line = Top discard { $top } · indicator { $indicator } ({ $wild }) · stock { $stock }
hand-table-line-waiting = Top discard { $top } · indicator { $indicator } ({ $wild })
hand-taken = You took { $card } from the pile: it cannot go straight back.
hand-wild-mark = (* marks a wild card)

# Field names: the engine's groups and the parts of a hand without groups.
group-pure = Pure run
group-impure = Run
group-set = Set
part-wild = Wild cards
part-pairs = Pairs (half a set)
part-near-runs = Near-runs
part-nothing = Fits nothing yet
part-unmatched = Unmatched
part-unmatched-suggested = Unmatched (incl. suggested discard)
suit-spades = ♠ Spades
suit-hearts = ♥ Hearts
suit-diamonds = ♦ Diamonds
suit-clubs = ♣ Clubs

hand-footer-off = Sorted by suit. Hints are off at this table: you judge your hand.
hand-footer-suit = Sorted by suit.
hand-footer-suit-deadwood = Deadwood now: { $deadwood }. Sorted by suit.
hand-footer-groups = Hints: groups only. Nothing is counted or checked for you.
hand-footer-discard = Discarding { $card } leaves deadwood { $deadwood }.
hand-footer-declare = Discarding { $card } leaves deadwood { $deadwood } — you can declare!
hand-footer-deadwood = Deadwood { $deadwood } (penalty if someone declares now: { $penalty }).
hand-leaves-valid = leaves a valid declaration
hand-leaves-deadwood = leaves deadwood { $deadwood }

# After the deal.
hand-over-title = Deal { $deal } is over
hand-over-void = The stock ran out: the deal is void, nobody pays.
hand-over-won = **You declared!** 🎉 Your winning hand:
hand-over-lost = **{ $winner }** won this deal.
hand-over-lost-pay = **{ $winner }** won this deal. You pay { $amount }.
hand-over-nobody = Nobody
hand-over-footer = The results are on the table message.

# A wrong show (honor mode), for the player who made it.
show-no-pure = no pure run
show-two-runs = two runs needed
show-two-runs-one = two runs needed (it has one)
show-loose = these cards fit no group: { $cards }
show-breaks-rule = the layout breaks a rule
show-invalid = **Your show was not valid**: it has { $problems }.
show-cost = It costs { $cost }; your cards are out of this deal while the others play on.
show-cost-paid = It cost you { $cost }.

# What a penalty or a drop costs, in the match's unit.
cost-chips = { $value } chips
cost-points = { $value } points
wild-nothing = nothing is wild
wild-jokers = only printed jokers are wild
wild-rank = { $rank }s and printed jokers are wild

# After the bot played a turn for a player who ran out of time.
timeout-threw = ⏰ Your time ran out: the bot threw { $card } for you. { $left ->
        [one] One more timeout in a row and you are dropped from this deal.
       *[other] { $left } more timeouts in a row and you are dropped from this deal.
    }
timeout-declared = ⏰ Your time ran out: the bot declared for you. { $left ->
        [one] One more timeout in a row and you are dropped from this deal.
       *[other] { $left } more timeouts in a row and you are dropped from this deal.
    }

# The controls.
button-confirm-drop = Confirm drop — costs { $cost }
button-keep-playing = Keep playing
button-draw = Draw from stock
button-take = Take { $card }
button-take-any = Take discard
button-hand-rummy = Declare hand rummy
button-drop = Drop ({ $cost })
menu-discard = Discard a card…
menu-declare = Declare, discarding…
button-declare = Declare — discard { $card }
button-declare-not-yet = Declare (not yet possible)
button-group = Group by melds
button-sort = Sort by suit
button-refresh = Refresh
button-text-only = Text only
button-card-images = Card images
hand-replaced = This hand view was replaced by a newer one — use the newest.
hand-picture = Your hand as cards, grouped as listed below
