"""Every command's JSON says what its text says (docs/OUTPUT.md).

Agents read the JSON; people read the text. Each case runs one command twice, as
text and as JSON, on the same input, and checks that every fact the text states
is in the JSON: each `path:line[:column]` location (as an object with that path,
line and column), each backticked name, rule code and number. Wording may differ;
information may not.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, run_cli

WORKSPACE = REPO / "examples/workspace"
LOCATION = re.compile(r"(?<![\w/.-])([\w.-][\w./-]*\.\w+):(\d+)(?::(\d+))?")
BACKTICKED = re.compile(r"`([^`\n]+)`")
CODE = re.compile(r"\bGL\d{3}\b")
# Integers that are facts; not durations ("0.4s", "(8.2s)") nor parts of names.
NUMBER = re.compile(r"(?<![\w.:/#-])\d+(?![\w.:/-]|\.\d|s\b)")


# The source excerpt under a finding ("  29 | ...", "     | ^^^") quotes the file.
EXCERPT = re.compile(r"^ *\d* \|.*$", re.MULTILINE)


def text_facts(text: str) -> dict[str, set]:
    """The checkable facts of a text report."""
    text = EXCERPT.sub("", text)
    prose = LOCATION.sub(" ", text)
    return {
        "locations": {
            (p, int(line), int(col) if col else None) for p, line, col in LOCATION.findall(text)
        },
        "names": set(BACKTICKED.findall(text)) | set(CODE.findall(text)),
        "numbers": {int(n) for n in NUMBER.findall(BACKTICKED.sub(" ", prose))},
    }


def walk(data: Any) -> Iterator[Any]:
    yield data
    children = data.values() if isinstance(data, dict) else data if isinstance(data, list) else []
    for child in children:
        yield from walk(child)


def json_locations(data: Any) -> set[tuple[str, int, int | None]]:
    found = set()
    for node in walk(data):
        if not isinstance(node, dict):
            continue
        path = node.get("path", node.get("file"))
        if isinstance(path, str) and isinstance(node.get("line"), int):
            found.add((path, node["line"], node.get("column")))
            found.add((path, node["line"], None))
        for key in ("id", "declared_in", "origin", "reason", "message", "evidence", "notes"):
            value = node.get(key)
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str):
                    found |= text_facts(text)["locations"]
    return found


def assert_json_says_what_text_says(text: str, data: Any) -> None:
    facts = text_facts(text)
    dumped = json.dumps(data, ensure_ascii=False)
    # A count in the text ("3 files") is a number in the JSON or the length of a list.
    scalars = {n for n in walk(data) if isinstance(n, int) and not isinstance(n, bool)}
    scalars |= {len(n) for n in walk(data) if isinstance(n, list)}
    strings = " ".join(n for n in walk(data) if isinstance(n, str))
    missing_locations = facts["locations"] - json_locations(data)
    missing_names = {n for n in facts["names"] if n not in strings and n not in dumped}
    missing_numbers = {
        n for n in facts["numbers"] if n not in scalars and not re.search(rf"\b{n}\b", strings)
    }
    assert not missing_locations, f"locations only in the text: {sorted(missing_locations)}"
    assert not missing_names, f"names only in the text: {sorted(missing_names)}"
    assert not missing_numbers, f"numbers only in the text: {sorted(missing_numbers)}"


def both(*args: str, cwd: Path) -> tuple[str, Any]:
    """(text output, parsed JSON output) of one command; stderr counts as text."""
    text = run_cli(*args, cwd=cwd)
    as_json = run_cli(*args, "--format", "json", cwd=cwd)
    assert text.returncode == as_json.returncode, (text.stderr, as_json.stderr)
    return text.stdout + text.stderr, json.loads(as_json.stdout)


@pytest.fixture
def workspace(tmp_path) -> Path:
    copy = tmp_path / "workspace"
    shutil.copytree(WORKSPACE, copy, ignore=shutil.ignore_patterns("workspaces"))
    return copy


def test_the_checker_notices_a_fact_missing_from_the_json():
    text = "docs/A.md:3:1: GL501 `x/y.md` does not exist (2 similar)\n"
    full = {
        "findings": [
            {
                "path": "docs/A.md",
                "line": 3,
                "column": 1,
                "code": "GL501",
                "message": "`x/y.md` does not exist (2 similar)",
            }
        ]
    }
    assert_json_says_what_text_says(text, full)
    for lacking in (
        {
            "findings": [
                {
                    "path": "docs/A.md",
                    "line": 4,
                    "column": 1,
                    "message": full["findings"][0]["message"],
                    "code": "GL501",
                }
            ]
        },
        {
            "findings": [
                {
                    "path": "docs/A.md",
                    "line": 3,
                    "column": 1,
                    "code": "GL501",
                    "message": "does not exist (2)",
                }
            ]
        },
        {
            "findings": [
                {"path": "docs/A.md", "line": 3, "column": 1, "message": "`x/y.md` (2 similar)"}
            ]
        },
        {
            "findings": [
                {
                    "path": "docs/A.md",
                    "line": 3,
                    "column": 1,
                    "code": "GL501",
                    "message": "`x/y.md` does not exist",
                }
            ]
        },
    ):
        with pytest.raises(AssertionError):
            assert_json_says_what_text_says(text, lacking)


def test_check(workspace):
    text, data = both("check", "--no-cache", cwd=workspace)
    assert data["findings"]
    assert_json_says_what_text_says(text, data)


SMOKE = ("--batch", "4", "--accum", "4")  # the incident's effective batch of 16


@pytest.mark.parametrize(
    "args",
    [
        ("rules",),
        ("tools", "list"),
        ("tiny", "list"),
        ("smoke", "plan", "--rows", "2", *SMOKE, "--epochs", "1", "--floor", "2"),
        ("smoke", "plan", "--rows", "30", *SMOKE, "--epochs", "2", "--floor", "2", "--cap", "30"),
        ("smoke", "dial", "--floor", "2", "--cap", "30", *SMOKE),
        ("smoke", "dial", "--floor", "2", "--cap", "30", *SMOKE, "--save-steps", "5"),
    ],
)
def test_listings(workspace, args):
    text, data = both(*args, cwd=workspace)
    assert_json_says_what_text_says(text, data)


@pytest.mark.parametrize(
    "args",
    [("gotcha", "list"), ("gotcha", "find", "smoke"), ("gotcha", "find", "nothing-like-this")],
)
def test_gotcha_list_and_find(workspace, args):
    text, data = both(*args, cwd=workspace)
    assert_json_says_what_text_says(text, data)


def test_gotcha_add_dry_run_and_refusal(workspace):
    add = (
        "gotcha",
        "add",
        "--headline",
        "Seeds are set once",
        "--body",
        "Set it in main.",
        "--provenance",
        "#7",
    )
    refused_text, refused = both(*add, cwd=workspace)  # the index is out of step
    assert refused["refused"] is True
    assert_json_says_what_text_says(refused_text, refused)
    assert run_cli("check", "--fix", "--select", "GL2", cwd=workspace).returncode == 0
    text, data = both(*add, "--dry-run", cwd=workspace)
    assert data["written"] is False
    assert_json_says_what_text_says(text, data)


@pytest.mark.slow  # a git repository and two runs
def test_surface(workspace):
    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=workspace,
            check=True,
            capture_output=True,
        )

    git("init", "-q", "-b", "main")
    git("add", ".")
    git("commit", "-q", "-m", "base")
    (workspace / "server/lab_server.py").write_text("# changed\n")
    text, data = both("surface", "--base", "HEAD", cwd=workspace)
    assert data["outside"] == ["server/lab_server.py"]
    assert_json_says_what_text_says(text, data)


RUN_GUIDE = """# Guide

```python {id=hello}
print("hello")
```

```output
hello
```

<!-- guidelint: pending -->
```python
print("no")
```

```output
yes
```

```python
raise ValueError("broken on purpose")
```
"""


@pytest.mark.slow  # two runs of a worker
def test_run(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.guidelint]\ninclude = ["*.md"]\n')
    (tmp_path / "GUIDE.md").write_text(RUN_GUIDE)
    (tmp_path / "BINARY.md").write_bytes(b"\xff\xfe\x00 not text")
    text, data = both("run", cwd=tmp_path)
    assert {e["status"] for e in data["examples"]} == {"passed", "pending-failed", "error"}
    assert_json_says_what_text_says(text, data)
