"""The message catalog: every sentence a user reads comes from here, in their language.

Catalogs are JSON files beside this module (`en.json`, `th.json`, `fa.json`, `ja.json`), one flat
object of key -> text with `{name}` placeholders. English is complete and the fallback: a key
missing from another language is shown in English rather than failing.

**Plurals.** A text that prints a count is an object keyed by CLDR plural category instead of a
string: `{"one": "{count} card", "other": "{count} cards"}` (categories "zero", "one", "two",
"few", "many", "other"; "other" is always there). `t(key, locale, count=n, ...)` picks the form
for `n` by the language's CLDR rule and fills `{count}` with it; a plain string ignores `count`
but may still use `{count}`. Each catalog has exactly its language's categories (English and
Persian: one/other; Thai and Japanese: other only); tests/test_i18n.py checks it.

The rules come from Babel (`babel.Locale(locale).plural_form`), chosen over the alternatives
because it is the CLDR data itself, released with every CLDR release (the python-babel project;
pure Python, no dependency of its own): gettext's `ngettext` would need .po/.mo catalogs and a
hand-copied `Plural-Forms` formula per language (the rule written by us again), and Project
Fluent's Python runtime is a second message format on top of ours that itself depends on Babel
for the same rules. Babel is only asked for the rule, once per language (`plural_rule`, cached);
picking a form is a cached look-up of the number's category (`plural_category`) and of the form.

**One word per concept.** `glossary.json` beside the catalogs names, for each game concept
(ticket, train car, route, claim, turn, points…), the term each language uses and the synonyms
it must not; tests/test_i18n.py holds every catalog to it.
"""
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from babel import Locale

LOCALES = ("en", "th", "fa", "ja")
DEFAULT = "en"
CATEGORIES = ("zero", "one", "two", "few", "many", "other")      # CLDR's, in its order
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


@lru_cache(maxsize=None)
def plural_rule(locale: str) -> Callable[[int | float], str]:
    """CLDR's cardinal plural rule of `locale`: a number -> its category ("one", "other"...)."""
    return Locale.parse(locale).plural_form


@lru_cache(maxsize=4096)
def plural_category(locale: str, n: int | float) -> str:
    """The CLDR category of `n` in `locale` ("one", "other"...), remembered: the counts a game
    prints are few (cards, trains, points), so t() rarely asks Babel twice."""
    return plural_rule(locale)(n)


def plural_categories(locale: str) -> frozenset[str]:
    """The categories `locale`'s catalog must give a plural text ("other" always among them)."""
    return frozenset(Locale.parse(locale).plural_form.tags) | {"other"}


def forms(value) -> list[str]:
    """Every text of one catalog value: the string itself, or each plural form."""
    return list(value.values()) if isinstance(value, dict) else [value]


def t(key, locale=DEFAULT, count=None, **params):
    """The text for `key` in `locale`, with its parameters filled in; a plural text takes the
    form for `count` (also usable as `{count}`)."""
    loc = normalize(locale)
    text = catalog(loc).get(key)
    if text is None:
        loc = DEFAULT
        text = catalog(DEFAULT).get(key)
    if text is None:
        raise KeyError(f"message {key!r} is not in the catalog")
    if count is not None:
        params["count"] = count
    if type(text) is dict:
        if count is None:
            raise TypeError(f"message {key!r} has plural forms: give it count=")
        text = text.get(plural_category(loc, count)) or text["other"]
    return text.format(**params) if params else text


def reason(illegal, locale=DEFAULT):
    """A player-facing sentence for an engine `Illegal`."""
    return t("illegal." + illegal.key, locale, **illegal.params)
