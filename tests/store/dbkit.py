"""One test's database on either driver, and the PostgreSQL test server behind them.

The store suite runs every test that uses the `store` (or `db`) fixture twice: on SQLite (a
file under tmp_path) and on PostgreSQL (a fresh database on one throwaway server per test
process, see ttr_bot/store/pgserver.py: each pytest-xdist worker starts its own, on its own
port and in its own directory); the service suite does so for its tests about the database
(tests/service/conftest.py). A `TestDB` gives a test what it needs
without knowing which: the setting to open a store with (`url`, `open_store()`), and raw access
past the store in the driver's own dialect (`execute`, `fetchall`, ...: `?` placeholders on
both) to inspect rows or to damage them as a crash, a disk or a hand edit would.

A test that can only be written against the SQLite file (it relies on SQLite's loose typing,
say) is marked `@pytest.mark.sqlite_only("why")`; its PostgreSQL run is skipped with that reason.

Without PostgreSQL's server programs the PostgreSQL runs are skipped with one line saying how to
get them, unless TTR_REQUIRE_PG=1 (CI sets it), which makes a missing server an error.
"""
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from ttr_bot.store import open_store
from ttr_bot.store.pgserver import INSTALL_HINT, ServerUnavailable, TempPostgres, find_bin_dir

DRIVERS = ("sqlite", "postgresql")
REQUIRE_PG = os.environ.get("TTR_REQUIRE_PG", "") not in ("", "0")
SKIP_REASON = (f"PostgreSQL tests skipped: no PostgreSQL server programs (initdb, pg_ctl) found; "
               f"to run them, {INSTALL_HINT}")
TEMPLATE = "ttr_migrated"      # a database at the newest schema, copied for each test


def to_dollar(sql: str) -> str:
    """`?` placeholders (outside quotes) to PostgreSQL's $1, $2, ..."""
    out, n, quote = [], 0, None
    for ch in sql:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


class TestDB(os.PathLike):
    """Base: what both drivers' test databases offer."""
    __test__ = False     # not a test class, despite the name
    driver: str
    url: str

    def open_store(self, **options: Any):
        """A store on this database, not yet opened (options for the other driver dropped)."""
        if self.driver == "postgresql":
            options.pop("busy_timeout", None)
        return open_store(self.url, **options)

    def fetchone(self, sql: str, *params: Any) -> tuple | None:
        rows = self.fetchall(sql, *params)
        return rows[0] if rows else None

    def scalar(self, sql: str, *params: Any) -> Any:
        row = self.fetchone(sql, *params)
        return row[0] if row else None

    def __repr__(self) -> str:
        return f"<{self.driver} test database {self.url}>"


class SqliteDB(TestDB):
    driver = "sqlite"

    def __init__(self, path: Path):
        self.path = Path(path)
        self.url = str(self.path)
        self._conn: sqlite3.Connection | None = None

    def __fspath__(self) -> str:
        return str(self.path)

    def __str__(self) -> str:
        return str(self.path)

    def conn(self) -> sqlite3.Connection:
        """A plain sqlite3 connection of the test's own (autocommit), kept for the test."""
        if self._conn is None:
            self._conn = sqlite3.connect(self.path, isolation_level=None)
        return self._conn

    def execute(self, sql: str, *params: Any) -> int:
        return self.conn().execute(sql, params).rowcount

    def fetchall(self, sql: str, *params: Any) -> list[tuple]:
        return [tuple(r) for r in self.conn().execute(sql, params).fetchall()]

    def unguard_log(self) -> None:
        """Let raw statements change or delete log rows and store what no check allows."""
        conn = self.conn()
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("DROP TRIGGER IF EXISTS actions_no_update")
        conn.execute("DROP TRIGGER IF EXISTS actions_no_delete")

    def failing_trigger(self, name: str, table: str, event: str, message: str) -> None:
        """Make `event` ("INSERT", "UPDATE OF column") on `table` fail with `message`."""
        self.conn().execute(f"CREATE TRIGGER {name} BEFORE {event} ON {table} "
                            f"BEGIN SELECT RAISE(ABORT, '{message}'); END")

    def drop_trigger(self, name: str, table: str) -> None:
        self.conn().execute(f"DROP TRIGGER {name}")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class PgDB(TestDB):
    driver = "postgresql"

    def __init__(self, server: TempPostgres, name: str):
        self.server = server
        self.name = name
        self.url = server.url(name)
        self._conn: Any = None

    def __fspath__(self) -> str:
        raise TypeError(f"{self!r} has no file: a test that opens the SQLite file directly is "
                        "marked @pytest.mark.sqlite_only('why'), or uses the TestDB helpers")

    def __str__(self) -> str:
        return self.url

    def _connection(self) -> Any:
        if self._conn is None:
            import asyncpg
            self._conn = self.server.run(asyncpg.connect(self.url))
        return self._conn

    def execute(self, sql: str, *params: Any) -> int:
        status = self.server.run(self._connection().execute(to_dollar(sql), *params))
        last = status.split()[-1]
        return int(last) if last.isdigit() else -1

    def fetchall(self, sql: str, *params: Any) -> list[tuple]:
        rows = self.server.run(self._connection().fetch(to_dollar(sql), *params))
        return [tuple(r) for r in rows]

    def unguard_log(self) -> None:
        """Let raw statements change or delete log rows, and hold text that is not JSON (the
        columns become text: damage the json type would refuse)."""
        self.execute("ALTER TABLE actions DISABLE TRIGGER actions_no_update")
        self.execute("ALTER TABLE actions DISABLE TRIGGER actions_no_delete")
        self.execute("ALTER TABLE actions ALTER COLUMN action TYPE text")
        self.execute("ALTER TABLE snapshots ALTER COLUMN state TYPE text")

    def failing_trigger(self, name: str, table: str, event: str, message: str) -> None:
        self.execute(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS "
                     f"$$ BEGIN RAISE EXCEPTION '{message}'; END $$")
        self.execute(f"CREATE TRIGGER {name} BEFORE {event} ON {table} "
                     f"FOR EACH ROW EXECUTE FUNCTION {name}()")

    def drop_trigger(self, name: str, table: str) -> None:
        self.execute(f"DROP TRIGGER {name} ON {table}")
        self.execute(f"DROP FUNCTION {name}()")

    def close(self) -> None:
        if self._conn is not None:
            try:
                self.server.run(self._conn.close())
            finally:
                self._conn = None
        self.server.drop_database(self.name)


# -- the server, once per test process ---------------------------------------------------------
class PgSession:
    """The run's server and the migrated template its test databases are copied from."""

    def __init__(self, server: TempPostgres):
        self.server = server
        self._template_ready = False
        self.databases = 0
        self.seconds_creating = 0.0

    def database(self, *, migrated: bool = True) -> PgDB:
        """A new database: at the newest schema (copied from a migrated template: faster than
        migrating each), or empty (for the migration tests)."""
        if migrated and not self._template_ready:
            self._make_template()
        started = time.monotonic()
        name = self.server.create_database(template=TEMPLATE if migrated else "template0")
        self.seconds_creating += time.monotonic() - started
        self.databases += 1
        return PgDB(self.server, name)

    def _make_template(self) -> None:
        self.server.create_database(TEMPLATE, template="template0")
        store = open_store(self.server.url(TEMPLATE))

        async def migrate():
            await store.open()
            await store.close()

        self.server.run(migrate())
        self.server.mark_template(TEMPLATE)
        self._template_ready = True


status = {"skipped": None, "server": None}   # what the run's summary line reports


def pg_session_fixture():
    """Body of the session fixture `pg_session` (tests/conftest.py): start the server or skip."""
    if find_bin_dir() is None:
        if REQUIRE_PG:
            pytest.fail(f"TTR_REQUIRE_PG is set but no PostgreSQL server programs were found; "
                        f"{INSTALL_HINT}", pytrace=False)
        status["skipped"] = SKIP_REASON
        pytest.skip(SKIP_REASON)
    try:
        server = TempPostgres().start()
    except ServerUnavailable as exc:
        if REQUIRE_PG:
            pytest.fail(f"the PostgreSQL test server did not start: {exc}", pytrace=False)
        status["skipped"] = f"PostgreSQL tests skipped: the test server did not start: {exc}"
        pytest.skip(status["skipped"])
    session = PgSession(server)
    status["server"] = session
    try:
        yield session
    finally:
        server.stop()


def make_test_db(request, driver: str, tmp_path: Path, *, migrated: bool = True) -> TestDB:
    """The database of one test for `driver` (the PostgreSQL one is dropped at teardown)."""
    if driver == "sqlite":
        db = SqliteDB(tmp_path / "ttr.db")
    else:
        marker = request.node.get_closest_marker("sqlite_only")
        if marker is not None:
            pytest.skip(f"SQLite only: {marker.args[0] if marker.args else 'see the test'}")
        db = request.getfixturevalue("pg_session").database(migrated=migrated)
    request.addfinalizer(db.close)
    return db


def summary_lines() -> list[str]:
    """For the end of the run: how the PostgreSQL tests went (one line each)."""
    if status["skipped"]:
        return [status["skipped"]]
    session = status["server"]
    if session is None:
        return []
    return [f"PostgreSQL test server: started in {session.server.startup_seconds:.1f} s; "
            f"{session.databases} test databases created in {session.seconds_creating:.1f} s"]
