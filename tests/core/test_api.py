"""The Python API returns what the CLI reports."""

from __future__ import annotations

import pytest

from guidelint.api import check
from guidelint.config import ConfigError


def test_check_returns_sorted_findings(make_project):
    root = make_project(
        {"scripts/a.py": "", "docs/b.md": "`scripts/z.py`\n", "docs/a.md": "`scripts/y.py`\n"}
    )
    findings = check(root)
    assert [(f.path, f.code) for f in findings] == [("docs/a.md", "GL501"), ("docs/b.md", "GL501")]
    assert check(root, ignore=["GL501"]) == []


def test_check_raises_config_error(make_project):
    root = make_project({}, config='select = ["NOPE"]')
    with pytest.raises(ConfigError):
        check(root)
