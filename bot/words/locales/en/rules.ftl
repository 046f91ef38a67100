## Rules: the engine's rule data in words (render/rules.py), and the rule options the engine
## refuses (`RuleOptionError` codes, worded by render/refusals.py). Option and profile names
## (`pool_limit`, `classic`) stay as players type them.

## Rule options the engine refuses

rule-option-unknown-option = There is no rule option `{ $names }`.
rule-option-unknown-profile = Unknown profile `{ $name }`; choose one of { $choices }.
rule-option-profile-only = `{ $name }` comes with the profile and cannot be changed; choose another profile.
rule-option-not-one-of = `{ $name }` is one of { $choices }, not `{ $value }`.
rule-option-not-true-false = `{ $name }` is true or false, not `{ $value }`.
rule-option-not-whole-number = `{ $name }` must be a whole number, not `{ $value }`.
rule-option-not-settable = `{ $name }` cannot be set as an option.
rule-option-no-name = The option `{ $item }` has no name; write NAME or NAME=VALUE.
rule-option-takes-no-value = The option `{ $name }` takes no value.
rule-option-min-players = A table needs at least { $low } players, not { $value }.
rule-option-max-players = A table seats at most { $high } players, not { $value }.
rule-option-negative = `{ $name }` cannot be negative, not { $value }.
rule-option-set-min = A set has at least 3 cards, not { $value }.
rule-option-not-for-format = `{ $name }` is not an option of a { $format } match.
rule-option-deals-choices = The number of deals is one of { $choices }.
rule-option-deals-or-target = Choose a number of deals or a target score.
rule-option-pool-needs-limit = A pool match needs a pool limit.
rule-option-out-of-range = `{ $name }` must be between { $low } and { $high }, not { $value }.
rule-option-seats = `{ $profile }` seats { $low }–{ $high } players, not { $value }.

## Cards a player typed that cannot be read (/rummy check, the terminal), by the engine's code

card-error-empty = An empty card was given
card-error-not-a-card = '{ $token }' is not a card (use rank A,2-10,J,Q,K then suit S,H,D,C, or JK)
card-error-no-cards = No cards given
card-error-too-many = '{ $token }' appears { $count } times, but the decks in play hold only { $limit } { $joker ->
        [yes] printed jokers
       *[no] copies of { $code }
    }

## Each profile in a few words (the profile choices of the slash commands)

profile-points = one deal, chips, { $cap } cap
profile-pool101 = out at { $limit }
profile-pool201 = out at { $limit }
profile-deals = fixed number of deals
profile-paplu = traditional, transfers, no cap
profile-classic = { $low }-{ $high } players, house rules

## The rules summary (/rummy rules, the last page of /rummy help)

rules-head = **{ $name }** ({ $low }–{ $high } players)
rules-deck = { $decks ->
        [one] { $decks } deck
       *[other] { $decks } decks
    } + { $jokers } jokers up to { $players } players
rules-set-open = { $min } or more cards
rules-set-exact = exactly { $min } cards
rules-set-range = { $min }–{ $max } cards
rules-joker-ind-aces = all aces become wild
rules-joker-ind-jokers = only the other printed jokers are wild
rules-lone-protected = its best pure run is protected, the rest counts
rules-lone-all = every card counts
rules-cap = One deal's penalty is capped at { $cap }
rules-no-cap = There is no cap on a deal's penalty
rules-first-drop = { $cost }
rules-first-drop-bottom = { $cost } (cards shuffled into the bottom of the stock)
rules-invalid-penalty = pays { $penalty } and is out of the deal; the others play on
rules-invalid-middle = wins nothing and counts as a middle drop ({ $middle }); the others play on
rules-stock-void = the deal is void (nobody pays)
rules-stock-reshuffle = the discard pile except its top card is reshuffled into a new stock
rules-hand-rummy-not-allowed = not allowed
rules-hand-rummy-normal = allowed at your first turn without drawing; normal rates
rules-hand-rummy-double = allowed at your first turn without drawing; players who already played pay double, the others single, dropped players { $dropped }
rules-hand-rummy-double-no-drops = allowed at your first turn without drawing; players who already played pay double, the others single
rules-match-single = one deal; each loser pays the winner their penalty in chips
rules-match-pool = penalties add up; at { $limit } or more you are out; the last player in wins
rules-match-deals = { $deals ->
        [one] { $deals } deal
       *[other] { $deals } deals
    }; the lowest total wins
rules-match-rotation = one full dealer rotation; every payment is a transfer; the highest net wins
rules-match-target-deals = { $deals ->
        [one] { $deals } deal
       *[other] { $deals } deals
    }; payments are transfers; the highest net wins
rules-match-target-score = until { $target } points; payments are transfers; the highest net wins
rules-drop-to-winner = paid to the winner
rules-drop-to-total = added to your total
rules-cards = • Cards: { $sizes }. 13 each; one indicator card makes its rank wild (a printed joker as indicator: { $joker }). Wild cards count 0.
rules-declare = • Declare with all 13 cards in groups: at least two runs, at least one pure (no substitute). Sets: { $sets }, different suits.
rules-values = • Values: A K Q J 10 count 10, 2–9 face value.
rules-lone = • A loser with a pure run but no second run: { $lone }. { $cap }.
rules-drop = • Drop before your first draw: { $first }; later: { $middle } ({ $paid }).
rules-invalid = • Invalid declaration: { $invalid }.
rules-stock = • Stock runs out: { $stock }.
rules-hand-rummy = • Hand rummy: { $rule }.
rules-first-turn-half = • A winner on their first drawn turn: players who had no turn yet pay half.
rules-indicator-doubles = • A printed joker cut as indicator doubles every payment.
rules-no-dropping = • No dropping at this table.
rules-match = • Match: { $match }.
rules-assisted = • Declare is offered only when the engine has verified your layout.
rules-honor = • You may declare any layout; a wrong show is penalised.

## /rummy check: the engine's ruling on a typed hand

ruling-head = `{ $profile }`, indicator { $indicator }: { $wild }.
ruling-declarable = ✅ Declarable: discard { $cards }.
ruling-not-yet = ❌ Not declarable yet. Best discard: { $card }.
ruling-valid = ✅ A valid declaration.
ruling-invalid = ❌ Not a valid declaration.
ruling-group = • { $group }: { $cards }
ruling-unmatched = • Unmatched: { $cards }
ruling-penalty = Deadwood { $deadwood }; penalty if caught now: **{ $penalty }**.
ruling-penalty-capped = Deadwood { $deadwood }; penalty if caught now: **{ $penalty }** (capped from { $deadwood }).
