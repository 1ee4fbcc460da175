"""What guidelint knows about tools: per server, and the agent's built-ins.

The catalog is built once per run (Project.memo) from snapshots, or live from the
servers themselves, and every GL1xx rule asks it the same questions.
"""

from __future__ import annotations

import difflib
import heapq
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from guidelint.tools.builtins import Builtins

if TYPE_CHECKING:
    from guidelint.tools.jsonfile import FileProblem

SERVER_UNSAFE = re.compile(r"[^A-Za-z0-9_\-]")


def normalize_server(name: str) -> str:
    """Claude Code's spelling inside `mcp__<server>__`: other characters become `_`."""
    return SERVER_UNSAFE.sub("_", name)


@dataclass(frozen=True)
class Tool:
    name: str
    server: str
    input_schema: dict[str, Any] = field(default_factory=dict, compare=False)
    description: str = field(default="", compare=False)

    @property
    def properties(self) -> dict[str, Any]:
        props = self.input_schema.get("properties")
        return props if isinstance(props, dict) else {}

    @property
    def required(self) -> list[str]:
        req = self.input_schema.get("required")
        return [r for r in req if isinstance(r, str)] if isinstance(req, list) else []

    @property
    def open_schema(self) -> bool:
        """Whether the schema accepts argument names it does not list."""
        extra = self.input_schema.get("additionalProperties")
        return extra is True or isinstance(extra, dict)


@dataclass
class ServerTools:
    """One server's lists; `tools is None` when nothing is known (no snapshot, not live)."""

    name: str
    tools: dict[str, Tool] | None = None
    prompts: list[dict[str, Any]] = field(default_factory=list)
    resources: list[dict[str, Any]] = field(default_factory=list)
    origin: str = ""  # where the list came from: a snapshot path or "live"
    declared_in: str = ""  # .mcp.json, the configuration, or a snapshot file

    @property
    def known(self) -> bool:
        return self.tools is not None

    def other_names(self) -> set[str]:
        """Names and URIs of prompts and resources, and their argument names."""
        names: set[str] = set()
        for prompt in self.prompts:
            names.add(str(prompt.get("name", "")))
            arguments = prompt.get("arguments")
            if isinstance(arguments, list):
                names.update(str(a.get("name", "")) for a in arguments if isinstance(a, dict))
        for resource in self.resources:
            names.update({str(resource.get("name", "")), str(resource.get("uri", ""))})
        names.discard("")
        return names


@dataclass
class Catalog:
    servers: dict[str, ServerTools]
    builtins: Builtins

    def server(self, name: str) -> ServerTools | None:
        """A server by its name as written in `mcp__<name>__` (normalized or not)."""
        if name in self.servers:
            return self.servers[name]
        for server in self.servers.values():
            if normalize_server(server.name) == name:
                return server
        return None

    @property
    def has_servers(self) -> bool:
        return any(s.known for s in self.servers.values())

    def tools_named(self, name: str) -> list[Tool]:
        return [
            s.tools[name] for s in self.servers.values() if s.tools is not None and name in s.tools
        ]

    @cached_property
    def tools_by_name(self) -> dict[str, list[Tool]]:
        by_name: dict[str, list[Tool]] = {}
        for server in self.servers.values():
            for tool in (server.tools or {}).values():
                by_name.setdefault(tool.name, []).append(tool)
        return by_name

    def all_tool_names(self) -> set[str]:
        return self._tool_names

    def non_tool_names(self) -> set[str]:
        """Names that are never tool references: schema properties, prompts, resources."""
        return self._non_tool_names

    # Computed once per run: the catalog does not change after it is built.
    @cached_property
    def _tool_names(self) -> set[str]:
        return {t for s in self.servers.values() if s.tools for t in s.tools}

    @cached_property
    def _non_tool_names(self) -> set[str]:
        names: set[str] = set()
        for server in self.servers.values():
            names |= server.other_names()
            for tool in (server.tools or {}).values():
                names.update(tool.properties)
        return names


def _fold(name: str) -> str:
    return name.lower().replace("-", "_")


# Above this many candidates, difflib is run only on those that share the most
# character pairs with the name (a server with 100,000 tools stays fast).
INDEXED_FROM = 2_000
SHORTLIST = 300


def close_names(name: str, candidates, n: int = 3, cutoff: float = 0.6) -> list[str]:
    """Did-you-mean candidates, comparing case- and -/_-folded spellings.

    Only candidates about as close as the best one are kept, so a clear winner
    stands alone (and can be offered as an unsafe fix).
    """
    target = _fold(name)
    pool = frozenset(candidates)
    if len(pool) >= INDEXED_FROM:
        folded = _PairIndex.of(pool).shortlist(target)
    else:
        folded = _CharIndex.of(pool).reachable(target, cutoff)
    hits = difflib.get_close_matches(target, list(folded), n=n, cutoff=cutoff)
    if not hits:
        return []
    score = {h: difflib.SequenceMatcher(None, target, h).ratio() for h in hits}
    best = max(score.values())
    return [c for h in hits if score[h] >= best - 0.08 for c in folded[h]][:n]


def _folded(candidates) -> dict[str, list[str]]:
    folded: dict[str, list[str]] = {}
    for candidate in sorted(candidates):
        folded.setdefault(_fold(candidate), []).append(candidate)
    return folded


def _pairs(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)} or {text}


class _CharIndex:
    """Folded names by the characters they hold, built once per candidate set.

    difflib keeps a name only if its characters in common with the target (its
    `quick_ratio`, an upper bound of the ratio) reach the cutoff. Counted here from
    the target's own characters, the names that cannot reach it are never handed
    to difflib: the same matches, and a target's cost no longer depends on how many
    names pass difflib's length bound (a hook matcher `Tool123` one digit longer
    than `Tool12` passed it for more built-ins; GL603 grew 4.07 per 4x input).
    """

    _built: dict[frozenset, _CharIndex] = {}
    KEPT = 64  # candidate sets a run asks about: built-ins, each server's tools, ...

    def __init__(self, pool: frozenset) -> None:
        self.folded = _folded(pool)
        self.postings: dict[str, list[tuple[str, int]]] = {}
        for key in self.folded:
            for char, count in Counter(key).items():
                self.postings.setdefault(char, []).append((key, count))

    @classmethod
    def of(cls, pool: frozenset) -> _CharIndex:
        index = cls._built.get(pool)
        if index is None:
            if len(cls._built) >= cls.KEPT:
                del cls._built[next(iter(cls._built))]  # the oldest: memory stays flat
            index = cls._built[pool] = cls(pool)
        return index

    def reachable(self, target: str, cutoff: float) -> dict[str, list[str]]:
        """The folded names whose `quick_ratio` with `target` reaches `cutoff`."""
        if not target or cutoff <= 0:
            return self.folded  # an empty name matches an empty one only: difflib decides
        common: Counter[str] = Counter()
        for char, wanted in Counter(target).items():
            for key, count in self.postings.get(char, ()):
                common[key] += min(wanted, count)
        size = len(target)
        return {
            key: self.folded[key]
            for key, shared in common.items()
            if 2.0 * shared / (size + len(key)) >= cutoff  # difflib's _calculate_ratio
        }


class _PairIndex:
    """Folded names by the character pairs they hold, built once per candidate set."""

    _built: dict[frozenset, _PairIndex] = {}

    def __init__(self, pool: frozenset) -> None:
        self.folded = _folded(pool)
        self.keys = list(self.folded)
        self.postings: dict[str, list[int]] = {}
        self.sizes: list[int] = []
        for number, key in enumerate(self.keys):
            pairs = _pairs(key)
            self.sizes.append(len(pairs))
            for pair in pairs:
                self.postings.setdefault(pair, []).append(number)

    @classmethod
    def of(cls, pool: frozenset) -> _PairIndex:
        if pool not in cls._built:
            if len(cls._built) >= 4:  # a run has one or two big sets; keep memory flat
                cls._built.clear()
            cls._built[pool] = cls(pool)
        return cls._built[pool]

    def shortlist(self, target: str) -> dict[str, list[str]]:
        pairs = _pairs(target)
        shared: Counter[int] = Counter()
        for pair in pairs:
            shared.update(self.postings.get(pair, ()))

        # Most pairs in common relative to both sizes (Jaccard), then the name itself.
        def overlap(number: int) -> float:
            common = shared[number]
            return common / (self.sizes[number] + len(pairs) - common)

        best = heapq.nlargest(SHORTLIST, shared, key=overlap)
        return {self.keys[number]: self.folded[self.keys[number]] for number in best}


def same_family(name: str, candidates) -> list[str]:
    """Tools that share the first word of `name` (`job_inspect` -> `job_*`)."""
    head = _fold(name).split("_", 1)[0]
    return sorted(c for c in candidates if _fold(c).split("_", 1)[0] == head and "_" in c)[:3]


@dataclass
class Sources:
    """The catalog plus what live mode saw next to the snapshots (for GL108)."""

    catalog: Catalog
    live: bool = False
    snapshots: dict[str, ServerTools] = field(default_factory=dict)  # when live
    declared_in: dict[str, str] = field(default_factory=dict)  # server -> "file:line"
    # What was wrong in .mcp.json and the snapshots (GL109); the rest was still used.
    problems: list[FileProblem] = field(default_factory=list)
    mcp_servers: set[str] = field(default_factory=set)  # the well-formed ones of .mcp.json
    placed: dict[str, list[FileProblem]] = field(default_factory=dict)  # file -> reported there
