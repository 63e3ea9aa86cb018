"""Where SQLite and PostgreSQL differ, both drivers give the same answers: the setting picks the
driver; JSON comes back as written (an action's key order too); 64-bit ids and seeds, float
times and JSON values round-trip; a writer that waited for another's lock sees its commit; and
the PostgreSQL driver's pool, connection errors and durability setting."""
import asyncio
import json
from pathlib import Path

import pytest

from ttr_bot.store import (
    PostgresStore,
    SqliteStore,
    StaleSequence,
    StoreError,
    open_store,
    parse_db_url,
    redact,
)

BIG = 2**63 - 1          # the largest snowflake a signed 64-bit column holds


# -- the setting picks the driver (no database needed) ---------------------------------------------
def test_the_setting_picks_the_driver(tmp_path):
    assert parse_db_url("ttr.sqlite3") == ("sqlite", "ttr.sqlite3")
    assert parse_db_url(tmp_path / "a.db") == ("sqlite", str(tmp_path / "a.db"))
    assert parse_db_url("sqlite:///data/ttr.db") == ("sqlite", "data/ttr.db")
    assert parse_db_url("sqlite:////var/lib/ttr.db") == ("sqlite", "/var/lib/ttr.db")
    assert parse_db_url("postgresql://u:pw@db:5432/ttr")[0] == "postgresql"
    assert parse_db_url("postgres://db/ttr")[0] == "postgresql"
    store = open_store(f"sqlite:///{tmp_path}/b.db", busy_timeout=3)
    assert isinstance(store, SqliteStore) and store.path == f"{tmp_path}/b.db"
    assert store.busy_timeout == 3
    assert SqliteStore(f"sqlite:///{tmp_path}/c.db").path == f"{tmp_path}/c.db"
    pg = open_store("postgres://bot:secret@db/ttr", pool_size=4)
    assert isinstance(pg, PostgresStore) and pg.pool_size == 4
    assert "secret" not in repr(pg)
    for bad in ("mysql://db/ttr", "sqlite://ttr.db", "sqlite:///", "  "):
        with pytest.raises(ValueError):
            parse_db_url(bad)
    with pytest.raises(TypeError):                 # an option of the other driver
        open_store("postgresql://db/ttr", busy_timeout=3)
    assert redact("postgresql://bot:s3cr@t@db:5432/ttr") == "postgresql://bot:***@db:5432/ttr"
    assert redact("postgresql://db/ttr") == "postgresql://db/ttr"


@pytest.mark.asyncio
async def test_an_unreachable_server_is_a_clear_store_error():
    store = open_store("postgresql://bot:hunter2@127.0.0.1:1/ttr", connect_timeout=5)
    with pytest.raises(StoreError) as caught:
        await store.open()
    message = str(caught.value)
    assert message.startswith("cannot connect to PostgreSQL at postgresql://bot:***@127.0.0.1:1/ttr")
    assert "hunter2" not in message


# -- both drivers ------------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_an_action_comes_back_exactly_as_written(store, make_game, db):
    """Records and exports list an action's fields in the order the engine wrote them: the
    stored text is kept byte for byte (jsonb would sort the keys, see below)."""
    game_id = await make_game()
    text = '{"type": "claim_route", "zeta": 1, "alpha": {"b": [1, 2], "a": null}, "mid": "ไทย"}'
    await store.append_action(game_id, 0, 0, text, json.dumps({"turn": 1}))
    [record] = await store.load_actions(game_id)
    assert list(record.action) == ["type", "zeta", "alpha", "mid"]
    assert list(record.action["alpha"]) == ["b", "a"]
    assert db.scalar("SELECT action FROM actions WHERE game_id = ?", game_id) == text
    state = '{"z": 1, "a": {"y": 2, "b": 3}}'
    await store.append_action(game_id, 1, 0, '{"type": "pass"}', state)
    assert json.dumps((await store.load_snapshot(game_id)).state) == state
    if db.driver == "postgresql":       # why the column is json, not jsonb
        assert db.scalar("SELECT CAST(? AS jsonb)::text", text) != text


@pytest.mark.asyncio
async def test_64_bit_ids_and_seeds_round_trip(store):
    for seed in (-2**63, BIG, 0):
        game_id = await store.create_game(guild_id=BIG, channel_id=BIG - abs(seed) % 7,
                                          map="usa", variant="", options={}, seed=seed,
                                          host_id=BIG, now=1.0)
        game = await store.get_game(game_id)
        assert (game.guild_id, game.seed, game.host_id) == (BIG, seed, BIG)
        await store.set_status(game_id, "cancelled")
    game_id = await store.create_game(guild_id=None, channel_id=BIG, map="usa", variant="",
                                      options={}, seed=1, host_id=BIG - 1, host_name="Ann")
    assert (await store.list_seats(game_id))[0].user_id == BIG - 1
    await store.add_seat(game_id, 1, user_id=BIG, display_name="Bo")
    await store.set_message(game_id, "panel", BIG, BIG)
    ref = await store.get_message(game_id, "panel")
    assert (ref.channel_id, ref.message_id) == (BIG, BIG)
    await store.set_locale(BIG, "th")
    assert (await store.get_user(BIG)).locale == "th"
    for seed in (2**63, -2**63 - 1):
        with pytest.raises(ValueError, match="64-bit"):
            await store.create_game(guild_id=1, channel_id=5, map="usa", variant="", options={},
                                    seed=seed, host_id=1)
    assert await store.find_open_game(5) is None


@pytest.mark.asyncio
async def test_float_times_come_back_equal(store, make_game):
    times = [1_700_000_000.123456789, 0.1 + 0.2, 1e-9, 2**53 + 0.5, 1_700_000_000.0]
    game_id = await make_game(now=times[0])
    game = await store.get_game(game_id)
    assert game.created_at == times[0]
    for i, t in enumerate(times):
        await store.append_action(game_id, i, 0, '{"type": "x"}', "{}", now=t)
    assert [a.created_at for a in await store.load_actions(game_id)] == times
    assert (await store.load_snapshot(game_id)).updated_at == times[-1]
    timer = await store.add_timer("turn", times[1], {"n": 1}, game_id, now=times[2])
    [due] = await store.due_timers(times[1])
    assert (due.id, due.due_at, due.created_at) == (timer, times[1], times[2])
    assert await store.due_timers(times[1] - 1e-9) == []


@pytest.mark.asyncio
async def test_json_values_come_back_decoded_and_equal(store):
    options = {"timeout": 60, "big": 2**70, "ratio": 0.1, "names": ["ไทย", "فارسی", "日本"],
               "nested": {"z": [1, {"a": None}], "b": True}, "empty": {}}
    game_id = await store.create_game(guild_id=1, channel_id=3, map="usa", variant="",
                                      options=options, seed=1, host_id=1)
    game = await store.get_game(game_id)
    assert game.options == options and list(game.options) == list(options)
    await store.add_seat(game_id, 0, user_id=1, display_name="ไทย", notify={"dm": False, "x": 1})
    assert (await store.list_seats(game_id))[0].notify == {"dm": False, "x": 1}
    await store.add_timer("turn", 5.0, options, game_id)
    assert (await store.next_due()).payload == options


@pytest.mark.asyncio
async def test_a_writer_that_waited_for_another_sees_its_commit(store, make_game, db):
    """Another connection appends seq 1 in a transaction it holds open; our append at seq 0
    waits for it and, once it commits, is refused as stale: never a second action 1 and
    never a duplicate-key error. (SQLite: the write lock; PostgreSQL: the game row's lock.)"""
    game_id = await make_game()
    db.execute("BEGIN IMMEDIATE" if db.driver == "sqlite" else "BEGIN")
    db.execute("INSERT INTO actions (game_id, seq, actor, action, created_at) "
               "VALUES (?, 1, 0, '{\"type\": \"theirs\"}', 5)", game_id)
    db.execute("UPDATE games SET seq = 1 WHERE id = ?", game_id)
    db.execute("UPDATE snapshots SET seq = 1 WHERE game_id = ?", game_id)
    ours = asyncio.create_task(store.append_action(game_id, 0, 1, '{"type": "ours"}', "{}"))
    await asyncio.sleep(0.3)
    assert not ours.done()                  # waiting for the other writer's lock
    db.execute("COMMIT")
    with pytest.raises(StaleSequence) as caught:
        await ours
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    assert [a.action["type"] for a in await store.load_actions(game_id)] == ["theirs"]


# -- PostgreSQL only ---------------------------------------------------------------------------------
@pytest.fixture
def pg_db(request, tmp_path):
    from tests.store.dbkit import make_test_db
    return make_test_db(request, "postgresql", tmp_path)


@pytest.mark.asyncio
async def test_the_pool_is_sized_by_an_option_and_queues_callers(pg_db, make_game):
    async with pg_db.open_store(pool_size=2, pool_min_size=1) as small:
        assert small._pool.get_max_size() == 2
        game_ids = await asyncio.gather(*(small.create_game(
            guild_id=1, channel_id=ch, map="usa", variant="", options={}, seed=ch, host_id=1)
            for ch in range(60)))
        assert len(set(game_ids)) == 60
        assert small._pool.get_size() <= 2
    with pytest.raises(ValueError):
        PostgresStore(pg_db.url, pool_size=0)


@pytest.mark.asyncio
async def test_a_connection_the_server_ended_is_replaced(pg_db):
    """A pooled connection killed by the server (a restart, an admin) fails the operation
    that was using it, never a later one: the pool opens a new connection."""
    async with pg_db.open_store(pool_size=1) as s:
        await s.get_game(1)
        pid = await s._pool.fetchval("SELECT pg_backend_pid()")
        pg_db.execute("SELECT pg_terminate_backend(?)", pid)
        await asyncio.sleep(0.1)
        for _ in range(3):
            try:
                assert await s.get_game(1) is None
                break
            except Exception:                 # the one call that met the dead connection
                continue
        assert await s._pool.fetchval("SELECT pg_backend_pid()") != pid


def test_sqlite_users_never_import_asyncpg():
    """SQLite users do not import asyncpg: the package loads the PostgreSQL driver lazily."""
    import subprocess
    import sys
    code = ("import sys, ttr_bot.store as s; s.open_store('x.db'); "
            "print('asyncpg' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2], check=True).stdout
    assert out.strip() == "False"
