"""The static layer of a map — drawn once per (map, page kind, language), then cached with the
palette its pictures are encoded with (png.py), mapped onto that palette (a byte a pixel; the
cache is bounded by bytes, MAX_PAGE_BYTES) — and the masks the per-turn overlay pastes
(claimed cars, highlights, ticket rings).

The map is drawn at twice its size and reduced, so that its slanted slots and circles have
smooth edges; the overlay masks are made the same way, once per route, on first use. All
caches are guarded by locks: several worker threads may render at once.
"""
import ctypes
import ctypes.util
import math
import threading
from collections import OrderedDict
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from ..engine.cards import GRAY
from ..i18n import t
from . import marks as M
from . import palette as P
from . import text as T
from .geometry import SLOT_H, SLOT_W, along, rounded_rect, shape

SS = 2                       # supersampling factor of everything drawn once
CITY_R = 9                   # city marker radius, board frame
LABEL_SIZE = 25              # city names at scale 1, pixels (label_size: at other scales)
STATION_AT = (14, -14)        # a station's house, from its city's centre (board frame)
LETTER_SIZE = 12

# Car sizes in the board frame: a free slot, and a claimed car with its dark outline.
FREE = (SLOT_W - 4, SLOT_H - 3, 4)
CAR_OUT = (SLOT_W + 4, SLOT_H + 7, 6)
CAR_IN = (SLOT_W - 2, SLOT_H + 1, 4)
HALO = (SLOT_W + 20, SLOT_H + 22, 14)
CLOSED = (SLOT_W - 1, SLOT_H + 1, 4)      # covers a free slot, its outline and its letter


def fingerprint(board):
    return (board.map_id, board.variant, board.width, board.height,
            hash((board.nodes, board.routes, board.countries)))


def _downsample(img):
    return img.resize((img.width // SS, img.height // SS), Image.Resampling.BOX)


# ----- masks for the overlay ----------------------------------------------------------------

class Sprites:
    """Masks of one map at one scale, made on first use. Each is (box, L mask) in picture
    pixels relative to the map's top-left corner."""

    def __init__(self, board, scale):
        self.board, self.scale = board, scale
        self._lock = threading.Lock()
        self._cache = {}

    def _get(self, key, make):
        m = self._cache.get(key)
        if m is None:
            with self._lock:
                m = self._cache.get(key)
                if m is None:
                    m = make()
                    self._cache[key] = m
        return m

    def _slot_box(self, slots, reach):
        """The box of a route's masks: `reach` (board units) around its slot centres, so that
        masks of one route line up."""
        s = self.scale
        xs = [x for x, _, _ in slots]
        ys = [y for _, y, _ in slots]
        return (math.floor(min(xs) * s - reach * s) - 1, math.floor(min(ys) * s - reach * s) - 1,
                math.ceil(max(xs) * s + reach * s) + 1, math.ceil(max(ys) * s + reach * s) + 1)

    def _slot_polygon(self, slot, origin, w, h, r):
        """A rounded w x h rectangle at a slot: polygon in supersampled pixels from `origin`."""
        s, k = self.scale, self.scale * SS
        x, y, a = slot
        return rounded_rect((x * s - origin[0]) * SS, (y * s - origin[1]) * SS, a, w * k, h * k, r * k)

    def _slot_mask(self, slots, w, h, r, reach):
        """One mask holding a rounded w x h rectangle at each slot, in _slot_box."""
        box = self._slot_box(slots, reach)
        x0, y0, x1, y1 = box
        img = Image.new("L", ((x1 - x0) * SS, (y1 - y0) * SS), 0)
        d = ImageDraw.Draw(img)
        for slot in slots:
            d.polygon(self._slot_polygon(slot, box, w, h, r), fill=255)
        return box, _downsample(img)

    def _slot_pieces(self, slots, sizes, reach):
        """[(box, mask per size)] per slot: the rectangles _slot_mask would draw for that slot
        (the same polygons, moved by whole pixels: the same pixels), each in a box just around
        its first size."""
        route_box = self._slot_box(slots, reach)
        out = []
        for slot in slots:
            polys = [self._slot_polygon(slot, route_box, *size) for size in sizes]
            bx0 = math.floor(min(px for px, _ in polys[0]) / SS) - 1
            by0 = math.floor(min(py for _, py in polys[0]) / SS) - 1
            bx1 = math.ceil(max(px for px, _ in polys[0]) / SS) + 1
            by1 = math.ceil(max(py for _, py in polys[0]) / SS) + 1
            masks = []
            for poly in polys:
                img = Image.new("L", ((bx1 - bx0) * SS, (by1 - by0) * SS), 0)
                ImageDraw.Draw(img).polygon([(px - bx0 * SS, py - by0 * SS) for px, py in poly],
                                            fill=255)
                masks.append(_downsample(img))
            x0, y0 = route_box[0], route_box[1]
            out.append(((x0 + bx0, y0 + by0, x0 + bx1, y0 + by1), *masks))
        return tuple(out)

    def car(self, route):
        """(box, outline mask, body mask) of the claimed cars of a route."""
        def make():
            slots = self.board.routes[route].slots
            reach = math.hypot(CAR_OUT[0], CAR_OUT[1]) / 2 + 2
            box, out = self._slot_mask(slots, *CAR_OUT, reach)
            _, body = self._slot_mask(slots, *CAR_IN, reach)
            return box, out, body
        return self._get(("car", route), make)

    def car_pieces(self, route):
        """The masks of car(), one (box, outline mask, body mask) per car, each in a box just
        around its car: 35-40% of the pixels of the route's box to blend on a full board."""
        def make():
            reach = math.hypot(CAR_OUT[0], CAR_OUT[1]) / 2 + 2
            return self._slot_pieces(self.board.routes[route].slots, (CAR_OUT, CAR_IN), reach)
        return self._get(("cars", route), make)

    def closed_pieces(self, route):
        """[(box, cover mask, hatch mask)] per slot of a lane the game has closed: the cover
        hides the slot's colour and letter, the hatch (outline and diagonal strokes, inside the
        cover) says "not to be taken"."""
        def make():
            slots = self.board.routes[route].slots
            reach = math.hypot(CAR_OUT[0], CAR_OUT[1]) / 2 + 2
            route_box = self._slot_box(slots, reach)
            k = self.scale * SS
            out = []
            for slot in slots:
                poly = self._slot_polygon(slot, route_box, *CLOSED)
                bx0 = math.floor(min(px for px, _ in poly) / SS) - 1
                by0 = math.floor(min(py for _, py in poly) / SS) - 1
                bx1 = math.ceil(max(px for px, _ in poly) / SS) + 1
                by1 = math.ceil(max(py for _, py in poly) / SS) + 1
                size = ((bx1 - bx0) * SS, (by1 - by0) * SS)
                shift = [(px - bx0 * SS, py - by0 * SS) for px, py in poly]
                cover = Image.new("L", size, 0)
                ImageDraw.Draw(cover).polygon(shift, fill=255)
                hatch = Image.new("L", size, 0)
                d = ImageDraw.Draw(hatch)
                d.polygon(shift, outline=255, width=max(1, round(2 * k)))
                cx = (slot[0] * self.scale - route_box[0] - bx0) * SS
                cy = (slot[1] * self.scale - route_box[1] - by0) * SS
                half = (CLOSED[1] / 2) * k
                for dd in (-21, -10.5, 0, 10.5, 21):
                    a = along(cx, cy, slot[2], (dd - 6) * k, -half)
                    b = along(cx, cy, slot[2], (dd + 6) * k, half)
                    d.line([a, b], fill=255, width=max(1, round(2.5 * k)))
                hatch = ImageChops.multiply(hatch, cover)
                x0, y0 = route_box[0], route_box[1]
                out.append(((x0 + bx0, y0 + by0, x0 + bx1, y0 + by1), _downsample(cover),
                            _downsample(hatch)))
            return tuple(out)
        return self._get(("closed", route), make)

    def halo(self, route):
        return self._get(("halo", route),
                         lambda: self._slot_mask(self.board.routes[route].slots, *HALO,
                                                 math.hypot(HALO[0], HALO[1]) / 2 + 2))

    def mark(self, kind, r, filled=False):
        """A player's mark: a hollow (or `filled`: solid) shape of radius r (pixels), centred
        in its mask."""
        if filled:
            return self._get(("mark", kind, r, True), lambda: filled_mark(kind, r))

        def make():
            size = 2 * r + 6
            img = Image.new("L", (size * SS, size * SS), 0)
            d = ImageDraw.Draw(img)
            c = size * SS / 2
            lw = max(2, round(r * SS * 0.4))
            R = r * SS
            if kind == "ring":
                d.ellipse(shape("ring", c, c, R), outline=255, width=lw)
            elif kind == "bars":
                for dx in (-R * 0.55, R * 0.55):
                    d.rectangle((c + dx - lw / 2, c - R, c + dx + lw / 2, c + R), fill=255)
            else:
                d.polygon(shape(kind, c, c, R), outline=255, width=lw)
            return _downsample(img)
        return self._get(("mark", kind, r), make)

    def ring(self, r, width):
        """A circle outline of radius r (pixels), for ticket cities and highlights."""
        def make():
            size = 2 * r + 2 * width + 4
            img = Image.new("L", (size * SS, size * SS), 0)
            c = size * SS / 2
            R = (r + width / 2) * SS
            ImageDraw.Draw(img).ellipse((c - R, c - R, c + R, c + R), outline=255,
                                        width=round(width * SS))
            return _downsample(img)
        return self._get(("ring", r, width), make)

    def house(self, r):
        """(outline mask, body mask) of a station: a small house of half-width r pixels."""
        def make():
            size = 2 * r + 8
            masks = []
            for grow in (2.2, 0):
                img = Image.new("L", (size * SS, size * SS), 0)
                c, R = size * SS / 2, (r + grow) * SS
                pts = [(c - R, c + R), (c - R, c - R * 0.15), (c, c - R * 1.1),
                       (c + R, c - R * 0.15), (c + R, c + R)]
                ImageDraw.Draw(img).polygon(pts, fill=255)
                masks.append(_downsample(img))
            return tuple(masks)
        return self._get(("house", r), make)

    def labels(self):
        """City names, drawn over the cars: a name must read, even where it could not avoid
        a slot (one car's mark under it; the route's other cars still show it)."""
        return self._get(("labels",), lambda: labels(self.board, self.scale))

    def trail(self, routes, width=30):
        """[(box, mask)]: a thick line along each of these routes (city to city through its
        slot centres, round at every bend), in a box around that route, inside the map. Not
        cached: it is drawn once per game, and each game's path differs."""
        s, board = self.scale, self.board
        w, h = round(board.width * s), round(board.height * s)
        half = width / 2 * s
        out = []
        for r in sorted(routes):
            # the points of the whole map's mask, moved by whole pixels: the same pixels
            pts = [(x * s * SS, y * s * SS) for x, y in _route_line(board, board.routes[r])]
            x0 = max(0, math.floor(min(x for x, _ in pts) / SS - half) - 1)
            y0 = max(0, math.floor(min(y for _, y in pts) / SS - half) - 1)
            x1 = min(w, math.ceil(max(x for x, _ in pts) / SS + half) + 1)
            y1 = min(h, math.ceil(max(y for _, y in pts) / SS + half) + 1)
            img = Image.new("L", ((x1 - x0) * SS, (y1 - y0) * SS), 0)
            d = ImageDraw.Draw(img)
            pts = [(x - x0 * SS, y - y0 * SS) for x, y in pts]
            d.line(pts, fill=255, width=round(width * s * SS), joint="curve")
            R = half * SS
            for x, y in pts:
                d.ellipse((x - R, y - R, x + R, y + R), fill=255)
            out.append(((x0, y0, x1, y1), _downsample(img)))
        return out


def filled_mark(kind, r):
    """A solid player mark of radius r (pixels): the colour-blind scheme's, which stays a
    legible shape when the picture is shown 800 px wide."""
    size = 2 * r + 6
    img = Image.new("L", (size * SS, size * SS), 0)
    d = ImageDraw.Draw(img)
    c, R = size * SS / 2, r * SS
    if kind == "ring":
        d.ellipse(shape("ring", c, c, R * 0.95), fill=255)
    elif kind == "bars":
        w = R * 0.42
        for dx in (-R * 0.5, R * 0.5):
            d.rectangle((c + dx - w / 2, c - R, c + dx + w / 2, c + R), fill=255)
    else:
        d.polygon(shape(kind, c, c, R), fill=255)
    return _downsample(img)


def _route_line(board, route):
    pts = [(x, y) for x, y, _ in route.slots]
    mid = pts[len(pts) // 2]
    a, b = M.end_point(board, route.a, mid), M.end_point(board, route.b, mid)
    if math.dist(a, pts[0]) > math.dist(a, pts[-1]):
        pts.reverse()
    return [a] + pts + [b]


# ----- the map --------------------------------------------------------------------------------

def _draw_routes(d, board, k):
    """Free slots, at k pixels per board unit (already supersampled)."""
    for route in board.routes:
        pts = [(x * k, y * k) for x, y in _route_line(board, route)]
        d.line(pts, fill=P.ROUTE_LINE, width=round(4 * k), joint="curve")
    for route in board.routes:
        fill, line = P.slot_fill(route.color), P.slot_line(route.color)
        for i, (x, y, a) in enumerate(route.slots):
            cx, cy = x * k, y * k
            if route.tunnel:
                for dd in (-17, 0, 17):
                    for side in (-1, 1):
                        b0 = along(cx, cy, a, (dd - 5) * k, side * (SLOT_H / 2 - 2) * k)
                        b1 = along(cx, cy, a, (dd + 5) * k, side * (SLOT_H / 2 - 2) * k)
                        tip = along(cx, cy, a, dd * k, side * (SLOT_H / 2 + 6) * k)
                        d.polygon([b0, tip, b1], fill=P.OUTLINE)
            w, h, r = FREE
            d.polygon(rounded_rect(cx, cy, a, (w + 2) * k, (h + 2) * k, (r + 1) * k),
                      fill=P.OUTLINE if route.tunnel else line)
            d.polygon(rounded_rect(cx, cy, a, (w - 1) * k, (h - 1) * k, r * k), fill=fill)
            if i < route.ferry:
                _loco_disc(d, cx, cy, 7.5 * k)


def _loco_disc(d, cx, cy, R):
    box = (cx - R, cy - R, cx + R, cy + R)
    n = len(P.LOCO_STRIPES)
    for j, rgb in enumerate(P.LOCO_STRIPES):
        d.pieslice(box, -90 + 360 * j / n, -90 + 360 * (j + 1) / n, fill=rgb)
    d.ellipse(box, outline=P.OUTLINE, width=max(1, round(R / 4)))


def _draw_cities(d, board, k):
    for n in board.nodes:
        cx, cy = n.x * k, n.y * k
        if n.country:
            R = 7 * k
            d.rectangle((cx - R, cy - R, cx + R, cy + R), fill=P.WHITE,
                        outline=P.COUNTRY_INK, width=round(3 * k))
            continue
        R = CITY_R * k
        d.ellipse((cx - R, cy - R, cx + R, cy + R), fill=P.CITY_FILL, outline=P.CITY_LINE,
                  width=round(3.5 * k))


def place_labels(board, scale, size=LABEL_SIZE):
    """{node: (x, y, clear)}: top-left of each city name in picture pixels (map-relative), put
    where it covers the fewest slots, markers and other names. `clear` is False when the name
    could not avoid the centre of a slot (it is drawn over the cars all the same)."""
    s = scale
    obstacles = []          # circles (x, y, r, cost) in picture pixels
    for route in board.routes:
        for x, y, a in route.slots:
            obstacles.append((x * s, y * s, 6 * s, 60))
            for dd in (-20, -7, 7, 20):
                px, py = along(x, y, a, dd)
                obstacles.append((px * s, py * s, (SLOT_H / 2 + 3) * s, 8))
    obstacles += M.obstacles(board, s)
    markers = [(n.x * s, n.y * s, (CITY_R + 3) * s, 100) for n in board.nodes]
    if board.rules.stations:            # where a station will stand (draw.STATION_AT)
        markers += [((n.x + STATION_AT[0]) * s, (n.y + STATION_AT[1]) * s, 14 * s, 40)
                    for n in board.nodes if not n.country]
    W, H = board.width * s, board.height * s
    placed = []
    out = {}
    h = round(size * 0.78)                                  # capitals and descenders
    order = sorted((n for n in board.nodes if not n.country and not n.unnamed),
                   key=lambda n: (-len(board.node_routes[n.index]), n.index))
    spots = [(n.index, n.name, n.x, n.y) for n in order]
    spots += [(len(board.nodes) + n.index, n.name, *n.inset)      # Japan's insets (marks.py)
              for n in board.nodes if n.inset is not None]
    for key, name, nx, ny in spots:
        w = T.width(name, size, True)
        cx, cy = nx * s, ny * s
        rm = (CITY_R + 4) * s
        reach = (w + 80 * s) ** 2
        near = [o for o in obstacles + markers if (o[0] - cx) ** 2 + (o[1] - cy) ** 2 < reach]
        best = None
        for far, extra in ((0, 0), (10 * s, 3), (22 * s, 8), (36 * s, 14), (52 * s, 22),
                           (70 * s, 32), (90 * s, 44)):
            if far > 52 * s and not any(_hits(best[3], ox, oy, orr)
                                        for ox, oy, orr, c in near if c == 60) \
                    and not any(_overlap(best[3], pb) for pb in placed):
                break   # farther still only when every nearer place covers a car or a name
            r = rm + far
            cands = [
                (cx + r, cy - h / 2, 0), (cx - r - w, cy - h / 2, 0.6),
                (cx - w / 2, cy - r - h, 0.3), (cx - w / 2, cy + r, 0.3),
                (cx + r * 0.7, cy - r * 0.7 - h, 0.9), (cx + r * 0.7, cy + r * 0.7, 0.9),
                (cx - r * 0.7 - w, cy - r * 0.7 - h, 1.1), (cx - r * 0.7 - w, cy + r * 0.7, 1.1),
            ]
            for x, y, pref in cands:
                cost = pref + extra
                box = (x - 3, y - 3, x + w + 3, y + h + 3)
                if box[0] < 4 or box[1] < 4 or box[2] > W - 4 or box[3] > H - 4:
                    cost += 1000
                for ox, oy, orr, c in near:
                    if _hits(box, ox, oy, orr):
                        cost += c
                cost += 200 * sum(_overlap(box, pb) for pb in placed)
                if best is None or cost < best[0]:
                    best = (cost, x, y, box)
            if best[0] < 1 + extra:
                break
        _, x, y, box = best
        placed.append(box)
        clear = not any(_hits(box, ox, oy, orr) for ox, oy, orr, c in near if c == 60)
        out[key] = (x, y, clear)
    return out


_LABELS = {}


def label_size(scale):
    """The city names' size in pixels on a map drawn at `scale`: smaller on a smaller map, but
    less than in proportion (the public map at 0.8 must read at a phone's width), larger on
    the close-up's but less than in proportion (it shows more of the map around the claim)."""
    return round(LABEL_SIZE * scale ** 0.5)


def labels(board, scale):
    """[(x, y, name, clear, size)] of the map's city names (cached)."""
    key = (fingerprint(board), scale)
    got = _LABELS.get(key)
    if got is None:
        size = label_size(scale)
        n_nodes = len(board.nodes)
        got = tuple((x, y - round(0.22 * size), board.nodes[n % n_nodes].name, clear, size)
                    for n, (x, y, clear) in sorted(place_labels(board, scale, size).items()))
        with _LOCK:
            _LABELS.setdefault(key, got)
    return got


def country_labels(board, scale):
    """[(x, y, text, size)]: the countries' names, centred on their data positions in picture
    pixels, moved (the least way) inside the map and off the city names where they would
    cover one (Italy's Francia and Croazia stand at the map's edge)."""
    size = round(34 * scale)
    W, H = board.width * scale, board.height * scale
    names = [(x - 2, y - 2, x + T.width(nm, sz, True) + 2, y + round(0.78 * sz) + 2)
             for x, y, nm, _, sz in labels(board, scale)] if board.countries else []
    slots = [(sx * scale, sy * scale) for r in board.routes for sx, sy, _ in r.slots]
    out = []
    for name, x, y in board.countries:
        text = name.upper()
        w, h = T.width(text, size, True), size * 0.8
        best = None
        for dy in (0, 30, -30, 60, -60, 90, -90, 120, -120):
            for dx in (0, 40, -40, 80, -80, 120, -120):
                cx = min(max(x * scale + dx * scale, w / 2 + 6), W - w / 2 - 6)
                cy = min(max(y * scale + dy * scale, h / 2 + 6), H - h / 2 - 6)
                box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                hit = sum(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                          for b in names)
                hit += sum(box[0] - 8 < sx < box[2] + 8 and box[1] - 8 < sy < box[3] + 8
                           for sx, sy in slots) / 4
                cost = hit * 1000 + abs(dx) + abs(dy) + abs(cx - x * scale - dx * scale)
                if best is None or cost < best[0]:
                    best = (cost, cx, cy)
            if best[0] < 200:
                break
        out.append((best[1], best[2], text, size))
    return out


def draw_labels(img, items, ox=0, oy=0):
    for x, y, name, _, size in items:
        T.draw(img, ox + x, oy + y, name, size, P.INK, bold=True, halo=P.HALO,
               halo_width=3, valign="top")


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hits(box, cx, cy, r):
    nx = min(max(cx, box[0]), box[2])
    ny = min(max(cy, box[1]), box[3])
    return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r


LETTER_GROWTH = 1.35         # at most: a Thai letter at 1.35 x inks 11 of a 13-pixel slot


@lru_cache(maxsize=64)
def slot_letter_size(letter, scale):
    """The size of a colour's letter on the slots at this scale: LETTER_SIZE, larger for a
    script whose letters ink less high than a Latin capital (Thai letters are x-height), so
    that every language's letter reads as tall on a phone, within the slot."""
    size = round(LETTER_SIZE * scale)
    ink, cap = (T.rasterise(s, size, True).fill.getbbox() for s in (letter, "B"))
    if not ink:
        return size
    grow = (cap[3] - cap[1]) / max(1, ink[3] - ink[1])
    return round(size * min(LETTER_GROWTH, max(1.0, grow)))


def build_map(board, scale, locale):
    """The map area (RGB, map_w x map_h) with every free slot, city and name."""
    w, h = round(board.width * scale), round(board.height * scale)
    big = Image.new("RGB", (w * SS, h * SS), P.BOARD_BG)
    d = ImageDraw.Draw(big)
    k = scale * SS
    M.under(d, board, k)
    _draw_routes(d, board, k)
    _draw_cities(d, board, k)
    M.over(d, board, k)
    img = _downsample(big)
    # Letters on the slots and names are drawn at final size: crisper than reduced text.
    for x, y, name, size in country_labels(board, scale):
        T.draw(img, x, y, name, size, P.COUNTRY_INK,
               bold=True, halo=P.BOARD_BG, halo_width=4, align="center")
    M.texts(img, board, scale)
    for route in board.routes:
        if route.color == GRAY:
            continue
        letter = t(f"render.letter.{P.card_name(route.color)}", locale)
        ink = P.CARD_INK[route.color]
        size = slot_letter_size(letter, scale)
        bare = M.no_letter(route)
        for i, (x, y, _) in enumerate(route.slots):
            if i < route.ferry or i in bare:
                continue
            T.draw(img, x * scale, y * scale, letter, size, ink, bold=True, align="center")
    # (the city names are drawn by each turn's overlay, over the cars)
    frame = ImageDraw.Draw(img)
    frame.rectangle((0, 0, w - 1, h - 1), outline=P.FRAME, width=2)
    return img


# ----- the cache --------------------------------------------------------------------------

class Art:
    """Everything cached for one (map, page kind, language): the layout, the static page, the
    map's sprites and the palette its pictures are encoded with (png.py).

    The page is kept mapped onto that palette ("P", one byte a pixel instead of Pillow's four
    for RGB: 1.3-3.2 MB instead of 5-13): every picture is encoded with the same palette, so
    its static pixels come out as they would from the RGB page (a few hundred edge pixels in a
    million one palette step apart). `canvas()` and `crop()` give the RGB copy a turn draws on."""

    def __init__(self, lay, page, sprites, palette=None):
        self.layout, self.page, self.sprites, self.palette = lay, page, sprites, palette

    def compact(self):
        """Keep the page mapped onto the palette (after the palette was made from it)."""
        if self.palette is not None and self.page.mode == "RGB":
            self.page = self.page.quantize(palette=self.palette, dither=Image.Dither.NONE)

    def canvas(self):
        """A fresh RGB copy of the static page."""
        return self.page.convert("RGB") if self.page.mode == "P" else self.page.copy()

    def crop(self, box):
        """An RGB copy of part of the static page."""
        img = self.page.crop(box)
        return img.convert("RGB") if img.mode == "P" else img

    def nbytes(self):
        """Its memory: the page's pixels and the palette's colour lookup table (Pillow fills
        up to 64 x 64 x 64 cells of 2 bytes)."""
        per_pixel = 1 if self.page.mode == "P" else 4           # Pillow stores RGB as RGBX
        return self.page.width * self.page.height * per_pixel + (
            PALETTE_BYTES if self.palette is not None else 0)


_LOCK = threading.Lock()
_PAGES = OrderedDict()        # key -> Art, least recently used first
_MAPS = OrderedDict()         # (fingerprint, scale, locale) -> map image, while pages are built
_SPRITES = {}                 # (fingerprint, scale) -> Sprites
_BUILDING = {}                # key -> Lock, so that one thread builds while the others wait
PALETTE_BYTES = 512 * 1024
MAX_PAGE_BYTES = 80 << 20     # pages of 1.3-3.2 MB (+ 0.5 MB of palette): every map's public
                              # map, private board and final picture in two languages (~68 MB);
                              # past it the least recently used page is drawn again when asked
                              # for (0.25-0.7 s)
MAX_MAPS = 2                  # RGB map layers (5-8 MB) shared by the page kinds of one scale
_TRIM = None


def trim():
    """Give the heap's free memory back to the system (glibc's malloc_trim; elsewhere
    nothing): a page is built from several full-size RGB images (the palette's samples), and
    glibc keeps the memory they leave as the worker's for good, ~50 MB after every map."""
    global _TRIM
    if _TRIM is None:
        try:
            _TRIM = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _TRIM = False
    if _TRIM:
        _TRIM(0)


def cached_bytes():
    """The memory the page cache holds (pages, palettes, map layers)."""
    with _LOCK:
        return (sum(a.nbytes() for a in _PAGES.values())
                + sum(m.width * m.height * 4 for m in _MAPS.values()))


def art(board, kind, locale, make_layout, draw_static_panel, make_palette=None):
    """The cached Art, built on first use (by one thread; others wait for it);
    `make_palette(art)`, when given, makes its palette (and the page is then kept mapped onto
    it, Art.compact)."""
    fp = fingerprint(board)
    key = (fp, kind, locale)
    with _LOCK:
        a = _PAGES.get(key)
        if a is not None:
            _PAGES.move_to_end(key)
            return a
        build_lock = _BUILDING.setdefault(key, threading.Lock())
    with build_lock:
        with _LOCK:
            a = _PAGES.get(key)
            if a is not None:
                return a
        lay = make_layout(board, kind)
        with _LOCK:
            map_img = _MAPS.get((fp, lay.scale, locale))
            sprites = _SPRITES.setdefault((fp, lay.scale), Sprites(board, lay.scale))
        if map_img is None:
            map_img = build_map(board, lay.scale, locale)
        page = Image.new("RGB", (lay.width, lay.height), P.PAGE_BG)
        page.paste(map_img, (lay.ox, lay.oy))
        draw_static_panel(page, lay, board, locale)
        a = Art(lay, page, sprites)
        if make_palette is not None:
            a.palette = make_palette(a)
            a.compact()
        with _LOCK:
            _MAPS[(fp, lay.scale, locale)] = map_img
            _MAPS.move_to_end((fp, lay.scale, locale))
            while len(_MAPS) > MAX_MAPS:
                _MAPS.popitem(last=False)
            _PAGES[key] = a
            total = sum(x.nbytes() for x in _PAGES.values())
            while total > MAX_PAGE_BYTES and len(_PAGES) > 1:
                total -= _PAGES.popitem(last=False)[1].nbytes()
            _BUILDING.pop(key, None)
        del page, map_img
        trim()
        return a


def clear():
    """Forget every cached page (tests, or after changing a map file)."""
    with _LOCK:
        _PAGES.clear()
        _MAPS.clear()
        _SPRITES.clear()
        _LABELS.clear()
