"""Everything a player reads, in their language, and nothing that needs Discord.

The catalogue (`catalogue.py`, Fluent files under `locales/<language>/`) and the modules that
turn the engine's and the table layer's facts into sentences: cards and amounts (`cards.py`),
the table log (`log.py`), refusals and confirmations (`refusals.py`), the post-deal review
(`review.py`), the rules pages and rulings (`rules.py`) and the pictures' captions
(`pictures.py`). The Discord side and the terminal game both word what they show from here, so
a sentence is written once. The languages offered are the catalogue's folders
(`languages.py`): a new folder is a new language, with no code.
"""

from __future__ import annotations

from bot.table.vocabulary import Locale

from .catalogue import PSEUDO, SOURCE, Catalogue, CatalogueError, catalogue, text

__all__ = ["PSEUDO", "SOURCE", "Catalogue", "CatalogueError", "Locale", "catalogue", "text"]
