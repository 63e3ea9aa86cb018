"""The fake's world: users, guilds, channels, messages, commands, plus ids and a clock.

Plain data only; JSON shapes live in payloads.py, protocol rules in rest.py/interactions.py.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Dict, List, Optional, Set

DISCORD_EPOCH_MS = 1420070400000

# Channel types (subset).
GUILD_TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12

# Permission bits used by the fake.
P = {
    "add_reactions": 1 << 6,
    "manage_guild": 1 << 5,
    "manage_roles": 1 << 28,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "use_external_emojis": 1 << 18,
    "use_application_commands": 1 << 31,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
    "administrator": 1 << 3,
}
EVERYONE_PERMISSIONS = sum(
    P[k]
    for k in (
        "add_reactions", "view_channel", "send_messages", "embed_links", "attach_files",
        "read_message_history", "use_external_emojis", "use_application_commands",
        "create_public_threads", "send_messages_in_threads",
    )
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | P["manage_messages"] | P["manage_threads"] | P["create_private_threads"]
ALL_PERMISSIONS = (1 << 53) - 1

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15
SUPPRESS_NOTIFICATIONS = 1 << 12


class Clock:
    """Seconds, monotonic: real time plus an offset that tests move with `advance()`."""

    def __init__(self, source=time.monotonic) -> None:
        self._source = source
        self.offset = 0.0

    def now(self) -> float:
        return self._source() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class ManualClock(Clock):
    """A clock that only moves when told to (fully deterministic timing checks)."""

    def __init__(self, start: float = 1000.0) -> None:
        super().__init__(source=lambda: start)


class Snowflakes:
    """Realistic, strictly increasing snowflakes."""

    def __init__(self) -> None:
        self._counter = itertools.count()

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(timezone.utc).isoformat()


@dataclass
class User:
    id: int
    username: str
    global_name: Optional[str] = None
    bot: bool = False
    dms_closed: bool = False
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False


@dataclass
class Member:
    user: User
    guild_id: int
    roles: List[int] = field(default_factory=list)
    nick: Optional[str] = None
    joined_at: str = field(default_factory=iso_now)


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: Dict[int, Role] = field(default_factory=dict)
    members: Dict[int, Member] = field(default_factory=dict)
    channel_ids: List[int] = field(default_factory=list)
    locale: str = "en-US"
    bans: Set[int] = field(default_factory=set)     # user ids banned (ban_member)

    def permissions_of(self, user_id: int) -> int:
        member = self.members.get(user_id)
        if member is None:
            return 0
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.roles[self.id].permissions
        for rid in member.roles:
            perms |= self.roles[rid].permissions
        return ALL_PERMISSIONS if perms & P["administrator"] else perms


@dataclass
class Channel:
    id: int
    type: int
    name: Optional[str] = None
    guild_id: Optional[int] = None
    parent_id: Optional[int] = None  # threads
    owner_id: Optional[int] = None  # threads
    recipient_id: Optional[int] = None  # DMs
    topic: Optional[str] = None
    position: int = 0
    bot_can_send: bool = True  # False: the bot is denied SEND_MESSAGES here (403 50013)
    bot_can_view: bool = True  # False: the bot is denied VIEW_CHANNEL here (403 50001)
    archived: bool = False
    locked: bool = False  # threads: only Manage Threads may post in it or unarchive it
    invitable: bool = True


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: Optional[str] = None
    description: Optional[str] = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class Message:
    """One message as the fake stores it. `embeds` and `components` are raw JSON lists."""

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: List[dict] = field(default_factory=list)
    components: List[dict] = field(default_factory=list)
    attachments: List[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: Optional[str] = None
    webhook_id: Optional[int] = None
    interaction_id: Optional[int] = None  # set when the message came from an interaction response
    interaction_metadata: Optional[dict] = None  # as sent to the bot in message payloads
    ephemeral_to: Optional[int] = None  # user id who alone can see it
    mentions: List[int] = field(default_factory=list)
    deleted: bool = False
    history: List[dict] = field(default_factory=list)  # earlier versions (content/embeds/components)
    nonce: Optional[str] = None  # the nonce it was created with (enforce_nonce)
    allowed_mentions: Optional[dict] = None  # as sent; None: Discord's default (all parsed)

    def __repr__(self) -> str:
        bits = [f"id={self.id}", f"content={self.content!r}"]
        if self.embeds:
            bits.append(f"embeds={[e.get('title') for e in self.embeds]}")
        if self.components:
            bits.append(f"custom_ids={self.custom_ids()}")
        if self.attachments:
            bits.append(f"files={[a.filename for a in self.attachments]}")
        if self.flags:
            bits.append(f"flags={self.flags}")
        if self.deleted:
            bits.append("deleted")
        return f"Message({', '.join(bits)})"

    # -- test conveniences -------------------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def files(self) -> Dict[str, bytes]:
        return {a.filename: a.data for a in self.attachments}

    def walk_components(self) -> List[dict]:
        """Every component, flattened (rows, containers, sections and their children)."""
        out: List[dict] = []

        def walk(items):
            for c in items or []:
                out.append(c)
                walk(c.get("components"))
                if isinstance(c.get("accessory"), dict):
                    walk([c["accessory"]])

        walk(self.components)
        return out

    @property
    def v2(self) -> bool:
        return bool(self.flags & IS_COMPONENTS_V2)

    def pinged(self) -> List[int]:
        """The users this message notified when it was posted: its mentions that the post's
        allowed_mentions let through, none if it was sent silently (SUPPRESS_NOTIFICATIONS)."""
        if self.flags & SUPPRESS_NOTIFICATIONS:
            return []
        am = self.allowed_mentions
        if am is None:
            return list(self.mentions)
        users = {int(u) for u in am.get("users") or []}
        if "users" in (am.get("parse") or []):
            return list(self.mentions)
        return [u for u in self.mentions if u in users]

    def body(self) -> str:
        """What the message reads as in the channel: its content, or a V2 message's TextDisplays
        (no alt text, no embeds)."""
        return "\n".join(p for p in [self.content, *self.text_displays()] if p)

    def text_displays(self) -> List[str]:
        return [c.get("content", "") for c in self.walk_components() if c.get("type") == 10]

    def media(self) -> List[dict]:
        """The media gallery items of a V2 message (media url, description)."""
        return [i for c in self.walk_components() if c.get("type") == 12 for i in c.get("items", [])]

    def buttons(self) -> List[dict]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    def custom_ids(self) -> List[str]:
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def component(self, custom_id: str) -> Optional[dict]:
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    def custom_id_for(self, label: str) -> str:
        """The custom_id of the button whose label is `label` (test convenience)."""
        for b in self.buttons():
            if b.get("label") == label and "custom_id" in b:
                return b["custom_id"]
        raise LookupError(f"no button labelled {label!r}; buttons: {[b.get('label') for b in self.buttons()]}")

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields, for loose assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
        for c in self.walk_components():
            if c.get("type") == 10:  # text display (components v2)
                parts.append(c.get("content", ""))
        parts += [a.description or "" for a in self.attachments]    # alt text is read out too
        parts += [i.get("description") or "" for i in self.media()]
        return "\n".join(p for p in parts if p)


@dataclass
class Command:
    id: int
    name: str
    type: int
    guild_id: Optional[int]
    data: dict  # as PUT by the bot
    version: int


@dataclass
class Violation:
    """Something the bot did that real Discord would refuse or penalise."""

    kind: str  # "spec" | "limit" | "timing" | "protocol"
    method: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.method} {self.path}: {self.message}"


class State:
    """All the fake's data, with the few lookups the REST and gateway sides share."""

    def __init__(self) -> None:
        self.ids = Snowflakes()
        self.users: Dict[int, User] = {}
        self.guilds: Dict[int, Guild] = {}
        self.channels: Dict[int, Channel] = {}
        self.messages: Dict[int, Message] = {}
        self.commands: Dict[int, Command] = {}
        self.nonces: Dict[tuple, tuple] = {}  # (author, nonce) -> (message id, clock time)
        self.deleted_channels: set = set()
        self.bot = User(self.ids.next(), "TTR Bot", bot=True)
        self.users[self.bot.id] = self.bot
        self.application_id = self.ids.next()
        self.application_name = "TTR Bot"

    # -- lookups -----------------------------------------------------------
    def channel_messages(self, channel_id: int, include_ephemeral: bool = False) -> List[Message]:
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def dm_channel_for(self, user_id: int) -> Channel:
        for ch in self.channels.values():
            if ch.type == DM and ch.recipient_id == user_id:
                return ch
        ch = Channel(self.ids.next(), DM, recipient_id=user_id)
        self.channels[ch.id] = ch
        return ch

    def commands_for(self, guild_id: Optional[int]) -> List[Command]:
        return [c for c in self.commands.values() if c.guild_id == guild_id]

    def find_command(self, name: str, guild_id: Optional[int], type: int = 1) -> Optional[Command]:
        """Guild command first, then global (as the Discord client offers them)."""
        for gid in ([guild_id] if guild_id else []) + [None]:
            for c in self.commands_for(gid):
                if c.name == name and c.type == type:
                    return c
        return None

    def replace_commands(self, guild_id: Optional[int], items: List[dict]) -> List[Command]:
        """Bulk overwrite, keeping ids of commands that keep their (name, type), as Discord does."""
        old = {(c.name, c.type): c for c in self.commands_for(guild_id)}
        for c in old.values():
            del self.commands[c.id]
        out = []
        for item in items:
            key = (item["name"], item.get("type", 1))
            prev = old.get(key)
            cmd = Command(
                id=prev.id if prev else self.ids.next(),
                name=key[0],
                type=key[1],
                guild_id=guild_id,
                data=item,
                version=self.ids.next(),
            )
            self.commands[cmd.id] = cmd
            out.append(cmd)
        return out
