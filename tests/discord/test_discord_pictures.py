"""The picture cache and the allowance, without Discord: one drawing per state (also when
asked twice at once), the picture of the state at the call, a bound on the cache's bytes, a
failed drawing not remembered; the allowance's state bounded to recent askers."""
import asyncio

import pytest
import pytest_asyncio

from tests.discord.adapter_kit import new_game
from ttr_bot.discord.posting.cooldown import PictureCooldown
from ttr_bot.discord.posting.pictures import Pictures, picture_key
from ttr_bot.render import render_board
from ttr_bot.workers import WorkerPool

NAMES = ["Ann", "Bo", "Cy"]


@pytest_asyncio.fixture
async def pool():
    p = WorkerPool(1, preload=("ttr_bot.render",))
    await p.start()
    yield p
    await p.close()


def play(game, moves):
    for _ in range(moves):
        seat = game.to_move()[0]
        game.apply(game.legal_actions(seat)[0])
    return game


@pytest.mark.asyncio
async def test_one_drawing_per_state_even_when_asked_twice_at_once(pool):
    pictures = Pictures(pool)
    game = play(new_game("usa"), 3)
    a, b = await asyncio.gather(pictures.render(game, NAMES), pictures.render(game, NAMES))
    assert a == b == render_board(game, NAMES)
    assert pictures.stats == {"drawn": 1, "reused": 1, "failed": 0}
    assert await pictures.render(game.copy(), NAMES) == a      # equal state: the same picture
    assert pictures.stats["drawn"] == 1
    private = await pictures.render(game, NAMES, viewer=0)
    other_language = await pictures.render(game, NAMES, locale="th")
    assert len({a, private, other_language}) == 3 and pictures.stats["drawn"] == 3
    play(game, 1)
    assert await pictures.render(game, NAMES) != a and pictures.stats["drawn"] == 4


@pytest.mark.asyncio
async def test_the_picture_shows_the_state_at_the_call(pool):
    pictures = Pictures(pool)
    game = play(new_game("europe"), 2)
    expected = render_board(game.copy(), NAMES)
    task = asyncio.ensure_future(pictures.render(game, NAMES))
    await asyncio.sleep(0)
    play(game, 3)                  # the game goes on meanwhile
    assert await task == expected


@pytest.mark.asyncio
async def test_the_cache_keeps_to_its_bytes(pool):
    pictures = Pictures(pool, max_bytes=450_000)      # room for two boards of ~190 KiB
    game = new_game("usa")
    first = await pictures.render(game, NAMES)
    for _ in range(3):
        play(game, 1)
        await pictures.render(game, NAMES)
    assert pictures.cached_bytes <= 450_000
    drawn = pictures.stats["drawn"]
    await pictures.render(new_game("usa"), NAMES)     # the first state: forgotten, drawn again
    assert pictures.stats["drawn"] == drawn + 1 and first


@pytest.mark.asyncio
async def test_a_failed_drawing_gives_none_and_is_tried_again(caplog):
    closed = WorkerPool(1)
    await closed.close()
    pictures = Pictures(closed)
    game = new_game("nordic", n=2)
    assert await pictures.render(game, NAMES[:2]) is None
    assert pictures.stats["failed"] == 1
    # a pool without a worker (crashed, hung, closed) is the pool's trouble, not a bug: the
    # post goes out without the picture, with a warning, not an error
    assert [r.levelname for r in caplog.records if "drawing" in r.getMessage()] == ["WARNING"]
    pictures.workers = WorkerPool(0)
    assert await pictures.render(game, NAMES[:2]) == render_board(game, NAMES[:2])


def test_the_key_covers_what_the_picture_shows():
    game = new_game("usa")
    key = picture_key(game, NAMES)
    assert key == picture_key(game.copy(), list(NAMES))
    assert len({key, picture_key(game, NAMES, viewer=1), picture_key(game, NAMES, locale="fa"),
                picture_key(game, NAMES, final=True), picture_key(game, ["Ann", "Bo", "Di"]),
                picture_key(play(game.copy(), 1), NAMES)}) == 6


def test_the_allowance_per_member_and_its_bounded_state():
    now = [1000.0]       # (discord.py reads a current time of 0 as "now")
    cooldown = PictureCooldown(rate=2, per=30.0, clock=lambda: now[0])
    assert cooldown.take(1) is None and cooldown.take(1) is None
    assert cooldown.take(1) == 30                     # whole seconds to wait
    now[0] = 1012.5
    assert cooldown.take(1) == 18 and cooldown.take(2) is None
    for user in range(1000, 2000):
        cooldown.take(user)
    now[0] = 1100.0                                    # a whole period later
    assert cooldown.take(7) is None
    # discord.py's mapping drops the buckets of members who have not asked for a period
    assert len(cooldown._buckets._cache) == 1


@pytest.mark.asyncio
async def test_the_phone_map_and_the_closeup_are_drawn_once_per_state_and_highlight(pool):
    from testkit.sample_games import random_game
    from ttr_bot.render import render_closeup, render_map
    pictures = Pictures(pool)
    game = random_game("usa", 3, seed=4, until=0.3)
    owned = [r for r, o in enumerate(game.owner) if o >= 0][:3]
    assert len(owned) == 3
    a, b = await asyncio.gather(pictures.map(game, NAMES, highlight=owned),
                                pictures.map(game, NAMES, highlight=list(reversed(owned))))
    assert a == b == render_map(game, NAMES, highlight=owned)
    assert pictures.stats == {"drawn": 1, "reused": 1, "failed": 0}
    assert await pictures.map(game, NAMES) != a                 # another highlight: its own
    close = await pictures.closeup(game, NAMES, owned[:1])
    assert close == render_closeup(game, NAMES, owned[:1])
    assert await pictures.closeup(game.copy(), NAMES, owned[:1]) == close
    assert await pictures.closeup(game, NAMES, []) is None       # nothing to show
    assert pictures.stats["drawn"] == 3 and pictures.stats["failed"] == 0
    blind = await pictures.map(game, NAMES, highlight=owned, palette="colourblind")
    assert blind == render_map(game, NAMES, owned, "en", None, "colourblind") != a


@pytest.mark.asyncio
async def test_warming_builds_a_games_pages_in_every_worker():
    """When a game starts every worker builds the pages its pictures are drawn on: the first
    close-up and the final post do not pay for them."""
    from tests.workers import tasks
    two = WorkerPool(2, preload=("ttr_bot.render",))
    await two.start()
    try:
        board = new_game("switzerland").board
        await Pictures(two).warm(board, "ja", ["en", "th", "en"])
        held = await two.run_each(tasks.pages_held, board)
        assert len(held) == 2
        for pages in held:
            assert pages == sorted([("map", "ja"), ("closeup", "ja"), ("final", "ja"),
                                    ("film", "ja"), ("private", "en"), ("private", "th")])
        assert await Pictures(WorkerPool(0)).warm(board, "en") == [None] * 4   # no processes
    finally:
        await two.close()
