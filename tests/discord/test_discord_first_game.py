"""A first game without a manual: /ttr help fits one phone screen in every language and names
the buttons as they read; /ttr rules teaches the base game before the map's differences; the
final post shows friendly ratings, never an unexplained negative one to a newcomer; an open
ticket is not drawn with the white card's square; a computer seat is not "(computer)" twice."""
import pytest

from ttr_bot.discord.commands.info import HELP_KEYS, command_lines, help_lines
from ttr_bot.discord.posting.finale import rating_lines
from ttr_bot.discord.text.card_text import standing_line, standings_lines
from ttr_bot.discord.text.format import EMOJI, chunks, hand_lines, map_title
from ttr_bot.discord.text.rules_text import base_lines, differences, overview_lines, rules_lines
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.view import view
from ttr_bot.i18n import LOCALES, t
from ttr_bot.maps import load_board
from ttr_bot.ratings import MIN_GAMES, RatedSeat, Rating, display_rating, rate
from ttr_bot.service import map_board, playable_maps
from ttr_bot.service.records import GameRating, RatingDelta

MAPS = ("usa", "europe", "switzerland", "nordic")


@pytest.mark.parametrize("loc", LOCALES)
def test_help_fits_one_phone_screen_and_names_the_buttons(loc):
    text = "\n".join(help_lines(loc))
    assert len(text) <= 2000 and len(text.splitlines()) <= 20, (len(text), text)
    for button in ("deck", "claim", "station", "tickets", "hand", "join", "start"):
        assert f"**{t('bot.btn.' + button, loc)}**" in text.replace("\u2068", "").replace(
            "\u2069", ""), button
    assert "μ" not in text and "σ" not in text               # no rating maths here


@pytest.mark.parametrize("loc", LOCALES)
def test_all_commands_lists_every_command_in_messages_discord_takes(loc):
    parts = chunks(command_lines(loc))
    assert all(len(p) <= 2000 for p in parts)
    joined = "\n".join(parts)
    for key in HELP_KEYS:
        assert f"`/ttr {key}`" in joined


@pytest.mark.parametrize("loc", LOCALES)
@pytest.mark.parametrize("map_id", MAPS)
def test_rules_teach_the_base_game_then_the_map(map_id, loc):
    board = load_board(map_id, "base")
    lines = rules_lines(board, loc)
    title = lines.index(t("bot.rules.title", loc, map=map_title(board, loc)))
    base = lines[:title]
    for key in ("bot.rules.turn", "bot.rules.turn_draw", "bot.rules.turn_claim",
                "bot.rules.ticket_score"):
        assert t(key, loc) in base
    table = " · ".join(f"{n}→{p}" for n, p in sorted(board.rules.route_points.items()))
    assert t("bot.rules.scoring", loc, table=table) in base
    assert t("bot.rules.end", loc, trains=board.rules.end_trains) in base
    assert (t("bot.rules.faceup_loco", loc) in base) == board.rules.faceup_locomotive_limit
    assert all(len(p) <= 2000 for p in chunks(lines))


@pytest.mark.parametrize("loc", LOCALES)
def test_rules_without_a_game_teach_the_game_then_each_map_in_a_line(loc):
    maps = [(m, map_board(m), vs) for m, vs in playable_maps()]
    lines = overview_lines(maps, loc)
    text = "\n".join(lines)
    # one message: the game in 11 lines, then a line per map of at most three facts
    assert len(chunks(lines)) == 1 and len(lines) <= 12 + len(maps), (len(text), len(lines))
    usa = map_board("usa")
    assert lines[:lines.index("")] == base_lines(usa, loc)          # the original game taught
    table = " · ".join(f"{n}→{p}" for n, p in sorted(usa.rules.route_points.items()))
    assert t("bot.rules.scoring", loc, table=table) in lines
    brief = lines[lines.index(t("bot.rules.maps", loc)) + 1:]
    assert len(brief) == len(maps)
    bare = [x.replace("\u2068", "").replace("\u2069", "") for x in brief]    # Persian isolates
    by_map = {m: brief[next(i for i, x in enumerate(bare) if f"**{t('bot.map.' + m, loc)}**" in x)]
              for m, _, _ in maps}
    assert t("bot.rules.brief.same", loc) in by_map["usa"]
    assert t("bot.variant.mega", loc) in by_map["usa"]
    assert t("bot.rules.brief.stations", loc, count=3) in by_map["europe"]   # the rules' own figures
    assert t("bot.rules.brief.players", loc, min=2, max=3) in by_map["switzerland"]
    assert t("bot.rules.brief.tunnels", loc) in by_map["nordic"]
    nordic = differences(map_board("nordic"), usa, loc)      # all of them, the line's first
    assert t("bot.rules.brief.long_routes", loc, length=9, points=27) in nordic
    assert t("bot.rules.brief.no_longest", loc) in nordic
    assert all(f in by_map["nordic"] for f in nordic[:3])
    # a map's own rules come first: Pennsylvania's line is about its shares
    assert t("bot.rules.brief.mech.shares", loc, most=30) in by_map["pennsylvania"]
    assert t("bot.rules.brief.tunnels", loc) not in by_map["usa"]


def test_the_scoring_table_is_the_rules_one():
    lines = rules_lines(load_board("usa", "base"), "en")
    assert "1→1 · 2→2 · 3→4 · 4→7 · 5→10 · 6→15 · 7→18 · 8→21" in "\n".join(lines)
    assert any("counts as two cards" in line for line in lines)


def _first_game():
    """Two newcomers' first rated game: ann wins, bob loses."""
    return rate({}, [RatedSeat(1, 1, 10, 10), RatedSeat(2, 2, 10, 10)])


def test_a_newcomers_first_loss_shows_no_negative_number():
    after = _first_game()
    assert after[2].conservative < 0                # the model's own figure would be negative
    lines = rating_lines(GameRating(True, None, (
        RatingDelta(1, "ann", None, after[1], 1), RatingDelta(2, "bob", None, after[2], 1))),
        "en")
    bob = next(line for line in lines if line.startswith("bob"))
    assert bob == t("bot.end.rating_new", name="bob", after=display_rating(after[2]), played=1,
                    count=MIN_GAMES)
    assert "-" not in bob and "−" not in bob and display_rating(after[2]) > 0
    assert display_rating(Rating()) == 1000


def test_an_established_player_sees_the_change_with_its_sign():
    before = Rating(30.0, 2.0)
    after = Rating(29.0, 1.9)
    lines = rating_lines(GameRating(True, None, (
        RatingDelta(3, "cy", before, after, MIN_GAMES + 3),)), "en")
    change = display_rating(after) - display_rating(before)
    assert change < 0
    assert lines[-1] == f"cy: {display_rating(before)} → **{display_rating(after)}** (−{-change})"
    # still provisional in the 3rd game: the rating, not the change
    lines = rating_lines(GameRating(True, None, (RatingDelta(3, "cy", before, after, 3),)), "en")
    assert "→" not in lines[-1] and "3 of 5" in lines[-1]


@pytest.mark.parametrize("loc", LOCALES)
def test_an_open_ticket_is_not_the_white_cards_square(loc):
    game = Game(load_board("usa", "base"), 2, Dealer(4))
    game.tickets[0] = list(game.offers[0])
    text = "\n".join(hand_lines(view(game, 0), loc))
    ticket_lines = [line for line in text.splitlines() if "(" in line and "–" in line]
    assert ticket_lines and all(EMOJI["white"] not in line for line in ticket_lines)
    assert t("bot.hand.ticket_open", loc, ticket="x").split("x")[0].strip("\u2068 ") != EMOJI["white"]


@pytest.mark.parametrize("loc", LOCALES)
def test_a_computer_seat_is_named_once(loc):
    """The name the lobby gives a computer seat ("Bot 1 (hard)", tests/service/test_lobby.py)
    in the lines a turn card shows it in: its level once, no "(computer)" added."""
    name = "Bot 1 (hard)"
    game = Game(load_board("usa"), 2, Dealer(1))
    def lines(who):
        return [t("bot.turn.computer", loc, name=who), standing_line(game, 1, who, loc),
                standings_lines(game, ["Ann", who], loc)[-1]]
    for text, plain in zip(lines(name), lines("X")):
        assert text.count(name) == 1 and text.count("hard") == 1, text
        assert text.count("(") == plain.count("(") + 1, text    # nothing like "(computer)" added


@pytest.mark.parametrize("loc", ["en", "th", "fa", "ja"])
def test_the_rules_of_a_map_with_its_own_rules_state_its_figures(loc):
    """Italy, Pennsylvania and Northern Lights: each mechanic's line with the map's figures
    (RULES.md §14, §16, §17); Northern Lights' ferries are told by their own line alone."""
    def text(map_id):
        return "\n".join(rules_lines(load_board(map_id, "base"), loc))
    italy = text("italy")
    assert t("bot.rules.mech.ferry_cards", loc, max=2) in italy
    assert "15+→56" in italy and "5→1" in italy and "4→0" not in italy
    penn = text("pennsylvania")
    assert "15: 30/21/14/9/6" in penn and "2: 7/4" in penn
    lights = text("northern_lights")
    assert t("render.bonus_card.A", loc) + " +5" in lights
    assert t("bot.rules.mech.bonus_cards", loc, dealt=4, count=11, table="")[:12] in lights
    assert t("bot.rules.ferries", loc) not in lights
    assert t("bot.rules.mech.ferry_pairs", loc) in lights
    assert t("bot.rules.ferries", loc) in text("europe")
    # its triples: one lane with 2 players, two with 3, all three with 4 or 5 (§17.1)
    assert t("bot.rules.triple_lanes", loc, table="2→1 · 3→2 · 4→3 · 5→3") in lights
    assert t("bot.rules.triple", loc, count=4) in italy
