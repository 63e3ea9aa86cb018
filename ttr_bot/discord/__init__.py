"""The Discord adapter: the only package that imports discord.py.

`bot.py` (the Bot subclass and its setup), `cogs/` (the /ttr slash commands), `components.py`
(persistent buttons and menus), `moves.py` (one action end to end, shared by commands and
buttons), `delivery.py` (effects -> channel posts and DMs), `errors.py` (the one error
handler). `format.py`, `ids.py` and `pay.py` are pure (text, custom ids, payments), and
`autocomplete.py` computes its choices purely from a player's view, so they are unit tested
without Discord. Nothing is imported here eagerly.
"""
