"""Every board picture the bot sends: drawn in the worker pool, once per state, and reused.

Three methods make every picture (the turn posts through `Delivery.render`, `/ttr status`,
`/ttr hand` and "My hand"):

    await pictures.map(game, names, locale="en", highlight=None, cities=None)
        the public phone picture (render.render_map: the map alone; `highlight` the route
        indices to ring, e.g. every route claimed since the pinged player's last turn, None:
        the last move's);
    await pictures.closeup(game, names, routes, locale="en", cities=())
        the close-up around `routes` / `cities` (render.render_closeup, 600 x 450);
    await pictures.render(game, names, viewer=None, locale="en", final=False, highlight=None)
        the board with its panel: a private board (`viewer`), the final picture (`final`), or
        the public board with the standings drawn (before the turn card had them in text).

`await pictures.warm(board, locale, private_locales)` builds in every worker the static layers
a game's pictures are drawn on, when the game starts.

Each also takes `palette=` (keyword: the players' colour scheme, "standard" or "colourblind",
render/palette.py) and gives PNG bytes, or None when the picture could not be drawn. A picture is a pure function
of the game's state, the names, the viewer's seat, the language, the kind of page and the
highlighted routes and cities, so it is cached under a digest of exactly those: `/ttr status` on the turn just posted gets
the very bytes of the post's picture, a private board is drawn again only once something in
the game has changed, and the same picture asked for twice at once is drawn once (the second
caller waits for the first). The cache is bounded by its bytes (least recently used first out).

Drawing takes 30-90 ms of CPU: it runs in a worker process (ttr_bot.workers), never on the
event loop, ahead of the computer players' decisions waiting there (a turn post waits for its
picture; a computer player pauses before it moves anyway). A picture that cannot be drawn gives None (the caller sends text instead) and is
not cached, so the next request tries again.
"""
import asyncio
import hashlib
import json
import logging
from collections import OrderedDict

from ...engine.state import FIELDS
from ...render import render_board, render_closeup, render_final, render_map, warm
from ...workers import WorkerLost, WorkerPool

log = logging.getLogger(__name__)
CACHE_BYTES = 64 * 1024 * 1024     # ~300 boards of 150-210 KiB: every game's latest pictures
RENDER_TIMEOUT = 30.0              # a worker drawing longer than this is stuck: it is replaced


def picture_key(game, names, viewer=None, locale="en", final=False, *, kind=None,
                highlight=None, cities=None, palette="standard"):
    """What a picture is drawn from, as a digest: the whole game state (state.FIELDS: the
    dealer's generator is not drawn, so it is left out), the board, names, seat, language,
    for the newer pictures their kind ("map", "closeup") and highlighted routes/cities, and
    the players' colour scheme (render/palette.py) when it is not the standard one."""
    state = {f.name: f.to_json(getattr(game, f.name)) for f in FIELDS}
    parts = [game.board.map_id, game.board.variant, game.n, state, list(names), viewer, locale,
             bool(final)]
    if kind is not None or highlight is not None or cities is not None:
        parts += [kind, _ids(highlight), _ids(cities)]
    if palette != "standard":
        parts.append(palette)
    text = json.dumps(parts, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _ids(xs):
    return None if xs is None else sorted(set(int(x) for x in xs))


class Pictures:
    def __init__(self, workers=None, *, max_bytes=CACHE_BYTES, timeout=RENDER_TIMEOUT):
        self.workers = workers if workers is not None else WorkerPool(0)
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.stats = {"drawn": 0, "reused": 0, "failed": 0}
        self._cache = OrderedDict()     # key -> PNG bytes
        self._bytes = 0
        self._drawing = {}              # key -> future of the picture being drawn

    @property
    def cached_bytes(self):
        return self._bytes

    async def render(self, game, names, viewer=None, locale="en", final=False, highlight=None,
                     *, palette="standard"):
        """PNG bytes of the board with its panel (`viewer`: that seat's private board; `final`:
        the end's score picture; `highlight`: route indices to ring, None: the last move's;
        `palette`: the players' colour scheme, render/palette.py), or None if it could not be
        drawn."""
        names = list(names)
        if final:
            key = picture_key(game, names, viewer, locale, True, palette=palette)
            return await self._get(key, game, render_final, (names, locale, palette))
        highlight = _ids(highlight)
        key = picture_key(game, names, viewer, locale, False, highlight=highlight,
                          palette=palette)
        return await self._get(key, game, render_board,
                               (names, viewer, locale, highlight, None, palette))

    async def map(self, game, names, locale="en", highlight=None, cities=None, *,
                  palette="standard"):
        """PNG bytes of the public phone picture (the map alone, render.render_map), or None.
        `highlight`: route indices to ring (None: what the last move claimed); `cities`: node
        indices of stations to ring (None: the last move's station)."""
        names = list(names)
        highlight, cities = _ids(highlight), _ids(cities)
        key = picture_key(game, names, None, locale, kind="map", highlight=highlight,
                          cities=cities, palette=palette)
        return await self._get(key, game, render_map, (names, highlight, locale, cities, palette))

    async def closeup(self, game, names, routes, locale="en", cities=(), *, palette="standard"):
        """PNG bytes of the close-up (render.render_closeup: 600 x 450, the map around
        `routes` and `cities`, highlighted, larger), or None (also when both are empty)."""
        names = list(names)
        routes, cities = _ids(routes), _ids(cities)
        if not routes and not cities:
            return None
        key = picture_key(game, names, None, locale, kind="closeup", highlight=routes,
                          cities=cities, palette=palette)
        return await self._get(key, game, render_closeup,
                               (names, routes, locale, cities, palette))

    async def warm(self, board, locale, private_locales=()):
        """Build, in every worker process, the static layers a game's pictures are drawn on
        (render.warm): the public map, the close-up, the final picture and the film's page in
        the game's `locale`, the private board in each of `private_locales`. Called when a
        game starts, so that its first close-up (350-500 ms of building otherwise) and its
        final post do not pay for them. One chore per page, so that a picture someone waits
        for can go between them; without worker processes nothing (run_each)."""
        jobs = [(locale, page) for page in ("map", "closeup", "final", "film")]
        jobs += [(loc, "private") for loc in dict.fromkeys(private_locales)]
        results = await asyncio.gather(*(
            self.workers.run_each(warm, board, loc, (page,), timeout=self.timeout)
            for loc, page in jobs))
        for (loc, page), result in zip(jobs, results):
            for r in result or ():
                if isinstance(r, Exception):
                    log.info("warming the %s page of %s (%s) failed: %r", page,
                             board.map_id, loc, r)
        return results

    async def _get(self, key, game, function, args):
        """The cached picture under `key`, or function(copy of game, *args) drawn in a worker
        (once, however many ask at once)."""
        png = self._cache.get(key)
        if png is not None:
            self._cache.move_to_end(key)
            self.stats["reused"] += 1
            return png
        drawing = self._drawing.get(key)
        if drawing is not None:
            self.stats["reused"] += 1
            return await asyncio.shield(drawing)
        fut = asyncio.get_running_loop().create_future()
        self._drawing[key] = fut
        png = None
        try:
            png = await self._draw(key, function, game.copy(), args)
        finally:
            del self._drawing[key]
            fut.set_result(png)     # shielded by its waiters: never cancelled
        return png

    async def _draw(self, key, function, game, args):
        try:
            png = await self.workers.run(function, game, *args, timeout=self.timeout,
                                         first=True)
        except WorkerLost as exc:       # crashed, hung or could not start: the pool's trouble
            self.stats["failed"] += 1
            log.warning("drawing the board of a %s game failed: %r", game.board.map_id, exc)
            return None
        except Exception:
            self.stats["failed"] += 1
            log.exception("drawing the board of a %s game failed", game.board.map_id)
            return None
        self.stats["drawn"] += 1
        self._remember(key, png)
        return png

    def _remember(self, key, png):
        if len(png) > self.max_bytes:
            return
        self._cache[key] = png
        self._bytes += len(png)
        while self._bytes > self.max_bytes:
            _, old = self._cache.popitem(last=False)
            self._bytes -= len(old)
