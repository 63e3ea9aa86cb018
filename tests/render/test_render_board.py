"""The board picture, checked on its pixels: claimed slots carry the owner's colour at their
centres, the last move is highlighted, every map renders at 1600–2000 px in under 1 MiB, and
rendering is deterministic across threads."""
import io
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from testkit.sample_games import PLAYERS, random_game
from ttr_bot.maps import available_maps, load_board, variants
from ttr_bot.render import extras as EX
from ttr_bot.render import marks as M
from ttr_bot.render import palette as P
from ttr_bot.render import render_board, render_final
from ttr_bot.render import static as S
from ttr_bot.render.draw import TICKET_R, page_layout

REPO = Path(__file__).resolve().parents[2]

MAPS = available_maps()
MiB = 1 << 20
NAMES = ["Amélie", "Bjørn", "Chidi", "Dörte", "Emeka"]
TOL = 8          # per channel: the masks are anti-aliased, centres are solid


def png(data):
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def close(a, b, tol=TOL):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def to_px(lay, x, y):
    px, py = lay.pt(x, y)
    return round(px), round(py)


_GAMES = {}


def game(map_id, until=0.5, seed=5):
    """Random legal play to about half-way (cached: the games are only read)."""
    key = (map_id, until, seed)
    if key not in _GAMES:
        _GAMES[key] = random_game(map_id, PLAYERS[map_id], seed=seed, until=until)
    return _GAMES[key]


def names(g):
    return NAMES[:g.n]


# ----- every map ----------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAPS)
def test_every_map_renders_within_width_and_size(map_id):
    mid, end = game(map_id), game(map_id, until=None)
    pictures = [render_board(mid, names(mid)), render_board(mid, names(mid), viewer=1),
                render_board(end, names(end)), render_final(end, names(end))]
    for data in pictures:
        img = png(data)
        assert 1600 <= img.width <= 2000
        assert len(data) < MiB


def test_every_variant_renders():
    for map_id in MAPS:
        for variant in variants(map_id):
            if variant == "base":
                continue
            g = random_game(map_id, 3, seed=2, until=0.3, variant=variant)
            img = png(render_board(g, names(g)))
            assert 1600 <= img.width <= 2000


def test_layout_puts_the_board_frame_inside_the_picture():
    for map_id in MAPS:
        board = load_board(map_id)
        lay = page_layout(board, "board")
        x1, y1 = lay.pt(board.width, board.height)
        assert 0 < lay.ox and x1 < lay.width and y1 < lay.height
        # the scale is the picture's map width over the board frame's
        assert math.isclose(lay.map_w / board.width, lay.scale, rel_tol=0.01)


# ----- claimed routes -------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAPS)
def test_claimed_slots_carry_the_owners_colour_at_their_centres(map_id):
    g = game(map_id, until=None)
    board = g.board
    owners = {s for s in g.owner if s >= 0}
    assert len(owners) == g.n, "every player should own something at the end of a game"
    for viewer in (None, 0):
        img = png(render_board(g, names(g), viewer=viewer))
        lay = page_layout(board, "board" if viewer is None else "private")
        checked = 0
        shared = EX.shared_routes(g)    # Japan's bullet routes taken by a Bullet Train: nobody's
        for r, seat in enumerate(g.owner):
            if seat < 0:
                continue
            rgb = M.BULLET_INK if r in shared else P.player_rgb(seat)
            for x, y, _ in board.routes[r].slots:
                px = img.getpixel(to_px(lay, x, y))
                assert close(px, rgb), (board.route_label(r), seat, px)
                checked += 1
        assert checked == sum(board.routes[r].length for r, s in enumerate(g.owner) if s >= 0)


def test_free_gray_slots_carry_no_player_colour():
    g = game("usa", until=0.3)
    board = g.board
    img = png(render_board(g, names(g)))
    lay = page_layout(board, "board")
    for r, seat in enumerate(g.owner):
        if seat >= 0 or board.routes[r].color != -1:
            continue
        for x, y, _ in board.routes[r].slots:
            px = img.getpixel(to_px(lay, x, y))
            assert not any(close(px, P.player_rgb(s), 30) for s in range(5)), (r, px)


def test_claiming_changes_exactly_that_route_to_the_owners_colour():
    g = game("europe", until=0.2).copy()
    board = g.board
    r = next(i for i, s in enumerate(g.owner) if s < 0 and board.routes[i].length >= 3)
    before = png(render_board(g, names(g)))
    g.owner[r] = 3
    g.routes_of[3].append(r)
    after = png(render_board(g, names(g)))
    lay = page_layout(board, "board")
    for x, y, _ in board.routes[r].slots:
        p = to_px(lay, x, y)
        assert close(after.getpixel(p), P.player_rgb(3))
        assert not close(before.getpixel(p), P.player_rgb(3), 30)


# ----- the last move ------------------------------------------------------------------------

def _beside(lay, slot, d):
    """Points d board units either side of a slot, across its axis."""
    x, y, a = slot
    nx, ny = -math.sin(math.radians(a)), math.cos(math.radians(a))
    return [to_px(lay, x + nx * d * s, y + ny * d * s) for s in (-1, 1)]


def _last_claim_game(map_id):
    g = game(map_id)
    assert g.last_move[1] == "claim_route"
    return g


@pytest.mark.parametrize("map_id", MAPS)
def test_the_last_claim_is_highlighted(map_id):
    g = _last_claim_game(map_id)
    board = g.board
    r = g.last_move[2]
    lay = page_layout(board, "board")
    lit = png(render_board(g, names(g)))
    quiet = g.copy()
    quiet.last_move = (g.last_move[0], "draw_card", None)
    dark = png(render_board(quiet, names(quiet)))
    for slot in board.routes[r].slots:
        pts = _beside(lay, slot, 15)
        assert any(close(lit.getpixel(p), P.HIGHLIGHT) for p in pts), (board.route_label(r), slot)
        assert not any(close(dark.getpixel(p), P.HIGHLIGHT, 40) for p in pts)
        # and the car itself still shows its owner
        assert close(lit.getpixel(to_px(lay, slot[0], slot[1])), P.player_rgb(g.owner[r]))
    # nothing else on the map is lit
    others = [s for i, rt in enumerate(board.routes) if i != r for s in rt.slots]
    lit_elsewhere = sum(1 for s in others for p in _beside(lay, s, 15)
                        if close(lit.getpixel(p), P.HIGHLIGHT) and
                        min(math.dist(s[:2], t[:2]) for t in board.routes[r].slots) > 60)
    assert lit_elsewhere == 0


def test_a_new_station_is_highlighted():
    g = game("europe", until=0.3).copy()
    board = g.board
    city = next(n.index for n in board.nodes if n.index not in g.station_owner)
    g.station_owner[city] = 2
    g.stations_of[2].append(city)
    g.last_move = (2, "build_station", city)
    img = png(render_board(g, names(g)))
    lay = page_layout(board, "board")
    n = board.nodes[city]
    r = TICKET_R + 6                       # the ring's radius, picture pixels
    ring = [to_px(lay, n.x + r * math.cos(a), n.y + r * math.sin(a))
            for a in [i * math.pi / 4 for i in range(8)]]
    assert sum(close(img.getpixel(p), P.HIGHLIGHT) for p in ring) >= 6


# ----- private board ------------------------------------------------------------------------

# The tickets on the private board and the final picture: test_render_tickets.py


def test_the_private_board_differs_only_for_its_viewer():
    g = game("europe")
    a = render_board(g, names(g), viewer=0)
    b = render_board(g, names(g), viewer=1)
    assert a != b
    assert render_board(g, names(g), viewer=0) == a


# ----- final picture -------------------------------------------------------------------------

def test_final_picture_draws_the_longest_path():
    g = game("usa", until=None)
    players, _ = g.scores()
    holder = next(s for s, pl in enumerate(players) if pl["bonuses"]["longest_path"])
    from ttr_bot.engine.network import longest_trail_routes
    length, routes = longest_trail_routes(g.board, g.routes_of[holder])
    assert length == players[holder]["longest_path"]
    img = png(render_final(g, names(g)))
    lay = page_layout(g.board, "final")
    gold = 0
    for r in routes:
        for slot in g.board.routes[r].slots:
            gold += any(close(img.getpixel(p), P.TRAIL) for p in _beside(lay, slot, 13.5))
    assert gold == sum(g.board.routes[r].length for r in routes)


def test_the_final_scores_give_the_longest_path_in_cars_then_its_points():
    """"Longest path 29 · +10" read as two scores: the length says what it counts."""
    from ttr_bot.i18n import LOCALES
    from ttr_bot.render.panel import _final_value
    g = game("usa", until=None)
    players, _ = g.scores()
    for pl in players:
        length, bonus = pl["longest_path"], pl["bonuses"]["longest_path"]
        want = f"{length} cars, +{bonus}" if bonus else f"{length} cars"
        assert _final_value("longest", pl) == want
        for loc in LOCALES:
            value = _final_value("longest", pl, loc)
            assert str(length) in value and (f"+{bonus}" in value) == bool(bonus), loc


# ----- speed-related properties: cache, threads, determinism ------------------------------------

def test_rendering_is_deterministic_and_thread_safe():
    g = game("switzerland")
    S.clear()
    expected = render_board(g, names(g), viewer=2)
    S.clear()
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda v: render_board(g, names(g), viewer=v), [2, 2, 2, 2, 2, 2]))
    assert all(r == expected for r in results)


def test_missing_names_and_other_locales_still_render():
    g = game("nordic")
    img = png(render_board(g, [], locale="ja"))
    assert 1600 <= img.width <= 2000


def test_every_sentence_of_the_picture_is_in_the_catalog():
    from ttr_bot.engine.cards import CARD_NAMES
    from ttr_bot.i18n import catalog
    from ttr_bot.render.panel import final_rows, legend_items
    en = catalog("en")
    keys = {f"render.letter.{c}" for c in CARD_NAMES} | {f"render.color.{c}" for c in CARD_NAMES}
    keys |= {f"render.col.{c}" for c in ("player", "score", "trains", "cards", "tickets", "stations")}
    keys |= {f"render.move.{m}" for m in ("none", "claim_route", "tunnel_decline", "build_station",
                                          "draw_card", "draw_tickets", "pass")}
    for map_id in MAPS:
        board = load_board(map_id)
        for kind in ("board", "private", "final"):
            keys |= {f"render.legend.{i}" for i in legend_items(board, kind)}
        keys |= {f"render.final.{r}" for r in final_rows(board.rules)}
    assert sorted(k for k in keys if k not in en) == []
