"""The bot's configuration, from the environment (and a .env file if there is one).

DISCORD_TOKEN   the bot's token (Discord developer portal -> your application -> Bot)
TTR_DB          the database: an SQLite file (default ./ttr.sqlite3, also sqlite:///path) or a
                postgresql://user:password@host/dbname URL (docs/postgresql.md)
TTR_WORKERS     worker processes for computer players and pictures (default: one per core; 0:
                none, the work runs in threads of the bot's process, competing with it)
TTR_DEV_GUILD   a server id: `python bot.py sync` pushes the commands there (instant) by default
TTR_LOG_LEVEL   DEBUG, INFO (default), WARNING, ERROR
TTR_SHARD_COUNT several processes (docs/scaling.md): how many gateway shards the bot has in all
TTR_SHARD_IDS   the shards this process runs, e.g. 0,1 (default: all of them); it serves only
                the guilds on them: (guild_id >> 22) % TTR_SHARD_COUNT
TTR_SYNC        1: push the slash commands at start (as `python bot.py sync` does), only in the
                process that runs shard 0, so exactly one does; 0 (default): only when asked
"""
import logging
import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "./ttr.sqlite3"


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Config:
    token: str | None
    db_path: str = DEFAULT_DB
    dev_guild: int | None = None
    log_level: int = logging.INFO
    workers: int | None = None     # None: one per core
    shard_count: int | None = None          # None: one process, discord.py's plain Bot
    shard_ids: tuple[int, ...] | None = None
    sync_at_start: bool = False
    expert_seconds: float | None = None     # TTR_EXPERT_SECONDS; None: expert's default

    @property
    def sharded(self):
        return self.shard_count is not None

    @property
    def my_shards(self):
        """(count, ids) of the shards this process serves."""
        count = self.shard_count or 1
        return count, self.shard_ids if self.shard_ids is not None else tuple(range(count))

    @property
    def syncs_commands(self):
        """Whether this process pushes the commands at start: asked to, and it runs shard 0."""
        return self.sync_at_start and 0 in self.my_shards[1]


def load(environ=None, dotenv=".env"):
    """Read the configuration. With `environ` None the process environment is used, after
    loading `dotenv` if that file exists (values already set in the environment win)."""
    if environ is None:
        if dotenv and Path(dotenv).is_file():
            from dotenv import load_dotenv
            load_dotenv(dotenv, override=False)
        environ = os.environ
    token = (environ.get("DISCORD_TOKEN") or "").strip() or None
    guild = (environ.get("TTR_DEV_GUILD") or "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"TTR_DEV_GUILD must be a server id (digits), not {guild!r}")
    level_name = (environ.get("TTR_LOG_LEVEL") or "INFO").strip().upper()
    level = logging.getLevelName(level_name)
    if not isinstance(level, int):
        raise ConfigError(f"TTR_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level_name!r}")
    workers = (environ.get("TTR_WORKERS") or "").strip()
    if workers and not workers.isdigit():
        raise ConfigError(f"TTR_WORKERS must be a number of worker processes (0 or more), "
                          f"not {workers!r}")
    count, ids = _shards(environ)
    sync = (environ.get("TTR_SYNC") or "0").strip().lower()
    if sync not in ("0", "1", "no", "yes", "false", "true"):
        raise ConfigError(f"TTR_SYNC must be 1 (push the commands at start) or 0, not {sync!r}")
    expert = (environ.get("TTR_EXPERT_SECONDS") or "").strip()
    try:
        expert_seconds = float(expert) if expert else None
    except ValueError:
        expert_seconds = -1.0
    if expert_seconds is not None and not 0 < expert_seconds <= 20:
        raise ConfigError(f"TTR_EXPERT_SECONDS must be the seconds the expert computer player "
                          f"thinks per decision (more than 0, at most 20), not {expert!r}")
    return Config(token=token, db_path=(environ.get("TTR_DB") or "").strip() or DEFAULT_DB,
                  dev_guild=int(guild) if guild else None, log_level=level,
                  workers=int(workers) if workers else None, shard_count=count,
                  shard_ids=ids, sync_at_start=sync in ("1", "yes", "true"),
                  expert_seconds=expert_seconds)


def _shards(environ):
    """(TTR_SHARD_COUNT, TTR_SHARD_IDS) checked: ids need a count, each below it, no repeats."""
    count_text = (environ.get("TTR_SHARD_COUNT") or "").strip()
    ids_text = (environ.get("TTR_SHARD_IDS") or "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("TTR_SHARD_IDS needs TTR_SHARD_COUNT (how many shards the bot "
                              "has in all, across its processes)")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"TTR_SHARD_COUNT must be a whole number of shards, 1 or more, not "
                          f"{count_text!r}")
    count = int(count_text)
    if not ids_text:
        return count, None
    parts = [p.strip() for p in ids_text.split(",")]
    if not all(p.isdigit() for p in parts):
        raise ConfigError(f"TTR_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), "
                          f"not {ids_text!r}")
    ids = tuple(int(p) for p in parts)
    wrong = [i for i in ids if i >= count]
    if wrong:
        raise ConfigError(f"TTR_SHARD_IDS {ids_text!r}: shard {wrong[0]} does not exist with "
                          f"TTR_SHARD_COUNT={count} (shards are numbered 0 to {count - 1})")
    if len(set(ids)) != len(ids):
        raise ConfigError(f"TTR_SHARD_IDS {ids_text!r} names a shard twice")
    return count, ids
