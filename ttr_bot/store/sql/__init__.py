"""Every store operation, written once for both drivers: `SqlStore` is `Store` in SQL, one module
per subject (games.py, seats.py, log.py, results.py, prefs.py, away.py, votes.py, outbox.py,
timers.py, messages.py, community.py, cups.py) over what they share (base.py: the connection
protocol, the driver's part, the helpers used inside transactions; finish.py: ending a game).

The SQL is PostgreSQL's dialect with numbered parameters (`$1`); the SQLite driver rewrites
each text once (sqlite.py's `to_sqlite`: `$n` -> `?n`, casts dropped, `= ANY($n)` -> a
`json_each` list, `FOR UPDATE` dropped, `GREATEST` -> `MAX`, `IS NOT DISTINCT FROM` -> `IS`),
the approach of the aiosql library. A driver supplies:
- a small connection protocol (`Conn`): `_tx()` one transaction, `_auto` one statement in its
  own transaction; `execute` returns the rows it touched;
- its errors: `IntegrityError` (what a broken key or check raises) and `_violation(exc)`
  ('unique', 'foreign_key' or 'other'), so each refusal maps to the store's own error here;
- `NO_LIMIT` (what LIMIT takes for "all");
- what truly differs: `lock_game` (PostgreSQL's advisory lock), `claim_timers` (SKIP LOCKED),
  `_lock_ratings` (advisory locks on users' ratings), `APPEND_ALONE` (PostgreSQL's ordinary
  append as one data-modifying WITH), connecting and migrating.
Nothing here imports a database library (tests/test_architecture.py).
"""
from ..base import Store
from .away import AwaySql
from .base import Conn, SqlBase
from .community import CommunitySql
from .cups import CupSql
from .games import GamesSql
from .log import LogSql
from .messages import MessagesSql
from .outbox import OutboxSql
from .prefs import PrefsSql
from .results import ResultsSql
from .seats import SeatsSql
from .timers import TimersSql
from .votes import VotesSql

__all__ = ["Conn", "SqlBase", "SqlStore"]


class SqlStore(GamesSql, SeatsSql, LogSql, ResultsSql, PrefsSql, AwaySql, VotesSql, OutboxSql,
               TimersSql, MessagesSql, CommunitySql, CupSql, Store):
    """`Store` in SQL: each subject's operations from its module; a driver (sqlite.py,
    postgres.py) supplies the connection and what truly differs (see the module's docstring)."""
