"""Validate request bodies against Discord's OpenAPI spec (testkit/data/discord-api-spec/openapi.json).

The spec is OpenAPI 3.1, i.e. JSON Schema 2020-12: `nullable` is written as `"type": [..., "null"]`,
unions as `oneOf`/`anyOf`, and `$ref`s point into `#/components/schemas`. One deliberate relaxation:
the spec types every snowflake as a decimal string (`SnowflakeType`), while discord.py sends ints in
some bodies (e.g. `attachments[].id = 0`); Discord accepts both, so integers are accepted too.

Two validators of the same schema: jsonschema-rs gives the verdict (a Components V2 body's unions
take it microseconds, Python's jsonschema tens of milliseconds, which was half of an end-to-end
game's time), and Python's jsonschema explains a body found wrong (its errors carry the schema
path that `describe` walks to the union branch that was meant).
"""
from __future__ import annotations

import copy
import functools
import json
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import jsonschema
import jsonschema_rs
from jsonschema.exceptions import best_match

SPEC_PATH = Path(__file__).resolve().parent.parent / "data" / "discord-api-spec" / "openapi.json"
API_PREFIX = "/api/v10"


@functools.lru_cache(maxsize=None)
def load_spec(path: str = str(SPEC_PATH)) -> dict:
    spec = json.loads(Path(path).read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    return spec


_COMPILED: Dict[Tuple[str, str, str, str], Any] = {}   # (spec, template, method, type) -> validators


class SpecValidator:
    """Finds the spec operation for a request and validates its body; returns error strings."""

    def __init__(self, path: Path = SPEC_PATH) -> None:
        self.path = str(path)
        self.spec = load_spec(self.path)
        routes = []
        for template, ops in self.spec["paths"].items():
            segments = template.strip("/").split("/")
            literal = sum(1 for seg in segments if not seg.startswith("{"))
            pattern = "^" + re.sub(r"\{[^/}]+\}", "[^/]+", re.escape(template).replace(r"\{", "{").replace(r"\}", "}")) + "$"
            routes.append((literal, re.compile(pattern), template, ops))
        # Literal segments win over parameters: /messages/@original before /messages/{message_id}.
        routes.sort(key=lambda r: -r[0])
        self._routes = routes

    def operation(self, method: str, path: str) -> Tuple[Optional[str], Optional[dict]]:
        if path.startswith(API_PREFIX):
            path = path[len(API_PREFIX):]
        for _, rx, template, ops in self._routes:
            if rx.match(path):
                return template, ops.get(method.lower())
        return None, None

    def _validator(self, template: str, method: str, content_type: str, schema: dict):
        """(the fast validator, the explaining one) of one operation's body: built once per
        process (a fake Discord is started for nearly every test; they hold no state)."""
        key = (self.path, template, method, content_type)
        if key not in _COMPILED:
            root = copy.copy(schema)
            # $refs are "#/components/..." — make them resolvable from this root.
            root["components"] = self.spec["components"]
            _COMPILED[key] = (jsonschema_rs.Draft202012Validator(root, validate_formats=False),
                              jsonschema.Draft202012Validator(root))
        return _COMPILED[key]

    def validate(
        self, method: str, path: str, body: Any, *, multipart: bool = False, query: Optional[Dict[str, str]] = None
    ) -> List[str]:
        template, op = self.operation(method, path)
        if template is None:
            return ["path not in the API spec"]
        if op is None:
            return [f"method {method} not allowed on {template} by the API spec"]
        errors: List[str] = []
        known_query = {p["name"] for p in op.get("parameters", []) if p.get("in") == "query"}
        for name in (query or {}):
            if name not in known_query:
                errors.append(f"unknown query parameter {name!r} (spec knows {sorted(known_query)})")
        request_body = op.get("requestBody")
        if request_body is None:
            if body not in (None, b"", ""):
                errors.append("request has a body but the spec defines none")
            return errors
        if body is None:
            if request_body.get("required"):
                errors.append("request body is required by the spec")
            return errors
        content = request_body["content"]
        content_type = "multipart/form-data" if multipart and "multipart/form-data" in content else "application/json"
        if content_type not in content:
            return errors + [f"content type {content_type} not accepted by the spec ({sorted(content)})"]
        return errors + self._body_errors(template, method, content_type,
                                          content[content_type]["schema"], body)

    def _body_errors(self, template, method, content_type, schema, body) -> List[str]:
        fast, explaining = self._validator(template, method, content_type, schema)
        try:
            valid = fast.is_valid(body)
        except ValueError:      # not JSON (a test's odd body): the explaining one judges it alone
            valid = None
        if valid:
            return []
        found = list(explaining.iter_errors(body))
        if found:
            return [describe(best_match(found))]
        if valid is None:
            return []
        # the two disagree: say so, with the fast one's reason, rather than let the body pass
        return [f"jsonschema-rs: {error.message}" for error in fast.iter_errors(body)][:1]


def _wrong_branch(errs) -> bool:
    """A union branch that fails on its discriminator (`type` enum) or on the instance's kind."""
    for e in errs:
        if e.validator in ("enum", "const") and len(e.relative_path) == 1:
            return True
        if e.validator == "type" and len(e.relative_path) == 0:
            return True
    return False


def describe(err) -> str:
    """Readable text for one schema error, descending into the union branch that was meant."""
    while err.validator in ("anyOf", "oneOf") and err.context:
        branches: Dict[Any, list] = {}
        for e in err.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        live = [errs for errs in branches.values() if not _wrong_branch(errs)]
        pool = [e for errs in (live or branches.values()) for e in errs]
        err = best_match(pool)
    where = "$" + "".join(f"[{p!r}]" if isinstance(p, str) else f"[{p}]" for p in err.absolute_path)
    text = err.message if len(err.message) <= 160 else err.message[:160] + "..."
    rule = repr(err.validator_value)
    return f"{where}: {text} (schema rule {err.validator}={rule[:80]})"
