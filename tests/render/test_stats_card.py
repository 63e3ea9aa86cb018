"""The stats picture: 800 x 400 PNG in every language, names in any script kept inside their
area, the empty state, and the same picture for the same figures."""
import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from ttr_bot.i18n import LOCALES
from ttr_bot.ratings import Rating
from ttr_bot.render import palette as P
from ttr_bot.render.stats_card import RATING_BG, TILE_BG, render_stats
from ttr_bot.stats import player_stats
from ttr_bot.store import ResultRecord

NAMES = {"en": "Amélie Poulain", "th": "สมชาย ใจดี", "fa": "سارا رضایی", "ja": "山田 花子"}


def rows(n=12):
    maps = ("usa", "europe", "nordic", "switzerland")
    return [ResultRecord(game_id=i, seat=0, user_id=7, score=60 + 7 * i, rank=1 + i % 3,
                         won=i % 3 == 0, tickets_completed=2 + i % 4,
                         map=maps[i % 4 if i < 8 else 0], variant="base", finished_at=float(i),
                         tickets_failed=i % 2, longest_bonus=i % 5 == 0)
            for i in range(n)]


def png(data):
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_language(locale):
    s = player_stats(7, rows(), name=NAMES[locale], rating=Rating(29.3, 3.1), rated_games=12)
    data = render_stats(s, locale)
    img = png(data)
    assert img.size == (800, 400)
    assert len(data) < 200_000
    # the rating box, the five tiles and the map table are drawn (mirrored in Persian)
    mx = (lambda x: 799 - x) if locale == "fa" else (lambda x: x)
    assert img.getpixel((mx(530), 100)) == RATING_BG
    assert img.getpixel((mx(40), 230)) == TILE_BG
    assert render_stats(s, locale) == data


def test_languages_differ_and_figures_show():
    s = player_stats(7, rows(), name="Ann", rating=Rating(29.3, 3.1), rated_games=12)
    pictures = {loc: render_stats(s, loc) for loc in LOCALES}
    assert len(set(pictures.values())) == len(LOCALES)
    other = player_stats(7, rows(5), name="Ann", rating=Rating(29.3, 3.1), rated_games=12)
    assert render_stats(other, "en") != pictures["en"]


@pytest.mark.parametrize("name", ["Ꮚ" * 3 + " Zoë 🚂 the Very Long Name of a Player Indeed",
                                  "ชื่อที่ยาวมากมากมากมากมากมากมากมากมากมากมาก", "محمدرضا " * 8,
                                  "長い名前の人" * 6])
def test_long_names_stay_in_their_area(name):
    img = png(render_stats(player_stats(7, rows(), name=name, rating=Rating(), rated_games=1), "en"))
    # between the name's area (up to x = 498) and the rating box (from x = 520): nothing drawn
    strip = img.crop((502, 14, 516, 118))
    assert [c for _, c in strip.getcolors()] == [P.PANEL_BG]


@pytest.mark.parametrize("locale", LOCALES)
def test_empty_state(locale):
    s = player_stats(7, [], name=NAMES[locale])
    img = png(render_stats(s, locale))
    assert img.size == (800, 400)
    # one panel with the sentence instead of tiles and table
    assert img.getpixel((40, 160)) == TILE_BG and img.getpixel((760, 350)) == TILE_BG
    full = png(render_stats(player_stats(7, rows(), name=NAMES[locale]), locale))
    assert img.crop((28, 140, 772, 360)).tobytes() != full.crop((28, 140, 772, 360)).tobytes()
    # the body is the panel and the sentence only: two-thirds of it is the panel's colour
    body = img.crop((40, 160, 760, 350))
    assert dict((c, n) for n, c in body.getcolors(1 << 16))[TILE_BG] > 0.66 * body.width * body.height


def test_provisional_and_unrated():
    pics = set()
    for rating, games in ((None, 0), (Rating(26, 7.9), 2), (Rating(31, 2.0), 20)):
        pics.add(render_stats(player_stats(7, rows(), name="Ann", rating=rating, rated_games=games), "fa"))
    assert len(pics) == 3


def test_thread_safe():
    s = player_stats(7, rows(), name="Ann", rating=Rating(29.3, 3.1), rated_games=12)
    want = {loc: render_stats(s, loc) for loc in LOCALES}
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda loc: (loc, render_stats(s, loc)), list(LOCALES) * 3))
    assert all(data == want[loc] for loc, data in got)
