"""`python -m tools.bench service --db postgresql://...` prints the same figures on PostgreSQL
(tiny sizes here, on the run's test server) and drops the databases it made."""
import re
import subprocess
import sys

from tests.service.svckit import REPO


def test_the_service_bench_runs_on_postgresql(pg_session, tmp_path):
    server = pg_session.server
    before = server.run(server._admin.fetchval("SELECT COUNT(*) FROM pg_database"))
    proc = subprocess.run(
        [sys.executable, "-m", "tools.bench", "service", "--games", "1", "--stored", "40",
         "--ready-runs", "1", "--dir", str(tmp_path), "--db", server.url()],
        cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Game service on PostgreSQL 15" in out and "synchronous_commit=on" in out, out
    assert re.search(r"one game at a time: +\d+ actions/s", out), out
    assert re.search(r"p50 [\d.]+ ms, p99 [\d.]+ ms", out), out
    assert "list 40 games" in out and "games loaded: 0" in out, out
    assert server.run(server._admin.fetchval("SELECT COUNT(*) FROM pg_database")) == before
    assert list(tmp_path.iterdir()) == []
