"""Rule pages as test cases: the examples in `rules/GLNNN.md` are executable.

A page's fenced blocks carry attributes in braces in their info string:

    ```markdown {example=bad expect=3,7}     lines where the rule must report
    ```markdown {example=good}               the rule must report nothing
    ```markdown {example=fixed}              --fix turns the previous bad example into this
    ```json {fixture=.guidelint/tools/ml.json}   a support file, shared by the page's examples

More attributes: `path=docs/guide.md` names the example file inside the scratch
project (defaults by language below); `encoding=latin-1` writes it in another
encoding (for GL001); `fix=unsafe` on a bad example applies unsafe fixes too (as
`--unsafe-fixes` does) before comparing with the `fixed` example. A page with no
runnable examples says so with `<!-- guidelint-page: no-examples -->` and a reason.
"""

from __future__ import annotations

import functools
import re
import shlex
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from guidelint.config import Config
from guidelint.engine import Engine, build_selection
from guidelint.markdown import parse_markdown
from guidelint.project import Project

if TYPE_CHECKING:
    from guidelint.config import Settings

REQUIRED_SECTIONS = ("What it does", "Why it matters", "Example", "Use instead")
NO_EXAMPLES = "guidelint-page: no-examples"
DEFAULT_PATHS = {
    "markdown": "docs/example.md",
    "md": "docs/example.md",
    "python": "scripts/example.py",
    "py": "scripts/example.py",
    "json": ".claude/settings.json",
    "toml": "pyproject.toml",
    "text": "docs/example.md",
}
ATTRS = re.compile(r"\{(.*)\}\s*$")


@dataclass
class PageExample:
    kind: str  # bad | good | fixed
    path: str
    content: str
    line: int  # line of the fence in the page
    expect: list[int] = field(default_factory=list)
    encoding: str = "utf-8"
    unsafe_fix: bool = False  # `fix=unsafe`: the documented fix needs --unsafe-fixes


@dataclass
class RulePage:
    code: str
    title: str
    sections: list[str]
    examples: list[PageExample]
    fixtures: dict[str, str]
    no_examples: bool


def fence_attributes(info: str) -> dict[str, str]:
    match = ATTRS.search(info)
    if not match:
        return {}
    attrs = {}
    for token in shlex.split(match.group(1)):
        key, _, value = token.partition("=")
        attrs[key] = value
    return attrs


def parse_page(text: str, code: str) -> RulePage:
    doc = parse_markdown(text)
    title = doc.headings[0].text if doc.headings else ""
    sections = [h.text for h in doc.headings if h.level == 2]
    examples: list[PageExample] = []
    fixtures: dict[str, str] = {}
    for fence in doc.fences:
        attrs = fence_attributes(fence.info)
        if "fixture" in attrs:
            if fixtures.get(attrs["fixture"], fence.content) != fence.content:
                # fixtures are page-wide: a different second one would hide the first
                raise ValueError(f"rule page {code}: fixture {attrs['fixture']} written twice")
            fixtures[attrs["fixture"]] = fence.content
        elif "example" in attrs:
            expect = [int(x) for x in attrs.get("expect", "").split(",") if x.strip()]
            examples.append(
                PageExample(
                    kind=attrs["example"],
                    path=attrs.get("path") or DEFAULT_PATHS.get(fence.lang, "docs/example.md"),
                    content=fence.content,
                    line=fence.line,
                    expect=expect,
                    encoding=attrs.get("encoding", "utf-8"),
                    unsafe_fix=attrs.get("fix") == "unsafe",
                )
            )
    no_examples = any(c.body.startswith(NO_EXAMPLES) for c in doc.html_comments)
    return RulePage(code, title, sections, examples, fixtures, no_examples)


def run_example(code: str, example: PageExample, fixtures: dict[str, str], fix: bool = False):
    """Lint one example in a scratch project; return (findings of `code`, fixed text)."""
    with tempfile.TemporaryDirectory(prefix="guidelint-page-") as tmp:
        root = Path(tmp)
        for rel, content in fixtures.items():
            _write(root / rel, content)
        config: Settings = Config()
        if "pyproject.toml" in fixtures:
            from guidelint.config import load_config

            config = load_config(root).config
        target = root / example.path
        _write(target, example.content, example.encoding)
        project = Project(root, config.model_copy(update={"ignore": []}))
        engine = Engine(project, build_selection(project.config))
        if fix:
            from guidelint.fixes import fix_file

            fix_file(target, functools.partial(engine.check_text, example.path), example.unsafe_fix)
        findings = [f for f in engine.check_file(example.path) if f.code == code]
        fixed_text = target.read_bytes().decode(example.encoding) if fix else None
        return findings, fixed_text


def _write(path: Path, content: str, encoding: str = "utf-8") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode(encoding))
