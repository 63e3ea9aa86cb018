"""What the service tells its caller after a change: plain data, never Discord objects.

The adapter turns `Effects` into messages: a public summary of `public` events (nothing
hidden), private updates for the seats in `changed`, a ping for `to_move`, the final reveal
when `over`, an announcement when a computer player took over a seat (`handover`).
"""
from dataclasses import dataclass, field


class ServiceError(Exception):
    """A request that cannot be done, with a message-catalog key and its parameters.

    `illegal` carries the engine's reason when the rules refused the action."""

    def __init__(self, key, illegal=None, **params):
        super().__init__(key)
        self.key = key
        self.params = params
        self.illegal = illegal


@dataclass(frozen=True)
class Handover:
    """A computer player took over a human's seat (or, with `level` None, the last human left
    and the game was cancelled). Public facts only: who, which seat, how strong, why."""
    seat: int                     # the seat's index in the game
    name: str                     # the player's display name before the computer took over
    user_id: int                  # the player who left the seat
    level: str | None             # "easy" / "medium" / "hard"; None: nobody took over
    reason: str                   # "left" or "replaced"
    by: int | None = None         # the user who replaced them (host or admin)
    host_id: int | None = None    # the new host, when the host left their seat


@dataclass
class Effects:
    game_id: int
    channel_id: int
    seq: int                      # actions applied so far (what a fresh button carries)
    actor: object = None          # seat that acted, or None (lobby changes, start, cancel)
    public: list = field(default_factory=list)     # engine events with private parts removed
    private: dict = field(default_factory=dict)    # seat -> [private parts of its events]
    changed: set = field(default_factory=set)      # seats whose hand, tickets or offer changed
    to_move: list = field(default_factory=list)    # seats that may act now
    started: bool = False
    over: bool = False
    cancelled: bool = False
    scores: object = None         # (players, winners) when over
    rated: bool | None = None     # when over: whether the game was rated ...
    unrated_reason: str | None = None   # ... and if not, why (a catalog key)
    bot_turn: bool = False        # a computer player is to move: a move is scheduled
    handover: Handover | None = None


def split_events(events):
    """(public events, {seat: [private parts]})."""
    public, private = [], {}
    for e in events:
        e = dict(e)
        secret = e.pop("private", None)
        public.append(e)
        if secret is not None:
            private.setdefault(e["seat"], []).append({"type": e["type"], **secret})
    return public, private


# what each public event changes privately for its actor (hand, tickets or offer)
_CHANGES_PRIVATE = {"keep_tickets", "draw_card", "claim_route", "tunnel_reveal", "tunnel_pay",
                    "tunnel_decline", "draw_tickets", "build_station"}


def changed_seats(public):
    return {e["seat"] for e in public if e["type"] in _CHANGES_PRIVATE}
