"""The one error handler: the right sentence in the player's language, and an answer that
works whether the interaction was answered, deferred, or has expired."""
import logging

import discord
import pytest

from ttr_bot.discord import errors
from ttr_bot.engine.errors import Illegal
from ttr_bot.i18n import reason, t
from ttr_bot.service import ServiceError

pytestmark = pytest.mark.asyncio


class FakeResponse:
    def __init__(self, done=False, fail=None):
        self.done, self.fail, self.sent = done, fail, []

    def is_done(self):
        return self.done

    async def send_message(self, content, **kw):
        if self.fail:
            raise self.fail
        self.done = True
        self.sent.append((content, kw))


class FakeFollowup:
    def __init__(self, fail=None):
        self.fail, self.sent = fail, []

    async def send(self, content, **kw):
        if self.fail:
            raise self.fail
        self.sent.append((content, kw))


class FakeClient:
    def locale_hint(self, interaction):
        return "en"


class FakeInteraction:
    def __init__(self, done=False, fail=None):
        self.response = FakeResponse(done, fail if not done else None)
        self.followup = FakeFollowup(fail if done else None)
        self.client = FakeClient()
        self.id, self.channel_id, self.guild_id, self.command = 1, 2, 3, None
        self.user = type("U", (), {"id": 4})()
        self.data = {"custom_id": "ttr:draw:1:2:deck"}
        self.extras = {}


class FakeHTTPResponse:
    def __init__(self, status):
        self.status, self.reason = status, "x"


def not_found(code):
    return discord.NotFound(FakeHTTPResponse(404), {"code": code, "message": "Unknown"})


async def test_illegal_move_gets_the_engine_reason_ephemerally():
    inter = FakeInteraction()
    await errors.handle(inter, ServiceError("service.illegal", illegal=Illegal("not_your_turn")))
    (content, kw), = inter.response.sent
    assert content == reason(Illegal("not_your_turn"), "en") and kw["ephemeral"]


async def test_after_a_defer_the_answer_is_a_followup():
    inter = FakeInteraction(done=True)
    await errors.handle(inter, ServiceError("service.stale"))
    assert inter.followup.sent[0][0] == t("service.stale") and inter.followup.sent[0][1]["ephemeral"]
    assert inter.response.sent == []


async def test_unexpected_errors_are_logged_and_answered_politely(caplog):
    inter = FakeInteraction(done=True)
    with caplog.at_level(logging.ERROR, logger="ttr_bot.discord.errors"):
        command = type("Command", (), {"name": "draw"})()
        await errors.handle(inter, discord.app_commands.CommandInvokeError(
            command, RuntimeError("secret internals")))
    content = inter.followup.sent[0][0]
    assert content == t("bot.error.unexpected")
    assert "secret" not in content and "Traceback" not in content
    assert any("ttr:draw:1:2:deck" in r.getMessage() and r.exc_info for r in caplog.records)


@pytest.mark.parametrize("done", [False, True])
async def test_an_expired_interaction_is_only_logged(done):
    inter = FakeInteraction(done=done, fail=not_found(10062 if not done else 10015))
    assert await errors.answer(inter, "hello") is False
    await errors.handle(inter, ServiceError("service.stale"))   # must not raise


async def test_expected_refusals_are_not_logged_as_errors(caplog):
    with caplog.at_level(logging.ERROR):
        await errors.handle(FakeInteraction(), errors.UserFacing("bot.claim.unknown_route"))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_missing_permissions_get_a_useful_sentence():
    forbidden = discord.Forbidden(FakeHTTPResponse(403), {"code": 50013, "message": "Missing"})
    text, expected = errors.message_for(forbidden, "en")
    assert expected and text == t("bot.error.cannot_post")
