"""What the claim and station menus offer, in which order: pure, from the player's own view.

A menu holds 25 choices (Discord's limit) and a message five menus. Routes come ordered by what
serves the player's tickets (`PlayerView.ticket_routes`: on a cheapest way to finish one), then
longest first; past 25 payable routes the first 25 stay in one menu and the menus below it
offer the cities (those on the player's unfinished tickets first): a city, then one of its
routes. Station cities come the same way: the
cities on their unfinished tickets first, then the others by name, in as many menus as needed.
"""
from ...i18n import t
from ..text.format import clip, fold, route_choice_label

PER_MENU = 25
MENUS = 5
TICKET_MARK = "🎫"


def ordered_routes(view):
    """[(Route, serves)] the player can claim and pay for now, those serving most of their
    tickets first, then longest first (the routes that score most)."""
    serves = view.ticket_routes()
    routes = [r for r, _ in view.claimable_routes()]
    return sorted(((r, serves.get(r.index, 0)) for r in routes),
                  key=lambda x: (-x[1], -x[0].length, x[0].index))


def route_choices(board, ordered, loc):
    """[(label, value)] for a route menu, ticket routes marked 🎫; 25 at most."""
    return [(clip(f"{TICKET_MARK} {route_choice_label(board, r, loc)}" if serves
                  else route_choice_label(board, r, loc)), str(r.index))
            for r, serves in ordered[:PER_MENU]]


def _city_order(view, nodes):
    """`nodes` with those on the player's unfinished tickets first (in their tickets' order),
    then the rest by name."""
    first = [n for n in view.open_ticket_nodes() if n in nodes]
    rest = sorted((n for n in nodes if n not in first),
                  key=lambda n: (fold(view.board.nodes[n].name), n))
    return first, rest


def _menus(view, first, rest, label, loc, lead_key):
    """Menus of 25 cities: [(placeholder, [(label, value)])], the ticket cities leading."""
    nodes = first + rest
    out = []
    for i in range(0, min(len(nodes), PER_MENU * MENUS), PER_MENU):
        part = nodes[i:i + PER_MENU]
        names = [view.board.nodes[n].name for n in part]
        if i == 0:
            placeholder = t(lead_key, loc)
        else:
            placeholder = t("bot.menu.more_cities", loc, first=names[0], last=names[-1])
        out.append((placeholder, [(clip((f"{TICKET_MARK} " if n in first else "") + label(n)),
                                   str(n)) for n in part]))
    return out


def route_city_menus(view, ordered, loc):
    """The cities the payable routes start or end at, as menus (the first step once more
    than 25 routes are payable); each label says how many of its routes can be claimed."""
    count: dict[int, int] = {}      # city (node index) -> its payable routes
    for r, _ in ordered:
        for n in (r.a, r.b):
            count[n] = count.get(n, 0) + 1
    first, rest = _city_order(view, set(count))
    board = view.board
    return _menus(view, first, rest, lambda n: t("bot.menu.city_routes", loc,
                                                 city=board.nodes[n].name, count=count[n]),
                  loc, "bot.menu.route_city")


def routes_at(ordered, city):
    return [(r, s) for r, s in ordered if city in (r.a, r.b)]


def station_menus(view, loc):
    """Where the player may build a station now, as menus, with its price."""
    cost = view.station_cost()
    first, rest = _city_order(view, set(view.station_sites()))
    board = view.board
    return _menus(view, first, rest, lambda n: t("bot.station_choice", loc,
                                                 city=board.nodes[n].name, count=cost),
                  loc, "bot.menu.station")


def station_city_order(view, nodes):
    """`nodes` (station sites) ticket cities first, then by name (the autocomplete's order)."""
    first, rest = _city_order(view, set(nodes))
    return first + rest
