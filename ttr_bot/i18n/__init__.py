"""The message catalog: every sentence a user reads comes from here, in their language.

Catalogs are JSON files beside this module (`en.json`, `th.json`, `fa.json`, `ja.json`), one flat
object of key -> text with `{name}` placeholders. English is complete and the fallback: a key
missing from another language is shown in English rather than failing.
"""
import json
from functools import lru_cache
from pathlib import Path

LOCALES = ("en", "th", "fa", "ja")
DEFAULT = "en"
_DIR = Path(__file__).parent


@lru_cache(maxsize=None)
def catalog(locale):
    path = _DIR / f"{locale}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def normalize(locale):
    """Discord locales ("en-US", "ja", "th", "fa"…) -> one of LOCALES."""
    if not locale:
        return DEFAULT
    base = str(locale).split("-")[0].lower()
    return base if base in LOCALES else DEFAULT


def t(key, locale=DEFAULT, **params):
    """The text for `key` in `locale`, with its parameters filled in."""
    text = catalog(normalize(locale)).get(key)
    if text is None:
        text = catalog(DEFAULT).get(key)
    if text is None:
        raise KeyError(f"message {key!r} is not in the catalog")
    return text.format(**params) if params else text


def reason(illegal, locale=DEFAULT):
    """A player-facing sentence for an engine `Illegal`."""
    return t("illegal." + illegal.key, locale, **illegal.params)
