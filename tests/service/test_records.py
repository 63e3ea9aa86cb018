"""A server's game life through the service: a finished game is rated in its
server and globally with the values ratings.py gives (hand-computed in tests/test_ratings.py);
unrated games count nowhere; a player who left is rated last and a stand-in's seat not at all;
the leaderboard's order and pages; a player's statistics (none yet, one map, an unknown map);
the history (newest first, pages, final post); the film's input replays the game; a rematch
opens the same table; the stored ratings are what the results recompute to."""
import random

import pytest

from tests.service.svckit import play_one, play_to_end, started, users_for
from tests.test_ratings import FIRST3, SECOND3, THIRD3
from ttr_bot.ratings import MIN_GAMES, Rating
from ttr_bot.service import REMATCH_OF, ServiceError
from ttr_bot.service.finish import rating_update
from ttr_bot.store import GLOBAL_SCOPE, SeatResult

pytestmark = pytest.mark.asyncio
GUILD = 1          # svckit's lobbies are in guild 1
TOL = 1e-5


def close(rating, mu, sigma):
    return abs(rating.mu - mu) < TOL and abs(rating.sigma - sigma) < TOL


async def finish_game(svc, channel, players=2, seed=1, map_id="usa"):
    game_id, users = await started(svc, channel, players, map_id)
    effects = await play_to_end(svc, game_id, random.Random(seed))
    return game_id, users, effects[-1]


async def advance(svc, game_id, rng):
    """One move: a computer player's if one is to move, else a random human's."""
    hosted = await svc.load(game_id)
    if any(hosted.seats[s].is_bot for s in hosted.game.to_move()):
        return await svc.moves.play_bot(game_id)
    return (await play_one(svc, game_id, rng))[0]


async def to_the_end(svc, game_id, rng):
    last = None
    while last is None or not last.over:
        last = await advance(svc, game_id, rng)
    return last


async def recorded(store, users, ranks, *, guild=GUILD, map_id="usa", now=1.0, left=()):
    """A finished game written through the store with the service's own rating update: for
    the tests that need many rated games without playing each one."""
    game_id = await store.create_game(guild_id=guild, channel_id=10_000 + int(now * 10),
                                      map=map_id, variant="base", options={}, seed=1,
                                      host_id=users[0], now=now)
    for seat, u in enumerate(users):
        await store.add_seat(game_id, seat, user_id=u, display_name=f"U{u}")
    await store.start_game(game_id, "{}", now=now)
    results = [SeatResult(seat=s, user_id=None if s in left else u, score=100 - ranks[s],
                          rank=ranks[s], won=ranks[s] == 1, tickets_completed=1,
                          former_user_id=u if s in left else None, name=f"U{u}",
                          turns_human=20, turns_total=20, handover="left" if s in left else None,
                          rated=True)
               for s, u in enumerate(users)]
    await store.record_results(game_id, results, now=now, ratings=rating_update(guild, results))
    return game_id


# ----- rating finished games ----------------------------------------------------------------------
async def test_a_finished_game_is_rated_in_its_server_and_globally(svc, store):
    game_id, users, last = await finish_game(svc, 1)
    assert last.over
    results = {r.user_id: r for r in await store.load_results(game_id)}
    winner = next(u for u, r in results.items() if r.rank == 1)
    loser = next(u for u in users if u != winner)
    assert results[winner].rank == 1 and results[loser].rank == 2
    # two new players (tests/test_ratings.py: test_two_new_players)
    for scope in (GUILD, GLOBAL_SCOPE):
        stored = await svc.records.stored_ratings(scope, users)
        assert close(stored[winner][0], 27.635389, 8.065901) and stored[winner][1] == 1
        assert close(stored[loser][0], 22.364611, 8.065901)
    # what the final post shows
    rating = await svc.records.game_rating(game_id)
    assert rating.rated and rating.reason is None
    assert rating.rated and [d.user_id for d in rating.changes] == [winner, loser]
    assert rating.changes[0].before is None and close(rating.changes[0].after, 27.635389, 8.065901)
    # the seats' facts the statistics need
    for r in results.values():
        assert r.turns_human == r.turns_total > 0 and r.rated is True and r.handover is None
        assert r.tickets_failed is not None and r.longest_bonus is not None
        assert r.guild_id == GUILD and r.name == f"P{r.user_id}"


async def test_a_game_with_one_human_is_not_rated(svc, store):
    game_id = (await svc.lobby.open_lobby(guild_id=GUILD, channel_id=5, user_id=50, name="Ann",
                                          map_id="usa")).id
    await svc.lobby.add_bot(5, 50, "easy")
    await svc.lobby.start(5, 50)
    last = await to_the_end(svc, game_id, random.Random(3))
    rating = await svc.records.game_rating(game_id)
    assert last.over and not rating.rated and not rating.changes
    assert rating.reason == "bot.ratings.unrated.one_human"
    assert await svc.records.stored_ratings(GUILD, [50]) == {}
    assert [r.rated for r in await store.load_results(game_id)] == [False, False]
    assert (await svc.records.leaderboard(GUILD)).total == 0
    assert not (await svc.records.game_rating(game_id)).rated
    stats = await svc.records.stats(GUILD, 50, name="Ann")
    assert stats.games == 1 and stats.rating is None and stats.rating_state == "none"


async def test_a_player_who_left_is_rated_last_and_a_stand_in_not_at_all(svc, store):
    # three humans; the one in seat 1 leaves at once: rated as last, whatever the computer scores
    game_id, users = await started(svc, 2, players=3)
    await svc.handover.leave_game(game_id, users[1])
    rng = random.Random(4)
    await to_the_end(svc, game_id, rng)
    results = await store.load_results(game_id)
    left = results[1]
    assert (left.user_id, left.former_user_id, left.handover, left.rated) == \
        (None, users[1], "left", True)
    assert left.turns_human == 0 < left.turns_total
    stored = await svc.records.stored_ratings(GUILD, users)
    first, second = sorted((results[0], results[2]), key=lambda r: r.rank)
    if first.rank == second.rank:       # a tie: the mean of both orders
        pytest.skip("the two who stayed tied")
    # tests/test_ratings.py's three new players in a strict order
    assert close(stored[first.user_id][0], 25 + FIRST3[0], FIRST3[1])
    assert close(stored[second.user_id][0], 25 + SECOND3[0], SECOND3[1])
    assert close(stored[users[1]][0], 25 + THIRD3[0], THIRD3[1])

    # a stand-in: the host replaces seat 2 early; the game is rated between the other two
    game_id, users = await started(svc, 3, players=3)
    for _ in range(3):
        await play_one(svc, game_id, rng)
    await svc.handover.replace_player(game_id, users[0], users[2], "easy")
    await to_the_end(svc, game_id, rng)
    results = await store.load_results(game_id)
    assert results[2].handover == "replaced" and results[2].rated is False
    assert results[2].turns_total - results[2].turns_human > results[2].turns_total / 4
    assert set(await svc.records.stored_ratings(GUILD, users)) == {users[0], users[1]}


# ----- the leaderboard --------------------------------------------------------------------------------
async def test_leaderboard_order_minimum_and_paging(svc, store):
    # twelve players; player k beats the players after him in a round of two-player games
    players = list(range(100, 112))
    now = 0.0
    for rnd in range(MIN_GAMES):
        for i in range(0, len(players), 2):
            a, b = players[(i + rnd) % 12], players[(i + rnd + 1) % 12]
            now += 1
            ranks = (1, 2) if a < b else (2, 1)
            await recorded(store, [a, b], ranks, now=now)
    # one more who played too few rated games
    await recorded(store, [200, 100], (1, 2), now=now + 1)
    stored = await svc.records.stored_ratings(GUILD, players + [200])
    on_board = sorted((u for u in players if stored[u][1] >= MIN_GAMES),
                      key=lambda u: (-stored[u][0].conservative, u))
    assert 200 not in on_board and len(on_board) >= 11
    page1 = await svc.records.leaderboard(GUILD, 1, per_page=5)
    page3 = await svc.records.leaderboard(GUILD, 3, per_page=5)
    assert page1.total == len(on_board) and page1.pages == 3 == page3.page
    assert [e.user_id for e in page1.entries] == on_board[:5]
    assert [e.place for e in page1.entries] == [1, 2, 3, 4, 5]
    assert [e.user_id for e in page3.entries] == on_board[10:]
    values = [e.value for e in page1.entries + page3.entries]
    assert values == sorted(values, reverse=True)
    assert all(e.value == pytest.approx(e.rating.conservative) for e in page1.entries)
    # a page past the end is the last one; another server's board is empty
    assert (await svc.records.leaderboard(GUILD, 99, per_page=5)).page == 3
    empty = await svc.records.leaderboard(2)
    assert (empty.total, empty.pages, empty.entries) == (0, 1, ())
    # one map: nobody played Europe here; an unknown map is refused
    assert (await svc.records.leaderboard(GUILD, map_id="europe")).total == 0
    assert (await svc.records.leaderboard(GUILD, map_id="usa")).total == len(on_board)
    with pytest.raises(ServiceError) as err:
        await svc.records.leaderboard(GUILD, map_id="atlantis")
    assert err.value.key == "service.unknown_map"


# ----- statistics -------------------------------------------------------------------------------------
async def test_stats_of_a_player_with_no_games_one_map_and_bad_input(svc, store):
    empty = await svc.records.stats(GUILD, 999, name="Nobody")
    assert empty.empty and empty.rating is None and empty.where == "server"
    game_id, users, _ = await finish_game(svc, 6)
    s = await svc.records.stats(GUILD, users[0], name="P")
    assert s.games == 1 and s.rated_games == 1 and s.rating_state == "provisional"
    assert s.tickets_failed is not None and s.favourite_map == "usa"
    assert (await svc.records.stats(GUILD, users[0], name="P", map_id="europe")).empty   # no such games
    assert (await svc.records.stats(2, users[0], name="P")).empty                        # other server
    everywhere = await svc.records.stats(2, users[0], name="P", everywhere=True)
    assert everywhere.games == 1 and everywhere.where == "global"
    with pytest.raises(ServiceError) as err:
        await svc.records.stats(GUILD, users[0], name="P", map_id="atlantis")
    assert err.value.key == "service.unknown_map"


# ----- history, film, rematch ---------------------------------------------------------------------------
async def test_history_newest_first_with_pages_and_the_final_post(svc, store):
    ids = []
    for channel in (11, 12, 13):
        game_id, users, _ = await finish_game(svc, channel, seed=channel)
        ids.append(game_id)
    await svc.adapter_state.remember_final_post(ids[1], 12, 4242)
    page = await svc.records.history(GUILD, 1, per_page=2)
    assert (page.total, page.pages) == (3, 2)
    assert [e.game_id for e in page.entries] == [ids[2], ids[1]]
    assert page.entries[1].final_post == (12, 4242) and page.entries[0].final_post is None
    entry = page.entries[0]
    assert entry.map_id == "usa" and entry.rated and entry.channel_id == 13
    assert [p.user_id for p in entry.players] == users_for(13, 2)
    assert sorted(p.rank for p in entry.players) in ([1, 2], [1, 1])
    assert [e.game_id for e in (await svc.records.history(GUILD, 2, per_page=2)).entries] == [ids[0]]
    mine = await svc.records.history(GUILD, user_id=users_for(12, 2)[1])
    assert [e.game_id for e in mine.entries] == [ids[1]]
    assert (await svc.records.history(GUILD, user_id=12345)).total == 0
    assert await svc.records.latest_finished_game(GUILD) == ids[2]
    assert await svc.records.latest_finished_game(2) is None


async def test_the_films_input_replays_the_game(svc, store):
    game_id, users, _ = await finish_game(svc, 21)
    film = await svc.records.replay_data(game_id, GUILD)
    game = film.game.copy()
    assert game.turn == 0 and all(o < 0 for o in game.owner)
    for action in film.actions:
        game.apply(action)
    end = (await svc.load(game_id)).game
    assert game.over and game.owner == end.owner and game.scores() == end.scores()
    assert film.names == ["P210", "P211"]
    with pytest.raises(ServiceError) as err:              # another server's game
        await svc.records.replay_data(game_id, 2)
    assert (err.value.key, err.value.params) == ("service.no_such_game", {"game": game_id})
    playing, _ = await started(svc, 22)
    with pytest.raises(ServiceError) as err:              # not finished
        await svc.records.replay_data(playing, GUILD)
    assert err.value.key == "service.not_finished"


async def test_a_rematch_opens_the_same_table(svc, store):
    host = 300
    old = await svc.lobby.open_lobby(guild_id=GUILD, channel_id=30, user_id=host, name="Ann",
                                     map_id="europe", options={"thread": True, "deadline": 24,
                                                         "away": "cover"})
    await svc.lobby.join(30, 301, "Bob")
    await svc.lobby.add_bot(30, host, "easy")
    await svc.lobby.join(30, 302, "Cid")
    await svc.lobby.start(30, host)
    rng = random.Random(5)
    await svc.handover.leave_game(old.id, 302)      # Cid leaves: still invited to the rematch
    await to_the_end(svc, old.id, rng)
    with pytest.raises(ServiceError) as err:
        await svc.lobby.rematch(old.id, 999, "Stranger")
    assert err.value.key == "service.rematch_not_player"
    again = await svc.lobby.rematch(old.id, 301, "Bob")
    lobby = again.lobby
    assert lobby.is_lobby and lobby.channel_id == 30 and lobby.host_id == 301
    assert (lobby.map_id, lobby.variant) == ("europe", "base")
    assert lobby.options == {"thread": True, "deadline": 24, "remind": 24, "away": "cover",
                             REMATCH_OF: old.id}           # the same settings
    assert [(s.user_id, s.level) for s in lobby.seats] == [(301, None), (None, "easy")]
    assert again.invited == (host, 302)
    with pytest.raises(ServiceError) as err:               # a second click
        await svc.lobby.rematch(old.id, host, "Ann")
    assert err.value.key == "service.rematch_open"
    with pytest.raises(ServiceError) as err:               # a game not finished
        await svc.lobby.rematch(lobby.id, 301, "Bob")
    assert err.value.key == "service.not_finished"


# ----- recomputing ------------------------------------------------------------------------------------
async def test_stored_ratings_are_what_the_results_recompute_to(svc, store):
    now = 0.0
    rng = random.Random(9)
    users = list(range(400, 406))
    for _ in range(15):
        now += 1
        table = rng.sample(users, rng.randint(2, 5))
        ranks = [rng.randint(1, 3) for _ in table]              # ties too
        left = {1} if rng.random() < 0.3 else set()
        await recorded(store, table, ranks, now=now, left=left,
                       guild=rng.choice((GUILD, 2)))
    await finish_game(svc, 40)          # and one played through the service
    for scope in (GUILD, 2, GLOBAL_SCOPE):
        again = await svc.records.recompute_ratings(scope)
        stored = await svc.records.stored_ratings(scope, list(again))
        assert again and stored == again
    glob = await svc.records.stored_ratings(GLOBAL_SCOPE, users)
    assert sum(g for _, g in glob.values()) > sum(
        g for _, g in (await svc.records.stored_ratings(GUILD, users)).values())
    assert all(isinstance(r, Rating) for r, _ in glob.values())
