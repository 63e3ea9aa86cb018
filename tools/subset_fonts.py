"""Build the fallback fonts of the board picture into ttr_bot/render/fonts/ (developers only).

    python -m tools.subset_fonts [--source-dir DIR] [--check]

The picture draws Latin, Greek and Cyrillic with Noto Sans, and falls back to Noto Sans Thai,
Noto Sans Arabic and Noto Sans CJK JP for what Noto Sans lacks (ttr_bot/render/text.py). This
script makes those files from Debian's font packages:

    apt-get install fonts-noto-core fonts-noto-cjk      (files land in /usr/share/fonts)

- Noto Sans Thai and Noto Sans Arabic (Regular, Bold) are copied unchanged;
- Noto Sans CJK JP (Regular, Bold) is cut out of the CJK collections and subset with fontTools
  to what a Japanese board needs: JIS X 0208 rows 1-5 and 8 (punctuation, symbols, full-width
  digits and letters, hiragana, katakana, box drawing), all level-1 kanji (rows 16-47), the
  CJK Symbols and Punctuation, Hiragana, Katakana and half-width/full-width forms blocks, and
  every character of ttr_bot/i18n/ja.json. A new kanji in ja.json outside level 1 is picked up
  by running this script again (tests/render/test_text.py fails until then);
- each family's SIL Open Font License is written next to it (OFL-<family>.txt), headed by the
  font's own copyright and version.

fontTools is a developer-only tool, not a dependency of the bot: `pip install fonttools`
(tested with fonttools 4.68.0). The output is deterministic (timestamps are kept), so running
the script again with the same sources changes nothing. Record the package versions it prints
in ttr_bot/render/fonts/SOURCES.md.

--check makes nothing: it lists the characters of the picture's sentences (`render.*`) in the
Thai, Persian and Japanese catalogs that no bundled font covers, and exits 1 if there are any.
"""
import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = ROOT / "ttr_bot" / "render" / "fonts"
I18N_DIR = ROOT / "ttr_bot" / "i18n"
OFL_TEXT = FONT_DIR / "OFL.txt"          # Noto Sans's licence file: the OFL text is taken from it

TRUETYPE = Path("/usr/share/fonts/truetype/noto")
OPENTYPE = Path("/usr/share/fonts/opentype/noto")

# (family for the licence file, output name, source name, Debian package)
COPIED = [
    ("NotoSansThai", "NotoSansThai-Regular.ttf", "NotoSansThai-Regular.ttf", "fonts-noto-core"),
    ("NotoSansThai", "NotoSansThai-Bold.ttf", "NotoSansThai-Bold.ttf", "fonts-noto-core"),
    ("NotoSansArabic", "NotoSansArabic-Regular.ttf", "NotoSansArabic-Regular.ttf",
     "fonts-noto-core"),
    ("NotoSansArabic", "NotoSansArabic-Bold.ttf", "NotoSansArabic-Bold.ttf", "fonts-noto-core"),
]
CJK = [
    ("NotoSansCJKjp", "NotoSansCJKjp-Regular-subset.otf", "NotoSansCJK-Regular.ttc",
     "fonts-noto-cjk"),
    ("NotoSansCJKjp", "NotoSansCJKjp-Bold-subset.otf", "NotoSansCJK-Bold.ttc", "fonts-noto-cjk"),
]
CJK_FAMILY = "Noto Sans CJK JP"
# The upstream LICENSE's line where the font's own copyright string says less (it omits the
# Reserved Font Name; the subset keeps the name "Noto Sans CJK JP", which does not use it).
COPYRIGHT = {"NotoSansCJKjp": "Copyright 2014-2021 Adobe (http://www.adobe.com/), "
                              "with Reserved Font Name 'Source'."}

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
    return {ch for key, text in data.items() if key.startswith(prefix) for ch in text}


def japanese_chars():
    chars = jis_x_0208(JIS_ROWS) | catalog_chars("ja")
    for lo, hi in BLOCKS:
        chars |= {chr(c) for c in range(lo, hi + 1)}
    return {ord(c) for c in chars if ord(c) > 0x7F}      # ASCII: Noto Sans


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


def build(source_dir):
    from fontTools import subset
    from fontTools.ttLib import TTCollection, TTFont

    FONT_DIR.mkdir(parents=True, exist_ok=True)
    families = {}
    for family, out, src, package in COPIED:
        path = (source_dir or TRUETYPE) / src
        shutil.copyfile(path, FONT_DIR / out)
        families.setdefault(family, (TTFont(path), [], package))[1].append(out)
    wanted = sorted(japanese_chars())
    for family, out, src, package in CJK:
        path = (source_dir or OPENTYPE) / src
        collection = TTCollection(path, recalcTimestamp=False)
        font = next(f for f in collection.fonts if f["name"].getDebugName(1) == CJK_FAMILY)
        options = subset.Options()
        options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]     # keep the copyright and licence
        options.notdef_outline = True
        sub = subset.Subsetter(options)
        sub.populate(unicodes=wanted)
        sub.subset(font)
        font.recalcTimestamp = False
        font.save(FONT_DIR / out)
        families.setdefault(family, (font, [], package))[1].append(out)
    for family, (font, files, package) in families.items():
        licence(family, font, files)
        print(f"{family}: {package} {debian_version(package)}; "
              f"{font['name'].getDebugName(5).split(';')[0]}")
        for f in files:
            print(f"    {f}: {(FONT_DIR / f).stat().st_size / 1024:.0f} KiB")
    print(f"Japanese subset: {len(wanted)} code points requested")


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
    ap.add_argument("--source-dir", type=Path,
                    help="folder holding the source fonts (default: Debian's font folders)")
    ap.add_argument("--check", action="store_true",
                    help="only check that the catalogs' characters are covered")
    args = ap.parse_args(argv)
    if args.check:
        return check()
    build(args.source_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
