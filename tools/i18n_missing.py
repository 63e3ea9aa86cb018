"""Which translations are missing or broken, per language, against the English catalog.

    python -m tools.i18n_missing [LOCALE ...]     (default: every language but English)

For each language it prints the keys that en.json has and the language lacks (they are shown in
English meanwhile), keys the language has that en.json lacks, and entries whose `{placeholders}`
differ from the English ones (or that are not valid format strings, or have plural forms where
English has none or the reverse). Exit status 1 if anything
is listed, 0 when every language is complete and consistent.
"""
import argparse
import json
import string
import sys
from pathlib import Path

from ttr_bot.i18n import DEFAULT, LOCALES, forms

ROOT = Path(__file__).resolve().parent.parent

CATALOG_DIR = ROOT / "ttr_bot" / "i18n"


def placeholders(text):
    """The set of field names in a str.format template ("{name}" -> {"name"}).
    Raises ValueError for a malformed template (a lone brace)."""
    return {field.split(".")[0].split("[")[0]
            for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def load(locale):
    path = CATALOG_DIR / f"{locale}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def check(locale, en):
    """(missing, extra, mismatched) for one language; mismatched is [(key, detail)]."""
    cat = load(locale)
    missing = [k for k in en if k not in cat]
    extra = [k for k in cat if k not in en]
    mismatched = []
    for key, text in cat.items():
        if key not in en:
            continue
        if isinstance(text, dict) != isinstance(en[key], dict):
            mismatched.append((key, "plural forms in one language, a string in the other"))
            continue
        if not all(isinstance(form, str) for form in forms(text)):
            mismatched.append((key, "not a string"))
            continue
        want = set().union(*map(placeholders, forms(en[key])))
        try:
            got = set().union(*map(placeholders, forms(text)))
        except ValueError as e:
            mismatched.append((key, f"not a valid format string: {e}"))
            continue
        if got != want:
            parts = []
            if want - got:
                parts.append("lacks " + ", ".join(f"{{{p}}}" for p in sorted(want - got)))
            if got - want:
                parts.append("has unknown " + ", ".join(f"{{{p}}}" for p in sorted(got - want)))
            mismatched.append((key, "; ".join(parts)))
    return missing, extra, mismatched


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("locales", nargs="*", help="languages to check (default: all but en)")
    args = parser.parse_args(argv)
    locales = args.locales or [loc for loc in LOCALES if loc != DEFAULT]
    en = load(DEFAULT)
    bad = False
    for loc in locales:
        missing, extra, mismatched = check(loc, en)
        done = len(en) - len(missing)
        print(f"{loc}: {done}/{len(en)} keys translated ({100 * done / max(len(en), 1):.1f}%)")
        for key in missing:
            print(f"  missing: {key}  (en: {en[key]!r})")
        for key in extra:
            print(f"  not in en.json: {key}")
        for key, detail in mismatched:
            print(f"  placeholders differ: {key}: {detail}")
        bad = bad or bool(missing or extra or mismatched)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
