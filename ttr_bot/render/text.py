"""Text on the picture: every string goes through `draw` (or `rasterise`, `width`, `fit`).

Fonts (all SIL OFL 1.1, `fonts/`, see fonts/SOURCES.md), tried in this order for each character:

    Noto Sans          Latin, Greek, Cyrillic (and the replacement sign)
    Noto Sans Thai     Thai
    Noto Sans Arabic   Arabic script, Persian letters included
    Noto Sans CJK JP   Japanese: kana, punctuation, full-width forms, JIS level-1 kanji and every
                       character of the Japanese catalog (a subset: tools/subset_fonts.py)

A string is cut into runs by the font that has each character: letters take the first font
that has them; spaces, digits and punctuation stay with the font of their neighbours when it has
them (so a Thai or Persian sentence keeps its own spaces); combining marks stay with their base.
What no font has (emoji, Hangul, rare kanji...) becomes one replacement sign (U+FFFD) per
character or emoji sequence — never a .notdef box; invisible format characters are dropped.

Right-to-left text (Persian, Arabic) is ordered by the Unicode bidirectional algorithm
(`levels`: rules W1-W7, N0-N2, I1-I2, L1-L2 for one line without explicit embeddings), with the
paragraph direction found from the first strong letter or given by the caller (`base="rtl"` for
Persian sentences, whose first word may be a Latin name). Each run is shaped by libraqm
(HarfBuzz: Thai marks, Arabic joining, mirrored brackets), measured and drawn in visual order on
one baseline. Latin runs that need no shaping keep the basic layout engine, so a Latin string is
drawn exactly as before (same pixels on every machine, with or without libraqm). Without libraqm
(Pillow built without it, or no libfribidi on the system) every run falls back to the basic
engine: Thai and Japanese still draw, Arabic letters lose their joined forms.

Layouts (runs and widths) and the rasterised grey masks are kept in bounded LRU caches: drawing
a text seen before is one paste.
"""
import io
import math
import struct
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "NotoSans-Regular.ttf"
BOLD = FONT_DIR / "NotoSans-Bold.ttf"

# FreeType faces are not safe to use from two threads at once: every rasterisation holds this.
_FT_LOCK = threading.Lock()

HAVE_RAQM = features.check("raqm")
REPLACEMENT = "\ufffd"        # drawn for what no bundled font has; Noto Sans has it


class Face:
    """One font family of the fallback chain: its Regular and Bold files."""

    def __init__(self, name, regular, bold):
        self.name = name
        self.files = (FONT_DIR / regular, FONT_DIR / bold)


FACES = (
    Face("latin", "NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    Face("thai", "NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf"),
    Face("arabic", "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"),
    Face("japanese", "NotoSansCJKjp-Regular-subset.otf", "NotoSansCJKjp-Bold-subset.otf"),
)
LATIN = 0


# ----- fonts and what they cover ---------------------------------------------------------------

@lru_cache(maxsize=None)
def _font_bytes(face, bold):
    return FACES[face].files[bool(bold)].read_bytes()


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


@lru_cache(maxsize=64)
def font(size, bold=False):
    """Noto Sans at this pixel size, basic layout: the font of all Latin text."""
    return ImageFont.truetype(io.BytesIO(_font_bytes(LATIN, bold)), size,
                              layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=256)
def face_font(face, size, bold=False, shaped=True):
    """A face at this size; `shaped`: laid out by libraqm (where Pillow has it). Opened by
    path: FreeType maps the file, shared by all sizes, where a font given as bytes would keep
    its own copy (2 MB for each size of the Japanese font)."""
    if face == LATIN and not shaped:
        return font(size, bold)
    engine = ImageFont.Layout.RAQM if shaped and HAVE_RAQM else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(FACES[face].files[bool(bold)]), size, layout_engine=engine)


def ignorable(ch):
    """Characters that are dropped when no font has them: format and control characters,
    variation selectors, emoji modifiers and tags."""
    cp = ord(ch)
    return (unicodedata.category(ch) in ("Cf", "Cc") or 0xFE00 <= cp <= 0xFE0F
            or 0xE0100 <= cp <= 0xE01EF or 0x1F3FB <= cp <= 0x1F3FF)


@lru_cache(maxsize=4096)
def face_of(ch):
    """The first face that has this character, or None."""
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


def segment(text):
    """[(character, face)] to draw for `text`: uncovered characters and emoji sequences
    replaced, ignorable ones dropped, neutral characters kept with their neighbours' face."""
    out = []
    replaced = False          # the last character out is a replacement: absorb what joins it
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        if ch in _JOINERS:
            if replaced:
                if ch == "\u200d" and i < n:
                    i += 1                          # ZWJ sequence: one replacement for all
                continue
            if out and ord(ch) in coverage(out[-1][1]):
                out.append((ch, out[-1][1]))        # e.g. ZWNJ inside a Persian word
            continue
        if ignorable(ch):
            continue
        if unicodedata.category(ch)[0] == "M":
            if replaced:
                continue
            if out and ord(ch) in coverage(out[-1][1]):
                out.append((ch, out[-1][1]))
            else:
                face = face_of(ch)
                if face is not None:
                    out.append((ch, face))
            continue
        face = face_of(ch)
        if face is None:
            if _is_ri(ch) and i < n and _is_ri(text[i]):
                i += 1                              # a flag: two regional indicators
            out.append((REPLACEMENT, LATIN))
            replaced = True
            continue
        replaced = False
        out.append((ch, face))
    # neutrals (spaces, digits, punctuation) take a neighbour's face when it has them
    for j, (ch, face) in enumerate(out):
        if ch == REPLACEMENT or unicodedata.bidirectional(ch) not in _NEUTRAL:
            continue
        cp = ord(ch)
        if j and out[j - 1][1] != face and cp in coverage(out[j - 1][1]):
            out[j] = (ch, out[j - 1][1])
            continue
        if j == 0 or out[j - 1][1] != face:
            nxt = next((f for c, f in out[j + 1:]
                        if unicodedata.bidirectional(c) not in _NEUTRAL), None)
            if nxt is not None and nxt != face and cp in coverage(nxt):
                out[j] = (ch, nxt)
    return out


# ----- the bidirectional algorithm (one line, no explicit embeddings) --------------------------

_STRONG = {"L": "L", "R": "R", "AL": "R"}
_PAIRS = {"(": ")", "[": "]", "{": "}", "«": "»", "‹": "›", "（": "）", "［": "］", "｛": "｝",
          "「": "」", "『": "』", "【": "】", "〔": "〕", "〈": "〉", "《": "》", "⁅": "⁆"}
_CLOSERS = {v: k for k, v in _PAIRS.items()}
_MIRROR = dict(list(_PAIRS.items()) + list(_CLOSERS.items()) + [("<", ">"), (">", "<")])


def paragraph_level(chars, base=None):
    """0 (left to right) or 1 (right to left): `base` if given, else the first strong letter's."""
    if base in ("rtl", "ltr"):
        return 1 if base == "rtl" else 0
    for ch in chars:
        t = unicodedata.bidirectional(ch)
        if t in ("L", "R", "AL"):
            return 0 if t == "L" else 1
    return 0


def levels(chars, para):
    """The embedding level of each character (UBA rules W1-W7, N0-N2, I1-I2 and L1)."""
    n = len(chars)
    e = "R" if para else "L"
    types = []
    for ch in chars:
        t = unicodedata.bidirectional(ch) or "L"
        if t in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"):
            t = "BN"
        types.append(t)
    orig = list(types)
    prev = e
    for i, t in enumerate(types):                 # W1 (and BN, which X9 would have removed)
        if t in ("NSM", "BN"):
            types[i] = prev
        prev = types[i]
    strong = e
    for i, t in enumerate(types):                 # W2, W3
        if t == "EN" and strong == "AL":
            types[i] = "AN"
        if t in ("L", "R", "AL"):
            strong = t
        if t == "AL":
            types[i] = "R"
    for i in range(1, n - 1):                     # W4
        a, t, b = types[i - 1], types[i], types[i + 1]
        if t == "ES" and a == b == "EN":
            types[i] = "EN"
        elif t == "CS" and a == b and a in ("EN", "AN"):
            types[i] = a
    i = 0
    while i < n:                                  # W5
        if types[i] == "ET":
            j = i
            while j < n and types[j] == "ET":
                j += 1
            if (i > 0 and types[i - 1] == "EN") or (j < n and types[j] == "EN"):
                types[i:j] = ["EN"] * (j - i)
            i = j
        else:
            i += 1
    strong = e
    for i, t in enumerate(types):                 # W6, W7
        if t in ("ES", "ET", "CS"):
            types[i] = "ON"
        elif t == "EN" and strong == "L":
            types[i] = "L"
        if t in ("L", "R"):
            strong = t
    _brackets(chars, types, e)                    # N0
    dir_of = lambda t: "R" if t in ("R", "EN", "AN") else t       # noqa: E731
    i = 0
    while i < n:                                  # N1, N2
        if types[i] in ("L", "R", "EN", "AN"):
            i += 1
            continue
        j = i
        while j < n and types[j] not in ("L", "R", "EN", "AN"):
            j += 1
        before = dir_of(types[i - 1]) if i else e
        after = dir_of(types[j]) if j < n else e
        types[i:j] = [before if before == after else e] * (j - i)
        i = j
    out = []
    for t in types:                               # I1, I2
        if para % 2 == 0:
            out.append(para + (1 if t == "R" else 2 if t in ("AN", "EN") else 0))
        else:
            out.append(para + (1 if t in ("L", "EN", "AN") else 0))
    for i in range(n - 1, -1, -1):                # L1: trailing whitespace
        if orig[i] in ("WS", "S", "B", "BN"):
            out[i] = para
        else:
            break
    return out


def _brackets(chars, types, e):
    """N0: a pair of brackets takes the direction of what it holds (or of its context)."""
    stack, pairs = [], []
    for i, ch in enumerate(chars):
        if types[i] != "ON":
            continue
        if ch in _PAIRS:
            stack.append((ch, i))
        elif ch in _CLOSERS:
            for k in range(len(stack) - 1, -1, -1):
                if stack[k][0] == _CLOSERS[ch]:
                    pairs.append((stack[k][1], i))
                    del stack[k:]
                    break
    opposite = "L" if e == "R" else "R"
    for o, c in sorted(pairs):
        inside = {("R" if t in ("EN", "AN") else t) for t in types[o + 1:c]} & {"L", "R"}
        if not inside:
            continue
        if e in inside:
            d = e
        else:
            before = next((("R" if t in ("EN", "AN") else t) for t in reversed(types[:o])
                           if t in ("L", "R", "EN", "AN")), e)
            d = opposite if before == opposite else e
        types[o] = types[c] = d


def reorder(runs):
    """L2: the runs [(level, ...)] in visual order, left to right."""
    runs = list(runs)
    if not runs:
        return runs
    top = max(r[0] for r in runs)
    low = min(r[0] for r in runs)
    low += (low + 1) % 2                          # the lowest odd level
    for lvl in range(top, low - 1, -1):
        i = 0
        while i < len(runs):
            if runs[i][0] >= lvl:
                j = i
                while j < len(runs) and runs[j][0] >= lvl:
                    j += 1
                runs[i:j] = runs[i:j][::-1]
                i = j
            else:
                i += 1
    return runs


# ----- layout: runs, positions, width (cached) ---------------------------------------------------

class Run:
    """Part of a laid-out string in one face and direction, at x along the baseline."""
    __slots__ = ("text", "face", "rtl", "shaped", "x", "width")

    def __init__(self, text, face, rtl, shaped, x, width):
        self.text, self.face, self.rtl, self.shaped = text, face, rtl, shaped
        self.x, self.width = x, width

    def font(self, size, bold):
        return face_font(self.face, size, bold, self.shaped)

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
    chars = [c for c, _ in seg]
    para = paragraph_level(chars, base)
    lv = levels(chars, para)
    logical = []                                  # [level, face, text]
    for (ch, face), level in zip(seg, lv):
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
            run = Run(s, face, rtl, shaped, x, 0.0)
            run.width = run.font(size, bold).getlength(s, **run.kwargs())
            runs.append(run)
            x += run.width
    return Layout(tuple(runs), math.ceil(x), False)


# ----- rasterising and drawing ----------------------------------------------------------------

class Text:
    """A rasterised string: `fill` (and `halo`, the outline behind it) are L masks in which
    (pad_x, pad_y) is the left end of the ascender line (of Noto Sans at this size)."""
    __slots__ = ("fill", "halo", "pad_x", "pad_y", "width", "ascent", "descent", "size")

    def __init__(self, fill, halo, pad_x, pad_y, width, ascent, descent, size):
        self.fill, self.halo, self.pad_x, self.pad_y = fill, halo, pad_x, pad_y
        self.width, self.ascent, self.descent, self.size = width, ascent, descent, size

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
        for r in lay.runs:                        # room for taller glyphs, overhangs
            x0, y0, x1, y1 = r.font(size, bold).getbbox(r.text, anchor="ls", **r.kwargs())
            top, bottom = max(top, -y0), max(bottom, y1)
            left, right = min(left, r.x + x0), max(right, r.x + x1)
        pad_x = pad + math.ceil(-left)
        pad_y = pad + math.ceil(top - ascent)
        w = pad_x + math.ceil(right) + pad
        h = pad_y + ascent + math.ceil(bottom) + pad
        fill = Image.new("L", (w, h), 0)
        outline = Image.new("L", (w, h), 0) if halo else None
        base_y = pad_y + ascent
        for r in lay.runs:
            rf, kw = r.font(size, bold), r.kwargs()
            ImageDraw.Draw(fill).text((pad_x + r.x, base_y), r.text, font=rf, fill=255,
                                      anchor="ls", **kw)
            if halo:
                ImageDraw.Draw(outline).text((pad_x + r.x, base_y), r.text, font=rf, fill=255,
                                             anchor="ls", stroke_width=halo, stroke_fill=255, **kw)
    return Text(fill, outline, pad_x, pad_y, lay.width, ascent, descent, size)


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
    from the text; "rtl" for a right-to-left language's sentence). Returns the text's width."""
    if not text:
        return 0
    t = rasterise(text, size, bold, halo_width if halo is not None else 0, base)
    if align == "center":
        x -= t.width / 2
    elif align == "right":
        x -= t.width
    if valign == "middle":
        y -= t.ascent - round(0.36 * size)
    elif valign == "baseline":
        y -= t.ascent
    x0, y0 = round(x) - t.pad_x, round(y) - t.pad_y
    box = (x0, y0, x0 + t.fill.width, y0 + t.fill.height)
    if halo is not None:
        img.paste(halo, box, t.halo)
    img.paste(fill, box, t.fill)
    return t.width


RTL_LOCALES = frozenset(("fa", "ar", "he", "ur"))


def direction(locale):
    """The paragraph direction of the catalog's sentences in `locale` ("rtl" or None)."""
    return "rtl" if str(locale or "").split("-")[0].lower() in RTL_LOCALES else None
