"""Build the fallback fonts of the board picture into ttr_bot/render/fonts/ (developers only).

    python -m tools.subset_fonts [--root DIR] [--check]

The picture draws Latin, Greek and Cyrillic with Noto Sans, and falls back to the other files of
ttr_bot/render/fonts/ for what Noto Sans lacks (ttr_bot/render/text.py). This script makes
those files from Debian's font packages, installed or only unpacked:

    apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
    # or, without installing: apt-get download fonts-noto-core fonts-noto-cjk \
    #   fonts-noto-color-emoji && for d in *.deb; do dpkg-deb -x "$d" x; done
    #   and --root x

- Noto Sans Thai, Arabic, Hebrew, Devanagari, Bengali, Tamil, Armenian, Georgian (Regular,
  Bold), Noto Sans Math and Noto Sans Symbols 2 (Regular) are copied unchanged;
- Noto Sans CJK JP (Regular, Bold) is cut out of the CJK collections and subset with fontTools
  to what a Japanese board needs: JIS X 0208 rows 1-5 and 8 (punctuation, symbols, full-width
  digits and letters, hiragana, katakana, box drawing), all level-1 kanji (rows 16-47), the
  CJK Symbols and Punctuation, Hiragana, Katakana and half-width/full-width forms blocks, and
  every character of ttr_bot/i18n/ja.json. A new kanji in ja.json outside level 1 is picked up
  by running this script again (tests/render/test_text.py fails until then);
- a second cut of Noto Sans CJK JP, Regular only, is for players' names: what the first lacks
  of the whole JIS sets (JIS X 0208 levels 1 and 2, JIS X 0213, Windows' CP932 extensions such
  as 髙 and 﨑), Chinese GB 2312 (simplified) and Big5 (traditional), Korean KS X 1001 and all
  11,172 Hangul syllables with the jamo, and every ideograph of the supplementary planes the
  font has (CJK Extensions B to G: 2,365, 𠮷 among them). Bold names in it are emboldened when drawn (text.py);
  a Bold cut would add 11 MiB;
- Noto Color Emoji is subset to the emoji without skin-tone modifiers (text.py drops a
  modifier, so 👍🏽 draws 👍), and its colour bitmaps, 136 x 128 pixels at 109 ppem, are
  reduced to 40 ppem with 64 colours each: 2 MiB instead of 10.5, sharp at the picture's sizes;
- each family's SIL Open Font License is written next to it (OFL-<family>.txt), headed by the
  font's own copyright and version.

fontTools is not a dependency of the bot: it is pinned in requirements-dev.txt (this script
and the tests that read the fonts' cmaps with it). The output is deterministic (timestamps are kept), so running
the script again with the same sources changes nothing. Record the package versions it prints
in ttr_bot/render/fonts/SOURCES.md.

--check makes nothing: it lists the characters of the picture's sentences (`render.*`) in the
Thai, Persian and Japanese catalogs that no bundled font covers, and exits 1 if there are any.
"""
import argparse
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = ROOT / "ttr_bot" / "render" / "fonts"
I18N_DIR = ROOT / "ttr_bot" / "i18n"
OFL_TEXT = FONT_DIR / "OFL.txt"          # Noto Sans's licence file: the OFL text is taken from it

TRUETYPE = Path("usr/share/fonts/truetype/noto")       # under --root
OPENTYPE = Path("usr/share/fonts/opentype/noto")

# (family for the licence file, output name, source name, Debian package)
COPIED = [
    ("NotoSansThai", "NotoSansThai-Regular.ttf", "NotoSansThai-Regular.ttf", "fonts-noto-core"),
    ("NotoSansThai", "NotoSansThai-Bold.ttf", "NotoSansThai-Bold.ttf", "fonts-noto-core"),
    ("NotoSansArabic", "NotoSansArabic-Regular.ttf", "NotoSansArabic-Regular.ttf",
     "fonts-noto-core"),
    ("NotoSansArabic", "NotoSansArabic-Bold.ttf", "NotoSansArabic-Bold.ttf", "fonts-noto-core"),
] + [(f"NotoSans{family}", f"NotoSans{family}-{weight}.ttf", f"NotoSans{family}-{weight}.ttf",
      "fonts-noto-core")
     for family in ("Hebrew", "Devanagari", "Bengali", "Tamil", "Armenian", "Georgian")
     for weight in ("Regular", "Bold")] + [
    ("NotoSansMath", "NotoSansMath-Regular.ttf", "NotoSansMath-Regular.ttf", "fonts-noto-core"),
    ("NotoSansSymbols2", "NotoSansSymbols2-Regular.ttf", "NotoSansSymbols2-Regular.ttf",
     "fonts-noto-core"),
]
CJK = [
    ("NotoSansCJKjp", "NotoSansCJKjp-Regular-subset.otf", "NotoSansCJK-Regular.ttc",
     "fonts-noto-cjk"),
    ("NotoSansCJKjp", "NotoSansCJKjp-Bold-subset.otf", "NotoSansCJK-Bold.ttc", "fonts-noto-cjk"),
]
NAMES = ("NotoSansCJKjp", "NotoSansCJKjp-Regular-names.otf", "NotoSansCJK-Regular.ttc",
         "fonts-noto-cjk")
EMOJI = ("NotoColorEmoji", "NotoColorEmoji-40ppem.ttf", "NotoColorEmoji.ttf",
         "fonts-noto-color-emoji")
EMOJI_PPEM, EMOJI_COLOURS = 40, 64
CJK_FAMILY = "Noto Sans CJK JP"
# The upstream LICENSE's line where the font's own copyright string says less (it omits the
# Reserved Font Name; the subset keeps the name "Noto Sans CJK JP", which does not use it).
COPYRIGHT = {"NotoSansCJKjp": "Copyright 2014-2021 Adobe (http://www.adobe.com/), "
                              "with Reserved Font Name 'Source'."}

# The supplementary ideographic planes (CJK Extensions B to G and the Compatibility Ideographs
# Supplement): Noto Sans CJK JP 2.004 maps 2,365 of them (2,108 of Extension B), among them the
# name characters outside every double-byte set, such as 𠮷 (U+20BB7, the 吉 of 𠮷田 and 𠮷野家)
SIP = (0x20000, 0x323AF)
JIS_ROWS = list(range(1, 6)) + [8] + list(range(16, 48))     # 6-7 (Greek, Cyrillic): Noto Sans
BLOCKS = [(0x3000, 0x303F),      # CJK Symbols and Punctuation
          (0x3040, 0x309F),      # Hiragana
          (0x30A0, 0x30FF),      # Katakana
          (0x31F0, 0x31FF),      # Katakana Phonetic Extensions
          (0xFF01, 0xFF60),      # full-width forms
          (0xFF61, 0xFF9F),      # half-width katakana and punctuation
          (0xFFE0, 0xFFE6)]      # full-width signs


def jis_x_0208(rows):
    """The characters of these rows (ku) of JIS X 0208, through Python's EUC-JP codec."""
    out = set()
    for row in rows:
        for cell in range(1, 95):
            try:
                out.add(bytes([0xA0 + row, 0xA0 + cell]).decode("euc_jp"))
            except UnicodeDecodeError:
                pass
    return out


def catalog_chars(locale, prefix=""):
    data = json.loads((I18N_DIR / f"{locale}.json").read_text(encoding="utf-8"))
    return {ch for key, value in data.items() if key.startswith(prefix)
            for text in (value.values() if isinstance(value, dict) else [value]) for ch in text}


def japanese_chars():
    chars = jis_x_0208(JIS_ROWS) | catalog_chars("ja")
    for lo, hi in BLOCKS:
        chars |= {chr(c) for c in range(lo, hi + 1)}
    return {ord(c) for c in chars if ord(c) > 0x7F}      # ASCII: Noto Sans


def double_byte(codec, lead, trail, prefixes=(b"",)):
    """Every character a double-byte code (EUC or Shift JIS style) can encode."""
    out = set()
    for prefix in prefixes:
        for a in lead:
            for b in trail:
                try:
                    out.update((prefix + bytes([a, b])).decode(codec))
                except UnicodeDecodeError:
                    pass
    return out


def names_chars(already):
    """The characters of the names cut: the CJK sets players' names are written in."""
    euc = range(0xA1, 0xFF)
    chars = (double_byte("euc_jis_2004", euc, euc, (b"", b"\x8f"))     # JIS X 0208 + 0213
             | double_byte("cp932", range(0x81, 0xFD), range(0x40, 0xFD))
             | double_byte("gb2312", euc, euc)
             | double_byte("cp950", range(0x81, 0xFF), range(0x40, 0xFF))    # Big5
             | double_byte("euc_kr", euc, euc))                          # KS X 1001
    cps = {ord(c) for c in chars}
    for lo, hi in BLOCKS + [(0xAC00, 0xD7A3),      # Hangul syllables
                            (0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F),
                            (0xD7B0, 0xD7FF),      # jamo
                            (0x3100, 0x312F), (0x31A0, 0x31BF),   # bopomofo
                            (0x3200, 0x32FF),      # enclosed CJK letters
                            SIP]:                  # Ext B-G (what the font has of them)
        cps.update(range(lo, hi + 1))
    return {c for c in cps if c > 0x7F} - already


def subset_cjk(path, wanted):
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    collection = TTCollection(path, recalcTimestamp=False)
    font = next(f for f in collection.fonts if f["name"].getDebugName(1) == CJK_FAMILY)
    options = subset.Options()
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]     # keep the copyright and licence
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=wanted)
    sub.subset(font)
    font.recalcTimestamp = False
    return font


def emoji(path):
    """Noto Color Emoji without the skin-tone modifiers, its bitmaps reduced to EMOJI_PPEM."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    from PIL import Image

    font = TTFont(path, recalcTimestamp=False)
    wanted = [c for c in font["cmap"].getBestCmap() if not 0x1F3FB <= c <= 0x1F3FF]
    options = subset.Options()
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=wanted)
    sub.subset(font)
    strike = font["CBLC"].strikes[0].bitmapSizeTable
    k = EMOJI_PPEM / strike.ppemX
    for glyph in font["CBDT"].strikeData[0].values():
        glyph.decompile()
        im = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        w, h = max(1, round(im.width * k)), max(1, round(im.height * k))
        im = im.resize((w, h), Image.LANCZOS).quantize(EMOJI_COLOURS,
                                                      method=Image.Quantize.FASTOCTREE)
        out = io.BytesIO()
        im.save(out, "PNG", optimize=True)
        glyph.imageData = out.getvalue()
        m = glyph.metrics
        m.width, m.height = w, h
        m.BearingX, m.BearingY = round(m.BearingX * k), round(m.BearingY * k)
        m.Advance = round(m.Advance * k)
    strike.ppemX = strike.ppemY = EMOJI_PPEM
    for line in (strike.hori, strike.vert):
        for a in ("ascender", "descender", "widthMax", "minOriginSB", "minAdvanceSB",
                  "maxBeforeBL", "minAfterBL"):
            setattr(line, a, round(getattr(line, a) * k))
    font.recalcTimestamp = False
    return font


def debian_version(package):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def licence(family, font, files):
    """The OFL text headed by this family's copyright and version (from its name table)."""
    name = font["name"]
    body = OFL_TEXT.read_text(encoding="utf-8")
    body = body[body.index("This Font Software is licensed"):]
    head = (f"{name.getDebugName(1)} ({', '.join(files)}), "
            f"{name.getDebugName(5).split(';')[0]}\n"
            f"{COPYRIGHT.get(family, name.getDebugName(0))}\n\n")
    (FONT_DIR / f"OFL-{family}.txt").write_text(head + body, encoding="utf-8")


def build(root):
    from fontTools.ttLib import TTFont

    FONT_DIR.mkdir(parents=True, exist_ok=True)
    families = {}
    for family, out, src, package in COPIED:
        path = root / TRUETYPE / src
        shutil.copyfile(path, FONT_DIR / out)
        families.setdefault(family, (TTFont(path), [], package))[1].append(out)
    wanted = sorted(japanese_chars())
    for family, out, src, package in CJK:
        font = subset_cjk(root / OPENTYPE / src, wanted)
        font.save(FONT_DIR / out)
        families.setdefault(family, (font, [], package))[1].append(out)
    covered = set(TTFont(FONT_DIR / "NotoSans-Regular.ttf")["cmap"].getBestCmap()) | set(wanted)
    names = sorted(names_chars(covered))
    family, out, src, package = NAMES
    font = subset_cjk(root / OPENTYPE / src, names)
    font.save(FONT_DIR / out)
    families[family][1].append(out)
    family, out, src, package = EMOJI
    font = emoji(root / TRUETYPE / src)
    font.save(FONT_DIR / out)
    families[family] = (font, [out], package)
    for family, (font, files, package) in families.items():
        licence(family, font, files)
        print(f"{family}: {package} {debian_version(package)}; "
              f"{font['name'].getDebugName(5).split(';')[0]}")
        for f in files:
            print(f"    {f}: {(FONT_DIR / f).stat().st_size / 1024:.0f} KiB")
    print(f"Japanese subset: {len(wanted)} code points requested; names cut: {len(names)}")


def check():
    from ttr_bot.render import text as T
    missing = {}
    for locale in ("th", "fa", "ja"):
        for ch in sorted(catalog_chars(locale, "render.")):
            if T.face_of(ch) is None and not T.ignorable(ch):
                missing.setdefault(locale, []).append(ch)
    for locale, chars in missing.items():
        print(f"{locale}: not in any bundled font: {' '.join(chars)} "
              f"({' '.join(f'U+{ord(c):04X}' for c in chars)})")
    if not missing:
        print("every character of the render.* sentences of th, fa and ja is covered")
    return 1 if missing else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("/"),
                    help="where Debian's font packages are installed or unpacked (default: /)")
    ap.add_argument("--check", action="store_true",
                    help="only check that the catalogs' characters are covered")
    args = ap.parse_args(argv)
    if args.check:
        return check()
    build(args.root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
