"""Fixtures every test folder may use."""
import asyncio
import inspect
import time

import pytest


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


# ----- the PostgreSQL test server (tests/store/dbkit.py) ---------------------------------------
def pytest_configure(config):
    config.addinivalue_line(
        "markers", "sqlite_only(reason): the test reads or damages the SQLite file itself; its "
        "PostgreSQL run is skipped with the reason")
    config.addinivalue_line(
        "markers", "drivers(*names): the service test runs on these store drivers (default: "
        "sqlite only; see tests/service/conftest.py)")


@pytest.fixture(scope="session")
def pg_session():
    """One throwaway PostgreSQL server per test process (each xdist worker has its own; started
    on first use); skipped, with one line saying how to get it, where PostgreSQL's server
    programs are missing."""
    from tests.store.dbkit import pg_session_fixture
    yield from pg_session_fixture()


_WORKER_LINES = []    # under pytest-xdist: each worker's lines, gathered by the controller


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:        # an xdist worker: hand its lines to the controller
        from tests.store.dbkit import summary_lines
        workeroutput["ttr_summary"] = summary_lines()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """(pytest-xdist's hook, called in the controller as a worker ends)"""
    _WORKER_LINES.extend(getattr(node, "workeroutput", {}).get("ttr_summary", []))


def pytest_terminal_summary(terminalreporter):
    from tests.store.dbkit import summary_lines
    for line in summary_lines() + sorted(set(_WORKER_LINES)):
        terminalreporter.write_line(line)
