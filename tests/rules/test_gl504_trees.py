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


def chain_tree(root: Path, depth: int, folder: str = "a") -> str:
    """A real chain of `depth` folders, each holding b.md and c.md, and a tree drawing
    it with a missing `gone.md` at every level (a pull request may commit both)."""
    lines = [".\n"]
    for level in range(depth + 1):
        here = root.joinpath(*[folder] * level)
        here.mkdir(parents=True, exist_ok=True)
        for name in ("b.md", "c.md"):
            (here / name).write_text("x\n")
        if level < depth:
            pad = " " * level
            lines += [f"{pad}├── {name}\n" for name in ("b.md", "c.md", "gone.md")]
            lines.append(f"{pad}├── {folder}/\n")
    return tree("".join(lines))


def test_a_tree_deeper_than_any_repository_is_not_read_below_the_limit(tmp_path):
    """#28: a tree 400 folders deep over a real chain of as many folders cost 80 s (each
    missing entry read every folder's `.gitignore` above it through a realpath of
    each: quartic). Entries deeper than MAX_DEPTH are not read, and each folder's
    `.gitignore` is asked for once per tree, whatever the entries below it."""
    from guidelint.project import Project
    from guidelint.rules import gl504_stale_tree_entry as gl504

    depth, deepest_read = 100, 64  # MAX_DEPTH
    root = project(tmp_path, "LAYOUT.md", chain_tree(tmp_path, depth))
    asked: list[str] = []
    real_exists, real_read = Project.exists, Project.read

    def exists(self: Project, path: str) -> bool:
        asked.append(path)
        return real_exists(self, path)

    def read(self: Project, rel: str):  # type: ignore[no-untyped-def]
        asked.append(rel)
        return real_read(self, rel)

    Project.exists, Project.read = exists, read  # type: ignore[method-assign]
    try:
        reported = found(root)
    finally:
        Project.exists, Project.read = real_exists, real_read  # type: ignore[method-assign]
    levels = sorted(m.split("`")[1].count("/") for _, _, m in reported)
    assert levels == list(range(deepest_read)), levels
    gitignores = [path for path in asked if path.endswith("/.gitignore")]
    assert len(gitignores) == len(set(gitignores)) <= deepest_read, len(gitignores)
    assert gl504.MAX_DEPTH == deepest_read


def test_long_names_above_short_lines_are_not_paths_kept_per_line(tmp_path):
    """#28: 16 folders of 250-character names above 100,000 short lines made each line
    a path of 4 KB, all kept at once (478 MB for a 3.6 MB guide; names of 4,000
    characters: 48 GB), and each missing entry's message repeated its path whole (and
    compared it with its folder's every file, in difflib's quadratic time). Paths are
    built when asked, none longer than PATH_MAX is read, and a message shows a long
    path's head and tail, with no did-you-mean."""
    import tracemalloc

    from guidelint.rules import gl504_stale_tree_entry as gl504
    from guidelint.sources import SourceFile

    names = [f"n{level:02d}" * 66 for level in range(16)]  # 200 characters each
    lines = ["."] + [" " * level + f"├── {name}/" for level, name in enumerate(names)]
    text = tree("\n".join([*lines, *(" " * 16 + f"├── f{n}.md" for n in range(5000))]) + "\n")
    file = SourceFile(Path("/x/LAYOUT.md"), "LAYOUT.md", text)
    [fence] = file.markdown.fences
    tracemalloc.start()
    try:
        trees = list(gl504._trees(fence, file))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sum(len(entries) for _, entries in trees) == 5016
    assert peak < 8_000_000, peak  # kept per line, the paths alone were 5,000 x 3.2 KB

    few = tree("\n".join([*lines, *(" " * 16 + f"├── f{n}.md" for n in range(30))]) + "\n")
    root = project(tmp_path, "LAYOUT.md", few)
    chain = root.joinpath(*names)
    chain.mkdir(parents=True)
    for number in range(30):  # two thirds exist: the tree is this repository's
        if number % 3:
            (chain / f"f{number}.md").write_text("x\n")
    reported = found(root)
    assert len(reported) == 10
    shown = reported[0][2].split("`")[1]
    assert len(shown) <= 203 and shown.endswith("f0.md"), shown  # SHOWN_PATH and "..."
    assert "did you mean" not in reported[0][2]
