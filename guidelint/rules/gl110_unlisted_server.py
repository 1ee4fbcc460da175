"""GL110 unlisted-server: a server of `.mcp.json` whose tool list is nowhere to be had.

A server that is this project's own (a local development URL, or a name the project
itself carries) lists its tools by running the project, not by a snapshot: it is
not reported. Nor is a server that no file names in a tool reference (`mcp__<server>`,
Gemini's `mcp_<server>_`): a snapshot would check nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from guidelint.findings import Finding, Severity
from guidelint.project import Memo, Project
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.rulebase import ToolRule, server_key

LOCAL_URL = re.compile(r"^\w+://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?:[:/]|$)", re.I)
WORD = re.compile(r"[a-z0-9]+")


class UnlistedServer(ToolRule):
    code = "GL110"
    name = "unlisted-server"
    severity = Severity.WARNING
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return file.kind == FileKind.JSON and file.rel == project.config.tools.mcp_config

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.load import sources, unlisted_message

        state = sources(project)
        declared = _declared(file)
        for name in sorted(state.mcp_servers):
            server = state.catalog.servers.get(name)
            if server is None or server.known or server.origin == "external":
                continue
            if _own_server(name, declared.get(name), project):
                continue
            if not _named_in_a_reference(name, project):
                continue  # nothing a snapshot would check: asking for one is noise
            yield self.finding(file, server_key(file, name), unlisted_message(name))


def own_unlisted_server(project: Project) -> str | None:
    """The project's own server of `.mcp.json` whose tool list is unknown here (no
    snapshot, not live), or None: its tools are whatever the project serves."""
    return project.memo(OWN_UNLISTED)


def _own_unlisted(project: Project) -> str | None:
    from guidelint.tools.load import sources

    config = project.read(project.config.tools.mcp_config)
    if config is None:
        return None
    state = sources(project)
    declared = _declared(config)
    for name in sorted(state.mcp_servers):
        server = state.catalog.servers.get(name)
        if server is None or server.known or server.origin == "external":
            continue
        if _own_server(name, declared.get(name), project):
            return name
    return None


OWN_UNLISTED = Memo("GL110.own_unlisted", _own_unlisted)


def _declared(file: SourceFile) -> dict[str, Any]:
    data = _json_of(file)
    servers = data.get("mcpServers")
    return servers if isinstance(servers, dict) else {}


def _own_server(name: str, config: Any, project: Project) -> bool:
    """This project's own server: served on this machine while developing it, or
    named like the project (sentry-mcp's `sentry`)."""
    if isinstance(config, dict):
        url = config.get("url")
        if isinstance(url, str) and LOCAL_URL.match(url.strip()):
            return True
    return bool(set(WORD.findall(name.lower())) & _project_words(project))


def _project_words(project: Project) -> set[str]:
    """The words of the project's own name: its folder's, its manifest's `name`."""
    names = [project.root.name]
    manifest = project.read("package.json")
    if manifest is not None:
        names.append(str(_json_of(manifest).get("name", "")))
    ignored = {"mcp", "server", "monorepo", "dev", "js", "py", "the"}
    return {w for n in names for w in WORD.findall(n.lower()) if w not in ignored and len(w) > 2}


# What follows `mcp__` (Claude Code, Codex) or `mcp_` (Gemini CLI) in any text: the
# server, and the tool after it, of a qualified tool reference.
QUALIFIED_REST = re.compile(r"\bmcp__?([A-Za-z0-9_.\-*]+)")
# The files a tool reference lives in: guides, agents and skills, settings, Codex's TOML.
REFERENCE_SUFFIXES = (".md", ".markdown", ".mdx", ".mdc", ".json", ".jsonc", ".toml")


def _named_in_a_reference(name: str, project: Project) -> bool:
    """Whether some file of the project names the server in a qualified tool
    reference (`mcp__docs__search`, `mcp__docs`, `mcp_docs_search`)."""
    named = project.memo(QUALIFIED_NAMES)
    return name in named or name.replace("-", "_") in named


def _qualified_names(project: Project) -> frozenset[str]:
    """Every server name the project's reference files may write after `mcp__` or
    `mcp_`: the whole text there, and each part of it before an `_` (`docs__search`
    gives `docs` and `docs_`; Gemini's `mcp_docs_search` gives `docs`)."""
    found: set[str] = set()
    for rel in project.files():
        if not rel.lower().endswith(REFERENCE_SUFFIXES) or rel == project.config.tools.mcp_config:
            continue
        source = project.read(rel)
        if source is None or "mcp_" not in source.text:
            continue
        for rest in set(QUALIFIED_REST.findall(source.text)):
            found.add(rest)
            found.update(rest[:cut] for cut, char in enumerate(rest) if char == "_")
    return frozenset(found)


QUALIFIED_NAMES = Memo("GL110.qualified_names", _qualified_names)


def _json_of(file: SourceFile) -> dict[str, Any]:
    """The file's JSON object, or {} when it is not one (GL109 reports bad JSON)."""
    try:
        data = file.json
    except (ValueError, RecursionError):  # bad or absurdly deep JSON: GL109 says so
        return {}
    return data if isinstance(data, dict) else {}
