"""The encoded picture (png.py): a valid 8-bit palette PNG of at most 256 KiB, in which every
colour drawn as a solid area comes out exactly as palette.py has it. Each check decodes the
bytes the bot sends."""
import io
import struct

import pytest
from PIL import Image, ImageChops

from testkit.sample_games import PLAYERS, greedy_game, random_game
from ttr_bot.engine.cards import LOCO
from ttr_bot.maps import available_maps
from ttr_bot.render import extras as EX
from ttr_bot.render import marks as M
from ttr_bot.render import palette as P
from ttr_bot.render import png as PNG
from ttr_bot.render import render_board, render_final
from ttr_bot.render import static as S
from ttr_bot.render.draw import board_image, final_image, page_layout
from ttr_bot.render.geometry import along
from ttr_bot.render.panel import Panel

MAPS = available_maps()
NAMES = ["Amélie", "Bjørn", "Chidi", "Dörte", "Emeka"]
MAX_BYTES = 256 * 1024
SOLID = P.solid_colours()

_GAMES = {}


def game(map_id, until=None, seed=5, play=random_game):
    """Random legal play (or the greedy plans of the sample pictures), cached: only read."""
    key = (map_id, until, seed, play)
    if key not in _GAMES:
        _GAMES[key] = play(map_id, PLAYERS[map_id], seed=seed, until=until)
    return _GAMES[key]


def names(g):
    return NAMES[:g.n]


def decode(data):
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.mode == "P"
    return img.convert("RGB")


def pictures(g, scheme=P.STANDARD):
    """(kind, RGB image before the encoding, the PNG bytes) of the public, a private and the
    final picture of this game, in the players' colours of `scheme`."""
    n, s = names(g), scheme
    return [("board", board_image(g, n, scheme=s), render_board(g, n, palette=s)),
            ("private", board_image(g, n, viewer=0, scheme=s), render_board(g, n, viewer=0, palette=s)),
            ("final", final_image(g, n, scheme=s), render_final(g, n, palette=s))]


SCHEMES = list(P.SCHEMES)


# ----- the palette ------------------------------------------------------------------------

def test_no_two_solid_colours_fall_into_one_palette_lookup():
    """Pillow maps a pixel through the 4x4x4 cell of its colour: two solid colours that close
    would come out as one (the old page background took the white card's pixels)."""
    assert PNG.conflicts(SOLID) == []
    assert PNG.conflicts([(250, 250, 246), (250, 248, 242)]) == [((250, 250, 246), (250, 248, 242))]


def test_the_palette_holds_every_solid_colour_and_no_more_than_256():
    g = game("europe")
    for kind, _, data in pictures(g):
        img = Image.open(io.BytesIO(data))
        pal = img.getpalette()
        entries = {tuple(pal[i:i + 3]) for i in range(0, len(pal), 3)}
        assert len(pal) // 3 <= 256
        assert set(SOLID) <= entries, kind


# ----- solid colours stay exact ---------------------------------------------------------------

@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("map_id", MAPS)
def test_no_pixel_drawn_in_a_solid_colour_changes_in_the_file(map_id, scheme):
    """Every pixel that has one of palette.py's solid colours in the drawn picture has exactly
    that colour in the decoded file (card and player colours of either scheme, marks,
    highlight, ink, ticket badges...)."""
    games = (game(map_id, until=0.5), game(map_id), game(map_id, 0.5, 7, greedy_game))
    for g in games if scheme == P.STANDARD else games[:2]:
        for kind, img, data in pictures(g, scheme):
            back = decode(data)
            r, gr, b = ImageChops.difference(img, back).split()
            changed = ImageChops.lighter(ImageChops.lighter(r, gr), b).point(lambda v: 255 if v else 0)
            sentinel = (1, 2, 3)
            assert sentinel not in SOLID
            lost = Image.composite(img, Image.new("RGB", img.size, sentinel), changed)
            lost = {rgb: n for n, rgb in lost.getcolors(1 << 16) if rgb in SOLID}
            assert lost == {}, (kind, lost)
            # and the check is not empty: the information colours are there
            drawn = {rgb for _, rgb in img.getcolors(1 << 16)}
            wanted = {P.player_rgb(s, scheme) for s in range(g.n)}
            wanted |= {P.player_ink(s, scheme) for s in range(g.n)}
            wanted |= {P.INK, P.CAR_LINE}
            wanted |= {P.slot_fill(rt.color) for r, rt in enumerate(g.board.routes) if g.owner[r] < 0}
            wanted |= {P.HIGHLIGHT} if kind != "final" else set()
            wanted |= set(P.CARD_RGB) if kind == "private" else set()
            assert wanted <= drawn, (kind, wanted - drawn)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("map_id", MAPS)
def test_claimed_cars_free_slots_and_cards_read_back_exactly(map_id, scheme):
    g = game(map_id)
    board = g.board
    # the colour-blind marks are solid: the car's own colour is read beside its mark
    off = 13 if P.scheme_of(scheme).filled else 0
    for kind, _, data in pictures(g, scheme):
        img = decode(data)
        lay = page_layout(board, kind)

        def px(x, y, img=img, lay=lay):
            fx, fy = lay.pt(x, y)
            return img.getpixel((round(fx), round(fy)))

        seats = set()
        shared = EX.shared_routes(g)    # Japan's bullet routes taken by a Bullet Train: nobody's
        for r, seat in enumerate(g.owner):
            if seat >= 0:
                rgb = M.BULLET_INK if r in shared else P.player_rgb(seat, scheme)
                for x, y, a in board.routes[r].slots:
                    assert any(px(*along(x, y, a, d)) == rgb
                               for d in {off, -off}), (kind, board.route_label(r), seat)
                seats.add(seat)
        assert seats == set(range(g.n))
        # free coloured slots: their fill beside the letter, where nothing else is drawn over it
        probes = hits = 0
        for r, route in enumerate(board.routes):
            if g.owner[r] >= 0 or route.color < 0:
                continue
            for i, (x, y, a) in enumerate(route.slots):
                if i < route.ferry:
                    continue
                probes += 1
                hits += px(*along(x, y, a, 16)) == P.slot_fill(route.color)
        assert probes and hits >= 0.8 * probes, (kind, hits, probes)
        if kind == "final":
            continue
        # the face-up cards, and on a private board the viewer's cards
        panel = Panel(board, kind, lay.portrait)
        sections = {name: (x, y, w) for name, x, y, w, _h in panel.sections(lay)}
        x, y, _ = sections["market"]
        cw, ch = panel.card
        for i, card in enumerate(g.faceup):
            if card != LOCO:
                cx, cy = round(x + i * (cw + panel.gap)), round(y + panel.title_h)
                assert img.getpixel((cx + 10, cy + ch - 12)) == P.CARD_RGB[card], (kind, i, card)
        if kind == "private":
            x, y, w = sections["hand"]
            mw, mh = panel.mini
            gap = min(panel.k(14), (w - 9 * mw) / 8)            # as Panel.hand spaces them
            for card in range(LOCO):
                cx, cy = round(x + card * (mw + gap)), round(y + panel.title_h)
                assert img.getpixel((cx + 7, cy + mh - 7)) == P.CARD_RGB[card], (card,)


# ----- size and format -------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAPS)
def test_every_picture_is_at_most_256_kib(map_id):
    sizes = {}
    for until in (1 / 3, 2 / 3, None):
        g = game(map_id, until=until, seed=13)
        for viewer in (None, 0, g.n - 1):
            sizes[(until, viewer)] = len(render_board(g, names(g), viewer=viewer))
        sizes[(until, "final")] = len(render_final(g, names(g)))
    assert max(sizes.values()) <= MAX_BYTES, sizes


def test_the_file_is_a_plain_8_bit_palette_png():
    data = render_board(game("usa"), names(game("usa")))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, tag = struct.unpack(">I4s", data[8:16])
    assert tag == b"IHDR" and length == 13
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    assert (depth, colour_type, interlace) == (8, 3, 0)        # 8-bit indexed, not interlaced
    assert 1600 <= width <= 2000
    Image.open(io.BytesIO(data)).verify()                       # chunk CRCs, PLTE before IDAT


def test_the_palette_depends_on_the_page_not_on_the_turns_drawn_before():
    a, b = game("nordic", until=0.3), game("nordic")
    S.clear()
    fresh = render_board(b, names(b), viewer=1)
    S.clear()
    render_board(a, names(a), viewer=1)
    render_final(a, names(a))
    assert render_board(b, names(b), viewer=1) == fresh
