"""An older commit of the repository, unpacked to run a benchmark's own file there: `python -m
tools.bench cards` and `channel` compare this checkout with older commits by copying their file
into the older tree and running it there as a subprocess.

The copied file imports the fake Discord and the end-to-end driver by their names of today
(`testkit.fakediscord`, `testkit.e2e_driver`). A commit from before testkit/ holds them in
tests/ (tests/fakediscord, tests/discord/e2e_driver.py); there `unpack` writes a small
testkit/ package that gives that commit's own modules today's names, so the older bot runs
against the fake and the driver of its own time, as before. `carry`: files of today's testkit/
the copied file needs too (cards: the phone measure, so that both sides are measured alike).
"""
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTKIT = REPO / "testkit"
# testkit's module -> where a commit before testkit/ had it
BEFORE_TESTKIT = {"fakediscord": "tests.fakediscord", "e2e_driver": "tests.discord.e2e_driver"}
SHIM = '''"""Written by tools/bench/older.py: this commit predates testkit/, so its own fake Discord and
end-to-end driver (in tests/) get the names the benchmark imports (testkit.fakediscord, ...)."""
import importlib
import sys

for _name, _module in {names!r}.items():
    sys.modules[f"{{__name__}}.{{_name}}"] = globals()[_name] = importlib.import_module(_module)
'''


def unpack(ref, folder, carry=()):
    """Commit `ref` of this repository unpacked into `folder` (`git archive`), with a testkit/
    it can run today's benchmark with: None, or why not (a line)."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref],
                             capture_output=True, check=False)
    if archive.returncode:
        return f"no commit {ref}: {archive.stderr.decode()[:200]}"
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    kit = Path(folder) / "testkit"
    if not kit.exists():
        kit.mkdir()
        (kit / "__init__.py").write_text(SHIM.format(names=BEFORE_TESTKIT), encoding="utf-8")
    for name in carry:
        shutil.copy(TESTKIT / name, kit / name)
    return None
