"""The `--help` of the command-line tools (`bot.play`, `bot.simulate`, `bot.engine`)."""

from __future__ import annotations

import argparse


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The module docstring as written, and each option's default after its help.

    Like `argparse.ArgumentDefaultsHelpFormatter`, but an option whose help already says what
    happens without it ("(default: a fresh shuffle)") or whose default is nothing (None, off,
    empty) is left as written, so no help ends in "(default: None)"."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "(default" in text or "%(default)" in text or action.default in (None, False, "", []):
            return text
        if action.default is argparse.SUPPRESS or not action.option_strings:
            return text
        return text + " (default: %(default)s)"
