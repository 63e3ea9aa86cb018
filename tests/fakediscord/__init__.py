"""A small socket-level fake Discord (REST + gateway) for end-to-end tests of the real bot.

See server.py for the test-facing API.
"""
from .interactions import Callback, InteractionHandle
from .server import FakeDiscord
from .state import Channel, Clock, Guild, ManualClock, Message, Role, User, Violation

__all__ = [
    "Callback", "Channel", "Clock", "FakeDiscord", "Guild", "InteractionHandle", "ManualClock",
    "Message", "Role", "User", "Violation",
]
