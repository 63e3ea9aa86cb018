"""Votes (votes.py, /ttr vote), on a ManualClock: a vote to replace an absent player or to
cancel the game passes, fails or expires; only a player whose time ran out can be voted
out, one who comes back keeps the seat; players who left no longer vote."""
import random

import pytest

from tests.service.svckit import (
    end_turn,
    game_in_play,
    open_store,
    owed,
    run_timers,
    timed_service,
)
from ttr_bot.service import ServiceError
from ttr_bot.service.turns import DAY, HOUR

pytestmark = pytest.mark.asyncio


async def test_votes_pass_fail_and_expire(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, users = await game_in_play(svc, 15, players=3, options={"deadline": 0})
    a, b, c = users
    rng = random.Random(4)
    while (await svc.load(game_id)).game.current != 2:
        await end_turn(svc, game_id, rng)
    clock.advance(3 * DAY)                  # c has had the move for three days: absent
    with pytest.raises(ServiceError) as err:
        await svc.votes.start_vote(game_id, a, "replace", a)
    assert err.value.key == "service.vote_self"
    vote = await svc.votes.start_vote(game_id, a, "replace", c)      # voters: a and b; 2 needed
    assert vote.status == "open" and vote.voters == [a, b]
    with pytest.raises(ServiceError) as err:
        await svc.votes.start_vote(game_id, b, "cancel")
    assert err.value.key == "service.vote_open"
    with pytest.raises(ServiceError) as err:
        await svc.votes.cast_vote(vote.id, c, True)                  # not theirs to vote on
    assert err.value.key == "service.vote_not_voter"
    assert (await svc.votes.cast_vote(vote.id, b, False)).status == "failed"
    assert not (await svc.load(game_id)).seats[2].is_bot
    vote = await svc.votes.start_vote(game_id, b, "replace", c)
    assert (await svc.votes.cast_vote(vote.id, a, True)).status == "passed"
    hosted = await svc.load(game_id)
    assert hosted.seats[2].is_bot and hosted.seats[2].handover == "vote"
    vote = await svc.votes.start_vote(game_id, a, "cancel")          # voters a, b: 2 needed
    clock.advance(24 * HOUR + 1)
    await run_timers(svc)
    assert (await svc.votes.vote(vote.id)).status == "expired"
    assert (await svc.load(game_id)).is_active
    vote = await svc.votes.start_vote(game_id, a, "cancel")
    assert (await svc.votes.cast_vote(vote.id, b, True)).status == "passed"
    hosted = await svc.load(game_id)
    assert hosted.status == "cancelled" and hosted.end_reason == "vote"
    results = [r.payload["status"] for r in await owed(store, "vote_result")]
    assert results == ["failed", "passed", "expired", "passed"]
    await svc.close()


async def test_a_replace_vote_needs_an_absent_target_and_two_voters(db_path, clock):
    """Two humans: the proposer's own ballot was a majority, so a present host could be voted
    out by the other alone. Now a single voter is refused, and so is a present target."""
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, (host, other) = await game_in_play(svc, 50, options={"deadline": 24})
    with pytest.raises(ServiceError) as err:
        await svc.votes.start_vote(game_id, other, "replace", host)
    assert err.value.key in ("service.vote_not_absent", "service.vote_too_few")
    hosted = await svc.load(game_id)
    assert hosted.host_id == host and not hosted.seats[0].is_bot
    await svc.close()


async def test_only_a_player_whose_time_ran_out_can_be_voted_out(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    rng = random.Random(2)
    game_id, users = await game_in_play(svc, 51, players=3, options={"deadline": 12})
    host = users[0]
    while (await svc.load(game_id)).game.current != 0:
        await end_turn(svc, game_id, rng)
    clock.advance(11 * HOUR)                    # the host is slow, not absent
    with pytest.raises(ServiceError) as err:
        await svc.votes.start_vote(game_id, users[1], "replace", host)
    assert err.value.key == "service.vote_not_absent"
    clock.advance(1 * HOUR + 1)                 # their time ran out: a computer played it
    await run_timers(svc)
    assert (await svc.load(game_id)).seats[0].timeouts == 1
    vote = await svc.votes.start_vote(game_id, users[1], "replace", host)
    assert vote.status == "open"                # one yes of two voters: no majority yet
    done = await svc.votes.cast_vote(vote.id, users[2], True)
    assert done.status == "passed"
    hosted = await svc.load(game_id)
    assert hosted.seats[0].is_bot and hosted.host_id in users[1:]   # the absent host's powers
    await svc.close()


async def test_a_target_who_comes_back_keeps_the_seat_and_the_host(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    rng = random.Random(6)
    game_id, users = await game_in_play(svc, 52, players=3, options={"deadline": 12})
    while (await svc.load(game_id)).game.current != 0:
        await end_turn(svc, game_id, rng)
    clock.advance(12 * HOUR + 1)
    await run_timers(svc)
    vote = await svc.votes.start_vote(game_id, users[1], "replace", users[0])
    while (await svc.load(game_id)).game.current != 0:      # the host is back and plays
        await end_turn(svc, game_id, rng)
    await end_turn(svc, game_id, rng)
    done = await svc.votes.cast_vote(vote.id, users[2], True)
    assert done.status == "void"
    hosted = await svc.load(game_id)
    assert not hosted.seats[0].is_bot and hosted.host_id == users[0]
    await svc.close()


async def test_players_who_left_no_longer_count_as_voters(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    rng = random.Random(8)
    game_id, users = await game_in_play(svc, 53, players=4, options={"deadline": 12})
    while (await svc.load(game_id)).game.current != 3:
        await end_turn(svc, game_id, rng)
    clock.advance(12 * HOUR + 1)
    await run_timers(svc)
    vote = await svc.votes.start_vote(game_id, users[0], "replace", users[3])   # voters 0, 1, 2
    await svc.handover.leave_game(game_id, users[2])
    with pytest.raises(ServiceError) as err:
        await svc.votes.cast_vote(vote.id, users[2], True)
    assert err.value.key == "service.vote_not_voter"
    await svc.handover.leave_game(game_id, users[1])                 # one voter left: never a majority
    clock.advance(24 * HOUR + 1)
    await run_timers(svc)
    assert (await svc.votes.vote(vote.id)).status == "void"
    assert not (await svc.load(game_id)).seats[3].is_bot
    await svc.close()
