"""The picture's bidirectional ordering against Unicode's own conformance test,
BidiCharacterTest.txt (UCD 15.0.0, tests/data/unicode/, with its licence): every line's
resolved levels and visual order, explicit embeddings, overrides and isolates included, through
FriBidi; the smaller fallback (no FriBidi on the system) on the lines it supports."""
import gzip
import os
import unicodedata
from pathlib import Path

import pytest

from ttr_bot.render import bidi

DATA = Path(__file__).resolve().parents[1] / "data" / "unicode"
TEST_FILE = DATA / "BidiCharacterTest-15.0.0.txt.gz"
BASE = {"0": "ltr", "1": "rtl", "2": None}
# CI installs libfribidi (.ci/run) and sets TTR_REQUIRE_FRIBIDI=1: there these tests never skip
needs_fribidi = pytest.mark.skipif(
    not bidi.HAVE_FRIBIDI and os.environ.get("TTR_REQUIRE_FRIBIDI") != "1",
    reason="no libfribidi on this system")


def cases():
    with gzip.open(TEST_FILE, "rt", encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            cps, direction, para, levels, order = line.split(";")
            text = "".join(chr(int(c, 16)) for c in cps.split())
            levels = [None if v == "x" else int(v) for v in levels.split()]
            order = [int(v) for v in order.split()]
            yield number, text, BASE[direction], int(para), levels, order


def visual(levels):
    """Indices of the characters with a level, in visual order (rule L2)."""
    runs = bidi.reorder([(lv, i) for i, lv in enumerate(levels) if lv is not None])
    return [i for _, i in runs]


def known(text):
    """Python's Unicode tables (unicodedata) know every character: the fallback reads them."""
    return all(unicodedata.bidirectional(c) or unicodedata.category(c) != "Cn" for c in text)


def check(use_fribidi, wanted):
    failures, checked = [], 0
    for number, text, base, para, levels, order in cases():
        if not wanted(text):
            continue
        checked += 1
        got_para, got = bidi.resolve(text, base, use_fribidi=use_fribidi)
        got = [None if want is None else lv for lv, want in zip(got, levels)]
        if got_para != para or got != levels or visual(got) != order:
            failures.append((number, " ".join(f"{ord(c):04X}" for c in text), base, levels, got))
    return checked, failures


@needs_fribidi
def test_fribidi_passes_every_line_of_the_conformance_file():
    checked, failures = check(True, lambda text: True)
    assert checked > 90_000
    assert failures == [], f"{len(failures)} of {checked} lines differ, first: {failures[:3]}"


def test_the_file_exercises_isolates_and_embeddings():
    marks = {"\u2066", "\u2067", "\u2068", "\u2069", "\u202a", "\u202b", "\u202c"}
    assert sum(1 for _, text, *_ in cases() if marks & set(text)) >= 100


def _plain(text):
    classes = {bidi.bidi_class(c) for c in text}
    return known(text) and not classes & (bidi._EXPLICIT | bidi._ISOLATES | {"BN"})


def test_the_fallback_passes_the_lines_without_explicit_marks():
    checked, failures = check(False, _plain)
    assert checked > 40_000
    assert failures == [], f"{len(failures)} of {checked} lines differ, first: {failures[:3]}"


@needs_fribidi
def test_an_isolated_number_keeps_its_sign_in_a_persian_sentence():
    """"(+7)" after Persian words: isolated, the sign stays before the digit when read."""
    text = "مسیر را ادعا کرد (\u2066+7\u2069)"
    para, levels = bidi.resolve(text, "rtl")
    order = "".join(text[i] for i in visual(levels))
    assert para == 1
    assert "+7" in order                       # left to right inside the isolate
    unisolated = "مسیر را ادعا کرد (+7)"
    _, lv = bidi.resolve(unisolated, "rtl")
    assert "7+" in "".join(unisolated[i] for i in visual(lv))     # what players saw before
