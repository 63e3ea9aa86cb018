"""The side panel: who plays, scores, what is left, the face-up cards; the viewer's cards and
tickets on a private board; the score breakdown on the final picture.

Each section is drawn in two passes over the same geometry: `static=True` draws what never
changes (titles, column heads, legends) into the cached page, `static=False` the figures of
this turn. All sentences come from the message catalog (`render.*`).
"""
from functools import lru_cache

from PIL import Image, ImageDraw

from ..engine.cards import LOCO
from ..i18n import t
from . import palette as P
from . import text as T
from .geometry import shape

PAD = 16
ROW = 54
CARD_W, CARD_H = 66, 92
MINI_W, MINI_H = 34, 50


# ----- small pictures, cached -----------------------------------------------------------------

@lru_cache(maxsize=256)
def card_image(card, w, h, locale):
    """A train card: its colour (rainbow stripes for a locomotive) and its letter."""
    ss = 3
    big = Image.new("RGBA", (w * ss, h * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    r = 7 * ss
    box = (0, 0, w * ss - 1, h * ss - 1)
    if card == LOCO:
        mask = Image.new("L", big.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(box, r, fill=255)
        stripes = Image.new("RGBA", big.size)
        sd = ImageDraw.Draw(stripes)
        n = len(P.LOCO_STRIPES)
        for i, rgb in enumerate(P.LOCO_STRIPES):
            sd.rectangle((0, h * ss * i // n, w * ss, h * ss * (i + 1) // n), fill=rgb + (255,))
        big.paste(stripes, (0, 0), mask)
        d.rounded_rectangle(box, r, outline=(20, 20, 20, 255), width=2 * ss)
    else:
        d.rounded_rectangle(box, r, fill=P.CARD_RGB[card] + (255,), outline=(20, 20, 20, 255),
                            width=2 * ss)
    img = big.resize((w, h), Image.Resampling.LANCZOS)
    letter = t(f"render.letter.{P.card_name(card)}", locale)
    size = round(min(w, h) * 0.55)
    if card == LOCO:
        T.draw(img, w / 2, h / 2, letter, size, (20, 20, 20, 255), bold=True,
               halo=(255, 255, 255, 255), halo_width=3, align="center")
    else:
        T.draw(img, w / 2, h / 2, letter, size, P.CARD_INK[card] + (255,), bold=True,
               align="center")
    return img


@lru_cache(maxsize=64)
def swatch(seat, size):
    """A player's colour square with their mark."""
    ss = 3
    img = Image.new("RGBA", (size * ss, size * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, size * ss - 1, size * ss - 1), 6 * ss, fill=P.player_rgb(seat),
                        outline=P.CAR_LINE, width=2 * ss)
    kind = P.player_shape(seat)
    c, R = size * ss / 2, size * ss * 0.27
    lw = round(size * ss * 0.09)
    ink = P.player_ink(seat)
    if kind == "ring":
        d.ellipse(shape("ring", c, c, R), outline=ink, width=lw)
    elif kind == "bars":
        for dx in (-R * 0.55, R * 0.55):
            d.rectangle((c + dx - lw / 2, c - R, c + dx + lw / 2, c + R), fill=ink)
    else:
        d.polygon(shape(kind, c, c, R), outline=ink, width=lw)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def paste(img, sprite, x, y):
    img.paste(sprite, (round(x), round(y)), sprite)


def name_of(names, seat, locale):
    if names and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return t("render.player", locale, n=seat + 1)


def title(img, x, y, key, locale, static):
    if static:
        T.draw(img, x, y + 12, t(key, locale).upper(), 16, P.INK_SOFT, bold=True)
    return 30


# ----- sections (each returns its height) ---------------------------------------------------

def status(img, x, y, w, g, names, locale, static):
    """Whose turn, or the game's phase; the final-round banner."""
    h = 44
    if static:
        return h
    if g.phase == "setup":
        text, who = t("render.status.setup", locale), None
    elif g.phase == "over":
        text, who = t("render.status.over", locale), None
    else:
        who = g.current
        text = t("render.status.turn", locale, name=name_of(names, who, locale))
    banner = None
    if g.final_turns_left is not None and g.phase != "over":
        banner = t("render.final_round", locale, count=g.final_turns_left)
    bw = 0
    if banner:
        size = T.fit_size(banner, 22, True, w // 2)
        bw = T.width(banner, size, True) + 28
        d = ImageDraw.Draw(img)
        d.rounded_rectangle((x + w - bw, y + 2, x + w, y + h - 4), 10, fill=P.BANNER)
        T.draw(img, x + w - bw / 2, y + (h - 2) / 2, banner, size, (255, 255, 255), bold=True,
               align="center")
    tx = x
    if who is not None:
        paste(img, swatch(who, 32), x, y + 5)
        tx += 42
    size = 26
    text = T.fit(text, size, True, w - bw - (tx - x) - 16)
    T.draw(img, tx, y + h / 2, text, size, P.INK, bold=True)
    return h


def last_move(img, x, y, w, g, names, locale, static):
    h = 34
    if static:
        return h
    lm = g.last_move
    board = g.board
    if lm is None:
        text = t("render.move.none", locale)
    else:
        seat, kind, what = lm
        params = {"name": name_of(names, seat, locale)}
        if kind in ("claim_route", "tunnel_decline") and what is not None:
            params["route"] = board.route_label(what)
            params["points"] = g.rules.route_points.get(board.routes[what].length, 0)
        elif kind == "build_station" and what is not None:
            params["city"] = board.nodes[what].name
        try:
            text = t(f"render.move.{kind}", locale, **params)
        except KeyError:
            text = t("render.move.none", locale)
    d = ImageDraw.Draw(img)
    d.ellipse((x + 4, y + 6, x + 26, y + 28), outline=P.HIGHLIGHT, width=5)
    text = T.fit(text, 20, False, w - 40)
    T.draw(img, x + 38, y + 17, text, 20, P.INK)
    return h


def _columns(w, stations):
    """(key, x offset, width, align) of the players table."""
    cols = [("score", 96), ("trains", 96), ("cards", 84), ("tickets", 90)]
    if stations:
        cols.append(("stations", 96))
    fixed = sum(c for _, c in cols)
    name_w = w - 54 - fixed
    out = [("player", 54, name_w, "left")]
    x = 54 + name_w
    for key, cw in cols:
        out.append((key, x, cw, "center"))
        x += cw
    return out


def players(img, x, y, w, g, names, locale, static, n=None):
    """The table: colour and mark, name, score, trains, cards, tickets, stations."""
    board = g.board if not static else g
    stations = (board.rules.stations > 0)
    cols = _columns(w, stations)
    head = 30
    if static:
        for key, cx, cw, align in cols:
            label = t(f"render.col.{key}", locale)
            size = T.fit_size(label, 16, True, cw - 6)
            tx = x + cx + (cw / 2 if align == "center" else 0)
            T.draw(img, tx, y + 14, label, size, P.INK_SOFT, bold=True, align=align)
        ImageDraw.Draw(img).line((x, y + head - 2, x + w, y + head - 2), fill=P.RULE, width=2)
        return head + ROW * (n or 0)
    d = ImageDraw.Draw(img)
    scores = g.route_points
    top = max(scores) if scores else 0
    for seat in range(g.n):
        ry = y + head + seat * ROW
        playing = g.phase == "play" and seat == g.current
        if playing:
            d.rectangle((x, ry + 2, x + w, ry + ROW - 2), fill=P.TURN_BG)
            d.polygon([(x + 4, ry + ROW / 2 - 9), (x + 16, ry + ROW / 2), (x + 4, ry + ROW / 2 + 9)],
                      fill=P.INK)
        paste(img, swatch(seat, 36), x + 18, ry + (ROW - 36) / 2)
        name_col = cols[0]
        name = T.fit(name_of(names, seat, locale), 24, True, name_col[2] - 10)
        T.draw(img, x + name_col[1], ry + ROW / 2 - 4, name, 24, P.INK, bold=True)
        # score bar under the name: who is ahead, at a glance
        bw = name_col[2] - 10
        bar = 0 if top <= 0 else round(bw * scores[seat] / top)
        d.rectangle((x + name_col[1], ry + ROW - 12, x + name_col[1] + bw, ry + ROW - 8),
                    fill=P.RULE)
        if bar:
            d.rectangle((x + name_col[1], ry + ROW - 12, x + name_col[1] + bar, ry + ROW - 8),
                        fill=P.player_rgb(seat))
        values = {"score": (str(scores[seat]), P.INK),
                  "trains": (str(g.trains[seat]),
                             P.BANNER if g.trains[seat] <= board.rules.end_trains + 3 else P.INK),
                  "cards": (str(sum(g.hands[seat])), P.INK),
                  "tickets": (str(len(g.tickets[seat])), P.INK),
                  "stations": (str(g.stations_left[seat]), P.INK)}
        for key, cx, cw, _ in cols[1:]:
            val, ink = values[key]
            T.draw(img, x + cx + cw / 2, ry + ROW / 2, val, 28 if key == "score" else 24, ink,
                   bold=True, align="center")
    return head + ROW * g.n


def market(img, x, y, w, g, locale, static):
    """The five face-up cards and the sizes of the deck, the discard pile and the tickets."""
    h = title(img, x, y, "render.faceup", locale, static)
    gap = 12
    if not static:
        for i, c in enumerate(g.faceup):
            paste(img, card_image(c, CARD_W, CARD_H, locale), x + i * (CARD_W + gap), y + h)
    h += CARD_H + 12
    piles = (("render.deck", len(g.deck) if not static else 0),
             ("render.discard", len(g.discard) if not static else 0),
             ("render.ticket_deck", len(g.ticket_deck) if not static else 0))
    cw = (5 * CARD_W + 4 * gap) / 3
    for i, (key, count) in enumerate(piles):
        px = x + i * cw
        if static:
            label = t(key, locale)
            size = T.fit_size(label, 16, False, cw - 50)
            T.draw(img, px, y + h + 14, label, size, P.INK_SOFT)
        else:
            label = t(key, locale)
            size = T.fit_size(label, 16, False, cw - 50)
            lw = T.width(label, size, False)
            T.draw(img, px + lw + 8, y + h + 14, str(count), 22, P.INK, bold=True)
    return h + 30


def legend_items(board, kind):
    """What the key explains: only what this map and page show."""
    items = ["trail"] if kind == "final" and board.rules.longest_path_bonus else []
    if kind != "final":
        items.append("last")
    if any(r.tunnel for r in board.routes):
        items.append("tunnel")
    if any(r.ferry for r in board.routes):
        items.append("ferry")
    if board.rules.stations:
        items.append("station")
    if kind == "private":
        items += ["ticket_open", "ticket_done"]
    return items


def legend(img, x, y, w, board, locale, static, kind="board", cols=2, heading=True):
    """Last move, tunnel, ferry, station, ticket cities, longest path: what the map shows."""
    items = legend_items(board, kind)
    if not static or not items:
        return 0
    from .static import _loco_disc
    h = title(img, x, y, "render.legend", locale, static) if heading else 0
    cw = w / cols
    for i, key in enumerate(items):
        ix, iy = x + (i % cols) * cw, y + h + (i // cols) * 32
        ss = 3
        icon = Image.new("RGBA", (44 * ss, 24 * ss), (0, 0, 0, 0))
        d = ImageDraw.Draw(icon)
        cx, cy = 22 * ss, 12 * ss
        if key == "tunnel":
            for dd in (-11, 0, 11):
                for side in (-1, 1):
                    yy = cy + side * 7 * ss
                    d.polygon([(cx + (dd - 4) * ss, yy), (cx + dd * ss, yy + side * 6 * ss),
                               (cx + (dd + 4) * ss, yy)], fill=(25, 25, 25))
            d.rounded_rectangle((cx - 18 * ss, cy - 8 * ss, cx + 18 * ss, cy + 8 * ss), 4 * ss,
                                fill=(205, 203, 198), outline=(25, 25, 25), width=2 * ss)
        elif key == "ferry":
            d.rounded_rectangle((cx - 18 * ss, cy - 8 * ss, cx + 18 * ss, cy + 8 * ss), 4 * ss,
                                fill=(205, 203, 198), outline=(120, 118, 112), width=2 * ss)
            _loco_disc(d, cx, cy, 7 * ss)
        elif key == "station":
            _house(d, cx, cy, 10 * ss, (255, 255, 255), P.CAR_LINE, 2 * ss)
        elif key == "last":
            d.rounded_rectangle((cx - 21 * ss, cy - 11 * ss, cx + 21 * ss, cy + 11 * ss), 9 * ss,
                                fill=P.HIGHLIGHT)
            d.rounded_rectangle((cx - 15 * ss, cy - 6 * ss, cx + 15 * ss, cy + 6 * ss), 3 * ss,
                                fill=(255, 255, 255), outline=P.CAR_LINE, width=2 * ss)
        elif key in ("ticket_open", "ticket_done"):
            rgb = P.TICKET_OPEN if key == "ticket_open" else P.TICKET_DONE
            d.ellipse((cx - 11 * ss, cy - 11 * ss, cx + 11 * ss, cy + 11 * ss), outline=rgb,
                      width=4 * ss)
            d.ellipse((cx - 5 * ss, cy - 5 * ss, cx + 5 * ss, cy + 5 * ss), fill=(255, 255, 255),
                      outline=P.CITY_LINE, width=2 * ss)
        elif key == "trail":
            d.rounded_rectangle((cx - 21 * ss, cy - 11 * ss, cx + 21 * ss, cy + 11 * ss), 9 * ss,
                                fill=P.TRAIL)
            d.rounded_rectangle((cx - 15 * ss, cy - 6 * ss, cx + 15 * ss, cy + 6 * ss), 3 * ss,
                                fill=(255, 255, 255), outline=P.CAR_LINE, width=2 * ss)
        icon = icon.resize((44, 24), Image.Resampling.LANCZOS)
        paste(img, icon, ix, iy + 2)
        label = t(f"render.legend.{key}", locale)
        T.draw(img, ix + 52, iy + 14, T.fit(label, 17, False, cw - 58), 17, P.INK)
    return h + ((len(items) + cols - 1) // cols) * 32


def _house(d, cx, cy, r, fill, line, width):
    pts = [(cx - r, cy + r), (cx - r, cy - r * 0.1), (cx, cy - r), (cx + r, cy - r * 0.1),
           (cx + r, cy + r)]
    d.polygon(pts, fill=fill, outline=line, width=width)


def colour_key(img, x, y, w, locale, static):
    """Each card colour with its letter and name (the colour-blind key)."""
    if not static:
        return 0
    h = title(img, x, y, "render.key", locale, static)
    cols = 2 if w < 500 else 3
    rows = (9 + cols - 1) // cols
    cw, rh, kw, kh = w / cols, 46, 30, 42
    for i in range(9):
        ix, iy = x + (i // rows) * cw, y + h + (i % rows) * rh
        paste(img, card_image(i, kw, kh, locale), ix, iy)
        label = t(f"render.color.{P.card_name(i)}", locale)
        T.draw(img, ix + kw + 10, iy + kh / 2, T.fit(label, 17, False, cw - kw - 14), 17, P.INK)
    return h + rows * rh


def hand(img, x, y, w, g, viewer, locale, static):
    """The viewer's train cards: each kind with its count."""
    h = title(img, x, y, "render.hand", locale, static)
    gap = (w - 9 * MINI_W) / 8
    if not static:
        counts = g.hands[viewer]
        for c in range(9):
            cx = x + c * (MINI_W + gap)
            paste(img, card_image(c, MINI_W, MINI_H, locale), cx, y + h)
            n = counts[c]
            T.draw(img, cx + MINI_W / 2, y + h + MINI_H + 14, str(n), 20,
                   P.INK if n else (180, 180, 180), bold=True, align="center")
    return h + MINI_H + 30


def tickets(img, x, y, w, max_h, rows, locale, static):
    """The viewer's tickets: a tick (completed) or a ring, the cities, the points."""
    h = title(img, x, y, "render.your_tickets", locale, static)
    if static:
        return h
    line = 27
    if not rows:
        T.draw(img, x, y + h + 12, t("render.no_tickets", locale), 18, P.INK_SOFT)
        return h + line
    fit_rows = max(1, int((max_h - h) // line))
    shown = rows if len(rows) <= fit_rows else rows[:fit_rows - 1]
    d = ImageDraw.Draw(img)
    for i, (label, points, done) in enumerate(shown):
        ry = y + h + i * line + 12
        if done:
            d.ellipse((x, ry - 10, x + 20, ry + 10), fill=P.TICKET_DONE)
            d.line([(x + 5, ry), (x + 9, ry + 5), (x + 15, ry - 5)], fill=(255, 255, 255), width=3)
        else:
            d.ellipse((x, ry - 10, x + 20, ry + 10), outline=P.TICKET_OPEN, width=4)
        pts = str(points)
        pw = T.width(pts, 19, True)
        T.draw(img, x + w, ry, pts, 19, P.TICKET_DONE if done else P.INK, bold=True, align="right")
        T.draw(img, x + 28, ry, T.fit(label, 18, False, w - 40 - pw), 18, P.INK)
    if len(shown) < len(rows):
        ry = y + h + len(shown) * line + 12
        T.draw(img, x + 28, ry, t("render.more", locale, count=len(rows) - len(shown)), 18,
               P.INK_SOFT)
    return h + line * (len(shown) + (len(shown) < len(rows)))
