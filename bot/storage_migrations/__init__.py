"""Numbered SQL migrations applied by :mod:`bot.storage` at start-up.

Each ``NNNN_name.sql`` file is applied exactly once, in its own transaction, and
recorded in ``schema_version``. Never edit a migration that has shipped: add a new
file with the next number instead (the tests apply every prefix of the list, so a
new file is exercised against databases at each earlier version automatically).
"""
