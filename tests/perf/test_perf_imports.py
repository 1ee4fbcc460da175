"""`guidelint check` on Markdown starts fast: it never imports the heavy stacks.

Checked structurally (what is in sys.modules after the command), not with a clock.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import guidelint
from guidelint import markdown_rs

# Not even `--version` needs these: configuration models, parsers, file matching.
LIGHT_STARTUP_NEVER = ("pydantic", "pydantic_core", "markdown_it", "markdown_it_pyrs", "pathspec")
HEAVY = ("torch", "diffusers", "transformers", "libcst", "mcp", "accelerate", "safetensors")

# Runs the real CLI in a fresh interpreter, then reports what got imported.
PROBE = """
import json, sys
from guidelint.commands.cli import main
try:
    main(sys.argv[2:], prog_name="guidelint")
except SystemExit:
    pass
with open(sys.argv[1], "w") as out:
    json.dump(sorted(sys.modules), out)
"""

GUIDE = """\
---
title: Workspace guide
---
# Workspace

Call `mcp__jobs__job_submit(gpu="h100")`, then read `scripts/train.py` and
`docs/missing.md`. Tools: `Read`, `Bash(git status:*)`.

| Tool | Use |
|------|-----|
| `job_status` | poll |

```python
import torch
print(torch.__version__)
```

```python {id=broken}
def f(:
```

<!-- guidelint: pending -->
```python
from diffusers import DiffusionPipeline
```
"""

GOTCHAS = """\
# Gotchas

<!-- guidelint: row-cap=30 -->

- **Smoke gates use the realized slice.** A gate of 2 checkpoints failed at n=2 (#1489).

## LESSONS

| # | Lesson |
|---|--------|
| 1 | [Smoke gates use the realized slice](#smoke) |
"""

AGENT = """\
---
name: implementer
tools: Read, Edit, Bash, mcp__jobs__job_submit
---
Use `job_submit` for GPU runs.
"""


def modules_after(args: list[str], cwd: Path, tmp_path: Path) -> set[str]:
    report = tmp_path / "modules.json"
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(report), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    assert report.exists(), result.stderr
    return set(json.loads(report.read_text()))


def heavy_among(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


@pytest.fixture
def markdown_project(make_project) -> Path:
    return make_project(
        {
            "docs/WORKSPACES.md": GUIDE,
            "CLAUDE.md": "# Rules\n\nSee `docs/WORKSPACES.md`.\n",
            ".claude/rules/gotchas.md": GOTCHAS,
            ".claude/agents/implementer.md": AGENT,
            "scripts/train.py": "print('train')\n",
        },
        config='include = ["docs/**/*.md", "CLAUDE.md", ".claude/**/*.md"]',
    )


def test_the_probe_sees_imports(markdown_project, tmp_path):
    # Guard against a probe that reports nothing: the check path itself is listed.
    modules = modules_after(["check"], markdown_project, tmp_path)
    assert {"guidelint.engine", "guidelint.markdown", "guidelint.gotchas.parse"} <= modules


def test_version_imports_neither_configuration_nor_parser(tmp_path):
    # `guidelint --version` (and a pre-commit hook's first call) pays for click only.
    modules = modules_after(["--version"], tmp_path, tmp_path)
    assert "guidelint.commands.cli" in modules
    loaded = sorted(m for m in modules if m.split(".")[0] in LIGHT_STARTUP_NEVER)
    assert loaded == []
    assert not {"guidelint.config", "guidelint.engine", "guidelint.check"} & modules


def test_python_m_version_imports_no_click(tmp_path):
    # `python -m guidelint --version` is answered before the commands are imported.
    probe = (
        "import json, runpy, sys; sys.argv = ['guidelint', '--version'];"
        "runpy.run_module('guidelint', run_name='__main__');"
        f"open({str(tmp_path / 'm.json')!r}, 'w').write(json.dumps(sorted(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=600, check=True
    )
    modules = set(json.loads((tmp_path / "m.json").read_text()))
    assert result.stdout == "guidelint, version " + guidelint.__version__ + "\n"
    assert "guidelint" in modules  # the probe ran the package
    assert not {"click", "guidelint.commands.cli", "guidelint.rules", "guidelint.engine"} & modules


def test_one_file_check_imports_only_its_path(make_project, tmp_path):
    root = make_project({"CLAUDE.md": "# Rules\n\nSee `docs/x.md` and [a](b.md).\n"})
    modules = modules_after(["check", "--no-cache", "CLAUDE.md"], root, tmp_path)
    assert "guidelint.rules.gl502_broken_link" in modules  # the probe saw the check
    assert heavy_among(modules) == []
    # Neither other renderers, nor the smoke arithmetic (a GL3xx rule on drivers),
    # nor a pillar's command, nor rich.
    unused = {
        "rich",
        "guidelint.reporters.sarif",
        "guidelint.reporters.json_report",
        "guidelint.smoke.arithmetic",
        "guidelint.smoke.solver",
        "guidelint.smoke.versions",
        "guidelint.commands.gotcha",
        "guidelint.commands.tools",
        "guidelint.commands.run",
    }
    assert sorted(unused & modules) == []
    if markdown_rs.available():  # the reference parser loads only for a gotchas file
        assert "markdown_it" not in modules and "markdown_it_pyrs" in modules


@pytest.mark.parametrize("cache", [[], ["--no-cache"]], ids=["cache", "no-cache"])
def test_one_file_check_without_configuration_imports_no_pydantic(make_project, tmp_path, cache):
    # A pre-commit hook in a repository with no [tool.guidelint] table: the defaults
    # are plain dataclasses (guidelint.settings); the models load only for a file.
    root = make_project({"README.md": "# Read me\n\nSee `docs/x.md`.\n"}, config=None)
    modules = modules_after(["check", *cache, "README.md"], root, tmp_path)
    assert "guidelint.engine" in modules  # the probe saw the check
    assert sorted(m for m in modules if m.split(".")[0] in ("pydantic", "pydantic_core")) == []
    assert not {"guidelint.config", "guidelint.config_base"} & modules
    assert not {f"guidelint.{p}.config" for p in ("tools", "gotchas", "smoke", "runner")} & modules


def test_a_plain_configuration_imports_no_pydantic(make_project, tmp_path):
    # A CI configuration of globs and rule codes is read as plain records; pydantic
    # and the models load only for a table the plain reading cannot vouch for.
    config = 'include = ["**/*.md"]\nignore = ["GL104"]\n'
    root = make_project({"README.md": "# Read me\n\nSee `docs/x.md`.\n"}, config=config)
    modules = modules_after(["check", "--no-cache"], root, tmp_path)
    assert "guidelint.engine" in modules
    assert sorted(m for m in modules if m.split(".")[0] in ("pydantic", "pydantic_core")) == []
    table = f'[tool.guidelint]\n{config}severity = {{GL501 = "warning"}}\n'
    (root / "pyproject.toml").write_text(table)
    assert "pydantic" in modules_after(["check", "--no-cache"], root, tmp_path)


@pytest.mark.parametrize("cache", [[], ["--no-cache"]], ids=["cache", "no-cache"])
def test_check_on_markdown_imports_no_heavy_stack(markdown_project, tmp_path, cache):
    modules = modules_after(["check", *cache], markdown_project, tmp_path)
    assert heavy_among(modules) == []


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"]], ids=["help", "check-help"])
def test_help_imports_no_heavy_stack(markdown_project, tmp_path, args):
    modules = modules_after(args, markdown_project, tmp_path)
    assert "click" in modules
    assert heavy_among(modules) == []


PLAIN_README = "# Read me\n\nSee [the guide](docs/guide.md).\n\n## Install\n\nRun the installer.\n"
CODE_README = "# Read me\n\nRun `guidelint check`.\n\n```python\nprint(1)\n```\n"
# Loaded only for a file some rule needs them for (guidelint.rules.index): the gotchas
# parser for a gotchas file, the smoke readers for a driver, the agent-configuration
# rules for agents, skills, commands and steering files, yaml for front matter.
NOT_FOR_A_README = (
    "guidelint.gotchas.parse",
    "guidelint.gotchas.model",
    "guidelint.gotchas.index",
    "guidelint.gotchas.rulebase",
    "guidelint.smoke.rulebase",
    "guidelint.frontmatter",
    "yaml",
)


def rule_codes_in(modules: set[str]) -> set[str]:
    prefix = "guidelint.rules.gl"
    return {m[len(prefix) - 2 : len(prefix) + 3].upper() for m in modules if m.startswith(prefix)}


def test_a_plain_readme_imports_only_the_rules_that_apply(make_project, tmp_path):
    # No code span, no fence, no front matter: of the rules only the path and link
    # checks load (GL1xx apply but find nothing without a code span: not imported).
    root = make_project({"README.md": PLAIN_README}, config=None)
    modules = modules_after(["check", "--no-cache", "README.md"], root, tmp_path)
    assert rule_codes_in(modules) == {"GL000", "GL001", "GL002", "GL501", "GL502"}
    assert sorted(m for m in modules if m.split(".")[0] in NOT_FOR_A_README) == []
    assert not {m for m in modules if m.startswith(("guidelint.tools", "guidelint.runner"))}
    assert "guidelint.tools.claude_code" not in modules
    assert "hashlib" not in modules  # fingerprints and cache keys only: not a text report


def test_a_readme_with_code_imports_no_other_pillar(make_project, tmp_path):
    root = make_project({"README.md": CODE_README}, config=None)
    modules = modules_after(["check", "--no-cache", "README.md"], root, tmp_path)
    codes = rule_codes_in(modules)
    assert {"GL101", "GL104", "GL401", "GL402", "GL501", "GL502"} <= codes
    assert not {c for c in codes if c.startswith(("GL2", "GL3", "GL6"))}
    assert not set(NOT_FOR_A_README) & modules
    # No server is declared: the tool rules stop before the context patterns load.
    assert "guidelint.tools.context" not in modules


def test_the_result_cache_loads_the_rules_its_key_needs_only(make_project, tmp_path):
    # The cache key holds the files the tool rules declare (`cache_inputs`): those
    # rules load, the others still wait for a file they apply to.
    root = make_project({"README.md": PLAIN_README}, config=None)
    modules = modules_after(["check", "README.md"], root, tmp_path)
    codes = rule_codes_in(modules)
    assert {"GL101", "GL108", "GL501", "GL502"} <= codes
    assert not {c for c in codes if c.startswith(("GL2", "GL3", "GL4"))}
    assert not set(NOT_FOR_A_README) & modules
    assert not {"guidelint.tools.load", "guidelint.tools.catalog"} & modules  # no file needs it


# What a plain one-file check leaves unloaded since stop 23: pathspec (the globs'
# text decides), git and ruff's helpers (no listing asked, nothing linted or written),
# the did-you-mean matcher.
NOT_FOR_A_PLAIN_CHECK = ("pathspec", "subprocess", "tempfile", "shutil", "difflib", "pkgutil")


@pytest.mark.parametrize("cache", [[], ["--no-cache"]], ids=["cache", "no-cache"])
def test_a_plain_readme_needs_no_pathspec_git_or_tempfile(make_project, tmp_path, cache):
    root = make_project({"README.md": PLAIN_README}, config=None)
    modules_after(["check", *cache, "README.md"], root, tmp_path)  # the cache is written
    modules = modules_after(["check", *cache, "README.md"], root, tmp_path)  # warm: read only
    # The probe saw the check: the path rules ran, or their results came from the cache.
    assert ("guidelint.cache" if cache == [] else "guidelint.rules.gl501_stale_path") in modules
    assert sorted(m for m in modules if m.split(".")[0] in NOT_FOR_A_PLAIN_CHECK) == []
    assert "importlib.resources" not in modules


def test_a_readme_with_code_and_no_server_builds_no_catalog(make_project, tmp_path):
    # GL101-GL105 ask whether a server could be declared before building the catalog;
    # GL501 compiles its sentence patterns only for a path that does not exist.
    root = make_project(
        {"README.md": CODE_README + "\nSee `mcp__lab__job_submit` and `docs/guide.md`.\n"},
        config=None,
    )
    modules = modules_after(["check", "--no-cache", "README.md"], root, tmp_path)
    assert {"guidelint.rules.gl101_unknown_tool", "guidelint.rules.gl104_unknown_bare_tool"} <= (
        modules
    )
    tools = sorted(m for m in modules if m.startswith("guidelint.tools."))
    # harnesses: which other agents' server files could declare one (stdlib only)
    assert tools == ["guidelint.tools.harnesses", "guidelint.tools.rulebase"]
    assert "pathspec" not in modules


def test_a_declared_server_still_builds_the_catalog(make_project, tmp_path):
    # The guard above must not hide a real server: with `.mcp.json` the catalog loads.
    mcp = '{"mcpServers": {"lab": {"command": "lab-server"}}}\n'
    root = make_project(
        {"README.md": "Call `mcp__lab__job_submit`.\n", ".mcp.json": mcp}, config=None
    )
    modules = modules_after(["check", "--no-cache", "README.md"], root, tmp_path)
    assert {"guidelint.tools.load", "guidelint.tools.catalog"} <= modules


def test_a_missing_path_still_reads_its_sentence(make_project, tmp_path):
    # The lazy patterns compile when GL501 meets a path that does not exist.
    root = make_project({"README.md": "Run `docs/missing.md`.\n", "docs/x.md": "# X\n"})
    result = subprocess.run(
        [sys.executable, "-m", "guidelint", "check", "--no-cache", "README.md"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "GL501" in result.stdout and "docs/missing.md" in result.stdout


def test_a_page_with_plain_front_matter_imports_no_yaml(make_project, tmp_path):
    # Hugo's title and weight: GL601 has nothing to find (frontmatter.plainly_a_mapping,
    # the index's `needs`), GL107 sees no tool key; neither composes, so yaml never loads.
    page = "---\ntitle: Getting started\nweight: 10\n---\n# Start\n\nRead [more](more.md).\n"
    root = make_project({"docs/start.md": page, "docs/more.md": "# More\n"}, config=None)
    modules = modules_after(["check", "--no-cache", "docs/start.md"], root, tmp_path)
    assert "yaml" not in modules
    assert "GL601" not in rule_codes_in(modules)


def test_a_folder_needs_no_pathspec_and_a_plain_comment_no_parse(make_project, tmp_path):
    # A folder argument outside git: the walk skips the cache folder and the include
    # globs judge the files that are not Markdown, all from the patterns' text; a
    # comment that is no `guidelint:` directive is not parsed for suppressions.
    files = {
        "docs/a.md": "# A\n\n<!-- a note for editors -->\n",
        "docs/b.md": "# B\n",
        "docs/logo.png": "not an image",
        "docs/data.json": "{}",
        ".guidelint_cache/x.md": "# stale\n",
    }
    root = make_project(files, config=None)
    modules = modules_after(
        ["check", "--no-cache", "--select", "GL001", "docs", "."], root, tmp_path
    )
    assert "guidelint.engine" in modules  # the probe saw the check
    assert "pathspec" not in modules
    assert not {"guidelint.markdown_rs", "markdown_it_pyrs", "markdown_it"} & modules
