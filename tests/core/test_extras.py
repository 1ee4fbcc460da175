"""A missing optional extra is one line naming it, never a GL000 per file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

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
