"""`guidelint lsp` end to end: pygls's LanguageClient drives the real server over stdio.

Diagnostics on open, change and save; a quick fix and a fix-all code action whose
edits, applied, leave nothing to fix; a hover that shows the rule page; and no MCP
server started even though the configuration asks for live tool lists.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

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

    def __init__(self, root: Path) -> None:
        self.root = root
        self.client = LanguageClient("test-editor", "1")
        self.diagnostics: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics.put_nowait(params)

        self.versions: dict[str, int] = {}

    async def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        await self.client.start_io(
            sys.executable, "-m", "guidelint", "lsp", cwd=str(self.root), env=env
        )
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                root_uri=self.root.as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=self.root.as_uri(), name="ws")],
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

    def save(self, rel: str) -> None:
        self.client.text_document_did_save(
            types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri(rel))
            )
        )


def scenario(root: Path, steps) -> None:
    async def main() -> None:
        editor = Editor(root)
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
        kinds = {action.kind: action for action in actions}
        quick = kinds[types.CodeActionKind.QuickFix]
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
