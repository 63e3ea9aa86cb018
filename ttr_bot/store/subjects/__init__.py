"""The store's subjects: one small protocol per subject (games, seats, the action log, results
and ratings, preferences, away periods, votes, the outbox, timers, the bot's messages, and the
optional subjects seasons and the live board (community.py) and cups), each implemented in SQL
by the module of the same name in `sql/`. `Store` (base.py) is every one of them; a service part
is given the subjects it needs, typed as these protocols, and sees only their operations."""
