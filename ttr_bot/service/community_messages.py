"""The outbox's messages of a server's community (messages.py lists them with the others): the
end of a season (`SeasonEndPost`) and an edit of the live board (`BoardPost`). Like every
owed message, a frozen dataclass that writes and reads its row's JSON; a field a row written
before it existed reads as its default."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

Payload = dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """One player's season: their place (ties share it), placement points, rated games, wins
    and the sum of their scores (the last tie-break)."""
    rank: int
    user_id: int
    name: str
    points: int
    games: int
    wins: int
    score: int

    @classmethod
    def read(cls, data: Payload) -> SeasonLine:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True, slots=True)
class SeasonEndPost:
    """A season ended: its podium as a picture, the final standings, a line per player; the
    champion's role passes from `previous` to the new champion when `role` is set and the
    bot may manage it."""
    KIND: ClassVar[str] = "season_end"
    guild: int
    season: str                   # "2026-12", "2026-Q4"
    lines: tuple[SeasonLine, ...]
    role: int | None = None
    previous: int | None = None   # last season's champion (who holds the role)

    def to_payload(self) -> Payload:
        return {"guild": self.guild, "season": self.season,
                "lines": [asdict(line) for line in self.lines], "role": self.role,
                "previous": self.previous}

    @classmethod
    def from_payload(cls, payload: Payload) -> SeasonEndPost:
        p = payload
        return cls(int(p["guild"]), str(p["season"]),
                   tuple(SeasonLine.read(x) for x in p.get("lines") or ()), p.get("role"),
                   p.get("previous"))


@dataclass(frozen=True, slots=True)
class BoardSection:
    """One section of the live board: its name (the adapter draws it by name: games, lobbies,
    cups, season, or one a later feature registers) and its items, plain JSON values."""
    name: str
    items: tuple[Payload, ...] = ()


@dataclass(frozen=True, slots=True)
class BoardPost:
    """The live board as it is now: the message is edited in place (posted anew if it is
    gone). `digest` is the hash of the sections (the service owes an edit only when it
    changes)."""
    KIND: ClassVar[str] = "board"
    guild: int
    digest: str
    sections: tuple[BoardSection, ...]

    def to_payload(self) -> Payload:
        return {"guild": self.guild, "digest": self.digest,
                "sections": [{"name": s.name, "items": [dict(i) for i in s.items]}
                             for s in self.sections]}

    @classmethod
    def from_payload(cls, payload: Payload) -> BoardPost:
        p = payload
        return cls(int(p["guild"]), str(p.get("digest") or ""),
                   tuple(BoardSection(str(s["name"]), tuple(dict(i) for i in s.get("items") or ()))
                         for s in p.get("sections") or ()))
