"""Test side of interactions: build the INTERACTION_CREATE payloads a Discord client would cause,
and hand back an `InteractionHandle` that records what the bot answered.

Interaction types: 2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT, 4 AUTOCOMPLETE, 5 MODAL_SUBMIT.
Callback types: 4 message, 5 deferred message, 6 deferred update, 7 update message,
8 autocomplete result, 9 modal.
"""
from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Union

from . import payloads
from .state import DM, Channel, Message, User

if TYPE_CHECKING:
    from .server import FakeDiscord

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}
RESPONSE_DEADLINE = 3.0  # seconds for the initial callback
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token stays valid


@dataclass
class Callback:
    """One POST /interactions/{id}/{token}/callback as received."""

    type: int
    data: dict
    files: Dict[str, bytes]
    latency: float  # fake-clock seconds from dispatch to this callback

    @property
    def content(self) -> Optional[str]:
        return self.data.get("content")

    @property
    def embeds(self) -> List[dict]:
        return self.data.get("embeds") or []

    @property
    def components(self) -> List[dict]:
        return self.data.get("components") or []

    @property
    def ephemeral(self) -> bool:
        return bool((self.data.get("flags") or 0) & 64)

    @property
    def choices(self) -> List[dict]:
        return self.data.get("choices") or []


@dataclass
class InteractionHandle:
    """What one dispatched interaction led to. Await `response()` / `followup(n)`."""

    fake: "FakeDiscord"
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    payload: dict
    created_at: float
    source_message_id: Optional[int] = None  # component/modal-from-component interactions
    callbacks: List[Callback] = field(default_factory=list)
    followup_ids: List[int] = field(default_factory=list)
    original_message_id: Optional[int] = None
    modal: Optional[dict] = None

    @property
    def acknowledged(self) -> bool:
        return bool(self.callbacks)

    @property
    def latency(self) -> Optional[float]:
        return self.callbacks[0].latency if self.callbacks else None

    @property
    def original(self) -> Optional[Message]:
        """The message of the initial response (for type 6/7: the message the component is on)."""
        return self.fake.state.messages.get(self.original_message_id) if self.original_message_id else None

    @property
    def followups(self) -> List[Message]:
        return [self.fake.state.messages[i] for i in self.followup_ids]

    async def response(self, timeout: float = 20.0) -> Callback:
        """The initial callback (waits for it)."""
        await _wait(lambda: self.callbacks, timeout, f"a response to interaction {self.describe()}", self.fake)
        return self.callbacks[0]

    async def followup(self, index: int = 0, timeout: float = 20.0) -> Message:
        """The index-th follow-up message (a deferred response's first follow-up fills the original)."""
        await _wait(lambda: len(self.followup_ids) > index, timeout, f"follow-up #{index} of {self.describe()}", self.fake)
        return self.fake.state.messages[self.followup_ids[index]]

    def answers(self) -> List[Message]:
        """Every message the user was answered with, in order, however the bot answered: the
        response's own message (type 4), or after a deferral its follow-ups (the first fills
        the "thinking" message)."""
        out = [] if self.original is None or self.original.loading or \
            self.original_message_id in self.followup_ids or \
            self.callbacks[0].type not in (4, 5) else [self.original]
        return out + self.followups

    async def answer(self, index: int = 0, timeout: float = 20.0) -> Message:
        """The index-th of `answers()` (waits for it)."""
        await _wait(lambda: len(self.answers()) > index, timeout,
                    f"answer #{index} to {self.describe()}", self.fake)
        return self.answers()[index]

    async def message(self, timeout: float = 20.0) -> Message:
        """The visible result: the original response message once it is no longer 'thinking'."""
        await _wait(lambda: self.original is not None and not self.original.loading, timeout,
                    f"a (non-loading) response message for {self.describe()}", self.fake)
        return self.original  # type: ignore[return-value]

    def describe(self) -> str:
        d = self.payload.get("data", {})
        what = d.get("name") or d.get("custom_id") or "?"
        return f"{self.id} ({['', '', 'command', 'component', 'autocomplete', 'modal'][self.type]} {what!r})"


async def _wait(pred: Callable[[], Any], timeout: float, what: str, fake: "FakeDiscord") -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            errors = fake.bot_errors()
            hint = f"; errors seen: {errors[-3:]}" if errors else ""
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}{hint}")
        await asyncio.sleep(0.005)


def _id(x: Union[int, str, User, Channel, Message, Any]) -> int:
    return int(getattr(x, "id", x))


class InteractionsMixin:
    """Dispatch helpers mixed into FakeDiscord."""

    async def slash(
        self: "FakeDiscord",
        user: User,
        channel: Channel,
        command: str,
        subcommand: Optional[str] = None,
        options: Optional[Dict[str, Any]] = None,
        *,
        locale: Optional[str] = None,
        forge: bool = False,
    ) -> InteractionHandle:
        """Invoke `/command [group] subcommand option:value...` as `user` in `channel`.

        `subcommand` may be "sub" or "group sub". Options are checked against the synced definition
        (unknown / missing required / not among choices raise ValueError, as the Discord client
        would not let a user send them). `forge=True` sends the values as given, past those checks
        (but with the option's JSON type): what a hostile client could send.
        """
        data = self._command_data(channel, command, subcommand, options or {}, focused=None,
                                  forge=forge)
        return await self._dispatch(APPLICATION_COMMAND, user, channel, data, locale=locale)

    async def autocomplete(
        self: "FakeDiscord",
        user: User,
        channel: Channel,
        command: str,
        subcommand: Optional[str] = None,
        options: Optional[Dict[str, Any]] = None,
        *,
        focused: str,
        locale: Optional[str] = None,
        forge: bool = False,
    ) -> InteractionHandle:
        """The user is typing into option `focused` (its current text is options[focused]);
        `forge` as for `slash`."""
        data = self._command_data(channel, command, subcommand, options or {}, focused=focused,
                                  forge=forge)
        return await self._dispatch(AUTOCOMPLETE, user, channel, data, locale=locale)

    async def click(self: "FakeDiscord", user: User, message: Message, custom_id: str, *,
                    forge: bool = False, **kw) -> InteractionHandle:
        """Click a button of `message`; `forge=True` sends any custom_id as a click on it."""
        if not forge:
            comp = self._visible_component(user, message, custom_id)
            if comp.get("type") != 2:
                raise ValueError(f"{custom_id!r} is a type {comp.get('type')} component, not a button")
            if comp.get("disabled"):
                raise ValueError(f"button {custom_id!r} is disabled; a user cannot click it")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._dispatch(MESSAGE_COMPONENT, user, self.state.channels[message.channel_id], data,
                                    message=message, **kw)

    async def select(
        self: "FakeDiscord", user: User, message: Message, custom_id: str, values: List[Any], *,
        forge: bool = False, **kw
    ) -> InteractionHandle:
        if forge:       # any values for any custom_id, as a string select on `message`
            data = {"custom_id": custom_id, "component_type": 3, "values": [str(v) for v in values]}
            return await self._dispatch(MESSAGE_COMPONENT, user, self.state.channels[message.channel_id],
                                        data, message=message, **kw)
        comp = self._visible_component(user, message, custom_id)
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise ValueError(f"{custom_id!r} is not a select menu")
        if comp.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: Dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        channel = self.state.channels[message.channel_id]
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"{bad} not among the options of {custom_id!r}: {allowed}")
            data["values"] = list(values)
        else:
            ids = [_id(v) for v in values]
            data["values"] = [str(i) for i in ids]
            kind = {5: "users", 6: "roles", 8: "channels"}.get(ctype)
            if kind:
                data["resolved"] = payloads.resolved_for({kind: ids}, self.state, self._guild_of(channel))
            else:  # mentionable: users or roles
                users = [i for i in ids if i in self.state.users]
                roles = [i for i in ids if i not in self.state.users]
                data["resolved"] = payloads.resolved_for({"users": users, "roles": roles}, self.state,
                                                         self._guild_of(channel))
        return await self._dispatch(MESSAGE_COMPONENT, user, channel, data, message=message, **kw)

    async def submit_modal(
        self: "FakeDiscord", user: User, opened_by: InteractionHandle, values: Dict[str, Any], **kw
    ) -> InteractionHandle:
        """Submit the modal the bot showed in answer to `opened_by`; `values` maps custom_id -> text
        (or a list of values for selects inside labels)."""
        await opened_by.response()
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"interaction {opened_by.describe()} was not answered with a modal")

        def answer(c: dict) -> dict:
            out = {"type": c["type"], "custom_id": c.get("custom_id")}
            v = values.get(c.get("custom_id"), "")
            if c["type"] == 4:
                out["value"] = str(v)
            else:
                out["values"] = [str(x) for x in (v if isinstance(v, list) else [v])]
            return out

        rows = []
        for comp in modal.get("components", []):
            if comp.get("type") == 1:
                rows.append({"type": 1, "components": [answer(c) for c in comp.get("components", [])]})
            elif comp.get("type") == 18:
                rows.append({"type": 18, "component": answer(comp["component"])})
        data = {"custom_id": modal.get("custom_id"), "components": rows}
        msg = self.state.messages.get(opened_by.source_message_id) if opened_by.source_message_id else None
        return await self._dispatch(MODAL_SUBMIT, user, opened_by.channel, data, message=msg, **kw)

    # -- helpers -------------------------------------------------------------
    def _guild_of(self: "FakeDiscord", channel: Channel):
        return self.state.guilds.get(channel.guild_id) if channel.guild_id else None

    def _visible_component(self: "FakeDiscord", user: User, message: Message, custom_id: str) -> dict:
        message = self.state.messages[_id(message)]  # always the current version
        if message.deleted:
            raise ValueError(f"message {message.id} was deleted")
        if message.ephemeral_to is not None and message.ephemeral_to != user.id:
            raise ValueError(f"message {message.id} is ephemeral to another user")
        comp = message.component(custom_id)
        if comp is None:
            raise ValueError(f"no component {custom_id!r} on message {message.id}; has {message.custom_ids()}")
        return comp

    def _command_data(self: "FakeDiscord", channel: Channel, command: str, subcommand: Optional[str],
                      options: Dict[str, Any], focused: Optional[str], forge: bool = False) -> dict:
        guild = self._guild_of(channel)
        cmd = self.state.find_command(command, guild.id if guild else None)
        if cmd is None:
            known = sorted({c.name for c in self.state.commands.values()})
            raise LookupError(f"/{command} is not registered for this channel (did the bot sync?); known: {known}")
        if guild is None and (cmd.guild_id is not None or 1 not in (cmd.data.get("contexts") or [0, 1, 2])
                              or cmd.data.get("dm_permission") is False):
            raise LookupError(f"/{command} cannot be used in DMs")
        if guild is not None and cmd.data.get("contexts") and 0 not in cmd.data["contexts"]:
            raise LookupError(f"/{command} cannot be used in guilds")
        node, chain = cmd.data, []
        for name in (subcommand or "").split():
            sub = next((o for o in node.get("options", []) if o["name"] == name and o.get("type") in (1, 2)), None)
            if sub is None:
                raise ValueError(f"/{command} has no subcommand {name!r}")
            chain.append(sub)
            node = sub
        if any(o.get("type") in (1, 2) for o in node.get("options", [])):
            raise ValueError(f"/{command} {subcommand or ''} needs a subcommand")
        leaf, resolved = self._leaf_options(node, options, focused, guild, forge)
        data: Dict[str, Any] = {"id": str(cmd.id), "name": cmd.name, "type": 1}
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        nested: List[dict] = leaf
        for sub in reversed(chain):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data["options"] = nested
        if resolved:
            data["resolved"] = payloads.resolved_for(resolved, self.state, guild)
        return data

    def _leaf_options(self, node: dict, options: Dict[str, Any], focused: Optional[str], guild,
                      forge: bool = False):
        specs = {o["name"]: o for o in node.get("options", [])}
        unknown = set(options) - set(specs)
        if unknown:
            raise ValueError(f"unknown option(s) {sorted(unknown)}; command takes {sorted(specs)}")
        if focused is None:
            missing = [n for n, o in specs.items() if o.get("required") and n not in options]
            if missing:
                raise ValueError(f"missing required option(s) {missing}")
        elif focused not in specs or not specs[focused].get("autocomplete"):
            raise ValueError(f"option {focused!r} does not have autocomplete")
        out, resolved = [], {}
        for name, value in options.items():
            spec, t = specs[name], specs[name]["type"]
            if name == focused:
                out.append({"name": name, "type": t, "value": str(value), "focused": True})
                continue
            if t in (6, 7, 8, 9):
                ident = _id(value)
                kind = {6: "users", 7: "channels", 8: "roles"}.get(t) or ("users" if ident in self.state.users else "roles")
                resolved.setdefault(kind, []).append(ident)
                value = str(ident)
            elif t == 4:
                value = int(value)
            elif t == 10:
                value = float(value)
            elif t == 5:
                value = bool(value)
            elif t == 3:
                value = str(value)
            else:
                raise ValueError(f"option type {t} is not supported by the fake")
            choices = spec.get("choices")
            if choices and focused is None and not forge and value not in [c["value"] for c in choices]:
                raise ValueError(f"{value!r} is not a choice of option {name!r}: {[c['value'] for c in choices]}")
            if not forge and t in (4, 10):     # the client keeps numbers within the option's range
                lo, hi = spec.get("min_value"), spec.get("max_value")
                if (lo is not None and value < lo) or (hi is not None and value > hi):
                    raise ValueError(f"{value!r} is outside {lo}..{hi} for option {name!r}")
            out.append({"name": name, "type": t, "value": value})
        return out, resolved

    async def _dispatch(self: "FakeDiscord", type: int, user: User, channel: Channel, data: dict, *,
                        message: Optional[Message] = None, locale: Optional[str] = None) -> InteractionHandle:
        if channel.type != DM and channel.guild_id is not None:
            guild = self.state.guilds[channel.guild_id]
            if user.id not in guild.members:
                raise ValueError(f"{user.username} is not a member of guild {guild.name}")
        elif channel.type == DM and channel.recipient_id != user.id:
            raise ValueError("a user can only use the bot in their own DM channel")
        iid, token = self.state.ids.next(), "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        msg = self.state.messages[message.id] if message is not None else None
        payload = payloads.interaction(
            state=self.state, id=iid, token=token, type=type, data=data, user_obj=user, channel_obj=channel,
            locale=locale or user.locale, message_obj=msg, base_url=self.base_url,
        )
        handle = InteractionHandle(self, iid, token, type, user, channel, payload, self.clock.now(),
                                   source_message_id=msg.id if msg else None)
        self.interactions[iid] = handle
        sent = await self.gateway.dispatch("INTERACTION_CREATE", payload, latest_only=True)
        if not sent:
            raise RuntimeError("no bot session is connected to the fake gateway")
        return handle
