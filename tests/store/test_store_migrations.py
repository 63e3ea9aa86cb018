"""The schema comes up from nothing, upgrades from every older version, and refuses newer ones."""
import asyncio
import shutil
import sqlite3

import aiosqlite
import pytest

from ttr_bot.store import SqliteStore, StoreError
from ttr_bot.store.migrate import MIGRATIONS_DIR, discover, migrate, split_statements

NEWEST = discover()[-1].version
TABLES = {"games", "seats", "actions", "snapshots", "timers", "users", "results", "messages",
          "schema_version"}


def tables(conn):
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not r[0].startswith("sqlite_")}


def versions(conn):
    return [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]


def migrations_dir_with(tmp_path, extra_sql):
    """The real migrations plus a test-only 0002 (the next version), in a fresh directory."""
    directory = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, directory)
    (directory / f"{NEWEST + 1:04d}_test_extra.sql").write_text(extra_sql)
    return directory


@pytest.mark.asyncio
async def test_fresh_database_gets_newest_schema_and_durable_pragmas(store, raw_db):
    assert store.schema_version == NEWEST
    conn = raw_db()
    assert TABLES <= tables(conn)
    assert versions(conn) == list(range(1, NEWEST + 1))
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # synchronous and foreign_keys are per connection: check the store's own one.
    db = store._conn()
    assert (await db.execute_fetchall("PRAGMA synchronous"))[0][0] == 2  # FULL
    assert (await db.execute_fetchall("PRAGMA foreign_keys"))[0][0] == 1
    assert (await db.execute_fetchall("PRAGMA busy_timeout"))[0][0] >= 1000


@pytest.mark.asyncio
@pytest.mark.parametrize("start_version", range(0, NEWEST))
async def test_upgrade_from_each_older_version(tmp_path, db_path, raw_db, start_version):
    old_dir = tmp_path / "old"
    old_dir.mkdir()
    for m in discover()[:start_version]:
        shutil.copy(MIGRATIONS_DIR / m.name, old_dir / m.name)
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        assert await migrate(db, old_dir) == start_version
    async with SqliteStore(db_path) as s:
        assert s.schema_version == NEWEST
    assert versions(raw_db()) == list(range(1, NEWEST + 1))


@pytest.mark.asyncio
async def test_upgrade_to_a_new_migration_keeps_data(tmp_path, db_path, raw_db):
    async with SqliteStore(db_path) as s:
        game_id = await s.create_game(guild_id=1, channel_id=5, map="usa", variant="",
                                      options={}, seed=1, host_id=2, now=1.0)
    directory = migrations_dir_with(tmp_path, """
        ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'kept';
        CREATE TABLE extra (id INTEGER PRIMARY KEY, text TEXT DEFAULT 'a;b');  -- ';' in a string
    """)
    async with SqliteStore(db_path, migrations_dir=directory) as s:
        assert s.schema_version == NEWEST + 1
        game = await s.get_game(game_id)
        assert game is not None and game.channel_id == 5
    conn = raw_db()
    assert versions(conn) == list(range(1, NEWEST + 2))
    assert conn.execute("SELECT note FROM games WHERE id = ?", (game_id,)).fetchone() == ("kept",)
    assert "extra" in tables(conn)


@pytest.mark.asyncio
async def test_failed_migration_rolls_back_to_last_good_version(tmp_path, db_path, raw_db):
    async with SqliteStore(db_path):
        pass
    directory = migrations_dir_with(tmp_path, """
        CREATE TABLE half_done (id INTEGER);
        INSERT INTO no_such_table VALUES (1);
    """)
    with pytest.raises(StoreError, match="test_extra.*no such table"):
        await SqliteStore(db_path, migrations_dir=directory).open()
    conn = raw_db()
    assert versions(conn) == list(range(1, NEWEST + 1))
    assert "half_done" not in tables(conn)
    async with SqliteStore(db_path) as s:  # the current bot still starts
        assert s.schema_version == NEWEST


@pytest.mark.asyncio
async def test_newer_database_is_refused_with_a_clear_message(db_path, raw_db):
    async with SqliteStore(db_path):
        pass
    raw_db().execute("INSERT INTO schema_version VALUES (7, '0007_future.sql', 0)")
    with pytest.raises(StoreError) as caught:
        await SqliteStore(db_path).open()
    assert str(caught.value) == (
        f"database schema version 7 is newer than this bot (knows up to {NEWEST}); "
        "upgrade the bot"
    )


@pytest.mark.asyncio
async def test_reopening_applies_nothing_twice(db_path, raw_db):
    for _ in range(3):
        async with SqliteStore(db_path) as s:
            assert s.schema_version == NEWEST
    assert versions(raw_db()) == list(range(1, NEWEST + 1))


@pytest.mark.asyncio
async def test_concurrent_first_starts_migrate_once(tmp_path):
    """Several connections opening a new file at once (switching it to WAL, migrating) all
    come up; repeated on fresh files because the collision is a matter of timing."""
    for round_ in range(10):
        path = tmp_path / f"race{round_}.db"
        stores = [SqliteStore(path) for _ in range(8)]
        try:
            await asyncio.gather(*(s.open() for s in stores))
            assert all(s.schema_version == NEWEST for s in stores)
        finally:
            for s in stores:
                await s.close()
        conn = sqlite3.connect(path)
        try:
            assert versions(conn) == list(range(1, NEWEST + 1))
        finally:
            conn.close()


def test_misnumbered_migration_directories_are_rejected(tmp_path):
    gap = tmp_path / "gap"
    gap.mkdir()
    (gap / "0001_a.sql").write_text("CREATE TABLE a (x);")
    (gap / "0003_c.sql").write_text("CREATE TABLE c (x);")
    with pytest.raises(StoreError, match="expected version 2"):
        discover(gap)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "initial.sql").write_text("")
    with pytest.raises(StoreError, match="not named like"):
        discover(bad)


def test_split_statements_respects_strings_comments_and_triggers():
    script = """
        CREATE TABLE t (x TEXT DEFAULT ';');  -- a comment; with a semicolon
        CREATE TRIGGER tr BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'no;'); SELECT 1; END;
        /* block; comment */
        INSERT INTO t VALUES ('last')
    """
    statements = [s for s in split_statements(script) if s.strip(" ;\n")]
    conn = sqlite3.connect(":memory:")
    for statement in statements:
        conn.execute(statement)
    assert conn.execute("SELECT x FROM t").fetchall() == [("last",)]
    with pytest.raises(sqlite3.IntegrityError, match="no;"):
        conn.execute("DELETE FROM t")
    with pytest.raises(StoreError, match="inside a statement"):
        split_statements("SELECT 'unterminated")


@pytest.mark.asyncio
async def test_upgrade_to_seat_handover_keeps_seats_and_results(tmp_path, db_path, raw_db):
    """A database from before computer players could take over seats (version 1), with a game
    in play and a finished one: after the upgrade both read back, nobody has a former seat,
    and a seat of the game in play can be handed to a computer player."""
    old_dir = tmp_path / "v1"
    old_dir.mkdir()
    shutil.copy(MIGRATIONS_DIR / discover()[0].name, old_dir / discover()[0].name)
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        assert await migrate(db, old_dir) == 1
    conn = raw_db()
    for game_id, status in ((1, "active"), (2, "finished")):
        conn.execute("INSERT INTO games (id, channel_id, map, seed, status, host_id, created_at, "
                     "updated_at) VALUES (?, ?, 'usa', 1, ?, 10, 0, 0)", (game_id, game_id, status))
        conn.execute("INSERT INTO seats (game_id, seat, user_id, display_name) "
                     "VALUES (?, 0, 10, 'Ann')", (game_id,))
        conn.execute("INSERT INTO seats (game_id, seat, user_id, display_name) "
                     "VALUES (?, 1, 11, 'Bob')", (game_id,))
    conn.execute("INSERT INTO snapshots VALUES (1, 0, '{}', 0)")
    conn.execute("INSERT INTO results VALUES (2, 0, 10, 80, 1, 1, 3, 'usa', '', 5)")
    async with SqliteStore(db_path) as s:
        assert s.schema_version == NEWEST >= 2
        assert [(x.user_id, x.former_user_id) for x in await s.list_seats(1)] == [
            (10, None), (11, None)]
        [result] = await s.results_for_user(10, include_left=True)
        assert (result.game_id, result.score, result.former_user_id) == (2, 80, None)
        seat = await s.hand_seat_to_bot(1, 1, bot_level=2, display_name="Bob (bot)")
        assert (seat.user_id, seat.former_user_id) == (None, 11)
