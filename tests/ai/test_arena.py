"""python -m tools.arena: the documented JSON, the records it writes (they replay through
`python -m ttr_bot.replay`), rotating seats, and the same figures with two worker processes."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ai.aikit import LIGHT_HARD
from tools import arena
from ttr_bot.game_record import replay

REPO = Path(__file__).resolve().parents[2]
KEYS = {"name", "wins", "win_rate", "mean_score", "decision_ms_p50", "decision_ms_p95"}


def _json(capsys, *args):
    assert arena.main(list(args) + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_records(tmp_path, capsys):
    assert arena.main(["--map", "usa", "--players", "easy,random", "--games", "2",
                       "--records", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["game-0001.json", "game-0002.json"]


def test_json_has_the_documented_keys(capsys):
    doc = _json(capsys, "--map", "usa", "--players", "medium,easy", "--games", "4", "--seed", "1")
    assert doc["games"] == 4
    assert [a["name"] for a in doc["agents"]] == ["medium", "easy"]
    for a in doc["agents"]:
        assert KEYS <= set(a)
        assert a["games"] == 4 and 0 <= a["wins"] <= 4
        assert a["win_rate"] == a["wins"] / 4
        lo, hi = a["win_rate_ci95"]
        assert 0 <= lo <= a["win_rate"] <= hi <= 1
        assert a["decision_ms_p50"] <= a["decision_ms_p95"]
        assert a["fallbacks"] == 0
    assert sum(a["wins"] for a in doc["agents"]) >= 4   # ties count for every winner


def test_text_table(capsys):
    assert arena.main(["--map", "nordic", "--players", "easy,random,medium", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "95% CI" in out and "dec p95" in out
    assert "medium" in out and "random" in out


def test_duplicate_levels_get_distinct_names(capsys):
    doc = _json(capsys, "--map", "usa", "--players", "medium,medium,easy", "--games", "3")
    assert [a["name"] for a in doc["agents"]] == ["medium", "medium#2", "easy"]


def test_bad_arguments():
    with pytest.raises(SystemExit):
        arena.main(["--players", "medium,wizard"])
    with pytest.raises(SystemExit):
        arena.main(["--map", "usa", "--variant", "nope"])
    assert arena.main(["--map", "nordic", "--players", "easy,easy,easy,easy", "--games", "1"]) == 1


def test_records_replay_through_the_replay_tool(tmp_path):
    doc = arena.run("europe", ["hard", "medium", "random"], games=3, seed=5,
                    records=str(tmp_path), agent_options={"hard": LIGHT_HARD})
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    wins = {a["name"]: 0 for a in doc["agents"]}
    for f in files:
        rec = json.loads(f.read_text(encoding="utf-8"))
        assert rec["format"] == "ttr-record/1" and rec["map"] == "europe"
        game, names, error = replay(rec)
        assert error is None and game.over
        for w in game.scores()[1]:
            wins[names[w]] += 1
    assert wins == {a["name"]: a["wins"] for a in doc["agents"]}
    # and the command-line tool itself, on one of them
    out = subprocess.run([sys.executable, "-m", "ttr_bot.replay", str(files[0])], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    result = json.loads(out)
    assert result["status"] == "finished" and result["error"] is None


def test_seats_rotate():
    board_levels = ["medium", "easy"]
    seats = set()
    for i in range(2):
        res = arena.play_game(arena.load_board("usa"), board_levels, board_levels, 1, i)
        seats.add(res["players"]["medium"]["seat"])
    assert seats == {0, 1}


def test_two_workers_give_the_same_figures(capsys):
    args = ["--map", "switzerland", "--players", "medium,easy", "--games", "4", "--seed", "9"]
    one = _json(capsys, *args)
    two = _json(capsys, *args, "--workers", "2")
    strip = lambda d: [(a["name"], a["wins"], a["mean_score"], a["score_p10"], a["score_p90"])
                       for a in d["agents"]]
    assert strip(one) == strip(two)


def test_wilson_interval():
    lo, hi = arena.wilson(375, 500)
    assert lo == pytest.approx(0.710, abs=0.002) and hi == pytest.approx(0.786, abs=0.002)
    assert arena.wilson(0, 0) == (0.0, 0.0)


def test_margin_is_the_score_less_the_best_other(capsys):
    doc = _json(capsys, "--map", "usa", "--players", "medium,easy", "--games", "3", "--seed", "2")
    medium, easy = doc["agents"]
    # heads-up, one player's margin is the other's with its sign turned
    assert medium["mean_margin"] == pytest.approx(-easy["mean_margin"])
    assert medium["mean_margin"] == pytest.approx(medium["mean_score"] - easy["mean_score"])
    assert doc["wall_s"] > 0


def test_one_table_per_map_and_player_count(tmp_path, capsys):
    """--maps/--seats: the first level against the rest (the last filling extra seats), per
    map and count within each map's range; every table's records replay."""
    doc = _json(capsys, "--maps", "switzerland,nordic", "--seats", "2,4", "--players",
                "medium,easy", "--games", "2", "--set", "medium.hurry_clock=8",
                "--set", "medium.fail_weight=1.5", "--records", str(tmp_path))
    tables = [(t["map"], t["players"]) for t in doc["tables"]]
    assert tables == [("switzerland", ["medium", "easy"]), ("switzerland", ["medium", "easy", "easy"]),
                      ("nordic", ["medium", "easy"]), ("nordic", ["medium", "easy", "easy"])]
    for t in doc["tables"]:
        a = t["agents"][0]
        assert a["level"] == "medium" and a["games"] == 2 and a["fallbacks"] == 0
        lo, hi = a["win_rate_ci95"]
        assert lo <= a["win_rate"] <= hi and a["decision_ms_p50"] <= a["decision_ms_p95"]
        folder = tmp_path / f"{t['map']}-{len(t['players'])}p"
        for f in sorted(folder.glob("*.json")):
            game, names, error = replay(json.loads(f.read_text(encoding="utf-8")))
            assert error is None and game.over
    assert len(list(tmp_path.glob("*/*.json"))) == 8
    assert arena.main(["--maps", "switzerland", "--seats", "max", "--players", "medium,easy",
                       "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "switzerland" in out and "margin" in out and "95% CI" in out


def test_bad_settings_are_usage_errors():
    for bad in ("expert.no_such_knob=1", "wizard.budget=1", "expert=1", "expert._x=1"):
        with pytest.raises(SystemExit):
            arena.main(["--players", "expert,medium", "--set", bad, "--games", "1"])
    with pytest.raises(SystemExit):
        arena.main(["--maps", "atlantis", "--players", "medium,easy"])
    with pytest.raises(SystemExit):
        arena.main(["--maps", "usa", "--seats", "two", "--players", "medium,easy"])
