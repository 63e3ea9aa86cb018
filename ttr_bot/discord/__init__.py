"""The Discord adapter: the only package that imports discord.py.

`bot.py` (the Bot subclass and its setup), `cogs/` (the /ttr slash commands), `components.py`
(how the persistent buttons and menus look), `clicks.py` (what a click of each kind does: the
controllers register there), `moves.py` (one move end to end, shared by commands and clicks),
`delivery.py` (owed messages -> channel posts and DMs; `outbox_worker.py` sends them, `hands.py` keeps each player's hand message), `errors.py` (the one error handler).
`format.py`, `ids.py` and `payment_choices.py` are pure (text, custom ids, which payments to
offer), and `autocomplete.py` computes its choices purely from a player's view, so they are
unit tested without Discord. The adapter reaches the game only through `ttr_bot.service`.
Nothing is imported here eagerly.
"""
