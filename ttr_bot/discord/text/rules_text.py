"""What /ttr rules says: the game as a first-time player needs it (the turn's three options, the
route scores, tickets, the longest path, the end), then one map's differences; or, asked where
no game is and for no map, the game taught on the original map and every map in one line.
Every figure is a map's own rule (its `rules`), never one written here."""
from ...i18n import t
from ...stats import map_name
from .format import VARIANT_KEYS, map_title, sep

TAUGHT = "usa"      # the overview teaches the original game; each other map says what it changes
BRIEF_FACTS = 3     # the most a map's line says there (ten maps on one screen); /ttr rules map: all


def base_lines(board, loc):
    """How to play, with `board`'s figures."""
    r = board.rules
    table = " · ".join(f"{n}→{p}" for n, p in sorted(r.route_points.items()))
    lines = [t("bot.rules.base_title", loc), t("bot.rules.turn", loc), t("bot.rules.turn_draw", loc)]
    if r.faceup_locomotive_limit:
        lines.append(t("bot.rules.faceup_loco", loc))
    lines += [t("bot.rules.turn_claim", loc),
              t("bot.rules.turn_tickets", loc, draw=r.draw_tickets, keep=r.draw_keep_min),
              t("bot.rules.scoring", loc, table=table), t("bot.rules.ticket_score", loc)]
    if r.longest_path_bonus:
        lines.append(t("bot.rules.longest", loc, points=r.longest_path_bonus))
    lines.append(t("bot.rules.end", loc, trains=r.end_trains))
    return lines


def map_lines(board, loc):
    """What this map (and variant) has: players, trains, tickets, and its special rules."""
    r = board.rules
    lines = [t("bot.rules.title", loc, map=map_title(board, loc)),
             t("bot.rules.players", loc, min=r.min_players, max=r.max_players, trains=r.trains),
             t("bot.rules.tickets", loc, deal=r.start_long + r.start_regular, keep=r.start_keep_min,
               draw=r.draw_tickets, draw_keep=r.draw_keep_min),
             t("bot.rules.double", loc, count=r.double_routes_min_players)]
    if r.start_long:
        lines.append(t("bot.rules.long", loc, count=r.start_long))
    if r.stations:
        lines.append(t("bot.rules.stations", loc, count=r.stations, bonus=r.station_bonus))
    if _tunnels(board):
        lines.append(t("bot.rules.tunnels", loc))
    if _ferries(board) and "ferry_pairs" not in r.mechanics:    # its own line says more
        lines.append(t("bot.rules.ferries", loc))
    if r.locomotives_only_on:
        lines.append(t("bot.rules.locos_only", loc))
    if not r.faceup_locomotive_limit:
        lines.append(t("bot.rules.faceup_locos", loc))
    if r.globetrotter_bonus:
        lines.append(t("bot.rules.globetrotter", loc, points=r.globetrotter_bonus))
    if 2 in r.triple_lanes.values():        # Northern Lights: a second lane at 3 players
        lines.append(t("bot.rules.triple_lanes", loc, table=" · ".join(
            f"{n}→{lanes}" for n, lanes in sorted(r.triple_lanes.items()))))
    elif (everyone := _triple_all(r)) is not None:
        lines.append(t("bot.rules.triple", loc, count=everyone))
    lines += [t(f"bot.rules.mech.{m}", loc, **MECHANIC_FIGURES[m](r, loc)) for m in r.mechanics]
    lines += [f"• {note}" for note in r.notes]
    return lines


# The figures each map's own rule states (`bot.rules.mech.<name>` and its brief form), from
# the map's rules (and the reader's language, for names): a mechanic a map offered on Discord
# has needs its entry here.
MECHANIC_FIGURES = {
    "grand_tour": lambda r, loc: {
        "table": " · ".join(f"{n}{'+' if n == max(r.grand_tour_points) else ''}→{p}"
                            for n, p in sorted(r.grand_tour_points.items()) if n),
        "most": max(r.grand_tour_points.values())},
    "mountains": lambda r, loc: {"points": r.mountain_points},
    "asian_explorer": lambda r, loc: {"points": r.explorer_bonus},
    "bullet": lambda r, loc: {
        "supply": r.bullet_trains, "zero": f"{r.bullet_zero:+d}",
        "table": " · ".join(f"{n}: " + " ".join(f"{p:+d}" if p else "0" for p in ranks)
                            for n, ranks in sorted(r.bullet_track_bonus.items())),
        "most": max(max(ranks) for ranks in r.bullet_track_bonus.values())},
    "shares": lambda r, loc: {
        "table": " · ".join(f"{c}: " + "/".join(map(str, ranks))
                            for c, ranks in sorted(r.share_points.items())),
        "most": max(max(ranks) for ranks in r.share_points.values())},
    "ferry_cards": lambda r, loc: {"max": r.ferry_cards_max},
    "regions": lambda r, loc: {
        "table": " · ".join(f"{n}{'+' if n == max(r.region_points) else ''}→{p}"
                            for n, p in sorted(r.region_points.items()) if p),
        "most": max(r.region_points.values())},
    "ferry_pairs": lambda r, loc: {},
    "draw_bonus": lambda r, loc: {},
    "bonus_cards": lambda r, loc: {
        "dealt": r.bonus_cards_dealt, "count": len(r.bonus_cards),
        "table": " · ".join(t(f"render.bonus_card.{k}", loc) + f" +{p}"
                            for k, p in sorted(r.bonus_cards.items())),
        "most": max(r.bonus_cards.values())},
}


def _triple_all(r):
    """The fewest players with whom every lane of a triple route is open (None: no triple)."""
    return min((n for n, lanes in r.triple_lanes.items() if lanes >= 3), default=None)


def rules_lines(board, loc):
    """/ttr rules in a game (or for one map): how to play, then this map's differences."""
    return base_lines(board, loc) + [""] + map_lines(board, loc)


def overview_lines(maps, loc):
    """/ttr rules where no game is: the game taught on the original map, then each map in one
    line, what it changes. `maps`: [(map id, its base Board, its variants)] as offered."""
    boards = {m: b for m, b, _ in maps}
    taught = boards.get(TAUGHT) or next(iter(boards.values()))
    lines = base_lines(taught, loc) + ["", t("bot.rules.maps", loc)]
    for map_id, board, variants in sorted(maps, key=lambda m: m[1] is not taught):
        facts = differences(board, taught, loc)[:BRIEF_FACTS] or [t("bot.rules.brief.same", loc)]
        others = [t(VARIANT_KEYS.get(v, "bot.variant.base"), loc) for v in variants if v != "base"]
        if others:
            facts.append(t("bot.rules.brief.variants", loc, names=sep(loc).join(others)))
        lines.append(t("bot.rules.brief.line", loc, map=map_name(map_id, loc),
                       facts=sep(loc).join(facts)))
    return lines


def differences(board, taught, loc):
    """In a few words each, what `board` does otherwise than `taught`: its own rules (the
    reason to play it) first."""
    r, b = board.rules, taught.rules
    out = [t(f"bot.rules.brief.mech.{m}", loc, **MECHANIC_FIGURES[m](r, loc))
           for m in r.mechanics if m not in b.mechanics]
    if (r.min_players, r.max_players) != (b.min_players, b.max_players):
        out.append(t("bot.rules.brief.players", loc, min=r.min_players, max=r.max_players))
    if r.stations and not b.stations:
        out.append(t("bot.rules.brief.stations", loc, count=r.stations))
    if _tunnels(board) and not _tunnels(taught):
        out.append(t("bot.rules.brief.tunnels", loc))
    if _ferries(board) and not _ferries(taught):
        out.append(t("bot.rules.brief.ferries", loc))
    if r.locomotives_only_on and not b.locomotives_only_on:
        kinds = "_".join(sorted(r.locomotives_only_on))         # ferry, tunnel, ferry_tunnel
        out.append(t(f"bot.rules.brief.locos_only.{kinds}", loc))
    if not r.faceup_locomotive_limit and b.faceup_locomotive_limit:
        out.append(t("bot.rules.brief.faceup", loc))
    longest = max(r.route_points)
    if longest > max(b.route_points):
        out.append(t("bot.rules.brief.long_routes", loc, length=longest,
                     points=r.route_points[longest]))
    if r.longest_path_bonus != b.longest_path_bonus:
        out.append(t("bot.rules.brief.longest", loc, points=r.longest_path_bonus)
                   if r.longest_path_bonus else t("bot.rules.brief.no_longest", loc))
    if r.globetrotter_bonus != b.globetrotter_bonus and r.globetrotter_bonus:
        out.append(t("bot.rules.brief.globetrotter", loc, points=r.globetrotter_bonus))
    if r.trains != b.trains:
        out.append(t("bot.rules.brief.trains", loc, trains=r.trains))
    deal = r.start_long + r.start_regular
    if (deal, r.start_keep_min, r.start_long) != (b.start_long + b.start_regular,
                                                  b.start_keep_min, b.start_long):
        out.append(t("bot.rules.brief.deal", loc, deal=deal, keep=r.start_keep_min))
        if r.start_long:
            out.append(t("bot.rules.brief.long", loc, count=r.start_long))
    return out


def _tunnels(board):
    return any(x.tunnel for x in board.routes)


def _ferries(board):
    return any(x.ferry for x in board.routes)
