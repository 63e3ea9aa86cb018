"""The REST API under /api/v10: what a discord.py bot calls, with Discord's error shapes.

Every request is logged in `fake.requests`, its body checked against the OpenAPI spec
(violations -> `fake.spec_violations`, the request still proceeds) and against Discord's hard
limits (violations -> `fake.limit_violations` and a 400 50035, as Discord would answer).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from aiohttp import web

from . import limits, payloads
from .interactions import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    RESPONSE_DEADLINE,
    TOKEN_LIFETIME,
    Callback,
    InteractionHandle,
)
from .state import (
    DM,
    EPHEMERAL,
    GUILD_TEXT,
    IS_COMPONENTS_V2,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Attachment,
    Channel,
    Message,
    P,
    iso_now,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

API = "/api/v10"
REC = web.RequestKey("rec", object)  # the parsed RecordedRequest, set by the middleware
INTENT_GUILDS, INTENT_GUILD_MESSAGES, INTENT_DIRECT_MESSAGES = 1 << 0, 1 << 9, 1 << 12


def jsonr(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py's json_or_text() compares the header verbatim, so
    # aiohttp's json_response ("application/json; charset=utf-8") would reach the bot as a str.
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Optional[dict] = None) -> None:
        super().__init__(message)
        self.status, self.body = status, {"message": message, "code": code}
        if errors:
            self.body["errors"] = errors


def invalid_form(problems: List[str]) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body",
                    {"_errors": [{"code": "BASE_TYPE_INVALID", "message": p} for p in problems]})


@dataclass
class UploadedFile:
    index: int
    filename: str
    data: bytes
    content_type: Optional[str]


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: Dict[str, str]
    json: Any
    files: List[UploadedFile] = field(default_factory=list)
    status: Optional[int] = None


async def _parse(request: web.Request) -> RecordedRequest:
    rec = RecordedRequest(request.method, request.path, dict(request.query), None)
    if request.content_type == "multipart/form-data":
        reader = await request.multipart()
        async for part in reader:
            data = await part.read()
            m = re.fullmatch(r"files\[(\d+)\]", part.name or "")
            if part.name == "payload_json":
                rec.json = json.loads(data)
            elif m:
                rec.files.append(UploadedFile(int(m.group(1)), part.filename or "", bytes(data),
                                              part.headers.get("Content-Type")))
            else:
                raise ApiError(400, 50035, f"unexpected multipart field {part.name!r}")
    elif request.can_read_body:
        raw = await request.read()
        if raw:
            rec.json = json.loads(raw)
    return rec


def build_app(fake: "FakeDiscord") -> web.Application:
    rest = Rest(fake)
    app = web.Application(middlewares=[rest.middleware], client_max_size=64 * 1024 * 1024)
    r = app.router
    r.add_get("/gateway", fake.gateway.handle)
    r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", rest.get_attachment)
    routes = [
        ("GET", "/gateway", rest.get_gateway),
        ("GET", "/gateway/bot", rest.get_gateway_bot),
        ("GET", "/users/@me", rest.get_me),
        ("GET", "/users/{user_id}", rest.get_user),
        ("POST", "/users/@me/channels", rest.create_dm),
        ("GET", "/applications/@me", rest.get_application),
        ("GET", "/oauth2/applications/@me", rest.get_application),
        ("GET", "/applications/{app_id}/commands", rest.get_commands),
        ("PUT", "/applications/{app_id}/commands", rest.put_commands),
        ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", rest.get_commands),
        ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", rest.put_commands),
        ("GET", "/guilds/{guild_id}/members/{user_id}", rest.get_member),
        ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", rest.add_member_role),
        ("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
         rest.remove_member_role),
        ("GET", "/channels/{channel_id}", rest.get_channel),
        ("PATCH", "/channels/{channel_id}", rest.modify_channel),
        ("GET", "/channels/{channel_id}/messages", rest.list_messages),
        ("POST", "/channels/{channel_id}/messages", rest.create_message),
        ("GET", "/channels/{channel_id}/messages/{message_id}", rest.get_message),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", rest.edit_message),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", rest.delete_message),
        ("POST", "/channels/{channel_id}/typing", rest.typing),
        ("POST", "/channels/{channel_id}/threads", rest.create_thread),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads", rest.create_thread),
        ("POST", "/interactions/{interaction_id}/{token}/callback", rest.interaction_callback),
        ("POST", "/webhooks/{app_id}/{token}", rest.webhook_execute),
        ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", rest.webhook_get),
        ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", rest.webhook_edit),
        ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", rest.webhook_delete),
    ]
    for method, path, handler in routes:
        r.add_route(method, API + path, handler)
    return app


class Rest:
    def __init__(self, fake: "FakeDiscord") -> None:
        self.fake = fake
        self.state = fake.state

    # -- plumbing --------------------------------------------------------------
    @web.middleware
    async def middleware(self, request: web.Request, handler):
        if not request.path.startswith(API + "/"):
            return await handler(request)
        self.fake.in_flight += 1
        try:
            return await self._handle(request, handler)
        finally:
            self.fake.in_flight -= 1

    async def _handle(self, request: web.Request, handler):
        fake = self.fake
        try:
            rec = await _parse(request)
        except ApiError as e:
            return jsonr(e.body, status=e.status)
        fake.requests.append(rec)
        request[REC] = rec
        is_multipart = request.content_type == "multipart/form-data"
        for problem in fake.spec.validate(request.method, request.path, rec.json, multipart=is_multipart,
                                          query=rec.query):
            fake._violation("spec", request.method, request.path, problem)
        quiet = fake.silenced.get(int(request.match_info.get("channel_id", 0)))
        if quiet is not None:       # the channel is silent (fake.silent): answered afterwards
            fake.held_quiet += 1
            try:
                await quiet.wait()
            finally:
                fake.held_quiet -= 1
        limited = fake._rate_limited(request.method, request.path)   # fake.rate_limit
        if limited is not None:
            rec.status = limited.status
            return limited
        try:
            unauthenticated = request.path.startswith((API + "/webhooks/", API + "/interactions/"))
            if not unauthenticated and request.headers.get("Authorization") != f"Bot {fake.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            response = await handler(request)
        except ApiError as e:
            response = jsonr(e.body, status=e.status)
        except web.HTTPNotFound:
            fake.unhandled_requests.append(f"{request.method} {request.path}")
            response = jsonr({"message": "404: Not Found", "code": 0}, status=404)
        except web.HTTPMethodNotAllowed:
            fake.unhandled_requests.append(f"{request.method} {request.path}")
            response = jsonr({"message": "405: Method Not Allowed", "code": 0}, status=405)
        except Exception as e:  # a bug in the fake, or a body too malformed for it: fail fast, visibly
            fake._violation("fake-error", request.method, request.path, repr(e))
            response = jsonr({"message": f"fakediscord could not handle this: {e!r}", "code": 0}, status=400)
        rec.status = response.status
        return response

    def _json(self, data: Any, status: int = 200) -> web.Response:
        return jsonr(data, status)

    def _msg_json(self, m: Message) -> dict:
        return payloads.message(m, self.state, self.fake.base_url)

    def _channel(self, request: web.Request) -> Channel:
        channel_id = int(request.match_info["channel_id"])
        ch = self.state.channels.get(channel_id)
        if ch is None and self.fake.auto_world and channel_id not in self.state.deleted_channels:
            ch = self.fake.auto_channel(channel_id)
        if ch is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return ch

    def _message(self, request: web.Request, channel: Channel) -> Message:
        m = self.state.messages.get(int(request.match_info["message_id"]))
        if m is None or m.deleted or m.channel_id != channel.id or m.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return m

    def _check_limits(self, request: web.Request, problems: List[str]) -> None:
        for p in problems:
            self.fake._violation("limit", request.method, request.path, p)
        if problems:
            raise invalid_form(problems)

    # -- identity ---------------------------------------------------------------
    async def get_gateway(self, request):
        return self._json({"url": self.fake.gateway_url})

    async def get_gateway_bot(self, request):
        return self._json({"url": self.fake.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})

    async def get_me(self, request):
        return self._json({**payloads.user(self.state.bot), "verified": True, "mfa_enabled": False})

    async def get_user(self, request):
        u = self.state.users.get(int(request.match_info["user_id"]))
        if u is None:
            raise ApiError(404, 10013, "Unknown User")
        return self._json(payloads.user(u))

    async def get_member(self, request):
        g = self.state.guilds.get(int(request.match_info["guild_id"]))
        m = g and g.members.get(int(request.match_info["user_id"]))
        if not m:
            raise ApiError(404, 10007, "Unknown Member")
        return self._json(payloads.member(m))

    def _member_role(self, request):
        """(member, role) of a member role change, as Discord checks it: the bot needs Manage
        Roles, and the role must be below the bot's highest role (403 50013 otherwise)."""
        g = self.state.guilds.get(int(request.match_info["guild_id"]))
        if g is None:
            raise ApiError(404, 10004, "Unknown Guild")
        m = g.members.get(int(request.match_info["user_id"]))
        if m is None:
            raise ApiError(404, 10007, "Unknown Member")
        role = g.roles.get(int(request.match_info["role_id"]))
        if role is None:
            raise ApiError(404, 10011, "Unknown Role")
        bot = g.members.get(self.state.bot.id)
        top = max((g.roles[r].position for r in bot.roles), default=0) if bot else -1
        perms = g.permissions_of(self.state.bot.id)
        if not perms & (P["manage_roles"] | P["administrator"]) or role.position >= top:
            raise ApiError(403, 50013, "Missing Permissions")
        return m, role

    async def add_member_role(self, request):
        m, role = self._member_role(request)
        if role.id not in m.roles:
            m.roles.append(role.id)
        return web.Response(status=204)

    async def remove_member_role(self, request):
        m, role = self._member_role(request)
        if role.id in m.roles:
            m.roles.remove(role.id)
        return web.Response(status=204)

    async def get_application(self, request):
        return self._json(payloads.application(self.state))

    async def create_dm(self, request):
        body = request[REC].json or {}
        u = self.state.users.get(int(body.get("recipient_id", 0)))
        if u is None and self.fake.auto_world:
            u = self.fake.auto_user(int(body["recipient_id"]))
        if u is None:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return self._json(payloads.channel(self.state.dm_channel_for(u.id), self.state))

    # -- application commands ------------------------------------------------
    def _check_app(self, request):
        if int(request.match_info["app_id"]) != self.state.application_id:
            raise ApiError(403, 50001, "Missing Access")
        gid = request.match_info.get("guild_id")
        if gid is not None and int(gid) not in self.state.guilds:
            raise ApiError(403, 50001, "Missing Access")
        return int(gid) if gid else None

    async def get_commands(self, request):
        gid = self._check_app(request)
        return self._json([payloads.command(c, self.state.application_id) for c in self.state.commands_for(gid)])

    async def put_commands(self, request):
        gid = self._check_app(request)
        items = request[REC].json or []
        self._check_limits(request, limits.check_commands(items, is_global=gid is None))
        self.fake.sync_count += 1
        cmds = self.state.replace_commands(gid, items)
        return self._json([payloads.command(c, self.state.application_id) for c in cmds])

    # -- channels & messages -------------------------------------------------
    def _check_view(self, ch: Channel) -> None:
        """Reading a server channel the bot is not in the server of, or may not view: 403
        50001 Missing Access."""
        if ch.guild_id is None:
            return
        guild = self.state.guilds.get(ch.guild_id)
        home = self.state.channels.get(ch.parent_id) if ch.parent_id else ch
        if guild is None or self.state.bot.id not in guild.members or \
                not guild.permissions_of(self.state.bot.id) & P["view_channel"] or \
                (home is not None and not home.bot_can_view):
            raise ApiError(403, 50001, "Missing Access")

    async def get_channel(self, request):
        ch = self._channel(request)
        self._check_view(ch)
        return self._json(payloads.channel(ch, self.state))

    async def list_messages(self, request):
        ch = self._channel(request)
        self._check_view(ch)
        limit = int(request.query.get("limit", 50))
        msgs = sorted(self.state.channel_messages(ch.id), key=lambda m: m.id, reverse=True)
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
        return self._json([self._msg_json(m) for m in msgs[:limit]])

    async def get_message(self, request):
        ch = self._channel(request)
        return self._json(self._msg_json(self._message(request, ch)))

    async def create_message(self, request):
        ch = self._channel(request)
        rec = request[REC]
        if ch.type == DM:
            recipient = self.state.users[ch.recipient_id]
            if recipient.dms_closed:
                self.fake.blocked_dms.append((recipient.id, rec.json))
                raise ApiError(403, 50007, "Cannot send messages to this user")
        else:
            await self._check_post(ch)
        again = self._nonce_seen(rec.json or {})
        if again is not None:
            return self._json(self._msg_json(again))
        m = await self.new_message(request, ch, rec.json or {}, rec.files)
        self._remember_nonce(rec.json or {}, m)
        return self._json(self._msg_json(m))

    async def _check_post(self, ch: Channel) -> None:
        """What Discord checks before a bot's post in a server channel or thread, with its
        answers: not in the server, or no View Channel (role or the channel's overwrite) ->
        403 50001 Missing Access; no Send Messages (Send Messages in Threads for a thread) ->
        403 50013 Missing Permissions; a locked thread without Manage Threads -> 400 50083
        (archived) or 400 160005 (active). A post to an archived thread the bot may post in
        unarchives it (THREAD_UPDATE), as Discord does."""
        guild = self.state.guilds.get(ch.guild_id)
        if guild is None or self.state.bot.id not in guild.members:
            raise ApiError(403, 50001, "Missing Access")
        perms = guild.permissions_of(self.state.bot.id)
        is_thread = ch.type in (PUBLIC_THREAD, PRIVATE_THREAD)
        home = self.state.channels.get(ch.parent_id) if is_thread else ch
        if not perms & P["view_channel"] or (home is not None and not home.bot_can_view):
            raise ApiError(403, 50001, "Missing Access")
        if is_thread:
            if not perms & P["send_messages_in_threads"]:
                raise ApiError(403, 50013, "Missing Permissions")
            if ch.locked and not perms & P["manage_threads"]:
                if ch.archived:
                    raise ApiError(400, 50083, "Thread is archived")
                raise ApiError(400, 160005, "Thread is locked")
            if ch.archived:
                ch.archived = False
                await self.fake.gateway.dispatch("THREAD_UPDATE", payloads.channel(ch, self.state),
                                                 intent=INTENT_GUILDS)
        elif not perms & P["send_messages"] or not ch.bot_can_send:
            raise ApiError(403, 50013, "Missing Permissions")

    async def modify_channel(self, request):
        """PATCH /channels/{id}: only a thread's `archived` and `locked` are modelled. Setting
        archived false needs the thread not locked, or Manage Threads; locked needs Manage
        Threads; as Discord answers otherwise, 403 50013."""
        ch = self._channel(request)
        body = request[REC].json or {}
        if ch.type not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise invalid_form(["fakediscord models PATCH /channels/{id} for threads only"])
        guild = self.state.guilds.get(ch.guild_id)
        if guild is None or self.state.bot.id not in guild.members:
            raise ApiError(403, 50001, "Missing Access")
        moderator = bool(guild.permissions_of(self.state.bot.id) & P["manage_threads"])
        if ("locked" in body or ch.locked) and not moderator:
            raise ApiError(403, 50013, "Missing Permissions")
        if "archived" in body:
            ch.archived = bool(body["archived"])
        if "locked" in body:
            ch.locked = bool(body["locked"])
        data = payloads.channel(ch, self.state)
        await self.fake.gateway.dispatch("THREAD_UPDATE", data, intent=INTENT_GUILDS)
        return self._json(data)

    # -- nonces: a repeated post returns the first copy, as Discord does with enforce_nonce ------
    def _nonce_key(self, body: dict):
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        return (self.state.bot.id, str(nonce))   # Discord: "by the same author"

    def _nonce_seen(self, body: dict) -> Optional[Message]:
        key = self._nonce_key(body)
        if key is None or key not in self.state.nonces:
            return None
        message_id, at = self.state.nonces[key]
        m = self.state.messages.get(message_id)
        if m is None or m.deleted or self.fake.clock.now() - at > self.fake.nonce_window:
            return None
        self.fake.nonce_hits.append(m.id)
        return m

    def _remember_nonce(self, body: dict, m: Message) -> None:
        key = self._nonce_key(body)
        if key is not None:
            self.state.nonces[key] = (m.id, self.fake.clock.now())
            m.nonce = str(body["nonce"])

    async def edit_message(self, request):
        ch = self._channel(request)
        self._check_view(ch)        # a channel the bot may not view: 403 50001, as Discord
        m = self._message(request, ch)
        if m.author_id != self.state.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        rec = request[REC]
        await self.apply_edit(request, m, rec.json or {}, rec.files)
        return self._json(self._msg_json(m))

    async def delete_message(self, request):
        ch = self._channel(request)
        m = self._message(request, ch)
        await self.remove(m)
        return web.Response(status=204)

    async def typing(self, request):
        self._channel(request)
        return web.Response(status=204)

    async def create_thread(self, request):
        parent = self._channel(request)
        if parent.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = request[REC].json or {}
        from_message = "message_id" in request.match_info
        if from_message:
            self._message(request, parent)
        ttype = PUBLIC_THREAD if from_message else int(body.get("type", PRIVATE_THREAD))
        self._check_thread_permission(parent, ttype)
        th = self.fake.add_thread(parent, body.get("name", "thread"), private=ttype == PRIVATE_THREAD,
                                  owner=self.state.bot, invitable=body.get("invitable", True),
                                  thread_id=int(request.match_info["message_id"]) if from_message else None)
        data = payloads.channel(th, self.state)
        await self.fake.gateway.dispatch("THREAD_CREATE", {**data, "newly_created": True}, intent=INTENT_GUILDS)
        return self._json(data, status=201)

    def _check_thread_permission(self, parent: Channel, ttype: int) -> None:
        """Discord refuses a thread the bot may not create in `parent`: 403 50013, as for a post
        without Send Messages. A public thread needs Create Public Threads, a private one Create
        Private Threads (from the bot's roles in the guild; overwrites are not modelled)."""
        needed = P["create_private_threads"] if ttype == PRIVATE_THREAD else P["create_public_threads"]
        guild = self.state.guilds[parent.guild_id]
        if not guild.permissions_of(self.state.bot.id) & needed:
            raise ApiError(403, 50013, "Missing Permissions")

    async def get_attachment(self, request):
        for m in self.state.messages.values():
            for a in m.attachments:
                if str(a.id) == request.match_info["attachment_id"]:
                    return web.Response(body=a.data, content_type=a.content_type or "application/octet-stream")
        raise web.HTTPNotFound()

    # -- message building (shared by channel, webhook and interaction routes) -------------------
    async def new_message(self, request, ch: Channel, body: dict, files, *, author_id: Optional[int] = None,
                          extra: Optional[dict] = None) -> Message:
        problems = limits.check_message(body, n_files=len(files),
                                        filenames=self._filenames(body, files))
        problems += self._file_problems(files)
        if not (body.get("content") or body.get("embeds") or body.get("components") or files
                or body.get("sticker_ids") or body.get("poll")):
            problems.append("Cannot send an empty message")
        self._check_limits(request, problems)
        m = Message(id=self.state.ids.next(), channel_id=ch.id, author_id=author_id or self.state.bot.id,
                    flags=int(body.get("flags") or 0), **(extra or {}))
        self._apply_body(m, body, files, creating=True)
        self.state.messages[m.id] = m
        await self._announce("MESSAGE_CREATE", m)
        return m

    async def apply_edit(self, request, m: Message, body: dict, files) -> None:
        problems = limits.check_message(
            body, n_files=len(files), v2=bool(m.flags & IS_COMPONENTS_V2),
            filenames=self._filenames(body, files, m)) + self._file_problems(files)
        self._check_limits(request, problems)
        m.history.append({"content": m.content, "embeds": m.embeds, "components": m.components})
        self._apply_body(m, body, files, creating=False)
        m.edited_timestamp = iso_now()
        await self._announce("MESSAGE_UPDATE", m)

    async def remove(self, m: Message) -> None:
        m.deleted = True
        if not m.ephemeral:
            ch = self.state.channels[m.channel_id]
            data = {"id": str(m.id), "channel_id": str(ch.id)}
            if ch.guild_id:
                data["guild_id"] = str(ch.guild_id)
            await self.fake.gateway.dispatch("MESSAGE_DELETE", data, intent=self._intent_for(ch))

    @staticmethod
    def _filenames(body: dict, files: List[UploadedFile], m: Optional[Message] = None) -> List[str]:
        """The names a V2 body may reference as attachment://name: its uploads, and on an edit
        the message's files it keeps (all of them when the body sends no `attachments`)."""
        names = [f.filename for f in files]
        names += [e.get("filename") for e in body.get("attachments") or [] if isinstance(e, dict)
                  and e.get("filename")]
        if m is not None:
            keep = body.get("attachments")
            kept = {int(e.get("id", -1)) for e in keep or [] if isinstance(e, dict)}
            names += [a.filename for a in m.attachments if keep is None or a.id in kept]
        return names

    def _file_problems(self, files: List[UploadedFile]) -> List[str]:
        return [f"file {f.filename!r} is {len(f.data)} bytes (max {payloads.ATTACHMENT_SIZE_LIMIT})"
                for f in files if len(f.data) > payloads.ATTACHMENT_SIZE_LIMIT]

    def _apply_body(self, m: Message, body: dict, files: List[UploadedFile], *, creating: bool) -> None:
        for key in ("content", "embeds", "components"):
            if key in body:
                setattr(m, key, body[key] if body[key] is not None else ("" if key == "content" else []))
        if "flags" in body and not creating:
            keep = m.flags & EPHEMERAL
            m.flags = keep | (int(body["flags"] or 0) & ~(EPHEMERAL | LOADING))
        if not creating:
            m.flags &= ~LOADING
        by_index = {f.index: f for f in files}
        if "attachments" in body and body["attachments"] is not None:
            existing = {a.id: a for a in m.attachments}
            kept: List[Attachment] = []
            for entry in body["attachments"]:
                aid = int(entry.get("id", -1))
                if aid in existing:
                    kept.append(existing[aid])
                elif aid in by_index:
                    f = by_index.pop(aid)
                    kept.append(Attachment(self.state.ids.next(), entry.get("filename") or f.filename, f.data,
                                           f.content_type, entry.get("description")))
            m.attachments = kept
        for f in sorted(by_index.values(), key=lambda f: f.index):
            m.attachments.append(Attachment(self.state.ids.next(), f.filename, f.data, f.content_type))
        text = "\n".join([m.content or ""] + [c.get("content", "") for c in
                                              limits.walk_v2(m.components) if c.get("type") == 10])
        m.mentions = [int(x) for x in re.findall(r"<@!?(\d+)>", text)]
        if creating:            # who was notified: an edit notifies nobody
            m.allowed_mentions = body.get("allowed_mentions")

    def _intent_for(self, ch: Channel) -> int:
        return INTENT_DIRECT_MESSAGES if ch.type == DM else INTENT_GUILD_MESSAGES

    async def _announce(self, event: str, m: Message) -> None:
        if m.ephemeral:
            return
        ch = self.state.channels[m.channel_id]
        await self.fake.gateway.dispatch(event, self._msg_json(m), intent=self._intent_for(ch))

    # -- interactions ----------------------------------------------------------------
    def _interaction_by_token(self, request) -> InteractionHandle:
        token = request.match_info["token"]
        h = next((h for h in self.fake.interactions.values() if h.token == token), None)
        if h is None or int(request.match_info["app_id"]) != self.state.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        age = self.fake.clock.now() - h.created_at
        if age > TOKEN_LIFETIME:
            self.fake._violation("timing", request.method, request.path,
                                 f"interaction token used {age:.0f}s after the interaction (expires after 15 min)")
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return h

    def _metadata(self, h: InteractionHandle, **extra) -> dict:
        out = {"id": str(h.id), "type": h.type, "user": payloads.user(h.user),
               "authorizing_integration_owners": h.payload.get("authorizing_integration_owners", {})}
        if h.type == APPLICATION_COMMAND:
            out["name"] = h.payload["data"]["name"]
            out["command_type"] = 1
        if h.source_message_id:
            out["interacted_message_id"] = str(h.source_message_id)
        out.update({k: v for k, v in extra.items() if v is not None})
        return out

    async def interaction_callback(self, request):
        fake, rec = self.fake, request[REC]
        h = fake.interactions.get(int(request.match_info["interaction_id"]))
        if h is None or h.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        latency = fake.clock.now() - h.created_at
        if latency > RESPONSE_DEADLINE:
            fake._violation("timing", "POST", request.path,
                            f"initial response to {h.describe()} after {latency:.2f}s (limit {RESPONSE_DEADLINE:.0f}s)")
            if fake.strict_timing:
                raise ApiError(404, 10062, "Unknown interaction")
        if h.callbacks:
            fake._violation("protocol", "POST", request.path, f"{h.describe()} acknowledged twice")
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = rec.json or {}
        ctype, data = body.get("type"), body.get("data") or {}
        if ctype not in ALLOWED_CALLBACKS[h.type]:
            fake._violation("protocol", "POST", request.path,
                            f"callback type {ctype} is not valid for interaction type {h.type}")
            raise invalid_form([f"callback type {ctype} not allowed here"])
        channel = h.channel
        message: Optional[Message] = None
        if ctype == 4:
            message = await self.new_message(request, channel, data, rec.files, extra=dict(
                webhook_id=self.state.application_id, interaction_id=h.id,
                type=20 if h.type == APPLICATION_COMMAND else 0,
                ephemeral_to=h.user.id if int(data.get("flags") or 0) & EPHEMERAL else None,
                interaction_metadata=self._metadata(h)))
            h.original_message_id = message.id
        elif ctype == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = Message(id=self.state.ids.next(), channel_id=channel.id, author_id=self.state.bot.id,
                              flags=flags, webhook_id=self.state.application_id, interaction_id=h.id,
                              type=20 if h.type == APPLICATION_COMMAND else 0,
                              ephemeral_to=h.user.id if flags & EPHEMERAL else None,
                              interaction_metadata=self._metadata(h))
            self.state.messages[message.id] = message
            await self._announce("MESSAGE_CREATE", message)
            h.original_message_id = message.id
        elif ctype in (6, 7):
            if not h.source_message_id:
                raise invalid_form(["this interaction has no message to update"])
            h.original_message_id = h.source_message_id
            message = self.state.messages[h.source_message_id]
            if ctype == 7:
                await self.apply_edit(request, message, data, rec.files)
        elif ctype == 8:
            self._check_limits(request, limits.check_autocomplete(data))
        elif ctype == 9:
            self._check_limits(request, limits.check_modal(data))
            h.modal = data
        files = {f.filename: f.data for f in rec.files}
        h.callbacks.append(Callback(ctype, data, files, latency))
        if rec.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        inter = {"id": str(h.id), "type": h.type}
        if message is not None and ctype in (4, 5):
            inter.update(response_message_id=str(message.id), response_message_loading=ctype == 5,
                         response_message_ephemeral=message.ephemeral)
        resource: Dict[str, Any] = {"type": ctype}
        if message is not None and ctype in (4, 5, 7):
            resource["message"] = self._msg_json(message)
        return self._json({"interaction": inter, "resource": resource})

    def _require_ack(self, request, h: InteractionHandle) -> None:
        if not h.callbacks:
            self.fake._violation("protocol", request.method, request.path,
                                 f"webhook call for {h.describe()} before its initial response")
            raise ApiError(404, 10015, "Unknown Webhook")

    def _webhook_message(self, request, h: InteractionHandle) -> Message:
        mid = request.match_info["message_id"]
        target = h.original_message_id if mid == "@original" else int(mid)
        m = self.state.messages.get(target) if target else None
        if m is None or m.deleted or (mid != "@original" and m.interaction_id != h.id):
            raise ApiError(404, 10008, "Unknown Message")
        return m

    async def webhook_execute(self, request):
        h = self._interaction_by_token(request)
        self._require_ack(request, h)
        rec = request[REC]
        body = rec.json or {}
        original = h.original
        if h.callbacks[0].type == 5 and original is not None and original.loading:
            # After a deferred (type 5) response, the first follow-up fills the "thinking" message;
            # it stays ephemeral (or not) as the defer said.
            body = {k: v for k, v in body.items() if k != "flags"}
            await self.apply_edit(request, original, body, rec.files)
            m = original
        else:
            flags = int(body.get("flags") or 0)
            m = await self.new_message(request, h.channel, body, rec.files, extra=dict(
                webhook_id=self.state.application_id, interaction_id=h.id,
                type=20 if h.type == APPLICATION_COMMAND else 0,
                ephemeral_to=h.user.id if flags & EPHEMERAL else None,
                interaction_metadata=self._metadata(
                    h, original_response_message_id=str(h.original_message_id) if h.original_message_id else None)))
        h.followup_ids.append(m.id)
        if rec.query.get("wait") in ("1", "true", "True"):
            return self._json(self._msg_json(m))
        return web.Response(status=204)

    async def webhook_get(self, request):
        h = self._interaction_by_token(request)
        self._require_ack(request, h)
        return self._json(self._msg_json(self._webhook_message(request, h)))

    async def webhook_edit(self, request):
        h = self._interaction_by_token(request)
        self._require_ack(request, h)
        m = self._webhook_message(request, h)
        rec = request[REC]
        await self.apply_edit(request, m, rec.json or {}, rec.files)
        return self._json(self._msg_json(m))

    async def webhook_delete(self, request):
        h = self._interaction_by_token(request)
        self._require_ack(request, h)
        await self.remove(self._webhook_message(request, h))
        return web.Response(status=204)
