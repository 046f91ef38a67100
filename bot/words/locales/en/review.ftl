# "Review my play" after a deal (bot/discord_ui/render/review.py), also the terminal game's.
# Cards come as text already written ($card, $played, $better, $partners). $cost, $chips and
# $gain are amounts already written in the table's one unit (review-amount, cost-chips/points); $drop and $play are chances of
# winning a pool match, in whole percent.

review-nothing = You made no moves of your own in that deal, so there is nothing to review.
review-head = Deal { $deal }: you made { $moves ->
        [one] { $moves } move
       *[other] { $moves } moves
    }; the expert AI would have played { $agreed } of them the same way and { $changed } differently.
review-head-same = Deal { $deal }: you made { $moves ->
        [one] { $moves } move, and the expert AI would have played it
       *[other] { $moves } moves, and the expert AI would have played every one of them
    } the same way.
# What follows the head when the expert would have changed moves ($changed of them): none
# listed, all listed ($listed), or the $listed that mattered most and $unlisted more.
review-no-mistakes = { $changed ->
        [one] It was a close call: nothing worth a note.
       *[other] Each of those { $changed } was a close call: nothing worth a note.
    }
review-listed-all = { $listed ->
        [one] It is below.
       *[other] All { $listed } are below.
    }
review-listed-some = { $listed ->
        [one] The one that mattered most is below
       *[other] The { $listed } that mattered most are below
    }; { $unlisted ->
        [one] the other one was a close call or smaller
       *[other] the other { $unlisted } were close calls or smaller
    }.

review-threw-kept = Turn { $turn }: you threw { $played } and kept { $better }; throwing { $better } was better.
review-played-on = Turn { $turn }: you played on; dropping was better.
review-dropped = Turn { $turn }: you dropped; playing on was better.
review-move = Turn { $turn }: you { $did }; { $alt } was better.

# What the player did ($did in review-move).
review-did-stock = drew from the stock
review-did-take = took { $card } from the pile
review-did-take-any = took the discard
review-did-drop = dropped
review-did-declare = declared, throwing { $card }
review-did-declare-dealt = declared your dealt hand
review-did-throw = threw { $card }
review-did-throw-any = threw a card

# What the expert would have done ($alt in review-move).
review-alt-stock = drawing from the stock
review-alt-take = taking { $card } from the pile
review-alt-take-any = taking the discard
review-alt-drop = dropping
review-alt-declare = declaring (throwing { $card })
review-alt-declare-dealt = declaring your dealt hand
review-alt-throw = throwing { $card }
review-alt-throw-any = another throw

# The reasons, one line each under a suggestion.
review-missed-declaration = { "  " }You had a valid declaration; playing on kept { $points } points in your hand.
review-drop-cost-lose = { "  " }Dropping cost { $cost }; playing on this hand was expected to cost about { $chips }.
review-drop-cost-win = { "  " }Dropping cost { $cost }; playing on this hand was expected to win about { $chips }.
review-gain-short = { "  " }About { $gain } better for you.
review-drop-out = { "  " }Dropping cost { $cost } and put you out of the match.
review-match-chances = { "  " }Your chance of winning the match: about { $drop }% after dropping, about { $play }% playing on.
review-gain = { "  " }By the expert's reckoning about { $gain } better for you.
# An amount in the table's unit ($unit: chips or points), with one decimal ($cost, $chips, $gain).
review-amount = { $unit ->
        [chips] { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1) } chips
       *[points] { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1) } points
    }
review-an-opponent = an opponent
review-fewer-throw = { "  " }Throwing { $card } would have left { $fewer } fewer points in your hand if { $who } went out ({ $better } instead of { $played }).
review-fewer-it = { "  " }It would have left { $fewer } fewer points in your hand if { $who } went out ({ $better } instead of { $played }).
review-broke-group = { "  " }{ $card } belonged with { $partners } in your hand.
review-closer = { "  " }It would have left you { $better } instead of { $played }.
# How far a hand is from going out ($better and $played of review-closer).
review-away = { $n ->
        [0] a valid declaration
        [one] one card from going out
       *[other] { $n } cards from going out
    }
review-more-helpful = { "  " }More cards would have helped your next draw: { $better } instead of { $played }.
