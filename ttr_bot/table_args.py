"""The command-line options that say which table to play, shared by `python -m ttr_bot.arena`
and `python -m ttr_bot.demo`: --map, --variant, --players (one level per seat) and --seed."""
from .ai import AGENTS
from .maps import available_maps, variants


def add_table_args(ap, players):
    ap.add_argument("--map", default="usa", choices=available_maps())
    ap.add_argument("--variant", default="base")
    ap.add_argument("--players", default=players,
                    help=f"comma-separated levels, one per seat ({', '.join(AGENTS)})")
    ap.add_argument("--seed", type=int, default=1)


def table_levels(ap, args):
    """The seats' levels from --players; a usage error for an unknown level or variant."""
    levels = [p.strip() for p in args.players.split(",") if p.strip()]
    unknown = [lv for lv in levels if lv not in AGENTS]
    if unknown:
        ap.error(f"unknown level(s) {', '.join(unknown)} (known: {', '.join(AGENTS)})")
    if args.variant not in variants(args.map):
        ap.error(f"unknown variant {args.variant!r} for {args.map}")
    return levels
