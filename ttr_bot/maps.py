"""Load maps/*.json (format `ttr-map/1`) into engine Board objects, and say what is wrong with a
file that cannot be loaded. Pure: reads the file and nothing else."""
import copyreg
import dataclasses
import functools
import json
import pickle
import sysconfig
from pathlib import Path

from ttr_bot.engine.board import Board, Node, Route, Rules, Ticket
from ttr_bot.engine.cards import ROUTE_COLOR_INDEX
from ttr_bot.engine.mechanics import IMPLEMENTED


def _maps_dir():
    """maps/ beside the package in a checkout; in an installed copy (`pip install .`), where
    pyproject.toml's data-files put them."""
    here = Path(__file__).resolve().parents[1] / "maps"
    if here.is_dir():
        return here
    return Path(sysconfig.get_path("data")) / "share" / "ttr-bot" / "maps"


MAPS_DIR = _maps_dir()
FORMAT = "ttr-map/1"
TOP_KEYS = {"format", "id", "name", "board", "nodes", "countries", "routes", "ticket_decks",
            "rules", "variants", "notes"}
OPTIONAL_TOP_KEYS = {"countries", "notes"}
ROUTE_KEYS = {"id", "from", "to", "length", "color", "tunnel", "ferry", "any_cards", "twin",
              "slots"}
# the six newer maps' marks (RULES.md §12–§17), present only where a route has one
ROUTE_MARKS = {"mountain": "count", "shares": "companies", "bullet": "flag", "waves": "count",
               "pairs": "flag", "draw_bonus": "count"}
NODE_MARKS = ("region", "nation", "inset", "unnamed")
# the engine's modules for a map's own rules (ttr_bot/engine/mechanics), by the name a map file uses
MECHANICS = {"mountains", "asian_explorer", "grand_tour", "shares", "bullet", "ferry_cards",
             "regions", "ferry_pairs", "draw_bonus", "bonus_cards"}
# rule values that are JSON objects keyed by a number: the value's kind
NUMBER_MAPS = {"route_points": "int", "triple_lanes": "int", "grand_tour_points": "int",
               "region_points": "int", "share_points": "ints", "bullet_track_bonus": "ints"}
RULE_FIELDS = {f.name: f.default if f.default is not dataclasses.MISSING else f.default_factory()
               for f in dataclasses.fields(Rules) if f.name != "notes"}
CHOICES = {"unkept_start": {"bottom", "out"}, "unkept_draw": {"bottom", "out"},
           "locomotives_only_on": {"tunnel", "ferry"},
           "tie_breaks": {"tickets", "longest_path", "fewest_stations"},
           "mechanics": MECHANICS}
SIGNED = {"bullet_zero", "bullet_track_bonus"}   # rule values that may be negative


class MapError(ValueError):
    """A map file that cannot be used; `problems` lists everything wrong with it."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _known(v, names):
    return isinstance(v, str) and v in names


def _is_name(v):
    return isinstance(v, str) and v.strip() != ""


def _rule_problems(rules, where):
    if not isinstance(rules, dict):
        return [f"{where}: must be an object"]
    out = []
    for key, value in rules.items():
        if key not in RULE_FIELDS:
            out.append(f"{where}: unknown key '{key}'")
            continue
        default, bad = RULE_FIELDS[key], None
        allowed = sorted(CHOICES.get(key, ()))
        if isinstance(default, bool):
            bad = None if isinstance(value, bool) else "must be true or false"
        elif isinstance(default, int):
            ok = _is_int(value) and (value >= 0 or key in SIGNED)
            bad = None if ok else "must be a whole number >= 0"
        elif isinstance(default, str) and allowed:
            bad = None if value in allowed else "must be " + " or ".join(f"'{a}'" for a in allowed)
        elif key in NUMBER_MAPS:
            bad = _number_map_problem(key, value)
        elif allowed:   # locomotives_only_on, tie_breaks, mechanics: lists of known words
            ok = isinstance(value, list) and all(v in allowed for v in value)
            bad = None if ok else "must be a list of " + ", ".join(f"'{a}'" for a in allowed)
        elif key == "bonus_cards":
            ok = isinstance(value, dict) and all(
                isinstance(k, str) and len(k) == 1 and k.isupper() and _is_int(v) and v >= 0
                for k, v in value.items())
            bad = None if ok else 'must map card letters to points, e.g. {"A": 5}'
        elif isinstance(default, tuple):   # region_double, arctic, capitals
            kind = int if key == "region_double" else str
            ok = isinstance(value, list) and all(
                isinstance(v, kind) and not isinstance(v, bool) for v in value)
            bad = None if ok else f"must be a list of {'numbers' if kind is int else 'names'}"
        elif not isinstance(value, type(default)):
            bad = f"must be of type {type(default).__name__}"
        if bad:
            out.append(f"{where}: '{key}' {bad}")
    return out


def _number_map_problem(key, value):
    """None if `value` is a JSON object from whole numbers (as strings) to points (a list of
    points where the kind is "ints"), else what is wrong."""
    signed = key in SIGNED

    def points(v):
        return _is_int(v) and (signed or v >= 0)

    kind = NUMBER_MAPS[key]
    ok = isinstance(value, dict) and all(
        str(k).isdigit() and (int(k) >= 1 or key == "grand_tour_points")
        and (points(v) if kind == "int" else isinstance(v, list) and all(map(points, v)))
        for k, v in value.items())
    return None if ok else 'must map numbers to points, e.g. {"1": 1}'


def _ticket_problems(t, where, places):
    if not isinstance(t, dict):
        return [f"{where}: must be an object"]
    out = [f"{where}: unknown key '{k}'" for k in t if k not in ("from", "to", "points")]
    dests, points = t.get("to"), t.get("points")
    multi = isinstance(dests, list)
    if not _known(t.get("from"), places):
        out.append(f"{where}: unknown place {t.get('from')!r}")
    if multi:
        for d in dests:
            if not _known(d, places):
                out.append(f"{where}: unknown place {d!r}")
        if not dests or len(set(map(str, dests))) != len(dests):
            out.append(f"{where}: 'to' must list different places")
        if not (isinstance(points, list) and len(points) == len(dests)
                and all(_is_int(p) and p > 0 for p in points)):
            out.append(f"{where}: points must be a list of positive integers, one per destination")
    else:
        if not _known(dests, places):
            out.append(f"{where}: unknown place {dests!r}")
        if not (_is_int(points) and points > 0):
            out.append(f"{where}: points must be a positive integer")
    if t.get("from") == dests or (multi and t.get("from") in dests):
        out.append(f"{where}: starts and ends at {t.get('from')!r}")
    return out


def validate_map(data):
    """Every problem of a map document, as plain sentences; [] when it is usable."""
    if not isinstance(data, dict):
        return ["the map must be a JSON object"]
    out, board = _top_problems(data)
    problems, node_ids, places = _place_problems(data, board)
    out += problems
    problems, routes = _route_problems(data, node_ids)
    out += problems
    problems, decks = _deck_problems(data, places)
    out += problems
    out += _variant_problems(data, decks, places, routes)
    if "notes" in data and not _is_str_list(data["notes"]):
        out.append("notes must be a list of strings")
    return out


def _top_problems(data):
    """(problems of the top-level keys, the board's size or None)."""
    out = [f"missing key '{k}'" for k in sorted(TOP_KEYS - OPTIONAL_TOP_KEYS) if k not in data]
    out += [f"unknown key '{k}'" for k in data if k not in TOP_KEYS]
    if data.get("format") != FORMAT:
        out.append(f"format must be '{FORMAT}', not {data.get('format')!r}")
    for key in ("id", "name"):
        if key in data and not _is_name(data[key]):
            out.append(f"'{key}' must be a non-empty string")
    board = data.get("board")
    if not (isinstance(board, dict) and all(_is_int(board.get(k)) and board[k] > 0
                                            for k in ("width", "height"))):
        out.append("board: width and height must be positive integers")
        board = None
    return out, board


def _place_problems(data, board):
    """(problems of the nodes and country labels, node id -> name, the place names)."""
    nodes = data.get("nodes")
    out = []
    if not isinstance(nodes, list) or not nodes:
        out.append("nodes: must be a non-empty list")
        nodes = []
    node_name, cities, countries = {}, set(), set()
    for i, n in enumerate(nodes, 1):
        if not (isinstance(n, dict) and _is_name(n.get("id")) and _is_name(n.get("name"))
                and _is_num(n.get("x")) and _is_num(n.get("y"))
                and isinstance(n.get("country", False), bool)):
            out.append(f"node {i}: needs a string id and name and numbers x, y"
                       " (and country true/false)")
            continue
        if n["id"] in node_name:
            out.append(f"node {i}: duplicate id '{n['id']}'")
            continue
        out += _node_mark_problems(i, n)
        node_name[n["id"]] = n["name"]
        if n.get("country"):
            countries.add(n["name"])
        elif n["name"] in cities:
            out.append(f"node {i}: two cities are called '{n['name']}'")
        else:
            cities.add(n["name"])
        if board and not (0 <= n["x"] <= board["width"] and 0 <= n["y"] <= board["height"]):
            out.append(f"node '{n['id']}': position outside the board")
    for name in sorted(cities & countries):
        out.append(f"'{name}' is both a city and a country")
    labels = data.get("countries", [])
    if not isinstance(labels, list):
        out.append("countries: must be a list")
        labels = []
    for i, c in enumerate(labels, 1):
        if not (isinstance(c, dict) and _known(c.get("name"), countries)
                and _is_num(c.get("x")) and _is_num(c.get("y"))):
            out.append(f"country label {i}: needs the name of a country node and numbers x, y")
    return out, node_name, cities | countries


def _node_mark_problems(i, n):
    out = [f"node {i}: unknown key '{k}'" for k in n
           if k not in ("id", "name", "x", "y", "country", *NODE_MARKS)]
    for key in ("region", "nation"):
        if key in n and not (_is_int(n[key]) and n[key] >= 1):
            out.append(f"node {i}: {key} must be a whole number >= 1")
    inset = n.get("inset")
    if inset is not None and not (isinstance(inset, list) and len(inset) == 2
                                  and all(map(_is_num, inset))):
        out.append(f"node {i}: inset must be [x, y]")
    if "unnamed" in n and n["unnamed"] is not True:
        out.append(f"node {i}: unnamed must be true (or left out)")
    return out


def _route_problems(data, node_ids):
    """(problems of the routes, route id -> route for those with a usable id)."""
    routes = data.get("routes")
    out = []
    if not isinstance(routes, list) or not routes:
        out.append("routes: must be a non-empty list")
        routes = []
    by_id = {}
    for i, r in enumerate(routes, 1):
        if not isinstance(r, dict) or not _is_int(r.get("id")) or r["id"] < 1:
            out.append(f"route {i} (by position): needs a positive integer id")
            continue
        if r["id"] in by_id:
            out.append(f"route {r['id']}: duplicate id")
            continue
        by_id[r["id"]] = r
    for rid, r in by_id.items():
        out += _one_route_problems(rid, r, by_id, node_ids)
    return out, by_id


def _one_route_problems(rid, r, by_id, node_ids):
    where = f"route {rid}"
    out = [f"{where}: missing key '{k}'" for k in sorted(ROUTE_KEYS) if k not in r]
    out += [f"{where}: unknown key '{k}'" for k in r if k not in ROUTE_KEYS and k not in ROUTE_MARKS]
    out += _route_mark_problems(where, r)
    for end in ("from", "to"):
        if end in r and not _known(r[end], node_ids):
            out.append(f"{where}: unknown city {r[end]!r}")
    if r.get("from") == r.get("to"):
        out.append(f"{where}: starts and ends at {r.get('from')!r}")
    length = r.get("length")
    if not (_is_int(length) and 1 <= length <= 9):
        out.append(f"{where}: length must be a whole number from 1 to 9")
        length = None
    if "color" in r and r["color"] not in ROUTE_COLOR_INDEX:
        out.append(f"{where}: unknown colour {r['color']!r}")
    if "tunnel" in r and not isinstance(r["tunnel"], bool):
        out.append(f"{where}: tunnel must be true or false")
    if "ferry" in r and not (_is_int(r["ferry"]) and 0 <= r["ferry"] <= (length or 9)):
        out.append(f"{where}: ferry must be a whole number from 0 to the length")
    if "any_cards" in r and not (_is_int(r["any_cards"]) and r["any_cards"] >= 0):
        out.append(f"{where}: any_cards must be a whole number >= 0")
    slots = r.get("slots")
    if not isinstance(slots, list) or not all(
            isinstance(s, list) and len(s) == 3 and all(map(_is_num, s)) for s in slots):
        out.append(f"{where}: slots must be a list of [x, y, angle]")
    elif length is not None and len(slots) != length:
        out.append(f"{where}: length {length} but {len(slots)} slots")
    for twin in _lane_ids(r.get("twin")):
        other = by_id.get(twin) if _is_int(twin) else None
        if other is None or twin == rid:
            out.append(f"{where}: twin {twin!r} is not another route")
        elif rid not in _lane_ids(other.get("twin")):
            out.append(f"{where}: twin {twin} does not point back")
        elif {r.get("from"), r.get("to")} != {other.get("from"), other.get("to")}:
            out.append(f"{where}: twin {twin} joins other places")
    return out


def _lane_ids(twin):
    """A route's other lanes: `twin` is null, one route id, or a list of ids (a triple)."""
    if twin is None:
        return []
    return twin if isinstance(twin, list) and len(twin) >= 2 else [twin]


def _route_mark_problems(where, r):
    out = []
    for key, kind in ROUTE_MARKS.items():
        if key not in r:
            continue
        v = r[key]
        if kind == "count":
            ok = _is_int(v) and 1 <= v <= 9
        elif kind == "flag":
            ok = v is True
        else:
            ok = isinstance(v, list) and v and all(_is_int(c) and c >= 1 for c in v)
        if not ok:
            out.append(f"{where}: {key} must be "
                       + {"count": "a whole number from 1 to 9", "flag": "true",
                          "companies": "a non-empty list of companies"}[kind])
    waves, length = r.get("waves", 0), r.get("length")
    if _is_int(waves) and _is_int(length) and waves > length:
        out.append(f"{where}: more waves than spaces")
    return out


def _deck_problems(data, places):
    """(problems of the ticket decks, deck name -> deck)."""
    decks = data.get("ticket_decks")
    out = []
    if not isinstance(decks, dict) or not decks:
        out.append("ticket_decks: must be a non-empty object")
        decks = {}
    for name, deck in decks.items():
        if not isinstance(deck, list) or not deck:
            out.append(f"ticket deck '{name}': must be a non-empty list")
            continue
        for i, t in enumerate(deck, 1):
            out += _ticket_problems(t, f"ticket deck '{name}' item {i}", places)
    return out, decks


def _variant_problems(data, decks, places, routes):
    """Problems of the map's rules and of each variant (its decks, places and rules)."""
    rules = data.get("rules", {})
    out = _rule_problems(rules, "rules")
    variants = data.get("variants")
    if not isinstance(variants, dict) or "base" not in variants:
        out.append("variants: must be an object with a 'base' variant")
        variants = {}
    lengths = {r.get("length") for r in routes.values()} & set(range(1, 10))
    if isinstance(rules, dict) and not out:
        out += _mechanic_problems({**RULE_FIELDS, **rules}, routes)
    for vname, v in variants.items():
        out += _one_variant_problems(f"variant '{vname}'", v, rules, decks, places, lengths)
    return out


def _mechanic_problems(rules, routes):
    """A map's marks and the rules that play them must go together (RULES.md §12–§17)."""
    out = []
    mechanics = set(rules["mechanics"])
    needs = {"mountain": "mountains", "shares": "shares", "bullet": "bullet",
             "waves": "ferry_cards", "pairs": "ferry_pairs", "draw_bonus": "draw_bonus"}
    for key, mechanic in needs.items():
        marked = sorted(rid for rid, r in routes.items() if isinstance(r, dict) and r.get(key))
        if marked and mechanic not in mechanics:
            out.append(f"route {marked[0]}: '{key}' needs the mechanic '{mechanic}'")
    companies = {str(k) for k in rules["share_points"]}
    for rid, r in routes.items():
        for c in (r.get("shares") or []) if isinstance(r, dict) else []:
            if str(c) not in companies:
                out.append(f"route {rid}: company {c} has no share_points")
    params = {"grand_tour": "grand_tour_points", "shares": "share_points",
              "bullet": "bullet_trains", "regions": "region_points", "bonus_cards": "bonus_cards",
              "asian_explorer": "explorer_bonus"}
    out += [f"rules: mechanic '{m}' needs '{k}'" for m, k in params.items()
            if m in mechanics and not rules[k]]
    if len(rules["bonus_cards"]) < rules["bonus_cards_dealt"] and "bonus_cards" in mechanics:
        out.append("rules: bonus_cards_dealt is more than the bonus cards")
    return out


def _one_variant_problems(where, v, rules, decks, places, lengths):
    if not isinstance(v, dict) or not isinstance(v.get("tickets"), dict):
        return [f"{where}: needs 'tickets'"]
    out = [f"{where}: unknown key '{k}'" for k in v if k not in ("tickets", "rules", "notes")]
    tickets = v["tickets"]
    out += [f"{where}: unknown key 'tickets.{k}'" for k in tickets
            if k not in ("regular", "long", "only_touching")]
    for kind in ("regular", "long"):
        names = tickets.get(kind, [])
        if not isinstance(names, list):
            out.append(f"{where}: '{kind}' must be a list of deck names")
            continue
        out += [f"{where}: unknown deck {d!r}" for d in names if not _known(d, decks)]
    if not tickets.get("regular"):
        out.append(f"{where}: needs at least one regular deck")
    touching = tickets.get("only_touching", [])
    if not isinstance(touching, list):
        out.append(f"{where}: only_touching must be a list of places")
        touching = []
    for place in touching:
        if not _known(place, places):
            out.append(f"{where}: unknown place {place!r} in only_touching")
    overrides = v.get("rules", {})
    problems = _rule_problems(overrides, f"{where} rules")
    out += problems
    if not problems and isinstance(rules, dict) and not _rule_problems(rules, ""):
        out += _merged_rule_problems(where, {**RULE_FIELDS, **rules, **overrides}, lengths)
    if "notes" in v and not _is_str_list(v["notes"]):
        out.append(f"{where}: notes must be a list of strings")
    return out


def _merged_rule_problems(where, merged, lengths):
    """Problems of a variant's rules taken together (each value being valid on its own)."""
    points = {int(k) for k in merged["route_points"]}
    out = [f"{where}: no route_points for length {n}" for n in sorted(lengths - points)]
    if merged["start_keep_min"] > merged["start_long"] + merged["start_regular"]:
        out.append(f"{where}: start_keep_min is more than the tickets dealt")
    if merged["draw_keep_min"] > merged["draw_tickets"]:
        out.append(f"{where}: draw_keep_min is more than draw_tickets")
    if not 1 <= merged["min_players"] <= merged["max_players"]:
        out.append(f"{where}: min_players must be 1..max_players")
    return out


def _is_str_list(v):
    return isinstance(v, list) and all(isinstance(s, str) for s in v)


def load_board_from_dict(data, variant="base"):
    """Build the Board of one variant; MapError lists every problem of a bad document."""
    problems = validate_map(data)
    if not problems and variant not in data["variants"]:
        problems = [f"unknown variant {variant!r} (this map has: {', '.join(data['variants'])})"]
    if problems:
        raise MapError(problems)
    v = data["variants"][variant]

    nodes = tuple(Node(i, n["id"], n["name"], n["x"], n["y"], n.get("country", False),
                       region=n.get("region", 0), nation=n.get("nation", 0),
                       inset=tuple(n["inset"]) if "inset" in n else None,
                       unnamed=n.get("unnamed", False))
                  for i, n in enumerate(data["nodes"]))
    node_index = {n.id: n.index for n in nodes}
    route_index = {r["id"]: i for i, r in enumerate(data["routes"])}
    seen = {}   # (place names, colour) -> lanes so far
    routes = []
    for i, r in enumerate(data["routes"]):
        a, b = node_index[r["from"]], node_index[r["to"]]
        key = (frozenset((nodes[a].name, nodes[b].name)), r["color"])
        seen[key] = seen.get(key, 0) + 1
        lanes = tuple(route_index[t] for t in _lane_ids(r["twin"]))
        routes.append(Route(
            index=i, id=r["id"], a=a, b=b, length=r["length"],
            color=ROUTE_COLOR_INDEX[r["color"]], tunnel=r["tunnel"], ferry=r["ferry"],
            any_cards=r["any_cards"],
            twin=lanes[0] if lanes else -1,
            lane=seen[key], slots=tuple(tuple(s) for s in r["slots"]), lanes=lanes,
            mountain=r.get("mountain", 0), shares=tuple(r.get("shares", ())),
            bullet=r.get("bullet", False), waves=r.get("waves", 0), pairs=r.get("pairs", False),
            draw_bonus=r.get("draw_bonus", 0)))

    touching = set(v["tickets"].get("only_touching", []))
    tickets = []
    for kind in ("regular", "long"):
        for deck in v["tickets"].get(kind, []):
            for t in data["ticket_decks"][deck]:
                dests = tuple(t["to"]) if isinstance(t["to"], list) else (t["to"],)
                points = tuple(t["points"]) if isinstance(t["points"], list) else (t["points"],)
                if touching and not touching & {t["from"], *dests}:
                    continue
                tickets.append(Ticket(len(tickets), t["from"], dests, points, kind == "long"))

    raw = {**RULE_FIELDS, **data["rules"], **v.get("rules", {})}
    rules = Rules(**{
        **raw,
        **{k: {int(n): (tuple(p) if isinstance(p, list) else p) for n, p in raw[k].items()}
           for k in NUMBER_MAPS},
        **{k: tuple(raw[k]) for k in ("tie_breaks", "mechanics", "region_double", "arctic",
                                      "capitals")},
        "locomotives_only_on": frozenset(raw["locomotives_only_on"]),
        "notes": tuple(data.get("notes", [])) + tuple(v.get("notes", [])),
    })
    return Board(
        map_id=data["id"], variant=variant, name=data["name"],
        width=data["board"]["width"], height=data["board"]["height"],
        nodes=nodes, routes=tuple(routes), tickets=tuple(tickets), rules=rules,
        countries=tuple((c["name"], c["x"], c["y"]) for c in data.get("countries", [])))


def _read(map_id):
    if map_id not in map_files():
        raise MapError([f"unknown map {map_id!r} (known: {', '.join(map_files())})"])
    path = MAPS_DIR / f"{map_id}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as e:
        raise MapError([f"{path.name}: not valid JSON ({e})"]) from None
    if isinstance(data, dict) and data.get("id") != map_id:
        raise MapError([f"{path.name}: id {data.get('id')!r} does not match the file name"])
    return data


def load_board(map_id, variant="base"):
    """The Board of maps/<map_id>.json in that variant (cached: Boards are immutable, and
    `load_board("usa")` is `load_board("usa", "base")`)."""
    return _cached_board(map_id, variant)


@functools.lru_cache(maxsize=None)
def _cached_board(map_id, variant):
    return load_board_from_dict(_read(map_id), variant)


def _pickle_board(board):
    """A board from load_board travels by name: unpickling it (in a worker process, see
    ttr_bot/workers) gives that process's own cached Board, so the caches keyed by the board
    (computer players' board info, seat rules' tables) stay warm instead of growing by a copy
    per task. Any other board is pickled whole."""
    try:
        if load_board(board.map_id, board.variant) is board:
            return load_board, (board.map_id, board.variant)
    except (MapError, OSError):
        pass
    return board.__reduce_ex__(pickle.HIGHEST_PROTOCOL)


copyreg.pickle(Board, _pickle_board)


def map_files():
    """Ids of every map file, sorted: what a record or a picture may name."""
    return sorted(p.stem for p in MAPS_DIR.glob("*.json"))


# Maps the engine plays whose pictures or Discord actions are still to come: the replay tool,
# the arena and the benchmarks take them (`engine_maps`), /ttr new does not yet. None now:
# every map of issue 32 is offered (the UK, France and Old West would wait here).
AWAITING_PICTURES: frozenset[str] = frozenset()


def available_maps():
    """Ids of the maps the bot offers, sorted: every map file whose own rules (its
    `mechanics`) the engine plays (`ready`) and whose pictures are done. A map whose rules are
    not all written yet can be loaded and replayed as far as the engine goes, but is not
    offered for a new game."""
    return [m for m in engine_maps() if m not in AWAITING_PICTURES]


def engine_maps():
    """Ids of the map files whose every rule the engine plays, sorted."""
    return [m for m in map_files() if ready(m)]


def ready(map_id):
    """Does the engine play every rule of this map (its mechanics, RULES.md §12–§17)? Each
    mechanic joins `engine.mechanics.IMPLEMENTED` once its RULES.md section is tested."""
    return set(load_board(map_id).rules.mechanics) <= IMPLEMENTED


def variants(map_id):
    """Variant ids of a map, in the file's order ('base' first by convention)."""
    data = _read(map_id)
    if not isinstance(data.get("variants"), dict):
        raise MapError([f"{map_id}: variants: must be an object with a 'base' variant"])
    return list(data["variants"])
