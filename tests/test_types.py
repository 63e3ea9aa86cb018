"""The type checker over the engine, the service and the adapter (pyproject.toml's [tool.mypy]:
the engine's every function annotated, the service's and the adapter's annotations checked), so
that the README's one test command runs it. A failure lists mypy's complaints."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_nothing_in_the_engine_and_the_service(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "Success" in done.stdout


def test_the_package_says_it_is_typed():
    assert (ROOT / "ttr_bot" / "py.typed").exists()
