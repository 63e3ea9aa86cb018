"""PNG bytes of a picture: 8-bit palette PNG, one palette per static page, solid colours exact.

A board is ~3,500 distinct colours: the solid ones of `palette.py` and the anti-aliased edges
and text between them; the 256 most frequent cover 98.7% of the pixels, and nothing is a
gradient. So each cached static page (map, page kind, language) gets its own palette, made
once with it (`make_palette`) from a sample of what that page can show: every solid colour
reserved, the rest filled by Pillow's fast octree from the colours of the sample, each counted
by the square root of its frequency so that the rarer edge shades get entries too. A turn
maps its picture onto that palette (nearest colour, no dithering) and writes a palette PNG at
zlib level 4.

Measured on the sample games (this machine, 2 cores; `python -m tools.bench render` for the
figures of the whole path): mapping onto the fixed palette 5-8 ms; zlib level 3 on the 8-bit
picture ~13 ms (level 1: 11-12 ms and 10% bigger), where the RGB PNG at level 1 took 70-110 ms;
156-208 KiB instead of 388-527. Level 4 came to cost 0-4 ms more than 3 on every page and writes
9-11% fewer bytes (Europe's map 139 -> 126 KiB; a whole 4-player game's ~9.7 MiB of pictures
came near the 10 MiB a game is allowed), level 5 3 ms more for 3% less, level 6 7 ms for 5%. Error against the drawn
picture: 0.15-0.2 levels per pixel on average, solid colours none. Rejected: Pillow's octree
per picture (25-50 ms, and it averages 4-bit buckets: every solid colour moves, the white card
and the page background become one; mean error 2 levels), median cut (280 ms) and max coverage
(130 ms) per picture, a palette from the static page alone (edge shades of the cars more
often off by more than 24 levels: 3-18x), Floyd-Steinberg dithering (36-66 ms, 10-30% bigger files,
solid areas speckled near their edges), libimagequant (not in Pillow's wheels).

Exact colours: Pillow's mapping looks a pixel up by its 4x4x4 cell of RGB values and takes
the entry nearest to the cell's low corner. A solid colour X therefore comes out as X when no
other entry is at least as near to X's corner as X is: `make_palette` drops the octree entries
that are, and `conflicts` lists the pairs of solid colours that are (a test keeps it empty).
"""
import io

from PIL import Image

from . import palette as P

LEVEL = 4            # zlib level: ~10% smaller than level 3 for 0-4 ms more a picture
RGB_LEVEL = 1        # the RGB encoding the palette PNG replaced (kept for the benchmark)
MAX_COLORS = 256
BUDGET = 256 * 1024  # the most a picture should weigh: over it, the levels of SMALLER in turn
SMALLER = (6, 9)     # zlib: ~15% smaller for ~0.1 s more, then ~20% for ~0.4 s (on 3.7 Mpx)


def _corner(rgb):
    return tuple(v & ~3 for v in rgb)


def _d2(a, b):
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def _reach(rgb):
    """Squared distance from a colour to the corner of its lookup cell."""
    return _d2(rgb, _corner(rgb))


def steals(entry, rgb):
    """Whether palette entry `entry` (a colour other than `rgb`) would take the pixels of
    `rgb` when both are in the palette, `rgb` first."""
    return entry != rgb and _d2(entry, _corner(rgb)) <= _reach(rgb)


def conflicts(colours):
    """[(a, b)]: solid colour a would be drawn as b if both were in one palette."""
    colours = list(dict.fromkeys(colours))
    return [(a, b) for a in colours for b in colours if steals(b, a)]


def make_palette(samples, reserved=None):
    """A 'P' image holding the palette for pictures that look like `samples` (RGB images):
    the `reserved` colours (default: every solid colour of palette.py), exact, then the octree
    colours of the samples that do not take any reserved colour's pixels."""
    reserved = list(dict.fromkeys(P.solid_colours() if reserved is None else reserved))
    counts = {}
    for img in samples:
        colours = img.getcolors(1 << 16)          # a few thousand; the bound sets the table size
        if colours is None:                       # not a drawing any more: count its octree
            colours = img.quantize(MAX_COLORS, method=Image.Quantize.FASTOCTREE).convert("RGB").getcolors()
        for n, rgb in colours:
            counts[rgb] = counts.get(rgb, 0) + n
    keep = set(reserved)
    weighted = b"".join(bytes(rgb) * max(1, round(n ** 0.5))
                        for rgb, n in sorted(counts.items()) if rgb not in keep)
    entries = list(reserved)
    room = MAX_COLORS - len(entries)
    if weighted and room > 0:
        strip = Image.frombytes("RGB", (len(weighted) // 3, 1), weighted)
        flat = strip.quantize(room, method=Image.Quantize.FASTOCTREE).getpalette()
        for i in range(min(room, len(flat) // 3)):
            rgb = tuple(flat[3 * i:3 * i + 3])
            if rgb not in entries and not any(steals(rgb, x) for x in reserved):
                entries.append(rgb)
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for rgb in entries for v in rgb])
    pal.load()          # the palette moves into the image now, not in the first worker thread
    # Pillow keeps its colour lookup cache (64^3 cells, 512 KiB) in the palette and fills it
    # as colours come: fill it now for what the samples hold, so that turns mostly read it.
    for img in samples:
        img.quantize(palette=pal, dither=Image.Dither.NONE)
    return pal


def encode(img, pal):
    """Palette PNG bytes of an RGB picture, mapped onto `pal` (from make_palette). A picture
    over BUDGET at LEVEL (the densest pages: the private and final boards of Italy and Northern
    Lights, Pennsylvania's final) is written again at the levels of SMALLER until it fits."""
    buf = io.BytesIO()
    mapped = img.quantize(palette=pal, dither=Image.Dither.NONE)
    mapped.save(buf, "PNG", compress_level=LEVEL)
    for level in SMALLER:
        if buf.tell() <= BUDGET:
            break
        buf = io.BytesIO()
        mapped.save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def encode_rgb(img):
    """The encoding before the palette PNG: RGB at zlib's fastest level."""
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=RGB_LEVEL)
    return buf.getvalue()
