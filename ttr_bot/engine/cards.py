"""Train cards and route colours.

Cards are small ints so that a hand is a 9-slot count list (`[0] * N_CARD_KINDS`, indexed by
card): indexing beats dict lookups in the simulations the computer players run. The colours
are 0..N_COLORS-1 and the locomotive is the last kind.
"""
from collections.abc import Sequence

COLORS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
N_COLORS = len(COLORS)
LOCO = N_COLORS
N_CARD_KINDS = N_COLORS + 1
CARD_NAMES = COLORS + ("locomotive",)
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
GRAY = -1  # route colour "gray": any single colour
ROUTE_COLOR_INDEX = {**{name: i for i, name in enumerate(COLORS)}, "gray": GRAY}
COLORED_PER_KIND = 12
LOCOMOTIVES = 14
DECK_SIZE = COLORED_PER_KIND * N_COLORS + LOCOMOTIVES  # 110


def full_deck(locomotives: int = LOCOMOTIVES) -> list[int]:
    """The train cards (110; Northern Lights 114: `locomotives` 18), in a fixed order (shuffle
    it with the game's dealer)."""
    deck = []
    for c in range(N_COLORS):
        deck.extend([c] * COLORED_PER_KIND)
    deck.extend([LOCO] * locomotives)
    return deck


def route_color_name(color: int) -> str:
    return "gray" if color == GRAY else COLORS[color]


def counts_to_dict(counts: Sequence[int]) -> dict[str, int]:
    """[0, 2, 0, …] -> {"blue": 2}; zero counts left out."""
    return {CARD_NAMES[i]: n for i, n in enumerate(counts) if n}
