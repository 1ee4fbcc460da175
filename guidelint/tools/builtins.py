"""The coding agent's built-in tools (Read, Bash, ...), from the bundled data file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class Builtins:
    current: frozenset[str]
    aliases: dict[str, str]  # still accepted, e.g. Task -> Agent
    retired: dict[str, str]  # name -> what happened to it

    def known(self, name: str) -> bool:
        return name in self.current or name in self.aliases

    def retired_hint(self, name: str) -> str | None:
        return self.retired.get(name)


@lru_cache(maxsize=1)
def bundled() -> Builtins:
    text = resources.files("guidelint.tools").joinpath("builtins.json").read_text("utf-8")
    data = json.loads(text)
    return Builtins(frozenset(data["current"]), dict(data["aliases"]), dict(data["retired"]))


def builtins(extra: list[str] | tuple[str, ...] = ()) -> Builtins:
    base = bundled()
    if not extra:
        return base
    return Builtins(base.current | frozenset(extra), base.aliases, base.retired)
