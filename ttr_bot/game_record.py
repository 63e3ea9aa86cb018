"""`ttr-record/1` game records (docs/record-format.md): read one into a game, write one from a game.

A record names everything by what players see (city names, card names, ticket city pairs); the
engine works with indices. This module translates both ways and replays actions, stopping at
the first illegal one.
"""

from .engine import actions as A
from .engine.cards import CARD_INDEX, CARD_NAMES, N_CARD_KINDS, ROUTE_COLOR_INDEX, route_color_name
from .engine.dealer import Dealer
from .engine.errors import DeckError, Illegal
from .engine.game import Game
from .maps import MapError, load_board, ready, variants

FORMAT = "ttr-record/1"
PLAYER_KEYS = ("route_points", "tickets", "tickets_completed", "ticket_points", "longest_path",
               "bonuses", "total", "trains_left", "stations_left", "hand")
INTERNAL_KEYS = ("borrowed_routes",)   # in a final score, not in the replay output
# the newer maps' own output (docs/record-format.md) follows PLAYER_KEYS: what their mechanics add


class RecordError(Exception):
    """The document is not a valid record at all (exit 2 in the replay tool)."""


# ----- tickets ------------------------------------------------------------------------------
def ticket_key(origin, dests):
    """How a record names a ticket: unordered pair, or (origin, destinations) for multi."""
    if isinstance(dests, (list, tuple)) and not isinstance(dests, str):
        dests = tuple(dests)
        if len(dests) == 1:
            return frozenset((origin, dests[0]))
        return (origin, dests)
    return frozenset((origin, dests))


def _entry_key(entry):
    if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str):
        raise ValueError(f"a ticket must be [from, to], not {entry!r}")
    origin, to = entry
    if isinstance(to, list):
        if not to or not all(isinstance(x, str) for x in to):
            raise ValueError(f"bad destinations in ticket {entry!r}")
    elif not isinstance(to, str):
        raise ValueError(f"bad ticket {entry!r}")
    return ticket_key(origin, to)


def ticket_to_json(ticket):
    if ticket.multi:
        return [ticket.origin, list(ticket.dests)]
    return [ticket.origin, ticket.dests[0]]


def _tickets_by_key(tickets):
    out = {}
    for t in tickets:
        out.setdefault(ticket_key(t.origin, t.dests), []).append(t.id)
    return out


def _deck_ids(entries, tickets, kind):
    if not isinstance(entries, list):
        raise RecordError(f"decks.{kind} must be a list")
    pool = _tickets_by_key(tickets)
    ids = []
    for e in entries:
        try:
            key = _entry_key(e)
        except ValueError as err:
            raise RecordError(f"decks.{kind}: {err}") from None
        if not pool.get(key):
            raise RecordError(f"decks.{kind} is not a permutation of the ticket deck "
                              f"(unexpected or repeated {e!r})")
        ids.append(pool[key].pop(0))
    if len(ids) != len(tickets):
        raise RecordError(f"decks.{kind} has {len(ids)} tickets; the deck has {len(tickets)}")
    return ids


def _card_list(cards, where):
    if not isinstance(cards, list) or not all(isinstance(c, str) and c in CARD_INDEX for c in cards):
        raise RecordError(f"{where} must be a list of card names")
    return [CARD_INDEX[c] for c in cards]


# ----- opening a record ---------------------------------------------------------------------
def open_record(doc):
    """(game, names, actions) for a record document; RecordError if it is not a valid record."""
    if not isinstance(doc, dict):
        raise RecordError("a record is a JSON object")
    if doc.get("format") != FORMAT:
        raise RecordError(f'"format" must be "{FORMAT}"')
    map_id = doc.get("map")
    variant = doc.get("variant", "base")
    if not isinstance(map_id, str) or not isinstance(variant, str):
        raise RecordError('"map" and "variant" must be strings')
    try:
        if variant not in variants(map_id):
            raise RecordError(f"unknown variant {variant!r} for map {map_id!r}")
        board = load_board(map_id, variant)
    except (MapError, FileNotFoundError, KeyError):
        raise RecordError(f"unknown map {map_id!r}") from None
    if not ready(map_id):
        raise RecordError(f"the engine does not play the rules of {map_id!r} yet")
    names = doc.get("players")
    rules = board.rules
    if (not isinstance(names, list) or not all(isinstance(n, str) and n for n in names)
            or len(set(names)) != len(names)):
        raise RecordError('"players" must be a list of distinct names')
    if not rules.min_players <= len(names) <= rules.max_players:
        raise RecordError(f"{board.name} takes {rules.min_players}–{rules.max_players} players, "
                          f"not {len(names)}")
    seed = doc.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError('"seed" must be an integer')
    decks = doc.get("decks") or {}
    if not isinstance(decks, dict):
        raise RecordError('"decks" must be an object')
    train = _card_list(decks["train"], "decks.train") if "train" in decks else None
    regular = [t for t in board.tickets if not t.long]
    long_ = [t for t in board.tickets if t.long]
    tickets = _deck_ids(decks["tickets"], regular, "tickets") if "tickets" in decks else None
    long_ids = _deck_ids(decks["long_tickets"], long_, "long_tickets") if "long_tickets" in decks else None
    reshuffles = doc.get("reshuffles") or []
    if not isinstance(reshuffles, list):
        raise RecordError('"reshuffles" must be a list')
    reshuffles = [_card_list(r, f"reshuffles[{i}]") for i, r in enumerate(reshuffles)]
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError('"actions" must be a list')
    more = {**_map_decks(board, decks), **_dummy_reveal(board, decks, len(names))}
    dealer = Dealer(seed, train=train, tickets=tickets, long_tickets=long_ids, reshuffles=reshuffles,
                    **more)
    try:
        game = Game(board, len(names), dealer)
    except DeckError as e:
        raise RecordError(str(e)) from None
    return game, names, actions


def _map_decks(board, decks):
    """The decks of a map's own rules (docs/record-format.md): Northern Lights' `bonus_cards`
    (letters, top first) as the dealer's order of their indices. A deck the map does not use
    makes the record invalid."""
    letters = list(board.rules.bonus_cards) if "bonus_cards" in board.rules.mechanics else []
    more = {}
    if "bonus_cards" in decks:
        cards = decks["bonus_cards"]
        if not letters:
            raise RecordError(f"decks.bonus_cards: {board.name} has no bonus cards")
        if not isinstance(cards, list) or sorted(map(str, cards)) != sorted(letters):
            raise RecordError(f"decks.bonus_cards must list the letters {', '.join(letters)} once each")
        more["bonus_cards"] = [letters.index(c) for c in cards]
    return more


def _dummy_reveal(board, decks, n_players):
    """Pennsylvania with 2 players: the dummy's shares revealed when the record is scored, as
    [company, number] pairs (RULES.md §14.6.4); whether they fit is checked then."""
    if "dummy_reveal" not in decks:
        return {}
    pairs = decks["dummy_reveal"]
    if "shares" not in board.rules.mechanics or n_players != 2:
        raise RecordError(f"decks.dummy_reveal: this {board.name} game has no dummy")
    if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p) for p in pairs):
        raise RecordError("decks.dummy_reveal must be a list of [company, number] pairs")
    return {"dummy_reveal": pairs}


# ----- actions: record JSON <-> engine --------------------------------------------------------
def _cards(obj, field="cards"):
    cards = obj.get(field)
    if not isinstance(cards, dict):
        raise Illegal("record_missing_field", field=field)
    out = [0] * N_CARD_KINDS
    for name, n in cards.items():
        if name == "ferry" and field == "cards":     # Italy's ferry cards: _ferry reads them
            continue
        if name not in CARD_INDEX:
            raise Illegal("record_unknown_card", card=str(name))
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise Illegal("record_bad_count", card=name)
        out[CARD_INDEX[name]] += n
    return tuple(out)


def _str(obj, field):
    v = obj.get(field)
    if not isinstance(v, str):
        raise Illegal("record_missing_field", field=field)
    return v


def find_route(game, a, b, color, lane=None):
    """The route index a record means by its ends, colour and optional lane (docs/record-format.md)."""
    board = game.board
    if a not in board.place_nodes:
        raise Illegal("record_unknown_city", city=a)
    if b not in board.place_nodes:
        raise Illegal("record_unknown_city", city=b)
    want = ROUTE_COLOR_INDEX.get(color)
    if want is None:
        raise Illegal("record_unknown_color", color=str(color))
    ends = {a, b}
    found = [r for r in board.routes
             if {board.nodes[r.a].name, board.nodes[r.b].name} == ends and r.color == want]
    if not found:
        raise Illegal("record_no_route", a=a, b=b, color=color)
    if lane is not None:
        for r in found:
            if r.lane == lane:
                return r.index
        raise Illegal("record_no_route", a=a, b=b, color=color)
    for r in found:
        if game.owner[r.index] < 0:
            return r.index
    return found[0].index


def action_from_json(game, obj, names):
    """Engine action for one record action; Illegal if it cannot even be understood."""
    if not isinstance(obj, dict):
        raise Illegal("record_bad_action")
    player = obj.get("player")
    if player not in names:
        raise Illegal("record_unknown_player", player=str(player))
    seat = names.index(player)
    kind = obj.get("type")
    if kind == "keep_tickets":
        return A.KeepTickets(seat, _match_offer(game, seat, obj.get("keep")))
    if kind == "draw_card":
        src = obj.get("from")
        if src == "deck":
            return A.DrawCard(seat)
        if src == "faceup":
            card = obj.get("card")
            if not isinstance(card, str) or card not in CARD_INDEX:
                raise Illegal("record_unknown_card", card=str(card))
            return A.DrawCard(seat, CARD_INDEX[card])
        raise Illegal("record_missing_field", field="from")
    if kind == "claim_route":
        lane = obj.get("lane")
        if lane is not None and (type(lane) is not int or lane not in (1, 2)):
            raise Illegal("record_missing_field", field="lane")
        route = find_route(game, _str(obj, "from"), _str(obj, "to"), _str(obj, "color"), lane)
        return A.ClaimRoute(seat, route, _cards(obj), ferry=_ferry(obj),
                            share=_company(obj, "share"), dummy_share=_company(obj, "dummy_share"))
    if kind == "tunnel_pay":
        return A.TunnelPay(seat, _cards(obj))
    if kind == "tunnel_decline":
        return A.TunnelDecline(seat)
    if kind == "draw_tickets":
        return A.DrawTickets(seat)
    if kind == "build_station":
        city = _str(obj, "city")
        nodes = game.board.place_nodes.get(city)
        if not nodes or game.board.nodes[nodes[0]].country:
            raise Illegal("record_unknown_city", city=city)
        return A.BuildStation(seat, nodes[0], _cards(obj))
    if kind == "pass":
        return A.Pass(seat)
    if kind == "draw_ferry_card":
        return A.DrawFerryCard(seat)
    raise Illegal("record_unknown_type", type=str(kind))


def _company(obj, field):
    """Pennsylvania: a claim's `share` / `dummy_share`, a company by its number of shares;
    absent or null: 0."""
    v = obj.get(field)
    if v is None:
        return 0
    if type(v) is not int or v < 1:
        raise Illegal("record_missing_field", field=field)
    return v


def _ferry(obj):
    """Italy: `"ferry": n` in a claim's cards (docs/record-format.md); 0 without it."""
    n = obj["cards"].get("ferry", 0)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise Illegal("record_bad_count", card="ferry")
    return n


def _match_offer(game, seat, keep):
    if not isinstance(keep, list):
        raise Illegal("record_missing_field", field="keep")
    offer = game.offers[seat]
    if offer is None:
        if game.phase == "setup":
            raise Illegal("already_chosen")
        raise Illegal("no_ticket_offer")
    left = list(offer)
    ids = []
    for entry in keep:
        try:
            key = _entry_key(entry)
        except ValueError:
            raise Illegal("record_bad_ticket") from None
        match = next((t for t in left if ticket_key(game.board.tickets[t].origin,
                                                    game.board.tickets[t].dests) == key), None)
        if match is None:
            raise Illegal("not_offered")
        left.remove(match)
        ids.append(match)
    return tuple(ids)


def action_to_json(game, action, names):
    """Record form of an engine action, as taken in `game` (the state before it)."""
    board = game.board
    out = {"player": names[action.seat], "type": A.type_name(action)}
    if isinstance(action, A.KeepTickets):
        out["keep"] = [ticket_to_json(board.tickets[t]) for t in action.tickets]
    elif isinstance(action, A.DrawCard):
        out["from"] = "deck" if action.card < 0 else "faceup"
        if action.card >= 0:
            out["card"] = CARD_NAMES[action.card]
    elif isinstance(action, A.ClaimRoute):
        r = board.routes[action.route]
        out.update({"from": board.nodes[r.a].name, "to": board.nodes[r.b].name,
                    "color": route_color_name(r.color)})
        if sum(1 for x in board.routes if x.color == r.color and
               {x.a, x.b} == {r.a, r.b}) > 1 or r.lane != 1:
            out["lane"] = r.lane
        out["cards"] = _cards_json(action.cards)
        if action.ferry:
            out["cards"]["ferry"] = action.ferry
        if action.share:
            out["share"] = action.share
        if action.dummy_share:
            out["dummy_share"] = action.dummy_share
    elif isinstance(action, A.TunnelPay):
        out["cards"] = _cards_json(action.cards)
    elif isinstance(action, A.BuildStation):
        out["city"] = board.nodes[action.city].name
        out["cards"] = _cards_json(action.cards)
    return out


def _cards_json(cards):
    return {CARD_NAMES[i]: n for i, n in enumerate(cards) if n}


# ----- replaying and exporting ---------------------------------------------------------------
def replay(doc):
    """Play a record. Returns (game, names, error) where error is None or (index, Illegal)."""
    game, names, actions = open_record(doc)
    error = None
    for i, obj in enumerate(actions):
        try:
            action = action_from_json(game, obj, names)
            game.apply(action)
        except Illegal as e:
            error = (i, e)
            break
        except DeckError as e:
            raise RecordError(str(e)) from None
    try:
        game.scores()          # a draw made when the game is scored (the dummy's reveal) must fit
    except DeckError as e:
        raise RecordError(str(e)) from None
    return game, names, error


def export_record(game, names, actions_json):
    """A record that replays to this game: the dealer's actual orders are written out, so the
    record does not depend on any random generator."""
    board = game.board
    dealer = game.dealer
    doc = {"format": FORMAT, "map": board.map_id, "variant": board.variant,
           "players": list(names), "seed": dealer.seed,
           "decks": {"train": [CARD_NAMES[c] for c in dealer.dealt["train"]],
                     "tickets": [ticket_to_json(board.tickets[t]) for t in dealer.dealt["tickets"]]},
           "reshuffles": [[CARD_NAMES[c] for c in r] for r in dealer.dealt_reshuffles],
           "actions": list(actions_json)}
    if dealer.dealt.get("long_tickets"):
        doc["decks"]["long_tickets"] = [ticket_to_json(board.tickets[t]) for t in dealer.dealt["long_tickets"]]
    if "bonus_cards" in dealer.dealt:
        letters = list(board.rules.bonus_cards)
        doc["decks"]["bonus_cards"] = [letters[i] for i in dealer.dealt["bonus_cards"]]
    for m in game.mechanics:
        if m.name == "shares" and "dummy" in game.extra["shares"]:
            doc["decks"]["dummy_reveal"] = m.revealed(game)
    return doc


def result(game, names, error=None, message=None):
    """The replay tool's output document (docs/record-format.md)."""
    players, winners = game.scores()
    out_players = []
    extra_keys = [k for k in players[0] if k not in PLAYER_KEYS and k not in INTERNAL_KEYS] if players else []
    for name, pl in zip(names, players):
        out_players.append({"name": name, **{k: pl[k] for k in PLAYER_KEYS},
                            **{k: pl[k] for k in extra_keys}})
    out = {
        "status": "finished" if game.over else "in_progress",
        "error": None if error is None else {"action": error[0], "message": message},
        "turn": game.turn,
        "players": out_players,
        "winners": [names[w] for w in winners] if game.over else [],
    }
    for m in game.mechanics:
        out.update(m.output(game))
    return out
