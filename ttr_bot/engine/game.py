"""The game: state, legal actions, and `apply`.

`Game(board, n_players, dealer)` deals the setup; `apply(action)` either changes the state and
returns events (plain dicts) or raises `Illegal` and changes nothing; `legal_actions(seat)`
lists what a seat may do now. Events carry public fields; what only the actor may see is under
the key "private".
"""
from collections import deque
from itertools import combinations

from . import payment
from .actions import (
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    TunnelDecline,
    TunnelPay,
)
from .cards import LOCO, full_deck
from .errors import Illegal
from .final_scores import final_scores

SETUP, PLAY, OVER = "setup", "play", "over"
# steps inside a turn
IDLE, SECOND_CARD, CHOOSING, TUNNEL = "idle", "second_card", "choosing", "tunnel"


class Game:
    def __init__(self, board, n_players, dealer, *, _empty=False):
        self.board = board
        self.rules = board.rules
        self.n = n_players
        self.dealer = dealer
        if _empty:
            return
        rules = self.rules
        if not rules.min_players <= n_players <= rules.max_players:
            raise ValueError(f"{board.name} takes {rules.min_players}–{rules.max_players} players")
        self.deck = dealer.order("train", full_deck())[::-1]   # top of the deck = end of list
        self.discard = []
        self.faceup = []
        self.hands = [[0] * 9 for _ in range(n_players)]
        self.trains = [rules.trains] * n_players
        self.stations_left = [rules.stations] * n_players
        self.owner = [-1] * len(board.routes)
        self.routes_of = [[] for _ in range(n_players)]
        self.route_points = [0] * n_players
        self.station_owner = {}                     # node index -> seat
        self.stations_of = [[] for _ in range(n_players)]
        self.tickets = [[] for _ in range(n_players)]
        self.offers = [None] * n_players            # ticket ids being chosen
        regular = [t.id for t in board.tickets if not t.long]
        long_ = [t.id for t in board.tickets if t.long]
        self.ticket_deck = deque(dealer.order("tickets", regular))
        self.long_deck = deque(dealer.order("long_tickets", long_)) if long_ else deque()
        self.phase = SETUP
        self.step = IDLE
        self.current = 0
        self.turn = 0
        self.final_turns_left = None
        self.final_trigger = None
        self.passes = 0
        self.tunnel = None                          # (route, color_used, laid, revealed, extra)
        self.last_move = None                       # (seat, type name, route or node or None)
        self.reshuffles = 0                         # discard piles turned into a deck so far
        self._deal()

    # ----- setup -------------------------------------------------------------------------
    def _deal(self):
        rules = self.rules
        for _ in range(rules.hand_size):
            for p in range(self.n):
                self.hands[p][self._draw()] += 1
        self._refill()
        for p in range(self.n):
            offer = [self.long_deck.popleft() for _ in range(min(rules.start_long, len(self.long_deck)))]
            offer += [self.ticket_deck.popleft() for _ in range(min(rules.start_regular, len(self.ticket_deck)))]
            self.offers[p] = offer

    # ----- card flow (RULES §3.2, §3.3, §11.1–3) -------------------------------------------
    def _draw(self):
        """The top card of the deck, reshuffling the discard pile only now (§11.1)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck = self.dealer.reshuffle(self.discard)[::-1]
            self.discard = []
            self.reshuffles += 1
        return self.deck.pop()

    def _can_draw(self):
        return bool(self.deck or self.discard)

    def _refill(self, changed=False):
        """Fill empty face-up slots, then apply the three-locomotive rule if the row changed."""
        while len(self.faceup) < 5:
            card = self._draw()
            if card is None:
                break
            self.faceup.append(card)
            changed = True
        if not changed:
            return
        rules = self.rules
        flushes = 0
        while (self.faceup.count(LOCO) >= rules.flush_locomotives and flushes < rules.flush_limit
               and self._can_draw()):
            self.discard.extend(self.faceup)
            self.faceup = []
            flushes += 1
            while len(self.faceup) < 5:
                card = self._draw()
                if card is None:
                    break
                self.faceup.append(card)

    # ----- queries -----------------------------------------------------------------------
    @property
    def over(self):
        return self.phase == OVER

    def to_move(self):
        """Seats that may act now: everyone still choosing at setup, else the current seat."""
        if self.phase == SETUP:
            return [p for p in range(self.n) if self.offers[p] is not None]
        if self.phase == OVER:
            return []
        return [self.current]

    def _route_blocked(self, seat, r):
        """Reason key if the route cannot be claimed by this seat, else None."""
        route = self.board.routes[r]
        if self.owner[r] >= 0:
            return "route_taken"
        if route.twin >= 0:
            twin_owner = self.owner[route.twin]
            if twin_owner == seat:
                return "double_own"
            if twin_owner >= 0 and self.n < self.rules.double_routes_min_players:
                return "double_closed"
        if self.trains[seat] < route.length:
            return "not_enough_trains"
        return None

    def _faceup_takeable(self, second):
        limit = self.rules.faceup_locomotive_limit
        return {c for c in self.faceup if not (second and limit and c == LOCO)}

    def _can_take_second(self):
        return self._can_draw() or bool(self._faceup_takeable(True))

    def _affordable_routes(self, seat):
        """[(route, payments or None)] this seat may claim now and has the cards for. A cheap
        count test decides most routes (this runs on every turn of every simulated game);
        Nordic substitutions need the full enumeration, which is passed on."""
        hand = self.hands[seat]
        locos = hand[LOCO]
        best = max(hand[:8])
        trains = self.trains[seat]
        owner = self.owner
        strict = self.n < self.rules.double_routes_min_players
        rules = self.rules
        out = []
        total = sum(hand)
        for r, length, color, loco_ok, twin, ferry, special in _route_table(self.board, rules):
            if owner[r] >= 0 or length > trains or length > total:
                continue
            if twin >= 0:
                t = owner[twin]
                if t == seat or (t >= 0 and strict):
                    continue
            if special:
                pays = payment.route_payments(rules, self.board.routes[r], hand)
                if pays:
                    out.append((r, pays))
                continue
            if locos < ferry:
                continue
            have = (best if color < 0 else hand[color]) + (locos if loco_ok else 0)
            if have >= length:
                out.append((r, None))
        return out

    def _any_claim(self, seat):
        return bool(self._affordable_routes(seat))

    def _station_cost(self, seat):
        return self.rules.stations - self.stations_left[seat] + 1

    def _any_station(self, seat):
        if not self.stations_left[seat] or len(self.station_owner) == len(self.board.nodes):
            return False
        return bool(payment.station_payments(self.hands[seat], self._station_cost(seat)))

    def can_pass(self, seat):
        """RULES §3.6, §11.12: only with no other action at all."""
        return not (self._can_draw() or self.faceup or self.ticket_deck
                    or self._any_claim(seat) or self._any_station(seat))

    # ----- legal actions -------------------------------------------------------------------
    def legal_actions(self, seat):
        if seat not in self.to_move():
            return []
        if self.phase == SETUP or self.step == CHOOSING:
            return self._keep_options(seat)
        if self.step == TUNNEL:
            route, color, laid, revealed, extra = self.tunnel
            return [TunnelPay(seat, p) for p in payment.tunnel_extra_options(self.hands[seat], extra, color)] \
                + [TunnelDecline(seat)]
        if self.step == SECOND_CARD:
            out = [DrawCard(seat)] if self._can_draw() else []
            return out + [DrawCard(seat, c) for c in sorted(self._faceup_takeable(True))]
        out = [DrawCard(seat)] if self._can_draw() else []
        out += [DrawCard(seat, c) for c in sorted(set(self.faceup))]
        if self.ticket_deck:
            out.append(DrawTickets(seat))
        hand = self.hands[seat]
        routes = self.board.routes
        for r, pays in self._affordable_routes(seat):
            if pays is None:
                pays = payment.route_payments(self.rules, routes[r], hand)
            out.extend(ClaimRoute(seat, r, p) for p in pays)
        if self.stations_left[seat]:
            pays = payment.station_payments(hand, self._station_cost(seat))
            if pays:
                for node in range(len(self.board.nodes)):
                    if node not in self.station_owner and not self.board.nodes[node].country:
                        out.extend(BuildStation(seat, node, p) for p in pays)
        return out or [Pass(seat)]

    def _keep_options(self, seat):
        offer = self.offers[seat]
        lo = self._keep_min(seat)
        return [KeepTickets(seat, combo) for k in range(lo, len(offer) + 1)
                for combo in combinations(offer, k)]

    def _keep_min(self, seat):
        need = self.rules.start_keep_min if self.phase == SETUP else self.rules.draw_keep_min
        return min(need, len(self.offers[seat]))

    def check(self, action):
        """None if the action is legal now, else the Illegal reason (nothing changes)."""
        try:
            self._validate(action)
        except Illegal as e:
            return e
        return None

    # ----- apply -------------------------------------------------------------------------
    def apply(self, action):
        """Apply a legal action and return its events; raise Illegal and change nothing otherwise."""
        plan = self._validate(action)
        return plan()

    def _validate(self, a):
        if self.phase == OVER:
            raise Illegal("game_over")
        seat = a.seat
        if not 0 <= seat < self.n:
            raise Illegal("not_a_player")
        if isinstance(a, KeepTickets):
            return self._v_keep(a)
        if self.phase == SETUP:
            raise Illegal("setup_pending")
        if seat != self.current:
            raise Illegal("not_your_turn")
        step = self.step
        if step == CHOOSING:
            raise Illegal("choose_tickets_first")
        if step == TUNNEL and not isinstance(a, (TunnelPay, TunnelDecline)):
            raise Illegal("tunnel_pending")
        if isinstance(a, DrawCard):
            return self._v_draw(a)
        if step == SECOND_CARD:
            raise Illegal("second_card_pending")
        if isinstance(a, ClaimRoute):
            return self._v_claim(a)
        if isinstance(a, (TunnelPay, TunnelDecline)):
            if step != TUNNEL:
                raise Illegal("no_tunnel")
            return self._v_tunnel(a)
        if isinstance(a, DrawTickets):
            if not self.ticket_deck:
                raise Illegal("no_tickets_left")
            return lambda: self._do_draw_tickets(seat)
        if isinstance(a, BuildStation):
            return self._v_station(a)
        if isinstance(a, Pass):
            if not self.can_pass(seat):
                raise Illegal("cannot_pass")
            return lambda: self._do_pass(seat)
        raise Illegal("unknown_action")

    # keep tickets
    def _v_keep(self, a):
        offer = self.offers[a.seat]
        if self.phase == SETUP:
            if offer is None:
                raise Illegal("already_chosen")
        else:
            if a.seat != self.current:
                raise Illegal("not_your_turn")
            if self.step != CHOOSING:
                raise Illegal("no_ticket_offer")
        kept = list(a.tickets)
        if len(set(kept)) != len(kept) or any(t not in offer for t in kept):
            raise Illegal("not_offered")
        lo = self._keep_min(a.seat)
        if len(kept) < lo:
            raise Illegal("keep_at_least", count=lo)
        return lambda: self._do_keep(a.seat, kept)

    def _do_keep(self, seat, kept):
        offer = self.offers[seat]
        self.offers[seat] = None
        self.tickets[seat].extend(kept)
        returned = [t for t in offer if t not in kept]
        setup = self.phase == SETUP
        if (self.rules.unkept_start if setup else self.rules.unkept_draw) == "bottom":
            board = self.board
            self.ticket_deck.extend(t for t in returned if not board.tickets[t].long)
        events = [{"type": "keep_tickets", "seat": seat, "count": len(kept), "setup": setup,
                   "private": {"tickets": list(kept), "returned": returned}}]
        if setup:
            if all(o is None for o in self.offers):
                self.phase = PLAY
                events.append({"type": "turn", "seat": self.current})
            return events
        return events + self._end_turn(seat, "draw_tickets")

    # draw cards
    def _v_draw(self, a):
        second = self.step == SECOND_CARD
        if a.card == -1:
            if not self._can_draw():
                raise Illegal("deck_empty")
        else:
            if a.card not in self.faceup:
                raise Illegal("card_not_faceup")
            if second and a.card == LOCO and self.rules.faceup_locomotive_limit:
                raise Illegal("second_locomotive")
        return lambda: self._do_draw(a.seat, a.card, second)

    def _do_draw(self, seat, card, second):
        events = []
        before = self.reshuffles
        if card == -1:
            got = self._draw()
            self.hands[seat][got] += 1
            events.append({"type": "draw_card", "seat": seat, "from": "deck", "private": {"card": got}})
        else:
            self.faceup.remove(card)
            self.hands[seat][card] += 1
            events.append({"type": "draw_card", "seat": seat, "from": "faceup", "card": card})
            self._refill(changed=True)
        if self.reshuffles != before:
            events.append({"type": "reshuffle"})
        self.passes = 0
        ends = second or (card == LOCO and self.rules.faceup_locomotive_limit) or not self._can_take_second()
        if ends:
            self.step = IDLE
            return events + self._end_turn(seat, "draw_card")
        self.step = SECOND_CARD
        return events

    # claim
    def _v_claim(self, a):
        routes = self.board.routes
        if not 0 <= a.route < len(routes):
            raise Illegal("unknown_route")
        why = self._route_blocked(a.seat, a.route)
        if why:
            raise Illegal(why)
        route = routes[a.route]
        self._check_hand(a.seat, a.cards)
        color = payment.route_payment(self.rules, route, a.cards)
        return lambda: self._do_claim(a.seat, a.route, tuple(a.cards), color)

    def _check_hand(self, seat, cards):
        if len(cards) != 9 or any(c < 0 for c in cards):
            raise Illegal("bad_cards")
        hand = self.hands[seat]
        if any(cards[i] > hand[i] for i in range(9)):
            raise Illegal("cards_not_in_hand")

    def _do_claim(self, seat, r, cards, color):
        hand = self.hands[seat]
        for i in range(9):
            hand[i] -= cards[i]
        self.passes = 0
        route = self.board.routes[r]
        if route.tunnel:
            before = self.reshuffles
            revealed = []
            for _ in range(3):
                c = self._draw()
                if c is None:
                    break
                revealed.append(c)
            extra = payment.tunnel_extra(revealed, color)
            events = [{"type": "tunnel_reveal", "seat": seat, "route": r, "cards": _dict(cards),
                       "revealed": revealed, "extra": extra}]
            if self.reshuffles != before:
                events.insert(0, {"type": "reshuffle"})
            if extra:
                self.tunnel = (r, color, cards, revealed, extra)
                self.step = TUNNEL
                return events
            self.discard.extend(revealed)
            return events + self._place_route(seat, r, cards)
        return self._place_route(seat, r, cards)

    def _place_route(self, seat, r, cards):
        route = self.board.routes[r]
        for i in range(9):
            self.discard.extend([i] * cards[i])
        self.owner[r] = seat
        self.routes_of[seat].append(r)
        self.trains[seat] -= route.length
        pts = self.rules.route_points[route.length]
        self.route_points[seat] += pts
        self.last_move = (seat, "claim_route", r)
        events = [{"type": "claim_route", "seat": seat, "route": r, "cards": _dict(cards), "points": pts}]
        self._refill()
        return events + self._end_turn(seat, "claim_route", record=False)

    # tunnels
    def _v_tunnel(self, a):
        r, color, laid, revealed, extra = self.tunnel
        if isinstance(a, TunnelDecline):
            return lambda: self._do_tunnel_decline(a.seat)
        self._check_hand(a.seat, a.cards)
        payment.tunnel_extra_payment(a.cards, extra, color)
        return lambda: self._do_tunnel_pay(a.seat, tuple(a.cards))

    def _do_tunnel_pay(self, seat, cards):
        r, color, laid, revealed, extra = self.tunnel
        self.tunnel = None
        self.step = IDLE
        hand = self.hands[seat]
        for i in range(9):
            hand[i] -= cards[i]
        self.discard.extend(revealed)
        total = tuple(laid[i] + cards[i] for i in range(9))
        return [{"type": "tunnel_pay", "seat": seat, "route": r, "cards": _dict(cards)}] \
            + self._place_route(seat, r, total)

    def _do_tunnel_decline(self, seat):
        r, color, laid, revealed, extra = self.tunnel
        self.tunnel = None
        self.step = IDLE
        hand = self.hands[seat]
        for i in range(9):
            hand[i] += laid[i]
        self.discard.extend(revealed)
        self._refill()
        self.last_move = (seat, "tunnel_decline", r)
        return [{"type": "tunnel_decline", "seat": seat, "route": r}] + self._end_turn(seat, "tunnel_decline", record=False)

    # tickets
    def _do_draw_tickets(self, seat):
        k = min(self.rules.draw_tickets, len(self.ticket_deck))
        offer = [self.ticket_deck.popleft() for _ in range(k)]
        self.offers[seat] = offer
        self.step = CHOOSING
        self.passes = 0
        return [{"type": "draw_tickets", "seat": seat, "count": k, "private": {"offer": offer}}]

    # stations
    def _v_station(self, a):
        nodes = self.board.nodes
        if not self.stations_left[a.seat]:
            raise Illegal("no_stations_left")
        if not 0 <= a.city < len(nodes) or nodes[a.city].country:
            raise Illegal("unknown_city")
        if a.city in self.station_owner:
            raise Illegal("station_taken")
        self._check_hand(a.seat, a.cards)
        payment.station_payment(a.cards, self._station_cost(a.seat))
        return lambda: self._do_station(a.seat, a.city, tuple(a.cards))

    def _do_station(self, seat, city, cards):
        hand = self.hands[seat]
        for i in range(9):
            hand[i] -= cards[i]
            self.discard.extend([i] * cards[i])
        self.stations_left[seat] -= 1
        self.station_owner[city] = seat
        self.stations_of[seat].append(city)
        self.passes = 0
        self.last_move = (seat, "build_station", city)
        self._refill()
        return [{"type": "build_station", "seat": seat, "city": city, "cards": _dict(cards)}] \
            + self._end_turn(seat, "build_station", record=False)

    def _do_pass(self, seat):
        self.passes += 1
        return [{"type": "pass", "seat": seat}] + self._end_turn(seat, "pass")

    # ----- turn end (RULES §4, §3.6, §11.13) ------------------------------------------------
    def _end_turn(self, seat, kind, record=True):
        if record:
            self.last_move = (seat, kind, None)
        self.step = IDLE
        self.turn += 1
        events = []
        if self.final_turns_left is not None:
            self.final_turns_left -= 1
        elif self.trains[seat] <= self.rules.end_trains:
            self.final_turns_left = self.n
            self.final_trigger = seat
            events.append({"type": "final_round", "seat": seat})
        if self.final_turns_left == 0 or self.passes >= self.n:
            self.phase = OVER
            events.append({"type": "game_over", "reason": "passes" if self.passes >= self.n else "trains"})
            return events
        self.current = (seat + 1) % self.n
        events.append({"type": "turn", "seat": self.current})
        return events

    # ----- scores ------------------------------------------------------------------------
    def scores(self):
        """Final scores now (RULES §5; §11.14 mid-game: as if the game ended now)."""
        return final_scores(self)

    # ----- copies and snapshots ------------------------------------------------------------
    def copy(self, dealer=None):
        """An independent copy; it gets its own dealer (a clone of this one unless given), so
        simulations on the copy never disturb this game's shuffles."""
        g = Game(self.board, self.n, dealer or self.dealer.clone(), _empty=True)
        g.__dict__.update({k: v for k, v in self.__dict__.items() if k != "dealer"})
        g.deck = list(self.deck)
        g.discard = list(self.discard)
        g.faceup = list(self.faceup)
        g.hands = [list(h) for h in self.hands]
        g.trains = list(self.trains)
        g.stations_left = list(self.stations_left)
        g.owner = list(self.owner)
        g.routes_of = [list(x) for x in self.routes_of]
        g.route_points = list(self.route_points)
        g.station_owner = dict(self.station_owner)
        g.stations_of = [list(x) for x in self.stations_of]
        g.tickets = [list(x) for x in self.tickets]
        g.offers = [None if o is None else list(o) for o in self.offers]
        g.ticket_deck = deque(self.ticket_deck)
        g.long_deck = deque(self.long_deck)
        return g


_ROUTE_TABLES = {}


def _route_table(board, rules):
    """Per route: (index, length, colour, locomotives usable, twin, ferry locomotives, needs
    the full payment check). Cached per board."""
    key = id(board)
    table = _ROUTE_TABLES.get(key)
    if table is None or table[0] is not board:
        rows = tuple((r.index, r.length, r.color, payment.locos_allowed(rules, r), r.twin,
                      r.ferry, bool(r.any_cards)) for r in board.routes)
        table = _ROUTE_TABLES[key] = (board, rows)
    return table[1]


def _dict(cards):
    from .cards import counts_to_dict
    return counts_to_dict(cards)
