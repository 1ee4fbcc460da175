"""GL502 compares an anchor with the heading's id as the project's site makes it: in a
MkDocs project (`mkdocs.yml` at the root) Python-Markdown's slug, which makes a run of
hyphens one (python-sdk's `` `Mcp-Param-*` headers``); elsewhere GitHub's, which keeps
them."""

from __future__ import annotations

from pathlib import Path

import pytest

from guidelint.check import CheckOptions, run_check

GUIDE = "# Migration\n\n## Servers validate `Mcp-Param-*` headers (SEP-2243)\n"
NEWS = (
    "# News\n\n"
    "See [the rules](migration.md#servers-validate-mcp-param-headers-sep-2243) and\n"
    "[the gone rules](migration.md#servers-validate-mcp-param-footers-sep-2243).\n"
)


def lint(root: Path, mkdocs: bool) -> list[tuple[str, int]]:
    (root / "docs").mkdir()
    (root / "docs" / "migration.md").write_text(GUIDE)
    (root / "docs" / "whats-new.md").write_text(NEWS)
    if mkdocs:
        (root / "mkdocs.yml").write_text("site_name: SDK\n")
    report = run_check(CheckOptions(paths=[root], select=["GL502"], use_cache=False))
    return sorted((f.path, f.line) for f in report.findings)


@pytest.mark.parametrize(("mkdocs", "lines"), [(True, [4]), (False, [3, 4])])
def test_a_hyphen_run_is_one_hyphen_only_where_mkdocs_builds_the_site(tmp_path, mkdocs, lines):
    assert lint(tmp_path, mkdocs) == [("docs/whats-new.md", line) for line in lines]
