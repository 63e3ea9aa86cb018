"""Names in every script: a worker's memory and the pictures' time with them.

One worker process of the bot's pool (`WorkerPool`, the modules it preloads) draws, for every
map, in English and in Persian: the public map, the private board of each seat, the final
picture, with players named in Korean, Chinese, rare kanji, emoji, Persian, Hebrew, Devanagari,
Thai, Vietnamese and Cyrillic; then a stats picture per name and one film (Europe); then the
same maps in Thai and Japanese. Printed: the worker's resident memory (RSS) when ready, after
the Latin-named pictures, after the same with names in every script, after Persian ones too
(two languages: a worker serves every language), after the stats pictures and the film (the
target, <= 300 MiB, is for this figure), and after the other two languages (the page cache's
bound, static.MAX_PAGE_BYTES, at work); and the median time of a private board with Latin
names and with these names (static layers cached, text caches warm).

    python -m tools.bench names [--rounds 5]
"""
import argparse
import asyncio
import statistics
import time

from testkit.sample_games import greedy_game, names_for
from ttr_bot.maps import available_maps
from ttr_bot.render import render_board, render_final, render_map
from ttr_bot.render.film import render_film
from ttr_bot.render.stats_card import render_stats
from ttr_bot.stats import player_stats
from ttr_bot.store import ResultRecord
from ttr_bot.workers import WorkerPool

from .film import film_input, greedy_record

PRELOAD = ("ttr_bot.ai", "ttr_bot.render", "ttr_bot.maps")
MB = 1024 * 1024
TARGET_MB = 300
NAMES = ("김민준", "张伟 王芳", "齋藤 髙橋", "🚂TrainFan🚂", "پریسا رضایی", "דוד כהן", "राहुल शर्मा",
         "สมชาย ใจดี", "Nguyễn Thị Hương", "Дмитрий", "👨\u200d👩\u200d👧 🇯🇵", "𝓐𝓵𝓲𝓬𝓮 ★")


def names_in_scripts(n, shift=0):
    return [NAMES[(shift + i) % len(NAMES)] for i in range(n)]


async def timed(pool, fn, *args):
    t0 = time.perf_counter()
    await pool.run(fn, *args)
    return (time.perf_counter() - t0) * 1000


async def _draw_all(pool, games, locale):
    """Every map's public map, private boards and final picture, named in every script."""
    for shift, (mid, end) in enumerate(games.values()):
        names = names_in_scripts(mid.n, shift)
        await pool.run(render_map, mid, names, None, locale)
        for viewer in range(mid.n):
            await pool.run(render_board, mid, names, viewer, locale)
        await pool.run(render_final, end, names_in_scripts(end.n, shift), locale)


async def run(rounds):
    pool = WorkerPool(1, preload=PRELOAD)
    await pool.start()
    await pool.wait_ready()
    (ready,) = pool.memory().values()
    games = {m: (greedy_game(m, until=0.5), greedy_game(m)) for m in available_maps()}
    latin, scripts = [], []
    for mid, end in games.values():               # Latin names: the static layers, warm
        await pool.run(render_map, mid, names_for(mid), None, "en")
        for viewer in range(mid.n):
            await pool.run(render_board, mid, names_for(mid), viewer, "en")
        await pool.run(render_final, end, names_for(end), "en")
        latin += [await timed(pool, render_board, mid, names_for(mid), 0, "en")
                  for _ in range(rounds)]
    (after_latin,) = pool.memory().values()
    for shift, (mid, end) in enumerate(games.values()):
        names = names_in_scripts(mid.n, shift)
        await pool.run(render_map, mid, names, None, "en")
        for viewer in range(mid.n):
            await pool.run(render_board, mid, names, viewer, "en")
        await pool.run(render_final, end, names_in_scripts(end.n, shift), "en")
        scripts += [await timed(pool, render_board, mid, names, 0, "en") for _ in range(rounds)]
    (after_names,) = pool.memory().values()
    await _draw_all(pool, games, "fa")
    (after_fa,) = pool.memory().values()
    results = [ResultRecord(game_id=g, seat=0, user_id=1, score=60 + 7 * g, rank=1 + g % 3,
                            won=g % 3 == 0, tickets_completed=2 + g % 4, map=m, variant="base",
                            finished_at=float(g), tickets_failed=g % 2, longest_bonus=g % 5 == 0)
               for g, m in enumerate(list(games) * 3)]
    for name in NAMES:
        stats = player_stats(1, results, name=name)
        for locale in ("en", "fa"):
            await pool.run(render_stats, stats, locale)
    start, _, actions = film_input(greedy_record("europe", 5, 1)[0])
    await pool.run(render_film, start, names_in_scripts(5), actions, "fa")
    (after,) = pool.memory().values()
    for locale in ("th", "ja"):
        await _draw_all(pool, games, locale)
    (every,) = pool.memory().values()
    await pool.close()
    print(f"worker RSS, MiB: ready {ready / MB:.0f}; after every map's pictures (public map, "
          f"each private board, final) with Latin names {after_latin / MB:.0f}; then the same "
          f"with names in every script {after_names / MB:.0f}; then all of them in Persian too "
          f"(two languages) {after_fa / MB:.0f}; then {len(NAMES)} stats pictures in both and a "
          f"Persian film {after / MB:.0f} (target <= {TARGET_MB})"
          f"{'' if after <= TARGET_MB * MB else '  OVER TARGET'}; then every map's pictures in "
          f"Thai and Japanese too (four languages) {every / MB:.0f}")
    print(f"private board, state -> PNG in the worker, median ms: Latin names "
          f"{statistics.median(latin):.1f}, names in every script {statistics.median(scripts):.1f} "
          f"({len(latin)} and {len(scripts)} pictures)")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.bench names",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5, help="timed boards per map (default 5)")
    args = ap.parse_args(argv)
    asyncio.run(run(args.rounds))
    return 0
