"""A missing optional extra is one line naming it, never a GL000 per file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]


def test_check_without_libcst_names_the_smoke_extra(tmp_path):
    # An environment without the smoke extra: `import libcst` fails as it would there.
    shadow = tmp_path / "shadow" / "libcst"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'libcst'\", name='libcst')\n"
    )
    workspace = tmp_path / "workspace"
    shutil.copytree(REPO / "examples" / "workspace", workspace)
    done = subprocess.run(
        [sys.executable, "-m", "guidelint", "check", "--no-cache", "--select", "GL3"],
        cwd=workspace,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": f"{shadow.parent}{os.pathsep}{REPO}"},
    )
    assert "GL000" not in done.stdout and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "guidelint: warning: libcst is not installed, so the rules that need it did not run: "
        "install guidelint[smoke]"
    ]


def test_the_hint_names_the_extra_of_each_optional_module():
    from guidelint.extras import install_hint, missing_extra

    error = ModuleNotFoundError("No module named 'mcp.client'", name="mcp.client")
    assert missing_extra(error) == "tools"
    assert install_hint(error, "tools", "live listing").endswith("install guidelint[tools]")
    assert missing_extra(ModuleNotFoundError("x", name="yaml")) is None  # not optional here
    assert missing_extra(ValueError("libcst")) is None


def test_every_extra_named_is_one_pyproject_defines():
    from guidelint.config import tomllib  # tomli on Python 3.10
    from guidelint.extras import EXTRA_OF_MODULE

    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert set(EXTRA_OF_MODULE.values()) <= set(extras)
    (everything,) = extras["all"]  # guidelint[tools,smoke,...]: the hint's extra is in it
    assert set(EXTRA_OF_MODULE.values()) <= set(everything.split("[")[1].rstrip("]").split(","))


# Each extra, the command that needs it, and what it runs on; the extra's modules are
# made unimportable in the subprocess (and the examples it starts) by a meta-path
# blocker, as in an environment without the extra, without uninstalling anything.
BLOCKER = """
import os, sys
from importlib.abc import MetaPathFinder

BLOCKED = set(filter(None, os.environ.get("GUIDELINT_TEST_BLOCK", "").split(",")))


class Blocker(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Blocker())
"""
DIFFUSERS_GUIDE = "# Guide\n\n```python\nimport diffusers\nprint(diffusers.__version__)\n```\n"
# The examples' environment is an allowlist: the blocker must reach them too.
RUNNER_ENV = (
    '[tool.guidelint.runner]\nenv-allowlist = ["PATH", "LANG", "PYTHONPATH", '
    '"GUIDELINT_TEST_BLOCK"]\n'
)
COMMANDS = {
    "smoke": ["check", "--no-cache", "--select", "GL3"],
    "tools": ["mcp"],
    "lsp": ["lsp"],
    "watch": ["check", "--watch", "."],
    "diffusers": ["run", "docs/diffusers.md"],
}


def test_every_extra_has_a_missing_extra_case():
    from guidelint.extras import EXTRA_OF_MODULE

    assert set(COMMANDS) == set(EXTRA_OF_MODULE.values())


@pytest.mark.parametrize("extra", sorted(COMMANDS))
def test_each_command_without_its_extra_names_the_extra(tmp_path: Path, extra: str) -> None:
    from guidelint.extras import EXTRA_OF_MODULE

    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(BLOCKER)
    workspace = tmp_path / "workspace"
    shutil.copytree(REPO / "examples" / "workspace", workspace)
    (workspace / "docs").mkdir(exist_ok=True)
    (workspace / "docs" / "diffusers.md").write_text(DIFFUSERS_GUIDE)
    pyproject = workspace / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n" + RUNNER_ENV)
    modules = [module for module, its in EXTRA_OF_MODULE.items() if its == extra]
    done = subprocess.run(
        [sys.executable, "-m", "guidelint", *COMMANDS[extra]],
        cwd=workspace,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,  # a guard against a hang, not a measure
        env={
            **os.environ,
            "PYTHONPATH": f"{blocker}{os.pathsep}{REPO}",
            "GUIDELINT_TEST_BLOCK": ",".join(modules),
        },
    )
    said = done.stdout + done.stderr
    assert f"install guidelint[{extra}]" in said or f"'guidelint[{extra}]'" in said, said
    assert "Traceback" not in said
