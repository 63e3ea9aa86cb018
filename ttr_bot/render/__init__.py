"""The board pictures: pure functions of (game state, map, viewer) -> PNG bytes, Pillow only.

    render_map(game, names, highlight=None, locale="en", cities=None, palette=...) -> bytes
        The public picture, made for a phone: the map alone (no panel: the turn card's text
        has the standings), names and marks large enough to read at a phone's width. Rings
        `highlight` (route indices, e.g. every route claimed since a player's last turn) and
        `cities` (node indices, stations built); None: what the last move claimed or built.
    render_closeup(game, names, routes, locale="en", cities=(), palette=...) -> bytes
        The close-up of what changed: a crop of the map around `routes` (and `cities`),
        highlighted, at a larger scale (closeup.py: 600 x 450, 1.5x the public map; routes far
        apart: the map around them reduced, less on one side).
    closeup_contents(game, routes, cities=()) -> dict
        What that close-up shows, as data for its alt text: each route's label and owner, each
        station's city and owner, the lanes the claims closed (the words are the caller's), and
        its scale over the map's (under 1: routes far apart, the close-up adds nothing).
    render_board(game, names, viewer=None, locale="en", highlight=None, cities=None,
                 palette=...) -> bytes
        The board with its panel (standings, face-up cards, key). With `viewer` (a seat) it is
        that player's private board: the same plus their hand and tickets, both cities of each
        tagged with the ticket's number on the map (done ones filled green), and while they
        choose, the offered tickets lettered as the menu (A, B, C) and joined by a line
        (tickets.py).
    render_final(game, names, locale="en", palette=...) -> bytes
        The end: score breakdown per player, the winner, the longest path and every player's
        tickets made (solid lines) and failed (dashed) drawn on the map.

`palette` is "standard" (the default) or "colourblind" (palette.SCHEMES: player colours that
stay apart to colour-blind eyes, solid owner marks).

Every picture draws the lanes of double routes that the game has closed (2-3 players, the
engine's rule) as closed: a hatched ghost of a slot.

    warm(board, locale="en", pages=PAGES) -> {page: ms}
        Builds the cached static layers of those pages (below) in this process, so that its
        first picture of each is as quick as the next (the bot runs it in every worker when a
        game starts: discord/pictures.py).

`shaping_problem()`: None, or the sentence the bot logs at start when this system cannot shape
text (no libfribidi: Persian and Arabic letters drawn apart).

All are deterministic and thread-safe, and read nothing but the bundled fonts (SIL OFL 1.1,
`fonts/`, see fonts/SOURCES.md): Noto Sans, and for what it lacks Noto fonts for Thai, Arabic,
Hebrew, Indic scripts, Japanese, Chinese and Korean, and Noto Color Emoji (`text.py` picks the
font of each character and shapes it; `bidi.py` orders right-to-left text; a right-to-left
language's panel is drawn as its mirror, `text.mirrored`). A map's static layer (map, free slots, cities, names,
panel frame and legends) is drawn once per page kind and language and cached (mapped onto its
palette, at most 80 MiB of pages: static.MAX_PAGE_BYTES); a turn copies it,
overlays the claimed cars, stations, highlights and figures, and encodes: an 8-bit palette PNG
whose palette is made once with the static page and holds every solid colour exactly (png.py).
The bot draws them in its worker processes and reuses each picture while the state is the
same (ttr_bot/discord/posting/pictures.py).
"""
import time

from .closeup import closeup_contents, closeup_png
from .draw import board_png, final_png, map_png
from .text import shaping_problem

__all__ = ["closeup_contents", "render_board", "render_closeup", "render_final", "render_map",
           "shaping_problem", "warm"]
PAGES = ("map", "closeup", "private", "final", "film")    # what warm() can build


def render_map(game, names, highlight=None, locale="en", cities=None, palette="standard"):
    """PNG bytes of the public phone picture: the map alone. `highlight`: route indices to
    ring (None: the last move's claim); `cities`: node indices to ring (None: the last move's
    station). `names` are not drawn (kept for the same call shape as the other pictures)."""
    return map_png(game, names, _ids(highlight), locale, _ids(cities), palette)


def render_closeup(game, names, routes, locale="en", cities=(), palette="standard"):
    """PNG bytes (600 x 450) of a crop of the map around `routes` (route indices) and `cities`
    (station node indices), highlighted, at 1.5 times the public map's scale (when they are
    too far apart for that: at its scale, or reduced). ValueError when both are empty."""
    return closeup_png(game, names, _ids(routes), locale, _ids(cities), palette)


def render_board(game, names, viewer=None, locale="en", highlight=None, cities=None,
                 palette="standard"):
    """PNG bytes of the board with its panel (public, or `viewer`'s private board);
    `highlight` / `cities` as for render_map."""
    return board_png(game, names, viewer, locale, _ids(highlight), _ids(cities), palette)


def render_final(game, names, locale="en", palette="standard"):
    """PNG bytes of the final picture: scores, winner, longest path, everybody's tickets."""
    return final_png(game, names, locale, palette)


def _ids(xs):
    return None if xs is None else tuple(sorted(set(int(x) for x in xs)))


def warm(board, locale="en", pages=PAGES):
    """Build the static layers (static.art: the map drawn once, the panel's frame, the palette)
    of `pages` for `board` in `locale`, unless this process has them: {page: ms it took}.
    "map": the public map; "closeup": its larger scale; "private", "final": the pages with a
    panel; "film": the film's page."""
    from . import closeup as C
    from . import draw as D
    from . import film as F
    build = {"map": lambda: D._art(board, "map", locale),
             "closeup": lambda: C._art(board, C.ZOOM, locale),
             "private": lambda: D._art(board, "private", locale),
             "final": lambda: D._art(board, "final", locale),
             "film": lambda: F.film_art(board, locale)}
    took = {}
    for page in pages:
        t0 = time.perf_counter()
        build[page]()
        took[page] = round((time.perf_counter() - t0) * 1000, 1)
    return took
