"""The stats picture: one player's statistics (`stats.PlayerStats`) as a small PNG, 800 x 400.

    render_stats(stats, locale="en") -> PNG bytes

Header: the player's name (any script) and where the figures come from (this server or every
server, and the map); at the right the rating: the display rating (ratings.display_rating,
1000 to start), with the number of rated games under it (provisional before `ratings.MIN_GAMES` rated games).
Then five tiles: games (wins, win rate), mean score (best), tickets completed / failed,
longest-path bonuses, favourite map; then a line per map. A player with no games gets the
header and a sentence instead. Every word comes from the catalog (`render.stats.*`, map names
`bot.map.*`); `text.py` draws Thai, right-to-left Persian and Japanese. Pure and thread-safe.
"""
import io
from contextlib import nullcontext

from PIL import Image, ImageDraw

from ..i18n import t
from ..stats import figure, map_name, rating_figures, where_text
from . import palette as P
from . import text as T

W, H = 800, 400
PAD = 28
TILE_BG = (247, 245, 239)
ACCENT = P.PLAYERS[1][0]          # the blue of the players' colours: the rating box
RATING_BG = P.mix(ACCENT, (255, 255, 255), 0.9)


def render_stats(stats, locale="en"):
    """PNG bytes of the stats picture (RGB; ~30-50 KB)."""
    buf = io.BytesIO()
    stats_image(stats, locale).save(buf, "PNG", compress_level=6)
    return buf.getvalue()


def stats_image(stats, locale="en"):
    base = T.direction(locale)
    img = Image.new("RGB", (W, H), P.PAGE_BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((6, 6, W - 7, H - 7), 14, fill=P.PANEL_BG, outline=P.RULE, width=2)
    with T.mirrored(img, (0, 0, W - 1, H - 1)) if base == "rtl" else nullcontext():
        _header(img, d, stats, locale, base)      # right to left: the whole card mirrored
        if stats.empty:
            _empty(img, d, locale, base)
        else:
            _tiles(img, d, stats, locale, base)
            _maps(img, d, stats, locale, base)
    return img


def _text(img, x, y, text, size, ink, max_w, bold=False, base=None, align="left", smallest=None):
    """Draw text in at most max_w pixels: a little smaller if need be, then cut."""
    size = T.fit_size(text, size, bold, max_w, smallest=smallest or max(10, round(size * 0.75)),
                      base=base)
    text = T.fit(text, size, bold, max_w, base)
    return T.draw(img, x, y, text, size, ink, bold=bold, align=align, base=base)


def _header(img, d, stats, locale, base):
    name_w = 470
    _text(img, PAD, 44, stats.name, 32, P.INK, name_w, bold=True)
    where = where_text(stats, locale, "render")
    if stats.left:
        where += "  ·  " + t("render.stats.left", locale, count=stats.left)
    _text(img, PAD, 84, where, 17, P.INK_SOFT, name_w, base=base)
    # the rating box
    x0, y0, x1, y1 = 520, 20, W - PAD, 108
    d.rounded_rectangle((x0, y0, x1, y1), 10, fill=RATING_BG, outline=ACCENT, width=2)
    bw = x1 - x0 - 28
    _text(img, x0 + 14, y0 + 17, t("render.stats.rating", locale).upper(), 14, P.INK_SOFT, bw,
          bold=True, base=base)
    state = stats.rating_state
    if state == "rated":
        f = rating_figures(stats)
        T.draw(img, x1 - 14, y0 + 20, f["value"], 34, P.INK, bold=True, align="right")
        detail = t("render.stats.rating_detail", locale, mu=f["mu"], sigma=f["sigma"],
                   count=f["count"])
    elif state == "provisional":
        T.draw(img, x1 - 14, y0 + 20, figure(None), 34, P.INK_SOFT, bold=True, align="right")
        detail = t("render.stats.provisional", locale, played=stats.rated_games,
                   count=rating_figures(stats)["need"])
    else:
        detail = t("render.stats.unrated", locale)
    _text(img, x0 + 14, y1 - 22, detail, 16, P.INK, bw, base=base)
    d.line((PAD, 124, W - PAD, 124), fill=P.RULE, width=2)


def _tiles(img, d, stats, locale, base):
    top, h, gap = 140, 96, 10
    n = 5
    w = (W - 2 * PAD - gap * (n - 1)) / n
    done = str(stats.tickets_completed)
    failed = figure(stats.tickets_failed)
    fav = stats.favourite_map
    fav_games = next((ln.games for ln in stats.maps if ln.map == fav), 0)
    tiles = [
        ("render.stats.games", str(stats.games),
         t("render.stats.wins", locale, count=stats.wins, pct=stats.win_pct)),
        ("render.stats.mean_score", figure(stats.mean_score),
         t("render.stats.best", locale, best=figure(stats.best_score))),
        ("render.stats.tickets", f"{done} / {failed}", t("render.stats.tickets_detail", locale)),
        ("render.stats.longest", figure(stats.longest_bonuses),
         t("render.stats.longest_detail", locale)),
        ("render.stats.favourite", map_name(fav, locale) if fav else figure(None),
         t("render.stats.favourite_detail", locale, count=fav_games)),
    ]
    for i, (key, value, sub) in enumerate(tiles):
        x = round(PAD + i * (w + gap))
        d.rounded_rectangle((x, top, round(x + w), top + h), 10, fill=TILE_BG)
        iw = round(w) - 24
        _text(img, x + 12, top + 18, t(key, locale), 15, P.INK_SOFT, iw, bold=True, base=base)
        size = 30 if i < 4 else 22
        # base: "6 / 42" on a right-to-left card, so that each number sits under its word of
        # "completed / failed"
        _text(img, x + 12, top + 52, value, size, P.INK, iw, bold=True, smallest=12, base=base)
        _text(img, x + 12, top + 80, sub, 14, P.INK_SOFT, iw, base=base)


COLS = (("map", 0, "left"), ("games", 330, "right"), ("wins", 430, "right"),
        ("mean", 560, "right"), ("best", 680, "right"))


def _maps(img, d, stats, locale, base):
    top = 256
    x0, x1 = PAD, W - PAD
    _text(img, x0, top, t("render.stats.by_map", locale).upper(), 14, P.INK_SOFT, 300, bold=True,
          base=base)
    head = top + 26
    for key, dx, align in COLS:
        x = x0 + 14 + dx if align == "left" else x0 + dx + 40
        _text(img, x, head, t(f"render.stats.col.{key}", locale), 14, P.INK_SOFT, 110, bold=True,
              base=base, align=align)
    d.line((x0, head + 13, x1, head + 13), fill=P.RULE, width=1)
    row_h = 22
    for i, line in enumerate(stats.maps[:4]):
        y = head + 14 + row_h * i + row_h / 2 + 1
        if i % 2:
            d.rectangle((x0, y - row_h / 2, x1, y + row_h / 2), fill=TILE_BG)
        values = {"map": map_name(line.map, locale), "games": str(line.games),
                  "wins": str(line.wins), "mean": figure(line.mean_score),
                  "best": figure(line.best_score)}
        for key, dx, align in COLS:
            x = x0 + 14 + dx if align == "left" else x0 + dx + 40
            _text(img, x, y, values[key], 16, P.INK, 300 if key == "map" else 100,
                  bold=key == "map", align=align)


def _empty(img, d, locale, base):
    cx = W / 2
    d.rounded_rectangle((PAD, 150, W - PAD, H - 40), 14, fill=TILE_BG)
    _text_center(img, cx, 225, t("render.stats.empty", locale), 28, P.INK_SOFT, W - 4 * PAD,
                 bold=True, base=base)
    _text_center(img, cx, 275, t("render.stats.empty_hint", locale), 18, P.INK_SOFT,
                 W - 4 * PAD, base=base)


def _text_center(img, x, y, text, size, ink, max_w, bold=False, base=None):
    _text(img, x, y, text, size, ink, max_w, bold=bold, base=base, align="center")
