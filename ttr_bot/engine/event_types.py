"""The types of the events `Game.apply` returns: one `TypedDict` per kind, the union `Event`, and
the kind names, each typed as its own literal (`Final`), so that `e["type"] == CLAIM_ROUTE`
narrows an `Event` to a `ClaimRouteEvent` and a misspelt key on it is a type error.

An event is a plain JSON-shaped dict (events.py builds the base game's, the map mechanics build
their own, mechanics/): it is written as it is into game records and owed outbox rows, and read
back from them. That is why these are TypedDicts and not dataclasses: a TypedDict is only a type
over the very dicts the engine builds, so nothing is converted, the stored JSON stays byte for
byte what it was, and an event read back from JSON (an old record, an outbox row) has the same
shape as a fresh one. Nothing checks them at run time; tests/engine/test_event_types.py plays
games on every map and checks every event against its type, which keeps these true.

`private` is what only the acting seat may see; the service splits it off before telling
anyone (service/effects.split_events), so it is `NotRequired` on every kind that has one: the
same type describes an engine event and its public part. A seat's private part is the event's
`private` with its `type` (`PrivatePart`).
"""
from typing import Final, Literal, NotRequired, TypeAlias, TypedDict, final

# ----- the kinds ------------------------------------------------------------------------------
# the base game's (events.py)
KEEP_TICKETS: Final = "keep_tickets"
TURN: Final = "turn"
DRAW_CARD: Final = "draw_card"
RESHUFFLE: Final = "reshuffle"
TUNNEL_REVEAL: Final = "tunnel_reveal"
CLAIM_ROUTE: Final = "claim_route"
TUNNEL_PAY: Final = "tunnel_pay"
TUNNEL_DECLINE: Final = "tunnel_decline"
DRAW_TICKETS: Final = "draw_tickets"
BUILD_STATION: Final = "build_station"
PASS: Final = "pass"
FINAL_ROUND: Final = "final_round"
GAME_OVER: Final = "game_over"
# a map's own rules' (mechanics/)
SHARE: Final = "share"                      # Pennsylvania (shares.py)
BULLET_TRAIN: Final = "bullet_train"        # Japan (bullet.py)
DRAW_BONUS: Final = "draw_bonus"            # Northern Lights (draw_bonus.py)
DRAW_FERRY_CARD: Final = "draw_ferry_card"  # Italy (ferry_cards.py)

Kind: TypeAlias = Literal[
    "keep_tickets", "turn", "draw_card", "reshuffle", "tunnel_reveal", "claim_route",
    "tunnel_pay", "tunnel_decline", "draw_tickets", "build_station", "pass", "final_round",
    "game_over", "share", "bullet_train", "draw_bonus", "draw_ferry_card"]

Cards: TypeAlias = dict[str, int]       # a payment: {"colour": count} (cards.counts_to_dict)


# ----- what only the actor sees (an event's "private") -------------------------------------------
class KeepTicketsPrivate(TypedDict):
    tickets: list[int]      # the ticket ids kept
    returned: list[int]     # and those given back


class DrawCardPrivate(TypedDict):
    card: int               # the card drawn from the deck


class DrawTicketsPrivate(TypedDict):
    offer: list[int]        # the ticket ids to choose from


class DrawBonusPrivate(TypedDict):
    cards: list[int]        # the cards drawn


class SharePrivate(TypedDict):
    dummy: list[int] | None     # the share given to the 2-player dummy: [company, number]


# ----- the events (every one @final: `"seat" in e` then narrows a union too) ----------------------
@final
class KeepTicketsEvent(TypedDict):
    """`seat` kept `count` tickets, at setup or after drawing."""
    type: Literal["keep_tickets"]
    seat: int
    count: int
    setup: bool
    private: NotRequired[KeepTicketsPrivate]


@final
class TurnEvent(TypedDict):
    """It is `seat`'s turn."""
    type: Literal["turn"]
    seat: int


# "from" is a keyword: the functional form (which @final cannot mark; it has "seat" and
# "private", so `in` narrows as well). "card": the face-up card taken (public); a card drawn
# from the deck is private.
DrawCardEvent = TypedDict("DrawCardEvent", {
    "type": Literal["draw_card"],
    "seat": int,
    "from": Literal["deck", "faceup"],
    "card": NotRequired[int],
    "private": NotRequired[DrawCardPrivate],
})


@final
class ReshuffleEvent(TypedDict):
    """The discard pile became the deck."""
    type: Literal["reshuffle"]


@final
class TunnelRevealEvent(TypedDict):
    """`seat` laid `cards` on tunnel `route`; the deck's top cards `revealed` ask `extra` more."""
    type: Literal["tunnel_reveal"]
    seat: int
    route: int
    cards: Cards
    revealed: list[int]
    extra: int


@final
class ClaimRouteEvent(TypedDict):
    """`seat` claimed `route` with `cards` and scored `points`."""
    type: Literal["claim_route"]
    seat: int
    route: int
    cards: Cards
    points: int


@final
class TunnelPayEvent(TypedDict):
    type: Literal["tunnel_pay"]
    seat: int
    route: int
    cards: Cards


@final
class TunnelDeclineEvent(TypedDict):
    type: Literal["tunnel_decline"]
    seat: int
    route: int


@final
class DrawTicketsEvent(TypedDict):
    type: Literal["draw_tickets"]
    seat: int
    count: int
    private: NotRequired[DrawTicketsPrivate]


@final
class BuildStationEvent(TypedDict):
    type: Literal["build_station"]
    seat: int
    city: int               # the node
    cards: Cards


@final
class PassEvent(TypedDict):
    type: Literal["pass"]
    seat: int


@final
class FinalRoundEvent(TypedDict):
    type: Literal["final_round"]
    seat: int               # who brought it: down to the last trains


@final
class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    reason: Literal["trains", "passes"]


@final
class ShareEvent(TypedDict):
    """Pennsylvania: `seat` took share `number` of `company` (RULES.md §14)."""
    type: Literal["share"]
    seat: int
    company: int
    number: int
    private: NotRequired[SharePrivate]


@final
class BulletTrainEvent(TypedDict):
    """Japan: `seat` used a Bullet Train on `route`; its marker is at `track`, `supply` left."""
    type: Literal["bullet_train"]
    seat: int
    route: int
    track: int
    supply: int


@final
class DrawBonusEvent(TypedDict):
    """Northern Lights: `seat` drew `count` cards for claiming `route` (its +X)."""
    type: Literal["draw_bonus"]
    seat: int
    route: int
    count: int
    private: NotRequired[DrawBonusPrivate]


@final
class DrawFerryCardEvent(TypedDict):
    """Italy: `seat` took a ferry card and now holds `held`."""
    type: Literal["draw_ferry_card"]
    seat: int
    held: int


Event: TypeAlias = (
    KeepTicketsEvent | TurnEvent | DrawCardEvent | ReshuffleEvent | TunnelRevealEvent
    | ClaimRouteEvent | TunnelPayEvent | TunnelDeclineEvent | DrawTicketsEvent
    | BuildStationEvent | PassEvent | FinalRoundEvent | GameOverEvent
    | ShareEvent | BulletTrainEvent | DrawBonusEvent | DrawFerryCardEvent)


# ----- a seat's private parts (Effects.private): an event's "private" and its kind ----------------
@final
class KeepTicketsPart(KeepTicketsPrivate):
    type: Literal["keep_tickets"]


@final
class DrawCardPart(DrawCardPrivate):
    type: Literal["draw_card"]


@final
class DrawTicketsPart(DrawTicketsPrivate):
    type: Literal["draw_tickets"]


@final
class DrawBonusPart(DrawBonusPrivate):
    type: Literal["draw_bonus"]


@final
class SharePart(SharePrivate):
    type: Literal["share"]


PrivatePart: TypeAlias = KeepTicketsPart | DrawCardPart | DrawTicketsPart | DrawBonusPart | SharePart
