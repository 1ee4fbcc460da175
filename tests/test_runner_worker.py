"""The warm worker's edges: it dies, ruff is missing, heavy imports stay out of `check`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from guidelint.runner.run import RunOptions, run_examples

FIXTURES = Path(__file__).parent / "fixtures" / "runner"
HEAVY = ("torch", "diffusers", "transformers", "libcst", "mcp")


def test_a_dying_worker_turns_every_unfinished_example_into_a_crash(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.guidelint.runner]\nenv-allowlist = ["PATH", "PYTHONPATH"]\n'
    )
    guide = tmp_path / "guide.md"
    guide.write_text(
        "<!-- guidelint: needs=diffusers -->\n```python\nprint(1)\n```\n\n"
        "```python\nprint(2)\n```\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(FIXTURES / "probe"))
    report = run_examples(
        RunOptions(paths=[guide], backend_module="guidelint_dying_backend", report_dir=tmp_path)
    )
    assert [r.status.value for r in report.results] == ["crashed", "crashed"]
    assert "warm worker exited with status 9" in report.results[0].message


def test_plugin_and_gl4_rules_do_not_import_heavy_modules():
    code = (
        "import sys\n"
        "import guidelint.runner.pytest_plugin\n"
        "from guidelint.check import CheckOptions, run_check\n"
        "from pathlib import Path\n"
        f"path = Path({str(FIXTURES / 'basic.md')!r})\n"
        "run_check(CheckOptions(paths=[path], select=['GL4'], use_cache=False))\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]", result.stderr


def test_gl402_without_ruff_warns_once(monkeypatch, tmp_path):
    from guidelint.config import Config
    from guidelint.engine import Engine, build_selection
    from guidelint.project import Project
    from guidelint.runner import lint

    monkeypatch.setattr(lint, "find_ruff", lambda: None)
    for name in ("a.md", "b.md"):
        (tmp_path / name).write_text("```python\nx = 1\n```\n")
    project = Project(tmp_path, Config())
    engine = Engine(project, build_selection(Config(select=["GL402"])))
    findings = engine.check_file("a.md") + engine.check_file("b.md")
    assert [(f.path, f.severity.value) for f in findings] == [("a.md", "warning")]
    assert "ruff is not installed" in findings[0].message


def test_lint_messages_map_to_example_rows():
    from guidelint.runner.lint import lint_sources

    first, second = lint_sources(
        ["x = 1\n", "a = 1\nif a is 1:\n    pass\n"], ["F"], ["F401", "F821"]
    )
    assert first == []
    assert [(m.code, m.row, m.column) for m in second] == [("F632", 2, 4)]
