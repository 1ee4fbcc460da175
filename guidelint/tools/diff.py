"""Differences between two lists of one server (snapshot vs live)."""

from __future__ import annotations

from dataclasses import dataclass, field

from guidelint.tools.catalog import ServerTools


@dataclass
class ServerDiff:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # inputSchema or description differ

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def summary(self) -> str:
        parts = []
        for label, names in (
            ("added", self.added),
            ("removed", self.removed),
            ("changed", self.changed),
        ):
            if names:
                parts.append(f"{label}: " + ", ".join(f"`{n}`" for n in names))
        return "; ".join(parts) or "no change"


def diff_servers(old: ServerTools, new: ServerTools) -> ServerDiff:
    before, after = old.tools or {}, new.tools or {}
    changed = [
        name
        for name in sorted(set(before) & set(after))
        if before[name].input_schema != after[name].input_schema
        or before[name].description != after[name].description
    ]
    return ServerDiff(
        added=sorted(set(after) - set(before)),
        removed=sorted(set(before) - set(after)),
        changed=changed,
    )
