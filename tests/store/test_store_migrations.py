"""The schema comes up from nothing, upgrades from every older version, and refuses newer ones,
on both drivers; both dialects' migration files exist for every version; and a database made
before PostgreSQL existed (files named 0001_initial.sql, ...) opens and migrates unchanged."""
import asyncio
import hashlib
import shutil
import sqlite3

import aiosqlite
import pytest

from tests.store.dbkit import make_test_db
from ttr_bot.store import SqliteStore, StoreError
from ttr_bot.store.schema import MIGRATIONS_DIR, discover, migrate, split_statements

NEWEST = discover()[-1].version
NAMES = [m.name for m in discover()]        # as recorded in schema_version
TABLES = {"games", "seats", "actions", "snapshots", "timers", "users", "results", "messages",
          "ratings", "rated_games", "rating_changes", "schema_version"}
# A migration that has been released is never edited (databases already ran it): a change is a
# new number. The files as released:
RELEASED = {
    "0001_initial.sqlite.sql": "21866d4896e4d468c67532ba1d995c47dbeea9360dbddad3a242bf74c430a853",
    "0002_seat_handover.sqlite.sql":
        "240f7569285aebf19e510d3f74c927bc9bed31d3d6cb077aa9763ff4f55e3033",
    "0001_initial.pg.sql": "53bff2e8d57db4218a23a0adfcb07cef5a2d33ee88e9e973f71a5bf2a5cecc27",
    "0002_seat_handover.pg.sql": "d30a6e92a5e568c3bf4ad4adbb1fa3574c7f3d16972182df43b7f01a61d09c3e",
}
# what the files were called before there were two dialects (their SQLite text is unchanged)
OLD_FILE_NAMES = ["0001_initial.sql", "0002_seat_handover.sql"]


def tables(db):
    if db.driver == "sqlite":
        rows = db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        rows = db.fetchall("SELECT table_name FROM information_schema.tables "
                           "WHERE table_schema = 'public'")
    return {r[0] for r in rows if not r[0].startswith("sqlite_")}


def versions(db):
    return [tuple(r) for r in db.fetchall("SELECT version, name FROM schema_version "
                                          "ORDER BY version")]


def current(upto=NEWEST):
    return [(m.version, m.name) for m in discover()[:upto]]


def first_migrations(tmp_path, n, name="old"):
    """A directory with both dialects' files of the first n migrations."""
    directory = tmp_path / name
    directory.mkdir()
    for m in discover()[:n]:
        for path in MIGRATIONS_DIR.glob(f"{m.version:04d}_*.sql"):
            shutil.copy(path, directory / path.name)
    return directory


def migrations_dir_with(tmp_path, extra_sql, pg_sql=None):
    """The real migrations plus a test-only next version (for both dialects: the same SQL unless
    `pg_sql` is given), in a fresh directory."""
    directory = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, directory)
    (directory / f"{NEWEST + 1:04d}_test_extra.sqlite.sql").write_text(extra_sql)
    (directory / f"{NEWEST + 1:04d}_test_extra.pg.sql").write_text(pg_sql or extra_sql)
    return directory



# -- both drivers ----------------------------------------------------------------------------------
@pytest.mark.asyncio
async def test_fresh_database_gets_newest_schema(empty_db):
    async with empty_db.open_store() as s:
        assert s.schema_version == NEWEST
    assert TABLES <= tables(empty_db)
    assert versions(empty_db) == current()


@pytest.mark.asyncio
@pytest.mark.parametrize("start_version", range(0, NEWEST))
async def test_upgrade_from_each_older_version(tmp_path, empty_db, start_version):
    async with empty_db.open_store(migrations_dir=first_migrations(tmp_path, start_version)) as s:
        assert s.schema_version == start_version
    async with empty_db.open_store() as s:
        assert s.schema_version == NEWEST
    assert versions(empty_db) == current()


@pytest.mark.asyncio
async def test_upgrade_to_a_new_migration_keeps_data(tmp_path, empty_db):
    async with empty_db.open_store() as s:
        game_id = await s.create_game(guild_id=1, channel_id=5, map="usa", variant="",
                                      options={}, seed=1, host_id=2, now=1.0)
    directory = migrations_dir_with(tmp_path, """
        ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'kept';
        CREATE TABLE extra (id INTEGER PRIMARY KEY, text TEXT DEFAULT 'a;b');  -- ';' in a string
    """)
    async with empty_db.open_store(migrations_dir=directory) as s:
        assert s.schema_version == NEWEST + 1
        game = await s.get_game(game_id)
        assert game is not None and game.channel_id == 5
    assert [v for v, _ in versions(empty_db)] == list(range(1, NEWEST + 2))
    assert versions(empty_db)[-1] == (NEWEST + 1, f"{NEWEST + 1:04d}_test_extra.sql")
    assert empty_db.fetchone("SELECT note FROM games WHERE id = ?", game_id) == ("kept",)
    assert "extra" in tables(empty_db)


@pytest.mark.asyncio
async def test_failed_migration_rolls_back_to_last_good_version(tmp_path, empty_db):
    async with empty_db.open_store():
        pass
    directory = migrations_dir_with(tmp_path, """
        CREATE TABLE half_done (id INTEGER);
        INSERT INTO no_such_table VALUES (1);
    """)
    with pytest.raises(StoreError, match="test_extra.*(no such table|does not exist)"):
        await empty_db.open_store(migrations_dir=directory).open()
    assert versions(empty_db) == current()
    assert "half_done" not in tables(empty_db)
    async with empty_db.open_store() as s:  # the current bot still starts
        assert s.schema_version == NEWEST


@pytest.mark.asyncio
async def test_newer_database_is_refused_with_a_clear_message(empty_db):
    async with empty_db.open_store():
        pass
    future = NEWEST + 1      # whatever the newest migration is today
    empty_db.execute(f"INSERT INTO schema_version VALUES ({future}, '{future:04d}_future.sql', 0)")
    with pytest.raises(StoreError) as caught:
        await empty_db.open_store().open()
    # it names the database (the file, or the URL without its password) and the remedy
    message = str(caught.value)
    assert message.endswith(f": database schema version {future} is newer than this bot (knows up to "
                            f"{NEWEST}); upgrade the bot"), message
    where = message.split(": database schema")[0]
    assert where and (where in str(empty_db.url) or str(empty_db.url).endswith(where)), message


@pytest.mark.asyncio
async def test_reopening_applies_nothing_twice(empty_db):
    for _ in range(3):
        async with empty_db.open_store() as s:
            assert s.schema_version == NEWEST
    assert versions(empty_db) == current()


@pytest.mark.asyncio
async def test_concurrent_first_starts_migrate_once(request, driver, tmp_path):
    """Several stores opening a new database at once (SQLite: switching it to WAL too) all come
    up; repeated on fresh databases because the collision is a matter of timing."""
    for round_ in range(10 if driver == "sqlite" else 4):
        fresh = make_test_db(request, driver, tmp_path / f"race{round_}", migrated=False)
        (tmp_path / f"race{round_}").mkdir()
        stores = [fresh.open_store() for _ in range(8)]
        try:
            await asyncio.gather(*(s.open() for s in stores))
            assert all(s.schema_version == NEWEST for s in stores)
        finally:
            for s in stores:
                await s.close()
        assert versions(fresh) == current()


@pytest.mark.asyncio
async def test_upgrade_to_seat_handover_keeps_seats_and_results(tmp_path, empty_db):
    """A database from before computer players could take over seats (version 1), with a game
    in play and a finished one: after the upgrade both read back, nobody has a former seat,
    and a seat of the game in play can be handed to a computer player."""
    async with empty_db.open_store(migrations_dir=first_migrations(tmp_path, 1)) as s:
        assert s.schema_version == 1
    db = empty_db
    for game_id, status in ((1, "active"), (2, "finished")):
        db.execute("INSERT INTO games (id, channel_id, map, seed, status, host_id, created_at, "
                   "updated_at) VALUES (?, ?, 'usa', 1, ?, 10, 0, 0)", game_id, game_id, status)
        db.execute("INSERT INTO seats (game_id, seat, user_id, display_name) "
                   "VALUES (?, 0, 10, 'Ann')", game_id)
        db.execute("INSERT INTO seats (game_id, seat, user_id, display_name) "
                   "VALUES (?, 1, 11, 'Bob')", game_id)
    db.execute("INSERT INTO snapshots VALUES (1, 0, '{}', 0)")
    db.execute("INSERT INTO results VALUES (2, 0, 10, 80, 1, TRUE, 3, 'usa', '', 5)")
    async with db.open_store() as s:
        assert s.schema_version == NEWEST >= 2
        assert [(x.user_id, x.former_user_id) for x in await s.list_seats(1)] == [
            (10, None), (11, None)]
        [result] = await s.results_for_user(10, include_left=True)
        assert (result.game_id, result.score, result.former_user_id) == (2, 80, None)
        seat = await s.hand_seat_to_bot(1, 1, bot_level=2, display_name="Bob (bot)")
        assert (seat.user_id, seat.former_user_id) == (None, 11)


# -- the migration files ---------------------------------------------------------------------------
def test_released_migrations_are_never_edited():
    for name, digest in RELEASED.items():
        text = (MIGRATIONS_DIR / name).read_bytes()
        assert hashlib.sha256(text).hexdigest() == digest, (
            f"{name} was released and databases already ran it: add a new migration instead")


def test_every_version_exists_for_both_dialects_under_one_name():
    sqlite_side, pg_side = discover(dialect="sqlite"), discover(dialect="postgresql")
    assert [(m.version, m.name) for m in sqlite_side] == [(m.version, m.name) for m in pg_side]
    assert [m.name for m in sqlite_side][:2] == OLD_FILE_NAMES
    assert all(m.path.name.endswith(".sqlite.sql") for m in sqlite_side)
    assert all(m.path.name.endswith(".pg.sql") for m in pg_side)


def test_misnumbered_or_half_migration_directories_are_rejected(tmp_path):
    def directory(name, files):
        d = tmp_path / name
        d.mkdir()
        for file in files:
            (d / file).write_text("CREATE TABLE a (x INTEGER);")
        return d

    both = lambda *stems: [f"{s}.{d}.sql" for s in stems for d in ("sqlite", "pg")]
    with pytest.raises(StoreError, match="expected version 2"):
        discover(directory("gap", both("0001_a", "0003_c")))
    with pytest.raises(StoreError, match="not named like"):
        discover(directory("bad", ["initial.sql"]))
    with pytest.raises(StoreError, match="not named like"):   # the old single-dialect name
        discover(directory("old", ["0001_initial.sql"]))
    with pytest.raises(StoreError, match=r"0002_b.sql has no \.pg\.sql file"):
        discover(directory("half", [*both("0001_a"), "0002_b.sqlite.sql"]))
    with pytest.raises(StoreError, match="different names per dialect"):
        discover(directory("names", [*both("0001_a"), "0002_b.sqlite.sql", "0002_c.pg.sql"]))
    with pytest.raises(ValueError):
        discover(MIGRATIONS_DIR, dialect="mysql")


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


# -- SQLite only -------------------------------------------------------------------------------------
@pytest.mark.asyncio
async def test_sqlite_database_gets_durable_pragmas(db_path, raw_db):
    async with SqliteStore(db_path) as store:
        assert raw_db().execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        # synchronous and foreign_keys are per connection: check the store's own one.
        db = store._conn()
        assert (await db.execute_fetchall("PRAGMA synchronous"))[0][0] == 2  # FULL
        assert (await db.execute_fetchall("PRAGMA foreign_keys"))[0][0] == 1
        assert (await db.execute_fetchall("PRAGMA busy_timeout"))[0][0] >= 1000


@pytest.mark.asyncio
async def test_a_database_made_before_postgresql_opens_unchanged(db_path, raw_db):
    """What the code before the PostgreSQL driver did: 0001_initial.sql and
    0002_seat_handover.sql (the text the .sqlite.sql files still hold) applied and recorded
    under those names. Such a file opens at its version, keeps its rows, gets nothing applied
    again, and has exactly the schema a new database gets."""
    conn = raw_db()
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                 " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
    for version, name in enumerate(OLD_FILE_NAMES, start=1):
        sql = (MIGRATIONS_DIR / name.replace(".sql", ".sqlite.sql")).read_text()
        conn.execute("BEGIN")
        for statement in split_statements(sql):
            conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (?, ?, 1234.5)", (version, name))
        conn.execute("COMMIT")
    conn.execute("INSERT INTO games (channel_id, map, seed, host_id, created_at, updated_at) "
                 "VALUES (7, 'usa', 3, 10, 1, 1)")
    before = conn.execute("SELECT * FROM schema_version").fetchall()
    async with SqliteStore(db_path) as s:
        assert s.schema_version == NEWEST
        assert (await s.find_open_game(7)).seed == 3
        await s.add_seat(1, 0, user_id=10, display_name="Ann")
    assert conn.execute("SELECT * FROM schema_version").fetchall()[:2] == before

    def schema(path):
        c = sqlite3.connect(path)
        try:
            return sorted(c.execute("SELECT type, name, sql FROM sqlite_master "
                                    "WHERE name NOT LIKE 'sqlite_%'").fetchall())
        finally:
            c.close()

    fresh = db_path.with_name("fresh.db")
    async with SqliteStore(fresh):
        pass
    assert schema(db_path) == schema(fresh)


@pytest.mark.asyncio
async def test_sqlite_upgrade_with_the_migrate_function(tmp_path, db_path, raw_db):
    """migrate() on a bare aiosqlite connection, as the store does it."""
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        assert await migrate(db, first_migrations(tmp_path, 1)) == 1
        assert await migrate(db) == NEWEST
    assert [r[0] for r in raw_db().execute("SELECT version FROM schema_version")] == \
        list(range(1, NEWEST + 1))


# -- PostgreSQL only ---------------------------------------------------------------------------------
@pytest.mark.asyncio
async def test_postgresql_sessions_commit_synchronously_and_ids_are_64_bit(request, tmp_path):
    db = make_test_db(request, "postgresql", tmp_path, migrated=False)
    async with db.open_store() as store:
        async with store._pool.acquire() as conn:
            assert await conn.fetchval("SHOW synchronous_commit") == "on"
    types = dict(((t, c), d) for t, c, d in db.fetchall(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'public'"))
    for column in [("games", "id"), ("games", "guild_id"), ("games", "channel_id"),
                   ("games", "seed"), ("games", "host_id"), ("seats", "user_id"),
                   ("seats", "former_user_id"), ("results", "user_id"), ("users", "user_id"),
                   ("messages", "channel_id"), ("messages", "message_id"), ("timers", "id")]:
        assert types[column] == "bigint", column
    for column in [("games", "created_at"), ("actions", "created_at"), ("timers", "due_at"),
                   ("results", "finished_at")]:
        assert types[column] == "double precision", column
    for column in [("actions", "action"), ("snapshots", "state"), ("games", "options"),
                   ("seats", "notify"), ("timers", "payload")]:
        assert types[column] == "json", column       # not jsonb: the text as written
