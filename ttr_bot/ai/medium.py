"""`medium`: a route-focus planner.

It plans shortest connections for its tickets over free and own routes, claims the most
valuable planned route it can afford, draws the colours the plan needs, keeps the tickets that
fit its trains, and draws more tickets once its plan is done while trains remain. Subclasses
(`easy`, `hard`) change its parameters and override single decisions.
"""
from ..engine.actions import (
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    TunnelDecline,
    TunnelPay,
)
from ..engine.cards import LOCO, N_CARD_KINDS, N_COLORS
from ..engine.payment import station_payments, tunnel_extra_options
from ..engine.seat_rules import route_blocked
from . import mechanics
from .base import Agent
from .boardinfo import board_info
from .planner import (
    INF,
    CostModel,
    TicketGains,
    best_payment,
    best_plan,
    best_station_payment,
    color_demand,
    could_afford,
    keep_choices,
    own_routes,
    route_costs,
    tickets_value,
)

PACE = 1.15   # trains a player places per turn on average (measured in 2-player games)


def turns_left(v):
    """Rough number of own turns before the game ends, from the opponents' trains."""
    others = [t for p, t in enumerate(v.trains) if p != v.seat] or v.trains
    return max(1.0, (min(others) - v.board.rules.end_trains) / PACE + 1)


def turns_to_end(v, claim_trains=3.0):
    """Own turns before the game ends if an opponent plays its hand out: the trains it must place
    before the end, at one claim of `claim_trains` a turn, plus a turn for every two cards its
    hand lacks for them. With an empty hand this is `turns_left`'s pace (1.2 trains a turn); an
    opponent holding 28 cards and 18 trains can end the game in six turns, not fifteen."""
    end = v.board.rules.end_trains
    places = [(max(0, t - end), v.hand_sizes[p]) for p, t in enumerate(v.trains) if p != v.seat]
    soonest = min((place / claim_trains + max(0, place - hand) / 2 for place, hand in places),
                  default=0.0)
    return max(1.0, soonest + 1)


def plan_turns(info, plan, hand, owner):
    """Turns the plan still takes: one per claim plus card draws (two cards a turn) for the
    cards the hand does not hold yet (roughly: a share of the hand fits the plan)."""
    turns = 0.0
    cards = 0
    for r in plan.routes:
        if owner[r] < 0:
            turns += 1
            cards += info.length[r]
    return turns + max(0, cards - 0.7 * sum(hand)) / 2


class Context:
    """What one decision works from: the view, its board facts, costs and the current plan."""

    def __init__(self, agent, v):
        self.v = v
        self.info = info = board_info(v.board)
        self.seat = v.seat
        self.hand = v.hand
        self.trains = v.trains[v.seat]
        self.own = own_routes(v)
        self.cost, self.plan = agent.make_plan(self)
        owner = v.owner
        self.to_claim = [r for r in self.plan.routes if owner[r] < 0]
        self.to_borrow = [r for r in self.plan.routes if owner[r] >= 0 and owner[r] != v.seat]
        self.demand = color_demand(info, self.to_claim, self.hand, owner)

    @property
    def payable(self):
        """Routes we may claim and whose count test our hand passes, in board order (once per
        decision)."""
        p = self.__dict__.get("_payable")
        if p is None:
            p = self._payable = self.info.payable_claims(self.v, self.seat, self.trains, self.hand)
        return p

    def claimable(self, r):
        """May we claim route r (whatever our cards)?"""
        v = self.v
        return route_blocked(v.board, v.n, v.owner, self.seat, self.trains, r) is None

    @property
    def clock(self):
        """Trains the player closest to the end has left: how near the end is."""
        return min(self.v.trains)

    @property
    def last_turn(self):
        return self.v.final_turns_left is not None


class MediumAgent(Agent):
    level = "medium"
    overhead = 1.0             # planning cost of one claim beyond its trains
    tunnel_cost = 1.0
    ferry_cost = 1.5           # per locomotive a ferry needs
    station_cost = 6.0
    hand_discount = 0.0        # routes the hand can already pay for look cheaper
    long_bonus = 0.6           # long routes look cheaper by this share of their extra points
    plan_orders = 1
    setup_budget = 0.78        # share of the trains the starting tickets may need
    later_budget = 0.85
    fail_weight = 1.5          # how much a ticket we expect to fail weighs against its points
    ticket_trains = 20         # draw new tickets when the plan is done and this many trains remain
    take_faceup_loco = False
    tunnel_spare = 1           # claim a tunnel holding this many cards for its extra cost
    race_early = True          # a map rule's early_action before the plan's claims
    hurry_clock = 6            # someone has this few trains: cash in cards before the end

    # ----- dispatch ---------------------------------------------------------------------------
    def decide(self, v):
        if v.offer is not None:
            return KeepTickets(v.seat, self.choose_tickets(v))
        if v.step == "tunnel":
            return self.tunnel(v)
        ctx = Context(self, v)
        if v.step == "second_card":
            return self.draw(ctx, second=True)
        return self.turn(ctx)

    @property
    def costs(self):
        c = self.__dict__.get("_costs")
        if c is None:
            c = self.__dict__["_costs"] = self.cost_model(self.long_bonus)
        return c

    def cost_model(self, long_bonus):
        """A planning cost model with this level's costs and the given long-route bonus."""
        return CostModel(self.overhead, self.tunnel_cost, self.ferry_cost, self.station_cost,
                         self.hand_discount, long_bonus)

    def costs_for(self, board):
        """`costs` on this board: a map's own rules may weigh long routes less
        (`mechanics.long_bonus`); the same model where they do not."""
        c = self.costs
        if not board.rules.mechanics:
            return c
        bonus = mechanics.long_bonus(board, c.long_bonus)
        if bonus == c.long_bonus:
            return c
        made = self.__dict__.setdefault("_map_costs", {})
        if bonus not in made:
            made[bonus] = self.cost_model(bonus)
        return made[bonus]

    def make_plan(self, ctx):
        """(route costs, plan) for this decision."""
        v, info = ctx.v, ctx.info
        cost = route_costs(info, v, model=self.costs_for(v.board), extra=self.extra_costs(ctx))
        if info.board.rules.mechanics:
            mechanics.adjust_costs(v, info, cost)
        return cost, best_plan(info, cost, v.tickets, ctx.trains, v.owner, self.plan_orders)

    def extra_costs(self, ctx):
        return None

    # ----- tickets ------------------------------------------------------------------------------
    def choose_tickets(self, v):
        info = board_info(v.board)
        setup = v.phase == "setup"
        trains = v.trains[v.seat]
        budget = int(trains * (self.setup_budget if setup else self.later_budget))
        cost = route_costs(info, v, model=self.costs_for(v.board))
        best = None
        for combo in keep_choices(v.offer, v.keep_min()):
            score = self.keep_score(v, info, cost, list(v.tickets) + list(combo), combo, budget)
            if best is None or score > best[0]:
                best = (score, combo)
        return tuple(best[1])

    def keep_score(self, v, info, cost, tickets, combo, budget):
        plan = best_plan(info, cost, tickets, budget, v.owner, self.plan_orders)
        got = sum(info.max_points[t] for t, _, _ in plan.tickets)
        got += sum(info.max_points[t] for t in plan.done)
        lost = sum(info.tickets[t][2] for t in plan.failed)
        if v.phase != "setup" and plan_turns(info, plan, v.hand, v.owner) > turns_left(v):
            # not enough time before the end: the new tickets would fail
            lost += sum(info.tickets[t][2] for t in combo if t not in plan.done)
            got -= sum(info.max_points[t] for t in combo if t not in plan.done)
        return got - self.fail_weight * lost - 0.05 * plan.trains

    def want_tickets(self, ctx):
        v = ctx.v
        if ctx.to_claim or ctx.to_borrow or not v.ticket_deck_size or ctx.last_turn:
            return False
        return ctx.trains >= self.ticket_trains and ctx.clock >= self.ticket_trains

    # ----- tunnels ------------------------------------------------------------------------------
    def tunnel(self, v):
        options = tunnel_extra_options(v.hand, v.tunnel.extra, v.tunnel.color)
        if not options:
            return TunnelDecline(v.seat)
        return TunnelPay(v.seat, min(options, key=lambda p: (p[LOCO], p)))

    # ----- a turn -------------------------------------------------------------------------------
    def turn(self, ctx):
        v = ctx.v
        if ctx.last_turn:
            a = self.final_move(ctx)
            if a is not None:
                return a
        elif self.hurrying(ctx):
            a = self.hurry_move(ctx)
            if a is not None:
                return a
        if self.race_early and ctx.info.board.rules.mechanics and not ctx.last_turn:
            a = mechanics.early_action(v, ctx.to_claim)
            if a is not None:
                return a
        a = self.claim_planned(ctx)
        if a is not None:
            return a
        a = self.station_move(ctx)
        if a is not None:
            return a
        if not ctx.to_claim and not ctx.to_borrow:
            if self.want_tickets(ctx):
                return DrawTickets(v.seat)
            a = self.filler_claim(ctx)
            if a is not None:
                return a
        if ctx.info.board.rules.mechanics:
            a = mechanics.turn_action(v, ctx.to_claim)
            if a is not None:
                return a
        a = self.draw(ctx, second=False)
        if a is not None:
            return a
        return self.no_draw(ctx)

    def claim_value(self, ctx, r):
        info = ctx.info
        value = info.points[r] + 0.2 * ctx.plan.points.get(r, 0) + 0.01 * info.length[r]
        if info.board.rules.mechanics:
            value += mechanics.route_value(ctx.v, r)
        return value

    def pay(self, ctx, r, demand=None):
        """How to pay for route r now, or None; tunnels only with cards to spare for the
        extra cost, except when there is no time left to wait."""
        spare = 0 if ctx.last_turn else self.tunnel_spare
        return best_payment(ctx.info, r, ctx.hand, demand, spare)

    def claim_planned(self, ctx):
        ranked = []
        for r in ctx.to_claim:
            if ctx.claimable(r) and could_afford(ctx.info, r, ctx.hand):
                ranked.append((self.claim_value(ctx, r), -r))
        return self._first_payable(ctx, ranked, ctx.demand)

    def _first_payable(self, ctx, ranked, demand=None):
        """The best-ranked (value, -route) that the hand can really pay for, as a claim."""
        ranked.sort(reverse=True)
        for _, neg in ranked:
            pay = self.pay(ctx, -neg, demand)
            if pay is not None:
                claim = self.claim(ctx, -neg, pay)
                if claim is not None:
                    return claim
        return None

    def claim(self, ctx, r, pay):
        """The claim of route r paid with `pay`; on a map with its own rules the engine's legal
        claim of r (ai/mechanics), or None when there is none."""
        claim = ClaimRoute(ctx.seat, r, pay)
        if ctx.info.board.rules.mechanics:
            return mechanics.fit_claim(ctx.v, claim)
        return claim

    def station_move(self, ctx):
        """Build a station where the plan borrows an opponent's route."""
        v, info = ctx.v, ctx.info
        if not ctx.to_borrow or not v.stations_left[ctx.seat]:
            return None
        if ctx.to_claim and not ctx.last_turn and any(ctx.claimable(r) for r in ctx.to_claim):
            # claim our own routes first: a station is the last piece
            return None
        pay = best_station_payment(info, ctx.hand, v.station_cost(), ctx.demand)
        if pay is None:
            return None
        sites = set(v.station_sites())
        for r in ctx.to_borrow:
            a, b = info.ends[r]
            if v.station_owner.get(a) == ctx.seat or v.station_owner.get(b) == ctx.seat:
                continue
            for city in (a, b):
                if city in sites:
                    return BuildStation(ctx.seat, city, pay)
        return None

    filler_pool = 6            # filler claims compared after the first ranking

    def filler_claim(self, ctx):
        """No plan left: points for trains — long routes, best touching our network. The
        `filler_pool` best by `filler_rank` are compared again by `filler_extra` less the
        locomotives they take."""
        info = ctx.info
        ranked = []
        for r in ctx.payable:
            if info.length[r] < 3 and ctx.trains > 6 and not ctx.last_turn:
                continue
            ranked.append((self.filler_rank(ctx, r), -r))
        ranked.sort(reverse=True)
        best = None
        for val, neg in ranked[:self.filler_pool]:
            pay = self.pay(ctx, -neg)
            if pay is None or self.claim(ctx, -neg, pay) is None:
                continue
            val += self.filler_extra(ctx, -neg) - 0.5 * pay[LOCO]
            if best is None or val > best[0]:
                best = (val, -neg, pay)
        if best is None:
            return None
        return ClaimRoute(ctx.seat, best[1], best[2])

    def filler_rank(self, ctx, r):
        touching = getattr(ctx, "_touching", None)
        if touching is None:
            touching = ctx._touching = {c for own in ctx.own for c in ctx.info.ends[own]}
        a, b = ctx.info.ends[r]
        return ctx.info.points[r] + (1.0 if a in touching or b in touching else 0.0)

    def filler_extra(self, ctx, r):
        return 0.0

    def final_move(self, ctx):
        """The last turn: whatever scores most now — a route (with the tickets it completes)
        or a station that completes a ticket."""
        ranked = self.scoring_ranked(ctx)
        claim = self._first_payable(ctx, ranked)
        best = None
        if claim is not None:
            best = (max(g for g, neg in ranked if -neg == claim.route), claim)
        st = self.station_move(ctx)
        if st is not None:
            # worth it only if the borrowed route completes more than the 4 points given up
            gain = self.station_gain(ctx)
            if best is None or gain > best[0]:
                best = (gain, st)
        return best[1] if best is not None and best[0] > 0 else None

    def scoring_ranked(self, ctx, tunnel_penalty=1):
        """(points now, -route) of every route we may claim and can afford: its route points
        plus the tickets it completes, less `tunnel_penalty` for a tunnel (unsorted)."""
        info = ctx.info
        gains = TicketGains(info, ctx.own, ctx.v.tickets)
        ranked = []
        for r in ctx.payable:
            gain = info.points[r] + gains.gain(*info.ends[r])
            ranked.append((gain - (tunnel_penalty if info.routes[r].tunnel else 0), -r))
        return ranked

    def hurrying(self, ctx):
        """Is the end near enough to cash in cards?"""
        return ctx.clock <= self.hurry_clock

    def hurry_move(self, ctx):
        """The end is near: a planned route if affordable, else the best route we can pay."""
        a = self.claim_planned(ctx)
        if a is not None:
            return a
        return self.final_move(ctx)

    def station_gain(self, ctx):
        info, v = ctx.info, ctx.v
        base = tickets_value(info, ctx.own, v.tickets)
        best = -INF
        for r in ctx.to_borrow:
            best = max(best, tickets_value(info, ctx.own + [r], v.tickets) - base)
        return best - info.rules.station_bonus

    # ----- drawing cards ------------------------------------------------------------------------
    def wanted_colors(self, ctx):
        """Score per card kind: how much the plan (or, without a plan, hoarding) wants it."""
        hand = ctx.hand
        want = [0.0] * N_CARD_KINDS
        if ctx.to_claim:
            for c in range(N_CARD_KINDS):
                want[c] = max(0, ctx.demand[c] - hand[c])
        else:
            # hoard the colour we hold most of, for a long route
            top = max(range(N_COLORS), key=lambda c: (hand[c], -c))
            want[top] = 1.0
        if self.race_early and ctx.info.board.rules.mechanics:
            mechanics.adjust_wants(ctx.v, want)
        return want

    def pick_card(self, ctx, second):
        v, info = ctx.v, ctx.info
        want = self.wanted_colors(ctx)
        faceup = set(v.faceup)
        best = None
        for c in faceup:
            if c == LOCO:
                continue
            if want[c] > 0 and (best is None or want[c] > want[best]):
                best = c
        if best is not None:
            return best
        can_blind = v.deck_size > 0 or len(v.discard) > 0
        if LOCO in faceup and self.take_faceup_loco:
            locos_limited = info.faceup_loco_limit
            if not (second and locos_limited):
                loco_useful = info.any_locos_anywhere or want[LOCO] > 0 or self.plan_has_special(ctx)
                if loco_useful and (not locos_limited or sum(want[:N_COLORS]) >= 4 or not can_blind):
                    return LOCO
        if can_blind:
            return -1
        # no deck: any face-up card we may take
        options = [c for c in faceup if not (c == LOCO and second and info.faceup_loco_limit)]
        if options:
            return max(options, key=lambda c: (want[c], -c))
        return None

    def plan_has_special(self, ctx):
        routes = ctx.info.routes
        return any(routes[r].tunnel or routes[r].ferry for r in ctx.to_claim)

    def draw(self, ctx, second):
        c = self.pick_card(ctx, second)
        if c is None:
            return None
        return DrawCard(ctx.seat, c)

    def no_draw(self, ctx):
        """Nothing to draw: any claim at all, else tickets, else a station, else pass."""
        v, info = ctx.v, ctx.info
        best = None
        for r in range(info.n_routes):
            if ctx.claimable(r):
                pay = self.pay(ctx, r, ctx.demand)
                if pay is not None and self.claim(ctx, r, pay) is None:
                    continue
                if pay is not None and (best is None or info.points[r] > best[0]):
                    best = (info.points[r], r, pay)
        if best is not None:
            return ClaimRoute(ctx.seat, best[1], best[2])
        if v.ticket_deck_size:
            return DrawTickets(ctx.seat)
        sites = v.station_sites()
        if sites:
            pays = station_payments(ctx.hand, v.station_cost())
            if pays:
                return BuildStation(ctx.seat, sites[0], pays[0])
        return Pass(ctx.seat)
