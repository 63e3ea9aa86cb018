"""Developer script: convert the reference map data into our own map files.

    python -m tools.build_maps [REFERENCE_DIR]

Reads REFERENCE_DIR/{usa,europe,switzerland,nordiccountries}.json (the Board Game Arena
adaptation's data, see /work/shared/ref/maps/SOURCES.md; default /work/shared/ref/maps/
bga-tickettoride) and writes maps/<id>.json in our `ttr-map/1` format. Only the facts are
carried over (places, positions, routes, car slots, tickets); the rules come from docs/rules.md,
which wins over the reference's own rule values. The generated files are committed, so the
bot never needs the reference data.
"""
import json
import sys
from pathlib import Path

from ttr_bot.maps import MapError, validate_map

REPO = Path(__file__).resolve().parents[1]

DEFAULT_REF = Path("/work/shared/ref/maps/bga-tickettoride")
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


def convert(map_id, ref):
    """One reference document -> our document (a dict in the key order we write)."""
    spec = MAPS[map_id]
    image = ref["map_specific"]["board_image"]
    border = {}     # reference id of a border point -> our node id ("France/2")
    for country_id, points in ref["map_specific"].get("countriesEndPoints", {}).items():
        name = next(c["name"] for c in ref["cities"] if c["id"] == int(country_id))
        border.update({p: f"{name}/{i}" for i, p in enumerate(points, 1)})

    # Countries (ids -1, -2, …: France, Deutschland, Österreich, Italia) are label positions.
    countries = [{"name": c["name"], "x": c["x"], "y": c["y"]}
                 for c in sorted(ref["cities"], key=lambda c: -c["id"]) if c["id"] < 0]
    node_of, nodes = {}, []
    for c in sorted(ref["cities"], key=lambda c: c["id"]):
        if c["id"] < 0:
            continue
        node = {"id": border.get(c["id"], c["name"]), "name": c["name"]}
        if c["id"] in border:
            node["country"] = True
        nodes.append({**node, "x": c["x"], "y": c["y"]})
        node_of[c["id"]] = node["id"]

    routes = [{
        "id": r["id"], "from": node_of[r["from"]], "to": node_of[r["to"]],
        "length": r["length"], "color": "purple" if r["color"] == "pink" else r["color"],
        "tunnel": r["tunnel"], "ferry": r["ferry_locomotives"],
        "any_cards": r["any_cards_substitute"] or 0,
        "twin": r["twin_route_ids"][0] if r["twin_route_ids"] else None,
        "slots": [[s["x"], s["y"], s["angle"]] for s in r["spaces"]],
    } for r in ref["routes"]]

    decks = {}
    for name in spec["decks"]:
        cards = []
        for t in ref["destination_decks"][name]:
            card = {"from": t["from_name"], "to": t["to_name"], "points": t["points"]}
            # Switzerland: each country-to-country ticket exists twice (42 types, 46 cards).
            cards += [card, dict(card)] if t["from"] < 0 else [card]
        decks[name] = cards

    big = set(ref["map_specific"].get("bigCityIds", []))
    variants = json.loads(json.dumps(spec["variants"]))
    for v in variants.values():
        if v["tickets"].get("only_touching") == "big cities":
            v["tickets"]["only_touching"] = [c["name"] for c in ref["cities"] if c["id"] in big]

    doc = {
        "format": "ttr-map/1", "id": map_id, "name": spec["name"],
        "board": {"width": image["width"], "height": image["height"]},
        "nodes": nodes,
    }
    if countries:
        doc["countries"] = countries
    doc.update({
        "routes": routes, "ticket_decks": decks, "rules": {**BASE_RULES, **spec["rules"]},
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
