"""GL502 counts a page of the API reference TypeDoc writes as found: its `out` folder
when the configuration says it, else a folder named `api` (a root typedoc.config.mjs
the checker cannot read, or a package.json script that only runs `typedoc`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check

GUIDE = (
    "# Auth\n\n"
    "See [crossAppAccess](../api/@scope/client/client/crossAppAccess.md).\n"
    "See [the guide](../guides/missing.md).\n"
)


def lint(root: Path, config: dict[str, str]) -> list[int]:
    (root / "docs" / "clients").mkdir(parents=True)
    (root / "docs" / "clients" / "auth.md").write_text(GUIDE)
    for name, text in config.items():
        (root / name).write_text(text)
    report = run_check(CheckOptions(paths=[root], select=["GL502"], use_cache=False))
    return sorted(f.line for f in report.findings)


@pytest.mark.parametrize(
    ("config", "lines"),
    [
        ({}, [3, 4]),  # no TypeDoc: the API page is a broken link
        ({"package.json": '{"scripts": {"docs:api": "typedoc"}}'}, [4]),
        ({"typedoc.config.mjs": "export default {};\n"}, [4]),
        ({"typedoc.json": '{"out": "docs/api"}'}, [4]),
        ({"typedoc.json": '{"out": "docs/reference"}'}, [3, 4]),  # `api` is not its output
        ({"package.json": '{"scripts": {"docs": "typedoc --out docs/ref"}}'}, [3, 4]),
    ],
)
def test_a_typedoc_page_is_found_only_in_its_output_folder(tmp_path, config, lines):
    assert lint(tmp_path, config) == lines
