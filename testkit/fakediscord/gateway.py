"""The gateway websocket: HELLO -> IDENTIFY/RESUME -> READY + GUILD_CREATE, heartbeats, dispatch.

discord.py asks for transport compression in the connect URL (`compress=zlib-stream`, or
`zstd-stream` when the `zstandard` package is installed). zlib-stream is honoured: one deflate
context per connection, each payload flushed with Z_SYNC_FLUSH and sent as a binary frame. For
anything else the fake sends plain text frames, which discord.py also accepts.
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from aiohttp import WSMsgType, web

from . import payloads

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = (
    0, 1, 2, 3, 6, 7, 8, 9, 10, 11,
)
INTENT_GUILD_MEMBERS, INTENT_MESSAGE_CONTENT = 1 << 1, 1 << 15
INTENT_GUILD_MODERATION = 1 << 2        # GUILD_BAN_ADD / GUILD_BAN_REMOVE; not privileged


@dataclass
class Session:
    """One identified session; survives its socket so the client can RESUME it."""

    id: str
    intents: int
    seq: int = 0
    # the seq of the latest event other than an interaction (whose answer shows it was read):
    # what `caught_up` asks the client to confirm
    confirm_seq: int = 0
    sent: List[Tuple[int, dict]] = field(default_factory=list)  # (seq, frame) for replay on resume
    conn: Optional["Connection"] = None
    alive: bool = True  # False once invalidated (clean client close, or fake.invalidate_sessions())
    identified_at: float = 0.0


class Connection:
    """One websocket, with its compression context."""

    def __init__(self, ws: web.WebSocketResponse, compress: Optional[str]) -> None:
        self.ws = ws
        self.compress = compress if compress == "zlib-stream" else None
        self._deflate = zlib.compressobj() if self.compress else None
        self.session: Optional[Session] = None
        self.server_closed = False
        self.heard_seq = -1  # the seq the client's latest heartbeat said it has received
        self.heard = asyncio.Event()  # set (and replaced) at each heartbeat from the client
        self._lock = asyncio.Lock()

    async def close(self, code: int, message: bytes = b"") -> None:
        self.server_closed = True
        await self.ws.close(code=code, message=message)

    async def send(self, frame: dict) -> None:
        text = json.dumps(frame, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            if self._deflate is not None:
                data = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)


class Gateway:
    def __init__(self, fake: "FakeDiscord") -> None:
        self.fake = fake
        self.sessions: Dict[str, Session] = {}
        self.connections: List[Connection] = []
        self.frames_received: List[dict] = []  # every op the clients sent (tests may inspect)
        self.connect_queries: List[Dict[str, str]] = []  # ?v=10&encoding=json&compress=... per socket
        self.identify_count = 0
        self.compressed_connections = 0  # sockets that got zlib-stream frames
        self.resume_count = 0
        self.heartbeat_interval_ms = 41250
        self._ready = asyncio.Event()  # set while at least one session is connected and READY
        self._open = asyncio.Event()  # cleared during an outage: new sockets get no HELLO until it ends
        self._open.set()

    # -- websocket handler -------------------------------------------------
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connect_queries.append(dict(request.query))
        conn = Connection(ws, request.query.get("compress") if self.fake.compression else None)
        if request.query.get("encoding", "json") != "json":
            await conn.close(4002, b"only json encoding is supported by the fake")
            return ws
        self.connections.append(conn)
        self.compressed_connections += bool(conn.compress)
        try:
            await self._open.wait()
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_frame(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    await conn.close(4002, b"binary payloads are not supported by the fake")
        finally:
            self.connections.remove(conn)
            sess = conn.session
            if sess is not None and sess.conn is conn:
                sess.conn = None
                # A client that closes with 1000/1001 ends its session (Discord invalidates it).
                if not conn.server_closed and ws.close_code in (1000, 1001):
                    sess.alive = False
            self._update_ready()
        return ws

    async def _on_frame(self, conn: Connection, frame: dict) -> None:
        self.frames_received.append(frame)
        op, d = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            conn.heard_seq = d if isinstance(d, int) else 0
            heard, conn.heard = conn.heard, asyncio.Event()
            heard.set()
            await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(conn, d)
        elif op == RESUME:
            await self._resume(conn, d)
        elif op == REQUEST_MEMBERS:
            await self._request_members(conn, d)
        elif op in (PRESENCE, 4):
            pass
        else:
            await conn.close(code=4001, message=b"unknown opcode")

    async def _identify(self, conn: Connection, d: dict) -> None:
        if d.get("token") != self.fake.token:
            await conn.close(code=4004, message=b"Authentication failed.")
            return
        self.identify_count += 1
        state = self.fake.state
        guilds = [g for g in state.guilds.values() if state.bot.id in g.members]  # not removed
        sess = Session(id=secrets.token_hex(16), intents=int(d.get("intents", 0)), identified_at=self.fake.clock.now())
        self.sessions[sess.id] = sess
        self._attach(conn, sess)
        await self._send_dispatch(sess, "READY", {
            "v": 10,
            "user": {**payloads.user(state.bot), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": sess.id,
            "resume_gateway_url": self.fake.gateway_url,
            "application": {"id": str(state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "session_type": "normal",
            "user_settings": {},
            "auth": {},
            "_trace": ["fakediscord"],
        })
        for g in guilds:
            await self._send_dispatch(sess, "GUILD_CREATE", payloads.guild_create(
                g, state, all_members=bool(sess.intents & INTENT_GUILD_MEMBERS)))
        self._update_ready()

    async def _resume(self, conn: Connection, d: dict) -> None:
        sess = self.sessions.get(d.get("session_id") or "")
        if d.get("token") != self.fake.token or sess is None or not sess.alive:
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        self.resume_count += 1
        self._attach(conn, sess)
        last = d.get("seq") or 0
        for seq, frame in sess.sent:
            if seq > last:
                await conn.send(frame)
        await self._send_dispatch(sess, "RESUMED", {"_trace": ["fakediscord"]})
        self._update_ready()

    async def _request_members(self, conn: Connection, d: dict) -> None:
        g = self.fake.state.guilds.get(int(d["guild_id"]))
        if g is None or conn.session is None:
            return
        wanted = d.get("user_ids")
        members = [m for uid, m in g.members.items() if not wanted or str(uid) in map(str, wanted)]
        data = {"guild_id": str(g.id), "members": [payloads.member(m) for m in members],
                "chunk_index": 0, "chunk_count": 1}
        if d.get("nonce"):
            data["nonce"] = d["nonce"]
        await self._send_dispatch(conn.session, "GUILD_MEMBERS_CHUNK", data)

    def _attach(self, conn: Connection, sess: Session) -> None:
        if sess.conn is not None and sess.conn is not conn:
            asyncio.ensure_future(sess.conn.close(4000))
        conn.session = sess
        sess.conn = conn

    def _update_ready(self) -> None:
        if any(s.conn is not None and s.alive for s in self.sessions.values()):
            self._ready.set()
        else:
            self._ready.clear()

    # -- dispatch ------------------------------------------------------------
    async def _send_dispatch(self, sess: Session, event: str, data: Any) -> None:
        sess.seq += 1
        if event != "INTERACTION_CREATE":
            sess.confirm_seq = sess.seq
        frame = {"op": DISPATCH, "t": event, "s": sess.seq, "d": data}
        sess.sent.append((sess.seq, frame))
        del sess.sent[:-1000]
        if sess.conn is not None:
            await sess.conn.send(frame)

    def live_sessions(self) -> List[Session]:
        return [s for s in self.sessions.values() if s.alive]

    async def dispatch(self, event: str, data: Any, *, intent: int = 0, latest_only: bool = False) -> int:
        """Send an event to every live session that has `intent` (0 = no intent needed).

        `latest_only` (interactions): only the most recently identified session gets it.
        Returns how many sessions it was sent or queued to.
        """
        targets = [s for s in self.live_sessions() if not intent or s.intents & intent]
        if latest_only and targets:
            targets = [max(targets, key=lambda s: s.identified_at)]
        for s in targets:
            await self._send_dispatch(s, event, data)
        return len(targets)

    async def caught_up(self, timeout: float = 5.0) -> None:
        """Until every connected client has read every event sent to it, interactions aside
        (their answer says so; FakeDiscord.busy counts those not yet answered): the fake asks
        each client for a heartbeat (op 1, as Discord may) and waits for one carrying that
        seq. A client reads its socket in order, so by then each event has been handled as far
        as the client does synchronously (discord.py: parsed, its handler tasks created).
        Asked only when such an event was sent since (discord.py counts its answers against
        its gateway rate limit, 120 sends a minute)."""
        waits = []
        for conn in list(self.connections):
            sess = conn.session
            if sess is None or sess.conn is not conn or conn.ws.closed \
                    or conn.heard_seq >= sess.confirm_seq:
                continue
            waits.append(self._hear(conn, sess.confirm_seq))
        if waits:
            await asyncio.wait_for(asyncio.gather(*waits), timeout)

    async def _hear(self, conn: Connection, seq: int) -> None:
        while conn.heard_seq < seq and not conn.ws.closed and conn in self.connections:
            heard = conn.heard
            await conn.send({"op": HEARTBEAT, "d": None, "s": None, "t": None})
            try:    # a beat of the client's own (an older seq) may come first; a closing socket none
                await asyncio.wait_for(heard.wait(), 1.0)
            except TimeoutError:
                pass

    # -- test controls -------------------------------------------------------
    async def wait_connected(self, timeout: float = 5.0) -> None:
        await asyncio.wait_for(self._ready.wait(), timeout)

    async def disconnect(self, code: int = 4000, *, invalidate: bool = False) -> None:
        """Close every socket from the server side (the client should RESUME, or IDENTIFY if
        `invalidate`: sessions are dropped as after a Discord-side restart)."""
        if invalidate:
            for s in self.sessions.values():
                s.alive = False
        for s in self.sessions.values():
            s.conn = None  # from now on events queue up for a RESUME
        for conn in list(self.connections):
            await conn.close(code=code, message=b"fakediscord: server-side disconnect")
        self._update_ready()

    def pause(self) -> None:
        self._open.clear()

    def resume_accepting(self) -> None:
        self._open.set()

    async def send_reconnect(self) -> None:
        """Op 7 RECONNECT: the client should close and RESUME."""
        for conn in list(self.connections):
            await conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def close_all(self) -> None:
        for conn in list(self.connections):
            await conn.close(code=1001, message=b"fakediscord stopping")
