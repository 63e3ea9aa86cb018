"""Fixtures for the store tests: real SQLite files under tmp_path, nothing mocked.

pytest-asyncio runs in strict mode here; each test module marks itself with
`pytestmark = pytest.mark.asyncio` (no global asyncio_mode).
"""
import asyncio
import inspect
import json
import sqlite3
import time
from pathlib import Path

import pytest
import pytest_asyncio

from ttr_bot.store import SqliteStore

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "ttr.db"


@pytest_asyncio.fixture
async def store(db_path):
    s = SqliteStore(db_path)
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


@pytest.fixture
def eventually():
    async def wait(predicate, timeout=3.0, interval=0.01):
        """Wait until predicate() (or the coroutine it returns) is true; fail the test after
        `timeout` seconds."""
        async def check():
            result = predicate()
            return await result if inspect.isawaitable(result) else result

        deadline = time.monotonic() + timeout
        while not await check():
            if time.monotonic() > deadline:
                raise AssertionError("condition not met in time")
            await asyncio.sleep(interval)

    return wait


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
