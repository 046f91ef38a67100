"""Everything players read: embeds and short texts, one module per thing shown.

Public renderings take only public views (`PublicView`, finished hand histories); a hand
rendering takes one seat's `Observation`. Refusals and outcomes of the table service get their
words in `refusals.py`, the one voice the bot answers with.
"""
