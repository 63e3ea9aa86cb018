"""Board picture figures: state -> PNG time and file size, per map and page, now and before.

Per map and page (public board, private board, final picture): the time from game state to PNG
bytes (`render_board` / `render_final`, static layer cached) at the median and 95th
percentile, the encoding part of it, and the largest file; each beside the same figure for
the encoding before the palette PNG (RGB, compress_level=1), measured on the same pictures in
the same run, interleaved. States come from random legal play, at a third, two thirds and the
end of a game (the final picture: the ends of two games); the one-off time of a page's first
picture (its static layer and palette) is shown apart.

    python -m ttr_bot.bench render [--runs N] [--maps usa,europe,...]

Targets (issue 13): state -> PNG p50 <= 30 ms, files <= 256 KiB.
"""
import argparse
import statistics
import time

from ..maps import available_maps
from ..render import draw as render_draw
from ..render import png as render_png
from ..render import render_board, render_final
from ..render import static as render_static
from .sample_games import PLAYERS, names_for, random_game

TIME_TARGET_MS = 30
SIZE_TARGET = 256 * 1024
PAGES = ("public", "private", "final")


def _ms(fn):
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1000, out


def _p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


def _cases(map_id):
    """{page: [(full render now, full render before, RGB picture, palette)]} for one map."""
    n = PLAYERS.get(map_id, 3)
    states = [random_game(map_id, n, seed=11, until=1 / 3), random_game(map_id, n, seed=12, until=2 / 3),
              random_game(map_id, n, seed=13)]
    ends = [states[-1], random_game(map_id, n, seed=14)]
    cases = {page: [] for page in PAGES}
    for g in states:
        names = names_for(g)
        for page, viewer in (("public", None), ("private", 0)):
            cases[page].append((
                lambda g=g, names=names, v=viewer: render_board(g, names, viewer=v),
                lambda g=g, names=names, v=viewer: render_png.encode_rgb(render_draw.board_image(g, names, v)),
                lambda g=g, names=names, v=viewer: render_draw.board_picture(g, names, v)))
    for g in ends:
        names = names_for(g)
        cases["final"].append((
            lambda g=g, names=names: render_final(g, names),
            lambda g=g, names=names: render_png.encode_rgb(render_draw.final_image(g, names)),
            lambda g=g, names=names: render_draw.final_picture(g, names)))
    return cases


def bench_map(map_id, runs):
    cases = _cases(map_id)
    render_static.clear()
    rows = []
    for page in PAGES:
        first, _ = _ms(cases[page][0][0])          # builds this page's static layer and palette
        full, full_old, enc, enc_old, size, size_old = [], [], [], [], [], []
        for now, before, picture in cases[page]:
            img, palette = picture()
            size.append(len(now()))
            size_old.append(len(before()))
            # interleaved, the order turning each run, so that a busy machine slows all alike
            timed = [(full, now), (full_old, before),
                     (enc, lambda img=img, palette=palette: render_png.encode(img, palette)),
                     (enc_old, lambda img=img: render_png.encode_rgb(img))]
            for i in range(runs):
                for out, fn in timed[i % 4:] + timed[:i % 4]:
                    out.append(_ms(fn)[0])
        rows.append({"map": map_id, "page": page, "size_px": img.size, "first": first,
                     "p50": statistics.median(full), "p95": _p95(full),
                     "p50_old": statistics.median(full_old),
                     "enc": statistics.median(enc), "enc_old": statistics.median(enc_old),
                     "size": max(size), "size_old": max(size_old)})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ttr_bot.bench render", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="timed renders per state (default 15)")
    ap.add_argument("--maps", default=",".join(available_maps()), help="comma-separated map ids")
    args = ap.parse_args(argv)
    print(f"{'':21} {'':>10} {'state -> PNG ms':>31}   {'encode ms':>14}   {'max KiB':>11}")
    print(f"{'map':<12} {'page':<8} {'picture':>10} {'p50':>7} {'p95':>7} {'before':>7} {'x':>6}   "
          f"{'p50':>6} {'before':>7}   {'now':>5} {'before':>5}   {'first ms':>8}")
    for map_id in args.maps.split(","):
        for r in bench_map(map_id.strip(), args.runs):
            w, h = r["size_px"]
            over = r["p50"] > TIME_TARGET_MS or r["size"] > SIZE_TARGET
            print(f"{r['map']:<12} {r['page']:<8} {f'{w}x{h}':>10} {r['p50']:>7.1f} {r['p95']:>7.1f} "
                  f"{r['p50_old']:>7.1f} {r['p50_old'] / r['p50']:>5.1f}x   {r['enc']:>6.1f} {r['enc_old']:>7.1f}   "
                  f"{r['size'] / 1024:>5.0f} {r['size_old'] / 1024:>5.0f}   {r['first']:>8.0f}"
                  f"{'  (over target)' if over else ''}")
    print(f"state -> PNG: render_board / render_final, static layer cached (p50, p95; before: the same "
          f"pictures encoded as before, RGB at compress_level=1); encode: that part alone; first: a page's "
          f"first picture (static layer and palette). Targets: p50 <= {TIME_TARGET_MS} ms, "
          f"size <= {SIZE_TARGET // 1024} KiB")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main())
