"""A small socket-level fake Discord (REST + gateway) for end-to-end tests of the real bot.

Every REST body is checked against Discord's OpenAPI description (testkit/data/discord-api-spec,
spec.py) and Discord's hard limits. Used by the end-to-end tests (tests/discord/test_e2e*.py,
tests/test_fakediscord*.py) and by the tools that run the real bot against it
(tools/turn_card_sample.py, tools/bench: discord, outbox, channel, cards, finale). See
server.py for the test-facing API and README.md beside this file.
"""
from .interactions import Callback, InteractionHandle
from .server import FakeDiscord
from .state import Channel, Clock, Guild, ManualClock, Message, Role, User, Violation

__all__ = [
    "Callback", "Channel", "Clock", "FakeDiscord", "Guild", "InteractionHandle", "ManualClock",
    "Message", "Role", "User", "Violation",
]
