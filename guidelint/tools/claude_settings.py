"""Claude Code's settings keys (claude_settings.json): the JSON type of each value, the
documented values where a key takes a few, and the scopes where a key is ignored."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def settings_facts() -> dict[str, Any]:
    from importlib import resources

    text = resources.files("guidelint.tools").joinpath("claude_settings.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def json_type(value: Any) -> str:
    """The JSON Schema type name of a parsed JSON value."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def type_fits(value: Any, types: list[str]) -> bool:
    kind = json_type(value)
    return kind in types or (kind == "integer" and "number" in types)
