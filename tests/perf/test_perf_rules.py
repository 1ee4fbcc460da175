"""Rule costs cut without changing answers: a Python example is compiled once for
GL401 and GL402 together, and the project's containment test resolves each folder once."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Memo, Project, real_path
from guidelint.runner import examples, lint
from guidelint.sources import Derived

GUIDE = """\
# Guide

```python
print("ok" is "ok")
```

```python
def broken(:
    pass
```

```python
print("fine")
```
"""


@pytest.mark.skipif(lint.find_ruff() is None, reason="ruff is not installed")
def test_each_example_is_compiled_once_for_gl401_and_gl402(make_project, monkeypatch):
    root = make_project({"docs/guide.md": GUIDE}, config='select = ["GL401", "GL402"]')
    compiled: list[str] = []
    real = examples.syntax_error

    def counting(example):
        compiled.append(example.source)
        return real(example)

    monkeypatch.setattr(examples, "syntax_error", counting)
    config = Config(select=["GL401", "GL402"])
    found = Engine(Project(root, config), build_selection(config)).check_batch(["docs/guide.md"])
    assert len(compiled) == 3  # three examples, one compile each
    assert [(f.code, f.line) for f in found if f.code == "GL401"] == [("GL401", 8)]
    # ruff lints only the examples that parse: F632 for the `is`, nothing for the broken one
    assert {f.line for f in found if f.code == "GL402"} == {4}


def test_real_path_agrees_with_realpath(tmp_path):
    root = tmp_path / "root"
    (root / "docs" / "deep").mkdir(parents=True)
    (root / "docs" / "deep" / "a.md").write_text("a")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    os.symlink(root / "docs" / "deep", root / "link_in")
    os.symlink(outside, root / "link_out")
    os.symlink("deep/a.md", root / "docs" / "file_link")
    os.symlink(root / "loop_b", root / "loop_a")
    os.symlink(root / "loop_a", root / "loop_b")
    asked = [
        "docs/deep/a.md",
        "docs/./deep/../deep/a.md",
        "docs/missing/../deep/a.md",
        "docs/missing/more/",
        "link_in/a.md",
        "link_in/../docs",
        "link_out/secret.txt",
        "link_out/../../etc",
        "docs/file_link",
        "docs/file_link/x",
        "loop_a/x",
        "../outside/secret.txt",
        "",
        "docs/missing/x/../../deep/./a.md",
        "docs/deep/" + "a/" * 1200 + "x.md",  # #28: recursing per folder, a RecursionError
        "link_in/" + "b/" * 1500 + "../" * 3 + "c",
    ]
    known: dict[str, str] = {}
    for rel in asked + asked:  # the second round answers from what the first kept
        full = os.path.join(str(root), rel)
        assert real_path(full, known) == os.path.realpath(full), rel
    assert real_path("relative/x", known) == os.path.realpath("relative/x")


def test_contains_follows_links_out_of_the_root(tmp_path):
    root = tmp_path / "root"
    (root / "docs").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("s")
    os.symlink(tmp_path / "outside", root / "docs" / "out")
    project = Project(root, Config())
    assert project.exists("docs")
    assert not project.exists("docs/out/secret.txt")
    assert not project.exists("../outside/secret.txt")
    assert not project.contains(str(tmp_path))
    assert project.contains(root / "docs" / "not-yet.md")


def test_no_server_question_is_answered_once_per_run(make_project, monkeypatch):
    """GL101-GL105 each ask whether any server is declared, of every file with a code
    span: the file system is asked once per run, not once per rule and file."""
    from guidelint.tools import rulebase

    files = {f"docs/page{i}.md": f"# Page {i}\n\nRun `tool_{i}` with `--flag`.\n" for i in range(6)}
    root = make_project(files)
    asked: list[str] = []
    real = rulebase._no_server_declared

    def counting(project):
        asked.append("no-server")
        return real(project)

    # The question's key pairs its name with the function that answers it.
    counted = Memo(rulebase.NO_SERVER_DECLARED.name, counting)
    monkeypatch.setattr(rulebase, "NO_SERVER_DECLARED", counted)
    config = Config()
    engine = Engine(Project(root, config), build_selection(config))
    assert engine.check_batch(sorted(files)) == []
    assert asked == ["no-server"]


def test_no_server_answer_still_notes_the_mcp_lookup_for_each_file(make_project):
    """The memo replays its `exists(".mcp.json")` for every file that asks, so the
    cache and --since still know each file's findings rest on its absence."""
    from guidelint.cache import RecordingProject
    from guidelint.discovery import PathLookup
    from guidelint.tools.rulebase import no_server_declared

    root = make_project({"a.md": "`x`\n"})
    project = RecordingProject(Project(root, Config()))
    for _ in range(2):
        assert no_server_declared(project)
        assert project.take_recorded().get(PathLookup(".mcp.json")) == "exists"


def _prose_everywhere(text: str) -> list[tuple[int, int, str]]:
    """GL606's prose delegations as a scan of the whole text finds them (the reference)."""
    from guidelint.rules.gl606_unknown_subagent import PROSE

    found = []
    for match in PROSE.finditer(text) if "agent" in text.lower() else ():
        group = "code" if match.group("code") else "name"
        found.append((match.start(group), match.end(group), match.group(group)))
    return found


def _prose_found(text: str) -> list[tuple[int, int, str]]:
    from guidelint.rules.gl606_unknown_subagent import _delegations

    return [(span.start, span.end, name) for span, name, _ in _delegations(text)]


GL606_TEXTS = [
    "Use the `code-reviewer` agent, then launch the test-runner subagent.",
    "use" + " " * 400 + "the `far` agent",  # a window of blank space: the scan reaches back
    "hand off to\n\n\tthe\n`x-y`\n\n AGENT and Delegate To the a-b Sub-Agent",
    "İnvoke the a-b agent; call the `c` agent",  # İ lower-cases to two characters
    "uſe the a-b agent; ınvoke the c-d agent",  # long s and dotless i fold to s and i
    "spawn the `agent` agent agent agent",
    "call the x-y agentagent, dispatch the `z` agents",
    "x" * 300 + " use the `late` agent",
]


@pytest.mark.parametrize("text", GL606_TEXTS)
def test_gl606_reads_prose_only_around_agent_and_finds_the_same(text):
    assert _prose_found(text) == _prose_everywhere(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "use",
                "Invoke",
                "hand off to",
                "the",
                "`a-b`",
                "x-y",
                "agent",
                "Sub-agent",
                "AGENT",
                " ",
                "  ",
                "\n",
                "\t",
                " " * 170,
                "word",
                "İ",
                "ſ",
                "ı",
                "-",
                "`",
                "agents",
            ]
        ),  # fmt: skip
        max_size=40,
    ).map(" ".join)
)
def test_gl606_window_scan_matches_the_whole_scan(text):
    assert _prose_found(text) == _prose_everywhere(text)


def test_gl606_scans_the_text_only_around_each_agent():
    from guidelint.rules.gl606_unknown_subagent import WINDOW, _around_agent

    text = ("plain words " * 100 + "use the `x` agent. ") * 3
    parts = _around_agent(text.lower())
    assert len(parts) == 3
    assert sum(stop - start for start, stop in parts) == 3 * (WINDOW + len("agent") + 1)


PATHS_GUIDE = """\
# Guide

See `docs/a.md`, `docs/b.md` and `docs/missing.md`; run `make` with `--fast`.

```python
print(1)
```
"""


def test_gl4xx_search_a_file_for_fences_once_and_gl501_reads_its_folder_once(
    make_project, monkeypatch
):
    from guidelint.rules import gl501_stale_path
    from guidelint.runner import rulebase

    root = make_project({"docs/guide.md": PATHS_GUIDE, "docs/a.md": "# A\n", "docs/b.md": "# B\n"})
    calls: list[str] = []
    for module, name in [
        (rulebase, "_fenced"),
        (gl501_stale_path, "component_roots"),
        (gl501_stale_path, "explained_names"),
    ]:
        real = getattr(module, name)

        def counting(*args, _real=real, _name=name):
            calls.append(_name)
            return _real(*args)

        monkeypatch.setattr(module, name, counting)
    # The fence search's key pairs its name with the function: a key of the counted one.
    monkeypatch.setattr(rulebase, "FENCED", Derived(rulebase.FENCED.name, rulebase._fenced))
    config = Config(select=["GL401", "GL402", "GL403", "GL501"])
    engine = Engine(Project(root, config), build_selection(config))
    found = engine.check_batch(["docs/guide.md"])
    assert [(f.code, f.line) for f in found] == [("GL501", 3)]  # docs/missing.md
    # Three GL4xx rules and GL402's prepare ask; three path spans share the folder.
    assert sorted(calls) == ["_fenced", "component_roots", "explained_names"]
    calls.clear()
    engine.check_batch(["docs/a.md"])  # no code span that names a path, no fence
    assert calls == ["_fenced"]


@pytest.mark.skipif(lint.find_ruff() is None, reason="ruff is not installed")
@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="no memory file system")
def test_examples_are_linted_from_memory_unless_tmpdir_says_otherwise(monkeypatch, tmp_path):
    folders: list[str] = []
    real = lint._lint_in

    def noting(tmp, *args):
        folders.append(os.path.dirname(tmp))
        return real(tmp, *args)

    monkeypatch.setattr(lint, "_lint_in", noting)
    monkeypatch.delenv("TMPDIR", raising=False)
    sources = ['print(f"x")\n', "import os\n"]
    first = lint.lint_sources(sources, ["F"], [])
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    second = lint.lint_sources(sources, ["F"], [])
    assert folders[0] == "/dev/shm" and folders[1] != "/dev/shm"  # TMPDIR is the user's
    assert first == second and [len(m) for m in first] == [1, 1]  # F541, F401


@pytest.mark.skipif(lint.find_ruff() is None, reason="ruff is not installed")
def test_a_memory_folder_that_fails_falls_back_to_the_usual_one(monkeypatch, tmp_path):
    missing = str(tmp_path / "gone")  # TemporaryDirectory cannot be made there
    monkeypatch.setattr(lint, "_memory_folder", lambda: missing)
    found = lint.lint_sources(['print(f"x")\n'], ["F"], [])
    assert [[m.code for m in messages] for messages in found] == [["F541"]]


@pytest.mark.parametrize(
    "text",
    ["@a.md", "x@a.md", " @a.md", "`@x.md", "@@a.md", ".@a.md", "/@a.md", "é@a.md",
     "\n@./x.md", "@", "a @b/c.md @d, see @../up.md.", "mail me@x.org or @AGENTS.md"],
)  # fmt: skip
def test_gl502_import_pattern_starts_at_the_at_sign_and_finds_the_same(text):
    """IMPORT begins with its literal `@` (the scanner skips to each one) and looks back
    after it: the same imports as a look back before it, which scanned every position."""
    import re

    from guidelint.rules.broken_link.steering import IMPORT

    before = re.compile(r"(?<![\w@/`.])@((?:\.{1,2}/)?[\w\-]+(?:[./][\w\-]+)*)")
    assert IMPORT.pattern.startswith("@")
    found = [(m.span(), m.group(1)) for m in IMPORT.finditer(text)]
    assert found == [(m.span(), m.group(1)) for m in before.finditer(text)]
