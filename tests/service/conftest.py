"""Fixtures for the game-service tests: real SQLite files under tmp_path, nothing mocked.

pytest-asyncio runs in strict mode; each async test module sets `pytestmark`.
"""
import sys
from pathlib import Path

import pytest
import pytest_asyncio

HERE = Path(__file__).resolve().parent
for p in (HERE, HERE.parents[1]):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from svckit import make_service, open_store  # noqa: E402


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "ttr.db"


@pytest_asyncio.fixture
async def store(db_path):
    s = await open_store(db_path)
    yield s
    await s.close()


@pytest.fixture
def svc(store):
    return make_service(store)
