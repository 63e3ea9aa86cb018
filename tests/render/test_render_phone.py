"""The phone pictures, checked on their pixels: the public map alone (no panel, nothing hidden),
every route claimed since a given point highlighted, the close-up showing the claimed route in
its owner's colour with its cities, and the closed lane of a double route drawn closed on
every picture and in the film."""
import io

import pytest
from PIL import Image, ImageSequence

from testkit.sample_games import PLAYERS, random_game
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.maps import available_maps, load_board
from ttr_bot.render import closeup as C
from ttr_bot.render import draw as D
from ttr_bot.render import film as F
from ttr_bot.render import palette as P
from ttr_bot.render import png as PNG
from ttr_bot.render import render_board, render_closeup, render_final, render_map
from ttr_bot.render import seat_strip as SS
from ttr_bot.render.draw import closed_lanes, page_layout
from ttr_bot.render.geometry import MAP_MARGIN, along

MAPS = available_maps()
NAMES = ["Amélie", "Bjørn", "Chidi", "Dörte", "Emeka"]
KiB = 1024
_GAMES = {}


def png(data):
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def close(a, b, tol=8):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def game(map_id, until=0.5, seed=5, n=None):
    key = (map_id, until, seed, n)
    if key not in _GAMES:
        _GAMES[key] = random_game(map_id, n or PLAYERS[map_id], seed=seed, until=until)
    return _GAMES[key]


def px(lay, x, y):
    a, b = lay.pt(x, y)
    return round(a), round(b)


def claimed(g, count):
    """`count` routes of the game's owners, spread over the board order."""
    owned = [r for r, o in enumerate(g.owner) if o >= 0]
    return owned[::max(1, len(owned) // count)][:count]


# ----- the public map ------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAPS)
def test_the_public_picture_is_the_map_alone_and_small(map_id):
    g = game(map_id, until=None)
    data = render_map(g, NAMES[:g.n])
    img = png(data)
    board = g.board
    assert abs(img.width - (board.width * D.MAP_SCALE + 2 * MAP_MARGIN)) <= 2
    strip = img.height - (board.height * D.MAP_SCALE + 2 * MAP_MARGIN)   # no panel, only
    rows = len(SS.rows(g, NAMES[:g.n], "en"))                             # the players' state
    assert (abs(strip) <= 2) if not rows else (0 < strip <= rows * SS.ROW + 2 * SS.PAD + 2)
    assert len(data) <= 256 * KiB
    if board.height > board.width:
        assert img.height > img.width                   # a portrait map fills a phone's width


def test_nothing_hidden_is_drawn_on_the_public_picture():
    g = game("europe")
    other = g.copy()
    # another deal of what only the players know: hands, tickets, offered tickets, the decks
    other.hands = [list(reversed(h)) for h in other.hands]
    other.tickets = list(reversed(other.tickets))
    other.offers = [list(t[:3]) for t in g.tickets]
    other.deck = list(reversed(other.deck))
    assert (other.hands, other.tickets, other.offers) != (g.hands, g.tickets, g.offers)
    for highlight in (None, [1, 2]):
        assert render_map(g, NAMES[:g.n], highlight) == render_map(other, NAMES[:g.n], highlight)
    r = next(r for r, o in enumerate(g.owner) if o >= 0)
    assert render_closeup(g, NAMES[:g.n], [r]) == render_closeup(other, NAMES[:g.n], [r])
    assert render_map(g, NAMES[:g.n]) == render_map(g, ["x"] * g.n)   # nor the names


def halo_pixels(img, lay, board, r):
    """How many pixels around route r are in the highlight colour."""
    xs = [x for x, _, _ in board.routes[r].slots]
    ys = [y for _, y, _ in board.routes[r].slots]
    x0, y0 = px(lay, min(xs) - 30, min(ys) - 30)
    x1, y1 = px(lay, max(xs) + 30, max(ys) + 30)
    crop = img.crop((x0, y0, x1, y1))
    return sum(n for n, rgb in crop.getcolors(1 << 20) if close(rgb, P.HIGHLIGHT, 4))


@pytest.mark.parametrize("map_id", MAPS)
def test_every_route_claimed_since_a_point_is_highlighted(map_id):
    g = game(map_id)
    board = g.board
    since = claimed(g, 3)
    lay = page_layout(board, "map")
    img = png(render_map(g, NAMES[:g.n], highlight=since))
    plain = png(render_map(g, NAMES[:g.n], highlight=()))
    assert P.HIGHLIGHT not in {rgb for _, rgb in plain.getcolors(1 << 20)}
    for r in since:
        # a ring around each car: at least the two long sides of each
        assert halo_pixels(img, lay, board, r) >= 150 * board.routes[r].length, board.route_label(r)
    # the default is the last move's claim, as before
    lm = g.last_move
    assert lm[1] == "claim_route"
    default = png(render_map(g, NAMES[:g.n]))
    assert halo_pixels(default, lay, board, lm[2]) >= 150 * board.routes[lm[2]].length


def test_the_board_with_its_panel_takes_the_same_highlight():
    g = game("usa")
    since = claimed(g, 2)
    lay = page_layout(g.board, "board")
    img = png(render_board(g, NAMES[:g.n], highlight=since))
    for r in since:
        assert halo_pixels(img, lay, g.board, r) >= 150 * g.board.routes[r].length


# ----- the close-up --------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAPS)
def test_the_closeup_shows_the_claim_in_its_owners_colour(map_id):
    g = game(map_id)
    board = g.board
    r = next(r for r, o in enumerate(g.owner) if o >= 0)
    seat = g.owner[r]
    img = png(render_closeup(g, NAMES[:g.n], [r]))
    assert img.size == (C.OUT_W, C.OUT_H)
    level, box, size = C.crop_plan(board, [r])
    assert level == C.ZOOM > D.MAP_SCALE and size == (box[2] - box[0], box[3] - box[1])
    lay = C._layout_of(board, level)
    for x, y, _ in board.routes[r].slots:
        cx, cy = px(lay, x, y)
        # beside the mark at the centre: the car's body
        bx, by = px(lay, *along(x, y, _, 15, 0))
        assert close(img.getpixel((bx - box[0], by - box[1])), P.player_rgb(seat)), (
            board.route_label(r), (cx, cy))
    ring = sum(n for n, rgb in img.getcolors(1 << 20) if close(rgb, P.HIGHLIGHT, 4))
    assert ring >= 150 * board.routes[r].length * C.ZOOM ** 2
    # both cities are inside the crop, with room for their names
    for c in (board.routes[r].a, board.routes[r].b):
        nx, ny = px(lay, board.nodes[c].x, board.nodes[c].y)
        assert box[0] + 20 < nx < box[2] - 20 and box[1] + 20 < ny < box[3] - 20


@pytest.mark.parametrize("map_id, axis", [("europe", 0), ("nordic", 1)])
def test_a_closeup_of_routes_far_apart_still_holds_them_all(map_id, axis):
    g = game(map_id, until=None)
    board = g.board
    owned = [r for r, o in enumerate(g.owner) if o >= 0]
    far = [min(owned, key=lambda r: board.routes[r].slots[0][axis]),
           max(owned, key=lambda r: board.routes[r].slots[0][axis])]
    img = png(render_closeup(g, NAMES[:g.n], far))
    assert img.width <= C.OUT_W and img.height <= C.OUT_H
    assert C.OUT_W in img.size or C.OUT_H in img.size
    assert C.closeup_contents(g, far)["scale"] < 1        # a card may leave this one out
    level, box, size = C.crop_plan(board, far)
    assert img.size == size
    lay = C._layout_of(board, level)
    for r in far:                  # every slot of both inside the crop
        for x, y, _ in board.routes[r].slots:
            sx, sy = px(lay, x, y)
            assert box[0] <= sx < box[2] and box[1] <= sy < box[3], board.route_label(r)
    assert sum(n for n, rgb in img.getcolors(1 << 20) if close(rgb, P.HIGHLIGHT, 40)) > 100


def test_a_closeup_of_a_station():
    g = game("europe", until=None)
    if not g.station_owner:
        pytest.skip("no station in this game")
    city, seat = next(iter(sorted(g.station_owner.items())))
    img = png(render_closeup(g, NAMES[:g.n], [], cities=[city]))
    colours = {rgb for _, rgb in img.getcolors(1 << 20)}
    assert P.HIGHLIGHT in colours and P.player_rgb(seat) in colours
    with pytest.raises(ValueError):
        render_closeup(g, NAMES[:g.n], [])


# ----- closed lanes --------------------------------------------------------------------------

def _double(board):
    """A known double route: USA's New York – Boston lanes (both colours)."""
    for route in board.routes:
        if route.twin > route.index and {board.nodes[route.a].name, board.nodes[route.b].name} == {
                "New York", "Boston"}:
            return route.index, route.twin
    raise AssertionError("USA has a double New York – Boston route")


def _with_claim(n, r, seat=0):
    """A USA game as dealt, with route r (only) claimed by `seat`."""
    g = Game(load_board("usa"), n, Dealer(3))
    g.owner = list(g.owner)
    g.owner[r] = seat
    return g


def _closed_point(board, r):
    """A point in a slot of lane r where neither a letter nor a hatch stroke is drawn."""
    x, y, a = board.routes[r].slots[0]
    return along(x, y, a, 15.75, 0)      # between two strokes, clear of the letter


def _pictures(g):
    """{name: (RGB picture, layout scale/offset function)} of every picture of `g`."""
    names = NAMES[:g.n]
    out = {"map": (png(render_map(g, names)), page_layout(g.board, "map")),
           "board": (png(render_board(g, names)), page_layout(g.board, "board")),
           "private": (png(render_board(g, names, viewer=1)), page_layout(g.board, "private"))}
    return out


@pytest.mark.parametrize("n", [2, 3])
def test_the_closed_lane_is_drawn_closed(n):
    board = load_board("usa")
    taken, other = _double(board)
    g = _with_claim(n, taken)
    assert board.rules.both_lanes_open(n) is False
    assert closed_lanes(board, n, g.owner) == {other}
    fill = P.slot_fill(board.routes[other].color)
    for name, (img, lay) in _pictures(g).items():
        got = img.getpixel(px(lay, *_closed_point(board, other)))
        assert close(got, P.CLOSED_FILL, 2) and not close(got, fill, 12), (name, got)
    # the close-up of the claim shows its closed twin, and says so
    assert C.closeup_contents(g, [taken]) == {
        "routes": [(taken, board.route_label(taken), 0)], "stations": [],
        "closed": [(other, board.route_label(other))], "scale": 1.5}
    level, box, _ = C.crop_plan(board, [taken])
    lay = C._layout_of(board, level)
    img = png(render_closeup(g, NAMES[:n], [taken]))
    x, y = px(lay, *_closed_point(board, other))
    assert close(img.getpixel((x - box[0], y - box[1])), P.CLOSED_FILL, 2)


def test_both_lanes_stay_open_with_four_players():
    board = load_board("usa")
    taken, other = _double(board)
    g = _with_claim(4, taken)
    assert board.rules.both_lanes_open(4) and not closed_lanes(board, 4, g.owner)
    fill = P.slot_fill(board.routes[other].color)
    img, lay = _pictures(g)["map"]
    assert close(img.getpixel(px(lay, *_closed_point(board, other))), fill, 12)


def _drawn_closed(board, lanes, pixel, tol):
    """Whether every slot of these lanes looks closed: at a point of each slot clear of its
    letter, never the free slot's colour, and the closed colour at most of them (a city name
    may be drawn over a few)."""
    closed_at = 0
    points = 0
    for r in lanes:
        fill = P.slot_fill(board.routes[r].color)
        for x, y, a in board.routes[r].slots:
            got = pixel(*along(x, y, a, 15.75, 0))
            assert not close(got, fill, 6), (board.route_label(r), got)
            closed_at += close(got, P.CLOSED_FILL, tol)
            points += 1
    return closed_at >= 0.8 * points


def test_the_closed_lane_is_closed_on_the_final_picture_and_in_the_film():
    g = game("usa", until=None, n=3)
    closed = closed_lanes(g.board, 3, g.owner)
    assert closed, "a three-player game closes some lanes"
    img = png(render_final(g, NAMES[:3]))
    lay = page_layout(g.board, "final")
    assert _drawn_closed(g.board, closed, lambda x, y: img.getpixel(px(lay, x, y)), 2)
    # the film: its last frame (the board at half size)
    from testkit.sample_games import film_input, greedy_record
    rec, end = greedy_record("usa", 3, 5)
    start, names, actions = film_input(rec)
    shut = closed_lanes(end.board, 3, end.owner)
    assert shut
    frames = [f.convert("RGB") for f in ImageSequence.Iterator(
        Image.open(io.BytesIO(F.render_film(start, names, actions))))]
    flay = F.film_layout(end.board)

    def pixel(x, y):
        px_, py_ = flay.pt(x, y)
        return frames[-1].getpixel((round(px_ / F.HALF), round(py_ / F.HALF)))
    assert _drawn_closed(end.board, shut, pixel, 10)


# ----- the encoding --------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAPS)
def test_the_phone_pictures_keep_every_solid_colour_exact(map_id):
    """The palette PNG of the map and of the close-up: every pixel drawn in one of palette.py's
    solid colours (player colours and marks, highlight, closed lanes, ink) reads back as
    drawn."""
    g = game(map_id, n=3)
    names = NAMES[:g.n]
    r = g.last_move[2]
    solid = set(P.solid_colours())
    for kind, (img, pal) in (("map", D.map_picture(g, names, highlight=claimed(g, 3))),
                             ("closeup", C.closeup_picture(g, names, [r]))):
        back = png(PNG.encode(img, pal))
        drawn, read = img.load(), back.load()
        seen = set()
        for y in range(0, img.height, 2):
            for x in range(0, img.width, 2):
                rgb = drawn[x, y]
                if rgb in solid:
                    assert read[x, y] == rgb, (kind, (x, y), rgb, read[x, y])
                    seen.add(rgb)
        assert {P.player_rgb(g.owner[r]), P.HIGHLIGHT, P.INK} <= seen, kind
        if kind == "map" and closed_lanes(g.board, g.n, g.owner):
            assert {P.CLOSED_FILL, P.CLOSED_LINE} <= seen


@pytest.mark.parametrize("map_id", MAPS)
def test_every_city_name_has_a_place_of_its_own_on_the_phone_map(map_id):
    """At a phone's width a name must read: on the public map and the close-up's, no two names
    overlap and no name covers another city's marker."""
    from ttr_bot.render import static as S
    from ttr_bot.render import text as T
    board = load_board(map_id)
    for scale in (D.MAP_SCALE, C.ZOOM):
        size = S.label_size(scale)
        boxes = []
        for key, (x, y, _) in S.place_labels(board, scale, size).items():
            node = key % len(board.nodes)       # Japan's insets name a city a second time
            w = T.width(board.nodes[node].name, size, True)
            boxes.append((x, y, x + w, y + round(size * 0.78), node))
        assert len(boxes) == sum(1 for n in board.nodes if not (n.country or n.unnamed)) + sum(
            1 for n in board.nodes if n.inset is not None)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (
                    board.nodes[a[4]].name, board.nodes[b[4]].name)
            for n in board.nodes:
                if n.index != a[4]:
                    assert not (a[0] - 4 < n.x * scale < a[2] + 4 and a[1] - 4 < n.y * scale < a[3] + 4), (
                        board.nodes[a[4]].name, n.name)
