"""A turn card drawn as a phone shows it in Discord (dark theme), for the README's picture.

    draw_card(blocks, rows, files, accent) -> PNG bytes (800 px wide: a 400-point phone at 2x)

`blocks`: the card's text displays as Discord shows them (mentions as @name, timestamps as
their text: tools/turn_card_sample._readable), drawn with their **bold**, `-# ` small lines and
the separators between them; the media gallery (`files`: closeup.png, map.png) after the first
block, as the card puts it; `rows`: the buttons, [(label, style)] per action row, wrapped as a
phone wraps them; `accent`: the container's colour (0xRRGGBB). A developer's tool: it draws what
tools/turn_card_sample received from the fake Discord, so the picture is the real card's.
"""
import io
import re

from PIL import Image, ImageDraw

from ttr_bot.render import text as T

W = 800
K = 2                              # device pixels per point
BG = (49, 51, 56)                  # Discord's dark theme: the channel
BOX = (43, 45, 49)                 # a Components V2 container
INK = (219, 222, 225)
BOLD_INK = (242, 243, 245)
SOFT = (148, 155, 164)
RULE = (63, 65, 71)
BUTTON = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}
SIZE, SMALL = 15 * K, 12 * K
LINE = round(SIZE * 1.35)
PAD, INNER = 12 * K, 14 * K


def _tokens(line):
    """[(word, bold)] of a line with **bold** spans (spaces kept on the words)."""
    out, bold = [], False
    for i, part in enumerate(re.split(r"\*\*", line)):
        bold = i % 2 == 1
        for word in re.findall(r"\S+\s*|\s+", part):
            out.append((word, bold))
    return out


def _lines(block, width):
    """[(tokens, size, ink)] of a text display wrapped to `width` pixels."""
    out = []
    for raw in block.splitlines():
        size, ink = SIZE, INK
        if raw.startswith("-# "):
            raw, size, ink = raw[3:], SMALL, SOFT
        line, x = [], 0
        for word, bold in _tokens(raw):
            w = T.width(word, size, bold)
            if line and x + T.width(word.rstrip(), size, bold) > width:
                out.append((line, size, ink))
                line, x = [], 0
                if not word.strip():
                    continue
            line.append((word, bold, x))
            x += w
        out.append((line, size, ink))
    return out


def _gallery(files, width):
    """The media gallery: the pictures side by side, each scaled into its half."""
    names = [n for n in ("closeup.png", "map.png") if n in files]
    gap = 4 * K
    cell = (width - gap * (len(names) - 1)) // max(1, len(names))
    pics = []
    for n in names:
        im = Image.open(io.BytesIO(files[n])).convert("RGB")
        pics.append(im.resize((cell, round(im.height * cell / im.width)), Image.Resampling.LANCZOS))
    return pics, cell, gap


def _button_rows(rows, width):
    """[[(x, w, label, style)]] of the buttons, each row wrapped to the width."""
    out = []
    gap, h_pad = 8 * K, 14 * K
    for row in rows:
        line, x = [], 0
        for label, style in row:
            w = T.width(label, SIZE, True) + 2 * h_pad
            if line and x + w > width:
                out.append(line)
                line, x = [], 0
            line.append((x, w, label, style))
            x += w + gap
        if line:
            out.append(line)
    return out


def draw_card(blocks, rows, files, accent=None):
    inner = W - 2 * PAD - 2 * INNER - 4 * K
    texts = [_lines(b, inner) for b in blocks]
    pics, cell, gap = _gallery(files, inner)
    buttons = _button_rows(rows, W - 2 * PAD)
    btn_h = 34 * K
    head = 26 * K
    height = PAD + head
    box_top = height
    height += INNER
    for i, lines in enumerate(texts):
        if i == 1 and pics:
            height += max(p.height for p in pics) + INNER
        if i:
            height += INNER + K + INNER // 2
        height += sum(round(s * 1.35) for _, s, _ in lines)
    height += INNER
    box_bottom = height
    height += 8 * K + len(buttons) * (btn_h + 8 * K) + PAD
    img = Image.new("RGB", (W, height), BG)
    d = ImageDraw.Draw(img)
    # the bot's name above its message
    d.ellipse((PAD, PAD, PAD + 20 * K, PAD + 20 * K), fill=(88, 101, 242))
    T.draw(img, PAD + 28 * K, PAD + 10 * K, "Ticket to Ride", SIZE, BOLD_INK, bold=True)
    # the container, its accent bar in the player's colour
    rgb = ((accent >> 16) & 255, (accent >> 8) & 255, accent & 255) if accent else RULE
    d.rounded_rectangle((PAD, box_top, W - PAD, box_bottom), 8 * K, fill=BOX)
    d.rounded_rectangle((PAD, box_top, PAD + 4 * K, box_bottom), 2 * K, fill=rgb)
    x0 = PAD + 4 * K + INNER
    y = box_top + INNER
    for i, lines in enumerate(texts):
        if i == 1 and pics:
            for j, p in enumerate(pics):
                img.paste(p, (x0 + j * (cell + gap), y))
            y += max(p.height for p in pics) + INNER
        if i:
            d.line((x0, y + INNER // 2, W - PAD - INNER, y + INNER // 2), fill=RULE, width=K)
            y += INNER + K + INNER // 2
        for tokens, size, ink in lines:
            h = round(size * 1.35)
            for word, bold, x in tokens:
                T.draw(img, x0 + x, y + h / 2, word, size, BOLD_INK if bold else ink, bold=bold)
            y += h
    y = box_bottom + 8 * K
    for line in buttons:
        for x, w, label, style in line:
            d.rounded_rectangle((PAD + x, y, PAD + x + w, y + btn_h), 4 * K,
                                fill=BUTTON.get(style, BUTTON[2]))
            T.draw(img, PAD + x + w / 2, y + btn_h / 2, label, SIZE, BOLD_INK, bold=True,
                   align="center")
        y += btn_h + 8 * K
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()
