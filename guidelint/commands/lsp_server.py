"""`guidelint lsp`: a language server over stdio (pygls), for the findings in the editor.

Diagnostics for the open Markdown, JSON and Python files the project checks, on
open, change and save, from the same engine as `guidelint check`. A file whose
editor text is what is on disk goes through the result cache (`check_files`);
unsaved text is checked as given (`check_text`). The project is always loaded with
`live=False`: tool lists come from the committed snapshots, and a keystroke never
starts an MCP server. Code actions apply the safe fixes (one finding's, or all of
a file's); hovering over a finding shows its rule page.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer
    from pygls.workspace import TextDocument

    from guidelint.engine import Engine
    from guidelint.findings import Finding

SOURCE = "guidelint"
FIX_ALL = "source.fixAll"  # the kind editors run on save ("fix all" of this server)
CONFIG_NAMES = ("pyproject.toml", "guidelint.toml", ".guidelint.toml")


@click.command("lsp")
def lsp() -> None:
    """Run the language server on stdin/stdout (see docs/EDITORS.md)."""
    from guidelint.commands.cli_base import fail

    try:
        server = build_server()
    except ImportError as error:
        fail(f"`guidelint lsp` needs pygls ({error.name}): install guidelint[lsp]")
    server.start_io()


@dataclass
class Checked:
    """The findings published for one version of a document."""

    version: int | None
    text: str
    findings: list[Finding]


@dataclass
class Scope:
    """An open document's project: its engine, and whether the project checks the file."""

    engine: Engine
    rel: str
    checked: bool


def build_server() -> LanguageServer:
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer

    from guidelint import __version__

    server = LanguageServer(
        "guidelint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full
    )
    state = ServerState(server)
    logging.getLogger("pygls").setLevel(logging.WARNING)  # stderr stays quiet

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        state.forget(params.text_document.uri)
        state.publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        state.publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        # A save may add a file a guide names, or change the configuration: reload.
        if Path(params.text_document.uri).name in CONFIG_NAMES:
            state.forget_all()
        state.forget(params.text_document.uri)
        state.publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        state.close(params.text_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]
        ),
    )
    def code_action(ls: LanguageServer, params: types.CodeActionParams) -> list[Any]:
        return state.code_actions(params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: types.HoverParams) -> types.Hover | None:
        return state.hover(params)

    return server


class ServerState:
    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.scopes: dict[str, Scope | None] = {}  # uri -> its project (None: not a file)
        self.checked: dict[str, Checked] = {}

    # ---- projects

    def scope(self, uri: str) -> Scope | None:
        if uri not in self.scopes:
            self.scopes[uri] = self._load_scope(uri)
        return self.scopes[uri]

    def _load_scope(self, uri: str) -> Scope | None:
        from pygls.uris import to_fs_path

        from guidelint.config import ConfigError
        from guidelint.engine import Engine, build_selection
        from guidelint.project import Project

        fs_path = to_fs_path(uri)
        if fs_path is None:
            return None
        path = Path(fs_path)
        try:
            project = Project.load([path.parent], live=False)  # snapshots, never servers
            engine = Engine(project, build_selection(project.config, project.config_source))
        except ConfigError as error:
            self.server.window_show_message(_message(f"guidelint: {error}", error=True))
            return None
        engine.use_cache()
        rel = project.rel(path)
        return Scope(engine, rel, _checks(project, rel))

    def forget(self, uri: str) -> None:
        self.scopes.pop(uri, None)

    def forget_all(self) -> None:
        self.scopes.clear()

    def close(self, uri: str) -> None:
        from lsprotocol import types

        self.scopes.pop(uri, None)
        self.checked.pop(uri, None)
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    # ---- diagnostics

    def publish(self, uri: str) -> None:
        from lsprotocol import types

        document = self.server.workspace.get_text_document(uri)
        scope = self.scope(uri)
        if scope is None or not scope.checked:
            return
        findings = self._findings(scope, document)
        self.checked[uri] = Checked(document.version, document.source, findings)
        diagnostics = [self._diagnostic(document, f) for f in findings]
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri, diagnostics=diagnostics, version=document.version
            )
        )

    def _findings(self, scope: Scope, document: TextDocument) -> list[Finding]:
        from guidelint.config import ConfigError

        engine = scope.engine
        try:
            if _on_disk(engine.project.root / scope.rel, document.source):
                return engine.check_files([scope.rel], jobs=1)  # the result cache's answer
            return engine.check_text(scope.rel, document.source)
        except ConfigError as error:
            self.server.window_show_message(_message(f"guidelint: {error}", error=True))
            return []

    def _diagnostic(self, document: TextDocument, finding: Finding) -> types.Diagnostic:
        from lsprotocol import types

        severity = (
            types.DiagnosticSeverity.Error
            if finding.severity.value == "error"
            else types.DiagnosticSeverity.Warning
        )
        fixable = finding.fix is not None and finding.fix.safe
        return types.Diagnostic(
            range=self._range(document, finding),
            message=finding.message,
            severity=severity,
            code=finding.code,
            source=SOURCE,
            data={"fixable": fixable},
        )

    def _range(self, document: TextDocument, finding: Finding) -> types.Range:
        from lsprotocol import types

        start = types.Position(line=finding.line - 1, character=finding.column - 1)
        end = types.Position(line=finding.end_line - 1, character=finding.end_column - 1)
        return self._client_range(document, start, end)

    def _client_range(
        self, document: TextDocument, start: types.Position, end: types.Position
    ) -> types.Range:
        """Characters (ours) to the client's position encoding (UTF-16 by default)."""
        from lsprotocol import types

        codec = document.position_codec
        lines = document.lines
        return types.Range(
            start=codec.position_to_client_units(lines, start),
            end=codec.position_to_client_units(lines, end),
        )

    # ---- code actions

    def code_actions(self, params: types.CodeActionParams) -> list[Any]:
        from lsprotocol import types

        uri = params.text_document.uri
        checked = self.checked.get(uri)
        document = self.server.workspace.get_text_document(uri)
        if checked is None or checked.text != document.source:
            return []  # findings of another version: their offsets would be wrong
        wanted = params.context.only
        actions: list[Any] = []
        if not wanted or types.CodeActionKind.QuickFix in wanted:
            for finding in checked.findings:
                if finding.fix is None or not finding.fix.safe:
                    continue
                if not _overlaps(self._range(document, finding), params.range):
                    continue
                actions.append(self._quick_fix(document, finding))
        if not wanted or any(FIX_ALL.startswith(_kind(kind)) for kind in wanted):
            fix_all = self._fix_all(document)
            actions.extend([fix_all] if fix_all else [])
        return actions

    def _quick_fix(self, document: TextDocument, finding: Finding) -> types.CodeAction:
        from lsprotocol import types

        from guidelint.spans import LineIndex

        assert finding.fix is not None
        index = LineIndex(document.source)
        edits = []
        for edit in finding.fix.edits:
            start, end = index.position(edit.start), index.position(edit.end)
            where = self._client_range(
                document,
                types.Position(line=start.line - 1, character=start.column - 1),
                types.Position(line=end.line - 1, character=end.column - 1),
            )
            edits.append(types.TextEdit(range=where, new_text=edit.content))
        title = finding.fix.description or f"Fix {finding.code}"
        return types.CodeAction(
            title=f"guidelint: {title} ({finding.code})",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[self._diagnostic(document, finding)],
            edit=types.WorkspaceEdit(changes={document.uri: edits}),
            is_preferred=True,
        )

    def _fix_all(self, document: TextDocument) -> types.CodeAction | None:
        """Every safe fix of the file, to a fixed point, as `check --fix` would write."""
        from lsprotocol import types

        from guidelint.fixes import fix_text

        scope = self.scope(document.uri)
        if scope is None or not scope.checked:
            return None
        check = functools.partial(scope.engine.check_text, scope.rel)
        fixed, count, _ = fix_text(document.source, check, unsafe=False)
        if not count:
            return None
        lines = document.lines
        end = types.Position(line=len(lines), character=0)
        whole = types.Range(start=types.Position(line=0, character=0), end=end)
        return types.CodeAction(
            title=f"guidelint: apply {count} safe fix(es)",
            kind=types.CodeActionKind.SourceFixAll,
            edit=types.WorkspaceEdit(
                changes={document.uri: [types.TextEdit(range=whole, new_text=fixed)]}
            ),
        )

    # ---- hover

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        from lsprotocol import types

        from guidelint.docs import rule_page

        uri = params.text_document.uri
        checked = self.checked.get(uri)
        if checked is None:
            return None
        document = self.server.workspace.get_text_document(uri)
        point = types.Range(start=params.position, end=params.position)
        for finding in checked.findings:
            where = self._range(document, finding)
            if _overlaps(where, point):
                page = rule_page(finding.code) or f"{finding.code} {finding.name}"
                return types.Hover(
                    contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=page),
                    range=where,
                )
        return None


def _checks(project: Any, rel: str) -> bool:
    """Would `guidelint check` on the project's folder check this file?

    Markdown always (as for a folder argument), anything else when the include
    globs take it; never what `exclude` leaves out."""
    from guidelint.sources import MARKDOWN_SUFFIXES

    config = project.config
    included = project.globs(config.include + config.extend_include).compiled()
    excluded = project.globs(config.exclude).compiled()
    if rel.startswith("/") or excluded(rel):
        return False
    return rel.lower().endswith(MARKDOWN_SUFFIXES) or included(rel)


def _kind(kind: Any) -> str:
    return str(getattr(kind, "value", kind))  # an enum member, or a kind it does not know


def _on_disk(path: Path, text: str) -> bool:
    try:
        return path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def _overlaps(a: types.Range, b: types.Range) -> bool:
    """Ranges that touch count (a cursor at a finding's end is on the finding)."""

    def key(position: types.Position) -> tuple[int, int]:
        return (position.line, position.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _message(text: str, error: bool = False) -> types.ShowMessageParams:
    from lsprotocol import types

    kind = types.MessageType.Error if error else types.MessageType.Warning
    return types.ShowMessageParams(type=kind, message=text)
