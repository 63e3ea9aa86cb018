"""Helpers for the engine rule tests (imported by the test modules as `rulekit`): build exact game states on the real maps.

Card ints: 0..7 purple, blue, orange, white, green, yellow, black, red; 8 locomotive.
`deck` lists are TOP FIRST everywhere in these helpers (the engine keeps the top at the end).
"""
from collections import Counter
from pathlib import Path

import pytest

from ttr_bot.engine import actions as A
from ttr_bot.engine.cards import CARD_INDEX, DECK_SIZE, full_deck
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.errors import Illegal
from ttr_bot.engine.game import Game
from ttr_bot.maps import load_board

REPO = Path(__file__).resolve().parents[2]

PURPLE, BLUE, ORANGE, WHITE, GREEN, YELLOW, BLACK, RED, LOCO = range(9)
FULL = Counter(full_deck())


# ----- cards --------------------------------------------------------------------------------
def cards(**kw):
    """cards(red=2, locomotive=1) -> 9-tuple of counts (also `loco=`)."""
    out = [0] * 9
    for name, n in kw.items():
        out[CARD_INDEX["locomotive" if name == "loco" else name]] += n
    return tuple(out)


def as_counts(x):
    if isinstance(x, dict):
        return cards(**x)
    if isinstance(x, (list, tuple)) and len(x) == 9 and not isinstance(x, list):
        return tuple(x)
    raise TypeError(x)


def expand(counts):
    """9 counts -> list of card ints."""
    return [c for c in range(9) for _ in range(counts[c])]


def mixed(counter):
    """The cards of `counter` in an interleaved order (one of each kind in turn), so that no
    three locomotives come together until only locomotives are left."""
    left = Counter(counter)
    out = []
    while sum(left.values()):
        for k in range(9):
            if left[k] > 0:
                out.append(k)
                left[k] -= 1
    return out


def rest_after(*used):
    left = Counter(FULL)
    for u in used:
        left.subtract(Counter(u))
    if any(v < 0 for v in left.values()):
        raise ValueError(f"more cards than the deck holds: {dict(left)}")
    return left


def train_order(top=()):
    """A full 110-card order, top first: `top`, then every other card interleaved."""
    top = list(top)
    return top + mixed(rest_after(top))


def deal_top(n, hands, faceup=()):
    """Top-of-deck order that deals `hands[p]` (4 card ints each) to seat p, one card at a time
    round the table, then turns up `faceup`."""
    order = []
    for i in range(4):
        for p in range(n):
            order.append(hands[p][i])
    return order + list(faceup)


# ----- boards and games ----------------------------------------------------------------------
def board(map_id="usa", variant="base"):
    return load_board(map_id, variant)


def route(b, x, y, color=None, lane=None):
    """Route index by place names (either order), colour name and lane."""
    b = getattr(b, "board", b)
    found = [r for r in b.routes if {b.nodes[r.a].name, b.nodes[r.b].name} == {x, y}]
    if color is not None:
        from ttr_bot.engine.cards import ROUTE_COLOR_INDEX
        found = [r for r in found if r.color == ROUTE_COLOR_INDEX[color]]
    if lane is not None:
        found = [r for r in found if r.lane == lane]
    if len(found) != 1:
        raise LookupError(f"{x}–{y} {color}: {len(found)} routes")
    return found[0].index


def node(b, name):
    b = getattr(b, "board", b)
    [i] = [n.index for n in b.nodes if n.name == name and not n.country]
    return i


def ticket(b, x, y=None):
    b = getattr(b, "board", b)
    found = [t.id for t in b.tickets
             if (t.origin == x and (y is None or y in t.dests and len(t.dests) == 1))
             or (y is not None and t.origin == y and t.dests == (x,))]
    if not found:
        raise LookupError(f"ticket {x}–{y}")
    return found[0]


def make_game(map_id="usa", n=2, variant="base", *, top=(), tickets=None, long_tickets=None,
              reshuffles=(), seed=0, setup=True):
    b = load_board(map_id, variant)
    dealer = Dealer(seed, train=train_order(top), tickets=tickets, long_tickets=long_tickets,
                    reshuffles=reshuffles)
    g = Game(b, n, dealer)
    if setup:
        finish_setup(g)
    return g


def finish_setup(g):
    """Every seat keeps its whole starting offer."""
    for p in range(g.n):
        if g.offers[p] is not None:
            g.apply(A.KeepTickets(p, tuple(g.offers[p])))
    assert g.phase == "play"


def arrange(g, *, hands=None, faceup=None, deck=None, discard=None, rest="deck"):
    """Put the 110 cards exactly where wanted. `hands`: {seat: counts}; seats not named get
    an empty hand. `deck`: top first. Every card not placed goes to `rest`: 'deck' (bottom of
    the deck), 'discard', or a seat number (that seat's hand)."""
    hands = {p: as_counts(h) for p, h in (hands or {}).items()}
    faceup = list(faceup or [])
    deck = list(deck or [])
    discard = list(discard or [])
    left = rest_after(*[expand(h) for h in hands.values()], faceup, deck, discard)
    extra = mixed(left)
    g.hands = [list(hands.get(p, (0,) * 9)) for p in range(g.n)]
    if rest == "deck":
        deck = deck + extra
    elif rest == "discard":
        discard = discard + extra
    else:
        for c in extra:
            g.hands[rest][c] += 1
    g.faceup = faceup
    g.deck = deck[::-1]
    g.discard = discard
    assert card_total(g) == DECK_SIZE
    return g


def deck_top(g, k=None):
    """The deck, top first."""
    d = g.deck[::-1]
    return d if k is None else d[:k]


def give_routes(g, seat, routes):
    """Seat owns these routes (as if claimed earlier): owner, trains and route points."""
    for r in routes:
        ro = g.board.routes[r]
        assert g.owner[r] == -1
        g.owner[r] = seat
        g.routes_of[seat].append(r)
        g.trains[seat] -= ro.length
        g.route_points[seat] += g.rules.route_points[ro.length]


def card_total(g):
    n = len(g.deck) + len(g.discard) + len(g.faceup) + sum(map(sum, g.hands))
    if g.tunnel:
        n += sum(g.tunnel.laid) + len(g.tunnel.revealed)
    return n


def fingerprint(g):
    """Everything a player could ever notice, plus the dealer's position."""
    keys = ["deck", "discard", "faceup", "hands", "trains", "stations_left", "owner",
            "routes_of", "route_points", "station_owner", "stations_of", "tickets", "offers",
            "ticket_deck", "long_deck", "phase", "step", "current", "turn",
            "final_turns_left", "final_trigger", "passes", "tunnel", "last_move", "reshuffles"]
    state = {k: repr(getattr(g, k, None)) for k in keys}
    state["dealer"] = (g.dealer.used_reshuffles, repr(g.dealer.rng.getstate()),
                       len(g.dealer.dealt_reshuffles))
    return state


def refuse(g, action):
    """Apply an action that must be illegal: return the reason key; the state must not change
    and `check` must agree."""
    before = fingerprint(g)
    checked = g.check(action)
    assert checked is not None, f"check() accepts {action}"
    assert fingerprint(g) == before
    with pytest.raises(Illegal) as e:
        g.apply(action)
    assert fingerprint(g) == before, f"refused {action} but the state changed"
    assert checked.key == e.value.key
    return e.value.key


def play(g, *actions):
    events = []
    for a in actions:
        events += g.apply(a)
    return events


def scores(g):
    players, winners = g.scores()
    return players, winners


def total(g, seat):
    return g.scores()[0][seat]["total"]


# re-exported for the test modules
__all__ = ["A", "Illegal", "Dealer", "Game", "load_board", "cards", "expand", "mixed",
           "train_order", "deal_top", "board", "route", "node", "ticket", "make_game",
           "finish_setup", "arrange", "deck_top", "give_routes", "card_total", "fingerprint",
           "refuse", "play", "scores", "total", "PURPLE", "BLUE", "ORANGE", "WHITE", "GREEN",
           "YELLOW", "BLACK", "RED", "LOCO", "DECK_SIZE", "FULL"]
