"""The season's picture (render/season_card.py): 800 x 480 in every language, the podium's
first place in the middle and highest, second on the reading side's start (left; right in
Persian, whose card is mirrored), and a season with no game drawn as such."""
import io

import pytest
from PIL import Image

from ttr_bot.i18n import LOCALES
from ttr_bot.render import palette as P
from ttr_bot.render.season_card import H, W, render_season

LINES = [(1, "Alice", 14, 6, 3), (2, "บ๊อบ", 12, 7, 2), (3, "سارا", 9, 5, 1), (4, "たろう", 7, 4, 1)]
SILVER = (192, 192, 200)


def image(lines, locale):
    return Image.open(io.BytesIO(render_season("Season", lines, locale))).convert("RGB")


def near(a, b, tol=40):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.mark.parametrize("locale", LOCALES)
def test_the_podium_in_every_language(locale):
    img = image(LINES, locale)
    assert img.size == (W, H)
    gold = img.getpixel((W // 2, 160))                   # the top of the first place's step
    assert near(gold, P.mix(P.CROWN, P.WHITE, 0.55))
    second_x = 176 if locale != "fa" else W - 176
    assert near(img.getpixel((second_x, 290)), P.mix(SILVER, P.WHITE, 0.55))


def test_an_empty_season_has_no_podium():
    img = image([], "en")
    assert not near(img.getpixel((W // 2, 160)), P.mix(P.CROWN, P.WHITE, 0.55))
