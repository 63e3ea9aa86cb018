"""The game: state, legal actions, and `apply`.

`Game(board, n_players, dealer)` deals the setup; `apply(action)` either changes the state and
returns events (plain dicts, see events.py: public fields, and what only the actor may see
under "private") or raises `Illegal` and changes nothing; `legal_actions(seat)` lists what a
seat may do now, and the queries beside it (`claimable_routes`, `route_blocked`,
`station_cost`, `station_sites`, `keep_min`, `explain`) answer the questions a player's
interface asks, with the same rules (seat_rules.py). The state's fields are declared in
state.py.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from . import events as ev
from . import payment, seat_rules, state
from .actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    TunnelDecline,
    TunnelPay,
)
from .board import Board, Route, Rules
from .cards import LOCO, N_CARD_KINDS, full_deck
from .dealer import Dealer
from .errors import Illegal
from .events import Event
from .final_scores import Score, final_scores
from .mechanics import Mechanic, mechanics_of
from .network import completed_by
from .payment import Payment
from .state import CHOOSING, IDLE, OVER, PLAY, SECOND_CARD, SETUP, TUNNEL, PendingTunnel

Plan = Callable[[], list[Event]]    # a validated action, ready to change the state


class Game:
    # what a game is made from (the constructor's arguments)
    board: Board
    rules: Rules
    n: int
    dealer: Dealer
    # the state: state.FIELDS, in its order (tests/engine/test_public_api.py keeps them equal)
    deck: list[int]
    discard: list[int]
    faceup: list[int]
    hands: list[list[int]]
    trains: list[int]
    stations_left: list[int]
    owner: list[int]
    routes_of: list[list[int]]
    route_points: list[int]
    stations_of: list[list[int]]
    tickets: list[list[int]]
    offers: list[list[int] | None]
    phase: str
    step: str
    current: int
    turn: int
    final_turns_left: int | None
    final_trigger: int | None
    passes: int
    reshuffles: int
    station_owner: dict[int, int]
    ticket_deck: deque[int]
    long_deck: deque[int]
    tunnel: PendingTunnel | None
    last_move: tuple[int, str, int | None] | None
    extra: dict[str, Any]

    def __init__(self, board: Board, n_players: int, dealer: Dealer) -> None:
        rules = board.rules
        if not rules.min_players <= n_players <= rules.max_players:
            raise ValueError(f"{board.name} takes {rules.min_players}–{rules.max_players} players")
        regular = [t.id for t in board.tickets if not t.long]
        long_ = [t.id for t in board.tickets if t.long]
        self._set_up(board, n_players, dealer, {
            "deck": dealer.order("train", full_deck(rules.locomotives))[::-1],
            "discard": [], "faceup": [],
            "hands": [[0] * N_CARD_KINDS for _ in range(n_players)],
            "trains": [rules.trains] * n_players,
            "stations_left": [rules.stations] * n_players,
            "owner": [-1] * len(board.routes),
            "routes_of": [[] for _ in range(n_players)],
            "route_points": [0] * n_players,
            "stations_of": [[] for _ in range(n_players)],
            "tickets": [[] for _ in range(n_players)],
            "offers": [None] * n_players,
            "phase": SETUP, "step": IDLE, "current": 0, "turn": 0,
            "final_turns_left": None, "final_trigger": None, "passes": 0, "reshuffles": 0,
            "station_owner": {},
            "ticket_deck": deque(dealer.order("tickets", regular)),
            "long_deck": deque(dealer.order("long_tickets", long_)) if long_ else deque(),
            "tunnel": None, "last_move": None, "extra": {},
        })
        self._deal()
        for m in self.mechanics:
            own = m.setup(self)
            if own is not None:
                self.extra[m.name] = own

    @classmethod
    def from_state(cls, board: Board, n_players: int, dealer: Dealer, fields: dict[str, Any]) -> Game:
        """A game in the given state (every field of state.FIELDS, nothing else; the values
        are used as they are), dealing nothing."""
        g = cls.__new__(cls)
        g._set_up(board, n_players, dealer, fields)
        return g

    def _set_up(self, board: Board, n_players: int, dealer: Dealer, fields: dict[str, Any]) -> None:
        state.check_complete(fields)
        self.board = board
        self.rules = board.rules
        self.n = n_players
        self.dealer = dealer
        self.__dict__.update(fields)

    # ----- setup -------------------------------------------------------------------------
    def _deal(self) -> None:
        rules = self.rules
        for _ in range(rules.hand_size):
            for p in range(self.n):
                card = self._draw()
                assert card is not None      # a fresh deck holds every hand
                self.hands[p][card] += 1
        self._refill()
        for p in range(self.n):
            offer = [self.long_deck.popleft() for _ in range(min(rules.start_long, len(self.long_deck)))]
            offer += [self.ticket_deck.popleft() for _ in range(min(rules.start_regular, len(self.ticket_deck)))]
            self.offers[p] = offer

    # ----- card flow (docs/rules.md §3.2, §3.3, §11.1–3) -----------------------------------
    def _draw(self) -> int | None:
        """The top card of the deck, reshuffling the discard pile only now (§11.1)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck = self.dealer.reshuffle(self.discard)[::-1]
            self.discard = []
            self.reshuffles += 1
        return self.deck.pop()

    def draw_blind(self, count: int) -> list[int]:
        """Up to `count` cards from the deck (a reshuffle when it is empty, §11.1), for a map's
        own rules (a draw bonus); fewer when deck and discard run out."""
        got = []
        for _ in range(count):
            card = self._draw()
            if card is None:
                break
            got.append(card)
        return got

    def _can_draw(self) -> bool:
        return bool(self.deck or self.discard)

    def _refill(self, changed: bool = False) -> None:
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
    def mechanics(self) -> tuple[Mechanic, ...]:
        """The map's own rules (engine/mechanics), consulted at each hook; () on the base maps."""
        return mechanics_of(self.board)

    def network_routes(self, seat: int) -> list[int]:
        """The routes that count for `seat`'s tickets: its own, and what the map's rules add."""
        routes = list(self.routes_of[seat])
        for m in self.mechanics:
            routes = m.network(self, seat, routes)
        return routes

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def to_move(self) -> list[int]:
        """Seats that may act now: everyone still choosing at setup, else the current seat."""
        if self.phase == SETUP:
            return [p for p in range(self.n) if self.offers[p] is not None]
        if self.phase == OVER:
            return []
        return [self.current]

    def turns_taken(self, seat: int) -> int:
        """Turns `seat` has finished so far. Turns go round from seat 0 and `turn` counts the
        finished ones (the ticket choice at the start is not a turn), so seat s has finished
        turns s, s + n, s + 2n, ... below `turn`; a turn in progress does not count yet."""
        return len(range(seat, self.turn, self.n))

    def route_blocked(self, seat: int, r: int) -> str | None:
        """Why `seat` may not claim route r whatever its cards and whoever's turn it is: a
        reason key ("route_taken", "double_own", "double_closed", "not_enough_trains"), or
        None."""
        return seat_rules.route_blocked(self.board, self.n, self.owner, seat, self.trains[seat], r,
                                        self)

    def route_blocks(self, seat: int) -> list[str | None]:
        """`route_blocked` for every route."""
        return seat_rules.route_blocks(self.board, self.n, self.owner, seat, self.trains[seat], self)

    def claimable_routes(self, seat: int) -> list[tuple[Route, list[Payment]]]:
        """[(Route, payments)] `seat` may claim right now and can pay for, with every payment;
        [] unless it is `seat`'s turn with nothing pending."""
        if not seat_rules.idle_turn(self.phase, self.step, self.current, seat):
            return []
        return seat_rules.claimable_routes(self.board, self.n, self.owner, seat,
                                           self.trains[seat], self.hands[seat], self)

    def station_cost(self, seat: int) -> int:
        """Cards `seat`'s next station costs."""
        return seat_rules.station_cost(self.rules, self.stations_left[seat])

    def station_sites(self, seat: int) -> list[int]:
        """Node indices where `seat` may build a station now (whatever its cards)."""
        return seat_rules.station_sites(self.board, self.station_owner, self.stations_left[seat])

    def keep_min(self, seat: int) -> int:
        """The fewest tickets `seat` must keep from its current offer."""
        return seat_rules.keep_min(self.rules, self.phase, self.offers[seat])

    def _faceup_takeable(self, second: bool) -> set[int]:
        limit = self.rules.faceup_locomotive_limit
        return {c for c in self.faceup if not (second and limit and c == LOCO)}

    def _can_take_second(self) -> bool:
        return self._can_draw() or bool(self._faceup_takeable(True))

    def _affordable_routes(self, seat: int) -> list[tuple[int, list[Payment] | None]]:
        return seat_rules.affordable_routes(self.board, self.n, self.owner, seat,
                                            self.trains[seat], self.hands[seat], self)

    def _any_station(self, seat: int) -> bool:
        return bool(self.station_sites(seat)
                    and payment.station_payments(self.hands[seat], self.station_cost(seat)))

    def can_pass(self, seat: int) -> bool:
        """docs/rules.md §3.6, §11.12: only with no other action at all."""
        return not (self._can_draw() or self.faceup or self.ticket_deck
                    or self._affordable_routes(seat) or self._any_station(seat)
                    or any(m.blocks_pass(self, seat) for m in self.mechanics))

    # ----- legal actions -------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move():
            return []
        if self.phase == SETUP or self.step == CHOOSING:
            return self._keep_options(seat)
        if self.step == TUNNEL:
            t = self.tunnel
            assert t is not None
            answers: list[Action] = [TunnelPay(seat, p) for p in
                                     payment.tunnel_extra_options(self.hands[seat], t.extra, t.color)]
            return answers + [TunnelDecline(seat)]
        if self.step == SECOND_CARD:
            draws: list[Action] = [DrawCard(seat)] if self._can_draw() else []
            return draws + [DrawCard(seat, c) for c in sorted(self._faceup_takeable(True))]
        out: list[Action] = [DrawCard(seat)] if self._can_draw() else []
        out += [DrawCard(seat, c) for c in sorted(set(self.faceup))]
        if self.ticket_deck:
            out.append(DrawTickets(seat))
        hand = self.hands[seat]
        routes = self.board.routes
        expanders = seat_rules.claim_expanders(self.board)
        for r, pays in self._affordable_routes(seat):
            if pays is None:
                pays = payment.route_payments(self.rules, routes[r], hand)
            if expanders:
                out += self._claim_variants([ClaimRoute(seat, r, p) for p in pays], expanders)
            else:
                out += [ClaimRoute(seat, r, p) for p in pays]
        for m in self.mechanics:
            out += m.actions(self, seat)
        if self.stations_left[seat]:
            pays = payment.station_payments(hand, self.station_cost(seat))
            if pays:
                for node in self.station_sites(seat):
                    out += [BuildStation(seat, node, p) for p in pays]
        return out or [Pass(seat)]

    def route_claims(self, seat: int, r: int) -> list[Action]:
        """The legal claims of route r now: `legal_actions`' claims of that route, in their
        order, worked out for that route alone (a computer player checking one claim need not
        enumerate every route's payments: on Northern Lights that is most of a decision)."""
        if seat not in self.to_move() or self.phase == SETUP or self.step != IDLE:
            return []
        if self.route_blocked(seat, r) is not None:
            return []
        route = self.board.routes[r]
        claims = [ClaimRoute(seat, r, p)
                  for p in seat_rules.route_payments(self.board, route, self.hands[seat], self)]
        expanders = seat_rules.claim_expanders(self.board)
        return self._claim_variants(claims, expanders) if expanders else list(claims)

    def claim_variants(self, claim: ClaimRoute) -> list[Action]:
        """The claims one payment makes on this map (`_claim_variants` of one)."""
        return self._claim_variants([claim], seat_rules.claim_expanders(self.board))

    def _claim_variants(self, claims: list[ClaimRoute],
                        expanders: tuple[Mechanic, ...]) -> list[Action]:
        """The claims each payment makes on this map (a mechanic's fields: ferry cards, a
        share's company)."""
        for m in expanders:
            claims = [v for c in claims for v in m.claim_variants(self, c)]
        return list(claims)

    def _keep_options(self, seat: int) -> list[Action]:
        offer = self.offers[seat]
        assert offer is not None       # to_move: a seat choosing has an offer
        lo = self.keep_min(seat)
        return [KeepTickets(seat, combo) for k in range(lo, len(offer) + 1)
                for combo in combinations(offer, k)]

    def check(self, action: Action) -> Illegal | None:
        """None if the action is legal now, else the Illegal reason (nothing changes)."""
        try:
            self._validate(action)
        except Illegal as e:
            return e
        return None

    explain = check     # the name PlayerView shares

    # ----- apply -------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return its events; raise Illegal and change nothing otherwise."""
        plan = self._validate(action)
        return plan()

    def _validate(self, a: Action) -> Plan:
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
        for m in self.mechanics:
            plan = m.plan(self, a)
            if plan is not None:
                return plan
        raise Illegal("unknown_action")

    # keep tickets
    def _v_keep(self, a: KeepTickets) -> Plan:
        offer = self.offers[a.seat]
        if self.phase == SETUP:
            if offer is None:
                raise Illegal("already_chosen")
        else:
            if a.seat != self.current:
                raise Illegal("not_your_turn")
            if self.step != CHOOSING:
                raise Illegal("no_ticket_offer")
        assert offer is not None       # choosing: the seat has an offer
        kept = list(a.tickets)
        if len(set(kept)) != len(kept) or any(t not in offer for t in kept):
            raise Illegal("not_offered")
        lo = self.keep_min(a.seat)
        if len(kept) < lo:
            raise Illegal("keep_at_least", count=lo)
        return lambda: self._do_keep(a.seat, kept)

    def _do_keep(self, seat: int, kept: list[int]) -> list[Event]:
        offer = self.offers[seat]
        assert offer is not None
        self.offers[seat] = None
        self.tickets[seat].extend(kept)
        returned = [t for t in offer if t not in kept]
        setup = self.phase == SETUP
        if (self.rules.unkept_start if setup else self.rules.unkept_draw) == "bottom":
            board = self.board
            self.ticket_deck.extend(t for t in returned if not board.tickets[t].long)
        events: list[Event] = [ev.keep_tickets(seat, len(kept), setup, kept, returned)]
        if setup:
            if all(o is None for o in self.offers):
                self.phase = PLAY
                events.append(ev.turn(self.current))
            return events
        return events + self._end_turn(seat, "draw_tickets")

    # draw cards
    def _v_draw(self, a: DrawCard) -> Plan:
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

    def _do_draw(self, seat: int, card: int, second: bool) -> list[Event]:
        events: list[Event] = []
        before = self.reshuffles
        if card == -1:
            got = self._draw()
            assert got is not None     # _v_draw: the deck or the discard pile has a card
            self.hands[seat][got] += 1
            events.append(ev.draw_card_blind(seat, got))
        else:
            self.faceup.remove(card)
            self.hands[seat][card] += 1
            events.append(ev.draw_card_faceup(seat, card))
            self._refill(changed=True)
        if self.reshuffles != before:
            events.append(ev.reshuffle())
        self.passes = 0
        ends = second or (card == LOCO and self.rules.faceup_locomotive_limit) or not self._can_take_second()
        if ends:
            self.step = IDLE
            return events + self._end_turn(seat, "draw_card")
        self.step = SECOND_CARD
        return events

    # claim
    def _v_claim(self, a: ClaimRoute) -> Plan:
        routes = self.board.routes
        if not 0 <= a.route < len(routes):
            raise Illegal("unknown_route")
        why = self.route_blocked(a.seat, a.route)
        if why:
            raise Illegal(why)
        route = routes[a.route]
        for m in self.mechanics:
            refused = m.claim_blocked(self, a.seat, route)
            if refused:
                raise Illegal(refused)
        self._check_hand(a.seat, a.cards)
        if a.ferry or a.share or a.dummy_share:
            read = {f for m in self.mechanics for f in m.action_fields}
            if a.ferry and "ferry" not in read:
                raise Illegal("no_ferry_here")
            if (a.share or a.dummy_share) and "share" not in read:
                raise Illegal("no_share_here")
        color = seat_rules.pay(self.board, route, a.cards, self, a)
        for m in self.mechanics:
            m.check_claim(self, a)
        return lambda: self._do_claim(a.seat, a.route, tuple(a.cards), color, a)

    def _check_hand(self, seat: int, cards: Sequence[int]) -> None:
        if len(cards) != N_CARD_KINDS or any(c < 0 for c in cards):
            raise Illegal("bad_cards")
        hand = self.hands[seat]
        if any(cards[i] > hand[i] for i in range(N_CARD_KINDS)):
            raise Illegal("cards_not_in_hand")

    def _do_claim(self, seat: int, r: int, cards: Payment, color: int,
                  action: ClaimRoute | None = None) -> list[Event]:
        hand = self.hands[seat]
        for i in range(N_CARD_KINDS):
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
            events: list[Event] = [ev.tunnel_reveal(seat, r, cards, revealed, extra)]
            if self.reshuffles != before:
                events.insert(0, ev.reshuffle())
            if extra:
                self.tunnel = PendingTunnel(r, color, cards, revealed, extra)
                self.step = TUNNEL
                return events
            self.discard.extend(revealed)
            return events + self._place_route(seat, r, cards)
        return self._place_route(seat, r, cards, action)

    def _place_route(self, seat: int, r: int, cards: Payment,
                     action: ClaimRoute | None = None) -> list[Event]:
        route = self.board.routes[r]
        for i in range(N_CARD_KINDS):
            self.discard.extend([i] * cards[i])
        self.owner[r] = seat
        self.routes_of[seat].append(r)
        self.trains[seat] -= seat_rules.trains_needed(self.board, r, self)
        pts = self.rules.route_points[route.length]
        mechanics = self.mechanics
        for m in mechanics:
            pts += m.claim_points(route, self)
        self.route_points[seat] += pts
        self.last_move = (seat, "claim_route", r)
        events: list[Event] = [ev.claim_route(seat, r, cards, pts)]
        self._refill()
        if mechanics:
            claim = action if action is not None else ClaimRoute(seat, r, cards)
            for m in mechanics:
                events += m.after_claim(self, seat, route, claim)
        return events + self._end_turn(seat, "claim_route", record=False)

    # tunnels
    def _v_tunnel(self, a: TunnelPay | TunnelDecline) -> Plan:
        if isinstance(a, TunnelDecline):
            return lambda: self._do_tunnel_decline(a.seat)
        self._check_hand(a.seat, a.cards)
        t = self.tunnel
        assert t is not None           # step TUNNEL
        payment.tunnel_extra_payment(a.cards, t.extra, t.color)
        return lambda: self._do_tunnel_pay(a.seat, tuple(a.cards))

    def _do_tunnel_pay(self, seat: int, cards: Payment) -> list[Event]:
        t = self.tunnel
        assert t is not None
        self.tunnel = None
        self.step = IDLE
        hand = self.hands[seat]
        for i in range(N_CARD_KINDS):
            hand[i] -= cards[i]
        self.discard.extend(t.revealed)
        total = tuple(t.laid[i] + cards[i] for i in range(N_CARD_KINDS))
        return [ev.tunnel_pay(seat, t.route, cards)] + self._place_route(seat, t.route, total)

    def _do_tunnel_decline(self, seat: int) -> list[Event]:
        t = self.tunnel
        assert t is not None
        self.tunnel = None
        self.step = IDLE
        hand = self.hands[seat]
        for i in range(N_CARD_KINDS):
            hand[i] += t.laid[i]
        self.discard.extend(t.revealed)
        self._refill()
        self.last_move = (seat, "tunnel_decline", t.route)
        return [ev.tunnel_decline(seat, t.route)] + self._end_turn(seat, "tunnel_decline", record=False)

    # tickets
    def _do_draw_tickets(self, seat: int) -> list[Event]:
        k = min(self.rules.draw_tickets, len(self.ticket_deck))
        offer = [self.ticket_deck.popleft() for _ in range(k)]
        self.offers[seat] = offer
        self.step = CHOOSING
        self.passes = 0
        return [ev.draw_tickets(seat, k, offer)]

    # stations
    def _v_station(self, a: BuildStation) -> Plan:
        why = seat_rules.station_blocked(self.board, self.station_owner, self.stations_left[a.seat], a.city)
        if why:
            raise Illegal(why)
        self._check_hand(a.seat, a.cards)
        payment.station_payment(a.cards, self.station_cost(a.seat))
        return lambda: self._do_station(a.seat, a.city, tuple(a.cards))

    def _do_station(self, seat: int, city: int, cards: Payment) -> list[Event]:
        hand = self.hands[seat]
        for i in range(N_CARD_KINDS):
            hand[i] -= cards[i]
            self.discard.extend([i] * cards[i])
        self.stations_left[seat] -= 1
        self.station_owner[city] = seat
        self.stations_of[seat].append(city)
        self.passes = 0
        self.last_move = (seat, "build_station", city)
        self._refill()
        return [ev.build_station(seat, city, cards)] + self._end_turn(seat, "build_station", record=False)

    def _do_pass(self, seat: int) -> list[Event]:
        self.passes += 1
        return [ev.pass_turn(seat)] + self._end_turn(seat, "pass")

    # ----- turn end (docs/rules.md §4, §3.6, §11.13) ----------------------------------------
    def end_turn(self, seat: int, kind: str) -> list[Event]:
        """End `seat`'s turn after a map's own action (a mechanic's), as after any other."""
        return self._end_turn(seat, kind)

    def _end_turn(self, seat: int, kind: str, record: bool = True) -> list[Event]:
        if record:
            self.last_move = (seat, kind, None)
        self.step = IDLE
        self.turn += 1
        events: list[Event] = []
        if self.final_turns_left is not None:
            self.final_turns_left -= 1
        elif self._ends_now(seat):
            self.final_turns_left = self.n
            self.final_trigger = seat
            events.append(ev.final_round(seat))
        if self.final_turns_left == 0 or self.passes >= self.n:
            self.phase = OVER
            events.append(ev.game_over("passes" if self.passes >= self.n else "trains"))
            return events
        self.current = (seat + 1) % self.n
        events.append(ev.turn(self.current))
        return events

    def _ends_now(self, seat: int) -> bool:
        """Does the turn `seat` just ended start the last round (§4; a map's own trigger)?"""
        for m in self.mechanics:
            decided = m.end_trigger(self, seat)
            if decided is not None:
                return decided
        return self.trains[seat] <= self.rules.end_trains

    # ----- scores ------------------------------------------------------------------------
    def scores(self, earned_only: bool = False) -> tuple[list[Score], list[int]]:
        """Final scores now (docs/rules.md §5; §11.14 mid-game: as if the game ended now;
        `earned_only`: without the bonuses nobody has earned yet, final_scores)."""
        return final_scores(self, earned_only)

    def tickets_completed_by(self, seat: int, route: int) -> list[tuple[int, int]]:
        """(ticket id, points) of `seat`'s tickets that its claim of `route` completed: in the
        routes that count for its tickets (a Bullet Train's route on Japan is everyone's)."""
        return completed_by(self.board, self.network_routes(seat), self.tickets[seat], route)

    # ----- copies -------------------------------------------------------------------------
    def copy(self, dealer: Dealer | None = None) -> Game:
        """An independent copy; it gets its own dealer (a clone of this one unless given), so
        simulations on the copy never disturb this game's shuffles."""
        g = Game.__new__(Game)
        d = self.__dict__
        g.__dict__.update(d)
        g.__dict__.update({name: copy(d[name]) for name, copy in state.MUTABLE})
        g.dealer = dealer or self.dealer.clone()
        return g
