"""A Discord double on loopback: the REST routes Blockhouse calls (``/api/v10``) and the gateway's websocket
(``/gateway``), in an aiohttp server of this process, for real bot processes (``python bot.py`` with
``BLOCKHOUSE_DISCORD_API``) to connect to.

What it keeps: guilds, their text channels and threads, messages (content, embeds, components, attachments: a file
sent is read and its size noted, the bytes dropped), DM channels, the commands the bot syncs, and every interaction
(when it was created, when and how it was answered, the messages its answers made or edited). Interactions are
dispatched to the gateway connection of the shard that owns the guild (``(guild_id >> 22) % shard_count``), so two
bot processes given different ``shard_ids`` share the guilds as they would on Discord. An initial answer made
3 s or more after the interaction was created is refused with 10062 Unknown interaction, as Discord does, and
counted (``late_acks``).

What it does not model: permissions, rate limits (no 429s and no rate-limit headers), message caps other than
Discord's 2,000 characters, the CDN (attachment URLs point nowhere), presence, members other than those an
interaction carries. A gateway session can be resumed: a RESUME on a new connection gets what the session missed (up
to 5,000 dispatches kept), then RESUMED; ``Connection.reconnect`` asks a client to do so (op 7), as Discord does.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL, LOADING = 1 << 6, 1 << 7
TEXT, DM, PUBLIC_THREAD = 0, 1, 11
EXPIRY_S = 3.0  # an interaction's initial answer is refused from 3 s after it was created (10062)
HEARTBEAT_MS = 41_250
ACK_DELAY_S = 0.05  # a heartbeat's ACK comes back after this (a network's round trip)
TOKEN = "loopback-token"
ALL_PERMISSIONS = str((1 << 53) - 1)
HELLO, IDENTIFY, RESUME, HEARTBEAT, DISPATCH, INVALID_SESSION, HEARTBEAT_ACK, RECONNECT = 10, 2, 6, 1, 0, 9, 11, 7
BACKLOG = 5000  # dispatches kept per session for a RESUME


class Snowflakes:
    """Discord ids: milliseconds since Discord's epoch shifted by 22 bits, and a counter below them."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> int:
        self.count += 1
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (self.count & 0x3FFFFF)


def iso(ts: float | None = None) -> str:
    return datetime.fromtimestamp(time.time() if ts is None else ts, UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False

    def json(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "global_name": self.name, "discriminator": "0",
                "avatar": None, "bot": self.bot, "public_flags": 0, "flags": 0}


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    channels: list[int] = field(default_factory=list)


@dataclass
class Channel:
    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    recipient: int | None = None  # a DM's other end
    position: int = 0

    def json(self, double: Double) -> dict[str, Any]:
        out: dict[str, Any] = {"id": str(self.id), "type": self.type, "name": self.name, "flags": 0,
                               "last_message_id": None}
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        if self.type == TEXT:
            out.update(position=self.position, permission_overwrites=[], nsfw=False, topic=None,
                       rate_limit_per_user=0, parent_id=None)
        elif self.type == PUBLIC_THREAD:
            out.update(parent_id=str(self.parent_id), owner_id=str(self.owner_id), member_count=1, message_count=0,
                       total_message_sent=0, rate_limit_per_user=0,
                       thread_metadata={"archived": self.archived, "auto_archive_duration": 10080,
                                        "archive_timestamp": iso(), "locked": False, "invitable": True})
        elif self.type == DM:
            user = double.users.get(self.recipient or 0)
            out["recipients"] = [user.json()] if user is not None else []
        return out


@dataclass
class Message:
    """A message as the members read it (the attribute names bench.load's members read on simcord's messages)."""

    id: int
    channel_id: int
    author_id: int
    content: str | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    created: float = field(default_factory=time.time)
    edited: float | None = None
    interaction_id: int | None = None

    def json(self, double: Double) -> dict[str, Any]:
        channel = double.channels.get(self.channel_id)
        author = double.users.get(self.author_id) or double.bot_user
        out: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "author": author.json(),
            "content": self.content or "", "timestamp": iso(self.created),
            "edited_timestamp": iso(self.edited) if self.edited else None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "attachments": self.attachments, "embeds": self.embeds,
            "components": self.components, "pinned": False, "type": 0,
            "flags": self.flags}
        if channel is not None and channel.guild_id is not None:
            out["guild_id"] = str(channel.guild_id)
        return out


@dataclass
class Interaction:
    id: int
    token: str
    kind: int
    guild_id: int
    channel_id: int
    user_id: int
    created: float  # time.monotonic() when it was dispatched
    source_message_id: int | None = None
    message_id: int | None = None  # the message its initial answer made (or, for a component, the one it edits)
    acked: float | None = None
    response_type: int | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    answers: list[int | None] = field(default_factory=list)  # messages its answers made or edited, in order
    touched: int = 0  # webhook calls on its token


@dataclass
class Session:
    """A gateway session (one shard of one bot process): its sequence and the dispatches it was sent, so that a
    RESUME on a new connection gets what it missed. Dispatched while no connection is attached, an event waits in
    the backlog, as on Discord."""

    id: str
    shard: tuple[int, int]
    seq: int = 0
    backlog: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=BACKLOG))
    conn: Connection | None = None

    def dispatch(self, event: str, data: Any) -> None:
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.backlog.append(payload)
        if self.conn is not None:
            self.conn.send(payload)


@dataclass
class Connection:
    """One gateway websocket. Payloads are queued and written in order by one task (the zlib stream's state must
    follow the order the frames go out)."""

    ws: web.WebSocketResponse
    session: Session | None = None
    compressor: Any = None
    sent: int = 0
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)

    @property
    def identified(self) -> bool:
        return self.session is not None

    @property
    def shard(self) -> tuple[int, int] | None:
        return self.session.shard if self.session is not None else None

    def send(self, payload: dict[str, Any] | None) -> None:
        self.queue.put_nowait(payload)

    def reconnect(self) -> None:
        """Ask the client to reconnect and resume (op 7), as Discord does when it moves a session."""
        self.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def write(self) -> None:
        """The writer: until ``None`` is queued or the socket closes."""
        while (payload := await self.queue.get()) is not None:
            text = json.dumps(payload, separators=(",", ":")).encode()
            try:
                if self.compressor is not None:
                    await self.ws.send_bytes(self.compressor.compress(text) + self.compressor.flush(zlib.Z_SYNC_FLUSH))
                else:
                    await self.ws.send_str(text.decode())
            except (ConnectionError, RuntimeError):
                return
            self.sent += 1


class Double:
    """The double's state and its web application. ``on_touch(channel_id)`` is called whenever the bot does
    something in a channel (a message made or edited, an interaction answered), so that members waiting on it
    look again."""

    def __init__(self, *, expiry_s: float = EXPIRY_S) -> None:
        self.snowflake = Snowflakes()
        self.expiry_s = expiry_s
        self.bot_user = User(self.snowflake(), "Blockhouse", bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, dict[int, Message]] = {}
        self.dms: dict[int, int] = {}  # user id -> DM channel id
        self.commands: list[dict[str, Any]] = []
        self.interactions: dict[int, Interaction] = {}
        self.interaction_tokens: dict[str, int] = {}
        self.connections: list[Connection] = []
        self.sessions: dict[str, Session] = {}
        self.resumed = 0  # sessions resumed on a new connection
        self.on_touch: Callable[[int], None] = lambda channel: None
        self.on_ready: Callable[[Connection], None] = lambda conn: None
        self.late_acks = 0  # initial answers refused: made 3 s or more after the interaction (10062)
        self.doubled_acks = 0  # initial answers to an interaction already answered (40060)
        self.requests = 0
        self.errors: list[str] = []  # requests the double could not serve (a route or a body it does not know)
        self.port = 0
        self._runner: web.AppRunner | None = None

    # --- the world ---------------------------------------------------------------------------------------------
    def create_guild(self, name: str, guild_id: int | None = None, shard: tuple[int, int] | None = None) -> Guild:
        """A guild; ``shard=(id, count)``: one whose id falls on that shard."""
        if guild_id is None:
            guild_id = self.snowflake()
            if shard is not None:
                ms = guild_id >> 22
                guild_id = ((ms - (ms % shard[1]) + shard[0]) << 22) | (guild_id & 0x3FFFFF)
        guild = Guild(guild_id, name, owner_id=self.bot_user.id)
        self.guilds[guild.id] = guild
        return guild

    def create_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(self.snowflake(), TEXT, name, guild_id=guild.id, position=len(guild.channels))
        self.channels[channel.id] = channel
        self.messages[channel.id] = {}
        guild.channels.append(channel.id)
        return channel

    def create_user(self, name: str) -> User:
        user = User(self.snowflake(), name)
        self.users[user.id] = user
        return user

    def shard_of(self, guild_id: int, count: int) -> int:
        return (guild_id >> 22) % count

    def session_for(self, guild_id: int) -> Session | None:
        """The session of the shard that owns the guild (the newest, if a shard identified twice)."""
        for session in reversed(self.sessions.values()):
            if self.shard_of(guild_id, session.shard[1]) == session.shard[0]:
                return session
        return None

    # --- the server --------------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self, port: int = 0) -> str:
        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_get("/gateway", self.gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self.rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1]
        return self.url

    async def stop(self) -> None:
        for conn in list(self.connections):
            await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- the gateway ---------------------------------------------------------------------------------------------
    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = Connection(ws)
        if request.query.get("compress") == "zlib-stream":
            conn.compressor = zlib.compressobj()
        elif request.query.get("compress"):
            await ws.close(code=4000, message=b"unknown compression")
            return ws
        self.connections.append(conn)
        writer = asyncio.create_task(conn.write())
        try:
            conn.send({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": None, "t": None})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op, data = payload.get("op"), payload.get("d")
                if op == HEARTBEAT:
                    # after a network's round trip: discord.py's heartbeat thread notes the send only once the
                    # loop has written it, and an ACK coming back sooner is taken for one 41 s late (a warning)
                    asyncio.get_running_loop().call_later(ACK_DELAY_S, conn.send,
                                                          {"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
                elif op == IDENTIFY:
                    await self._identify(conn, data)
                    if conn.identified:
                        self.on_ready(conn)
                elif op == RESUME:
                    self._resume(conn, data)
        finally:
            self.connections.remove(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            conn.send(None)
            await asyncio.gather(writer, return_exceptions=True)
        return ws

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") not in (TOKEN, f"Bot {TOKEN}"):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        given = data.get("shard") or [0, 1]
        shard = (int(given[0]), int(given[1]))
        for old in [k for k, v in self.sessions.items() if v.shard == shard]:  # the shard identified again
            del self.sessions[old]
        session = Session(f"session-{self.snowflake()}", shard, conn=conn)
        mine = [g for g in self.guilds.values() if self.shard_of(g.id, shard[1]) == shard[0]]
        session.dispatch("READY", {
            "v": 10, "user": self.bot_user.json(), "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
            "session_id": session.id, "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "shard": list(shard), "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [], "guild_join_requests": []})
        for guild in mine:
            session.dispatch("GUILD_CREATE", self.guild_json(guild))
        conn.session = session
        self.sessions[session.id] = session

    def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        """The session continues on this connection: what it missed since ``seq``, then RESUMED; an unknown
        session, or one whose missed events are no longer kept, is invalid (the client identifies again)."""
        session = self.sessions.get(str(data.get("session_id")))
        seq = int(data.get("seq") or 0)
        if (data.get("token") not in (TOKEN, f"Bot {TOKEN}") or session is None
                or (session.backlog and session.backlog[0]["s"] > seq + 1)):
            conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        if session.conn is not None and session.conn is not conn:
            session.conn.send(None)  # the old connection gets nothing more
        session.conn = conn
        conn.session = session
        for payload in session.backlog:
            if payload["s"] > seq:
                conn.send(payload)
        session.dispatch("RESUMED", {})
        self.resumed += 1

    def guild_json(self, guild: Guild) -> dict[str, Any]:
        everyone = {"id": str(guild.id), "name": "@everyone", "permissions": ALL_PERMISSIONS, "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        me = {"user": self.bot_user.json(), "roles": [], "joined_at": iso(), "deaf": False, "mute": False,
              "flags": 0}
        channels = [self.channels[c].json(self) for c in guild.channels if self.channels[c].type == TEXT]
        threads = [self.channels[c].json(self) for c in guild.channels
                   if self.channels[c].type == PUBLIC_THREAD and not self.channels[c].archived]
        return {"id": str(guild.id), "name": guild.name, "icon": None, "splash": None, "discovery_splash": None,
                "owner_id": str(guild.owner_id), "afk_channel_id": None, "afk_timeout": 300,
                "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
                "roles": [everyone], "emojis": [], "stickers": [], "features": [], "mfa_level": 0,
                "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
                "vanity_url_code": None, "description": None, "banner": None, "premium_tier": 0,
                "preferred_locale": "en-US", "public_updates_channel_id": None, "nsfw_level": 0,
                "premium_progress_bar_enabled": False, "joined_at": iso(), "large": False, "unavailable": False,
                "member_count": 1, "voice_states": [], "members": [me], "channels": channels, "threads": threads,
                "presences": [], "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": []}

    # --- interactions ------------------------------------------------------------------------------------------
    def interact(self, user: User, channel_id: int, kind: int, data: dict[str, Any],
                       source: Message | None = None) -> Interaction:
        """An interaction from ``user`` in ``channel_id``, dispatched to the shard owning its guild."""
        channel = self.channels[channel_id]
        assert channel.guild_id is not None
        iid = self.snowflake()
        record = Interaction(iid, f"tok{iid}", kind, channel.guild_id, channel_id, user.id, time.monotonic(),
                             source_message_id=source.id if source is not None else None)
        self.interactions[iid] = record
        self.interaction_tokens[record.token] = iid
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": kind, "data": data,
            "guild_id": str(channel.guild_id), "channel_id": str(channel_id), "channel": channel.json(self),
            "member": {"user": user.json(), "roles": [], "joined_at": iso(), "deaf": False, "mute": False,
                       "flags": 0, "permissions": ALL_PERMISSIONS},
            "token": record.token, "version": 1, "locale": "en-US", "guild_locale": "en-US",
            "app_permissions": ALL_PERMISSIONS, "entitlements": [], "context": 0,
            "authorizing_integration_owners": {"0": str(channel.guild_id)}, "attachment_size_limit": 10 * 2**20}
        if source is not None:
            payload["message"] = source.json(self)
        session = self.session_for(channel.guild_id)
        if session is None:
            self.errors.append(f"no gateway session for guild {channel.guild_id}")
        else:
            session.dispatch("INTERACTION_CREATE", payload)
        return record

    # --- REST --------------------------------------------------------------------------------------------------
    async def rest(self, request: web.Request) -> web.StreamResponse:
        self.requests += 1
        if request.headers.get("Authorization") not in (f"Bot {TOKEN}", None):
            return _error(401, 0, "401: Unauthorized")
        parts = request.match_info["path"].strip("/").split("/")
        method = request.method
        try:
            body, files = await _body(request)
            return await self._route(method, parts, body, files)
        except _Refusal as err:
            return _error(err.status, err.code, err.message)
        except Exception as err:  # noqa: BLE001 - the double says what it could not serve and answers 500
            self.errors.append(f"{method} /{'/'.join(parts)}: {err.__class__.__name__}: {err}")
            return _error(500, 0, f"the double failed: {err}")

    async def _route(self, method: str, p: list[str], body: dict[str, Any], files: list[tuple[str, int]]
                     ) -> web.StreamResponse:
        n = len(p)
        if p == ["gateway", "bot"] or p == ["gateway"]:
            return _json({"url": f"ws://127.0.0.1:{self.port}/gateway", "shards": 1,
                          "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                                  "max_concurrency": 1}})
        if p == ["users", "@me"] and method == "GET":
            return _json(self.bot_user.json())
        if p == ["oauth2", "applications", "@me"]:
            return _json({"id": str(self.application_id), "name": "Blockhouse", "icon": None, "description": "",
                          "bot_public": True, "bot_require_code_grant": False, "owner": self.bot_user.json(),
                          "verify_key": "0" * 64, "flags": 0, "team": None, "summary": "",
                          "rpc_origins": [], "interactions_endpoint_url": None})
        if n >= 3 and p[0] == "applications" and p[2] == "commands":
            if method == "PUT":
                self.commands = [dict(c, id=str(self.snowflake()), application_id=str(self.application_id),
                                      version="1") for c in body["_list"]]
            return _json(self.commands)
        if n >= 5 and p[0] == "applications" and p[2] == "guilds" and p[4] == "commands":
            return _json([])
        if p == ["users", "@me", "channels"] and method == "POST":
            return _json(self._dm(int(body["recipient_id"])).json(self))
        if p[0] == "channels" and n >= 2:
            return await self._channels(method, p, body, files)
        if p[0] == "interactions" and n == 4 and p[3] == "callback":
            return await self._callback(int(p[1]), p[2], body, files)
        if p[0] == "webhooks" and n >= 3:
            return await self._webhook(method, p, body, files)
        raise _Refusal(404, 0, f"404: Not Found ({method} /{'/'.join(p)})")

    def _dm(self, user_id: int) -> Channel:
        if user_id not in self.dms:
            channel = Channel(self.snowflake(), DM, "", recipient=user_id)
            self.channels[channel.id] = channel
            self.messages[channel.id] = {}
            self.dms[user_id] = channel.id
        return self.channels[self.dms[user_id]]

    def _channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise _Refusal(404, 10003, "Unknown Channel")
        return channel

    def _message(self, channel_id: int, message_id: int) -> Message:
        message = self.messages.get(channel_id, {}).get(message_id)
        if message is None:
            raise _Refusal(404, 10008, "Unknown Message")
        return message

    async def _channels(self, method: str, p: list[str], body: dict[str, Any], files: list[tuple[str, int]]
                        ) -> web.StreamResponse:
        channel = self._channel(int(p[1]))
        n = len(p)
        if n == 2:
            if method == "GET":
                return _json(channel.json(self))
            if method == "PATCH":
                if "archived" in body:
                    channel.archived = bool(body["archived"])
                if "name" in body:
                    channel.name = body["name"]
                self._guild_event(channel, "THREAD_UPDATE" if channel.type == PUBLIC_THREAD
                                        else "CHANNEL_UPDATE", channel.json(self))
                return _json(channel.json(self))
        if n >= 3 and p[2] == "messages":
            if n == 3 and method == "GET":  # the channel's history, newest first, as Discord gives it
                return _json([m.json(self) for m in self._history(channel.id, body)])
            if n == 3 and method == "POST":
                message = Message(self.snowflake(), channel.id, self.bot_user.id)
                self._fill(message, body, files, new=True)
                self.messages[channel.id][message.id] = message
                self.on_touch(channel.id)
                return _json(message.json(self))
            if n == 4:
                message = self._message(channel.id, int(p[3]))
                if method == "GET":
                    return _json(message.json(self))
                if method == "PATCH":
                    self._fill(message, body, files)
                    self.on_touch(channel.id)
                    return _json(message.json(self))
                if method == "DELETE":
                    del self.messages[channel.id][message.id]
                    self.on_touch(channel.id)
                    return web.Response(status=204)
            if n == 5 and p[4] == "threads" and method == "POST":
                message = self._message(channel.id, int(p[3]))
                return _json(await self._thread(channel, body, message.id))
        if n == 3 and p[2] == "threads" and method == "POST":
            return _json(await self._thread(channel, body, None))
        raise _Refusal(404, 0, f"404: Not Found ({method} /{'/'.join(p)})")

    def _history(self, channel_id: int, query: dict[str, str]) -> list[Message]:
        """``GET /channels/{id}/messages``: up to ``limit`` (1-100, default 50) messages ``before`` or ``after`` a
        message id (the newest when neither), newest first, ephemeral ones left out. (A board the bot posted just
        before it was killed is looked for there after the restart, so that it is not posted twice; without it the
        bot posted it again.)"""
        anchors = [a for a in ("around", "before", "after") if a in query]
        if len(anchors) > 1 or "around" in anchors:  # (Discord takes one anchor; discord.py sends no "around" here)
            raise _Refusal(400, 50035, f"400: the double serves one of before/after, not {anchors}")
        limit = max(1, min(100, int(query.get("limit", 50))))
        kept = self.messages.get(channel_id, {})
        ids = sorted((i for i, m in kept.items() if not m.flags & EPHEMERAL), reverse=True)  # (none in the history)
        if "before" in query:
            ids = [i for i in ids if i < int(query["before"])]
        if "after" in query:
            ids = [i for i in ids if i > int(query["after"])][-limit:]
        return [self.messages[channel_id][i] for i in ids[:limit]]

    async def _thread(self, parent: Channel, body: dict[str, Any], message_id: int | None) -> dict[str, Any]:
        thread = Channel(message_id or self.snowflake(), PUBLIC_THREAD, str(body.get("name", "thread"))[:100],
                         guild_id=parent.guild_id, parent_id=parent.id, owner_id=self.bot_user.id)
        self.channels[thread.id] = thread
        self.messages[thread.id] = {}
        if parent.guild_id is not None:
            self.guilds[parent.guild_id].channels.append(thread.id)
        data = thread.json(self)
        self._guild_event(thread, "THREAD_CREATE", dict(data, newly_created=True))
        self.on_touch(parent.id)
        return data

    def _guild_event(self, channel: Channel, event: str, data: dict[str, Any]) -> None:
        if channel.guild_id is None:
            return
        session = self.session_for(channel.guild_id)
        if session is not None:
            session.dispatch(event, data)

    def _fill(self, message: Message, body: dict[str, Any], files: list[tuple[str, int]], new: bool = False
              ) -> None:
        """A message's content, embeds, components and attachments from a create or edit body (and its files)."""
        if not new:
            message.edited = time.time()
        if "content" in body:
            content = body["content"]
            if content is not None and len(content) > 2000:
                raise _Refusal(400, 50035, "Invalid Form Body: content: Must be 2000 or fewer in length.")
            message.content = content
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        elif "embed" in body:
            message.embeds = [body["embed"]] if body["embed"] else []
        if "components" in body:
            message.components = body["components"] or []
        if "attachments" in body or files:
            kept = {str(a.get("id")): a for a in message.attachments}
            attachments = []
            sized = dict(files)
            for given in body.get("attachments") or []:
                key = str(given.get("id"))
                if key in kept:
                    attachments.append(kept[key])
                else:
                    filename = given.get("filename") or f"file{key}"
                    aid = self.snowflake()
                    attachments.append({"id": str(aid), "filename": filename,
                                        "size": sized.get(f"files[{key}]", 0),
                                        "url": f"http://127.0.0.1:{self.port}/cdn/{aid}/{filename}",
                                        "proxy_url": f"http://127.0.0.1:{self.port}/cdn/{aid}/{filename}",
                                        "content_type": "image/png" if filename.endswith(".png") else None})
            message.attachments = attachments

    async def _callback(self, iid: int, token: str, body: dict[str, Any], files: list[tuple[str, int]]
                        ) -> web.StreamResponse:
        record = self.interactions.get(iid)
        if record is None or record.token != token:
            raise _Refusal(404, 10062, "Unknown interaction")
        if time.monotonic() - record.created >= self.expiry_s:
            self.late_acks += 1
            self.on_touch(record.channel_id)
            raise _Refusal(404, 10062, "Unknown interaction")
        if record.acked is not None:
            self.doubled_acks += 1
            raise _Refusal(400, 40060, "Interaction has already been acknowledged.")
        record.acked = time.monotonic()  # (taken back below if the answer is refused: it answered nothing)
        kind = int(body["type"])
        record.response_type = kind
        try:
            self._answer(record, iid, kind, body.get("data") or {}, files)
        except (_Refusal, KeyError, ValueError, TypeError):
            record.acked = record.response_type = None
            raise
        self.on_touch(record.channel_id)
        return self._callback_response(record, iid, kind)

    def _answer(self, record: Any, iid: int, kind: int, data: dict[str, Any], files: list[tuple[str, int]]) -> None:
        """What an initial answer of ``kind`` does (its message made or edited, its choices kept)."""
        if kind in (4, 5):  # a new message (5: "thinking…" until @original is edited)
            message = Message(self.snowflake(), record.channel_id, self.bot_user.id, interaction_id=iid)
            self._fill(message, data, files, new=True)
            message.flags |= int(data.get("flags") or 0) & EPHEMERAL
            if kind == 5:
                message.flags |= LOADING
            self.messages.setdefault(record.channel_id, {})[message.id] = message
            record.message_id = message.id
            record.answers.append(message.id)
        elif kind in (6, 7):  # the component's own message (7: edited now)
            record.message_id = record.source_message_id
            if kind == 7 and record.source_message_id is not None:
                self._fill(self._message(record.channel_id, record.source_message_id), data, files)
                record.answers.append(record.source_message_id)
        elif kind == 8:
            record.autocomplete_choices = list(data.get("choices") or [])
        elif kind == 9:
            record.modal = data
        else:
            raise _Refusal(400, 50035, f"Invalid Form Body: type {kind}")

    def _callback_response(self, record: Any, iid: int, kind: int) -> web.StreamResponse:
        # discord.py asks ?with_response=1: the interaction callback response object
        shown = (self.messages.get(record.channel_id, {}).get(record.message_id)
                 if record.message_id is not None and kind in (4, 5, 7) else None)
        resource: dict[str, Any] = {"type": kind}
        if shown is not None:
            resource["message"] = shown.json(self)
        ephemeral = bool(shown is not None and shown.flags & EPHEMERAL)
        return _json({"interaction": {"id": str(iid), "type": record.kind,
                                      "response_message_id": str(shown.id) if shown is not None else None,
                                      "response_message_loading": kind == 5, "response_message_ephemeral": ephemeral},
                      "resource": resource})

    async def _webhook(self, method: str, p: list[str], body: dict[str, Any], files: list[tuple[str, int]]
                       ) -> web.StreamResponse:
        iid = self.interaction_tokens.get(p[2])
        record = self.interactions.get(iid) if iid is not None else None
        if record is None or int(p[1]) != self.application_id:
            raise _Refusal(404, 10015, "Unknown Webhook")
        if record.acked is None:
            raise _Refusal(404, 10015, "Unknown Webhook")
        record.touched += 1
        try:
            original = (self.messages.get(record.channel_id, {}).get(record.message_id)
                        if record.message_id is not None and record.response_type == 5 else None)
            if len(p) == 3 and method == "POST" and original is not None and original.flags & LOADING:
                # the first followup after "thinking…" takes the place of the thinking message, as on Discord
                self._fill(original, body, files)
                original.flags &= ~LOADING
                record.answers.append(original.id)
                return _json(original.json(self))
            if len(p) == 3 and method == "POST":  # a followup
                message = Message(self.snowflake(), record.channel_id, self.bot_user.id, interaction_id=iid)
                self._fill(message, body, files, new=True)
                message.flags |= int(body.get("flags") or 0) & EPHEMERAL
                self.messages.setdefault(record.channel_id, {})[message.id] = message
                record.answers.append(message.id)
                return _json(message.json(self))
            if len(p) == 5 and p[3] == "messages":
                mid = record.message_id if p[4] == "@original" else int(p[4])
                if mid is None:
                    raise _Refusal(404, 10008, "Unknown Message")
                message = self._message(record.channel_id, mid)
                if method == "GET":
                    return _json(message.json(self))
                if method == "PATCH":
                    self._fill(message, body, files)
                    message.flags &= ~LOADING
                    record.answers.append(mid)
                    return _json(message.json(self))
                if method == "DELETE":
                    del self.messages[record.channel_id][mid]
                    return web.Response(status=204)
            raise _Refusal(404, 0, f"404: Not Found ({method} /{'/'.join(p)})")
        finally:
            self.on_touch(record.channel_id)


class _Refusal(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(status=status, body=json.dumps(data, separators=(",", ":")),
                        content_type="application/json")


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status)


async def _body(request: web.Request) -> tuple[dict[str, Any], list[tuple[str, int]]]:
    """The JSON body (a list is put under ``_list``), or a multipart body's ``payload_json`` and its files
    (form name, size); a GET's query parameters."""
    if request.method == "GET":  # (no body: its parameters are the query's)
        return dict(request.query), []
    if not request.can_read_body:
        return {}, []
    raw = await request.read()
    kind = request.headers.get("Content-Type", "")
    if kind.startswith("multipart/"):
        return multipart(raw, kind)
    if not raw:
        return {}, []
    data = json.loads(raw)
    return (data if isinstance(data, dict) else {"_list": data}), []


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_FORM_NAME = re.compile(rb'(?:^|[;\s])name="([^"]*)"', re.MULTILINE)


def multipart(raw: bytes, kind: str) -> tuple[dict[str, Any], list[tuple[str, int]]]:
    """A multipart/form-data body (``kind``: its Content-Type) split at its boundary by hand: ``payload_json`` and
    the files (form name, size). aiohttp's reader parses every part's headers through the email package, which
    took over half of the double's CPU at 200 tables; the double is the load generator, on the same two cores as
    the bot it measures."""
    found = _BOUNDARY.search(kind)
    if found is None:
        raise ValueError(f"a multipart body without a boundary: {kind!r}")
    body: dict[str, Any] = {}
    files: list[tuple[str, int]] = []
    for part in raw.split(b"--" + found.group(1).encode())[1:]:
        if part.startswith(b"--"):
            break  # the closing delimiter
        head, _, content = part.partition(b"\r\n\r\n")
        content = content.removesuffix(b"\r\n")  # the line break belongs to the next delimiter
        name = _FORM_NAME.search(head)
        if name is None:
            continue
        if name.group(1) == b"payload_json":
            body = json.loads(content)
        else:
            files.append((name.group(1).decode(), len(content)))
    return body, files


async def serve_forever(port: int = 0) -> None:  # pragma: no cover - for trying the double by hand
    double = Double()
    print(await double.start(port))
    await asyncio.Event().wait()
