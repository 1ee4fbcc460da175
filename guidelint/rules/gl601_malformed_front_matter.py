"""GL601 malformed-front-matter: YAML front matter that cannot be read."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.doc_kind import is_fixture
from guidelint.findings import Finding, Severity
from guidelint.frontmatter import Problem, front_matter
from guidelint.project import Project
from guidelint.rule import Rule
from guidelint.sources import FileKind, SourceFile
from guidelint.tools.claude_code import point


class MalformedFrontMatter(Rule):
    code = "GL601"
    name = "malformed-front-matter"
    severity = Severity.ERROR
    file_kinds = frozenset({FileKind.MARKDOWN})
    needs = "front-matter-in-doubt"

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        if is_fixture(file.rel):
            return  # a test fixture's broken front matter is what a Markdown tool is tested on
        data = front_matter(file)
        if data is None or not data.problems:
            return
        first = data.problems[0]
        yield self.finding(file, point(file, first.offset), _first_problem(first, data.problems))


def _first_problem(first: Problem, problems: list[Problem]) -> str:
    """One finding per file: a value broken early (an unquoted multi-line description)
    makes the parser trip again at every later line that looks like `key:`, and one fix
    clears them all, so the later trips are counted in the message, not reported."""
    later = len(problems) - 1
    if not later:
        return first.message
    lines = "1 later line fails" if later == 1 else f"{later} later lines fail"
    return f"{first.message}; {lines} with it"
