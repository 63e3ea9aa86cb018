"""What the Discord adapter asks the service to remember for it: the bot's own messages it edits
later (the lobby message, the turn panel) or links to (the final post), whose DMs are closed,
each user's and each server's language, and the last finished game of a user (for /ttr server
export). A collaborator of the service's core, so the adapter never touches the store."""
from __future__ import annotations

from typing import NamedTuple, Protocol

from ..store import MessageStore, PrefStore, ResultStore
from .confirm import CONFIRM, ConfirmSettings
from .core_contract import CoreContract


class AdapterStore(MessageStore, PrefStore, ResultStore, Protocol):
    """The store's subjects this part uses: the bot's messages, users' and servers' preferences, a
    user's results."""


FINAL_POST = "final"          # the kind of the final post's message (store.finished_games reads it)


class PostedMessage(NamedTuple):
    channel_id: int
    message_id: int


class AdapterState:
    def __init__(self, core: CoreContract) -> None:
        self.core = core
        self.store: AdapterStore = core.store

    async def posted_message(self, game_id: int, kind: str) -> PostedMessage | None:
        """The message of this kind ("lobby", "panel") the bot posted for the game, or None."""
        ref = await self.store.get_message(game_id, kind)
        return None if ref is None else PostedMessage(ref.channel_id, ref.message_id)

    async def remember_message(self, game_id: int, kind: str, channel_id: int,
                               message_id: int) -> None:
        """Remember the game's message of this kind, replacing the previous one."""
        await self.store.set_message(game_id, kind, channel_id, message_id, now=self.core.clock())

    async def remember_final_post(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember the message with the game's final scores (the history links to it)."""
        await self.store.set_message(game_id, FINAL_POST, channel_id, message_id,
                                     now=self.core.clock())

    async def final_post(self, game_id: int) -> PostedMessage | None:
        return await self.posted_message(game_id, FINAL_POST)

    async def forget_message(self, game_id: int, kind: str) -> None:
        await self.store.delete_message(game_id, kind)

    async def dms_closed(self, user_id: int) -> bool:
        """Whether DMs to the user failed last time (False for unknown users)."""
        return await self.store.get_dms_closed(user_id)

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        await self.store.set_dms_closed(user_id, closed, now=self.core.clock())

    async def user_locale(self, user_id: int) -> str | None:
        """The user's /ttr me language choice, or None (then Discord's locale applies)."""
        return await self.store.get_locale(user_id)

    async def set_user_locale(self, user_id: int, locale: str | None) -> None:
        """None clears the choice."""
        await self.store.set_locale(user_id, locale, now=self.core.clock())

    async def user_palette(self, user_id: int) -> str:
        """The user's /ttr me colours choice for their own pictures ("standard" without one)."""
        return await self.store.get_palette(user_id) or "standard"

    async def set_user_palette(self, user_id: int, palette: str | None) -> None:
        """None clears the choice."""
        await self.store.set_palette(user_id, palette, now=self.core.clock())

    async def confirm_settings(self, user_id: int) -> ConfirmSettings:
        """Which of the user's taps ask "are you sure?" first (/ttr me confirm); the defaults
        for anything not chosen."""
        user = await self.store.get_user(user_id)
        saved = (user.notify or {}).get(CONFIRM) if user else None
        return ConfirmSettings.read(saved if isinstance(saved, dict) else {})

    async def set_confirm(self, user_id: int, settings: ConfirmSettings) -> None:
        """Kept in the user's preference document (users.notify), beside how they are told."""
        user = await self.store.get_user(user_id)
        prefs = dict(user.notify) if user else {}
        prefs[CONFIRM] = settings.to_json()
        await self.store.set_notify(user_id, prefs, now=self.core.clock())

    async def server_locale(self, guild_id: int) -> str | None:
        """The server's /ttr server language choice, or None."""
        return await self.store.get_guild_locale(guild_id)

    async def set_server_locale(self, guild_id: int, locale: str | None) -> None:
        """None clears the choice."""
        await self.store.set_guild_locale(guild_id, locale, now=self.core.clock())

    async def last_finished_game(self, user_id: int) -> int | None:
        """The id of the user's latest finished game (including one they left to a computer
        player: its record is still theirs to export), or None."""
        done = await self.store.results_for_user(user_id, limit=1, include_left=True)
        return done[0].game_id if done else None
