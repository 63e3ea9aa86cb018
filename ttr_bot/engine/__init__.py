"""The rules of Ticket to Ride, pure Python: no Discord, database, images, I/O or clock, and
deterministic given the dealer's seed.

    from ttr_bot.engine import Dealer, Game, KeepTickets
    from ttr_bot.maps import load_board

    game = Game(load_board("usa"), 2, Dealer(seed=1))
    events = game.apply(KeepTickets(0, tuple(game.offers[0])))   # or raises Illegal, changing nothing

`Game` holds the state and applies actions; `view(game, seat)` is what one player may know
(a `PlayerView`, which answers the same questions as the game for its seat); `to_dict` /
`from_dict` snapshot a game as JSON-able data; `final_scores(game)` scores it. Events are plain
dicts built by `events`, typed in `event_types` (a TypedDict per kind, the union `Event`);
cards are small ints (`LOCO`, `CARD_NAMES`) and hands 9-slot count lists.
"""
from . import event_types, events, payment
from .actions import (
    ACTION_TYPES,
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawFerryCard,
    DrawTickets,
    KeepTickets,
    Pass,
    TunnelDecline,
    TunnelPay,
    type_name,
)
from .board import Board, Node, Route, Rules, Ticket
from .cards import (
    CARD_INDEX,
    CARD_NAMES,
    COLORS,
    DECK_SIZE,
    GRAY,
    LOCO,
    N_CARD_KINDS,
    N_COLORS,
    ROUTE_COLOR_INDEX,
    counts_to_dict,
    full_deck,
    route_color_name,
)
from .dealer import Dealer
from .errors import DeckError, Illegal
from .final_scores import final_scores, winners
from .game import Game
from .network import (
    best_ticket_score,
    components,
    connected,
    longest_trail,
    longest_trail_routes,
    ticket_result,
    tickets_score,
)
from .seat_rules import (
    DOUBLE_CLOSED,
    DOUBLE_OWN,
    NO_STATIONS_LEFT,
    NOT_ENOUGH_TRAINS,
    ROUTE_TAKEN,
    STATION_TAKEN,
    UNKNOWN_CITY,
)
from .snapshot import from_dict, to_dict
from .state import CHOOSING, IDLE, OVER, PLAY, SECOND_CARD, SETUP, TUNNEL, PendingTunnel
from .view import PlayerView, determinize, view

__all__ = [
    # the game, its dealer, what a player sees, snapshots
    "Game", "Dealer", "PlayerView", "view", "determinize", "to_dict", "from_dict",
    "PendingTunnel", "SETUP", "PLAY", "OVER", "IDLE", "SECOND_CARD", "CHOOSING", "TUNNEL",
    # actions, refusals, events
    "KeepTickets", "DrawCard", "ClaimRoute", "TunnelPay", "TunnelDecline", "DrawTickets",
    "BuildStation", "Pass", "DrawFerryCard", "ACTION_TYPES", "type_name", "Illegal", "DeckError", "events",
    "event_types",
    "ROUTE_TAKEN", "DOUBLE_OWN", "DOUBLE_CLOSED", "NOT_ENOUGH_TRAINS", "NO_STATIONS_LEFT",
    "UNKNOWN_CITY", "STATION_TAKEN",
    # the board
    "Board", "Node", "Route", "Ticket", "Rules",
    # cards and payments
    "COLORS", "N_COLORS", "LOCO", "N_CARD_KINDS", "CARD_NAMES", "CARD_INDEX", "GRAY",
    "ROUTE_COLOR_INDEX", "DECK_SIZE", "full_deck", "counts_to_dict", "route_color_name",
    "payment",
    # scoring
    "final_scores", "winners", "longest_trail", "longest_trail_routes", "tickets_score",
    "best_ticket_score", "components", "connected", "ticket_result",
]
