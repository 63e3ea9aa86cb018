"""The side panel: who plays, scores, what is left, the face-up cards; the viewer's cards and
tickets on a private board; the score breakdown on the final picture.

Each section is drawn in two passes over the same geometry: `static=True` draws what never
changes (titles, column heads, legends) into the cached page, `static=False` the figures of
this turn. Beside a portrait map the panel is tall and narrow, and everything in it is drawn
larger (`zoom`). All sentences come from the message catalog (`render.*`).
"""
import math
from contextlib import nullcontext
from functools import lru_cache

from PIL import Image, ImageDraw

from ..engine.cards import GRAY, LOCO
from ..i18n import t
from . import extras as EX
from . import palette as P
from . import text as T
from . import tickets as TK
from .geometry import shape

PAD = 16
PORTRAIT_ZOOM = 1.3


# ----- small pictures, cached -----------------------------------------------------------------

@lru_cache(maxsize=256)
def card_image(card, w, h, locale):
    """A train card: its colour (rainbow stripes for a locomotive) and its letter."""
    ss = 3
    big = Image.new("RGBA", (w * ss, h * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    r = max(5, w // 9) * ss
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
        d.rounded_rectangle(box, r, outline=P.OUTLINE + (255,), width=2 * ss)
    else:
        d.rounded_rectangle(box, r, fill=P.CARD_RGB[card] + (255,), outline=P.OUTLINE + (255,),
                            width=2 * ss)
    img = big.resize((w, h), Image.Resampling.LANCZOS)
    letter = t(f"render.letter.{P.card_name(card)}", locale)
    size = round(min(w, h) * 0.55)
    size = T.fit_size(letter, size, True, w * 0.8, smallest=8)   # a wide letter still fits
    if card == LOCO:
        T.draw(img, w / 2, h / 2, letter, size, P.OUTLINE + (255,), bold=True,
               halo=P.WHITE + (255,), halo_width=max(2, size // 10), align="center")
    else:
        T.draw(img, w / 2, h / 2, letter, size, P.CARD_INK[card] + (255,), bold=True,
               align="center")
    return img


@lru_cache(maxsize=64)
def swatch(seat, size, scheme=P.STANDARD):
    """A player's colour square with their mark (solid in the colour-blind scheme, as on the
    cars)."""
    ss = 3
    img = Image.new("RGBA", (size * ss, size * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, size * ss - 1, size * ss - 1), size // 6 * ss,
                        fill=P.player_rgb(seat, scheme), outline=P.CAR_LINE, width=2 * ss)
    kind = P.player_shape(seat, scheme)
    c, R = size * ss / 2, size * ss * 0.27
    lw = round(size * ss * 0.09)
    ink = P.player_ink(seat, scheme)
    if P.scheme_of(scheme).filled:
        if kind == "ring":
            d.ellipse(shape("ring", c, c, R), fill=ink)
        elif kind == "bars":
            for dx in (-R * 0.5, R * 0.5):
                d.rectangle((c + dx - R * 0.21, c - R, c + dx + R * 0.21, c + R), fill=ink)
        else:
            d.polygon(shape(kind, c, c, R), fill=ink)
    elif kind == "ring":
        d.ellipse(shape("ring", c, c, R), outline=ink, width=lw)
    elif kind == "bars":
        for dx in (-R * 0.55, R * 0.55):
            d.rectangle((c + dx - lw / 2, c - R, c + dx + lw / 2, c + R), fill=ink)
    else:
        d.polygon(shape(kind, c, c, R), outline=ink, width=lw)
    return img.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def legend_icon(key, w, h):
    """The little picture before each entry of the key."""
    from .static import _loco_disc
    ss = 3
    icon = Image.new("RGBA", (44 * ss, 24 * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(icon)
    cx, cy = 22 * ss, 12 * ss
    slot = (cx - 18 * ss, cy - 7 * ss, cx + 18 * ss, cy + 7 * ss)
    if key == "tunnel":
        for dd in (-11, 0, 11):
            for side in (-1, 1):
                yy = cy + side * 6 * ss
                d.polygon([(cx + (dd - 4) * ss, yy), (cx + dd * ss, yy + side * 6 * ss),
                           (cx + (dd + 4) * ss, yy)], fill=P.OUTLINE)
        d.rounded_rectangle(slot, 4 * ss, fill=P.slot_fill(GRAY), outline=P.OUTLINE, width=2 * ss)
    elif key == "ferry":
        d.rounded_rectangle(slot, 4 * ss, fill=P.slot_fill(GRAY), outline=P.slot_line(GRAY),
                            width=2 * ss)
        _loco_disc(d, cx, cy, 7 * ss)
    elif key == "station":
        house(d, cx, cy, 10 * ss, P.WHITE, P.CAR_LINE, 2 * ss)
    elif key in ("last", "trail"):
        d.rounded_rectangle((cx - 21 * ss, cy - 11 * ss, cx + 21 * ss, cy + 11 * ss), 9 * ss,
                            fill=P.HIGHLIGHT if key == "last" else P.TRAIL)
        d.rounded_rectangle((cx - 15 * ss, cy - 6 * ss, cx + 15 * ss, cy + 6 * ss), 3 * ss,
                            fill=P.WHITE, outline=P.CAR_LINE, width=2 * ss)
    elif key in ("ticket_open", "ticket_done"):
        # two badges of one number, the pair of cities of one ticket (tickets.py)
        for bx in (cx - 11 * ss, cx + 11 * ss):
            box = (bx - 10 * ss, cy - 10 * ss, bx + 10 * ss, cy + 10 * ss)
            if key == "ticket_open":
                d.ellipse(box, fill=P.WHITE, outline=P.TICKET_OPEN, width=3 * ss)
            else:
                d.ellipse(box, fill=P.TICKET_DONE, outline=P.CAR_LINE, width=1 * ss)
    elif key == "ticket_offer":
        # two violet squares of one letter: an offered ticket's cities (tickets.py)
        for bx in (cx - 11 * ss, cx + 11 * ss):
            d.rectangle((bx - 9 * ss, cy - 9 * ss, bx + 9 * ss, cy + 9 * ss), fill=P.TICKET_OFFER,
                        outline=P.CAR_LINE, width=1 * ss)
    elif key == "ticket_made":
        d.line(((cx - 20 * ss, cy), (cx + 20 * ss, cy)), fill=P.CAR_LINE, width=8 * ss)
        d.line(((cx - 20 * ss, cy), (cx + 20 * ss, cy)), fill=P.INK_SOFT, width=5 * ss)
    elif key == "ticket_failed":         # as tickets.py draws it: thin, dashed, faded
        for a, b in ((-20, -12), (-4, 4), (12, 20)):
            d.line(((cx + a * ss, cy), (cx + b * ss, cy)), fill=P.failed_rgb(P.INK_SOFT),
                   width=3 * ss)
    elif key in ("mountain", "bullet", "waves", "draw_bonus", "loop", "shares"):
        legend_mark(d, key, cx, cy, ss, slot)
    img = icon.resize((w, h), Image.Resampling.LANCZOS)
    if key == "draw_bonus":
        T.draw(img, w / 2, h / 2, "+1", round(h * 0.5), P.INK + (255,), bold=True, align="center")
    if key == "shares":
        T.draw(img, w / 2, h / 2, "15", round(h * 0.45), P.WHITE + (255,), bold=True, align="center")
    if key in ("ticket_open", "ticket_done", "ticket_offer"):
        ink = P.INK if key == "ticket_open" else P.WHITE
        tag = TK.offer_tag(1) if key == "ticket_offer" else "1"
        for bx in (w / 2 - 11 * w / 44, w / 2 + 11 * w / 44):
            T.draw(img, bx, h / 2, tag, round(h * 0.55), ink + (255,), bold=True, align="center")
    return img


def legend_mark(d, key, cx, cy, ss, slot):
    """The key's icon of a map's own mark (marks.py: as drawn on the map)."""
    from . import extras as EX
    from . import marks as M
    if key == "loop":
        d.rounded_rectangle((cx - 21 * ss, cy - 8 * ss, cx + 21 * ss, cy + 8 * ss), 7 * ss,
                            fill=EX.LOOP_RGB)
        return
    if key == "shares":
        d.rounded_rectangle((cx - 10 * ss, cy - 10 * ss, cx + 10 * ss, cy + 10 * ss), 3 * ss,
                            fill=M.COMPANY_RGB[15])
        return
    if key == "draw_bonus":
        d.ellipse((cx - 11 * ss, cy - 11 * ss, cx + 11 * ss, cy + 11 * ss), fill=M.BADGE_FILL,
                  outline=P.OUTLINE, width=2 * ss)
        return
    d.rounded_rectangle(slot, 4 * ss, fill=P.slot_fill(GRAY), outline=P.slot_line(GRAY),
                        width=2 * ss)
    if key == "mountain":
        for a, b in (((-7, -7), (7, 7)), ((-7, 7), (7, -7))):
            d.line(((cx + a[0] * ss, cy + a[1] * ss), (cx + b[0] * ss, cy + b[1] * ss)),
                   fill=M.MOUNTAIN_INK, width=4 * ss)
    elif key == "bullet":
        d.line(((cx - 14 * ss, cy), (cx + 14 * ss, cy)), fill=M.BULLET_INK, width=5 * ss)
    else:
        for n in (-3, 3):
            d.line([(cx + x * ss, cy + (n + 2 * math.sin(x / 3)) * ss) for x in range(-14, 15, 2)],
                   fill=M.WAVE_INK, width=2 * ss)


def house(d, cx, cy, r, fill, line, width):
    pts = [(cx - r, cy + r), (cx - r, cy - r * 0.1), (cx, cy - r), (cx + r, cy - r * 0.1),
           (cx + r, cy + r)]
    d.polygon(pts, fill=fill, outline=line, width=width)


def crown(d, cx, cy, r):
    pts = [(cx - r, cy + r * 0.7), (cx - r, cy - r * 0.5), (cx - r * 0.5, cy),
           (cx, cy - r * 0.9), (cx + r * 0.5, cy), (cx + r, cy - r * 0.5), (cx + r, cy + r * 0.7)]
    d.polygon(pts, fill=P.CROWN, outline=P.CAR_LINE, width=2)


def paste(img, sprite, x, y):
    T.paste(img, sprite, x, y)          # mirrored on a right-to-left page (T.mirrored)


def name_of(names, seat, locale):
    """The seat's name, or "Player N" when there is none or no font draws any of it."""
    if names and 0 <= seat < len(names) and names[seat] and T.visible(str(names[seat])):
        return str(names[seat])
    return t("render.player", locale, n=seat + 1)


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
    items += [key for key, has in (                 # a map's own marks (marks.py, extras.py)
        ("mountain", any(r.mountain for r in board.routes)),
        ("bullet", any(r.bullet for r in board.routes)),
        ("waves", any(r.waves for r in board.routes)),
        ("draw_bonus", any(r.draw_bonus for r in board.routes)),
        ("shares", any(r.shares for r in board.routes)),
        ("loop", kind == "final" and "grand_tour" in board.rules.mechanics)) if has]
    if kind == "private":
        items += ["ticket_offer", "ticket_open", "ticket_done"]
    if kind == "final":
        items += ["ticket_made", "ticket_failed"]
    return items


def final_rows(rules):
    rows = ["routes", "tickets_won", "tickets_lost"]
    if rules.longest_path_bonus:
        rows.append("longest")
    if rules.globetrotter_bonus:
        rows.append("globetrotter")
    if rules.stations:
        rows.append("stations")
    return rows + [m for m in rules.mechanics if m in MAP_BONUSES]   # a map's own bonuses


# a map mechanic's row of the final scores -> its key in the engine's score's bonuses
MAP_BONUSES = {"grand_tour": "grand_tour", "asian_explorer": "asian_explorer", "shares": "shares",
               "bullet": "bullet_track", "regions": "regions", "bonus_cards": "bonus_cards"}


# ----- the panel ------------------------------------------------------------------------------

class Panel:
    """The panel of one page kind of one map, at one zoom."""

    def __init__(self, board, kind, portrait, locale="en", scheme=P.STANDARD):
        self.board, self.kind, self.portrait, self.locale = board, kind, portrait, locale
        self.scheme = scheme                # the players' colours (palette.SCHEMES)
        self.base = T.direction(locale)     # "rtl" for a right-to-left language's sentences
        self.z = PORTRAIT_ZOOM if portrait else 1.0
        k = self.k
        self.row = k(54)
        self.card = (k(66), k(92))
        self.mini = (k(34), k(50))
        self.gap = k(12)
        self.title_h = k(30)
        self.status_h = k(44)
        self.move_h = k(34)
        self.legend_row = k(32)
        self.line = k(27)
        self.final_row = k(30)
        self.n_max = board.rules.max_players
        self.legend = legend_items(board, kind)

    def k(self, v):
        return round(v * self.z)

    # heights
    def table_h(self):
        return self.title_h + self.row * self.n_max

    def market_h(self):
        return self.title_h + self.card[1] + self.k(12) + self.k(30)

    def market_w(self):
        return 5 * self.card[0] + 4 * self.gap

    def legend_h(self, cols=2):
        return self.title_h + self.legend_row * ((len(self.legend) + cols - 1) // cols)

    def hand_h(self):
        return self.title_h + self.mini[1] + self.k(30)

    def key_h(self, cols=2):
        rows = (9 + cols - 1) // cols
        return self.title_h + rows * self.k(46)

    def final_card_h(self):
        rows = len(final_rows(self.board.rules)) + len(EX.seat_columns(self.board))
        return self.k(60) + self.final_row * rows + self.k(8)

    def band_height(self):
        """How high the band under a landscape map must be."""
        if self.kind == "final":
            need = self.k(56) + self.final_card_h()
        else:
            col_a = self.status_h + self.move_h + self.k(6) + self.table_h()
            col_b = self.market_h() + self.k(8) + self.legend_h()
            col_c = (self.hand_h() + self.k(6) + self.title_h + self.line * 6
                     if self.kind == "private" else self.key_h())
            need = max(col_a, col_b, col_c)
        return need + 2 * PAD

    # geometry
    def sections(self, lay):
        """[(section, x, y, w, h)] of this panel on the page."""
        x0, y0, x1, y1 = lay.panel
        ix, iy, iw = x0 + PAD, y0 + PAD - 4, x1 - x0 - 2 * PAD
        bottom = y1 - PAD
        k = self.k
        out = []
        if self.kind == "final":
            if self.portrait:
                lh = self.legend_h()
                out.append(("final", ix, iy, iw, bottom - iy - lh - 20))
                if self.legend:
                    out.append(("legend", ix, bottom - lh, iw, lh))
            else:
                lw = 190 * len(self.legend)
                out.append(("final", ix, iy, iw, bottom - iy))
                if self.legend:
                    out.append(("legend_row", x1 - PAD - lw, iy + 6, lw, 32))
            return out
        if self.portrait:
            y = iy
            out.append(("status", ix, y, iw, self.status_h))
            y += self.status_h
            out.append(("last_move", ix, y, iw, self.move_h))
            y += self.move_h + k(6)
            out.append(("players", ix, y, iw, self.table_h()))
            y += self.table_h() + k(24)
            out.append(("market", ix, y, iw, self.market_h()))
            y += self.market_h() + k(16)
            out.append(("legend", ix, y, iw, self.legend_h()))
            y += self.legend_h() + k(20)
            if self.kind == "private":
                out.append(("hand", ix, y, iw, self.hand_h()))
                y += self.hand_h() + k(10)
                out.append(("tickets", ix, y, iw, bottom - y))
            else:
                out.append(("key", ix, y, iw, self.key_h(3)))
            return out
        aw = 900
        out.append(("status", ix, iy, aw, self.status_h))
        out.append(("last_move", ix, iy + self.status_h, aw, self.move_h))
        out.append(("players", ix, iy + self.status_h + self.move_h + 6, aw, self.table_h()))
        bx = ix + aw + 36
        mw = self.market_w()
        out.append(("market", bx, iy, mw, self.market_h()))
        out.append(("legend", bx, iy + self.market_h() + 8, mw, self.legend_h()))
        cx = bx + mw + 36
        cw = x1 - PAD - cx
        if self.kind == "private":
            out.append(("hand", cx, iy, cw, self.hand_h()))
            ty = iy + self.hand_h() + 6
            out.append(("tickets", cx, ty, cw, bottom - ty))
        else:
            out.append(("key", cx, iy, cw, self.key_h()))
        return out

    # drawing: on a right-to-left page the panel is drawn as its mirror (T.mirrored)
    def mirror(self, img, lay):
        return T.mirrored(img, lay.panel) if self.base == "rtl" else nullcontext()

    def draw_static(self, img, lay):
        with self.mirror(img, lay):
            self._draw_static(img, lay)

    def draw(self, img, lay, g, names, viewer=None, tickets=()):
        with self.mirror(img, lay):
            self._draw(img, lay, g, names, viewer, tickets)

    def draw_final(self, img, lay, g, names, players, winners):
        with self.mirror(img, lay):
            self._draw_final(img, lay, g, names, players, winners)

    def _draw_static(self, img, lay):
        x0, y0, x1, y1 = lay.panel
        d = ImageDraw.Draw(img)
        d.rounded_rectangle((x0, y0, x1, y1), 12, fill=P.PANEL_BG, outline=P.RULE, width=2)
        for name, x, y, w, _h in self.sections(lay):
            if name == "players":
                self.players_head(img, x, y, w)
            elif name == "market":
                self.title(img, x, y, "render.faceup")
            elif name == "legend":
                self.legend_block(img, x, y, w, 2, True)
            elif name == "legend_row":
                self.legend_block(img, x, y, w, len(self.legend), False)
            elif name == "key":
                self.colour_key(img, x, y, w)
            elif name == "hand":
                self.title(img, x, y, "render.hand")
            elif name == "tickets":
                self.title(img, x, y, "render.your_tickets")

    def _draw(self, img, lay, g, names, viewer=None, tickets=()):
        for name, x, y, w, h in self.sections(lay):
            if name == "status":
                self.status(img, x, y, w, g, names)
            elif name == "last_move":
                self.last_move(img, x, y, w, g, names)
            elif name == "players":
                self.players(img, x, y, w, g, names)
            elif name == "market":
                self.market(img, x, y, w, g)
            elif name == "hand":
                self.hand(img, x, y, w, g.hands[viewer])
            elif name == "tickets":
                self.tickets(img, x, y, w, h, tickets)

    def title(self, img, x, y, key):
        T.draw(img, x, y + self.k(12), t(key, self.locale).upper(), self.k(16), P.INK_SOFT,
               bold=True, base=self.base)

    def label(self, img, x, y, text, size, max_w, ink=P.INK):
        """A catalog label in at most max_w pixels: a little smaller if need be, then cut."""
        size = T.fit_size(text, size, False, max_w, smallest=max(10, round(size * 0.8)),
                          base=self.base)
        T.draw(img, x, y, T.fit(text, size, False, max_w, self.base), size, ink, base=self.base)

    # ----- sections -----
    def status(self, img, x, y, w, g, names):
        """Whose turn, or the game's phase; the final-round banner."""
        k, h, loc = self.k, self.status_h, self.locale
        if g.phase == "setup":
            text, who = t("render.status.setup", loc), None
        elif g.phase == "over":
            text, who = t("render.status.over", loc), None
        else:
            who = g.current
            text = t("render.status.turn", loc, name=T.isolate(name_of(names, who, loc)))
        bw = 0
        if g.final_turns_left is not None and g.phase != "over":
            banner = t("render.final_round", loc, count=g.final_turns_left)
            size = T.fit_size(banner, k(22), True, w // 2, base=self.base)
            bw = T.width(banner, size, True, self.base) + k(28)
            ImageDraw.Draw(img).rounded_rectangle((x + w - bw, y + 2, x + w, y + h - 4), k(10),
                                                  fill=P.BANNER)
            T.draw(img, x + w - bw / 2, y + (h - 2) / 2, banner, size, P.WHITE,
                   bold=True, align="center", base=self.base)
        tx = x
        if who is not None:
            paste(img, swatch(who, k(32), self.scheme), x, y + k(5))
            tx += k(42)
        size = k(26)
        T.draw(img, tx, y + h / 2, T.fit(text, size, True, w - bw - (tx - x) - 16, self.base), size,
               P.INK, bold=True, base=self.base)

    def last_move(self, img, x, y, w, g, names):
        k, loc, board = self.k, self.locale, g.board
        lm = g.last_move
        text = t("render.move.none", loc)
        if lm is not None:
            seat, kind, what = lm
            params = {"name": T.isolate(name_of(names, seat, loc))}
            if kind in ("claim_route", "tunnel_decline") and what is not None:
                params["route"] = board.route_label(what)
                params["points"] = g.rules.route_points.get(board.routes[what].length, 0)
            elif kind == "build_station" and what is not None:
                params["city"] = board.nodes[what].name
            try:
                text = t(f"render.move.{kind}", loc, **params)
            except KeyError:
                pass
        d = ImageDraw.Draw(img)
        mid = y + self.move_h / 2
        d.ellipse((x + k(4), mid - k(11), x + k(26), mid + k(11)), outline=P.HIGHLIGHT,
                  width=k(5))
        size = k(20)
        T.draw(img, x + k(38), mid, T.fit(text, size, False, w - k(40), self.base), size, P.INK,
               base=self.base)

    def _columns(self, w):
        """(key, x offset, width) of the players table."""
        k = self.k
        base = [("score", 96), ("trains", 96), ("cards", 84), ("tickets", 90)]
        if self.board.rules.stations:
            base.append(("stations", 96))
        base += EX.seat_columns(self.board)     # the map's own per-player state
        # figures get at most ~40% of the width: names matter more
        f = min(self.z, (w * 0.62 - k(60)) / sum(c for _, c in base))
        cols = [(key, round(c * f)) for key, c in base]
        name_w = w - k(60) - sum(c for _, c in cols)
        out = [("player", k(60), name_w)]
        x = k(60) + name_w
        for key, cw in cols:
            out.append((key, x, cw))
            x += cw
        return out

    def players_head(self, img, x, y, w):
        own = {key for key, _ in EX.seat_columns(self.board)}
        for i, (key, cx, cw) in enumerate(self._columns(w)):
            label = t(f"render.col.{key}", self.locale)
            size = T.fit_size(label, self.k(16), True, cw - 6, base=self.base)
            lines = [label]
            breaks = [i for i, ch in enumerate(label) if ch in " \u200b"]   # Thai: a zero-width space
            if key in own and size < self.k(14) and breaks:     # "Ferry / cards"
                cut = min(breaks, key=lambda i: abs(i - len(label) / 2))
                lines = [label[:cut], label[cut + 1:]]
                size = min(T.fit_size(ln, self.k(14), True, cw - 6, base=self.base)
                           for ln in lines)
            tx = x + cx + (cw / 2 if i else 0)
            step = round(size * 1.05)
            for j, ln in enumerate(lines):
                T.draw(img, tx, y + self.title_h / 2 - 1 + (j - (len(lines) - 1) / 2) * step, ln,
                       size, P.INK_SOFT, bold=True, align="center" if i else "left",
                       base=self.base)
        ImageDraw.Draw(img).line((x, y + self.title_h - 2, x + w, y + self.title_h - 2),
                                 fill=P.RULE, width=2)

    def players(self, img, x, y, w, g, names):
        """Colour and mark, name and score bar, score, trains, cards, tickets, stations, and the
        map's own state (shares, bullet track, ferry cards: extras.seat_values)."""
        k, row, loc = self.k, self.row, self.locale
        cols = self._columns(w)
        d = ImageDraw.Draw(img)
        scores = g.route_points
        top = max(scores) if scores else 0
        end_soon = g.rules.end_trains + 3
        own = EX.seat_values(g)
        for seat in range(g.n):
            ry = y + self.title_h + seat * row
            if g.phase == "play" and seat == g.current:
                d.rectangle((x, ry + 2, x + w, ry + row - 2), fill=P.TURN_BG)
                d.polygon([(x + 4, ry + row / 2 - k(9)), (x + 4 + k(12), ry + row / 2),
                           (x + 4, ry + row / 2 + k(9))], fill=P.INK)
            sw = k(36)
            paste(img, swatch(seat, sw, self.scheme), x + k(18) - 2, ry + (row - sw) / 2)
            _, nx, nw = cols[0]
            size = k(24)
            name = T.fit(name_of(names, seat, loc), size, True, nw - 10)
            T.draw(img, x + nx, ry + row / 2 - k(4), name, size, P.INK, bold=True)
            # score bar under the name: who is ahead, at a glance
            bw = nw - 10
            by0, by1 = ry + row - k(12), ry + row - k(8)
            d.rectangle((x + nx, by0, x + nx + bw, by1), fill=P.RULE)
            bar = 0 if top <= 0 else round(bw * max(0, scores[seat]) / top)
            if bar:
                d.rectangle((x + nx, by0, x + nx + bar, by1), fill=P.player_rgb(seat, self.scheme))
            values = {"score": (scores[seat], P.INK),
                      "trains": (g.trains[seat], P.BANNER if g.trains[seat] <= end_soon else P.INK),
                      "cards": (sum(g.hands[seat]), P.INK),
                      "tickets": (len(g.tickets[seat]), P.INK),
                      "stations": (g.stations_left[seat], P.INK)}
            for key, cx, cw in cols[1:]:
                if key in own:
                    self.cell_lines(img, x + cx + cw / 2, ry + row / 2, cw - 6, own[key][seat])
                elif key in values:
                    val, ink = values[key]
                    T.draw(img, x + cx + cw / 2, ry + row / 2, str(val),
                           k(28 if key == "score" else 24), ink, bold=True, align="center")

    def cell_lines(self, img, cx, cy, w, text):
        """A cell's text centred on (cx, cy) in w: on one line when it fits, else on two
        ("1×2 6×1 7×2" over "8×1 15×3"), smaller to fit, cut when it still does not."""
        k = self.k
        lines = [text]
        if T.width(text, k(24), True) > w and " " in text:
            words = text.strip("\u2066\u2069").split(" ")     # each line isolated again
            half = (len(words) + 1) // 2
            lines = ["\u2066" + " ".join(part) + "\u2069" for part in (words[:half], words[half:])]
        size = min(T.fit_size(ln, k(24) if len(lines) == 1 else k(20), True, w, smallest=k(15))
                   for ln in lines)
        step = round(size * 1.15)
        for i, ln in enumerate(lines):
            T.draw(img, cx, cy + (i - (len(lines) - 1) / 2) * step, T.fit(ln, size, True, w), size,
                   P.INK, bold=True, align="center")

    def market(self, img, x, y, w, g):
        """The five face-up cards; the sizes of the deck, the discard pile and the tickets."""
        k, loc = self.k, self.locale
        cw, ch = self.card
        top = y + self.title_h
        for i, c in enumerate(g.faceup):
            paste(img, card_image(c, cw, ch, loc), x + i * (cw + self.gap), top)
        py = top + ch + k(12) + k(14)
        items = [(t(key, loc), str(count)) for key, count in (("render.deck", len(g.deck)),
                                                               ("render.discard", len(g.discard)),
                                                               ("render.ticket_deck",
                                                                len(g.ticket_deck)))]
        col = self.market_w() / 3
        sizes = [T.fit_size(label, k(16), False, col - k(50), base=self.base)
                 for label, _ in items]
        if min(sizes) >= round(k(16) * 0.8):                # three equal columns
            for i, ((label, count), size) in enumerate(zip(items, sizes)):
                px = x + i * col
                lw = T.draw(img, px, py, label, size, P.INK_SOFT, base=self.base)
                T.draw(img, px + lw + k(8), py, count, k(22), P.INK, bold=True)
            return
        # longer labels (Thai, Japanese...): one size for the three, the room shared by need
        nums = [T.width(count, k(22), True) + k(8) for _, count in items]
        room = self.market_w() - sum(nums) - 2 * k(14)
        size = k(16)
        while size > 11 and sum(T.width(lb, size, False, self.base) for lb, _ in items) > room:
            size -= 1
        labels = [lb for lb, _ in items]
        if sum(T.width(lb, size, False, self.base) for lb in labels) > room:
            labels = [T.fit(lb, size, False, room / 3, self.base) for lb in labels]
        widths = [T.width(lb, size, False, self.base) for lb in labels]
        gap = (self.market_w() - sum(widths) - sum(nums)) / 2
        px = x
        for label, (_, count), lw, nw in zip(labels, items, widths, nums):
            T.draw(img, px, py, label, size, P.INK_SOFT, base=self.base)
            T.draw(img, px + lw + k(8), py, count, k(22), P.INK, bold=True)
            px += lw + nw + gap

    def legend_block(self, img, x, y, w, cols, heading):
        """Last move, tunnel, ferry, station, ticket cities, longest path."""
        if not self.legend:
            return
        k = self.k
        h = 0
        if heading:
            self.title(img, x, y, "render.legend")
            h = self.title_h
        cw = w / cols
        iw, ih = k(44), k(24)
        for i, key in enumerate(self.legend):
            ix, iy = x + (i % cols) * cw, y + h + (i // cols) * self.legend_row
            paste(img, legend_icon(key, iw, ih), ix, iy + 2)
            label = t(f"render.legend.{key}", self.locale)
            self.label(img, ix + iw + k(8), iy + 2 + ih / 2, label, k(17), cw - iw - k(14))

    def colour_key(self, img, x, y, w):
        """Each card colour with its letter and name (the colour-blind key)."""
        k = self.k
        self.title(img, x, y, "render.key")
        cols = 2 if w < 500 else 3
        rows = (9 + cols - 1) // cols
        cw, rh, kw, kh = w / cols, k(46), k(30), k(42)
        for i in range(9):
            ix, iy = x + (i // rows) * cw, y + self.title_h + (i % rows) * rh
            paste(img, card_image(i, kw, kh, self.locale), ix, iy)
            label = t(f"render.color.{P.card_name(i)}", self.locale)
            self.label(img, ix + kw + k(10), iy + kh / 2, label, k(17), cw - kw - k(14))

    def hand(self, img, x, y, w, counts):
        """The viewer's train cards: each kind with its count."""
        k = self.k
        mw, mh = self.mini
        gap = min(k(14), (w - 9 * mw) / 8)
        top = y + self.title_h
        for c in range(9):
            cx = x + c * (mw + gap)
            paste(img, card_image(c, mw, mh, self.locale), cx, top)
            n = counts[c]
            T.draw(img, cx + mw / 2, top + mh + k(14), str(n), k(20),
                   P.INK if n else P.ZERO_INK, bold=True, align="center")

    def tickets(self, img, x, y, w, max_h, rows):
        """The viewer's tickets as the map tags them (tickets.py): the offer being chosen
        first, in violet squares lettered as the menu, then the kept ones, each numbered in a
        badge (filled: done); the cities, the points."""
        k, line, loc = self.k, self.line, self.locale
        top = y + self.title_h
        if not rows:
            none = T.fit(t("render.no_tickets", loc), k(18), False, w, self.base)
            T.draw(img, x, top + k(12), none, k(18), P.INK_SOFT, base=self.base)
            return
        fit_rows = max(1, int((max_h - self.title_h) // line))
        shown = rows if len(rows) <= fit_rows else rows[:fit_rows - 1]
        r = k(11)
        for i, row in enumerate(shown):
            ry = top + i * line + k(12)
            TK.badge(img, x + r, ry, row.number, row.state, r)
            ink = P.TICKET_DONE if row.state == TK.DONE else (
                P.TICKET_OFFER if row.state == TK.OFFER else P.INK)
            size = k(19)
            pw = T.draw(img, x + w, ry, row.points, size, ink, bold=True, align="right")
            T.draw(img, x + 2 * r + k(8), ry,
                   T.fit(row.label, k(18), False, w - 2 * r - k(20) - pw), k(18), P.INK)
        if len(shown) < len(rows):
            ry = top + len(shown) * line + k(12)
            T.draw(img, x + 2 * r + k(8), ry, t("render.more", loc, count=len(rows) - len(shown)),
                   k(18), P.INK_SOFT, base=self.base)

    # ----- the final picture -----
    def _draw_final(self, img, lay, g, names, players, winners):
        for name, x, y, w, _h in self.sections(lay):
            if name == "final":
                self.final(img, x, y, w, g, names, players, winners)

    def final(self, img, x, y, w, g, names, players, winners):
        k, loc = self.k, self.locale
        d = ImageDraw.Draw(img)
        win_names = [T.isolate(name_of(names, s, loc)) for s in winners]
        if len(win_names) == 1:
            banner = t("render.final.winner", loc, name=win_names[0])
        else:
            banner = t("render.final.winners", loc, names=", ".join(win_names))
        head = t("render.final.title", loc).upper()
        tw = T.draw(img, x, y + k(21), head, k(18), P.INK_SOFT, bold=True, base=self.base) + k(24)
        room = w - tw - k(60) - (0 if self.portrait else 190 * len(self.legend) + 20)
        size = T.fit_size(banner, k(30), True, room, base=self.base)
        banner = T.fit(banner, size, True, room, self.base)
        bx = x + tw
        bw = T.width(banner, size, True, self.base) + k(70)
        d.rounded_rectangle((bx, y, bx + bw, y + k(42)), k(10), fill=P.TRAIL, outline=P.CAR_LINE,
                            width=2)
        crown(d, bx + k(24), y + k(22), k(12))
        T.draw(img, bx + k(46), y + k(21), banner, size, P.INK, bold=True, base=self.base)
        rows = final_rows(g.rules)
        held = EX.seat_lines(g, loc)        # what the map's state holds of each player
        card_h = self.final_card_h()
        n = g.n
        if self.portrait:
            cols, gap, card_w = 1, k(14), w
        else:
            cols, gap = n, 16
            card_w = (w - gap * (n - 1)) / n
        top = y + k(56)
        for seat, pl in enumerate(players):
            cx = x + (seat % cols) * (card_w + gap)
            cy = top + (seat // cols) * (card_h + gap)
            won = seat in winners
            d.rounded_rectangle((cx, cy, cx + card_w, cy + card_h), k(10),
                                fill=P.WIN_BG if won else P.SCORE_BG,
                                outline=P.TRAIL if won else P.RULE, width=4 if won else 2)
            paste(img, swatch(seat, k(36), self.scheme), cx + k(12), cy + k(12))
            total = str(pl["total"])
            totw = T.draw(img, cx + card_w - k(14), cy + k(31), total, k(36), P.INK, bold=True,
                          align="right")
            name = T.fit(name_of(names, seat, loc), k(24), True,
                         card_w - k(80) - totw - (k(30) if won else 0))
            nw = T.draw(img, cx + k(58), cy + k(30), name, k(24), P.INK, bold=True)
            if won:
                crown(d, cx + k(58) + nw + k(18), cy + k(30), k(10))
            d.line((cx + k(12), cy + k(56), cx + card_w - k(12), cy + k(56)), fill=P.RULE, width=2)
            for i, key in enumerate(rows):
                ry = cy + k(56) + self.final_row * i + self.final_row / 2 + k(4)
                val = _final_value(key, pl, loc)
                vw = T.draw(img, cx + card_w - k(14), ry, val, k(20),
                            P.BANNER if key == "tickets_lost" and val.startswith("–") else P.INK,
                            bold=True, align="right")
                self.label(img, cx + k(14), ry, t(f"render.final.{key}", loc), k(18),
                           card_w - k(36) - vw, ink=P.INK_SOFT)
            for i, text in enumerate(held[seat], start=len(rows)):   # the map's own state
                ry = cy + k(56) + self.final_row * i + self.final_row / 2 + k(4)
                self.label(img, cx + k(14), ry, text, k(18), card_w - k(28), ink=P.INK_SOFT)


def _final_value(key, pl, loc="en"):
    if key == "routes":
        return str(pl["route_points"])
    done = [tk for tk in pl["tickets"] if tk["completed"]]
    failed = [tk for tk in pl["tickets"] if not tk["completed"]]
    if key == "tickets_won":
        return f"+{sum(tk['points'] for tk in done)} ({len(done)})"
    if key == "tickets_lost":
        pts = sum(tk["points"] for tk in failed)
        return f"–{pts} ({len(failed)})" if pts else "0 (0)"   # en dash: the font has no U+2212
    if key == "longest":        # a length in cars, then the points: "20 cars, +10"
        bonus = pl["bonuses"]["longest_path"]
        length = t("render.final.longest_cars", loc, count=pl["longest_path"])
        return t("render.final.longest_cars_bonus", loc, length=length, bonus=bonus) if bonus else length
    if key == "globetrotter":
        bonus = pl["bonuses"]["globetrotter"]
        return f"{pl['tickets_completed']} · +{bonus}" if bonus else str(pl["tickets_completed"])
    if key == "stations":
        return f"+{pl['bonuses']['stations']}"
    if key in MAP_BONUSES:
        bonus = pl["bonuses"].get(MAP_BONUSES[key], 0)
        return f"+{bonus}" if bonus >= 0 else f"–{-bonus}"
    return ""
