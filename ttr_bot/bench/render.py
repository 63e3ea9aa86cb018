"""Board picture figures, per map: the median time of a full `render_board` (static layer
cached: copy, overlay, panel, PNG encode), the median time to PNG-encode the very same picture
with Pillow's fastest setting (compress_level=1), their ratio (target <= 1.5), and the largest
file (target <= 1 MiB). States come from random legal play, at a third, two thirds and the end
of a game; the one-off time to build a map's static layer is shown apart.

    python -m ttr_bot.bench render [--runs N] [--maps usa,europe,...]
"""
import argparse
import io
import statistics
import time

from PIL import Image

from ..maps import available_maps
from ..render import render_board, render_final
from ..render import static as render_static
from .sample_games import PLAYERS, names_for, random_game

RATIO_TARGET = 1.5
SIZE_TARGET = 1 << 20


def _median_ms(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def bench_map(map_id, runs):
    n = PLAYERS.get(map_id, 3)
    states = [random_game(map_id, n, seed=11, until=1 / 3), random_game(map_id, n, seed=12, until=2 / 3),
              random_game(map_id, n, seed=13)]
    render_static.clear()
    t0 = time.perf_counter()
    render_board(states[0], names_for(states[0]))
    first = (time.perf_counter() - t0) * 1000
    render_times, encode_times, sizes = [], [], []
    for g in states:
        names = names_for(g)
        data = render_board(g, names)
        sizes.append(len(data))
        img = Image.open(io.BytesIO(data))
        img.load()
        # interleaved, so that a busy machine slows both sides alike
        rt, et = [], []
        for _ in range(runs):
            rt.append(_median_ms(lambda g=g, names=names: render_board(g, names), 1))
            et.append(_median_ms(lambda img=img: img.save(io.BytesIO(), "PNG", compress_level=1), 1))
        render_times.append(statistics.median(rt))
        encode_times.append(statistics.median(et))
        render_board(g, names, viewer=0)
        sizes.append(len(render_board(g, names, viewer=0)))
    final = states[-1]
    sizes.append(len(render_final(final, names_for(final))))
    render_ms = statistics.median(render_times)
    encode_ms = statistics.median(encode_times)
    private_ms = _median_ms(lambda: render_board(final, names_for(final), viewer=0), runs)
    final_ms = _median_ms(lambda: render_final(final, names_for(final)), max(3, runs // 3))
    return {"map": map_id, "render": render_ms, "encode": encode_ms, "ratio": render_ms / encode_ms,
            "size": max(sizes), "first": first, "private": private_ms, "final": final_ms,
            "size_px": Image.open(io.BytesIO(render_board(final, names_for(final)))).size}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ttr_bot.bench render", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="timed renders per state (default 15)")
    ap.add_argument("--maps", default=",".join(available_maps()), help="comma-separated map ids")
    args = ap.parse_args(argv)
    print(f"{'map':<12} {'picture':>10} {'render ms':>10} {'encode ms':>10} {'ratio':>6} "
          f"{'max KiB':>8}   {'private ms':>10} {'final ms':>9} {'static ms':>9}")
    ok = True
    for map_id in args.maps.split(","):
        r = bench_map(map_id.strip(), args.runs)
        w, h = r["size_px"]
        flag = "" if r["ratio"] <= RATIO_TARGET and r["size"] <= SIZE_TARGET else "  (over target)"
        ok = ok and not flag
        print(f"{r['map']:<12} {f'{w}x{h}':>10} {r['render']:>10.1f} {r['encode']:>10.1f} {r['ratio']:>6.2f} "
              f"{r['size'] / 1024:>8.0f}   {r['private']:>10.1f} {r['final']:>9.1f} {r['first']:>9.0f}{flag}")
    print(f"render: full render_board, static layer cached; encode: PNG of the same picture at "
          f"compress_level=1; targets: ratio <= {RATIO_TARGET}, size <= {SIZE_TARGET // 1024} KiB")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main())
