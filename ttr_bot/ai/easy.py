"""`easy`: sensible but simple. It keeps only the fewest, cheapest tickets, never draws more,
hoards cards and claims its routes longest first once it holds a good hand, and never blocks."""
from ..engine.actions import ClaimRoute
from ..engine.cards import N_COLORS
from .boardinfo import board_info
from .medium import MediumAgent
from .planner import best_plan, keep_choices, route_costs


class EasyAgent(MediumAgent):
    level = "easy"
    take_faceup_loco = False
    race_early = False   # hoards instead: races a map's track only with nothing planned
    hoard = 9            # claim a short route only with this many cards in hand
    long_bonus = 0.0     # plans the shortest connections, whatever they score

    def choose_tickets(self, v):
        info = board_info(v.board)
        keep_min = v.keep_min()
        cost = route_costs(info, v, model=self.costs_for(v.board))
        trains = v.trains[v.seat]
        best = None
        for combo in keep_choices(v.offer, keep_min):
            if len(combo) > max(1, keep_min):
                break
            plan = best_plan(info, cost, list(v.tickets) + list(combo), trains, v.owner)
            key = (len(plan.failed), plan.trains)
            if best is None or key < best[0]:
                best = (key, combo)
        return tuple(best[1])

    def want_tickets(self, ctx):
        return False

    def claim_planned(self, ctx):
        info = ctx.info
        best = None
        for r in ctx.to_claim:
            if not ctx.claimable(r):
                continue
            if info.length[r] < 4 and sum(ctx.hand) < self.hoard and ctx.trains > 8:
                continue
            pay = self.pay(ctx, r)
            if pay is None or self.claim(ctx, r, pay) is None:
                continue
            if best is None or info.length[r] > best[0]:
                best = (info.length[r], r, pay)
        if best is None:
            return None
        return ClaimRoute(ctx.seat, best[1], best[2])

    def pick_card(self, ctx, second):
        """Face-up only when it is the colour the hand already holds most of; else blind."""
        v = ctx.v
        hand = ctx.hand
        top = max(range(N_COLORS), key=lambda c: (hand[c], -c))
        if top in v.faceup and self.wanted_colors(ctx)[top] > 0:
            return top
        if v.deck_size > 0 or v.discard:
            return -1
        return super().pick_card(ctx, second)
