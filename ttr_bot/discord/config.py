"""The bot's configuration, from the environment (and a .env file if there is one).

DISCORD_TOKEN   the bot's token (Discord developer portal -> your application -> Bot)
TTR_DB          the database: an SQLite file (default ./ttr.sqlite3, also sqlite:///path) or a
                postgresql://user:password@host/dbname URL (docs/postgresql.md)
TTR_WORKERS     worker processes for computer players and pictures (default: one per core; 0:
                none, the work runs in threads of the bot's process, competing with it)
TTR_DEV_GUILD   a server id: `python bot.py sync` pushes the commands there (instant) by default
TTR_LOG_LEVEL   DEBUG, INFO (default), WARNING, ERROR
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
    return Config(token=token, db_path=(environ.get("TTR_DB") or "").strip() or DEFAULT_DB,
                  dev_guild=int(guild) if guild else None, log_level=level,
                  workers=int(workers) if workers else None)
