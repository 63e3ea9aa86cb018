"""What a server's game life needs of the store, on both drivers: the results' new per-seat facts
(guild, name, tickets failed, longest-path bonus, turns by the human and in all, handover,
rated), ratings per scope updated in the finishing transaction (exactly once, nothing lost when
two games with a player in common finish at once, nothing written if the rating fails), and the
queries: a user's results in a server, the leaderboard (order, minimum, paging, one map), a
server's finished games newest first (paging, one user's, final post, rated) and the log that
recomputes the ratings. The figures of the rating function itself are ratings.py's (tests/
test_ratings.py): here it is a simple counting function, so that a lost update shows."""
import asyncio
import json
import threading
import time

import pytest

from tests.store.dbkit import make_test_db
from ttr_bot.store import (
    GLOBAL_SCOPE,
    RatingUpdate,
    RatingValue,
    SeatResult,
    StoreError,
    WrongStatus,
)

pytestmark = pytest.mark.asyncio
GUILD, OTHER_GUILD = 1, 2


def counting(points):
    """A rating function: mu is the sum of the points of every rated game, sigma the reciprocal
    of the games so far; `calls` records what it was given."""
    calls = []

    def rate(before):
        calls.append({u: (r.mu, r.games) for u, r in before.items()})
        out = {}
        for u, p in points.items():
            mu = (before[u].mu if u in before else 0.0) + p
            games = (before[u].games if u in before else 0) + 1
            out[u] = RatingValue(mu, 1.0 / games, mu - 1.0 / games)
        return out
    rate.calls = calls
    return rate


def update(points, guild=GUILD, rate=None):
    return RatingUpdate(scopes=(guild, GLOBAL_SCOPE), users=tuple(points),
                        rate=rate or counting(points))


def result(seat, user, score, rank, *, former=None, handover=None, rated=True, **kw):
    return SeatResult(seat=seat, user_id=user, score=score, rank=rank, won=rank == 1,
                      tickets_completed=2, former_user_id=former, name=f"N{seat}",
                      tickets_failed=1, longest_bonus=rank == 1, turns_human=30,
                      turns_total=30, handover=handover, rated=rated, **kw)


async def finished(store, users, *, guild=GUILD, map="usa", now=100.0, points=None,
                   channel=None, leaver=None):
    """A game of `users` (seat order = finishing order) finished at `now`; rated with
    `points` (user -> points) unless None. `leaver`: the seat that left to a computer."""
    channel = channel if channel is not None else int(now * 1000)
    game_id = await store.create_game(guild_id=guild, channel_id=channel, map=map,
                                      variant="base", options={}, seed=1, host_id=users[0],
                                      now=now)
    for seat, u in enumerate(users):
        await store.add_seat(game_id, seat, user_id=u, display_name=f"P{u}")
    await store.start_game(game_id, "{}", now=now)
    results = []
    for seat, u in enumerate(users):
        if seat == leaver:
            await store.hand_seat_to_bot(game_id, seat, bot_level=2, display_name="bot",
                                         reason="left", human_turns=4)
            results.append(result(seat, None, 50 - seat, seat + 1, former=u, handover="left"))
        else:
            results.append(result(seat, u, 100 - seat, seat + 1, rated=points is not None))
    await store.record_results(game_id, results, now=now,
                               ratings=update(points, guild) if points else None)
    return game_id


# ----- results ------------------------------------------------------------------------------------
async def test_results_keep_every_seat_fact_and_copy_the_guild(store, make_game):
    game_id = await make_game(seats=3)
    await store.hand_seat_to_bot(game_id, 2, bot_level=2, display_name="P2 (bot)",
                                 reason="replaced", human_turns=7)
    seat = (await store.list_seats(game_id))[2]
    assert (seat.former_user_id, seat.handover, seat.human_turns) == (12, "replaced", 7)
    results = [result(0, 10, 120, 1), result(1, 11, 90, 2),
               SeatResult(2, None, 80, 3, False, 1, 12, "P2 (bot)", 3, None, 7, 40, "replaced",
                          False)]
    await store.record_results(game_id, results, now=500.0)
    got = await store.load_results(game_id)
    assert [(r.guild_id, r.map, r.finished_at) for r in got] == [(1, "usa", 500.0)] * 3
    assert [(r.name, r.tickets_failed, r.longest_bonus, r.turns_human, r.turns_total,
             r.handover, r.rated) for r in got] == [
        ("N0", 1, True, 30, 30, None, True), ("N1", 1, False, 30, 30, None, True),
        ("P2 (bot)", 3, None, 7, 40, "replaced", False)]


async def test_results_in_a_guild_are_the_users_and_the_ones_they_left(store):
    a = await finished(store, [1, 2], now=10.0)
    b = await finished(store, [3, 1, 4], now=20.0, leaver=1)      # user 1 left seat 1
    await finished(store, [1, 2], now=30.0, guild=OTHER_GUILD)    # another server
    await finished(store, [2, 3], now=40.0)                       # without user 1
    mine = await store.results_in_guild(GUILD, 1)
    assert [(r.game_id, r.user_id, r.former_user_id) for r in mine] == [(b, None, 1), (a, 1, None)]
    assert await store.results_in_guild(GUILD, 99) == []
    assert len(await store.results_for_user(1, include_left=True)) == 3   # every server


# ----- rating a finishing game ----------------------------------------------------------------
async def test_a_rated_game_updates_both_scopes_once(store):
    rate = counting({1: 3.0, 2: -1.0})
    game_id = await finished(store, [1, 2], now=10.0)
    assert await store.get_ratings(GUILD, [1, 2]) == {}            # an unrated game: nothing
    game_id = await store.create_game(guild_id=GUILD, channel_id=77, map="usa", variant="base",
                                      options={}, seed=1, host_id=1, now=20.0)
    for seat in (0, 1):
        await store.add_seat(game_id, seat, user_id=seat + 1, display_name="x")
    await store.start_game(game_id, "{}")
    await store.append_action(game_id, 0, 0, json.dumps({"type": "pass"}), "{}", now=20.0,
                              results=[result(0, 1, 90, 1), result(1, 2, 80, 2)],
                              ratings=update({1: 3.0, 2: -1.0}, rate=rate))
    assert rate.calls == [{}, {}]                                  # one call per scope, no rating yet
    for scope in (GUILD, GLOBAL_SCOPE):
        got = await store.get_ratings(scope, [1, 2, 3])
        assert {u: (r.mu, r.sigma, r.value, r.games, r.updated_at) for u, r in got.items()} == {
            1: (3.0, 1.0, 2.0, 1, 20.0), 2: (-1.0, 1.0, -2.0, 1, 20.0)}
        changes = await store.rating_changes(game_id, scope)
        assert [(c.user_id, c.mu_before, c.mu_after) for c in changes] == [(1, None, 3.0),
                                                                           (2, None, -1.0)]
    # the game cannot finish (nor be rated) twice
    with pytest.raises(WrongStatus):
        await store.record_results(game_id, [result(0, 1, 90, 1)], ratings=update({1: 5.0}))
    assert (await store.get_ratings(GUILD, [1]))[1].games == 1
    # a second game: the function sees the stored ratings
    rate2 = counting({2: 2.0, 3: 1.0})
    second = await finished(store, [2, 3], now=30.0, points={2: 2.0, 3: 1.0})
    assert (await store.get_ratings(GUILD, [2]))[2].mu == 1.0
    changes = await store.rating_changes(second, GUILD)
    assert [(c.user_id, c.mu_before, c.sigma_before, c.mu_after) for c in changes] == [
        (2, -1.0, 1.0, 1.0), (3, None, None, 1.0)]
    assert rate2.calls == []
    log = await store.rating_log(GUILD)
    assert [g for g, _ in log] == [game_id, second]
    assert [[r.user_id for r in rs] for _, rs in log] == [[1, 2], [2, 3]]


async def test_ratings_are_per_server_and_global(store):
    await finished(store, [1, 2], now=10.0, points={1: 1.0, 2: 0.0})
    await finished(store, [1, 2], now=20.0, guild=OTHER_GUILD, points={1: 5.0, 2: 0.0})
    assert (await store.get_ratings(GUILD, [1]))[1].mu == 1.0
    assert (await store.get_ratings(OTHER_GUILD, [1]))[1].mu == 5.0
    both = (await store.get_ratings(GLOBAL_SCOPE, [1]))[1]
    assert (both.mu, both.games) == (6.0, 2)
    assert [g for g, _ in await store.rating_log(OTHER_GUILD)] == \
        [g for g, _ in await store.rating_log(GLOBAL_SCOPE)][1:]


async def test_a_failing_or_wrong_rating_finishes_nothing(store, make_game):
    for bad in (lambda before: 1 / 0,                                   # raises
                lambda before: {10: RatingValue(1.0, 1.0, 0.0)},         # forgets user 11
                lambda before: {10: RatingValue(1.0, 0.0, 0.0),          # sigma 0
                                11: RatingValue(1.0, 1.0, 0.0)},
                lambda before: {10: (1.0, 1.0, 0.0), 11: (1.0, 1.0, 0.0)}):   # not RatingValues
        game_id = await make_game(seats=2)
        with pytest.raises((ZeroDivisionError, StoreError)):
            await store.record_results(game_id, [result(0, 10, 1, 1), result(1, 11, 0, 2)],
                                       ratings=RatingUpdate((GUILD, GLOBAL_SCOPE), (10, 11), bad))
        assert (await store.get_game(game_id)).status == "active"
        assert await store.load_results(game_id) == []
    assert await store.get_ratings(GUILD, [10, 11]) == {}
    assert await store.rating_log(GLOBAL_SCOPE) == []


def _finish_in_thread(url, game_id, users, points, inside=None, hold=0.0):
    """Finish a game on a store of its own, in a thread with its own event loop, so that a
    rating function that holds its transaction open (`hold` seconds, `inside` set while it
    holds) blocks only this thread."""
    def rate(before):
        if inside is not None:
            inside.set()
            time.sleep(hold)
        out = {}
        for u, p in points.items():
            mu = (before[u].mu if u in before else 0.0) + p
            games = (before[u].games if u in before else 0) + 1
            out[u] = RatingValue(mu, 1.0 / games, mu)
        return out

    async def run():
        from ttr_bot.store import open_store
        store = open_store(url)
        await store.open()
        try:
            await store.record_results(
                game_id, [result(i, u, 10 - i, i + 1) for i, u in enumerate(users)],
                ratings=RatingUpdate((GUILD, GLOBAL_SCOPE), tuple(points), rate))
        finally:
            await store.close()
    asyncio.run(run())


async def test_two_games_with_a_player_in_common_finishing_at_once_lose_no_update(db, store):
    """Game A's rating holds its transaction open while game B, which shares player 1, finishes
    on another connection: B waits for A and rates from A's result, so player 1 has both
    games (a lost update would leave one), on both drivers."""
    games = []
    for users in ([1, 2], [1, 3]):
        game_id = await store.create_game(guild_id=GUILD, channel_id=len(games) + 500,
                                          map="usa", variant="base", options={}, seed=1,
                                          host_id=1)
        for seat, u in enumerate(users):
            await store.add_seat(game_id, seat, user_id=u, display_name=f"P{u}")
        await store.start_game(game_id, "{}")
        games.append(game_id)
    inside = threading.Event()
    a = threading.Thread(target=_finish_in_thread,
                         args=(db.url, games[0], [1, 2], {1: 1.0, 2: 0.0}, inside, 0.6))
    a.start()
    assert inside.wait(10)
    b = threading.Thread(target=_finish_in_thread, args=(db.url, games[1], [1, 3],
                                                         {1: 10.0, 3: 0.0}))
    b.start()
    a.join(20)
    b.join(20)
    for scope in (GUILD, GLOBAL_SCOPE):
        got = await store.get_ratings(scope, [1, 2, 3])
        assert (got[1].mu, got[1].games) == (11.0, 2)
        assert got[2].games == got[3].games == 1
    assert [g for g, _ in await store.rating_log(GUILD)] == games     # in the order rated


# ----- the leaderboard ----------------------------------------------------------------------------
async def test_leaderboard_order_minimum_and_paging(store):
    now = 0.0
    # five players; user u plays 6 - u two-player games against user 9 (a pool player)
    for u in range(1, 6):
        for _ in range(6 - u):
            now += 1
            await finished(store, [u, 9], now=now, points={u: float(u), 9: 0.0})
    total, rows = await store.leaderboard(GUILD, min_games=3, limit=10)
    # rated games: 1->5, 2->4, 3->3, 4->2, 5->1, 9->15; mu = u * games; value = mu - 1/games
    assert total == 4
    assert [(r.user_id, r.games) for r in rows] == [(3, 3), (2, 4), (1, 5), (9, 15)]
    assert [r.value for r in rows] == [9 - 1 / 3, 8 - 1 / 4, 5 - 1 / 5, -1 / 15]
    total, page2 = await store.leaderboard(GUILD, min_games=1, limit=2, offset=2)
    assert total == 6 and [r.user_id for r in page2] == [4, 1]     # after 3 and 2
    assert (await store.leaderboard(GUILD, min_games=1, limit=2, offset=6)) == (6, [])
    assert await store.leaderboard(OTHER_GUILD, min_games=1) == (0, [])
    assert [r.user_id for r in (await store.leaderboard(GLOBAL_SCOPE, min_games=3))[1]] == \
        [3, 2, 1, 9]


async def test_a_maps_leaderboard_counts_rated_seats_on_it_left_ones_too(store):
    await finished(store, [1, 2], now=1.0, points={1: 1.0, 2: 0.0}, map="europe")
    await finished(store, [1, 3, 2], now=2.0, points={1: 1.0, 3: 0.0, 2: -1.0}, map="europe",
                   leaver=2)                                        # user 2 left
    await finished(store, [3, 2], now=3.0, points={3: 1.0, 2: 0.0}, map="usa")
    await finished(store, [4, 5], now=4.0, map="europe")             # not rated
    await finished(store, [1, 3], now=5.0, guild=OTHER_GUILD, points={1: 0.0, 3: 9.0},
                   map="europe")
    total, rows = await store.leaderboard(GUILD, min_games=1, map="europe")
    assert total == 3
    assert [(r.user_id, r.map_games, r.games) for r in rows] == [(1, 2, 2), (3, 1, 2), (2, 2, 3)]
    total, rows = await store.leaderboard(GUILD, min_games=1, map="usa")
    assert [(r.user_id, r.map_games) for r in rows] == [(3, 1), (2, 1)]
    assert await store.leaderboard(GUILD, min_games=1, map="nordic") == (0, [])
    _, rows = await store.leaderboard(GLOBAL_SCOPE, min_games=1, map="europe")
    assert {r.user_id: r.map_games for r in rows} == {1: 3, 3: 2, 2: 2}


# ----- the history --------------------------------------------------------------------------------
async def test_finished_games_newest_first_with_final_post_and_rated(store):
    a = await finished(store, [1, 2], now=10.0, points={1: 1.0, 2: 0.0})
    b = await finished(store, [2, 3, 1], now=30.0, leaver=2)         # user 1 left
    c = await finished(store, [3, 4], now=20.0)
    await finished(store, [1, 2], now=40.0, guild=OTHER_GUILD)
    lobby = await store.create_game(guild_id=GUILD, channel_id=9, map="usa", variant="base",
                                    options={}, seed=1, host_id=1)
    await store.set_message(a, "final", 111, 222, now=1.0)
    await store.set_message(a, "panel", 111, 333, now=1.0)
    total, games = await store.finished_games(GUILD)
    assert total == 3 and [g.game.id for g in games] == [b, c, a]
    assert lobby not in [g.game.id for g in games]
    first = games[2]
    assert (first.final_post.channel_id, first.final_post.message_id) == (111, 222)
    assert first.rated and not games[0].rated and games[0].final_post is None
    assert [(r.seat, r.user_id, r.former_user_id, r.name) for r in games[0].results] == [
        (0, 2, None, "N0"), (1, 3, None, "N1"), (2, None, 1, "N2")]
    total, mine = await store.finished_games(GUILD, user_id=1, limit=1, offset=1)
    assert total == 2 and [g.game.id for g in mine] == [a]
    assert await store.finished_games(GUILD, user_id=99) == (0, [])
    assert (await store.finished_games(GUILD, limit=2, offset=2))[1][0].game.id == a


# ----- indexes --------------------------------------------------------------------------------------
@pytest.mark.sqlite_only("reads SQLite's query plans")
async def test_the_questions_use_their_indexes(db, store):
    await finished(store, [1, 2], now=1.0, points={1: 1.0, 2: 0.0})
    conn = db.conn()
    conn.execute("BEGIN")        # one transaction: the connection commits every statement
    conn.executemany("INSERT INTO ratings VALUES (?, ?, 25, 8, ?, 5, 0)",
                     [(scope, u, u % 97) for scope in range(1, 40) for u in range(100, 400)])
    game_id = conn.execute("SELECT MAX(id) FROM games").fetchone()[0]
    conn.executemany(   # a busy server's results: 40 servers, 500 players, a few who left
        "INSERT INTO results (game_id, seat, user_id, score, rank, won, tickets_completed, map, "
        "variant, finished_at, former_user_id, guild_id, rated) "
        "VALUES (?, ?, ?, 1, 1, 0, 0, ?, '', ?, ?, ?, ?)",
        [(game_id, seat, None if seat % 50 == 0 else seat % 500, ("usa", "europe")[seat % 2],
          seat, seat % 500 if seat % 50 == 0 else None, seat % 40, seat % 3 == 0)
         for seat in range(2, 20000)])
    conn.execute("COMMIT")
    conn.execute("ANALYZE")

    def plan(sql, *params):
        return " ".join(r[-1] for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))

    assert "ratings_board" in plan("SELECT user_id FROM ratings WHERE scope = ? AND games >= ? "
                                   "ORDER BY value DESC, user_id LIMIT 10", 1, 5)
    assert "results_by_guild_user" in plan("SELECT * FROM results WHERE guild_id = ? AND "
                                           "user_id = ?", 1, 1)
    assert "results_by_guild_former" in plan("SELECT * FROM results WHERE guild_id = ? AND "
                                             "former_user_id = ?", 1, 1)
    assert "games_finished_by_guild" in plan(
        "SELECT id FROM games WHERE guild_id = ? AND status = 'finished' "
        "ORDER BY finished_at DESC, id DESC LIMIT 10", 1)
    assert "results_rated_by_map" in plan(
        "SELECT COALESCE(user_id, former_user_id), COUNT(*) FROM results WHERE guild_id = ? "
        "AND map = ? AND rated = 1 GROUP BY 1", 1, "usa")


# ----- the migration ----------------------------------------------------------------------------------
async def test_upgrade_keeps_old_results_unrated_with_guild_and_names(request, tmp_path, driver):
    """A finished game from before (version 2): its results get the game's guild and the
    seats' names (a lobby's seats may have gaps), the new facts stay unknown, nobody is rated."""
    from tests.store.test_store_migrations import first_migrations
    db = make_test_db(request, driver, tmp_path, migrated=False)
    async with db.open_store(migrations_dir=first_migrations(tmp_path, 2)) as s:
        assert s.schema_version == 2
    db.execute("INSERT INTO games (id, guild_id, channel_id, map, seed, status, host_id, "
               "created_at, updated_at, finished_at) VALUES (7, 5, 1, 'usa', 1, 'finished', 10, "
               "0, 0, 9)")
    for seat, user, name in ((0, 10, "Ann"), (2, 11, "Bob")):      # seat 1 left in the lobby
        db.execute("INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (7, ?, ?, ?)",
                   seat, user, name)
    for seat, user in ((0, 10), (1, 11)):
        db.execute("INSERT INTO results (game_id, seat, user_id, score, rank, won, "
                   "tickets_completed, map, variant, finished_at) "
                   "VALUES (7, ?, ?, 50, ?, ?, 1, 'usa', '', 9)", seat, user, seat + 1, seat == 0)
    async with db.open_store() as s:
        got = await s.load_results(7)
        assert [(r.guild_id, r.name, r.tickets_failed, r.rated) for r in got] == [
            (5, "Ann", None, None), (5, "Bob", None, None)]
        assert [r.game_id for r in await s.results_in_guild(5, 11)] == [7]
        assert await s.leaderboard(5, min_games=1) == (0, [])
        assert (await s.finished_games(5))[0] == 1
