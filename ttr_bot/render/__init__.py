"""The board picture: a pure function of (game state, map, viewer) -> PNG bytes, Pillow only.

    render_board(game, names, viewer=None, locale="en", palette="standard") -> bytes
        The board after a turn. With `viewer` (a seat) it is that player's private board: the
        same plus their hand and tickets, each ticket's two cities tagged with its number on
        the map (done ones filled green), and while they choose, the offered tickets numbered
        as the menu and joined by a line (tickets.py).
    render_final(game, names, locale="en", palette="standard") -> bytes
        The end: score breakdown per player, the winner, the longest path and every player's
        tickets made (solid) and failed (dashed) drawn on the map.

`palette` is "standard" or "colourblind" (palette.SCHEMES: player colours that stay apart to
colour-blind eyes, solid owner marks).

Both are deterministic and thread-safe, and read nothing but the bundled fonts (SIL OFL 1.1,
`fonts/`, see fonts/SOURCES.md): Noto Sans, and for what it lacks Noto Sans Thai, Noto Sans
Arabic and a Japanese subset of Noto Sans CJK JP (`text.py` picks the font of each character,
orders right-to-left text and shapes it). A map's static layer (map, free slots, cities, names,
panel frame and legends) is drawn once per page kind and language and cached; a turn copies it,
overlays the claimed cars, stations, highlights and figures, and encodes: an 8-bit palette PNG
whose palette is made once with the static page and holds every solid colour exactly (png.py).
The bot draws them in its worker processes and reuses each picture while the state is the
same (ttr_bot/discord/pictures.py).
"""
from .draw import board_png, final_png

__all__ = ["render_board", "render_final"]


def render_board(game, names, viewer=None, locale="en", palette="standard"):
    """PNG bytes of the board (public, or `viewer`'s private board)."""
    return board_png(game, names, viewer, locale, palette)


def render_final(game, names, locale="en", palette="standard"):
    """PNG bytes of the final picture: scores, winner, longest path, everybody's tickets."""
    return final_png(game, names, locale, palette)

