"""The texts of the leaderboard and the history pages (leaderboard_text.py): what each line says,
the empty states, the link to a final post, and a full history page that fits one message in
every language."""
import pytest

from ttr_bot.discord.text.format import LIMIT
from ttr_bot.discord.text.leaderboard_text import history_text, leaderboard_text, post_url
from ttr_bot.i18n import LOCALES, t
from ttr_bot.ratings import MIN_GAMES, Rating
from ttr_bot.service import (
    HistoryEntry,
    HistoryPage,
    HistoryPlayer,
    LeaderboardEntry,
    LeaderboardPage,
    PostedMessage,
)

GUILD = 123456789012345678


def entry(game_id, rated=True, post=True, names=("alice", "bob")):
    players = tuple(HistoryPlayer(name=n, user_id=i + 1, score=100 - i, rank=i + 1, won=i == 0)
                    for i, n in enumerate(names))
    return HistoryEntry(game_id=game_id, finished_at=1_700_000_000.5, map_id="europe",
                        variant="base", channel_id=5, players=players, rated=rated,
                        final_post=PostedMessage(987654321098765432, 876543210987654321)
                        if post else None)


def test_a_history_line_says_when_where_who_and_links_the_final_post():
    text = history_text(GUILD, HistoryPage(None, 1, 3, 11, (entry(7), entry(6, rated=False,
                                                                               post=False))), "en")
    lines = text.splitlines()
    assert lines[0] == t("bot.history.title", who=t("bot.stats.where.server"))
    url = f"https://discord.com/channels/{GUILD}/987654321098765432/876543210987654321"
    assert lines[1] == ("**Game 7** · <t:1700000000:d> · Europe · alice 100 👑, bob 99 · "
                        f"[final post]({url})")
    assert lines[2] == "**Game 6** · <t:1700000000:d> · Europe · alice 100 👑, bob 99 · not rated"
    assert lines[-1] == t("bot.history.footer", page=1, pages=3, total=11)
    assert post_url(GUILD, PostedMessage(1, 2)) == f"https://discord.com/channels/{GUILD}/1/2"


def test_empty_pages_say_why():
    assert history_text(GUILD, HistoryPage(None, 1, 1, 0, ()), "en").endswith(
        t("bot.history.none"))
    assert history_text(GUILD, HistoryPage(42, 1, 1, 0, ()), "en").endswith(
        t("bot.history.none_user", who="<@42>"))
    assert leaderboard_text(LeaderboardPage(GUILD, None, 1, 1, 0, ()), "en").endswith(
        t("bot.board.empty", count=MIN_GAMES))
    assert leaderboard_text(LeaderboardPage(GUILD, "nordic", 1, 1, 0, ()), "en").endswith(
        t("bot.board.empty_map", map=t("bot.map.nordic"), count=MIN_GAMES))


def test_a_leaderboard_line():
    page = LeaderboardPage(GUILD, "usa", 2, 2, 11,
                           (LeaderboardEntry(11, 77, Rating(30.0, 2.5), 22.5, 9, 4),))
    lines = leaderboard_text(page, "en").splitlines()
    assert lines[0] == "🏆 **Leaderboard** — this server, USA"
    # the display rating: 1000 + 40 (mu - 3 sigma), no model figures (docs/ratings.md)
    assert lines[1] == "**11.** <@77> — **1900** · 9 rated games, 4 on this map"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_full_history_page_fits_one_message(locale):
    long = tuple("ก" * 32 if locale == "th" else "W" * 32 for _ in range(5))
    page = HistoryPage(2**63 - 1, 1, 999, 4995, tuple(entry(10**9 + i, names=long)
                                                      for i in range(5)))
    text = history_text(GUILD, page, locale)
    assert len(text) <= LIMIT and text.count("https://discord.com/channels/") == 5
