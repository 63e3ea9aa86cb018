"""The Unicode bidirectional algorithm (UAX #9) for one line of picture text.

`resolve(text, base)` gives the paragraph level and every character's resolved level (rules
P2-P3, X1-X10, W1-W7, N0-N2, I1-I2 and L1); `reorder` is rule L2. The levels come from GNU
FriBidi when the system has it (libfribidi.so.0, which Pillow's libraqm loads anyway to shape
Arabic letters: wherever Persian letters join, FriBidi is there). FriBidi implements the whole
algorithm, explicit embeddings, overrides and isolates included (the picture's sentences isolate
their numbers with U+2066..U+2069, as the Discord messages do), and passes Unicode's
BidiCharacterTest.txt: tests/render/test_bidi.py runs that file against this module. Why not
python-bidi: it returns only the reordered string, not the levels a line drawn in several
fonts needs to cut its runs; nor libraqm: it lays out one font at a time.

Without FriBidi (a Pillow without libraqm, where Arabic letters do not join either) a smaller
implementation here takes over: one isolating run sequence, so explicit embeddings, overrides
and isolates are ignored (their characters are treated as BN). It is checked against the lines
of the same file that have none of them.
"""
import ctypes
import ctypes.util
import unicodedata

_STRONG = {"L": "L", "R": "R", "AL": "R"}
_EXPLICIT = frozenset(("LRE", "RLE", "LRO", "RLO", "PDF"))
_ISOLATES = frozenset(("LRI", "RLI", "FSI", "PDI"))
REMOVED = _EXPLICIT | {"BN"}          # X9: these characters get no level
# Bidi_Paired_Bracket of every opening bracket (BidiBrackets.txt, UCD 15.0.0), opener then closer
_BRACKETS = ('()[]{}༺༻༼༽᚛᚜⁅⁆⁽⁾₍₎⌈⌉⌊⌋〈〉❨❩❪❫❬❭❮❯❰❱❲❳❴❵⟅⟆⟦⟧⟨⟩⟪⟫⟬⟭⟮⟯⦃⦄⦅⦆⦇⦈⦉⦊⦋⦌⦍⦐⦏⦎⦑⦒⦓⦔⦕⦖⦗⦘⧘⧙⧚⧛⧼⧽⸢⸣⸤⸥⸦⸧⸨⸩⹕⹖⹗⹘⹙⹚⹛⹜〈〉《》「」『』【】〔〕〖〗〘〙〚〛﹙﹚﹛﹜﹝﹞（）［］｛｝｟｠｢｣')
_PAIRS = dict(zip(_BRACKETS[0::2], _BRACKETS[1::2]))
_CLOSERS = {v: k for k, v in _PAIRS.items()}
MIRROR = dict(list(_PAIRS.items()) + list(_CLOSERS.items())
              + [("<", ">"), (">", "<"), ("«", "»"), ("»", "«"), ("‹", "›"), ("›", "‹")])
_STACK = 63                           # BD16: more nested openers than this end the pairing


def _canonical(ch):
    """A bracket's canonical equivalent (U+2329 is U+3008), as BD16 compares them."""
    d = unicodedata.decomposition(ch)
    return chr(int(d, 16)) if d and " " not in d and not d.startswith("<") else ch


def bidi_class(ch):
    return unicodedata.bidirectional(ch) or "L"


# ----- FriBidi ---------------------------------------------------------------------------------

def _load_fribidi():
    for name in ("libfribidi.so.0", ctypes.util.find_library("fribidi"), "libfribidi-0.dll",
                 "libfribidi.0.dylib"):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name)
            lib.fribidi_get_par_embedding_levels_ex.restype = ctypes.c_int8
            lib.fribidi_get_bidi_types.restype = None
            lib.fribidi_get_bracket_types.restype = None
            return lib
        except (OSError, AttributeError):
            continue
    return None


_FRIBIDI = _load_fribidi()
HAVE_FRIBIDI = _FRIBIDI is not None
_PAR = {0: 0x110, 1: 0x111, None: 0x20}      # FRIBIDI_PAR_LTR, _RTL, _WLTR (auto, else LTR)


def _fribidi_levels(text, para):
    n = len(text)
    chars = (ctypes.c_uint32 * n)(*map(ord, text))
    types = (ctypes.c_uint32 * n)()
    brackets = (ctypes.c_uint32 * n)()
    out = (ctypes.c_int8 * n)()
    pdir = ctypes.c_uint32(_PAR[para])
    _FRIBIDI.fribidi_get_bidi_types(chars, n, types)
    _FRIBIDI.fribidi_get_bracket_types(chars, n, types, brackets)
    if not _FRIBIDI.fribidi_get_par_embedding_levels_ex(types, brackets, n, ctypes.byref(pdir),
                                                        out):
        raise MemoryError("fribidi")
    return (1 if pdir.value & 1 else 0), list(out)


# ----- the whole line ----------------------------------------------------------------------------

def paragraph_level(chars, base=None):
    """0 (left to right) or 1 (right to left): `base` if given, else rules P2-P3 (the first
    strong letter outside isolates)."""
    if base in ("rtl", "ltr"):
        return 1 if base == "rtl" else 0
    depth = 0
    for ch in chars:
        t = bidi_class(ch)
        if t in ("LRI", "RLI", "FSI"):
            depth += 1
        elif t == "PDI":
            depth = max(0, depth - 1)
        elif depth == 0 and t in ("L", "R", "AL"):
            return 0 if t == "L" else 1
    return 0


def resolve(text, base=None, use_fribidi=None):
    """(paragraph level, [level or None per character]): None for what rule X9 removes.
    base: "ltr", "rtl" or None (from the text)."""
    if not text:
        return 0, []
    para = {"ltr": 0, "rtl": 1}.get(base)
    classes = [bidi_class(ch) for ch in text]
    if (HAVE_FRIBIDI if use_fribidi is None else use_fribidi):
        para, out = _fribidi_levels(text, para)
    else:
        para = paragraph_level(text, base)
        out = levels(text, para)
    _line_rule(classes, out, para)
    return para, [None if c in REMOVED else lv for c, lv in zip(classes, out)]


def _line_rule(classes, out, para):
    """L1: separators, and the whitespace (and isolate marks) before them or at the line's end,
    go back to the paragraph level."""
    trailing = True
    for i in range(len(classes) - 1, -1, -1):
        c = classes[i]
        if c in ("S", "B"):
            out[i] = para
            trailing = True
        elif c in ("WS",) or c in _ISOLATES or c in REMOVED:
            if trailing:
                out[i] = para
        else:
            trailing = False


def reorder(runs):
    """L2: the runs [(level, ...)] in visual order, left to right."""
    runs = list(runs)
    if not runs:
        return runs
    top = max(r[0] for r in runs)
    low = min(r[0] for r in runs)
    low += (low + 1) % 2                          # the lowest odd level
    for lvl in range(top, low - 1, -1):
        i = 0
        while i < len(runs):
            if runs[i][0] >= lvl:
                j = i
                while j < len(runs) and runs[j][0] >= lvl:
                    j += 1
                runs[i:j] = runs[i:j][::-1]
                i = j
            else:
                i += 1
    return runs


# ----- the fallback: one isolating run sequence ----------------------------------------------

def levels(chars, para):
    """The embedding level of each character (UBA rules W1-W7, N0-N2, I1-I2) for a line
    without explicit embeddings or isolates (their marks count as BN)."""
    n = len(chars)
    e = "R" if para else "L"
    types = []
    for ch in chars:
        t = bidi_class(ch)
        if t in _EXPLICIT or t in _ISOLATES:
            t = "BN"
        types.append(t)
    nsm = [t == "NSM" for t in types]
    prev = e
    for i, t in enumerate(types):                 # W1 (and BN, which X9 would have removed)
        if t in ("NSM", "BN"):
            types[i] = prev
        prev = types[i]
    strong = e
    for i, t in enumerate(types):                 # W2, W3
        if t == "EN" and strong == "AL":
            types[i] = "AN"
        if t in ("L", "R", "AL"):
            strong = t
        if t == "AL":
            types[i] = "R"
    for i in range(1, n - 1):                     # W4
        a, t, b = types[i - 1], types[i], types[i + 1]
        if t == "ES" and a == b == "EN":
            types[i] = "EN"
        elif t == "CS" and a == b and a in ("EN", "AN"):
            types[i] = a
    i = 0
    while i < n:                                  # W5
        if types[i] == "ET":
            j = i
            while j < n and types[j] == "ET":
                j += 1
            if (i > 0 and types[i - 1] == "EN") or (j < n and types[j] == "EN"):
                types[i:j] = ["EN"] * (j - i)
            i = j
        else:
            i += 1
    strong = e
    for i, t in enumerate(types):                 # W6, W7
        if t in ("ES", "ET", "CS"):
            types[i] = "ON"
        elif t == "EN" and strong == "L":
            types[i] = "L"
        if t in ("L", "R"):
            strong = t
    _brackets(chars, types, e, nsm)               # N0
    dir_of = lambda t: "R" if t in ("R", "EN", "AN") else t       # noqa: E731
    i = 0
    while i < n:                                  # N1, N2
        if types[i] in ("L", "R", "EN", "AN"):
            i += 1
            continue
        j = i
        while j < n and types[j] not in ("L", "R", "EN", "AN"):
            j += 1
        before = dir_of(types[i - 1]) if i else e
        after = dir_of(types[j]) if j < n else e
        types[i:j] = [before if before == after else e] * (j - i)
        i = j
    out = []
    for t in types:                               # I1, I2
        if para % 2 == 0:
            out.append(para + (1 if t == "R" else 2 if t in ("AN", "EN") else 0))
        else:
            out.append(para + (1 if t in ("L", "EN", "AN") else 0))
    return out


def _brackets(chars, types, e, nsm):
    """N0: a pair of brackets takes the direction of what it holds (or of its context), and
    so do the combining marks that follow either bracket."""
    stack, pairs = [], []
    for i, ch in enumerate(chars):
        if types[i] != "ON":
            continue
        ch = _canonical(ch)
        if ch in _PAIRS:
            if len(stack) == _STACK:
                pairs = []
                break
            stack.append((ch, i))
        elif ch in _CLOSERS:
            for k in range(len(stack) - 1, -1, -1):
                if stack[k][0] == _CLOSERS[ch]:
                    pairs.append((stack[k][1], i))
                    del stack[k:]
                    break
    opposite = "L" if e == "R" else "R"
    for o, c in sorted(pairs):
        inside = {("R" if t in ("EN", "AN") else t) for t in types[o + 1:c]} & {"L", "R"}
        if not inside:
            continue
        if e in inside:
            d = e
        else:
            before = next((("R" if t in ("EN", "AN") else t) for t in reversed(types[:o])
                           if t in ("L", "R", "EN", "AN")), e)
            d = opposite if before == opposite else e
        for b in (o, c):
            types[b] = d
            k = b + 1
            while k < len(types) and nsm[k]:
                types[k] = d
                k += 1
