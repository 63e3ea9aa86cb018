"""The public map's strip of each player's map state (Pennsylvania's shares, Japan's bullet
track, Italy's ferry cards: extras.seat_lines), under the map: the phone picture has no players
table, and a box over the map had to shrink its words to hide no car. A row per player, its
colour and mark, its name and state, in two columns when the rows fit; nothing on a map
without such state. Only public state: a dummy's shares are never read (extras.shares_held)."""
from PIL import Image, ImageDraw

from ..i18n import t
from . import extras as EX
from . import palette as P
from . import panel as PN
from . import text as T

SIZE = 26        # the rows' words, in picture pixels (the public map is ~1400 px wide)
ROW = 42
PAD = 14


def rows(g, names, locale):
    """[(seat, its words)] of the strip, [] when the map keeps no per-player state."""
    held = EX.seat_lines(g, locale)
    if not any(held):
        return []
    return [(s, t("render.extra.row", locale, name=T.isolate(PN.name_of(names, s, locale)),
                  state=" · ".join(held[s]))) for s in range(g.n)]


def add_strip(img, g, names, locale, scheme=P.STANDARD):
    """`img` with the strip under it (a taller image), or `img` itself when there is none."""
    lines = rows(g, names, locale)
    if not lines:
        return img
    base = T.direction(locale)
    w = img.width
    sw = round(SIZE * 1.2)
    widest = max(T.width(text, SIZE, True, base) for _, text in lines) + sw + 3 * PAD
    cols = 2 if 2 * widest <= w and len(lines) > 1 else 1
    per_col = (len(lines) + cols - 1) // cols
    col_w = (w - 2 * PAD) / cols
    out = Image.new("RGB", (w, img.height + per_col * ROW + 2 * PAD), P.PANEL_BG)
    out.paste(img, (0, 0))
    d = ImageDraw.Draw(out)
    d.line((0, img.height, w, img.height), fill=P.FRAME, width=2)
    rtl = base == "rtl"
    for i, (seat, text) in enumerate(lines):
        col, row = divmod(i, per_col)
        y = img.height + PAD + row * ROW + ROW / 2
        x0 = PAD + col * col_w
        if rtl:                      # a right-to-left page reads its columns from the right
            x0 = w - PAD - (col + 1) * col_w
        sx = x0 + col_w - PAD - sw if rtl else x0 + PAD
        swatch = PN.swatch(seat, sw, scheme)
        out.paste(swatch, (round(sx), round(y - sw / 2)), swatch)
        room = col_w - sw - 3 * PAD
        tx = sx - PAD if rtl else sx + sw + PAD
        T.draw(out, tx, y, T.fit(text, SIZE, True, room, base), SIZE, P.INK, bold=True,
               align="right" if rtl else "left", base=base)
    return out
