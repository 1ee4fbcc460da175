"""GL609 insecure-mcp-url: an MCP server reached over plain HTTP on another machine, or
with a credential written into its URL, in any harness's server file."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from guidelint.findings import Finding, Severity
from guidelint.rule import Rule
from guidelint.sources import Derived, FileKind

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile
    from guidelint.tools.claude_code import JsonDoc

URL_KEYS = ("url", "httpUrl", "serverUrl")  # Claude Code, Cursor, VS Code; Gemini; Windsurf
SECRET_PARAMS = re.compile(
    r"^(access[_-]?token|api[_-]?key|apikey|auth|authorization|client[_-]?secret|key|"
    r"password|passwd|pat|secret|token)$",
    re.IGNORECASE,
)
PLACEHOLDER = re.compile(r"^(\$|\{|<|%|your|xxx|changeme|example|redacted|\*+$)", re.IGNORECASE)
LOCAL_NAMES = ("localhost", "host.docker.internal")


class InsecureMcpUrl(Rule):
    code = "GL609"
    name = "insecure-mcp-url"
    severity = Severity.WARNING
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        return file.kind == FileKind.JSON and _servers_key(file, project) is not None

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        key = _servers_key(file, project)
        doc = _doc(file)
        servers = _at(doc.data, key) if key is not None else None
        if not isinstance(servers, dict):
            return  # GL605 / GL109 say what is wrong with the shape
        for name, entry in servers.items():
            if not isinstance(entry, dict):
                continue
            for url_key in URL_KEYS:
                url = entry.get(url_key)
                if isinstance(url, str):
                    span = doc.span(file, (*key, name, url_key))  # type: ignore[misc]
                    for message, severity in _problems(str(name), url):
                        yield self.finding(file, span, message, severity=severity)


def _servers_key(file: SourceFile, project: Project) -> tuple | None:
    """Where a file keeps its servers: another harness's server file (by its own key), or
    `mcpServers` of Claude Code's `.mcp.json`, settings and plugin manifests."""
    from guidelint.tools.claude_code import is_mcp_file, is_plugin_manifest, is_settings_file
    from guidelint.tools.harnesses import harness_configs

    for config in harness_configs(project):
        if config.path == file.rel and config.format == "json":
            return (config.servers,)
    rel = file.rel
    if rel == project.config.tools.mcp_config or is_mcp_file(rel):
        data = _doc(file).data
        if isinstance(data, dict) and "mcpServers" not in data and rel.count("/"):
            return ()  # a plugin's .mcp.json may list its servers at the top level
        return ("mcpServers",)
    if is_settings_file(rel) or is_plugin_manifest(rel):
        return ("mcpServers",)
    return None


def _read_jsonc(file: SourceFile) -> JsonDoc:
    """The file's JSON (comments and trailing commas allowed, as VS Code and Gemini CLI
    read theirs) with the span of every value."""
    from guidelint.tools.claude_code import JsonDoc
    from guidelint.tools.jsonpos import JsonProblem, blank_jsonc, parse, value_spans

    text = blank_jsonc(file.text)
    try:
        return JsonDoc(parse(text), value_spans(text))
    except JsonProblem as err:
        return JsonDoc(None, {}, (err.offset, err.message))


JSONC_DOC = Derived("GL609.jsonc", _read_jsonc)


def _doc(file: SourceFile) -> JsonDoc:
    return file.derived(JSONC_DOC)


def _at(data: Any, path: tuple) -> Any:
    for part in path:
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data


def _problems(server: str, url: str) -> Iterator[tuple[str, Severity]]:
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
    except ValueError:
        return  # not a URL guidelint can read: GL605 and the harness say so
    if parts.password and not PLACEHOLDER.match(parts.password):
        yield (
            f"server `{server}`: the URL holds a password (`{parts.username}:…@`): it is "
            "committed with the file and sent wherever the URL is logged; pass it in a header "
            "from an environment variable",
            Severity.ERROR,
        )
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if SECRET_PARAMS.match(name) and value and not PLACEHOLDER.match(value):
            yield (
                f"server `{server}`: the URL holds a credential (`{name}=…`): it is committed "
                "with the file; pass it from an environment variable (`${VAR}`) or a header",
                Severity.ERROR,
            )
    if parts.scheme == "http" and host and "$" not in host and not _local(host):
        secure = "https" + url.strip()[len("http") :]
        yield (
            f"server `{server}` is reached over plain HTTP on `{host}`: requests and any token "
            f"travel unencrypted (did you mean `{secure}`?)",
            Severity.WARNING,
        )


def _local(host: str) -> bool:
    """Loopback, this machine's names and private networks: plain HTTP stays local."""
    if host in LOCAL_NAMES or host.endswith(".localhost") or host.endswith(".local"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_unspecified
