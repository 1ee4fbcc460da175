"""The result cache: unchanged reruns come from it, and every input that can change
a file's findings invalidates it."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

from guidelint import cache as cache_module
from guidelint.check import CheckOptions, run_check
from guidelint.discovery import discover
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from tests.conftest import run_cli, shared_corpus, write_tree

CONFIG = '[tool.guidelint]\ninclude = ["docs/**/*.md"]\n'
GUIDE = "# Guide\n\nRun `scripts/train.py` and read `scripts/missing.py`.\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    files = {
        "pyproject.toml": CONFIG,
        "docs/guide.md": GUIDE,
        "docs/other.md": "# Other\n\nNothing to see.\n",
        "scripts/train.py": "print('train')\n",
    }
    return write_tree(tmp_path, files)


def check(root: Path, select: list[str] | None = None, jobs: int = 1):
    """One cached run in-process; returns (GL501 messages, cache, all findings)."""
    project = Project.load([root])
    if select is not None:
        project.config = project.config.model_copy(update={"select": select})
    engine = Engine(project, build_selection(project.config))
    cache = engine.use_cache()
    assert cache is not None
    findings = engine.check_files(discover(project.root, project.config), jobs=jobs)
    stale = [f"{f.path}:{f.line} {f.message}" for f in findings if f.code == "GL501"]
    return stale, cache, findings


def test_unchanged_rerun_comes_from_the_cache(project):
    first, cold, findings = check(project)
    assert cold.hits == 0 and first == [
        "docs/guide.md:3 `scripts/missing.py` does not exist in this repository"
    ]
    second, warm, again = check(project)
    assert warm.hits == 2
    assert second == first and again == findings


def test_editing_a_file_rechecks_only_that_file(project):
    check(project)
    (project / "docs/guide.md").write_text("# Guide\n\nAll fine.\n", encoding="utf-8")
    stale, cache, _ = check(project)
    assert stale == []
    assert cache.hits == 1  # docs/other.md


def test_creating_a_referenced_file_clears_the_finding(project):
    check(project)
    (project / "scripts/missing.py").write_text("", encoding="utf-8")
    stale, cache, _ = check(project)
    assert stale == [] and cache.hits == 1  # docs/other.md never asked for it


def test_a_path_outside_the_listing_appearing_is_noticed(project):
    # Excluded from git's listing (not by the root .gitignore, which GL501 itself
    # honours): only the recorded existence lookup can see the file appear.
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".git/info/exclude").write_text("build/\n", encoding="utf-8")
    (project / "build").mkdir()
    (project / "build/log.txt").write_text("", encoding="utf-8")
    guide = project / "docs/guide.md"
    guide.write_text("# Guide\n\nThe build entry point is `build/gen.py`.\n", encoding="utf-8")
    first, _, _ = check(project)
    assert len(first) == 1
    (project / "build/gen.py").write_text("", encoding="utf-8")
    second, cache, _ = check(project)
    assert second == [] and cache.hits == 1  # docs/other.md


def test_editing_a_non_markdown_file_rechecks_only_the_files_that_read_it(project):
    # GL501 asks whether `scripts/train.py` exists: editing it changes no answer.
    check(project)
    (project / "scripts/train.py").write_text("print('changed')\n", encoding="utf-8")
    assert check(project)[1].hits == 2
    # docs/other.md links to it: GL502 reads it (for its headings) and GL501 does not.
    (project / "docs/other.md").write_text("# Other\n\nSee [the notes](../notes.md#setup).\n")
    (project / "notes.md").write_text("# Notes\n\n## Setup\n", encoding="utf-8")
    check(project)
    (project / "notes.md").write_text("# Notes\n\n## Set-up\n", encoding="utf-8")
    _, cache, findings = check(project)
    assert cache.hits == 1  # docs/guide.md
    assert [f.code for f in findings if f.path == "docs/other.md"] == ["GL502"]


def test_big_read_dependencies_count_by_size_and_mtime(project):
    import os

    # Files over max-file-size (data, weights) are never hashed: size and mtime stand in.
    (project / "pyproject.toml").write_text(CONFIG + "max-file-size = 100\n", encoding="utf-8")
    (project / "docs/other.md").write_text("# Other\n\n[table](../table.md#t)\n")
    table = project / "table.md"
    table.write_bytes(b"# T\n" + b"a" * 200)
    check(project)
    stat = table.stat()
    table.write_bytes(b"# T\n" + b"b" * 200)
    os.utime(table, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert check(project)[1].hits == 2
    os.utime(table, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert check(project)[1].hits == 1  # docs/guide.md does not link to it


def _git_project(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".gitignore").write_text(".guidelint_cache/\n", encoding="utf-8")


EDITS = {
    "add-txt": ("docs/notes.txt", "notes\n"),
    "add-py": ("tools/helper.py", "print('hi')\n"),
    "edit-gitignore": (".gitignore", ".guidelint_cache/\nscratch/\n"),
    "add-toml": ("tox.toml", "[env]\n"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edit_no_file_looked_at_rechecks_nothing_else(project, edit):
    # The tree listing is not part of the key. docs/other.md has no path, so nothing
    # it asked changes; docs/guide.md used the whole list (its did-you-mean) and the
    # set of suffixes, so a new file re-checks it, .gitignore (which it read) too.
    _git_project(project)
    (project / "docs/old.txt").write_text("", encoding="utf-8")
    check(project)
    assert check(project)[1].hits == 2
    rel, text = EDITS[edit]
    (project / rel).parent.mkdir(parents=True, exist_ok=True)
    (project / rel).write_text(text, encoding="utf-8")
    stale, cache, _ = check(project)
    assert cache.hits == 1 and len(stale) == 1
    assert check(project)[1].hits == 2


def test_renaming_a_markdown_file_rechecks_only_the_renamed_file(project):
    # Only the renamed file is new. The tool rules place GL109 problems by the set of
    # files a check checks, but only when a tool source has problems to place.
    _git_project(project)
    (project / "docs/third.md").write_text("# Third\n", encoding="utf-8")
    check(project, select=["GL5"])
    (project / "docs/third.md").rename(project / "docs/renamed.md")
    assert check(project, select=["GL5"])[1].hits == 1  # docs/other.md
    check(project)
    (project / "docs/renamed.md").rename(project / "docs/third.md")
    assert check(project)[1].hits == 1


def test_a_new_file_reaches_the_files_that_used_the_list(project):
    # GL501's did-you-mean looks through the whole list; the guide with a stale path
    # used it, the other file did not.
    check(project)
    (project / "scripts/missin.py").write_text("", encoding="utf-8")
    stale, cache, _ = check(project)
    assert cache.hits == 1
    assert stale == [
        "docs/guide.md:3 `scripts/missing.py` does not exist in this repository"
        " (did you mean `scripts/missin.py`?)"
    ]


def test_a_memo_value_carries_its_lookups_to_every_file_that_uses_it(project, monkeypatch):
    # A value one file computes and the next reuses (Project.memo) rests on the
    # lookups made while computing it, for both files.
    from guidelint.rules.gl501_stale_path import StalePath

    original = StalePath.check

    def reading(self, file, project):
        project.memo("test.settings", lambda: project.read("settings.json"))
        yield from original(self, file, project)

    monkeypatch.setattr(StalePath, "check", reading)
    (project / "settings.json").write_text("{}", encoding="utf-8")
    check(project)
    assert check(project)[1].hits == 2
    (project / "settings.json").write_text('{"a": 1}', encoding="utf-8")
    assert check(project)[1].hits == 0


@pytest.fixture
def git_listings(monkeypatch) -> list[Path]:
    """The roots `git ls-files` ran in, as the run asks for them."""
    from guidelint import discovery

    calls: list[Path] = []
    original = discovery.git_files

    def counted(root):
        calls.append(root)
        return original(root)

    monkeypatch.setattr(discovery, "git_files", counted)
    return calls


def test_one_git_listing_per_run(project, git_listings):
    _git_project(project)
    calls = git_listings
    for _ in range(2):  # cold, then warm
        calls.clear()
        report = run_check(CheckOptions(paths=[project], jobs=1))
        assert report.errors == 1 and len(calls) == 1


def test_configuration_change_is_a_new_context(project):
    check(project)
    (project / "pyproject.toml").write_text(
        CONFIG + '[tool.guidelint.paths]\nignore = ["scripts/missing.py"]\n', encoding="utf-8"
    )
    stale, cache, _ = check(project)
    assert stale == [] and cache.hits == 0


def test_selected_rules_are_part_of_the_key(project):
    check(project)
    _, cache, findings = check(project, select=["GL0"])
    assert cache.hits == 0 and all(f.code.startswith("GL0") for f in findings)
    stale, cache, _ = check(project)
    assert cache.hits == 2 and len(stale) == 1  # the full selection's file is still there


def test_guidelint_version_is_part_of_the_key(project, monkeypatch):
    check(project)
    monkeypatch.setattr(cache_module, "__version__", "999.0")
    _, cache, _ = check(project)
    assert cache.hits == 0


def test_another_environment_is_another_context(project, tmp_path_factory, monkeypatch):
    # A cache written where libcst was missing (GL301 reported GL000) must not be
    # replayed where it is installed, nor the other way round (issue #14).
    check(project)
    assert check(project)[1].hits == 2
    site = tmp_path_factory.mktemp("site")
    info = site / "libcst-0.0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: libcst\nVersion: 0.0.1\n")
    monkeypatch.syspath_prepend(str(site))
    assert cache_module.optional_packages()["libcst"] == "0.0.1"
    assert check(project)[1].hits == 0


def test_a_crashed_rule_is_never_replayed(project, monkeypatch):
    from guidelint.rules.gl501_stale_path import StalePath

    def crash(self, file, project):
        raise RuntimeError("flaky")

    monkeypatch.setattr(StalePath, "check", crash)
    _, _, findings = check(project)
    assert {f.code for f in findings} == {"GL000"}
    monkeypatch.undo()
    stale, cache, _ = check(project)
    assert cache.hits == 0  # both files crashed: nothing was stored
    assert stale == ["docs/guide.md:3 `scripts/missing.py` does not exist in this repository"]


def test_declared_cache_inputs_are_hashed_into_the_key(project, monkeypatch):
    from guidelint.rules.gl501_stale_path import StalePath

    # A git-ignored snapshot is outside the file listing: only the hook covers it.
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".gitignore").write_text("snapshots/\n", encoding="utf-8")
    snapshot = project / "snapshots/tools.json"
    snapshot.parent.mkdir()
    snapshot.write_text('{"tools": []}', encoding="utf-8")
    monkeypatch.setattr(StalePath, "cache_inputs", lambda self, p: ["snapshots/tools.json"])
    check(project)
    assert check(project)[1].hits == 2
    snapshot.write_text('{"tools": ["x"]}', encoding="utf-8")
    assert check(project)[1].hits == 0


def test_a_changed_read_dependency_drops_the_cached_results(project):
    # A rule that read docs/other.md through project.read() made it a dependency.
    (project / "docs/guide.md").write_text(GUIDE + "\nSee [other](other.md#other).\n")
    check(project)
    assert check(project)[1].hits == 2
    (project / "docs/other.md").write_text("# Other\n\nChanged.\n", encoding="utf-8")
    assert check(project)[1].hits == 0


def _cache_files(root: Path) -> list[Path]:
    return sorted((root / ".guidelint_cache").glob("results-*.json"))


@pytest.mark.parametrize(
    "corrupt",
    [
        b"\x00\xff not json",
        b"[1, 2, 3]",
        b'{"format": 1}',
        b"",
    ],
    ids=["binary", "json-list", "missing-keys", "empty"],
)
def test_a_corrupt_cache_file_is_ignored_and_replaced(project, corrupt):
    first, _, _ = check(project)
    [path] = _cache_files(project)
    path.write_bytes(corrupt)
    again, cache, _ = check(project)
    assert again == first and cache.hits == 0
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == cache_module.FORMAT


def test_a_mangled_entry_is_rechecked(project):
    first, _, _ = check(project)
    [path] = _cache_files(project)
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, findings in data["entries"].items():
        data["entries"][key] = [{"code": "GL501"}] if findings else "nonsense"
    path.write_text(json.dumps(data), encoding="utf-8")
    again, cache, _ = check(project)
    assert again == first
    assert cache.hits == 0


def test_writes_are_atomic_and_leave_no_temporary_files(project):
    check(project)
    folder = project / ".guidelint_cache"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [".gitignore", "CACHEDIR.TAG", _cache_files(project)[0].name]
    )


def test_an_unwritable_cache_location_never_breaks_the_run(project):
    (project / ".guidelint_cache").write_text("a file where the folder should be")
    first, _, _ = check(project)
    second, cache, _ = check(project)
    assert first == second and len(first) == 1 and cache.hits == 0


def test_results_computed_in_worker_processes_are_cached(project):
    for i in range(70):
        (project / f"docs/page{i}.md").write_text(f"# P{i}\n\n`scripts/gone{i}.py`\n")
    first, _, _ = check(project, jobs=2)
    second, cache, _ = check(project, jobs=2)
    assert len(first) == 71 and second == first and cache.hits == 72


def test_cli_no_cache_neither_reads_nor_writes(project):
    result = run_cli("check", "--no-cache", cwd=project)
    assert result.returncode == 1, result.stderr
    assert not (project / ".guidelint_cache").exists()
    result = run_cli("check", cwd=project)
    assert result.returncode == 1 and "scripts/missing.py" in result.stdout
    assert len(_cache_files(project)) == 1


def test_config_cache_false_turns_it_off(project):
    (project / "pyproject.toml").write_text(CONFIG + "cache = false\n", encoding="utf-8")
    project_obj = Project.load([project])
    assert Engine(project_obj, build_selection(project_obj.config)).use_cache() is None


def test_a_fully_cached_run_still_gives_the_notes(project, monkeypatch):
    # Notes (Project.warn) come from rules; a run served from the cache runs none.
    from guidelint.rules.gl501_stale_path import StalePath

    original = StalePath.check

    def noting(self, file, project):
        project.warn("a note from a rule")
        yield from original(self, file, project)

    monkeypatch.setattr(StalePath, "check", noting)

    def run() -> tuple[int, list[str]]:
        loaded = Project.load([project])
        engine = Engine(loaded, build_selection(loaded.config))
        cache = engine.use_cache()
        assert cache is not None
        engine.check_files(discover(loaded.root, loaded.config), jobs=1)
        return cache.hits, loaded.warnings

    assert run() == (0, ["a note from a rule"])
    assert run() == (2, ["a note from a rule"])


# -- warm runs after edits give what a cold run gives --------------------------------

CORPUS_DOCS = shared_corpus("opentelemetry-docs", "content", "en", "docs")
CORPUS_FOLDERS = ("concepts", "contributing", "platforms", "guidance", "security")


def _all_findings(root: Path, cached: bool) -> list[dict]:
    report = run_check(CheckOptions(paths=[root], jobs=2, use_cache=cached))
    return [f.as_json(stored=True) for f in report.findings]


def _committed_copy(source: Path, into: Path, folders: tuple[str, ...] = ()) -> Path:
    import shutil

    if folders:
        for folder in folders:
            shutil.copytree(source / folder, into / "docs" / folder)
    else:
        shutil.copytree(source, into, ignore=shutil.ignore_patterns(".guidelint_cache"))
    (into / ".gitignore").write_text(".guidelint_cache/\n", encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "copy"]):
        subprocess.run(
            ["git", "-C", str(into), "-c", "user.email=t@t", "-c", "user.name=t", *args],
            check=True,
            capture_output=True,
        )
    return into


def _assert_warm_equals_cold(root: Path, edits) -> None:
    _all_findings(root, cached=True)  # warm the cache on the tree before the edit
    for name, edit in edits:
        edit()
        warm = _all_findings(root, cached=True)
        assert warm == _all_findings(root, cached=False), name


@pytest.mark.slow
def test_warm_runs_equal_cold_runs_on_the_example_workspace(tmp_path):
    workspace = Path(__file__).resolve().parents[2] / "examples/workspace"
    root = _committed_copy(workspace, tmp_path / "ws")
    snapshot = root / ".guidelint/tools/lab.json"
    guide = root / "docs/WORKSPACES.md"
    edits = [
        ("guide", lambda: guide.write_text(guide.read_text() + "\nRun `scripts/gone.py`.\n")),
        (
            "snapshot",
            lambda: snapshot.write_text(snapshot.read_text().replace("job_submit", "job_go")),
        ),
        ("rename", lambda: guide.rename(root / "docs/RENAMED.md")),
        ("settings", lambda: (root / ".claude/settings.json").write_text("{}\n")),
    ]
    _assert_warm_equals_cold(root, edits)


@pytest.mark.slow
@pytest.mark.corpus("opentelemetry-docs", "content", "en", "docs")
def test_warm_runs_equal_cold_runs_on_a_corpus_copy_with_edits(tmp_path):
    root = _committed_copy(CORPUS_DOCS, tmp_path, CORPUS_FOLDERS)
    pages = sorted((root / "docs").rglob("*.md"))
    images = sorted((root / "docs").rglob("*.svg")) + sorted((root / "docs").rglob("*.png"))
    assert len(pages) > 64 and images  # enough for the worker processes
    edits = [
        ("page", lambda: pages[3].write_text(pages[3].read_text() + "\n[x](./nowhere.md)\n")),
        ("image deleted", lambda: images[0].unlink()),
        ("txt", lambda: (root / "docs/notes.txt").write_text("notes\n")),
        ("rename", lambda: pages[10].rename(pages[10].with_name("renamed.md"))),
        ("gitignore", lambda: (root / ".gitignore").write_text(".guidelint_cache/\n*.png\n")),
        ("py", lambda: (root / "docs/tool.py").write_text("print('x')\n")),
    ]
    _assert_warm_equals_cold(root, edits)


# -- what an edit re-checks when the tool sources have problems (GL109) --------------

MCP = '{"mcpServers": {"lab": {"command": "python", "args": ["server/lab.py"]}}}\n'
SNAPSHOT = (
    '{"tools": [{"name": "job_submit", "inputSchema": {}}, {"name": "job_status",'
    ' "inputSchema": {}}, {"description": "an entry with no name: GL109"}]}\n'
)
TOOL_PROJECT = {
    ".gitignore": ".guidelint_cache/\n",
    "pyproject.toml": "[tool.guidelint]\n",
    ".mcp.json": MCP,
    ".guidelint/tools/lab.json": SNAPSHOT,
    # A page with tool references that links into another page (GL502 reads it).
    "docs/guide.md": "# Guide\n\nCall `mcp__lab__job_submit`, then `mcp__lab__job_stat`.\n"
    "See [install](setup.md#install) and run `scripts/run.py`.\n",
    "docs/setup.md": "# Setup\n\n## Install\n\nRun `pip install lab`.\n",
    # A stale path: its did-you-mean looks through the whole file list.
    "docs/stale.md": "# Stale\n\nRun `scripts/gone.py`.\n",
    "docs/plain.md": "# Plain\n\nCall `job_submitt` to submit.\n",
    "scripts/run.py": "print(1)\n",
}
EVERY_FILE = {"docs/guide.md", "docs/setup.md", "docs/stale.md", "docs/plain.md", ".mcp.json"}
EVERY_FILE |= {"scripts/run.py"}


@pytest.fixture
def tool_project(tmp_path: Path) -> Path:
    write_tree(tmp_path, TOOL_PROJECT)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # untracked files list
    return tmp_path


def _run(root: Path, cached: bool, jobs: int = 1) -> tuple[list[dict], list[str], set[str]]:
    """One `check` of the whole project: (findings, notes, files checked again: those
    whose results the cache took in fresh; every file without the cache)."""
    opened: list[cache_module.ResultCache | None] = []
    original = Engine.use_cache

    def use_cache(self):
        opened.append(original(self))
        return opened[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Engine, "use_cache", use_cache)
        report = run_check(CheckOptions(paths=[root], jobs=jobs, use_cache=cached))
    project = Project.load([root])
    rels = discover(project.root, project.config)
    again = set(rels)
    if cached:
        [cache] = opened
        assert cache is not None
        again = {rel for rel in rels if _key(root, rel) in cache.fresh}
        assert len(again) == report.files_checked - cache.hits
    return [f.as_json(stored=True) for f in report.findings], report.notices, again


def _key(root: Path, rel: str) -> str:
    return cache_module.entry_key(rel, (root / rel).read_bytes())


def _rename(root: Path, old: str, new: str) -> None:
    (root / old).rename(root / new)


def _write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")


def _replace(root: Path, rel: str, old: str, new: str) -> None:
    text = (root / rel).read_text(encoding="utf-8")
    assert old in text
    _write(root, rel, text.replace(old, new))


# Each edit, and the files a warm run must check again after it: the files it adds or
# changes, and those whose results rest on what changed (a link or path to a file that
# moved, the file list for a did-you-mean); never every file with a tool reference
# because a page moved. A tool source or the configuration reaches every file.
LISTED = {"docs/stale.md"}  # its did-you-mean uses the whole file list
TOOL_EDITS = {
    "rename an unlinked page": (
        lambda r: _rename(r, "docs/plain.md", "docs/plain2.md"),
        {"docs/plain2.md"} | LISTED,
    ),
    "rename a linked page": (
        lambda r: _rename(r, "docs/setup.md", "docs/install.md"),
        {"docs/install.md", "docs/guide.md"} | LISTED,
    ),
    "add a page": (
        lambda r: _write(r, "docs/new.md", "# New\n\nRun `make`.\n"),
        {"docs/new.md"} | LISTED,
    ),
    "delete a page": (lambda r: (r / "docs/plain.md").unlink(), LISTED),
    "delete a linked page": (lambda r: (r / "docs/setup.md").unlink(), {"docs/guide.md"} | LISTED),
    "add the file a stale path names": (
        lambda r: _write(r, "scripts/gone.py", "print(2)\n"),
        {"scripts/gone.py"} | LISTED,
    ),
    "edit a linked page": (
        lambda r: _replace(r, "docs/setup.md", "## Install", "## Installing"),
        {"docs/setup.md", "docs/guide.md"},
    ),
    "edit a page": (lambda r: _replace(r, "docs/plain.md", "submit.", "send."), {"docs/plain.md"}),
    "edit the snapshot": (
        lambda r: _replace(r, ".guidelint/tools/lab.json", "job_status", "job_stat"),
        EVERY_FILE,
    ),
    "fix the snapshot": (
        lambda r: _replace(r, ".guidelint/tools/lab.json", '"description": "an', '"name": "an'),
        EVERY_FILE,
    ),
    "add a snapshot": (
        lambda r: _write(r, ".guidelint/tools/other.json", '{"tools": []}\n'),
        EVERY_FILE,
    ),
    "edit .mcp.json": (lambda r: _replace(r, ".mcp.json", '"lab"', '"bench"'), EVERY_FILE),
    "edit [tool.guidelint]": (
        lambda r: _write(r, "pyproject.toml", '[tool.guidelint]\nignore = ["GL104"]\n'),
        EVERY_FILE,
    ),
    # GL501 reads the project's name from pyproject.toml (a missing path may start
    # with it: `kit/docs` in kit's docs), so a file with a missing path is checked
    # again when pyproject.toml changes; the other files are not.
    "edit pyproject outside [tool.guidelint]": (
        lambda r: _write(r, "pyproject.toml", '[project]\nname = "x"\n\n[tool.guidelint]\n'),
        {"docs/stale.md"},
    ),
}


@pytest.mark.parametrize("edit", sorted(TOOL_EDITS))
def test_a_warm_run_after_an_edit_equals_a_cold_one_and_rechecks_only_what_changed(
    tool_project, edit
):
    cold, _, _ = _run(tool_project, cached=False)
    assert {(f["path"], f["code"]) for f in cold} == {
        (".mcp.json", "GL109"),  # the snapshot's problem, placed on its server's entry
        ("docs/guide.md", "GL101"),
        ("docs/plain.md", "GL104"),
        ("docs/stale.md", "GL501"),
    }
    _run(tool_project, cached=True)
    assert _run(tool_project, cached=True)[2] == set()
    apply, expected = TOOL_EDITS[edit]
    apply(tool_project)
    warm, warm_notes, again = _run(tool_project, cached=True)
    cold, cold_notes, checked = _run(tool_project, cached=False)
    assert warm == cold
    assert again == expected & checked
    assert _run(tool_project, cached=True)[2] == set()  # and the next run is warm


def test_a_snapshot_leaving_the_checked_files_moves_its_problem_to_the_server_entry(
    tool_project,
):
    # The snapshot is checked (its folder is included), so GL109 reports its problem
    # there. Once git ignores it, a plain check no longer checks it and the problem
    # belongs on `.mcp.json`: only whether those two files are checked decides, so
    # the pages with tool references are not checked again (the stale path's page
    # is: its did-you-mean reads `.gitignore` and the file list).
    _write(tool_project, "pyproject.toml", '[tool.guidelint]\nextend-include = [".guidelint/**"]\n')
    cold, _, _ = _run(tool_project, cached=False)
    assert (".guidelint/tools/lab.json", "GL109") in {(f["path"], f["code"]) for f in cold}
    _run(tool_project, cached=True)
    _write(tool_project, ".gitignore", ".guidelint_cache/\n.guidelint/tools/\n")
    warm, _, again = _run(tool_project, cached=True)
    assert warm == _run(tool_project, cached=False)[0]
    assert (".mcp.json", "GL109") in {(f["path"], f["code"]) for f in warm}
    assert again == {".mcp.json", "docs/stale.md"}


@pytest.mark.slow
@pytest.mark.corpus("opentelemetry-docs", "content", "en", "docs")
def test_a_corpus_copy_with_a_tool_problem_rechecks_few_files_in_worker_processes(tmp_path):
    # Every page with a code span builds the tool catalog (GL104), and the snapshot's
    # problem is placed on `.mcp.json`: moving pages must not re-check those pages.
    root = _committed_copy(CORPUS_DOCS, tmp_path, CORPUS_FOLDERS)
    _write(root, ".mcp.json", MCP)
    _write(root, ".guidelint/tools/lab.json", SNAPSHOT)
    pages = sorted((root / "docs").rglob("*.md"))
    cold, _, checked = _run(root, cached=False, jobs=2)
    assert (".mcp.json", "GL109") in {(f["path"], f["code"]) for f in cold}
    assert len(checked) > 64  # enough for the worker processes
    edits = [
        ("rename", lambda: pages[10].rename(pages[10].with_name("renamed.md"))),
        ("add", lambda: _write(root, "docs/concepts/new.md", "# New\n\nRun `make`.\n")),
        ("delete", lambda: pages[20].unlink()),
    ]
    _run(root, cached=True, jobs=2)
    for name, edit in edits:
        edit()
        warm, _, again = _run(root, cached=True, jobs=2)
        assert warm == _run(root, cached=False, jobs=2)[0], name
        assert len(again) <= 5, (name, sorted(again))  # 0 for a page nobody links to


def test_one_git_listing_per_run_with_a_tool_problem_to_place(tool_project, git_listings):
    # Placing GL109's problems and answering the `checked:REL` lookups use the run's
    # one listing too, cold, warm and after a rename.
    calls = git_listings
    for step in ("cold", "warm", "renamed"):
        if step == "renamed":
            _rename(tool_project, "docs/plain.md", "docs/plain2.md")
        calls.clear()
        report = run_check(CheckOptions(paths=[tool_project], jobs=1))
        assert report.errors == 4 and len(calls) == 1, step


AGENT_PROJECT = {
    ".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n",
    ".claude/commands/review.md": "Use the `reviewer` agent, then invoke the `writer` agent.\n",
    ".claude/skills/notes/SKILL.md": "---\nname: notes\ndescription: Notes.\n---\nTake notes.\n",
}


def test_a_file_without_a_delegation_does_not_rest_on_the_agents(tmp_path):
    # GL606 gathers the defined agents (the whole file list, every agent file) only at
    # a file's first delegation: a new agent re-checks the command that delegates, not
    # the skill that names no agent.
    for rel, text in AGENT_PROJECT.items():
        _write(tmp_path, rel, text)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    cold, _, _ = _run(tmp_path, cached=False)
    assert [(f["path"], f["code"]) for f in cold] == [(".claude/commands/review.md", "GL606")]
    _run(tmp_path, cached=True)
    _write(tmp_path, ".claude/agents/writer.md", "---\nname: writer\ndescription: W.\n---\nW.\n")
    warm, _, again = _run(tmp_path, cached=True)
    assert warm == _run(tmp_path, cached=False)[0] == []
    # and the other agents: GL613 compares every agent's name with the new one's
    assert again == {
        ".claude/commands/review.md",
        ".claude/agents/writer.md",
        ".claude/agents/reviewer.md",
    }


# ---- what git leaves out and what exists (issues 27, 28): a warm run says what a
# cold one says when a `.gitignore` (root or nested), a linked or named file, a folder
# a tree draws or `.gitmodules` changes. GL501, GL502 and GL504 each skip an ignored
# path (GL502 through a `.gitignore` per folder that one run shares, `Project.memo`).

TREE_GUIDE = """# Agents

Run `scripts/build.py` to build the site, then read [the settings](docs/settings.md).

## Directory structure

```
acme-agents/
├── src/
│   ├── agent.py          # the agent loop
│   ├── loop.py           # the event loop
│   ├── converters.py     # type converters
│   └── tools/
│       ├── registry.py
│       └── nodes/
│           └── graph.py
├── scripts/
│   └── deploy.py
└── README.md
```
"""
# A second guide asking of the same folders' .gitignore files: the memo one file
# computes, the next one reuses.
LINKS_GUIDE = "# Guide\n\nSee [the settings](settings.md) and [the API](api/ref.md).\n"
IGNORED_ALL = "scripts/build.py\ndocs/settings.md\nsrc/converters.py\nsrc/tools/nodes/\n"
NESTED = {
    "docs/.gitignore": "settings.md\napi/\n",
    "src/.gitignore": "converters.py\ntools/nodes/\n",
    "scripts/.gitignore": "build.py\n",
}
MODULES = '[submodule "n"]\n\tpath = src/tools/nodes\n\turl = ../n\n'
NAMED = {"docs/settings.md": "# S\n", "scripts/build.py": "x = 1\n", "src/converters.py": "y\n"}


def _put(root: Path, files: Mapping[str, str | None]) -> None:
    """Write each file (None: delete it, or the folder)."""
    import shutil

    for rel, text in files.items():
        path = root / rel
        if text is None:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


GIT_CASES: dict[str, tuple[Mapping[str, str | None], Mapping[str, str | None]]] = {
    # (before, after)
    "root-gitignore-added": ({}, {".gitignore": IGNORED_ALL}),
    "root-gitignore-narrowed": ({".gitignore": IGNORED_ALL}, {".gitignore": "other/\n"}),
    "root-gitignore-widened": ({".gitignore": "other/\n"}, {".gitignore": IGNORED_ALL}),
    "root-gitignore-removed": ({".gitignore": IGNORED_ALL}, {".gitignore": None}),
    "nested-gitignores-added": ({}, NESTED),
    "nested-gitignores-narrowed": (NESTED, dict.fromkeys(NESTED, "other\n")),
    "nested-gitignores-widened": (dict.fromkeys(NESTED, "other\n"), NESTED),
    "nested-gitignores-removed": (NESTED, dict.fromkeys(NESTED)),
    "named-files-created": ({}, NAMED),
    "named-files-deleted": (NAMED, dict.fromkeys(NAMED)),
    "tree-folder-appears": ({}, {"src/tools/nodes/graph.py": "g = 1\n"}),
    "tree-folder-goes": ({"src/tools/nodes/graph.py": "g = 1\n"}, {"src/tools/nodes": None}),
    "tree-folder-replaces-a-file": (
        {"src/tools/nodes": "a file\n"},
        {"src/tools/nodes": None, "src/tools/nodes/other.py": "o = 1\n"},
    ),
    "gitmodules-added": ({}, {".gitmodules": MODULES}),
    "gitmodules-changed": ({".gitmodules": MODULES}, {".gitmodules": MODULES.replace("src", "x")}),
    "gitmodules-removed": ({".gitmodules": MODULES}, {".gitmodules": None}),
}


@pytest.mark.parametrize("case", sorted(GIT_CASES))
def test_a_warm_run_follows_what_git_leaves_out_and_what_exists(tmp_path, monkeypatch, case):
    root = tmp_path / "repo"
    _put(
        root,
        {
            "AGENTS.md": TREE_GUIDE,
            "README.md": "# Acme\n",
            "docs/index.md": "# Docs\n",
            "docs/guide.md": LINKS_GUIDE,
            "src/agent.py": "a = 1\n",
            "src/loop.py": "b = 1\n",
            "src/tools/registry.py": "c = 1\n",
            "scripts/deploy.py": "d = 1\n",
        },
    )
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    monkeypatch.chdir(root)
    before, after = GIT_CASES[case]
    _put(root, before)

    def found(use_cache: bool) -> list[tuple[str, str, int]]:
        report = run_check(CheckOptions(paths=[], use_cache=use_cache))
        return sorted((f.code, f.path, f.line) for f in report.findings)

    cold = found(True)  # fills the cache
    if not before:  # the guides as written: each of the three rules has its say
        assert {code for code, _, _ in cold} >= {"GL501", "GL502", "GL504"}
    _put(root, after)
    fresh = found(False)
    assert found(True) == fresh
    assert fresh != cold  # each case moves a finding: the cache was put to the test
