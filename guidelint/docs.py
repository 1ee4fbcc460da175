"""Rule pages: `rules/GLNNN.md` in the repository, shipped inside the package."""

from __future__ import annotations

from pathlib import Path

from guidelint.rules import rule_by_name_or_code

PACKAGE_PAGES = Path(__file__).parent / "rule_pages"
REPO_PAGES = Path(__file__).parent.parent / "rules"


def pages_dir() -> Path:
    return PACKAGE_PAGES if PACKAGE_PAGES.is_dir() else REPO_PAGES


def rule_page(key: str) -> str | None:
    rule = rule_by_name_or_code(key)
    if rule is None:
        return None
    page = pages_dir() / f"{rule.code}.md"
    try:
        return page.read_text(encoding="utf-8")
    except OSError:
        return f"# {rule.code} {rule.name}\n\n{rule.summary}\n\n(no documentation page found)\n"
