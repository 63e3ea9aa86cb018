"""A turn's timers are typed (turns.Deadline, turns.RemindTimer) and still write the JSON every
version has written, so timers already in a database fire as before after an upgrade."""
import json

from testkit.sample_games import random_game
from ttr_bot.service.turns import (
    DEADLINE,
    REMIND,
    Deadline,
    GameOptions,
    RemindTimer,
    TurnKey,
    reminder_timer,
    turn_timers,
)


def test_a_turn_s_timers_write_the_payloads_older_versions_wrote_and_read_them_back():
    g = random_game("usa", 3, seed=2, until=0.3)
    seat = g.to_move()[0]
    timers = turn_timers(g, seat, GameOptions(deadline=72), now=1000.0)
    key = {"phase": "play", "turn": g.turn, "seat": seat}
    deadline = next(t for t in timers if t.kind == DEADLINE)
    # the JSON of before the types, key order included
    assert json.dumps(deadline.payload) == json.dumps({**key, "started": 1000.0,
                                                       "limit": 72 * 3600.0})
    reminders = [t for t in timers if t.kind == REMIND]
    assert [t.payload["n"] for t in reminders] == [1, 2]
    assert json.dumps(reminders[0].payload) == json.dumps(
        {**key, "n": 1, "deadline": 1000.0 + 72 * 3600.0, "started": 1000.0})
    for t in timers:
        typed = (Deadline if t.kind == DEADLINE else RemindTimer).from_payload(t.payload)
        assert typed.to_payload() == t.payload and typed.key == TurnKey("play", g.turn, seat)


def test_an_older_or_seatless_payload_reads_as_far_as_it_goes():
    old = Deadline.from_payload({"seat": 1, "started": 5.0, "limit": 10.0})
    assert old.key == TurnKey(None, None, 1) and not old.pushed
    assert Deadline.from_payload({"vote": 3}) is None
    assert RemindTimer.from_payload({}) is None
    pushed = Deadline.from_payload({"phase": "setup", "turn": 0, "seat": 2, "started": 1.0,
                                    "limit": 2.0, "pushed": True})
    assert pushed.pushed and list(pushed.to_payload())[-1] == "pushed"
    assert reminder_timer(TurnKey("setup", 0, 0), 2, 50.0, 1.0, None).payload == {
        "phase": "setup", "turn": 0, "seat": 0, "n": 2, "deadline": None, "started": 1.0}


def test_every_other_timer_kind_writes_its_older_json_and_reads_it_back():
    from ttr_bot.service.turns import AwayEnd, BotMove, Expel, VoteExpire
    older = [(BotMove, {"seq": 12}), (Expel, {"seat": 2, "timeouts": 3}), (VoteExpire, {"vote": 7}),
             (AwayEnd, {"user": 5, "guild": 9, "until": 1234.5})]
    for cls, payload in older:
        typed = cls.from_payload(payload)
        assert json.dumps(typed.to_payload()) == json.dumps(payload), cls.KIND
    assert AwayEnd.from_payload({"user": 5, "guild": 9}).until is None     # before `until`
    assert Expel.from_payload({}) is None
