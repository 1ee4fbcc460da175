"""`guidelint lsp`: a language server over stdio (pygls), for the findings in the editor.

Diagnostics for the open Markdown, JSON and Python files the project checks, on
open, change and save (pushed, or pulled with `textDocument/diagnostic` where the
client asks), from the same engine as `guidelint check`. A file whose editor text is
what is on disk goes through the result cache (`check_files`); unsaved text is
checked as given (`check_text`). The project is always loaded with `live=False`:
tool lists come from the committed snapshots, and a keystroke never starts an MCP
server. Code actions apply the safe fixes (one finding's, or all of a file's) or
suppress a finding for its line or file; hovering over a finding shows its rule page.

Files on disk are watched (`workspace/didChangeWatchedFiles`): the configuration,
the tool snapshots, `.mcp.json`, and any file a finding rests on. Changes are
gathered for `debounceMs` and then the open documents they reach (`dependents.Reach`
over what each one's rules looked up) are checked again against a reloaded project;
the others are not checked again, but their project is reloaded at their next check
(it keeps the answers it gave the unsaved texts checked before, which no saved
lookup records: a link typed to a page just created would still be broken).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer
    from pygls.workspace import TextDocument

    from guidelint.dependents import Reach
    from guidelint.discovery import Lookup
    from guidelint.engine import Engine
    from guidelint.findings import Finding
    from guidelint.project import Project

SOURCE = "guidelint"
FIX_ALL = "source.fixAll"  # the kind editors run on save ("fix all" of this server)
CONFIG_NAMES = ("pyproject.toml", "guidelint.toml", ".guidelint.toml")
RELOAD_COMMAND = "guidelint.reload"  # check every open document again, now
# What the server asks the client to watch: the configuration, the tool snapshots and
# `.mcp.json` in full; any file's coming and going (a path a guide names); edits of
# the kinds of file other findings read (a linked page, a settings or agent file).
WATCHED = (
    ("**/{pyproject.toml,guidelint.toml,.guidelint.toml,.mcp.json}", 7),
    ("**/.guidelint/tools/*.json", 7),
    ("**/*", 1 | 4),  # WatchKind.Create | WatchKind.Delete
    ("**/*.{md,markdown,json,py,toml,yaml,yml,txt}", 2),  # WatchKind.Change
    # What git leaves out (GL501, GL502, GL504 skip an ignored path) and the submodules
    # (GL504): an edit, not only a creation, turns a finding on or off.
    ("**/{.gitignore,.gitmodules}", 2),
)
# Folders whose files no finding rests on (the cache's own writes must not echo).
NEVER_WATCHED = (".git", "__pycache__", ".venv", "node_modules")


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
    """The findings published for one version of a document, and what they rest on
    (the rules' recorded lookups; None when unknown, as for unsaved text)."""

    version: int | None
    text: str
    findings: list[Finding]
    lookups: dict[Lookup, str] | None = None


@dataclass
class Scope:
    """An open document's project: its engine, and whether the project checks the file."""

    engine: Engine
    rel: str
    checked: bool


@dataclass
class ClientSettings:
    """What the editor may set (initializationOptions, or the `guidelint` section of
    workspace/configuration): the configuration file, rule selection, the debounce."""

    config_path: str | None = None
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    debounce_ms: int = 300
    problems: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, raw: Any) -> ClientSettings:
        settings = cls()
        if not isinstance(raw, dict):
            return settings
        raw = raw.get("guidelint", raw)  # the section itself, or settings holding it
        if not isinstance(raw, dict):
            return settings
        settings.config_path = _setting(raw, "configPath", str, None, settings.problems)
        settings.select = _setting(raw, "select", list, None, settings.problems)
        settings.ignore = _setting(raw, "ignore", list, [], settings.problems)
        debounce = _setting(raw, "debounceMs", int, 300, settings.problems)
        settings.debounce_ms = max(0, debounce)
        return settings

    def config_file(self, root: Path | None) -> Path | None:
        """The configuration file, inside the first workspace folder (its settings
        may be a committed `.vscode/settings.json`): one naming a file outside would
        re-root the project there. ConfigError (one line) when it leads outside."""
        from guidelint.config import ConfigError
        from guidelint.confine import Outside, resolve_inside

        if not self.config_path:
            return None
        if root is None:
            return Path(self.config_path).expanduser()
        try:
            return resolve_inside(root, self.config_path, "configPath")
        except Outside as outside:
            raise ConfigError(str(outside)) from None


def _setting(raw: dict[str, Any], key: str, kind: type, default: Any, problems: list[str]) -> Any:
    value = raw.get(key)
    if value is None:
        return default
    if kind is list and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.upper() for v in value]
    if isinstance(value, kind) and not isinstance(value, bool):
        return value
    problems.append(f"guidelint: setting `{key}` is not a {kind.__name__}: {value!r}, ignored")
    return default


def build_server() -> LanguageServer:
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer

    from guidelint import __version__

    server = LanguageServer(
        "guidelint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full
    )
    state = ServerState(server)
    logging.getLogger("pygls").setLevel(logging.WARNING)  # stderr stays quiet

    @server.feature(types.INITIALIZE)
    def initialize(ls: LanguageServer, params: types.InitializeParams) -> None:
        state.start(params)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: LanguageServer, params: types.InitializedParams) -> None:
        await state.after_start()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration(ls: LanguageServer, params: types.DidChangeConfigurationParams) -> None:
        await state.settings_changed(params.settings)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: LanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        state.files_changed(params.changes)

    @server.command(RELOAD_COMMAND)
    def reload(ls: LanguageServer, *args: Any) -> None:
        state.flush(everything=True)

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
        uri = params.text_document.uri
        if Path(uri).name in CONFIG_NAMES:
            state.forget_all()
            state.refresh(state.open_uris())
            return
        state.forget(uri)
        state.publish(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        state.close(params.text_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False
        ),
    )
    def diagnostic(
        ls: LanguageServer, params: types.DocumentDiagnosticParams
    ) -> types.RelatedFullDocumentDiagnosticReport:
        return types.RelatedFullDocumentDiagnosticReport(
            items=state.diagnose(params.text_document.uri) or []
        )

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
        # Open documents whose project changed on disk in a way their last check's
        # lookups do not reach: their scope is reloaded at their next check.
        self.outdated: set[str] = set()
        self.checked: dict[str, Checked] = {}
        self.settings = ClientSettings()
        self.root: Path | None = None  # the first workspace folder: where configPath starts
        self.pull = False  # the client pulls diagnostics (textDocument/diagnostic)
        self.pending: list[tuple[Path, int]] = []  # watched changes not yet acted on
        self.timer: asyncio.TimerHandle | None = None

    # ---- the client

    def start(self, params: types.InitializeParams) -> None:
        from pygls.uris import to_fs_path

        folders = params.workspace_folders or []
        root_uri = folders[0].uri if folders else params.root_uri
        root = to_fs_path(root_uri) if root_uri else None
        self.root = Path(root) if root else None
        self.settings = ClientSettings.read(params.initialization_options)
        self.pull = params.capabilities.text_document is not None and (
            params.capabilities.text_document.diagnostic is not None
        )

    async def after_start(self) -> None:
        """Ask for the watchers, and for the settings where the client offers them."""
        from lsprotocol import types

        capabilities = self.server.client_capabilities.workspace
        self._tell(self.settings.problems)
        watch = capabilities and capabilities.did_change_watched_files
        if watch and watch.dynamic_registration:
            watchers = [
                types.FileSystemWatcher(glob_pattern=glob, kind=kind) for glob, kind in WATCHED
            ]
            registration = types.Registration(
                id="guidelint-watch",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
            )
            await self.server.client_register_capability_async(
                types.RegistrationParams(registrations=[registration])
            )
        if capabilities and capabilities.configuration:
            await self.settings_changed(None)

    async def settings_changed(self, settings: Any) -> None:
        """New settings (pushed with the notification, else asked for): reload all."""
        from lsprotocol import types

        if (
            not settings
            and self.server.client_capabilities.workspace
            and (self.server.client_capabilities.workspace.configuration)
        ):
            answer = await self.server.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SOURCE)])
            )
            settings = answer[0] if answer else None
        if not settings:
            return
        self.settings = ClientSettings.read(settings)
        self._tell(self.settings.problems)
        self.forget_all()
        if self.pull:
            self._ask_to_pull()  # even with none open: it may have pulled under the old
        else:
            self.refresh(self.open_uris())

    def _tell(self, problems: list[str]) -> None:
        for problem in problems:
            self.server.window_show_message(_message(problem))

    # ---- projects

    def scope(self, uri: str) -> Scope | None:
        if uri not in self.scopes or uri in self.outdated:
            self.outdated.discard(uri)
            self.scopes[uri] = self._load_scope(uri)
        return self.scopes[uri]

    def _load_scope(self, uri: str) -> Scope | None:
        from pygls.uris import to_fs_path

        from guidelint.config import ConfigError
        from guidelint.engine import Engine, build_selection

        fs_path = to_fs_path(uri)
        if fs_path is None:
            return None
        path = Path(fs_path)
        try:
            project = self._project(path.parent)
            engine = Engine(project, build_selection(project.config))
        except ConfigError as error:
            self.server.window_show_message(_message(f"guidelint: {error}", error=True))
            return None
        engine.use_cache()
        engine.record_lookups()  # what each file's findings rest on, for watched changes
        rel = project.rel(path)
        if _leads_out(project.root, path):  # named in the project, a symlink leads out
            from guidelint.discovery import OUTSIDE_NOTE

            note = f"guidelint: {path}: {OUTSIDE_NOTE} ({project.root})"
            self.server.window_show_message(_message(note))
            return Scope(engine, rel, False)
        return Scope(engine, rel, _checks(project, rel))

    def _project(self, folder: Path) -> Project:
        """The folder's project with the client's settings on top (snapshots, never
        servers); ConfigError names a bad configuration or setting."""
        from guidelint.engine import build_selection
        from guidelint.project import Project

        settings = self.settings
        project = Project.load([folder], settings.config_file(self.root), live=False)
        build_selection(project.config, project.config_source)  # the file's own codes
        updates: dict[str, list[str]] = {}
        if settings.select is not None:
            updates["select"] = settings.select
        if settings.ignore:
            updates["ignore"] = project.config.ignore + settings.ignore
        if updates:
            project.config = project.config.model_copy(update=updates)
        return project

    def forget(self, uri: str) -> None:
        self.scopes.pop(uri, None)

    def forget_all(self) -> None:
        self.scopes.clear()

    def open_uris(self) -> list[str]:
        return list(self.server.workspace.text_documents)

    def close(self, uri: str) -> None:
        from lsprotocol import types

        self.scopes.pop(uri, None)
        self.checked.pop(uri, None)
        if not self.pull:
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    # ---- watched files

    def files_changed(self, events: Sequence[types.FileEvent]) -> None:
        """Gather changes on disk; act on them once they stop for `debounceMs`."""
        from pygls.uris import to_fs_path

        for event in events:
            fs_path = to_fs_path(event.uri)
            if fs_path is not None and not set(Path(fs_path).parts) & set(NEVER_WATCHED):
                self.pending.append((Path(fs_path), int(event.type)))
        if self.timer is not None:
            self.timer.cancel()
        delay = self.settings.debounce_ms / 1000
        self.timer = asyncio.get_running_loop().call_later(delay, self.flush)

    def flush(self, everything: bool = False) -> None:
        """Check again the open documents the gathered changes reach (all of them
        when `everything`), each against its project reloaded from disk."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        events, self.pending = self.pending, []
        reaches: dict[Path, Reach | None] = {}  # per project root: loaded once a flush
        reached = [
            uri for uri in self.open_uris() if everything or self._reaches(uri, events, reaches)
        ]
        for uri in reached:
            self.forget(uri)
        self.refresh(reached)

    def _reaches(
        self, uri: str, events: list[tuple[Path, int]], reaches: dict[Path, Reach | None]
    ) -> bool:
        from guidelint.config import ConfigError
        from guidelint.dependents import Reach
        from guidelint.discovery import Changes

        scope = self.scopes.get(uri)
        if scope is None:
            return bool(events)  # never loaded, or not a project: reload to be sure
        project = scope.engine.project
        cache_dir = project.config.cache_dir
        changes = Changes()
        for path, kind in events:
            rel = project.rel(path)
            if rel.startswith("/") or rel == cache_dir or rel.startswith(f"{cache_dir}/"):
                continue  # outside this project, or the result cache writing its entries
            if path.name in CONFIG_NAMES or path == project.config_source:
                return True  # the configuration: every file of the project
            changes.paths.add(rel)
            if kind == 1:  # FileChangeType.Created
                changes.added.add(rel)
            elif kind == 3:  # FileChangeType.Deleted
                changes.deleted.add(rel)
        if not changes.paths:
            return False
        if project.root not in reaches:
            try:
                fresh = self._project(project.root)
            except ConfigError:
                reaches[project.root] = None
            else:
                reaches[project.root] = Reach(fresh, scope.engine.rules_with_inputs(), changes)
        reach = reaches[project.root]
        if reach is None:
            return True  # a broken configuration is news for every document
        checked = self.checked.get(uri)
        if reach.reaches(scope.rel, checked.lookups if checked is not None else None):
            return True
        # No news for the findings of the text last checked, but the scope's project
        # keeps every answer it gave (`exists()`, memos such as GL502's `.gitignore` per
        # folder, the file list), the unsaved texts' lookups included: the next check
        # must ask the disk again, or a link typed to the new file is still broken.
        self.outdated.add(uri)
        return False

    def refresh(self, uris: list[str]) -> None:
        """New diagnostics for these documents: pushed, or the client told to pull."""
        if self.pull:
            if uris:
                self._ask_to_pull()
            return
        for uri in uris:
            self.publish(uri)

    def _ask_to_pull(self) -> None:
        refresh = self.server.client_capabilities.workspace
        if refresh and refresh.diagnostics and refresh.diagnostics.refresh_support:
            self.server.workspace_diagnostic_refresh(None)

    # ---- diagnostics

    def publish(self, uri: str) -> None:
        from lsprotocol import types

        if self.pull:
            return  # the client asks (textDocument/diagnostic)
        document = self.server.workspace.get_text_document(uri)
        had_findings = uri in self.checked
        diagnostics = self.diagnose(uri)
        if diagnostics is None and not had_findings:
            return  # a file the project does not check: nothing to say, nothing to clear
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri, diagnostics=diagnostics or [], version=document.version
            )
        )

    def diagnose(self, uri: str) -> list[types.Diagnostic] | None:
        """Check the document as the editor holds it; None for one the project skips."""
        document = self.server.workspace.get_text_document(uri)
        scope = self.scope(uri)
        if scope is None or not scope.checked:
            self.checked.pop(uri, None)
            return None
        findings, lookups = self._findings(scope, document)
        self.checked[uri] = Checked(document.version, document.source, findings, lookups)
        return [self._diagnostic(document, f) for f in findings]

    def _findings(
        self, scope: Scope, document: TextDocument
    ) -> tuple[list[Finding], dict[Lookup, str] | None]:
        from guidelint.config import ConfigError

        engine = scope.engine
        try:
            if _on_disk(engine.project.root / scope.rel, document.source):
                found = engine.check_files([scope.rel], jobs=1)  # the result cache's answer
                lookups = (engine.lookups or {}).get(scope.rel)
            else:
                found, lookups = engine.check_text(scope.rel, document.source), None
            return _with_roles(engine, scope.rel, document.source, found), lookups
        except ConfigError as error:
            self.server.window_show_message(_message(f"guidelint: {error}", error=True))
            return [], None

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
            here = [
                finding
                for finding in checked.findings
                if _overlaps(self._range(document, finding), params.range)
            ]
            for finding in here:
                if finding.fix is not None and finding.fix.safe:
                    actions.append(self._quick_fix(document, finding))
            for finding in here:
                actions.extend(self._suppressions(document, finding))
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

    def _suppressions(self, document: TextDocument, finding: Finding) -> list[types.CodeAction]:
        """ "Disable CODE for this line / block / file": the comments guidelint reads,
        offered only where checking the edited text shows the finding gone."""
        from lsprotocol import types

        from guidelint.findings import Fix
        from guidelint.fixes import apply_edits
        from guidelint.suppress import suppression_edits

        scope = self.scope(document.uri)
        if scope is None or not scope.checked:
            return []
        actions = []
        for where, edits in suppression_edits(document.source, scope.rel, finding):
            after, _ = apply_edits(document.source, [Fix(edits)])
            if _still_there(finding, scope.engine.check_text(scope.rel, after)):
                continue
            text_edits = []
            for edit in edits:
                start = self._position(document, edit.start)
                where_at = types.Range(start=start, end=start)
                text_edits.append(types.TextEdit(range=where_at, new_text=edit.content))
            actions.append(
                types.CodeAction(
                    title=f"guidelint: disable {finding.code} for this {where}",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[self._diagnostic(document, finding)],
                    edit=types.WorkspaceEdit(changes={document.uri: text_edits}),
                )
            )
        return actions

    def _position(self, document: TextDocument, offset: int) -> types.Position:
        from lsprotocol import types

        from guidelint.spans import LineIndex

        point = LineIndex(document.source).position(offset)
        at = types.Position(line=point.line - 1, character=point.column - 1)
        return self._client_range(document, at, at).start

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


def _with_roles(engine: Any, rel: str, text: str, found: list[Finding]) -> list[Finding]:
    """The document's findings with those of the steering-named links to it (a
    `CLAUDE.md -> AGENTS.md` makes AGENTS.md's text a CLAUDE.md too), as `check`
    reports them: at the document's lines, each once (engine.fold_roles)."""
    from guidelint.discovery import link_targets
    from guidelint.doc_kind import is_steering
    from guidelint.engine import fold_roles, role_links
    from guidelint.project import Project

    project = engine.project
    # The plain list: a recording project would note the whole list for this file.
    steering = [name for name in Project.files(project) if is_steering(name)]
    links = role_links(link_targets(project.root, steering))
    roles = {link: target for link, target in links.items() if target == rel}
    if not roles:
        return found
    named = [finding for link in sorted(roles) for finding in engine.check_text(link, text)]
    return fold_roles([*found, *named], roles)


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


def _still_there(finding: Finding, after: list[Finding]) -> bool:
    """Whether the finding survives an inserted suppression: the same rule, text and
    message, wherever the comment moved it (two alike elsewhere: kept, to be safe)."""
    return any(
        f.code == finding.code and f.snippet == finding.snippet and f.message == finding.message
        for f in after
    )


def _kind(kind: Any) -> str:
    return str(getattr(kind, "value", kind))  # an enum member, or a kind it does not know


def _leads_out(root: Path, path: Path) -> bool:
    """A document named inside the project whose symlinks lead out of it: neither it
    nor what it names is read (a document outside the project is simply not ours)."""
    import os

    from guidelint.confine import is_inside

    named = os.path.abspath(path)
    return named.startswith(os.path.join(root, "")) and not is_inside(root, named)


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
