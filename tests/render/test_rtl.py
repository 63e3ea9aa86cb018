"""Right-to-left pictures: in Persian the panel and the stats card are laid out as mirrors
(the players' names in the right-hand column, the figures to their left), text and card faces
are not flipped, "(+7)" keeps its sign before the number, a stats tile's numbers sit under
their words, and the colour letters on the map are the language's own."""
import io

import pytest
from PIL import Image, ImageChops

from tests.render.test_bidi import needs_fribidi
from tests.render.test_stats_card import rows
from tests.render.test_text import game
from ttr_bot.engine.cards import GRAY
from ttr_bot.i18n import t
from ttr_bot.maps import load_board
from ttr_bot.ratings import Rating
from ttr_bot.render import palette as P
from ttr_bot.render import render_board
from ttr_bot.render import static as S
from ttr_bot.render import text as T
from ttr_bot.render.draw import page_layout
from ttr_bot.render.panel import Panel
from ttr_bot.render.stats_card import RATING_BG, render_stats
from ttr_bot.stats import player_stats

INK = (30, 30, 30)


def png(data):
    return Image.open(io.BytesIO(data)).convert("RGB")


def visual(text, base="rtl"):
    """The characters of `text` as drawn, left to right (what a reader sees)."""
    return "".join(r.text if not r.rtl else r.text[::-1] for r in T.layout(text, 20, False, base).runs)


def _dark(img):
    return sum(img.convert("L").histogram()[:100])


def _name_cell(g, seat, mirrored):
    lay = page_layout(g.board, "private")
    panel = Panel(g.board, "private", lay.portrait)
    x, y, w = next((x, y, w) for name, x, y, w, h in panel.sections(lay) if name == "players")
    _, nx, nw = panel._columns(w)[0]
    ry = y + panel.title_h + seat * panel.row
    x0, x1 = x + nx, x + nx + nw - 10
    if mirrored:
        axis = lay.panel[0] + lay.panel[2]
        x0, x1 = axis - x1, axis - x0
    return (x0, ry + 2, x1, ry + panel.row - panel.k(14))


def test_a_persian_private_board_has_the_names_on_the_right():
    g = game("usa")
    names = ["پریسا", "김민준", "Chidi", "Dörte"]
    fa = png(render_board(g, names, viewer=0, locale="fa"))
    en = png(render_board(g, names, viewer=0, locale="en"))
    for seat in range(g.n):
        # the mirrored name cell is inked in Persian, blank where the English cell was
        assert _dark(fa.crop(_name_cell(g, seat, True))) > 50
        assert _dark(en.crop(_name_cell(g, seat, False))) > 50
    right, left = _name_cell(g, 1, True), _name_cell(g, 1, False)
    assert right[0] > left[2]                                    # really on the other side
    # another name changes the right-hand cell, not the left-hand one
    names[1] = "준민김"
    other = png(render_board(g, names, viewer=0, locale="fa"))
    assert ImageChops.difference(fa.crop(right), other.crop(right)).getbbox() is not None
    assert ImageChops.difference(fa.crop(left), other.crop(left)).getbbox() is None


def test_mirroring_moves_text_without_flipping_it():
    text = "نوبت Amélie (+7)"
    a = Image.new("RGB", (400, 60), "white")
    with T.mirrored(a, (0, 0, 399, 59)):
        w = T.draw(a, 20, 30, text, 24, INK, base="rtl")
    b = Image.new("RGB", (400, 60), "white")
    T.draw(b, 379, 30, text, 24, INK, align="right", base="rtl")
    assert w == T.width(text, 24, base="rtl")
    assert ImageChops.difference(a, b).getbbox() is None
    # shapes are flipped with the pixels
    c = Image.new("RGB", (100, 20), "white")
    with T.mirrored(c, (0, 0, 99, 19)):
        c.paste(INK, (0, 0, 10, 20))
    assert c.getpixel((95, 10)) == INK and c.getpixel((5, 10)) == (255, 255, 255)


@needs_fribidi          # isolates: FriBidi's
def test_a_claims_points_read_plus_seven_in_persian():
    line = t("render.move.claim_route", "fa", name="Amélie", route="Chicago – Omaha", points=7)
    seen = visual(line)
    assert "+7" in seen and "7+" not in seen
    assert seen.index("Amélie") > seen.index("Chicago")          # the name first, at the right


def test_a_stats_tiles_numbers_sit_under_their_words():
    """"completed / failed" reads right to left: the completed count is the right-hand one."""
    assert visual("42 / 6") == "6 / 42"
    assert visual("42 / 6", None) == "42 / 6"
    s = player_stats(7, rows(), name="سارا", rating=Rating(29.3, 3.1), rated_games=12)
    fa, en = png(render_stats(s, "fa")), png(render_stats(s, "en"))
    # the rating box: at the top right in English, mirrored to the top left in Persian
    assert en.getpixel((530, 100)) == RATING_BG and en.getpixel((269, 100)) != RATING_BG
    assert fa.getpixel((269, 100)) == RATING_BG and fa.getpixel((530, 100)) != RATING_BG


@pytest.fixture(scope="module")
def blank_map():
    """The USA map's static layer (scale 1) with no letter on its slots."""
    board = load_board("usa")
    real = S.t
    S.t = lambda key, loc="en", **kw: " " if key.startswith("render.letter.") else real(
        key, loc, **kw)
    try:
        return board, S.build_map(board, 1.0, "en")
    finally:
        S.t = real


@pytest.mark.parametrize("locale", ["fa", "th", "ja"])
def test_the_colour_letters_on_the_map_are_localized(locale, blank_map):
    """On the drawn map each coloured slot carries its colour's letter in the language, pixel
    for pixel: the blank map with that letter drawn at the slot's centre, and not the English
    one."""
    board, blank = blank_map
    drawn = S.build_map(board, 1.0, locale)
    letters = set()
    for colour in sorted({r.color for r in board.routes} - {GRAY}):
        name = P.card_name(colour)
        route = next(r for r in board.routes if r.color == colour and not r.ferry)
        x, y, _ = route.slots[0]
        expected = {}
        for loc in (locale, "en"):
            img = blank.copy()
            letter = t(f"render.letter.{name}", loc)
            T.draw(img, x, y, letter, S.slot_letter_size(letter, 1.0), P.CARD_INK[colour],
                   bold=True, align="center")
            expected[loc] = img
        # where either letter would ink the slot (not its neighbours' letters)
        boxes = [ImageChops.difference(img, blank).getbbox() for img in expected.values()]
        assert all(boxes), (locale, name)
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
               max(b[3] for b in boxes))
        got = drawn.crop(box)
        assert ImageChops.difference(got, expected[locale].crop(box)).getbbox() is None, (
            locale, name)
        assert ImageChops.difference(got, expected["en"].crop(box)).getbbox() is not None, (
            locale, name)
        letters.add(t(f"render.letter.{name}", locale))
    # one letter per colour, no two alike, each a single character (Persian had سف, سب and
    # سی: one shape at a phone's size)
    assert len(letters) == 8 and all(len(x) == 1 for x in letters), letters


@needs_fribidi          # runs as libraqm (which needs FriBidi) shapes them
def test_without_fribidi_a_persian_line_is_still_ordered(monkeypatch):
    """The fallback (no libfribidi on the system) orders runs; isolates are ignored there."""
    from ttr_bot.render import bidi
    monkeypatch.setattr(bidi, "HAVE_FRIBIDI", False)
    T.layout.cache_clear()
    try:
        assert [(r.text, r.rtl) for r in T.layout("نوبت Amélie", 24, False, "rtl").runs] == [
            ("Amélie", False), ("نوبت ", True)]
    finally:
        monkeypatch.undo()
        T.layout.cache_clear()


def test_a_persian_films_score_band_runs_right_to_left():
    from testkit.sample_games import film_input, greedy_record
    from ttr_bot.render.film import render_film
    start, _, actions = film_input(greedy_record("usa", 2, 1)[0])
    names = ["پریسا", "Bob"]
    last = []
    for loc in ("en", "fa"):
        im = Image.open(io.BytesIO(render_film(start, names, actions, loc)))
        im.seek(im.n_frames - 1)
        last.append(im.convert("RGB"))
    en, fa = last
    w, h = en.size
    seat0 = P.PLAYERS[0][0]

    def first_seat(img, x0, x1):
        """Pixels of the first player's swatch colour in the band's columns x0..x1."""
        strip = img.crop((x0, h - 60, x1, h))
        return sum(1 for px in strip.get_flattened_data()
                   if sum(abs(a - b) for a, b in zip(px, seat0)) < 40)
    assert first_seat(en, 0, w // 2) > 100 and first_seat(en, w // 2, w) < 20
    assert first_seat(fa, w // 2, w) > 100 and first_seat(fa, 0, w // 2) < 20


def _status_text(img, g):
    """The status line's sentence, right of the swatch, as drawn on a private board."""
    lay = page_layout(g.board, "private")
    panel = Panel(g.board, "private", lay.portrait)
    x, y, w, h = next((x, y, w, h) for name, x, y, w, h in panel.sections(lay) if name == "status")
    strip = img.crop((x + panel.k(42), y, x + w, y + panel.status_h))
    ink = strip.convert("L").point(lambda v: 255 if v < 100 else 0)
    x0, _, x1, _ = ink.getbbox()
    return strip.crop((x0, 0, x1, strip.height))


@needs_fribidi
def test_a_right_to_left_name_in_an_english_sentence_keeps_the_sentences_order():
    """On an English board "پریسا to play" reads name first, then "to play", as "Bjørn to
    play" does: the name is isolated, so its direction does not turn the sentence round."""
    g = game("usa")
    who = g.current
    tail = T.width(" to play", 26, True) - 4          # the pixels "to play" takes at the end

    def sentence(name):
        names = ["Ann", "Bjørn", "Chidi", "Dörte"]
        names[who] = name
        return _status_text(png(render_board(g, names, viewer=0, locale="en")), g)
    latin, persian = sentence("Bjørn"), sentence("پریسا رضایی")
    ends = [im.crop((im.width - tail, 0, im.width, im.height)) for im in (latin, persian)]
    assert ends[0].size == ends[1].size
    assert ImageChops.difference(*ends).getbbox() is None        # both end in "to play"
    starts = [im.crop((0, 0, tail, im.height)) for im in (latin, persian)]
    assert ImageChops.difference(*starts).getbbox() is not None  # and start with the name
