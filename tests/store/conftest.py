"""Fixtures for the store tests: real databases, nothing mocked, on both drivers.

Every test that uses `store` or `db` runs twice, on SQLite (a file under tmp_path) and on
PostgreSQL (a fresh database on the run's throwaway server; see dbkit.py): ids end in
[sqlite] and [postgresql]. pytest-asyncio runs in strict mode here; each test module marks
itself with `pytestmark = pytest.mark.asyncio` (no global asyncio_mode).
"""
import json
import sqlite3
from pathlib import Path

import pytest
import pytest_asyncio

from tests.store.dbkit import DRIVERS, make_test_db

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(params=DRIVERS)
def driver(request):
    return request.param


@pytest.fixture
def db(request, driver, tmp_path):
    """This test's database (PostgreSQL's already at the newest schema)."""
    return make_test_db(request, driver, tmp_path)


@pytest.fixture
def empty_db(request, driver, tmp_path):
    """This test's database with nothing in it, not even the schema (the migration tests)."""
    return make_test_db(request, driver, tmp_path, migrated=False)


@pytest_asyncio.fixture
async def store(db):
    s = db.open_store()
    await s.open()
    yield s
    await s.close()


@pytest.fixture
def make_game(store):
    """Create a game in its own channel; `active=True` starts it (snapshot at seq 0)."""
    counter = iter(range(1000, 10**6))

    async def make(*, active=True, channel_id=None, seats=2, s=None, now=100.0):
        s = s or store
        game_id = await s.create_game(
            guild_id=1, channel_id=channel_id if channel_id is not None else next(counter),
            map="usa", variant="classic", options={"timeout": 60}, seed=42, host_id=10, now=now,
        )
        for seat in range(seats):
            await s.add_seat(game_id, seat, user_id=10 + seat, display_name=f"P{seat}")
        if active:
            await s.start_game(game_id, json.dumps({"turn": 0}), now=now)
        return game_id

    return make


# -- SQLite only: the migration tests that work on the file with sqlite3 / aiosqlite ------------
@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "ttr.db"


@pytest.fixture
def raw_db(db_path):
    """Plain sqlite3 connections to the same file: how tests inspect or damage data directly."""
    conns = []

    def connect():
        conn = sqlite3.connect(db_path, isolation_level=None)
        conns.append(conn)
        return conn

    yield connect
    for conn in conns:
        conn.close()
