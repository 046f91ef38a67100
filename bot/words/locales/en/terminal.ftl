## The terminal game (python -m bot.play --lang en). Typed commands (s, d, p, r, h, q,
## declare, y) and card codes stay as they are in every language.

term-you = You
term-kind-pure = pure run
term-kind-impure = run
term-kind-set = set
term-part-wild = wild
term-part-pairs = pairs
term-part-near-runs = near runs
term-part-loose = loose
term-end-declared = declared
term-end-hand-rummy = declared the dealt hand
term-end-last-standing = everyone else dropped out
term-end-void = the stock ran out
term-basis-deadwood = deadwood { $base }
term-basis-first-drop = dropped before drawing
term-basis-middle-drop = dropped
term-basis-wrong-show = wrong show
term-basis-wrong-show-drop = wrong show (paid as a drop)
term-basis-hand-rummy-dropped = had dropped (hand rummy)
term-why-times = { $why }, x{ $times }
term-why-rate = { $why }, at { $rate } rate
term-why-won = won
term-help =
    How to play (docs/rules.md has the full rules):
      Make groups: runs (3+ cards of one suit in order: 4♥ 5♥ 6♥) and sets (3 or 4 of one rank in
      different suits). Wild cards (* and 🃏) stand in for any card. To declare you need every card
      in a group, with at least two runs, one of them pure (no wild card standing in).
    At the start of your turn:
      s            draw the top card of the stock
      d            take the top card of the discard pile
      p            drop (pack): leave this deal for a fixed cost (asks first)
      r            declare the hand you were dealt, where the rules allow it
    After drawing:
      7H or 7♥     throw that card (a number from the list works too: 5)
      declare 7H   throw 7H and show the rest (also: ! 7H)
    Any time:
      h or help    this help
      q or quit    leave the table: it counts as a drop, the AI seats play on (asks first)
    Cards: A 2 .. 10 J Q K with a suit S H D C (or ♠ ♥ ♦ ♣), any case; T is 10; JK is a printed
    joker. Deadwood is what your unmatched cards would cost you if someone declared now.
term-note-drawn = Throwing { $card } leaves deadwood { $deadwood }.
term-note-declarable = Throwing { $card } leaves deadwood { $deadwood } - you can declare!
term-note = Deadwood { $deadwood } (you would pay { $penalty } if someone declared now).
term-mark-taken = (taken)
term-mark-new = (new)
term-deal-banner = === Deal { $number } ({ $profile }) - dealer { $dealer }
term-indicator = Indicator { $indicator }; wild: { $wild }
term-indicator-none = none
term-wild-jokers = printed jokers
term-wild-rank = printed jokers and every { $rank }
term-wild-nothing = nothing
term-status = Stock { $stock } | top discard { $top } | { $others }
term-seat = { $name } { $cards } cards
term-seat-state = { $name } { $cards } cards ({ $state ->
        [dropped] dropped
        [out] out
        [eliminated] eliminated
        [left] left
       *[waiting] waiting
    })
term-input-ended = Input ended: you leave the table (counted as a drop).
term-leave-ask = Leave the table? It counts as a drop; the AI seats play on.
term-left = You leave the table (counted as a drop).
term-stay = You stay.
term-opt-stock = s=stock
term-opt-take = d=take { $card }
term-opt-drop = p=drop (costs { $cost })
term-opt-rummy = r=declare your dealt hand
term-opt-help = h=help
term-opt-quit = q=quit
term-your-hand = Your hand:
term-your-turn = Your turn: { $options }
term-drop-ask = Drop out of this deal? It costs { $cost ->
        [one] { $cost } point
       *[other] { $cost } points
    }.
term-stay-in-deal = You stay in the deal.
term-not-an-option = '{ $choice }' is not one of: { $options }. Try again.
term-took = You took { $card } from the discard pile (it cannot go straight back).
term-drew = You drew { $card } from the stock.
term-now-hold = You now hold:
term-hint-declare = You can declare by throwing { $card }: type 'declare { $code }'.
term-throw-prompt = Throw a card (like 7H, or its number 1-{ $count }), 'declare <card>' to show, h=help, q=quit.
term-not-valid-declaration = Throwing { $card } does not leave a valid declaration.
term-cannot-throw-taken = You may not throw the card you just took from the pile.
term-type-card = Type a card (e.g. 7H) or its number.
term-no-card-number = There is no card number { $number }; choose 1-{ $count }.
term-not-holding = You do not hold { $card }.
term-not-allowed = Not allowed: { $reason }
term-void = Deal { $number } is void ({ $end }): nobody pays.
term-won = Deal { $number } won by { $winner } ({ $end }).
term-col-player = player
term-col-pays = pays
term-col-why = why
term-col-total = total
term-col-hand = hand
term-no-review = (No review of this deal: { $reason }.)
term-review-head = Review of your play:
term-match-over-net = Match over (net chips):
term-match-over-points = Match over (penalty points):
term-winner = Winner: { $names }
term-no-winner = No winner.
term-stopped = Stopped (Ctrl-C).
term-history-saved = Hand history saved: { $path } (watch it again: python -m bot.replay { $path })
