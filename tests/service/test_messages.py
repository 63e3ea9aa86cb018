"""The outbox's typed messages (service/messages.py): rows already in a database when the bot
upgrades are still read (each kind's payload as earlier versions wrote it), what is written now
still holds every key they wrote, and a row that cannot be read becomes `Unreadable` (refused
and given up by the worker) instead of stopping the others."""
import pytest

from tests.service.svckit import open_store, timed_service
from ttr_bot.service import (
    ClosingPost,
    DirectMessage,
    HandoverPost,
    HandUpdate,
    Lane,
    Notice,
    Reminder,
    StartPost,
    ThinkingEdit,
    TurnPost,
    Unreadable,
    VotePost,
    VoteResult,
)
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.community_messages import (
    BoardPost,
    BoardSection,
    SeasonEndPost,
    SeasonLine,
)
from ttr_bot.service.cup_messages import CupFinal, CupPost, CupTableOpen
from ttr_bot.service.effects import Handover
from ttr_bot.service.messages import KINDS, parse
from ttr_bot.store import OutboxItem, Owed

EVENT = {"type": "draw_card", "seat": 0, "card": "red", "source": "face_up"}
LEFT = {"seat": 1, "name": "bob", "user_id": 11, "level": "medium", "reason": "left",
        "by": None, "host_id": None}

# (kind, payload as an earlier version stored it, the message it must read as)
OLD_ROWS = [
    ("start", {}, StartPost()),
    ("turn", {"events": [EVENT], "over": False, "by": None, "seat": 0, "next": 0,
              "computers": False},
     TurnPost(events=(EVENT,), seat=0, next=0)),
    ("turn", {"events": [EVENT], "over": False, "by": "timeout", "seat": 0, "next": 1,
              "computers": False, "ping": 11, "silent": True, "deadline": 5000.0,
              "away_until": 9000.0},
     TurnPost(events=(EVENT,), seat=0, by="timeout", next=1, ping=11, silent=True,
              deadline=5000.0, away_until=9000.0)),
    ("turn", {"events": [], "over": True, "by": None, "seat": 2},      # before next, computers
     TurnPost(events=(), seat=2, over=True)),
    ("thinking", {"seat": 1}, ThinkingEdit(1)),
    ("handover", dict(LEFT), HandoverPost(Handover(**LEFT))),
    ("cancel", {"reason": "vote", "handover": None}, ClosingPost("vote")),
    ("cancel", {"reason": None, "handover": dict(LEFT)}, ClosingPost(None, Handover(**LEFT))),
    ("notice", {"key": "bot.away.set", "params": {"name": "bob"}, "ping": [11]},
     Notice("bot.away.set", {"name": "bob"}, (11,))),
    ("reminder", {"seat": 0, "user": 10, "deadline": None, "n": 1},   # before the turn's name
     Reminder(seat=0, user=10, n=1)),
    ("reminder", {"seat": 0, "user": 10, "deadline": 700.0, "n": 2, "guild": 1,
                  "phase": "play", "turn": 4},
     Reminder(seat=0, user=10, deadline=700.0, n=2, guild=1, phase="play", turn=4)),
    ("reminder", {"key": "bot.remind.dm", "params": {"channel": "<#5>"}, "game": 3, "seat": 0,
                  "user": 10, "deadline": None, "n": 1, "guild": 1, "phase": "setup",
                  "turn": 0},
     Reminder(seat=0, user=10, n=1, guild=1, phase="setup", turn=0, key="bot.remind.dm",
              params={"channel": "<#5>"}, game=3)),
    ("vote", {"vote": 7}, VotePost(7)),
    ("vote_result", {"vote": 7, "status": "passed"}, VoteResult(7, "passed")),
    ("hand", {"seat": 1, "user": 11, "why": "offer"}, HandUpdate(1, 11, "offer")),
    ("hand", {"seat": 1, "user": 11, "why": None}, HandUpdate(1, 11)),
    ("dm", {"key": "bot.vote.dm", "params": {"channel": "<#5>"}, "game": 3},
     DirectMessage("bot.vote.dm", {"channel": "<#5>"}, 3)),
    ("cup_post", {"cup": 4}, CupPost(4)),
    ("cup_table", {"cup": 4, "round": 2, "table": 3, "players": [10, 11]},
     CupTableOpen(4, 2, 3, (10, 11))),
    ("cup_final", {"cup": 4}, CupFinal(4)),
    ("season_end", {"guild": 1, "season": "2026-11", "role": None, "previous": None,
                    "lines": [{"rank": 1, "user_id": 10, "name": "ann", "points": 3,
                               "games": 2, "wins": 1, "score": 200}]},
     SeasonEndPost(1, "2026-11", (SeasonLine(1, 10, "ann", 3, 2, 1, 200),))),
    ("board", {"guild": 1, "digest": "ab", "sections": [
        {"name": "games", "items": [{"game": 4, "turn": ["ann"]}]},
        {"name": "cups", "items": []}]},
     BoardPost(1, "ab", (BoardSection("games", ({"game": 4, "turn": ["ann"]},)),
                         BoardSection("cups")))),
]


@pytest.mark.parametrize("kind, payload, message", OLD_ROWS,
                         ids=[f"{k}-{i}" for i, (k, *_) in enumerate(OLD_ROWS)])
def test_a_row_stored_by_an_earlier_version_reads_as_its_message(kind, payload, message):
    assert parse(kind, payload) == message
    assert message.KIND == kind
    # what is written now reads back as itself, and keeps every key earlier versions wrote
    written = message.to_payload()
    assert parse(kind, written) == message
    for key, value in payload.items():
        assert written[key] == value, key


def test_every_kind_has_an_old_row():
    assert {kind for kind, *_ in OLD_ROWS} == set(KINDS)


def test_a_row_this_version_cannot_read_is_unreadable_not_an_error():
    unknown = parse("telegram", {"to": 1})
    assert isinstance(unknown, Unreadable) and unknown.kind == "telegram"
    broken = parse("hand", {"why": "turn"})         # no seat, no user
    assert isinstance(broken, Unreadable) and broken.kind == "hand"


def test_lanes_read_what_they_write():
    for lane in (Lane.channel(123), Lane.user(45), Lane.later(45)):
        assert Lane.parse(str(lane)) == lane
    assert str(Lane.channel(123)) == "c123" and str(Lane.user(45)) == "u45" and \
        str(Lane.later(45)) == "q45"
    assert Lane.parse("c123").channel_id == 123 and Lane.parse("q45").user_id == 45
    assert Lane.parse("q45").is_later and not Lane.parse("u45").is_channel
    for bad in ("", "c", "x12", "cabc"):
        with pytest.raises(ValueError):
            Lane.parse(bad)
    with pytest.raises(ValueError):
        assert Lane.parse("u45").channel_id is None    # a player's DMs have no channel


@pytest.mark.asyncio
async def test_the_service_hands_out_typed_messages_of_stored_rows(db_path):
    """What the delivery worker reads: rows of every kind, written as an earlier version did,
    come out as OwedMessages with their Lane and message; an unknown one as Unreadable."""
    store = await open_store(db_path)
    svc = timed_service(store, ManualClock(1000.0))
    game_id = await store.create_game(guild_id=1, channel_id=5, map="usa", variant="base",
                                      options={}, seed=1, host_id=10)
    items = [OutboxItem(kind, "c5" if kind not in ("hand", "dm") else "u11", payload)
             for kind, payload, _ in OLD_ROWS]
    items.append(OutboxItem("telegram", "q11", {"to": 1}))
    await store.write_owed(Owed(tuple(items)), game_id, 1000.0)
    owed = await svc.queue.owed_messages()
    assert [m.message for m in owed[:-1]] == [message for *_, message in OLD_ROWS]
    assert [m.lane for m in owed[:2]] == [Lane.channel(5)] * 2
    assert owed[-1].lane == Lane.later(11) and owed[-1].kind == "telegram"
    assert isinstance(owed[-1].message, Unreadable)
    assert all(m.game_id == game_id for m in owed)
    await svc.close()
