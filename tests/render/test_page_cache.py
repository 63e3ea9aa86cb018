"""The static pages a worker keeps: each one mapped onto its palette (a quarter of its RGB
memory) without changing the pictures a player sees, and all of them bounded by bytes, so that
a worker serving every map in every language stays within its memory."""
import io

from PIL import Image, ImageChops

from testkit.sample_games import greedy_game
from ttr_bot.render import render_board, render_final, render_map
from ttr_bot.render import static as S


def _names(g):
    return [f"P{i}" for i in range(g.n)]


def _rgb(data):
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_a_picture_from_the_compact_page_is_the_one_from_the_rgb_page(monkeypatch):
    g = greedy_game("europe", until=0.5)
    S.clear()
    compact = render_board(g, _names(g), viewer=1)
    assert all(a.page.mode == "P" for a in S._PAGES.values())
    monkeypatch.setattr(S.Art, "compact", lambda self: None)
    S.clear()
    full = render_board(g, _names(g), viewer=1)
    assert all(a.page.mode == "RGB" for a in S._PAGES.values())
    S.clear()
    a, b = _rgb(compact), _rgb(full)
    levels = ImageChops.difference(a, b).convert("L").histogram()
    assert sum(levels[1:]) <= a.width * a.height // 1000, levels   # under one pixel in 1,000,
    assert sum(levels[9:]) <= 20, levels                 # all but a handful within 8 levels


def test_the_page_cache_is_bounded_by_bytes_and_keeps_the_latest(monkeypatch):
    monkeypatch.setattr(S, "MAX_PAGE_BYTES", 8 << 20)       # two or three pages
    S.clear()
    try:
        for map_id in ("switzerland", "usa"):
            g = greedy_game(map_id, until=0.3)
            for locale in ("en", "fa"):
                render_map(g, _names(g), None, locale)
                render_board(g, _names(g), 0, locale)
                render_final(g, _names(g), locale)
                pages = sum(a.nbytes() for a in S._PAGES.values())
                assert pages <= S.MAX_PAGE_BYTES, pages
                assert len(S._MAPS) <= S.MAX_MAPS
        latest = next(reversed(S._PAGES))
        assert latest[1:] == ("final", "fa")
    finally:
        S.clear()
