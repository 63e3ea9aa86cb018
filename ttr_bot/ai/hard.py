"""`hard`: the medium planner's ideas plus search.

At every real choice (which tickets to keep, and a turn's action: which route, drawing cards,
drawing tickets, a block, a station) it lists a few candidate moves and scores each by
determinized Monte-Carlo rollouts: the hidden cards are dealt at random, the opponents' tickets
drawn by how well they fit their networks (`infer.py`), then the game is played out to the end
by fast planner policies; the candidate with the best mean final margin is played. The work per
decision is a fixed number of simulated steps (not a clock), so a seed always gives the same
game.

Its own heuristics (used for candidates, and for the small decisions: second card, tunnels)
add to medium: routes on the opponents' likely paths count as contested (claimed earlier, and
offered as blocks), and tickets that overlap its network are taken greedily. Where a map's
rule lets a claim choose (the company of a Pennsylvania share), the first claims' other choices
are candidates too (`choice_claims`, `Sense.choices`).
"""
import random

from ..engine.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets
from ..engine.cards import LOCO
from ..engine.errors import Illegal
from ..engine.network import longest_trail
from ..engine.view import view as make_view
from .boardinfo import board_info
from .infer import sample_game
from .mechanics import claim_choices, fit_claim
from .medium import Context, MediumAgent
from .planner import keep_choices, route_costs
from .threat import threats


class RolloutPolicy(MediumAgent):
    """The fast policy simulations use for every seat: medium, keeping each seat's plan until
    one of its routes is taken by someone else or its tickets change (other claims only make
    other paths dearer, and own claims follow the plan)."""
    level = "rollout"

    def __init__(self, seed=0, **params):
        super().__init__(seed, **params)
        self.plans = {}

    def reset(self):
        self.plans.clear()

    def make_plan(self, ctx):
        v = ctx.v
        seat = v.seat
        hit = self.plans.get(seat)
        if hit is not None:
            tickets, free, cost, plan = hit
            if tickets == v.tickets:
                owner = v.owner
                if all(owner[r] < 0 or owner[r] == seat for r in free):
                    return cost, plan
        cost, plan = super().make_plan(ctx)
        free = [r for r in plan.routes if v.owner[r] < 0]
        self.plans[seat] = (list(v.tickets), free, cost, plan)
        return cost, plan


class HardAgent(MediumAgent):
    level = "hard"
    plan_orders = 3
    long_bonus = 1.0
    ticket_trains = 25
    block_threshold = 8.0  # play a block without search when it costs them this many points
    contest_weight = 0.5   # planned routes the opponents need too are claimed earlier
    trail_weight = 0.5     # value per train a claim adds to our longest trail
    budget = 8000          # simulated actions per decision, per two players (longer games
                           # with more players get proportionally more)
    min_samples = 2        # determinizations per decision, at least …
    max_samples = 40       # … and at most
    max_candidates = 8
    endgame_clock = 20     # from when someone has this few trains left, also compare other
                           # first cards and the best-scoring claims
    endgame_claims = 6
    endgame_candidates = 10
    choice_claims = 2      # the first claims whose other choices (a share's company) are also
                           # compared, on maps whose rules give one
    draw_candidates = 2    # face-up cards compared besides the planner's pick and a blind draw
    drop_after = 3         # samples before the worst candidate is dropped, one per sample
    keep_candidates = 5
    win_bonus = 10.0       # a win is worth this many points of margin
    greedy_gap = 6         # consider more tickets once the plan needs at most this many trains
    margin_z = 2.0         # a candidate must beat the planner's choice by this many std errors
    budget_guard = 0       # 1: no candidate claim off the plan that leaves fewer trains than
                           # the plan still needs (while the plan fits the trains; expert's
                           # added blocks are not filtered); measured and not adopted
                           # (docs/computer-players.md)

    def __init__(self, seed=0, **params):
        super().__init__(seed, **params)
        # simulations play us with our own planner settings, the others as medium players
        self.sim_self = RolloutPolicy(seed, long_bonus=self.long_bonus, ticket_trains=self.ticket_trains)
        self.sim_other = RolloutPolicy(seed)
        self.infer_cache = {}
        self.searches = 0

    # ----- decisions ----------------------------------------------------------------------------
    def decide(self, v):
        if v.offer is not None:
            return self.choose_tickets_search(v)
        if v.step == "tunnel":
            return self.tunnel(v)
        ctx = Context(self, v)
        if v.step == "second_card":
            return self.draw(ctx, second=True)
        cands = self.candidates(ctx)
        if not cands:
            return None      # (a map's own rules refused every claim: act's fallback plays)
        if len(cands) == 1 or not self.budget:
            return cands[0]
        return cands[self.pick(self.search(v, cands))]

    def pick(self, samples):
        """Index of the candidate to play: the best mean, but only if it beats candidate 0 (the
        planner's own choice) clearly on the paired samples."""
        n = len(samples[0])
        # only candidates sampled to the end compete (the others were dropped as worst)
        means = [sum(s) / len(s) if len(s) == n else float("-inf") for s in samples]
        best = max(range(len(samples)), key=lambda i: (means[i], -i))
        if best == 0 or n < 2:
            return best
        diffs = [a - b for a, b in zip(samples[best], samples[0])]
        m = sum(diffs) / len(diffs)
        var = sum((d - m) ** 2 for d in diffs) / (len(diffs) - 1)
        se = (var / len(diffs)) ** 0.5
        return best if m > self.margin_z * se else 0

    # ----- heuristics on top of medium -----------------------------------------------------------
    def threat(self, ctx):
        t = getattr(ctx, "_threat", None)
        if t is None:
            t = threats(ctx.info, ctx.v, self.infer_cache)
            ctx._threat = t
        return t

    def claim_value(self, ctx, r):
        return (super().claim_value(ctx, r) + self.contest_weight * self.threat(ctx).get(r, 0.0)
                + self.trail_weight * self.trail_gain(ctx, r))

    def trail_gain(self, ctx, r):
        """Trains route r would add to our longest trail (0 where no bonus is given for it)."""
        info = ctx.info
        if not info.rules.longest_path_bonus or not self.trail_weight:
            return 0
        base = getattr(ctx, "_trail", None)
        if base is None:
            base = ctx._trail = longest_trail(info.board, ctx.own)
        return longest_trail(info.board, ctx.own + [r]) - base

    filler_pool = 8

    def filler_rank(self, ctx, r):
        """Among the best few filler claims by points, the one that lengthens our trail."""
        return ctx.info.points[r]

    def filler_extra(self, ctx, r):
        return self.trail_weight * self.trail_gain(ctx, r)

    def block_move(self, ctx, threshold):
        """The affordable route whose loss would hurt the opponents most, if it hurts enough."""
        info = ctx.info
        best = None
        for r, loss in self.threat(ctx).items():
            if loss < threshold or not ctx.claimable(r):
                continue
            pay = self.pay(ctx, r, ctx.demand)
            if pay is None:
                continue
            # own use of the route and its points count too; cards taken from the plan count against
            val = loss + 0.3 * info.points[r] - 1.5 * pay[LOCO]
            if best is None or val > best[0]:
                best = (val, r, pay)
        if best is None:
            return None
        return ClaimRoute(ctx.seat, best[1], best[2])

    def turn(self, ctx):
        if not ctx.last_turn:
            a = self.block_move(ctx, self.block_threshold)
            if a is not None and a.route not in ctx.to_claim:
                return a
        return super().turn(ctx)

    def candidates(self, ctx):
        v = ctx.v
        out = []

        mapped = v.board.rules.mechanics

        def add(a):
            if mapped and isinstance(a, ClaimRoute):
                a = fit_claim(v, a)     # a map's own rules: the engine's legal claim
            if a is not None and a not in out:
                out.append(a)

        add(self.turn(ctx))             # what the planner would do
        claims = []
        for r in ctx.to_claim:
            if ctx.claimable(r):
                pay = self.pay(ctx, r, ctx.demand)
                if pay is not None:
                    claims.append((self.claim_value(ctx, r), r, pay))
        claims.sort(reverse=True)
        for _, r, pay in claims[:3]:
            add(ClaimRoute(ctx.seat, r, pay))
        if not ctx.last_turn:
            add(self.draw(ctx, second=False))
            if v.ticket_deck_size and ctx.trains >= 8 and ctx.plan.trains <= self.greedy_gap:
                add(DrawTickets(ctx.seat))
        add(self.filler_claim(ctx))
        add(self.station_move(ctx))
        if not ctx.last_turn:
            add(self.block_move(ctx, 3.0))
        endgame = ctx.clock <= self.endgame_clock
        if endgame:
            # near the end simulations are short and sharp: compare more moves
            for a in self.scoring_claims(ctx, self.endgame_claims):
                add(a)
            if not ctx.last_turn:
                for a in self.draw_options(ctx):
                    add(a)
        out = out[:self.endgame_candidates if endgame else self.max_candidates]
        if self.budget_guard:
            out = self.within_budget(ctx, out)
        return self.with_choices(v, out) if mapped else out

    def within_budget(self, ctx, out):
        """The candidates less the claims off the plan that would leave it short of trains (the
        planner's own choice, first, always stays)."""
        need = ctx.plan.trains
        if need > ctx.trains:
            return out
        planned = set(ctx.to_claim)
        length = ctx.info.length
        return out[:1] + [a for a in out[1:] if not isinstance(a, ClaimRoute) or a.route in planned
                          or ctx.trains - length[a.route] >= need]

    def with_choices(self, v, out):
        """The candidates with the other choices of the first `choice_claims` claims (the
        company of a share) after each: which company to take is the search's to weigh."""
        res = []
        claims = 0
        for a in out:
            res.append(a)
            if isinstance(a, ClaimRoute) and claims < self.choice_claims:
                claims += 1
                res.extend(c for c in claim_choices(v, a) if c not in out and c not in res)
        return res

    def scoring_claims(self, ctx, k):
        """The k claims scoring most right now (route points plus tickets they complete)."""
        ranked = self.scoring_ranked(ctx, tunnel_penalty=0)
        ranked.sort(reverse=True)
        out = []
        for _, neg in ranked:
            pay = self.pay(ctx, -neg, ctx.demand)
            if pay is not None:
                out.append(ClaimRoute(ctx.seat, -neg, pay))
                if len(out) >= k:
                    break
        return out

    def draw_options(self, ctx):
        """Other first cards worth comparing: blind, and the face-up cards the plan wants most."""
        v = ctx.v
        out = []
        if v.deck_size or v.discard:
            out.append(DrawCard(ctx.seat, -1))
        want = self.wanted_colors(ctx)
        faceup = sorted(set(v.faceup), key=lambda c: (-want[c], c))
        for c in faceup[:self.draw_candidates]:
            out.append(DrawCard(ctx.seat, c))
        return out

    def choose_tickets_search(self, v):
        info = board_info(v.board)
        setup = v.phase == "setup"
        trains = v.trains[v.seat]
        budget = int(trains * (self.setup_budget if setup else self.later_budget))
        cost = route_costs(info, v, model=self.costs_for(v.board))
        scored = []
        for combo in keep_choices(v.offer, v.keep_min()):
            s = self.keep_score(v, info, cost, list(v.tickets) + list(combo), combo, budget)
            scored.append((s, combo))
        scored.sort(key=lambda x: -x[0])
        combos = [c for _, c in scored[:self.keep_candidates]]
        if len(combos) == 1 or not self.budget:
            return KeepTickets(v.seat, tuple(combos[0]))
        cands = [KeepTickets(v.seat, tuple(c)) for c in combos]
        return cands[self.pick(self.search(v, cands))]

    # ----- search -------------------------------------------------------------------------------
    def search(self, v, actions):
        self.searches += 1
        rng = random.Random(self.rng.getrandbits(64))
        results = [[] for _ in actions]
        alive = list(range(len(actions)))
        steps = 0
        samples = 0
        budget = self.budget * max(2, v.n) // 2
        while samples < self.max_samples and (steps < budget or samples < self.min_samples):
            steps += self.sample_world(v, actions, alive, results, rng)
            samples += 1
            if samples >= self.drop_after and len(alive) > 2:
                # successive rejection: stop sampling the worst (never the planner's choice)
                worst = min(alive[1:], key=lambda i: (sum(results[i]), i))
                alive.remove(worst)
        return results

    def sample_world(self, v, actions, which, results, rng):
        """One world (hidden cards dealt, opponents' tickets guessed), played out after each
        candidate in `which` with the same later deals; appends each candidate's result and
        returns the simulated steps."""
        g0 = sample_game(v, rng, self.infer_cache)
        dseed = rng.getrandbits(32)
        steps = 0
        for i in which:
            g = g0.copy()
            g.dealer.rng.seed(dseed)
            try:
                g.apply(actions[i])
            except Illegal:
                # cannot happen for legal candidates; score it out rather than crash
                results[i].append(-1000.0)
                continue
            val, n = self.rollout(g, v.seat)
            results[i].append(val)
            steps += n + 1
        return steps

    def rollout(self, g, me, cap=3000):
        self.sim_self.reset()
        self.sim_other.reset()
        steps = 0
        while not g.over and steps < cap:
            for seat in g.to_move():
                pol = self.sim_self if seat == me else self.sim_other
                v = make_view(g, seat)
                a = pol.decide(v)
                try:
                    g.apply(a)
                except Illegal:
                    g.apply(pol.fallback(v))
                steps += 1
        players, winners = g.scores()
        mine = players[me]["total"]
        other = max(pl["total"] for p, pl in enumerate(players) if p != me)
        return mine - other + (self.win_bonus if me in winners else 0.0), steps
