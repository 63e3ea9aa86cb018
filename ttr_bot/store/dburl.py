"""Database settings: which driver a setting names, and how to print one without its password.

    "ttr.sqlite3", "sqlite:///ttr.sqlite3", "sqlite:////abs/path"   SQLite
    "postgresql://user:pw@host:5432/ttr", "postgres://..."          PostgreSQL
"""
import re
from pathlib import Path

SQLITE_PREFIX = "sqlite:///"
PG_PREFIXES = ("postgresql://", "postgres://")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def parse_db_url(value: str | Path) -> tuple[str, str]:
    """("sqlite", path) or ("postgresql", dsn). ValueError for another scheme."""
    if isinstance(value, Path):
        return "sqlite", str(value)
    text = str(value).strip()
    if not text:
        raise ValueError("the database setting is empty")
    if text.startswith(PG_PREFIXES):
        return "postgresql", text
    if text.startswith(SQLITE_PREFIX):
        path = text[len(SQLITE_PREFIX):]
        if not path:
            raise ValueError(f"{text!r} names no file: use sqlite:///relative/path or "
                             "sqlite:////absolute/path")
        return "sqlite", path
    match = _SCHEME.match(text)
    if match:
        scheme = match.group(1)
        raise ValueError(f"unknown database URL scheme {scheme!r} in {redact(text)!r}: use a "
                         "file path, sqlite:///path or postgresql://...")
    return "sqlite", text


def redact(url: str) -> str:
    """A database URL without its password, for messages and logs."""
    head, sep, tail = str(url).partition("://")
    if not sep or "@" not in tail.split("/", 1)[0]:
        return str(url)
    credentials, _, rest = tail.partition("/")[0].rpartition("@")
    path = tail[len(tail.partition("/")[0]):]
    user = credentials.split(":", 1)[0]
    return f"{head}://{user}{':***' if ':' in credentials else ''}@{rest}{path}"
