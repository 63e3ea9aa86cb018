"""format.py: what the bot writes. Public text never shows hidden information, and every
message fits Discord's 2000 characters."""
import random

import pytest

from tests.discord.adapter_kit import new_game
from ttr_bot.discord.text import format as F
from ttr_bot.engine.cards import CARD_NAMES
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.view import view
from ttr_bot.i18n import t
from ttr_bot.maps import load_board
from ttr_bot.service.effects import split_events

COLOURS = [t(f"bot.card.{c}") for c in CARD_NAMES]


def random_game_events(map_id="usa", n=3, seed=3, limit=4000):
    """(game, [(events of one action)]) of a whole random game."""
    game = new_game(map_id, n, seed)
    rng = random.Random(seed)
    out = []
    for _ in range(limit):
        if game.over:
            break
        seat = game.to_move()[0]
        out.append(game.apply(rng.choice(game.legal_actions(seat))))
    return game, out


def hidden_texts(board, private_part):
    """The words that would give a private part away."""
    out = []
    if "card" in private_part:
        out.append(F.card_name(private_part["card"], "en"))
    for key in ("tickets", "returned", "offer"):
        out += [F.ticket_text(board.tickets[x]) for x in private_part.get(key, ())]
        out += [board.tickets[x].label() for x in private_part.get(key, ())]
    return out


@pytest.mark.parametrize("map_id", ["usa", "europe", "switzerland", "nordic"])
def test_public_lines_never_show_hidden_cards_or_tickets(map_id):
    game, actions = random_game_events(map_id, n=2 if map_id in ("switzerland", "nordic") else 3)
    names = ["Ann", "Ben", "Cy"][:game.n]
    checked = 0
    for events in actions:
        public, private = split_events(events)
        for raw, pub in zip(events, public):
            if "private" not in raw:
                continue
            # both the service's public events and raw engine events (with "private" still in)
            for e in (pub, raw):
                line = F.event_lines([e], game.board, names, "en")[0]
                for secret in hidden_texts(game.board, raw["private"]):
                    assert secret not in line, (line, secret)
                if raw["type"] == "draw_card":
                    assert line == t("bot.ev.draw_deck", name=names[raw["seat"]])
                    assert not any(c in line.split() for c in COLOURS)
            checked += 1
    assert checked > 20


def test_ticket_draw_says_how_many_kept_never_which():
    game = new_game("usa", 2, seed=5)
    events = game.apply(game.legal_actions(0)[0])      # keep the first option at setup
    public, _ = split_events(events)
    line = F.event_lines(public, game.board, ["Ann", "Ben"], "en")[0]
    kept = events[0]["private"]["tickets"]
    assert str(len(kept)) in line
    assert all(game.board.tickets[x].origin not in line for x in kept)


def test_fit_and_chunks_respect_the_limit():
    text = "\n".join(f"line {i} " + "x" * 70 for i in range(200))
    assert len(F.fit(text)) <= 2000 and F.fit(text).endswith("…")
    assert F.fit("short") == "short"
    assert len(F.fit("y" * 5000)) == 2000
    parts = F.chunks(text.splitlines())
    assert all(len(p) <= 2000 for p in parts)
    assert "\n".join(parts) == text          # nothing lost when lines are short enough
    assert all(len(p) <= 2000 for p in F.chunks(["z" * 4500, "a"]))


def test_final_reveal_of_a_big_game_splits_into_messages_that_fit():
    game, _ = random_game_events("usa", n=5, seed=11)
    names = ["A very long display name number %d" % i for i in range(5)]
    lines = F.reveal_lines(game.scores(), names, "en")
    parts = F.chunks(lines)
    assert all(len(p) <= 2000 for p in parts)
    joined = "\n".join(parts)
    for p in range(5):
        for tk in game.scores()[0][p]["tickets"]:
            assert tk["from"] in joined


def test_the_longest_path_reads_as_cars_and_points_and_an_early_score_has_no_unearned_bonus():
    game, _ = random_game_events("usa", n=3, seed=11)
    players = game.scores()[0]
    lines = F.reveal_lines(game.scores(), ["A", "B", "C"], "en")
    best = next(p for p in players if p["bonuses"]["longest_path"])
    assert f"longest path: {best['longest_path']} cars, +10" in "\n".join(lines)
    assert not any("longest path +10" in line for line in lines)     # not twice
    fresh = Game(load_board("europe"), 4, Dealer(3))
    fresh.tickets = [list(o[:2]) for o in fresh.offers]
    line = F.own_score_line(fresh, 0, "en")         # turn 1: no claim, no longest path yet
    assert "bonuses 12" in line                     # the 3 stations kept, nothing more


def test_status_shows_counts_not_contents():
    game, _ = random_game_events("usa", n=3, seed=7, limit=60)
    names = ["Ann", "Ben", "Cy"]
    text = "\n".join(F.status_lines(game, names, "en"))
    for p in range(3):
        assert f"{sum(game.hands[p])} cards" in text
        assert f"{len(game.tickets[p])} tickets" in text
        for x in game.tickets[p]:
            assert game.board.tickets[x].label() not in text
    assert len(text) <= 2000


def test_hand_shows_own_cards_and_ticket_progress():
    game, _ = random_game_events("usa", n=2, seed=9, limit=200)
    v = view(game, 0)
    text = "\n".join(F.hand_lines(v, "en"))
    assert F.cards_text(v.hand, "en") in text
    for x in v.tickets:
        assert F.ticket_text(game.board.tickets[x]) in text
    assert ("✅" in text) or ("🎯" in text)
    assert "⬜" not in text.replace(F.cards_text(v.hand, "en"), "")   # ⬜ is the white card only
    other = view(game, 1)
    for x in other.tickets:
        if x not in v.tickets:
            assert F.ticket_text(game.board.tickets[x]) not in text


@pytest.mark.parametrize("map_id", ["usa", "europe", "switzerland", "nordic"])
def test_route_labels_fit_choice_limits(map_id):
    board = new_game(map_id, 2).board
    for route in board.routes:
        label = F.route_choice_label(board, route, "en")
        assert len(label) <= 100 and board.route_label(route) in label


def test_route_label_reads_like_the_issue_example():
    board = new_game("usa", 2).board
    route = next(r for r in board.routes if {board.nodes[r.a].name, board.nodes[r.b].name}
                 == {"Dallas", "El Paso"})
    assert F.route_choice_label(board, route, "en") == f"{board.route_label(route)} · red 4"


def test_fold_ignores_case_and_accents():
    assert F.fold("Zürich") == F.fold("zurich")


def test_locomotives_take_their_plural_and_colours_read_as_adjectives():
    assert F.cards_text({"red": 2, "locomotive": 3}, "en") == "2 🟥 red, 3 🚂 locomotives"
    assert F.cards_text({"locomotive": 1}, "en") == "1 🚂 locomotive"
    assert F.cards_text({"locomotive": 3}, "ja") == "🚂 機関車3枚"


def test_a_tunnel_tried_and_settled_is_one_line_and_a_pending_one_says_what_it_needs():
    """A card tells a tunnel's try with what settled it in one line (paid and claimed, claimed
    with nothing to add, given up); a try still waiting for its player reads as the try. Every
    public event of a whole Europe game still reaches the lines: each claim's points and cards,
    each given-up route."""
    names = ["Ann", "Bob", "Cem"]
    kinds = set()
    for seed in range(11, 17):
        game, actions = random_game_events("europe", 3, seed=seed)
        events = [e for evs in actions for e in split_events(evs)[0]]
        kinds |= _check_tunnel_lines(game.board, events, names)
    assert kinds == {"tunnel_decline", "tunnel_pay", "claim_route"}, kinds


def _check_tunnel_lines(board, events, names):
    reveals = [k for k, e in enumerate(events) if e["type"] == "tunnel_reveal"]
    assert reveals
    kinds = set()
    for k in reveals:
        e, nxt = events[k], events[k + 1:k + 3]
        kind = nxt[0]["type"] if nxt else None
        lines = F.event_lines(events[k:k + 3], board, names, "en")
        label = board.route_label(e["route"])
        revealed = F.card_list_text(e["revealed"], "en")
        if kind == "tunnel_decline":
            assert lines[0] == t("bot.ev.tunnel_gave_up", name=names[e["seat"]], route=label,
                                 revealed=revealed, count=e["extra"])
        elif kind in ("tunnel_pay", "claim_route"):
            claim = nxt[1] if kind == "tunnel_pay" else nxt[0]
            assert lines[0] == t("bot.ev.tunnel_claim", name=names[e["seat"]], route=label,
                                 length=board.routes[e["route"]].length, count=claim["points"],
                                 cards=F.cards_text(claim["cards"], "en"), revealed=revealed)
        else:
            continue
        kinds.add(kind)
        assert sum(label in x for x in lines) == 1, lines          # one line, not three
    for pending in (events[k] for k in reveals if events[k]["extra"]):   # still waiting
        assert F.event_lines([pending], board, names, "en") == [t(
            "bot.ev.tunnel_reveal", name=names[pending["seat"]],
            route=board.route_label(pending["route"]),
            cards=F.cards_text(pending["cards"], "en"),
            revealed=F.card_list_text(pending["revealed"], "en"), count=pending["extra"])]
    return kinds


def test_everyone_s_starting_tickets_are_one_line():
    names = ["Ann", "Bob", "Cem"]
    game = new_game("usa", 3, 2)
    kept = [{"type": "keep_tickets", "seat": s, "count": 2 + s, "setup": True} for s in range(3)]
    assert F.event_lines(kept, game.board, names, "en") == [
        "Starting tickets kept: Ann 2, Bob 3, Cem 4."]
    assert F.event_lines(kept[:1], game.board, names, "en") == [
        t("bot.ev.keep_setup", name="Ann", count=2)]
