"""`python -m tools.bench service` runs and prints its four figures (tiny sizes here)."""
import re
import subprocess
import sys

from tests.service.svckit import REPO


def test_the_service_bench_prints_its_figures(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "tools.bench", "service", "--games", "1", "--stored", "60",
         "--ready-runs", "1", "--dir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "synchronous=FULL" in out
    assert re.search(r"one game at a time: +\d+ actions/s", out), out
    assert re.search(r"p50 [\d.]+ ms, p99 [\d.]+ ms", out), out
    assert re.search(r"after VACUUM: +\d+ bytes", out), out
    ready = re.search(r"process start to ready: median ([\d.]+) s", out)
    assert ready and float(ready.group(1)) < 10, out
    assert "list 60 games" in out and "games loaded: 0" in out, out
    assert list(tmp_path.iterdir()) == []          # its temporary files are gone
