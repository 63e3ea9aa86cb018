"""Every board picture the bot sends: drawn in the worker pool, once per state, and reused.

`Pictures.render(game, names, viewer, locale, final)` is the one way a picture is made (the
turn posts through `Delivery.render`, `/ttr status`, `/ttr hand` and "My hand"). A picture is a
pure function of the game's state, the names, the viewer's seat, the language and the kind of
page, so it is cached under a digest of exactly those: `/ttr status` on the turn just posted gets
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

from ..engine.state import FIELDS
from ..render import render_board, render_final
from ..workers import WorkerPool

log = logging.getLogger(__name__)
CACHE_BYTES = 64 * 1024 * 1024     # ~300 boards of 150-210 KiB: every game's latest pictures
RENDER_TIMEOUT = 30.0              # a worker drawing longer than this is stuck: it is replaced


def picture_key(game, names, viewer=None, locale="en", final=False, highlight=None):
    """What a picture is drawn from, as a digest: the whole game state (state.FIELDS: the
    dealer's generator is not drawn, so it is left out), the board, names, seat, language."""
    state = {f.name: f.to_json(getattr(game, f.name)) for f in FIELDS}
    text = json.dumps([game.board.map_id, game.board.variant, game.n, state, list(names),
                       viewer, locale, bool(final), sorted(highlight or ())], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


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

    async def render(self, game, names, viewer=None, locale="en", final=False, highlight=None):
        """PNG bytes of the board (`viewer`: that seat's private board; `final`: the end's
        score picture; `highlight`: route ids drawn highlighted), or None if it could not be
        drawn."""
        names = list(names)
        key = picture_key(game, names, viewer, locale, final, highlight)
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
            png = await self._draw(key, game.copy(), names, viewer, locale, final)
        finally:
            del self._drawing[key]
            fut.set_result(png)     # shielded by its waiters: never cancelled
        return png

    async def _draw(self, key, game, names, viewer, locale, final):
        try:
            if final:
                png = await self.workers.run(render_final, game, names, locale,
                                             timeout=self.timeout, first=True)
            else:
                png = await self.workers.run(render_board, game, names, viewer, locale,
                                             timeout=self.timeout, first=True)
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
