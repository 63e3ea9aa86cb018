"""A season's picture: its podium and standings, 800 x 480, readable on a phone.

    render_season(title, lines, locale="en") -> PNG bytes

`title` is the season's name as the catalog writes it; `lines` are (rank, name, points, games,
wins) best first, plain values (the service's standings, read by the adapter). The podium
shows the first three (second, first, third from the left; mirrored for a right-to-left
language), each with their points; under it up to six more lines. Every word comes from the
catalog (`render.season.*`). Pure and thread-safe.
"""
import io
from contextlib import nullcontext

from PIL import Image, ImageDraw

from ..i18n import t
from . import palette as P
from . import text as T

W, H = 800, 480
PAD = 28
STEPS = ((1, 0.62, (192, 192, 200)), (0, 1.0, P.CROWN), (2, 0.42, (205, 140, 80)))
ROWS = 6


def render_season(title, lines, locale="en"):
    buf = io.BytesIO()
    season_image(title, lines, locale).save(buf, "PNG", compress_level=6)
    return buf.getvalue()


def season_image(title, lines, locale="en"):
    base = T.direction(locale)
    img = Image.new("RGB", (W, H), P.PAGE_BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((6, 6, W - 7, H - 7), 14, fill=P.PANEL_BG, outline=P.RULE, width=2)
    with T.mirrored(img, (0, 0, W - 1, H - 1)) if base == "rtl" else nullcontext():
        _text(img, PAD, 40, title, 30, P.INK, W - 2 * PAD, bold=True, base=base)
        d.line((PAD, 66, W - PAD, 66), fill=P.RULE, width=2)
        if not lines:
            _text(img, W / 2, 240, t("render.season.empty", locale), 26, P.INK_SOFT,
                  W - 4 * PAD, bold=True, base=base, align="center")
        else:
            _podium(img, d, lines, locale, base)
            _rest(img, d, lines[3:3 + ROWS], locale, base)
    return img


def _text(img, x, y, text, size, ink, max_w, bold=False, base=None, align="left"):
    size = T.fit_size(text, size, bold, max_w, smallest=max(10, round(size * 0.7)), base=base)
    return T.draw(img, x, y, T.fit(text, size, bold, max_w, base), size, ink, bold=bold,
                  align=align, base=base)


def _podium(img, d, lines, locale, base):
    floor, tallest, w, gap = 300, 150, 200, 24
    left = (W - 3 * w - 2 * gap) / 2
    for slot, (place, height, colour) in enumerate(STEPS):
        if place >= len(lines):
            continue
        rank, name, points, _games, _wins = lines[place]
        x0 = left + slot * (w + gap)
        top = floor - tallest * height
        d.rounded_rectangle((x0, top, x0 + w, floor), 10, fill=P.mix(colour, P.WHITE, 0.55),
                            outline=colour, width=3)
        cx = x0 + w / 2
        T.draw(img, cx, top + 26, str(rank), 30, P.INK, bold=True, align="center")
        _text(img, cx, top - 40, name, 22, P.INK, w - 8, bold=True, base=base, align="center")
        _text(img, cx, top - 16, t("render.season.points", locale, points=points), 16,
              P.INK_SOFT, w - 8, base=base, align="center")


def _rest(img, d, lines, locale, base):
    top, row_h = 318, 25
    for i, (rank, name, points, games, wins) in enumerate(lines):
        y = top + row_h * i + row_h / 2
        if i % 2:
            d.rectangle((PAD, y - row_h / 2, W - PAD, y + row_h / 2), fill=P.SCORE_BG)
        T.draw(img, PAD + 30, y, str(rank), 18, P.INK_SOFT, bold=True, align="right")
        _text(img, PAD + 44, y, name, 18, P.INK, 300, bold=True, base=base)
        _text(img, W - PAD - 8, y, t("render.season.line", locale, points=points, games=games,
                                     wins=wins), 18, P.INK, 390, base=base, align="right")
