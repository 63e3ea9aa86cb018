"""A map's own state in its pictures (issue 32): what the engine keeps in `game.extra` for a
map's mechanics, read through one named accessor each. A player's own (shares, bullet track,
ferry cards) stands in a column beside the standings where the picture has a players table (the
board and the private board: `seat_columns`, `seat_values`); the rest, and on the public map and
the final picture all of it, in one box in the map's emptiest corner (`draw_box`).
India's Grand Tours are drawn on the final picture (`grand_tour_routes`).

Each accessor returns None (or []) when the game's state does not hold what it reads, so a map
whose mechanic's state is not kept yet draws nothing of it, and a map without mechanics draws
exactly what it drew before. Nothing hidden is read: a dummy's shares are not.
"""
from PIL import ImageDraw

from ..engine.mechanics.grand_tour import disjoint_paths
from ..i18n import t
from . import palette as P
from . import text as T
from .static import fingerprint, labels

LOOP_RGB = (0, 150, 160)      # the final picture: the routes of a Grand Tour


def _state(g, name):
    extra = getattr(g, "extra", None) or {}
    return extra.get(name)


def bonus_cards(g):
    """[(letter, points)]: Northern Lights' bonus cards of this game (public, §17.4)."""
    st = _state(g, "bonus_cards")
    if not st or "cards" not in st:
        return []
    pts = g.board.rules.bonus_cards
    return [(c, pts.get(c, 0)) for c in st["cards"]]


def shares_held(g):
    """Per seat {company: shares}, or None: Pennsylvania's shares each player holds (§14),
    when the game's state keeps them (`extra["shares"]["held"]`: per seat, company -> share
    numbers). The dummy's (2 players) are hidden until the end and never read here."""
    st = _state(g, "shares")
    held = st.get("held") if isinstance(st, dict) else None
    if not held:
        return None
    return [{int(c): len(nums) for c, nums in dict(seat).items() if nums} for seat in held[:g.n]]


def bullet_track(g):
    """Per seat the bullet-track position, or None (Japan, §15.2: `extra["bullet"]["track"]`),
    and the Bullet Trains left in the supply (`extra["bullet"]["supply"]`)."""
    st = _state(g, "bullet")
    if not isinstance(st, dict) or "track" not in st:
        return None
    return list(st["track"][:g.n]), st.get("supply")


def shared_routes(g):
    """The claimed routes that are everyone's (Japan's bullet routes taken with a Bullet
    Train, §15.5.1: `extra["bullet"]["routes"]`): drawn as the bullet line's, no player's."""
    st = _state(g, "bullet")
    return frozenset(st.get("routes", ())) if isinstance(st, dict) else frozenset()


def ferry_cards(g):
    """Per seat the ferry cards held (Italy, §16.2: public counts, `extra["ferry_cards"]["held"]`),
    or None."""
    st = _state(g, "ferry_cards")
    if not isinstance(st, dict) or "held" not in st:
        return None
    return list(st["held"][:g.n])


def seat_columns(board):
    """[(column key, width in the table's units)]: the map's own per-player state, a column
    each beside the standings of the board pictures' players table (panel.Panel): Pennsylvania's
    shares, Japan's bullet track, Italy's ferry cards. [] on a map without such state."""
    out = []
    if any(r.shares for r in board.routes):
        out.append(("shares", 220))
    mech = board.rules.mechanics
    if "bullet" in mech:
        out.append(("bullet", 110))
    if "ferry_cards" in mech:
        out.append(("ferry_cards", 110))
    return out


def seat_values(g):
    """{column key: per seat the text of its cell} for `seat_columns`' columns, what the game's
    state holds (a column whose state is not kept yet is absent)."""
    out = {}
    shares = shares_held(g)
    if shares is not None:
        out["shares"] = [_shares_text(s) for s in shares]
    bullet = bullet_track(g)
    if bullet is not None:
        out["bullet"] = [str(n) for n in bullet[0]]
    ferries = ferry_cards(g)
    if ferries is not None:
        out["ferry_cards"] = [str(n) for n in ferries]
    return out


def _shares_text(held):
    """One player's shares as company×shares held ("1×2 7×1"), isolated left to right."""
    return "\u2066" + (" ".join(f"{c}×{n}" for c, n in sorted(held.items())) or "–") + "\u2069"


def seat_lines(g, locale):
    """Per seat the words for what the map's state holds of that player (Pennsylvania's shares
    as company×shares held, the company by its share count as on the chips; the bullet track;
    the ferry cards), one text per kind of state: [] per seat on a map without such state."""
    fns = []
    shares = shares_held(g)
    if shares is not None:
        fns.append(lambda s: t("render.extra.shares", locale, shares=_shares_text(shares[s])))
    bullet = bullet_track(g)
    if bullet is not None:
        fns.append(lambda s: t("render.extra.bullet", locale, n=bullet[0][s]))
    ferries = ferry_cards(g)
    if ferries is not None:
        fns.append(lambda s: t("render.extra.ferry_cards", locale, n=ferries[s]))
    return [[f(s) for f in fns] for s in range(g.n)]


def lines(g, names, locale, per_seat=True):
    """The box's lines: the bonus cards, the Bullet Trains left, then (per_seat: where no players
    table or score card shows them) a line per player with its `seat_lines`."""
    out = []
    cards = bonus_cards(g)
    if cards:
        out.append(t("render.final.bonus_cards", locale))
        out += [f"{c} · {t(f'render.bonus_card.{c}', locale)} +{p}" for c, p in cards]
    bullet = bullet_track(g)
    if bullet is not None and bullet[1] is not None:
        out.append(t("render.extra.bullet_supply", locale, n=bullet[1]))
    per_player = seat_lines(g, locale)
    if per_seat and any(per_player):
        for s in range(g.n):
            name = names[s] if names and s < len(names) and names[s] else t("render.player", locale, n=s + 1)
            out.append(t("render.extra.row", locale, name=T.isolate(name),
                         state=" · ".join(per_player[s])))
    return out


def _corner(board, lay, w, h):
    """(what it covers: 10 a city or car slot, 1 a city's name; x, y): where on the map
    (picture pixels) a w x h box covers the least: a corner when one is empty, else the emptiest place along the map's
    edges, else inside it (Pennsylvania's five players' shares fill more than a corner)."""
    key = (fingerprint(board), lay.ox, lay.oy, lay.map_w, lay.map_h, lay.scale, w, h)
    got = _PLACES.get(key)
    if got is None:
        if len(_PLACES) > 256:
            _PLACES.clear()
        got = _PLACES[key] = _place(board, lay.ox, lay.oy, lay.map_w, lay.map_h, lay.scale, w, h)
    return got


_PLACES = {}        # the box's place per map, page and box size: the same most turns


def _place(board, ox, oy, map_w, map_h, k, w, h):
    pts = [(ox + n.x * k, oy + n.y * k) for n in board.nodes] + \
        [(ox + x * k, oy + y * k) for r in board.routes for x, y, _ in r.slots]
    left, right, top, bottom = ox + 8, ox + map_w - w - 8, oy + 8, oy + map_h - h - 8
    spots = [(left, top), (right, top), (left, bottom), (right, bottom)]
    step = 40
    spots += [(x, y) for x in range(left, right, step) for y in (top, bottom)]
    spots += [(x, y) for y in range(top, bottom, step) for x in (left, right)]
    spots += [(x, y) for y in range(top + step, bottom, step) for x in range(left + step, right, step)]
    names = [(ox + x, oy + y, ox + x + T.width(name, size, True), oy + y + size)
             for x, y, name, _clear, size in labels(board, k)]
    best = None
    for x0, y0 in spots:
        hits = 10 * sum(x0 - 6 <= x <= x0 + w + 6 and y0 - 6 <= y <= y0 + h + 6
                        for x, y in pts)            # a car hidden is worse than a name
        hits += sum(x0 < b[2] and b[0] < x0 + w and y0 < b[3] and b[1] < y0 + h for b in names)
        if best is None or hits < best[0]:
            best = (hits, x0, y0)
            if not hits:
                break
    return best


def draw_box(img, lay, g, names, locale, per_seat=True):
    """The map's own state in a box in its emptiest corner; nothing when there is none.
    per_seat=False: the picture's players table has the per-player state (`seat_columns`)."""
    rows = lines(g, names, locale, per_seat)
    if not rows:
        return
    base = T.direction(locale)
    best = None
    for size in range(max(14, round(22 * lay.scale)), 12, -2):    # smaller to find a free place
        pad = round(size * 0.5)
        w = min(lay.map_w - 16, max(T.width(r, size, True, base) for r in rows) + 2 * pad)
        h = len(rows) * round(size * 1.35) + 2 * pad
        hits, x0, y0 = _corner(g.board, lay, w, h)
        if best is None or hits < best[0]:
            best = (hits, size, pad, w, h, x0, y0)
        if not hits:
            break
    _, size, pad, w, h, x0, y0 = best
    ImageDraw.Draw(img).rounded_rectangle((x0, y0, x0 + w, y0 + h), 8, fill=P.PANEL_BG,
                                          outline=P.FRAME, width=2)
    rtl = base == "rtl"
    for i, row in enumerate(rows):
        T.draw(img, x0 + w - pad if rtl else x0 + pad, y0 + pad + i * round(size * 1.35),
               T.fit(row, size, True, w - 2 * pad, base), size, P.INK, bold=True, valign="top",
               align="right" if rtl else "left", base=base)


def grand_tour_routes(g, seat, result):
    """The routes of `seat`'s Grand Tours (India, §12.3): for each completed ticket whose ends
    the engine finds joined by two paths sharing no route (grand_tour.disjoint_paths), a
    smallest set of the seat's routes that still holds two such paths (the loop)."""
    if "grand_tour" not in g.board.rules.mechanics:
        return []
    board = g.board
    routes = list(g.network_routes(seat))
    out = set()
    for tid, res in zip(g.tickets[seat], result["tickets"]):
        if not res["completed"]:
            continue
        tk = board.tickets[tid]
        a, b = board.place_nodes[tk.origin], board.place_nodes[tk.dests[0]]
        if disjoint_paths(board, routes, a, b) < 2:
            continue
        keep = list(routes)
        for r in routes:
            trial = [x for x in keep if x != r]
            if disjoint_paths(board, trial, a, b) >= 2:
                keep = trial
        out.update(keep)
    return sorted(out)


def alt_lines(g, names, locale, final=False):
    """The words for what this map's marks and state add to its picture (its alt text): one
    sentence per kind of mark the map has, the box's lines, and on the final picture the
    players whose Grand Tours are drawn."""
    board = g.board
    routes = board.routes
    out = [t(f"bot.alt.marks.{key}", locale) for key, has in (
        ("mountain", any(r.mountain for r in routes)), ("shares", any(r.shares for r in routes)),
        ("bullet", any(r.bullet for r in routes)), ("waves", any(r.waves for r in routes)),
        ("regions", any(n.region for n in board.nodes)),
        ("draw_bonus", any(r.draw_bonus for r in routes))) if has]
    insets = [n.name for n in board.nodes if n.inset is not None]
    if insets:
        out.append(t("bot.alt.marks.inset", locale, cities=", ".join(insets)))
    out += lines(g, names, locale)
    if final and "grand_tour" in board.rules.mechanics:
        players, _ = g.scores()
        who = [names[s] for s, pl in enumerate(players) if grand_tour_routes(g, s, pl)]
        if who:
            out.append(t("bot.alt.marks.loops", locale, names=", ".join(who)))
    return out
