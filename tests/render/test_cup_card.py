"""The cup's standings picture (render/cup_card.py): 800 px wide for a phone, a row per player
(the picture grows with them), and alt text naming every player's place and points, in each
language."""
import io

import pytest
from PIL import Image

from ttr_bot.i18n import LOCALES
from ttr_bot.render.cup_card import cup_alt, render_cup
from ttr_bot.service.cup_state import Standing


def rows(n):
    return [Standing(i + 1, i + 1, f"Player {i + 1}", 2 * (n - i), n - i, 100 + i, 4, i == 2)
            for i in range(n)]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_standings_picture_and_its_alt_text(locale):
    small = Image.open(io.BytesIO(render_cup("Winter cup", rows(4), locale)))
    big = Image.open(io.BytesIO(render_cup("Winter cup", rows(12), locale)))
    assert small.width == big.width == 800 and big.height > small.height
    alt = cup_alt("Winter cup", rows(12), locale)
    assert "Winter cup" in alt and all(f"Player {i}" in alt for i in range(1, 13))
    assert len(alt) <= 1024
