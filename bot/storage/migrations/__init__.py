"""Numbered SQL migrations applied by :mod:`bot.storage` at start-up.

Migrations are kept per SQL dialect, one directory each (``sqlite/`` today), so a
second backend can ship its own numbered files next to them without renumbering
the SQLite ones. Each ``NNNN_name.sql`` file is applied exactly once, in its own
transaction, and recorded in ``schema_version``. Never edit a migration that has
shipped: add a new file with the next number instead (the tests apply every prefix
of the list, so a new file is exercised against databases at each earlier version
automatically). The files are package data (see ``[tool.setuptools.package-data]``)
and are read through :mod:`importlib.resources`, so they are found both in a
source checkout and in an installed wheel.
"""
