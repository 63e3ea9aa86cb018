"""Any Discord display name is drawn without tofu: every character of a name in each script
players use is drawn from a font whose own cmap (read by fontTools, not by text.py) maps it to
a real glyph, nothing visible is lost, emoji come in colour, and on the board a name's letters
show (two names of the same length draw differently)."""
import io

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops

from testkit.sample_games import PLAYERS, random_game
from ttr_bot.render import render_board, render_final
from ttr_bot.render import text as T

NAMES = {
    "latin": "Amélie Dörte Łukasz",
    "vietnamese": "Nguyễn Thị Hương",
    "cyrillic": "Дмитрий Ёлкин",
    "greek": "Γιώργος Παπαδόπουλος",
    "persian": "پریسا رضایی",
    "arabic": "محمد عبد الله",
    "hebrew": "דוד כהן",
    "thai": "สมชาย ใจดี",
    "devanagari": "राहुल शर्मा",
    "japanese": "齋藤 髙橋 﨑 さくら",
    # CJK Extension B: 𠮷 (U+20BB7, the "tsuchi-yoshi" of 𠮷田, Yoshida), in no double-byte
    # set; 𠮟 (U+20B9F) and 𠀋 (U+2000B), of JIS X 0213
    "extension b": "𠮷田 𠮟 𠀋",
    "simplified": "张伟 王芳",
    "traditional": "張偉 陳淑芬",
    "korean": "김민준 이서연",
    "emoji": "🚂TrainFan🚂",
    "emoji sequences": "👨\u200d👩\u200d👧 🇯🇵 ❤️ 1️⃣",
    "fancy letters": "𝓐𝓵𝓲𝓬𝓮 𝔹𝕠𝕓",
    "symbols": "★彡 Star ♛",
}
SKIN = "\U0001F3FD"          # a skin-tone modifier: left out, the emoji keeps its default colour


@pytest.fixture(scope="module")
def cmaps():
    cache = {}

    def get(path):
        if path not in cache:
            cache[path] = TTFont(path, lazy=True)["cmap"].getBestCmap()
        return cache[path]
    return get


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("script", list(NAMES))
def test_every_character_of_a_name_has_a_real_glyph_in_its_font(script, bold, cmaps):
    name = NAMES[script]
    lay = T.layout(name, 24, bold)
    drawn = "".join(r.text for r in lay.runs)
    for run in lay.runs:
        cmap = cmaps(T.FACES[run.face].files[bool(bold)])
        for ch in run.text:
            assert cmap.get(ord(ch), ".notdef") != ".notdef", (script, ch, T.FACES[run.face].name)
    # nothing visible was left out (invisible format characters may be)
    assert sorted(c for c in name if not T.ignorable(c)) == sorted(
        c for c in drawn if not T.ignorable(c)), script
    t = T.rasterise(name, 24, bold, 3)
    assert t.fill.getbbox() is not None or t.color is not None


def test_emoji_are_drawn_in_colour_at_the_texts_size():
    t = T.rasterise("🚂TrainFan🚂", 24, True)
    assert t.color is not None
    rgb = t.color.convert("RGB")
    alpha = t.color.getchannel("A")
    coloured = sum(1 for (r, g, b), a in zip(rgb.get_flattened_data(), alpha.get_flattened_data())
                   if a > 200 and max(r, g, b) - min(r, g, b) > 60)
    assert coloured > 40                                 # a red locomotive, not a grey box
    box = alpha.getbbox()
    assert 18 <= box[3] - box[1] <= 36                   # about the text's size, not 40 ppem
    assert abs(T.width("🚂", 48) - 2 * T.width("🚂", 24)) <= 2


def test_a_skin_tone_is_left_out_and_a_missing_character_too():
    assert [r.text for r in T.layout("👍" + SKIN + "Kai", 24).runs][0] == "👍"
    assert "".join(r.text for r in T.layout("a\U000F0000b", 24).runs) == "ab"


def test_a_name_no_font_draws_becomes_the_seats_number():
    from ttr_bot.render.panel import name_of
    assert name_of(["Ann", "\U000F0000\U000F0001"], 1, "en") == "Player 2"
    assert name_of(["Ann", "김민준"], 1, "en") == "김민준"


def test_bold_names_without_a_bold_font_are_emboldened():
    regular, bold = T.rasterise("김민준", 24, False).fill, T.rasterise("김민준", 24, True).fill
    ink = [sum(m.histogram()[128:]) for m in (regular, bold)]
    assert ink[1] > ink[0] * 1.1


def _png(data):
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("a, b", [("김민준", "준민김"), ("张伟王", "王伟张"), ("齋藤髙橋", "髙橋齋藤"),
                                  ("🚂TrainFan", "TrainFan🚂"), ("דוד כהן", "כהן דוד")])
def test_a_name_in_any_script_shows_on_the_board(a, b):
    from tests.render.test_text import _name_box, game
    g = game("usa")
    names = ["Amélie", a, "Chidi", "Dörte"]
    one = _png(render_board(g, names)).crop(_name_box(g, 1))
    names[1] = b
    two = _png(render_board(g, names)).crop(_name_box(g, 1))
    assert min(sum(im.convert("L").histogram()[:120]) for im in (one, two)) > 50
    assert ImageChops.difference(one, two).getbbox() is not None


SWAPPED = {"korean": "준민김 연서이", "emoji": "🚂FanTrain🚂", "japanese": "髙橋 齋藤 さくら 﨑",
           "persian": "رضایی پریسا", "simplified": "王芳 张伟"}


def test_every_picture_draws_such_names(cmaps, monkeypatch):
    """The public board, a private board (English, Persian, Japanese) and the final picture
    draw every player's name: each string they lay out takes every character from a font whose
    cmap has it (no .notdef box), and each name's letters are on the picture (another name of
    the same script and length, or the same letters in another order, changes it: boxes or
    nothing would not)."""
    g = random_game("europe", PLAYERS["europe"], seed=3, until=0.5)
    end = random_game("europe", PLAYERS["europe"], seed=3)
    scripts = list(SWAPPED)[:g.n]
    names = [NAMES[s] for s in scripts]
    laid = []
    real_layout = T.layout

    def spy(text, size, bold=False, base=None):
        lay = real_layout(text, size, bold, base)
        laid.append((text, bold, lay))
        return lay
    monkeypatch.setattr(T, "layout", spy)
    T.rasterise.cache_clear()                  # every string is laid out again, and seen
    pictures = {
        ("board", "en"): lambda ns: render_board(g, ns, locale="en"),
        ("private", "fa"): lambda ns: render_board(g, ns, viewer=1, locale="fa"),
        ("private", "ja"): lambda ns: render_board(g, ns, viewer=1, locale="ja"),
        ("final", "fa"): lambda ns: render_final(end, ns, locale="fa"),
    }
    drawn = {key: _png(draw(names)) for key, draw in pictures.items()}
    monkeypatch.undo()
    named = [(text, bold, lay) for text, bold, lay in laid
             if any(ch in text for name in names for ch in name if ch.isalpha())]
    assert named
    for text, bold, lay in named:
        for run in lay.runs:
            cmap = cmaps(T.FACES[run.face].files[bool(bold)])
            for ch in run.text:
                assert cmap.get(ord(ch), ".notdef") != ".notdef", (text, ch, T.FACES[run.face].name)
    for key, draw in pictures.items():
        for seat, script in enumerate(scripts):
            other = list(names)
            other[seat] = SWAPPED[script]
            assert ImageChops.difference(drawn[key], _png(draw(other))).getbbox() is not None, (
                key, script)


def _charset(codec, leads, trails):
    """Every character a double-byte character set encodes (lead x trail bytes that decode)."""
    out = set()
    for a in leads:
        for b in trails:
            try:
                out.add(bytes((a, b)).decode(codec))
            except UnicodeDecodeError:
                pass
    return out


@pytest.mark.parametrize("charset,codec,leads,trails", [
    ("JIS X 0208 (levels 1 and 2)", "euc_jp", range(0xB0, 0xF5), range(0xA1, 0xFF)),
    ("GB 2312", "gb2312", range(0xB0, 0xF8), range(0xA1, 0xFF)),
    ("Big5", "big5", range(0xA4, 0xFA), [*range(0x40, 0x7F), *range(0xA1, 0xFF)]),
    ("KS X 1001 hangul", "euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF)),
])
def test_every_character_of_the_east_asian_sets_has_a_glyph(charset, codec, leads, trails, cmaps):
    """Not a sample: every kanji of JIS levels 1-2, every hanzi of GB 2312 and Big5, every
    KS X 1001 hangul syllable is drawn from a font whose cmap has it."""
    chars = _charset(codec, leads, trails)
    assert len(chars) > 2000, (charset, len(chars))
    missing = []
    for ch in sorted(chars):
        lay = T.layout(ch, 24, False)
        drawn = "".join(r.text for r in lay.runs)
        if drawn != ch or any(cmaps(T.FACES[r.face].files[False]).get(ord(ch), ".notdef")
                              == ".notdef" for r in lay.runs):
            missing.append(ch)
    assert not missing, (charset, len(missing), "".join(missing[:40]))
