"""Text with the bundled font (Noto Sans, SIL OFL 1.1: fonts/OFL.txt).

Glyphs are rasterised once per (text, size, weight, halo) into grey masks kept in a bounded
cache; drawing a cached text is one paste. The basic layout engine is used: the same pixels on
every machine, with or without libraqm, and precomposed accents (Montréal, Zürich, København)
need nothing more.
"""
import math
import threading
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "NotoSans-Regular.ttf"
BOLD = FONT_DIR / "NotoSans-Bold.ttf"

# FreeType faces are not safe to use from two threads at once: every rasterisation holds this.
_FT_LOCK = threading.Lock()


@lru_cache(maxsize=None)
def _font_bytes(bold):
    return (BOLD if bold else REGULAR).read_bytes()


@lru_cache(maxsize=64)
def font(size, bold=False):
    import io
    return ImageFont.truetype(io.BytesIO(_font_bytes(bold)), size,
                              layout_engine=ImageFont.Layout.BASIC)


class Text:
    """A rasterised string: `fill` (and `halo`, the outline behind it) are L masks whose
    (pad, pad) is the left end of the ascender line."""
    __slots__ = ("fill", "halo", "pad", "width", "ascent", "descent", "size")

    def __init__(self, fill, halo, pad, width, ascent, descent, size):
        self.fill, self.halo, self.pad = fill, halo, pad
        self.width, self.ascent, self.descent, self.size = width, ascent, descent, size


@lru_cache(maxsize=4096)
def rasterise(text, size, bold=False, halo=0):
    f = font(size, bold)
    with _FT_LOCK:
        ascent, descent = f.getmetrics()
        width = math.ceil(f.getlength(text))
        pad = halo + 2
        w, h = width + 2 * pad, ascent + descent + 2 * pad
        fill = Image.new("L", (w, h), 0)
        ImageDraw.Draw(fill).text((pad, pad), text, font=f, fill=255, anchor="la")
        outline = None
        if halo:
            outline = Image.new("L", (w, h), 0)
            ImageDraw.Draw(outline).text((pad, pad), text, font=f, fill=255, anchor="la",
                                         stroke_width=halo, stroke_fill=255)
    return Text(fill, outline, pad, width, ascent, descent, size)


def width(text, size, bold=False):
    return rasterise(text, size, bold).width


def fit(text, size, bold, max_width):
    """`text`, shortened with an ellipsis until it is at most max_width pixels wide."""
    if width(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(text[:mid].rstrip() + "…", size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def fit_size(text, size, bold, max_width, smallest=10):
    """The largest size <= size at which text fits max_width (never below smallest)."""
    while size > smallest and width(text, size, bold) > max_width:
        size -= 1
    return size


def draw(img, x, y, text, size, fill, bold=False, halo=None, halo_width=3, align="left",
         valign="middle"):
    """Draw `text` at (x, y): align left/center/right on x; valign top (ascender line),
    middle (middle of the capitals) or baseline on y. Returns the text's width."""
    if not text:
        return 0
    t = rasterise(text, size, bold, halo_width if halo is not None else 0)
    if align == "center":
        x -= t.width / 2
    elif align == "right":
        x -= t.width
    if valign == "middle":
        y -= t.ascent - round(0.36 * size)
    elif valign == "baseline":
        y -= t.ascent
    x0, y0 = round(x) - t.pad, round(y) - t.pad
    box = (x0, y0, x0 + t.fill.width, y0 + t.fill.height)
    if halo is not None:
        img.paste(halo, box, t.halo)
    img.paste(fill, box, t.fill)
    return t.width
