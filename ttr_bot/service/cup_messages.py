"""The outbox's messages of a cup (messages.py lists them with the others). Like every owed
message, a frozen dataclass that writes and reads its row's JSON; a field a row written before
it existed reads as its default.

- `CupPost`: the cup's one public post, posted once and then edited in place (sign-up with its
  Join / Withdraw buttons, then the standings), drawn from the cup as it is when it is sent.
- `CupTableOpen`: a round's table is to be opened: the adapter opens a thread under the cup's
  post, asks the service to open the game there (`Cups.open_table`, idempotent) and pings the
  table's players in it.
- `CupFinal`: the cup is over: the final standings as text and a picture, the winner pinged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

Payload = dict[str, Any]


@dataclass(frozen=True, slots=True)
class CupPost:
    KIND: ClassVar[str] = "cup_post"
    cup: int

    def to_payload(self) -> Payload:
        return {"cup": self.cup}

    @classmethod
    def from_payload(cls, payload: Payload) -> CupPost:
        return cls(int(payload["cup"]))


@dataclass(frozen=True, slots=True)
class CupTableOpen:
    KIND: ClassVar[str] = "cup_table"
    cup: int
    round: int
    table: int
    players: tuple[int, ...] = ()     # the human players' user ids, to ping

    def to_payload(self) -> Payload:
        return {"cup": self.cup, "round": self.round, "table": self.table,
                "players": list(self.players)}

    @classmethod
    def from_payload(cls, payload: Payload) -> CupTableOpen:
        p = payload
        return cls(int(p["cup"]), int(p["round"]), int(p["table"]),
                   tuple(int(u) for u in p.get("players") or ()))


@dataclass(frozen=True, slots=True)
class CupFinal:
    KIND: ClassVar[str] = "cup_final"
    cup: int

    def to_payload(self) -> Payload:
        return {"cup": self.cup}

    @classmethod
    def from_payload(cls, payload: Payload) -> CupFinal:
        return cls(int(payload["cup"]))
