"""`expert`: the same game for a seed and a work budget, a time budget that maps to a work
budget, ticket risk, blocks among its candidates, the hint's explanation (the very move it then
plays) — and `hard` untouched by it (its games byte for byte as before `expert` came)."""
import hashlib
import json
import math

import pytest

from testkit.agent_games import play_game, player_names
from tests.ai.aikit import LIGHT, LIGHT_EXPERT, LIGHT_HARD, positions
from ttr_bot.ai import decide, hint, make_agent
from ttr_bot.ai.expert import DEFAULT_SECONDS, ExpertAgent, budget_for, success_chance
from ttr_bot.ai.medium import Context
from ttr_bot.engine.actions import ClaimRoute, KeepTickets
from ttr_bot.engine.view import view
from ttr_bot.maps import load_board

# hash of the actions of two light `hard` games, as main played them before `expert` existed
HARD_GAMES = {"usa": ("hard", "medium"), "europe": ("hard", "medium", "easy")}


def _actions_hash(map_id, levels, options):
    res = play_game(load_board(map_id), list(levels), player_names(levels), 3, 1, options)
    return hashlib.sha256(json.dumps(res["record"]["actions"], sort_keys=True).encode()).hexdigest()


def test_hard_plays_as_before():
    got = {m: _actions_hash(m, lv, {"hard": dict(LIGHT_HARD, budget=400, max_samples=3)})
           for m, lv in HARD_GAMES.items()}
    assert got == {
        "usa": "4f162bb4346e280116cecca1c585992889b19811ec57e0291e0af1ce783d5ea5",
        "europe": "a6a8d3fd70bf9c0f8b0369980b130ff53288c4781145d83135052ebd93cf50a2",
    }


def test_same_seed_and_budget_same_game():
    opts = {"expert": LIGHT_EXPERT}
    a = _actions_hash("switzerland", ("expert", "medium"), opts)
    assert a == _actions_hash("switzerland", ("expert", "medium"), opts)


def test_time_budget_is_a_work_budget():
    assert make_agent("expert", 1).budget == budget_for(DEFAULT_SECONDS)
    a = make_agent("expert", 1, think_seconds=0.02)
    assert a.budget == budget_for(0.02) > 0
    game, seat = next((g, s) for g, s in positions("usa", 2, 3) if g.phase == "play"
                      and g.step == "idle")
    v = view(game, seat)
    first = make_agent("expert", 5, think_seconds=0.02).act(v)
    assert all(make_agent("expert", 5, think_seconds=0.02).act(v) == first for _ in range(2))


def test_success_chance_falls_with_less_time_and_fewer_trains():
    assert success_chance(10, 10) > 0.9
    assert success_chance(10, 10) > success_chance(0, 10) > success_chance(-6, 10)
    assert success_chance(10, 10) > success_chance(10, -1) > success_chance(10, -5)
    assert success_chance(-9, -5) < 0.01


def test_risky_tickets_weigh_less_than_safe_ones():
    """The same kept tickets score lower as the turns left run out (trains fixed)."""
    agent = ExpertAgent(1, **LIGHT_EXPERT)
    board = load_board("usa")
    game, seat = next((g, s) for g, s in positions("usa", 2, 4) if g.phase == "play"
                      and g.step == "idle" and g.turn > 6)
    v = view(game, seat)
    from ttr_bot.ai.boardinfo import board_info
    from ttr_bot.ai.planner import route_costs
    info = board_info(board)
    cost = route_costs(info, v, model=agent.costs)
    far = max((t.id for t in board.tickets if not t.long and t.id not in v.tickets),
              key=lambda t: info.max_points[t])
    soon = view(game, seat)
    soon.trains = list(v.trains)
    other = 1 - seat
    soon.trains[other] = board.rules.end_trains + 1       # the opponent is about to end it
    tickets = list(v.tickets) + [far]
    assert (agent.keep_score(soon, info, cost, tickets, (far,), 0)
            < agent.keep_score(v, info, cost, tickets, (far,), 0))


def test_blocks_are_candidates_when_they_hurt():
    """Over one game's positions, some candidate list holds a claim outside the plan that an
    opponent needs (a block the search may choose)."""
    agent = ExpertAgent(2, **LIGHT_EXPERT)
    seen = 0
    for game, seat in positions("usa", 2, 6, every=3):
        if game.phase != "play" or game.step != "idle":
            continue
        v = view(game, seat)
        ctx = Context(agent, v)
        threat = agent.threat(ctx)
        for a in agent.candidates(ctx):
            if isinstance(a, ClaimRoute) and a.route not in ctx.plan.routes and threat.get(a.route, 0) >= agent.block_floor:
                seen += 1
    assert seen > 0


@pytest.mark.parametrize("map_id,n,seed", [("usa", 2, 3), ("europe", 3, 4)])
def test_hint_is_the_move_expert_plays(map_id, n, seed):
    """The hint's move is the expert's move in the same position with the same seed; it names
    one of the player's own tickets and, if any, a free route of the plan."""
    factory = lambda level, seed: make_agent(level, seed, **LIGHT.get(level, {}))
    checked = 0
    for game, s in positions(map_id, n, seed, every=7):
        v = view(game, s)
        action, why = hint(seed + checked, v, factory)
        assert action == decide("expert", seed + checked, view(game, s), factory)
        assert game.check(action) is None
        if why["ticket"] is not None:
            mine = set(v.tickets) | set(action.tickets if isinstance(action, KeepTickets) else ())
            assert why["ticket"] in mine
        if why["feared"] is not None:
            assert v.owner[why["feared"]] < 0
        checked += 1
    assert checked >= 5


def test_the_store_numbers_the_old_levels_as_before():
    """seats.bot_level holds these numbers: existing rows keep their level."""
    from ttr_bot.service.levels import BOT_LEVELS, LEVEL_NAMES
    assert BOT_LEVELS == {"easy": 1, "medium": 2, "hard": 3, "expert": 4}
    assert LEVEL_NAMES[4] == "expert"


def test_search_halves_the_field_and_keeps_the_planners_choice():
    """Successive halving: every candidate plays at least a round of worlds, the worse half
    goes at each round's end (never candidate 0, the planner's choice), the last two play the
    most worlds, and the whole stays within the work budget (plus the world under way). hard's
    allocation, on the same position, judges some candidates on three worlds."""
    agent = ExpertAgent(3, budget=6000, halving=1)
    for game, seat in positions("usa", 2, 5, every=4):
        if game.phase == "play" and game.step == "idle":
            v = view(game, seat)
            cands = agent.candidates(Context(agent, v))
            if len(cands) >= 8:
                break
    steps = []
    world = agent.sample_world

    def counted(*args):
        steps.append(world(*args))
        return steps[-1]

    agent.sample_world = counted
    counts = [len(r) for r in agent.search(v, cands)]
    most = max(counts)
    assert counts[0] == most and counts.count(most) == 2
    rounds = math.ceil(math.log2(len(cands)))
    assert min(counts) >= most // 2 ** rounds
    assert sum(steps[:-1]) < agent.budget <= sum(steps)
    hard = ExpertAgent(3, budget=6000)
    assert min(len(r) for r in hard.search(v, cands)) <= hard.drop_after < min(counts)


def test_a_full_hand_brings_the_end_nearer():
    """An opponent holding enough cards to place its trains can end the game in a few turns:
    with `hand_clock`, expert cashes in its cards then (medium's clock counts trains only), and
    with a small hand the two clocks agree."""
    from ttr_bot.ai.medium import MediumAgent, turns_left, turns_to_end
    game, seat = next((g, s) for g, s in positions("switzerland", 2, 4) if g.phase == "play"
                      and g.step == "idle" and g.turn > 10)
    v = view(game, seat)
    other = 1 - seat
    v.trains = list(v.trains)
    v.hand_sizes = list(v.hand_sizes)
    v.trains[seat], v.trains[other] = 8, 18
    v.hand_sizes[other] = 28
    assert turns_to_end(v) <= 7 < 14 <= turns_left(v)
    quick = ExpertAgent(1, hand_clock=1)
    plain, medium = ExpertAgent(1), MediumAgent(1)
    v.trains[other] = 8      # six trains to place, and cards for all of them: three turns
    assert quick.hurrying(Context(quick, v))
    assert not plain.hurrying(Context(plain, v)) and not medium.hurrying(Context(medium, v))
    v.hand_sizes[other] = 2
    assert not quick.hurrying(Context(quick, v))
    assert abs(turns_to_end(v) - turns_left(v)) < 1.5
