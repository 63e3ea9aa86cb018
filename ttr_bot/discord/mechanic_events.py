"""The card's lines for what a map's own rules did (RULES.md §12–§17): a share taken
(Pennsylvania), a Bullet Train used (Japan), a draw bonus (Northern Lights), a ferry card taken
(Italy); and what only the actor learns of them (the bonus cards drawn, the dummy's share).
format.event_lines and private_lines ask here for any event they do not word themselves; an
event that follows its claim is told in the claim's own line (`claim_part`)."""
from ..engine.cards import CARD_NAMES
from ..i18n import t

PRIVATE_KINDS = frozenset({"draw_bonus", "share"})     # what `private_line` words


def event_line(e, board, names, loc):
    """The public line of a map's own event, or None (not one of them)."""
    kind = e["type"]
    name = names[e["seat"]] if "seat" in e else ""
    if kind == "share":
        return t("bot.ev.share", loc, name=name, company=e["company"], number=e["number"])
    if kind == "bullet_train":
        return t("bot.ev.bullet_train", loc, name=name, track=e["track"], count=e["supply"])
    if kind == "draw_bonus":
        return t("bot.ev.draw_bonus", loc, name=name, count=e["count"])
    if kind == "draw_ferry_card":
        return t("bot.ev.draw_ferry_card", loc, name=name, count=e["held"])
    return None


def claim_part(e, seat, loc):
    """What a map's own event right after `seat`'s claim adds to the claim's line (a share
    taken, a Bullet Train used, a draw bonus), or None: not such an event."""
    if e.get("seat") != seat:
        return None
    if e["type"] == "share":
        return t("bot.ev.share_part", loc, company=e["company"], number=e["number"])
    if e["type"] == "bullet_train":
        return t("bot.ev.bullet_part", loc, track=e["track"], count=e["supply"])
    if e["type"] == "draw_bonus":
        return t("bot.ev.draw_bonus_part", loc, count=e["count"])
    return None


def private_line(p, loc, cards_text):
    """What the actor alone learns from a map's own event, or None; `cards_text` words a
    {card name: count} (format.cards_text, which asks here: no import back)."""
    if p["type"] == "draw_bonus" and p.get("cards"):
        return t("bot.you.bonus_cards", loc, cards=cards_text(_counts(p["cards"]), loc))
    if p["type"] == "share" and p.get("dummy"):
        company, number = p["dummy"]
        return t("bot.you.dummy_share", loc, company=company, number=number)
    return None


def _counts(cards):
    """A list of card indices -> {name: count} for cards_text."""
    out = {}
    for c in cards:
        out[CARD_NAMES[c]] = out.get(CARD_NAMES[c], 0) + 1
    return out
