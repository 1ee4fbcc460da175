"""Claude Code plugins and marketplaces: the facts of `plugins.json` (each with its
source) and where a manifest's paths lead, for GL615 and GL616."""

from __future__ import annotations

import json
import posixpath
from functools import lru_cache
from pathlib import Path
from typing import Any

PLUGIN_ROOT_VARIABLES = ("${CLAUDE_PLUGIN_ROOT}", "$CLAUDE_PLUGIN_ROOT")


@lru_cache(maxsize=1)
def plugin_facts() -> dict[str, Any]:
    # Beside this module, like harnesses.json (no importlib.resources on the check path).
    data: dict[str, Any] = json.loads(
        Path(__file__).with_name("plugins.json").read_text(encoding="utf-8")
    )
    return data


def is_marketplace(rel: str) -> bool:
    return rel == ".claude-plugin/marketplace.json" or rel.endswith(
        "/.claude-plugin/marketplace.json"
    )


def owner_folder(rel: str) -> str:
    """The folder that holds a manifest's `.claude-plugin/` ('' for the root)."""
    return posixpath.dirname(posixpath.dirname(rel))


def inside(root: str, written: str) -> str | None:
    """A `./`-relative path of a manifest, resolved against its root folder; None when it
    leaves that folder (`../shared`) or is absolute: it cannot be looked up there."""
    for variable in PLUGIN_ROOT_VARIABLES:
        if written.startswith(variable):
            written = "." + written[len(variable) :]
    if written.startswith(("/", "~")) or ":" in written[:3]:
        return None
    joined = posixpath.normpath(posixpath.join(root or ".", written))
    root_norm = posixpath.normpath(root or ".")
    if root_norm != "." and not (joined == root_norm or joined.startswith(root_norm + "/")):
        return None
    if joined.startswith("../") or joined == "..":
        return None
    return "" if joined == "." else joined
