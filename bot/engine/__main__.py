"""Entry point for `python -m bot.engine`."""

from .cli import main

raise SystemExit(main())
