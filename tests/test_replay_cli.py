"""`python -m ttr_bot.replay FILE` as external checks run it (docs/record-format.md, "Output"):
exit 0 and exactly one JSON document with the documented keys; exit 2, a message on standard
error and nothing on standard output for a document that is not a record; `-` reads stdin."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ttr_bot.game_record import replay, result
from ttr_bot.i18n import reason

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

RECORDS = TESTS / "records"
FIXTURES = sorted(p.name for p in RECORDS.glob("*.json"))

TOP_KEYS = {"status", "error", "turn", "players", "winners"}
PLAYER_KEYS = {"name", "route_points", "tickets", "tickets_completed", "ticket_points",
               "longest_path", "bonuses", "total", "trains_left", "stations_left", "hand"}
TICKET_KEYS = {"from", "to", "points", "completed"}
BONUS_KEYS = {"longest_path", "globetrotter", "stations"}
CARDS = {"purple", "blue", "orange", "white", "green", "yellow", "black", "red", "locomotive"}


def cli(*args, stdin=None, input_bytes=None):
    """Run the replay tool; (exit code, stdout text, stderr text)."""
    proc = subprocess.run([sys.executable, "-m", "ttr_bot.replay", *map(str, args)], cwd=REPO,
                          input=input_bytes if input_bytes is not None
                          else (stdin.encode("utf-8") if stdin is not None else None),
                          capture_output=True, timeout=120)
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8", "replace")


def write(tmp_path, doc, name="record.json"):
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False),
                    encoding="utf-8")
    return path


def load(name):
    return json.loads((RECORDS / name).read_text(encoding="utf-8"))


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_shape(out, n_actions=None):
    """Exactly the documented keys, with the documented types."""
    assert set(out) == TOP_KEYS
    assert out["status"] in ("finished", "in_progress")
    assert is_int(out["turn"]) and out["turn"] >= 0
    err = out["error"]
    if err is not None:
        assert set(err) == {"action", "message"}
        assert is_int(err["action"]) and err["action"] >= 0
        if n_actions is not None:
            assert err["action"] < n_actions
        assert isinstance(err["message"], str) and err["message"].strip()
    names = [p["name"] for p in out["players"]]
    assert 2 <= len(names) <= 5 and len(set(names)) == len(names)
    for pl in out["players"]:
        assert set(pl) == PLAYER_KEYS, set(pl) ^ PLAYER_KEYS
        for k in ("route_points", "tickets_completed", "ticket_points", "longest_path", "total",
                  "trains_left", "stations_left"):
            assert is_int(pl[k]), k
        assert pl["route_points"] >= 0 and pl["longest_path"] >= 0
        assert 0 <= pl["trains_left"] <= 45 and 0 <= pl["stations_left"] <= 3
        assert set(pl["bonuses"]) == BONUS_KEYS
        assert all(is_int(v) and v >= 0 for v in pl["bonuses"].values())
        assert pl["bonuses"]["stations"] == 4 * pl["stations_left"]
        assert set(pl["hand"]) <= CARDS
        assert all(is_int(v) and v >= 0 for v in pl["hand"].values())
        signed = 0
        for t in pl["tickets"]:
            assert set(t) == TICKET_KEYS
            assert isinstance(t["from"], str)
            assert isinstance(t["to"], str) or (isinstance(t["to"], list) and
                                                all(isinstance(x, str) for x in t["to"]))
            assert is_int(t["points"]) and t["points"] > 0
            assert isinstance(t["completed"], bool)
            signed += t["points"] if t["completed"] else -t["points"]
        assert pl["ticket_points"] == signed
        assert pl["tickets_completed"] == sum(t["completed"] for t in pl["tickets"])
        assert pl["total"] == pl["route_points"] + pl["ticket_points"] + sum(pl["bonuses"].values())
    assert isinstance(out["winners"], list) and set(out["winners"]) <= set(names)
    if out["status"] == "in_progress":
        assert out["winners"] == []
    else:
        assert out["winners"]


# ----- valid records ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", FIXTURES)
def test_fixture_output_shape_and_agreement_with_the_library(name):
    code, stdout, stderr = cli(RECORDS / name)
    assert code == 0, stderr
    out = json.loads(stdout)            # exactly one JSON document
    doc = load(name)
    check_shape(out, len(doc["actions"]))
    game, names, error = replay(doc)
    assert out == result(game, names, error, reason(error[1]) if error else None)
    assert [p["name"] for p in out["players"]] == doc["players"]


def test_finished_game():
    code, stdout, _ = cli(RECORDS / "usa_final_round.json")
    out = json.loads(stdout)
    assert code == 0
    assert out["status"] == "finished" and out["error"] is None
    assert out["winners"] == ["ann"]
    assert [p["total"] for p in out["players"]] == [150, -7]
    assert out["turn"] == 61


def test_actions_that_stop_early_are_in_progress(tmp_path):
    doc = load("usa_final_round.json")
    doc["actions"] = doc["actions"][:-1]            # ann's last turn is missing
    code, stdout, _ = cli(write(tmp_path, doc))
    out = json.loads(stdout)
    assert code == 0
    check_shape(out)
    assert out["status"] == "in_progress" and out["winners"] == []
    # totals are what the end scoring would give now: ann without Seattle–Vancouver (1 point)
    assert [p["total"] for p in out["players"]] == [149, -7]


def test_no_actions_at_all(tmp_path):
    doc = {"format": "ttr-record/1", "map": "europe", "players": ["a", "b", "c"], "seed": 3}
    code, stdout, stderr = cli(write(tmp_path, doc))
    assert code == 0, stderr
    out = json.loads(stdout)
    check_shape(out)
    assert out["status"] == "in_progress" and out["turn"] == 0 and out["winners"] == []
    for pl in out["players"]:
        assert pl["tickets"] == []           # still being chosen: they do not count
        assert pl["trains_left"] == 45 and pl["stations_left"] == 3
        assert pl["bonuses"]["stations"] == 12
        assert sum(pl["hand"].values()) == 4


def test_illegal_action_is_a_result_not_a_failure():
    code, stdout, stderr = cli(RECORDS / "usa_illegal.json")
    assert code == 0, stderr
    out = json.loads(stdout)
    assert out["error"] == {"action": 4,
                            "message": "This route must be paid with cards of its own colour."}
    assert out["status"] == "in_progress" and out["winners"] == []


def test_bad_action_contents_are_reported_not_crashed(tmp_path):
    doc = load("usa_illegal.json")
    for bad in ({"player": "zed", "type": "pass"},
                {"player": "bob", "type": "claim_route", "from": "Atlantis", "to": "Dallas",
                 "color": "gray", "cards": {"green": 1}},
                {"player": "bob", "type": "claim_route", "from": "Houston", "to": "Dallas",
                 "color": "gray", "cards": {"pink": 1}},
                {"player": "bob", "type": "claim_route", "from": "Houston", "to": "Dallas",
                 "color": "gray"},
                7):
        doc["actions"] = doc["actions"][:4] + [bad]
        code, stdout, stderr = cli(write(tmp_path, doc))
        assert code == 0, stderr
        out = json.loads(stdout)
        assert out["error"]["action"] == 4, bad


def test_unhashable_card_is_reported_not_crashed(tmp_path):
    doc = load("usa_illegal.json")
    doc["actions"] = doc["actions"][:4] + [{"player": "bob", "type": "draw_card",
                                            "from": "faceup", "card": ["red"]}]
    code, stdout, stderr = cli(write(tmp_path, doc))
    assert code == 0, stderr
    assert json.loads(stdout)["error"]["action"] == 4


def test_dash_reads_standard_input():
    text = (RECORDS / "europe_tunnels_stations.json").read_text(encoding="utf-8")
    code, stdout, stderr = cli("-", stdin=text)
    assert code == 0, stderr
    code2, stdout2, _ = cli(RECORDS / "europe_tunnels_stations.json")
    assert json.loads(stdout) == json.loads(stdout2)


def test_output_is_utf8_json():
    code, stdout, _ = cli(RECORDS / "switzerland_countries.json")
    assert code == 0
    out = json.loads(stdout)
    assert out["players"][0]["tickets"][0]["to"] == ["France", "Deutschland", "Österreich", "Italia"]


def test_every_refusal_has_a_message():
    """The tool turns every engine refusal into a sentence (i18n en.json); a key without one, or
    a placeholder the engine does not fill, would crash the replay instead of reporting."""
    import re

    from ttr_bot.i18n import catalog, forms
    messages = catalog("en")
    found = 0
    for path in (REPO / "ttr_bot").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r'Illegal\(\s*"(\w+)"([^\n]*)', text):
            key, rest = m.group(1), m.group(2)
            found += 1
            assert "illegal." + key in messages, f"{path.name}: no message for {key!r}"
            given = set(re.findall(r"(\w+)=", rest))
            wanted = set(re.findall(r"{(\w+)}", "".join(forms(messages["illegal." + key]))))
            assert wanted <= given, (path.name, key, wanted - given)
    assert found > 30
    for key in ("route_taken", "double_own", "double_closed", "not_enough_trains"):
        assert "illegal." + key in messages            # the engine's route refusals (seat_rules)


# ----- documents that are not records: exit 2, message on stderr, nothing on stdout -------------------
def _reshuffle_wrong():
    doc = load("usa_reshuffle.json")
    doc["reshuffles"] = [["green", "red", "red"]]
    return doc


def _deck_not_permutation():
    doc = load("usa_illegal.json")
    doc["decks"]["train"][0] = "blue" if doc["decks"]["train"][0] != "blue" else "red"
    return doc


def _deck_short():
    doc = load("usa_illegal.json")
    doc["decks"]["train"].pop()
    return doc


INVALID = {
    "bad json": "{not json",
    "truncated json": '{"format": "ttr-record/1", "map": "usa"',
    "empty file": "",
    "json array": "[]",
    "json string": '"ttr-record/1"',
    "unknown map": {"format": "ttr-record/1", "map": "mars", "players": ["a", "b"], "seed": 1},
    "unknown variant": {"format": "ttr-record/1", "map": "usa", "variant": "2020",
                        "players": ["a", "b"], "seed": 1},
    "variant of another map": {"format": "ttr-record/1", "map": "nordic", "variant": "mega",
                               "players": ["a", "b"], "seed": 1},
    "one player": {"format": "ttr-record/1", "map": "usa", "players": ["a"], "seed": 1},
    "six players": {"format": "ttr-record/1", "map": "usa",
                    "players": ["a", "b", "c", "d", "e", "f"], "seed": 1},
    "four on switzerland": {"format": "ttr-record/1", "map": "switzerland",
                            "players": ["a", "b", "c", "d"], "seed": 1},
    "deck not a permutation": _deck_not_permutation,
    "deck too short": _deck_short,
    "reshuffle not the discard pile": _reshuffle_wrong,
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_document_exits_2(tmp_path, name):
    doc = INVALID[name]
    if callable(doc):
        doc = doc()
    code, stdout, stderr = cli(write(tmp_path, doc))
    assert code == 2, (stdout, stderr)
    assert stdout == ""
    assert stderr.strip() and "Traceback" not in stderr


def test_invalid_document_on_stdin_exits_2():
    code, stdout, stderr = cli("-", stdin="{nope")
    assert code == 2 and stdout == "" and stderr.strip()


def test_missing_file_exits_2(tmp_path):
    code, stdout, stderr = cli(tmp_path / "no-such-record.json")
    assert code == 2 and stdout == "" and stderr.strip() and "Traceback" not in stderr


def test_file_that_is_not_utf8_exits_2(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"format": "ttr-record/1", "map": "usa", "players": ["\xe9", "b"]}')
    code, stdout, stderr = cli(path)
    assert code == 2 and stdout == "" and "Traceback" not in stderr


def test_deeply_nested_json_exits_2(tmp_path):
    path = write(tmp_path, "[" * 100_000 + "]" * 100_000)
    code, stdout, stderr = cli(path)
    assert code == 2 and stdout == "" and "Traceback" not in stderr


def test_png_option_writes_the_board(tmp_path):
    png = tmp_path / "board.png"
    code, stdout, stderr = cli(RECORDS / "usa_illegal.json", "--png", png)
    assert code == 0, stderr
    json.loads(stdout)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
