"""`python -m ttr_bot.replay` on the golden records of the six newer maps (tests/records/newer,
RULES.md §12–§17): exit 0, one JSON document with the documented keys plus each map's own
(docs/record-format.md), the exported record replaying to the same result."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ttr_bot.game_record import export_record, replay, result

REPO = Path(__file__).resolve().parents[1]
NEWER = REPO / "tests" / "records" / "newer"
BASE_KEYS = {"name", "route_points", "tickets", "tickets_completed", "ticket_points",
             "longest_path", "bonuses", "total", "trains_left", "stations_left", "hand"}
OWN = {   # record file -> (the map's own player keys, its bonus key, its top-level keys)
    "india_grand_tours.json": ({"grand_tours"}, "grand_tour", set()),
    "legendary_asia_mountains.json": ({"mountain_trains", "network_cities"}, "asian_explorer", set()),
    "pennsylvania_shares.json": ({"shares"}, "shares", {"dummy"}),
    "japan_bullet_track.json": ({"bullet_track"}, "bullet_track", {"bullet_trains_left"}),
    "italy_ferries_regions.json": ({"ferry_cards"}, "regions", set()),
    "northern_lights_bonus_cards.json": ({"bonus_cards_won"}, "bonus_cards", {"bonus_cards"}),
}


def test_every_newer_record_is_covered():
    assert sorted(p.name for p in NEWER.glob("*.json")) == sorted(OWN)


def test_the_replay_tool_prints_each_map_s_own_keys():
    for name, (keys, bonus, top) in OWN.items():
        proc = subprocess.run([sys.executable, "-m", "ttr_bot.replay", str(NEWER / name)],
                              cwd=REPO, capture_output=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert set(out) == {"status", "error", "turn", "players", "winners"} | top, name
        for pl in out["players"]:
            assert set(pl) == BASE_KEYS | keys, name
            assert set(pl["bonuses"]) == {"longest_path", "globetrotter", "stations", bonus}
            assert pl["total"] == pl["route_points"] + pl["ticket_points"] + sum(pl["bonuses"].values())
        assert out["status"] == "finished" and out["error"] is None


@pytest.mark.parametrize("name", sorted(OWN))
def test_an_exported_record_replays_the_same(name):
    doc = json.loads((NEWER / name).read_text(encoding="utf-8"))
    game, names, _ = replay(doc)
    again = export_record(game, names, doc["actions"])
    game2, names2, error = replay(json.loads(json.dumps(again)))
    assert error is None and result(game2, names2) == result(game, names)
