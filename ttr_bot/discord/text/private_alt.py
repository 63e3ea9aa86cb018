"""The alt text of a player's private board: what its ticket tags say, in words (screen
readers, and whoever cannot tell the badges apart). The tickets, their numbers and whether
each is done are the picture's own (render/tickets.py asks the engine), so the words and the
badges agree. Only ever attached to that player's own board: the tickets are hidden
information."""
from ...i18n import t
from ...render.extras import alt_lines
from ...render.tickets import DONE, OFFER, private_marks
from .format import map_title, sep

ALT_MAX = 1024          # Discord's limit on an attachment's description


def private_board_alt(game, seat, loc):
    rows, _ = private_marks(game, seat)
    parts = [t("bot.alt.private", loc, map=map_title(game.board, loc))]
    offer = [r for r in rows if r.state == OFFER]
    kept = [r for r in rows if r.state != OFFER]
    if offer:
        parts.append(t("bot.alt.offer", loc, tickets=sep(loc).join(
            t("bot.alt.ticket", loc, n=r.number, ticket=f"{r.label} ({r.points})")
            for r in offer)))
    if kept:
        parts.append(t("bot.alt.kept", loc, tickets=sep(loc).join(
            t("bot.alt.ticket_done" if r.state == DONE else "bot.alt.ticket_open", loc,
              n=r.number, ticket=f"{r.label} ({r.points})") for r in kept)))
    parts += alt_lines(game, None, loc)
    text = " ".join(parts)
    return text if len(text) <= ALT_MAX else text[:ALT_MAX - 1] + "…"
