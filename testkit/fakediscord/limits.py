"""Discord's hard limits (documented in the API docs, not all in the OpenAPI spec).

Each check returns a list of human-readable problems; an empty list means Discord would accept it.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, List, Optional

from .state import IS_COMPONENTS_V2

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED = {"title": 256, "description": 4096, "fields": 25, "field.name": 256, "field.value": 1024,
         "footer.text": 2048, "author.name": 256}
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW = 5
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
FILES_MAX = 10
CHOICES_MAX = 25
OPTIONS_MAX = 25
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
COMMAND_DESCRIPTION_MAX = 100
GLOBAL_CHAT_COMMANDS_MAX = 100
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5


def _len(x: Any) -> int:
    return len(x) if isinstance(x, (str, list)) else 0


def _dicts(x: Any) -> List[dict]:
    """The dict items of a list; malformed shapes are the spec validator's business, not ours."""
    return [i for i in x if isinstance(i, dict)] if isinstance(x, list) else []


def check_message(body: Optional[dict], *, n_files: int = 0, v2: bool = False,
                  filenames: Iterable[str] = ()) -> List[str]:
    """A message create/edit body (channel message, interaction response data, webhook message).
    `v2`: the message being edited is already a Components V2 one (the flag cannot be unset);
    `filenames`: the files it can show (uploaded with the body, or already on the message)."""
    if not isinstance(body, dict):
        return []
    out: List[str] = []
    flags = body.get("flags") if isinstance(body.get("flags"), int) else 0
    if v2 or flags & IS_COMPONENTS_V2:
        out += check_v2(body, set(filenames))
    if _len(body.get("content")) > CONTENT_MAX:
        out.append(f"content is {len(body['content'])} chars (max {CONTENT_MAX})")
    embeds = _dicts(body.get("embeds"))
    if len(embeds) > EMBEDS_MAX:
        out.append(f"{len(embeds)} embeds (max {EMBEDS_MAX})")
    total = 0
    for i, e in enumerate(embeds):
        probs, chars = _check_embed(e)
        out += [f"embeds[{i}]: {p}" for p in probs]
        total += chars
    if total > EMBED_TOTAL_MAX:
        out.append(f"embeds total {total} chars (max {EMBED_TOTAL_MAX})")
    out += check_components(_dicts(body.get("components")), v2=v2 or bool(flags & IS_COMPONENTS_V2))
    if n_files > FILES_MAX:
        out.append(f"{n_files} files (max {FILES_MAX})")
    return out


def _check_embed(e: dict):
    out, chars = [], 0
    for key in ("title", "description"):
        n = _len(e.get(key))
        chars += n
        if n > EMBED[key]:
            out.append(f"{key} is {n} chars (max {EMBED[key]})")
    fields = _dicts(e.get("fields"))
    if len(fields) > EMBED["fields"]:
        out.append(f"{len(fields)} fields (max {EMBED['fields']})")
    for j, f in enumerate(fields):
        for key in ("name", "value"):
            n = _len(f.get(key))
            chars += n
            if n > EMBED[f"field.{key}"]:
                out.append(f"fields[{j}].{key} is {n} chars (max {EMBED['field.' + key]})")
            if n == 0:
                out.append(f"fields[{j}].{key} is empty")
    for key, sub in (("footer", "text"), ("author", "name")):
        part = e.get(key)
        n = _len(part.get(sub)) if isinstance(part, dict) else 0
        chars += n
        if n > EMBED[f"{key}.{sub}"]:
            out.append(f"{key}.{sub} is {n} chars (max {EMBED[key + '.' + sub]})")
    return out, chars


def walk_v2(items: Iterable[dict]):
    """Every component of a V2 tree (containers, sections, galleries' children included)."""
    for c in items:
        yield c
        yield from walk_v2(_dicts(c.get("components")))
        if isinstance(c.get("accessory"), dict):
            yield from walk_v2([c["accessory"]])


def media_urls(c: dict) -> List[str]:
    """The media a thumbnail, gallery or file component shows."""
    if c.get("type") == 12:
        return [i.get("media", {}).get("url", "") for i in _dicts(c.get("items"))]
    if c.get("type") in (11, 13):
        media = c.get("media") if c.get("type") == 11 else c.get("file")
        return [media.get("url", "")] if isinstance(media, dict) else []
    return []


def check_v2(body: dict, filenames: set) -> List[str]:
    """Components V2: no content, no embeds (the text is in TextDisplays), at most 4,000
    characters of text, and every `attachment://name` one of the message's files."""
    out: List[str] = []
    if body.get("content"):
        out.append("a Components V2 message cannot have content (put the text in a TextDisplay)")
    if body.get("embeds"):
        out.append("a Components V2 message cannot have embeds")
    comps = list(walk_v2(_dicts(body.get("components"))))
    text = sum(_len(c.get("content")) for c in comps if c.get("type") == 10)
    if text > V2_TEXT_MAX:
        out.append(f"{text} characters of text (max {V2_TEXT_MAX} in a Components V2 message)")
    for c in comps:
        for url in media_urls(c):
            if url.startswith("attachment://"):
                if url[len("attachment://"):] not in filenames:
                    out.append(f"{url} is not a file of this message (files: {sorted(filenames)})")
            elif not url.startswith(("http://", "https://")):
                out.append(f"media url {url!r} is neither attachment://… nor http(s)")
    return out


def check_components(rows: List[dict], *, v2: bool = False) -> List[str]:
    out: List[str] = []
    seen: set = set()
    total = 0

    def walk(items: Iterable[dict], where: str) -> None:
        nonlocal total
        for i, c in enumerate(items):
            total += 1
            here = f"{where}[{i}]"
            cid = c.get("custom_id")
            if isinstance(cid, str):
                if len(cid) > CUSTOM_ID_MAX:
                    out.append(f"{here}.custom_id is {len(cid)} chars (max {CUSTOM_ID_MAX})")
                if cid in seen:
                    out.append(f"{here}.custom_id {cid!r} is duplicated")
                seen.add(cid)
            t = c.get("type")
            if t == 1:
                kids = _dicts(c.get("components"))
                buttons = [k for k in kids if k.get("type") == 2]
                selects = [k for k in kids if k.get("type") in (3, 5, 6, 7, 8)]
                if len(buttons) > BUTTONS_PER_ROW:
                    out.append(f"{here} has {len(buttons)} buttons (max {BUTTONS_PER_ROW})")
                if selects and len(kids) > 1:
                    out.append(f"{here}: a select menu must be alone in its row")
                if not kids:
                    out.append(f"{here} is an empty action row")
            elif t == 2:
                if _len(c.get("label")) > BUTTON_LABEL_MAX:
                    out.append(f"{here}.label is {len(c['label'])} chars (max {BUTTON_LABEL_MAX})")
                if c.get("style") == 5:
                    if not c.get("url"):
                        out.append(f"{here}: link button without url")
                elif c.get("style") != 6 and cid is None:
                    out.append(f"{here}: button without custom_id")
            elif t == 3:
                opts = _dicts(c.get("options"))
                if not 1 <= len(opts) <= SELECT_OPTIONS_MAX:
                    out.append(f"{here} has {len(opts)} options (1..{SELECT_OPTIONS_MAX})")
                for j, o in enumerate(opts):
                    for key in ("label", "value", "description"):
                        if _len(o.get(key)) > SELECT_OPTION_TEXT_MAX:
                            out.append(f"{here}.options[{j}].{key} too long (max {SELECT_OPTION_TEXT_MAX})")
                if isinstance(c.get("max_values"), int) and c["max_values"] > max(len(opts), 1):
                    out.append(f"{here}.max_values exceeds the number of options")
            if t in (3, 5, 6, 7, 8) and _len(c.get("placeholder")) > SELECT_PLACEHOLDER_MAX:
                out.append(f"{here}.placeholder too long (max {SELECT_PLACEHOLDER_MAX})")
            walk(_dicts(c.get("components")), f"{here}.components")
            if isinstance(c.get("accessory"), dict):
                walk([c["accessory"]], f"{here}.accessory")

    if not v2 and len(rows) > ACTION_ROWS_MAX:
        out.append(f"{len(rows)} action rows (max {ACTION_ROWS_MAX})")
    if not v2:
        for i, r in enumerate(rows):
            if r.get("type") != 1:
                out.append(f"components[{i}] is type {r.get('type')}, top level must be action rows (no IS_COMPONENTS_V2 flag)")
    walk(rows, "components")
    if v2 and total > V2_COMPONENTS_MAX:
        out.append(f"{total} components (max {V2_COMPONENTS_MAX})")
    return out


def check_autocomplete(data: Optional[dict]) -> List[str]:
    choices = _dicts((data or {}).get("choices"))
    out = []
    if len(choices) > CHOICES_MAX:
        out.append(f"{len(choices)} autocomplete choices (max {CHOICES_MAX})")
    for i, c in enumerate(choices):
        if not 1 <= _len(c.get("name")) <= 100:
            out.append(f"choices[{i}].name must be 1..100 chars")
        if isinstance(c.get("value"), str) and len(c["value"]) > 100:
            out.append(f"choices[{i}].value is {len(c['value'])} chars (max 100)")
    return out


def check_modal(data: Optional[dict]) -> List[str]:
    data = data or {}
    out = []
    if not 1 <= _len(data.get("title")) <= MODAL_TITLE_MAX:
        out.append(f"modal title must be 1..{MODAL_TITLE_MAX} chars")
    comps = _dicts(data.get("components"))
    if not 1 <= len(comps) <= MODAL_COMPONENTS_MAX:
        out.append(f"modal has {len(comps)} components (1..{MODAL_COMPONENTS_MAX})")
    cid = data.get("custom_id") or ""
    if _len(cid) > CUSTOM_ID_MAX:
        out.append(f"modal custom_id is {len(cid)} chars (max {CUSTOM_ID_MAX})")
    return out


def check_commands(items: List[dict], *, is_global: bool) -> List[str]:
    out: List[str] = []
    items = _dicts(items)
    chat = [c for c in items if c.get("type", 1) == 1]
    if is_global and len(chat) > GLOBAL_CHAT_COMMANDS_MAX:
        out.append(f"{len(chat)} chat commands (max {GLOBAL_CHAT_COMMANDS_MAX})")
    names = [(c.get("name"), c.get("type", 1)) for c in items]
    for dup in {n for n in names if names.count(n) > 1}:
        out.append(f"duplicate command {dup}")
    for c in items:
        out += _check_command(c, c.get("name", "?"), chat=c.get("type", 1) == 1)
    return out


def _check_command(c: dict, where: str, *, chat: bool) -> List[str]:
    out: List[str] = []
    name = c.get("name") or ""
    if chat and (not isinstance(name, str) or not COMMAND_NAME.match(name) or name != name.lower()):
        out.append(f"{where}: name {name!r} must be 1-32 lowercase letters, digits, - or _")
    if chat and not 1 <= _len(c.get("description")) <= COMMAND_DESCRIPTION_MAX:
        out.append(f"{where}: description must be 1..{COMMAND_DESCRIPTION_MAX} chars")
    opts = _dicts(c.get("options"))
    if len(opts) > OPTIONS_MAX:
        out.append(f"{where}: {len(opts)} options (max {OPTIONS_MAX})")
    seen_optional = False
    for o in opts:
        sub = f"{where} {o.get('name')}"
        if o.get("type") in (1, 2):
            out += _check_command(o, sub, chat=True)
            continue
        out += _check_command({k: v for k, v in o.items() if k != "options"}, sub, chat=True)
        if o.get("required") and seen_optional:
            out.append(f"{sub}: required option after an optional one")
        seen_optional = seen_optional or not o.get("required")
        choices = _dicts(o.get("choices"))
        if len(choices) > CHOICES_MAX:
            out.append(f"{sub}: {len(choices)} choices (max {CHOICES_MAX})")
        if choices and o.get("autocomplete"):
            out.append(f"{sub}: autocomplete and choices are mutually exclusive")
    return out
