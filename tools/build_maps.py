"""Developer script: convert the reference map data into our own map files.

    python -m tools.build_maps [REFERENCE_DIR]

Reads REFERENCE_DIR/<source>.json for every map below (the Board Game Arena adaptation's
data, see /work/shared/ref/maps/SOURCES.md; default /work/shared/ref/maps/bga-tickettoride) and
writes maps/<id>.json in our `ttr-map/1` format. Only the facts are carried over (places,
positions, routes, car slots, tickets, and the six newer maps' per-route and per-city marks);
the rules come from docs/rules.md and RULES.md §12–§17, which win over the reference's own
rule values. The generated files are committed, so the bot never needs the reference data.
"""
import json
import sys
from pathlib import Path

from ttr_bot.maps import MapError, validate_map

REPO = Path(__file__).resolve().parents[1]

DEFAULT_REF = Path("/work/shared/ref/maps/bga-tickettoride")
# Cities the board leaves unnamed carry these names in the reference data (Northern Lights,
# ../shared/ref/maps/SOURCES.md): a dot on the picture, no label; text and records keep the name.
UNNAMED = "Unnamed "
POINTS = {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "7": 18, "8": 21}

# Every Rules field, so a file says all of its rules (docs/rules.md §1–§5: the USA base game).
BASE_RULES = {
    "trains": 45, "stations": 0, "station_bonus": 4, "hand_size": 4, "end_trains": 2,
    "double_routes_min_players": 4, "route_points": POINTS, "locomotives_only_on": [],
    "faceup_locomotive_limit": True, "flush_locomotives": 3, "flush_limit": 3,
    "longest_path_bonus": 10, "globetrotter_bonus": 0, "tie_breaks": ["tickets", "longest_path"],
    "start_long": 0, "start_regular": 3, "start_keep_min": 2, "draw_tickets": 3,
    "draw_keep_min": 1, "unkept_start": "bottom", "unkept_draw": "bottom",
    "min_players": 2, "max_players": 5,
}
FLUSH_NOTE = ("The three-locomotive refill of the face-up row is applied on this map, as in the "
              "reference implementation (the rule sheet leaves this open).")

MAPS = {
    "usa": {
        "source": "usa", "name": "USA",
        "rules": {},
        "variants": {   # docs/rules.md §7
            "base": {"tickets": {"regular": ["base"], "long": []}, "rules": {}},
            "1910": {"tickets": {"regular": ["usa1910"], "long": []},
                     "rules": {"longest_path_bonus": 0, "globetrotter_bonus": 15,
                               "tie_breaks": ["tickets"]}},
            "mega": {"tickets": {"regular": ["usa1910", "mega_originals"], "long": []},
                     "rules": {"start_regular": 5, "start_keep_min": 3, "draw_tickets": 4,
                               "draw_keep_min": 1, "longest_path_bonus": 10,
                               "globetrotter_bonus": 15,
                               "tie_breaks": ["tickets", "longest_path"]}},
            "big_cities": {"tickets": {"regular": ["usa1910", "mega_originals"], "long": [],
                                       "only_touching": "big cities"},
                           "rules": {"start_regular": 4, "start_keep_min": 2, "draw_tickets": 4,
                                     "draw_keep_min": 1, "longest_path_bonus": 0,
                                     "globetrotter_bonus": 0, "tie_breaks": ["tickets"]}},
        },
        "decks": ["base", "usa1910", "mega_originals"],
        "notes": [],
    },
    "europe": {   # docs/rules.md §6
        "source": "europe", "name": "Europe",
        "rules": {"stations": 3, "station_bonus": 4, "start_long": 1, "start_regular": 3,
                  "start_keep_min": 2, "unkept_start": "out", "unkept_draw": "bottom",
                  "tie_breaks": ["tickets", "fewest_stations", "longest_path"]},
        "variants": {"base": {"tickets": {"regular": ["base_regular"], "long": ["base_long"]},
                              "rules": {}}},
        "decks": ["base_regular", "base_long"],   # the Europa 1912 decks are unchecked: left out
        "notes": [],
    },
    "switzerland": {   # docs/rules.md §8
        "source": "switzerland", "name": "Switzerland",
        "rules": {"trains": 40, "min_players": 2, "max_players": 3,
                  "locomotives_only_on": ["tunnel"], "faceup_locomotive_limit": False,
                  "start_regular": 5, "start_keep_min": 2, "draw_tickets": 3, "draw_keep_min": 1,
                  "unkept_start": "out", "unkept_draw": "out", "double_routes_min_players": 3,
                  "tie_breaks": ["tickets", "longest_path"]},
        "variants": {"base": {"tickets": {"regular": ["base"], "long": []}, "rules": {}}},
        "decks": ["base"],
        "notes": [FLUSH_NOTE],
    },
    # ---- RULES.md §12–§17 (every rule value spelled out here; `mechanics` names the
    # engine's modules in ttr_bot/engine/mechanics/ that play the map's own rules)
    "india": {   # §12
        "source": "india", "name": "India",
        "rules": {"max_players": 4, "start_regular": 4, "start_keep_min": 2,
                  "mechanics": ["grand_tour"],
                  "grand_tour_points": {"0": 0, "1": 5, "2": 10, "3": 20, "4": 30, "5": 40}},
        "variants": {"base": {"tickets": {"regular": ["base"], "long": []}, "rules": {}}},
        "decks": ["base"],
        "notes": [],
    },
    "legendary_asia": {   # §13
        "source": "legendaryasia", "name": "Legendary Asia",
        "rules": {"start_long": 1, "start_regular": 3, "start_keep_min": 2,
                  "unkept_start": "out", "unkept_draw": "bottom", "longest_path_bonus": 0,
                  "tie_breaks": ["tickets"], "triple_lanes": {"2": 1, "3": 1, "4": 3, "5": 3},
                  "mechanics": ["mountains", "asian_explorer"],
                  "mountain_points": 2, "explorer_bonus": 10},
        "variants": {"base": {"tickets": {"regular": ["base_regular"], "long": ["base_long"]},
                              "rules": {}}},
        "decks": ["base_regular", "base_long"],
        "notes": [],
    },
    "pennsylvania": {   # §14
        "source": "pennsylvania", "name": "Pennsylvania",
        "rules": {"start_regular": 5, "start_keep_min": 3, "draw_tickets": 4,
                  "longest_path_bonus": 0, "globetrotter_bonus": 15, "tie_breaks": ["tickets"],
                  "mechanics": ["shares"],
                  "share_points": {"2": [7, 4], "3": [8, 5], "4": [9, 5], "5": [10, 6, 3],
                                   "6": [12, 7, 3], "7": [15, 9, 5], "8": [16, 10, 5, 1],
                                   "10": [20, 14, 9, 5, 2], "15": [30, 21, 14, 9, 6]}},
        "variants": {"base": {"tickets": {"regular": ["base"], "long": []}, "rules": {}}},
        "decks": ["base"],
        "notes": [],
    },
    "japan": {   # §15
        "source": "japan", "name": "Japan",
        "rules": {"trains": 20, "start_regular": 4, "start_keep_min": 2,
                  "longest_path_bonus": 0, "tie_breaks": ["tickets"], "mechanics": ["bullet"],
                  "bullet_trains": 16, "bullet_end": 2, "bullet_zero": -20,
                  "bullet_track_bonus": {"2": [10, -10], "3": [15, 5, -10],
                                         "4": [20, 10, 0, -10], "5": [25, 15, 5, -5, -10]}},
        "variants": {"base": {"tickets": {"regular": ["base"], "long": []}, "rules": {}}},
        "decks": ["base"],
        "notes": [],
        "parallel_lengths_differ": False,   # §15.1: parallels of different lengths are not doubles
    },
    "italy": {   # §16
        "source": "italy", "name": "Italy",
        "rules": {"start_regular": 5, "start_keep_min": 3, "draw_tickets": 4,
                  "longest_path_bonus": 0, "tie_breaks": ["tickets"],
                  "triple_lanes": {"2": 1, "3": 1, "4": 3, "5": 3},
                  "mechanics": ["ferry_cards", "regions"], "ferry_cards_max": 2,
                  "region_points": {"5": 1, "6": 2, "7": 4, "8": 7, "9": 11, "10": 16, "11": 22,
                                    "12": 29, "13": 37, "14": 46, "15": 56},
                  "region_double": [11, 12, 13]},
        "variants": {"base": {"tickets": {"regular": ["base"], "long": []}, "rules": {}}},
        "decks": ["base"],
        "notes": [],
    },
    "northern_lights": {   # §17
        "source": "northernlights", "name": "Northern Lights",
        "rules": {"trains": 40, "locomotives": 18, "flush_limit": 0, "start_regular": 4,
                  "start_keep_min": 2, "longest_path_bonus": 0, "tie_breaks": ["tickets"],
                  "triple_lanes": {"2": 1, "3": 2, "4": 3, "5": 3},
                  "mechanics": ["ferry_pairs", "draw_bonus", "bonus_cards"],
                  "bonus_cards": {"A": 5, "B": 7, "C": 7, "D": 10, "E": 10, "F": 10, "G": 12,
                                  "H": 12, "I": 12, "J": 12, "K": 7},
                  "bonus_cards_dealt": 4},
        "variants": {"base": {"tickets": {"regular": ["base"], "long": []}, "rules": {}}},
        "decks": ["base"],
        "notes": [],
        "arctic_ids": [4, 10, 15, 16, 17, 28, 29, 35, 42, 48, 50],   # §17.4 (BGA's list)
        "capital_ids": [9, 19, 31, 37],
        "wild_west_city": "Oslo",    # bonus K: the country of Oslo (Norway)
    },
    "nordic": {   # docs/rules.md §9
        "source": "nordiccountries", "name": "Nordic Countries",
        "rules": {"trains": 40, "min_players": 2, "max_players": 3,
                  "locomotives_only_on": ["tunnel", "ferry"], "faceup_locomotive_limit": False,
                  "start_regular": 5, "start_keep_min": 2, "draw_tickets": 3, "draw_keep_min": 1,
                  "unkept_start": "out", "unkept_draw": "out", "double_routes_min_players": 3,
                  "route_points": {**POINTS, "9": 27}, "longest_path_bonus": 0,
                  "globetrotter_bonus": 10, "tie_breaks": ["tickets"]},
        "variants": {"base": {"tickets": {"regular": ["base"], "long": []}, "rules": {}}},
        "decks": ["base"],
        "notes": [FLUSH_NOTE],
    },
}


def _board_size(ref):
    """The board image's size; without one (Japan, Italy), the smallest frame round every
    city, inset and car slot with a margin."""
    image = ref["map_specific"]["board_image"]
    if image:
        return image["width"], image["height"]
    xs = [c["x"] for c in ref["cities"]] + [s["x"] for r in ref["routes"] for s in r["spaces"]]
    ys = [c["y"] for c in ref["cities"]] + [s["y"] for r in ref["routes"] for s in r["spaces"]]
    for c in ref["cities"]:
        if c.get("extraCoordinates"):
            xs.append(c["extraCoordinates"][0])
            ys.append(c["extraCoordinates"][1])
    return max(xs) + 40, max(ys) + 40


def _border_points(ref):
    """{reference id of a border point: its country's name}."""
    end_points = (ref["map_specific"].get("countriesEndPoints")
                  or ref["rules"].get("countries_end_points") or {})
    out = {}
    for country_id, points in end_points.items():
        name = next(c["name"] for c in ref["cities"] if c["id"] == int(country_id))
        out.update({p: name for p in points})
    return out


def _border_nodes(ref, border):
    """{(border point id, other end's id or None): our node id}. Each border point is one node
    per city its routes come from: routes meeting at a border point are not connected through
    it (RULES.md, the preamble before §12). Switzerland's points have one route each, so its
    ids are those of the points ("France/2")."""
    ends = {}
    for r in ref["routes"]:
        for here, there in ((r["from"], r["to"]), (r["to"], r["from"])):
            if here in border:
                ends.setdefault(here, [])
                if there not in ends[here]:
                    ends[here].append(there)
    out, count = {}, {}
    for point in sorted(border, key=lambda p: (border[p], p)):
        for there in ends.get(point, [None]):
            count[border[point]] = count.get(border[point], 0) + 1
            out[point, there] = f"{border[point]}/{count[border[point]]}"
    return out


def _twins(spec, ref):
    """{route id: the other lanes' ids}: the reference's twins, less those of another length
    where the map says parallels of different lengths are not doubles (Japan, §15.1)."""
    length = {r["id"]: r["length"] for r in ref["routes"]}
    out = {}
    for r in ref["routes"]:
        twins = r["twin_route_ids"]
        if not spec.get("parallel_lengths_differ", True):
            twins = [t for t in twins if length[t] == r["length"]]
        out[r["id"]] = twins
    return out


def _route(r, node_of, twins):
    """One route in our form: the six newer maps' marks only where a route has them, so the
    four first maps' files stay as they were."""
    out = {
        "id": r["id"], "from": node_of(r["from"], r["to"]), "to": node_of(r["to"], r["from"]),
        "length": r["length"], "color": "purple" if r["color"] == "pink" else r["color"],
        "tunnel": r["tunnel"], "ferry": r["ferry_locomotives"],
        "any_cards": r["any_cards_substitute"] or 0,
        "twin": (twins[0] if len(twins) == 1 else twins) if twins else None,
    }
    extra = {"mountain": r.get("mountain") or 0, "shares": r.get("stock_shares") or [],
             "bullet": r.get("bullet_train_space_index") is not None,
             "waves": r.get("ferry_waves") or 0, "pairs": bool(r.get("ferry_pair_substitute")),
             "draw_bonus": r.get("drawing_bonus") or 0}
    out.update({k: v for k, v in extra.items() if v})
    out["slots"] = [[s["x"], s["y"], s["angle"]] for s in r["spaces"]]
    return out


def convert(map_id, ref):
    """One reference document -> our document (a dict in the key order we write)."""
    spec = MAPS[map_id]
    width, height = _board_size(ref)
    border = _border_points(ref)
    border_node = _border_nodes(ref, border)

    # Countries (ids -1, -2, …: France, Deutschland, Österreich, Italia) are label positions.
    countries = [{"name": c["name"], "x": c["x"], "y": c["y"]}
                 for c in sorted(ref["cities"], key=lambda c: -c["id"]) if c["id"] < 0]
    city_node, nodes = {}, []
    for c in sorted(ref["cities"], key=lambda c: c["id"]):
        if c["id"] < 0:
            continue
        if c["id"] in border:
            nodes += [{"id": node, "name": c["name"], "country": True, "x": c["x"], "y": c["y"]}
                      for (point, _), node in border_node.items() if point == c["id"]]
            continue
        node = {"id": c["name"], "name": c["name"]}
        if c["name"].startswith(UNNAMED):
            node["unnamed"] = True
        if c.get("region"):
            node["region"] = c["region"]
        if c.get("country"):
            node["nation"] = c["country"]
        if c.get("extraCoordinates"):
            node["inset"] = list(c["extraCoordinates"])
        nodes.append({**node, "x": c["x"], "y": c["y"]})
        city_node[c["id"]] = node["id"]

    def node_of(here, there):
        return border_node[here, there] if here in border else city_node[here]

    twins = _twins(spec, ref)
    routes = [_route(r, node_of, twins[r["id"]]) for r in ref["routes"]]

    decks = {}
    for name in spec["decks"]:
        cards = []
        for t in ref["destination_decks"][name]:
            card = {"from": t["from_name"], "to": t["to_name"], "points": t["points"]}
            # Switzerland: each country-to-country ticket exists twice (42 types, 46 cards).
            twice = t["from"] < 0 and map_id == "switzerland"
            cards += [card, dict(card)] if twice else [card]
        decks[name] = cards

    big = set(ref["map_specific"].get("bigCityIds", []))
    variants = json.loads(json.dumps(spec["variants"]))
    for v in variants.values():
        if v["tickets"].get("only_touching") == "big cities":
            v["tickets"]["only_touching"] = [c["name"] for c in ref["cities"] if c["id"] in big]

    rules = {**BASE_RULES, **spec["rules"]}
    name_of = {c["id"]: c["name"] for c in ref["cities"]}
    if "arctic_ids" in spec:
        rules["arctic"] = [name_of[i] for i in spec["arctic_ids"]]
        rules["capitals"] = [name_of[i] for i in spec["capital_ids"]]
        rules["wild_west_nation"] = next(c["country"] for c in ref["cities"]
                                         if c["name"] == spec["wild_west_city"])
    doc = {
        "format": "ttr-map/1", "id": map_id, "name": spec["name"],
        "board": {"width": width, "height": height},
        "nodes": nodes,
    }
    if countries:
        doc["countries"] = countries
    doc.update({
        "routes": routes, "ticket_decks": decks, "rules": rules,
        "variants": variants, "notes": spec["notes"],
    })
    return doc


def render(value, level=0):
    """JSON with one node / route / ticket per line: readable diffs, small files."""
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(value, dict) and level <= 1:
        items = [f"{inner}{json.dumps(k)}: {render(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}" if items else "{}"
    if isinstance(value, list) and value and (level <= 1 or isinstance(value[0], dict)):
        items = [f"{inner}{render(v, level + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def build(ref_dir=DEFAULT_REF):
    """{map id: file text} for every map."""
    out = {}
    for map_id, spec in MAPS.items():
        ref = json.loads((Path(ref_dir) / f"{spec['source']}.json").read_text(encoding="utf-8"))
        doc = convert(map_id, ref)
        problems = validate_map(doc)
        if problems:
            raise MapError([f"{map_id}: {p}" for p in problems])
        out[map_id] = render(doc) + "\n"
    return out


def main(argv):
    ref_dir = Path(argv[1]) if len(argv) > 1 else DEFAULT_REF
    for map_id, text in build(ref_dir).items():
        path = REPO / "maps" / f"{map_id}.json"
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(REPO)}")


if __name__ == "__main__":
    main(sys.argv)
