"""GL504 reads file trees in their forms (box-drawing, ASCII, a `.` root) and leaves
alone what a checkout lacks by design: a submodule's files, what a nested .gitignore
ignores, a tree in a history document or a template."""

from __future__ import annotations

from pathlib import Path

from guidelint.check import CheckOptions, run_check

FILES = ("src/agent.py", "src/loop.py", "src/registry.py", "src/events.py", "README.md")


def project(root: Path, doc: str, text: str, extra: dict[str, str] | None = None) -> Path:
    for rel in FILES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x\n")
    for rel, content in (extra or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content)
    (root / doc).parent.mkdir(parents=True, exist_ok=True)
    (root / doc).write_text(text)
    return root


def found(root: Path) -> list[tuple[str, int, str]]:
    report = run_check(CheckOptions(paths=[root], select=["GL504"], use_cache=False))
    return sorted((f.path, f.line, f.message) for f in report.findings)


def tree(lines: str) -> str:
    return f"# Agents\n\n## Layout\n\n```\n{lines}```\n"


BOX = (
    ".\n├── src/\n│   ├── agent.py\n│   ├── loop.py\n│   ├── registry.py\n"
    "│   ├── events.py\n│   └── gone.py\n└── README.md\n"
)


def test_a_dot_root_is_this_repository(tmp_path):
    root = project(tmp_path, "AGENTS.md", tree(BOX))
    assert [(p, line) for p, line, _ in found(root)] == [("AGENTS.md", 12)]
    assert "`src/gone.py` in this file tree does not exist" in found(root)[0][2]


def test_the_ascii_form_is_read_by_its_columns(tmp_path):
    ascii_tree = (
        "acme/\n|-- src/\n|   |-- agent.py\n|   |-- loop.py\n|   |-- registry.py\n"
        "|   `-- old/\n|       `-- x.py\n+-- README.md\n"
    )
    root = project(tmp_path, "AGENTS.md", tree(ascii_tree))
    assert [(line, m.split("`")[1]) for _, line, m in found(root)] == [(11, "src/old/")]


def test_a_submodules_files_and_nested_ignores_are_not_reported(tmp_path):
    text = tree(
        ".\n├── src/\n│   ├── agent.py\n│   ├── loop.py\n│   ├── registry.py\n"
        "│   ├── events.py\n│   └── cache_dir/\n├── bench/\n│   └── tasks/\n└── README.md\n"
    )
    extra = {"bench": "", "src/.gitignore": "cache_dir/\n"}  # `bench` as a gitlink lays out
    root = project(tmp_path, "AGENTS.md", text, extra)
    assert found(root) == []


def test_history_documents_and_templates_are_not_read(tmp_path):
    for doc in ("docs/plans/2024-05-01-layout.md", "templates/app/AGENTS.md"):
        root = project(tmp_path / doc.replace("/", "_"), doc, tree(BOX))
        assert found(root) == [], doc


def test_a_tree_mostly_missing_is_another_projects(tmp_path):
    other = (
        ".\n├── src/\n│   ├── agent.py\n│   ├── a.py\n│   ├── b.py\n│   └── c.py\n└── README.md\n"
    )
    root = project(tmp_path, "AGENTS.md", tree(other))
    assert found(root) == []
