"""Fixtures for the game-service tests: real databases, nothing mocked.

`db_path` is this test's database: a SQLite file under tmp_path. The tests that are about the
database under the service (concurrency, several processes, crashes, a damaged log) are marked
`@pytest.mark.drivers("sqlite", "postgresql")` (or a module's `pytestmark`) and run on a
fresh PostgreSQL database too (tests/store/dbkit.py); every driver's full contract is the
store suite's (tests/store, both drivers). Ids end in [sqlite] / [postgresql]. `db_path` is a
TestDB: for SQLite it is also the file's path (os.PathLike, str() is the path), for
PostgreSQL str() is the URL; svckit's open_store() and raw_counts() take either. A test that
opens the SQLite file itself is marked @pytest.mark.sqlite_only("why"). pytest-asyncio runs
in strict mode; each async test module sets `pytestmark`.
"""
from datetime import datetime, timezone
from pathlib import Path

import pytest
import pytest_asyncio

from tests.service.svckit import make_service, open_store
from tests.store.dbkit import DRIVERS, make_test_db
from ttr_bot.service.clock import ManualClock

HERE = Path(__file__).resolve().parent


def pytest_generate_tests(metafunc):
    """`driver`: SQLite, unless the test says which drivers it is about."""
    if "driver" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("drivers")
        drivers = marker.args if marker is not None else ("sqlite",)
        unknown = set(drivers) - set(DRIVERS)
        if unknown:
            raise ValueError(f"unknown drivers {sorted(unknown)}; known: {DRIVERS}")
        metafunc.parametrize("driver", drivers)


@pytest.fixture
def db_path(request, driver, tmp_path):
    return make_test_db(request, driver, tmp_path)


@pytest_asyncio.fixture
async def store(db_path):
    s = await open_store(db_path)
    yield s
    await s.close()


@pytest.fixture
def svc(store):
    return make_service(store)


@pytest.fixture
def clock():
    """The turn timers' tests' clock: a ManualClock at noon UTC on 1 March 2024 (a file may
    define its own, as test_scheduler.py does)."""
    return ManualClock(datetime(2024, 3, 1, 12, tzinfo=timezone.utc).timestamp())
