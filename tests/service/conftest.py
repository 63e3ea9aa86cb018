"""Fixtures for the game-service tests: real databases, nothing mocked, on both drivers.

`db_path` is this test's database: a SQLite file under tmp_path, then a fresh PostgreSQL
database (tests/store/dbkit.py), so every test using it, `store` or `svc` runs twice
([sqlite], [postgresql]). It is a TestDB: for SQLite it is also the file's path (os.PathLike,
str() is the path), for PostgreSQL str() is the URL; svckit's open_store() and raw_counts()
take either. A test that opens the SQLite file itself is marked
@pytest.mark.sqlite_only("why"). pytest-asyncio runs in strict mode; each async test module
sets `pytestmark`.
"""
from pathlib import Path

import pytest
import pytest_asyncio

from tests.service.svckit import make_service, open_store
from tests.store.dbkit import DRIVERS, make_test_db

HERE = Path(__file__).resolve().parent


@pytest.fixture(params=DRIVERS)
def driver(request):
    return request.param


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
