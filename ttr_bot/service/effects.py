"""What the service tells its caller after a change: plain data, never Discord objects.

The adapter turns `Effects` into messages: a public summary of `public` events (nothing
hidden), private updates for the seats in `changed`, a ping for `to_move`, the final reveal
when `over`.
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
    bot_turn: bool = False        # a computer player is to move: a move is scheduled


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
