"""The bot's own messages in a game, by kind (the turn panel...).

A subject of the store (`Store`, store/base.py, is every subject; `SqlStore` implements it in
sql/messages.py). The contract every method keeps is base.py's."""
from abc import abstractmethod
from typing import Protocol

from ..models import (
    MessageRef,
)


class MessageStore(Protocol):
    @abstractmethod
    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int,
        now: float | None = None,
    ) -> None:
        """Remember (replacing any previous) the message of this kind, e.g. the turn panel."""

    @abstractmethod
    async def get_message(self, game_id: int, kind: str) -> MessageRef | None: ...

    @abstractmethod
    async def delete_message(self, game_id: int, kind: str) -> bool: ...
