"""A player's statistics from result rows (ttr_bot/stats.py) and their text fallback."""
import pytest

from ttr_bot.i18n import LOCALES, t
from ttr_bot.ratings import MIN_GAMES, Rating
from ttr_bot.stats import DASH, player_stats, stats_lines
from ttr_bot.store import ResultRecord

ME, OTHER = 7, 8


def row(game, score, won, m="usa", user=ME, former=None, done=3, failed=1, longest=False):
    return ResultRecord(game_id=game, seat=0, user_id=user, score=score, rank=1 if won else 2,
                        won=won, tickets_completed=done, map=m, variant="base",
                        finished_at=1000.0 + game, former_user_id=former, tickets_failed=failed,
                        longest_bonus=longest)


ROWS = [
    row(1, 120, True, longest=True), row(2, 90, False), row(3, 101, False, "europe", failed=2),
    row(4, 140, True, "usa", done=5, failed=0, longest=True),
    row(5, 77, False, "europe", user=None, former=ME, done=1, failed=4),    # left: a computer finished
    row(6, 150, True, user=OTHER),                                           # someone else's seat
]


def test_figures():
    s = player_stats(ME, ROWS, name="Ann")
    assert (s.games, s.left, s.wins, s.win_pct) == (5, 1, 2, 40)
    assert s.mean_score == pytest.approx((120 + 90 + 101 + 140) / 4)      # the left game has no score
    assert s.best_score == 140
    assert (s.tickets_completed, s.tickets_failed, s.longest_bonuses) == (3 + 3 + 3 + 5, 1 + 1 + 2 + 0, 2)
    assert s.favourite_map == "usa"
    assert [(m.map, m.games, m.wins, m.best_score) for m in s.maps] == [("usa", 3, 2, 140),
                                                                     ("europe", 2, 0, 101)]
    assert s.maps[1].mean_score == pytest.approx(101)
    assert s.rating_state == "none"


def test_one_map():
    s = player_stats(ME, ROWS, name="Ann", map_id="europe", where="global")
    assert (s.games, s.left, s.wins, s.best_score) == (2, 1, 0, 101)
    assert [m.map for m in s.maps] == ["europe"]


def test_no_games():
    s = player_stats(ME, [row(6, 150, True, user=OTHER)], name="Ann")
    assert s.empty and s.games == 0 and s.win_pct == 0
    assert s.mean_score is None and s.best_score is None and s.favourite_map is None
    assert s.maps == ()
    for locale in LOCALES:
        lines = stats_lines(s, locale)
        assert lines == [t("bot.stats.title", locale, name="Ann", where=t("bot.stats.where.server", locale)),
                         t("bot.stats.none", locale)]


def test_rows_from_before_lack_two_figures():
    """Results stored before the store kept tickets_failed and the longest-path bonus have
    them as None: the text leaves them out rather than showing a wrong 0."""
    recs = [ResultRecord(game_id=1, seat=0, user_id=ME, score=100, rank=1, won=True,
                         tickets_completed=4, map="usa", variant="base", finished_at=1.0),
            ResultRecord(game_id=2, seat=1, user_id=ME, score=80, rank=2, won=False,
                         tickets_completed=2, map="nordic", variant="base", finished_at=2.0)]
    s = player_stats(ME, recs, name="Ann")
    assert (s.games, s.wins, s.tickets_completed) == (2, 1, 6)
    assert s.tickets_failed is None and s.longest_bonuses is None
    text = "\n".join(stats_lines(s, "en"))
    assert "Tickets completed: 6" in text and "Longest" not in text and "failed" not in text


def test_rating_states():
    base = dict(name="Ann")
    assert player_stats(ME, ROWS, **base).rating_state == "none"
    s = player_stats(ME, ROWS, rating=Rating(27.0, 7.0), rated_games=MIN_GAMES - 1, **base)
    assert s.rating_state == "provisional"
    assert any(f"{MIN_GAMES - 1} of {MIN_GAMES}" in line for line in stats_lines(s, "en"))
    s = player_stats(ME, ROWS, rating=Rating(30.0, 2.5), rated_games=MIN_GAMES, **base)
    assert s.rating_state == "rated"
    # the display rating 1000 + 40 (mu - 3 sigma) = 1900, no model figures
    assert "Rating: **1900** (5 rated games)" in stats_lines(s, "en")


def test_text_fallback_english():
    s = player_stats(ME, ROWS, name="Ann", rating=Rating(30.0, 2.5), rated_games=9)
    assert stats_lines(s, "en") == [
        "📊 **Ann** — this server",
        "Games: 5 · wins: 2 (40%)",
        "Rating: **1900** (9 rated games)",
        "Mean score: 112.8 · best: 140",
        "Tickets: 14 completed, 4 failed",
        "Longest-path bonuses: 2",
        "Left early: 1",
        "Favourite map: USA",
        "USA: 3 games, 2 won, mean score 116.7",
        "Europe: 2 games, 0 won, mean score 101.0",
    ]


@pytest.mark.parametrize("locale", LOCALES)
def test_text_fallback_every_language(locale):
    s = player_stats(ME, ROWS, name="سارا", rating=Rating(30.0, 2.5), rated_games=9, map_id="usa")
    lines = stats_lines(s, locale)
    assert len(lines) >= 6 and all(lines)
    assert all("{" not in line for line in lines)
    assert "سارا" in lines[0] and t("bot.map.usa", locale) in lines[0]
    assert "1900" in "\n".join(lines)


def test_dash_for_a_missing_figure():
    from ttr_bot.stats import figure
    assert figure(None) == DASH and figure(-0.04) == "0.0" and figure(3) == "3"
