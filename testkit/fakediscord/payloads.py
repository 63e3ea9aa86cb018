"""JSON shapes as Discord sends them (API v10), built from state.py objects.

Snowflakes are strings, as on the wire.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from .state import (
    DM,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Attachment,
    Channel,
    Command,
    Guild,
    Member,
    Message,
    P,
    Role,
    State,
    User,
)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # Discord's default upload limit for bots (10 MiB)


def s(x: Optional[int]) -> Optional[str]:
    return None if x is None else str(x)


def user(u: User) -> dict:
    return {
        "id": s(u.id),
        "username": u.username,
        "global_name": u.global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
        "locale": u.locale,
    }


def role(r: Role) -> dict:
    return {
        "id": s(r.id),
        "name": r.name,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": 0,
        "hoist": False,
        "managed": r.managed,
        "mentionable": False,
        "flags": 0,
    }


def member(m: Member, *, with_user: bool = True, permissions: Optional[int] = None) -> dict:
    out = {
        "roles": [s(r) for r in m.roles],
        "nick": m.nick,
        "joined_at": m.joined_at,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
    }
    if with_user:
        out["user"] = user(m.user)
    if permissions is not None:
        out["permissions"] = str(permissions)
    return out


def channel(c: Channel, state: State) -> dict:
    out: Dict[str, Any] = {"id": s(c.id), "type": c.type, "flags": 0}
    if c.type == DM:
        out["recipients"] = [user(state.users[c.recipient_id])]
        out["last_message_id"] = None
        return out
    out.update(guild_id=s(c.guild_id), name=c.name, position=c.position, nsfw=False, rate_limit_per_user=0)
    if c.type == GUILD_TEXT:
        overwrites = []
        deny = (0 if c.bot_can_send else P["send_messages"]) | (0 if c.bot_can_view else P["view_channel"])
        if deny:
            overwrites.append({"id": s(state.bot.id), "type": 1, "allow": "0", "deny": str(deny)})
        out.update(topic=c.topic, parent_id=None, permission_overwrites=overwrites, last_message_id=None)
    elif c.type in (PUBLIC_THREAD, PRIVATE_THREAD):
        out.update(
            parent_id=s(c.parent_id),
            owner_id=s(c.owner_id),
            member_count=1,
            message_count=len(state.channel_messages(c.id)),
            thread_metadata={
                "archived": c.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2024-01-01T00:00:00+00:00",
                "locked": c.locked,
                "invitable": c.invitable,
            },
        )
    return out


def guild_create(g: Guild, state: State, *, all_members: bool = True) -> dict:
    """`all_members`: the GUILD_MEMBERS intent; without it Discord only sends the bot's own member."""
    chans = [state.channels[cid] for cid in g.channel_ids]
    members = [m for uid, m in g.members.items() if all_members or uid == state.bot.id]
    return {
        "id": s(g.id),
        "name": g.name,
        "icon": None,
        "owner_id": s(g.owner_id),
        "unavailable": False,
        "large": False,
        "member_count": len(g.members),
        "preferred_locale": g.locale,
        "features": [],
        "roles": [role(r) for r in g.roles.values()],
        "emojis": [],
        "stickers": [],
        "channels": [channel(c, state) for c in chans if c.type == GUILD_TEXT],
        "threads": [channel(c, state) for c in chans if c.type in (PUBLIC_THREAD, PRIVATE_THREAD)],
        "members": [member(m) for m in members],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "joined_at": next(iter(g.members.values())).joined_at if g.members else None,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "system_channel_flags": 0,
        "afk_timeout": 300,
    }


def attachment(a: Attachment, channel_id: int, base_url: str) -> dict:
    url = f"{base_url}/attachments/{channel_id}/{a.id}/{a.filename}"
    out = {"id": s(a.id), "filename": a.filename, "size": a.size, "url": url, "proxy_url": url}
    if a.content_type:
        out["content_type"] = a.content_type
    if a.description:
        out["description"] = a.description
    return out


def resolved_components(m: Message, base_url: str) -> List[dict]:
    """The components as Discord returns them: an `attachment://name` media reference is
    the attachment's URL (what a client, or discord.py's from_message, reads back)."""
    urls = {a.filename: attachment(a, m.channel_id, base_url)["url"] for a in m.attachments}

    def fix(x):
        if isinstance(x, dict):
            out = {k: fix(v) for k, v in x.items()}
            url = out.get("url")
            if isinstance(url, str) and url.startswith("attachment://"):
                out["url"] = urls.get(url[len("attachment://"):], url)
            return out
        if isinstance(x, list):
            return [fix(v) for v in x]
        return x

    return fix(m.components)


def message(m: Message, state: State, base_url: str) -> dict:
    ch = state.channels.get(m.channel_id)
    out: Dict[str, Any] = {
        "id": s(m.id),
        "channel_id": s(m.channel_id),
        "author": user(state.users[m.author_id]),
        "content": m.content,
        "timestamp": m.timestamp,
        "edited_timestamp": m.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [user(state.users[u]) for u in m.mentions if u in state.users],
        "mention_roles": [],
        "attachments": [attachment(a, m.channel_id, base_url) for a in m.attachments],
        "embeds": m.embeds,
        "components": resolved_components(m, base_url) if m.v2 else m.components,
        "pinned": False,
        "type": m.type,
        "flags": m.flags,
    }
    if ch is not None and ch.guild_id is not None:
        out["guild_id"] = s(ch.guild_id)
    if m.webhook_id is not None:
        out["webhook_id"] = s(m.webhook_id)
        out["application_id"] = s(state.application_id)
    if m.interaction_metadata is not None:
        out["interaction_metadata"] = m.interaction_metadata
    if m.nonce is not None:
        out["nonce"] = m.nonce
    return out


def application(state: State) -> dict:
    return {
        "id": s(state.application_id),
        "name": state.application_name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": 0,
        "owner": user(next(u for u in state.users.values() if not u.bot) if len(state.users) > 1 else state.bot),
        "team": None,
        "bot": user(state.bot),
        "interactions_endpoint_url": None,
        "redirect_uris": [],
        "tags": [],
        "rpc_origins": [],
    }


def command(c: Command, application_id: int) -> dict:
    out = dict(c.data)
    out.update(
        id=s(c.id),
        application_id=s(application_id),
        version=s(c.version),
        type=c.type,
        description=c.data.get("description", ""),
        default_member_permissions=c.data.get("default_member_permissions"),
        nsfw=c.data.get("nsfw", False),
    )
    if c.guild_id is not None:
        out["guild_id"] = s(c.guild_id)
    return out


def interaction_channel(c: Channel, state: State) -> dict:
    return channel(c, state)


def resolved_for(values: Dict[str, List[int]], state: State, guild: Optional[Guild]) -> dict:
    """`resolved` block for user/role/channel ids in options or select values."""
    out: Dict[str, Dict[str, Any]] = {}
    for uid in values.get("users", []):
        out.setdefault("users", {})[s(uid)] = user(state.users[uid])
        if guild is not None and uid in guild.members:
            out.setdefault("members", {})[s(uid)] = member(
                guild.members[uid], with_user=False, permissions=guild.permissions_of(uid)
            )
    for rid in values.get("roles", []):
        out.setdefault("roles", {})[s(rid)] = role(guild.roles[rid])
    for cid in values.get("channels", []):
        ch = channel(state.channels[cid], state)
        out.setdefault("channels", {})[s(cid)] = {
            "id": ch["id"], "type": ch["type"], "name": ch.get("name"), "permissions": str(P["view_channel"]),
            **({"parent_id": ch["parent_id"], "thread_metadata": ch["thread_metadata"]} if "thread_metadata" in ch else {}),
        }
    return out


def interaction(
    *,
    state: State,
    id: int,
    token: str,
    type: int,
    data: dict,
    user_obj: User,
    channel_obj: Channel,
    locale: str,
    message_obj: Optional[Message] = None,
    base_url: str = "",
) -> dict:
    guild = state.guilds.get(channel_obj.guild_id) if channel_obj.guild_id else None
    out: Dict[str, Any] = {
        "id": s(id),
        "application_id": s(state.application_id),
        "type": type,
        "data": data,
        "channel_id": s(channel_obj.id),
        "channel": interaction_channel(channel_obj, state),
        "token": token,
        "version": 1,
        "locale": locale,
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if guild is not None:
        out["guild_id"] = s(guild.id)
        out["guild"] = {"id": s(guild.id), "locale": guild.locale, "features": []}
        out["guild_locale"] = guild.locale
        out["member"] = member(guild.members[user_obj.id], permissions=guild.permissions_of(user_obj.id))
        perms = guild.permissions_of(state.bot.id)
        if not channel_obj.bot_can_send:    # the bot's overwrite in this channel denies it
            perms &= ~P["send_messages"]
        out["app_permissions"] = str(perms)
        out["authorizing_integration_owners"] = {"0": s(guild.id)}
        out["context"] = 0
    else:
        out["user"] = user(user_obj)
        out["app_permissions"] = str(
            P["view_channel"] | P["send_messages"] | P["embed_links"] | P["attach_files"] | P["read_message_history"]
        )
        out["authorizing_integration_owners"] = {"0": "0"}
        out["context"] = 1
    if message_obj is not None:
        out["message"] = message(message_obj, state, base_url)
    return out
