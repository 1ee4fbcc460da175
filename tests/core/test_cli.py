"""The real `guidelint` command, end to end, in subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from guidelint.discovery import discover
from guidelint.project import Project
from tests.conftest import REPO, run_cli

STALE_DOC = "# Guide\n\nRun `scripts/gone.py` first.\n"


def test_readme_first_command_shows_the_seeded_stale_path():
    result = run_cli("check", "examples/workspace", cwd=REPO)
    assert result.returncode == 1, result.stderr
    assert (
        "docs/WORKSPACES.md:17:1: GL501 `.claude/agent-memory/experiment-implementer/"
        "feedback_smoke_gate_realized_slice_arithmetic.md` does not exist" in result.stdout
    )
    assert "did you mean" in result.stdout


def test_exit_codes(make_project):
    root = make_project({"scripts/ok.py": "", "docs/a.md": STALE_DOC})
    assert run_cli("check", cwd=root).returncode == 1
    assert run_cli("check", "--exit-zero", cwd=root).returncode == 0
    (root / "docs/a.md").write_text("# Guide\n\nRun `scripts/ok.py` first.\n")
    clean = run_cli("check", cwd=root)
    assert clean.returncode == 0 and "All checks passed" in clean.stdout
    assert run_cli("check", "--format", "yaml", cwd=root).returncode == 2
    missing = run_cli("check", "nope/", cwd=root)
    assert missing.returncode == 2 and "nope" in missing.stderr


def test_warnings_alone_exit_0(make_project):
    root = make_project(
        {"scripts/ok.py": "", "docs/a.md": STALE_DOC}, config='severity = {GL501 = "warning"}'
    )
    result = run_cli("check", cwd=root)
    assert result.returncode == 0 and "GL501" in result.stdout


def test_output_file_and_formats(make_project):
    root = make_project({"scripts/ok.py": "", "docs/a.md": STALE_DOC})
    result = run_cli("check", "--format", "json", "-o", "out/report.json", cwd=root)
    assert result.returncode == 1 and result.stdout == ""
    data = json.loads((root / "out/report.json").read_text())
    assert [f["code"] for f in data["findings"]] == ["GL501"]
    sarif = json.loads(run_cli("check", "--format", "sarif", cwd=root).stdout)
    assert sarif["runs"][0]["results"][0]["ruleId"] == "GL501"
    github = run_cli("check", "--format", "github", cwd=root).stdout
    assert github.startswith("::error file=docs/a.md,line=3,col=5")


def test_baseline_survives_line_shifts_and_catches_new_findings(make_project):
    root = make_project({"scripts/ok.py": "", "docs/a.md": STALE_DOC})
    written = run_cli("check", "--write-baseline", ".guidelint/baseline.json", cwd=root)
    assert written.returncode == 0
    (root / "docs/a.md").write_text("# Guide\n\nNew intro.\n\nMore.\n\n" + STALE_DOC)
    assert run_cli("check", "--baseline", ".guidelint/baseline.json", cwd=root).returncode == 0
    (root / "docs/a.md").write_text(STALE_DOC + "\nAnd `scripts/new_gone.py`.\n")
    result = run_cli("check", "--baseline", ".guidelint/baseline.json", cwd=root)
    assert result.returncode == 1
    assert "new_gone" in result.stdout and "`scripts/gone.py`" not in result.stdout
    bad = run_cli("check", "--baseline", "docs/a.md", cwd=root)
    assert bad.returncode == 2 and "not a guidelint baseline" in bad.stderr


def test_a_reworded_message_keeps_a_baselined_finding(make_project):
    # A did-you-mean appears when a close name is added; the finding is the same one.
    root = make_project({"scripts/ok.py": "", "docs/a.md": "# A\n\nRun `scripts/trian.py`.\n"})
    assert run_cli("check", "--write-baseline", "base.json", cwd=root).returncode == 0
    (root / "scripts/train.py").write_text("", encoding="utf-8")
    result = run_cli("check", cwd=root)
    assert "did you mean `scripts/train.py`" in result.stdout
    assert run_cli("check", "--baseline", "base.json", cwd=root).returncode == 0
    data = json.loads((root / "base.json").read_text(encoding="utf-8"))
    assert data["version"] == 2


def test_a_format_1_baseline_still_matches_and_says_how_to_rewrite_it(make_project):
    from guidelint.findings import Finding, Severity

    root = make_project({"scripts/ok.py": "", "docs/a.md": STALE_DOC})
    [found] = json.loads(run_cli("check", "--format", "json", cwd=root).stdout)["findings"]
    old = Finding(
        "GL501",
        "stale-path",
        Severity.ERROR,
        found["message"],
        "docs/a.md",
        3,
        5,
        3,
        22,
        snippet="`scripts/gone.py`",
    )  # format 1 hashed code, path, message and the flagged text
    entry = {"fingerprint": old.message_fingerprint(), "code": "GL501", "path": "docs/a.md"}
    (root / "old.json").write_text(json.dumps({"version": 1, "findings": [entry]}))
    result = run_cli("check", "--baseline", "old.json", cwd=root)
    assert result.returncode == 0, result.stdout
    notes = [line for line in result.stderr.splitlines() if "old.json" in line]
    assert len(notes) == 1 and "--write-baseline old.json" in notes[0]
    (root / "old.json").write_text(json.dumps({"version": 7, "findings": []}))
    bad = run_cli("check", "--baseline", "old.json", cwd=root)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "unsupported baseline version 7" in bad.stderr


def test_annotations_name_files_from_the_repository_root_wherever_started(tmp_path):
    from tests.conftest import write_tree

    write_tree(tmp_path, {"README.md": "# Top\n"})
    git(tmp_path, "init", "-q")
    space = write_tree(
        tmp_path / "examples/ws",
        {"pyproject.toml": "[tool.guidelint]\n", "docs/a.md": STALE_DOC, "scripts/ok.py": ""},
    )
    expected = "::error file=examples/ws/docs/a.md,line=3,col=5"
    for cwd, args in [(tmp_path, ["examples/ws"]), (space / "docs", [])]:
        github = run_cli("check", "--format", "github", *args, cwd=cwd).stdout
        assert github.startswith(expected), (cwd, github)
        sarif = json.loads(run_cli("check", "--format", "sarif", *args, cwd=cwd).stdout)
        [result] = sarif["runs"][0]["results"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri == "examples/ws/docs/a.md"


def git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def test_since_reports_only_changed_files(make_project):
    root = make_project({"scripts/ok.py": "", "docs/a.md": STALE_DOC, "docs/b.md": "# B\n"})
    git(root, "init", "-q")
    git(root, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")
    assert run_cli("check", "--since", "HEAD", cwd=root).returncode == 0
    (root / "docs/b.md").write_text("# B\n\nSee `scripts/also_gone.py`.\n")
    result = run_cli("check", "--since", "HEAD", cwd=root)
    assert result.returncode == 1
    assert "docs/b.md" in result.stdout and "docs/a.md" not in result.stdout
    bad = run_cli("check", "--since", "no-such-rev", cwd=root)
    assert bad.returncode == 2 and "--since no-such-rev" in bad.stderr


def test_since_outside_git_says_why_in_one_line(make_project):
    root = make_project({"docs/a.md": "# A\n"})
    result = run_cli("check", "--since", "HEAD", cwd=root)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "not a git repository" in lines[0].lower(), lines


def test_gitignored_files_are_skipped(make_project):
    root = make_project(
        {
            "scripts/ok.py": "",
            "docs/a.md": STALE_DOC,
            "docs/gen/b.md": STALE_DOC,
            ".gitignore": "docs/gen/\n",
        }
    )
    git(root, "init", "-q")
    out = run_cli("check", cwd=root).stdout
    assert "docs/a.md" in out and "docs/gen" not in out


def test_rule_and_rules_commands():
    page = run_cli("rule", "GL501", cwd=REPO)
    assert page.returncode == 0 and page.stdout.startswith("# GL501 stale-path")
    assert run_cli("rule", "stale-path", cwd=REPO).stdout == page.stdout
    unknown = run_cli("rule", "GL999", cwd=REPO)
    assert unknown.returncode == 2 and "unknown rule" in unknown.stderr
    listing = json.loads(run_cli("rules", "--format", "json", cwd=REPO).stdout)
    assert {"GL001", "GL002", "GL501"} <= {row["code"] for row in listing}


def test_console_script_and_version():
    script = Path(sys.executable).parent / "guidelint"
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("guidelint, version")


def test_without_config_paths_are_relative_to_the_current_folder(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts/ok.py").write_text("")
    (tmp_path / "docs/sub").mkdir()
    (tmp_path / "docs/sub/b.md").write_text("# B\n")
    (tmp_path / "docs/a.md").write_text(STALE_DOC + "\nAnd `sub/gone.md`.\n")
    inside = run_cli("check", "docs/a.md", cwd=tmp_path)
    assert inside.stdout.startswith("docs/a.md:3:5: GL501")
    # Outside the current folder and outside git: the folder itself is the root.
    outside = run_cli("check", str(tmp_path / "docs"), cwd=tmp_path / "scripts")
    assert outside.stdout.startswith("a.md:5:5: GL501 `sub/gone.md`"), outside.stdout
    # Inside a git repository: its top folder is the root.
    git(tmp_path, "init", "-q")
    in_repo = run_cli("check", str(tmp_path / "docs"), cwd=tmp_path / "scripts")
    assert in_repo.stdout.startswith("docs/a.md:3:5: GL501"), in_repo.stdout


def test_default_discovery_covers_plugin_layouts_and_claude_local(make_project):
    # Issue #11: a plugin repository's agents were never checked by default.
    agent = "---\nname: a\ntools: Read\n---\n# A\n"
    root = make_project(
        {
            "CLAUDE.local.md": "# Local\n",
            "plugins/p/agents/a.md": agent,
            "plugins/p/skills/s/SKILL.md": "# S\n",
            "agents/b.md": agent,
            "notes/c.md": agent,  # not an agent layout: left alone
        }
    )
    project = Project.load([root])
    rels = discover(project.root, project.config)
    assert rels == [
        "CLAUDE.local.md",
        "agents/b.md",
        "plugins/p/agents/a.md",
        "plugins/p/skills/s/SKILL.md",
    ]


def _check_env(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "guidelint", "check", "--no-cache", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env={**base, **env},
        timeout=300,
    )


def test_colour_follows_force_color_no_color_and_the_flag(make_project):
    root = make_project({"docs/a.md": "Run `docs/gone.md`.\n"})
    assert "\x1b[" not in _check_env(root).stdout  # a pipe: no colour
    assert "\x1b[" in _check_env(root, FORCE_COLOR="1").stdout
    assert "\x1b[" in _check_env(root, "--color").stdout  # forced into the pipe
    assert "\x1b[" not in _check_env(root, "--no-color", FORCE_COLOR="1").stdout
    assert "\x1b[" not in _check_env(root, FORCE_COLOR="", NO_COLOR="1").stdout


def test_quiet_and_statistics(make_project):
    root = make_project({"docs/a.md": "Run `docs/gone.md` and `docs/old.md`.\n"})
    quiet = _check_env(root, "--quiet").stdout
    assert quiet.count("GL501") == 2 and "Found" not in quiet
    stats = _check_env(root, "--statistics").stdout.splitlines()
    assert stats[0].split() == ["2", "GL501", "stale-path"]
    assert stats[-1].startswith("Found 2 errors")
    assert _check_env(root, "--statistics", "--quiet").stdout.splitlines() == stats[:1]


def test_rules_listing_has_a_header_row():
    result = run_cli("rules", cwd=REPO)
    assert result.stdout.splitlines()[0].split() == ["CODE", "NAME", "SEVERITY", "FIX", "SUMMARY"]


def test_zero_files_checked_is_said(make_project):
    root = make_project({"docs/a.md": "# A\n"}, config=None)
    (root / "notes").mkdir()
    result = run_cli("check", cwd=root / "notes")
    assert result.returncode == 0
    assert "guidelint: warning: no file under" in result.stderr
