"""The game as a film: a game from its start and its actions -> the bytes of an animated GIF
of the board filling up, for Discord to play inline.

    render_film(game, names, actions, locale="en") -> GIF bytes
    film_plan(game, names, actions) -> Plan      what the film will show (tests and figures)

`game` is the engine Game as dealt, before any action (what `game_record.open_record` gives
for a record; it is copied, not changed), `actions` the engine actions in the order played
(engine/actions.py). The service has both cheaply from its seed and action log: open the
record it exports (`/ttr server export`) and turn its actions into engine actions while replaying it
(`game_record.action_from_json`); `bench/film.py`'s `film_input(record)` does exactly that.
The picture code does not read records itself: render depends on the engine only.

Frames. The first shows the empty board ("Start"); then a frame per claim (a route claimed,
a tunnel paid for, a station built), the new routes ringed in the highlight colour; the last
shows the final board with the longest path and the final scores, and is held. In a corner
band: the turn (or round) and every player's score so far (route points: tickets are secret
until the end), then the final totals with the winners' crowns.

The rule, by length (`max_frames`, default 60 frames between the first and the last):
- at most `max_frames` claims: a frame per claim ("Turn 37"), 0.25 s each;
- more: a frame per round (a round: one turn of every player) that has a claim ("Round 12"),
  0.4 s each, and k rounds per frame when there are more such rounds than `max_frames`
  (k = ceil(last round / max_frames)).
A long five-player Europe game has 70-80 claims in ~45 rounds: a frame per round. Then the
size: if the GIF is over `max_bytes` (default 8 MiB, Discord's upload limit without boosts)
the film is made again with half the frames, down to the first and last frame only, so no game
is too long for it. In practice a film is a few hundred KB: each frame after the first stores
only the rectangle that changed, the unchanged pixels in it transparent (Pillow's GIF writer
with optimize), on one global palette. Measured (`python -m tools.bench film`) on a
five-player Europe game of 386 actions and 79 claims: 42 frames, 263 KiB, built in about 1 s on
two busy cores; the same frames stored as changed rectangles without the transparent pixels
are 2.4 MiB, as whole frames 3.8 MiB.

Drawing. The map is the renderer's cached static layer (`static.art`, a page of the map alone)
and the claimed cars, stations and city names are drawn by the board picture's own overlay
(`draw.overlay`), at full size, then halved (~890 px wide; a portrait map gets the band at its
side). Each frame redraws only the rectangles around what changed (the overlay drawn into a
crop of the static page, with the layout shifted), which gives the same pixels as drawing the
whole map. One palette of 255 colours (median cut over the empty board, the final board and
the bands; index 255 is the transparent one) maps every frame, without dithering, so that
unchanged pixels keep their index and the deltas stay small.

Pure: a function of the game, the actions and the language; safe to run in a worker thread
or process (the caller runs it off the event loop). An action that is not legal raises the
engine's Illegal.
"""
import io
import math
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from types import SimpleNamespace

from PIL import Image, ImageDraw

from ..i18n import t
from . import extras as EX
from . import palette as P
from . import panel as PN
from . import png as PNG
from . import static as S
from . import text as T
from .draw import TICKET_R, closed_lanes, longest_path_trails, overlay
from .geometry import MARGIN, Layout

MAX_BYTES = 8 << 20            # 8 MiB: Discord's upload limit for servers without boosts
MAX_FRAMES = 60                # frames between the first and the last
DURATION_START = 1200          # ms
DURATION_CLAIM = 250
DURATION_ROUND = 400
DURATION_FINAL = 6000          # the last frame is held
BAND = 64                      # height of the band under a landscape map (film pixels)
SIDE = 300                     # width of the column beside a portrait map
HALF = 2                       # the film is the board at half size
TRANSPARENT = 255              # palette index left free for the GIF's unchanged pixels
STATION_REACH = 40             # board pixels around a city that a station and its ring cover


@dataclass(frozen=True)
class State:
    """The board after one claim: what the overlay draws, and the scores so far."""
    owner: tuple
    station_owner: dict
    points: tuple
    turn: int                   # turns played so far (the claim's turn number)
    routes: tuple = ()          # routes claimed by this claim
    stations: tuple = ()        # cities where a station was built by it
    shared: tuple = ()          # claimed routes that are everyone's (extras.shared_routes)


@dataclass
class Plan:
    board: object
    names: list
    mode: str                                   # "claim" or "round"
    shots: list                                 # [(State, label kind, label number, new routes, new stations)]
    final: object = None                        # the game after the last action
    claims: int = 0
    rounds_per_frame: int = 1
    durations: list = field(default_factory=list)

    @property
    def frames(self):
        return len(self.shots) + 2


# ----- replay ------------------------------------------------------------------------------------

def replay_states(game, actions):
    """(the game after the actions, [State after each claim]); `game` is not changed."""
    game = game.copy()
    states = []
    for action in actions:
        events = game.apply(action)
        routes = tuple(e["route"] for e in events if e["type"] == "claim_route")
        stations = tuple(e["city"] for e in events if e["type"] == "build_station")
        if routes or stations:
            states.append(State(tuple(game.owner), dict(game.station_owner),
                                tuple(game.route_points), game.turn, routes, stations,
                                tuple(sorted(EX.shared_routes(game)))))
    return game, states


def _plan(game, names, states, max_frames):
    n = game.n
    if max_frames <= 0:
        states = []
    if len(states) <= max_frames:
        shots = [(s, "turn", s.turn, s.routes, s.stations) for s in states]
        plan = Plan(game.board, names, "claim", shots, game, len(states))
        plan.durations = [DURATION_START] + [DURATION_CLAIM] * len(shots) + [DURATION_FINAL]
        return plan
    rounds = [(s.turn - 1) // n + 1 for s in states]
    k = max(1, math.ceil(rounds[-1] / max(1, max_frames)))
    groups = {}
    for s, r in zip(states, rounds):
        groups.setdefault((r - 1) // k, []).append((s, r))
    shots = []
    for key in sorted(groups):
        members = groups[key]
        last, r = members[-1]
        shots.append((last, "round", r, tuple(x for s, _ in members for x in s.routes),
                      tuple(x for s, _ in members for x in s.stations)))
    plan = Plan(game.board, names, "round", shots, game, len(states), k)
    plan.durations = [DURATION_START] + [DURATION_ROUND] * len(shots) + [DURATION_FINAL]
    return plan


def film_plan(game, names, actions, max_frames=MAX_FRAMES):
    end, states = replay_states(game, actions)
    return _plan(end, list(names), states, max_frames)


# ----- the picture ---------------------------------------------------------------------------------

def film_layout(board, kind="film"):
    """The map alone, with the usual margin, at full size; even sides (so that halving lines up)."""
    w = board.width + 2 * MARGIN
    h = board.height + 2 * MARGIN
    w, h = w + w % 2, h + h % 2
    return Layout(kind, w, h, 1.0, MARGIN, MARGIN, board.width, board.height, (0, 0, 0, 0),
                  board.height > board.width)


def film_art(board, locale):
    """The film's cached page: the map alone, mapped onto the film's palette (static.art)."""
    return S.art(board, "film", locale, film_layout, _no_panel, _page_palette)


def _no_panel(page, lay, board, locale):
    pass


def _page_palette(art):
    """The film page's own palette: the cache keeps the page mapped onto it (static.Art), a
    quarter of its RGB size; the frames are mapped onto the film's palette all the same."""
    return PNG.make_palette([art.page])


class _Frames:
    """Draws the film's frames: the map of a state (whole, or only where it changed) at full
    size, halved and mapped onto the palette, and the band."""

    def __init__(self, board, names, locale, n=None, scheme=P.STANDARD):
        self.board, self.names, self.locale = board, names, locale
        self.scheme = scheme                         # the players' colours (palette.SCHEMES)
        self.n = len(names) if n is None else n      # players: which lanes the game closes
        self.base = T.direction(locale)
        self.art = film_art(board, locale)
        self.lay = self.art.layout
        self.portrait = self.lay.portrait
        self.mw, self.mh = self.lay.width // HALF, self.lay.height // HALF
        if self.portrait:
            self.size = (self.mw + SIDE, self.mh)
            self.band_box = (self.mw, 0, self.mw + SIDE, self.mh)
        else:
            self.size = (self.mw, self.mh + BAND)
            self.band_box = (0, self.mh, self.mw, self.mh + BAND)
        self.halos = ()                        # what the frame shows highlighted now
        self.palette = None
        self.frame = None                      # the film frame ("P")
        self._boxes = {}

    # drawing the map
    def _draw(self, img, art, state, halos, stations, trails=(), within=None):
        """The overlay of `state` onto img (the static page, or a crop of it with `art`
        shifted to it: then only what reaches `within`, the crop's box on the page, is drawn;
        the rest would paste nothing there)."""
        sp, lay = art.sprites, art.layout
        owner, built = list(state.owner), state.station_owner
        closed = closed_lanes(self.board, self.n, owner)
        if within is not None:
            near = lambda box: _meets(box, within)               # noqa: E731
            closed = [r for r in closed if near(self._box("car", r))]
            owner = [o if o >= 0 and near(self._box("car", r)) else -1 for r, o in enumerate(owner)]
            built = {c: o for c, o in built.items() if near(self._box("station", c))}
            halos = [r for r in halos if near(self._box("halo", r))]
            stations = [c for c in stations if near(self._box("station", c))]
        for r in halos:
            box, mask = sp.halo(r)
            img.paste(P.HIGHLIGHT, (box[0] + lay.ox, box[1] + lay.oy, box[2] + lay.ox,
                                    box[3] + lay.oy), mask)
        for node in stations:
            n = self.board.nodes[node]
            mask = sp.ring(TICKET_R + 6, 7)
            px, py = lay.pt(n.x, n.y)
            bx, by = round(px - mask.width / 2), round(py - mask.height / 2)
            img.paste(P.HIGHLIGHT, (bx, by, bx + mask.width, by + mask.height), mask)
        g = SimpleNamespace(board=self.board, owner=owner, station_owner=built, last_move=None,
                            n=self.n, extra={"bullet": {"routes": state.shared}})
        overlay(img, art, g, highlight=False, trails=trails, closed=closed, scheme=self.scheme)

    def _box(self, kind, what):
        """The page box of a route's cars or halo, or of a station with its ring (cached)."""
        key = (kind, what)
        box = self._boxes.get(key)
        if box is None:
            lay = self.lay
            if kind == "station":
                n = self.board.nodes[what]
                x, y = lay.pt(n.x, n.y)
                box = (x - STATION_REACH, y - STATION_REACH, x + STATION_REACH, y + STATION_REACH)
            else:
                b = (self.art.sprites.car(what) if kind == "car" else self.art.sprites.halo(what))[0]
                box = (b[0] + lay.ox, b[1] + lay.oy, b[2] + lay.ox, b[3] + lay.oy)
            self._boxes[key] = box
        return box

    def _rects(self, routes, stations):
        """Page boxes to redraw (even corners, so that they halve exactly): around the routes
        (and their twin lanes, which a claim may close) and the stations."""
        lay = self.lay
        out = []
        twins = [self.board.routes[r].twin for r in routes if self.board.routes[r].twin >= 0]
        for box in ([self._box("halo", r) for r in tuple(routes) + tuple(twins)]
                    + [self._box("station", c) for c in stations]):
            x0 = max(0, math.floor(box[0]) - 2)
            y0 = max(0, math.floor(box[1]) - 2)
            x1 = min(lay.width, math.ceil(box[2]) + 2)
            y1 = min(lay.height, math.ceil(box[3]) + 2)
            x0, y0 = x0 - x0 % HALF, y0 - y0 % HALF
            x1, y1 = min(lay.width, x1 + x1 % HALF), min(lay.height, y1 + y1 % HALF)
            if x1 > x0 and y1 > y0:
                out.append((x0, y0, x1, y1))
        return out

    def show(self, state, routes, stations):
        """Bring the page and the frame to `state`, with `routes` and `stations` highlighted."""
        halos = (tuple(routes), tuple(stations))
        rects = self._rects(routes + self.halos[0] if self.halos else routes,
                            stations + self.halos[1] if self.halos else stations)
        for rect in rects:
            x0, y0, x1, y1 = rect
            crop = self.art.crop(rect)
            art = SimpleNamespace(layout=replace(self.lay, ox=self.lay.ox - x0, oy=self.lay.oy - y0),
                                  sprites=self.art.sprites)
            self._draw(crop, art, state, routes, stations, within=rect)
            small = crop.reduce(HALF).quantize(palette=self.palette, dither=Image.Dither.NONE)
            self.frame.paste(small, (x0 // HALF, y0 // HALF))
        self.halos = halos

    def whole(self, state, trails=(), routes=(), stations=()):
        """The map of `state` drawn in full (RGB, film size)."""
        img = self.art.canvas()
        self._draw(img, self.art, state, routes, stations, trails)
        return img.reduce(HALF)

    # the band: turn and scores
    def band(self, label, points, winners=None):
        x0, y0, x1, y1 = self.band_box
        w, h = x1 - x0, y1 - y0
        img = Image.new("RGB", (w, h), P.PANEL_BG)
        d = ImageDraw.Draw(img)
        # a right-to-left language's band is drawn as its mirror (the first seat on the right)
        with T.mirrored(img, (0, 0, w - 1, h - 1)) if self.base == "rtl" else nullcontext():
            self._band(img, d, label, points, winners, w, h)
        if self.portrait:
            d.line((0, 0, 0, h), fill=P.RULE, width=2)
        else:
            d.line((0, 0, w, 0), fill=P.RULE, width=2)
        return img

    def _band(self, img, d, label, points, winners, w, h):
        n = len(points)
        if self.portrait:
            _fit_draw(img, 20, 40, label, 24, w - 40, self.base)
            row = 62
            for seat in range(n):
                self._cell(img, d, seat, points[seat], winners, 16, 80 + seat * row, w - 32, row - 8)
            return
        lw = 150
        _fit_draw(img, 14, h / 2, label, 20, lw - 20, self.base)
        cw = (w - lw - 8) / n
        for seat in range(n):
            self._cell(img, d, seat, points[seat], winners, round(lw + seat * cw), 6,
                       round(cw) - 6, h - 12)

    def _cell(self, img, d, seat, score, winners, x, y, w, h):
        won = winners is not None and seat in winners
        if won:
            d.rounded_rectangle((x, y, x + w, y + h), 8, fill=(255, 250, 225), outline=P.TRAIL,
                                width=2)
        sw = 26
        PN.paste(img, PN.swatch(seat, sw, self.scheme), x + 6, y + (h - sw) / 2)
        tx = x + 6 + sw + 8
        room = x + w - 6 - tx
        score_text = str(score)
        name = PN.name_of(self.names, seat, self.locale)
        if self.portrait:
            sw_ = T.draw(img, x + w - 8, y + h / 2, score_text, 24, P.INK, bold=True, align="right")
            if won:
                PN.crown(d, x + w - 8 - sw_ - 18, y + h / 2, 9)
                sw_ += 28
            T.draw(img, tx, y + h / 2, T.fit(name, 18, True, room - sw_ - 10), 18, P.INK, bold=True)
            return
        T.draw(img, tx, y + h * 0.3, T.fit(name, 14, True, room), 14, P.INK_SOFT, bold=True)
        T.draw(img, tx, y + h * 0.72, score_text, 21, P.INK, bold=True)
        if won:
            PN.crown(d, tx + T.width(score_text, 21, True) + 16, y + h * 0.72, 8)

    def compose(self, band):
        q = band.quantize(palette=self.palette, dither=Image.Dither.NONE)
        self.frame.paste(q, self.band_box[:2])
        return self.frame.copy()


def _meets(a, b):
    """Whether two boxes (x0, y0, x1, y1) overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _fit_draw(img, x, y, text, size, max_w, base):
    size = T.fit_size(text, size, True, max_w, smallest=12, base=base)
    T.draw(img, x, y, T.fit(text, size, True, max_w, base), size, P.INK, bold=True, base=base)


def _label(kind, number, locale):
    if kind == "start":
        return t("render.film.start", locale)
    if kind == "final":
        return t("render.final.title", locale)
    return t(f"render.film.{kind}", locale, n=number)


def _make_palette(samples):
    """A 'P' image with at most 255 colours for pictures like `samples` (median cut, which
    keeps the large flat areas exact)."""
    width = max(s.width for s in samples)
    height = sum(s.height for s in samples)
    sheet = Image.new("RGB", (width, height), P.PAGE_BG)
    y = 0
    for s in samples:
        sheet.paste(s, (0, y))
        y += s.height
    return sheet.quantize(TRANSPARENT, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


# ----- the film --------------------------------------------------------------------------------------

def render_film(game, names, actions, locale="en", *, max_bytes=MAX_BYTES,
                max_frames=MAX_FRAMES, palette=P.STANDARD):
    """GIF bytes of the film of `game` (as dealt) played through `actions`, in the players'
    colours of `palette` (palette.SCHEMES: the game's, as its public pictures)."""
    try:
        return _film(game, names, actions, locale, max_bytes, max_frames, palette)
    finally:
        S.trim()            # its frames' memory back to the system: a worker would keep it


def _film(game, names, actions, locale, max_bytes, max_frames, palette):
    game, states = replay_states(game, actions)
    names = list(names)
    board = game.board
    fr = _Frames(board, names, locale, game.n, palette)
    empty = State(tuple([-1] * len(board.routes)), {}, tuple([0] * game.n), 0)
    end = State(tuple(game.owner), dict(game.station_owner), tuple(game.route_points), game.turn,
                shared=tuple(sorted(EX.shared_routes(game))))
    players, winners = game.scores()
    over = game.over
    totals = [pl["total"] for pl in players] if over else list(game.route_points)
    final_map = fr.whole(end, trails=longest_path_trails(game, players) if over else ())
    final_band = fr.band(_label("final" if over else "turn", game.turn, locale), totals,
                         winners if over else None)
    start_band = fr.band(_label("start", 0, locale), [0] * game.n)
    sample_halo = fr.whole(end, routes=tuple(r for r, o in enumerate(game.owner) if o >= 0)[:12])
    fr.palette = _make_palette([fr.art.canvas().reduce(HALF), final_map, sample_halo, final_band,
                                start_band])
    cache = {}
    while True:
        plan = _plan(game, names, states, max_frames)
        data = _encode(fr, plan, empty, end, final_map, final_band, start_band, cache)
        if len(data) <= max_bytes or max_frames <= 0:
            return data
        max_frames //= 2


def _encode(fr, plan, empty, end, final_map, final_band, start_band, cache):
    locale = fr.locale
    frames = []
    fr.halos = ()
    fr.frame = Image.new("P", fr.size)
    fr.frame.putpalette(fr.palette.getpalette())
    fr.frame.paste(fr.whole(empty).quantize(palette=fr.palette, dither=Image.Dither.NONE), (0, 0))
    frames.append(fr.compose(start_band))
    for state, kind, number, routes, stations in plan.shots:
        fr.show(state, tuple(routes), tuple(stations))
        key = (kind, number, state.points)
        band = cache.get(key)
        if band is None:
            band = cache[key] = fr.band(_label(kind, number, locale), list(state.points))
        frames.append(fr.compose(band))
    fr.frame.paste(final_map.quantize(palette=fr.palette, dither=Image.Dither.NONE), (0, 0))
    frames.append(fr.compose(final_band))
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=plan.durations,
                   loop=0, optimize=True, disposal=1, transparency=TRANSPARENT,
                   palette=bytes(fr.palette.getpalette()))
    return buf.getvalue()
