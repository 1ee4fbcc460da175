"""GL605 malformed-mcp-server: an MCP server declaration Claude Code cannot start or
reach as written (.mcp.json, a plugin's .mcp.json, `mcpServers` of settings or
plugin.json), or one that writes a secret inline."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlparse

from guidelint.findings import Finding, Severity
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.catalog import close_names
from guidelint.tools.claude_code import (
    JsonDoc,
    facts,
    is_mcp_file,
    is_plugin_manifest,
    is_settings_file,
    json_doc,
    mcp_servers_path,
    point,
)

VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}")
# Values that are credentials whatever their key: GitHub, OpenAI/Anthropic, Slack,
# AWS, GitLab, Google API keys, and a literal bearer token.
TOKEN = re.compile(
    r"^(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|sk-[A-Za-z0-9_\-]{20,}|"
    r"sk_live_\w{16,}|xox[abpr]-[\w\-]{10,}|AKIA[0-9A-Z]{16}|glpat-[\w\-]{20,}|"
    r"AIza[\w\-]{30,})$"
)
BEARER = re.compile(r"^(?:Bearer|token|Basic)\s+([A-Za-z0-9._~+/=\-]{20,})$", re.IGNORECASE)
SECRET_KEY = re.compile(r"(TOKEN|SECRET|PASSWORD|API_?KEY|AUTH|CREDENTIAL)", re.IGNORECASE)
PLACEHOLDER = re.compile(r"your|xxx|<|changeme|example|placeholder|dummy|redacted|\*\*\*", re.I)
STRING_FIELDS = ("type", "command", "cwd", "url")


class MalformedMcpServer(Rule):
    code = "GL605"
    name = "malformed-mcp-server"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.JSON})

    def applies_to(self, file: SourceFile, project: Project) -> bool:
        rel = file.rel
        return file.kind == FileKind.JSON and (
            is_mcp_file(rel) or is_settings_file(rel) or is_plugin_manifest(rel)
        )

    def _schema(self, file: SourceFile, doc: JsonDoc, project: Project) -> Iterator[Finding]:
        """A `$schema` that names a file of this repository (a relative path, or a
        `file:` URL) that does not exist: editors validate against nothing."""
        schema = doc.data.get("$schema") if isinstance(doc.data, dict) else None
        if not isinstance(schema, str) or not schema.strip():
            return
        target = schema.strip().removeprefix("file://")
        if re.match(r"^[A-Za-z][\w+.-]*:", target) or target.startswith("/"):
            return  # a URL: not a file of this repository to look up
        import posixpath

        path = posixpath.normpath(posixpath.join(posixpath.dirname(file.rel), target))
        if not path.startswith("../") and not project.exists(path):
            message = f"`$schema` names `{schema}`, which does not exist"
            yield self.finding(file, doc.span(file, ("$schema",)), message)

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        doc = json_doc(file)
        # GL109 reports the project's own .mcp.json's shape, GL106 settings, GL604 plugin.json.
        own = file.rel == project.config.tools.mcp_config
        if doc.problem is not None:
            if is_mcp_file(file.rel) and not own:
                offset, message = doc.problem
                yield self.finding(file, point(file, offset), f"{message}: no server here starts")
            return
        if is_mcp_file(file.rel):
            yield from self._schema(file, doc, project)
        where = mcp_servers_path(file, doc, project)
        if where is None:
            return
        servers = doc.data.get("mcpServers") if where else doc.data
        if isinstance(servers, str) and is_plugin_manifest(file.rel):
            return  # a path to the plugin's server file
        if not isinstance(servers, dict):
            if not own:
                yield self.finding(
                    file, doc.span(file, where), "`mcpServers` must be an object of servers"
                )
            return
        for name, entry in servers.items():
            if not isinstance(entry, dict):
                if not own and where:  # a plugin file's top level may hold other keys
                    yield self.finding(
                        file,
                        doc.key_span(file, (*where, name)),
                        f"server `{name}` must be an object",
                    )
                continue
            yield from self._server(file, doc, (*where, name), name, entry, own)

    def _server(
        self, file: SourceFile, doc: JsonDoc, path: tuple, name: str, entry: dict, own: bool
    ) -> Iterator[Finding]:
        spec = facts()["mcp_server"]
        for key in entry:
            if key not in spec["keys"]:
                close = close_names(key, spec["keys"], n=1, cutoff=0.75)
                if close:  # a misspelt key is lost; other keys may be newer than us
                    yield self.finding(
                        file,
                        doc.key_span(file, (*path, key)),
                        f"server `{name}`: unknown key `{key}` (did you mean `{close[0]}`?)",
                    )
        for key in STRING_FIELDS:
            if key in entry and not isinstance(entry[key], str):
                if not own:
                    yield self.finding(
                        file,
                        doc.span(file, (*path, key)),
                        f"server `{name}`: `{key}` must be a string",
                    )
                return
        kind = entry.get("type")
        if kind is not None and kind not in spec["types"]:
            close = close_names(kind, spec["types"], n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            yield self.finding(
                file,
                doc.span(file, (*path, "type")),
                f"server `{name}`: unknown `type` `{kind}`{hint}; Claude Code knows "
                + ", ".join(spec["types"]),
            )
            return
        remote = kind in ("http", "sse")
        if remote:
            yield from self._url(file, doc, path, name, entry)
        elif "command" not in entry:
            also = ' (it has a `url`: add `"type": "http"`)' if "url" in entry else ""
            yield self.finding(
                file,
                doc.key_span(file, path),
                f"server `{name}` is a stdio server (no `type` http/sse) without `command`{also}",
            )
        yield from self._values(file, doc, path, name, entry)

    def _url(
        self, file: SourceFile, doc: JsonDoc, path: tuple, name: str, entry: dict
    ) -> Iterator[Finding]:
        url = entry.get("url")
        if url is None:
            yield self.finding(
                file, doc.key_span(file, path), f"server `{name}` ({entry['type']}) needs a `url`"
            )
            return
        concrete = VARIABLE.sub(lambda m: (m.group(2) or ":-x")[2:] or "x", url)
        parsed = urlparse(concrete)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            yield self.finding(
                file,
                doc.span(file, (*path, "url")),
                f"server `{name}`: `{url}` is not an http(s) URL",
            )

    def _values(
        self, file: SourceFile, doc: JsonDoc, path: tuple, name: str, entry: dict
    ) -> Iterator[Finding]:
        for key, value_path, value in _launch_values(path, entry):
            for match in VARIABLE.finditer(value):
                if match.group(2) is None:
                    yield self.finding(
                        file,
                        doc.span(file, value_path),
                        f"server `{name}`: `${{{match.group(1)}}}` in `{key}` has no default "
                        f"(`${{{match.group(1)}:-...}}`); where it is unset (CI) it stays literal",
                        severity=Severity.WARNING,
                    )
        for key in ("env", "headers"):
            table = entry.get(key)
            if not isinstance(table, dict):
                continue
            for var, value in table.items():
                if isinstance(value, str) and _looks_like_secret(var, value):
                    yield self.finding(
                        file,
                        doc.span(file, (*path, key, var)),
                        f"server `{name}`: `{key}.{var}` holds a secret written inline; "
                        f'pass it from the environment (`"${{{_env_name(var)}}}"`)',
                    )


def _launch_values(path: tuple, entry: dict) -> Iterator[tuple[str, tuple, str]]:
    """command, args and url: where an unexpanded `${VAR}` breaks the start."""
    for key in ("command", "url"):
        if isinstance(entry.get(key), str):
            yield key, (*path, key), entry[key]
    args = entry.get("args")
    if isinstance(args, list):
        for index, arg in enumerate(args):
            if isinstance(arg, str):
                yield "args", (*path, "args", index), arg


def _looks_like_secret(key: str, value: str) -> bool:
    if "${" in value or PLACEHOLDER.search(value):
        return False
    if TOKEN.match(value):
        return True
    bearer = BEARER.match(value)
    if bearer and "$" not in bearer.group(1):
        return True
    if SECRET_KEY.search(key) and len(value) >= 20 and " " not in value:
        kinds = sum(bool(re.search(p, value)) for p in ("[a-z]", "[A-Z]", "[0-9]"))
        return kinds >= 2 and not value.startswith(("http://", "https://", "/", "."))
    return False


def _env_name(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", key).upper()
