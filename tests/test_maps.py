"""maps/*.json and ttr_bot.maps: the published facts of each board, and exact messages for
broken files. The reference data in ../shared is optional: its tests skip without it."""
import copy
import csv
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from ttr_bot.engine.cards import GRAY, ROUTE_COLOR_INDEX
from ttr_bot.maps import MapError, available_maps, load_board, load_board_from_dict, validate_map, variants

REPO = Path(__file__).resolve().parents[1]

REF = Path("/work/shared/ref/maps/bga-tickettoride")
REF_FILE = {"usa": "usa", "europe": "europe", "switzerland": "switzerland",
            "nordic": "nordiccountries"}
needs_ref = pytest.mark.skipif(not REF.is_dir(), reason="reference data not available")


def raw(map_id):
    return json.loads((REPO / "maps" / f"{map_id}.json").read_text(encoding="utf-8"))


def pair(board, a, b):
    """Routes between the places named a and b."""
    return [r for r in board.routes
            if {board.nodes[r.a].name, board.nodes[r.b].name} == {a, b}]


def ticket(board, a, b):
    [t] = [t for t in board.tickets if {t.origin, *t.dests} == {a, b}]
    return t


def cities(board):
    return [n for n in board.nodes if not n.country]


def twin_pairs(board):
    return sum(r.twin >= 0 for r in board.routes) // 2


# --- the files ------------------------------------------------------------------------------

def test_all_maps_and_variants_are_listed():
    # every map file, the six of RULES.md §12–§17 with their pictures and Discord actions
    assert available_maps() == ["europe", "india", "italy", "japan", "legendary_asia",
                                "nordic", "northern_lights", "pennsylvania", "switzerland",
                                "usa"]
    assert variants("usa") == ["base", "1910", "mega", "big_cities"]
    for map_id in ("europe", "nordic", "switzerland"):
        assert variants(map_id) == ["base"]


@pytest.mark.parametrize("map_id", ["usa", "europe", "switzerland", "nordic"])
def test_committed_files_are_valid(map_id):
    data = raw(map_id)
    assert validate_map(data) == []
    assert data["format"] == "ttr-map/1" and data["id"] == map_id
    assert "_meta" not in data and "pink" not in json.dumps(data)


ALL_BOARDS = [("usa", v) for v in ("base", "1910", "mega", "big_cities")] + [
    (m, "base") for m in ("europe", "switzerland", "nordic")]


@pytest.mark.parametrize("map_id,variant", ALL_BOARDS)
def test_every_route_has_one_slot_per_car_and_twins_point_back(map_id, variant):
    board = load_board(map_id, variant)
    for r in board.routes:
        assert len(r.slots) == r.length and all(len(s) == 3 for s in r.slots)
        if r.twin >= 0:
            other = board.routes[r.twin]
            assert other.twin == r.index and {other.a, other.b} == {r.a, r.b}
    assert [t.id for t in board.tickets] == list(range(len(board.tickets)))


def test_loading_is_cached():
    assert load_board("usa", "mega") is load_board("usa", "mega")
    assert load_board("usa") is not load_board("usa", "mega")


# --- USA ------------------------------------------------------------------------------------

def test_usa_counts():
    board = load_board("usa")
    assert (board.map_id, board.variant, board.name) == ("usa", "base", "USA")
    assert (board.width, board.height) == (1744, 1125)
    assert len(board.nodes) == 36 and len(board.routes) == 100
    assert twin_pairs(board) == 22
    assert sum(r.color == GRAY for r in board.routes) == 44
    assert len(board.tickets) == 30
    assert len(load_board("usa", "1910").tickets) == 35
    assert len(load_board("usa", "mega").tickets) == 69
    assert len(load_board("usa", "big_cities").tickets) == 35
    assert sum(t.points[0] for t in board.tickets) == 349


def test_big_cities_tickets_all_touch_a_big_city():
    big = {"Chicago", "Dallas", "Houston", "Los Angeles", "Miami", "New York", "Seattle"}
    board = load_board("usa", "big_cities")
    assert all(big & {t.origin, *t.dests} for t in board.tickets)
    mega = load_board("usa", "mega")
    assert [t.label() for t in board.tickets] == [
        t.label() for t in mega.tickets if big & {t.origin, *t.dests}]


def test_usa_known_facts():
    board = load_board("usa")
    [r] = pair(board, "San Francisco", "Salt Lake City")[:1]
    assert r.length == 5 and len(pair(board, "San Francisco", "Salt Lake City")) == 2
    assert ticket(load_board("usa", "1910"), "Los Angeles", "Oklahoma City").points == (9,)
    revised = {("Los Angeles", "Miami"): (20, 19), ("Los Angeles", "New York"): (21, 20),
               ("Sault St. Marie", "Oklahoma City"): (9, 8), ("Seattle", "New York"): (22, 20)}
    mega = load_board("usa", "mega")
    for (a, b), (old, new) in revised.items():
        assert ticket(board, a, b).points == (old,)
        assert ticket(mega, a, b).points == (new,)
    assert "Montréal" in board.place_nodes and "Saint Louis" in board.place_nodes


def test_lanes_count_per_colour_between_the_same_places():
    board = load_board("usa")
    grays = pair(board, "Atlanta", "Raleigh")
    assert [(r.color, r.lane) for r in grays] == [(GRAY, 1), (GRAY, 2)]
    assert grays[0].twin == grays[1].index
    coloured = pair(board, "Boston", "New York")
    assert sorted(r.lane for r in coloured) == [1, 1]
    assert {r.color for r in coloured} == {ROUTE_COLOR_INDEX["yellow"], ROUTE_COLOR_INDEX["red"]}


@pytest.mark.parametrize("variant,deal,keep,draw,longest,globe,ties", [
    ("base", 3, 2, 3, 10, 0, ("tickets", "longest_path")),
    ("1910", 3, 2, 3, 0, 15, ("tickets",)),
    ("mega", 5, 3, 4, 10, 15, ("tickets", "longest_path")),
    ("big_cities", 4, 2, 4, 0, 0, ("tickets",)),
])
def test_usa_variant_rules(variant, deal, keep, draw, longest, globe, ties):
    rules = load_board("usa", variant).rules
    assert (rules.start_regular, rules.start_keep_min, rules.draw_tickets, rules.draw_keep_min) \
        == (deal, keep, draw, 1)
    assert (rules.longest_path_bonus, rules.globetrotter_bonus, rules.tie_breaks) \
        == (longest, globe, ties)
    assert (rules.unkept_start, rules.unkept_draw) == ("bottom", "bottom")
    assert (rules.trains, rules.stations, rules.min_players, rules.max_players) == (45, 0, 2, 5)
    assert rules.double_routes_min_players == 4 and rules.flush_locomotives == 3
    assert rules.route_points == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}


# --- Europe ---------------------------------------------------------------------------------

def test_europe_counts_and_rules():
    board = load_board("europe")
    assert len(board.nodes) == 47 and len(board.routes) == 101
    assert sum(r.tunnel for r in board.routes) == 18
    assert sum(r.ferry > 0 for r in board.routes) == 13
    assert twin_pairs(board) == 11
    assert sum(r.color == GRAY for r in board.routes) == 37
    assert len(board.regular_tickets) == 40 and len(board.long_tickets) == 6
    assert board.tickets[:40] == tuple(board.regular_tickets)    # regular first, then long
    assert [r.length for r in pair(board, "Athina", "Sofia")] == [3]
    rules = board.rules
    assert (rules.start_long, rules.start_regular, rules.start_keep_min) == (1, 3, 2)
    assert (rules.unkept_start, rules.unkept_draw) == ("out", "bottom")
    assert (rules.stations, rules.station_bonus, rules.longest_path_bonus) == (3, 4, 10)
    assert rules.tie_breaks == ("tickets", "fewest_stations", "longest_path")


# --- Switzerland ----------------------------------------------------------------------------

def test_switzerland_counts_and_countries():
    board = load_board("switzerland")
    borders = [n for n in board.nodes if n.country]
    assert len(cities(board)) == 34 and len(borders) == 17
    assert {n.name for n in borders} == {"France", "Deutschland", "Österreich", "Italia"}
    assert [name for name, _, _ in board.countries] == ["France", "Deutschland", "Österreich",
                                                        "Italia"]
    assert len(board.place_nodes["Italia"]) == 5 and len(board.place_nodes["Österreich"]) == 3
    assert len(board.routes) == 88 and sum(r.tunnel for r in board.routes) == 42
    kreuz = pair(board, "Kreuzlingen", "Deutschland")
    assert len(kreuz) == 2 and all(r.twin == -1 and r.lane == 1 for r in kreuz)
    assert kreuz[0].b != kreuz[1].b


def test_switzerland_tickets():
    board = load_board("switzerland")
    assert len(board.tickets) == 46
    assert len({(t.origin, t.dests, t.points) for t in board.tickets}) == 42
    countries = ("France", "Deutschland", "Österreich", "Italia")
    assert [t.origin for t in board.tickets[:8]] == [c for c in countries for _ in (1, 2)]
    zurich = [t for t in board.tickets if t.origin == "Zürich" and t.multi]
    assert [(t.dests, t.points) for t in zurich] == [(countries, (7, 3, 7, 11))]
    rules = board.rules
    assert (rules.trains, rules.min_players, rules.max_players) == (40, 2, 3)
    assert rules.locomotives_only_on == frozenset({"tunnel"})
    assert not rules.faceup_locomotive_limit and rules.flush_locomotives == 3
    assert (rules.start_regular, rules.start_keep_min, rules.draw_tickets, rules.draw_keep_min) \
        == (5, 2, 3, 1)
    assert (rules.unkept_start, rules.unkept_draw) == ("out", "out")
    assert rules.double_routes_min_players == 3 and rules.tie_breaks == ("tickets", "longest_path")


# --- Nordic ---------------------------------------------------------------------------------

def test_nordic_counts_and_rules():
    board = load_board("nordic")
    assert (board.map_id, board.width, board.height) == ("nordic", 1125, 1744)
    assert len(board.nodes) == 39 and len(board.routes) == 81
    assert sum(r.tunnel for r in board.routes) == 10
    ferries = [r for r in board.routes if r.ferry > 0]
    assert len(ferries) == 24 and all(r.any_cards == 3 for r in ferries)
    [murmansk] = pair(board, "Murmansk", "Lieksa")
    assert (murmansk.length, murmansk.any_cards, murmansk.ferry) == (9, 4, 0)
    assert len(board.tickets) == 46
    ks = pair(board, "Kristiansand", "Stavanger")
    assert [r.lane for r in ks] == [1, 1] and ks[0].twin == ks[1].index
    rules = board.rules
    assert rules.route_points[9] == 27 and rules.locomotives_only_on == {"tunnel", "ferry"}
    assert (rules.longest_path_bonus, rules.globetrotter_bonus, rules.tie_breaks) \
        == (0, 10, ("tickets",))
    assert rules.flush_locomotives == 3 and any("three-locomotive" in n for n in rules.notes)


# --- against the reference data (skipped without ../shared) ---------------------------------

@needs_ref
@pytest.mark.parametrize("map_id", ["usa", "europe", "switzerland", "nordic"])
def test_names_are_those_of_the_reference_csv(map_id):
    with open(REF / f"{REF_FILE[map_id]}-cities.csv", encoding="utf-8") as f:
        ref_names = [row["name"] for row in csv.DictReader(f) if int(row["city_id"]) > 0]
    board = load_board(map_id)
    assert [n.name for n in board.nodes] == ref_names


@needs_ref
def test_committed_files_are_what_the_build_script_writes():
    spec = importlib.util.spec_from_file_location("build_maps", REPO / "tools" / "build_maps.py")
    build_maps = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_maps)
    for map_id, text in build_maps.build(REF).items():
        assert (REPO / "maps" / f"{map_id}.json").read_text(encoding="utf-8") == text, map_id


# --- broken files: each mistake gets its own exact message ----------------------------------

def broken(change, map_id="usa"):
    data = copy.deepcopy(raw(map_id))
    change(data)
    return validate_map(data)


def route(data, rid):
    [r] = [r for r in data["routes"] if r["id"] == rid]
    return r


def test_unknown_city():
    assert broken(lambda d: route(d, 17).update({"to": "Denvr"})) == [
        "route 17: unknown city 'Denvr'"]


def test_slot_count_must_match_length():
    assert broken(lambda d: route(d, 18)["slots"].pop()) == ["route 18: length 4 but 3 slots"]


def test_twin_must_point_back():
    def change(d):
        route(d, 5)["twin"] = 3
    assert broken(change) == ["route 4: twin 5 does not point back",
                              "route 5: twin 3 does not point back"]


def test_twin_must_join_the_same_places():
    def change(d):
        route(d, 19)["to"] = "Toronto"
    assert broken(change) == ["route 19: twin 20 joins other places",
                              "route 20: twin 19 joins other places"]


def test_twin_must_exist():
    assert broken(lambda d: route(d, 1).update({"twin": 999})) == [
        "route 1: twin 999 is not another route"]


def test_bad_colour_length_and_flags():
    assert broken(lambda d: route(d, 15).update({"color": "pink"})) == [
        "route 15: unknown colour 'pink'"]
    assert broken(lambda d: route(d, 1).update({"length": 10})) == [
        "route 1: length must be a whole number from 1 to 9"]
    assert broken(lambda d: route(d, 1).update({"length": 0})) == [
        "route 1: length must be a whole number from 1 to 9"]
    assert broken(lambda d: route(d, 1).update({"tunnel": 1})) == [
        "route 1: tunnel must be true or false"]
    assert broken(lambda d: route(d, 1).update({"ferry": 3})) == [
        "route 1: ferry must be a whole number from 0 to the length"]


def test_route_keys():
    assert broken(lambda d: route(d, 2).pop("color")) == ["route 2: missing key 'color'"]
    assert broken(lambda d: route(d, 2).update({"colour": "red"})) == [
        "route 2: unknown key 'colour'"]
    assert broken(lambda d: route(d, 2).update({"id": 1})) == ["route 1: duplicate id"]


def test_duplicate_node_id():
    def change(d):
        d["nodes"][1]["id"] = "Atlanta"
    # the routes that used "Boston" now name an unknown city too
    problems = broken(change)
    assert problems[0] == "node 2: duplicate id 'Atlanta'"
    assert "route 8: unknown city 'Boston'" in problems


def test_two_cities_with_one_name():
    def change(d):
        d["nodes"].append({"id": "Atlanta2", "name": "Atlanta", "x": 1, "y": 1})
    assert broken(change) == ["node 37: two cities are called 'Atlanta'"]


def test_node_outside_the_board():
    assert broken(lambda d: d["nodes"][0].update({"x": 5000})) == [
        "node 'Atlanta': position outside the board"]


def test_unknown_deck_in_variant():
    assert broken(lambda d: d["variants"]["mega"]["tickets"]["regular"].append("x")) == [
        "variant 'mega': unknown deck 'x'"]


def test_unknown_place_in_only_touching():
    assert broken(lambda d: d["variants"]["big_cities"]["tickets"]["only_touching"]
                  .append("Gotham")) == [
        "variant 'big_cities': unknown place 'Gotham' in only_touching"]


def test_ticket_points_and_places():
    assert broken(lambda d: d["ticket_decks"]["base"][3].update({"points": 0})) == [
        "ticket deck 'base' item 4: points must be a positive integer"]
    assert broken(lambda d: d["ticket_decks"]["base"][3].update({"points": "7"})) == [
        "ticket deck 'base' item 4: points must be a positive integer"]
    assert broken(lambda d: d["ticket_decks"]["usa1910"][0].update({"to": "Nashvile"})) == [
        "ticket deck 'usa1910' item 1: unknown place 'Nashvile'"]


def test_multi_destination_ticket_needs_one_value_per_place():
    def change(d):
        d["ticket_decks"]["base"][8]["points"] = [5, 6, 11]
    assert broken(change, "switzerland") == [
        "ticket deck 'base' item 9: points must be a list of positive integers,"
        " one per destination"]


def test_rules_keys_and_types():
    assert broken(lambda d: d["rules"].update({"train": 45})) == ["rules: unknown key 'train'"]
    assert broken(lambda d: d["rules"].update({"trains": "45"})) == [
        "rules: 'trains' must be a whole number >= 0"]
    assert broken(lambda d: d["rules"].update({"faceup_locomotive_limit": 1})) == [
        "rules: 'faceup_locomotive_limit' must be true or false"]
    assert broken(lambda d: d["rules"].update({"unkept_draw": "box"})) == [
        "rules: 'unkept_draw' must be 'bottom' or 'out'"]
    assert broken(lambda d: d["rules"].update({"tie_breaks": ["tickets", "age"]})) == [
        "rules: 'tie_breaks' must be a list of 'fewest_stations', 'longest_path', 'tickets'"]
    assert broken(lambda d: d["variants"]["1910"]["rules"].update({"globetrotter": 15})) == [
        "variant '1910' rules: unknown key 'globetrotter'"]


def test_route_points_must_cover_every_length():
    def change(d):
        del d["rules"]["route_points"]["9"]
    assert broken(change, "nordic") == ["variant 'base': no route_points for length 9"]


def test_top_level_keys_and_format():
    assert broken(lambda d: d.pop("routes")) == ["missing key 'routes'",
                                                 "routes: must be a non-empty list"]
    assert broken(lambda d: d.update({"format": "ttr-map/2", "_meta": {}})) == [
        "unknown key '_meta'", "format must be 'ttr-map/1', not 'ttr-map/2'"]


def test_load_raises_with_every_problem():
    data = raw("usa")
    route(data, 17)["to"] = "Denvr"
    data["ticket_decks"]["base"][3]["points"] = -1
    with pytest.raises(MapError) as err:
        load_board_from_dict(data, "base")
    assert err.value.problems == ["route 17: unknown city 'Denvr'",
                                  "ticket deck 'base' item 4: points must be a positive integer"]
    assert "route 17: unknown city 'Denvr'" in str(err.value)


def test_unknown_map_or_variant():
    with pytest.raises(MapError, match="unknown variant 'mega'"):
        load_board("europe", "mega")
    with pytest.raises(MapError, match="unknown map 'atlantis'"):
        load_board("atlantis")
    assert load_board_from_dict(raw("usa"), "1910").variant == "1910"


def test_loader_is_pure():
    import subprocess
    code = ("import sys, ttr_bot.maps as m; m.load_board('usa'); "
            "print(sorted({k.split('.')[0] for k in sys.modules}"
            " & {'discord', 'aiosqlite', 'PIL'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr
