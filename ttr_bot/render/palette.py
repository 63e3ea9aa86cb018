"""Colours, player styles and the colour-blind aids of the board picture.

Every train-card colour has a letter (from the message catalog, `render.letter.<colour>`) drawn
on its cards and route slots. Players differ by hue, by lightness (dark red, mid blue, light
green, yellow, near-black) and by a shape drawn on every one of their cars and on their
swatches: ring, square, triangle, diamond, bar pair. The colour-blind scheme (a player's own
setting for their private pictures, a game's option for the public ones) has other player
colours and larger, solid marks (`SCHEMES`, checked by vision.py's distances in a test).

Every colour the picture fills an area with is named here and listed by `solid_colours()`: the
PNG encoder (`png.py`) keeps each of them exact in its palette. Pillow maps a pixel to the
palette entry nearest to the low corner of its 4x4x4 cell of RGB values; two solid colours
closer than that would swallow each other, which `png.conflicts` finds and a test forbids
(hence PAGE_BG and SCORE_BG on multiples of 4, clear of the white card, and tunnel teeth in
OUTLINE rather than a shade 5 levels off the black slot's outline).
"""
from typing import NamedTuple

from ..engine.cards import COLORS, GRAY, LOCO

# Train-card / route colours, index = card index (engine/cards.py).
CARD_RGB = (
    (157, 78, 172),    # purple
    (45, 112, 214),    # blue
    (240, 140, 40),    # orange
    (250, 250, 246),   # white (PAGE_BG and SCORE_BG keep clear of it: see the docstring)
    (62, 160, 76),     # green
    (246, 210, 52),    # yellow
    (44, 44, 48),      # black
    (214, 52, 52),     # red
)
GRAY_RGB = (170, 170, 170)
LOCO_STRIPES = ((214, 52, 52), (240, 140, 40), (246, 210, 52), (62, 160, 76), (45, 112, 214),
                (157, 78, 172))

# Text colour on top of each card colour.
CARD_INK = ((255, 255, 255), (255, 255, 255), (30, 30, 30), (30, 30, 30), (255, 255, 255),
            (30, 30, 30), (255, 255, 255), (255, 255, 255))

BOARD_BG = (234, 228, 212)      # the map area
PAGE_BG = (252, 248, 240)       # around the map and the panel
PANEL_BG = (255, 255, 255)
FRAME = (120, 110, 95)
INK = (28, 28, 32)
INK_SOFT = (95, 95, 105)
RULE = (215, 210, 200)
HALO = (250, 247, 238)          # behind city names
CITY_FILL = (255, 255, 255)
CITY_LINE = (40, 40, 44)
COUNTRY_INK = (150, 140, 120)
HIGHLIGHT = (255, 0, 170)       # the last move: no route or player colour comes near it
BANNER = (200, 30, 40)
TRAIL = (255, 215, 0)           # longest path
TICKET_OPEN = (255, 120, 0)     # private board: a ticket city, ticket not yet completed
TICKET_DONE = (0, 150, 70)      # … completed
TICKET_OFFER = (96, 32, 160)    # … offered, while the player chooses (tickets.py)
TURN_BG = (255, 244, 200)       # the row of the player to play
WHITE = (255, 255, 255)
OUTLINE = (20, 20, 20)          # train cards, ferry discs, tunnel teeth
ROUTE_LINE = (200, 192, 172)    # the thin line through a route's slots
CLOSED_FILL = (220, 214, 198)   # a double route's lane the game has closed: a ghost of a slot
CLOSED_LINE = (160, 150, 130)   # … and its hatching
CROWN = (255, 190, 0)
WIN_BG = (255, 250, 225)        # the final picture: a winner's card
SCORE_BG = (248, 248, 240)      # … everybody else's
ZERO_INK = (180, 180, 180)      # a count of none in the hand

# Players: fill, ink for marks and text on the fill, mark shape. Lightness steps apart so
# that they stay apart without hue.
PLAYERS = (
    ((200, 30, 45), (255, 255, 255), "ring"),       # red, dark
    ((30, 100, 230), (255, 255, 255), "square"),    # blue, mid
    ((120, 215, 90), (20, 20, 20), "triangle"),     # light green
    ((255, 200, 0), (20, 20, 20), "diamond"),       # yellow, lightest
    ((40, 40, 40), (255, 255, 255), "bars"),        # near-black
)
# The colour-blind players: blue against amber/brown (the axis every dichromat keeps) in
# lightness steps, and black. Chosen by search for the largest least CIEDE2000 distance between
# two of them to normal eyes and under Machado 2009's deuteranopia, protanopia and tritanopia
# (severity 1): 25.8, against 4.7 for PLAYERS (green and yellow, protanopia); the first three
# seats, a 3-player game's, are 28.3 apart. `python -m ttr_bot.render.vision` prints the figures.
COLOURBLIND_PLAYERS = (
    ((0, 187, 255), (20, 20, 20), "ring"),          # sky blue, light
    ((119, 85, 0), (255, 255, 255), "square"),      # brown, dark
    ((0, 51, 238), (255, 255, 255), "triangle"),    # blue, dark
    ((204, 153, 0), (20, 20, 20), "diamond"),       # amber, light
    ((40, 40, 40), (255, 255, 255), "bars"),        # near-black
)
CAR_LINE = (15, 15, 18)


class Scheme(NamedTuple):
    """The players' colours and how their marks are drawn on cars and stations."""
    players: tuple
    mark_r: int         # radius of the mark on a car, picture pixels
    filled: bool        # solid marks (the colour-blind scheme: they carry the owner at 800 px)


STANDARD, COLOURBLIND = "standard", "colourblind"
SCHEMES = {
    STANDARD: Scheme(PLAYERS, 7, False),
    COLOURBLIND: Scheme(COLOURBLIND_PLAYERS, 7, True),
}


def scheme_of(name):
    """The Scheme called `name`; the standard one for anything else (an old or unknown value)."""
    return SCHEMES.get(name) or SCHEMES[STANDARD]


def player_rgb(seat, scheme=STANDARD):
    players = scheme_of(scheme).players
    return players[seat % len(players)][0]


def player_ink(seat, scheme=STANDARD):
    players = scheme_of(scheme).players
    return players[seat % len(players)][1]


def player_shape(seat, scheme=STANDARD):
    players = scheme_of(scheme).players
    return players[seat % len(players)][2]


def route_rgb(color):
    return GRAY_RGB if color == GRAY else CARD_RGB[color]


def card_rgb(card):
    return None if card == LOCO else CARD_RGB[card]


def card_name(card):
    return "locomotive" if card == LOCO else COLORS[card]


def slot_fill(color):
    """The inside of a free slot of this route colour: the card colour, lightened."""
    if color == GRAY:
        return (205, 203, 198)
    if color == 6:                       # black stays dark: pale black would read as gray
        return (70, 70, 76)
    if color == 3:
        return WHITE
    return mix(CARD_RGB[color], WHITE, 0.25)


def slot_line(color):
    """The outline of a free slot (a tunnel's slots are outlined in OUTLINE instead)."""
    if color == GRAY:
        return (120, 118, 112)
    if color == 3:
        return (90, 90, 90)
    return mix(CARD_RGB[color], (0, 0, 0), 0.45)


def solid_colours():
    """Every colour drawn as a solid area somewhere in a picture, each once; the information
    ones (card and player colours, marks, highlight, ink) first. (Gray routes are drawn in
    slot_fill(GRAY); GRAY_RGB itself is not drawn.)"""
    out = list(CARD_RGB)
    for scheme in SCHEMES.values():
        for fill, ink, _ in scheme.players:
            out += [fill, ink]
    out += [failed_rgb(fill) for scheme in SCHEMES.values() for fill, _, _ in scheme.players]
    out += [CAR_LINE, HIGHLIGHT, TRAIL, TICKET_OPEN, TICKET_DONE, TICKET_OFFER, INK, INK_SOFT, BANNER]
    out += list(LOCO_STRIPES) + list(CARD_INK)
    out += [BOARD_BG, PAGE_BG, PANEL_BG, FRAME, RULE, HALO, CITY_FILL, CITY_LINE, COUNTRY_INK,
            TURN_BG, WHITE, OUTLINE, ROUTE_LINE, CLOSED_FILL, CLOSED_LINE, CROWN, WIN_BG,
            SCORE_BG, ZERO_INK]
    for color in list(range(len(CARD_RGB))) + [GRAY]:
        out += [slot_fill(color), slot_line(color)]
    return list(dict.fromkeys(out))


def failed_rgb(rgb):
    """A failed ticket's line on the final picture: its player's colour faded toward the map,
    so that the tickets made stand out when many failed (tickets.py)."""
    return mix(rgb, BOARD_BG, FAILED_FADE)


FAILED_FADE = 0.45


def mix(a, b, t):
    """a blended toward b by t (0..1)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def luminance(rgb):
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
