"""The seam between the base rules and a map's own rules (RULES.md §12–§17).

A map names its mechanics in `rules.mechanics`; each is a `Mechanic` subclass in this package,
overriding the few hooks it needs (python-chess's `chess/variant.py` does the same per
variant). The base game (game.py, seat_rules.py, final_scores.py) calls every hook of every
mechanic of the map at the points below and never asks which map it is playing; a map without
mechanics runs exactly the base rules (each loop is over an empty tuple).

The hooks, where the base game calls them:
- state: `setup` makes the mechanic's own state (JSON-able, kept in `game.extra[name]`,
  snapshotted and copied with the game), dealt from the game's dealer where it is random;
  `hidden` says what of it a seat may see (PlayerView), `unhide` fills the rest for a
  determinized game.
- a claim: `trains_needed` (trains beyond the route's length) and `claim_trains` (the trains
  it takes when the state decides), `claim_blocked` (a reason the
  seat may not claim a route now, whatever its cards), `pays` with `route_payment` /
  `route_payments` (a route this mechanic pays its own way; the others are payment.py's),
  `claim_variants` (the claims one payment makes: the fields of `action_fields`), `check_claim` (the
  action's own fields), `claim_points` (route points beyond the length's), `after_claim`
  (steps after the cards are paid and the route is placed: events).
- a turn: `actions` (extra actions of an idle turn), `plan` (validate one of them: a Plan, or
  None if the action is not this mechanic's), `blocks_pass` (an extra action still open).
- the end: `end_trigger` (True/False to decide whether this turn starts the last round, None
  for the base rule), `network` (the routes that count for a seat's tickets), `score` (adds
  its bonus and output fields to each player's final score), `output` (the replay output's
  top-level additions).

The three maps still to come fit these hooks without a change: UK's technology cards are a
mechanic whose state holds each seat's cards, whose `actions`/`plan` buy one with locomotives,
and whose `claim_blocked` refuses a ferry, a tunnel or a long route before its technology;
France's track pieces are `after_claim` steps (colour a neutral route) with the colours in the
state and `route_payment` reading them; Old West's "your network stays connected" is a
`claim_blocked` over the seat's own routes (and its city-start counters a `setup` and an
`actions` choice).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from .. import payment

if TYPE_CHECKING:
    from ..actions import Action, ClaimRoute
    from ..board import Board, Route, Rules
    from ..events import Event
    from ..final_scores import Score
    from ..game import Game
    from ..payment import Hand, Payment

Plan = Callable[[], "list[Event]"]


class Mechanic:
    """Every hook is a no-op here: a subclass overrides what its rule changes."""
    name: ClassVar[str] = ""
    # the ClaimRoute fields this mechanic reads ("ferry", "share", …); on a map without it they
    # must be 0
    action_fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, board: Board) -> None:
        self.board = board
        self.rules = board.rules

    # ----- state -----------------------------------------------------------------------
    def setup(self, game: Game) -> Any:
        return None

    def hidden(self, state: Any, seat: int) -> Any:
        """The mechanic's state as `seat` may know it (the default: all of it is public)."""
        return state

    def unhide(self, seen: Any) -> Any:
        """A full state consistent with what `hidden` showed (a determinized game's)."""
        return seen

    # ----- a claim ---------------------------------------------------------------------
    def trains_needed(self, route: Route) -> int:
        """Trains a claim of `route` takes beyond its length, whatever the state (mountains)."""
        return 0

    def claim_trains(self, game: Game, route: Route) -> int | None:
        """The trains a claim of `route` takes now, when the state decides it (a bullet route
        while the Bullet Trains last: none); None leaves it to the length and `trains_needed`."""
        return None

    def claim_blocked(self, game: Game, seat: int, route: Route) -> str | None:
        return None

    def pays(self, route: Route) -> bool:
        """Does this mechanic pay `route` its own way (then the two hooks below answer for it,
        and a mechanic that says so overrides them)?"""
        return False

    def route_payment(self, rules: Rules, route: Route, cards: Hand, game: Game | None,
                      action: ClaimRoute | None = None) -> int:
        """The colour a payment used (-1: locomotives only), or raise Illegal (`action`: the
        claim being checked, None when only the cards are asked about). By default the base
        rules' (payment.py)."""
        return payment.route_payment(rules, route, cards)

    def route_payments(self, rules: Rules, route: Route, hand: Hand,
                       game: Game | None) -> list[Payment]:
        """Every distinct payment `hand` can make for `route`; by default the base rules'."""
        return payment.route_payments(rules, route, hand)

    def claim_variants(self, game: Game, claim: ClaimRoute) -> list[ClaimRoute]:
        """The legal claims a payment of `claim.cards` makes (with this mechanic's fields set:
        the ferry cards it spends, the company of a share); [claim] when it adds nothing."""
        return [claim]

    def check_claim(self, game: Game, action: ClaimRoute) -> None:
        return None

    def claim_points(self, route: Route, game: Game | None = None) -> int:
        """Route points beyond the length's (negative takes them away: a bullet claim scores
        none)."""
        return 0

    def after_claim(self, game: Game, seat: int, route: Route, action: ClaimRoute) -> list[Event]:
        return []

    # ----- a turn ----------------------------------------------------------------------
    def actions(self, game: Game, seat: int) -> list[Action]:
        return []

    def plan(self, game: Game, action: Action) -> Plan | None:
        return None

    def blocks_pass(self, game: Game, seat: int) -> bool:
        return False

    # ----- the end ---------------------------------------------------------------------
    def end_trigger(self, game: Game, seat: int) -> bool | None:
        return None

    def network(self, game: Game, seat: int, routes: list[int]) -> list[int]:
        return routes

    def score(self, game: Game, players: list[Score]) -> None:
        return None

    def output(self, game: Game) -> dict[str, Any]:
        """What the replay output adds at its top level (docs/record-format.md)."""
        return {}
