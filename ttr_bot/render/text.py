"""Text on the picture: every string goes through `draw` (or `rasterise`, `width`, `fit`).

Fonts (SIL OFL 1.1, `fonts/`, see fonts/SOURCES.md), tried in this order for each character:

    Noto Sans          Latin (Vietnamese included), Greek, Cyrillic
    Noto Sans Thai, Arabic (Persian letters included), Hebrew, Devanagari, Bengali, Tamil,
                       Armenian, Georgian
    Noto Sans CJK JP   Japanese: kana, punctuation, full-width forms, JIS level-1 kanji and every
                       character of the Japanese catalog (a subset, Regular and Bold)
    CJK names          the same font cut for players' names, Regular only (emboldened when
                       bold): the rest of the JIS sets (level 2, JIS X 0213, CP932), Chinese
                       GB 2312 and Big5, Korean Hangul (tools/subset_fonts.py)
    Noto Color Emoji   emoji, flags and ZWJ sequences in colour (a bitmap font at 40 ppem,
                       scaled to the text's size)
    Noto Sans Symbols 2, Noto Sans Math   symbols and the "fancy" letters of names (𝓐, 𝔸)

A string is cut into runs by the font that has each character: letters take the first font
that has them; spaces, digits and punctuation stay with the font of their neighbours when it has
them (so a Thai or Persian sentence keeps its own spaces); combining marks stay with their base.
What no font has is left out, with its marks and what a joiner ties to it — never a .notdef
box; invisible format characters are dropped (an emoji's variation selector, keycap mark and
tags stay with it; a skin-tone modifier is dropped, the emoji drawn in its default colour).

The order of a line (left to right, right to left) is the Unicode bidirectional algorithm's
(bidi.py: FriBidi, checked against Unicode's BidiCharacterTest.txt), run on the whole string,
isolates (U+2066..U+2069) included, with the paragraph direction found from the first strong
letter or given by the caller (`base="rtl"` for Persian sentences, whose first word may be a
Latin name). Each run is shaped by libraqm (HarfBuzz: Thai marks, Arabic joining, mirrored
brackets, emoji sequences), measured and drawn in visual order on one baseline. Latin runs that
need no shaping keep the basic layout engine, so a Latin string is drawn exactly as before (same
pixels on every machine, with or without libraqm). Without libraqm (Pillow built without it,
or no libfribidi on the system) every run falls back to the basic engine: Thai and Japanese
still draw, Arabic letters lose their joined forms.

Layouts (runs and widths) and the rasterised grey masks are kept in bounded LRU caches: drawing
a text seen before is one paste. Which font has a character is read once from the fonts'
cmaps (`coverage`, a set per font) and remembered per character (`face_of`).
"""
import math
import struct
import threading
import unicodedata
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont, features

from . import bidi
from .bidi import MIRROR as _MIRROR
from .bidi import levels, paragraph_level, reorder  # noqa: F401 (the tests read them here)

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "NotoSans-Regular.ttf"
BOLD = FONT_DIR / "NotoSans-Bold.ttf"

# FreeType faces are not safe to use from two threads at once: every rasterisation holds this.
_FT_LOCK = threading.Lock()

HAVE_RAQM = features.check("raqm")


def shaping_problem():
    """One sentence for the operator's log when this system cannot shape text, else None.
    Pillow's wheels bring libraqm and HarfBuzz but load GNU FriBidi (libfribidi.so.0) from the
    system when they start: without it libraqm is off, every run is laid out by the basic
    engine (Persian and Arabic letters drawn apart, Devanagari without its conjuncts and vowel
    signs in place) and bidi.py's smaller algorithm orders the lines."""
    if not bidi.HAVE_FRIBIDI:
        return ("libfribidi (libfribidi.so.0) is not installed: pictures draw Persian and Arabic "
                "names with their letters apart and Devanagari unshaped. Install it "
                "(Debian, Ubuntu: apt-get install libfribidi0; macOS: brew install fribidi) "
                "and restart the bot.")
    if not HAVE_RAQM:
        return ("Pillow was built without libraqm: pictures draw Persian and Arabic names with "
                "their letters apart and Devanagari unshaped. Install Pillow from its wheels "
                "(pip install -r requirements.txt -c constraints.txt).")
    return None


class Face:
    """One font family of the fallback chain: its Regular and Bold files (Bold missing: the
    Regular outlines are stroked to embolden them). `ppem`: the face is drawn at this one size
    and the drawing scaled to the text's: a bitmap font's only size, or a big CFF font's, for
    FreeType keeps ~6 MiB per size of the CJK names cut (its subroutines), and the pictures use
    a dozen sizes; `color`: a colour font (embedded colour bitmaps)."""

    def __init__(self, name, regular, bold=None, ppem=None, color=False):
        self.name = name
        self.files = (FONT_DIR / regular, FONT_DIR / (bold or regular))
        self.embolden = bold is None and not color
        self.ppem, self.color = ppem, color


def _both(name, family):
    return Face(name, f"NotoSans{family}-Regular.ttf", f"NotoSans{family}-Bold.ttf")


FACES = (
    Face("latin", "NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    _both("thai", "Thai"),
    _both("arabic", "Arabic"),
    _both("hebrew", "Hebrew"),
    _both("devanagari", "Devanagari"),
    _both("bengali", "Bengali"),
    _both("tamil", "Tamil"),
    _both("armenian", "Armenian"),
    _both("georgian", "Georgian"),
    Face("japanese", "NotoSansCJKjp-Regular-subset.otf", "NotoSansCJKjp-Bold-subset.otf"),
    Face("cjk", "NotoSansCJKjp-Regular-names.otf", ppem=64),
    Face("emoji", "NotoColorEmoji-40ppem.ttf", ppem=40, color=True),
    Face("symbols", "NotoSansSymbols2-Regular.ttf"),
    Face("math", "NotoSansMath-Regular.ttf"),
)
LATIN = 0
EMOJI = next(i for i, f in enumerate(FACES) if f.name == "emoji")


# ----- fonts and what they cover ---------------------------------------------------------------

@lru_cache(maxsize=None)
def coverage(face):
    """The code points the face's Regular font has a glyph for (its cmap; Bold is the same)."""
    return frozenset(_cmap(FACES[face].files[0].read_bytes()))


def _cmap(data):
    """Code points mapped to a glyph other than .notdef, from an sfnt's cmap (format 12 or 4)."""
    u16 = lambda off: struct.unpack_from(">H", data, off)[0]      # noqa: E731
    u32 = lambda off: struct.unpack_from(">I", data, off)[0]      # noqa: E731
    tables = {data[12 + 16 * i:16 + 16 * i]: u32(20 + 16 * i) for i in range(u16(4))}
    base = tables[b"cmap"]
    subtables = {(u16(base + 4 + 8 * i), u16(base + 6 + 8 * i)): base + u32(base + 8 + 8 * i)
                 for i in range(u16(base + 2))}
    out = set()
    for key in ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3)):
        off = subtables.get(key)
        if off is None:
            continue
        if u16(off) == 12:
            for g in range(u32(off + 12)):
                start, end, glyph = struct.unpack_from(">III", data, off + 16 + 12 * g)
                out.update(range(start + (glyph == 0), end + 1))
            return out
        if u16(off) == 4:
            n = u16(off + 6) // 2
            ends, starts = off + 14, off + 16 + 2 * n
            deltas, ranges = starts + 2 * n, starts + 4 * n
            for s in range(n):
                start, end = u16(starts + 2 * s), u16(ends + 2 * s)
                delta = struct.unpack_from(">h", data, deltas + 2 * s)[0]
                ro = u16(ranges + 2 * s)
                for c in range(start, min(end, 0xFFFE) + 1):
                    if ro == 0:
                        g = (c + delta) & 0xFFFF
                    else:
                        g = u16(ranges + 2 * s + ro + 2 * (c - start))
                        g = (g + delta) & 0xFFFF if g else 0
                    if g:
                        out.add(c)
            return out
    raise ValueError("no Unicode cmap")


# FreeType faces in use: a face keeps what it has read of its font (0.25-0.8 MiB each, 2 MiB
# for the CJK names cut) and the pictures ask for ~40 Latin sizes and ~130 other faces in four
# languages; opening one again takes 0.05-0.5 ms, and only a text not drawn before needs it
# (layouts and masks are cached below), so the faces not used lately are let go.
MAX_LATIN_FACES = 24
MAX_OTHER_FACES = 32


@lru_cache(maxsize=MAX_LATIN_FACES)
def font(size, bold=False):
    """Noto Sans at this pixel size, basic layout: the font of all Latin text. Opened by path
    (FreeType maps the file, shared by every size) rather than from bytes (a copy per size)."""
    return ImageFont.truetype(str(FACES[LATIN].files[bool(bold)]), size,
                              layout_engine=ImageFont.Layout.BASIC)


def face_font(face, size, bold=False, shaped=True):
    """A face at this size; `shaped`: laid out by libraqm (where Pillow has it). A face drawn
    at one size (`Face.ppem`) or without a Bold file is the same FreeType face for every size
    or weight asked: each one opened costs memory (~6 MiB for the CJK names cut)."""
    if face == LATIN and not shaped:
        return font(size, bold)
    f = FACES[face]
    path = f.files[bool(bold)]
    return _open_face(str(path), f.ppem or size, shaped and HAVE_RAQM)


@lru_cache(maxsize=MAX_OTHER_FACES)
def _open_face(path, size, raqm):
    """Opened by path: FreeType maps the file, where a font given as bytes would keep its own
    copy for each size."""
    engine = ImageFont.Layout.RAQM if raqm else ImageFont.Layout.BASIC
    return ImageFont.truetype(path, size, layout_engine=engine)


def ignorable(ch):
    """Characters that are dropped when no font has them: format and control characters,
    variation selectors, emoji modifiers and tags."""
    cp = ord(ch)
    return (unicodedata.category(ch) in ("Cf", "Cc") or 0xFE00 <= cp <= 0xFE0F
            or 0xE0100 <= cp <= 0xE01EF or 0x1F3FB <= cp <= 0x1F3FF)


@lru_cache(maxsize=4096)
def face_of(ch):
    """The first face that has this character, or None (what no font has)."""
    cp = ord(ch)
    for i in range(len(FACES)):
        if cp in coverage(i):
            return i
    return None


# ----- cutting a string into font runs ----------------------------------------------------------

_JOINERS = ("\u200c", "\u200d")
_NEUTRAL = frozenset(("WS", "ON", "CS", "ES", "ET", "EN", "AN", "S", "B"))


def _is_ri(ch):
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _emoji_part(ch, out):
    """An emoji's variation selector, keycap mark or tag character, after an emoji."""
    return bool(out) and out[-1][1] == EMOJI and ord(ch) in coverage(EMOJI)


def _emoji_next(text, i):
    """Whether text[i:] starts with an emoji variation selector or a keycap mark."""
    return i < len(text) and (text[i] == "\ufe0f" or text[i] == "\u20e3"
                              or text[i:i + 2] == "\ufe0f\u20e3")


def segment(text):
    """[(character, face, index in text)] to draw for `text`: what no font has left out (with
    its combining marks and what a zero-width joiner ties to it), ignorable characters dropped,
    neutral characters kept with their neighbours' face."""
    out = []
    dropped = False           # the last character was left out: so is what joins it
    i, n = 0, len(text)
    while i < n:
        ch, at = text[i], i
        i += 1
        if ch in _JOINERS:
            if dropped:
                if ch == "\u200d" and i < n:
                    i += 1                          # ZWJ sequence: the next part goes too
                continue
            if out and ord(ch) in coverage(out[-1][1]):
                out.append((ch, out[-1][1], at))    # ZWNJ in a Persian word, ZWJ in an emoji
            continue
        if ignorable(ch):
            if not dropped and _emoji_part(ch, out):
                out.append((ch, EMOJI, at))
            continue
        if unicodedata.category(ch)[0] == "M":
            if dropped:
                continue
            if out and ord(ch) in coverage(out[-1][1]):
                out.append((ch, out[-1][1], at))
            else:
                face = face_of(ch)
                if face is not None and face != EMOJI:
                    out.append((ch, face, at))
            continue
        face = face_of(ch)
        if face is not None and face != EMOJI and _emoji_next(text, i) and ord(ch) in coverage(
                EMOJI):
            face = EMOJI                            # ❤️, 1️⃣: asked for as emoji
        if face is None:
            if _is_ri(ch) and i < n and _is_ri(text[i]):
                i += 1                              # a flag: two regional indicators
            dropped = True
            continue
        dropped = False
        out.append((ch, face, at))
    # neutrals (spaces, digits, punctuation) take a neighbour's face when it has them; an
    # emoji is neutral too, but no letter nor space goes to the emoji font
    for j, (ch, face, at) in enumerate(out):
        if face == EMOJI or unicodedata.bidirectional(ch) not in _NEUTRAL:
            continue
        cp = ord(ch)
        if j and out[j - 1][1] not in (face, EMOJI) and cp in coverage(out[j - 1][1]):
            out[j] = (ch, out[j - 1][1], at)
            continue
        if j == 0 or out[j - 1][1] != face:
            nxt = next((f for c, f, _ in out[j + 1:]
                        if unicodedata.bidirectional(c) not in _NEUTRAL), None)
            if nxt is not None and nxt not in (face, EMOJI) and cp in coverage(nxt):
                out[j] = (ch, nxt, at)
    return out


# ----- layout: runs, positions, width (cached) ---------------------------------------------------

class Run:
    """Part of a laid-out string in one face and direction, at x along the baseline.
    `scale`: from the font's size to the text's (a bitmap font is drawn at its one size)."""
    __slots__ = ("text", "face", "rtl", "shaped", "x", "width", "scale")

    def __init__(self, text, face, rtl, shaped, x, width, scale=1.0):
        self.text, self.face, self.rtl, self.shaped = text, face, rtl, shaped
        self.x, self.width, self.scale = x, width, scale

    def font(self, size, bold):
        return face_font(self.face, size, bold, self.shaped)

    def stroke(self, size, bold):
        """The stroke that emboldens a face without a Bold file (0: none), at the size the
        face is drawn at."""
        face = FACES[self.face]
        return round((face.ppem or size) / 28, 2) if bold and face.embolden else 0

    def kwargs(self):
        if self.shaped and HAVE_RAQM:
            return {"direction": "rtl" if self.rtl else "ltr"}
        return {}

    def __repr__(self):
        return f"Run({self.text!r}, {FACES[self.face].name}, {'rtl' if self.rtl else 'ltr'})"


class Layout:
    __slots__ = ("runs", "width", "simple")

    def __init__(self, runs, width, simple):
        self.runs, self.width, self.simple = runs, width, simple


@lru_cache(maxsize=1024)
def _simple(text):
    """True when Noto Sans alone draws `text` left to right, unshaped (the fast path)."""
    cover = coverage(LATIN)
    for ch in text:
        if ord(ch) not in cover or unicodedata.bidirectional(ch) in ("R", "AL", "AN"):
            return False
        if unicodedata.category(ch)[0] in "MC":
            return False
    return True


@lru_cache(maxsize=8192)
def layout(text, size, bold=False, base=None):
    """The runs of `text` in visual order, their positions and the total advance width.
    base: None (paragraph direction from the first strong letter), "ltr" or "rtl"."""
    if base != "rtl" and _simple(text):
        f = font(size, bold)
        with _FT_LOCK:
            w = f.getlength(text)
        return Layout((Run(text, LATIN, False, False, 0, w),), math.ceil(w), True)
    seg = segment(text)
    if not seg:
        return Layout((), 0, False)
    para, lv = bidi.resolve(text, base)
    logical = []                                  # [level, face, text]
    for ch, face, at in seg:
        level = lv[at]
        if level is None:                         # a joiner (BN): it stays in its word's run
            level = logical[-1][0] if logical else para
        if logical and logical[-1][0] == level and logical[-1][1] == face:
            logical[-1][2] += ch
        else:
            logical.append([level, face, ch])
    runs, x = [], 0.0
    with _FT_LOCK:
        for level, face, s in reorder(logical):
            rtl = level % 2 == 1
            shaped = face != LATIN or rtl or any(unicodedata.category(c)[0] == "M" for c in s)
            if not HAVE_RAQM:
                shaped = False
                if rtl:
                    s = "".join(_MIRROR.get(c, c) for c in reversed(s))
            scale = size / FACES[face].ppem if FACES[face].ppem else 1.0
            run = Run(s, face, rtl, shaped, x, 0.0, scale)
            run.width = run.font(size, bold).getlength(s, **run.kwargs()) * scale
            runs.append(run)
            x += run.width
    return Layout(tuple(runs), math.ceil(x), False)


# ----- rasterising and drawing ----------------------------------------------------------------

class Text:
    """A rasterised string: `fill` (and `halo`, the outline behind it) are L masks in which
    (pad_x, pad_y) is the left end of the ascender line (of Noto Sans at this size)."""
    __slots__ = ("fill", "halo", "pad_x", "pad_y", "width", "ascent", "descent", "size",
                 "color")

    def __init__(self, fill, halo, pad_x, pad_y, width, ascent, descent, size, color=None):
        self.fill, self.halo, self.pad_x, self.pad_y = fill, halo, pad_x, pad_y
        self.width, self.ascent, self.descent, self.size = width, ascent, descent, size
        self.color = color        # RGBA: colour emoji laid over the fill, or None

    @property
    def pad(self):
        return self.pad_x


@lru_cache(maxsize=4096)
def rasterise(text, size, bold=False, halo=0, base=None):
    lay = layout(text, size, bold, base)
    if lay.simple:
        return _rasterise_simple(text, size, bold, halo)
    f = font(size, bold)
    pad = halo + 2
    with _FT_LOCK:
        ascent, descent = f.getmetrics()
        top, bottom, left, right = ascent, descent, 0.0, float(lay.width)
        boxes = []
        for r in lay.runs:                        # room for taller glyphs, overhangs
            x0, y0, x1, y1 = (v * r.scale for v in r.font(size, bold).getbbox(
                r.text, anchor="ls", stroke_width=r.stroke(size, bold), **r.kwargs()))
            boxes.append((x0, y0, x1, y1))
            top, bottom = max(top, -y0), max(bottom, y1)
            left, right = min(left, r.x + x0), max(right, r.x + x1)
        pad_x = pad + math.ceil(-left)
        pad_y = pad + math.ceil(top - ascent)
        w = pad_x + math.ceil(right) + pad
        h = pad_y + ascent + math.ceil(bottom) + pad
        fill = Image.new("L", (w, h), 0)
        outline = Image.new("L", (w, h), 0) if halo else None
        color = None
        base_y = pad_y + ascent
        for r, box in zip(lay.runs, boxes):
            rf, kw, sw = r.font(size, bold), r.kwargs(), r.stroke(size, bold)
            if FACES[r.face].ppem:
                color = _draw_scaled_run(r, rf, kw, sw, box, (pad_x + r.x, base_y), fill,
                                         color, outline, halo)
                continue
            ImageDraw.Draw(fill).text((pad_x + r.x, base_y), r.text, font=rf, fill=255,
                                      anchor="ls", stroke_width=sw, stroke_fill=255, **kw)
            if halo:
                ImageDraw.Draw(outline).text((pad_x + r.x, base_y), r.text, font=rf, fill=255,
                                             anchor="ls", stroke_width=halo + sw,
                                             stroke_fill=255, **kw)
    return Text(fill, outline, pad_x, pad_y, lay.width, ascent, descent, size, color)


def _draw_scaled_run(r, rf, kw, sw, box, origin, fill, color, outline, halo):
    """A run of a face drawn at its one size (`Face.ppem`), scaled to the text's: into `fill`,
    or for a colour font onto `color` (RGBA, made on first use; returned); its shape widens
    the halo."""
    x0, y0, x1, y1 = (round(v / r.scale) for v in box)
    if x1 <= x0 or y1 <= y0:
        return color
    colored = FACES[r.face].color
    tile = Image.new("RGBA" if colored else "L", (x1 - x0, y1 - y0), 0)
    if colored:
        ImageDraw.Draw(tile).text((-x0, -y0), r.text, font=rf, anchor="ls", embedded_color=True,
                                  **kw)
    else:
        ImageDraw.Draw(tile).text((-x0, -y0), r.text, font=rf, anchor="ls", fill=255,
                                  stroke_width=sw, stroke_fill=255, **kw)
    w, h = max(1, round(tile.width * r.scale)), max(1, round(tile.height * r.scale))
    tile = tile.resize((w, h), Image.LANCZOS)
    at = (round(origin[0] + x0 * r.scale), round(origin[1] + y0 * r.scale))
    shape = tile.getchannel("A") if colored else tile
    if colored:
        if color is None:
            color = Image.new("RGBA", fill.size, (0, 0, 0, 0))
        layer = Image.new("RGBA", fill.size, (0, 0, 0, 0))
        layer.paste(tile, at)
        color = Image.alpha_composite(color, layer)
    else:
        fill.paste(255, at + (at[0] + w, at[1] + h), shape)
    if halo:
        grown = shape.filter(ImageFilter.MaxFilter(2 * halo + 1))
        outline.paste(255, at + (at[0] + w, at[1] + h), grown)
    return color


def _rasterise_simple(text, size, bold, halo):
    """Latin text: Noto Sans, basic layout, exactly as the picture has always drawn it."""
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
    return Text(fill, outline, pad, pad, width, ascent, descent, size)


def visible(text):
    """Whether anything of `text` is drawn (a name all of whose characters no font has is not)."""
    return bool(layout(text, 16).runs)


def width(text, size, bold=False, base=None):
    return layout(text, size, bold, base).width


def _cuts(text):
    """Where `text` may be cut: not inside a character cluster (before a combining mark, a
    joiner or a variation selector, after a Thai leading vowel, inside a flag)."""
    out = []
    for i in range(1, len(text) + 1):
        if i < len(text):
            nxt, prev = text[i], text[i - 1]
            if (unicodedata.category(nxt)[0] == "M" or nxt in _JOINERS or prev == "\u200d"
                    or ignorable(nxt) or 0x0E40 <= ord(prev) <= 0x0E44
                    or (_is_ri(prev) and _is_ri(nxt))):
                continue
        out.append(i)
    return out


def fit(text, size, bold, max_width, base=None):
    """`text`, shortened with an ellipsis until it is at most max_width pixels wide."""
    if width(text, size, bold, base) <= max_width:
        return text
    cuts = [0] + _cuts(text)
    lo, hi = 0, len(cuts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(text[:cuts[mid]].rstrip() + "…", size, bold, base) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:cuts[lo]].rstrip() + "…"


def fit_size(text, size, bold, max_width, smallest=10, base=None):
    """The largest size <= size at which text fits max_width (never below smallest)."""
    while size > smallest and width(text, size, bold, base) > max_width:
        size -= 1
    return size


def draw(img, x, y, text, size, fill, bold=False, halo=None, halo_width=3, align="left",
         valign="middle", base=None):
    """Draw `text` at (x, y): align left/center/right on x; valign top (ascender line),
    middle (middle of the capitals) or baseline on y; base: the paragraph direction (None:
    from the text; "rtl" for a right-to-left language's sentence). Returns the text's width.
    Inside `mirrored(img, ...)` the text is drawn at the mirrored place when that ends."""
    if not text:
        return 0
    m = getattr(_MIRRORS, "current", None)
    if m is not None and m.img is img:
        m.later.append(("text", (img, x, y, text, size, fill, bold, halo, halo_width, align,
                                 valign, base)))
        return width(text, size, bold, base)
    return _draw(img, x, y, text, size, fill, bold, halo, halo_width, align, valign, base)


def _draw(img, x, y, text, size, fill, bold, halo, halo_width, align, valign, base):
    t = rasterise(text, size, bold, halo_width if halo is not None else 0, base)
    if align == "center":
        x -= t.width / 2
    elif align == "right":
        x -= t.width
    if valign == "middle":
        y -= t.ascent - round(0.36 * size)
    elif valign == "baseline":
        y -= t.ascent
    # half up, not Python's half to even: a text centred at x and at x + 1 lands one pixel
    # apart, never the same pixel (an odd-width letter in two badges looked different)
    x0, y0 = math.floor(x + 0.5) - t.pad_x, math.floor(y + 0.5) - t.pad_y
    box = (x0, y0, x0 + t.fill.width, y0 + t.fill.height)
    if halo is not None:
        img.paste(halo, box, t.halo)
    img.paste(fill, box, t.fill)
    if t.color is not None:
        if img.mode in ("RGB", "RGBA"):
            img.paste(t.color, box, t.color)
        else:
            img.paste(fill, box, t.color.getchannel("A"))
    return t.width


# ----- right-to-left pages: a layout drawn as its mirror ---------------------------------------

_MIRRORS = threading.local()
_SWAP = {"left": "right", "right": "left", "center": "center"}


class _Mirror:
    def __init__(self, img, box):
        self.img, self.box, self.later = img, box, []


def paste(img, sprite, x, y):
    """Paste an RGBA sprite with its top left corner at (x, y) (mirrored inside `mirrored`)."""
    m = getattr(_MIRRORS, "current", None)
    if m is not None and m.img is img:
        m.later.append(("sprite", (sprite, x, y)))
        return
    img.paste(sprite, (round(x), round(y)), sprite)


@contextmanager
def mirrored(img, box):
    """Draw a part of `img` laid out left to right as its right-to-left mirror: the columns,
    tiles and rows in `box` (x0, y0, x1, y1, inclusive) run from the right. What the code
    draws with ImageDraw inside (boxes, rules, bars) is flipped with the pixels; text (`draw`)
    and sprites (`paste`) are not flipped but drawn afterwards at their mirrored place, text
    aligned to the other side, so letters, digits and card faces read as they should. The box
    is flipped once before (what an earlier mirrored pass drew there comes back the right way
    round for the code) and once after."""
    x0, y0, x1, y1 = (round(v) for v in box)
    area = (x0, y0, x1 + 1, y1 + 1)
    img.paste(img.crop(area).transpose(Image.Transpose.FLIP_LEFT_RIGHT), area[:2])
    m = _Mirror(img, (x0, y0, x1, y1))
    outer = getattr(_MIRRORS, "current", None)
    _MIRRORS.current = m
    try:
        yield m
    finally:
        _MIRRORS.current = outer
        img.paste(img.crop(area).transpose(Image.Transpose.FLIP_LEFT_RIGHT), area[:2])
        axis = x0 + x1
        for kind, args in m.later:
            if kind == "text":
                (img_, x, y, text, size, fill, bold, halo, halo_width, align, valign,
                 base) = args
                _draw(img_, axis - x, y, text, size, fill, bold, halo, halo_width, _SWAP[align],
                      valign, base)
            else:
                sprite, x, y = args
                paste(img, sprite, axis - x - sprite.width + 1, y)


RTL_LOCALES = frozenset(("fa", "ar", "he", "ur"))
FSI, PDI = "\u2068", "\u2069"      # first-strong isolate ... pop directional isolate


def isolate(name):
    """A player's name set into a sentence, isolated (U+2068 ... U+2069, as the Discord
    messages set it): it keeps its own direction and takes none from the sentence, and the
    sentence's direction is found outside it, so "پریسا to play" reads in English order, the
    name first, and never "to play پریسا". Nested in the Persian catalog's own isolates, it
    changes nothing there."""
    return FSI + name + PDI


def direction(locale):
    """The paragraph direction of the catalog's sentences in `locale` ("rtl" or None)."""
    return "rtl" if str(locale or "").split("-")[0].lower() in RTL_LOCALES else None
