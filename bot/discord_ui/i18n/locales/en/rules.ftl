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
