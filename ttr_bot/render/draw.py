"""Compose a picture: the cached static page, this turn's overlay, the panel, PNG bytes
(a palette PNG with the static page's palette, png.py)."""
from types import SimpleNamespace

from ..engine.network import longest_trail_routes
from ..engine.seat_rules import DOUBLE_CLOSED, route_blocked
from . import extras as EX
from . import marks as M
from . import palette as P
from . import panel as PN
from . import png as PNG
from . import seat_strip as SS
from . import static as S
from . import tickets as TK
from .geometry import layout, map_layout

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
    highlight, ticket badges and lines or the longest path, in each colour scheme), so that
    the edges of those get entries."""
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
    trails = [[r for r in range(len(board.routes)) if r % 5 == 0]] if kind == "final" else []
    closed = [r for r in range(len(board.routes)) if r % 4 == 3]
    halos = [r for r in range(len(board.routes)) if r % 7 == 0] if kind != "final" else []
    pairs = list(zip(cities[::2], cities[1::2]))
    states = (TK.OFFER, TK.OPEN, TK.DONE) if kind == "private" else (TK.MADE, TK.FAILED)
    marks = [TK.Mark(TK.offer_tag(1 + i % 5) if states[i % len(states)] == TK.OFFER
                     else 1 + i % 12, (pair,), states[i % len(states)], i % n)
             for i, pair in enumerate(pairs)]
    samples = [art.page]
    for scheme in P.SCHEMES:
        img = art.canvas()
        under = [lambda im, scheme=scheme:
                 TK.draw_final_lines(im, board, art.layout, marks, scheme)] if kind == "final" else []
        overlay(img, art, sample, highlight=kind != "final", trails=trails, routes=halos,
                closed=closed, scheme=scheme, under=under)
        if kind == "private":
            TK.draw_private(img, board, art.layout, marks, art.sprites.labels())
        elif kind == "final":
            TK.draw_final_ends(img, board, art.layout, marks, scheme)
        samples.append(img)
    return PNG.make_palette(samples, P.solid_colours() + M.colours(board) + (
        [EX.LOOP_RGB] if "grand_tour" in board.rules.mechanics else []))


def _art(board, kind, locale):
    return S.art(board, kind, locale, page_layout, _static_panel, _palette)


# ----- the map overlay -------------------------------------------------------------------

def overlay(img, art, g, *, highlight=True, trails=(), routes=None, cities=None,
            closed=None, labels=None, scheme=P.STANDARD, under=(), bands=()):
    """Draw the state `g` (board, owner, station_owner, last_move, n) over the static page.
    `highlight`: ring `routes` and `cities` (None: what the last move claimed or built);
    `closed`: the lanes to draw closed (None: those the game closes); `labels`: the city names
    to draw over the cars (None: all of them); `scheme`: the players' colours and marks
    (palette.SCHEMES); each of `under` (img -> None) is drawn first, under all the rest, each
    of `bands` (img -> None) right after the longest path."""
    lay, sp, board = art.layout, art.sprites, g.board
    style = P.scheme_of(scheme)
    ox, oy = lay.ox, lay.oy
    k = lay.scale

    def put(rgb, box, mask):
        img.paste(rgb, (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy), mask)

    def at(rgb, x, y, mask):
        px, py = lay.pt(x, y)
        bx, by = round(px - mask.width / 2), round(py - mask.height / 2)
        img.paste(rgb, (bx, by, bx + mask.width, by + mask.height), mask)

    for draw_under in under:
        draw_under(img)
    for routes in trails:
        for box, mask in sp.trail(routes):
            put(P.TRAIL, box, mask)
    for draw_band in bands:
        draw_band(img)
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
    shared = EX.shared_routes(g)
    for r, seat in enumerate(g.owner):
        if seat < 0:
            continue
        cars = sp.car_pieces(r)
        for box, out, _ in cars:            # the outlines first: no car's covers its neighbour's body
            put(P.CAR_LINE, box, out)
        rgb = M.BULLET_INK if r in shared else P.player_rgb(seat, scheme)
        for box, _, body in cars:
            put(rgb, box, body)
        if r in shared:                     # everyone's (Japan's bullet routes): no player's mark
            continue
        mark = sp.mark(P.player_shape(seat, scheme), round(style.mark_r * k), style.filled)
        ink = P.player_ink(seat, scheme)
        for x, y, _ in board.routes[r].slots:
            at(ink, x, y, mark)
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
        at(P.player_rgb(seat, scheme), hx, hy, body)
        at(P.player_ink(seat, scheme), hx, hy + 2,
           sp.mark(P.player_shape(seat, scheme), round(5 * k), style.filled))


# ----- pages ----------------------------------------------------------------------------------

def board_png(g, names, viewer=None, locale="en", highlight=None, cities=None,
              scheme=P.STANDARD):
    return PNG.encode(*board_picture(g, names, viewer, locale, highlight, cities, scheme))


def map_png(g, names, highlight=None, locale="en", cities=None, scheme=P.STANDARD):
    return PNG.encode(*map_picture(g, names, highlight, locale, cities, scheme))


def final_png(g, names, locale="en", scheme=P.STANDARD):
    return PNG.encode(*final_picture(g, names, locale, scheme))


def board_image(g, names, viewer=None, locale="en", scheme=P.STANDARD):
    """The board as an RGB image (before the encoding)."""
    return board_picture(g, names, viewer, locale, scheme=scheme)[0]


def final_image(g, names, locale="en", scheme=P.STANDARD):
    return final_picture(g, names, locale, scheme)[0]


def map_picture(g, names, highlight=None, locale="en", cities=None, scheme=P.STANDARD):
    """(RGB image, palette) of the public phone picture: the map alone, nobody's hidden
    information (hands and tickets are not even read), and on a map that keeps per-player
    state a strip under it with each player's (seat_strip.py; the only place `names` are drawn:
    the card's text has the standings)."""
    art = _art(g.board, "map", locale)
    img = art.canvas()
    overlay(img, art, g, routes=highlight, cities=cities, scheme=scheme)
    EX.draw_box(img, art.layout, g, names, locale, per_seat=False)   # the strip has them
    return SS.add_strip(img, g, names, locale, scheme), art.palette


def board_picture(g, names, viewer=None, locale="en", highlight=None, cities=None,
                  scheme=P.STANDARD):
    """(RGB image, the palette to encode it with) of the board; a private board (`viewer`)
    tags its player's tickets and offer on the map (tickets.py)."""
    kind = "board" if viewer is None else "private"
    art = _art(g.board, kind, locale)
    img = art.canvas()
    overlay(img, art, g, routes=highlight, cities=cities, scheme=scheme)
    EX.draw_box(img, art.layout, g, names, locale, per_seat=False)    # the table has them
    rows = []
    if viewer is not None:
        rows, marks = TK.private_marks(g, viewer)
        TK.draw_private(img, g.board, art.layout, marks, art.sprites.labels())
    panel = PN.Panel(g.board, kind, art.layout.portrait, locale, scheme)
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


def _loops(img, art, g, players):
    """India's Grand Tours (extras.grand_tour_routes): a band along their routes, over the
    longest path's and narrower (a route on both shows both)."""
    loops = set()
    for seat, pl in enumerate(players):
        loops.update(EX.grand_tour_routes(g, seat, pl))
    lay = art.layout
    for box, mask in art.sprites.trail(loops, width=18):
        img.paste(EX.LOOP_RGB, (box[0] + lay.ox, box[1] + lay.oy, box[2] + lay.ox,
                                box[3] + lay.oy), mask)


def final_picture(g, names, locale="en", scheme=P.STANDARD):
    """(RGB image, the palette to encode it with) of the final picture: every player's tickets
    made and failed on the map (tickets.py), the longest path, the scores (each player's card
    ends with what the map's state holds of it: shares, bullet track, ferry cards)."""
    art = _art(g.board, "final", locale)
    img = art.canvas()
    players, winners = g.scores()
    marks = TK.final_marks(g, players)
    board, lay = g.board, art.layout
    overlay(img, art, g, highlight=False, trails=longest_path_trails(g, players), scheme=scheme,
            under=[lambda im: TK.draw_final_lines(im, board, lay, marks, scheme)],
            bands=[lambda im: _loops(im, art, g, players)])
    TK.draw_final_ends(img, board, lay, marks, scheme)
    EX.draw_box(img, lay, g, names, locale, per_seat=False)   # the score cards have them
    PN.Panel(board, "final", lay.portrait, locale, scheme).draw_final(img, lay, g, names,
                                                                      players, winners)
    return img, art.palette
