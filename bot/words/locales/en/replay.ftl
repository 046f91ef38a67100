## The replay page of a deal or a match (bot/replay): its controls and labels, and each move
## in words. Moves the table log already words (log.ftl) and the results' sentences
## (public.ftl) are taken from there; these are only what the page says besides.
## $who and $name are display names; $card a card as shown (10♥).

replay-title = Deal { $deal } replay · { $profile }
replay-match-title = Match replay · { $profile } · { $deals ->
        [one] { $deals } deal
       *[other] { $deals } deals
    }
replay-made = Made from the hand history by the game's own engine: every table on this page is the engine's. It needs no connection.
replay-noscript = This replay needs JavaScript to step through the deal.
replay-start = Start of the deal
replay-back = Back one move
replay-forward = Forward one move
replay-end = End of the deal
replay-play = Play
replay-pause = Pause
replay-speed = Speed
replay-deal = Deal
replay-deal-option = Deal { $deal }
replay-move = Move
replay-move-count = Move { $move } of { $moves }
replay-dealt = As dealt
replay-view = View
replay-view-all = Every hand
replay-view-seat = As { $name } saw it
replay-keys = Keys: ← → one move, Home and End the start and end of a deal, Page Up and Page Down another deal, space plays. On a phone, swipe left or right.
replay-hidden = { $count ->
        [one] { $count } card, hidden until the end
       *[other] { $count } cards, hidden until the end
    }
replay-stock = Stock
replay-stock-count = { $count ->
        [one] { $count } card
       *[other] { $count } cards
    }
replay-pile = Pile
replay-pile-empty = The pile is empty.
replay-pile-size = { $count ->
        [one] { $count } card in the pile
       *[other] { $count } cards in the pile
    }
replay-thrown-by = thrown by { $name }
replay-opening = start
replay-indicator = Indicator
replay-indicator-none = none
replay-dealer = dealer
replay-new = just picked up
replay-turn-draw = { $name } to draw
replay-turn-discard = { $name } to throw a card
replay-over = The deal is over.
replay-deadwood = deadwood { $deadwood }
replay-scores-before = Scores before this deal
replay-scores-after = Scores after deal { $deal }
replay-eliminated = { $name } is out of the match ({ $total } points)
replay-first = { $who } plays first
replay-drew = { $who } drew { $card } from the stock
replay-auto-drew = ⏰ The bot drew { $card } from the stock for { $who }
replay-auto-drew-hidden = ⏰ The bot drew from the stock for { $who }
replay-auto-took = ⏰ The bot took { $card } from the pile for { $who }
replay-timeout = ⏰ { $who } ran out of time ({ $count ->
        [one] { $count } turn in a row
       *[other] { $count } turns in a row
    }): the bot plays for them
replay-reshuffle = The stock ran out: the pile under its top card was shuffled into a new stock of { $count ->
        [one] { $count } card
       *[other] { $count } cards
    }
