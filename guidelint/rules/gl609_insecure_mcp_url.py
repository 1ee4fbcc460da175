"""GL609 insecure-mcp-url: an MCP server reached over plain HTTP on another machine, or
with a credential written into its URL, in any harness's server file."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlsplit

from guidelint.findings import Finding, Severity
from guidelint.tools.rulebase import ServerFileRule

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile

URL_KEYS = ("url", "httpUrl", "serverUrl")  # Claude Code, Cursor, VS Code; Gemini; Windsurf
SECRET_PARAMS = re.compile(
    r"^(access[_-]?token|api[_-]?key|apikey|auth|authorization|client[_-]?secret|key|"
    r"password|passwd|pat|secret|token)$",
    re.IGNORECASE,
)
PLACEHOLDER = re.compile(r"^(\$|\{|<|%|your|xxx|changeme|example|redacted|\*+$)", re.IGNORECASE)
LOCAL_NAMES = ("localhost", "host.docker.internal")


class InsecureMcpUrl(ServerFileRule):
    code = "GL609"
    name = "insecure-mcp-url"
    severity = Severity.WARNING

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.mcp_files import server_file

        servers = server_file(file, project)
        if servers is None:
            return
        for name, entry, path in servers.servers():
            for url_key in URL_KEYS:
                url = entry.get(url_key)
                if isinstance(url, str):
                    span = servers.doc.span(file, (*path, url_key))
                    for message, severity in _problems(name, url):
                        yield self.finding(file, span, message, severity=severity)


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
