"""The static data of one map and variant: places, routes, tickets and the rules object.

Everything that differs between editions lives in `Rules` (the BGA way): the engine reads it
and never asks which map it is playing. `ttr_bot.maps` builds these objects from maps/*.json.
"""
from dataclasses import dataclass, field
from typing import TYPE_CHECKING


@dataclass(frozen=True)
class Node:
    """A point routes end at: a city, or one border point of a country (Switzerland).

    `name` is what players and records call it; border points of one country share the
    country's name and differ by `id`.
    """
    index: int
    id: str
    name: str
    x: float
    y: float
    country: bool = False
    region: int = 0     # Italy: the region id (0: none, e.g. a country's border point)
    nation: int = 0     # Northern Lights: the country id (0: none)
    inset: tuple[float, float] | None = None   # Japan: a second drawing of the city (Tokyo, Kokura)
    unnamed: bool = False   # a city the board leaves unnamed (Northern Lights): a dot, no label;
                            # `name` is still what text and records call it


@dataclass(frozen=True)
class Route:
    index: int
    id: int
    a: int              # node index
    b: int              # node index
    length: int
    color: int          # card index 0..7, or cards.GRAY
    tunnel: bool = False
    ferry: int = 0      # locomotives required (ferry icons)
    any_cards: int = 0  # Nordic: N any cards replace one required card (3 on ferries, 4 on Murmansk–Lieksa)
    twin: int = -1      # route index of the parallel lane, or -1
    lane: int = 1       # 1 or 2: order among lanes of the same colour between the same places
    slots: tuple[tuple[float, float, float], ...] = ()   # (x, y, angle_degrees_clockwise) per car, for the picture
    lanes: tuple[int, ...] = ()   # every other lane of the same pair (a triple: two), twin first
    mountain: int = 0   # Legendary Asia: X marks, one more train each (RULES §13.2)
    shares: tuple[int, ...] = ()  # Pennsylvania: the companies shown, by their share count (§14)
    bullet: bool = False          # Japan: a bullet route (§15.2)
    waves: int = 0      # Italy: wave spaces (§16.3)
    pairs: bool = False           # Northern Lights: a locomotive symbol may be paid by 2 same-colour cards (§17.2)
    draw_bonus: int = 0           # Northern Lights: cards drawn after claiming it (§17.3)


@dataclass(frozen=True)
class Ticket:
    """A destination ticket. `dests`/`points` have one entry except for Switzerland's
    multi-destination tickets. Ends are place names (a city, or a country)."""
    id: int             # unique within the variant's decks (the index in Board.tickets)
    origin: str
    dests: tuple[str, ...]
    points: tuple[int, ...]
    long: bool = False

    @property
    def multi(self) -> bool:
        return len(self.dests) > 1

    def label(self) -> str:
        if self.multi:
            return f"{self.origin} – " + "/".join(self.dests)
        return f"{self.origin} – {self.dests[0]}"


@dataclass(frozen=True)
class Rules:
    trains: int = 45
    stations: int = 0
    station_bonus: int = 4
    hand_size: int = 4
    end_trains: int = 2
    double_routes_min_players: int = 4
    route_points: dict[int, int] = field(default_factory=lambda: {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21})
    locomotives_only_on: frozenset[str] = frozenset()   # {"tunnel", "ferry"}; empty: anywhere
    faceup_locomotive_limit: bool = True           # a face-up locomotive is the whole draw
    flush_locomotives: int = 3                     # 3 face-up locomotives flush the row
    flush_limit: int = 3
    longest_path_bonus: int = 10
    globetrotter_bonus: int = 0
    tie_breaks: tuple[str, ...] = ("tickets", "longest_path")  # also "fewest_stations"
    start_long: int = 0
    start_regular: int = 3
    start_keep_min: int = 2
    draw_tickets: int = 3
    draw_keep_min: int = 1
    unkept_start: str = "bottom"   # or "out" (leave the game)
    unkept_draw: str = "bottom"
    min_players: int = 2
    max_players: int = 5
    notes: tuple[str, ...] = ()    # open questions settled for this map, shown in /ttr rules
    # The maps of RULES.md §12–§17. `mechanics` names the map's own rules (engine/mechanics/),
    # each a module the base game consults at its hooks; the values below are their parameters.
    mechanics: tuple[str, ...] = ()
    locomotives: int = 14          # locomotive cards in the deck (Northern Lights: 18)
    triple_lanes: dict[int, int] = field(default_factory=dict)   # players -> lanes of a triple usable
    mountain_points: int = 2       # per mountain train (§13.2)
    explorer_bonus: int = 0        # Asian Explorer (§13.4)
    grand_tour_points: dict[int, int] = field(default_factory=dict)   # Grand Tours -> points (§12.3)
    share_points: dict[int, tuple[int, ...]] = field(default_factory=dict)   # company -> by rank (§14.4)
    bullet_trains: int = 0         # the shared Bullet Train supply (§15.1)
    bullet_end: int = 2            # the supply at or below which the end may come (§15.3)
    bullet_track_bonus: dict[int, tuple[int, ...]] = field(default_factory=dict)   # players -> by rank
    bullet_zero: int = -20         # a marker still at 0 (§15.4)
    ferry_cards_max: int = 2       # Italy: ferry cards a player may hold (§16.1)
    region_points: dict[int, int] = field(default_factory=dict)   # regions in a network -> points (§16.4)
    region_double: tuple[int, ...] = ()   # regions counted twice when whole (§16.4)
    bonus_cards: dict[str, int] = field(default_factory=dict)     # letter -> points (§17.4)
    bonus_cards_dealt: int = 4
    arctic: tuple[str, ...] = ()   # Arctic cities (§17.4)
    capitals: tuple[str, ...] = ()
    wild_west_nation: int = 0      # the country bonus K counts (Norway)

    def both_lanes_open(self, n_players: int) -> bool:
        """May both lanes of a double route be claimed (by different players) in a game of
        this size? (docs/rules.md §3.4, §8, §9)"""
        return n_players >= self.double_routes_min_players

    def lanes_open(self, n_players: int, lanes: int) -> int:
        """How many lanes of a pair of `lanes` parallel routes may be claimed (RULES.md, the
        preamble before §12; §17.1)."""
        if lanes <= 2:
            return 2 if self.both_lanes_open(n_players) else 1
        return self.triple_lanes.get(n_players, lanes if self.both_lanes_open(n_players) else 1)


@dataclass(frozen=True)
class Board:
    """One playable map + variant."""
    map_id: str
    variant: str
    name: str
    width: int
    height: int
    nodes: tuple[Node, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]   # the variant's regular and long tickets, deck order of the file
    rules: Rules
    countries: tuple[tuple[str, float, float], ...] = ()   # (name, x, y): label positions of Switzerland's countries

    if TYPE_CHECKING:   # derived in __post_init__ (set there, not dataclass fields at run time)
        place_nodes: dict[str, tuple[int, ...]] = field(init=False)   # place -> its nodes
        node_routes: tuple[tuple[int, ...], ...] = field(init=False)  # node -> its routes
        route_ends: tuple[tuple[int, int], ...] = field(init=False)   # route -> (a, b)

    def __post_init__(self) -> None:
        places: dict[str, list[int]] = {}
        for n in self.nodes:
            places.setdefault(n.name, []).append(n.index)
        object.__setattr__(self, "place_nodes", {k: tuple(v) for k, v in places.items()})
        adj: list[list[int]] = [[] for _ in self.nodes]
        for r in self.routes:
            adj[r.a].append(r.index)
            adj[r.b].append(r.index)
        object.__setattr__(self, "node_routes", tuple(tuple(a) for a in adj))
        object.__setattr__(self, "route_ends", tuple((r.a, r.b) for r in self.routes))

    @property
    def regular_tickets(self) -> list[Ticket]:
        return [t for t in self.tickets if not t.long]

    @property
    def long_tickets(self) -> list[Ticket]:
        return [t for t in self.tickets if t.long]

    def route_label(self, route: int | Route) -> str:
        r = self.routes[route] if isinstance(route, int) else route
        return f"{self.nodes[r.a].name} – {self.nodes[r.b].name}"
