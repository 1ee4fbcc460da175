"""GL601 malformed-front-matter: YAML front matter that cannot be read."""

from __future__ import annotations

from collections.abc import Iterator

from guidelint.doc_kind import is_fixture
from guidelint.findings import Finding, Severity
from guidelint.frontmatter import front_matter
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
        if data is None:
            return
        for problem in data.problems:
            yield self.finding(file, point(file, problem.offset), problem.message)
