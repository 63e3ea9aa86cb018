"""python -m ttr_bot.demo: an offline game among computer players, written turn by turn."""
import json

from ttr_bot import demo
from ttr_bot.game_record import replay


def test_demo_without_pictures_writes_record_and_text(tmp_path):
    lines = []
    game, names, written = demo.run("usa", ["medium", "easy"], seed=2, out=str(tmp_path),
                                    echo=lines.append, pictures=False)
    assert game.over
    assert not list(tmp_path.glob("*.png")), "no pictures asked for, none written"
    record = json.loads((tmp_path / "record.json").read_text(encoding="utf-8"))
    replayed, _, error = replay(record)
    assert error is None and replayed.over
    assert [p["total"] for p in replayed.scores()[0]] == [p["total"] for p in game.scores()[0]]
    text = (tmp_path / "turns.txt").read_text(encoding="utf-8").splitlines()
    assert text[0].startswith("[setup]")
    assert len(text) == game.turn + 2          # setup, every turn, the final line
    assert any("claimed" in line for line in text)
    assert "wins" in text[-1] or "Tie" in text[-1]


def test_demo_writes_a_picture_after_every_turn(tmp_path, monkeypatch):
    calls = []

    def fake_board(game, names, viewer=None):
        calls.append(game.turn)
        return b"\x89PNG fake for the test"

    monkeypatch.setattr(demo, "render_board", fake_board)
    monkeypatch.setattr(demo, "render_final", lambda game, names: b"\x89PNG fake final")
    game, names, written = demo.run("switzerland", ["easy", "medium", "random"], seed=3,
                                    out=str(tmp_path), echo=lambda s: None)
    pngs = sorted(p.name for p in tmp_path.glob("turn-*.png"))
    assert len(pngs) == len(calls) == game.turn + 1    # after setup and after every turn
    assert pngs[0] == "turn-000.png"


def test_demo_main(tmp_path, capsys):
    assert demo.main(["--map", "nordic", "--players", "medium,easy", "--out", str(tmp_path),
                      "--quiet", "--no-pictures"]) == 0
    out = capsys.readouterr().out
    assert "record.json" in out
    assert (tmp_path / "record.json").exists()


def test_the_running_standings_are_route_points_a_player_who_waits_keeps(tmp_path):
    """The transcript's running figures are route points: they never fall, so a player who
    did not move does not "lose" points (the total with unmade tickets and the longest path
    did: 31 between two turns of one player)."""
    lines = []
    game, names, _ = demo.run("usa", ["medium", "easy"], seed=2, out=str(tmp_path),
                              echo=lines.append, pictures=False)
    seen = {name: [] for name in names}
    for line in lines[:-1]:
        for part in line.rsplit("  (", 1)[1].rstrip(")").split(" | "):
            name, rest = part.split(": route points ")
            seen[name].append(int(rest.split(",")[0]))
    for name, points in seen.items():
        assert points == sorted(points) and points[-1] > 0, name
    players, _ = game.scores()
    assert [seen[n][-1] for n in names] == [p["route_points"] for p in players]
