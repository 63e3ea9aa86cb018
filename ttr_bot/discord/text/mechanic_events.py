"""The card's lines for what a map's own rules did (RULES.md §12–§17): a share taken
(Pennsylvania), a Bullet Train used (Japan), a draw bonus (Northern Lights), a ferry card taken
(Italy); and what only the actor learns of them (the bonus cards drawn, the dummy's share).
format.event_lines and private_lines ask here for any event they do not word themselves; an
event that follows its claim is told in the claim's own line (`claim_part`)."""
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

from ...engine.board import Board
from ...engine.cards import CARD_NAMES
from ...engine.event_types import (
    BULLET_TRAIN,
    DRAW_BONUS,
    DRAW_FERRY_CARD,
    SHARE,
    Event,
    PrivatePart,
)
from ...i18n import t

# what `private_line` words
PRIVATE_KINDS: frozenset[Literal["draw_bonus", "share"]] = frozenset({DRAW_BONUS, SHARE})


def event_line(e: Event, board: Board, names: Sequence[str], loc: str) -> str | None:
    """The public line of a map's own event, or None (not one of them)."""
    name = names[e["seat"]] if "seat" in e else ""
    if e["type"] == SHARE:
        return t("bot.ev.share", loc, name=name, company=e["company"], number=e["number"])
    if e["type"] == BULLET_TRAIN:
        return t("bot.ev.bullet_train", loc, name=name, track=e["track"], count=e["supply"])
    if e["type"] == DRAW_BONUS:
        return t("bot.ev.draw_bonus", loc, name=name, count=e["count"])
    if e["type"] == DRAW_FERRY_CARD:
        return t("bot.ev.draw_ferry_card", loc, name=name, count=e["held"])
    return None


def claim_part(e: Event, seat: int, loc: str) -> str | None:
    """What a map's own event right after `seat`'s claim adds to the claim's line (a share
    taken, a Bullet Train used, a draw bonus), or None: not such an event."""
    if e.get("seat") != seat:
        return None
    if e["type"] == SHARE:
        return t("bot.ev.share_part", loc, company=e["company"], number=e["number"])
    if e["type"] == BULLET_TRAIN:
        return t("bot.ev.bullet_part", loc, track=e["track"], count=e["supply"])
    if e["type"] == DRAW_BONUS:
        return t("bot.ev.draw_bonus_part", loc, count=e["count"])
    return None


def only_map_parts(parts: Iterable[PrivatePart]) -> bool:
    """Every one of a seat's private parts is what a map's own rules add (or there is none)."""
    return all(p["type"] in PRIVATE_KINDS for p in parts)


def private_line(p: PrivatePart, loc: str,
                 cards_text: Callable[[Mapping[str, int], str], str]) -> str | None:
    """What the actor alone learns from a map's own event, or None; `cards_text` words a
    {card name: count} (format.cards_text, which asks here: no import back)."""
    if p["type"] == DRAW_BONUS and p.get("cards"):
        return t("bot.you.bonus_cards", loc, cards=cards_text(_counts(p["cards"]), loc))
    if p["type"] == SHARE and (dummy := p.get("dummy")):
        company, number = dummy
        return t("bot.you.dummy_share", loc, company=company, number=number)
    return None


def _counts(cards: Sequence[int]) -> dict[str, int]:
    """A list of card indices -> {name: count} for cards_text."""
    out: dict[str, int] = {}
    for c in cards:
        out[CARD_NAMES[c]] = out.get(CARD_NAMES[c], 0) + 1
    return out
