"""Code the benchmarks run and no AI tier plays: yardstick opponents and measured experiments.

`bot/ai/` holds only what the tiers, the review and the worker run in play (issue 38). What is
here is imported by the benchmark scripts (and checked by `tests/ai/`), never by `bot/`:

* `reference_opponent.ReferencePolicy` and `guard_opponent.GuardPolicy`: two independent
  opponents the tiers are measured against (`python benchmarks/duplicate.py --a expert --b
  benchmarks.experiments.reference_opponent:ReferencePolicy`);
* `fitted_throw`: the throw value fitted from play (`fit_throw_value.py`), measured and not
  kept;
* `fitted_hazard`: the logistic closeness hazard (`closeness_calibration.py`), better
  calibrated than the bot's hand-set one and not better played.

What each measured is in docs/ai.md.
"""
