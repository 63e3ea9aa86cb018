"""The Discord adapter: the only package that imports discord.py. It is arranged by direction:

- `commands/` in: the /ttr slash commands, one cog per feature (and their autocomplete);
- `controls/` in: the persistent buttons and menus, what a click does, one move end to end
  (moves.py, shared by commands and clicks);
- `posting/` out: the outbox worker and the renderer of each kind of owed post and DM;
- `text/` the words, pure (text, alt texts), unit tested without Discord.

At the top: `bot.py` (the Bot subclass and its setup), `config.py`, the one error handler
(`errors.py`), acknowledging interactions (`ack.py`), membership, palettes, the command
translator and `client_of.py` (the bot an interaction came to, typed). The adapter reaches the
game only through `ttr_bot.service`. Nothing is imported here eagerly.
"""
