"""What counts as a tool reference: recall on real drift, precision on everything else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.tools.references import parse_reference

LAB = {
    "tools": [
        {
            "name": "job_submit",
            "inputSchema": {
                "type": "object",
                "properties": {"workspace": {}, "script": {}, "gpu": {}},
                "required": ["workspace", "script"],
            },
        },
        {
            "name": "job_status",
            "inputSchema": {"type": "object", "properties": {"job_id": {}}, "required": ["job_id"]},
        },
        {
            "name": "describe_table",
            "inputSchema": {"type": "object", "properties": {"table_name": {}}},
        },
    ],
    "prompts": [{"name": "plan-smoke", "arguments": [{"name": "topic"}]}],
    "resources": [{"name": "insights", "uri": "memo://insights"}],
}


def findings(tmp_path: Path, markdown: str, rel: str = "docs/guide.md"):
    snapshot = tmp_path / ".guidelint/tools/lab.json"
    snapshot.parent.mkdir(parents=True, exist_ok=True)
    snapshot.write_text(json.dumps(LAB))
    doc = tmp_path / rel
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(markdown)
    project = Project(tmp_path, Config())
    engine = Engine(project, build_selection(Config(select=["GL1"])))
    return [(f.line, f.code, f.message) for f in engine.check_file(rel)]


@pytest.mark.parametrize(
    ("text", "kind", "server", "name"),
    [
        ("mcp__lab__job_submit", "qualified", "lab", "job_submit"),
        ("mcp__my_server__do_it", "qualified", "my_server", "do_it"),
        ("mcp__a__b__c", "qualified", "a", "b__c"),
        ("mcp__lab", "qualified", "lab", ""),
        ("mcp__lab__*", "qualified", "lab", "*"),
        ("mcp__lab__job_submit(gpu='h100')", "qualified", "lab", "job_submit"),
        ("job_submit(gpu='h100')", "call", None, "job_submit"),
        ("Bash(git diff:*)", "call", None, "Bash"),
        ("describe-table", "bare", None, "describe-table"),
    ],
)
def test_parse_reference_forms(text, kind, server, name):
    ref = parse_reference(text)
    assert (ref.kind, ref.server, ref.name) == (kind, server, name)


def test_known_server_wins_the_split():
    assert parse_reference("mcp__a__b__c", {"a__b"}).server == "a__b"


@pytest.mark.parametrize(
    "text",
    [
        "scripts/train.py",
        "pytest -q",
        "np.mean(x)",
        '{"job_id": 1}',
        "$HOME",
        "<tool>",
        "mcp__<server>__<tool>",
        "a b",
    ],
)
def test_not_references(text):
    assert parse_reference(text) is None


def test_a_dotted_name_is_a_name_judged_only_against_dotted_tools():
    ref = parse_reference("files.read")
    assert ref is not None and (ref.kind, ref.name) == ("dotted", "files.read")


def test_call_args_parse_keywords_and_open_lists():
    ref = parse_reference('job_submit(workspace="w", gpu="h100")')
    assert ref.args.keywords == ("workspace", "gpu") and not ref.args.open
    assert parse_reference("job_submit(...)").args.open
    assert parse_reference("Bash(git diff:*)").args is None  # a specifier, not Python


PRECISION_DOC = """\
# Tools

The lab server's tools take `workspace`, `script`, `gpu` and `job_id`.

- `job_submit` queues a job (see `scripts/train.py`, run `pytest -q`).
- `job_status` polls it; the `plan-smoke` prompt takes a `topic`.
- `memo://insights` is a resource.

## Usage

Use `Read`, `Grep` and `Bash(git diff:*)`. Set `HF_HOME` and `CUDA_VISIBLE_DEVICES`.
Run `make check`, then call `job_status(job_id="abc")`. `np.mean(x)` is Python,
`{"gpu": "h100"}` is JSON, `<workspace>` a placeholder, `$LAB_ROOT` a variable.
Use the `--live` flag, `True`, `None`, `id`, `done`, `status`, `queued` and `main`.
Call the `mcp__lab__job_submit` tool with `mcp__lab__*` permissions.

| Tool | Arguments |
|------|-----------|
| `job_submit` | `workspace`, `script` |
| `Read` | `file_path` |
"""


def test_precision_nothing_is_flagged_in_a_busy_guide(tmp_path):
    assert findings(tmp_path, PRECISION_DOC) == []


RECALL_DOC = """\
# Tools

- `job_sumbit` queues a job.
- `describe-table` shows a table.

Call `job_inspect` when done, then use `job_statuss`.

| Tool | What |
|------|------|
| `jobs_list` | lists |

Submit with `mcp__lab__job_submit(workspace="w", script="s", gpus=2)` or
`mcp__labs__job_submit`, and poll with `mcp__lab__job_get_status`.
"""


def test_recall_every_drift_is_reported_once(tmp_path):
    got = findings(tmp_path, RECALL_DOC)
    assert [(line, code) for line, code, _ in got] == [
        (3, "GL104"),
        (4, "GL104"),
        (6, "GL104"),
        (6, "GL104"),
        (10, "GL104"),
        (12, "GL105"),
        (13, "GL102"),
        (13, "GL101"),
    ]
    messages = "\n".join(m for _, _, m in got)
    assert "did you mean `job_submit` of server `lab`?" in messages
    assert "did you mean `describe_table` of server `lab`?" in messages
    assert "no MCP server `labs` is declared (did you mean `mcp__lab__job_submit`?)" in messages
    assert "has no argument `gpus` (did you mean `gpu`?)" in messages


def test_prose_near_miss_needs_snake_or_kebab_case(tmp_path):
    doc = "# Notes\n\nThe `describe-tables` step; the word `jobstatus` alone.\n"
    assert [c for _, c, _ in findings(tmp_path, doc)] == ["GL104"]


def test_missing_required_argument_is_a_warning(tmp_path):
    from guidelint.findings import Severity

    doc = '# Jobs\n\nRun `job_submit(workspace="w")`.\n'
    project_root = tmp_path
    got = findings(project_root, doc)
    assert [(c, "requires `script`" in m) for _, c, m in got] == [("GL105", True)]
    engine_findings = Engine(Project(tmp_path, Config()), build_selection(Config(select=["GL105"])))
    assert engine_findings.check_file("docs/guide.md")[0].severity is Severity.WARNING


def test_no_servers_means_no_markdown_findings(tmp_path):
    doc = tmp_path / "docs/guide.md"
    doc.parent.mkdir(parents=True)
    doc.write_text("# Tools\n\nCall `job_inspect` and `mcp__lab__nothing`.\n")
    engine = Engine(Project(tmp_path, Config()), build_selection(Config(select=["GL1"])))
    assert engine.check_file("docs/guide.md") == []


LIBRARY_DOC = """\
# Parsing

If you called `parse_empty_lines` before `parse_trailing_whitespace`, the child
calls `activate(settings, record)` and each hook calls `record(...)`. The
project caches `exists()` / `read()`; the retired names are `MultiEdit` and
`KillShell`. Servers are written `mcp__my_server__...`.

## Where the tool lists come from

- `parse_empty_lines` is a function.
"""


def test_precision_function_prose_in_a_document_naming_no_tools(tmp_path):
    assert findings(tmp_path, LIBRARY_DOC) == []


def test_ellipsis_marks_an_incomplete_call(tmp_path):
    assert findings(tmp_path, "# Jobs\n\nSay `job_submit(gpu=...)` for short.\n") == []


def test_call_words_are_strong_in_a_document_that_names_tools(tmp_path):
    doc = "# Jobs\n\nSubmit with `job_submit`, then call `job_inspect`.\n"
    assert [(line, code) for line, code, _ in findings(tmp_path, doc)] == [(3, "GL104")]


def test_retired_builtin_in_a_strong_context_is_a_warning(tmp_path):
    doc = "# Editing\n\nUse the `MultiEdit` tool for several edits.\n"
    assert [(c, "use Edit" in m) for _, c, m in findings(tmp_path, doc)] == [("GL104", True)]


def test_local_settings_are_checked_and_other_json_is_not(tmp_path):
    entries = json.dumps({"permissions": {"deny": ["mcp__lab__job_kill"]}})
    got = findings(tmp_path, entries, ".claude/settings.local.json")
    assert [(line, code) for line, code, _ in got] == [(1, "GL106")]
    assert findings(tmp_path, entries, "config/settings.json") == []


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ('{"permissions": {"allow": ["Bash"]', "not valid JSON (Expecting ',' delimiter)"),
        ('{"permissions": {"allow": ["Bash", 3]}}', "allow: `3` is not a permission rule"),
    ],
)
def test_broken_settings_are_one_finding_each(tmp_path, settings, expected):
    found = findings(tmp_path, settings, rel=".claude/settings.json")
    assert [(code, message.startswith(expected)) for _, code, message in found] == [
        ("GL106", True)
    ], found


# -- windows read around a span (#28: one long line of many spans) ---------------------

_TEXT = st.text(alphabet="ab \nxCodexc`.", max_size=120)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT, start=st.integers(0, 120), width=st.integers(0, 5), reach=st.integers(0, 70))
def test_line_around_reads_what_the_whole_line_gives(text, start, width, reach):
    from guidelint.spans import line_around

    start = min(start, len(text))
    end = min(start + width, len(text))
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    whole_before = text[line_start:start]
    whole_after = text[end : line_end if line_end >= 0 else len(text)]
    expected = (whole_before[-reach:] if reach else "", whole_after[:reach])
    assert line_around(text, start, end, reach, reach) == expected


@settings(max_examples=300, deadline=None)
@given(text=_TEXT, start=st.integers(0, 120), width=st.integers(0, 5))
def test_about_another_agent_reads_the_spans_line(text, start, width):
    """The mentions read once per file answer as the span's whole line does."""
    from guidelint.markdown import Block, CodeSpan
    from guidelint.sources import SourceFile
    from guidelint.spans import Span
    from guidelint.tools.context import OTHER_AGENT, about_another_agent

    start = min(start, len(text))
    end = min(start + width, len(text))
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    block = Block("paragraph", text, 1, "", 0, False)
    span = CodeSpan(text[start:end], Span(start, end), block)
    file = SourceFile(path=Path("a.md"), rel="a.md", text=text)
    assert about_another_agent(span, file, "") == bool(OTHER_AGENT.search(line))
