"""The message catalog: every language file is well formed and consistent with English, `t()`
and `normalize()` behave, and every key the code uses exists in en.json.

A key English has and another language lacks is shown in English (by design), so it fails
nothing here except the coverage floor (`test_locale_covers_most_english_keys`); the missing
keys are reported as warnings, and `python -m tools.i18n_missing` lists them.
"""
import ast
import json
import re
import string
import warnings
from pathlib import Path

import pytest

from ttr_bot import i18n
from ttr_bot.engine.errors import Illegal
from ttr_bot.i18n import CATEGORIES, DEFAULT, LOCALES, forms, normalize, plural_categories, reason, t

REPO = Path(__file__).resolve().parent.parent

CATALOG_DIR = REPO / "ttr_bot" / "i18n"
CODE = sorted((REPO / "ttr_bot").rglob("*.py"))
OTHERS = [loc for loc in LOCALES if loc != DEFAULT]
COVERAGE_FLOOR = 0.95
FSI, PDI = "\u2068", "\u2069"          # Unicode first-strong isolate ... pop directional isolate


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dupes = sorted({k for k in keys if keys.count(k) > 1})
    if dupes:
        raise ValueError(f"duplicate keys: {dupes}")
    return dict(pairs)


def load(locale):
    """A catalog file read afresh (not the cached `i18n.catalog`), refusing duplicate keys."""
    text = (CATALOG_DIR / f"{locale}.json").read_text(encoding="utf-8")
    return json.loads(text, object_pairs_hook=_no_duplicates)


def placeholders(text):
    return {field.split(".")[0].split("[")[0]
            for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def placeholders_of(value):
    """The placeholders of a catalog value: a string's, or those its plural forms share
    (test_plural_forms_share_their_placeholders checks that they all have the same)."""
    return set().union(*(placeholders(text) for text in forms(value)))


EN = load(DEFAULT)
PLURAL_KEYS = sorted(k for k, v in EN.items() if isinstance(v, dict))
# a number in each CLDR category of each language (and beyond: 0, 1.5, 21, 101)
SAMPLES = (0, 1, 2, 3, 5, 11, 21, 101, 1.5)


# ----- the files -------------------------------------------------------------------------------
@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_is_a_flat_json_object_of_strings_or_plural_forms(locale):
    """key -> a non-empty string, or an object of plural forms with exactly the language's
    CLDR categories (English and Persian: one, other; Thai and Japanese: other)."""
    path = CATALOG_DIR / f"{locale}.json"
    assert path.exists(), f"{path.name} is missing"
    cat = load(locale)
    assert isinstance(cat, dict) and cat
    bad = [k for k, v in cat.items() if not isinstance(k, str)
           or not all(isinstance(text, str) and text for text in forms(v))]
    assert not bad, f"{locale}: keys whose text is not a non-empty string: {bad}"
    wrong = {k: sorted(v) for k, v in cat.items()
             if isinstance(v, dict) and set(v) != plural_categories(locale)}
    assert not wrong, f"{locale}: plural forms other than {sorted(plural_categories(locale))}: {wrong}"


def test_the_languages_plural_categories_are_cldrs():
    """Babel's CLDR rules, as the catalogs are written against them."""
    assert {loc: sorted(plural_categories(loc)) for loc in LOCALES} == {
        "en": ["one", "other"], "th": ["other"], "fa": ["one", "other"], "ja": ["other"]}
    assert all(set(plural_categories(loc)) <= set(CATEGORIES) for loc in LOCALES)


@pytest.mark.parametrize("locale", OTHERS)
def test_plural_in_english_is_plural_in_every_language(locale):
    """A key is a plural object in every catalog or in none (a string where English has forms
    would print the same text for 1 and 2)."""
    wrong = [k for k, v in load(locale).items() if k in EN and isinstance(v, dict) != (k in PLURAL_KEYS)]
    assert not wrong, wrong


@pytest.mark.parametrize("locale", LOCALES)
def test_plural_forms_share_their_placeholders(locale):
    wrong = {k: [sorted(placeholders(text)) for text in v.values()]
             for k, v in load(locale).items()
             if isinstance(v, dict) and len({frozenset(placeholders(text)) for text in v.values()}) > 1}
    assert not wrong, wrong


def test_plural_forms_print_their_count():
    """Every plural form shows the number it was chosen for (Persian's "one" covers 0 and 1)."""
    wrong = [(loc, k) for loc in LOCALES for k, v in load(loc).items()
             if isinstance(v, dict) and "count" not in placeholders_of(v)]
    assert not wrong, wrong


@pytest.mark.parametrize("locale", OTHERS)
def test_no_keys_that_english_lacks(locale):
    extra = sorted(set(load(locale)) - set(EN))
    assert not extra, f"{locale}.json has keys en.json does not: {extra}"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_entry_is_a_valid_format_string(locale):
    broken = []
    for key, value in load(locale).items():
        for text in forms(value):
            try:
                placeholders(text)
            except ValueError as e:
                broken.append(f"{key}: {e}")
    assert not broken, broken


@pytest.mark.parametrize("locale", OTHERS)
def test_placeholders_match_english(locale):
    wrong = {key: (sorted(placeholders_of(EN[key])), sorted(placeholders_of(text)))
             for key, text in load(locale).items()
             if key in EN and placeholders_of(text) != placeholders_of(EN[key])}
    assert not wrong, f"{locale}: key -> (English placeholders, translated placeholders): {wrong}"


@pytest.mark.parametrize("locale", OTHERS)
def test_markdown_and_commands_are_kept(locale):
    """Bold markers, code spans and slash commands (/ttr join) survive translation unchanged."""
    def marks(text):
        return (text.count("**"), text.count("__"), text.count("`"),
                sorted(re.findall(r"/ttr [a-z]+", text)))
    wrong = [key for key, value in load(locale).items() if key in EN
             and any(marks(text) != marks(forms(EN[key])[-1]) for text in forms(value))]
    assert not wrong, f"{locale}: Markdown or /ttr commands differ from English in {wrong}"


@pytest.mark.parametrize("locale", OTHERS)
def test_locale_covers_most_english_keys(locale):
    """English fallback is by design, so a few missing keys (just added to en.json) are fine;
    they are reported. Fails only below the coverage floor."""
    missing = sorted(set(EN) - set(load(locale)))
    if missing:
        warnings.warn(f"{locale}: {len(missing)} key(s) not translated yet (shown in English): "
                      f"{missing}", stacklevel=1)
    coverage = 1 - len(missing) / len(EN)
    assert coverage >= COVERAGE_FLOOR, \
        f"{locale} covers {coverage:.1%} of en.json (< {COVERAGE_FLOOR:.0%}); missing: {missing}"


# ----- rendering -------------------------------------------------------------------------------
@pytest.mark.parametrize("locale", LOCALES)
def test_every_key_renders_in_every_locale(locale):
    for key, value in EN.items():
        params = {name: 3 for name in placeholders_of(value)}
        for n in SAMPLES if isinstance(value, dict) else (None,):
            if n is not None:
                params["count"] = n
            out = t(key, locale, **params)
            assert isinstance(out, str) and out, key
            assert "{" not in out or "{" in forms(value)[-1].format(**params), \
                f"{locale}: {key} left a placeholder"


FAKE = {"en": {"x.cards": {"one": "{count} card", "other": "{count} cards"},
               "x.left": {"one": "{name}: {count} left", "other": "{name}: {count} left!"},
               "x.plain": "Trains: {count}"},
        "fa": {"x.cards": {"one": "{count} کارت", "other": "{count} کارت‌ها"}},
        "ja": {"x.cards": {"other": "カード{count}枚"}}}


@pytest.mark.parametrize("locale, n, expected", [
    ("en", 1, "1 card"), ("en", 0, "0 cards"), ("en", 2, "2 cards"), ("en", 1.5, "1.5 cards"),
    ("en", 21, "21 cards"),
    ("fa", 0, "0 کارت"), ("fa", 1, "1 کارت"), ("fa", 2, "2 کارت‌ها"),     # CLDR: i = 0 or n = 1
    ("ja", 1, "カード1枚"), ("ja", 2, "カード2枚"),
    ("th", 1, "1 card"),                                                   # no Thai text: English
])
def test_count_selects_the_plural_form_by_cldr(monkeypatch, locale, n, expected):
    monkeypatch.setattr(i18n, "catalog", lambda loc: FAKE.get(loc, {}))
    assert t("x.cards", locale, count=n) == expected


def test_plural_forms_take_other_parameters_and_plain_texts_take_count(monkeypatch):
    monkeypatch.setattr(i18n, "catalog", lambda loc: FAKE.get(loc, {}))
    assert t("x.left", "en", count=1, name="Ann") == "Ann: 1 left"
    assert t("x.left", "en", count=4, name="Ann") == "Ann: 4 left!"
    assert t("x.plain", "en", count=4) == "Trains: 4"
    with pytest.raises(TypeError):          # a plural text needs its number
        t("x.cards", "en")


def test_every_plural_key_is_given_its_count_in_the_code():
    """A call that names a plural key literally passes `count=` (a missing one would raise
    TypeError when the message is shown)."""
    missing, seen = [], 0
    for path, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args and _str(node.args[0]) in PLURAL_KEYS:
                seen += 1
                kws = {kw.arg for kw in node.keywords}
                if "count" not in kws and None not in kws:          # **params may carry it
                    missing.append(f"{path}:{node.lineno} {_str(node.args[0])}")
    assert not missing, missing
    assert seen >= 30                       # the scan sees the calls


@pytest.mark.parametrize("locale", LOCALES)
def test_engine_reasons_render(locale):
    assert reason(Illegal("keep_at_least", count=2), locale)
    assert reason(Illegal("record_no_route", a="Paris", b="Wien", color="red"), locale)


@pytest.mark.parametrize("discord_locale, expected", [
    ("en-US", "en"), ("en-GB", "en"), ("th", "th"), ("fa", "fa"), ("ja", "ja"),
    ("zh-CN", "en"), ("pt-BR", "en"), ("JA", "ja"), ("", "en"), (None, "en"),
])
def test_normalize_maps_discord_locales(discord_locale, expected):
    assert normalize(discord_locale) == expected


def test_missing_key_falls_back_to_english(monkeypatch):
    fake = {"en": {"x.hello": "Hello {name}", "x.only_en": "Only in English ({n})"},
            "th": {"x.hello": "สวัสดี {name}"}}
    monkeypatch.setattr(i18n, "catalog", lambda locale: fake.get(locale, {}))
    assert t("x.hello", "th", name="Ann") == "สวัสดี Ann"
    assert t("x.only_en", "th", n=2) == "Only in English (2)"
    assert t("x.only_en", "ja", n=2) == "Only in English (2)"      # no catalog at all
    assert t("x.hello", "zh-CN", name="Ann") == "Hello Ann"         # unsupported -> English
    with pytest.raises(KeyError):
        t("x.nowhere", "th")


@pytest.mark.parametrize("locale", LOCALES)
def test_unknown_key_raises_key_error(locale):
    with pytest.raises(KeyError):
        t("no.such.key", locale)


# ----- per-language conventions and Discord limits -------------------------------------------------
@pytest.mark.parametrize("locale", LOCALES)
def test_discord_limits(locale):
    """Command and option descriptions and choice names: 1-100 characters; button labels 80."""
    long = []
    for key, text in load(locale).items():
        if key.startswith(("bot.cmd.", "bot.opt.", "bot.map.", "bot.variant.", "bot.level.",
                           "bot.lang.", "bot.card.", "bot.choice.")) and \
                (not isinstance(text, str) or len(text) > 100):       # Discord's translator: strings
            long.append(key)
        if isinstance(text, dict):
            continue
        if key.startswith("bot.btn.") and len(text.format(cards="2 🟥 red, 1 🚂 loco")) > 80:
            long.append(key)
    assert not long, f"{locale}: too long for Discord: {long}"


@pytest.mark.parametrize("locale", LOCALES)
def test_card_letters_are_short_and_distinct(locale):
    """One letter, or two where a language's colour names share their first (Persian سفید,
    سبز, سیاه; Thai ดำ): they must fit a route's slot."""
    cat = {**EN, **load(locale)}
    letters = {k: v for k, v in cat.items() if k.startswith("render.letter.")}
    assert letters and all(1 <= len(v) <= 2 for v in letters.values()), letters
    assert len(set(letters.values())) == len(letters), letters


def test_persian_placeholders_are_bidi_isolated():
    """fa.json convention: every placeholder (and any Latin run such as /ttr commands) sits
    inside U+2068 ... U+2069, so names, routes and numbers keep their order in right-to-left
    text: in Discord texts and in picture labels (render.*) alike, whose bidi layout
    (render/bidi.py) resolves isolates and draws nothing for their marks."""
    wrong = []
    for key, value in load("fa").items():
        for text in forms(value):
            depth, ok = 0, True
            for ch in text:
                if ch == FSI:
                    depth += 1
                elif ch == PDI:
                    depth -= 1
                    ok = ok and depth >= 0
                elif ch == "{" and depth == 0:
                    ok = False
            if not ok or depth:
                wrong.append(key)
    assert not wrong, wrong


# ----- keys used by the code ---------------------------------------------------------------------
KEY = re.compile(r"(?:illegal|service|render|bot)\.[a-z0-9_]+(?:\.[a-z0-9_]+)*")
NOT_KEYS = re.compile(r".*\.(?:py|json|png|txt|md)$")          # file names such as "bot.py"
KEY_CALLS = {"t", "text", "ServiceError", "UserFacing"}        # first argument is a full key


def _name(func):
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _trees():
    for path in CODE:
        yield path.relative_to(REPO), ast.parse(path.read_text(encoding="utf-8"), str(path))


def _str(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _code_keys():
    """{key: [where]} for every catalog key written literally in ttr_bot/: any whole string
    literal shaped like a key (in calls, tuples, dicts...), the first argument of t()/text()/
    ServiceError()/UserFacing(), and engine reasons ("illegal." + the Illegal(...) key, also
    when the key comes from a helper, in any module, returning a literal or a module constant:
    `why = self.route_blocked(...); raise Illegal(why)`)."""
    found = {}

    def add(key, path, node):
        found.setdefault(key, []).append(f"{path}:{node.lineno}")

    trees = list(_trees())
    returns = {}                         # function name -> [(string it returns, path, node)]
    for path, tree in trees:
        constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                     for t in n.targets if isinstance(t, ast.Name) and _str(n.value) is not None}
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for r in ast.walk(fn):
                    if not isinstance(r, ast.Return) or r.value is None:
                        continue
                    value = _str(r.value)
                    if value is None and isinstance(r.value, ast.Name):
                        value = constants.get(r.value.id)
                    if value is not None:
                        returns.setdefault(fn.name, []).append((value, path, r))
    for path, tree in trees:
        in_fstring = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            s = _str(node)
            if s is not None and id(node) not in in_fstring and KEY.fullmatch(s) \
                    and not NOT_KEYS.match(s):
                add(s, path, node)
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name, first = _name(node.func), node.args[0]
            if name in KEY_CALLS and _str(first) is not None:
                add(_str(first), path, node)
            if name == "Illegal":
                if _str(first) is not None:
                    add("illegal." + _str(first), path, node)
        # raise Illegal(var) where var = helper(...): the helper's returned strings are reasons
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            sources = {}
            for a in ast.walk(fn):
                if isinstance(a, ast.Assign) and isinstance(a.value, ast.Call):
                    for target in a.targets:
                        if isinstance(target, ast.Name):
                            sources[target.id] = _name(a.value.func)
            for call in ast.walk(fn):
                if isinstance(call, ast.Call) and _name(call.func) == "Illegal" and call.args \
                        and isinstance(call.args[0], ast.Name):
                    helper = sources.get(call.args[0].id)
                    for value, where_path, r in returns.get(helper, ()):
                        add("illegal." + value, where_path, r)
    return found


def test_every_key_used_in_the_code_is_in_english():
    used = _code_keys()
    missing = {k: where for k, where in sorted(used.items()) if k not in EN}
    assert not missing, f"keys used in ttr_bot/ but missing from en.json: {missing}"
    # the scan really sees the code: each family is found
    for prefix in ("illegal.", "service.", "render.", "bot."):
        assert sum(k.startswith(prefix) for k in used) >= 5, prefix
    assert "illegal.route_taken" in used            # returned by a helper, raised as Illegal(why)


def test_keys_built_at_run_time_have_a_family_in_english():
    """f"render.col.{key}" / "bot.card." + name: the literal prefix names keys en.json has."""
    prefixes = {}
    for path, tree in _trees():
        for node in ast.walk(tree):
            head = None
            if isinstance(node, ast.JoinedStr) and node.values:
                head = _str(node.values[0])
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                head = _str(node.left)
            if head and re.fullmatch(r"(?:illegal|service|render|bot)\.(?:[a-z0-9_]+\.)*", head):
                prefixes.setdefault(head, []).append(f"{path}:{node.lineno}")
    assert prefixes
    orphan = {p: w for p, w in prefixes.items()
              if p != "illegal." and not any(k.startswith(p) for k in EN)}
    assert not orphan, f"key prefixes built in the code that match nothing in en.json: {orphan}"


# ----- one word per concept: the glossary -------------------------------------------------------
GLOSSARY = json.loads((CATALOG_DIR / "glossary.json").read_text(encoding="utf-8"))["concepts"]
SPACED = {"en", "fa"}          # scripts with spaces between words: terms match as whole words


def _glossary_pattern(regex, locale):
    if locale in SPACED:
        regex = rf"(?<!\w)(?:{regex})(?!\w)"
    return re.compile(regex, re.IGNORECASE if locale == "en" else 0)


def _readable(locale):
    """(key, text) for every text of a catalog, placeholders and bidi isolates taken out."""
    for key, value in load(locale).items():
        for text in forms(value):
            yield key, re.sub(r"\{[^}]*\}", " ", text).replace(FSI, "").replace(PDI, "")


def test_the_glossary_names_every_concept_in_every_language():
    assert {"ticket", "train car", "route", "claim", "station", "turn", "points", "locomotive",
            "deck", "face-up card", "tunnel", "ferry", "longest path", "computer player", "host",
            "lobby"} <= set(GLOSSARY)
    for concept, per in GLOSSARY.items():
        assert set(per) == set(LOCALES), concept
        for loc, entry in per.items():
            assert entry["term"] and isinstance(entry["rejected"], list), (concept, loc)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_catalog_speaks_the_glossary(locale):
    """Each concept's chosen term is used, and none of its rejected synonyms anywhere (Thai
    ตา not เทิร์น, Persian بلیت not کارت مقصد, Japanese ルート not 路線, ...)."""
    texts = list(_readable(locale))
    unused, rejected = [], []
    for concept, per in GLOSSARY.items():
        entry = per[locale]
        if not any(_glossary_pattern(entry["term"], locale).search(x) for _, x in texts):
            unused.append(concept)
        for regex in entry["rejected"]:
            pattern = _glossary_pattern(regex, locale)
            rejected += [f"{key}: {concept}: {m.group(0)!r}" for key, x in texts
                         for m in pattern.finditer(x)]
    assert not unused, f"{locale}: glossary terms the catalog never uses: {unused}"
    assert not rejected, f"{locale}: rejected synonyms in the catalog: {rejected}"
