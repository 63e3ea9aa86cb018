"""The six maps of RULES.md §12–§17 as maps/*.json holds them: the published counts of each
board, every rule value, the marks the newer rules read, and exact messages for broken marks.
The reference data in ../shared is optional: its tests skip without it."""
import copy
import csv
import json
from pathlib import Path

import pytest

from ttr_bot.maps import available_maps, load_board, map_files, validate_map

REPO = Path(__file__).resolve().parents[1]
REF = Path("/work/shared/ref/maps/bga-tickettoride")
NEWER = {"india": "india", "legendary_asia": "legendaryasia", "pennsylvania": "pennsylvania",
         "japan": "japan", "italy": "italy", "northern_lights": "northernlights"}
needs_ref = pytest.mark.skipif(not REF.is_dir(), reason="reference data not available")


def raw(map_id):
    return json.loads((REPO / "maps" / f"{map_id}.json").read_text(encoding="utf-8"))


def lanes(board, k):
    """Pairs of places joined by exactly k parallel lanes."""
    return sum(1 for r in board.routes if len(r.lanes) == k - 1) // k


def test_every_map_file_is_listed_and_valid():
    assert map_files() == sorted(["europe", "nordic", "switzerland", "usa", *NEWER])
    for map_id in NEWER:
        data = raw(map_id)
        assert validate_map(data) == [] and data["id"] == map_id
        assert "pink" not in json.dumps(data)


# (cities, border nodes, routes, doubles, triples, regular tickets, long tickets, players, trains)
COUNTS = {
    "india": (39, 0, 108, 28, 0, 58, 0, (2, 4), 45),                 # §12.1
    "legendary_asia": (39, 0, 101, 29, 1, 30, 6, (2, 5), 45),       # §13.1
    "pennsylvania": (34, 2, 95, 24, 0, 50, 0, (2, 5), 45),          # §14.1
    "japan": (48, 0, 114, 22, 0, 54, 0, (2, 5), 20),                # §15.1 (Aomori–Hakodate: no double)
    "italy": (34, 12, 128, 42, 1, 56, 0, (2, 5), 45),               # §16.1
    "northern_lights": (50, 0, 161, 48, 2, 55, 0, (2, 5), 40),      # §17.1
}


@pytest.mark.parametrize("map_id", sorted(COUNTS))
def test_counts(map_id):
    cities, border, routes, doubles, triples, regular, long_, players, trains = COUNTS[map_id]
    b = load_board(map_id)
    assert sum(not n.country for n in b.nodes) == cities
    assert sum(n.country for n in b.nodes) == border
    assert (len(b.routes), lanes(b, 2), lanes(b, 3)) == (routes, doubles, triples)
    assert (len(b.regular_tickets), len(b.long_tickets)) == (regular, long_)
    assert (b.rules.min_players, b.rules.max_players, b.rules.trains) == (*players, trains)
    for r in b.routes:
        assert len(r.slots) == r.length
        for other in r.lanes:
            assert r.index in b.routes[other].lanes and {r.a, r.b} == {b.routes[other].a, b.routes[other].b}


def test_marks_per_rules():
    india, asia = load_board("india"), load_board("legendary_asia")
    assert sum(r.ferry > 0 for r in india.routes) == 8
    [cm] = [r for r in india.routes if {india.nodes[r.a].name, india.nodes[r.b].name} == {"Calcutta", "Madras"}]
    assert (cm.length, cm.ferry) == (8, 2)
    assert sum(r.ferry > 0 for r in asia.routes) == 15
    assert [sum(r.mountain == k for r in asia.routes) for k in (1, 2)] == [22, 8]
    penn = load_board("pennsylvania")
    assert sum(bool(r.shares) for r in penn.routes) == 87
    assert set(penn.rules.share_points) == {2, 3, 4, 5, 6, 7, 8, 10, 15}
    assert penn.rules.share_points[15] == (30, 21, 14, 9, 6)
    japan = load_board("japan")
    assert (sum(r.bullet for r in japan.routes), sum(r.length for r in japan.routes if r.bullet)) == (23, 59)
    assert all(r.color == -1 for r in japan.routes if r.bullet) and japan.rules.bullet_trains == 16
    assert {n.name for n in japan.nodes if n.inset} == {"Tokyo", "Kokura"}
    italy = load_board("italy")
    assert sum(r.waves > 0 for r in italy.routes) == 21 and sum(r.length == 7 for r in italy.routes) == 8
    assert len({n.region for n in italy.nodes if not n.country}) == 17
    assert all(n.region == 0 for n in italy.nodes if n.country)
    nl = load_board("northern_lights")
    assert (sum(r.ferry > 0 for r in nl.routes), sum(r.ferry for r in nl.routes)) == (53, 63)
    assert all(r.pairs for r in nl.routes if r.ferry) and sum(r.draw_bonus > 0 for r in nl.routes) == 18
    assert len({n.nation for n in nl.nodes}) == 9
    assert "Unnamed Swedish city (north)" in nl.rules.arctic
    assert "Unnamed Swedish city (south)" not in nl.rules.arctic
    assert set(nl.rules.capitals) == {"Helsinki", "København", "Oslo", "Stockholm"}


def test_rule_values_per_section():
    r = load_board("india").rules                     # §12.1, §12.3
    assert (r.start_regular, r.start_keep_min, r.draw_tickets, r.draw_keep_min) == (4, 2, 3, 1)
    assert r.grand_tour_points == {0: 0, 1: 5, 2: 10, 3: 20, 4: 30, 5: 40} and r.longest_path_bonus == 10
    r = load_board("legendary_asia").rules            # §13.1
    assert (r.start_long, r.start_regular, r.start_keep_min, r.unkept_start) == (1, 3, 2, "out")
    assert (r.longest_path_bonus, r.globetrotter_bonus, r.explorer_bonus, r.mountain_points) == (0, 0, 10, 2)
    r = load_board("pennsylvania").rules              # §14.1, §14.5
    assert (r.start_regular, r.start_keep_min, r.draw_tickets) == (5, 3, 4)
    assert (r.longest_path_bonus, r.globetrotter_bonus) == (0, 15)
    r = load_board("japan").rules                     # §15
    assert (r.trains, r.bullet_trains, r.bullet_end, r.bullet_zero) == (20, 16, 2, -20)
    assert r.bullet_track_bonus[5] == (25, 15, 5, -5, -10)
    r = load_board("italy").rules                     # §16
    assert (r.start_regular, r.start_keep_min, r.draw_tickets, r.ferry_cards_max) == (5, 3, 4, 2)
    assert r.region_points[15] == 56 and r.region_double == (11, 12, 13)
    assert [r.lanes_open(n, 3) for n in (2, 3, 4, 5)] == [1, 1, 3, 3]
    r = load_board("northern_lights").rules           # §17.1
    assert (r.locomotives, r.flush_limit, r.trains) == (18, 0, 40)
    assert [r.lanes_open(n, 3) for n in (2, 3, 4, 5)] == [1, 2, 3, 3]
    assert [r.lanes_open(n, 2) for n in (2, 3, 4, 5)] == [1, 1, 2, 2]
    assert sum(r.bonus_cards.values()) == 5 + 7 + 7 + 10 + 10 + 10 + 12 * 4 + 7 and r.bonus_cards_dealt == 4


def test_border_points_split_per_route_end():
    """RULES.md preamble: routes meeting at one border point are not connected through it:
    each border point is one node per city its routes come from (a double shares it)."""
    for map_id, country in (("italy", "Austria"), ("pennsylvania", "Ontario")):
        b = load_board(map_id)
        for n in b.place_nodes[country]:
            others = {b.nodes[r.b if r.a == n else r.a].name for r in b.routes if n in (r.a, r.b)}
            assert len(others) == 1, (country, others)
    italy = load_board("italy")
    assert len(italy.place_nodes["Austria"]) == 2 and len(italy.place_nodes["Svizzera"]) == 4


def test_not_offered_until_the_engine_plays_them():
    from ttr_bot.engine.mechanics import IMPLEMENTED
    from ttr_bot.maps import AWAITING_PICTURES, engine_maps
    for map_id in NEWER:
        plays = set(load_board(map_id).rules.mechanics) <= IMPLEMENTED
        assert (map_id in engine_maps()) == plays
        assert (map_id in available_maps()) == (plays and map_id not in AWAITING_PICTURES)
    assert "legendary_asia" in engine_maps() and "japan" in engine_maps()


def broken(change, map_id):
    data = copy.deepcopy(raw(map_id))
    change(data)
    return validate_map(data)


def route(data, rid):
    [r] = [r for r in data["routes"] if r["id"] == rid]
    return r


def test_broken_marks_have_exact_messages():
    assert broken(lambda d: route(d, 2).update({"mountain": 0}), "legendary_asia") == [
        "route 2: mountain must be a whole number from 1 to 9"]
    assert broken(lambda d: d["rules"].update({"mechanics": ["asian_explorer"]}), "legendary_asia") == [
        "route 2: 'mountain' needs the mechanic 'mountains'"]
    assert broken(lambda d: route(d, 2).update({"shares": [9]}), "pennsylvania") == [
        "route 2: company 9 has no share_points"]
    assert broken(lambda d: d["rules"].update({"mechanics": ["warp"]}), "india") == [
        "rules: 'mechanics' must be a list of " + ", ".join(
            f"'{m}'" for m in sorted(["mountains", "asian_explorer", "grand_tour", "shares", "bullet",
                                      "ferry_cards", "regions", "ferry_pairs", "draw_bonus", "bonus_cards"]))]
    assert broken(lambda d: d["rules"].update({"bonus_cards_dealt": 12}), "northern_lights") == [
        "rules: bonus_cards_dealt is more than the bonus cards"]
    assert broken(lambda d: d["nodes"][0].update({"region": "x"}), "italy")[0].endswith(
        "region must be a whole number >= 1")
    assert broken(lambda d: d["rules"].update({"bullet_track_bonus": {"2": [10, "x"]}}), "japan") == [
        "rules: 'bullet_track_bonus' must map numbers to points, e.g. {\"1\": 1}"]


@needs_ref
@pytest.mark.parametrize("map_id", sorted(NEWER))
def test_city_names_are_those_of_the_reference_csv(map_id):
    with open(REF / f"{NEWER[map_id]}-cities.csv", encoding="utf-8") as f:
        ref_names = {row["name"] for row in csv.DictReader(f)}
    assert {n.name for n in load_board(map_id).nodes} <= ref_names
