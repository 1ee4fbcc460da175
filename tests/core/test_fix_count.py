"""One count of fixes (issue 32): `check`'s "N fixable", `--diff`'s "Would fix N",
`--fix`'s "Fixed N", the editor's "apply N safe fix(es)" and the MCP `fix` tool
agree, on a gotchas file where one fix (GL204's reordered index) makes the others'
moot: three findings go, though only one fix is applied."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guidelint.findings import Edit, Finding, Fix, Severity
from guidelint.fixes import fix_text, fixed_count

REPO = Path(__file__).parents[2]
GOTCHAS_REL = ".claude/rules/gotchas.md"
# Rows out of order (GL204), a row for no entry (GL203), an entry without a row (GL202).
GOTCHAS = """# Gotchas

## LESSONS index

- [Checkpoints are written only at save steps](#checkpoints-are-written-only-at-save-steps)
- [Smoke gates use the realized slice](#smoke-gates-use-the-realized-slice)
- [Old lesson](#old-lesson)

## Lessons

- **Smoke gates use the realized slice.** Never the assumed row cap (#1489).
- **Checkpoints are written only at save steps.** Not every step (#1500).
- **Evaluation runs on the held-out split.** Never the train rows (#1510).
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.guidelint]\n")
    (tmp_path / ".claude" / "rules").mkdir(parents=True)
    (tmp_path / GOTCHAS_REL).write_text(GOTCHAS)
    return tmp_path


def _guidelint(root: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "guidelint", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=300,  # a guard against a hang, not a measure
    )
    return done.stdout + done.stderr


def _number(pattern: str, text: str) -> int:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in {text!r}"
    return int(match.group(1))


@pytest.mark.slow  # three CLI runs, an MCP server and a language server
def test_the_five_counts_agree(workspace: Path, tmp_path: Path) -> None:
    from tests.core.test_lsp import Editor, scenario
    from tests.core.test_mcp_server import serve

    counts: dict[str, int] = {}
    counts["check"] = _number(r"\[\*\] (\d+) fixable", _guidelint(workspace, "check", "."))
    counts["diff"] = _number(r"Would fix (\d+) finding", _guidelint(workspace, "check", "--diff"))
    mcp_copy = tmp_path / "mcp"
    shutil.copytree(workspace, mcp_copy)
    counts["fix"] = _number(r"Fixed (\d+) finding", _guidelint(workspace, "check", "--fix"))
    assert "GL20" not in _guidelint(workspace, "check", ".")  # every finding went

    async def mcp_fix(session) -> None:
        result = (await session.call_tool("fix", {"dry_run": True})).structured_content
        counts["mcp"] = sum(result["fixed"].values())

    serve(mcp_copy, mcp_fix)

    async def lsp_fix_all(editor: Editor) -> None:
        from lsprotocol import types

        editor.open(GOTCHAS_REL)
        await editor.next_diagnostics(GOTCHAS_REL)
        actions = await editor.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=editor.uri(GOTCHAS_REL)),
                range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
                context=types.CodeActionContext(
                    diagnostics=[], only=[types.CodeActionKind.SourceFixAll]
                ),
            )
        )
        (fix_all,) = actions
        counts["lsp"] = _number(r"apply (\d+) safe fix", fix_all.title)

    scenario(mcp_copy, lsp_fix_all)
    assert counts == {"check": 3, "diff": 3, "fix": 3, "mcp": 3, "lsp": 3}


def _finding(code: str, snippet: str, fix: Fix | None) -> Finding:
    return Finding(code, "x", Severity.ERROR, "m", "a.md", 1, 1, 1, 2, fix, snippet, snippet)


def test_a_fix_that_makes_another_moot_counts_both_and_an_unfixed_one_none() -> None:
    # Two findings on the word "bad": one fix replaces it, the other's overlapping fix
    # is never applied, and both findings go. "stuck" has a fix that changes nothing.
    replace = Fix((Edit(0, 3, "good"),))
    also = Fix((Edit(0, 3, "fine"),))

    def check(text: str) -> list[Finding]:
        at = text.index("stuck")
        found = [_finding("GL9", "stuck", Fix((Edit(at, at + 5, "stuck"),)))]
        if text.startswith("bad"):
            found += [_finding("GL1", "bad", replace), _finding("GL2", "bad", also)]
        return found

    fixed, count, left = fix_text("bad stuck", check)
    assert fixed == "good stuck" and count == 2
    assert [f.code for f in left] == ["GL9"]
    assert fixed_count(check("bad stuck"), left) == 2
    unsafe_only = [_finding("GL1", "bad", Fix((Edit(0, 3, "good"),), safe=False))]
    assert fixed_count(unsafe_only, []) == 0  # a safe run does not apply it
    assert fixed_count(unsafe_only, [], unsafe=True) == 1
