"""Page layout and shapes: where the map and the panel go, and car slots as polygons.

A map's positions are in its board frame (`board.width` x `board.height`, angles in degrees
clockwise); `Layout.pt` turns them into picture pixels.
"""
import math
from dataclasses import dataclass

MARGIN = 16
MAP_MARGIN = 6            # around the map alone (the phone picture): every pixel goes to the map
PANEL_SIDE = 640          # width of the panel beside a portrait map
MAX_WIDTH = 2000          # the widest page: a map wider than this leaves is drawn smaller
SLOT_W, SLOT_H = 54, 16   # a car slot in the board frame
# A page's bytes grow with the cars drawn on it: a map with more car slots than this (USA's
# 309, the most of the first four maps) is drawn smaller, its area in proportion (Pennsylvania
# 322 slots: 0.98; Northern Lights 350: 0.94; Italy 379: 0.90), so that with png.SMALLER its
# pages stay under 256 KiB; smaller still, the lanes of Italy's doubles would touch
FULL_SIZE_SLOTS = 310


@dataclass(frozen=True)
class Layout:
    kind: str             # "board", "private" or "final"
    width: int
    height: int
    scale: float          # board frame -> picture pixels
    ox: int               # the map's top-left corner in the picture
    oy: int
    map_w: int
    map_h: int
    panel: tuple          # (x0, y0, x1, y1), or None: the map alone
    portrait: bool

    def pt(self, x, y):
        return (self.ox + x * self.scale, self.oy + y * self.scale)


def layout(board, kind, band=420):
    """The page of `kind` for this board: landscape maps get the panel (`band` pixels high)
    underneath, portrait maps beside; either way the picture is 1600–2000 px wide. A map
    wider than a page, or with more cars than FULL_SIZE_SLOTS, is drawn smaller."""
    portrait = board.height > board.width
    dense = min(1.0, math.sqrt(FULL_SIZE_SLOTS / max(1, sum(r.length for r in board.routes))))
    if portrait:
        scale = dense
        mw, mh = round(board.width * scale), round(board.height * scale)
        px0 = MARGIN + mw + MARGIN
        width = px0 + PANEL_SIDE + MARGIN
        height = MARGIN + mh + MARGIN
        panel = (px0, MARGIN, width - MARGIN, height - MARGIN)
    else:       # Japan's frame (2,054) is the one wider than a page: drawn a little smaller
        scale = min(dense, (MAX_WIDTH - 2 * MARGIN) / board.width)
        mw, mh = round(board.width * scale), round(board.height * scale)
        width = MARGIN + mw + MARGIN
        py0 = MARGIN + mh + MARGIN
        height = py0 + band + MARGIN
        panel = (MARGIN, py0, width - MARGIN, height - MARGIN)
    return Layout(kind, width, height, scale, MARGIN, MARGIN, mw, mh, panel, portrait)


def map_layout(board, kind, scale=1.0, margin=MAP_MARGIN):
    """The page of the map alone (the public picture, the close-up's source): no panel, a thin
    margin, so that a phone's width goes to the map. Even sides."""
    mw, mh = round(board.width * scale), round(board.height * scale)
    w, h = mw + 2 * margin, mh + 2 * margin
    return Layout(kind, w + w % 2, h + h % 2, scale, margin, margin, mw, mh, None,
                  board.height > board.width)


def rounded_rect(cx, cy, angle, w, h, r, steps=4):
    """Polygon of a w x h rectangle with corner radius r, centred on (cx, cy), turned
    `angle` degrees clockwise (y grows downwards)."""
    r = min(r, w / 2, h / 2)
    pts = []
    hw, hh = w / 2 - r, h / 2 - r
    corners = ((hw, hh, 0), (-hw, hh, 90), (-hw, -hh, 180), (hw, -hh, 270))
    for x, y, start in corners:
        for i in range(steps + 1):
            a = math.radians(start + 90 * i / steps)
            pts.append((x + r * math.cos(a), y + r * math.sin(a)))
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    return [(cx + x * ca - y * sa, cy + x * sa + y * ca) for x, y in pts]


def along(cx, cy, angle, d, n=0.0):
    """The point d along the slot's axis and n across it from (cx, cy)."""
    a = math.radians(angle)
    return (cx + d * math.cos(a) - n * math.sin(a), cy + d * math.sin(a) + n * math.cos(a))


def shape(kind, cx, cy, r):
    """Polygon (or ellipse box for "ring") of a player mark of radius r."""
    if kind == "ring":
        return [(cx - r, cy - r), (cx + r, cy + r)]
    if kind == "square":
        r *= 0.85
        return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    if kind == "triangle":
        return [(cx, cy - r * 1.05), (cx + r, cy + r * 0.75), (cx - r, cy + r * 0.75)]
    if kind == "diamond":
        return [(cx, cy - r * 1.1), (cx + r * 1.1, cy), (cx, cy + r * 1.1), (cx - r * 1.1, cy)]
    return []
