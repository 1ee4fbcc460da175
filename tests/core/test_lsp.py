"""`guidelint lsp` end to end: pygls's LanguageClient drives the real server over stdio.

Diagnostics on open, change and save; a quick fix and a fix-all code action whose
edits, applied, leave nothing to fix; a hover that shows the rule page; and no MCP
server started even though the configuration asks for live tool lists. Then files
changed on disk (`.mcp.json`, a snapshot, `pyproject.toml`, a file a guide names),
announced with `workspace/didChangeWatchedFiles`, reach the open documents that rest
on them, debounced; pulled diagnostics under the client's settings; and the
"disable for this line / file" actions.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from guidelint.commands.lsp_server import WATCHED  # noqa: E402

REPO = Path(__file__).parents[2]

GOTCHAS = """# Gotchas

## LESSONS index

- [Smoke gates use the realized slice](#smoke-gates-use-the-realized-slice)
- [Checkpoints are written only at save steps](#checkpoints-are-written-only-at-save-steps)

## Lessons

- **Smoke gates use the realized slice.** Never the assumed row cap (#1489).
"""

GUIDE = "# Guide\n\nRun `scripts/train.py`, then call `mcp__lab__job_stat`.\n"
# A server that would leave a mark if anything started it.
MCP = """{"mcpServers": {"lab": {"command": "%s", "args": ["-c",
  "open('started', 'w').write('yes')"]}}}"""
SNAPSHOT = """{"tools": [{"name": "job_status", "inputSchema": {"type": "object"}}]}"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint.tools]\nlive = true\n")
    (tmp_path / ".mcp.json").write_text(MCP % sys.executable)
    (tmp_path / ".guidelint" / "tools").mkdir(parents=True)
    (tmp_path / ".guidelint" / "tools" / "lab.json").write_text(SNAPSHOT)
    (tmp_path / ".claude" / "rules").mkdir(parents=True)
    (tmp_path / ".claude" / "rules" / "gotchas.md").write_text(GOTCHAS)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "report.py").write_text("print('report')\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(GUIDE)
    return tmp_path


class Editor:
    """A client, the diagnostics it was sent, and the documents it has open."""

    def __init__(
        self,
        root: Path,
        capabilities: types.ClientCapabilities | None = None,
        options: dict | None = None,
        settings: dict | None = None,
    ) -> None:
        self.root = root
        self.capabilities = capabilities or types.ClientCapabilities()
        self.options = options  # initializationOptions
        self.settings = settings  # what workspace/configuration answers
        self.client = LanguageClient("test-editor", "1")
        self.diagnostics: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()
        self.registrations: asyncio.Queue[types.Registration] = asyncio.Queue()
        self.refreshes: asyncio.Queue[None] = asyncio.Queue()
        self.messages: list[str] = []  # window/showMessage

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def shown(ls: LanguageClient, params: types.ShowMessageParams) -> None:
            self.messages.append(params.message)

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics.put_nowait(params)

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(ls: LanguageClient, params: types.RegistrationParams) -> None:
            for registration in params.registrations:
                self.registrations.put_nowait(registration)

        @self.client.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(ls: LanguageClient, params: types.ConfigurationParams) -> list:
            return [self.settings for _ in params.items]

        @self.client.feature(types.WORKSPACE_DIAGNOSTIC_REFRESH)
        def refresh(ls: LanguageClient, params: None) -> None:
            self.refreshes.put_nowait(None)

        self.versions: dict[str, int] = {}

    async def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        await self.client.start_io(
            sys.executable, "-m", "guidelint", "lsp", cwd=str(self.root), env=env
        )
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=self.capabilities,
                root_uri=self.root.as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=self.root.as_uri(), name="ws")],
                initialization_options=self.options,
            )
        )
        self.client.initialized(types.InitializedParams())

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def uri(self, rel: str) -> str:
        return (self.root / rel).as_uri()

    async def next_diagnostics(self, rel: str) -> list[types.Diagnostic]:
        while True:
            params = await self.diagnostics.get()
            if params.uri == self.uri(rel):
                return list(params.diagnostics)

    def open(self, rel: str) -> None:
        self.versions[rel] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=self.uri(rel),
                    language_id="markdown",
                    version=1,
                    text=(self.root / rel).read_text(),
                )
            )
        )

    def change(self, rel: str, text: str) -> None:
        self.versions[rel] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=self.uri(rel), version=self.versions[rel]
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def changed_on_disk(self, rel: str, kind: types.FileChangeType) -> None:
        self.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=self.uri(rel), type=kind)]
            )
        )

    async def round_trip(self) -> None:
        """A request answered after every message sent before it was handled."""
        await self.client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri("docs/guide.md")),
                position=types.Position(line=0, character=0),
            )
        )

    def published(self) -> list[str]:
        """The documents of the diagnostics sent so far and not yet read, in order."""
        uris = []
        while not self.diagnostics.empty():
            uris.append(self.diagnostics.get_nowait().uri)
        return uris

    def save(self, rel: str) -> None:
        self.client.text_document_did_save(
            types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri(rel))
            )
        )


def scenario(root: Path, steps, **client) -> None:
    async def main() -> None:
        editor = Editor(root, **client)
        await editor.start()
        try:
            await steps(editor)
        finally:
            await editor.stop()

    asyncio.run(asyncio.wait_for(main(), timeout=120))  # a guard against a hang, not a measure


def _codes(diagnostics: list[types.Diagnostic]) -> list[tuple[str, int]]:
    return sorted((str(d.code), d.range.start.line + 1) for d in diagnostics)


@pytest.mark.slow  # a server process, a real client
def test_diagnostics_on_open_change_and_save(workspace: Path) -> None:
    async def steps(editor: Editor) -> None:
        editor.open("docs/guide.md")
        found = await editor.next_diagnostics("docs/guide.md")
        assert _codes(found) == [("GL101", 3), ("GL501", 3)]
        stale = next(d for d in found if d.code == "GL501")
        assert stale.source == "guidelint" and "scripts/train.py" in stale.message
        assert stale.range.start.character == len("Run ")  # the code span, zero-based
        # Typing a fix: the unsaved text is checked as it is.
        editor.change("docs/guide.md", "# Guide\n\nRun 😀 `scripts/train.py`.\n")
        (stale,) = await editor.next_diagnostics("docs/guide.md")
        assert stale.code == "GL501"
        assert stale.range.start.character == 7  # UTF-16 units: the emoji counts two
        # The file appears on disk; saving checks again against the new tree.
        (workspace / "scripts" / "train.py").write_text("print('train')\n")
        (workspace / "docs" / "guide.md").write_text("# Guide\n\nRun `scripts/train.py`.\n")
        editor.save("docs/guide.md")
        assert await editor.next_diagnostics("docs/guide.md") == []

    scenario(workspace, steps)
    assert not (workspace / "started").exists()  # live = true, yet no server was started
    assert list((workspace / ".guidelint_cache").glob("results-*.json"))  # check's cache


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply TextEdits (ASCII text: UTF-16 units are characters here)."""
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        return sum(len(line) for line in lines[: position.line]) + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text


@pytest.mark.slow  # a server process, a real client
def test_code_actions_apply_the_safe_fixes_and_hover_shows_the_rule(workspace: Path) -> None:
    rel = ".claude/rules/gotchas.md"

    async def steps(editor: Editor) -> None:
        editor.open(rel)
        (dangling,) = await editor.next_diagnostics(rel)
        assert dangling.code == "GL203" and dangling.range.start.line == 5
        actions = await editor.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=editor.uri(rel)),
                range=dangling.range,
                context=types.CodeActionContext(diagnostics=[dangling]),
            )
        )
        kinds = {action.kind: action for action in actions if "disable" not in action.title}
        quick = kinds[types.CodeActionKind.QuickFix]
        assert [a.title for a in actions if "disable" in a.title] == [
            "guidelint: disable GL203 for this line",
            "guidelint: disable GL203 for this file",
        ]
        fixed = _apply(GOTCHAS, quick.edit.changes[editor.uri(rel)])
        assert "checkpoints-are-written" not in fixed
        assert (
            kinds[types.CodeActionKind.SourceFixAll].edit.changes[editor.uri(rel)][0].new_text
            == fixed
        )
        # The fixed text, as the editor would now hold it, has nothing left.
        editor.change(rel, fixed)
        assert await editor.next_diagnostics(rel) == []
        editor.change(rel, GOTCHAS)
        await editor.next_diagnostics(rel)
        hover = await editor.client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=editor.uri(rel)),
                position=types.Position(line=5, character=4),
            )
        )
        assert hover.contents.value.startswith("# GL203 dangling-index-row")

    scenario(workspace, steps)


@pytest.mark.slow  # a server process, a real client
def test_json_files_the_project_checks_and_only_those(workspace: Path) -> None:
    permissions = '{"permissions": {"allow": ["mcp__lab__job_kill"]}}\n'
    (workspace / "notes.json").write_text(permissions)
    (workspace / ".claude" / "settings.json").write_text(permissions)

    async def steps(editor: Editor) -> None:
        editor.open("notes.json")  # not in the include globs
        editor.open(".claude/settings.json")
        params = await editor.diagnostics.get()
        assert params.uri == editor.uri(".claude/settings.json")  # none for notes.json
        assert _codes(list(params.diagnostics)) == [("GL106", 1)]

    scenario(workspace, steps)


# ---- files on disk: configuration, snapshots, .mcp.json (issue 32)

WATCHING = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(
        did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
            dynamic_registration=True
        )
    )
)
TOOLS_GUIDE = (
    "# Guide\n\nRead `docs/setup.md`, then call `mcp__lab__job_stat` and `mcp__ops__deploy`.\n"
)
OTHER = "# Other\n\nRun `scripts/report.py`.\n"


@pytest.fixture
def tools_workspace(workspace: Path) -> Path:
    (workspace / "pyproject.toml").write_text("[tool.guidelint]\n")
    (workspace / ".mcp.json").write_text(
        '{"mcpServers": {"lab": {"command": "python3", "args": []}}}\n'
    )
    (workspace / "docs" / "guide.md").write_text(TOOLS_GUIDE)
    (workspace / "docs" / "other.md").write_text(OTHER)
    return workspace


@pytest.mark.slow  # a server process, a real client
def test_changes_on_disk_reach_the_open_documents_that_rest_on_them(
    tools_workspace: Path,
) -> None:
    root = tools_workspace
    guide, other = "docs/guide.md", "docs/other.md"

    async def steps(editor: Editor) -> None:
        registration = await editor.registrations.get()  # asked for after `initialized`
        globs = [w["globPattern"] for w in registration.register_options["watchers"]]
        assert "**/.guidelint/tools/*.json" in globs
        assert any(".mcp.json" in g and "pyproject.toml" in g for g in globs)
        editor.open(guide)
        assert _codes(await editor.next_diagnostics(guide)) == [
            ("GL101", 3),
            ("GL102", 3),
            ("GL501", 3),
        ]
        editor.open(other)
        assert await editor.next_diagnostics(other) == []
        # .mcp.json declares `ops`: its GL102 goes.
        (root / ".mcp.json").write_text(
            '{"mcpServers": {"lab": {"command": "python3", "args": []},'
            ' "ops": {"type": "http", "url": "http://localhost:9"}}}\n'
        )
        editor.changed_on_disk(".mcp.json", types.FileChangeType.Changed)
        assert _codes(await editor.next_diagnostics(guide)) == [("GL101", 3), ("GL501", 3)]
        assert await editor.next_diagnostics(other) == []
        # A snapshot of `ops` without `deploy`: a GL101 for it.
        (root / ".guidelint" / "tools" / "ops.json").write_text(
            '{"tools": [{"name": "status", "inputSchema": {"type": "object"}}]}'
        )
        editor.changed_on_disk(".guidelint/tools/ops.json", types.FileChangeType.Created)
        found = await editor.next_diagnostics(guide)
        assert _codes(found) == [("GL101", 3), ("GL101", 3), ("GL501", 3)]
        assert any("`ops` has no tool `deploy`" in d.message for d in found)
        # other.md names no tool, but its rules read the catalog: checked again too.
        assert await editor.next_diagnostics(other) == []
        # The configuration ignores GL101: every open document of the project again.
        (root / "pyproject.toml").write_text('[tool.guidelint]\nignore = ["GL101"]\n')
        editor.changed_on_disk("pyproject.toml", types.FileChangeType.Changed)
        assert _codes(await editor.next_diagnostics(guide)) == [("GL501", 3)]
        assert await editor.next_diagnostics(other) == []
        # The file the guide names appears: only the guide rests on it (other.md
        # looked up other paths), so only the guide is checked again.
        (root / "docs" / "setup.md").write_text("# Setup\n")
        editor.changed_on_disk("docs/setup.md", types.FileChangeType.Created)
        assert await editor.next_diagnostics(guide) == []
        await editor.round_trip()
        assert editor.published() == []

    scenario(root, steps, capabilities=WATCHING, options={"debounceMs": 20})


@pytest.mark.slow  # a server process, a real client
def test_rapid_changes_are_debounced_into_one_check(tools_workspace: Path) -> None:
    root = tools_workspace
    snapshot = root / ".guidelint" / "tools" / "lab.json"

    async def steps(editor: Editor) -> None:
        editor.open("docs/guide.md")
        editor.open("docs/other.md")
        await editor.next_diagnostics("docs/other.md")
        editor.published()
        for n in range(20):  # an editor's "save all", a branch switch: 20 events
            tools = [{"name": f"job_{i}", "inputSchema": {"type": "object"}} for i in range(n)]
            snapshot.write_text(json.dumps({"tools": [*tools, {"name": "job_stat"}]}))
            editor.changed_on_disk(".guidelint/tools/lab.json", types.FileChangeType.Changed)
        await editor.round_trip()
        assert editor.published() == []  # still gathering (debounceMs is long here)
        await editor.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="guidelint.reload")
        )
        await editor.round_trip()
        assert sorted(editor.published()) == [
            editor.uri("docs/guide.md"),
            editor.uri("docs/other.md"),
        ]  # one check per open document, not twenty

    scenario(root, steps, capabilities=WATCHING, options={"debounceMs": 600_000})


PULLING = types.ClientCapabilities(
    text_document=types.TextDocumentClientCapabilities(
        diagnostic=types.DiagnosticClientCapabilities()
    ),
    workspace=types.WorkspaceClientCapabilities(
        configuration=True,
        diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True),
    ),
)


@pytest.mark.slow  # a server process, a real client
def test_pulled_diagnostics_follow_the_client_settings(tools_workspace: Path) -> None:
    root = tools_workspace
    guide = "docs/guide.md"

    async def pull(editor: Editor) -> list[types.Diagnostic]:
        report = await editor.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri=editor.uri(guide))
            )
        )
        return list(report.items)

    async def steps(editor: Editor) -> None:
        await editor.refreshes.get()  # the settings asked for after start have arrived
        editor.open(guide)
        assert _codes(await pull(editor)) == [("GL101", 3), ("GL102", 3)]  # ignore GL501
        editor.client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"guidelint": {"select": ["GL5"]}})
        )
        await editor.refreshes.get()
        assert _codes(await pull(editor)) == [("GL501", 3)]
        await editor.round_trip()
        assert editor.published() == []  # a client that pulls is never pushed to

    scenario(
        root,
        steps,
        capabilities=PULLING,
        options={"ignore": ["GL102"]},  # replaced by what workspace/configuration says
        settings={"ignore": ["GL501"]},
    )


@pytest.mark.slow  # a server process, a real client
def test_disable_actions_insert_a_suppression_that_works(tools_workspace: Path) -> None:
    guide = "docs/guide.md"

    async def steps(editor: Editor) -> None:
        editor.open(guide)
        found = await editor.next_diagnostics(guide)
        stale = next(d for d in found if d.code == "GL501")
        actions = await editor.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=editor.uri(guide)),
                range=stale.range,
                context=types.CodeActionContext(
                    diagnostics=[stale], only=[types.CodeActionKind.QuickFix]
                ),
            )
        )
        by_title = {a.title: a for a in actions}
        for title, expected in [
            ("guidelint: disable GL501 for this line", [("GL101", 4), ("GL102", 4)]),
            ("guidelint: disable GL501 for this file", [("GL101", 4), ("GL102", 4)]),
        ]:
            edits = by_title[title].edit.changes[editor.uri(guide)]
            edited = _apply(TOOLS_GUIDE, edits)
            assert "<!-- guidelint: disable" in edited
            editor.change(guide, edited)
            assert _codes(await editor.next_diagnostics(guide)) == expected
            editor.change(guide, TOOLS_GUIDE)
            await editor.next_diagnostics(guide)

    scenario(tools_workspace, steps)


@pytest.mark.slow  # a server process, a real client
def test_a_document_opened_through_a_folder_symlink_out_is_not_checked(
    workspace: Path, tmp_path_factory
) -> None:
    """`docs/link -> ~/other/docs` (#28): the editor's document is named inside the
    project, but checking it would read another project (its `.mcp.json`, its
    snapshots, its files): one message, no diagnostics."""
    import subprocess

    other = tmp_path_factory.mktemp("other")
    (other / ".guidelint" / "tools").mkdir(parents=True)
    (other / ".mcp.json").write_text('{"mcpServers": {"lab": {"command": "python3"}}}')
    (other / ".guidelint" / "tools" / "lab.json").write_text(SNAPSHOT)
    (other / "docs").mkdir()
    (other / "docs" / "secret.md").write_text("# O\n\nCall `mcp__lab__job_stat` (SECRET).\n")
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    (workspace / "pyproject.toml").write_text("[tool.guidelint]\n")
    (workspace / "docs" / "link").symlink_to(other / "docs", target_is_directory=True)

    async def steps(editor: Editor) -> None:
        editor.open("docs/link/secret.md")
        editor.open("docs/guide.md")  # answered after the first: what came before is all
        sent = []
        while True:
            params = await editor.diagnostics.get()
            sent.append((params.uri, _codes(list(params.diagnostics))))
            if params.uri == editor.uri("docs/guide.md"):
                break
        assert [uri for uri, _ in sent] == [editor.uri("docs/guide.md")], sent
        assert any(
            "docs/link/secret.md: not checked: it leads outside the project" in message
            for message in editor.messages
        ), editor.messages

    scenario(workspace, steps)


@pytest.mark.slow  # a server process, a real client
def test_a_document_a_claude_md_links_to_gets_the_claude_md_rules(tmp_path: Path) -> None:
    """`CLAUDE.md -> AGENTS.md` (issue #27): Claude Code loads AGENTS.md's text as a
    CLAUDE.md, so the editor shows AGENTS.md what `check` reports there: GL606 under
    the CLAUDE.md name, once, at AGENTS.md's line, opened under either name."""
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint]\n")
    text = "# Agents\n\nUse the `code-reviewer` subagent (Task tool) for reviews.\n"
    (tmp_path / "AGENTS.md").write_text(text)
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")

    async def steps(editor: Editor) -> None:
        for name in ("AGENTS.md", "CLAUDE.md"):
            editor.open(name)
            found = await editor.next_diagnostics(name)
            assert _codes(found) == [("GL606", 3)]
            assert "read as `CLAUDE.md`" in found[0].message

    scenario(tmp_path, steps)


@pytest.mark.slow  # a server process, a real client
def test_a_config_path_outside_the_workspace_is_refused(tmp_path: Path) -> None:
    """A committed `.vscode/settings.json` sets `guidelint.configPath` to
    `../.hushlogin` (any empty file is valid TOML): the project was re-rooted in the
    folder above the workspace, the user's home, and the server wrote its result cache
    there and read that folder's `.mcp.json` and files. Now the setting is one message
    naming it, nothing is checked under it, and nothing is written outside."""
    home = tmp_path / "home"
    root = home / "repo"
    (root / "docs").mkdir(parents=True)
    (home / ".hushlogin").write_text("")
    (root / "pyproject.toml").write_text("[tool.guidelint]\n")
    (root / "docs" / "guide.md").write_text(GUIDE)

    for path in ("../.hushlogin", str(home / ".hushlogin")):

        async def steps(editor: Editor, path: str = path) -> None:
            editor.open("docs/guide.md")
            await editor.round_trip()
            assert editor.published() == []
            wanted = f"{path}: configPath leads outside the project"
            assert any(wanted in message for message in editor.messages), editor.messages

        scenario(root, steps, options={"configPath": path})
    assert sorted(p.name for p in home.iterdir()) == [".hushlogin", "repo"]


# ---- what git leaves out: .gitignore and .gitmodules edits (issues 27, 28)


def _watched_for(path: str, kind: int) -> bool:
    """Whether the server's watchers, read as a client reads them (`{a,b}` braces,
    `**/`), ask for this kind of event on this path."""
    import re

    import pathspec

    for glob, kinds in WATCHED:
        if not kinds & kind:
            continue
        braces = re.search(r"\{([^}]*)\}", glob)
        globs = [glob]
        if braces:
            globs = [
                glob[: braces.start()] + alt + glob[braces.end() :] for alt in braces[1].split(",")
            ]
        if pathspec.GitIgnoreSpec.from_lines(globs).match_file(path):
            return True
    return False


@pytest.mark.parametrize("path", [".gitignore", "docs/.gitignore", ".gitmodules"])
def test_edits_of_what_git_leaves_out_are_watched(path: str) -> None:
    # An edited .gitignore turns GL501/GL502/GL504 findings on or off; unwatched, the
    # open documents kept their old diagnostics until saved (a silent wrong answer).
    assert _watched_for(path, 2)  # WatchKind.Change
    assert _watched_for(path, 1) and _watched_for(path, 4)  # created, deleted
    assert not _watched_for("docs/notes.bin", 2)  # the helper reads the globs, not all


LINKING = "# Links\n\nRead [the settings](settings.md).\n"


@pytest.mark.slow  # a server process, a real client
def test_an_edited_nested_gitignore_reaches_the_document_linking_past_it(tmp_path: Path) -> None:
    root = tmp_path
    (root / "pyproject.toml").write_text("[tool.guidelint]\n")
    (root / "docs").mkdir()
    (root / "docs" / "links.md").write_text(LINKING)
    (root / "docs" / ".gitignore").write_text("settings.md\n")  # a page the build writes
    guide = "docs/links.md"

    async def steps(editor: Editor) -> None:
        registration = await editor.registrations.get()
        assert ("**/{.gitignore,.gitmodules}", 2) in [
            (w["globPattern"], w["kind"]) for w in registration.register_options["watchers"]
        ]
        editor.open(guide)
        assert await editor.next_diagnostics(guide) == []
        (root / "docs" / ".gitignore").write_text("other.md\n")
        editor.changed_on_disk("docs/.gitignore", types.FileChangeType.Changed)
        assert _codes(await editor.next_diagnostics(guide)) == [("GL502", 3)]
        (root / "docs" / ".gitignore").write_text("settings.md\n")
        editor.changed_on_disk("docs/.gitignore", types.FileChangeType.Changed)
        assert await editor.next_diagnostics(guide) == []

    scenario(root, steps, capabilities=WATCHING, options={"debounceMs": 20})


SAVED_LINKS = "# Links\n\nNothing yet.\n"


@pytest.mark.slow  # a server process, a real client
@pytest.mark.parametrize(
    "made", ["docs/.gitignore", "docs/settings.md"], ids=["gitignore", "linked-file"]
)
def test_a_change_on_disk_reaches_the_unsaved_text_typed_after_it(
    tmp_path: Path, made: str
) -> None:
    # The saved text looks up nothing the change touches, so it is not checked again;
    # but the answers its scope gave an unsaved text before (the link missing, no
    # .gitignore in docs/) were kept and given again to the text typed after.
    root = tmp_path
    (root / "pyproject.toml").write_text("[tool.guidelint]\n")
    (root / "docs").mkdir()
    (root / "docs" / "links.md").write_text(SAVED_LINKS)
    guide = "docs/links.md"

    async def steps(editor: Editor) -> None:
        await editor.registrations.get()
        editor.open(guide)
        assert await editor.next_diagnostics(guide) == []
        editor.change(guide, LINKING)  # unsaved: the page is missing
        assert _codes(await editor.next_diagnostics(guide)) == [("GL502", 3)]
        editor.change(guide, SAVED_LINKS)
        assert await editor.next_diagnostics(guide) == []
        (root / made).write_text("settings.md\n" if made.endswith(".gitignore") else "# S\n")
        editor.changed_on_disk(made, types.FileChangeType.Created)
        await editor.round_trip()  # debounceMs 0: the changes are taken in by then
        await editor.round_trip()
        editor.change(guide, LINKING)  # the page now exists, or is git-ignored
        assert await editor.next_diagnostics(guide) == []

    scenario(root, steps, capabilities=WATCHING, options={"debounceMs": 0})
