"""Fixtures for the game-service tests: real SQLite files under tmp_path, nothing mocked.

pytest-asyncio runs in strict mode; each async test module sets `pytestmark`.
"""
from pathlib import Path

import pytest
import pytest_asyncio

from tests.service.svckit import make_service, open_store

HERE = Path(__file__).resolve().parent


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
