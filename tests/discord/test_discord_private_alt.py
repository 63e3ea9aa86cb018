"""The private board's alt text says what its ticket tags say: the offer lettered as the menu,
the kept tickets numbered as the panel with done or open as the engine says; nobody else's
tickets; within Discord's 1,024 characters in every language. The choice menu, the offer's
text and the map tag the offer with the same letters, never the kept tickets' numbers."""
import pytest

from testkit.sample_games import PLAYERS, greedy_game
from ttr_bot.discord.controls.components import KeepSelect
from ttr_bot.discord.text.format import offer_lines
from ttr_bot.discord.text.private_alt import ALT_MAX, private_board_alt
from ttr_bot.engine.actions import DrawTickets
from ttr_bot.engine.final_scores import final_scores
from ttr_bot.i18n import LOCALES, t
from ttr_bot.render.tickets import OFFER, private_marks


def choosing():
    g = greedy_game("europe", PLAYERS["europe"], seed=7, until=0.5).copy()
    seat = g.to_move()[0]
    g.apply(DrawTickets(seat))
    return g, seat


def test_the_offer_and_the_kept_tickets_in_words():
    g, seat = choosing()
    text = private_board_alt(g, seat, "en")
    board = g.board
    for tag, tid in zip("ABCDE", g.offers[seat]):          # lettered as the menu and the map
        assert f"{tag}. {board.tickets[tid].label()}" in text
    done = [tk["completed"] for tk in final_scores(g)[0][seat]["tickets"]]
    for i, (tid, ok) in enumerate(zip(g.tickets[seat], done), 1):
        ticket = board.tickets[tid]
        points = "/".join(map(str, ticket.points))
        word = "bot.alt.ticket_done" if ok else "bot.alt.ticket_open"
        assert t(word, "en", n=i, ticket=f"{ticket.label()} ({points})") in text
    # the others' tickets are not in it (hidden information)
    mine = {board.tickets[x].label() for x in g.tickets[seat] + list(g.offers[seat])}
    for other in range(g.n):
        if other != seat:
            for x in g.tickets[other]:
                if board.tickets[x].label() not in mine:
                    assert board.tickets[x].label() not in text


@pytest.mark.parametrize("loc", LOCALES)
def test_it_fits_discords_limit_in_every_language(loc):
    g, seat = choosing()
    for _ in range(3):                        # many tickets: still within the limit
        g.tickets[seat] = g.tickets[seat] + g.tickets[(seat + 1) % g.n]
    text = private_board_alt(g, seat, loc)
    assert 0 < len(text) <= ALT_MAX


def test_the_menu_the_offers_text_and_the_map_tag_the_offer_alike():
    g, seat = choosing()
    offer = g.offers[seat]
    rows, marks = private_marks(g, seat)
    tags = [m.number for m in marks if m.state == OFFER]
    kept = [m.number for m in marks if m.state != OFFER]
    assert tags == ["A", "B", "C"][:len(offer)] and kept == list(range(1, len(kept) + 1))
    select = KeepSelect(1, 2, offer, 1, g.board, "en").item
    lines = offer_lines(g.board, offer, 1, "en")[1:]
    for tag, row, option, line in zip(tags, rows, select.options, lines):
        assert option.label.startswith(f"{tag}. ") and line.startswith(f"{tag}. ")
        assert row.label in option.label and row.label in line
