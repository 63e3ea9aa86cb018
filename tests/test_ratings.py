"""Ratings (ttr_bot/ratings.py) against values computed by hand from Weng & Lin's
Plackett–Luce update (Algorithm 4), with openskill's default parameters:

    mu0 = 25, sigma0 = 25/3, beta = 25/6, tau = 25/300, kappa = 1e-4
    s2   = sigma^2 + tau^2                     (tau is added before the game)
    c    = sqrt(sum over players of (s2 + beta^2))
    C_q  = sum of exp(mu_s / c) over the players s placed at q or below
    p_iq = exp(mu_i / c) / C_q
    Omega_i = sum over q <= place(i) of  (1 - p_iq) if q = i, else -p_iq
    Delta_i = gamma * s2 / c^2 * sum over q <= place(i) of p_iq (1 - p_iq),  gamma = sqrt(s2) / c
    mu'  = mu + s2 / c * Omega_i
    sigma' = sqrt(s2) * sqrt(max(1 - Delta_i, kappa))

With equal priors every exp(mu/c) is the same, so p_iq = 1 / (players left at stage q).
For new players: s2 = 625/9 + 1/144 = 69.451389 and s2 + beta^2 = 69.451389 + 17.361111
= 86.8125. A tie is rated as the mean over the orders of the tied players (see the module).
"""
import pytest

from ttr_bot import ratings as R
from ttr_bot.i18n import LOCALES, t
from ttr_bot.ratings import RatedSeat, Rating, is_rated, placings, rate, rules_lines

TOL = 1e-5


def seat(user, rank, human=40, total=40, left=False):
    return RatedSeat(user, rank, human, total, left)


def check(got, mu, sigma):
    assert got.mu == pytest.approx(mu, abs=TOL), (got, mu)
    assert got.sigma == pytest.approx(sigma, abs=TOL), (got, sigma)


# ----- two players ---------------------------------------------------------------------------

def test_two_new_players():
    # c = sqrt(2 * 86.8125) = sqrt(173.625) = 13.176684;  s2 / c = 69.451389 / 13.176684 = 5.270779
    # winner: Omega = 1 - 1/2 = 1/2            -> mu' = 25 + 5.270779 / 2 = 27.635389
    # loser:  Omega = -1/2 + (1 - 1) = -1/2    -> mu' = 22.364611
    # gamma = 8.333750 / 13.176684 = 0.632462;  s2 / c^2 = 0.400008
    # both:   Delta = 0.632462 * 0.400008 * (1/2 * 1/2) = 0.063248
    #         sigma' = 8.333750 * sqrt(1 - 0.063248) = 8.065901
    new = rate({}, [seat(1, 1), seat(2, 2)])
    check(new[1], 27.635389, 8.065901)
    check(new[2], 22.364611, 8.065901)


def test_two_players_with_ratings():
    # A (30, 5) beats B (25, 25/3).  s2_A = 25 + 1/144 = 25.006944,  s2_B = 69.451389
    # c = sqrt(25.006944 + 69.451389 + 2 * 17.361111) = sqrt(129.180556) = 11.365762
    # p_A0 = 1 / (1 + exp(-(30 - 25) / c)) = 1 / (1 + exp(-0.439918)) = 0.608239
    # A: Omega = 1 - 0.608239 = 0.391761   -> mu' = 30 + 25.006944 / 11.365762 * 0.391761 = 30.861951
    # B: Omega = -(1 - 0.608239) + 0     -> mu' = 25 - 69.451389 / 11.365762 * 0.391761 = 22.606116
    # p(1-p) = 0.608239 * 0.391761 = 0.238284
    # A: Delta = (5.000694 / 11.365762) * (25.006944 / 129.180556) * 0.238284 = 0.020295
    #    sigma' = 5.000694 * sqrt(1 - 0.020295) = 4.949690
    # B: Delta = (8.333750 / 11.365762) * (69.451389 / 129.180556) * 0.238284 = 0.093934
    #    sigma' = 8.333750 * sqrt(1 - 0.093934) = 7.932690
    new = rate({1: Rating(30, 5), 2: None}, [seat(1, 1), seat(2, 2)])
    check(new[1], 30.861951, 4.949690)
    check(new[2], 22.606116, 7.932690)


# ----- three players --------------------------------------------------------------------------
# c = sqrt(3 * 86.8125) = 16.138076;  s2 / c = 4.303573;  gamma = 0.516403;  s2 / c^2 = 0.266672
# strict order, equal priors:
#   1st: Omega = 1 - 1/3 = 2/3               -> +2.869049;  sum p(1-p) = 2/9          -> sigma' 8.205243
#   2nd: Omega = -1/3 + (1 - 1/2) = 1/6      -> +0.717262;  sum = 2/9 + 1/4 = 17/36   -> sigma' 8.058224
#   3rd: Omega = -1/3 - 1/2 + 0 = -5/6       -> -3.586311;  sum = 17/36 + 0           -> sigma' 8.058224
FIRST3, SECOND3, THIRD3 = (2.869049, 8.205243), (0.717262, 8.058224), (-3.586311, 8.058224)


def test_three_strict():
    new = rate({}, [seat(1, 1), seat(2, 2), seat(3, 3)])
    check(new[1], 25 + FIRST3[0], FIRST3[1])
    check(new[2], 25 + SECOND3[0], SECOND3[1])
    check(new[3], 25 + THIRD3[0], THIRD3[1])


def test_three_with_a_tie_for_second():
    # ranks 1, 2, 2: the mean of the orders (1, 2, 3) and (1, 3, 2)
    #   tied: mu' = 25 + (0.717262 - 3.586311) / 2 = 23.565476;  sigma' = (8.058224 + 8.058224) / 2
    new = rate({}, [seat(1, 1), seat(2, 2), seat(3, 2)])
    check(new[1], 25 + FIRST3[0], FIRST3[1])
    check(new[2], 23.565476, 8.058224)
    check(new[3], 23.565476, 8.058224)


def test_three_with_a_tie_for_first():
    # ranks 1, 1, 3: the mean of (1, 2, 3) and (2, 1, 3)
    #   tied: mu' = 25 + (2.869049 + 0.717262) / 2 = 26.793155;  sigma' = (8.205243 + 8.058224) / 2 = 8.131734
    #   3rd:  as in every order: 25 - 3.586311, 8.058224 (the library's own tie term would give it
    #         only -1.434524: a tie above erases one stage of the elimination)
    new = rate({}, [seat(1, 1), seat(2, 1), seat(3, 3)])
    check(new[1], 26.793155, 8.131734)
    check(new[2], 26.793155, 8.131734)
    check(new[3], 25 + THIRD3[0], THIRD3[1])


def test_departed_player_is_last():
    # B left; the computer that took over B's seat finished 2nd. Rated: A 1st, C 2nd, B 3rd
    seats = [seat(1, 1), seat(2, 2, human=5, total=40, left=True), seat(3, 3)]
    assert placings(seats) == [(1, 1), (3, 2), (2, 3)]
    new = rate({}, seats)
    check(new[1], 25 + FIRST3[0], FIRST3[1])
    check(new[3], 25 + SECOND3[0], SECOND3[1])
    check(new[2], 25 + THIRD3[0], THIRD3[1])


def test_two_leavers_tie_for_last():
    seats = [seat(1, 3), seat(2, 1, left=True), seat(3, 2, left=True)]
    assert placings(seats) == [(1, 1), (2, 2), (3, 2)]
    new = rate({}, seats)
    check(new[1], 25 + FIRST3[0], FIRST3[1])
    check(new[2], 23.565476, 8.058224)
    check(new[3], 23.565476, 8.058224)


# ----- five players: ranks 1, 2, 2, 4, 5 -----------------------------------------------------------
# c = sqrt(5 * 86.8125) = 20.834167;  s2 / c = 3.333533;  gamma = 0.400004;  s2 / c^2 = 0.160003
# strict order 1..5, equal priors (p at stage q = 1 / (5 - q)):
#   1st: Omega = 4/5                              = 0.8       -> +2.666827   sum p(1-p) = 0.16     -> 8.290970
#   2nd: Omega = -1/5 + 3/4                       = 0.55      -> +1.833443   sum = 0.16 + 0.1875    -> 8.240555
#   3rd: Omega = -1/5 - 1/4 + 2/3                 = 13/60     -> +0.722266   sum = 0.3475 + 2/9     -> 8.180401
#   4th: Omega = -1/5 - 1/4 - 1/3 + 1/2           = -17/60    -> -0.944501   sum = 0.569722 + 1/4   -> 8.112195
#   5th: Omega = -1/5 - 1/4 - 1/3 - 1/2           = -77/60    -> -4.278034   sum = 0.819722 + 0     -> 8.112195
def test_five_with_a_tie_for_second():
    # tied 2nd/3rd: mu' = 25 + (1.833443 + 0.722266) / 2 = 26.277855;  sigma' = (8.240555 + 8.180401) / 2 = 8.210478
    # 4th and 5th: exactly as without the tie
    new = rate({}, [seat(1, 1), seat(2, 2), seat(3, 2), seat(4, 4), seat(5, 5)])
    check(new[1], 25 + 2.666827, 8.290970)
    check(new[2], 26.277855, 8.210478)
    check(new[3], 26.277855, 8.210478)
    check(new[4], 25 - 0.944501, 8.112195)
    check(new[5], 25 - 4.278034, 8.112195)
    assert new[2].mu > new[4].mu > new[5].mu


def test_library_tie_term_is_the_model_not_a_misuse():
    """What a quick trial saw: openskill's own ties, ranks=[1, 2, 2, 4, 5], give the 4th the
    same change as the tied 2nds. By hand, with the tie term A_q (players sharing a rank):
        Omega_i = sum over q <= place(i) of  (delta_iq - p_iq) / A_q
        stages: {1st} C = 5, {2nd, 2nd} C = 4 (A = 2), {4th} C = 2, {5th} C = 1
        tied 2nd: -1/5 + (1 - 1/4)/2 - (1/4)/2      = 0.05
        4th:      -1/5 - (1/4)/2 - (1/4)/2 + (1 - 1/2) = 0.05   -> both +0.05 * 3.333533 = +0.166677
    The tied pair is one stage, so the 4th is compared one stage fewer. Competition ranks are
    not the cause: dense ranks 1, 2, 2, 3, 4 give the same."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    for ranks in ([1, 2, 2, 4, 5], [1, 2, 2, 3, 4]):
        out = model.rate([[model.rating()] for _ in ranks], ranks=ranks)
        changes = [team[0].mu - 25 for team in out]
        assert changes[1] == pytest.approx(0.166677, abs=TOL)
        assert changes[2] == pytest.approx(0.166677, abs=TOL)
        assert changes[3] == pytest.approx(0.166677, abs=TOL)
    # ... which is why `rate` averages strict orders instead (test above: 4th -0.944501)


# ----- which games are rated --------------------------------------------------------------------

def test_computer_players_do_not_enter_the_match():
    # two humans and a computer that won: the humans are ranked among themselves (1, 2)
    seats = [RatedSeat(None, 1), seat(1, 2), seat(2, 3)]
    assert is_rated(seats) == (True, None)
    new = rate({}, seats)
    assert set(new) == {1, 2}
    check(new[1], 27.635389, 8.065901)
    check(new[2], 22.364611, 8.065901)


@pytest.mark.parametrize("seats, reason", [
    ([seat(1, 1)], "bot.ratings.unrated.one_human"),
    ([seat(1, 2), RatedSeat(None, 1), RatedSeat(None, 3)], "bot.ratings.unrated.one_human"),
    # the second human's seat was played by a computer for 11 of 40 turns (> a quarter)
    ([seat(1, 1), seat(2, 2, human=29, total=40)], "bot.ratings.unrated.stand_ins"),
    # one stayed (as a stand-in), two left: nobody who stayed is rated
    ([seat(1, 1, human=10), seat(2, 2, left=True), seat(3, 3, left=True)],
     "bot.ratings.unrated.stand_ins"),
])
def test_unrated_games(seats, reason):
    assert is_rated(seats) == (False, reason)
    assert rate({1: Rating(30, 4)}, seats) == {}
    assert placings(seats) == []
    assert t(reason, "en")


def test_a_quarter_of_the_turns_by_a_computer_is_still_rated():
    seats = [seat(1, 1), seat(2, 2, human=30, total=40), seat(3, 3, human=29, total=40)]
    assert R.seat_status(seats[1]) == "rated"           # exactly a quarter
    assert R.seat_status(seats[2]) == "stand_in"        # more than a quarter
    assert is_rated(seats) == (True, None)
    assert set(rate({}, seats)) == {1, 2}


def test_a_leaver_is_rated_however_early():
    seats = [seat(1, 1, human=1, total=40, left=True), seat(2, 2)]
    assert placings(seats) == [(2, 1), (1, 2)]
    new = rate({}, seats)
    check(new[2], 27.635389, 8.065901)
    check(new[1], 22.364611, 8.065901)


def test_a_user_in_two_seats_is_an_error():
    with pytest.raises(ValueError):
        is_rated([seat(1, 1), seat(1, 2)])


# ----- properties -----------------------------------------------------------------------------------

def test_deterministic_and_independent_of_seat_order():
    before = {1: Rating(27.1, 6.2), 2: Rating(24.0, 7.7), 3: None, 4: Rating(31.5, 3.9)}
    seats = [seat(1, 2), seat(2, 1), seat(3, 2), seat(4, 4)]
    a = rate(before, seats)
    b = rate(dict(before), list(reversed(seats)))
    assert a == rate(before, seats)                      # same floats, bit for bit
    assert a == b                                        # the seats' order does not matter
    assert before[1] == Rating(27.1, 6.2)                # the input is not changed


def test_ratings_round_trip_as_two_floats():
    r = rate({}, [seat(1, 1), seat(2, 2)])[1]
    d = r.to_dict()
    assert set(d) == {"mu", "sigma"} and all(isinstance(v, float) for v in d.values())
    assert Rating.from_dict(d) == r
    assert r.conservative == pytest.approx(r.mu - 3 * r.sigma)
    assert Rating().conservative == pytest.approx(0.0)


def test_five_all_tied_is_the_mean_of_all_orders():
    new = rate({}, [seat(u, 1) for u in range(1, 6)])
    # the mean of the five places' changes: (2.666827 + 1.833443 + 0.722266 - 0.944501 - 4.278034) / 5 = 0
    for u in range(1, 6):
        assert new[u].mu == pytest.approx(25.0, abs=TOL)
    assert len({(r.mu, r.sigma) for r in new.values()}) == 1


@pytest.mark.parametrize("locale", LOCALES)
def test_rules_text(locale):
    lines = rules_lines(locale)
    assert len(lines) == len(R.RULE_KEYS) and all(lines)
    text = "\n".join(lines)
    assert "25%" in text or "25٪" in text
    assert str(R.MIN_GAMES) in text
