"""The words and emoji that name a seat say the colour the picture draws it in, in each palette
(render/palette.py SCHEMES): the colour-blind palette draws seat 2 brown, so its text says
brown, not "blue square". The colour each seat is drawn in is read from the renderer's own
palette (`player_rgb`, what draw.py fills cars with) and named here by hue and lightness; the
emoji's colour is its Unicode name, which is what a screen reader says."""
import colorsys
import unicodedata

import pytest

from ttr_bot.discord.text.card_text import MARKS, board_alt, mark, mark_name, standings_lines
from ttr_bot.discord.text.format import reveal_lines
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.i18n import LOCALES
from ttr_bot.maps import load_board
from ttr_bot.render.palette import COLOURBLIND, SCHEMES, player_rgb

NAMES = ["Ann", "Bea", "Cy", "Dee", "Eve"]
# a colour class -> the words its English name may use, the colour words of its emoji's name
WORDS = {"red": ({"red"}, {"RED"}), "orange": ({"orange"}, {"ORANGE"}),
         "yellow": ({"yellow"}, {"YELLOW"}), "amber": ({"amber"}, {"ORANGE", "YELLOW"}),
         "brown": ({"brown"}, {"BROWN"}), "green": ({"green"}, {"GREEN"}),
         "blue": ({"blue"}, {"BLUE"}), "purple": ({"purple"}, {"PURPLE"}),
         "black": ({"black"}, {"BLACK"})}


def colour_class(rgb):
    """The everyday name of an sRGB colour, by hue and lightness."""
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    hue = h * 360
    if v < 0.25 or s < 0.2:
        return "black"
    if hue < 15 or hue >= 330:
        return "red"
    if hue < 65:
        if v < 0.55:
            return "brown"
        if hue < 40:
            return "orange"
        return "yellow" if v > 0.9 else "amber"
    if hue < 170:
        return "green"
    if hue < 260:
        return "blue"
    return "purple"


@pytest.mark.parametrize("palette", sorted(SCHEMES))
def test_each_seats_emoji_and_words_name_the_colour_it_is_drawn_in(palette):
    assert len(MARKS[palette]) == len(SCHEMES[palette].players)
    for seat in range(len(SCHEMES[palette].players)):
        words, emoji_words = WORDS[colour_class(player_rgb(seat, palette))]
        name = mark_name(seat, "en", palette)
        assert any(w in name.replace("-", " ").split() for w in words), (palette, seat, name)
        emoji_name = unicodedata.name(mark(seat, palette))
        assert set(emoji_name.split()) & emoji_words, (palette, seat, emoji_name)
    for loc in LOCALES:     # the seats stay apart in every language
        names = [mark_name(s, loc, palette) for s in range(5)]
        assert len(set(names)) == 5 and len(set(MARKS[palette])) == 5


def test_a_colour_blind_game_says_brown_where_it_draws_brown():
    game = Game(load_board("europe"), 4, Dealer(3))
    alt = board_alt(game, NAMES[:4], "en", palette=COLOURBLIND)
    assert "Bea (brown square)" in alt and "blue square" not in alt
    card = "\n".join(standings_lines(game, NAMES[:4], "en", COLOURBLIND))
    assert "🟫 **Bea**" in card and "🟦 **Bea**" not in card
    marks = [mark(s, COLOURBLIND) for s in range(4)]
    ended = "\n".join(reveal_lines(game.scores(), NAMES[:4], "en", marks))
    assert "🟫 **Bea**" in ended
