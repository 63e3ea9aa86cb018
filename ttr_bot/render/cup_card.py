"""A cup's standings as a picture (the final post; readable at 800 px wide on a phone): the
cup's name, then a row per player, best first: place, name, points, opponents' points, score.
`standings` are plain rows (service/cup_state.py `Standing`: rank, name, points, opponents,
score, withdrawn); the alt text is `cup_alt`."""
import io

from PIL import Image, ImageDraw

from ..i18n import t
from . import palette as P
from . import text as T

W, PAD, ROW, TOP = 800, 28, 44, 96
MAX_ROWS = 32


def render_cup(name, standings, locale="en"):
    """PNG bytes of the standings picture."""
    rows = list(standings)[:MAX_ROWS]
    h = TOP + ROW * (len(rows) + 1) + PAD
    img = Image.new("RGB", (W, h), P.PAGE_BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((6, 6, W - 7, h - 7), 14, fill=P.PANEL_BG, outline=P.RULE, width=2)
    base = T.direction(locale)
    T.draw(img, PAD, 30, T.fit(name, 32, True, W - 2 * PAD, base), 32, P.INK, bold=True,
           base=base)
    cols = [(PAD, "render.cup.place", "left"), (PAD + 70, "render.cup.player", "left"),
            (W - 250, "render.cup.points", "right"), (W - 130, "render.cup.opponents", "right"),
            (W - PAD, "render.cup.score", "right")]
    y = TOP
    for x, key, align in cols:
        T.draw(img, x, y, T.fit(t(key, locale), 15, True, 110 if x > PAD + 70 else 60, base),
               15, P.INK_SOFT, bold=True, align=align, base=base)
    for i, s in enumerate(rows):
        y = TOP + ROW * (i + 1)
        if i % 2 == 0:
            d.rectangle((PAD - 8, y - 8, W - PAD + 8, y + ROW - 12), fill=P.PAGE_BG)
        ink = P.INK_SOFT if s.withdrawn else P.INK
        T.draw(img, PAD, y, str(s.rank), 24, ink, bold=s.rank == 1)
        T.draw(img, PAD + 70, y, T.fit(s.name, 24, s.rank == 1, W - 420, base), 24, ink,
               bold=s.rank == 1, base=base)
        for x, value in ((W - 250, s.points), (W - 130, s.opponents), (W - PAD, s.score)):
            T.draw(img, x, y, str(value), 24, ink, align="right")
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=6)
    return buf.getvalue()


def cup_alt(name, standings, locale="en"):
    """The picture's alt text: the same table in words."""
    lines = [t("render.cup.alt", locale, name=name)]
    lines += [t("render.cup.alt_row", locale, place=s.rank, name=s.name, points=s.points,
                opponents=s.opponents, score=s.score) for s in list(standings)[:MAX_ROWS]]
    return "\n".join(lines)
