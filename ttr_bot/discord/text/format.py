"""Everything the bot writes, as plain text: events, turn messages, hands, status, the reveal.

Pure functions of engine data and a locale; no Discord. The public functions read only public
information: `event_lines` takes the *public* events (the service already moved hidden parts
under Effects.private), and `status_lines` reads hand and ticket *counts*, never their contents.
"""
import unicodedata
from collections.abc import Sequence

from ...engine.board import Board
from ...engine.cards import CARD_NAMES, route_color_name
from ...engine.event_types import (
    BUILD_STATION,
    CLAIM_ROUTE,
    DRAW_CARD,
    DRAW_TICKETS,
    FINAL_ROUND,
    GAME_OVER,
    KEEP_TICKETS,
    PASS,
    RESHUFFLE,
    TUNNEL_DECLINE,
    TUNNEL_PAY,
    TUNNEL_REVEAL,
    DrawCardEvent,
    Event,
    KeepTicketsEvent,
    PrivatePart,
)
from ...engine.network import components, ticket_result
from ...i18n import t
from ...render.tickets import offer_tag
from ...stats import map_name
from . import mechanic_events

LIMIT = 2000            # characters in one message
ELLIPSIS = "…"
EMOJI = {"purple": "🟪", "blue": "🟦", "orange": "🟧", "white": "⬜", "green": "🟩",
         "yellow": "🟨", "black": "⬛", "red": "🟥", "locomotive": "🚂", "gray": "◻️"}
VARIANT_KEYS = {"base": "bot.variant.base", "1910": "bot.variant.1910", "mega": "bot.variant.mega",
                "big_cities": "bot.variant.big_cities"}


def sep(loc):
    """The list separator of the language ("、" in Japanese, "، " in Persian)."""
    return t("bot.list_sep", loc)


# ----- length limits --------------------------------------------------------------------------

def fit(text, limit=LIMIT):
    """`text` cut to `limit` characters, at a line end when one is near, marked with …"""
    if len(text) <= limit:
        return text
    cut = text[:limit - len(ELLIPSIS)]
    nl = cut.rfind("\n")
    if nl > limit // 2:
        cut = cut[:nl + 1]
    return cut + ELLIPSIS


def chunks(lines, limit=LIMIT):
    """Lines packed into as few messages of at most `limit` characters as possible."""
    out, cur = [], ""
    for line in lines:
        line = fit(line, limit)
        joined = line if not cur else cur + "\n" + line
        if len(joined) <= limit:
            cur = joined
        else:
            out.append(cur)
            cur = line
    if cur:
        out.append(cur)
    return out


def clip(text, limit=100):
    """For labels and choice names (Discord: 100 characters)."""
    return text if len(text) <= limit else text[:limit - 1] + ELLIPSIS


def fold(text):
    """Case- and accent-insensitive form for matching what a player typed."""
    norm = unicodedata.normalize("NFKD", str(text))
    return "".join(c for c in norm if not unicodedata.combining(c)).casefold()


# ----- cards, routes, tickets ---------------------------------------------------------------------
def card_name(card, loc):
    name = CARD_NAMES[card] if isinstance(card, int) else card
    return t(f"bot.card.{name}", loc)


def cards_text(cards, loc):
    """A 9-count tuple or a {name: count} dict -> '2 red, 3 locomotives' (or 'no cards'): a
    colour reads as an adjective ("2 red"), the locomotive as a noun with its plural."""
    if not isinstance(cards, dict):
        cards = {CARD_NAMES[i]: n for i, n in enumerate(cards) if n}
    parts = [t("bot.count_locomotives", loc, count=n, emoji=EMOJI[name]) if name == "locomotive"
             else t("bot.count_card", loc, count=n, card=card_name(name, loc), emoji=EMOJI[name])
             for name, n in sorted(cards.items(), key=lambda kv: CARD_NAMES.index(kv[0])) if n]
    return sep(loc).join(parts) if parts else t("bot.no_cards", loc)


def payment_text(cards, ferry, loc):
    """`cards_text`, with the ferry cards a claim spends (Italy) after them."""
    text = cards_text(cards, loc)
    return text + t("bot.pay.ferry_cards", loc, count=ferry) if ferry else text


def card_list_text(cards, loc):
    """A list of single cards (revealed, face-up) -> 'red, red, locomotive'."""
    if not cards:
        return t("bot.no_cards", loc)
    return sep(loc).join(f"{EMOJI[CARD_NAMES[c]]} {card_name(c, loc)}" for c in cards)


def route_text(board, r):
    return board.route_label(r)


def route_color_text(route, loc):
    name = route_color_name(route.color)
    return t("bot.color.gray", loc) if name == "gray" else card_name(name, loc)


def route_choice_label(board, route, loc):
    """'Denver – El Paso · red 4' (+ tunnel / ferry marks); at most 100 characters."""
    text = t("bot.route_choice", loc, route=board.route_label(route),
             color=route_color_text(route, loc), length=route.length)
    if route.tunnel:
        text += " · " + t("bot.tunnel", loc)
    if route.ferry:
        text += " · " + t("bot.ferry", loc, count=route.ferry)
    return clip(text)


def ticket_text(ticket):
    points = "/".join(str(p) for p in ticket.points)
    return f"{ticket.label()} ({points})"


def map_title(board, loc):
    """The map's name in `loc` (the map file's own name where the catalog has none), and its
    variant."""
    name = map_name(board.map_id, loc)
    if board.variant == "base":
        return name
    return f"{name} · {t(VARIANT_KEYS.get(board.variant, 'bot.variant.base'), loc)}"


# ----- public events --------------------------------------------------------------------------
def event_lines(events: Sequence[Event], board: Board, names: Sequence[str], loc: str,
                trains: Sequence[int] | None = None) -> list[str]:
    """One line per public event. Hidden parts never reach here (Effects.public)."""
    out: list[str] = []
    i = 0
    while i < len(events):
        e = events[i]
        if e["type"] == TUNNEL_REVEAL:      # a tunnel tried and settled in one line
            line, used = _tunnel_line(events, i, board, names, loc)
            if line:
                i += used
                line, i = _claim_parts(line, events, i, e["seat"], loc)
                out.append(line)
                continue
        if e["type"] == KEEP_TICKETS and e.get("setup"):       # everyone's first choice
            run: list[KeepTicketsEvent] = [e]
            while i + len(run) < len(events) and (k := events[i + len(run)])["type"] == KEEP_TICKETS \
                    and k.get("setup"):
                run.append(k)
            if len(run) > 1:
                i += len(run)
                out.append(t("bot.ev.keep_setup_many", loc, kept=sep(loc).join(
                    t("bot.ev.keep_setup_part", loc, name=names[k["seat"]], count=k["count"])
                    for k in run)))
                continue
        if e["type"] == DRAW_CARD:          # a turn's draws in one line
            draws: list[DrawCardEvent] = [e]
            while i + len(draws) < len(events) and (d := events[i + len(draws)])["type"] == DRAW_CARD \
                    and d.get("seat") == e.get("seat"):
                draws.append(d)
            i += len(draws)
            out.append(_draws_line(draws, names, loc))
            continue
        i += 1
        line = _event_line(e, board, names, loc, trains)
        if line and e["type"] == CLAIM_ROUTE:
            line, i = _claim_parts(line, events, i, e["seat"], loc)
        if line:
            out.append(line)
    return out


def _claim_parts(line: str, events: Sequence[Event], i: int, seat: int, loc: str) -> tuple[str, int]:
    """A claim's line with what the map's own rules did right after it (events[i:]: a share,
    a Bullet Train, a draw bonus), and the index after them."""
    while i < len(events) and (part := mechanic_events.claim_part(events[i], seat, loc)):
        line, i = f"{line} {part}", i + 1
    return line, i


def _tunnel_line(events: Sequence[Event], i: int, board: Board, names: Sequence[str],
                 loc: str) -> tuple[str | None, int]:
    """(line, events used) for a tunnel's try at events[i] settled by the events right after
    it: paid and claimed, claimed with nothing to add, or given up; (None, 0) while it waits."""
    e = events[i]
    assert e["type"] == TUNNEL_REVEAL
    after: list[Event] = []
    for x in events[i + 1:i + 3]:       # the try's own events, in a row
        if x.get("seat") != e["seat"] or x.get("route") != e["route"]:
            break
        after.append(x)
    kinds = [x["type"] for x in after]
    name, route = names[e["seat"]], board.routes[e["route"]]
    revealed = card_list_text(e["revealed"], loc)
    if kinds[:1] == [TUNNEL_DECLINE]:
        return t("bot.ev.tunnel_gave_up", loc, name=name, route=route_text(board, route),
                 revealed=revealed, count=e["extra"]), 2
    claim: Event
    if kinds[:2] == [TUNNEL_PAY, CLAIM_ROUTE]:
        claim, used = after[1], 3
    elif not e["extra"] and kinds[:1] == [CLAIM_ROUTE]:
        claim, used = after[0], 2
    else:
        return None, 0
    assert claim["type"] == CLAIM_ROUTE
    return t("bot.ev.tunnel_claim", loc, name=name, route=route_text(board, route),
             length=route.length, count=claim["points"], cards=cards_text(claim["cards"], loc),
             revealed=revealed), used


def _draws_line(run: Sequence[DrawCardEvent], names: Sequence[str], loc: str) -> str:
    """'Ann drew 2 cards: face-up ⬜ white, 1 from the deck.' (one draw: as before)."""
    name = names[run[0]["seat"]] if "seat" in run[0] else ""
    if len(run) == 1:
        return _draw_line(run[0], name, loc)
    deck = sum(1 for e in run if e.get("from") == "deck")
    if deck == len(run):
        return t("bot.ev.draw_deck_n", loc, name=name, count=deck)
    parts = [t("bot.ev.draw_part_faceup", loc, card=card_name(e["card"], loc),
               emoji=EMOJI[CARD_NAMES[e["card"]]]) for e in run if e.get("from") != "deck"]
    if deck:
        parts.append(t("bot.ev.draw_part_deck", loc, count=deck))
    return t("bot.ev.draw_mixed", loc, name=name, count=len(run), cards=sep(loc).join(parts))


def _draw_line(e: DrawCardEvent, name: str, loc: str) -> str:
    """'Ann drew a card from the deck.' / 'Ann took ⬜ white.'"""
    if e.get("from") == "deck":
        return t("bot.ev.draw_deck", loc, name=name)
    return t("bot.ev.draw_faceup", loc, name=name, card=card_name(e["card"], loc),
             emoji=EMOJI[CARD_NAMES[e["card"]]])


def _event_line(e: Event, board: Board, names: Sequence[str], loc: str,
                trains: Sequence[int] | None) -> str | None:
    name = names[e["seat"]] if "seat" in e else ""
    if e["type"] == KEEP_TICKETS:
        key = "bot.ev.keep_setup" if e.get("setup") else "bot.ev.keep"
        return t(key, loc, name=name, count=e["count"])
    if e["type"] == DRAW_CARD:
        return _draw_line(e, name, loc)
    if e["type"] == RESHUFFLE:
        return t("bot.ev.reshuffle", loc)
    if e["type"] == TUNNEL_REVEAL:
        if not e["extra"]:
            return t("bot.ev.tunnel_reveal_free", loc, name=name, route=route_text(board, e["route"]),
                     cards=cards_text(e["cards"], loc), revealed=card_list_text(e["revealed"], loc))
        return t("bot.ev.tunnel_reveal", loc, name=name, route=route_text(board, e["route"]),
                 cards=cards_text(e["cards"], loc), revealed=card_list_text(e["revealed"], loc),
                 count=e["extra"])
    if e["type"] == CLAIM_ROUTE:
        route = board.routes[e["route"]]
        return t("bot.ev.claim", loc, name=name, route=route_text(board, route),
                 length=route.length, count=e["points"], cards=cards_text(e["cards"], loc))
    if e["type"] == TUNNEL_PAY:
        return t("bot.ev.tunnel_pay", loc, name=name, cards=cards_text(e["cards"], loc))
    if e["type"] == TUNNEL_DECLINE:
        return t("bot.ev.tunnel_decline", loc, name=name, route=route_text(board, e["route"]))
    if e["type"] == DRAW_TICKETS:
        return t("bot.ev.draw_tickets", loc, name=name, count=e["count"])
    if e["type"] == BUILD_STATION:
        return t("bot.ev.station", loc, name=name, city=board.nodes[e["city"]].name,
                 cards=cards_text(e["cards"], loc))
    if e["type"] == PASS:
        return t("bot.ev.pass", loc, name=name)
    if e["type"] == FINAL_ROUND:
        left = trains[e["seat"]] if trains is not None else 0
        return t("bot.ev.final_round", loc, name=name, count=left)
    if e["type"] == GAME_OVER:
        return t("bot.ev.game_over_passes" if e.get("reason") == "passes" else "bot.ev.game_over", loc)
    return mechanic_events.event_line(e, board, names, loc)    # or None: "turn", the ping says it


def row_line(game, loc):
    """Face-up row and pile sizes (public)."""
    return t("bot.row", loc, cards=card_list_text(game.faceup, loc), deck=len(game.deck),
             discard=len(game.discard), tickets=len(game.ticket_deck))


# ----- private updates --------------------------------------------------------------------------
def private_lines(parts: Sequence[PrivatePart], board: Board, loc: str) -> list[str]:
    """What the actor alone learns from their events (Effects.private[seat])."""
    out = []
    for p in parts:
        if p["type"] == DRAW_CARD and "card" in p:
            out.append(t("bot.you.drew", loc, card=card_name(p["card"], loc),
                         emoji=EMOJI[CARD_NAMES[p["card"]]]))
        elif p["type"] == KEEP_TICKETS:
            kept = sep(loc).join(ticket_text(board.tickets[x]) for x in p.get("tickets", ()))
            out.append(t("bot.you.kept", loc, tickets=kept or "—"))
        elif p["type"] == DRAW_TICKETS:
            out.append(t("bot.you.offered", loc, count=len(p.get("offer", ()))))
        elif (line := mechanic_events.private_line(p, loc, cards_text)) is not None:
            out.append(line)
    return out


def hand_lines(view, loc, channel_id=None):
    """A player's own hand, tickets (done or not yet), trains and stations."""
    board = view.board
    lines = [t("bot.hand.title", loc, map=map_title(board, loc))
             if channel_id is None else
             t("bot.hand.title_in", loc, map=map_title(board, loc), channel=f"<#{channel_id}>")]
    lines.append(t("bot.hand.cards", loc, cards=cards_text(view.hand, loc), count=sum(view.hand)))
    if view.tickets:
        lines.append(t("bot.hand.tickets", loc))
        own = [r for r, o in enumerate(view.owner) if o == view.seat]
        comp = components(len(board.nodes), board, own)
        for tid in view.tickets:
            ticket = board.tickets[tid]
            done, _ = ticket_result(board, comp, ticket)
            lines.append(t("bot.hand.ticket_done" if done else "bot.hand.ticket_open", loc,
                           ticket=ticket_text(ticket)))
    else:
        lines.append(t("bot.hand.no_tickets", loc))
    stations = ""
    if board.rules.stations:
        stations = t("bot.hand.stations", loc, count=view.stations_left[view.seat])
    lines.append(t("bot.hand.trains", loc, trains=view.trains[view.seat], stations=stations))
    if view.offer:
        lines += offer_lines(board, view.offer, keep_min(view), loc)
    if view.tunnel:
        r, color, laid, revealed, extra = view.tunnel
        lines.append(t("bot.hand.tunnel", loc, route=route_text(board, r), count=extra,
                       revealed=card_list_text(revealed, loc)))
    return lines


def keep_min(view):
    return view.keep_min()


def offer_lines(board, offer, minimum, loc):
    lines = [t("bot.offer.title", loc, min=minimum, count=len(offer))]
    for i, tid in enumerate(offer, 1):
        ticket = board.tickets[tid]
        mark = t("bot.offer.long", loc) if ticket.long else ""
        lines.append(f"{offer_tag(i)}. {ticket_text(ticket)}{mark}")    # as the map tags it
    return lines


# ----- lobby, status, rules -----------------------------------------------------------------------
def lobby_lines(board, seats, host_name, loc, status="lobby"):
    rules = board.rules
    lines = [t("bot.lobby.title", loc, map=map_title(board, loc), host=host_name)]
    lines.append(t("bot.lobby.players", loc, count=len(seats), max=rules.max_players))
    lines += [f"{i + 1}. {name}" for i, name in enumerate(seats)]
    if status == "lobby":
        lines.append(t("bot.lobby.hint", loc, min=rules.min_players, max=rules.max_players))
    else:
        lines.append(t(f"bot.lobby.{status}", loc))
    return lines


def status_lines(game, names, loc):
    """Whose turn, route points so far, counts of cards and tickets, trains, decks, final round.
    Reads only public fields of the game."""
    board = game.board
    lines = [t("bot.status.title", loc, map=map_title(board, loc), turn=game.turn + 1)]
    if game.phase == "setup":
        waiting = sep(loc).join(names[p] for p in game.to_move())
        lines.append(t("bot.status.setup", loc, names=waiting))
    elif game.phase == "over":
        lines.append(t("bot.status.over", loc))
    else:
        step = {"second_card": "bot.step.second_card", "choosing": "bot.step.choosing",
                "tunnel": "bot.step.tunnel"}.get(game.step)
        lines.append(t("bot.status.to_move", loc, name=names[game.current],
                       step=t(step, loc) if step else ""))
    stations = bool(board.rules.stations)
    for p, name in enumerate(names):
        marker = "▶ " if game.phase == "play" and p == game.current else ""
        extra = t("bot.status.stations", loc, count=game.stations_left[p]) if stations else ""
        lines.append(t("bot.status.player", loc, marker=marker, name=name,
                       points=t("bot.unit.points", loc, count=game.route_points[p]),
                       cards=t("bot.unit.cards", loc, count=sum(game.hands[p])),
                       tickets=t("bot.unit.tickets", loc, count=len(game.tickets[p])),
                       trains=t("bot.unit.trains", loc, count=game.trains[p]), stations=extra))
    lines.append(row_line(game, loc))
    if game.final_turns_left is not None and game.phase != "over":
        lines.append(t("bot.status.final", loc, count=game.final_turns_left))
    return lines


def own_score_line(game, seat, loc):
    """A player's own score as if the game ended now (RULES §11.14): for their eyes only, as
    it depends on their tickets."""
    pl = game.scores(earned_only=True)[0][seat]     # no longest path before any claim
    return t("bot.status.you", loc, total=pl["total"], routes=pl["route_points"],
             tickets=pl["ticket_points"], bonuses=sum(pl["bonuses"].values()))


# ----- the end ----------------------------------------------------------------------------------
def reveal_lines(scores, names, loc, marks=None):
    """The final reveal: every player's tickets and score breakdown, winners first line; each
    player's line after their mark (`marks`: an emoji per seat, in the picture's colours), the
    longest path as its length and its points ("longest path: 20 cars, +10")."""
    players, winners = scores
    lines = [t("bot.end.title", loc, names=sep(loc).join(names[w] for w in winners))]
    order = sorted(range(len(players)), key=lambda p: -players[p]["total"])
    for p in order:
        pl = players[p]
        bonus = []
        for key, pts in pl["bonuses"].items():
            if pts and key != "longest_path":       # told with the path's length
                bonus.append(t(f"bot.end.bonus.{key}", loc, points=pts, signed=f"{pts:+d}"))
        length, got = pl["longest_path"], pl["bonuses"].get("longest_path")
        longest = (t("bot.end.longest_bonus", loc, count=length, points=got) if got
                   else t("bot.end.longest", loc, count=length))
        line = t("bot.end.player_line", loc, name=names[p], count=pl["total"],
                 routes=pl["route_points"], tickets=pl["ticket_points"],
                 done=pl["tickets_completed"], of=len(pl["tickets"]), longest=longest,
                 bonuses=sep(loc).join(bonus) if bonus else t("bot.end.no_bonus", loc))
        lines.append(f"{marks[p]} {line}" if marks else line)
        for tk in pl["tickets"]:
            to = "/".join(tk["to"]) if isinstance(tk["to"], list) else tk["to"]
            key = "bot.end.ticket_done" if tk["completed"] else "bot.end.ticket_failed"
            lines.append(t(key, loc, ticket=f"{tk['from']} – {to}", points=tk["points"]))
    return lines


def summary_lines(game, names, loc):
    """A text picture of the board when no image can be drawn: who owns which routes."""
    board = game.board
    lines = []
    for p, name in enumerate(names):
        routes = [board.route_label(r) for r in game.routes_of[p]]
        lines.append(t("bot.board.routes", loc, name=name,
                       routes=sep(loc).join(routes) if routes else "—"))
    return lines
