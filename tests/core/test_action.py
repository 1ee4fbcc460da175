"""action.yml, the composite GitHub Action: its steps run as a runner would run them.

Every `run` step runs in bash with its `env` (the `${{ inputs.* }}` expressions
filled in from the inputs' defaults) and GITHUB_ACTION_PATH set to this
repository, in a fresh virtual environment whose `python` the install step uses.
The upload step is GitHub's own action; the test checks that it uploads the file
the SARIF step wrote, and that the file is SARIF 2.1.0 with the findings.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]
EXPRESSION = re.compile(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}")


def _action() -> dict:
    import yaml  # pre-commit's own dependency

    return yaml.safe_load((REPO / "action.yml").read_text())


def _fill(value: str, inputs: dict[str, str]) -> str:
    return EXPRESSION.sub(lambda m: inputs[m.group(1)], value)


def test_the_action_is_composite_and_every_expression_names_an_input():
    action = _action()
    assert action["runs"]["using"] == "composite"
    inputs = action["inputs"]
    for step in action["runs"]["steps"]:
        text = json.dumps(step)
        assert set(EXPRESSION.findall(text)) <= set(inputs), step["name"]
        if "run" in step:  # inputs reach scripts through env only: never pasted into code
            assert "${{" not in step["run"] and step["shell"] == "bash"


@pytest.mark.slow  # installs guidelint into a fresh environment (pip, from the index)
def test_the_action_steps_install_check_and_write_sarif(tmp_path):
    action = _action()
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    environment = tmp_path / "env"
    venv.create(environment, with_pip=True)
    workspace = tmp_path / "workspace"
    shutil.copytree(REPO / "examples" / "workspace", workspace)
    base = {
        **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")},
        "PATH": f"{environment / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_ACTION_PATH": str(REPO),
        "GITHUB_ACTIONS": "true",
    }
    outcomes = {}
    for step in action["runs"]["steps"]:
        if "run" not in step:
            continue
        env = {**base, **{k: _fill(str(v), inputs) for k, v in step.get("env", {}).items()}}
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
        )
        outcomes[step["name"]] = done
    install, sarif_step, check = outcomes.values()
    assert install.returncode == 0, install.stderr[-3000:]
    assert sarif_step.returncode == 0, sarif_step.stderr[-3000:]
    assert check.returncode == 1  # the example workspace has defects on purpose
    assert "::error file=scripts/smoke_distill.py,line=38" in check.stdout  # libcst installed
    assert "not installed" not in check.stdout + check.stderr
    # The upload step sends the file the SARIF step wrote, even when the check failed.
    (upload,) = [s for s in action["runs"]["steps"] if "uses" in s]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert "always()" in upload["if"]
    sarif = json.loads((workspace / _fill(upload["with"]["sarif_file"], inputs)).read_text())
    assert sarif["version"] == "2.1.0"
    rules = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert {"GL301", "GL101", "GL203"} <= rules
