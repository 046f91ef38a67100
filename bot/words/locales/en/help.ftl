# `/rummy help` (bot/discord_ui/render/help.py): the screens' titles, then their texts.
# Button names in **bold** are variables: each button's own label, from its catalogue message,
# as the reader sees it (the table's buttons in the table's language, the hand view's in theirs).

help-title = How to play — { $page }
help-footer = { $number }/{ $pages } · rules: { $profile }
help-first-time = New to rummy here? `/rummy help` explains the game and the buttons in a minute.

help-page-goal = The goal
help-page-lives = Two lives
help-page-wild = Wild cards
help-page-turn = A turn
help-page-drop = Dropping
help-page-declare = Declaring
help-page-table = This table's rules

help-goal =
    You hold 13 cards. Arrange all of them into **runs** (three or more cards in a row of one suit, like 5♥ 6♥ 7♥) and **sets** (three or four cards of one rank in different suits, like 9♠ 9♦ 9♣), then **declare** to win the deal.

    Whoever is left with unarranged cards when someone declares pays for them: number cards count their value, J Q K and A count 10 each.
help-lives =
    A declaration needs **two runs**, and at least one of them must be **pure**: no wild card in it. The pure run is your first life, the second run your second life; sets come after.

    Without a pure run every card in your hand counts against you, so make one early.
help-wild =
    At the start of the deal one card is turned face up: the **indicator**. Every card of its rank becomes wild, and so do the printed jokers (🃏): a wild card can stand in for any card in a run or a set (not in a pure run). Wild cards are marked * in your hand.

    The table shows the indicator and what is wild this deal.
help-turn =
    When it is your turn the bot mentions you. Press **{ $your_hand }** (on the table or the ping): only you see it.
    1. **{ $draw }** (face down) or **{ $take }** (the top discard).
    2. Throw one card with **{ $discard }**: each choice says what it leaves you with.
    Your hand is grouped the way it best arranges; the picture follows the same order. **{ $sort }** switches the order, **{ $refresh }** redraws the view, **{ $text_only }** turns the card pictures off for you.
help-drop-none = This table plays without dropping (a house rule): every deal is played out.
help-drop =
    A bad hand? **{ $drop }** (pack) at the start of your turn, before you draw, and you are out of this deal for a fixed cost: { $first } before your first draw, { $middle } later. Drop asks you to confirm and shows the cost first.

    If you run out of time, the bot plays for you; after three timeouts in a row it drops you.
help-declare =
    When the card you throw would leave everything arranged, the view offers **{ $declare }**: press it to throw that card and show your hand. The bot checks the layout; the results message then reveals every hand, what each player pays, and the standings.

    In an *honor* table you lay out a declaration yourself, and a wrong show costs a penalty.
