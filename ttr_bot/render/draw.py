"""Compose a picture: the cached static page, this turn's overlay, the panel, PNG bytes."""
import io

from PIL import ImageDraw

from ..engine.scoring import best_ticket_score, tickets_score
from ..i18n import t
from . import palette as P
from . import panel as PN
from . import static as S
from . import text as T
from .geometry import layout
from .trail import longest_trail_routes

PNG_LEVEL = 1          # zlib's fastest: most of a turn's time is the encoding
MARK_R = 5             # radius of a player's mark on a car, picture pixels
HOUSE_R = 9
TICKET_R = 17


def encode(img):
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


# ----- geometry of the panel ----------------------------------------------------------------

def _final_rows(rules):
    return 3 + bool(rules.longest_path_bonus) + bool(rules.globetrotter_bonus) + bool(rules.stations)


FINAL_ROW = 30


def _final_card_h(rules):
    return 60 + FINAL_ROW * _final_rows(rules) + 8


def page_layout(board, kind):
    """The layout, with a panel band just high enough for what this map can show."""
    n = board.rules.max_players
    if kind == "final":
        need = 56 + _final_card_h(board.rules)
    else:
        col_a = 44 + 34 + 6 + 30 + PN.ROW * n
        col_b = MARKET_H + 8 + 30 + 32 * ((len(PN.legend_items(board, kind)) + 1) // 2)
        col_c = 116 + 30 + 27 * 6 if kind == "private" else 30 + 5 * 46
        need = max(col_a, col_b, col_c)
    return layout(board, kind, need + 2 * PN.PAD)


MARKET_H = 30 + PN.CARD_H + 12 + 30


def sections(lay, board, kind):
    """[(section, x, y, w, max_h)] for the panel of this page kind."""
    x0, y0, x1, y1 = lay.panel
    ix, iy, iw = x0 + PN.PAD, y0 + PN.PAD - 4, x1 - x0 - 2 * PN.PAD
    bottom = y1 - PN.PAD
    n_max = board.rules.max_players
    table_h = 30 + PN.ROW * n_max
    market_w = 5 * PN.CARD_W + 4 * 12
    market_h = MARKET_H
    legend_rows = (len(PN.legend_items(board, kind)) + 1) // 2
    legend_h = 30 + 32 * legend_rows
    out = []
    if kind == "final":
        if lay.portrait:
            out.append(("final", ix, iy, iw, bottom - iy - legend_h - 20))
            out.append(("legend", ix, bottom - legend_h, iw, legend_h))
        else:
            items = len(PN.legend_items(board, kind))
            lw = 190 * items
            out.append(("final", ix, iy, iw, bottom - iy))
            out.append(("legend_row", x1 - PN.PAD - lw, iy + 6, lw, 32))
        return out
    if lay.portrait:
        y = iy
        out.append(("status", ix, y, iw, 44))
        out.append(("last_move", ix, y + 44, iw, 34))
        y += 44 + 34 + 6
        out.append(("players", ix, y, iw, table_h))
        y += table_h + 24
        out.append(("market", ix, y, iw, market_h))
        y += market_h + 16
        out.append(("legend", ix, y, iw, legend_h))
        y += legend_h + 20
        if kind == "private":
            out.append(("hand", ix, y, min(iw, 420), 110))
            y += 110 + 10
            out.append(("tickets", ix, y, iw, bottom - y))
        else:
            out.append(("key", ix, y, iw, 200))
        return out
    aw = 900
    out.append(("status", ix, iy, aw, 44))
    out.append(("last_move", ix, iy + 44, aw, 34))
    out.append(("players", ix, iy + 44 + 34 + 6, aw, table_h))
    bx = ix + aw + 36
    out.append(("market", bx, iy, market_w, market_h))
    out.append(("legend", bx, iy + market_h + 8, market_w, legend_h))
    cx = bx + market_w + 36
    cw = x1 - PN.PAD - cx
    if kind == "private":
        out.append(("hand", cx, iy, cw, 110))
        out.append(("tickets", cx, iy + 116, cw, bottom - iy - 116))
    else:
        out.append(("key", cx, iy, cw, 200))
    return out


def _static_panel(page, lay, board, locale):
    x0, y0, x1, y1 = lay.panel
    d = ImageDraw.Draw(page)
    d.rounded_rectangle((x0, y0, x1, y1), 12, fill=P.PANEL_BG, outline=P.RULE, width=2)
    for name, x, y, w, h in sections(lay, board, lay.kind):
        if name == "players":
            PN.players(page, x, y, w, board, None, locale, True, n=board.rules.max_players)
        elif name == "market":
            PN.market(page, x, y, w, None, locale, True)
        elif name == "legend":
            PN.legend(page, x, y, w, board, locale, True, lay.kind)
        elif name == "legend_row":
            PN.legend(page, x, y, w, board, locale, True, lay.kind,
                      cols=len(PN.legend_items(board, lay.kind)), heading=False)
        elif name == "key":
            PN.colour_key(page, x, y, w, locale, True)
        elif name == "hand":
            PN.hand(page, x, y, w, None, None, locale, True)
        elif name == "tickets":
            PN.tickets(page, x, y, w, h, None, locale, True)


# ----- the map overlay -------------------------------------------------------------------

def _overlay(img, art, g, *, highlight=True, trails=(), rings=()):
    lay, sp, board = art.layout, art.sprites, g.board
    ox, oy = lay.ox, lay.oy

    def put(rgb, box, mask):
        img.paste(rgb, (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy), mask)

    def at(rgb, x, y, mask):
        px, py = lay.pt(x, y)
        bx, by = round(px - mask.width / 2), round(py - mask.height / 2)
        img.paste(rgb, (bx, by, bx + mask.width, by + mask.height), mask)

    for routes in trails:
        box, mask = sp.trail(routes)
        put(P.TRAIL, box, mask)
    lm = g.last_move if highlight else None
    if lm and lm[1] in ("claim_route", "tunnel_decline") and lm[2] is not None:
        box, mask = sp.halo(lm[2])
        put(P.HIGHLIGHT, box, mask)
    for r, seat in enumerate(g.owner):
        if seat < 0:
            continue
        box, out, body = sp.car(r)
        put(P.CAR_LINE, box, out)
        put(P.player_rgb(seat), box, body)
        mark = sp.mark(P.player_shape(seat), MARK_R)
        ink = P.player_ink(seat)
        for x, y, _ in board.routes[r].slots:
            at(ink, x, y, mark)
    for node, rgb in rings:
        n = board.nodes[node]
        at(P.CAR_LINE, n.x, n.y, sp.ring(TICKET_R - 1, 9))
        at(rgb, n.x, n.y, sp.ring(TICKET_R, 5))
    if lm and lm[1] == "build_station" and lm[2] is not None:
        n = board.nodes[lm[2]]
        at(P.HIGHLIGHT, n.x, n.y, sp.ring(TICKET_R + 6, 7))
    for x, y, name in sp.labels():
        T.draw(img, ox + x, oy + y, name, S.LABEL_SIZE, P.INK, bold=True, halo=P.HALO,
               halo_width=3, valign="top")
    for node in sorted(g.station_owner):
        seat = g.station_owner[node]
        n = board.nodes[node]
        outline, body = sp.house(HOUSE_R)
        hx, hy = n.x + 12, n.y - 12
        at(P.CAR_LINE, hx, hy, outline)
        at(P.player_rgb(seat), hx, hy, body)
        at(P.player_ink(seat), hx, hy + 2, sp.mark(P.player_shape(seat), 4))


def _ticket_rows(g, seat):
    """[(label, points text, completed)] and the rings to draw on the map."""
    board = g.board
    held = [board.tickets[i] for i in g.tickets[seat]]
    if not held:
        return [], []
    if g.stations_of[seat]:
        results, _ = best_ticket_score(board, seat, g.routes_of[seat], held, g.stations_of[seat],
                                       g.owner)
    else:
        results = tickets_score(board, g.routes_of[seat], held)
    rows, state = [], {}
    for ticket, (done, _) in zip(held, results):
        rows.append((ticket.label(), "/".join(str(p) for p in ticket.points), done))
        for place in (ticket.origin,) + tuple(ticket.dests):
            for node in board.place_nodes.get(place, ()):
                state[node] = state.get(node, True) and done
    rings = [(node, P.TICKET_DONE if done else P.TICKET_OPEN) for node, done in sorted(state.items())]
    return rows, rings


# ----- pages ----------------------------------------------------------------------------------

def board_image(g, names, viewer=None, locale="en"):
    kind = "board" if viewer is None else "private"
    art = S.art(g.board, kind, locale, page_layout, _static_panel)
    img = art.page.copy()
    rows, rings = _ticket_rows(g, viewer) if viewer is not None else ([], [])
    _overlay(img, art, g, rings=rings)
    for name, x, y, w, h in sections(art.layout, g.board, kind):
        if name == "status":
            PN.status(img, x, y, w, g, names, locale, False)
        elif name == "last_move":
            PN.last_move(img, x, y, w, g, names, locale, False)
        elif name == "players":
            PN.players(img, x, y, w, g, names, locale, False)
        elif name == "market":
            PN.market(img, x, y, w, g, locale, False)
        elif name == "hand":
            PN.hand(img, x, y, w, g, viewer, locale, False)
        elif name == "tickets":
            PN.tickets(img, x, y, w, h, rows, locale, False)
    return img


def final_image(g, names, locale="en"):
    art = S.art(g.board, "final", locale, page_layout, _static_panel)
    img = art.page.copy()
    players, winners = g.scores()
    trails = []
    paths = {}
    for seat in range(g.n):
        length, routes = longest_trail_routes(g.board, g.routes_of[seat])
        paths[seat] = (length, routes)
    if g.rules.longest_path_bonus:
        holders = [s for s, pl in enumerate(players) if pl["bonuses"].get("longest_path")]
        trails = [paths[s][1] for s in holders if paths[s][1]]
    _overlay(img, art, g, highlight=False, trails=trails)
    for name, x, y, w, h in sections(art.layout, g.board, "final"):
        if name == "final":
            _final_panel(img, x, y, w, h, g, names, players, winners, locale)
    return img


def _final_panel(img, x, y, w, h, g, names, players, winners, locale):
    rules = g.rules
    win_names = [PN.name_of(names, s, locale) for s in winners]
    if len(win_names) == 1:
        banner = t("render.final.winner", locale, name=win_names[0])
    else:
        banner = t("render.final.winners", locale, names=", ".join(win_names))
    T.draw(img, x, y + 20, t("render.final.title", locale).upper(), 18, P.INK_SOFT, bold=True)
    tw = T.width(t("render.final.title", locale).upper(), 18, True) + 24
    size = T.fit_size(banner, 30, True, w - tw - 60)
    d = ImageDraw.Draw(img)
    bx = x + tw
    bw = T.width(banner, size, True) + 70
    d.rounded_rectangle((bx, y, bx + bw, y + 42), 10, fill=P.TRAIL, outline=P.CAR_LINE, width=2)
    _crown(d, bx + 24, y + 22, 12)
    T.draw(img, bx + 46, y + 21, banner, size, P.INK, bold=True)
    top = y + 56
    n = g.n
    rows = [("routes", lambda pl: f"{pl['route_points']}")]
    rows.append(("tickets_won", lambda pl: _won(pl)))
    rows.append(("tickets_lost", lambda pl: _lost(pl)))
    if rules.longest_path_bonus:
        rows.append(("longest", lambda pl: _bonus(pl["longest_path"], pl["bonuses"]["longest_path"])))
    if rules.globetrotter_bonus:
        rows.append(("globetrotter",
                     lambda pl: _bonus(pl["tickets_completed"], pl["bonuses"]["globetrotter"])))
    if rules.stations:
        rows.append(("stations", lambda pl: f"+{pl['bonuses']['stations']}"))
    row_h = FINAL_ROW
    card_h = _final_card_h(rules)
    if g.board.height > g.board.width:       # portrait: cards stacked
        cols, gap = 1, 14
        card_w = w
    else:
        cols, gap = n, 16
        card_w = (w - gap * (n - 1)) / n
    for seat, pl in enumerate(players):
        cx = x + (seat % cols) * (card_w + gap)
        cy = top + (seat // cols) * (card_h + gap)
        won = seat in winners
        d.rounded_rectangle((cx, cy, cx + card_w, cy + card_h), 10,
                            fill=(255, 250, 225) if won else (248, 247, 243),
                            outline=P.TRAIL if won else P.RULE, width=4 if won else 2)
        PN.paste(img, PN.swatch(seat, 36), cx + 12, cy + 12)
        total = str(pl["total"])
        T.draw(img, cx + card_w - 14, cy + 31, total, 36, P.INK, bold=True, align="right")
        tw = T.width(total, 36, True)
        name = T.fit(PN.name_of(names, seat, locale), 24, True, card_w - 80 - tw - (30 if won else 0))
        nw = T.draw(img, cx + 58, cy + 30, name, 24, P.INK, bold=True)
        if won:
            _crown(d, cx + 58 + nw + 18, cy + 30, 10)
        d.line((cx + 12, cy + 56, cx + card_w - 12, cy + 56), fill=P.RULE, width=2)
        for i, (key, fn) in enumerate(rows):
            ry = cy + 56 + row_h * i + row_h / 2 + 4
            val = fn(pl)
            vw = T.width(val, 20, True)
            label = T.fit(t(f"render.final.{key}", locale), 18, False, card_w - 36 - vw)
            T.draw(img, cx + 14, ry, label, 18, P.INK_SOFT)
            ink = P.BANNER if key == "tickets_lost" and val.startswith("–") else P.INK
            T.draw(img, cx + card_w - 14, ry, val, 20, ink, bold=True, align="right")


def _won(pl):
    pts = sum(tk["points"] for tk in pl["tickets"] if tk["completed"])
    k = sum(1 for tk in pl["tickets"] if tk["completed"])
    return f"+{pts} ({k})"


def _lost(pl):
    pts = sum(tk["points"] for tk in pl["tickets"] if not tk["completed"])
    k = sum(1 for tk in pl["tickets"] if not tk["completed"])
    return f"–{pts} ({k})" if pts else "0 (0)"       # en dash: the font has no U+2212


def _bonus(measure, bonus):
    return f"{measure} · +{bonus}" if bonus else f"{measure}"


def _crown(d, cx, cy, r):
    pts = [(cx - r, cy + r * 0.7), (cx - r, cy - r * 0.5), (cx - r * 0.5, cy),
           (cx, cy - r * 0.9), (cx + r * 0.5, cy), (cx + r, cy - r * 0.5), (cx + r, cy + r * 0.7)]
    d.polygon(pts, fill=(255, 190, 0), outline=P.CAR_LINE, width=2)
