"""What `bot.py migrate-db` (transfer.py) copies: every table with its columns' kinds and key, and
each row in a form both drivers agree on (`normal_row`), which the copy writes and the
verification compares."""
from dataclasses import dataclass
from typing import Any

from .errors import StoreError


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    kinds: tuple[str, ...]     # per column: int, float, text, json, bool
    key: tuple[str, ...]
    identity: str | None = None   # the id column fed by a sequence
    label: str = ""


def _table(name: str, spec: str, key: str, identity: str | None = None, label: str = "") -> Table:
    pairs = [item.split(":") for item in spec.split()]
    return Table(name, tuple(c for c, _ in pairs), tuple(k for _, k in pairs),
                 tuple(key.split(",")), identity, label or name)


# Parents before children (foreign keys are checked as rows arrive).
TABLES = (
    _table("games", "id:int guild_id:int channel_id:int map:text variant:text options:json "
           "seed:int status:text host_id:int created_at:float updated_at:float "
           "finished_at:float seq:int end_reason:text", "id", identity="id"),
    _table("seats", "game_id:int seat:int user_id:int display_name:text bot_level:int "
           "notify:json former_user_id:int timeouts:int handover:text human_turns:int",
           "game_id,seat"),
    _table("actions", "game_id:int seq:int actor:int action:json created_at:float",
           "game_id,seq"),
    _table("snapshots", "game_id:int seq:int state:json updated_at:float", "game_id"),
    _table("timers", "id:int game_id:int kind:text due_at:float payload:json created_at:float "
           "attempts:int", "id", identity="id"),
    _table("users", "user_id:int locale:text dms_closed:bool updated_at:float notify:json "
           "palette:text",
           "user_id", label="user settings"),
    _table("away", "user_id:int guild_id:int since:float until:float", "user_id,guild_id",
           label="away periods"),
    _table("away_log", "user_id:int guild_id:int since:float until:float",
           "user_id,guild_id,since", label="away periods taken"),
    _table("results", "game_id:int seat:int user_id:int score:int rank:int won:bool "
           "tickets_completed:int map:text variant:text finished_at:float former_user_id:int "
           "guild_id:int name:text tickets_failed:int longest_bonus:bool turns_human:int "
           "turns_total:int handover:text rated:bool", "game_id,seat"),
    _table("ratings", "scope:int user_id:int mu:float sigma:float value:float games:int "
           "updated_at:float", "scope,user_id"),
    _table("rated_games", "seq:int game_id:int rated_at:float", "seq", identity="seq",
           label="rated games"),
    _table("rating_changes", "game_id:int scope:int user_id:int mu_before:float "
           "sigma_before:float mu_after:float sigma_after:float", "game_id,scope,user_id",
           label="rating changes"),
    _table("messages", "game_id:int kind:text channel_id:int message_id:int updated_at:float",
           "game_id,kind", label="message references"),
    _table("outbox", "id:int game_id:int kind:text lane:text payload:json key:text held:bool "
           "seq:int due_at:float created_at:float attempts:int sent_at:float error:text", "id",
           identity="id", label="owed messages"),
    _table("votes", "id:int game_id:int kind:text target_seat:int proposer:int voters:json "
           "ballots:json status:text created_at:float expires_at:float closed_at:float", "id",
           identity="id"),
    _table("guild_settings", "guild_id:int locale:text updated_at:float timezone:text cup_role:int",
           "guild_id", label="server settings"),
    _table("season_settings", "guild_id:int period:text channel_id:int role_id:int set_by:int "
           "updated_at:float", "guild_id", label="season settings"),
    _table("seasons_closed", "guild_id:int season:text champion_id:int closed_at:float "
           "started_at:float ended_at:float",
           "guild_id,season", label="seasons closed"),
    _table("boards", "guild_id:int channel_id:int message_id:int digest:text owed_at:float "
           "ticked_at:float refused_at:float set_by:int set_at:float", "guild_id",
           label="live boards"),
)
BY_NAME = {t.name: t for t in TABLES}
BATCH = 2000



class CopyError(StoreError):
    """The copy was refused or failed, or the copy does not verify; the message says why."""


# -- values both drivers agree on ---------------------------------------------------------------------
def normal_row(table: Table, row: Any) -> tuple:
    """A row as plain values of its columns' kinds: what the target is given and what the
    verification compares. Refuses a value of the wrong kind (SQLite's columns can hold any)."""
    out: list[Any] = []
    for column, kind, value in zip(table.columns, table.kinds, tuple(row)):
        if value is None:
            out.append(None)
        elif kind == "int" and isinstance(value, int) and not isinstance(value, bool):
            out.append(value)
        elif kind == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append(float(value))
        elif kind == "bool" and isinstance(value, (bool, int)) and value in (0, 1):
            out.append(bool(value))
        elif kind in ("text", "json") and isinstance(value, str):
            out.append(value)
        else:
            key = {c: v for c, v in zip(table.columns, tuple(row)) if c in table.key}
            raise CopyError(f"{table.name} row {key}: column {column} holds {value!r}, "
                            f"which is not {kind}; repair the source first")
    return tuple(out)


def row_key(table: Table, row: tuple) -> dict[str, Any]:
    return {c: v for c, v in zip(table.columns, row) if c in table.key}


