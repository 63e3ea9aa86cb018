"""A map's own marks on its static layer, drawn from the data of its routes and places (issue 32):
mountain X marks (Legendary Asia), the companies a route shows (Pennsylvania: a chip per
company, its colour and its share count), bullet routes (Japan: a navy stripe on each slot),
wave spaces (Italy: blue waves) and regions (a pale tint around each city, one colour per
region), draw bonuses (Northern Lights: a +1 / +2 badge), and the second drawing of a city
(Japan's insets: Tokyo and Kokura).

Each mark comes from a field of `Route` or `Node` (engine/board.py): a map without them draws
exactly what it drew before (every function here is then a no-op), whatever its name.
static.build_map calls `under` (before the routes), `over` (after the cities, supersampled) and
`texts` (at final size); static's labels avoid `obstacles`; `end_point` joins a route to the
drawing of its city it starts from.
"""
import colorsys
import math

from . import palette as P
from . import text as T
from .geometry import SLOT_H, along

MOUNTAIN_INK = (110, 60, 20)
BULLET_INK = (16, 40, 120)
WAVE_INK = (20, 110, 200)
BADGE_FILL = (255, 255, 255)
# Pennsylvania's companies by share count (RULES.md §14.1): a colour each, told apart by the
# number drawn on the chip as well
COMPANY_RGB = {2: (120, 70, 30), 3: (0, 128, 128), 4: (96, 32, 160), 5: (0, 80, 200),
               6: (200, 90, 0), 7: (160, 0, 80), 8: (70, 120, 20), 10: (0, 40, 90),
               15: (180, 20, 20)}
CHIP = 17            # a company chip's side, board frame
BADGE_R = 13         # a draw bonus badge's radius, board frame
TINT_REACH = 120     # how far a region's tint reaches around its city, board frame


def colours(board):
    """The solid colours this map's marks add (reserved in its pictures' palettes)."""
    out = []
    routes = board.routes
    if any(r.mountain for r in routes):
        out.append(MOUNTAIN_INK)
    if any(r.bullet for r in routes):
        out.append(BULLET_INK)
    if any(r.waves for r in routes):
        out.append(WAVE_INK)
    if any(r.shares for r in routes):
        out += [COMPANY_RGB[c] for c in sorted({c for r in routes for c in r.shares})]
    if any(r.draw_bonus or r.shares for r in routes):
        out.append(BADGE_FILL)
    out += [region_rgb(g) for g in sorted({n.region for n in board.nodes if n.region})]
    return out


def route_marks(route):
    """{mark: number} a route carries (for words: the close-up's alt text): mountain X
    marks, companies (their share counts), bullet, wave spaces, draw bonus."""
    out = {"mountain": route.mountain, "waves": route.waves, "draw_bonus": route.draw_bonus,
           "bullet": int(route.bullet)}
    out = {k: v for k, v in out.items() if v}
    if route.shares:
        out["shares"] = list(route.shares)
    return out


# ----- geometry ---------------------------------------------------------------------------------

def end_point(board, node, toward):
    """Where a route from `node` towards `toward` (x, y) starts: the city, or its inset
    drawing when that is nearer."""
    n = board.nodes[node]
    if n.inset is None or math.dist((n.x, n.y), toward) <= math.dist(n.inset, toward):
        return (n.x, n.y)
    return n.inset


def _mid(route):
    """(x, y, angle) in the middle of a route's slots."""
    s = route.slots
    if len(s) % 2:
        return s[len(s) // 2]
    a, b = s[len(s) // 2 - 1], s[len(s) // 2]
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, a[2])


def chip_spots(route):
    """[(company, x, y)]: the chips of a route's companies, in a row beside its middle slot."""
    if not route.shares:
        return []
    x, y, a = _mid(route)
    n = len(route.shares)
    step = CHIP + 3
    return [(c, *along(x, y, a, (i - (n - 1) / 2) * step, -(SLOT_H / 2 + CHIP / 2 + 4)))
            for i, c in enumerate(route.shares)]


def badge_spot(route):
    x, y, a = _mid(route)
    return along(x, y, a, 0, SLOT_H / 2 + BADGE_R + 3)


def marked_slots(route, count):
    """The slots that carry `count` marks: the middle ones."""
    n = len(route.slots)
    first = (n - count) // 2
    return list(range(first, first + count))


def no_letter(route):
    """Slots whose colour letter gives way to a mark (wave spaces, mountain X)."""
    if route.waves:
        return set(marked_slots(route, route.waves))
    if route.mountain:
        return set(marked_slots(route, route.mountain))
    return set()


def obstacles(board, s):
    """Extra circles (x, y, r, cost) in picture pixels that city names avoid: the chips and
    badges, the inset drawings, the country names."""
    out = []
    for route in board.routes:
        for _, x, y in chip_spots(route):
            out.append((x * s, y * s, CHIP * 0.75 * s, 60))
        if route.draw_bonus:
            x, y = badge_spot(route)
            out.append((x * s, y * s, BADGE_R * s, 60))
    for n in board.nodes:
        if n.inset is not None:
            out.append((n.inset[0] * s, n.inset[1] * s, 13 * s, 40))
    return out


# ----- regions --------------------------------------------------------------------------------

def region_rgb(region):
    """A pale tint per region, hues spread so that neighbouring ids differ."""
    h = (region * 0.381966) % 1.0
    r, g, b = colorsys.hls_to_rgb(h, 0.84, 0.55)
    return P.mix((round(r * 255), round(g * 255), round(b * 255)), P.BOARD_BG, 0.35)


def _clip(poly, a, b, c):
    """The part of convex `poly` where a*x + b*y <= c (Sutherland-Hodgman, one edge)."""
    out = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def region_cells(board):
    """[(region, polygon)] in the board frame: each city's nearest area (its Voronoi cell among
    all places) within TINT_REACH of it, for the cities that have a region."""
    sites = [(n.x, n.y) for n in board.nodes]
    out = []
    for n in board.nodes:
        if not n.region:
            continue
        poly = [(n.x + TINT_REACH * math.cos(2 * math.pi * i / 28),
                 n.y + TINT_REACH * math.sin(2 * math.pi * i / 28)) for i in range(28)]
        for (sx, sy) in sites:
            if (sx, sy) == (n.x, n.y) or math.dist((sx, sy), (n.x, n.y)) > 2 * TINT_REACH:
                continue
            a, b = sx - n.x, sy - n.y            # the half nearer to n
            poly = _clip(poly, a, b, (sx * sx + sy * sy - n.x * n.x - n.y * n.y) / 2)
            if not poly:
                break
        if poly:
            out.append((n.region, poly))
    return out


# ----- drawing ----------------------------------------------------------------------------------

def under(d, board, k):
    """Before the routes (supersampled, k pixels per board unit): the regions' tints."""
    for region, poly in region_cells(board):
        d.polygon([(x * k, y * k) for x, y in poly], fill=region_rgb(region))


def over(d, board, k):
    """After the routes and cities (supersampled): X marks, bullet stripes, waves, chips,
    badges, inset drawings."""
    for route in board.routes:
        for i in (marked_slots(route, route.mountain) if route.mountain else ()):
            _cross(d, route.slots[i], k)
        if route.bullet:
            for x, y, a in route.slots:
                p, q = along(x, y, a, -19), along(x, y, a, 19)
                d.line([(p[0] * k, p[1] * k), (q[0] * k, q[1] * k)], fill=BULLET_INK,
                       width=round(6 * k))
        for i in (marked_slots(route, route.waves) if route.waves else ()):
            _wave(d, route.slots[i], k)
        for c, x, y in chip_spots(route):
            h = CHIP / 2 * k
            d.rounded_rectangle((x * k - h, y * k - h, x * k + h, y * k + h), round(3 * k),
                                fill=COMPANY_RGB.get(c, P.INK), outline=P.WHITE, width=round(1.5 * k))
        if route.draw_bonus:
            x, y = badge_spot(route)
            R = BADGE_R * k
            d.ellipse((x * k - R, y * k - R, x * k + R, y * k + R), fill=BADGE_FILL,
                      outline=P.OUTLINE, width=round(2 * k))
    for n in board.nodes:
        if n.inset is not None:
            cx, cy = n.inset[0] * k, n.inset[1] * k
            for R, fill in ((11 * k, P.CITY_LINE), (7.5 * k, P.CITY_FILL)):
                d.ellipse((cx - R, cy - R, cx + R, cy + R), fill=fill)


def _cross(d, slot, k):
    x, y, a = slot
    for ang in (45, -45):
        p = along(x, y, a + ang, -14)
        q = along(x, y, a + ang, 14)
        line = [(p[0] * k, p[1] * k), (q[0] * k, q[1] * k)]
        d.line(line, fill=P.WHITE, width=round(10 * k))
    for ang in (45, -45):
        p = along(x, y, a + ang, -12.5)
        q = along(x, y, a + ang, 12.5)
        d.line([(p[0] * k, p[1] * k), (q[0] * k, q[1] * k)], fill=MOUNTAIN_INK, width=round(6 * k))


def _wave(d, slot, k):
    x, y, a = slot
    for n in (-3, 3):
        pts = [along(x, y, a, t, n + 2.5 * math.sin(t / 3.2)) for t in range(-17, 18, 2)]
        d.line([(px * k, py * k) for px, py in pts], fill=WAVE_INK, width=round(2.4 * k))


def texts(img, board, scale):
    """At final size: the company numbers on the chips, the draw bonuses' +1 / +2."""
    for route in board.routes:
        for c, x, y in chip_spots(route):
            T.draw(img, x * scale, y * scale, str(c), max(7, round(11 * scale)), P.WHITE,
                   bold=True, align="center")
        if route.draw_bonus:
            x, y = badge_spot(route)
            T.draw(img, x * scale, y * scale, f"+{route.draw_bonus}", max(8, round(15 * scale)),
                   P.INK, bold=True, align="center")
