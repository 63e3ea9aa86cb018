"""The turn card's one line for a map's own public state (RULES.md §12–§17): the shares each
player holds (Pennsylvania; the dummy's count only, its companies are hidden), the bullet track
and the Bullet Trains left (Japan), the ferry cards each player holds (Italy) and the game's
bonus cards (Northern Lights; who leads one can depend on hands and tickets, which are hidden,
so the card names them and the final scores tell). None on a map without such state."""
from ...i18n import t
from ...render.palette import STANDARD
from .card_text import mark
from .format import sep


def _per_seat(values, palette):
    return " ".join(f"{mark(seat, palette)} {value}" for seat, value in enumerate(values))


def map_state_line(game, loc, palette=STANDARD):
    """One short line of the map's extra public state, or None; each seat after its mark in
    `palette` (the game's: the marks of the standings above it)."""
    extra = game.extra
    parts = []
    shares = extra.get("shares")
    if shares is not None:
        counts = [sum(len(n) for n in held.values()) for held in shares["held"]]
        text = t("bot.map_state.shares", loc, seats=_per_seat(counts, palette))
        if "dummy" in shares:
            text += " " + t("bot.map_state.dummy", loc,
                            count=sum(len(n) for n in shares["dummy"].values()))
        parts.append(text)
    bullet = extra.get("bullet")
    if bullet is not None:
        parts.append(t("bot.map_state.bullet", loc, seats=_per_seat(bullet["track"], palette),
                       supply=bullet["supply"]))
    ferry = extra.get("ferry_cards")
    if ferry is not None:
        parts.append(t("bot.map_state.ferry_cards", loc, seats=_per_seat(ferry["held"], palette)))
    bonus = extra.get("bonus_cards")
    if bonus is not None:
        parts.append(t("bot.map_state.bonus_cards", loc, cards=sep(loc).join(bonus["cards"])))
    return " · ".join(parts) if parts else None
