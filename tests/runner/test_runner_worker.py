"""The warm worker's edges: it dies, ruff is missing, heavy imports stay out of `check`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from guidelint.runner.run import RunOptions, run_examples
from tests.conftest import scratch_file

FIXTURES = Path(__file__).parents[1] / "fixtures" / "runner"
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


def _wait_gone(pid: int, attempts: int = 200) -> bool:
    import os
    import time

    for _ in range(attempts):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_aborting_a_run_kills_the_worker_and_its_children(tmp_path):
    import time

    from guidelint.markdown import parse_markdown
    from guidelint.runner.client import WorkerClient
    from guidelint.runner.config import RunnerConfig
    from guidelint.runner.examples import extract
    from guidelint.runner.plan import unit_payload

    text = "```python {timeout=600}\nimport os, time\n\nPID_LINE\n"
    text += "while True:\n    time.sleep(0.05)\n```\n"
    (example,) = extract(parse_markdown(text), "guide.md")
    config = RunnerConfig()
    payload = unit_payload([example], tmp_path, config, tmp_path / "report")
    # Its PID as the host sees it (inside its PID namespace it is 1): /proc is the host's.
    name = f"pid-{os.getpid()}-{time.monotonic_ns()}"
    line = f"open({name!r}, 'w').write(os.readlink('/proc/self'))"
    payload["examples"][0]["source"] = payload["examples"][0]["source"].replace("PID_LINE", line)
    client = WorkerClient({"settings": config.model_dump(), "jobs": 1}, config.env_allowlist)
    client.submit(payload)
    pid_file = scratch_file(name)  # waits until the example runs (not a speed assertion)
    assert pid_file is not None
    pid, worker_pid = int(pid_file.read_text()), client.process.pid
    client.close(abort=True)
    assert _wait_gone(worker_pid)
    assert _wait_gone(pid), "the example outlived its killed worker"


def test_input_gets_end_of_file(tmp_path):
    guide = tmp_path / "guide.md"
    guide.write_text("```python\nname = input()\n```\n")
    (result,) = run_examples(RunOptions(paths=[guide], report_dir=tmp_path / "r")).results
    assert result.status.value == "error" and "EOFError" in result.message


def test_an_unreadable_guide_is_noted_and_the_others_still_run(tmp_path):
    (tmp_path / "bad.md").write_bytes("```python\nprint('caf\xe9')\n```\n".encode("latin-1"))
    (tmp_path / "good.md").write_text("```python\nprint('ok')\n```\n")
    report = run_examples(RunOptions(paths=[tmp_path], report_dir=tmp_path / "r"))
    assert [(r.path, r.status.value) for r in report.results] == [("good.md", "passed")]
    assert len(report.notes) == 1 and report.notes[0].startswith("bad.md:2: ")
    assert "UTF-8" in report.notes[0]


def test_processes_an_example_leaves_behind_are_killed(tmp_path):
    guide = tmp_path / "guide.md"
    guide.write_text(
        "```python\nimport os, subprocess\n\nsubprocess.Popen(['sleep', '1000'])\n"
        "me = os.readlink('/proc/self')  # host PIDs: /proc is the host's\n"
        "print(open(f'/proc/{me}/task/{me}/children').read().split()[0])\n```\n"
    )
    (result,) = run_examples(RunOptions(paths=[guide], report_dir=tmp_path / "r")).results
    assert result.status.value == "passed", result.message
    assert _wait_gone(int(result.stdout))


def test_resident_memory_watchdog_stops_a_growing_example(tmp_path):
    """Below the address-space limit (which a GPU run cannot use), RSS still counts."""
    (tmp_path / "pyproject.toml").write_text(
        "[tool.guidelint.runner]\nmemory-limit-mb = 128\nmemory-cgroup = false\n"
    )
    guide = tmp_path / "guide.md"
    guide.write_text(
        "```python {timeout=120}\nimport time\n\ndata = b'x' * (122 * 2**20)\ntime.sleep(30)\n```\n"
    )
    (result,) = run_examples(RunOptions(paths=[guide], report_dir=tmp_path / "r")).results
    assert result.status.value == "crashed", result.message
    assert "MB resident" in result.message


def test_a_backend_example_imports_controlnet_aux_in_the_warm_worker(tmp_path):
    """controlnet_aux, imported by a diffusers example, is imported before the fork (not
    inside the example's timeout); an example that does not want the backend leaves it."""
    from guidelint.markdown import parse_markdown
    from guidelint.runner.config import RunnerConfig
    from guidelint.runner.examples import extract
    from guidelint.runner.plan import unit_payload

    def warm(source: str) -> list[str]:
        (example,) = extract(parse_markdown(f"```python\n{source}\n```\n"), "guide.md")
        payload = unit_payload([example], tmp_path, RunnerConfig(), tmp_path / "report")
        return payload["warm_imports"]

    backend = "import torch\nfrom controlnet_aux import CannyDetector\nimport diffusers"
    assert warm(backend) == ["controlnet_aux", "diffusers", "torch"]
    assert warm("import controlnet_aux\nprint(1)") == []
