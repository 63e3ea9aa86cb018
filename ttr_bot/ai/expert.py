"""`expert`: hard's information-set search with a bigger budget, a noisier rollout policy,
ticket choices that weigh the risk of failing, and blocks the search may choose.

- **Search.** As `hard`: at each real choice a few candidate moves are compared over several
  worlds (the hidden cards dealt at random, the opponents' tickets drawn by how well they fit
  their networks, `infer.py`), each world played out to the end; the same worlds and the same
  later deals for every candidate (paired samples), the planner's choice kept unless another
  beats it clearly. `expert` samples more worlds. With `halving=1` it spends them by
  successive halving instead (in rounds, the worse half dropped at each round's end, so that
  no candidate is judged on three or four worlds); 90 paired Switzerland games did not show it
  stronger, so it is off by default.
- **Rollouts.** Every seat plays medium's plan, but with noise (`epsilon`): now and then a
  face-up card is passed over for a blind draw, or a claim waits a turn. A world played out by
  perfectly predictable players overrates moves that only work against them.
- **Tickets.** A ticket kept is worth its points times the chance of completing it, less its
  penalty times the chance of failing: that chance comes from the turns the plan still needs
  against the turns left before someone runs out of trains, and the trains the plan needs
  against the trains left (`success_chance`). Drawing tickets is a candidate only while that
  chance stays high for a new ticket.
- **Blocks.** The free routes the opponents most need (threat.py) are candidates whenever the
  loss to them is large enough to be worth a look; the search decides whether one pays.
- **The end.** As medium, cards are cashed in once someone is down to a few trains. With
  `hand_clock=1` also once an opponent's hand could end the game within a few turns
  (`turns_to_end`): most lost games ended that way, `expert` holding twice the cards it holds
  at the end of a won game. 90 paired Switzerland games did not show it stronger (as many
  won, as many lost), so it is off by default.

The thinking budget is a number of simulated actions (`budget`, per two players), never the
clock, so a seed and a budget always give the same game; `think_seconds` sets it from a time
(`ACTIONS_PER_SECOND` simulated actions a second on one core).
"""
import math
import random

from ..engine.actions import ClaimRoute, DrawCard, DrawTickets, KeepTickets
from ..engine.cards import GRAY, LOCO
from .boardinfo import board_info
from .hard import HardAgent, RolloutPolicy
from .medium import Context, plan_turns, turns_left, turns_to_end
from .planner import best_plan

# simulated actions (a rollout's decisions) one core plays per second: the rate that turns a
# time budget into a work budget (measured on the arena's machine: 2 players, USA)
ACTIONS_PER_SECOND = 60_000
DEFAULT_SECONDS = 0.5          # the bot's default: half a second of one core per decision


def budget_for(seconds):
    """The work budget (simulated actions per two players) for a time budget."""
    return max(0, int(seconds * ACTIONS_PER_SECOND))


class HandClock:
    """With `hand_clock` set, the end is judged by the opponents' hands as well as their trains
    (`turns_to_end`): cards are cashed in also once an opponent could end the game within
    `hurry_turns` turns, and a plan's chance counts the turns so measured."""
    hand_clock = 0
    hurry_turns = 3.0

    def turns_left(self, v):
        return turns_to_end(v) if self.hand_clock else turns_left(v)

    def hurrying(self, ctx):
        return super().hurrying(ctx) or bool(
            self.hand_clock and turns_to_end(ctx.v) <= self.hurry_turns)


class NoisyRollout(HandClock, RolloutPolicy):
    """medium's plan with noise, for every seat of a simulated game."""
    level = "rollout"
    epsilon = 0.08

    def pick_card(self, ctx, second):
        c = super().pick_card(ctx, second)
        if (c is not None and c >= 0 and self.epsilon and ctx.v.deck_size
                and self.rng.random() < self.epsilon):
            return -1
        return c

    def claim_planned(self, ctx):
        if (self.epsilon and not ctx.last_turn and not self.hurrying(ctx)
                and self.rng.random() < self.epsilon / 2):
            return None   # waits a turn (and draws), as real players do to keep a hand
        return super().claim_planned(ctx)


def success_chance(slack_turns, slack_trains, turn_scale=3.0, train_scale=2.0):
    """Chance of completing a plan with this many spare turns and spare trains (logistic)."""
    def sig(x):
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))
    return sig(slack_turns / turn_scale) * sig((slack_trains + 1) / train_scale)


class ExpertAgent(HandClock, HardAgent):
    level = "expert"
    budget = budget_for(DEFAULT_SECONDS)
    think_seconds = None     # when set, the budget is budget_for(think_seconds)
    max_samples = 160
    min_samples = 3
    max_candidates = 9
    endgame_candidates = 12
    epsilon = 0.08           # the rollouts' noise
    block_floor = 2.5        # a block is compared when it costs the opponents this many points
    block_candidates = 2
    turn_scale = 3.0         # spare turns per factor e of the odds of completing a plan
    train_scale = 2.0
    draw_chance = 0.8        # drawing tickets is compared while a new ticket's chance is this
    draw_ticket_trains = 6   # … and a new ticket's typical need in trains still fits
    halving = 0              # 1: spend the search budget by successive halving (measured, not
                             # adopted: docs/computer-players.md)

    def __init__(self, seed=0, **params):
        super().__init__(seed, **params)
        if self.think_seconds is not None:
            self.budget = budget_for(self.think_seconds)
        self.sim_self = NoisyRollout(seed, long_bonus=self.long_bonus,
                                     ticket_trains=self.ticket_trains, epsilon=self.epsilon,
                                     hand_clock=self.hand_clock, hurry_turns=self.hurry_turns)
        self.sim_other = NoisyRollout(seed ^ 0x5EED, epsilon=self.epsilon)

    # ----- tickets: the risk of failing --------------------------------------------------------
    def chance(self, v, info, plan, trains):
        need = plan_turns(info, plan, v.hand, v.owner)
        return success_chance(self.turns_left(v) - need, trains - plan.trains,
                              self.turn_scale, self.train_scale)

    def keep_score(self, v, info, cost, tickets, combo, budget):
        trains = v.trains[v.seat]
        plan = best_plan(info, cost, tickets, trains, v.owner, self.plan_orders)
        p = self.chance(v, info, plan, trains)
        value = sum(info.max_points[t] for t in plan.done)
        for tid, _stake, _routes in plan.tickets:
            value += p * info.max_points[tid] - (1 - p) * info.tickets[tid][2]
        value -= self.fail_weight * sum(info.tickets[t][2] for t in plan.failed)
        return value - 0.05 * plan.trains

    def room_for_tickets(self, ctx):
        """Would a new ticket likely be completed? (trains and turns left after the plan)"""
        v = ctx.v
        if not v.ticket_deck_size or ctx.last_turn:
            return False
        spare = ctx.trains - ctx.plan.trains
        if spare < self.draw_ticket_trains + 2:
            return False
        need = plan_turns(ctx.info, ctx.plan, v.hand, v.owner) + self.draw_ticket_trains / 2 + 2
        p = success_chance(self.turns_left(v) - need, spare - self.draw_ticket_trains,
                           self.turn_scale, self.train_scale)
        return p >= self.draw_chance

    # ----- candidates ----------------------------------------------------------------------------
    def candidates(self, ctx):
        out = super().candidates(ctx)
        extra = []
        if not ctx.last_turn:
            extra += self.block_moves(ctx, self.block_floor, self.block_candidates)
            if self.room_for_tickets(ctx):
                extra.append(DrawTickets(ctx.seat))
        for a in extra:
            if a not in out:
                out.append(a)
        return out

    def block_moves(self, ctx, threshold, k):
        """Up to k affordable claims of the routes the opponents need most."""
        info = ctx.info
        ranked = []
        for r, loss in self.threat(ctx).items():
            if loss < threshold or not ctx.claimable(r):
                continue
            pay = self.pay(ctx, r, ctx.demand)
            if pay is not None:
                ranked.append((loss + 0.3 * info.points[r] - 1.5 * pay[LOCO], r, pay))
        ranked.sort(key=lambda x: (-x[0], x[1]))
        return [ClaimRoute(ctx.seat, r, pay) for _, r, pay in ranked[:k]]

    # ----- search: the budget spent by successive halving ----------------------------------------
    def search(self, v, actions):
        """hard's paired samples, but spent by successive halving (Karnin, Koren and Somekh,
        2013): the budget is cut into equal rounds, every candidate still in plays the same
        worlds within a round, and at a round's end the worse half (by mean result) is dropped,
        never the planner's choice (candidate 0), until two are left. hard drops one candidate
        per world from its third world on, so a move that is close to the best is often gone
        on three or four noisy games; here every candidate has a round's worth of worlds, and
        the last two share the most."""
        if not self.halving:
            return super().search(v, actions)   # the default: hard's allocation
        self.searches += 1
        rng = random.Random(self.rng.getrandbits(64))
        results = [[] for _ in actions]
        alive = list(range(len(actions)))
        budget = self.budget * max(2, v.n) // 2
        rounds = max(1, math.ceil(math.log2(len(actions))))
        steps = samples = 0
        for k in range(1, rounds + 1):
            cap = max(k, self.max_samples * k // rounds)
            while samples < cap and (steps < budget * k // rounds or samples < self.min_samples):
                steps += self.sample_world(v, actions, alive, results, rng)
                samples += 1
            if k < rounds and samples and len(alive) > 2:
                # the same worlds for everyone still in: the sums compare like the means
                rest = sorted(alive[1:], key=lambda i: (-sum(results[i]), i))
                alive = [0] + sorted(rest[:max(2, (len(alive) + 1) // 2) - 1])
        return results

    # ----- why: for /ttr hint -------------------------------------------------------------------
    def explain(self, v):
        """(the action this agent takes in view `v`, why): why is a dict with "ticket" (the
        ticket id the move serves, or None), "feared" (the planned free route the opponents
        are likeliest to take first, or None) and "block" (the move takes a route the
        opponents need, outside our plan)."""
        action = self.act(v)
        why = {"ticket": None, "feared": None, "block": False}
        if isinstance(action, KeepTickets):
            info = board_info(v.board)
            kept = sorted(action.tickets, key=lambda t: (-info.max_points[t], t))
            why["ticket"] = kept[0] if kept else None
            return action, why
        if v.step not in ("idle", "second_card"):
            return action, why
        ctx = Context(self, v)
        threat = self.threat(ctx)
        feared = [(threat.get(r, 0.0), -r) for r in ctx.to_claim if threat.get(r, 0.0) > 0]
        if feared:
            why["feared"] = -max(feared)[1]
        why["ticket"] = self._served(ctx, action)
        if isinstance(action, ClaimRoute) and action.route not in ctx.plan.routes:
            why["block"] = threat.get(action.route, 0.0) > 0
        return action, why

    def _served(self, ctx, action):
        info = ctx.info
        tickets = sorted(ctx.plan.tickets, key=lambda x: (-x[1], x[0]))
        if isinstance(action, ClaimRoute):
            for tid, _stake, routes in tickets:
                if action.route in routes:
                    return tid
            return None
        if isinstance(action, DrawCard):
            for tid, _stake, routes in tickets:
                for r in routes:
                    if ctx.v.owner[r] >= 0:
                        continue
                    color = info.routes[r].color
                    if action.card < 0 or color == action.card or color == GRAY:
                        return tid
            return None
        if isinstance(action, DrawTickets):
            return None
        return tickets[0][0] if tickets else None
