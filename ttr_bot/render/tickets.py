"""Tickets on the map.

The private board tags both ends of each of its player's kept tickets with the ticket's number,
the number the panel's list gives it, in a round badge, hollow orange while open, filled green
once done; offered tickets, while the player chooses, with a letter (A, B, C…: the choice
menu's and /ttr keep's) in a violet square joined to its twin by a violet line, so that the
offer reads as routes to build before it is kept, and never as a kept ticket of that number. The final picture draws every player's tickets as lines in
their colour between the two cities: solid and ended by a disc when made, dashed and ended by a
ring when failed.

Which tickets are done is the engine's answer (engine.network, with the best use of stations),
never worked out here. A player's tickets and offer are drawn on their own board only; the
public board draws none, and the final picture is the reveal.
"""
import math
import threading
from typing import NamedTuple

from PIL import Image, ImageDraw

from ..engine.network import best_ticket_score, tickets_score
from . import palette as P
from . import text as T

SS = 3                  # supersampling of the badge and line masks
BADGE_R = 16            # a number badge's radius, picture pixels (8 at 800 px wide)
NUMBER_SIZE = 21
OFFER_W = 6             # an offered ticket's line, and its white casing each side
CASING = 3
FINAL_W = 5             # a final-picture ticket line, made
FAILED_W = 3            # ... failed: thinner, dashed, faded, uncased, under the made ones
FAILED_DASH = (10, 8)
END_R = 9               # its end disc or ring

OFFER, OPEN, DONE = "offer", "open", "done"     # private board
MADE, FAILED = "made", "failed"                 # final picture


OFFER_TAGS = "ABCDEFGH"  # an offer's tickets, in the order dealt (at most 5 on every map)


def offer_tag(i):
    """The tag of the i-th (from 1) offered ticket: its letter on the map, in the panel's
    list, in the choice menu and in /ttr keep."""
    return OFFER_TAGS[i - 1] if 1 <= i <= len(OFFER_TAGS) else str(i)


class Mark(NamedTuple):
    number: object      # kept: 1.. as in the panel's list; offered: its letter (offer_tag);
                        # 0: none drawn
    ends: tuple         # ((node, node), ...): origin to each destination
    state: str
    seat: int = -1


class Row(NamedTuple):
    """A line of the panel's ticket list."""
    number: object      # as Mark.number
    label: str
    points: str
    state: str


# ----- what to draw (asks the engine) ---------------------------------------------------------

def ends_of(board, ticket):
    """((origin node, destination node), ...): for a country (several border points) the
    points nearest to the other end."""
    out = []
    for dest in ticket.dests:
        pairs = [(a, b) for a in board.place_nodes.get(ticket.origin, ())
                 for b in board.place_nodes.get(dest, ())]
        if pairs:
            out.append(min(pairs, key=lambda p: (_dist(board, *p), p)))
    return tuple(out)


def _dist(board, a, b):
    na, nb = board.nodes[a], board.nodes[b]
    return math.hypot(na.x - nb.x, na.y - nb.y)


def ticket_results(g, seat):
    """[(done, points)] of the seat's kept tickets, in their order: the engine's scoring
    (stations borrowed at best, as at the end)."""
    board = g.board
    held = [board.tickets[i] for i in g.tickets[seat]]
    if not held:
        return []
    if g.stations_of[seat]:
        results, _ = best_ticket_score(board, seat, g.routes_of[seat], held, g.stations_of[seat],
                                       g.owner)
        return results
    return tickets_score(board, g.routes_of[seat], held)


def private_marks(g, seat):
    """(rows, marks) of a private board: the offer being chosen (lettered as the menu), then
    the kept tickets (numbered as the panel lists them)."""
    board = g.board
    rows, marks = [], []
    offer = g.offers[seat] if g.offers else None
    for i, tid in enumerate(offer or (), 1):
        ticket = board.tickets[tid]
        rows.append(Row(offer_tag(i), ticket.label(), _points(ticket), OFFER))
        marks.append(Mark(offer_tag(i), ends_of(board, ticket), OFFER))
    for i, (tid, (done, _)) in enumerate(zip(g.tickets[seat], ticket_results(g, seat)), 1):
        ticket = board.tickets[tid]
        state = DONE if done else OPEN
        rows.append(Row(i, ticket.label(), _points(ticket), state))
        marks.append(Mark(i, ends_of(board, ticket), state))
    return rows, marks


def final_marks(g, players):
    """Every player's tickets, made or failed as the final scores say (`players`: the
    engine's g.scores()[0], whose tickets are in held order)."""
    board = g.board
    marks = []
    for seat, pl in enumerate(players):
        for tid, result in zip(g.tickets[seat], pl["tickets"]):
            ticket = board.tickets[tid]
            ends = ends_of(board, ticket)
            if result["completed"] and ticket.multi:
                # a multi-destination ticket made: the line to the destination it scored
                # (the engine's points say which), not to the others
                ends = tuple(e for e, p in zip(ends, ticket.points) if p == result["points"])
            marks.append(Mark(0, ends, MADE if result["completed"] else FAILED, seat))
    return marks


def _points(ticket):
    return "/".join(str(p) for p in ticket.points)


# ----- masks ----------------------------------------------------------------------------------

_LOCK = threading.Lock()
_MASKS = {}


def _mask(key, make):
    m = _MASKS.get(key)
    if m is None:
        m = make()
        with _LOCK:
            m = _MASKS.setdefault(key, m)
    return m


def _shape_mask(kind, r, grow=0.0, hollow=0.0):
    """An L mask (2r + 4 square) of a disc or a rounded square of radius r + grow, less the
    same shape `hollow` pixels inside."""
    def make():
        size = 2 * (r + 2)
        img = Image.new("L", (size * SS, size * SS), 0)
        d = ImageDraw.Draw(img)
        c = size * SS / 2

        def shape(rr, fill):
            R = rr * SS
            box = (c - R, c - R, c + R, c + R)
            if kind == "square":
                d.rounded_rectangle(box, R * 0.35, fill=fill)
            else:
                d.ellipse(box, fill=fill)
        shape(r + grow, 255)
        if hollow:
            shape(r + grow - hollow, 0)
        return img.resize((size, size), Image.Resampling.BOX)
    return _mask((kind, r, grow, hollow), make)


def lines_mask(segments, width, ss=SS):
    """(x0, y0, L mask) of lines `width` pixels wide with round ends along `segments`
    ([(a, b)] picture points), all in one mask over their bounding box drawn `ss` times larger
    ss > 1."""
    xs = [p[0] for seg in segments for p in seg]
    ys = [p[1] for seg in segments for p in seg]
    pad = width / 2 + 2
    x0, y0 = math.floor(min(xs) - pad), math.floor(min(ys) - pad)
    x1, y1 = math.ceil(max(xs) + pad), math.ceil(max(ys) + pad)
    img = Image.new("L", ((x1 - x0) * ss, (y1 - y0) * ss), 0)
    d = ImageDraw.Draw(img)
    w = width * ss
    for a, b in segments:
        sa, sb = ((a[0] - x0) * ss, (a[1] - y0) * ss), ((b[0] - x0) * ss, (b[1] - y0) * ss)
        d.line([sa, sb], fill=255, width=round(w))
        for x, y in (sa, sb):
            d.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=255)
    if ss > 1:
        img = img.resize((x1 - x0, y1 - y0), Image.Resampling.BOX)
    return x0, y0, img


def _dashes(a, b, dash):
    length = math.dist(a, b)
    if dash is None or not length:
        return [(a, b)]
    on, off = dash
    out, t = [], 0.0
    while t < length:
        e = min(length, t + on)
        out.append((_lerp(a, b, t / length), _lerp(a, b, e / length)))
        t = e + off
    return out


def _lerp(a, b, f):
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)


# ----- drawing --------------------------------------------------------------------------------

def _paste(img, rgb, cx, cy, mask):
    x, y = round(cx - mask.width / 2), round(cy - mask.height / 2)
    img.paste(rgb, (x, y, x + mask.width, y + mask.height), mask)


def _paste_lines(img, rgb, segments, width, ss=SS):
    if not segments:
        return
    if ss == 1:         # unsmoothed: straight onto the picture (a mask the map's size is slow)
        d = ImageDraw.Draw(img)
        for a, b in segments:
            d.line([a, b], fill=rgb, width=round(width))
            for x, y in (a, b):
                d.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=rgb)
        return
    # smoothed: in pieces, each in a small mask (one mask around a line across the map costs
    # ~100 ms at this supersampling; pieces cost ~0.2 ms each)
    for a, b in segments:
        n = max(1, math.ceil(math.dist(a, b) / PIECE))
        for j in range(n):
            x0, y0, mask = lines_mask([(_lerp(a, b, j / n), _lerp(a, b, (j + 1) / n))], width, ss)
            img.paste(rgb, (x0, y0, x0 + mask.width, y0 + mask.height), mask)


PIECE = 64              # pixels of line per mask


def _trimmed(a, b, r):
    """The segment a-b less r pixels at each end (the line stops at the badges)."""
    length = math.dist(a, b)
    if length <= 2 * r:
        return None
    return _lerp(a, b, r / length), _lerp(a, b, 1 - r / length)


def badge_spots(board, lay, marks, r=BADGE_R):
    """{(mark index, node): picture point} of every badge (of radius r): one badge sits on its
    city; several on one city ring it, touching, in the order of `marks`."""
    at = {}
    for i, m in enumerate(marks):
        for pair in m.ends:
            for node in pair:
                at.setdefault(node, [])
                if i not in at[node]:
                    at[node].append(i)
    spots = {}
    for node, idx in at.items():
        n = board.nodes[node]
        cx, cy = lay.pt(n.x, n.y)
        k = len(idx)
        rho = 0 if k == 1 else (r + 1) / math.sin(math.pi / k)
        for j, i in enumerate(idx):
            a = -math.pi / 2 + 2 * math.pi * j / k + (math.pi / k if k == 2 else 0)
            # whole pixels: every badge of one number is the same pixels
            spots[(i, node)] = (round(cx + rho * math.cos(a)), round(cy + rho * math.sin(a)))
    return spots


def draw_private(img, board, lay, marks, labels=()):
    """The private board's tickets: offer lines, the city names they cross drawn again over
    them (`labels`: the map's, static.labels), then every badge with its number or letter."""
    spots = badge_spots(board, lay, marks)
    segments = []
    for i, m in enumerate(marks):
        if m.state == OFFER:
            segments += [seg for a, b in m.ends
                         if (seg := _trimmed(spots[(i, a)], spots[(i, b)], BADGE_R))]
    _paste_lines(img, P.WHITE, segments, OFFER_W + 2 * CASING)
    _paste_lines(img, P.TICKET_OFFER, segments, OFFER_W)
    crossed = crossed_labels(labels, segments, lay.ox, lay.oy)
    for x, y, name, _, size in crossed:
        T.draw(img, lay.ox + x, lay.oy + y, name, size, P.INK, bold=True, halo=P.HALO,
               halo_width=LABEL_HALO, valign="top")
    for (i, _node), (x, y) in spots.items():
        badge(img, x, y, marks[i].number, marks[i].state)


LABEL_HALO = 5          # a city name over an offer line: a wider halo than on the map (3)


def crossed_labels(labels, segments, ox=0, oy=0):
    """The city names (static.labels' items, map-relative) that one of these lines (picture
    points) runs over: each is drawn again over the lines, so that a name reads."""
    if not segments:
        return []
    reach = OFFER_W / 2 + CASING
    out = []
    for item in labels:
        x, y, name, _, size = item
        x0, y0 = ox + x - reach, oy + y - reach
        x1, y1 = ox + x + T.width(name, size, True) + reach, oy + y + size + reach
        if any(_crosses(a, b, (x0, y0, x1, y1)) for a, b in segments):
            out.append(item)
    return out


def _crosses(a, b, box):
    """Whether the segment a-b passes through the box (sampled every 3 pixels)."""
    x0, y0, x1, y1 = box
    if max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1 or max(a[1], b[1]) < y0 \
            or min(a[1], b[1]) > y1:
        return False
    n = max(1, math.ceil(math.dist(a, b) / 3))
    return any(x0 <= px <= x1 and y0 <= py <= y1
               for px, py in (_lerp(a, b, j / n) for j in range(n + 1)))


def badge(img, x, y, number, state, r=BADGE_R):
    """One badge: offer a violet square with its letter, open a hollow orange disc, done a
    green one, with its number."""
    kind = "square" if state == OFFER else "disc"
    _paste(img, P.CAR_LINE, x, y, _shape_mask(kind, r, 1.5))
    if state == OPEN:
        _paste(img, P.WHITE, x, y, _shape_mask(kind, r))
        _paste(img, P.TICKET_OPEN, x, y, _shape_mask(kind, r, 0, round(r * 0.28 * 2) / 2))
        ink = P.INK
    else:
        _paste(img, P.TICKET_OFFER if state == OFFER else P.TICKET_DONE, x, y,
               _shape_mask(kind, r))
        ink = P.WHITE
    text = str(number)
    size = round(NUMBER_SIZE * r / BADGE_R * (1 if len(text) < 2 else 0.82))
    T.draw(img, x, y, text, size, ink, bold=True, align="center")


def draw_final_lines(img, board, lay, marks, scheme=P.STANDARD):
    """The final picture's ticket lines (under the longest path and the cars, so that the
    routes stay readable), unsmoothed (a 5-player game draws 40 of them across the map;
    smoothed they cost 40% more bytes): the failed ones first, thin, dashed and faded; then
    every made one's casing, then each player's made lines."""
    made, failed = {}, {}
    for m in marks:
        for a, b in m.ends:
            pa = lay.pt(board.nodes[a].x, board.nodes[a].y)
            pb = lay.pt(board.nodes[b].x, board.nodes[b].y)
            if m.state == MADE:
                made.setdefault(m.seat, []).append((pa, pb))
            else:
                failed.setdefault(m.seat, []).extend(_dashes(pa, pb, FAILED_DASH))
    for seat in sorted(failed):
        _paste_lines(img, P.failed_rgb(P.player_rgb(seat, scheme)), failed[seat], FAILED_W, 1)
    _paste_lines(img, P.CAR_LINE, [seg for segs in made.values() for seg in segs],
                 FINAL_W + 3, 1)
    for seat in sorted(made):
        _paste_lines(img, P.player_rgb(seat, scheme), made[seat], FINAL_W, 1)


def draw_final_ends(img, board, lay, marks, scheme=P.STANDARD):
    """The ends of the final picture's ticket lines (over the cars): a disc when made, a ring
    when failed, in the player's colour; the ends of several tickets at one city around it."""
    for (i, _node), (x, y) in badge_spots(board, lay, marks, END_R + 1).items():
        m = marks[i]
        rgb = P.player_rgb(m.seat, scheme)
        _paste(img, P.CAR_LINE, x, y, _shape_mask("disc", END_R, 1.5))
        if m.state == MADE:
            _paste(img, rgb, x, y, _shape_mask("disc", END_R))
        else:
            _paste(img, P.WHITE, x, y, _shape_mask("disc", END_R))
            _paste(img, rgb, x, y, _shape_mask("disc", END_R, 0, 4))
