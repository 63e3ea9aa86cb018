"""Compose a picture: the cached static page, this turn's overlay, the panel, PNG bytes
(a palette PNG with the static page's palette, png.py)."""
from types import SimpleNamespace

from ..engine.network import best_ticket_score, longest_trail_routes, tickets_score
from ..engine.seat_rules import DOUBLE_CLOSED, route_blocked
from . import palette as P
from . import panel as PN
from . import png as PNG
from . import static as S
from .geometry import layout, map_layout

MARK_R = 7             # radius of a player's mark on a car, picture pixels at scale 1: it fills the
                       # car's height, so that it still reads on a phone
HOUSE_R = 12
MAP_SCALE = 0.8        # the public map's scale: ~1400 px wide, names relatively larger, and a
                       # whole game's pictures in a few MiB
TICKET_R = 17


# ----- layout ---------------------------------------------------------------------------------

def page_layout(board, kind):
    """The page: the map alone ("map", the public phone picture), or map and panel; the band
    under a landscape map just high enough for what this map's panel shows."""
    if kind == "map":
        return map_layout(board, kind, scale=MAP_SCALE)
    portrait = board.height > board.width
    return layout(board, kind, PN.Panel(board, kind, portrait).band_height())


def _static_panel(page, lay, board, locale):
    if lay.panel is not None:
        PN.Panel(board, lay.kind, lay.portrait, locale).draw_static(page, lay)


def closed_lanes(board, n, owner):
    """The free lanes of double routes that this game closes because the other lane is taken
    (2-3 players on most maps): the engine's rule (seat_rules.route_blocked), asked for a seat
    that owns nothing."""
    return frozenset(r for r, route in enumerate(board.routes)
                     if route.twin >= 0 and owner[r] < 0 and owner[route.twin] >= 0
                     and route_blocked(board, n, owner, -1, None, r) == DOUBLE_CLOSED)


def highlighted(g, routes=None, cities=None):
    """(routes, cities) to ring in the highlight colour: the given ones, or, when None, what
    the last move claimed or built."""
    lm = g.last_move
    if routes is None:
        routes = ([lm[2]] if lm and lm[1] in ("claim_route", "tunnel_decline") and lm[2] is not None
                  else [])
    if cities is None:
        cities = [lm[2]] if lm and lm[1] == "build_station" and lm[2] is not None else []
    return sorted(set(routes)), sorted(set(cities))


def _palette(art):
    """The palette of a page: from the static page and from the same page with everything a
    turn can draw on the map (cars of every player on three routes in four, stations, the
    highlight, ticket rings or the longest path), so that the edges of those get entries."""
    board, kind = art.sprites.board, art.layout.kind
    n = board.rules.max_players
    owner = [-1] * len(board.routes)
    for i, r in enumerate(r for r in range(len(board.routes)) if r % 4 != 3):
        owner[r] = i % n
    cities = [node.index for node in board.nodes if not node.country]
    stations = {c: i % n for i, c in enumerate(cities)} if board.rules.stations else {}
    first = next(r for r, seat in enumerate(owner) if seat >= 0)
    sample = SimpleNamespace(board=board, owner=owner, station_owner=stations,
                             last_move=(0, "claim_route", first), n=n)
    rings = ([(c, P.TICKET_DONE if i % 2 else P.TICKET_OPEN) for i, c in enumerate(cities)]
             if kind == "private" else [])
    trails = [[r for r in range(len(board.routes)) if r % 5 == 0]] if kind == "final" else []
    img = art.page.copy()
    closed = [r for r in range(len(board.routes)) if r % 4 == 3]
    halos = [r for r in range(len(board.routes)) if r % 7 == 0] if kind != "final" else []
    overlay(img, art, sample, highlight=kind != "final", trails=trails, rings=rings,
            routes=halos, closed=closed)
    return PNG.make_palette([art.page, img])


def _art(board, kind, locale):
    return S.art(board, kind, locale, page_layout, _static_panel, _palette)


# ----- the map overlay -------------------------------------------------------------------

def overlay(img, art, g, *, highlight=True, trails=(), rings=(), routes=None, cities=None,
            closed=None, labels=None):
    """Draw the state `g` (board, owner, station_owner, last_move, n) over the static page.
    `highlight`: ring `routes` and `cities` (None: what the last move claimed or built);
    `closed`: the lanes to draw closed (None: those the game closes); `labels`: the city names
    to draw over the cars (None: all of them)."""
    lay, sp, board = art.layout, art.sprites, g.board
    ox, oy = lay.ox, lay.oy
    k = lay.scale

    def put(rgb, box, mask):
        img.paste(rgb, (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy), mask)

    def at(rgb, x, y, mask):
        px, py = lay.pt(x, y)
        bx, by = round(px - mask.width / 2), round(py - mask.height / 2)
        img.paste(rgb, (bx, by, bx + mask.width, by + mask.height), mask)

    for routes in trails:
        for box, mask in sp.trail(routes):
            put(P.TRAIL, box, mask)
    halos, rung = highlighted(g, routes, cities) if highlight else ((), ())
    for r in halos:
        box, mask = sp.halo(r)
        put(P.HIGHLIGHT, box, mask)
    if closed is None:
        closed = closed_lanes(board, g.n, g.owner)
    for r in sorted(closed):
        for box, cover, hatch in sp.closed_pieces(r):
            put(P.CLOSED_FILL, box, cover)
            put(P.CLOSED_LINE, box, hatch)
    for r, seat in enumerate(g.owner):
        if seat < 0:
            continue
        cars = sp.car_pieces(r)
        for box, out, _ in cars:            # the outlines first: no car's covers its neighbour's body
            put(P.CAR_LINE, box, out)
        rgb = P.player_rgb(seat)
        for box, _, body in cars:
            put(rgb, box, body)
        mark = sp.mark(P.player_shape(seat), round(MARK_R * k))
        ink = P.player_ink(seat)
        for x, y, _ in board.routes[r].slots:
            at(ink, x, y, mark)
    for node, rgb in rings:
        n = board.nodes[node]
        at(P.CAR_LINE, n.x, n.y, sp.ring(TICKET_R - 1, 9))
        at(rgb, n.x, n.y, sp.ring(TICKET_R, 5))
    for node in rung:
        n = board.nodes[node]
        at(P.HIGHLIGHT, n.x, n.y, sp.ring(round((TICKET_R + 6) * k), round(7 * k)))
    S.draw_labels(img, sp.labels() if labels is None else labels, ox, oy)
    for node in sorted(g.station_owner):
        seat = g.station_owner[node]
        n = board.nodes[node]
        outline, body = sp.house(round(HOUSE_R * k))
        hx, hy = n.x + S.STATION_AT[0], n.y + S.STATION_AT[1]
        at(P.CAR_LINE, hx, hy, outline)
        at(P.player_rgb(seat), hx, hy, body)
        at(P.player_ink(seat), hx, hy + 2, sp.mark(P.player_shape(seat), round(5 * k)))


def _ticket_rows(g, seat):
    """[(label, points text, completed)] and the rings to draw on the map."""
    board = g.board
    held = [board.tickets[i] for i in g.tickets[seat]]
    if not held:
        return [], []
    if g.stations_of[seat]:
        results, _ = best_ticket_score(board, seat, g.routes_of[seat], held, g.stations_of[seat],
                                       g.owner)
    else:
        results = tickets_score(board, g.routes_of[seat], held)
    rows, state = [], {}
    for ticket, (done, _) in zip(held, results):
        rows.append((ticket.label(), "/".join(str(p) for p in ticket.points), done))
        for place in (ticket.origin,) + tuple(ticket.dests):
            for node in board.place_nodes.get(place, ()):
                state[node] = state.get(node, True) and done
    rings = [(node, P.TICKET_DONE if done else P.TICKET_OPEN) for node, done in sorted(state.items())]
    return rows, rings


# ----- pages ----------------------------------------------------------------------------------

def board_png(g, names, viewer=None, locale="en", highlight=None, cities=None):
    return PNG.encode(*board_picture(g, names, viewer, locale, highlight, cities))


def map_png(g, names, highlight=None, locale="en", cities=None):
    return PNG.encode(*map_picture(g, names, highlight, locale, cities))


def final_png(g, names, locale="en"):
    return PNG.encode(*final_picture(g, names, locale))


def board_image(g, names, viewer=None, locale="en"):
    """The board as an RGB image (before the encoding)."""
    return board_picture(g, names, viewer, locale)[0]


def final_image(g, names, locale="en"):
    return final_picture(g, names, locale)[0]


def map_picture(g, names, highlight=None, locale="en", cities=None):
    """(RGB image, palette) of the public phone picture: the map alone, nobody's hidden
    information (hands and tickets are not even read). `names` are not drawn (the card's text
    has the standings); they are taken for the same call as the other pictures."""
    art = _art(g.board, "map", locale)
    img = art.page.copy()
    overlay(img, art, g, routes=highlight, cities=cities)
    return img, art.palette


def board_picture(g, names, viewer=None, locale="en", highlight=None, cities=None):
    """(RGB image, the palette to encode it with) of the board."""
    kind = "board" if viewer is None else "private"
    art = _art(g.board, kind, locale)
    img = art.page.copy()
    rows, rings = _ticket_rows(g, viewer) if viewer is not None else ([], [])
    overlay(img, art, g, rings=rings, routes=highlight, cities=cities)
    panel = PN.Panel(g.board, kind, art.layout.portrait, locale)
    panel.draw(img, art.layout, g, names, viewer, rows)
    return img, art.palette


def longest_path_trails(g, players):
    """The routes of each longest-path winner's longest path (drawn on the final picture)."""
    out = []
    if g.rules.longest_path_bonus:
        for seat, pl in enumerate(players):
            if pl["bonuses"].get("longest_path"):
                _, routes = longest_trail_routes(g.board, g.routes_of[seat])
                if routes:
                    out.append(routes)
    return out


def final_picture(g, names, locale="en"):
    """(RGB image, the palette to encode it with) of the final picture."""
    art = _art(g.board, "final", locale)
    img = art.page.copy()
    players, winners = g.scores()
    overlay(img, art, g, highlight=False, trails=longest_path_trails(g, players))
    PN.Panel(g.board, "final", art.layout.portrait, locale).draw_final(img, art.layout, g, names,
                                                                       players, winners)
    return img, art.palette
