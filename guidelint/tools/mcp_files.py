"""Every harness's MCP server file in one shape, for the rules that read its servers
(GL609, GL614, GL615, GL616): where a file keeps its servers, each server's entry, and
the span of any value in it, whether the file is JSON (comments allowed, as VS Code and
Gemini CLI read theirs) or Codex's TOML."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from guidelint.sources import Derived, FileKind
from guidelint.spans import Span

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile
    from guidelint.tools.claude_code import JsonDoc


class Doc(Protocol):
    @property
    def data(self) -> Any: ...

    def span(self, file: SourceFile, path: tuple) -> Span: ...


@dataclass(frozen=True)
class ServerFile:
    """One file's servers: the document, where its servers object is, and which
    harness reads it (`claude-code` for `.mcp.json`, settings and plugin manifests)."""

    doc: Doc
    where: tuple
    harness: str

    def servers(self) -> Iterator[tuple[str, dict[str, Any], tuple]]:
        """(name, entry, path of the entry) of every server written as an object."""
        servers = _at(self.doc.data, self.where)
        if not isinstance(servers, dict):
            return  # GL605 / GL109 say what is wrong with the shape
        for name, entry in servers.items():
            if isinstance(entry, dict):
                yield str(name), entry, (*self.where, name)


@lru_cache(maxsize=1)
def mcp_facts() -> dict[str, Any]:
    """`mcp_hygiene.json`: the SSE deprecation and the filesystem servers, with sources."""
    import json
    from pathlib import Path

    data: dict[str, Any] = json.loads(
        Path(__file__).with_name("mcp_hygiene.json").read_text(encoding="utf-8")
    )
    return data


def server_file(file: SourceFile, project: Project) -> ServerFile | None:
    """The file's servers when it is an MCP server file of a selected harness, else None."""
    from guidelint.tools.claude_code import is_mcp_file, is_plugin_manifest, is_settings_file
    from guidelint.tools.harnesses import harness_configs

    rel = file.rel
    for config in harness_configs(project):
        if config.path == rel:
            if config.format == "toml":
                return ServerFile(file.derived(TOML_DOC), (config.servers,), config.harness)
            if file.kind == FileKind.JSON:
                return ServerFile(file.derived(JSONC_DOC), (config.servers,), config.harness)
            return None
    if file.kind != FileKind.JSON:
        return None
    if rel == project.config.tools.mcp_config or is_mcp_file(rel):
        if rel != project.config.tools.mcp_config and not _loaded_plugin_file(rel, project):
            return None  # a fixture or an example: no harness starts its servers
        doc = file.derived(JSONC_DOC)
        if isinstance(doc.data, dict) and "mcpServers" not in doc.data and rel.count("/"):
            return ServerFile(doc, (), "claude-code")  # a plugin's servers at its top level
        return ServerFile(doc, ("mcpServers",), "claude-code")
    if is_settings_file(rel) or is_plugin_manifest(rel):
        return ServerFile(file.derived(JSONC_DOC), ("mcpServers",), "claude-code")
    return None


def _loaded_plugin_file(rel: str, project: Project) -> bool:
    """A nested `.mcp.json` Claude Code loads: at the root of a plugin (a folder with
    `.claude-plugin/plugin.json`, or a marketplace's `plugins/<name>/`)."""
    import posixpath

    from guidelint.tools.claude_code import plugin_roots

    folder = posixpath.dirname(rel)
    if folder.startswith("plugins/") and folder.count("/") == 1:
        return True
    return folder in plugin_roots(project)


def might_hold_servers(file: SourceFile, project: Project) -> bool:
    """`server_file` without reading the file: the name alone."""
    from guidelint.tools.claude_code import is_mcp_file, is_plugin_manifest, is_settings_file
    from guidelint.tools.harnesses import harness_configs

    rel = file.rel
    if any(config.path == rel for config in harness_configs(project)):
        return True
    return file.kind == FileKind.JSON and (
        rel == project.config.tools.mcp_config
        or is_mcp_file(rel)
        or is_settings_file(rel)
        or is_plugin_manifest(rel)
    )


def _at(data: Any, path: tuple) -> Any:
    for part in path:
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data


# --- JSON (with comments) ------------------------------------------------------------


def _read_jsonc(file: SourceFile) -> JsonDoc:
    from guidelint.tools.claude_code import JsonDoc
    from guidelint.tools.jsonpos import JsonProblem, blank_jsonc, parse, value_spans

    text = blank_jsonc(file.text)
    try:
        return JsonDoc(parse(text), value_spans(text))
    except JsonProblem as err:
        return JsonDoc(None, {}, (err.offset, err.message))


JSONC_DOC = Derived("mcp_files.jsonc", _read_jsonc)


# --- TOML (Codex) --------------------------------------------------------------------


@dataclass(frozen=True)
class TomlDoc:
    """A TOML file's value (None when it is not valid TOML: GL109's note says so) and a
    way to find where a value is written. tomllib keeps no positions, so a value is
    found in the text: its table's header, then its key, then the string itself."""

    data: Any
    text: str
    tables: dict[tuple[str, ...], tuple[int, int]]  # header path -> its lines' region

    def span(self, file: SourceFile, path: tuple) -> Span:
        table, key_path = _table_of(path)
        start, end = self.tables.get(tuple(str(p) for p in table), (0, len(self.text)))
        if not key_path:
            return _line_span(self.text, start)
        key = re.compile(
            rf"^[ \t]*(?:\"{re.escape(key_path[0])}\"|{re.escape(key_path[0])})[ \t]*=", re.M
        )
        found = key.search(self.text, start, end)
        if found is None:
            return _line_span(self.text, start)
        value = _at_path(self.data, path)
        if isinstance(value, str):
            for quote in ('"', "'"):
                at = self.text.find(f"{quote}{value}{quote}", found.start(), end)
                if at >= 0:
                    return Span(at, at + len(value) + 2)
        return _line_span(self.text, found.start())


def _table_of(path: tuple) -> tuple[tuple, tuple]:
    """`("mcp_servers", "x", "args", 2)` -> table `("mcp_servers", "x")`, keys `("args", 2)`."""
    return tuple(path[:2]), tuple(path[2:])


HEADER = re.compile(r"^[ \t]*\[(\[?)([^\]\n]*)\]", re.M)  # `[table]` or `[[array]]`
KEY_PART = re.compile(r"""\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)""")


def _tables(text: str) -> dict[tuple[str, ...], tuple[int, int]]:
    """Every `[a.b]` header's path and the region of its own lines (up to the next
    header), found in one pass."""
    headers = [
        (m.start(), None if m.group(1) else _key_path(m.group(2))) for m in HEADER.finditer(text)
    ]
    regions: dict[tuple[str, ...], tuple[int, int]] = {}
    for index, (start, path) in enumerate(headers):
        end = headers[index + 1][0] if index + 1 < len(headers) else len(text)
        if path is not None:
            regions.setdefault(path, (start, end))
    return regions


def _key_path(written: str) -> tuple[str, ...] | None:
    parts: list[str] = []
    position = 0
    while position < len(written):
        match = KEY_PART.match(written, position)
        if match is None or match.end() == position:
            return None
        parts.append(next(g for g in match.groups() if g is not None))
        position = match.end()
    return tuple(parts)


def _at_path(data: Any, path: tuple) -> Any:
    for part in path:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def _line_span(text: str, offset: int) -> Span:
    end = text.find("\n", offset)
    end = len(text) if end < 0 else end
    return Span(offset, max(offset, len(text[offset:end].rstrip("\r")) + offset))


def _read_toml(file: SourceFile) -> TomlDoc:
    import tomllib

    try:
        data = tomllib.loads(file.text)
    except tomllib.TOMLDecodeError:
        data = None  # GL109 reports it at its line
    return TomlDoc(data, file.text, _tables(file.text))


TOML_DOC = Derived("mcp_files.toml", _read_toml)
