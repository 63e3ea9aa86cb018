"""python -m ttr_bot.demo: try it without Discord — an offline game among computer players.

    python -m ttr_bot.demo [--map usa] [--players hard,medium,easy] [--seed 1] [--out out/demo]

After every turn it rewrites OUT/record.json (a `ttr-record/1` of the game so far, replayable
with `python -m ttr_bot.replay`), writes the board as OUT/turn-NNN.png and adds a line to
OUT/turns.txt (also printed). The pictures come from `ttr_bot.render`; `--no-pictures` writes
only the record and the text.
"""
import argparse
import json
import os
import sys

from .ai import AGENTS, make_agent
from .engine.dealer import Dealer
from .engine.game import Game
from .engine.view import view
from .game_record import action_to_json, export_record
from .i18n import t as _t
from .maps import available_maps, load_board, variants
from .render import render_board, render_final

DEFAULT_PLAYERS = "hard,medium,easy"


# ----- the options that say which table to play (also python -m tools.arena's) ----------------
def add_table_args(ap, players, maps=None):
    """`maps`: the map ids --map accepts (the offered maps unless told)."""
    ap.add_argument("--map", default="usa", choices=maps if maps is not None else available_maps())
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


def describe(game, names, events):
    """One line for the public events of a turn."""
    board = game.board
    parts = []
    drew = set()
    for ev in events:
        kind = ev.get("type")
        name = names[ev["seat"]] if "seat" in ev else ""
        if kind == "claim_route":
            parts.append(_t("render.move.claim_route",
                            name=name, route=board.route_label(ev["route"]), points=ev["points"]))
        elif kind == "tunnel_decline":
            parts.append(_t("render.move.tunnel_decline",
                            name=name, route=board.route_label(ev["route"])))
        elif kind == "build_station":
            parts.append(_t("render.move.build_station",
                            name=name, city=board.nodes[ev["city"]].name))
        elif kind == "draw_card" and ev["seat"] not in drew:
            drew.add(ev["seat"])
            parts.append(_t("render.move.draw_card", name=name))
        elif kind == "draw_tickets":
            parts.append(_t("render.move.draw_tickets", name=name))
        elif kind == "keep_tickets":
            key = "bot.ev.keep_setup" if ev.get("setup") else "bot.ev.keep"
            parts.append(_t(key, name=name, count=ev["count"]))
        elif kind == "pass":
            parts.append(_t("render.move.pass", name=name))
        elif kind == "final_round":
            parts.append(_t("render.final_round", count=game.n))
        elif kind == "game_over":
            parts.append(_t("render.status.over"))
    return " ".join(p.rstrip(".") + "." for p in parts)


def standings(game, names):
    """Each player's route points and trains left: not the total the scores would give if the
    game ended now (tickets not yet made count against it, the longest path moves between
    players), which would have a player who did not move lose points."""
    players, _ = game.scores()
    return " | ".join(_t("bot.demo.standing", name=names[p], points=players[p]["route_points"],
                         trains=game.trains[p]) for p in range(game.n))


def run(map_id="usa", levels=None, seed=1, out="out/demo", variant="base", echo=print,
        pictures=True):
    """Play one game and write its files; returns (game, names, files written)."""
    levels = list(levels or DEFAULT_PLAYERS.split(","))
    board = load_board(map_id, variant)
    rules = board.rules
    if not rules.min_players <= len(levels) <= rules.max_players:
        raise ValueError(f"{board.name} takes {rules.min_players}–{rules.max_players} players")
    names = []
    for i, lv in enumerate(levels):
        base = f"{lv}-bot"
        names.append(base if base not in names else f"{base}-{i + 1}")
    os.makedirs(out, exist_ok=True)
    agents = [make_agent(lv, seed=seed * 16 + s) for s, lv in enumerate(levels)]
    game = Game(board, len(levels), Dealer(seed))
    actions = []
    written = []
    log_path = os.path.join(out, "turns.txt")
    log = open(log_path, "w", encoding="utf-8")
    written.append(log_path)

    def write_picture(name, png):
        pic = os.path.join(out, name)
        with open(pic, "wb") as f:
            f.write(png)
        written.append(pic)

    def snapshot(label, events):
        line = f"[{label}] {describe(game, names, events)}  ({standings(game, names)})"
        echo(line)
        log.write(line + "\n")
        log.flush()
        path = os.path.join(out, "record.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(export_record(game, names, actions), f, ensure_ascii=False, indent=1)
        if path not in written:
            written.append(path)
        if pictures:
            write_picture(f"turn-{game.turn:03d}.png", render_board(game, names))

    try:
        events = []
        while not game.over:
            turn, phase = game.turn, game.phase
            for seat in game.to_move():
                action = agents[seat].act(view(game, seat))
                actions.append(action_to_json(game, action, names))
                events.extend(game.apply(action))
            if phase == "setup" and game.phase != "setup":
                snapshot("setup", events)
                events = []
            elif game.turn != turn or game.over:
                snapshot(f"turn {game.turn}", events)
                events = []
        players, winners = game.scores()
        result = ", ".join(f"{names[p]} {players[p]['total']}" for p in range(game.n))
        won = (_t("render.final.winner", name=names[winners[0]]) if len(winners) == 1
               else _t("render.final.winners", names=", ".join(names[w] for w in winners)))
        line = f"{_t('render.final.title')}: {result}. {won}"
        echo(line)
        log.write(line + "\n")
        if pictures:
            write_picture("final.png", render_final(game, names))
    finally:
        log.close()
    return game, names, written


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ttr_bot.demo", description=__doc__.splitlines()[0])
    add_table_args(ap, players=DEFAULT_PLAYERS)
    ap.add_argument("--out", default=os.path.join("out", "demo"), help="directory for the files")
    ap.add_argument("--no-pictures", action="store_true", help="write the record and text only")
    ap.add_argument("--quiet", action="store_true", help="print only the final line")
    args = ap.parse_args(argv)
    levels = table_levels(ap, args)
    lines = []
    echo = lines.append if args.quiet else print
    try:
        game, names, written = run(args.map, levels, args.seed, args.out, args.variant, echo,
                                   pictures=not args.no_pictures)
    except ValueError as e:
        print(f"demo: {e}", file=sys.stderr)
        return 2
    if args.quiet and lines:
        print(lines[-1])
    print(f"wrote {len(written)} file(s) to {args.out} "
          f"(replay: python -m ttr_bot.replay {os.path.join(args.out, 'record.json')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
