"""The Discord side: the client, the presenter, views and components, renderers, errors.

This package and `cogs/` are the only code that imports `discord`. Below them: the table
service (`bot.table`), storage, the AI and the engine.
"""
