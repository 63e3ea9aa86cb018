"""Colours, player styles and the colour-blind aids of the board picture.

Every train-card colour has a letter (from the message catalog, `render.letter.<colour>`) drawn
on its cards and route slots. Players differ by hue, by lightness (dark red, mid blue, light
green, yellow, near-black) and by a shape drawn on every one of their cars and on their
swatches: ring, square, triangle, diamond, bar pair.
"""
from ..engine.cards import COLORS, GRAY, LOCO

# Train-card / route colours, index = card index (engine/cards.py).
CARD_RGB = (
    (157, 78, 172),    # purple
    (45, 112, 214),    # blue
    (240, 140, 40),    # orange
    (250, 250, 246),   # white
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
PAGE_BG = (250, 248, 242)       # around the map and the panel
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
TURN_BG = (255, 244, 200)       # the row of the player to play

# Players: fill, ink for marks and text on the fill, mark shape. Lightness steps apart so
# that they stay apart without hue.
PLAYERS = (
    ((200, 30, 45), (255, 255, 255), "ring"),       # red, dark
    ((30, 100, 230), (255, 255, 255), "square"),    # blue, mid
    ((120, 215, 90), (20, 20, 20), "triangle"),     # light green
    ((255, 200, 0), (20, 20, 20), "diamond"),       # yellow, lightest
    ((40, 40, 40), (255, 255, 255), "bars"),        # near-black
)
CAR_LINE = (15, 15, 18)


def player_rgb(seat):
    return PLAYERS[seat % len(PLAYERS)][0]


def player_ink(seat):
    return PLAYERS[seat % len(PLAYERS)][1]


def player_shape(seat):
    return PLAYERS[seat % len(PLAYERS)][2]


def route_rgb(color):
    return GRAY_RGB if color == GRAY else CARD_RGB[color]


def card_rgb(card):
    return None if card == LOCO else CARD_RGB[card]


def card_name(card):
    return "locomotive" if card == LOCO else COLORS[card]


def mix(a, b, t):
    """a blended toward b by t (0..1)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def luminance(rgb):
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
