"""Bad input: one clear finding or line each, and every other file still checked."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.project import Project
from guidelint.reporters import FORMATS, Report, renderer
from guidelint.sources import SourceFile
from guidelint.spans import LineIndex
from tests.conftest import run_cli

STALE = "Run `scripts/gone.py`.\n"


def test_each_bad_file_is_one_finding_and_the_rest_are_checked(make_project):
    root = make_project(
        {
            "scripts/ok.py": "",
            "docs/binary.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "docs/latin1.md": "# Caf\xe9\n\nsecond line caf\xe9\n".encode("latin-1"),
            "docs/empty.md": "",
            "docs/huge.md": "x" * 50_000_000,
            "docs/nested.md": "".join("  " * i + "- item\n" for i in range(500)),
            "docs/deep_quotes.md": ">" * 2000 + " deep\n",
            "docs/unterminated.md": "# T\n\n```python\nprint(1)\n",
            "docs/zz_real.md": STALE,
        }
    )
    result = run_cli("check", "--format", "json", cwd=root)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    findings = json.loads(result.stdout)["findings"]
    by_path = {(f["path"], f["code"]): f for f in findings}
    assert "binary" in by_path[("docs/binary.md", "GL001")]["message"]
    latin = by_path[("docs/latin1.md", "GL001")]
    assert "not valid UTF-8" in latin["message"] and latin["line"] == 1
    assert "too large" in by_path[("docs/huge.md", "GL001")]["message"]
    assert ("docs/zz_real.md", "GL501") in by_path
    assert "never closed" in by_path[("docs/unterminated.md", "GL401")]["message"]
    assert {f["path"] for f in findings} == {
        "docs/binary.md",
        "docs/latin1.md",
        "docs/huge.md",
        "docs/unterminated.md",
        "docs/zz_real.md",
    }


def test_text_output_for_unreadable_file_is_one_line(make_project):
    root = make_project({"docs/latin1.md": "caf\xe9\n".encode("latin-1")})
    result = run_cli("check", cwd=root)
    first = result.stdout.splitlines()[0]
    assert first == "docs/latin1.md:1:4: GL001 file is not valid UTF-8 (byte 0xe9 at offset 3)"


markdown_pieces = st.sampled_from(
    [
        "# ",
        "## ",
        "- ",
        "  - ",
        "1. ",
        "> ",
        "`",
        "``",
        "```",
        "~~~",
        "```python {id=x}\n",
        "<!-- guidelint: disable-next-line GL501 -->",
        "<!-- ",
        " -->",
        "[a](",
        ")",
        "|",
        "|---|",
        "**",
        "\n",
        "\r\n",
        "\r",  # a lone CR ends a line in CommonMark
        "\ufeff",  # a BOM inside the text, not only at its start
        "\x00",  # markdown-it replaces NUL with U+FFFD: offsets must not shift
        "`x``",
        "\t",
        "scripts/",
        "gone.py",
        "docs/",
        "a.md",
        " ",
        "mcp__lab__x",
        "<a id='x'>",
        "\\`",
        "---\n",
        "é",
        "\u2028",
    ]
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.one_of(markdown_pieces, st.text(max_size=8)), max_size=60))
def test_random_markdown_never_crashes_and_positions_stay_in_file(tmp_path, pieces):
    (tmp_path / "scripts").mkdir(exist_ok=True)
    check_crashes_nothing(tmp_path, "docs/r.md", "".join(pieces))


def check_crashes_nothing(root: Path, rel: str, text: str) -> None:
    """Every rule on the text: no GL000, every position inside the file, every
    reporter renders it as encodable text."""
    config = Config()
    engine = Engine(Project(root, config), build_selection(config))
    file = SourceFile(path=root / rel, rel=rel, text=text)
    findings = engine.check_source(file)
    assert not [f for f in findings if f.code == "GL000"], findings
    lines = file.lines
    for f in findings:
        assert 1 <= f.line <= f.end_line <= lines.line_count
        assert 1 <= f.column <= len(lines.line_text(f.line)) + 1
        assert 1 <= f.end_column <= len(lines.line_text(f.end_line)) + 1
    report = Report(findings=findings, root=root, files_checked=1)
    for fmt in FORMATS:
        renderer(fmt)(report).encode("utf-8")


def test_bom_inside_and_a_lone_cr_crash_no_rule(make_project):
    # The 26 bytes that made seven rules raise "span end before start" (issue #14).
    root = make_project({"docs/a.md": b"`x``\xef\xbb\xbf``x`d`x``\r`"})
    result = run_cli("check", "--no-cache", cwd=root)
    assert "GL000" not in result.stdout, result.stdout
    assert result.returncode == 0, result.stdout + result.stderr


@given(st.lists(st.sampled_from(["a", "bc", "\n", "\r", "\r\n", "\ufeff", ""]), max_size=40))
def test_line_index_breaks_lines_as_commonmark_does(pieces):
    text = "".join(pieces)
    lines = LineIndex(text)
    expected = re.split(r"\r\n|\r|\n", text)
    assert [lines.line_text(n) for n in range(1, lines.line_count + 1)] == expected
    for offset in range(len(text) + 1):
        position = lines.position(offset)
        assert lines.offset(position.line, position.column) == offset


def test_a_symlink_out_of_the_repository_is_not_followed(make_project, tmp_path_factory):
    secret = tmp_path_factory.mktemp("host") / "shadow"
    secret.write_text("root:SECRET-HASH:19000:0:99999:7:::\n")
    root = make_project(
        {"docs/a.md": "# A\n"}, config='include = ["docs/**/*.md", ".claude/*.json"]'
    )
    (root / ".claude").mkdir()
    (root / ".claude/settings.json").symlink_to(secret)
    (root / "docs/linked.md").symlink_to(secret)
    for args in ([], ["docs/linked.md"]):
        result = run_cli("check", "--no-cache", *args, cwd=root)
        assert "SECRET" not in result.stdout + result.stderr
        assert result.returncode == 0, result.stdout + result.stderr
    result = run_cli("check", "--no-cache", cwd=root)
    assert "docs/linked.md: skipped: a symlink to a path outside the repository" in result.stderr


def test_a_path_outside_the_root_is_never_looked_up(make_project, tmp_path_factory):
    # GL501 must not tell which host files exist: both answers are the same (silence).
    root = make_project(
        {"docs/a.md": "See `../../../../../../etc/passwd` and `../../../../../../etc/passwdx`.\n"}
    )
    result = run_cli("check", "--no-cache", "--select", "GL501", cwd=root)
    assert "passwd" not in result.stdout
    project = Project(root, Config())
    assert not project.exists("../../../../../../etc/passwd")
    assert project.read("../../../../../../etc/passwd") is None


def test_a_fifo_is_skipped_with_one_line(make_project):
    root = make_project({"docs/a.md": "# A\n"}, config="respect-gitignore = false")
    os.mkfifo(root / "docs/x.md")
    result = run_cli("check", "--no-cache", cwd=root)  # run_cli has a timeout: a hang fails
    assert result.returncode == 0, result.stdout + result.stderr
    assert "docs/x.md: skipped: not a regular file (a FIFO, socket or device)" in result.stderr


def test_since_never_passes_a_revision_as_an_option(make_project, tmp_path_factory):
    root = make_project({"docs/a.md": "# A\n"})
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    target = tmp_path_factory.mktemp("out") / "written-by-git"
    result = run_cli("check", f"--since=--output={target}", cwd=root)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "not a revision" in result.stderr
    assert not target.exists()


def test_a_huge_file_is_refused_by_its_size_before_it_is_read(make_project):
    # A 3 GB sparse file under a 1 GB address-space limit: read whole, it was a
    # MemoryError traceback; by size, it is one GL001 line.
    root = make_project({"docs/a.md": "# A\n"})
    with open(root / "docs/huge.md", "wb") as handle:
        handle.truncate(3 * 1024**3)

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))

    result = subprocess.run(
        [sys.executable, "-m", "guidelint", "check", "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limit_memory,
    )
    assert "Traceback" not in result.stderr, result.stderr
    assert (
        "docs/huge.md:1:1: GL001 file is too large to check (3,221,225,472 bytes" in result.stdout
    )


def test_a_deeply_nested_configuration_is_one_line(make_project):
    root = make_project({"docs/a.md": "# A\n"}, config="x = " + "[" * 50_000 + "]" * 50_000)
    result = run_cli("check", cwd=root)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "nested too deeply" in result.stderr


@pytest.mark.parametrize(
    "setting",
    ['cache-dir = "../outside"', '[tool.guidelint.gotchas]\nfiles = ["../outside.md"]'],
)
def test_configured_paths_stay_inside_the_project(make_project, setting):
    root = make_project({"docs/a.md": "# A\n"}, config=setting)
    result = run_cli("check", cwd=root)
    assert result.returncode == 2
    assert "must be a path inside the project" in result.stderr
    assert not (root.parent / "outside").exists()


def test_names_from_files_are_escaped_in_every_report(make_project, tmp_path_factory):
    # A file name with a newline must not forge a report line; a non-UTF-8 name must
    # not stop the report from being written.
    root = make_project({"docs/a.md": "# A\n"}, config="")
    forged = "x\nREADME.md:1:1: GL999 forged.md"
    (root / "docs" / forged).write_bytes(b"\xff not utf-8\n")
    (root / os.fsdecode(b"docs/caf\xe9.md")).write_bytes(b"\xff\n")
    for fmt in ("text", "github", "json", "sarif"):
        out = tmp_path_factory.mktemp("out") / "report"
        result = run_cli("check", "--no-cache", "--format", fmt, "-o", str(out), cwd=root)
        assert "Traceback" not in result.stderr, result.stderr
        text = out.read_text(encoding="utf-8")
        assert "\nREADME.md:1:1: GL999" not in text
        if fmt == "sarif":  # artifact URIs: percent-encoded, so no raw newline either
            assert "x%0AREADME.md%3A1%3A1%3A%20GL999" in text
            assert "caf\\xe9.md" in urllib.parse.unquote(text).replace("\\\\", "\\")
            continue
        assert "x\\nREADME.md" in text.replace("\\\\", "\\")
        assert "caf\\xe9.md" in text.replace("\\\\", "\\")


# File contents are decoded strictly (sources.decode), so they never hold a lone
# surrogate; surrogates reach reports only through file names (tested above).
HOSTILE = ["\r", "\r\n", "\n", "\ufeff", "\x00", "é", "\u2028", " ", "\t", "\\", "\x1b["]
JSON_PIECES = [
    '{"',
    '"',
    "}",
    "[",
    "]",
    ":",
    ",",
    "mcpServers",
    "permissions",
    "allow",
    "mcp__lab__x",
    "Bash(",
    ")",
    "command",
    "1",
    "null",
    "true",
]
PYTHON_PIECES = [
    "(",
    ")",
    "[",
    "]",
    "def f():\n",
    "    ",
    "assert len(ckpts) >= 2\n",
    "TrainingArguments(",
    "num_train_epochs=",
    "1",
    "\n",
    "#",
    "'",
    '"""',
]
FRONT_MATTER_PIECES = [
    "---\n",
    "tools: ",
    "Read, ",
    "mcp__lab__x",
    "[",
    "]",
    "\n",
    "name: a\n",
    "allowed-tools:",
    "- ",
    "`",
    "# H\n",
]
KINDS = {
    ".claude/settings.json": JSON_PIECES,
    ".mcp.json": JSON_PIECES,
    "scripts/train.py": PYTHON_PIECES,
    ".claude/agents/a.md": FRONT_MATTER_PIECES,
}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(sorted(KINDS)),
    st.data(),
)
def test_every_file_kind_never_crashes_and_positions_stay_in_file(tmp_path, rel, data):
    pieces = st.sampled_from(KINDS[rel] + HOSTILE)
    check_crashes_nothing(tmp_path, rel, "".join(data.draw(st.lists(pieces, max_size=50))))


# --- #28: no write follows a committed symlink out of the project ----------------------


def test_check_never_writes_its_cache_through_a_committed_symlink(make_project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("home")
    root = make_project({"scripts/ok.py": "", "docs/a.md": STALE})
    (root / ".guidelint_cache").symlink_to(outside, target_is_directory=True)
    for _ in range(2):  # the second run would read what the first one wrote
        result = run_cli("check", cwd=root)
        assert result.returncode == 1 and "scripts/gone.py" in result.stdout
        assert ".guidelint_cache is a symlink; guidelint does not write through it" in (
            result.stderr
        )
        assert "Traceback" not in result.stderr
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("link", ["file", "folder"])
def test_gotcha_add_never_writes_through_a_symlink_out(tmp_path, link):
    import shutil

    from tests.core.test_mcp_server import GOTCHAS, WORKSPACE

    root, outside = tmp_path / "workspace", tmp_path / "outside"
    shutil.copytree(WORKSPACE, root, ignore=shutil.ignore_patterns("workspaces"))
    assert run_cli("check", "--fix", "--select", "GL2", cwd=root).returncode == 0
    gotchas = root / GOTCHAS
    moved, linked = (gotchas, gotchas) if link == "file" else (gotchas.parent, gotchas.parent)
    outside.mkdir()
    target = outside / moved.name
    shutil.move(moved, target)
    linked.symlink_to(target, target_is_directory=link == "folder")
    before = {p.name: p.read_bytes() for p in target.parent.rglob("*") if p.is_file()}
    args = ["--headline", "Seeds are fixed per run", "--body", "B.", "--provenance", "#7"]
    for dry_run in ([], ["--dry-run"]):
        result = run_cli("gotcha", "add", *args, *dry_run, cwd=root)
        lines = result.stderr.strip().splitlines()
        assert result.returncode != 0 and len(lines) == 1, result.stderr
        assert "leads outside the project" in lines[0] and GOTCHAS in lines[0]
    assert {p.name: p.read_bytes() for p in target.parent.rglob("*") if p.is_file()} == before


def test_the_writer_confined_to_a_project_never_follows_a_link_out(tmp_path):
    from guidelint.fsio import write_atomic

    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / "docs").mkdir(parents=True)
    outside.mkdir()
    (outside / "victim.md").write_text("theirs\n")
    (root / "docs/out.md").symlink_to(outside / "victim.md")
    (root / "linked").symlink_to(outside, target_is_directory=True)
    (root / "docs/real.md").write_text("ours\n")
    (root / "docs/in.md").symlink_to("real.md")
    for path in (root / "docs/out.md", root / "linked/victim.md", root / "linked/new.md"):
        with pytest.raises(PermissionError, match="outside the project"):
            write_atomic(path, "pwned\n", root)
    assert sorted(p.name for p in outside.iterdir()) == ["victim.md"]
    assert (outside / "victim.md").read_text() == "theirs\n"
    write_atomic(root / "docs/in.md", "ours, fixed\n", root)  # a link inside: its target
    assert (root / "docs/in.md").is_symlink() and (root / "docs/real.md").read_text() == (
        "ours, fixed\n"
    )


def test_a_one_line_mcp_json_gives_a_bounded_excerpt_per_finding(make_project):
    """300 servers on one line (36 KB): each finding's excerpt is a window of the line
    around its span, not the line (8,000 servers gave a 1.3 GB report, then a
    MemoryError)."""
    servers = {
        f"s{i}": {"command": "npx", "args": ["-y", f"p{i}"], "env": {"KEY": "sk-" + "a" * 40}}
        for i in range(300)
    }
    # Each server named in a tool reference: GL110 asks a snapshot only for those.
    uses = " ".join(f"`mcp__s{i}__run`" for i in range(300))
    root = make_project({".mcp.json": json.dumps({"mcpServers": servers}), "AGENTS.md": uses})
    result = run_cli("check", "--select", "GL110,GL605", cwd=root)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    excerpts = [line for line in result.stdout.splitlines() if line.startswith("    1 | ")]
    assert len(excerpts) == 600  # two findings per server, each with its excerpt
    assert max(len(line) for line in excerpts) <= 200
    assert all("\u2026" in line for line in excerpts)  # cut, and it says so
    lines = result.stdout.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("    1 | "):  # the caret under it marks the span, in the window
            caret = lines[number + 1]
            marked = line[caret.index("^") : caret.rindex("^") + 1]
            assert re.fullmatch(r'"s\d+"|"sk-a{40}"', marked), (line, caret)


def test_check_output_never_goes_through_a_committed_symlink(make_project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("home")
    (outside / "victim").write_text("theirs\n")
    root = make_project({"scripts/ok.py": "", "docs/a.md": STALE})
    (root / "reports").symlink_to(outside, target_is_directory=True)
    (root / "report.txt").symlink_to(outside / "victim")
    for target in ("reports/report.txt", "report.txt"):
        result = run_cli("check", "-o", target, cwd=root)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert lines[-1].startswith(f"guidelint: error: {target}: report not written: ")
        assert "outside the project" in lines[-1]
    assert sorted(p.name for p in outside.iterdir()) == ["victim"]
    assert (outside / "victim").read_text() == "theirs\n"
    elsewhere = tmp_path_factory.mktemp("ci") / "report.txt"  # outside: the user's choice
    assert run_cli("check", "-o", str(elsewhere), cwd=root).returncode == 1
    assert "scripts/gone.py" in elsewhere.read_text()


def test_a_baseline_is_never_written_or_read_through_a_committed_symlink(
    make_project, tmp_path_factory
):
    """`--write-baseline baseline.json` where the pull request commits
    `baseline.json -> ~/.bashrc` (or `ci/ -> ~`): the baseline replaced the file
    outside, after a warning that the link was "not followed". `--baseline` read a
    linked file from outside (one that can hide every finding). Now each is one error
    line, nothing written or read; a path outside named by the user is still theirs."""
    outside = tmp_path_factory.mktemp("home")
    (outside / "bashrc").write_text("theirs\n")
    (outside / "empty.json").write_text('{"version": 2, "findings": []}\n')
    root = make_project({"scripts/ok.py": "", "docs/a.md": STALE})
    (root / "baseline.json").symlink_to(outside / "bashrc")
    (root / "hides.json").symlink_to(outside / "empty.json")
    (root / "ci").symlink_to(outside, target_is_directory=True)
    for target in ("baseline.json", "ci/new.json"):
        result = run_cli("check", "--write-baseline", target, cwd=root)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert lines[-1].startswith(f"guidelint: error: {target}: baseline not written: ")
        assert "outside the project" in lines[-1]
    assert sorted(p.name for p in outside.iterdir()) == ["bashrc", "empty.json"]
    assert (outside / "bashrc").read_text() == "theirs\n"
    result = run_cli("check", "--baseline", "hides.json", cwd=root)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("guidelint: error: hides.json: baseline not read: "), last
    assert "outside the project" in last
    elsewhere = tmp_path_factory.mktemp("ci") / "baseline.json"  # outside: the user's choice
    assert run_cli("check", "--write-baseline", str(elsewhere), cwd=root).returncode == 0
    assert run_cli("check", "--baseline", str(elsewhere), cwd=root).returncode == 0
    assert run_cli("check", cwd=root).returncode == 1  # the finding the baseline holds


def test_pathological_globs_in_the_configuration_cost_no_more_than_plain_ones(make_project):
    """`exclude = ["*?*?*?*?*?*?*?*?*?*?*?*?b"]` (or `**/a/**/a/...`) in a pull
    request's configuration, and a committed file under 30 folders with an 80-letter
    name: pathspec's expression backtracked for hours on that one path (the check
    was stopped after 30 s). Now the check ends as fast as with plain globs (run_cli's
    timeout only guards against a hang; nothing is measured)."""
    deep = "/".join(["a"] * 30) + "/" + "a" * 80 + ".md"
    globs = ["*?" * 12 + "b", "**/" + "a/**/" * 7 + "b", "*a" * 12 + "b"]
    root = make_project({f"docs/{deep}": "# A\n"}, config=f"exclude = {json.dumps(globs)}")
    result = run_cli("check", cwd=root)
    assert result.returncode == 0 and "1 file checked" in result.stdout, result.stderr


@pytest.mark.parametrize("folder", ["data", "."])
def test_a_configured_cache_dir_never_takes_over_a_folder_guidelint_did_not_make(
    make_project, folder
):
    """A pull request sets `cache-dir = "data"` (or `"."`): the cache pruned the
    folder's `results-1.json` and `results-2.json` (a user's files, "older contexts")
    and wrote `.gitignore` (`*`: every new file there ignored by git) and CACHEDIR.TAG
    (backups skip it) into the folder, the repository itself for `"."`. Now a folder
    guidelint did not make is one warning line and no result cache; nothing in it
    changes. A new folder is made and used."""
    import time

    files = {"docs/a.md": "# A\n", "data/notes.txt": "mine\n"}
    files |= {f"data/results-{n}.json": "{}\n" for n in range(1, 10)}
    root = make_project(files, config=f'cache-dir = "{folder}"')
    for n in range(1, 10):  # the oldest first, as a prune would order them
        os.utime(root / f"data/results-{n}.json", (time.time() - 1000 * (10 - n),) * 2)
    before = sorted(p.relative_to(root) for p in root.rglob("*") if ".git" not in p.parts)
    for _ in range(2):
        result = run_cli("check", cwd=root)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
        assert f"{folder}: cache folder is not guidelint's" in result.stderr, result.stderr
    after = sorted(p.relative_to(root) for p in root.rglob("*") if ".git" not in p.parts)
    assert after == before
    (root / "pyproject.toml").write_text('[tool.guidelint]\ncache-dir = "data/cache"\n')
    result = run_cli("check", cwd=root)
    assert "cache folder" not in result.stderr and (root / "data/cache/CACHEDIR.TAG").exists()


def test_a_glob_pathspec_cannot_compile_is_one_line_and_a_linked_gitignore_is_not_read(
    make_project, tmp_path_factory
):
    """`exclude = ["[z-a]"]` in the configuration ended `check` in a `re.error`
    traceback; a root `.gitignore` read without git (no repository) with such a line
    did too, and it was read through a committed `.gitignore -> /elsewhere` symlink.
    Now the configured glob is one error line naming it; a `.gitignore` line pathspec
    cannot read is left out, as git leaves it; a linked `.gitignore` from outside the
    project is not read."""
    root = make_project({"docs/a.md": "# A\n"}, config='exclude = ["docs/[z-a]"]')
    result = run_cli("check", cwd=root)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip() == (
        f"guidelint: error: {root / 'pyproject.toml'}:2: [tool.guidelint] key 'exclude': "
        "glob 'docs/[z-a]': not a valid pattern (bad character range z-a)"
    )
    (root / "pyproject.toml").write_text("[tool.guidelint]\n")
    (root / ".gitignore").write_text("[z-a]\ndocs/\n")
    result = run_cli("check", cwd=root)  # not a git repository: the file is read
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "(0 files checked)" in result.stdout  # `docs/` is ignored, `[z-a]` left out
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "ignore"
    elsewhere.write_text("docs/\n")
    (root / ".gitignore").unlink()
    (root / ".gitignore").symlink_to(elsewhere)
    result = run_cli("check", cwd=root)
    assert result.returncode == 0 and "1 file checked" in result.stdout, result.stdout


CONFIGURED_BAD_GLOBS = [
    # (file, text, the line and key the error names, the glob)
    (
        "pyproject.toml",
        '[tool.ruff]\nexclude = ["build"]\n\n[tool.guidelint]\nexclude = [\n'
        '  "docs/a.md",\n  "docs/[z-a]",\n]\n',
        "7: [tool.guidelint] key 'exclude'",
        "docs/[z-a]",
    ),
    (
        "pyproject.toml",
        '[tool.guidelint]\nignore = ["GL501"]\n\n[tool.guidelint.paths]\n'
        'links = ["docs/**"]\nignore = ["build/", "out\\\\"]\n',
        "6: [tool.guidelint] key 'paths.ignore'",
        "out\\",
    ),
    (
        "guidelint.toml",
        'include = ["**/*.md"]\n\n[per-file-ignores]\n"docs/*" = ["GL501"]\n'
        '"docs/[z-a]" = ["GL502"]\n',
        "5: guidelint.toml key 'per-file-ignores'",
        "docs/[z-a]",
    ),
    (
        "guidelint.toml",
        '[smoke]\ndrivers = ["train.py"]\n\n[gotchas]\nsurface = [\n  "docs/**",\n  "!",\n]\n',
        "7: guidelint.toml key 'gotchas.surface'",
        "!",
    ),
]


@pytest.mark.parametrize(
    ("name", "text", "where", "glob"),
    CONFIGURED_BAD_GLOBS,
    ids=["exclude", "paths.ignore", "per-file-ignores", "gotchas.surface"],
)
def test_a_configured_glob_pathspec_cannot_read_names_the_file_and_its_line(
    make_project, name, text, where, glob
):
    """A configured glob pathspec cannot read (`[z-a]`, a trailing backslash, a lone
    `!`) was one line naming the glob alone: in a long pyproject.toml (where `[tool.ruff]`
    has an `exclude` too, and `ignore` is both a rule list and a `[paths]` key) the
    reader had to hunt for it. Now the line names the file, the glob's own line and
    the key, for the plain tables read without pydantic and for the others alike."""
    root = make_project({"docs/a.md": "# A\n", name: text}, config=None)
    for command in (["check"], ["gotcha", "find", "x"]):
        result = run_cli(*command, cwd=root)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert result.stderr.strip().startswith(
            f"guidelint: error: {root / name}:{where}: glob {glob!r}: not a valid pattern ("
        ), result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_a_nested_gitignore_line_pathspec_cannot_read_is_left_out_as_git_leaves_it(
    make_project,
):
    """A committed `docs/.gitignore` (or the root's, read by GL501) holding `[z-a]`
    made `check` a usage error (exit 2, "glob '[z-a]': not a valid pattern"): GL502
    and GL504 read the nearer `.gitignore` files with the configuration's globs, so a
    pull request could turn every finding of the check into one error about a file
    guidelint does not own. Now such a line is left out, as git leaves it out, and
    the file's other lines still apply."""
    guide = (
        "# A\n\nSee [built](sub/build/x.md) and [gone](sub/gone.md).\n\n"
        "```\ndocs/\n\u2514\u2500\u2500 sub/\n    \u251c\u2500\u2500 build/\n"
        "    \u2502   \u2514\u2500\u2500 y.md\n    \u2514\u2500\u2500 gone.md\n```\n"
    )
    root = make_project(
        {
            "docs/a.md": guide,
            "docs/sub/.keep": "",
            "docs/.gitignore": "[z-a]\nbuild/\n",
            ".gitignore": "out\\\n[z-a]\n",
        }
    )
    result = run_cli("check", "--no-cache", "--format", "json", cwd=root)
    assert "Traceback" not in result.stderr and "not a valid pattern" not in result.stderr
    assert result.returncode == 1, result.stderr
    found = [(f["code"], f["message"]) for f in json.loads(result.stdout)["findings"]]
    assert [code for code, _ in found] == ["GL502"], found  # `build/` still applies
    assert "sub/gone.md" in found[0][1], found


def test_a_link_thousands_of_folders_deep_is_one_broken_link_not_a_crash(make_project):
    """#28: a link 1,000 folders deep (`[x](a/a/.../x.md)`, 2 KB) made GL502 a GL000
    internal error on its file (the project's realpath cache recursed once per folder:
    a RecursionError), so the file's other broken links went unreported; once that was
    iterative, each folder's `.gitignore` read resolved every folder above it (20 s
    for 2,000 folders) and each folder's path was kept (memory quadratic in the link's
    length). Now it is one GL502 finding like any broken link, at the cost of one."""
    deep = "a/" * 2000
    guide = f"# L\n\nSee [deep]({deep}x.md) and [gone](gone.md).\n"
    root = make_project({"docs/guide.md": guide}, config='select = ["GL502"]')
    result = run_cli("check", "--no-cache", "--format", "json", cwd=root)
    assert "Traceback" not in result.stderr and result.returncode == 1, result.stderr
    found = json.loads(result.stdout)["findings"]
    assert [f["code"] for f in found] == ["GL502", "GL502"], [f["message"] for f in found]


# -- a path named through a committed folder symlink (#28) ---------------------------
# `docs/link -> ~/other/docs`, where `other` is another project of the same user (a git
# repository with its own `.mcp.json` and snapshots). Before, the named path's
# symlinks were resolved first, so the run was re-rooted in `other`: its file was
# read into the report, `--diff` printed it and `--fix --unsafe-fixes` rewrote it.

OTHER_SERVER = '{"mcpServers": {"lab": {"command": "%s", "args": ["-c", "%s"]}}}\n'
MARK_STARTED = "open('started', 'w').write('yes')"  # a server that leaves a mark
OTHER_PAGE = "# Other\n\nThen call `mcp__lab__job_stat` (SECRET).\n"


@pytest.fixture
def linked_out(make_project, tmp_path_factory) -> tuple[Path, Path]:
    """(the project, the other project its `docs/link` leads into)."""
    other = tmp_path_factory.mktemp("other")
    (other / ".guidelint/tools").mkdir(parents=True)
    (other / ".mcp.json").write_text(OTHER_SERVER % (sys.executable, MARK_STARTED))
    (other / ".guidelint/tools/lab.json").write_text(
        '{"tools": [{"name": "job_status", "inputSchema": {"type": "object"}}]}'
    )
    (other / "docs").mkdir()
    (other / "docs/secret.md").write_text(OTHER_PAGE)
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    root = make_project({"docs/a.md": "# A\n"})
    (root / "docs/link").symlink_to(other / "docs", target_is_directory=True)
    return root, other


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["check", "--fix", "--unsafe-fixes"],
        ["check", "--diff", "--unsafe-fixes"],
        ["check", "--format", "json"],
    ],
    ids=["check", "fix", "diff", "json"],
)
@pytest.mark.parametrize("named", ["docs/link/secret.md", "docs/link"])
def test_a_path_through_a_folder_symlink_is_neither_read_nor_written(linked_out, args, named):
    root, other = linked_out
    result = run_cli(*args, "--no-cache", named, cwd=root)
    out = result.stdout + result.stderr
    assert "Traceback" not in out and "SECRET" not in out and "job_stat" not in out, out
    notes = [line for line in result.stderr.splitlines() if "outside the project" in line]
    assert notes == [
        f"guidelint: warning: {named}: not checked: it leads outside the project ({root})"
    ], result.stderr
    assert (other / "docs/secret.md").read_text() == OTHER_PAGE


def test_check_watch_never_reads_through_a_folder_symlink(linked_out):
    pytest.importorskip("watchfiles")
    root, other = linked_out
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    watcher = subprocess.Popen(
        [sys.executable, "-m", "guidelint", "check", "--watch", "--no-cache", "docs/link"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    seen = []
    try:
        assert watcher.stdout is not None
        for line in watcher.stdout:  # the first round's report, then stop
            seen.append(line)
            if "checked)" in line or "Found " in line:
                break
    finally:
        watcher.kill()
        watcher.wait()
    out = "".join(seen)
    assert "SECRET" not in out and "job_stat" not in out, out
    assert "docs/link: not checked: it leads outside the project" in out, out


def test_tools_snapshot_through_a_folder_symlink_starts_no_server_of_another_project(
    linked_out,
):
    root, other = linked_out
    for command in (["tools", "snapshot"], ["tools", "list"]):
        result = run_cli(*command, "docs/link", cwd=root)
        assert "Traceback" not in result.stderr
        assert "lab" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert not (other / "started").exists()
    assert "job_status" in (other / ".guidelint/tools/lab.json").read_text()  # not rewritten


@pytest.mark.parametrize(
    "args",
    [
        ["plan", "--rows", str(10**12), "--batch", "1", "--max-steps", str(10**12)]
        + ["--save-steps", "1"],
        ["dial", "--floor", "1", "--cap", str(10**9), "--batch", "1"],
    ],
    ids=["plan-a-trillion-saves", "dial-a-billion-rows"],
)
def test_smoke_arithmetic_too_large_to_enumerate_is_one_line(tmp_path, args):
    """`smoke plan` listed a trillion saves (a MemoryError traceback); `smoke dial` over a
    billion rows ran for ever. Each is one line and exit 2."""
    result = run_cli("smoke", *args, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert re.search(r"^guidelint: error: more than .* to simulate", result.stderr), result.stderr
