"""Snapshots: a server's `tools/list` answer in MCP wire format, committed for CI.

    {"tools": [{"name": ..., "description": ..., "inputSchema": {...}}, ...],
     "prompts": [...], "resources": [...]}

Reading is tolerant: a whole JSON-RPC response (`{"result": {"tools": ...}}`) or a
bare list of tools, as other MCP clients export them, works too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from guidelint.printable import printable
from guidelint.tools.catalog import ServerTools, Tool
from guidelint.tools.jsonfile import FileProblem, JsonFile, read_json
from guidelint.tools.jsonpos import value_spans

if TYPE_CHECKING:
    from guidelint.project import Project

KEPT_TOOL_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


class WireProblem(ValueError):
    """A tools/list answer that cannot be used; `path` is where, in JSON path terms."""

    def __init__(self, path: tuple, message: str) -> None:
        super().__init__(message)
        self.path, self.message = path, message


def read_snapshot(
    project: Project, rel: str, server: str
) -> tuple[ServerTools | None, list[FileProblem]]:
    """The server's lists from a snapshot file (None if absent or unusable), and a
    problem for the file or for each tool entry left out."""
    if not rel:
        return None, []
    read = read_json(project, rel, server)
    if read is None:
        return None, []
    if isinstance(read, FileProblem):
        return None, [read]
    wire_problems: list[WireProblem] = []
    try:
        tools = from_wire(read.data, server, origin=rel, problems=wire_problems)
    except WireProblem as err:
        return None, [_locate(read, err, server)]
    return tools, [_locate(read, p, server) for p in wire_problems]


def _locate(read: JsonFile, problem: WireProblem, server: str) -> FileProblem:
    span = value_spans(read.file.text).get(problem.path) if problem.path else None
    return read.problem(span.start if span else 0, problem.message, server)


def from_wire(
    data: Any, server: str, origin: str, problems: list[WireProblem] | None = None
) -> ServerTools:
    """The lists of a tools/list answer. A tool entry without a string name is left
    out (a WireProblem in `problems`, or raised when there is no list to collect
    them); an answer with no `tools` list at all raises WireProblem."""
    prefix: tuple = ()
    if isinstance(data, dict) and isinstance(data.get("result"), dict):
        data, prefix = data["result"], ("result",)
    if isinstance(data, list):
        data, bare = {"tools": data}, True
    else:
        bare = False
    if not isinstance(data, dict) or not isinstance(data.get("tools"), list):
        raise WireProblem((), "snapshot needs a `tools` list (MCP tools/list result)")
    tools: dict[str, Tool] = {}
    for index, entry in enumerate(data["tools"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            where = (*prefix, index) if bare else (*prefix, "tools", index)
            problem = WireProblem(where, f"tools[{index}] has no string `name`; it is ignored")
            if problems is None:
                raise problem
            problems.append(problem)
            continue
        if not entry["name"].isprintable() or not entry["name"].strip():
            where = (*prefix, index, "name") if bare else (*prefix, "tools", index, "name")
            problem = WireProblem(
                where,
                f"tools[{index}] name `{printable(entry['name'])}` is blank or holds a control "
                "character; it is ignored",
            )
            if problems is None:
                raise problem
            problems.append(problem)
            continue
        schema = entry.get("inputSchema")
        tools[entry["name"]] = Tool(
            name=entry["name"],
            server=server,
            input_schema=schema if isinstance(schema, dict) else {},
            description=str(entry.get("description") or ""),
        )
    return ServerTools(
        name=server,
        tools=tools,
        prompts=_objects(data.get("prompts")),
        resources=_objects(data.get("resources")),
        origin=origin,
    )


def _objects(value: Any) -> list[dict[str, Any]]:
    """The objects of a list (a prompts or resources list may be anything in a file)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def to_wire(tools: list[dict], prompts: list[dict], resources: list[dict]) -> dict[str, Any]:
    """A stable, diff-friendly snapshot: known fields only, sorted by name."""
    slim = [{k: t[k] for k in KEPT_TOOL_FIELDS if k in t} for t in tools]
    data: dict[str, Any] = {"tools": sorted(slim, key=lambda t: t["name"])}
    if prompts:
        data["prompts"] = sorted(prompts, key=lambda p: str(p.get("name")))
    if resources:
        data["resources"] = sorted(resources, key=lambda r: str(r.get("uri")))
    return data


def write_snapshot(path: Path, data: dict[str, Any], root: Path | None = None) -> None:
    """Write a snapshot; with the project's `root`, never through a symlink out of it
    (its folders made no-follow, `fsio.write_atomic`)."""
    from guidelint.fsio import write_atomic

    if root is None:
        path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    write_atomic(path, text, root)
