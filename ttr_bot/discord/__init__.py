"""The Discord adapter: the only package that imports discord.py.

`bot.py` (the Bot subclass and its setup), `cogs/` (the /ttr slash commands), `components.py`
(persistent buttons and menus), `delivery.py` (effects -> channel posts and DMs), `errors.py`
(the one error handler). `format.py`, `ids.py`, `pay.py` and `choices.py` are pure: they build
text, custom ids, payments and autocomplete choices without touching Discord, so they are unit
tested on their own. Nothing here is imported eagerly, so those pure modules load without
discord.py.
"""
