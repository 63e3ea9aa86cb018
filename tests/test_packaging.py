"""The project installs as a package: pyproject.toml names every library the bot needs, the
constraints file pins each requirement at its version, and `pip install .` into a fresh
environment gives a bot that finishes a game (ratings need openskill) and an offline demo (maps,
fonts and catalogs travel with the package)."""
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)\s*==\s*([^\s;#]+)")


def _name(spec):
    return re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0].strip().lower().replace("_", "-")


def _pins(path):
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = PIN.match(line.strip())
        if m:
            pins[m.group(1).lower().replace("_", "-")] = m.group(2)
    return pins


def test_pyproject_names_every_runtime_requirement():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {_name(d) for d in project["dependencies"]}
    extras = {_name(d) for deps in project["optional-dependencies"].values() for d in deps}
    required = set(_pins(ROOT / "requirements.txt"))
    assert required - declared - extras == set(), "in requirements.txt, not in pyproject.toml"
    assert (declared | extras) - required == set(), "in pyproject.toml, not pinned"
    assert "asyncpg" in extras, "PostgreSQL is an extra: SQLite users never install it"


def test_constraints_pin_every_requirement_at_the_same_version():
    constraints = _pins(ROOT / "constraints.txt")
    for req in ("requirements.txt", "requirements-dev.txt"):
        for name, version in _pins(ROOT / req).items():
            assert constraints.get(name) == version, f"{req}: {name}=={version} vs constraints"


def test_the_commands_install_with_the_constraints():
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    commands = [line for line in readme[:12] if line.startswith("python3 -m venv")]
    assert len(commands) == 2 and all("-c constraints.txt" in c for c in commands)
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "-c constraints.txt" in (ROOT / "Dockerfile").read_text(encoding="utf-8")


GAME = r"""
import asyncio, random, sys
from ttr_bot.engine.actions import type_name
from ttr_bot.service import GameService
from ttr_bot.store import open_store

async def main(path):
    store = open_store(path)
    await store.open()
    svc = GameService(store, seeds=random.Random(1))
    rng = random.Random(1)
    await svc.lobby.open_lobby(guild_id=1, channel_id=5, user_id=11, name="Ann", map_id="usa",
                               variant="base")
    await svc.lobby.join(5, 12, "Bo")
    game_id = (await svc.lobby.start(5, 11)).game_id
    while True:
        loaded = await svc.load(game_id)
        if loaded.is_finished:
            break
        game = loaded.game
        seat = rng.choice(game.to_move())
        kinds = {}
        for a in game.legal_actions(seat):
            kinds.setdefault(type_name(a), []).append(a)
        action = rng.choice(kinds[rng.choice(sorted(kinds))])
        user = loaded.seats[action.seat].user_id
        await svc.moves.act(game_id, user, action, loaded.seq)
    rating = await svc.records.game_rating(game_id)
    print("finished", game_id, "rated" if rating.rated else "unrated")
    await svc.close()

asyncio.run(main(sys.argv[1]))
"""


@pytest.mark.skipif(os.environ.get("TTR_SKIP_INSTALL_TEST") == "1",
                    reason="TTR_SKIP_INSTALL_TEST=1")
def test_pip_install_gives_a_bot_that_finishes_a_game(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in ("ttr_bot", "maps"):
        shutil.copytree(ROOT / name, src / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    env_dir = tmp_path / "env"
    # a fresh environment, which this pip installs into (--python): the same as its own pip,
    # without the seconds ensurepip takes; --no-compile: Python compiles what the bot imports
    venv.create(env_dir, with_pip=False)
    py = str(env_dir / "bin" / "python")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q",
                    "--no-compile", "--disable-pip-version-check",
                    "-c", str(ROOT / "constraints.txt"), str(src)],
                   check=True, cwd=tmp_path, env=clean, timeout=600)
    shutil.rmtree(src)          # the installed copy alone from here on
    run = tmp_path / "run"
    run.mkdir()
    (run / "game.py").write_text(GAME, encoding="utf-8")
    done = subprocess.run([py, "game.py", str(run / "ttr.sqlite3")], cwd=run, env=clean,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "finished" in done.stdout and " rated" in done.stdout, done.stdout
    demo = subprocess.run([py, "-m", "ttr_bot.demo", "--map", "switzerland", "--players",
                           "easy,easy", "--out", str(run / "demo")], cwd=run, env=clean,
                          capture_output=True, text=True, timeout=300)
    assert demo.returncode == 0, demo.stderr[-3000:]
    assert (run / "demo" / "record.json").exists()
    assert len(list((run / "demo").glob("turn-*.png"))) > 10, "pictures drawn: fonts installed"
