"""A fake Discord — REST API + gateway websocket on 127.0.0.1 — for end-to-end tests.

The *real* discord.py client talks to it: the fixture points ``discord.http.Route.BASE`` (also
used by interaction webhooks) and ``DiscordWebSocket.DEFAULT_GATEWAY`` here. The fake keeps what
a test needs to check the bot from the outside, the way a Discord user would see it:

* every HTTP call in order (``calls``, ``wait_for_call``), with JSON payloads and uploaded files;
* the messages of every channel (``messages``), edits included, ephemeral ones flagged;
* every interaction it pushed and how the bot answered it (``InteractionRecord``);
* the synced command tree (``commands``).

Tests drive the bot by crafting real INTERACTION_CREATE payloads (``slash``, ``autocomplete``,
``button``, ``select``, ``modal_submit``) and sending them over the gateway (``interact``).
Discord's behaviour that bots trip over is reproduced: the 3-second acknowledgement deadline,
"already acknowledged", the first followup of a deferred reply replacing the "thinking"
message, closed DMs (403 code 50007), documented payload limits (400 code 50035) and
programmable faults (``fail_next``: 429 with retry_after, 403, 404, 5xx).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import mimetypes
import re
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.e2e import discord_limits

log = logging.getLogger(__name__)

DISCORD_EPOCH_MS = 1420070400000
# The bound of every wait for the bot: it only catches a hang. Tests must pass on a busy
# machine, so no wait asserts speed (speed is measured by `make bench`).
HANG = 300.0
# Discord's enforce_nonce: a message posted again with the same nonce by the same author
# within "a few minutes" returns the first message instead of creating a second.
NONCE_WINDOW = 300.0
MENTION = re.compile(r"<@!?(\d+)>")
API_PREFIX = "/api/v10"
EPHEMERAL = 1 << 6
LOADING = 1 << 7
ALL_PERMISSIONS = (1 << 51) - 1
# VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY, ADD_REACTIONS,
# USE_APPLICATION_COMMANDS, CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS, USE_EXTERNAL_EMOJIS
MEMBER_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6)
    | (1 << 31) | (1 << 35) | (1 << 38) | (1 << 18)
)
# member permissions + MANAGE_MESSAGES, MANAGE_THREADS, CREATE_PRIVATE_THREADS
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 13) | (1 << 34) | (1 << 36)
INTERACTION_PING, APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
GUILD_TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Strictly increasing, time-based Discord ids (so ``created_at`` is meaningful)."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on(self, shard: int, count: int) -> int:
        """The next id whose guild would be on ``shard`` of ``count`` (Discord's rule)."""
        candidate = self.next()
        while shard_of(candidate, count) != shard:
            candidate += 1 << 22  # one millisecond later
        self._last = candidate
        return candidate


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard that receives a guild's events; DMs (no guild) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % count


class DiscordError(Exception):
    """An error answer the fake sends back, shaped like Discord's JSON errors."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


@dataclass
class StoredFile:
    """One uploaded file (multipart ``files[n]``)."""

    field: str
    filename: str
    content_type: str
    data: bytes

    def image(self) -> Any:
        """The upload opened with Pillow (imported here: only image tests need it)."""
        import io

        from PIL import Image

        image = Image.open(io.BytesIO(self.data))
        image.load()
        return image


@dataclass
class Call:
    """One HTTP request the bot made, as the fake received it."""

    index: int
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[StoredFile]
    at: float
    status: int = 0
    response: Any = None
    user_agent: str = ""  # tells apart several bot processes that set their own


@dataclass
class StoredMessage:
    """A message as Discord holds it: ``data`` is the JSON any client would receive."""

    data: dict[str, Any]
    files: dict[str, StoredFile] = field(default_factory=dict)  # attachment id -> bytes
    interaction_id: int | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)  # earlier versions

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def attachments(self) -> list[StoredFile]:
        listed = self.data.get("attachments", [])
        return [self.files[a["id"]] for a in listed if a["id"] in self.files]

    def components(self) -> list[dict[str, Any]]:
        """Every component, flattened (rows, buttons, selects, v2 containers...)."""
        return list(walk_components(self.data.get("components") or []))

    def interactive(self) -> list[dict[str, Any]]:
        """Buttons and selects that carry a custom_id."""
        return [c for c in self.components() if c.get("custom_id") is not None]

    def find(self, *, label: str | None = None, custom_id: str | None = None,
             prefix: str | None = None) -> dict[str, Any]:
        """The one interactive component matching a label, a custom_id or a custom_id prefix."""
        found = [
            c for c in self.interactive()
            if (label is None or c.get("label") == label)
            and (custom_id is None or c["custom_id"] == custom_id)
            and (prefix is None or c["custom_id"].startswith(prefix))
        ]
        if len(found) != 1:
            ids = [(c.get("label"), c["custom_id"]) for c in self.interactive()]
            raise LookupError(f"{len(found)} components match in message {self.id}: {ids}")
        return found[0]

    def text(self) -> str:
        """Every human-visible string: content, embeds, component labels and option labels."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [(embed.get("footer") or {}).get("text") or ""]
            parts += [(embed.get("author") or {}).get("name") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
        for c in self.components():
            parts += [str(c.get(k) or "") for k in ("label", "placeholder", "content")]
            for option in c.get("options") or []:
                parts += [option.get("label") or "", option.get("description") or ""]
        return "\n".join(p for p in parts if p)


def walk_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


@dataclass
class InteractionRecord:
    """One interaction pushed to the bot and everything the bot answered to it."""

    payload: dict[str, Any]
    dispatched_at: float
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    acked_at: float | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    answered_at: float | None = None  # when the user first saw an answer, not "thinking…"
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def token(self) -> str:
        return str(self.payload["token"])

    @property
    def response_type(self) -> int | None:
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def ack_latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.dispatched_at

    @property
    def answer_latency(self) -> float | None:
        return None if self.answered_at is None else self.answered_at - self.dispatched_at

    def mark_answered(self) -> None:
        if self.answered_at is None:
            self.answered_at = time.monotonic()
            self.answered.set()

    async def wait(self, timeout: float = HANG) -> InteractionRecord:
        await asyncio.wait_for(self.responded.wait(), timeout)
        return self

    async def wait_answer(self, timeout: float = HANG) -> InteractionRecord:
        """Until the user sees an answer: a message, an edit or a followup (a deferred
        acknowledgement alone is not one)."""
        await asyncio.wait_for(self.answered.wait(), timeout)
        return self


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    code: int
    message: str
    retry_after: float
    times: int


@dataclass
class GatewayConnection:
    ws: web.WebSocketResponse
    sequence: int = 0
    session_id: str = ""
    identified: bool = False
    intents: int = 0
    shard: tuple[int, int] | None = None  # (id, count) from IDENTIFY; None: every guild
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def serves(self, guild_id: int | None) -> bool:
        """Whether this connection receives the events of ``guild_id`` (None: a DM)."""
        return self.shard is None or shard_of(guild_id, self.shard[1]) == self.shard[0]

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        async with self.lock:
            packet: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
            if op == 0:
                self.sequence += 1
                packet["s"] = self.sequence
            await self.ws.send_str(json.dumps(packet))


Handler = Callable[..., Any]


class FakeDiscord:
    """The fake server. ``await start()``, point discord.py at ``api_base``/``gateway_url``."""

    def __init__(self, *, token: str = "fake-token", ack_deadline: float = 3.0,
                 strict_limits: bool = True) -> None:
        self.token = token
        self.ack_deadline = ack_deadline
        self.strict_limits = strict_limits
        self.ids = Snowflakes()
        self.calls: list[Call] = []
        self.messages: dict[int, dict[int, StoredMessage]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.guilds: dict[int, dict[str, Any]] = {}
        self.users: dict[str, dict[str, Any]] = {}
        self.permissions: dict[int, int] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None=global)
        self.rejections: list[tuple[str, list[str]]] = []
        self.connections: list[GatewayConnection] = []
        self.identify_count = 0
        self.recommended_shards = 1  # GET /gateway/bot's "shards"
        self.dms_closed: set[int] = set()
        self.thread_members: dict[int, set[int]] = {}
        self.uploads: dict[str, StoredFile] = {}  # attachment options of slash commands
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self._dm_channels: dict[int, int] = {}
        self._faults: list[Fault] = []
        self._nonces: dict[str, tuple[float, StoredMessage]] = {}  # enforce_nonce
        self._changed = asyncio.Condition()
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.routes: list[tuple[str, re.Pattern[str], Handler]] = self._route_table()
        self._setup_world()

    # ------------------------------------------------------------------ world set-up
    def _setup_world(self) -> None:
        app_id = self.ids.next()
        self.bot_user = {
            "id": str(app_id), "username": "Ludotheque", "global_name": None,
            "discriminator": "0", "avatar": None, "bot": True, "flags": 0,
            "verified": True, "mfa_enabled": False, "public_flags": 0,
        }
        self.application_id = app_id
        for name in ("alice", "bob", "carol", "dave", "erin"):
            self.users[name] = {
                "id": str(self.ids.next()), "username": name, "global_name": name.title(),
                "discriminator": "0", "avatar": None, "public_flags": 0,
            }
        self.application = {
            "id": str(app_id), "name": "Ludotheque", "icon": None, "description": "",
            "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": self.users["alice"], "flags": 1 << 19, "bot": self.bot_user,
            "summary": "", "team": None,
        }
        self.guild_id = self.add_guild("Ludotheque Test", owner="alice")
        self.channel_id = self.add_channel(self.guild_id, "games")
        self.other_channel_id = self.add_channel(self.guild_id, "general")

    def add_guild(self, name: str, *, owner: str, locale: str = "en-US",
                  shard: tuple[int, int] | None = None) -> int:
        """A guild every user is a member of; ``shard=(id, count)`` picks an id that Discord
        would place on that shard."""
        guild_id = self.ids.next() if shard is None else self.ids.next_on(*shard)
        member_names = list(self.users)
        self.guilds[guild_id] = {
            "id": str(guild_id), "name": name, "icon": None, "owner_id": self.users[owner]["id"],
            "preferred_locale": locale, "features": [], "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "nsfw_level": 0, "premium_tier": 0, "system_channel_id": None,
            "afk_channel_id": None, "afk_timeout": 300, "unavailable": False, "large": False,
            "roles": [
                {"id": str(guild_id), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS),
                 "position": 0, "color": 0, "hoist": False, "managed": False,
                 "mentionable": False, "flags": 0},
            ],
            "emojis": [], "stickers": [], "threads": [], "presences": [], "voice_states": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "joined_at": now_iso(), "member_names": member_names,
        }
        self.permissions[int(self.users[owner]["id"])] = ALL_PERMISSIONS
        return guild_id

    def add_channel(self, guild_id: int, name: str) -> int:
        channel_id = self.ids.next()
        self.channels[channel_id] = {
            "id": str(channel_id), "type": GUILD_TEXT, "guild_id": str(guild_id), "name": name,
            "position": len(self.channels), "permission_overwrites": [], "nsfw": False,
            "topic": None, "last_message_id": None, "parent_id": None,
            "rate_limit_per_user": 0, "flags": 0,
        }
        self.messages[channel_id] = {}
        return channel_id

    def add_user(self, name: str) -> dict[str, Any]:
        """A user outside every guild (e.g. someone met only in DMs)."""
        user = {"id": str(self.ids.next()), "username": name, "global_name": name.title(),
                "discriminator": "0", "avatar": None, "public_flags": 0}
        self.users[name] = user
        return user

    def user(self, who: str | int | dict[str, Any]) -> dict[str, Any]:
        if isinstance(who, dict):
            return who
        for user in self.users.values():
            if str(who) in (user["username"], user["id"]):
                return user
        if str(who) == self.bot_user["id"]:
            return self.bot_user
        raise LookupError(f"unknown user {who!r}")

    def user_id(self, who: str | int | dict[str, Any]) -> int:
        return int(self.user(who)["id"])

    def member(self, guild_id: int, who: str | int | dict[str, Any]) -> dict[str, Any]:
        user = self.user(who)
        members = self.guilds[guild_id]["member_names"]
        if user["username"] not in members and user is not self.bot_user:
            raise LookupError(f"{user['username']} is not a member of guild {guild_id}")
        return {"user": user, "roles": [], "nick": None, "avatar": None, "joined_at": now_iso(),
                "deaf": False, "mute": False, "flags": 0, "pending": False}

    def member_permissions(self, who: str | int | dict[str, Any]) -> int:
        return self.permissions.get(self.user_id(who), MEMBER_PERMISSIONS)

    def set_permissions(self, who: str | int | dict[str, Any], value: int) -> None:
        self.permissions[self.user_id(who)] = value

    def close_dms(self, who: str | int | dict[str, Any]) -> None:
        """From now on, DMs to this user fail with 403 code 50007 (closed privacy setting)."""
        self.dms_closed.add(self.user_id(who))

    def guild_payload(self, guild_id: int) -> dict[str, Any]:
        """The GUILD_CREATE payload: channels, threads, roles, members (bot + test users)."""
        guild = {k: v for k, v in self.guilds[guild_id].items() if k != "member_names"}
        own = [c for c in self.channels.values() if c.get("guild_id") == str(guild_id)]
        threads = (PUBLIC_THREAD, PRIVATE_THREAD)
        guild["channels"] = [
            {k: v for k, v in c.items() if k != "guild_id"} for c in own if c["type"] not in threads
        ]
        guild["threads"] = [c for c in own if c["type"] in threads]
        members = [self.member(guild_id, self.bot_user)]
        members += [self.member(guild_id, n) for n in self.guilds[guild_id]["member_names"]]
        guild["members"] = members
        guild["member_count"] = len(members)
        return guild

    # ------------------------------------------------------------------ server lifecycle
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway/", self._gateway)
        app.router.add_route("GET", "/attachments/{cid}/{aid}/{name}", self._attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for conn in list(self.connections):
            await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = GatewayConnection(ws)
        await conn.send(10, {"heartbeat_interval": 41250})
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    break
                packet = json.loads(message.data)
                await self._gateway_packet(conn, packet["op"], packet.get("d"))
        finally:
            if conn in self.connections:
                self.connections.remove(conn)
            await self._notify()
        return ws

    async def _gateway_packet(self, conn: GatewayConnection, op: int, data: Any) -> None:
        if op == 1:
            await conn.send(11, None)
        elif op == 2:
            if data.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = data.get("shard")
            if shard is not None:
                shard_id, count = (int(x) for x in shard)
                if not 0 <= shard_id < count:
                    await conn.ws.close(code=4010, message=b"Invalid shard.")
                    return
                conn.shard = (shard_id, count)
            conn.identified, conn.intents = True, int(data.get("intents") or 0)
            conn.session_id = uuid.uuid4().hex
            self.identify_count += 1
            guilds = [g for g in self.guilds if conn.serves(g)]
            ready: dict[str, Any] = {
                "v": 10, "user": self.bot_user, "session_id": conn.session_id,
                "resume_gateway_url": self.gateway_url, "session_type": "normal",
                "application": {"id": str(self.application_id), "flags": self.application["flags"]},
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "private_channels": [], "relationships": [], "_trace": ["fake-discord"],
            }
            if conn.shard is not None:
                ready["shard"] = list(conn.shard)
            await conn.send(0, ready, "READY")
            for guild_id in guilds:
                await conn.send(0, self.guild_payload(guild_id), "GUILD_CREATE")
            self.connections.append(conn)
            await self._notify()
        elif op == 6:
            # Sessions are not kept: ask for a fresh IDENTIFY, as Discord does for a stale one.
            await conn.send(9, False)
        elif op == 8:
            guild_id = int(data["guild_id"])
            members = self.guild_payload(guild_id)["members"]
            await conn.send(0, {"guild_id": str(guild_id), "members": members, "chunk_index": 0,
                                "chunk_count": 1, "nonce": data.get("nonce"), "not_found": []},
                            "GUILD_MEMBERS_CHUNK")

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Push a DISPATCH event to every identified bot that serves its guild (the shard
        holding it; DMs go to shard 0); returns how many received it."""
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        targets = [c for c in self.connections
                   if c.identified and not c.ws.closed and c.serves(guild_id)]
        if not targets:
            raise RuntimeError(f"no bot connected to receive {event}")
        for conn in targets:
            await conn.send(0, data, event)
        return len(targets)

    async def wait_for_connection(self, timeout: float = HANG) -> None:
        await self.wait_until(lambda: any(c.identified for c in self.connections), timeout)

    async def drop_connections(self, code: int = 1001) -> None:
        """Close every gateway socket from the server side (an outage, a restart of Discord)."""
        for conn in list(self.connections):
            await conn.ws.close(code=code)

    # ------------------------------------------------------------------ REST plumbing
    def _route_table(self) -> list[tuple[str, re.Pattern[str], Handler]]:
        snowflake, token = r"(\d+)", r"([^/]+)"
        table: list[tuple[str, str, Handler]] = [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/users/" + snowflake, self._get_user),
            ("GET", r"/gateway(?:/bot)?", self._get_gateway),
            ("GET", r"/(?:oauth2/)?applications/@me", self._get_application),
            ("PUT", rf"/applications/{snowflake}/commands", self._put_commands),
            ("GET", rf"/applications/{snowflake}/commands", self._get_commands),
            ("PUT", rf"/applications/{snowflake}/guilds/{snowflake}/commands", self._put_commands),
            ("GET", rf"/applications/{snowflake}/guilds/{snowflake}/commands", self._get_commands),
            ("POST", rf"/interactions/{snowflake}/{token}/callback", self._callback),
            ("GET", rf"/webhooks/{snowflake}/{token}/messages/(@original|\d+)", self._wh_get),
            ("PATCH", rf"/webhooks/{snowflake}/{token}/messages/(@original|\d+)", self._wh_edit),
            ("DELETE", rf"/webhooks/{snowflake}/{token}/messages/(@original|\d+)", self._wh_delete),
            ("POST", rf"/webhooks/{snowflake}/{token}", self._wh_followup),
            ("GET", rf"/channels/{snowflake}", self._get_channel),
            ("GET", rf"/channels/{snowflake}/messages", self._history),
            ("POST", rf"/channels/{snowflake}/messages", self._post_message),
            ("GET", rf"/channels/{snowflake}/messages/{snowflake}", self._get_message),
            ("PATCH", rf"/channels/{snowflake}/messages/{snowflake}", self._edit_message),
            ("DELETE", rf"/channels/{snowflake}/messages/{snowflake}", self._delete_message),
            ("PUT", rf"/channels/{snowflake}/messages/{snowflake}/reactions/[^/]+/@me",
             self._no_content),
            ("POST", rf"/channels/{snowflake}/typing", self._no_content),
            ("POST", rf"/channels/{snowflake}/threads", self._create_thread),
            ("POST", rf"/channels/{snowflake}/messages/{snowflake}/threads", self._thread_from_msg),
            ("PUT", rf"/channels/{snowflake}/thread-members/(@me|\d+)", self._join_thread),
            ("POST", r"/users/@me/channels", self._open_dm),
            ("GET", rf"/guilds/{snowflake}", self._get_guild),
            ("GET", rf"/guilds/{snowflake}/members/{snowflake}", self._get_member),
        ]
        return [(m, re.compile(p + r"/?"), h) for m, p, h in table]

    async def _read_body(self, request: web.Request) -> tuple[Any, list[StoredFile]]:
        files: list[StoredFile] = []
        body: Any = None
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                raw = await part.read(decode=True)  # type: ignore[union-attr]
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(raw.decode())
                elif part.filename is not None:
                    # discord.py uploads as octet-stream; Discord derives the type from the name
                    ctype = part.headers.get("Content-Type", "application/octet-stream")
                    if ctype == "application/octet-stream":
                        ctype = mimetypes.guess_type(part.filename)[0] or ctype
                    files.append(StoredFile(name, part.filename, ctype, bytes(raw)))
        elif request.can_read_body:
            text = await request.text()
            if text:
                body = json.loads(text)
        return body, files

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        self._in_flight += 1
        try:
            return await self._rest_inner(request)
        finally:
            self._in_flight -= 1
            self._last_activity = time.monotonic()
            await self._notify()

    async def _rest_inner(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        call = Call(len(self.calls), request.method, path, dict(request.query), body, files,
                    time.monotonic(), user_agent=request.headers.get("User-Agent", ""))
        self.calls.append(call)
        status, payload, headers = 0, None, {}
        try:
            fault = self._take_fault(request.method, path)
            if fault is not None:
                raise_fault(fault)
            handler, groups = self._match(request.method, path)
            if not path.startswith(("/webhooks/", "/interactions/")):
                self._check_auth(request)
            status, payload = 200, await handler(call, *groups)
            if payload is None:
                status = 204
        except RateLimitedError as exc:
            status, payload = 429, exc.body()
            headers = {"Via": "1.1 google", "Retry-After": str(exc.retry_after),
                       "X-RateLimit-Scope": "user"}
        except DiscordError as exc:
            status, payload = exc.status, exc.body()
        call.status, call.response = status, payload
        if status >= 400:
            log.info("fake discord: %s %s -> %s %s", request.method, path, status, payload)
        if payload is None:
            return web.Response(status=status)
        # discord.py parses JSON only for exactly this Content-Type (no charset).
        headers["Content-Type"] = "application/json"
        return web.Response(status=status, body=json.dumps(payload).encode(), headers=headers)

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordError(401, 0, "401: Unauthorized")

    def _match(self, method: str, path: str) -> tuple[Handler, tuple[str, ...]]:
        for route_method, pattern, handler in self.routes:
            found = pattern.fullmatch(path)
            if found and route_method == method:
                return handler, found.groups()
        raise DiscordError(404, 0, "404: Not Found")

    def _take_fault(self, method: str, path: str) -> Fault | None:
        for fault in self._faults:
            if fault.method == method and fault.pattern.search(path):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                return fault
        return None

    def fail_next(self, method: str, path_regex: str, *, status: int, code: int = 0,
                  message: str = "", retry_after: float = 0.05, times: int = 1) -> None:
        """Make the next ``times`` matching calls fail (429 carries ``retry_after``)."""
        text = message or {403: "Missing Permissions", 404: "Unknown Message",
                           429: "You are being rate limited."}.get(status, f"{status}: error")
        self._faults.append(Fault(method.upper(), re.compile(path_regex), status, code, text,
                                  retry_after, times))

    # ------------------------------------------------------------------ waiting
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float) -> Any:
        """``predicate``'s first truthy value, checked again each time the fake answers a
        request or a gateway connection opens or closes, so a test waits on the bot, not
        on a clock; ``timeout`` only catches a hang."""

        async def waiter() -> Any:
            async with self._changed:
                while not (result := predicate()):
                    await self._changed.wait()
                return result

        return await asyncio.wait_for(waiter(), timeout)

    def calls_to(self, method: str, path_regex: str, *, since: int = 0) -> list[Call]:
        pattern = re.compile(path_regex)
        return [c for c in self.calls[since:]
                if c.method == method.upper() and pattern.search(c.path)]

    async def wait_for_call(self, method: str, path_regex: str, *, timeout: float = HANG,
                            since: int = 0, count: int = 1) -> Call:
        """The ``count``-th matching call made at or after index ``since``, once answered."""

        def found() -> Call | None:
            matches = [c for c in self.calls_to(method, path_regex, since=since) if c.status]
            return matches[count - 1] if len(matches) >= count else None

        return await self.wait_until(found, timeout)

    async def idle(self, *, quiet: float = 0.05, timeout: float = HANG) -> None:
        """Wait until no request is in flight and none arrived for ``quiet`` seconds.

        It yields to the event loop at least once, even when the fake is already quiet: a
        caller's wait loop then lets the bot run between its checks instead of spinning."""
        deadline = time.monotonic() + timeout
        await asyncio.sleep(0)
        while True:
            silent = time.monotonic() - self._last_activity
            if self._in_flight == 0 and silent >= quiet:
                return
            if time.monotonic() > deadline:
                raise TimeoutError("the bot kept calling the fake Discord")
            await asyncio.sleep(max(0.01, quiet - silent))

    # ------------------------------------------------------------------ message store
    def channel_messages(self, channel_id: int | None = None, *, ephemeral: bool | None = None,
                         deleted: bool = False) -> list[StoredMessage]:
        """Messages of one channel in order (``ephemeral``: None = all, False = public only)."""
        store = self.messages.get(channel_id or self.channel_id, {})
        return [m for m in store.values()
                if (deleted or not m.deleted) and (ephemeral is None or m.ephemeral == ephemeral)]

    def all_messages(self) -> list[StoredMessage]:
        every = [m for store in self.messages.values() for m in store.values()]
        return sorted(every, key=lambda m: m.id)

    def public_messages(self) -> list[StoredMessage]:
        """Every non-ephemeral guild-channel message (what any member could read), all versions."""
        found = []
        for message in self.all_messages():
            channel = self.channels.get(message.channel_id, {})
            if channel.get("type") != DM and not message.ephemeral:
                found.append(message)
        return found

    def message(self, message_id: int | str) -> StoredMessage:
        for store in self.messages.values():
            if int(message_id) in store:
                return store[int(message_id)]
        raise DiscordError(404, 10008, "Unknown Message")

    def last_message(self, channel_id: int | None = None, *,
                     predicate: Callable[[StoredMessage], bool] | None = None) -> StoredMessage:
        found = [m for m in self.channel_messages(channel_id) if predicate is None or predicate(m)]
        if not found:
            raise LookupError(f"no matching message in channel {channel_id or self.channel_id}")
        return found[-1]

    def dm_messages(self, who: str | int | dict[str, Any]) -> list[StoredMessage]:
        channel_id = self._dm_channels.get(self.user_id(who))
        return [] if channel_id is None else self.channel_messages(channel_id)

    def _attachment_payload(self, channel_id: int, stored: StoredFile,
                            description: str | None) -> dict[str, Any]:
        attachment_id = str(self.ids.next())
        url = f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{stored.filename}"
        payload: dict[str, Any] = {
            "id": attachment_id, "filename": stored.filename, "size": len(stored.data),
            "url": url, "proxy_url": url, "content_type": stored.content_type,
        }
        if description:
            payload["description"] = description
        if stored.content_type.startswith("image/"):
            try:
                width, height = stored.image().size
                payload.update(width=width, height=height)
            except Exception:  # noqa: BLE001 - a broken image is the bot's bug, shown by tests
                log.warning("uploaded file %s is not a readable image", stored.filename)
        return payload

    def _apply_attachments(self, message: StoredMessage, body: dict[str, Any],
                           files: list[StoredFile], *, editing: bool) -> None:
        """Keep listed existing attachments, add new uploads (``files[n]`` <-> ``{"id": n}``)."""
        by_field = {f.field: f for f in files}
        existing = {a["id"]: a for a in message.data.get("attachments", [])}
        listed = body.get("attachments")
        result: list[dict[str, Any]] = []
        if listed is None:
            result = list(existing.values()) if editing else []
            listed = [{"id": i, "filename": f.filename} for i, f in enumerate(files)]
        for entry in listed:
            key = str(entry.get("id"))
            if key in existing and editing:
                result.append(existing[key])
            elif f"files[{key}]" in by_field:
                stored = by_field[f"files[{key}]"]
                payload = self._attachment_payload(message.channel_id, stored,
                                                   entry.get("description"))
                message.files[payload["id"]] = stored
                result.append(payload)
            else:
                raise DiscordError(400, 50035, "Invalid Form Body",
                                   {"attachments": f"unknown attachment {key}"})
        message.data["attachments"] = result
        by_name = {a["filename"]: a["url"] for a in result}

        def resolve(url: Any) -> Any:
            if isinstance(url, str) and url.startswith("attachment://"):
                return by_name.get(url.removeprefix("attachment://"), url)
            return url

        for embed in message.data.get("embeds") or []:
            for key in ("image", "thumbnail"):
                if isinstance(embed.get(key), dict):
                    embed[key]["url"] = resolve(embed[key].get("url"))

    def _check_limits(self, what: str, body: dict[str, Any], files: list[StoredFile]) -> None:
        problems = discord_limits.message_problems(body, [len(f.data) for f in files])
        if problems:
            self.rejections.append((what, problems))
            if self.strict_limits:
                raise DiscordError(400, 50035, "Invalid Form Body", {"_errors": problems})

    def _create_message(self, channel_id: int, body: dict[str, Any] | None,
                        files: list[StoredFile], *, mtype: int = 0, extra_flags: int = 0,
                        interaction: InteractionRecord | None = None) -> StoredMessage:
        body = body or {}
        self._check_limits(f"message in {channel_id}", body, files)
        if not (body.get("content") or body.get("embeds") or body.get("components") or files
                or body.get("poll") or extra_flags & LOADING):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        channel = self.channels[channel_id]
        data: dict[str, Any] = {
            "id": str(self.ids.next()), "channel_id": str(channel_id), "type": mtype,
            "author": self.bot_user, "content": body.get("content") or "",
            "timestamp": now_iso(), "edited_timestamp": None, "tts": bool(body.get("tts")),
            "mention_everyone": False, "mentions": self._mentions(body), "mention_roles": [],
            "attachments": [],
            "embeds": copy.deepcopy(body.get("embeds") or []), "pinned": False,
            "components": copy.deepcopy(body.get("components") or []),
            "flags": (int(body.get("flags") or 0) & (EPHEMERAL | (1 << 15) | (1 << 2)))
            | extra_flags,
        }
        if channel.get("guild_id"):
            data["guild_id"] = channel["guild_id"]
        if body.get("message_reference"):
            data["type"] = 19
            data["message_reference"] = body["message_reference"]
        if interaction is not None:
            payload = interaction.payload
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            user = payload.get("member", {}).get("user") or payload.get("user")
            metadata: dict[str, Any] = {
                "id": payload["id"], "type": payload["type"], "user": user,
                "authorizing_integration_owners": payload["authorizing_integration_owners"],
            }
            if payload.get("message"):
                metadata["interacted_message_id"] = payload["message"]["id"]
            data["interaction_metadata"] = metadata
        message = StoredMessage(data, interaction_id=interaction.id if interaction else None)
        self._apply_attachments(message, body, files, editing=False)
        self.messages.setdefault(channel_id, {})[message.id] = message
        channel["last_message_id"] = data["id"]
        return message

    def _edit(self, message: StoredMessage, body: dict[str, Any] | None,
              files: list[StoredFile]) -> StoredMessage:
        """Apply an edit; a "thinking" message stops loading and keeps its ephemerality."""
        body = body or {}
        if message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        editable = (1 << 2) | (1 << 15)  # SUPPRESS_EMBEDS, IS_COMPONENTS_V2
        flags = message.flags & ~LOADING
        if "flags" in body:
            flags = (flags & ~editable) | (int(body["flags"] or 0) & editable)
        merged = {**message.data, **{k: v for k, v in body.items() if k != "attachments"}}
        merged["flags"] = flags
        self._check_limits(f"edit of {message.id}", merged, files)
        message.history.append(copy.deepcopy(message.data))
        for key in ("content", "embeds", "components"):
            if key in body:
                empty: Any = "" if key == "content" else []
                message.data[key] = copy.deepcopy(body[key]) if body[key] is not None else empty
        message.data["flags"] = flags
        message.data["edited_timestamp"] = now_iso()
        if "attachments" in body or files:
            self._apply_attachments(message, body, files, editing=True)
        return message

    # ------------------------------------------------------------------ REST handlers
    async def _no_content(self, call: Call, *groups: str) -> None:
        return None

    async def _get_me(self, call: Call) -> dict[str, Any]:
        return self.bot_user

    async def _get_user(self, call: Call, user_id: str) -> dict[str, Any]:
        try:
            return self.user(int(user_id))
        except LookupError:
            raise DiscordError(404, 10013, "Unknown User") from None

    async def _get_gateway(self, call: Call) -> dict[str, Any]:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return {"url": self.gateway_url, "shards": self.recommended_shards,
                "session_start_limit": limit}

    async def _get_application(self, call: Call) -> dict[str, Any]:
        return self.application

    def _check_app(self, app_id: str) -> None:
        if int(app_id) != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")

    async def _put_commands(self, call: Call, app_id: str,
                            guild_id: str | None = None) -> list[dict[str, Any]]:
        self._check_app(app_id)
        scope = int(guild_id) if guild_id else None
        commands = list(call.json or [])
        problems = discord_limits.command_problems(commands, guild=scope is not None)
        if problems:
            self.rejections.append(("commands", problems))
            if self.strict_limits:
                raise DiscordError(400, 50035, "Invalid Form Body", {"_errors": problems})
        stored = []
        for command in commands:
            kind = int(command.get("type", 1))
            key = (scope, kind, command["name"])
            command_id = self._command_ids.setdefault(key, self.ids.next())
            entry = {"type": 1, "nsfw": False, "default_member_permissions": None,
                     "description": "", **copy.deepcopy(command),
                     "id": str(command_id), "application_id": str(self.application_id),
                     "version": str(self.ids.next())}
            if scope is not None:
                entry["guild_id"] = str(scope)
            stored.append(entry)
        self.commands[scope] = stored
        return stored

    async def _get_commands(self, call: Call, app_id: str,
                            guild_id: str | None = None) -> list[dict[str, Any]]:
        self._check_app(app_id)
        return self.commands.get(int(guild_id) if guild_id else None, [])

    def _channel(self, channel_id: str | int) -> dict[str, Any]:
        try:
            return self.channels[int(channel_id)]
        except KeyError:
            raise DiscordError(404, 10003, "Unknown Channel") from None

    async def _get_channel(self, call: Call, channel_id: str) -> dict[str, Any]:
        return self._channel(channel_id)

    async def _get_guild(self, call: Call, guild_id: str) -> dict[str, Any]:
        if int(guild_id) not in self.guilds:
            raise DiscordError(404, 10004, "Unknown Guild")
        guild = self.guild_payload(int(guild_id))
        return {k: v for k, v in guild.items() if k not in ("members", "channels", "threads")}

    async def _get_member(self, call: Call, guild_id: str, user_id: str) -> dict[str, Any]:
        try:
            return self.member(int(guild_id), int(user_id))
        except (LookupError, KeyError):
            raise DiscordError(404, 10007, "Unknown Member") from None

    def _check_sendable(self, channel: dict[str, Any]) -> None:
        if channel["type"] == DM:
            recipient = int(channel["recipients"][0]["id"])
            if recipient in self.dms_closed:
                raise DiscordError(403, 50007, "Cannot send messages to this user")

    async def _post_message(self, call: Call, channel_id: str) -> dict[str, Any]:
        channel = self._channel(channel_id)
        self._check_sendable(channel)
        body = call.json or {}
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            earlier = self._nonces.get(str(nonce))
            if earlier is not None and time.monotonic() - earlier[0] < NONCE_WINDOW:
                return earlier[1].data  # the same message again, none created
        message = self._create_message(int(channel_id), call.json, call.files)
        if nonce is not None:
            message.data["nonce"] = str(nonce)
            if body.get("enforce_nonce"):
                self._nonces[str(nonce)] = (time.monotonic(), message)
        return message.data

    def _mentions(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The users a new message pings: mentioned in its content and let through by its
        ``allowed_mentions`` (all of them when it has none)."""
        allowed = body.get("allowed_mentions")
        out = []
        for found in dict.fromkeys(MENTION.findall(body.get("content") or "")):
            if allowed is not None and "users" not in (allowed.get("parse") or []) \
                    and found not in {str(u) for u in allowed.get("users") or []}:
                continue
            try:
                out.append(copy.deepcopy(self.user(found)))
            except LookupError:
                out.append({"id": found})
        return out

    async def _history(self, call: Call, channel_id: str) -> list[dict[str, Any]]:
        self._channel(channel_id)
        limit = int(call.query.get("limit", 50))
        before = int(call.query.get("before", 1 << 63))
        after = int(call.query.get("after", 0))
        found = [m.data for m in reversed(self.channel_messages(int(channel_id), ephemeral=False))
                 if after < m.id < before]
        return found[:limit]

    def _channel_message(self, channel_id: str, message_id: str) -> StoredMessage:
        self._channel(channel_id)
        message = self.messages.get(int(channel_id), {}).get(int(message_id))
        if message is None or message.deleted or message.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    async def _get_message(self, call: Call, channel_id: str, message_id: str) -> dict[str, Any]:
        return self._channel_message(channel_id, message_id).data

    async def _edit_message(self, call: Call, channel_id: str, message_id: str) -> dict[str, Any]:
        message = self._channel_message(channel_id, message_id)
        return self._edit(message, call.json, call.files).data

    async def _delete_message(self, call: Call, channel_id: str, message_id: str) -> None:
        self._channel_message(channel_id, message_id).deleted = True

    def _new_thread(self, parent: dict[str, Any], thread_id: int, body: dict[str, Any],
                    kind: int) -> dict[str, Any]:
        if parent["type"] != GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if not 1 <= len(body.get("name") or "") <= 100:
            raise DiscordError(400, 50035, "Invalid Form Body", {"name": "1-100 characters"})
        thread = {
            "id": str(thread_id), "type": kind, "guild_id": parent["guild_id"],
            "parent_id": parent["id"], "owner_id": self.bot_user["id"], "name": body["name"],
            "last_message_id": None, "message_count": 0, "member_count": 1,
            "rate_limit_per_user": 0, "flags": 0, "total_message_sent": 0,
            "thread_metadata": {
                "archived": False, "locked": False, "create_timestamp": now_iso(),
                "archive_timestamp": now_iso(), "invitable": bool(body.get("invitable", True)),
                "auto_archive_duration": int(body.get("auto_archive_duration") or 4320),
            },
            "member": {"id": str(thread_id), "user_id": self.bot_user["id"],
                       "join_timestamp": now_iso(), "flags": 0},
        }
        self.channels[thread_id] = thread
        self.messages[thread_id] = {}
        self.thread_members[thread_id] = {self.application_id}
        return thread

    async def _create_thread(self, call: Call, channel_id: str) -> dict[str, Any]:
        parent = self._channel(channel_id)
        body = call.json or {}
        thread = self._new_thread(parent, self.ids.next(), body, int(body.get("type") or 12))
        await self._dispatch_if_connected("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    async def _thread_from_msg(self, call: Call, channel_id: str,
                               message_id: str) -> dict[str, Any]:
        parent = self._channel(channel_id)
        message = self._channel_message(channel_id, message_id)
        if int(message_id) in self.channels:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(parent, message.id, call.json or {}, PUBLIC_THREAD)
        message.data["thread"] = thread
        await self._dispatch_if_connected("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    async def _join_thread(self, call: Call, thread_id: str, who: str) -> None:
        thread = self._channel(thread_id)
        if thread["type"] not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        user_id = self.application_id if who == "@me" else int(who)
        self.thread_members[int(thread_id)].add(user_id)

    async def _dispatch_if_connected(self, event: str, data: dict[str, Any]) -> None:
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        if any(c.identified and c.serves(guild_id) for c in self.connections):
            await self.dispatch(event, data)

    async def _open_dm(self, call: Call) -> dict[str, Any]:
        return self.channels[self.dm_channel(int((call.json or {})["recipient_id"]))]

    def dm_channel(self, who: str | int | dict[str, Any]) -> int:
        """The id of the bot's DM channel with ``who`` (opened if need be), e.g. to send an
        interaction from a DM."""
        recipient = self.user(who)
        user_id = int(recipient["id"])
        if user_id not in self._dm_channels:
            channel_id = self.ids.next()
            self._dm_channels[user_id] = channel_id
            self.channels[channel_id] = {"id": str(channel_id), "type": DM, "flags": 0,
                                         "last_message_id": None, "recipients": [recipient]}
            self.messages[channel_id] = {}
        return self._dm_channels[user_id]

    async def _attachment(self, request: web.Request) -> web.Response:
        aid = request.match_info["aid"]
        if aid in self.uploads:
            stored = self.uploads[aid]
            return web.Response(body=stored.data, headers={"Content-Type": stored.content_type})
        for message in self.messages.get(int(request.match_info["cid"]), {}).values():
            if aid in message.files:
                stored = message.files[aid]
                return web.Response(body=stored.data, headers={"Content-Type": stored.content_type})
        return web.Response(status=404)

    # ------------------------------------------------------------------ interactions (REST)
    def _record(self, interaction_id: str, token: str) -> InteractionRecord:
        record = self.interactions.get(int(interaction_id))
        if record is None or record.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        return record

    def _webhook_record(self, app_id: str, token: str) -> InteractionRecord:
        if int(app_id) != self.application_id:
            raise DiscordError(404, 10015, "Unknown Webhook")
        for record in self.interactions.values():
            if record.token == token:
                if record.acked_at is None:
                    raise DiscordError(404, 10015, "Unknown Webhook")
                return record
        raise DiscordError(404, 10015, "Unknown Webhook")

    async def _callback(self, call: Call, interaction_id: str, token: str) -> Any:
        record = self._record(interaction_id, token)
        body = call.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        if record.callbacks:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - record.dispatched_at > self.ack_deadline:
            raise DiscordError(404, 10062, "Unknown interaction")
        itype = record.payload["type"]
        allowed = {
            APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, MODAL},
            COMPONENT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
            MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
        }[itype]
        if kind not in allowed:
            raise DiscordError(400, 50035, "Invalid Form Body",
                               {"type": f"response {kind} not allowed for interaction {itype}"})
        channel_id = int(record.payload["channel_id"])
        message: StoredMessage | None = None
        if kind == CHANNEL_MESSAGE:
            mtype = 20 if itype == APPLICATION_COMMAND else 0
            message = self._create_message(channel_id, data, call.files, mtype=mtype,
                                           interaction=record)
        elif kind == DEFERRED_MESSAGE:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            mtype = 20 if itype == APPLICATION_COMMAND else 0
            message = self._create_message(channel_id, {}, [], mtype=mtype, extra_flags=flags,
                                           interaction=record)
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            if "message" not in record.payload:
                raise DiscordError(400, 50035, "Invalid Form Body", {"type": "no message"})
            message = self.message(record.payload["message"]["id"])
            if kind == UPDATE_MESSAGE:
                self._edit(message, data, call.files)
        elif kind == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            if len(choices) > discord_limits.MAX_CHOICES:
                raise DiscordError(400, 50035, "Invalid Form Body", {"choices": "max 25"})
            record.choices = choices
        elif kind == MODAL:
            problems = discord_limits.modal_problems(data)
            if problems:
                self.rejections.append(("modal", problems))
                if self.strict_limits:
                    raise DiscordError(400, 50035, "Invalid Form Body", {"_errors": problems})
            record.modal = data
        record.callbacks.append(body)
        record.acked_at = time.monotonic()
        record.original_id = message.id if message is not None else None
        record.responded.set()
        if kind not in (DEFERRED_MESSAGE, DEFERRED_UPDATE):
            record.mark_answered()
        if call.query.get("with_response") not in ("1", "true", "True"):
            return None
        response: dict[str, Any] = {"interaction": {
            "id": str(record.id), "type": itype,
            "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }}
        if message is not None:
            response["interaction"]["response_message_id"] = str(message.id)
        if message is not None and kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            response["resource"] = {"type": kind, "message": message.data}
        return response

    def _webhook_message(self, record: InteractionRecord, which: str) -> StoredMessage:
        if which == "@original":
            if record.original_id is None:
                raise DiscordError(404, 10008, "Unknown Message")
            return self.message(record.original_id)
        if int(which) not in record.followup_ids and int(which) != record.original_id:
            raise DiscordError(404, 10008, "Unknown Message")
        return self.message(which)

    async def _wh_get(self, call: Call, app_id: str, token: str, which: str) -> dict[str, Any]:
        message = self._webhook_message(self._webhook_record(app_id, token), which)
        if message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return message.data

    async def _wh_edit(self, call: Call, app_id: str, token: str, which: str) -> dict[str, Any]:
        record = self._webhook_record(app_id, token)
        message = self._webhook_message(record, which)
        edited = self._edit(message, call.json, call.files).data
        record.mark_answered()
        return edited

    async def _wh_delete(self, call: Call, app_id: str, token: str, which: str) -> None:
        message = self._webhook_message(self._webhook_record(app_id, token), which)
        if message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        message.deleted = True

    async def _wh_followup(self, call: Call, app_id: str, token: str) -> dict[str, Any] | None:
        record = self._webhook_record(app_id, token)
        original = self.message(record.original_id) if record.original_id else None
        if original is not None and original.loading and not original.deleted:
            # Discord: the first followup after a deferred reply replaces the "thinking" message
            # (its ephemerality was fixed by the defer).
            message = self._edit(original, call.json, call.files)
        else:
            message = self._create_message(int(record.payload["channel_id"]), call.json,
                                           call.files, interaction=record)
            record.followup_ids.append(message.id)
        record.mark_answered()
        wait = call.query.get("wait", "0") not in ("0", "false", "False")
        return message.data if wait else None

    # ------------------------------------------------------------------ interaction payloads
    def envelope(self, itype: int, data: dict[str, Any], user: str | int | dict[str, Any],
                 channel: int | None, locale: str) -> dict[str, Any]:
        """A raw interaction payload around ``data`` (the builders below fill ``data``)."""
        interaction_id = self.ids.next()
        channel_id = channel or self.channel_id
        channel_data = copy.deepcopy(self._channel(channel_id))
        who = self.user(user)
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(self.application_id),
            "type": itype, "data": data, "token": f"itok-{interaction_id}-{uuid.uuid4().hex}",
            "version": 1, "locale": locale, "app_permissions": str(BOT_PERMISSIONS),
            "attachment_size_limit": discord_limits.MAX_FILE_BYTES, "entitlements": [],
            "channel_id": str(channel_id), "channel": channel_data,
        }
        guild_id = channel_data.get("guild_id")
        if guild_id is not None:
            guild = self.guilds[int(guild_id)]
            permissions = self.member_permissions(who)
            channel_data["permissions"] = str(permissions)
            payload.update(
                guild_id=guild_id, guild_locale=guild["preferred_locale"], context=0,
                guild={"id": guild_id, "locale": guild["preferred_locale"], "features": []},
                member={**self.member(int(guild_id), who), "permissions": str(permissions)},
                authorizing_integration_owners={"0": guild_id},
            )
        else:
            payload.update(user=who, context=1, authorizing_integration_owners={"1": who["id"]})
        return payload

    def _find_command(self, name: str, channel: int | None) -> dict[str, Any] | None:
        guild_id = self.channels[channel or self.channel_id].get("guild_id")
        scopes = ([int(guild_id)] if guild_id else []) + [None]
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        return None

    def _command_data(self, path: str, options: dict[str, Any] | None, focused: str | None,
                      channel: int | None) -> dict[str, Any]:
        names = path.split()
        command = self._find_command(names[0], channel)
        if command is None:
            known = {scope: [c["name"] for c in cmds] for scope, cmds in self.commands.items()}
            raise LookupError(f"/{names[0]} is not a synced command; synced: {known}")
        schema: list[dict[str, Any]] = command.get("options") or []
        resolved: dict[str, dict[str, Any]] = {}
        leaf: list[dict[str, Any]] = []
        for value_name, value in (options or {}).items():
            leaf.append(self._option_value(path, schema, names[1:], value_name, value, resolved))
        if focused is not None:
            matches = [o for o in leaf if o["name"] == focused]
            if not matches:
                raise LookupError(f"focused option {focused!r} not among {list(options or {})}")
            matches[0]["focused"] = True
        nested = leaf
        for depth in range(len(names) - 1, 0, -1):
            sub = self._sub_schema(schema, names[1:depth + 1])
            nested = [{"type": sub["type"], "name": names[depth], "options": nested}]
        data: dict[str, Any] = {"id": command["id"], "name": names[0], "type": 1,
                                "options": nested}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    @staticmethod
    def _sub_schema(schema: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
        current: dict[str, Any] = {"options": schema}
        for name in names:
            found = [o for o in current.get("options") or [] if o["name"] == name]
            if not found:
                known = [o["name"] for o in current.get("options") or []]
                raise LookupError(f"no subcommand {name!r} in {known}")
            current = found[0]
        return current

    def _option_value(self, path: str, schema: list[dict[str, Any]], subs: list[str], name: str,
                      value: Any, resolved: dict[str, dict[str, Any]]) -> dict[str, Any]:
        holder = self._sub_schema(schema, subs) if subs else {"options": schema}
        if any(o.get("type") in (1, 2) for o in holder.get("options") or []):
            raise LookupError(f"/{path} needs a subcommand")
        spec = [o for o in holder.get("options") or [] if o["name"] == name]
        if not spec:
            raise LookupError(f"/{path} has no option {name!r}")
        kind = spec[0]["type"]
        if kind in (6, 9):  # user / mentionable
            user = self.user(value)
            value = user["id"]
            resolved.setdefault("users", {})[value] = user
            member = self.member(self.guild_id, user)
            member.pop("user")
            resolved.setdefault("members", {})[value] = {**member, "permissions": "0"}
        elif kind == 7:
            value = str(value)
            resolved.setdefault("channels", {})[value] = self._channel(value)
        elif kind == 11:  # attachment: the user's upload, served like any attachment
            if not isinstance(value, StoredFile):
                raise LookupError(f"option {name!r} takes a StoredFile, not {type(value)}")
            attachment = self._attachment_payload(self.channel_id, value, None)
            self.uploads[attachment["id"]] = value
            value = attachment["id"]
            resolved.setdefault("attachments", {})[value] = attachment
        return {"name": name, "type": kind, "value": value}

    def slash(self, command: str, options: dict[str, Any] | None = None, *,
              user: str | int | dict[str, Any] = "alice", channel: int | None = None,
              locale: str = "en-US") -> dict[str, Any]:
        """A chat-input command payload; ``command`` may be a path like ``"game new"``.

        Option types come from the command tree the bot synced, as Discord would send them;
        an attachment option takes a :class:`StoredFile` (the user's upload).
        """
        data = self._command_data(command, options, None, channel)
        return self.envelope(APPLICATION_COMMAND, data, user, channel, locale)

    def autocomplete(self, command: str, options: dict[str, Any], focused: str, *,
                     user: str | int | dict[str, Any] = "alice", channel: int | None = None,
                     locale: str = "en-US") -> dict[str, Any]:
        data = self._command_data(command, options, focused, channel)
        return self.envelope(AUTOCOMPLETE, data, user, channel, locale)

    def _component_payload(self, message: StoredMessage | int | str, component: dict[str, Any],
                           data: dict[str, Any], user: str | int | dict[str, Any],
                           locale: str) -> dict[str, Any]:
        stored = message if isinstance(message, StoredMessage) else self.message(message)
        if stored.deleted:
            raise LookupError(f"message {stored.id} was deleted")
        if component.get("disabled"):
            raise LookupError(f"component {component['custom_id']!r} is disabled")
        payload = self.envelope(COMPONENT, data, user, stored.channel_id, locale)
        payload["message"] = copy.deepcopy(stored.data)
        return payload

    def button(self, custom_id: str, message: StoredMessage | int | str, *,
               user: str | int | dict[str, Any] = "alice", locale: str = "en-US") -> dict[str, Any]:
        """A click on a button that exists (and is enabled) in the stored message."""
        stored = message if isinstance(message, StoredMessage) else self.message(message)
        component = stored.find(custom_id=custom_id)
        if component.get("type") != 2:
            raise LookupError(f"{custom_id!r} is not a button")
        data = {"custom_id": custom_id, "component_type": 2}
        return self._component_payload(stored, component, data, user, locale)

    def select(self, custom_id: str, values: list[str], message: StoredMessage | int | str, *,
               user: str | int | dict[str, Any] = "alice", locale: str = "en-US") -> dict[str, Any]:
        """A choice in a select menu of the stored message; values are checked like Discord."""
        stored = message if isinstance(message, StoredMessage) else self.message(message)
        component = stored.find(custom_id=custom_id)
        kind = component.get("type")
        if kind not in discord_limits.SELECT_TYPES:
            raise LookupError(f"{custom_id!r} is not a select menu")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise LookupError(f"{len(values)} values outside {low}-{high}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind, "values": values}
        if kind == 3:
            offered = {o["value"] for o in component.get("options") or []}
            if not set(values) <= offered:
                raise LookupError(f"values {values} not among options {sorted(offered)}")
        elif kind == 5:
            users = {v: self.user(v) for v in values}
            data["values"] = [u["id"] for u in users.values()]
            data["resolved"] = {"users": {u["id"]: u for u in users.values()}}
        return self._component_payload(stored, component, data, user, locale)

    def modal_submit(self, record: InteractionRecord, values: dict[str, str], *,
                     user: str | int | dict[str, Any] = "alice",
                     locale: str = "en-US") -> dict[str, Any]:
        """Submitting the modal the bot opened in ``record`` with text-input values."""
        if record.modal is None:
            raise LookupError("that interaction did not open a modal")
        inputs = {c["custom_id"] for c in walk_components(record.modal.get("components") or [])
                  if c.get("type") == 4}
        if set(values) - inputs:
            raise LookupError(f"unknown text inputs {set(values) - inputs}")
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
                for k, v in values.items()]
        data = {"custom_id": record.modal["custom_id"], "components": rows}
        channel = int(record.payload["channel_id"])
        payload = self.envelope(MODAL_SUBMIT, data, user, channel, locale)
        if "message" in record.payload:
            payload["message"] = copy.deepcopy(self.message(record.payload["message"]["id"]).data)
        return payload

    def register_interaction(self, payload: dict[str, Any]) -> InteractionRecord:
        """Make the interaction known (its 3 s deadline starts now) without sending it."""
        record = InteractionRecord(payload, time.monotonic())
        self.interactions[record.id] = record
        return record

    async def send_interaction(self, payload: dict[str, Any]) -> InteractionRecord:
        """Push INTERACTION_CREATE to the connected bot; the record fills as the bot answers."""
        record = self.register_interaction(payload)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def interact(self, payload: dict[str, Any], *, timeout: float = HANG,
                       settle: bool = True, quiet: float = 0.05) -> InteractionRecord:
        """Send an interaction and wait for its acknowledgement; with ``settle``, also for the
        bot to finish answering it (see :meth:`settled`)."""
        record = await self.send_interaction(payload)
        await record.wait(timeout)
        if settle:
            await self.settled(record, timeout=timeout, quiet=quiet)
        return record

    async def settled(self, record: InteractionRecord, *, timeout: float = HANG,
                      grace: float = 1.0, quiet: float = 0.05) -> None:
        """Wait until the bot has finished answering ``record``: a deferred reply no longer
        "thinking"; after a deferred update, its edit or followup (at most ``grace`` s, as a
        bare acknowledgement is legal); then no request in flight for a short quiet time."""
        kind = record.response_type
        if kind == DEFERRED_MESSAGE:
            await self.wait_until(
                lambda: record.original_id is not None
                and (not self.message(record.original_id).loading
                     or (self.message(record.original_id).deleted and record.followup_ids)),
                timeout)
        elif kind == DEFERRED_UPDATE:
            token = re.escape(record.token)
            with contextlib.suppress(TimeoutError):
                await self.wait_until(lambda: any(
                    c.status and re.match(rf"/webhooks/\d+/{token}", c.path)
                    for c in self.calls), grace)
        await self.idle(quiet=quiet, timeout=timeout)

    def interaction_messages(self, record: InteractionRecord) -> list[StoredMessage]:
        """The original response and the followups of one interaction (not deleted)."""
        ids = ([record.original_id] if record.original_id else []) + record.followup_ids
        return [m for m in (self.message(i) for i in ids) if not m.deleted]


class RateLimitedError(DiscordError):
    def __init__(self, retry_after: float, message: str) -> None:
        super().__init__(429, 0, message)
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        return {"message": self.message, "retry_after": self.retry_after, "global": False,
                "code": 0}


def raise_fault(fault: Fault) -> None:
    if fault.status == 429:
        raise RateLimitedError(fault.retry_after, fault.message)
    raise DiscordError(fault.status, fault.code, fault.message)

