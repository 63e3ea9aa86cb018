"""The close-up of what changed: a crop of the map around the routes just claimed (and the
stations just built), drawn at a larger scale, for the turn card's first image.

At 400 px wide (a phone) it must still show what was claimed and by whom: the owner's colour
and mark on the cars, the highlight around them, the names of the cities they join. So the crop
comes from a second cached static map drawn at ZOOM (1.5 times the public map's scale) (its own
palette, sprites and name placement), and only what reaches the crop is drawn over it: the
cars, closed lanes, stations and names inside it. When the routes are too far apart for an
OUT_W x OUT_H crop at ZOOM, the crop comes from the public map (scale 0.8), and only when even that
is too small, a larger crop of it is reduced to OUT_W x OUT_H (or, when no 4:3 crop of the map
holds them, their own box grown towards 4:3 is reduced to fit in it: less on one side).
"""
import math
from dataclasses import replace
from types import SimpleNamespace

from PIL import Image

from . import draw as D
from . import marks as M
from . import png as PNG
from . import static as S
from .geometry import map_layout

ZOOM = 1.2                   # the close-up's scale (the public map is at 0.8, the boards at 1)
OUT_W, OUT_H = 600, 450      # the close-up's size: 4:3; on a phone (~400 px) at 2/3
PAD = 46                     # board units around the routes' cities and slots
REACH = 40                   # board units a car, a halo or a station reaches from its centre


def _zoom_layout(board, kind):
    return map_layout(board, kind, scale=ZOOM, margin=0)


def _art(board, level, locale):
    if level == ZOOM:
        return S.art(board, "closeup", locale, _zoom_layout, D._static_panel, D._palette)
    return D._art(board, "map", locale)


def region(board, routes, cities=()):
    """(x0, y0, x1, y1) in board units: the routes' slots and end cities and the cities,
    with PAD around; None when there is nothing to show."""
    pts = []
    for r in routes:
        route = board.routes[r]
        pts += [(x, y) for x, y, _ in route.slots]
        pts += [(board.nodes[c].x, board.nodes[c].y) for c in (route.a, route.b)]
    pts += [(board.nodes[c].x, board.nodes[c].y) for c in cities]
    if not pts:
        return None
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return (min(xs) - PAD, min(ys) - PAD, max(xs) + PAD, max(ys) + PAD)


def crop_plan(board, routes, cities=()):
    """(level, crop box in page pixels of that level's page, the picture's size): where the
    close-up comes from (level: ZOOM, or D.MAP_SCALE, the public map's) and how large it is
    (OUT_W x OUT_H; for routes farther apart than a 4:3 crop of the map holds, less on one
    side)."""
    x0, y0, x1, y1 = region(board, routes, cities)
    bw, bh = x1 - x0, y1 - y0
    level = ZOOM if bw * ZOOM <= OUT_W and bh * ZOOM <= OUT_H else D.MAP_SCALE
    lay = _layout_of(board, level)
    cx, cy = lay.pt((x0 + x1) / 2, (y0 + y1) / 2)
    # a crop of OUT_W x OUT_H times f (f > 1: reduced to OUT_W x OUT_H)
    f = max(1.0, bw * level / OUT_W, bh * level / OUT_H)
    cw, ch = round(OUT_W * f), round(OUT_H * f)
    size = (OUT_W, OUT_H)
    if cw > lay.width or ch > lay.height:
        # no 4:3 crop of the page holds them all: the routes' own box, grown towards 4:3 as
        # far as the page lets it, reduced to fit OUT_W x OUT_H
        cw = min(lay.width, max(math.ceil(bw * level), round(bh * level * OUT_W / OUT_H)))
        ch = min(lay.height, max(math.ceil(bh * level), round(bw * level * OUT_H / OUT_W)))
        k = min(OUT_W / cw, OUT_H / ch)
        size = (round(cw * k), round(ch * k))
    bx = min(max(0, round(cx - cw / 2)), lay.width - cw)
    by = min(max(0, round(cy - ch / 2)), lay.height - ch)
    return level, (bx, by, bx + cw, by + ch), size


def _layout_of(board, level):
    return _zoom_layout(board, "closeup") if level == ZOOM else D.page_layout(board, "map")


def _meets(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _route_box(lay, route):
    xs = [x for x, _, _ in route.slots]
    ys = [y for _, y, _ in route.slots]
    x0, y0 = lay.pt(min(xs) - REACH, min(ys) - REACH)
    x1, y1 = lay.pt(max(xs) + REACH, max(ys) + REACH)
    return (x0, y0, x1, y1)


def _node_box(lay, node, reach=REACH):
    x0, y0 = lay.pt(node.x - reach, node.y - reach)
    x1, y1 = lay.pt(node.x + reach, node.y + reach)
    return (x0, y0, x1, y1)


def closeup_picture(g, names, routes, locale="en", cities=(), scheme="standard"):
    """(RGB image, OUT_W x OUT_H as a rule, the palette to encode it with) of the close-up around
    `routes` (route indices) and `cities` (node indices of stations), both highlighted."""
    board = g.board
    routes, cities = sorted(set(routes)), sorted(set(cities))
    if not routes and not cities:
        raise ValueError("a close-up needs at least one route or city")
    level, box, size = crop_plan(board, routes, cities)
    art = _art(board, level, locale)
    lay = art.layout
    img = art.crop(box)
    shifted = SimpleNamespace(layout=replace(lay, ox=lay.ox - box[0], oy=lay.oy - box[1]),
                              sprites=art.sprites)
    near = lambda b: _meets(b, box)                           # noqa: E731
    owner = [o if o >= 0 and near(_route_box(lay, board.routes[r])) else -1
             for r, o in enumerate(g.owner)]
    closed = [r for r in D.closed_lanes(board, g.n, g.owner)
              if near(_route_box(lay, board.routes[r]))]
    built = {c: o for c, o in g.station_owner.items() if near(_node_box(lay, board.nodes[c]))}
    # a name's box: its top-left and at most this far right and down (names are short)
    labels = [i for i in art.sprites.labels()
              if _meets((i[0] + lay.ox - 4, i[1] + lay.oy - 4, i[0] + lay.ox + 420,
                         i[1] + lay.oy + 40), box)]
    view = SimpleNamespace(board=board, owner=owner, station_owner=built, last_move=None, n=g.n)
    D.overlay(img, shifted, view, routes=routes, cities=cities, closed=closed, labels=labels,
              scheme=scheme)
    if size != img.size:
        img = img.resize(size, Image.Resampling.BOX)
    return img, art.palette


def closeup_png(g, names, routes, locale="en", cities=(), scheme="standard"):
    return PNG.encode(*closeup_picture(g, names, routes, locale, cities, scheme))


def closeup_contents(g, routes, cities=()):
    """What the close-up of `routes` and `cities` shows, as data for its alt text (the words
    are the caller's, in the reader's language): {"routes": [(route, label, owner seat or
    -1)], "stations": [(node, city name, owner seat or -1)], "closed": [(route, label)]: the
    other lanes of those routes that the game has closed, "scale": the close-up's scale over
    the public map's (1.5; 1.0 or less when they are far apart: then the close-up shows little
    the map does not, and a card may leave it out), and where some route carries a map's own
    marks "marks": [(label, marks.route_marks)]}."""
    board = g.board
    routes, cities = sorted(set(routes)), sorted(set(cities))
    scale = None
    if routes or cities:
        level, box, size = crop_plan(board, routes, cities)
        scale = round(level / D.MAP_SCALE * size[0] / (box[2] - box[0]), 3)
    shut = D.closed_lanes(board, g.n, g.owner)
    twins = sorted({board.routes[r].twin for r in routes} & shut)
    out = {"routes": [(r, board.route_label(r), g.owner[r]) for r in routes],
           "stations": [(c, board.nodes[c].name, g.station_owner.get(c, -1)) for c in cities],
           "closed": [(r, board.route_label(r)) for r in twins], "scale": scale}
    marks = [(board.route_label(r), M.route_marks(board.routes[r])) for r in routes
             if M.route_marks(board.routes[r])]
    if marks:
        out["marks"] = marks
    return out
