"""Text on the picture in every script the bot meets: Thai, Persian and Japanese labels and
player names in any script (Korean, Chinese, rare kanji, Hebrew, Devanagari, emoji...) draw real
glyphs (not .notdef boxes) from the right font, what no font has is left out, right-to-left
text is ordered by the bidirectional algorithm, Latin text is drawn exactly as before, and
every localized page renders."""
import io
import math
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from testkit.sample_games import PLAYERS, random_game
from tests.render.test_bidi import needs_fribidi
from ttr_bot.i18n import catalog, forms
from ttr_bot.maps import available_maps
from ttr_bot.render import render_board, render_final
from ttr_bot.render import text as T
from ttr_bot.render.draw import page_layout
from ttr_bot.render.panel import Panel

REPO = Path(__file__).resolve().parents[2]

FACE = {f.name: i for i, f in enumerate(T.FACES)}
MISSING = "\U000F0000"          # a private-use character: no font has it


def png(data):
    return Image.open(io.BytesIO(data)).convert("RGB")


def notdef_mask(ch, size=32, bold=False):
    """What Noto Sans alone draws for `ch`: its .notdef box when it lacks the character."""
    f = ImageFont.truetype(str(T.BOLD if bold else T.REGULAR), size,
                           layout_engine=ImageFont.Layout.BASIC)
    img = Image.new("L", (3 * size, 2 * size), 0)
    ImageDraw.Draw(img).text((4, 4), ch, font=f, fill=255)
    return img.crop(img.getbbox())


def glyph_mask(ch, size=32, bold=False):
    m = T.rasterise(ch, size, bold).fill
    return m.crop(m.getbbox())


def same(a, b):
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


# ----- fonts: the files, their licences, what they cover -----------------------------------

def test_every_face_has_its_files_a_licence_and_a_source_note():
    sources = (T.FONT_DIR / "SOURCES.md").read_text(encoding="utf-8")
    for face in T.FACES:
        for path in face.files:
            assert path.exists(), path
            assert path.name in sources, path.name
            family = path.name.split("-")[0]
            lic = T.FONT_DIR / ("OFL.txt" if family == "NotoSans" else f"OFL-{family}.txt")
            assert "SIL Open Font License" in lic.read_text(encoding="utf-8"), lic
    added = sum(p.stat().st_size for p in T.FONT_DIR.iterdir()
                if p.suffix in (".ttf", ".otf") and not p.name.startswith("NotoSans-"))
    assert added <= 20 * (1 << 20), added          # the repository stays small


def test_the_faces_cover_their_scripts():
    assert {ord(c) for c in "AéßΩЖ…–Tiếng Việt"} <= T.coverage(FACE["latin"])
    assert {ord(c) for c in "กขคฅงจสวัสดีเทิร์น"} <= T.coverage(FACE["thai"])
    assert {ord(c) for c in "یکگپچژ"} <= T.coverage(FACE["arabic"])          # Persian letters
    assert {ord(c) for c in "אבגדשלום"} <= T.coverage(FACE["hebrew"])
    assert {ord(c) for c in "नमस्ते"} <= T.coverage(FACE["devanagari"])
    assert {ord(c) for c in "あアー、。「」（）！：東京亜腕"} <= T.coverage(FACE["japanese"])
    # JIS X 0208 level 1 kanji are all there (rows 16 and 47: 亜 first, 腕 last)
    assert 0x4E9C in T.coverage(FACE["japanese"]) and 0x8155 in T.coverage(FACE["japanese"])
    # the names cut: level 2 (齋), JIS X 0213 / CP932 (髙, 﨑), Chinese, every Hangul syllable
    assert {T.face_of(c) for c in "齋髙﨑张伟張偉김민준"} <= {FACE["japanese"], FACE["cjk"]}
    assert {ord(c) for c in "齋髙﨑张伟김민준"} <= T.coverage(FACE["cjk"])
    assert set(range(0xAC00, 0xD7A4)) <= T.coverage(FACE["cjk"])
    assert {ord(c) for c in "🚂😀👍❤\u200d\u20e3"} <= T.coverage(FACE["emoji"])


@pytest.mark.parametrize("locale", ["th", "fa", "ja"])
def test_every_character_of_the_catalogs_pictures_is_in_a_bundled_font(locale):
    """A new character in a translation (a rare kanji, say) fails here until
    `python -m tools.subset_fonts` is run again."""
    text = "".join(f for k, v in catalog(locale).items() if k.startswith("render.") for f in forms(v))
    missing = sorted({c for c in text if T.face_of(c) is None and not T.ignorable(c)})
    assert missing == []


def test_the_cmap_reader_agrees_with_freetype():
    """Characters the cmap says are there draw differently from each other; one it says is
    missing draws Noto Sans's .notdef box."""
    assert ord("東") not in T.coverage(FACE["latin"])
    box_a, box_b = notdef_mask("東"), notdef_mask("ก")
    assert same(box_a, box_b)                  # both are the same box
    assert not same(notdef_mask("A"), box_a)


# ----- runs: which font draws what ---------------------------------------------------------

def runs(text, base=None):
    return [(r.text, T.FACES[r.face].name, r.rtl) for r in T.layout(text, 24, False, base).runs]


@needs_fribidi          # the runs as libraqm shapes them (logical order)
def test_each_script_goes_to_its_font():
    assert runs("Amélie") == [("Amélie", "latin", False)]
    assert runs("山田太郎") == [("山田太郎", "japanese", False)]
    assert runs("さくら！") == [("さくら！", "japanese", False)]
    assert runs("สมชาย ใจดี") == [("สมชาย ใจดี", "thai", False)]
    assert runs("پریسا") == [("پریسا", "arabic", True)]
    assert runs("Bjørn 東京 สวัสดี") == [("Bjørn ", "latin", False), ("東京", "japanese", False),
                                         (" สวัสดี", "thai", False)]


@needs_fribidi          # the runs as libraqm shapes them (logical order)
def test_spaces_and_joiners_stay_with_their_words():
    # the zero-width non-joiner of Persian and the spaces stay in one Arabic run
    assert runs("کارت\u200cهای شما") == [("کارت\u200cهای شما", "arabic", True)]
    # combining marks stay with their base; decomposed Latin is shaped, not split
    assert runs("Zu\u0308rich") == [("Zu\u0308rich", "latin", False)]


@needs_fribidi          # the runs as libraqm shapes them (logical order)
def test_persian_reads_right_to_left_with_latin_and_numbers_inside():
    # "Amélie's turn": the Latin name is at the left end of a right-to-left line
    assert runs("نوبت Amélie", "rtl") == [("Amélie", "latin", False), ("نوبت ", "arabic", True)]
    # a claim: name first (rightmost), the route in the middle, the points at the left end
    r = runs("Amélie مسیر Chicago – Omaha را ادعا کرد (+12)", "rtl")
    texts = [t for t, _, _ in r]
    assert texts[-1] == "Amélie" and texts.index("Chicago – Omaha") < texts.index("مسیر ")
    assert texts.index("12") < texts.index("را ادعا کرد ")
    # brackets around Latin text in a Persian sentence stay with it (rule N0)
    assert ("Bob (JP)", "latin", False) in runs("Bob (JP) برنده شد!", "rtl")
    # the same sentence without a base direction: the first strong letter decides
    assert runs("Bob برنده شد")[0] == ("Bob ", "latin", False)


def test_bidi_levels_follow_the_algorithm():
    lv = T.levels(list("abc אבג 123"), 0)
    assert lv == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2]
    lv = T.levels(list("אבג abc 12!"), 1)
    assert lv == [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1]       # W7: 12 follows abc
    assert T.paragraph_level("123 abc") == 0 and T.paragraph_level("12 پریسا") == 1
    assert T.reorder([(0, "a"), (1, "b"), (1, "c"), (2, "d")]) == [(0, "a"), (2, "d"), (1, "c"),
                                                                     (1, "b")]


@needs_fribidi
def test_a_right_to_left_sentence_mirrors_its_brackets():
    rtl = T.rasterise("پریسا (ما)", 32, base="rtl").fill
    assert rtl.getbbox() is not None
    # "(" drawn in a right-to-left run is the glyph of ")"
    assert same(glyph_mask_in_run("(", True), glyph_mask(")"))


@needs_fribidi
def test_persian_letters_join_as_they_are_written():
    """With libfribidi (Pillow's libraqm needs it) a Persian name is shaped: its letters take
    their joined forms, narrower than the same letters kept apart (ZWNJ between them), which
    is how they are drawn without it."""
    for name in ("پریسا رضایی", "علی رضایی"):
        apart = "\u200c".join(name)
        assert T.layout(name, 32).width < 0.8 * T.layout(apart, 32).width, name


def test_the_log_says_when_this_system_cannot_shape_text(monkeypatch):
    monkeypatch.setattr(T.bidi, "HAVE_FRIBIDI", False)
    assert "apt-get install libfribidi0" in T.shaping_problem()
    monkeypatch.setattr(T.bidi, "HAVE_FRIBIDI", True)
    monkeypatch.setattr(T, "HAVE_RAQM", False)
    assert "libraqm" in T.shaping_problem()
    monkeypatch.setattr(T, "HAVE_RAQM", True)
    assert T.shaping_problem() is None


def glyph_mask_in_run(ch, rtl):
    f = T.face_font(FACE["latin"], 32, False, True)
    img = Image.new("L", (64, 64), 0)
    ImageDraw.Draw(img).text((10, 50), ch, font=f, fill=255, anchor="ls",
                             **({"direction": "rtl" if rtl else "ltr"} if T.HAVE_RAQM else {}))
    return img.crop(img.getbbox())


# ----- glyphs, not boxes ---------------------------------------------------------------------

@pytest.mark.parametrize("a, b", [("東", "京"), ("あ", "ア"), ("ก", "ข"), ("پ", "ژ"), ("ی", "گ")])
@pytest.mark.parametrize("bold", [False, True])
def test_each_script_draws_real_glyphs(a, b, bold):
    """Two different missing characters draw the same .notdef box; real glyphs differ from
    each other and from that box."""
    box = notdef_mask(a, bold=bold)
    ga, gb = glyph_mask(a, bold=bold), glyph_mask(b, bold=bold)
    assert ga.getbbox() is not None and gb.getbbox() is not None
    assert not same(ga, gb)
    assert not same(ga, box) and not same(gb, box)


def test_what_no_font_has_is_left_out_never_a_box():
    for s in (MISSING, MISSING * 3, MISSING + "\u0301", MISSING + "\u200d" + MISSING):
        assert T.layout(s, 24).runs == (), s
        assert T.rasterise(s, 24).fill.getbbox() is None, s
    assert [r.text for r in T.layout("Kai " + MISSING + "!", 24).runs] == ["Kai !"]
    # a skin-tone modifier is dropped: the emoji is drawn in its default colour
    assert [r.text for r in T.layout("👍🏽", 24).runs] == ["👍"]
    # invisible format characters are dropped
    assert "".join(r.text for r in T.layout("A\u200bB\u2066C", 24).runs) == "ABC"
    assert T.width("", 24) == 0 and T.width("\u200b", 24) == 0


def test_latin_text_is_drawn_as_it_always_was():
    """The basic layout engine, Noto Sans, the same masks as before the fallback fonts."""
    for text, size, bold, halo in (("Amélie", 24, True, 0), ("København", 18, True, 3),
                                   ("Ticket deck", 16, False, 0), ("–109 (10)", 20, True, 0)):
        f = ImageFont.truetype(str(T.BOLD if bold else T.REGULAR), size,
                               layout_engine=ImageFont.Layout.BASIC)
        ascent, descent = f.getmetrics()
        width = math.ceil(f.getlength(text))
        pad = halo + 2
        expect = Image.new("L", (width + 2 * pad, ascent + descent + 2 * pad), 0)
        ImageDraw.Draw(expect).text((pad, pad), text, font=f, fill=255, anchor="la")
        got = T.rasterise(text, size, bold, halo)
        assert got.width == width and (got.pad_x, got.pad_y) == (pad, pad)
        assert same(got.fill, expect), text
        assert T.layout(text, size, bold).simple


def test_mixed_text_sits_on_the_latin_baseline():
    """Thai above-marks and Japanese glyphs fit in the mask, which grows to hold them."""
    for s in ("เทิร์นของ Amélie", "山田の手番", "نوبت Amélie"):
        t = T.rasterise(s, 24, True, 3, base=T.direction("fa") if "ن" in s else None)
        assert t.fill.getbbox()[1] > 0 and t.fill.getbbox()[3] < t.fill.height
        assert t.ascent == T.font(24, True).getmetrics()[0]


def test_fit_cuts_between_characters_not_inside_them():
    s = "เทิร์นของสมชาย"
    for w in range(20, T.width(s, 24), 7):
        cut = T.fit(s, 24, False, w)
        assert cut.endswith("…")
        body = cut[:-1]
        assert s.startswith(body)
        # never ends before its marks, nor on a leading vowel
        rest = s[len(body):]
        assert not rest or not (T.unicodedata.category(rest[0]).startswith("M"))
        assert not body or not (0x0E40 <= ord(body[-1]) <= 0x0E44)
    flag = "ab🇯🇵🇯🇵🇯🇵cd"
    for w in range(10, T.width(flag, 24), 5):
        body = T.fit(flag, 24, False, w)[:-1]
        assert sum(1 for c in body if T._is_ri(c)) % 2 == 0


# ----- whole pictures ------------------------------------------------------------------------

_GAMES = {}


def game(map_id, until=0.5):
    key = (map_id, until)
    if key not in _GAMES:
        _GAMES[key] = random_game(map_id, PLAYERS[map_id], seed=5, until=until)
    return _GAMES[key]


NAMES = {"th": ["สมชาย ใจดี", "นภา", "Amélie", "Chidi", "Emeka"],
         "fa": ["پریسا", "علی رضایی", "Amélie", "Chidi", "Emeka"],
         "ja": ["山田太郎", "さくら", "Amélie", "Chidi", "Emeka"]}


@pytest.mark.parametrize("locale", ["th", "fa", "ja"])
@pytest.mark.parametrize("map_id", available_maps())
def test_every_locale_renders_and_differs_from_english(locale, map_id):
    mid, end = game(map_id), game(map_id, None)
    names = NAMES[locale][:mid.n]
    for make in (lambda loc: render_board(mid, names, locale=loc),
                 lambda loc: render_board(mid, names, viewer=0, locale=loc),
                 lambda loc: render_final(end, names, locale=loc)):
        local, english = make(locale), make("en")
        img = png(local)
        assert 1600 <= img.width <= 2000 and len(local) < 1 << 20
        assert ImageChops.difference(img, png(english)).getbbox() is not None


def _name_box(g, seat, kind="board"):
    """The players-table cell of `seat`'s name, in picture pixels."""
    lay = page_layout(g.board, kind)
    panel = Panel(g.board, kind, lay.portrait)
    x, y, w = next((x, y, w) for name, x, y, w, h in panel.sections(lay) if name == "players")
    _, nx, nw = panel._columns(w)[0]
    ry = y + panel.title_h + seat * panel.row
    return (x + nx, ry + 2, x + nx + nw - 10, ry + panel.row - panel.k(14))


@pytest.mark.parametrize("a, b", [("山田太郎", "田山郎太"), ("สมชาย", "ชายสม"), ("پریسا", "سایرپ")])
def test_a_players_name_in_another_script_shows_its_letters(a, b):
    """Boxes would look the same for any name of the same length: real glyphs differ."""
    g = game("usa")
    names = ["Amélie", a, "Chidi", "Dörte"]
    one = png(render_board(g, names)).crop(_name_box(g, 1))
    names[1] = b
    two = png(render_board(g, names)).crop(_name_box(g, 1))
    names[1] = MISSING * len(a)
    none = png(render_board(g, names)).crop(_name_box(g, 1))
    ink = [sum(im.convert("L").histogram()[:120]) for im in (one, two)]
    assert min(ink) > 50                                   # dark letters are there
    assert ImageChops.difference(one, two).getbbox() is not None
    assert ImageChops.difference(one, none).getbbox() is not None


def test_emoji_in_names_do_not_crash():
    g = game("europe")
    names = ["Kai 🚂", "👨\u200d👩\u200d👧", "🇯🇵 Yuki", "❤️\u200d🔥", "A\u200db\u0301\u202e"]
    for loc in ("en", "th", "fa", "ja"):
        assert png(render_board(g, names, locale=loc)).width >= 1600
        assert png(render_board(g, names, viewer=4, locale=loc)).width >= 1600
    assert png(render_final(game("europe", None), names, locale="fa")).width >= 1600


def test_without_libraqm_text_still_draws(monkeypatch):
    """Pillow without libraqm (no libfribidi on the system): the basic engine for every run,
    right-to-left runs reversed by hand."""
    monkeypatch.setattr(T, "HAVE_RAQM", False)
    for fn in (T.layout, T.rasterise, T._open_face):
        fn.cache_clear()
    try:
        lay = T.layout("نوبت (Amélie)", 24, True, "rtl")
        assert [r.text for r in lay.runs] == ["(", "Amélie", ")", " تبون"]   # by hand, mirrored
        assert not any(r.shaped for r in lay.runs)
        assert T.rasterise("เทิร์นของ 山田 پریسا", 24).fill.getbbox() is not None
    finally:
        monkeypatch.undo()
        for fn in (T.layout, T.rasterise, T._open_face):
            fn.cache_clear()


def test_layouts_are_cached():
    T.layout.cache_clear()
    T.layout("เทิร์นของ Amélie", 22, True)
    T.layout("เทิร์นของ Amélie", 22, True)
    info = T.layout.cache_info()
    assert info.hits >= 1 and info.misses == 1
