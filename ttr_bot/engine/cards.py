"""Train cards and route colours.

Cards are small ints so that a hand is a 9-slot count list: indexing beats dict lookups in the
simulations the computer players run.
"""

COLORS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
LOCO = 8
CARD_NAMES = COLORS + ("locomotive",)
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
GRAY = -1  # route colour "gray": any single colour
ROUTE_COLOR_INDEX = {**{name: i for i, name in enumerate(COLORS)}, "gray": GRAY}
N_CARD_KINDS = 9
COLORED_PER_KIND = 12
LOCOMOTIVES = 14
DECK_SIZE = COLORED_PER_KIND * len(COLORS) + LOCOMOTIVES  # 110


def full_deck():
    """The 110 train cards, in a fixed order (shuffle it with the game's dealer)."""
    deck = []
    for c in range(len(COLORS)):
        deck.extend([c] * COLORED_PER_KIND)
    deck.extend([LOCO] * LOCOMOTIVES)
    return deck


def route_color_name(color):
    return "gray" if color == GRAY else COLORS[color]


def counts_to_dict(counts):
    """[0, 2, 0, …] -> {"blue": 2}; zero counts left out."""
    return {CARD_NAMES[i]: n for i, n in enumerate(counts) if n}
