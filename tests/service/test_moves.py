"""Actions through the service: validated by the engine, written with the new state in one
transaction, refused (with nothing written) when illegal, stale, out of turn or not a player's;
a finished game's results; what Effects reveal; export."""
import json
import random

import pytest

from tests.service.svckit import (
    make_service,
    pick_action,
    play_one,
    play_to_end,
    raw_counts,
    started,
    state_of,
    users_for,
    walk_keys,
)
from ttr_bot.engine.actions import (
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    type_name,
)
from ttr_bot.engine.errors import Illegal
from ttr_bot.game_record import action_to_json, replay
from ttr_bot.service import Lane, ServiceError

pytestmark = pytest.mark.asyncio
SEATS = [str(i) for i in range(5)]


async def refused(key, coro):
    with pytest.raises(ServiceError) as caught:
        await coro
    assert caught.value.key == key, (caught.value.key, caught.value.illegal)
    return caught.value


async def keep_all(svc, game_id, users):
    """Finish the setup: every seat keeps its whole offer."""
    eff = None
    for seat, user in enumerate(users):
        loaded = await svc.load(game_id)
        eff = await svc.moves.act(game_id, user, KeepTickets(seat, tuple(loaded.game.offers[seat])),
                                  loaded.seq)
    return eff


async def test_an_action_is_logged_with_its_state_and_survives_a_restart(svc, store, db_path):
    game_id, users = await started(svc, 10)
    loaded = await svc.load(game_id)
    before = loaded.game.copy()
    action = KeepTickets(0, tuple(loaded.game.offers[0][:2]))
    eff = await svc.moves.act(game_id, users[0], action, 0)
    assert (eff.game_id, eff.seq, eff.actor) == (game_id, 1, 0)
    assert [m.lane for m in await svc.queue.owed_messages() if m.kind == "turn"] == [Lane.channel(10)]
    n, seq, status, (snap_seq, snap_text) = raw_counts(db_path, game_id)
    assert (n, seq, status, snap_seq) == (1, 1, "active", 1)
    expected = before.copy()
    expected.apply(action)
    assert json.loads(snap_text) == state_of(expected) == state_of((await svc.load(game_id)).game)
    log = await store.load_actions(game_id)
    assert [(r.seq, r.actor, r.action) for r in log] == [
        (1, 0, action_to_json(before, action, SEATS[:2]))]

    # a fresh service (a restarted bot) sees exactly that state, from the snapshot and the log
    fresh = make_service(store)
    again = await fresh.load(game_id)
    assert again.seq == 1
    assert state_of(again.game) == state_of(expected) == state_of(await fresh.moves.rebuild(game_id))


async def test_expected_seq_may_be_omitted(svc, store):
    game_id, users = await started(svc, 11)
    loaded = await svc.load(game_id)
    eff = await svc.moves.act(game_id, users[1], KeepTickets(1, tuple(loaded.game.offers[1])))
    assert eff.seq == 1 and len(await store.load_actions(game_id)) == 1


async def test_the_seat_is_the_callers_whatever_the_action_says(svc, store):
    game_id, users = await started(svc, 12)
    loaded = await svc.load(game_id)
    offer1 = tuple(loaded.game.offers[1])
    # user 1 submits an action naming seat 0, with seat 1's tickets: it is applied as seat 1
    eff = await svc.moves.act(game_id, users[1], KeepTickets(0, offer1), 0)
    assert eff.actor == 1
    game = (await svc.load(game_id)).game
    assert game.offers[1] is None and game.offers[0] is not None
    assert sorted(game.tickets[1]) == sorted(offer1)
    assert (await store.load_actions(game_id))[0].actor == 1


async def test_illegal_actions_are_refused_with_the_engines_reason_and_write_nothing(
        svc, store, db_path):
    game_id, users = await started(svc, 20, players=3)
    loaded = await svc.load(game_id)
    offer0 = tuple(loaded.game.offers[0])
    not_offered = next(t for t in range(len(loaded.game.board.tickets))
                       if all(t not in (o or ()) for o in loaded.game.offers))
    setup_cases = [
        (KeepTickets(0, ()), "keep_at_least"),
        (KeepTickets(0, (not_offered,)), "not_offered"),
        (KeepTickets(0, (offer0[0], offer0[0])), "not_offered"),
        (KeepTickets(0, (10 ** 6,)), "not_offered"),         # not even a ticket
        (DrawCard(0), "setup_pending"),
        (ClaimRoute(0, 10 ** 6, (0,) * 9), "setup_pending"),
    ]
    await check_refusals(svc, game_id, users, db_path, setup_cases, expect_seq=0)

    await keep_all(svc, game_id, users)
    game = (await svc.load(game_id)).game
    assert game.phase == "play" and game.current == 0
    seq = (await svc.load(game_id)).seq
    not_faceup = next(c for c in range(9) if c not in game.faceup)
    play_cases = [
        (DrawCard(0, not_faceup), "card_not_faceup"),
        (DrawCard(0, 99), "card_not_faceup"),
        (ClaimRoute(0, 10 ** 6, (0,) * 9), "unknown_route"),
        (ClaimRoute(0, 0, (0,) * 9), None),                 # no cards: some payment error
        (ClaimRoute(0, 0, (99,) * 9), "cards_not_in_hand"),
        (KeepTickets(0, offer0), "no_ticket_offer"),
        (Pass(0), "cannot_pass"),
    ]
    await check_refusals(svc, game_id, users, db_path, play_cases, expect_seq=seq)
    # the game goes on normally afterwards
    eff = await svc.moves.act(game_id, users[0], DrawTickets(0), seq)
    assert eff.seq == seq + 1


async def check_refusals(svc, game_id, users, db_path, cases, expect_seq):
    before_db = raw_counts(db_path, game_id)
    before_state = state_of((await svc.load(game_id)).game)
    assert before_db[1] == expect_seq
    for action, key in cases:
        err = await refused("service.illegal", svc.moves.act(game_id, users[0], action, expect_seq))
        assert isinstance(err.illegal, Illegal)
        if key is not None:
            assert err.illegal.key == key, (action, err.illegal)
        assert raw_counts(db_path, game_id) == before_db, action
        assert state_of((await svc.load(game_id)).game) == before_state, action
    # and nothing is left behind in a fresh service either
    fresh = make_service(svc.core.store)
    assert state_of((await fresh.load(game_id)).game) == before_state


async def test_not_your_turn(svc, db_path):
    game_id, users = await started(svc, 30, players=3)
    await keep_all(svc, game_id, users)
    loaded = await svc.load(game_id)
    assert loaded.game.current == 0
    before = raw_counts(db_path, game_id)
    for seat in (1, 2):
        for action in (DrawCard(seat), DrawTickets(seat)):
            err = await refused("service.illegal",
                                svc.moves.act(game_id, users[seat], action, loaded.seq))
            assert err.illegal.key == "not_your_turn"
    assert raw_counts(db_path, game_id) == before


async def test_the_movers_hand_message_is_edited_once_a_turn_not_at_each_step(svc):
    """A first card owes the drawing player no hand edit (their answer shows it, with the next
    step); the second, which ends the turn, owes one: one DM edit per turn, not two."""
    game_id, users = await started(svc, 31)
    await keep_all(svc, game_id, users)

    async def hand_rows(user):
        return [r for r in await svc.queue.owed_messages() if r.kind == "hand"
                and r.message.user == user]
    loaded = await svc.load(game_id)
    seat = loaded.game.current
    before = len(await hand_rows(users[seat]))
    eff = await svc.moves.act(game_id, users[seat], DrawCard(seat), loaded.seq)
    assert seat in eff.to_move                      # the turn goes on: the second card
    assert len(await hand_rows(users[seat])) == before
    eff = await svc.moves.act(game_id, users[seat], DrawCard(seat), eff.seq)
    assert seat not in eff.to_move
    owed = await hand_rows(users[seat])
    assert len(owed) == before + 1 and owed[-1].message.why is None


async def test_someone_not_playing_is_refused(svc, db_path):
    game_id, users = await started(svc, 40)
    before = raw_counts(db_path, game_id)
    loaded = await svc.load(game_id)
    for outsider in (999, users_for(41, 1)[0]):
        await refused("service.not_a_player",
                      svc.moves.act(game_id, outsider, KeepTickets(0, tuple(loaded.game.offers[0])), 0))
    await refused("service.no_game", svc.moves.act(10 ** 9, users[0], DrawCard(0), 0))
    assert raw_counts(db_path, game_id) == before


async def test_stale_or_repeated_submissions_are_not_applied_twice(svc, store, db_path):
    game_id, users = await started(svc, 50)
    loaded = await svc.load(game_id)
    keep = KeepTickets(0, tuple(loaded.game.offers[0]))
    eff = await svc.moves.act(game_id, users[0], keep, 0)
    assert eff.seq == 1
    after_one = raw_counts(db_path, game_id)
    await refused("service.stale", svc.moves.act(game_id, users[0], keep, 0))      # double click
    keep1 = KeepTickets(1, tuple((await svc.load(game_id)).game.offers[1]))
    await refused("service.stale", svc.moves.act(game_id, users[1], keep1, 0))     # stale button
    await refused("service.stale", svc.moves.act(game_id, users[1], keep1, 7))     # from the future
    assert raw_counts(db_path, game_id) == after_one
    # without a seq the engine still refuses a repeat
    err = await refused("service.illegal", svc.moves.act(game_id, users[0], keep))
    assert err.illegal.key == "already_chosen"
    assert raw_counts(db_path, game_id) == after_one
    assert len(await store.load_actions(game_id)) == 1
    assert (await svc.moves.act(game_id, users[1], keep1, 1)).seq == 2


async def test_a_finished_game_records_results_and_takes_no_more_actions(svc, store, db_path):
    game_id, users = await started(svc, 60, players=3)
    effects = await play_to_end(svc, game_id, random.Random(60))
    last = effects[-1]
    assert last.over and last.to_move == []
    assert all(not e.over for e in effects[:-1])
    assert any(ev["type"] == "game_over" for ev in last.public)
    players, winners = (await svc.load(game_id)).game.scores()
    assert winners
    n, seq, status, (snap_seq, _) = raw_counts(db_path, game_id)
    assert (n, seq, status, snap_seq) == (len(effects), len(effects), "finished", seq)
    game_row = await store.get_game(game_id)
    assert game_row.finished_at is not None

    results = await store.load_results(game_id)
    assert [r.seat for r in results] == [0, 1, 2]
    assert [r.user_id for r in results] == users
    assert [r.score for r in results] == [p["total"] for p in players]
    assert [r.tickets_completed for r in results] == [p["tickets_completed"] for p in players]
    assert {r.seat for r in results if r.won} == set(winners)
    assert all(r.rank == 1 for r in results if r.won)
    losers = sorted((r for r in results if not r.won), key=lambda r: r.rank)
    assert all(r.rank > 1 for r in losers)
    assert [r.score for r in losers] == sorted((r.score for r in losers), reverse=True)
    assert all(r.score >= max(x.score for x in losers) for r in results if r.won)
    assert all((r.map, r.variant) == ("usa", "base") for r in results)
    for u in users:
        assert [r.game_id for r in await store.results_for_user(u)] == [game_id]

    # nothing more is taken, by anyone, and nothing is written
    before = raw_counts(db_path, game_id)
    loaded = await svc.load(game_id)
    assert loaded.status == "finished" and loaded.game.over
    for seat, user in enumerate(users):
        await refused("service.not_active", svc.moves.act(game_id, user, DrawCard(seat), seq))
        await refused("service.not_active", svc.moves.act(game_id, user, Pass(seat)))
    fresh = make_service(store)
    await refused("service.not_active", fresh.moves.act(game_id, users[0], DrawCard(0), seq))
    assert raw_counts(db_path, game_id) == before
    assert await svc.moves.play_bot(game_id) is None
    # and the final position can still be viewed and equals its replay
    seat, view = await fresh.moves.player_view(game_id, users[2])
    assert seat == 2 and view.phase == "over"
    assert state_of((await fresh.load(game_id)).game) == state_of(await fresh.moves.rebuild(game_id))


PRIVATE_KEYS = {"private", "tickets", "offer", "returned", "hand", "hands"}


@pytest.mark.parametrize("map_id, players, seed", [
    ("usa", 2, 1), ("europe", 4, 2), ("switzerland", 3, 3), ("nordic", 3, 4), ("europe", 5, 5)])
async def test_effects_reveal_nothing_private_in_public(svc, map_id, players, seed):
    game_id, users = await started(svc, 70 + seed, players=players, map_id=map_id)
    rng = random.Random(seed)
    seen = set()
    while True:
        loaded = await svc.load(game_id)
        game = loaded.game
        action = pick_action(game, rng)
        shadow = game.copy()
        events = shadow.apply(action)      # what the engine says, hidden parts included
        eff = await svc.moves.act(game_id, users[action.seat], action, loaded.seq)
        seen.add(type_name(action))
        assert eff.actor == action.seat
        assert not PRIVATE_KEYS & set(walk_keys(eff.public)), eff.public
        assert eff.public == [{k: v for k, v in e.items() if k != "private"} for e in events]
        hidden = [{"type": e["type"], **e["private"]} for e in events if "private" in e]
        assert eff.private == ({action.seat: hidden} if hidden else {})
        assert set(eff.private) <= {action.seat}
        for e in eff.public:
            if e["type"] == "draw_card" and e["from"] == "deck":
                assert "card" not in e
                card = eff.private[action.seat][0]["card"]
                assert shadow.hands[action.seat][card] == game.hands[action.seat][card] + 1
            if e["type"] in ("draw_tickets", "keep_tickets"):
                assert eff.private[action.seat]
                # the player's hand message is owed (their offer, their kept tickets)
                assert any(m.kind == "hand" and m.message.seat == action.seat
                           and m.seq == eff.seq for m in await svc.queue.owed_messages(10 ** 6))
        assert eff.to_move == shadow.to_move()
        assert state_of(shadow) == state_of((await svc.load(game_id)).game)
        if eff.over:
            break
    assert {"keep_tickets", "draw_card", "claim_route", "draw_tickets"} <= seen


async def test_player_view_shows_only_ones_own_hand(svc):
    game_id, users = await started(svc, 80, players=3)
    await refused("service.not_a_player", svc.moves.player_view(game_id, 424242))
    game = (await svc.load(game_id)).game
    for s, u in enumerate(users):
        seat, view = await svc.moves.player_view(game_id, u)
        assert seat == s
        assert view.hand == game.hands[s] and view.offer == game.offers[s]
        assert view.hand_sizes == [sum(h) for h in game.hands]
        assert not hasattr(view, "hands")


async def test_export_replays_to_the_same_scores(svc, store, db_path):
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=90, user_id=900, name="Sam",
                                        map_id="europe")
    await svc.lobby.join(90, 901, "Sam")          # the same display name twice
    await svc.lobby.join(90, 902, "Kim")
    await svc.lobby.start(90, 900)
    game_id = loaded.id
    rng = random.Random(90)
    for _ in range(40):
        await play_one(svc, game_id, rng)
    for finished in (False, True):
        if finished:
            await play_to_end(svc, game_id, rng)
        game = (await svc.load(game_id)).game
        doc = await svc.moves.export(game_id)
        assert doc["players"] == ["Sam", "Sam (2)", "Kim"]
        assert len(doc["actions"]) == raw_counts(db_path, game_id)[1]
        replayed, names, error = replay(json.loads(json.dumps(doc)))
        assert error is None
        assert replayed.scores() == game.scores()
        assert replayed.over == game.over == finished
        assert (replayed.hands, replayed.owner, replayed.tickets) == (
            game.hands, game.owner, game.tickets)
        # a restarted bot exports the very same document
        assert await make_service(store).moves.export(game_id) == doc


async def test_bot_moves_go_through_the_same_path(svc, store, db_path):
    class FirstLegal:
        def __init__(self, seed):
            self.rng = random.Random(seed)

        def act(self, view):
            return self.rng.choice(view.legal_actions())

    made = []

    def agents(level, seed):
        made.append(level)
        return FirstLegal(seed)

    svc.core.agents = agents
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=95, user_id=950, name="Ann",
                                        map_id="usa")
    await svc.lobby.add_bot(95, 950, "hard")
    await svc.lobby.start(95, 950)
    game_id = loaded.id
    assert [t.payload for t in await store.list_timers(game_id, "bot_move")] == [{"seq": 0}]
    assert await svc.moves.play_bot(game_id, expected_seq=5) is None   # stale timer: ignored
    eff = await svc.moves.play_bot(game_id, expected_seq=0)
    assert eff.actor == 1 and eff.seq == 1 and made == ["hard"]
    assert raw_counts(db_path, game_id)[:2] == (1, 1)
    assert (await store.load_actions(game_id))[0].actor == 1
    assert await svc.moves.play_bot(game_id, expected_seq=0) is None   # already done
    assert await svc.moves.play_bot(game_id) is None                   # the human is to move now
    # the human and the bot play the game out
    rng = random.Random(95)
    while True:
        loaded = await svc.load(game_id)
        if loaded.game.over:
            break
        if 1 in loaded.game.to_move():
            eff = await svc.moves.play_bot(game_id, loaded.seq)
            assert eff is not None and eff.actor == 1
        else:
            action = pick_action(loaded.game, rng, seat=0)
            await svc.moves.act(game_id, 950, action, loaded.seq)
    assert state_of((await svc.load(game_id)).game) == state_of(await svc.moves.rebuild(game_id))
    results = await store.load_results(game_id)
    assert [(r.seat, r.user_id) for r in results] == [(0, 950), (1, None)]


async def test_station_and_tunnel_actions_round_trip_through_the_log(svc, store):
    """Europe games use stations and tunnels: every logged action replays to the snapshot."""
    game_id, users = await started(svc, 96, players=4, map_id="europe")
    rng = random.Random(96)
    kinds = set()
    for _ in range(400):
        eff, action, _ = await play_one(svc, game_id, rng)
        kinds.add(type_name(action))
        if eff.over:
            break
    assert {"build_station", "claim_route"} <= kinds
    fresh = make_service(store)
    assert state_of((await fresh.load(game_id)).game) == state_of(await fresh.moves.rebuild(game_id))


TWINS = [(0, 1), (2, 3), (4, 5), (6, 7)]   # Switzerland's identical country tickets


async def test_identical_tickets_replay_to_the_same_state(svc, store):
    """Keeping the second of two identical tickets: the log cannot tell which one was kept,
    so the service must keep the one a replay of the log will keep."""
    board_twins = None
    for ch in range(300, 400):
        game_id, users = await started(svc, ch, players=3, map_id="switzerland")
        game = (await svc.load(game_id)).game
        board_twins = [(s, a, b) for s in range(3) for a, b in TWINS
                       if a in game.offers[s] and b in game.offers[s]]
        if board_twins:
            break
        await svc.lobby.cancel(ch, users[0])
    assert board_twins, "no deal with both copies of a country ticket in one offer"
    seat, a, b = board_twins[0]
    offer = game.offers[seat]
    second = b if offer.index(b) > offer.index(a) else a
    others = [t for t in offer if t not in (a, b)]
    keep = KeepTickets(seat, tuple(others[:1]) + (second,))
    eff = await svc.moves.act(game_id, users[seat], keep, 0)
    kept = {x["type"]: x for x in eff.private[seat]}["keep_tickets"]["tickets"]
    assert sorted(kept) == sorted(set(keep.tickets) - {second} | {a if second == b else b})
    fresh = make_service(store)
    assert state_of((await fresh.load(game_id)).game) == state_of(await fresh.moves.rebuild(game_id))


@pytest.mark.parametrize("seed", range(4))
async def test_switzerland_games_replay_to_their_snapshots(svc, store, seed):
    game_id, users = await started(svc, 500 + seed, players=2 + seed % 2, map_id="switzerland")
    await play_to_end(svc, game_id, random.Random(seed))
    fresh = make_service(store)
    assert state_of((await fresh.load(game_id)).game) == state_of(await fresh.moves.rebuild(game_id))
