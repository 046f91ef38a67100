## The table's recent actions (render/log.py), worded from the stored facts
## (bot/engine/public_log.py). $who is a display name, $card a card code (10♥).

log-deal = Deal { $n }: { $by } deals
log-drew = { $who } drew from the stock
log-took = { $who } took { $card } from the pile
log-threw = { $who } discarded { $card }
log-auto-threw = ⏰ { $who } ran out of time; the bot threw { $card } for them
log-auto-declared = ⏰ { $who } ran out of time; the bot declared for them! 🎉
log-dropped = { $who } dropped ({ $unit ->
        [chips] { $cost ->
            [one] { $cost } chip
           *[other] { $cost } chips
        }
       *[points] { $cost ->
            [one] { $cost } point
           *[other] { $cost } points
        }
    })
log-left = { $who } left the table
log-declared = { $who } declared! 🎉
log-wrong-show = { $who } made a wrong show
log-timeout-dropped = ⏰ { $who } was dropped after { $count } timeouts in a row
log-seating-draw = 🎴 Seating draw: { $drawn }
log-seating-tie-break = 🎴 Seating draw (tie-break): { $drawn }
log-seats = 🎴 Seats, highest card first: { $order }; { $dealer } deals (lowest)
